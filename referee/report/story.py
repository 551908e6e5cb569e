"""What happened, read from the events: the facts a summary and a folded log need.

A forum reader wants the story before the log: who fell and to whom, the
biggest hits, the narrowing, the turns where the lead changed -- and no
fifty turns of the same exchange.  :func:`read_story` walks the event list
once (renderers read only events, never the engine) and returns plain data;
the written renderers turn it into sentences.

Folding (issue 15): a run of at least :data:`MIN_FOLD` turns is *repeated*
when nobody moved, was pushed, knocked to another square or went down, the
field did not narrow, and the last turn of the run ends exactly as the turn
before the run ended (every square, HP, status and maintained skill).  The
run changed nothing a reader can see at its end, so one line says so and
the detail stays in ``--full`` and in json.  The last turn of a battle is
never folded: it is how the battle ended.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from referee.report.boardview import QUIET_TYPES, BoardView, square_text
from referee.report.record import Report

__all__ = ["Knockout", "Hit", "LeadChange", "NarrowingStage", "Fold", "Story", "read_story", "MIN_FOLD",
           "MAX_HITS"]

#: The fewest turns folded into one line (two turns are short enough to read).
MIN_FOLD = 3
#: How many of the biggest hits the summary names (the narrowing's damage is
#: not a hit: it has its own highlight).
MAX_HITS = 2

#: Event types that change the picture a reader keeps: a fold never spans one.
_BREAKERS = frozenset({"moved", "pushed", "down", "narrowing", "sink_started", "sink_ended"})

#: tcgt's decision and bookkeeping events: nothing in the story, the board
#: view or the status book reads them, so read_story skips them at once
#: (issue 18).  Only a shortcut: a type missing here is read as before.
_UNTOLD = frozenset({
    "action_start", "action_end", "pattern_selected", "panels_reset", "skill_order", "skill_passed",
    "targets_chosen", "stayed", "chance_roll", "obstructed", "reaction", "counter_missed", "panel_used",
})


#: The event types :class:`_StatusBook` reads (every other one it ignores).
_BOOK_TYPES = frozenset({"status_applied", "status_expired", "status_cleansed", "maintain_started",
                         "maintain_released"})


@dataclass(frozen=True)
class Knockout:
    """``target`` went down on ``square`` in ``turn``; ``by``/``skill`` name the
    last damage's source (None for poison, a wall with no actor, the narrowing)."""

    turn: int
    target: str
    square: str
    cause: str
    by: str | None
    skill: str | None


@dataclass(frozen=True)
class Hit:
    """The same blow (attacker, skill, target, amount) in ``turns``, for the
    "biggest hits" highlight: three identical hits make one line."""

    turns: tuple[int, ...]
    target: str
    amount: int
    cause: str
    actor: str | None
    skill: str | None
    order: int  # position in the event list: the tie-break (earlier first)


@dataclass(frozen=True)
class LeadChange:
    """After ``turn`` the leader became ``leader`` (``white``, ``black`` or
    ``level``), by standing heads then total HP (R-GOAL-2's order)."""

    turn: int
    leader: str
    heads: tuple[int, int]  # white, black
    hp: tuple[int, int]


@dataclass(frozen=True)
class NarrowingStage:
    turn: int
    stage: int
    kept: str
    pushed: int
    damage: int


