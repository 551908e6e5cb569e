"""d20pool's turn order read back from the events of random battles on odd
map shapes: every area-number selection names the number of the chosen one's
area (R-D20-ORDER-2), and ranks its contenders by their keys this round, best
first, no key equal to another's or a prefix of it (R-D20-ORDER-3)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.board import square_name
from referee.engine.battle import resolve_battle
from referee.engine.d20pool_checks import ring_number
from referee.engine.rng import BattleRng

from .helpers import ruleset
from .randombattle import random_setup
from .test_properties_d20pool import D20_CLAUSES


@pytest.mark.parametrize(("width", "height", "size"), [(8, 8, 8), (8, 8, 3), (5, 9, 4), (9, 4, 6), (1, 6, 2), (3, 3, 2)])
def test_every_selection_names_its_number_and_ranks_by_key(width: int, height: int, size: int) -> None:
    rs = ruleset("d20pool", 12)
    rs = replace(rs, map=replace(rs.map, width=width, height=height))
    selections = ranked_several = 0
    for seed in range(3):
        src = BattleRng(f"d20-rings-{width}x{height}-{seed}")
        setup = random_setup(lambda n: src.randrange("setup", n), size, text_plans=True, extra=D20_CLAUSES)
        record = resolve_battle(setup, rs, seed)
        keys: dict[str, tuple[int, ...]] = {}
        for e in record.events:
            if e.TYPE == "turn_start":
                keys = {}
            elif e.TYPE == "turn_roll":
                keys[e.actor] = e.key
            elif e.TYPE == "turn_selected" and e.rule == "R-D20-ORDER-1":
                selections += 1
                assert e.number == ring_number(e.square, width, height), square_name(e.square)
                ranked = list(e.contenders)
                assert ranked[0] == e.actor
                if len(ranked) > 1:
                    ranked_several += 1
                    found = [keys[n] for n in ranked]
                    assert found == sorted(found, reverse=True)
                    for a in found:
                        assert found.count(a) == 1
                        assert not any(b != a and b[:len(a)] == a for b in found)
    assert selections > 0
    if size > 2:
        assert ranked_several > 0
