"""The semantic pass: resolve names, check limits, one diagnostic per problem.

Separate from parsing (style lesson 9): the parser knows the language, this
module knows the catalogue and the sheet. Decisions (docs/decisions.md, "Plan
language"):

* an unknown skill is an error (``unknown-skill``) with a did-you-mean hint;
* a skill the sheet does not list is a *warning* (``skill-not-on-sheet``): the
  clause can never apply, but the battle is still well defined;
* ``extend`` on a skill not classed extend (``not-extendable``), ``maintain`` /
  ``release`` on a skill not classed maintain (``not-maintainable``) and
  ``stack`` on a skill that is not passive (``not-stackable``) are errors;
* ``target ...`` in a clause that concerns no skill target
  (``target-without-skill``) is an error;
* more than ``max_clauses_per_intellect`` x intellect clauses
  (``too-many-clauses``, R-CHAR-4) is an error, at the first clause too many --
  checked only when ``intellect`` is given (a plan checked alone has no sheet);
* a character name not in ``known_characters`` (``unknown-character``) is an
  error, checked only when the names are known (with a battle); the hint
  offers the battle's names and the plan language's own words when the name
  is really a phrase (``weakest`` -> ``lowest hp``, ``the nearest enemy`` ->
  ``nearest``): such a clause would otherwise silently never apply;
* a variant's clause or condition under a ruleset whose mechanics do not
  give it (``clause-not-in-ruleset``, :mod:`referee.plan.gate`), checked when
  the ruleset's ``features`` are given;
* a square off the map or blocked (``off-map``, ``blocked-square``) is an
  error, checked when the ruleset's ``board`` is given: the character would
  stand still for the whole battle ("no route").
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from typing import Any, Protocol, Sequence, TypeVar

from referee.diagnostics import Diagnostic
from referee.mechanicspec import Features
from referee.plan import ast as A
from referee.plan.gate import gate_diagnostics
from referee.plan.innate import NORMAL_ATTACK, WithInnateSkills
from referee.plan.parser import iter_conditions

N = TypeVar("N")

#: Clauses in which ``target`` has a meaning (a skill considers candidates).
TARGET_CLAUSES: tuple[type[A.Clause], ...] = (
    A.UseFirst, A.UseOnlyWhen, A.NeverUse, A.TargetPreference, A.NeverTarget, A.OnlyTarget, A.Extend,
) + A.D20_CLAUSES  # d20pool: the primary target / the attacker / the candidate (R-D20-PLAN-1)


class _Skill(Protocol):
    id: str
    classes: tuple[str, ...]

    def label(self) -> str: ...


class BoardLike(Protocol):
    """What the pass needs of :class:`referee.ruleset.MapSpec`."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def blocked(self) -> tuple[str, ...]: ...


class CatalogLike(Protocol):
    """What the pass needs of :class:`referee.catalog.SkillCatalog`."""

    def resolve(self, name: str) -> Any: ...

    def did_you_mean(self, name: str) -> str | None: ...


def resolve_plan(plan: A.Plan, catalog: CatalogLike) -> tuple[A.Plan, list[Diagnostic]]:
    """The plan with every :class:`SkillRef` id filled in, and an
    ``unknown-skill`` error for each name the catalogue does not know."""
    diags: list[Diagnostic] = []

    def fix(ref: A.SkillRef) -> A.SkillRef:
        skill = catalog.resolve(ref.text)
        if skill is None:
            diags.append(Diagnostic(plan.file, ref.line, ref.column, "unknown-skill",
                                    f"unknown skill '{ref.text}'", hint=catalog.did_you_mean(ref.text)))
            return ref
        return dataclasses.replace(ref, id=skill.id)

    return _map_skills(plan, fix), diags


def _map_skills(node: N, fix: Any) -> N:
    """Rebuild ``node`` with ``fix`` applied to every SkillRef inside it."""
    if isinstance(node, A.SkillRef):
        out: N = fix(node)
        return out
    if isinstance(node, tuple):
        return tuple(_map_skills(x, fix) for x in node)  # type: ignore[return-value]
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        new = _map_skills(value, fix)
        if new is not value:
            changes[f.name] = new
    return dataclasses.replace(node, **changes) if changes else node


