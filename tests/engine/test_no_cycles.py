"""A battle makes no reference cycles, so ``resolve_battle`` may pause the
cyclic collector while it runs (``core.cycles_unchecked``, issue 18): every
ruleset's random battles leave nothing for the collector to find, and the
collector is back as the caller left it."""

from __future__ import annotations

import gc

import pytest

from referee.engine.battle import resolve_battle

from .helpers import ruleset
from .test_state_index import RULESETS, _setup


@pytest.mark.parametrize("name", RULESETS)
def test_a_battle_leaves_no_cyclic_garbage(name: str) -> None:
    rs = ruleset(name)
    setups = [_setup(name, seed, (2, 8)[seed % 2]) for seed in range(4)]
    resolve_battle(setups[0], rs, 0)  # first-use imports and caches (a class is a cycle) out of the count
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for seed, setup in enumerate(setups):
            record = resolve_battle(setup, rs, seed)
            assert record.result is not None
            del record
            assert gc.collect() == 0, (name, seed)
    finally:
        if was_on:
            gc.enable()


def test_the_collector_is_back_as_the_caller_left_it() -> None:
    rs = ruleset("tcgt")
    setup = _setup("tcgt", 0, 2)
    was_on = gc.isenabled()
    try:
        gc.enable()
        resolve_battle(setup, rs, 0)
        assert gc.isenabled()
        gc.disable()
        resolve_battle(setup, rs, 0)
        assert not gc.isenabled()
    finally:
        if was_on:
            gc.enable()
        else:
            gc.disable()
