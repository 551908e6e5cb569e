"""d20pool's turn selection reads the area numbers from the bitset index
(issue 13, third round): at every selection, the number and the contenders
it finds are what the table scan of every unacted standing character gave
before -- the highest number and exactly the characters on it -- on the
built-in 8x8 map and on odd map shapes, whether the contenders were listed
afresh or reused from the last selection (less the one who acted); and
every ranking, from ``rank_contenders`` or the last one less its first, is
the contenders' keys in order, tie-free (R-D20-ORDER-3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest import mock

import pytest

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.core import Resolution
from referee.engine.mechanics import d20pool
from referee.engine.rng import BattleRng
from referee.engine.state import BattleState

from .helpers import ruleset
from .randombattle import random_setup
from .test_properties_d20pool import D20_CLAUSES


def table_scan(state: BattleState, pending: int, width: int, height: int) -> tuple[int, int]:
    """The selection as it was: every pending standing character's area
    number from :func:`d20pool.ring_table`, the highest kept (the oracle)."""
    rings = d20pool.ring_table(width, height)
    top, bits = 0, 0
    for f in state.fighters:
        if f.down or not pending & f.bit:
            continue
        number = rings[f.square.file][f.square.rank]
        if number > top:
            top, bits = number, f.bit
        elif number == top:
            bits |= f.bit
    return top, bits


@pytest.mark.parametrize(("width", "height", "size"), [(8, 8, 8), (8, 8, 3), (5, 9, 4), (9, 4, 6), (1, 6, 2), (3, 3, 2)])
def test_each_selection_is_the_table_scan(width: int, height: int, size: int) -> None:
    rs = ruleset("d20pool", 12)
    rs = replace(rs, map=replace(rs.map, width=width, height=height))
    names = d20pool.names_of
    emit = Resolution.emit
    seen = [0, 0]  # selections checked, contenders listed afresh

    def checked(ctx: Resolution, event: Any) -> None:
        if isinstance(event, E.TurnSelected) and event.rule == "R-D20-ORDER-1":
            state = ctx.state
            # the pending at the selection: the unacted, and the one just chosen
            pending = sum(f.bit for f in state.fighters if not f.acted or f.name == event.actor)
            top, bits = table_scan(state, pending, width, height)
            assert (event.number, set(event.contenders)) == (top, set(names(state.fighters, bits)))
            seen[0] += 1
        emit(ctx, event)

    def listed(fighters: Any, bits: int) -> list[str]:
        seen[1] += 1
        return names(fighters, bits)

    for seed in range(3):
        src = BattleRng(f"d20-rings-{width}x{height}-{seed}")
        setup = random_setup(lambda n: src.randrange("setup", n), size, text_plans=True, extra=D20_CLAUSES)
        with mock.patch.object(Resolution, "emit", checked), mock.patch.object(d20pool, "names_of", listed):
            resolve_battle(setup, rs, seed)
    assert seen[0] > 0
    if size > 2:
        assert seen[1] < seen[0]  # the last contenders were reused at some selection


def test_names_of_is_roster_order() -> None:
    fighters = [mock.Mock(name=f"f{i}") for i in range(70)]
    for i, f in enumerate(fighters):
        f.name = f"f{i}"
    assert d20pool.names_of(fighters, 0) == []
    assert d20pool.names_of(fighters, 1 << 69 | 1 << 3 | 1) == ["f0", "f3", "f69"]


def test_every_ranking_is_the_keys_order() -> None:
    """R-D20-ORDER-3 read back from the events: at every area-number
    selection the contenders are ranked by their keys this round (the
    ``turn_roll`` events' ``key``), best first, with no key equal to
    another's or a prefix of it -- whether ``rank_contenders`` ranked them
    or the last ranking was taken less its first (asked fewer times than
    there are selections)."""
    rs = ruleset("d20pool", 12)
    rank = d20pool.rank_contenders
    calls = [0]

    def counted(contenders: Any, keys: Any, roll: Any, settled: Any = None) -> Any:
        calls[0] += 1
        return rank(contenders, keys, roll, settled)

    selections = 0
    for seed in range(6):
        src = BattleRng(f"d20-ranking-{seed}")
        setup = random_setup(lambda n: src.randrange("setup", n), 3 + seed, text_plans=True, extra=D20_CLAUSES)
        with mock.patch.object(d20pool, "rank_contenders", counted):
            record = resolve_battle(setup, rs, seed)
        keys: dict[str, tuple[int, ...]] = {}
        for e in record.events:
            if e.TYPE == "turn_start":
                keys = {}
            elif e.TYPE == "turn_roll":
                keys[e.actor] = e.key
            elif e.TYPE == "turn_selected" and e.rule == "R-D20-ORDER-1":
                selections += 1
                ranked = list(e.contenders)
                assert ranked[0] == e.actor
                if len(ranked) > 1:
                    found = [keys[n] for n in ranked]
                    assert found == sorted(found, reverse=True)
                    for a in found:
                        assert not any(b != a and b[:len(a)] == a for b in found)
                        assert found.count(a) == 1
    assert 0 < calls[0] < selections