def check_plan(
    plan: A.Plan,
    sheet: Any = None,
    catalog: CatalogLike | None = None,
    *,
    skills: Sequence[str] | None = None,
    intellect: int | None = None,
    max_clauses_per_intellect: int = 2,
    known_characters: Sequence[str] | None = None,
    board: BoardLike | None = None,
    features: Features | None = None,
) -> list[Diagnostic]:
    """Every semantic problem of a parsed plan (see the module docstring).

    :param sheet: optional character sheet; its ``skills`` (ids, sheet order)
        are used when ``skills`` is not given. (The sheet loader passes
        ``intellect`` and its ruleset's ``max_clauses_per_intellect``.)
    :param catalog: the ruleset's skill catalogue (default: the built-in one).
    :param skills: the sheet's skill ids; ``None`` skips sheet-dependent checks.
    :param intellect: the character's intellect; ``None`` skips R-CHAR-4.
    :param known_characters: every character name of the battle; ``None``
        skips the name check.
    :param board: the ruleset's map; ``None`` skips the square check.
    :param features: what the ruleset's mechanics give; a variant's clause or
        condition outside them is ``clause-not-in-ruleset`` (``None`` skips).
    """
    if catalog is None:
        from referee.catalog import load_catalog

        catalog = load_catalog()
    if skills is None and sheet is not None:
        skills = tuple(getattr(sheet, "skills", ()) or ())
    if features is not None and WithInnateSkills.feature in features.names:  # orm (R-ORM-PLAN-1)
        catalog = WithInnateSkills(catalog)
        skills = None if skills is None else (*skills, NORMAL_ATTACK.id)
    resolved, diags = resolve_plan(plan, catalog)
    file = plan.file

    def error(node: A.Node, code: str, message: str, hint: str | None = None, severity: str = "error") -> None:
        diags.append(Diagnostic(file, node.line, node.column, code, message, hint, severity))  # type: ignore[arg-type]

    if features is not None:
        diags += gate_diagnostics(resolved.clauses, features, file)
    for clause in resolved.clauses:
        for ref in _clause_skills(clause):
            if ref.id is None:
                continue
            skill: Any = catalog.resolve(ref.id)
            if skill is None:
                continue
            if skills is not None and ref.id not in skills:
                error(ref, "skill-not-on-sheet", f"{skill.label()} is not on this character's sheet; the clause never applies",
                      severity="warning")
            if isinstance(clause, A.Extend) and "extend" not in skill.classes:
                error(ref, "not-extendable", f"{skill.label()} cannot be extended: it is not classed extend (R-EXT-1)")
            if isinstance(clause, (A.Maintain, A.Release)) and "maintain" not in skill.classes:
                error(ref, "not-maintainable", f"{skill.label()} is not a maintain skill, so it cannot be maintained or released (R-TURN-4)")
            if isinstance(clause, A.Stack) and "passive" not in skill.classes:
                error(ref, "not-stackable", f"{skill.label()} is not passive; only passive skills listed several times stack (R-SK-1a)")
        # soulwired (R-SOUL-PLAN-5): ``incoming ...`` only in an evasion clause
        if not isinstance(clause, A.Evade):
            for cond in _clause_conditions(clause):
                for node in iter_conditions(cond):
                    if isinstance(node, (A.IncomingDamage, A.IncomingMelee)):
                        error(node, "incoming-outside-evasion",
                              "'incoming ...' describes the use being evaded; it means something only in an "
                              "evasion clause (R-SOUL-PLAN-5)", hint="write it after 'evade with N when'")
        d20 = _d20_diagnostics(clause, file)
        diags += d20
        # an evasion clause's target: the attacker (R-SOUL-PLAN-2)
        if not isinstance(clause, (*TARGET_CLAUSES, A.Evade)) and not d20:
            for cond in _clause_conditions(clause):
                for node in iter_conditions(cond):
                    if getattr(node, "subject", None) == "target":
                        error(node, "target-without-skill",
                              "'target' means the target a skill is considering; this clause concerns no skill's target",
                              hint="use 'ally ...', 'enemies in range ...' or your own 'hp ...'")
        if known_characters is not None:
            diags += character_diagnostics(clause, known_characters, file)
        else:
            diags += phrase_as_name_warnings(clause, file)
        if board is not None:
            diags += square_diagnostics(clause, board, file)
    if intellect is not None:
        limit = max_clauses_per_intellect * intellect
        if len(plan.clauses) > limit:
            extra = plan.clauses[limit]
            error(extra, "too-many-clauses",
                  f"the plan has {len(plan.clauses)} clauses; intellect {intellect} allows at most {limit} (R-CHAR-4)")
    return sorted(diags, key=lambda d: (d.line, d.column, d.code))


