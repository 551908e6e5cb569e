"""Pretty-printer: AST -> canonical plan text (one clause per line).

Re-parsing the output gives an equal AST (tested with hypothesis). Skills are
printed as written (``SkillRef.text``); names that would not read back as the
same bare words are quoted.
"""

from __future__ import annotations

import re

from referee.plan import ast as A
from referee.plan.transformer import CLASS_WORDS

_BARE_WORD = re.compile(r"^[^\W\d_][\w\-'’=＝・]*$")
#: Every keyword of the grammar: a name containing one as a word is quoted.
KEYWORDS = frozenset("""
acting alive allies ally and away bound by counter enemies enemy engaged even extend farthest fire
first for friendly from heal highest hold hp in is keep least lost lowest maintain max most move my
nearest never not only or own position range readies release second self stack target then to toward
towards turn unhurt use whose with when if
aim at frozen spare take
all attack attacked damage dice die evade evasion fewest focus hard incoming maneuver manoeuvre melee mode no
object stance ultra
boost defence defense drop grapple grappled ko on push recover
follow up
""".split())
_RANK_TEXT: dict[str, str] = {
    "nearest": "nearest", "farthest": "farthest", "lowest-hp": "lowest hp", "highest-hp": "highest hp",
    "most-hp-lost": "most hp lost", "least-hp-lost": "least hp lost",
}
_QUANTITY_TEXT = {"hp": "hp", "hp_lost": "hp lost", "max_hp": "max hp"}
_SCOPE_TEXT = {"in_range": "in range", "alive": "alive"}


def format_name(text: str) -> str:
    """``Kagura`` bare; ``"Red Fox"`` or ``"d4"`` quoted when bare would read differently."""
    words = text.split(" ")
    if all(_BARE_WORD.match(w) and w.lower() not in KEYWORDS for w in words):
        return text
    return f'"{text}"'


def _subject(subject: A.Subject) -> str:
    return "" if subject == "self" else subject + " "


def format_condition(cond: A.Condition, *, candidate: bool = False) -> str:
    """A condition as plan text. ``candidate``: inside ``ally with``, where the
    subject ``target`` is implicit."""

    def subj(s: A.Subject) -> str:
        return "" if candidate and s == "target" else _subject(s)

    def part(c: A.Condition, parent: type) -> str:
        text = format_condition(c, candidate=candidate)
        if isinstance(c, (A.And, A.Or)) and (parent is A.Not or isinstance(c, A.Or) or parent is A.And and isinstance(c, A.And)):
            return f"({text})"
        return text

    if isinstance(cond, A.Compare):
        return f"{subj(cond.subject)}{_QUANTITY_TEXT[cond.quantity]} {cond.op} {cond.value}"
    if isinstance(cond, A.Count):
        return f"{cond.side} {_SCOPE_TEXT[cond.scope]} {cond.op} {cond.value}"
    if isinstance(cond, A.TurnCompare):
        return f"turn {cond.op} {cond.value}"
    if isinstance(cond, A.Engaged):
        return f"{subj(cond.subject)}engaged"
    if isinstance(cond, A.Bound):
        return f"{subj(cond.subject)}bound"
    if isinstance(cond, A.Readies):
        if cond.skill is None:
            what = cond.skill_class or ""
        elif cond.skill.text.lower() in CLASS_WORDS:  # a skill named like a class: quoted, or it reads as the class
            what = f'"{cond.skill.text}"'
        else:
            what = format_name(cond.skill.text)
        return f"{subj(cond.subject)}readies {what}"
    if isinstance(cond, A.Frozen):
        return f"{subj(cond.subject)}frozen"
    if isinstance(cond, A.Ko):  # d20pool (R-D20-PLAN-2)
        return f"{subj(cond.subject)}ko"
    if isinstance(cond, A.Grappled):  # d20pool (R-D20-PLAN-2)
        return f"{subj(cond.subject)}grappled"
    if isinstance(cond, A.ActingFirst):
        return "acting first"
    if isinstance(cond, A.ActingSecond):
        return "acting second"
    # soulwired (R-SOUL-PLAN-2/4)
    if isinstance(cond, A.EvasionDiceLeft):
        return f"{subj(cond.subject)}evasion dice {cond.op} {cond.value}"
    if isinstance(cond, A.Attacked):
        return "attacked"
    if isinstance(cond, A.HardModeOn):
        return "hard mode"
    if isinstance(cond, A.UltraHard):
        return "ultra hard"
    if isinstance(cond, A.IncomingDamage):
        return f"incoming damage {cond.op} {cond.value}"
    if isinstance(cond, A.IncomingMelee):
        return "incoming melee"
    if isinstance(cond, A.Not):
        return "not " + part(cond.operand, A.Not)
    if isinstance(cond, A.And):
        return " and ".join(part(p, A.And) for p in cond.parts)
    if isinstance(cond, A.Or):
        return " or ".join(part(p, A.Or) for p in cond.parts)
    raise TypeError(f"not a condition: {cond!r}")