@dataclass(frozen=True)
class Fold:
    """Turns ``first``..``last`` repeated themselves (see the module docstring).

    ``quiet`` is True when no HP changed at all during the run."""

    first: int
    last: int
    hits: int
    damage: int
    heals: int
    healed: int
    skills_used: int

    @property
    def quiet(self) -> bool:
        return self.damage == 0 and self.healed == 0

    @property
    def turns(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Story:
    knockouts: tuple[Knockout, ...]
    biggest_hits: tuple[Hit, ...]
    narrowings: tuple[NarrowingStage, ...]
    lead_changes: tuple[LeadChange, ...]
    folds: tuple[Fold, ...]
    final_view: BoardView = field(compare=False)
    #: The board as the first turn and each turn after a narrowing began
    #: (before its ``turn_start``), and as the battle ended (at its
    #: ``battle_end``): the written report draws its start, narrowing and
    #: end boards from these instead of rebuilding the view event by event a
    #: second time (issue 18).
    turn_views: dict[int, BoardView] = field(default_factory=dict, compare=False)
    end_view: BoardView | None = field(default=None, compare=False)

    def view_before(self, turn: int | None) -> BoardView:
        """The board as turn ``turn`` began (the first turn, or one after a
        narrowing: the boards a report draws); None: as the battle ended."""
        if turn is None:
            return self.end_view if self.end_view is not None else self.final_view
        return self.turn_views[turn]

    def fold_starting(self, turn: int) -> Fold | None:
        """The fold that begins at ``turn``, if any."""
        for fold in self.folds:
            if fold.first == turn:
                return fold
        return None

    def folded(self, turn: int) -> bool:
        return turn in self.folded_turns

    @functools.cached_property
    def folded_turns(self) -> frozenset[int]:
        """Every turn inside a fold (the written report asks once per event)."""
        return frozenset(t for f in self.folds for t in range(f.first, f.last + 1))


@dataclass
class _Turn:
    """What one turn did, as the fold and lead tests need it."""

    number: int
    broke: bool = False
    hits: int = 0
    damage: int = 0
    heals: int = 0
    healed: int = 0
    skills_used: int = 0
    end_state: tuple[Any, ...] = ()


class _StatusBook:
    """Statuses and maintained skills in force, so a fold never hides one
    that began or ended inside it."""

    def __init__(self) -> None:
        self.statuses: set[tuple[str, str, str, str]] = set()
        self.maintained: set[tuple[str, str]] = set()

    def apply(self, e: Any) -> None:
        kind = e.TYPE
        if kind in ("status_applied", "status_expired", "status_cleansed"):
            key = (e.target, e.status, e.object, repr((getattr(e, "index", None), getattr(e, "pattern", None))))
            if kind == "status_applied":
                self.statuses.add(key)
            else:
                self.statuses.discard(key)
        elif kind == "maintain_started":
            self.maintained.add((e.actor, e.skill))
        elif kind == "maintain_released":
            self.maintained.discard((e.actor, e.skill))

    def state(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.statuses)), tuple(sorted(self.maintained)))


#: A piece's part of a turn's end state, read in C (issue 18: every turn).
_PIECE_STATE = operator.attrgetter("square", "hp", "down")


def _board_state(view: BoardView) -> tuple[Any, ...]:
    return tuple(map(_PIECE_STATE, view.pieces.values())), view.kept


def _leader(view: BoardView) -> tuple[str, tuple[int, int], tuple[int, int]]:
    heads_w = heads_b = hp_w = hp_b = 0
    for p in view.pieces.values():
        if not p.down:
            team = p.team
            if team == "white":
                heads_w += 1
                hp_w += p.hp
            elif team == "black":
                heads_b += 1
                hp_b += p.hp
    key_w, key_b = (heads_w, hp_w), (heads_b, hp_b)
    leader = "white" if key_w > key_b else "black" if key_b > key_w else "level"
    return leader, (heads_w, heads_b), (hp_w, hp_b)


