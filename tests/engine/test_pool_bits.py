"""The nearest rings of the candidates' own list start from the bits
``within`` read for it (``BattleState.pool_kept``, ``pool_bits``), not an OR
over the candidates, and skip the living test while no character has gone
down or come back since (``downs``; issue 18).  Whenever the choice is handed that very
list, the kept bits must be exactly its characters' bits, and the rings the
same as from a copy of the list (which takes the OR)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from referee.board import Square
from referee.engine import targeting
from referee.engine.battle import resolve_battle
from referee.engine.state import BattleState

from .helpers import ruleset
from .test_state_index import _setup


@pytest.mark.parametrize("size", [4, 16, 32])
def test_kept_pool_bits_are_the_pools_bits(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rings_of = targeting._nearest_rings
    kept = [0]

    def checked(st: BattleState, here: Square, pool: Sequence[Any], every: bool) -> Any:
        if pool is st.pool_kept:
            bits = 0
            for c in pool:
                bits |= c.bit
            assert st.pool_bits == bits
            if st.pool_downs == st.downs:  # no down or revival since: all of it stands
                assert not any(c.down for c in pool)
            kept[0] += 1
        got = rings_of(st, here, pool, every)
        again = rings_of(st, here, list(pool), every)
        assert (got is None) == (again is None)
        if got is not None and again is not None:  # (a ring is a list or the cache's tuple)
            assert [list(ring) for ring in got] == [list(ring) for ring in again]
        return got

    monkeypatch.setattr(targeting, "_nearest_rings", checked)
    rs = ruleset("tcgt")
    for seed in range(3):
        resolve_battle(_setup("tcgt", seed, size), rs, seed, decisions=seed % 2 == 0)
    assert kept[0] > 10, kept
