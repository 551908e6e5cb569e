"""The resolution context shared by the resolution modules.

``Resolution`` bundles what every resolution function needs -- the mutable
:class:`BattleState`, the frozen ruleset, the mechanics it names (R-VAR-1),
the RNG and the append-only event list -- plus the few primitives every
module uses: losing and gaining HP, deciding downs (R-CHAR-2/2a) and ending
the battle (the ``end`` mechanic, then R-GOAL-2).  Named apart from
``referee.battlefile.Battle`` (a loaded battle file).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from referee.catalog import Skill
from referee.engine import events as E
from referee.engine.mechanics.protocols import Mechanics
from referee.engine.rng import Rng
from referee.engine.state import BLACK, WHITE, BattleState, Fighter
from referee.ruleset import Ruleset


#: A damage event's cause -> the ``down`` event's cause when it took the last HP.
_DOWN_CAUSE: dict[str, str] = {"skill": "hit", "counter": "hit"}


class BattleOver(Exception):
    """Raised to unwind the action in progress once R-GOAL-1 ends the battle."""


class Resolution:
    """State + ruleset + mechanics + rng + events of one battle being resolved."""

    __slots__ = ("state", "ruleset", "mechanics", "rng", "events", "result")

    def __init__(self, state: BattleState, ruleset: Ruleset, mechanics: Mechanics, rng: Rng) -> None:
        self.state = state
        self.ruleset = ruleset
        self.mechanics = mechanics
        self.rng = rng
        self.events: list[E.Event] = []
        self.result: E.BattleResult | None = None

    # -- events ---------------------------------------------------------------
    def emit(self, event: E.Event) -> None:
        self.events.append(event)

    @property
    def turn(self) -> int:
        return self.state.turn

    # -- HP -------------------------------------------------------------------
    def lose_hp(
        self,
        target: Fighter,
        amount: int,
        cause: str,
        *,
        actor: str | None = None,
        skill: str | None = None,
        element: str = "",
        printed: int | None = None,
        reduced: int = 0,
        rule: str = "R-SK-3",
    ) -> int:
        """Apply one loss of HP (floored at 0, R-CHAR-2) as one Damage event.

        A hit (``skill``/``counter``) is always recorded, 0 included, so the
        report shows its reduction; poison, a wall or the narrowing meeting a
        character already at 0 HP (not yet down, R-CHAR-2a) takes nothing and
        records nothing."""
        amount = max(0, amount)
        if target.hp <= 0 and cause not in ("skill", "counter"):
            return 0
        dealt = min(amount, target.hp)
        target.hp -= dealt
        if dealt > 0:
            self.state.turn_hp_lost = True  # R-SOUL-HARD-1's fact, kept as the turn goes
            if target.hp == 0:
                target.felled_by = _DOWN_CAUSE.get(cause, cause)
        self.emit(E.Damage(turn=self.turn, target=target.name, amount=dealt, hp_after=target.hp, cause=cause,
                           actor=actor, skill=skill, element=element,
                           printed=amount + reduced if printed is None else printed, reduced=reduced, rule=rule))
        return dealt

    def gain_hp(self, target: Fighter, amount: int, actor: str, skill: str, cause: str = "skill") -> int:
        """Heal, never above max HP (skills.md notes)."""
        gained = max(0, min(amount, target.max_hp - target.hp))
        target.hp += gained
        self.emit(E.Heal(turn=self.turn, target=target.name, amount=gained, hp_after=target.hp, actor=actor,
                         skill=skill, cause=cause))
        return gained

    # -- downs and the end rule --------------------------------------------------
    def settle_downs(self, cause: str) -> list[Fighter]:
        """R-CHAR-2/2a: everyone at 0 HP not yet down goes down now (roster
        order): its maintained skills end and its sinkings end.  The ``down``
        event names what took the last HP -- a ``hit``, ``poison``, a ``wall``
        or the ``narrowing`` -- else ``cause``, the step being settled (a
        character set up at 0 HP, say)."""
        fallen = [f for f in self.state.fighters if f.hp <= 0 and not f.down]
        for f in fallen:
            self.state.set_down(f, True)
            self.emit(E.Down(turn=self.turn, target=f.name, square=f.square, cause=f.felled_by or cause))
            for entry in sorted(f.maintained):
                self.emit(E.MaintainReleased(turn=self.turn, actor=f.name, skill=f.skills[entry].id,
                                             entry=entry, cause="down", rule="R-CHAR-2"))
            release_all(f)
            for sink in [s for s in self.state.sinks if s.owner == f.name]:
                self.state.sinks.remove(sink)
                self.emit(E.SinkEnded(turn=self.turn, actor=f.name, square=sink.square, cause="owner_down"))
            if self.state.revivable:
                clear_statuses(f)
        return fallen

    def check_end(self) -> None:
        """The ``end`` mechanic (tcgt: R-GOAL-1, an army down to a third of
        its start), asked after every change that can fell someone.

        :raises BattleOver: when the battle is over (the result is recorded).
        """
        if self.mechanics.end.reached(self.state):
            self.finish("army_reduced", "R-GOAL-1")

    def finish(self, reason: str, rule: str) -> None:
        """Decide the winner (head count, then total HP: R-GOAL-1/2) and stop."""
        st = self.state
        w, b = st.standing(WHITE), st.standing(BLACK)
        if w == b:
            hw = sum(f.hp for f in st.fighters if f.team == WHITE and not f.down)
            hb = sum(f.hp for f in st.fighters if f.team == BLACK and not f.down)
            winner = WHITE if hw > hb else BLACK if hb > hw else "draw"
            if winner != "draw" or rule == "R-GOAL-1":
                rule = "R-GOAL-2" if rule == "R-GOAL-1" else rule
        else:
            winner = WHITE if w > b else BLACK
        self.mechanics.end.before_result(self, winner)
        final = tuple(E.FinalCharacter(f.name, f.team, f.hp, f.square, f.down) for f in st.fighters)
        self.result = E.BattleResult(winner, reason, st.turn, final, rule)
        self.emit(E.BattleEnd(turn=st.turn, result=self.result, rule=rule))
        raise BattleOver()


def release_all(f: Fighter) -> None:
    """Drop every maintained skill; its panels stay used (R-TURN-4)."""
    if f.active is not None:
        for p in f.panels[f.active]:
            if p.assigned is not None:
                p.assigned = None
                p.used = True
    f.maintained.clear()


def release(f: Fighter, entry: int) -> None:
    """Drop one maintained entry; its panels stay used until the next action."""
    panels = f.active_panels()
    for i in f.maintained.pop(entry, ()):
        panels[i].assigned = None
        panels[i].used = True


def clear_statuses(f: Fighter) -> None:
    """R-D20-KO-1: a KO removes every status on the character, its entries,
    clauses and panels (a revived character starts clean)."""
    f.bind = f.freeze = f.grapple = 0
    f.skill_binds.clear()
    f.clause_binds.clear()
    for panels in f.panels:
        for p in panels:
            p.poisoned = False
            p.changed = 0


@contextmanager
def cycles_unchecked() -> Iterator[None]:
    """Pause the cyclic garbage collector while a battle resolves.

    Why: a battle makes no reference cycles (tests/engine/test_no_cycles.py
    checks that every ruleset's battles leave nothing for the collector), so
    every collection during it is pure cost -- and a growing one: the events a
    battle keeps are promoted and traversed again, and a long battle of a
    big army triggers full collections of the whole heap.  Reference counting
    frees everything as before.  A collector already off (the caller's
    choice) stays off; nested or concurrent battles only ever turn it back
    on if it was on when they began.  Changes no event and no draw."""
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