def read_story(report: Report) -> Story:
    """Every highlight and fold of ``report``, from its events alone."""
    view = BoardView(report.inputs)
    book = _StatusBook()
    knockouts: list[Knockout] = []
    #: (-amount, order, turn, target, cause, actor, skill) of every hit: plain
    #: tuples, sorted as they are; :func:`_biggest` makes the few Hits shown
    hits: list[tuple[Any, ...]] = []
    narrowings: list[NarrowingStage] = []
    leads: list[LeadChange] = []
    turns: list[_Turn] = [_Turn(0)]
    last_source: dict[str, tuple[str | None, str | None]] = {}
    current = turns[0]
    stage: NarrowingStage | None = None
    leader: str | None = None
    turn_views: dict[int, BoardView] = {}
    end_view: BoardView | None = None
    narrowed = False  # a narrowing since the last turn_start: the next turn's board is drawn

    def close_turn() -> None:
        nonlocal leader, stage
        current.end_state = (_board_state(view), book.state())
        who, heads, hp = _leader(view)
        if leader is None:
            leader = who
        elif who != leader:
            leader = who
            leads.append(LeadChange(current.number, who, heads, hp))
        if stage is not None:
            narrowings.append(stage)
            stage = None

    set_hp = view.set_hp
    for order, e in enumerate(report.events):
        kind = e.TYPE
        if kind in _UNTOLD:  # most events (issue 18)
            continue
        # The commonest kinds first, each done in full (issue 18): not one is
        # a breaker or in the status book; skill_used, turn_start and
        # battle_end do not touch the view (QUIET_TYPES).
        if kind == "skill_used":
            current.skills_used += 1
            continue
        if kind == "damage":
            amount = e.amount
            current.hits += 1
            current.damage += amount
            last_source[e.target] = (e.actor, e.skill)
            if amount > 0 and e.cause != "narrowing":
                hits.append((-amount, order, e.turn, e.target, e.cause, e.actor, e.skill))
            if stage is not None and e.cause == "narrowing":
                stage = replace(stage, damage=stage.damage + amount)
            set_hp(e.target, e.hp_after)
            continue
        if kind == "heal":
            current.heals += 1
            current.healed += e.amount
            set_hp(e.target, e.hp_after)
            continue
        if kind == "turn_start":
            close_turn()
            current = _Turn(e.turn)
            turns.append(current)
            if narrowed or not turn_views:
                turn_views[e.turn] = view.copy()
                narrowed = False
            continue
        if kind == "battle_end":
            close_turn()
            end_view = view.copy()
            continue
        if kind in _BREAKERS or (kind == "knockback" and e.from_square != e.to_square):
            current.broke = True
        if kind == "down":
            by, skill = last_source.get(e.target, (None, None))
            knockouts.append(Knockout(e.turn, e.target, square_text(e.square), e.cause, by, skill))
        elif kind == "narrowing":
            stage = NarrowingStage(e.turn, e.stage, e.kept, 0, 0)
            narrowed = True
        elif kind == "pushed" and stage is not None:
            stage = replace(stage, pushed=stage.pushed + 1)
        if kind not in QUIET_TYPES:  # the calls only for events that change something (issue 18)
            view.apply(e)
        if kind in _BOOK_TYPES:
            book.apply(e)
    return Story(tuple(knockouts), _biggest(hits), tuple(narrowings),
                 tuple(leads), tuple(_folds(turns)), view, turn_views, end_view)


def _biggest(hits: list[tuple[Any, ...]]) -> tuple[Hit, ...]:
    """The :data:`MAX_HITS` hardest blows, identical ones merged, in battle order.

    ``hits``: ``(-amount, order, turn, target, cause, actor, skill)`` per hit,
    hardest first once sorted (``order`` is unique, so the sort never looks
    further); a Hit is made only for the blows shown (issue 18)."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    for minus, order, turn, target, cause, actor, skill in sorted(hits):
        key = (actor, skill, target, -minus, cause)
        group = groups.get(key)
        if group is not None:
            group[0].append(turn)
        elif len(groups) < MAX_HITS:
            groups[key] = [[turn], target, -minus, cause, actor, skill, order]
    return tuple(sorted((Hit(tuple(g[0]), *g[1:]) for g in groups.values()), key=lambda h: h.order))


def _folds(turns: list[_Turn]) -> Iterable[Fold]:
    """Greedy, earliest first: from each turn end, the longest run of turns
    without a breaker that ends in the same state (the battle's last turn is
    never folded)."""
    last = len(turns) - 1  # index of the battle's last turn (turns[0] is the setup)
    i = 0
    while i < last:
        j = i
        best = None
        while j + 1 < last and not turns[j + 1].broke:
            j += 1
            if j - i >= MIN_FOLD and turns[j].end_state == turns[i].end_state:
                best = j
        if best is None:
            i += 1
            continue
        run = turns[i + 1: best + 1]
        yield Fold(run[0].number, run[-1].number, sum(t.hits for t in run), sum(t.damage for t in run),
                   sum(t.heals for t in run), sum(t.healed for t in run), sum(t.skills_used for t in run))
        i = best
