"""Public entry point: resolve a whole battle from its normalised inputs.

``resolve_battle(setup, ruleset, seed)`` builds the state, places everyone
(R-SETUP-1 or fixed squares), fixes the order (the ``initiative`` mechanic,
or a fixed order), then runs turns -- each living character acting once by
the ``action`` mechanic -- with the ``stall`` mechanic after each turn, until
the ``end`` mechanic or the turn cap (R-TURN-9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee.board import Square, parse_square, square_name
from referee.catalog import Skill
from referee.elements import Element
from referee.engine import events as E
from referee.engine.action import select_pattern
from referee.engine.astcompile import compile_ast_plan, compile_pattern_condition
from referee.engine.core import BattleOver, Resolution, cycles_unchecked
from referee.engine.mechanics.registry import build_mechanics
from referee.engine.rng import BattleRng, Rng
from referee.engine.clauses import EMPTY_PLAN, PlanRules
from referee.engine.setup import draw_square
from referee.engine.state import BLACK, WHITE, BattleState, Fighter, PatternSpec
from referee.mapgraph import MapGraph
from referee.mechanicspec import sheet_blocks_of
from referee.plan import ast as A
from referee.ruleset import Ruleset
from referee.terrain import Terrain

__all__ = ["Combatant", "BattleSetup", "BattleRecord", "resolve_battle"]


class PatternSheet(Protocol):
    """What the engine reads of a sheet's pattern (R-PAT-1); an optional
    ``condition_text`` (or a compiled ``when``, in tests) is read by
    ``astcompile.compile_pattern_condition``."""

    @property
    def elements(self) -> Sequence[Element]: ...


class CharacterSheetLike(Protocol):
    """What the engine reads of a character sheet (``referee.sheet.CharacterSheet``
    or a test's own): name, body, max HP, patterns and skill ids in sheet order."""

    @property
    def name(self) -> str: ...

    @property
    def body(self) -> int: ...

    @property
    def max_hp(self) -> int: ...

    @property
    def patterns(self) -> Sequence[PatternSheet]: ...

    @property
    def skills(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class Combatant:
    """One character as the engine needs it: the sheet, its plan and team.

    ``plan`` is a parsed plan AST (compiled here), a :class:`PlanRules`, or
    None (the rules' defaults).  ``square``/``hp`` come from the battle's
    optional ``setup``.
    """

    sheet: CharacterSheetLike
    plan: A.Plan | PlanRules | None
    team: str
    square: Square | None = None
    hp: int | None = None
    #: ``setup.NAME.size`` (variant-wiz.md R-WIZ-BATTLE-1); None: the default.
    size: str | None = None


@dataclass(frozen=True)
class BattleSetup:
    """The normalised input: combatants in roster order (White, then Black),
    and an optional fixed action order (names)."""

    combatants: tuple[Combatant, ...]
    order: tuple[str, ...] | None = None
    #: orm (R-ORM-BATTLE-1): the side that wins initiative ties (``pcs``).
    pcs: str | None = None
    #: The battle file's ``terrain:`` (R-ORM-BATTLE-1, R-SOUL-FILE-2), if any.
    terrain: Terrain | None = None


@dataclass(frozen=True)
class BattleRecord:
    """What a battle produced: the events and the result."""

    events: tuple[E.Event, ...]
    result: E.BattleResult

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events]


def _fighter(c: Combatant, index: int, ruleset: Ruleset, catalog_by_id: Mapping[str, Skill],
             allies: Sequence[str] = (), innate: tuple[Skill, ...] = ()) -> Fighter:
    sheet = c.sheet
    skills = tuple(catalog_by_id[s] for s in sheet.skills) + innate
    plan = c.plan if isinstance(c.plan, PlanRules) else (
        EMPTY_PLAN if c.plan is None else compile_ast_plan(c.plan, ruleset, allies))
    patterns = tuple(
        PatternSpec(tuple(p.elements), compile_pattern_condition(p, sheet, ruleset))
        for p in sheet.patterns
    )
    max_hp = sheet.max_hp
    fighter = Fighter(sheet.name, c.team, index, sheet.body, max_hp,
                      c.hp if c.hp is not None else max_hp,
                      c.square if c.square is not None else _UNPLACED,
                      skills, patterns, plan, _abilities(sheet, _sheet_blocks(ruleset)))
    defence = getattr(sheet, "defence", None)  # orm's element defence (R-ORM-SHEET-1)
    if defence:
        fighter.defence = dict(defence)
    fighter.size = c.size  # wiz (R-WIZ-BATTLE-1)
    # R-SOUL-FILE-1: the sheet's soulwired block (absent: no garb, normal).
    fighter.garb = getattr(sheet, "garb", None)
    fighter.evasion_type = getattr(sheet, "evasion_type", None) or "normal"
    return fighter


#: Where a character to be drawn stands until R-SETUP-1 places it: off the
#: map, so it fills no area an earlier draw asks about (R-ORM-MOVE-2's setup).
_UNPLACED = Square(file=-1, rank=-1)


def _sheet_blocks(ruleset: Ruleset) -> tuple[str, ...]:
    """The names of the sheet blocks the ruleset's mechanics read."""
    return sheet_blocks_of(ruleset.mechanics)


def _abilities(sheet: CharacterSheetLike, blocks: Sequence[str] = ()) -> dict[str, int]:
    """The sheet's abilities by name; a sheet without reflex or intellect
    (a test double) gives only body."""
    found = {"body": sheet.body}
    for name in ("reflex", "intellect"):
        value = getattr(sheet, name, None)
        if isinstance(value, int):
            found[name] = value
    # A sheet block's skill levels (variant-wiz.md R-WIZ-SHEET-1), by their
    # keys: each block the ruleset's ``sheet_blocks`` names, as a mapping or pairs.
    for block in blocks:
        levels = getattr(sheet, block, None)
        pairs = levels.items() if isinstance(levels, Mapping) else levels if isinstance(levels, tuple) else ()
        found.update({k: v for k, v in pairs if isinstance(k, str) and isinstance(v, int)})
    return found


def resolve_battle(setup: BattleSetup, ruleset: Ruleset, seed: int | str, *, rng: Rng | None = None) -> BattleRecord:
    """Resolve ``setup`` under ``ruleset`` with ``seed`` to the end.

    The ruleset's ``mechanics:`` block names the implementations called at
    each point (R-VAR-1): the initiative at setup or each turn, the action
    for each living character in order, the stall breaker after each turn.

    :param rng: a test double (``ScriptedRng``) replacing the seeded streams.
    """
    with cycles_unchecked():  # a battle makes no cycles (core.cycles_unchecked)
        return _resolve(setup, ruleset, seed, rng)


def _resolve(setup: BattleSetup, ruleset: Ruleset, seed: int | str, rng: Rng | None) -> BattleRecord:
    """:func:`resolve_battle`'s body."""
    mechanics = build_mechanics(ruleset.mechanics)
    catalog_by_id = {s.id: s for s in ruleset.catalog.skills}
    teams = {t: tuple(c.sheet.name for c in setup.combatants if c.team == t) for t in (WHITE, BLACK)}
    innate = mechanics.action.innate_skills()
    fighters = [_fighter(c, i, ruleset, catalog_by_id, teams.get(c.team, ()), innate)
                for i, c in enumerate(setup.combatants)]
    spec = ruleset.map
    terrain = setup.terrain if setup.terrain is not None and not setup.terrain.empty else None
    # Areas nobody may stand on: the battle file's blocked and object areas
    # (R-SOUL-TERR-1) and the ruleset's own blocked areas (docs/decisions.md,
    # "Start squares on a ruleset's blocked areas").
    closed = (terrain.closed() if terrain is not None else frozenset()) | \
        frozenset(parse_square(s) for s in spec.blocked)
    graph = MapGraph(width=spec.width, height=spec.height, adjacency=mechanics.movement.adjacency,
                     blocked=closed)
    state = BattleState(fighters, graph, mechanics.range)
    state.pcs = setup.pcs
    state.revivable = mechanics.end.revivable()
    b = Resolution(state, ruleset, mechanics, rng if rng is not None else BattleRng(seed))
    b.emit(E.BattleStart(turn=0, seed=seed, ruleset=ruleset.name,
                         white=tuple(f.name for f in fighters if f.team == WHITE),
                         black=tuple(f.name for f in fighters if f.team == BLACK)))
    if terrain is not None:  # R-SOUL-TERR-1
        state.barriers = frozenset(terrain.barriers)
        state.objects = {o.square: [o.strength, o.armour] for o in terrain.objects}
        b.emit(E.Terrain(turn=0, blocked=terrain.blocked, barriers=terrain.barriers,
                         objects=tuple({"square": square_name(o.square), "strength": o.strength,
                                        "armour": o.armour} for o in terrain.objects)))
    for f, c in zip(fighters, setup.combatants):
        drawn = c.square is None
        if drawn:
            state.move(f, draw_square(b, f, closed))  # never a closed area (R-SOUL-TERR-1)
        b.emit(E.Placed(turn=0, actor=f.name, team=f.team, square=f.square, hp=f.hp, max_hp=f.max_hp,
                        drawn=drawn, rule="R-SETUP-1" if drawn else "setup"))
    for f in fighters:  # R-PAN-5: passives are readied from the first hit
        select_pattern(b, f)
    initiative = mechanics.initiative
    try:
        if setup.order is not None:
            state.order = [state.by_name[n] for n in setup.order]
            b.emit(E.ActionOrder(turn=0, order=tuple(setup.order), fixed=True))
        elif not initiative.each_turn:
            state.order = initiative.order(b, fighters)
            b.emit(E.ActionOrder(turn=0, order=tuple(f.name for f in state.order), fixed=False))
        b.check_end()
        for turn in range(1, ruleset.turn_limit + 1):
            state.turn = turn
            b.emit(E.TurnStart(turn=turn))
            mechanics.stall.start_turn(b)
            for f in state.fighters:
                f.acted = False
            initiative.play_turn(b, setup.order is not None)
            mechanics.stall.after_turn(b)
            mechanics.end.after_round(b)
        b.finish("turn_limit", "R-TURN-9")
    except BattleOver:
        pass
    assert b.result is not None
    return BattleRecord(tuple(b.events), b.result)