#: Words players write for the plan language's own preferences (R-PLAN-4) and
#: destinations (R-MOVE-8), by the slot the word stands in.  Keys are
#: lower-case with a leading article removed.
PLAN_PHRASES: dict[str, dict[str, str]] = {
    "preference": {
        "weakest": "lowest hp", "weakest enemy": "lowest hp", "weakest one": "lowest hp", "lowest": "lowest hp",
        "strongest": "highest hp", "strongest enemy": "highest hp", "healthiest": "highest hp", "highest": "highest hp",
        "closest": "nearest", "closest enemy": "nearest", "nearest enemy": "nearest", "near": "nearest",
        "furthest": "farthest", "furthest enemy": "farthest", "farthest enemy": "farthest", "far": "farthest",
        "most wounded": "most hp lost", "most hurt": "most hp lost", "most damaged": "most hp lost",
        "least wounded": "least hp lost", "least hurt": "least hp lost",
    },
    "filter": {
        "enemy": "enemies", "foes": "enemies", "foe": "enemies", "the enemy": "enemies",
        "ally": "allies", "friends": "allies", "friend": "allies", "team": "allies", "teammates": "allies",
    },
    "destination": {
        "enemy": "nearest enemy", "enemies": "nearest enemy", "closest enemy": "nearest enemy",
        "nearest": "nearest enemy", "closest": "nearest enemy", "foe": "nearest enemy",
        "ally": "nearest ally", "allies": "nearest ally", "closest ally": "nearest ally", "friend": "nearest ally",
    },
    "name": {},
}

#: The plan language's own words for each slot (difflib suggestions).
PLAN_WORDS: dict[str, tuple[str, ...]] = {
    "preference": ("nearest", "farthest", "lowest hp", "highest hp", "most hp lost", "least hp lost"),
    "filter": ("allies", "enemies"),
    "destination": ("nearest enemy", "nearest ally"),
    "name": (),
}

_SQUARE_SHAPED = re.compile(r"^[a-z]{1,3}[0-9]+$", re.IGNORECASE)
_ARTICLE = re.compile(r"^(the|a|an)\s+", re.IGNORECASE)


def character_diagnostics(clause: A.Clause, known: Sequence[str], file: str) -> list[Diagnostic]:
    """``unknown-character`` for each name in ``clause`` that no one in the
    battle bears, with the closest name or plan word as the hint.

    An error when the name is evidently a mistake -- a phrase for one of the
    plan's own words (``weakest``), or a near miss of a name in this battle
    (``Akanee``, ``kagura``) -- and a warning otherwise: a sheet is reused
    at every table of a round, and a clause about an opponent met elsewhere
    simply never applies here (docs/decisions.md, "Organiser's day")."""
    out = []
    for ref, slot in _clause_characters(clause):
        if ref.name in known:
            continue
        hint, certain = _unknown_name_hint(ref.name, known, slot)
        if certain:
            out.append(Diagnostic(file, ref.line, ref.column, "unknown-character",
                                  f"no character called '{ref.name}' in this battle; the clause would never apply",
                                  hint=hint))
        else:
            # `only target NAME` does apply: it leaves the skill no one to target
            effect = ("'only target' leaves no one to target here" if slot == "filter"
                      else "the clause never applies here")
            out.append(Diagnostic(file, ref.line, ref.column, "unknown-character",
                                  f"no character called '{ref.name}' in this battle; {effect}",
                                  hint=hint, severity="warning"))
    return out


def phrase_as_name_warnings(clause: A.Clause, file: str) -> list[Diagnostic]:
    """Without a battle, names cannot be checked; a "name" that is a phrase for
    one of the plan's own words (``target the weakest``) is still surely a
    slip, so a plan checked alone warns about it (the battle makes it an error)."""
    out = []
    for ref, slot in _clause_characters(clause):
        hint, certain = _unknown_name_hint(ref.name, (), slot)
        if certain:
            out.append(Diagnostic(file, ref.line, ref.column, "name-like-keyword",
                                  f"'{ref.name}' is read as a character's name", hint=hint, severity="warning"))
    return out


def plan_character_names(plan: A.Plan) -> set[str]:
    """Every character name the plan gives (for a quick check against a battle)."""
    return {ref.name for clause in plan.clauses for ref, _ in _clause_characters(clause)}


def unknown_name_hint(name: str, known: Sequence[str], slot: str = "name") -> str:
    """The did-you-mean for a name no one bears: a plan word when the name is
    a phrase for one, else the closest character (any case), else the list.

    >>> unknown_name_hint("the nearest enemy", ["Ash"], "preference")
    "did you mean 'nearest'? ('the nearest enemy' is read as a character's name)"
    >>> unknown_name_hint("Akanee", ["Akane", "Ash"])
    "did you mean 'Akane'?"
    """
    return _unknown_name_hint(name, known, slot)[0]


def _unknown_name_hint(name: str, known: Sequence[str], slot: str) -> tuple[str, bool]:
    """(hint, certain): ``certain`` when the name is surely a slip (a plan
    word's phrase, a case slip, or a name within one or two letters)."""
    phrase = _ARTICLE.sub("", name.strip().lower())
    word = PLAN_PHRASES[slot].get(phrase)
    if word is None:
        close_word = difflib.get_close_matches(phrase, PLAN_WORDS[slot], n=1, cutoff=0.75)
        word = close_word[0] if close_word else None
    if word is not None:
        return f"did you mean '{word}'? ('{name}' is read as a character's name)", True
    by_lower = {k.lower(): k for k in sorted(known)}
    if name.lower() in by_lower:
        return f"did you mean '{by_lower[name.lower()]}'? (names are matched exactly)", True
    close = difflib.get_close_matches(name.lower(), sorted(by_lower), n=1, cutoff=0.6)
    if close:
        ratio = difflib.SequenceMatcher(None, name.lower(), close[0]).ratio()
        return f"did you mean '{by_lower[close[0]]}'?", ratio >= 0.8
    return "characters in this battle: " + ", ".join(sorted(known)), False


