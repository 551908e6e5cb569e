"""Small ``orm`` battles for the R-ORM-* scenario tests: sheets given as
body/reflex/intellect with ORM's HP (10 x body, R-ORM-ABIL-2), an optional
element ``defence`` (R-ORM-SHEET-1), plans as plan text, fixed squares and
order, and a scripted RNG (die faces per stream)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from referee.board import parse_square
from referee.elements import parse_pattern
from referee.terrain import Terrain
from referee.engine.battle import BattleRecord, BattleSetup, Combatant, resolve_battle
from referee.engine.rng import ScriptedRng
from referee.plan.parser import parse_plan

from .helpers import TestPattern, TestSheet


@dataclass(frozen=True)
class OrmSheet(TestSheet):
    """A test sheet with ORM's element ``defence`` (R-ORM-SHEET-1)."""

    defence: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class OrmSpec:
    sheet: OrmSheet
    square: str
    plan: Any
    hp: int | None = None


def orm_fighter(name: str, square: str, abilities: str = "3/3/3", patterns: str = "剣剣剣", skills: str = "",
                plan: str = "", defence: Mapping[str, int] | None = None, hp: int | None = None) -> OrmSpec:
    body, reflex, intellect = (int(x) for x in abilities.split("/"))
    sheet = OrmSheet(name, body, reflex, intellect, 10 * body, (TestPattern(parse_pattern(patterns)),),
                     tuple(skills.split()), defence=dict(defence or {}))
    parsed = None
    if plan:
        parsed, diags = parse_plan(plan, f"{name}.plan")
        assert not diags, diags
    return OrmSpec(sheet, square, parsed, hp)


@lru_cache(maxsize=None)
def orm_ruleset(turn_limit: int = 1) -> Any:
    from referee.ruleset import load_ruleset

    return replace(load_ruleset("orm"), turn_limit=turn_limit)


def orm_battle(white: Sequence[OrmSpec], black: Sequence[OrmSpec], order: Sequence[str] | None = None, *,
               pcs: str | None = None, blocked: Sequence[str] = (), rolled: bool = False) -> BattleSetup:
    """Fixed squares (a square of "" is drawn) and order (``rolled``: none, 先制値 decides)."""
    combatants = tuple(Combatant(s.sheet, s.plan, team, parse_square(s.square) if s.square else None, s.hp)
                       for team, specs in (("white", white), ("black", black)) for s in specs)
    names = tuple(c.sheet.name for c in combatants)
    fixed = None if rolled else (tuple(order) if order is not None else names)
    return BattleSetup(combatants, fixed, pcs=pcs,
                       terrain=Terrain(blocked=tuple(parse_square(b) for b in blocked)) if blocked else None)


def orm_run(setup: BattleSetup, script: Mapping[str, list[Any]] | None = None, *, turns: int = 1,
            strict: bool = False, ruleset: Any = None) -> tuple[BattleRecord, ScriptedRng]:
    rng = ScriptedRng(dict(script or {}), strict=strict)
    return resolve_battle(setup, ruleset or orm_ruleset(turns), 1, rng=rng), rng


def with_action(turn_limit: int = 1, **changes: Any) -> Any:
    """``orm`` with the action mechanic's parameters changed (simple_uses, ...)."""
    rs = orm_ruleset(turn_limit)
    return replace(rs, mechanics=replace(rs.mechanics, action=replace(rs.mechanics.action, **changes)))
