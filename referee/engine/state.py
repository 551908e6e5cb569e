"""The mutable battle state (style lesson 2: rules frozen, state mutable).

``BattleState`` holds everything that changes: HP, squares, active pattern and
panel states, maintained skills, statuses with their remaining counts, sunk
areas, the turn and the current (possibly narrowed) map.  The frozen
``Ruleset`` and the catalogue's ``Skill`` records are only read.  Classes use
``__slots__`` and plain lists: the hot path never deep-copies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from referee.board import Rect, Square
from referee.catalog import Reaction, Skill
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
        "size", "garb", "evasion_type", "grapple", "pos", "bit", "reactions", "entries_by_id",
        "payments",
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
        # --- soulwired, issue 12: the sheet block (R-SOUL-FILE-1) ---
        #: ``evasive`` / ``armoured`` / None, and ``normal`` / ``none``.
        self.garb: str | None = None
        self.evasion_type: str = "normal"
        #: d20pool (R-D20-PUSH-2): status ``grapple``, its turns left (0 = none):
        #: it cannot shift until then.
        self.grapple = 0
        #: Roster position in its battle (``BattleState.reindex``): the kept
        #: indexes sort by it through a C attribute getter (issue 18).
        self.pos = index
        #: ``1 << pos``, its bit in the bitset index (a C attribute read:
        #: a pool's bits are ``sum(map(attrgetter("bit"), pool))``).
        self.bit = 1 << index
        #: The reacting entries of its skills by trigger, (entry, skill,
        #: reaction) in skill-list order: fixed by the sheet, found at the
        #: first hit (``responses._reaction_entries``); None until then.
        self.reactions: dict[str, tuple[tuple[int, Skill, Reaction], ...]] | None = None
        #: Its entries by skill id, in skill-list order: fixed by the sheet,
        #: found at the first ``readies`` question (conditions.py); None until then.
        self.entries_by_id: dict[str, tuple[int, ...]] | None = None
        #: Per pattern, per entry: the entry's cost read against the pattern
        #: (``panels.cost_slots``; None: no state of its panels pays it),
        #: False until first asked (``panels.entry_payment``): fixed by the
        #: sheet, and asked at most entries of every walk (issue 18).
        self.payments: list[list[tuple[tuple[int, ...] | None, ...] | None | bool]] = [
            [False] * len(skills) for _ in patterns]

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

    def entries_of(self, skill_id: str) -> tuple[int, ...]:
        """Its entries of ``skill_id``, in skill-list order (found once:
        the sheet fixes them)."""
        table = self.entries_by_id
        if table is None:
            found: dict[str, list[int]] = {}
            for i, s in enumerate(self.skills):
                found.setdefault(s.id, []).append(i)
            table = self.entries_by_id = {k: tuple(v) for k, v in found.items()}
        return table.get(skill_id, ())

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

    # --- soulwired, issue 12 (R-SOUL-TERR-*) ---
    #: Barrier areas (fixed) and the objects still standing: square -> [strength, armour].
    barriers: frozenset[Square] = frozenset()
    objects: dict[Square, list[int]] = field(default_factory=dict)

    # --- d20pool (variant-d20.md) ---
    #: R-D20-KO-2: a down (KO) character may be healed back onto its return
    #: area (its ``square``); set from the ``end`` mechanic at battle start.
    revivable: bool = False

    # --- kept indexes (issue 18): changed only by move() and set_down() ---
    #: Living characters by area, keyed by :func:`area_key` (an int hashes
    #: without a Python call; each list in roster order).
    occupants: dict[int, list[Fighter]] = field(default_factory=dict)
    #: Living characters by army, in roster order.
    standing_by_team: dict[str, list[Fighter]] = field(default_factory=dict)
    #: The bitset index of ranks and files (issue 18): each living character
    #: is the bit ``1 << pos``; ``rank_below[pad + k]`` holds the characters
    #: whose rank + 2 is at most ``k`` (``file_below`` the same for files).
    #: Ranks are disjoint, so the characters of ranks r0..r1 are
    #: ``rank_below[pad + r1 + 2] ^ rank_below[pad + r0 + 1]``: any box is
    #: four look-ups, and a one-area step changes one entry of each.  The
    #: ``pad`` entries below (all 0) and as many above (all the living) cut a
    #: box to the map without a test; ``size``: the side the lists cover.
    rank_below: list[int] = field(default_factory=list)
    file_below: list[int] = field(default_factory=list)
    pad: int = 0
    size: int = 0
    #: Living characters by army, as bits (``1 << pos``): an army's or its
    #: enemies' part of a box is one ``&`` (issue 18).
    team_bits: dict[str, int] = field(default_factory=dict)
    #: Every living character's bit (the armies' bits together): an army's
    #: enemies are ``living_bits ^ team_bits[team]``, a positive mask -- an
    #: AND with ``~army``, negative and past 30 characters a wide int, leaves
    #: CPython's fast path for its slow one (issue 18).
    living_bits: int = 0
    #: :meth:`members`' answers by bits: a pure function of the bits while
    #: the roster stands (emptied by :meth:`reindex`).  In a crowd the same
    #: boxes are asked again and again (about 4 in 5 calls at 32v32).
    member_cache: dict[int, tuple[Fighter, ...]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.by_name = {f.name: f for f in self.fighters}
        for team in (WHITE, BLACK):
            self.start_counts[team] = sum(1 for f in self.fighters if f.team == team)
        self.reindex()

    # -- the only places that change a character's square or down flag ------
    def move(self, f: Fighter, square: Square) -> None:
        """Put ``f`` on ``square``: every change of a square goes through here
        (steps, pushes, knockback, narrowing, setup draws, look-ahead undo), so
        the occupancy index stays equal to a recount (issue 18)."""
        old = f.square
        f.square = square
        # area_key inlined: this runs for every step of every character
        old_key = old.rank * _RANK_STRIDE + old.file
        new_key = square.rank * _RANK_STRIDE + square.file
        if old_key != new_key and not f.down:
            occ = self.occupants
            at = occ[old_key]
            at.remove(f)
            if not at:
                del occ[old_key]
            there = occ.get(new_key)
            if there is None:
                occ[new_key] = [f]
            else:
                _insert(there, f)
            if square.rank >= self.size or square.file >= self.size:  # beyond the lists: longer ones
                self._rebuild_bits()
                return
            # the bit leaves (or joins) the entries between the two ranks, files
            bit = f.bit
            ranks, files, pad = self.rank_below, self.file_below, self.pad + 2
            a, z = old.rank + pad, square.rank + pad
            for k in range(a, z) if a < z else range(z, a):
                ranks[k] ^= bit
            a, z = old.file + pad, square.file + pad
            for k in range(a, z) if a < z else range(z, a):
                files[k] ^= bit

    def set_down(self, f: Fighter, down: bool) -> None:
        """Mark ``f`` down (R-CHAR-2) or up again (R-D20-KO-2, R-D20-END-2):
        every change of ``down`` goes through here, so the head counts and the
        occupancy index stay equal to a recount (issue 18)."""
        if f.down is down:
            return
        f.down = down
        team = self.standing_by_team.setdefault(f.team, [])
        if down:
            team.remove(f)
            at = self.occupants[area_key(f.square)]
            at.remove(f)
            if not at:
                del self.occupants[area_key(f.square)]
        else:
            _insert(team, f)
            _insert(self.occupants.setdefault(area_key(f.square), []), f)
        bit = 1 << f.pos
        self.team_bits[f.team] = self.team_bits.get(f.team, 0) ^ bit
        self.living_bits ^= bit
        pad = self.pad + 2
        for bits, start in ((self.rank_below, f.square.rank + pad), (self.file_below, f.square.file + pad)):
            for k in range(start, len(bits)):
                if down:
                    bits[k] &= ~bit
                else:
                    bits[k] |= bit

    def reindex(self) -> None:
        """Build the kept indexes from the fighters (battle start)."""
        for i, f in enumerate(self.fighters):
            f.pos = i
            f.bit = 1 << i
        self.member_cache = {}
        self.occupants = {}
        self.standing_by_team = {WHITE: [], BLACK: []}
        for f in self.fighters:
            if not f.down:
                self.occupants.setdefault(area_key(f.square), []).append(f)
                self.standing_by_team.setdefault(f.team, []).append(f)
        self._rebuild_bits()

    def _count_teams(self) -> dict[str, int]:
        teams = {WHITE: 0, BLACK: 0}
        for f in self.fighters:
            if not f.down:
                teams[f.team] = teams.get(f.team, 0) | 1 << f.pos
        return teams

    def _count_bits(self, size: int) -> tuple[list[int], list[int]]:
        """``rank_below`` and ``file_below`` counted from the fighters, for
        ranks and files -1 .. ``size`` - 1, padded (see the fields)."""
        pad = size + 2
        length = pad + 2 * size + 3  # room for any box of r <= size + 1 around any such area
        # each character's bit at its first entry, then a running OR: one
        # pass over the lists, not one per character (battle start, and the
        # recount of tests; issue 18)
        ranks = [0] * length
        files = [0] * length
        for f in self.fighters:
            if not f.down:
                bit = 1 << f.pos
                ranks[pad + f.square.rank + 2] |= bit
                files[pad + f.square.file + 2] |= bit
        rank_acc = file_acc = 0
        for k in range(length):
            rank_acc |= ranks[k]
            ranks[k] = rank_acc
            file_acc |= files[k]
            files[k] = file_acc
        return ranks, files

    def _rebuild_bits(self) -> None:
        """Lay the bitset index out afresh: long enough for the map's ranks
        and files and any square a character holds."""
        size = max(self.graph.width, self.graph.height)
        for f in self.fighters:
            size = max(size, f.square.rank + 1, f.square.file + 1)
        self.size, self.pad = size, size + 2
        self.rank_below, self.file_below = self._count_bits(size)
        self.team_bits = self._count_teams()
        self.living_bits = _union(self.team_bits)

    def index_errors(self) -> list[str]:
        """Where the kept indexes differ from a recount (empty: none); the
        debug check of tests (tests/engine/test_state_index.py)."""
        occ: dict[int, list[Fighter]] = {}
        teams: dict[str, list[Fighter]] = {WHITE: [], BLACK: []}
        for f in self.fighters:
            if not f.down:
                occ.setdefault(area_key(f.square), []).append(f)
                teams.setdefault(f.team, []).append(f)
        errors = []
        if occ != self.occupants:
            errors.append(f"occupants {self.occupants} != recount {occ}")
        kept = {t: v for t, v in self.standing_by_team.items() if v or t in teams}
        if kept != teams:
            errors.append(f"standing {self.standing_by_team} != recount {teams}")
        if (self.rank_below, self.file_below) != self._count_bits(self.size):
            errors.append(f"bits {self.rank_below} {self.file_below} != recount {self._count_bits(self.size)}")
        teams_bits = self._count_teams()
        if {t: v for t, v in self.team_bits.items() if v or t in teams_bits} != teams_bits:
            errors.append(f"team bits {self.team_bits} != recount {teams_bits}")
        if self.living_bits != _union(teams_bits):
            errors.append(f"living bits {self.living_bits} != recount {_union(teams_bits)}")
        return errors

    def box_bits(self, sq: Square, r: int) -> int:
        """The living characters within ``r`` files and ``r`` ranks of ``sq``
        (cut to the map plus the off-map waiting square), as bits ``1 << pos``
        of the bitset index: four look-ups, whatever the box's size (issue 18)."""
        if r < 0:
            return 0
        if r > self.size:  # a box of size + 1 around any area holds the whole map
            r = self.size + 1
        lo = self.pad - r + 1  # the entries of coordinate - r + 1 and coordinate + r + 2
        hi = self.pad + r + 2
        ranks = self.rank_below
        bits = ranks[sq.rank + hi] ^ ranks[sq.rank + lo]
        if not bits:
            return 0
        files = self.file_below
        return bits & (files[sq.file + hi] ^ files[sq.file + lo])

    def members(self, bits: int) -> list[Fighter]:
        """The characters of ``bits`` (the bitset index's ``1 << pos``), in
        roster order: the bits high to low, reversed, no sort (R-RNG-1).  Kept in
        :attr:`member_cache` once found (a new list each call: callers may
        change theirs)."""
        if not bits:
            return []
        found = self.member_cache.get(bits)
        if found is None:
            fighters = self.fighters
            out: list[Fighter] = []
            if bits < _ONE_DIGIT:
                # high bit to low, then reversed: one-digit ints stay on
                # CPython's fast path
                rest = bits
                while rest:
                    top = rest.bit_length() - 1
                    out.append(fighters[top])
                    rest ^= 1 << top
                out.reverse()
            else:
                # past 30 characters a bitset is a multi-digit int, and each
                # shift and XOR of the loop above allocates one: read its
                # bytes instead, each through the table of its bits
                # (callgrind: 8.1 k instructions a miss against 9.7 k over
                # the misses of 32v32 battles, about 7 characters each;
                # issue 18)
                pos = 0
                for byte in bits.to_bytes((bits.bit_length() + 7) >> 3, "little"):
                    if byte:
                        for k in _BYTE_BITS[byte]:
                            out.append(fighters[pos + k])
                    pos += 8
            found = self.member_cache[bits] = tuple(out)
        return list(found)

    def near(self, sq: Square, r: int) -> list[Fighter]:
        """Living characters within ``r`` files and ``r`` ranks of ``sq`` (the
        Chebyshev box every range metric stays inside, metric.py), in roster
        order, read from the bitset index.  Callers still apply their
        metric's ``in_range``: this only narrows what is scanned, so the
        result never depends on it (issue 18)."""
        return self.members(self.box_bits(sq, r))

    def within(self, sq: Square, r: int, mask: int = -1) -> list[Fighter]:
        """The living characters within range ``r`` of ``sq`` by the ruleset's
        metric (R-RANGE-1), in roster order: the bitset index's box
        (:meth:`near`), with no ``in_range`` call when the metric promises
        its range is that box (``box_is_range``); else each of the box asked.
        ``mask``: only these bits (:meth:`side_bits`: one army or its
        enemies), cut before any character is read.  The one range scan of
        candidates, ``within`` counts, the ally domain and the approach's
        reach (issue 18)."""
        bits = self.box_bits(sq, r) & mask
        found = self.member_cache.get(bits)  # members' cache read inline: most boxes of a crowd were asked
        near = list(found) if found is not None else self.members(bits)
        in_range = self.metric.in_range
        return [g for g in near if in_range(sq, g.square, r)]

    def count_within(self, sq: Square, r: int, mask: int = -1) -> int:
        """``len(self.within(sq, r, mask))``: with a metric whose range is its
        box, a count of bits, no character read (issue 18)."""
        return len(self.within(sq, r, mask))

    def side_bits(self, team: str, enemies: bool) -> int:
        """The mask of ``team``'s army (``enemies`` False) or of every living
        character not in it (True) for :meth:`within`, :meth:`count_within`
        and :meth:`ring`: the index holds only the living, so either reads
        the same part of a box."""
        bits = self.team_bits.get(team, 0)
        # the enemies as the living less the army: a positive mask (not
        # ``~bits``), equal to it wherever it meets the index's bits
        return self.living_bits ^ bits if enemies else bits

    def ring(self, sq: Square, d: int, mask: int = -1) -> list[Fighter]:
        """Living characters at Chebyshev distance exactly ``d`` from ``sq``
        (the ``d``-th ring of areas around it, cut to the map plus the
        off-map waiting square), in roster order: the approach reads the
        nearest enemies ring by ring (R-MOVE-6, issue 18).  Ring 0 is ``sq``
        itself.  The box of ``d`` less the box of ``d - 1``; ``mask`` as for
        :meth:`within`."""
        bits = self.box_bits(sq, d) & mask
        if bits and d > 0:
            bits &= ~self.box_bits(sq, d - 1)
        return self.members(bits)

    def living(self) -> list[Fighter]:
        return [f for f in self.fighters if not f.down]

    def enemies_of(self, f: Fighter) -> list[Fighter]:
        """Living members of the other army, in roster order (the kept index:
        White's list precedes Black's, so one list is already in order)."""
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
        """Whether a sinking holds ``sq`` (R-ST-SINK).  Asked for every mover
        and engaged check: coordinates compared inline, no generator and no
        ``Square.__eq__`` call per sinking (issue 18)."""
        sinks = self.sinks
        if not sinks:
            return False
        file, rank = sq.file, sq.rank
        for s in sinks:
            q = s.square
            if q.file == file and q.rank == rank:
                return True
        return False

    def is_engaged(self, f: Fighter) -> bool:
        """An enemy in its area, or its area sunk (R-MOVE-1, R-ST-SINK)."""
        sq, team = f.square, f.team
        if self.sinks and self.is_sunk(sq):
            return True
        for g in self.occupants.get(sq.rank * _RANK_STRIDE + sq.file, ()):
            if g.team != team:
                return True
        return False

    def enemy_in_area(self, f: Fighter) -> bool:
        """An enemy in ``f``'s area (R-MOVE-1): :meth:`is_engaged` less the
        sinking test, for a caller that has just made it (the movement's
        ``stuck``: every mover; sinkings are many in a crowd, issue 18)."""
        sq, team = f.square, f.team
        for g in self.occupants.get(sq.rank * _RANK_STRIDE + sq.file, ()):
            if g.team != team:
                return True
        return False

    def standing(self, team: str) -> int:
        return len(self.standing_by_team.get(team, ()))

    def all_standing(self, team: str) -> bool:
        """None of ``team``'s army is down: where KO characters stay
        targetable (R-D20-KO-2), its living ones are then all of it, and the
        bitset index (living characters only) answers for the army."""
        return len(self.standing_by_team.get(team, ())) == self.start_counts.get(team)


