"""d20pool's speed shortcuts change no event and no draw: each
battle here is resolved with a shortcut and without it -- the way the turn
was taken before the shortcut, kept in this file as the oracle -- and the two
event streams and RNG streams compared.

* ``WalkPolicy.judged``: the walk after ``judge_walk`` found a use takes the
  judge's passes, entry, candidates and panels instead of asking again;
* ``judge_step``: the support's trial of the movement decision
  (R-D20-TURN-3 (2)) is ``decide_step`` alone, with no move, no event and no
  draw; the oracle steps into a scratch event list and moves back;
* the shift's first step takes the judged decision when judging it met no
  draw.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from unittest import mock

import pytest

from referee.engine.battle import BattleSetup, resolve_battle
from referee.engine.core import Resolution
from referee.engine.mechanics import d20pool
from referee.engine.movement import move_step
from referee.engine.rng import BattleRng
from referee.engine.state import Fighter

from .helpers import ruleset
from .randombattle import random_setup
from .test_properties_d20pool import D20_CLAUSES


def setups() -> list[tuple[BattleSetup, int]]:
    """Random d20pool battles of 1 to 8 a side, the variant's own clauses in
    their plans, drawn from fixed seeds."""
    out = []
    for i, size in enumerate((1, 2, 3, 4, 4, 6, 8, 8)):
        src = BattleRng(f"d20-shortcuts-{i}")
        out.append((random_setup(lambda n: src.randrange("setup", n), size, text_plans=True,
                                 extra=D20_CLAUSES), i))
    return out


def resolved(setup: BattleSetup, seed: int) -> tuple[list[dict[str, Any]], list[Any]]:
    """The events (as JSON) and the final state of every RNG stream."""
    rng = BattleRng(seed)
    record = resolve_battle(setup, ruleset("d20pool", 30), seed, rng=rng)
    return [e.to_json() for e in record.events], [s.getstate() for s in rng._streams.values()]


def old_trial(ctx: Resolution, f: Fighter, attacked: bool) -> tuple[bool, None]:
    """The trial as it was: step with a non-drawing RNG into scratch events,
    then move back; no decision is handed to the shift."""
    if attacked and not f.plan.moves:
        return False, None
    rng, events, square = ctx.rng, ctx.events, f.square
    ctx.rng, ctx.events = d20pool._NoDraws(), []
    try:
        return move_step(ctx, f, attacked, report_stay=False) is None, None
    finally:
        ctx.rng, ctx.events = rng, events
        ctx.state.move(f, square)


@pytest.mark.parametrize("case", range(8))
def test_each_shortcut_changes_no_event_and_no_draw(case: int) -> None:
    setup, seed = setups()[case]
    fast = resolved(setup, seed)
    policy = d20pool.WalkPolicy

    def plain_policy(*args: Any, judged: Any = None, **kwargs: Any) -> Any:
        return policy(*args, **kwargs)

    with mock.patch.object(d20pool, "WalkPolicy", plain_policy):
        assert resolved(setup, seed) == fast  # the walk asks every entry again
    with mock.patch.object(d20pool, "judge_step", old_trial):
        assert resolved(setup, seed) == fast  # the old trial, and every shift step decided afresh
    judge_step = d20pool.judge_step
    with mock.patch.object(d20pool, "judge_step", lambda ctx, f, a: (judge_step(ctx, f, a)[0], None)):
        assert resolved(setup, seed) == fast  # every shift step decided afresh


def test_the_shortcuts_are_taken() -> None:
    """The comparisons above can fail: these battles use a judged walk, and
    hand a judged decision to a shift."""
    seen = {"judged": 0, "decided": 0}
    policy, shift = d20pool.WalkPolicy, d20pool.SupportAndAction.shift

    def counting_policy(*args: Any, **kwargs: Any) -> Any:
        made = policy(*args, **kwargs)
        seen["judged"] += made.judged is not None
        return made

    def counting_shift(self: Any, ctx: Resolution, f: Fighter, attacked: bool, decided: Any = None) -> None:
        seen["decided"] += decided is not None
        shift(self, ctx, f, attacked, decided)

    with mock.patch.object(d20pool, "WalkPolicy", counting_policy), \
            mock.patch.object(d20pool.SupportAndAction, "shift", counting_shift):
        for setup, seed in setups():
            resolved(setup, seed)
    assert seen["judged"] > 0 and seen["decided"] > 0


def test_judge_step_moves_no_one_and_writes_nothing() -> None:
    """``judge_step`` leaves the state, the events and the RNG as it found them."""
    calls = 0
    judge_step = d20pool.judge_step

    def checked(ctx: Resolution, f: Fighter, attacked: bool) -> Any:
        nonlocal calls
        squares = [(g.name, g.square, g.down) for g in ctx.state.fighters]
        count, rng = len(ctx.events), ctx.rng
        draws = [s.getstate() for s in rng._streams.values()]  # type: ignore[attr-defined]
        out = judge_step(ctx, f, attacked)
        assert [(g.name, g.square, g.down) for g in ctx.state.fighters] == squares
        assert len(ctx.events) == count and ctx.rng is rng
        assert [s.getstate() for s in rng._streams.values()] == draws  # type: ignore[attr-defined]
        calls += 1
        return out

    with mock.patch.object(d20pool, "judge_step", checked):
        for setup, seed in setups()[:4]:
            resolved(setup, seed)
    assert calls > 0


def test_walk_policy_is_still_a_plain_dataclass() -> None:
    """A policy without the judge's findings is the walk of every other ruleset."""
    assert d20pool.WalkPolicy().judged is None
    assert "judged" in {f.name for f in dataclasses.fields(d20pool.WalkPolicy)}
