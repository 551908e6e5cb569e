"""Build small battles for scenario tests (used by the conformance suite too).

``fighter("Kagura", "c3", skills="eruption firecracker", patterns="火火水",
body=3)`` describes one character; ``battle(white=[...], black=[...])``
gives a :class:`BattleSetup` with fixed squares and (by default) the fixed
order White's list then Black's; ``run(...)`` resolves it with a
``ScriptedRng`` and returns the record.  Plans are given as
:class:`PlanRules` (or a plan AST once the plan package lands).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from referee.board import parse_square
from referee.elements import parse_pattern
from referee.engine import events as E
from referee.engine.battle import BattleRecord, BattleSetup, Combatant, resolve_battle
from referee.engine.rng import ScriptedRng
from referee.engine.clauses import Clause, PlanRules


@dataclass(frozen=True)
class TestPattern:
    elements: tuple[Any, ...]
    when: Callable[..., bool] | None = None
    condition_text: str | None = None


@dataclass(frozen=True)
class TestSheet:
    name: str
    body: int
    reflex: int
    intellect: int
    max_hp: int
    patterns: tuple[TestPattern, ...]
    skills: tuple[str, ...]
    file: str = "<test>"


@dataclass(frozen=True)
class Spec:
    sheet: TestSheet
    square: str
    hp: int | None
    plan: Any


def fighter(name: str, square: str, skills: str = "", patterns: str | Sequence[Any] = "剣剣剣",
            body: int = 3, hp: int | None = None, plan: Iterable[Clause] | PlanRules | Any = (),
            reflex: int | None = None, intellect: int = 3) -> Spec:
    pats = [patterns] if isinstance(patterns, str) else list(patterns)
    built = tuple(p if isinstance(p, TestPattern) else TestPattern(parse_pattern(p)) for p in pats)
    if isinstance(plan, PlanRules) or not isinstance(plan, (list, tuple)):
        rules = plan
    else:
        rules = PlanRules(tuple(plan))
    sheet = TestSheet(name, body, reflex or len(built[0].elements), intellect, 4 * body, built,
                      tuple(skills.split()))
    return Spec(sheet, square, hp, rules)


def battle(white: Sequence[Spec], black: Sequence[Spec], order: Sequence[str] | None = None) -> BattleSetup:
    combatants = tuple(
        Combatant(s.sheet, s.plan, team, parse_square(s.square), s.hp)
        for team, specs in (("white", white), ("black", black)) for s in specs
    )
    names = tuple(c.sheet.name for c in combatants)
    return BattleSetup(combatants, tuple(order) if order is not None else names)


@lru_cache(maxsize=None)
def ruleset(name: str = "tcgt", turn_limit: int | None = None) -> Any:
    from referee.ruleset import load_ruleset

    rs = load_ruleset(name)
    return rs if turn_limit is None else replace(rs, turn_limit=turn_limit)


def run(setup: BattleSetup, *, turns: int | None = 1, script: dict[str, list[Any]] | None = None,
        seed: int | str = 1, scripted: bool = True) -> BattleRecord:
    """Resolve with a ScriptedRng (default: every chance succeeds, choices 0)."""
    rng = ScriptedRng(script or {}) if scripted else None
    return resolve_battle(setup, ruleset(turn_limit=turns), seed, rng=rng)


def of(record: BattleRecord, kind: type[E.Event]) -> list[Any]:
    return [e for e in record.events if isinstance(e, kind)]


def damage_to(record: BattleRecord, target: str) -> list[tuple[int, str, str | None]]:
    return [(e.amount, e.cause, e.skill) for e in of(record, E.Damage) if e.target == target]


def hp(record: BattleRecord, name: str) -> int:
    return next(c.hp for c in record.result.final if c.name == name)
