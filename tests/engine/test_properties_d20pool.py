"""Invariants over random legal battles under ``d20pool`` (variant-d20.md):
tcgt's invariants (HP within 0..max, nobody off the field, the KO never act,
a panel never paid twice, every battle ends by the cap) plus the variant's
own: a KO character never takes a turn (R-D20-KO-1), each standing character
takes at most one turn a round (R-D20-ORDER-1), every check is consistent
(R-D20-CHECK-1..2), a hit test follows its check (R-D20-HIT-1), and the same
inputs give byte-identical events across processes and hash seeds."""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import events as E
from referee.engine.battle import resolve_battle

from .crossprocess import events_across_processes
from .helpers import ruleset
from .randombattle import random_setup
from .test_properties import check_invariants

EXAMPLES = int(os.environ.get("REFEREE_D20_EXAMPLES", "25"))


#: d20pool's own plan words (R-D20-PLAN-1..2), drawn into the random plans.
D20_CLAUSES = (
    "drop 2 dice on attack when target hp <= 6", "drop 1 die on defence when hp >= 10",
    "boost attack by 3 when hp >= 8", "boost defence by 2 when hp >= 6", "recover when hp <= 6",
    "push target lowest hp when engaged", "grapple target {enemy}", "push when target is grappled",
    "use rest first when ally ko", "hold position when grappled or ally ko",
)


def check_d20_invariants(record) -> None:  # type: ignore[no-untyped-def]
    down: set[str] = set()
    turns: Counter[tuple[int, str]] = Counter()
    last_attack: E.D20Check | None = None
    for ev in record.events:
        if isinstance(ev, E.Down):
            down.add(ev.target)
        if isinstance(ev, E.Revived):
            down.discard(ev.target)
        if isinstance(ev, E.TurnSelected):
            assert ev.actor not in down  # R-D20-KO-1: takes no turn
            turns[(ev.turn, ev.actor)] += 1
        if isinstance(ev, E.D20Check):
            assert ev.actor not in down  # makes no check
            assert len(ev.dice) >= 1 and ev.highest == max(ev.dice)  # R-D20-CHECK-1
            assert all(1 <= d <= 20 for d in ev.dice)
            assert ev.fumble == all(d == 1 for d in ev.dice)  # R-D20-CHECK-2
            assert ev.achievement == (0 if ev.fumble else ev.highest + sum(ev.modifiers.values()))
            if ev.check in ("attack", "push", "grapple"):  # the checks a hit test reads
                last_attack = ev
        if isinstance(ev, E.HitTest):
            assert last_attack is not None and ev.achievement == last_attack.achievement
            assert ev.hit == (not last_attack.fumble and ev.achievement >= ev.sensitivity)
        if isinstance(ev, E.Margin):
            assert ev.margin == max(0, ev.attack - ev.defence)  # R-D20-HIT-2
    assert all(n == 1 for n in turns.values())  # one turn per character per round


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 4), st.integers(0, 10**6))
def test_invariants_hold_in_random_d20pool_battles(data, size, seed) -> None:  # type: ignore[no-untyped-def]
    setup = random_setup(lambda n: data.draw(st.integers(0, n - 1)), size, text_plans=True, extra=D20_CLAUSES)
    rs = ruleset("d20pool", 40)
    record = resolve_battle(setup, rs, seed)
    check_invariants(record, setup, 40)
    check_d20_invariants(record)
    again = resolve_battle(setup, rs, seed)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]


def test_d20pool_byte_identical_across_processes_and_hash_seeds() -> None:
    """R-RNG-1 / R-D20-RNG-1: same inputs + seed = byte-identical events."""
    events = events_across_processes("tests.engine.randombattle:random_setup", "tests.engine.helpers:ruleset",
                                     "d20pool", seed=2002, digits="27182818284590452353602874713527")
    assert any(e["type"] == "d20_check" for e in events)