def square_diagnostics(clause: A.Clause, board: BoardLike, file: str) -> list[Diagnostic]:
    """``off-map`` / ``blocked-square`` for a square the character could never
    reach (``move to z9`` on an 8x8 map), so it would stand still all battle."""
    from referee.board import InvalidSquareError, Square, parse_square, square_name

    out = []
    square = getattr(clause, "square", None) or getattr(clause, "destination", None)
    for ref in [square] if isinstance(square, A.SquareRef) else []:
        corner = square_name(Square(board.width - 1, board.height - 1))
        try:
            sq: Square | None = parse_square(ref.name)
        except InvalidSquareError:
            if not _SQUARE_SHAPED.match(ref.name):
                continue  # the parser has reported it (not-a-square)
            sq = None  # square-shaped but beyond any map (a33, zz9)
        if sq is None or not (sq.file < board.width and sq.rank < board.height):
            out.append(Diagnostic(file, ref.line, ref.column, "off-map",
                                  f"{ref.name} is not on the {board.width}x{board.height} map; "
                                  "the character would never get there and would stand still",
                                  hint=f"squares run from a1 to {corner}"))
        elif square_name(sq) in board.blocked:
            out.append(Diagnostic(file, ref.line, ref.column, "blocked-square",
                                  f"{ref.name} is blocked on this map; no one can stand on it"))
    return out


def _clause_skills(clause: A.Clause) -> list[A.SkillRef]:
    """Skills the clause itself names (not skills inside ``readies``, which
    belong to whoever is tested)."""
    return [getattr(clause, name) for name in ("skill", "then_use") if isinstance(getattr(clause, name, None), A.SkillRef)]


def _clause_conditions(clause: A.Clause) -> list[A.Condition]:
    return [n for n in [getattr(clause, "condition", None)] if n is not None]


#: The clause fields that may hold a character's name, and the slot each is
#: (the AST puts names only there: ``ast.TargetPref``, ``TargetFilter``,
#: ``Destination``, ``NeverTarget.character``).
_NAME_FIELDS: tuple[tuple[type[A.Clause], str, str], ...] = (
    (A.TargetPreference, "preference", "preference"),
    (A.NeverTarget, "character", "name"),
    (A.OnlyTarget, "who", "filter"),
    (A.MoveToward, "destination", "destination"),
    (A.Spare, "who", "name"),
    (A.TakeAim, "character", "name"),
    # d20pool (R-D20-PUSH-1/-2)
    (A.Push, "preference", "preference"),
    (A.Grapple, "preference", "preference"),
)


def _clause_characters(clause: A.Clause) -> list[tuple[A.CharacterRef, str]]:
    """Every name in the clause with the slot it stands in (for the hint)."""
    for kind, name, slot in _NAME_FIELDS:
        if isinstance(clause, kind):
            ref = getattr(clause, name)
            return [(ref, slot)] if isinstance(ref, A.CharacterRef) else []
    return []


# ------------------------------------------------------------------ d20pool


def _d20_diagnostics(clause: A.Clause, file: str) -> list[Diagnostic]:
    """R-D20-PLAN-3: ``target`` in ``recover`` (written after it, or as a
    condition's subject: a self-recovery has no target) and N = 0 in a drop
    or boost clause (it would drop or boost nothing)."""
    out: list[Diagnostic] = []
    if isinstance(clause, A.Recover):
        where: list[A.Node] = [] if clause.target is None else [clause.target]
        if clause.condition is not None:
            where += [n for n in iter_conditions(clause.condition) if getattr(n, "subject", None) == "target"]
        for node in where:
            out.append(Diagnostic(file, node.line, node.column, "recover-target",
                                  "'recover' heals the character itself: it has no target (R-D20-PLAN-3)",
                                  hint="write 'recover when hp <= N'; to heal an ally, use Rest or Restore"))
    if isinstance(clause, (A.DropDice, A.Boost)):
        n = clause.count if isinstance(clause, A.DropDice) else clause.amount
        if n == 0:
            word = "drop" if isinstance(clause, A.DropDice) else "boost"
            out.append(Diagnostic(file, clause.line, clause.column, "zero-count",
                                  f"a {word} clause needs N of 1 or more; N = 0 does nothing (R-D20-PLAN-3)",
                                  hint="write 1 or more, or leave the clause out"))
    return out
