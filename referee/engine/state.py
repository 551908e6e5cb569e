"""The mutable battle state (style lesson 2: rules frozen, state mutable).

``BattleState`` holds everything that changes: HP, squares, active pattern and
panel states, maintained skills, statuses with their remaining counts, sunk
areas, the turn and the current (possibly narrowed) map.  The frozen
``Ruleset`` and the catalogue's ``Skill`` records are only read.  Classes use
``__slots__`` and plain lists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from referee.board import Rect, Square
from referee.catalog import Skill
from referee.elements import Element
from referee.engine.mechanics.metric import RangeMetric
from referee.engine.clauses import Condition, PlanRules
from referee.mapgraph import MapGraph

WHITE = "white"
BLACK = "black"


class Panel:
    """One panel of a pattern (R-PAN-1..2, R-ST-POISON, R-ST-CHANGE).

    ``changed`` > 0: the panel reads as wind for that many more of its
    bearer's actions.  ``assigned``: entry index of the maintained skill it
    pays for, or None.
    """

    __slots__ = ("base", "used", "poisoned", "changed", "assigned")

    def __init__(self, base: Element) -> None:
        self.base = base
        self.used = False
        self.poisoned = False
        self.changed = 0
        self.assigned: int | None = None

    @property
    def element(self) -> Element:
        return Element.WIND if self.changed > 0 else self.base


@dataclass(frozen=True, slots=True)
class PatternSpec:
    """A sheet pattern: its elements and optional compiled condition (R-PAT-2)."""

    elements: tuple[Element, ...]
    when: Condition | None = None
    #: The pattern as written (``火水風``), computed once: every action reports it.
    text: str = field(init=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", "".join(e.kanji for e in self.elements))


#: A fighter without element defence (shared, never mutated).
_NO_DEFENCE: Mapping[str, int] = {}


class Fighter:
    """One character in battle: its sheet (read-only) and its state."""

    __slots__ = (
        "name", "team", "index", "body", "max_hp", "hp", "square", "down",
        "skills", "patterns", "plan", "panels", "active", "maintained",
        "bind", "freeze", "skill_binds", "clause_binds", "acted", "felled_by",
        "abilities", "evasion_dice", "mechanic_state", "defence",
        "size", "garb", "evasion_type", "grapple",
    )

    def __init__(
        self,
        name: str,
        team: str,
        index: int,
        body: int,
        max_hp: int,
        hp: int,
        square: Square,
        skills: tuple[Skill, ...],
        patterns: tuple[PatternSpec, ...],
        plan: PlanRules,
        abilities: Mapping[str, int] | None = None,
    ) -> None:
        self.name = name
        self.team = team
        #: Roster index: White's list, then Black's (R-RNG-1 canonical order).
        self.index = index
        self.body = body
        self.max_hp = max_hp
        self.hp = hp
        self.square = square
        self.down = False
        self.skills = skills
        self.patterns = patterns
        self.plan = plan
        #: Panel states of every pattern (statuses stay on inactive patterns).
        self.panels: list[list[Panel]] = [[Panel(e) for e in p.elements] for p in patterns]
        #: Index of the active pattern; None before the first selection.
        self.active: int | None = None
        #: Maintained entries: entry index -> panel indices of the active pattern.
        self.maintained: dict[int, tuple[int, ...]] = {}
        #: Bind on the character: actions left (0 = none).
        self.bind = 0
        #: Freeze: actions left (R-ST-FREEZE; at most 1).
        self.freeze = 0
        #: Bind on skill entries / plan clauses (by line): actions left.
        self.skill_binds: dict[int, int] = {}
        self.clause_binds: dict[int, int] = {}
        #: Whether it has acted in the current turn ("acting first").
        self.acted = False
        #: What took its last HP (``hit``, ``poison``, ``wall``, ``narrowing``):
        #: the cause its ``down`` event names (R-CHAR-2).
        self.felled_by: str | None = None
        #: The sheet's abilities by English name (body, reflex, intellect):
        #: what a variant's ability-based mechanic reads (R-SOUL-INIT-1).
        self.abilities: Mapping[str, int] = abilities if abilities is not None else {"body": body}
        #: Evasion dice left (R-SOUL-HIT-2); None: full, never spent or set.
        self.evasion_dice: int | None = None
        #: What a ruleset's own mechanics remember of this character during
        #: a battle (mechanics are stateless, architecture.md); None under tcgt.
        self.mechanic_state: object | None = None
        #: orm (R-ORM-SHEET-1): element name -> defence points; empty: none.
        self.defence: Mapping[str, int] = _NO_DEFENCE
        #: wiz (R-WIZ-BATTLE-1): the battle file's size (T..H); None: the default.
        self.size: str | None = None
        # --- soulwired: the sheet block (R-SOUL-FILE-1) ---
        #: ``evasive`` / ``armoured`` / None, and ``normal`` / ``none``.
        self.garb: str | None = None
        self.evasion_type: str = "normal"
        #: d20pool (R-D20-PUSH-2): status ``grapple``, its turns left (0 = none):
        #: it cannot shift until then.
        self.grapple = 0

    # -- views ---------------------------------------------------------------
    @property
    def hp_lost(self) -> int:
        return self.max_hp - self.hp

    def active_panels(self) -> list[Panel]:
        return self.panels[self.active if self.active is not None else 0]

    def is_maintaining(self, skill_id: str) -> bool:
        """Whether some entry of ``skill_id`` is maintained (R-SK-2)."""
        return any(self.skills[i].id == skill_id for i in self.maintained)

    def clause_active(self, line: int) -> bool:
        """A clause under Bind is ignored (R-ST-BIND).  (No look-up while
        nothing is bound, the common case: asked for every clause read.)"""
        binds = self.clause_binds
        return not binds or binds.get(line, 0) <= 0

    def entry_bound(self, entry: int) -> bool:
        """An entry under Bind (R-ST-BIND); asked for every entry walked."""
        binds = self.skill_binds
        return bool(binds) and binds.get(entry, 0) > 0

    def __repr__(self) -> str:
        return f"Fighter({self.name}, {self.team}, hp={self.hp}/{self.max_hp}, {self.square})"


@dataclass(slots=True)
class Sink:
    """A sunk area (R-ST-SINK): ``square``, until ``owner``'s next action."""

    square: Square
    owner: str
    by: str