def _target(node: A.Node) -> str:
    if isinstance(node, A.RankBy):
        return _RANK_TEXT[node.key]
    if isinstance(node, A.CharacterRef):
        return format_name(node.name)
    if isinstance(node, A.AllyWith):
        return "ally with " + format_condition(node.test, candidate=True)
    if isinstance(node, A.EnemyWith):
        return "enemy with " + format_condition(node.test, candidate=True)
    if isinstance(node, A.AllAllies):
        return "allies"
    if isinstance(node, A.AllEnemies):
        return "enemies"
    if isinstance(node, A.NearestEnemy):
        return "nearest enemy"
    if isinstance(node, A.NearestAlly):
        return "nearest ally"
    if isinstance(node, A.SquareRef):
        return node.name
    if isinstance(node, A.FewestEvasionDice):  # soulwired
        return "fewest evasion dice"
    raise TypeError(f"not a target: {node!r}")


def format_clause(clause: A.Clause) -> str:
    """One clause as a line of plan text (no newline)."""
    cond = getattr(clause, "condition", None)
    when = "" if cond is None else " when " + format_condition(cond)
    with_ = ""
    skill = getattr(clause, "skill", None)
    if isinstance(clause, (A.TargetPreference, A.NeverTarget, A.OnlyTarget)) and skill is not None:
        with_ = f"with {format_name(skill.text)} "
    if isinstance(clause, A.UseFirst):
        return f"use {format_name(clause.skill.text)} first{when}"
    if isinstance(clause, A.UseOnlyWhen):
        return f"use {format_name(clause.skill.text)} only{when}"
    if isinstance(clause, A.NeverUse):
        return f"never use {format_name(clause.skill.text)}{when}"
    if isinstance(clause, A.TargetPreference):
        return f"{with_}target {_target(clause.preference)}{when}"
    if isinstance(clause, A.NeverTarget):
        return f"{with_}never target {format_name(clause.character.name)}{when}"
    if isinstance(clause, A.OnlyTarget):
        return f"{with_}only target {_target(clause.who)}{when}"
    if isinstance(clause, A.Extend):
        extent = " max" if clause.count == "max" else ("" if clause.count == 1 else f" by {clause.count}")
        return f"extend {format_name(clause.skill.text)}{extent}{when}"
    if isinstance(clause, A.FriendlyFire):
        return f"friendly fire{when}"
    if isinstance(clause, A.CounterAllies):
        return f"counter allies{when}"
    if isinstance(clause, A.HealEvenWhenUnhurt):
        return f"heal even when unhurt{when}"
    if isinstance(clause, A.Stack):
        return f"stack {format_name(clause.skill.text)}{when}"
    if isinstance(clause, A.Maintain):
        return f"maintain {format_name(clause.skill.text)}{when}"
    if isinstance(clause, A.Release):
        return f"release {format_name(clause.skill.text)}{when}"
    if isinstance(clause, A.MoveToward):
        dest = clause.destination
        text = _target(dest)
        if isinstance(dest, A.CharacterRef) and text == dest.name and re.match(r"^[a-z]{1,2}[1-9][0-9]?$", dest.name):
            text = f'"{dest.name}"'  # a character called like a square
        then = "" if clause.then_use is None else f" then use {format_name(clause.then_use.text)}"
        return f"move toward {text}{then}{when}"
    if isinstance(clause, A.MoveTo):
        return f"move to {clause.square.name}{when}"
    if isinstance(clause, A.HoldPosition):
        return f"hold position{when}"
    if isinstance(clause, A.KeepAway):
        return f"keep away from enemies{when}"
    if isinstance(clause, A.Spare):
        return f"spare {_target(clause.who)}{when}"
    if isinstance(clause, A.TakeAim):
        return f"take aim at {format_name(clause.character.name)}{when}"
    # soulwired (R-SOUL-PLAN-1..3)
    if isinstance(clause, A.StanceOrder):
        return {"focus": "focus", "maneuver": "maneuver", "none": "no stance"}[clause.stance] + when
    if isinstance(clause, A.Evade):
        return ("never evade" if clause.never else f"evade with {clause.dice}") + when
    if isinstance(clause, A.AttackObjectAt):
        return f"attack object at {clause.square.name}{when}"
    d20 = _format_d20_clause(clause, when)
    if d20 is not None:
        return d20
    if isinstance(clause, A.NeverFollowUp):
        return f"never follow up{when}"  # orm (R-ORM-PLAN-1)
    raise TypeError(f"not a clause: {clause!r}")


def _format_d20_clause(clause: A.Clause, when: str) -> str | None:
    """d20pool's clauses (variant-d20.md R-D20-PLAN-1), or None."""
    if isinstance(clause, A.DropDice):
        return f"drop {clause.count} {'die' if clause.count == 1 else 'dice'} on {clause.check}{when}"
    if isinstance(clause, A.Boost):
        return f"boost {clause.check} by {clause.amount}{when}"
    if isinstance(clause, A.Recover):
        target = "" if clause.target is None else f" target {_target(clause.target)}"
        return f"recover{target}{when}"
    if isinstance(clause, (A.Push, A.Grapple)):
        word = "push" if isinstance(clause, A.Push) else "grapple"
        target = "" if clause.preference is None else f" target {_target(clause.preference)}"
        return f"{word}{target}{when}"
    return None


def format_plan(plan: A.Plan) -> str:
    """The whole plan, one clause per line, ending with a newline."""
    return "".join(format_clause(c) + "\n" for c in plan.clauses)