def area_key(sq: Square) -> int:
    """The occupancy index's key of an area (files and ranks are small: at
    most 32, or -1 for the off-map waiting square)."""
    return sq.rank * _RANK_STRIDE + sq.file


_RANK_STRIDE = 4096

#: Bitsets below this are one-digit ints (CPython's 30-bit digits).
_ONE_DIGIT = 1 << 30
#: The bits set in each byte value, low to high (:meth:`BattleState.members`).
_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(k for k in range(8) if v >> k & 1) for v in range(256))


def occupants_at(state: BattleState, sq: Square) -> list[Fighter]:
    """The living characters on ``sq``, roster order (the kept index)."""
    return state.occupants.get(area_key(sq), [])


#: The sort key of roster order (R-RNG-1): a character's kept roster position.
ROSTER_ORDER = attrgetter("pos")


def _union(team_bits: Mapping[str, int]) -> int:
    """The bits of every army together."""
    out = 0
    for bits in team_bits.values():
        out |= bits
    return out


def _insert(group: list[Fighter], f: Fighter) -> None:
    """Insert ``f`` into ``group`` keeping roster order (R-RNG-1)."""
    index = f.pos
    for i, g in enumerate(group):
        if g.pos > index:
            group.insert(i, f)
            return
    group.append(f)