@dataclass(slots=True)
class BattleState:
    """Everything that changes during a battle."""

    fighters: list[Fighter]
    graph: MapGraph
    #: The ruleset's range metric (R-RANGE-1): every range is read in it.
    metric: RangeMetric
    turn: int = 0
    order: list[Fighter] = field(default_factory=list)
    sinks: list[Sink] = field(default_factory=list)
    narrowing_stage: int = 0
    start_counts: dict[str, int] = field(default_factory=dict)
    by_name: dict[str, Fighter] = field(default_factory=dict)
    #: The kept rectangle after a narrowing (R-NARROW-4), else None.
    kept: Rect | None = None
    # --- soulwired (variant-soulwired.md) ---
    #: R-SOUL-HARD-2: the hard-mode level in force, stalled turns so far, and
    #: the run of stalled turns played at level 1.
    hard_mode_level: int = 0
    stalled_turns: int = 0
    stalled_run: int = 0
    #: The highest level a ``hard_mode`` event has announced.
    hard_mode_announced: int = 0
    #: R-SOUL-HARD-1's facts of the turn in play, kept as it goes (reset at
    #: each turn's start by the hard mode): an attack check was made (set by
    #: the d6 pool), a character lost HP (set by ``Resolution.lose_hp``).
    turn_attack_checked: bool = False
    turn_hp_lost: bool = False

    #: wiz (R-WIZ-MELEE-1): character -> the first target of its latest
    #: active melee weapon use; read only while that one shares its area.
    faces: dict[str, str] = field(default_factory=dict)
    # --- orm (variant-orm.md) ---
    #: R-ORM-INIT-2: the battle file's ``pcs`` side, first among equal 先制値.
    pcs: str | None = None

    # --- soulwired (R-SOUL-TERR-*) ---
    #: Barrier areas (fixed) and the objects still standing: square -> [strength, armour].
    barriers: frozenset[Square] = frozenset()
    objects: dict[Square, list[int]] = field(default_factory=dict)

    # --- d20pool (variant-d20.md) ---
    #: R-D20-KO-2: a down (KO) character may be healed back onto its return
    #: area (its ``square``); set from the ``end`` mechanic at battle start.
    revivable: bool = False

    # --- kept indexes: changed only by move() and set_down() ---
    #: Where the living characters stand (the range scans read it).
    occupancy: Occupancy = field(init=False)
    #: Living characters by army, in roster order.
    standing_by_team: dict[str, list[Fighter]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.by_name = {f.name: f for f in self.fighters}
        for team in (WHITE, BLACK):
            self.start_counts[team] = sum(1 for f in self.fighters if f.team == team)
        self.occupancy = Occupancy(self.graph.width, self.graph.height, self.metric, self.fighters)
        self.standing_by_team = {WHITE: [], BLACK: []}
        for f in self.fighters:
            if not f.down:
                self.standing_by_team.setdefault(f.team, []).append(f)

    # -- the only places that change a character's square or down flag ------
    def move(self, f: Fighter, square: Square) -> None:
        """Put ``f`` on ``square``: every change of a square goes through here
        (steps, pushes, knockback, narrowing, setup draws, look-ahead undo), so
        the occupancy index stays equal to a recount."""
        if f.down:
            f.square = square
            return
        self.occupancy.remove(f)
        f.square = square
        self.occupancy.add(f)

    def set_down(self, f: Fighter, down: bool) -> None:
        """Mark ``f`` down (R-CHAR-2) or up again (R-D20-KO-2, R-D20-END-2):
        every change of ``down`` goes through here, so the head counts and the
        occupancy index stay equal to a recount."""
        if f.down is down:
            return
        f.down = down
        team = self.standing_by_team.setdefault(f.team, [])
        if down:
            team.remove(f)
            self.occupancy.remove(f)
        else:
            _insert(team, f)
            self.occupancy.add(f)

    def living(self) -> list[Fighter]:
        return [f for f in self.fighters if not f.down]

    def enemies_of(self, f: Fighter) -> list[Fighter]:
        """Living members of the other army, in roster order (White's list
        precedes Black's, so one kept list is already in order)."""
        team = f.team
        if team == WHITE:
            return list(self.standing_by_team[BLACK])
        if team == BLACK:
            return list(self.standing_by_team[WHITE])
        return [g for g in self.fighters if not g.down and g.team != team]

    def allies_of(self, f: Fighter) -> list[Fighter]:
        """Living members of ``f``'s army, ``f`` included."""
        return list(self.standing_by_team.get(f.team, ()))

    def is_sunk(self, sq: Square) -> bool:
        """Whether a sinking holds ``sq`` (R-ST-SINK)."""
        return any(s.square == sq for s in self.sinks)

    def is_engaged(self, f: Fighter) -> bool:
        """An enemy in its area, or its area sunk (R-MOVE-1, R-ST-SINK)."""
        return self.is_sunk(f.square) or any(g.team != f.team for g in self.occupancy.at(f.square))

    def standing(self, team: str) -> int:
        return len(self.standing_by_team.get(team, ()))


class Occupancy:
    """Where the living characters stand: the battle's one spatial index,
    each area's characters in roster order (R-RNG-1).

    Range scans (R-RANGE-1: candidates, ``enemies in range`` counts, the
    ally domain, R-MOVE-6's reach) and area questions (R-MOVE-1's
    engagement) read it.  A scan reads only the areas of the Chebyshev box
    of its range around its centre -- every range metric stays inside that
    box (``RangeMetric``) -- so its cost follows the box, not the army.
    Only ``BattleState.move`` and ``BattleState.set_down`` change it.
    """

    __slots__ = ("metric", "_areas", "_shape")

    def __init__(self, width: int, height: int, metric: RangeMetric, fighters: Sequence[Fighter]) -> None:
        #: The ruleset's range metric (R-RANGE-1): every range scan reads it.
        self.metric = metric
        self._shape = _areas_of(width, height)
        self._areas: list[list[Fighter]] = [[] for _ in range(self._shape.count)]
        for f in fighters:
            if not f.down:
                self.add(f)

    def at(self, sq: Square) -> Sequence[Fighter]:
        """The living characters on ``sq``, roster order (read only)."""
        return self._areas[self._shape.number(sq)]

    def within(self, sq: Square, r: int, team: str | None = None, *, enemies: bool = False) -> list[Fighter]:
        """The living characters within range ``r`` of ``sq`` in the
        ruleset's metric (R-RANGE-1), roster order: all of them, ``team``'s
        army, or with ``enemies`` every one not of ``team``'s army."""
        if r < 0:
            return []
        shape, in_range = self._shape, self.metric.in_range
        found = [g for area in shape.box(shape.number(sq), r) for g in self._areas[area]
                 if (team is None or (g.team != team) == enemies) and in_range(sq, g.square, r)]
        found.sort(key=roster_order)
        return found

    def add(self, f: Fighter) -> None:
        """``f`` now stands on ``f.square`` (``BattleState`` only)."""
        _insert(self._areas[self._shape.number(f.square)], f)

    def remove(self, f: Fighter) -> None:
        """``f`` no longer stands on ``f.square`` (``BattleState`` only)."""
        self._areas[self._shape.number(f.square)].remove(f)


class _Areas:
    """One map shape's areas for :class:`Occupancy`, numbered row by row
    over the map and one more file and rank below it (file and rank -1,
    where a character waits off the map until its start square is drawn,
    R-SETUP-1), and the areas of each box around each, listed at first use.
    Shared by every battle on the shape (read only), as ``referee.mapgraph``
    shares its route tables."""

    __slots__ = ("width", "height", "stride", "count", "boxes")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.stride = width + 1
        self.count = (width + 1) * (height + 1)
        #: (area, r) -> the areas within ``r`` files and ``r`` ranks of it.
        self.boxes: dict[tuple[int, int], tuple[int, ...]] = {}

    def number(self, sq: Square) -> int:
        """The number of the area ``sq``.  :raises ValueError: off the map."""
        if not (-1 <= sq.file < self.width and -1 <= sq.rank < self.height):
            raise ValueError(f"{sq!r} is not on the {self.width}x{self.height} map")
        return (sq.rank + 1) * self.stride + sq.file + 1

    def box(self, area: int, r: int) -> tuple[int, ...]:
        """The areas within ``r`` files and ``r`` ranks of ``area``."""
        r = min(r, max(self.width, self.height))  # a larger box holds no more areas
        found = self.boxes.get((area, r))
        if found is None:
            rank, file = divmod(area, self.stride)
            found = self.boxes[(area, r)] = tuple(
                y * self.stride + x
                for y in range(max(0, rank - r), min(self.height + 1, rank + r + 1))
                for x in range(max(0, file - r), min(self.stride, file + r + 1)))
        return found


@lru_cache(maxsize=64)
def _areas_of(width: int, height: int) -> _Areas:
    return _Areas(width, height)


def roster_order(f: Fighter) -> int:
    """The sort key of roster order (R-RNG-1): White's list, then Black's."""
    return f.index


def _insert(group: list[Fighter], f: Fighter) -> None:
    """Insert ``f`` into ``group`` keeping roster order (R-RNG-1)."""
    for i, g in enumerate(group):
        if g.index > f.index:
            group.insert(i, f)
            return
    group.append(f)
