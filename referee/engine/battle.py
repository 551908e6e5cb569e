"""Public entry point: resolve a whole battle from its normalised inputs.

``resolve_battle(setup, ruleset, seed)`` builds the state, places everyone
(R-SETUP-1 or fixed squares), fixes the order (R-TURN-1 or a fixed order),
then runs turns -- each living character acting once -- with the narrowing
after scheduled turns, until R-GOAL-1 or the turn cap (R-TURN-9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.board import Square
from referee.catalog import Skill
from referee.engine import events as E
from referee.engine.action import act
from referee.engine.core import Battle, BattleOver
from referee.engine.narrowing import narrow_if_due
from referee.engine.rng import BattleRng, Rng
from referee.engine.rules import EMPTY_PLAN, PlanRules
from referee.engine.setup import draw_square, roll_initiative
from referee.engine.state import BLACK, WHITE, BattleState, Fighter, PatternSpec

__all__ = ["Combatant", "BattleSetup", "BattleRecord", "resolve_battle"]


@dataclass(frozen=True)
class Combatant:
    """One character as the engine needs it: the sheet, its plan and team.

    ``plan`` is a parsed plan AST (compiled here), a :class:`PlanRules`, or
    None (the rules' defaults).  ``square``/``hp`` come from the battle's
    optional ``setup``.
    """

    sheet: Any
    plan: Any
    team: str
    square: Square | None = None
    hp: int | None = None


@dataclass(frozen=True)
class BattleSetup:
    """The normalised input: combatants in roster order (White, then Black),
    and an optional fixed action order (names)."""

    combatants: tuple[Combatant, ...]
    order: tuple[str, ...] | None = None


@dataclass(frozen=True)
class BattleRecord:
    """What a battle produced: the events and the result."""

    events: tuple[E.Event, ...]
    result: E.BattleResult

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events]


def _fighter(c: Combatant, index: int, ruleset: Any, catalog_by_id: Mapping[str, Skill],
             allies: Sequence[str] = ()) -> Fighter:
    from referee.engine.plancompile import compile_pattern_condition, compile_plan

    sheet = c.sheet
    skills = tuple(catalog_by_id[s] for s in sheet.skills)
    plan = c.plan if isinstance(c.plan, PlanRules) else (
        EMPTY_PLAN if c.plan is None else compile_plan(c.plan, ruleset, allies))
    patterns = tuple(
        PatternSpec(tuple(p.elements), compile_pattern_condition(p, sheet, ruleset))
        for p in sheet.patterns
    )
    max_hp = sheet.max_hp
    return Fighter(sheet.name, c.team, index, sheet.body, max_hp,
                   c.hp if c.hp is not None else max_hp,
                   c.square if c.square is not None else Square(file=0, rank=0),
                   skills, patterns, plan)


def resolve_battle(setup: BattleSetup, ruleset: Any, seed: int | str, *, rng: Rng | None = None) -> BattleRecord:
    """Resolve ``setup`` under ``ruleset`` with ``seed`` to the end.

    :param rng: a test double (``ScriptedRng``) replacing the seeded streams.
    """
    from referee.mapgraph import MapGraph

    catalog_by_id = {s.id: s for s in ruleset.catalog.skills}
    teams = {t: tuple(c.sheet.name for c in setup.combatants if c.team == t) for t in (WHITE, BLACK)}
    fighters = [_fighter(c, i, ruleset, catalog_by_id, teams.get(c.team, ()))
                for i, c in enumerate(setup.combatants)]
    spec = ruleset.map
    from referee.board import parse_square

    graph = MapGraph(width=spec.width, height=spec.height, adjacency=spec.adjacency,
                     blocked=frozenset(parse_square(s) for s in spec.blocked))
    state = BattleState(fighters, graph)
    b = Battle(state, ruleset, rng if rng is not None else BattleRng(seed))
    b.emit(E.BattleStart(turn=0, seed=seed, ruleset=ruleset.name,
                         white=tuple(f.name for f in fighters if f.team == WHITE),
                         black=tuple(f.name for f in fighters if f.team == BLACK)))
    for f, c in zip(fighters, setup.combatants):
        drawn = c.square is None
        if drawn:
            f.square = draw_square(b, f)
        b.emit(E.Placed(turn=0, actor=f.name, team=f.team, square=f.square, hp=f.hp, max_hp=f.max_hp,
                        drawn=drawn, rule="R-SETUP-1" if drawn else "setup"))
    from referee.engine.action import select_pattern

    for f in fighters:  # R-PAN-5: passives are readied from the first hit
        select_pattern(b, f)
    every_turn = getattr(ruleset.initiative, "reroll", "once_per_battle") == "every_turn"
    try:
        if setup.order is not None:
            state.order = [state.by_name[n] for n in setup.order]
            b.emit(E.ActionOrder(turn=0, order=tuple(setup.order), fixed=True))
        elif not every_turn:
            state.order = roll_initiative(b, fighters)
            b.emit(E.ActionOrder(turn=0, order=tuple(f.name for f in state.order), fixed=False))
        b.check_end()
        for turn in range(1, ruleset.turn_limit + 1):
            state.turn = turn
            b.emit(E.TurnStart(turn=turn))
            if every_turn and setup.order is None:
                state.order = roll_initiative(b, state.living())
                b.emit(E.ActionOrder(turn=turn, order=tuple(f.name for f in state.order), fixed=False))
            for f in state.fighters:
                f.acted = False
            for f in list(state.order):
                if not f.down:  # R-TURN-1: down before its place: skipped
                    act(b, f)
            narrow_if_due(b)
        b.finish("turn_limit", "R-TURN-9")
    except BattleOver:
        pass
    assert b.result is not None
    return BattleRecord(tuple(b.events), b.result)
