"""Lark parse tree -> frozen AST nodes (:mod:`referee.plan.ast`).

One method per grammar rule of ``grammar/plan.lark`` (same names). Keyword
tokens carry no information beyond the rule they appear in and are dropped;
the few facts a parse tree cannot express (a bare square, an oversized number,
an empty quoted name) become diagnostics collected on the transformer, so a
file with several such problems reports them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from lark import Token, Transformer, v_args
from lark.tree import Meta

from referee.diagnostics import Diagnostic
from referee.plan import ast as A

#: Canonical spelling of every operator the grammar accepts.
OP_SPELLINGS: dict[str, A.Op] = {
    "<": "<", "<=": "<=", "=<": "<=", "≤": "<=",
    "==": "==", "=": "==", "＝": "==",
    "!=": "!=", "≠": "!=",
    ">=": ">=", "=>": ">=", "≥": ">=", ">": ">",
}
#: R-SK-2 classes as a plan may name them after ``readies`` (English and 漢字).
CLASS_WORDS: dict[str, str] = {
    "attack": "attack", "攻撃": "attack",
    "heal": "heal", "回復": "heal",
    "obstruct": "obstruct", "妨害": "obstruct",
    "passive": "passive", "受動": "passive",
    "defence": "defence", "defense": "defence", "防御": "defence",
    "counter": "counter", "反撃": "counter",
    "maintain": "maintain", "維持": "maintain",
    "change": "change", "変化": "change",
    "extend": "extend", "拡大": "extend",
}
#: A square as written: file letters then rank digits (``d4``, ``aa12``).
SQUARE_RE = re.compile(r"^[a-z]{1,2}[1-9][0-9]?$")
#: Largest number a plan may write (keeps int() cheap on hostile input).
MAX_NUMBER = 9999
#: Token types that carry data; every other token is a keyword.
DATA_TOKENS = frozenset({"NAME", "STRING", "INT", "OP"})

_RANKS: dict[str, A.RankKey] = {
    "nearest": "nearest", "farthest": "farthest",
    "lowest hp": "lowest-hp", "highest hp": "highest-hp",
    "most hp lost": "most-hp-lost", "least hp lost": "least-hp-lost",
}
_QUANTITIES: dict[str, A.Quantity] = {"hp": "hp", "hp lost": "hp_lost", "max hp": "max_hp"}
_SUBJECTS: dict[str, A.Subject] = {"self": "self", "my": "self", "own": "self", "target": "target", "ally": "ally"}


@dataclass(frozen=True, slots=True)
class _Name:
    """A name before we know whether it is a skill, a character or a square."""

    text: str
    quoted: bool
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class _Extent:
    value: int | A.Order


def _words(tokens: Sequence[Any]) -> str:
    return " ".join(str(t).lower() for t in tokens if isinstance(t, Token))


def _data(children: Sequence[Any]) -> list[Any]:
    """Children without keyword tokens."""
    return [c for c in children if not (isinstance(c, Token) and c.type not in DATA_TOKENS)]


def _is_condition(x: Any) -> bool:
    return isinstance(x, (A.Compare, A.Count, A.TurnCompare, A.Engaged, A.Bound, A.Readies,
                          A.ActingFirst, A.ActingSecond, A.And, A.Or, A.Not, A.Frozen, *A.SOUL_CONDITION_TYPES,
                          A.Ko, A.Grappled))


@v_args(meta=True)
class PlanTransformer(Transformer[Token, Any]):
    """Builds AST nodes; positions are shifted by ``line_shift`` (lines) and,
    on the first line only, ``column_shift`` (for a condition embedded in a
    character sheet, or a line parsed on its own during recovery)."""

    def __init__(self, file: str, line_shift: int = 0, column_shift: int = 0) -> None:
        super().__init__(visit_tokens=False)
        self.file = file
        self.line_shift = line_shift
        self.column_shift = column_shift
        self.diagnostics: list[Diagnostic] = []

    # -- positions and helpers ---------------------------------------------------

    def _pos(self, line: int, column: int) -> dict[str, int]:
        return {"line": line + self.line_shift, "column": column + (self.column_shift if line == 1 else 0)}

    def _at(self, meta: Meta) -> dict[str, int]:
        if getattr(meta, "empty", True):
            return {"line": 0, "column": 0}
        return self._pos(meta.line, meta.column)

    def _error(self, where: dict[str, int], code: str, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(self.file, where["line"], where["column"], code, message, hint))

    def _int(self, token: Token) -> int:
        text = str(token)
        digits = text.lstrip("0") or "0"
        if len(digits) > 4 or int(digits) > MAX_NUMBER:
            self._error(self._pos(token.line or 1, token.column or 1), "number-too-large",
                        f"the number {text[:12]}{'...' if len(text) > 12 else ''} is too large; plans use numbers up to {MAX_NUMBER}")
            return MAX_NUMBER
        return int(digits)

    def _op(self, token: Token) -> A.Op:
        return OP_SPELLINGS[str(token)]

    @staticmethod
    def _split(children: Sequence[Any]) -> tuple[A.SkillRef | None, list[Any], A.Condition | None]:
        """(leading ``with SKILL``, the middle, trailing condition)."""
        items = _data(children)
        skill = items.pop(0) if items and isinstance(items[0], A.SkillRef) else None
        cond = items.pop() if items and _is_condition(items[-1]) else None
        return skill, items, cond

    def _character(self, name: _Name) -> A.CharacterRef:
        return A.CharacterRef(name.text, line=name.line, column=name.column)

    # -- start rules ---------------------------------------------------------------

    def plan(self, meta: Meta, children: list[Any]) -> list[A.Clause]:
        return [c for c in children if isinstance(c, A.Clause)]

    def clause_line(self, meta: Meta, children: list[Any]) -> A.Clause:
        clause: A.Clause = children[0]
        return clause

    def condition_text(self, meta: Meta, children: list[Any]) -> A.Condition:
        cond: A.Condition = children[0]
        return cond

    # -- clauses -----------------------------------------------------------------------

    def use_first(self, meta: Meta, children: list[Any]) -> A.UseFirst:
        skill, _, cond = self._split(children)
        assert skill is not None
        return A.UseFirst(skill, cond, **self._at(meta))

    def use_only(self, meta: Meta, children: list[Any]) -> A.UseOnlyWhen:
        skill, _, cond = self._split(children)
        assert skill is not None and cond is not None
        return A.UseOnlyWhen(skill, cond, **self._at(meta))

    def never_use(self, meta: Meta, children: list[Any]) -> A.NeverUse:
        skill, _, cond = self._split(children)
        assert skill is not None
        return A.NeverUse(skill, cond, **self._at(meta))

    def with_skill(self, meta: Meta, children: list[Any]) -> A.SkillRef:
        ref: A.SkillRef = _data(children)[0]
        return ref

    def target_pref(self, meta: Meta, children: list[Any]) -> A.TargetPreference:
        skill, mid, cond = self._split(children)
        pref = mid[0]
        if isinstance(pref, _Name):
            pref = self._character(pref)
        return A.TargetPreference(pref, skill, cond, **self._at(meta))

    def never_target(self, meta: Meta, children: list[Any]) -> A.NeverTarget:
        skill, mid, cond = self._split(children)
        return A.NeverTarget(self._character(mid[0]), skill, cond, **self._at(meta))

    def only_target(self, meta: Meta, children: list[Any]) -> A.OnlyTarget:
        skill, mid, cond = self._split(children)
        who = mid[0]
        if isinstance(who, _Name):
            who = self._character(who)
        return A.OnlyTarget(who, skill, cond, **self._at(meta))

    def rank(self, meta: Meta, children: list[Any]) -> A.RankBy:
        return A.RankBy(_RANKS[_words(children)], **self._at(meta))

    def all_allies(self, meta: Meta, children: list[Any]) -> A.AllAllies:
        return A.AllAllies(**self._at(meta))

    def all_enemies(self, meta: Meta, children: list[Any]) -> A.AllEnemies:
        return A.AllEnemies(**self._at(meta))

    def extend(self, meta: Meta, children: list[Any]) -> A.Extend:
        skill, mid, cond = self._split(children)
        assert skill is not None
        count: int | A.Order = mid[0].value if mid else 1
        return A.Extend(skill, count, cond, **self._at(meta))

    def extent_by(self, meta: Meta, children: list[Any]) -> _Extent:
        return _Extent(self._int(_data(children)[0]))

    def extent_max(self, meta: Meta, children: list[Any]) -> _Extent:
        return _Extent("max")

    def friendly_fire(self, meta: Meta, children: list[Any]) -> A.FriendlyFire:
        return A.FriendlyFire(self._split(children)[2], **self._at(meta))

    def counter_allies(self, meta: Meta, children: list[Any]) -> A.CounterAllies:
        return A.CounterAllies(self._split(children)[2], **self._at(meta))

    def heal_unhurt(self, meta: Meta, children: list[Any]) -> A.HealEvenWhenUnhurt:
        return A.HealEvenWhenUnhurt(self._split(children)[2], **self._at(meta))

    def stack(self, meta: Meta, children: list[Any]) -> A.Stack:
        skill, _, cond = self._split(children)
        assert skill is not None
        return A.Stack(skill, cond, **self._at(meta))

    def maintain(self, meta: Meta, children: list[Any]) -> A.Maintain:
        skill, _, cond = self._split(children)
        assert skill is not None
        return A.Maintain(skill, cond, **self._at(meta))

    def release(self, meta: Meta, children: list[Any]) -> A.Release:
        skill, _, cond = self._split(children)
        assert skill is not None
        return A.Release(skill, cond, **self._at(meta))

    def move_toward(self, meta: Meta, children: list[Any]) -> A.MoveToward:
        items = _data(children)
        cond = items.pop() if items and _is_condition(items[-1]) else None
        then = items.pop() if len(items) > 1 and isinstance(items[-1], A.SkillRef) else None
        dest = items[0]
        if isinstance(dest, _Name):
            # a bare square-shaped word is a square; quote a character called "d4"
            if not dest.quoted and SQUARE_RE.match(dest.text):
                dest = A.SquareRef(dest.text, line=dest.line, column=dest.column)
            else:
                dest = self._character(dest)
        return A.MoveToward(dest, then, cond, **self._at(meta))

    def then_use(self, meta: Meta, children: list[Any]) -> A.SkillRef:
        ref: A.SkillRef = _data(children)[0]
        return ref

    def nearest_enemy(self, meta: Meta, children: list[Any]) -> A.NearestEnemy:
        return A.NearestEnemy(**self._at(meta))

    def nearest_ally(self, meta: Meta, children: list[Any]) -> A.NearestAlly:
        return A.NearestAlly(**self._at(meta))

    def move_to(self, meta: Meta, children: list[Any]) -> A.MoveTo:
        items = _data(children)
        cond = items.pop() if items and _is_condition(items[-1]) else None
        name: _Name = items[0]
        text = name.text.lower()
        if name.quoted or not SQUARE_RE.match(text):
            where = {"line": name.line, "column": name.column}
            self._error(where, "not-a-square", f"'{name.text}' is not a square; write a square like d4",
                        hint=f"to follow a character, write 'move toward {name.text}'")
        return A.MoveTo(A.SquareRef(text, line=name.line, column=name.column), cond, **self._at(meta))

    def hold_position(self, meta: Meta, children: list[Any]) -> A.HoldPosition:
        return A.HoldPosition(self._split(children)[2], **self._at(meta))

    def keep_away(self, meta: Meta, children: list[Any]) -> A.KeepAway:
        return A.KeepAway(self._split(children)[2], **self._at(meta))

    def never_follow_up(self, meta: Meta, children: list[Any]) -> A.NeverFollowUp:
        return A.NeverFollowUp(self._split(children)[2], **self._at(meta))  # orm (R-ORM-PLAN-1)

    def ally_with(self, meta: Meta, children: list[Any]) -> A.AllyWith:
        return A.AllyWith(_data(children)[0], **self._at(meta))

    # -- conditions ----------------------------------------------------------------

    def when(self, meta: Meta, children: list[Any]) -> A.Condition:
        cond: A.Condition = _data(children)[0]
        return cond

    def or_cond(self, meta: Meta, children: list[Any]) -> A.Or:
        return A.Or(tuple(_data(children)), **self._at(meta))

    def and_cond(self, meta: Meta, children: list[Any]) -> A.And:
        return A.And(tuple(_data(children)), **self._at(meta))

    def not_(self, meta: Meta, children: list[Any]) -> A.Not:
        return A.Not(_data(children)[0], **self._at(meta))

    ally_or = or_cond
    ally_and = and_cond
    ally_not_ = not_

    def compare(self, meta: Meta, children: list[Any]) -> A.Compare:
        items = _data(children)
        subject: A.Subject = items.pop(0) if len(items) == 4 else "self"
        quantity, op, value = items
        return A.Compare(subject, quantity, self._op(op), self._int(value), **self._at(meta))

    def ally_compare(self, meta: Meta, children: list[Any]) -> A.Compare:
        quantity, op, value = _data(children)
        return A.Compare("target", quantity, self._op(op), self._int(value), **self._at(meta))

    def subject(self, meta: Meta, children: list[Any]) -> A.Subject:
        return _SUBJECTS[_words(children)]

    def quantity(self, meta: Meta, children: list[Any]) -> A.Quantity:
        return _QUANTITIES[_words(children)]

    def count(self, meta: Meta, children: list[Any]) -> A.Count:
        side, scope, op, value = _data(children)
        return A.Count(side, scope, self._op(op), self._int(value), **self._at(meta))

    def side(self, meta: Meta, children: list[Any]) -> A.Side:
        return "enemies" if _words(children) == "enemies" else "allies"

    def scope(self, meta: Meta, children: list[Any]) -> A.CountScope:
        return "alive" if _words(children) == "alive" else "in_range"

    def turn(self, meta: Meta, children: list[Any]) -> A.TurnCompare:
        op, value = _data(children)
        return A.TurnCompare(self._op(op), self._int(value), **self._at(meta))

    def engaged(self, meta: Meta, children: list[Any]) -> A.Engaged:
        items = _data(children)
        return A.Engaged(items[0] if items else "self", **self._at(meta))

    def bound(self, meta: Meta, children: list[Any]) -> A.Bound:
        items = _data(children)
        return A.Bound(items[0] if items else "self", **self._at(meta))

    def ally_engaged(self, meta: Meta, children: list[Any]) -> A.Engaged:
        return A.Engaged("target", **self._at(meta))

    def ally_bound(self, meta: Meta, children: list[Any]) -> A.Bound:
        return A.Bound("target", **self._at(meta))

    # -- wiz (variant-wiz.md R-WIZ-PLAN-1) -----------------------------------------

    def frozen(self, meta: Meta, children: list[Any]) -> A.Frozen:
        items = _data(children)
        return A.Frozen(items[0] if items else "self", **self._at(meta))

    def ally_frozen(self, meta: Meta, children: list[Any]) -> A.Frozen:
        return A.Frozen("target", **self._at(meta))

    def enemy_with(self, meta: Meta, children: list[Any]) -> A.EnemyWith:
        return A.EnemyWith(_data(children)[0], **self._at(meta))

    def spare(self, meta: Meta, children: list[Any]) -> A.Spare:
        _, mid, cond = self._split(children)
        who = mid[0]
        if isinstance(who, _Name):
            who = self._character(who)
        return A.Spare(who, cond, **self._at(meta))

    def take_aim(self, meta: Meta, children: list[Any]) -> A.TakeAim:
        _, mid, cond = self._split(children)
        return A.TakeAim(self._character(mid[0]), cond, **self._at(meta))

    def _readies(self, meta: Meta, subject: A.Subject, name: _Name) -> A.Readies:
        cls = None if name.quoted else CLASS_WORDS.get(name.text.lower())
        if cls is not None:
            return A.Readies(subject, None, cls, **self._at(meta))
        skill = A.SkillRef(name.text, line=name.line, column=name.column)
        return A.Readies(subject, skill, None, **self._at(meta))

    def readies(self, meta: Meta, children: list[Any]) -> A.Readies:
        items = _data(children)
        subject: A.Subject = items[0] if len(items) == 2 else "self"
        return self._readies(meta, subject, items[-1])

    def ally_readies(self, meta: Meta, children: list[Any]) -> A.Readies:
        return self._readies(meta, "target", _data(children)[0])

    def acting(self, meta: Meta, children: list[Any]) -> A.ActingFirst | A.ActingSecond:
        if _words(children).endswith("first"):
            return A.ActingFirst(**self._at(meta))
        return A.ActingSecond(**self._at(meta))

    # -- names ---------------------------------------------------------------------

    def skill(self, meta: Meta, children: list[Any]) -> A.SkillRef:
        name: _Name = children[0]
        return A.SkillRef(name.text, line=name.line, column=name.column)

    def character(self, meta: Meta, children: list[Any]) -> _Name:
        name: _Name = children[0]
        return name

    def name(self, meta: Meta, children: list[Any]) -> _Name:
        first: Token = children[0]
        where = self._pos(first.line or 1, first.column or 1)
        if first.type == "STRING":
            text = str(first)[1:-1].strip()
            if not text:
                self._error(where, "empty-name", "an empty quoted name; write the skill or character name between the quotes")
                text = "?"
            return _Name(text, True, where["line"], where["column"])
        return _Name(" ".join(str(t) for t in children), False, where["line"], where["column"])

    # -- soulwired (variant-soulwired.md R-SOUL-PLAN-1..4) ---------------------------

    def stance(self, meta: Meta, children: list[Any]) -> A.StanceOrder:
        items = _data(children)
        cond = items.pop() if items and _is_condition(items[-1]) else None
        kind: A.StanceKind = items[0]
        return A.StanceOrder(kind, cond, **self._at(meta))

    def stance_word(self, meta: Meta, children: list[Any]) -> A.StanceKind:
        words = _words(children)
        return "focus" if words == "focus" else "none" if words.startswith("no") else "maneuver"

    def evade(self, meta: Meta, children: list[Any]) -> A.Evade:
        items = _data(children)
        cond = items.pop() if items and _is_condition(items[-1]) else None
        never = any(isinstance(c, Token) and c.type == "NEVER" for c in children)
        if never:
            return A.Evade(0, True, cond, **self._at(meta))
        dice: int | str = self._int(items[0]) if items else "all"
        return A.Evade(dice if isinstance(dice, int) else "all", False, cond, **self._at(meta))

    def attack_object(self, meta: Meta, children: list[Any]) -> A.AttackObjectAt:
        items = _data(children)
        cond = items.pop() if items and _is_condition(items[-1]) else None
        name: _Name = items[0]
        text = name.text.lower()
        if name.quoted or not SQUARE_RE.match(text):
            self._error({"line": name.line, "column": name.column}, "not-a-square",
                        f"'{name.text}' is not a square; write the object's square like c1 (R-SOUL-PLAN-5)")
        return A.AttackObjectAt(A.SquareRef(text, line=name.line, column=name.column), cond, **self._at(meta))

    def evasion_dice(self, meta: Meta, children: list[Any]) -> A.EvasionDiceLeft:
        items = _data(children)
        subject: A.Subject = items.pop(0) if len(items) == 3 else "self"
        op, value = items
        return A.EvasionDiceLeft(subject, self._op(op), self._int(value), **self._at(meta))

    def attacked(self, meta: Meta, children: list[Any]) -> A.Attacked:
        return A.Attacked(**self._at(meta))

    def hard_mode(self, meta: Meta, children: list[Any]) -> A.HardModeOn:
        return A.HardModeOn(**self._at(meta))

    def ultra_hard(self, meta: Meta, children: list[Any]) -> A.UltraHard:
        return A.UltraHard(**self._at(meta))

    def incoming_damage(self, meta: Meta, children: list[Any]) -> A.IncomingDamage:
        op, value = _data(children)
        return A.IncomingDamage(self._op(op), self._int(value), **self._at(meta))

    def incoming_melee(self, meta: Meta, children: list[Any]) -> A.IncomingMelee:
        return A.IncomingMelee(**self._at(meta))

    def fewest_evasion(self, meta: Meta, children: list[Any]) -> A.FewestEvasionDice:
        return A.FewestEvasionDice(**self._at(meta))
    # -- d20pool (variant-d20.md R-D20-PLAN-1..2) ----------------------------------

    def _preference_of(self, items: list[Any]) -> A.TargetPref | None:
        """The ``target P`` of a push, grapple or recover clause, if written."""
        if not items:
            return None
        pref = items[0]
        return self._character(pref) if isinstance(pref, _Name) else pref

    def _count(self, token: Token) -> int:
        """N of a drop or boost clause; 0 is refused by ``referee check``
        (R-D20-PLAN-3), not here, so the clause still reaches the AST."""
        return self._int(token)

    def check_kind(self, meta: Meta, children: list[Any]) -> A.CheckKind:
        return "attack" if _words(children) == "attack" else "defence"

    def drop_dice(self, meta: Meta, children: list[Any]) -> A.DropDice:
        _, mid, cond = self._split(children)
        count, kind = mid
        return A.DropDice(kind, self._count(count), cond, **self._at(meta))

    def boost(self, meta: Meta, children: list[Any]) -> A.Boost:
        _, mid, cond = self._split(children)
        kind, amount = mid
        return A.Boost(kind, self._count(amount), cond, **self._at(meta))

    def recover_target(self, meta: Meta, children: list[Any]) -> A.TargetPref | None:
        return self._preference_of(_data(children))

    def recover(self, meta: Meta, children: list[Any]) -> A.Recover:
        _, mid, cond = self._split(children)
        return A.Recover(cond, mid[0] if mid else None, **self._at(meta))

    def push(self, meta: Meta, children: list[Any]) -> A.Push:
        _, mid, cond = self._split(children)
        return A.Push(self._preference_of(mid), cond, **self._at(meta))

    def grapple(self, meta: Meta, children: list[Any]) -> A.Grapple:
        _, mid, cond = self._split(children)
        return A.Grapple(self._preference_of(mid), cond, **self._at(meta))

    def ko(self, meta: Meta, children: list[Any]) -> A.Ko:
        items = _data(children)
        return A.Ko(items[0] if items else "self", **self._at(meta))

    def grappled(self, meta: Meta, children: list[Any]) -> A.Grappled:
        items = _data(children)
        return A.Grappled(items[0] if items else "self", **self._at(meta))

    def ally_ko(self, meta: Meta, children: list[Any]) -> A.Ko:
        return A.Ko("target", **self._at(meta))

    def ally_grappled(self, meta: Meta, children: list[Any]) -> A.Grappled:
        return A.Grappled("target", **self._at(meta))
