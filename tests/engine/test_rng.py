"""R-RNG-1: five named streams, two draw forms, and nothing else imports random."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import referee
from referee.engine.rng import STREAMS, BattleRng, RngScriptError, ScriptedRng, choose


def test_r_rng_1_streams_are_random_seeded_by_seed_and_name() -> None:
    """R-RNG-1: "Five streams, each random.Random(f"{seed}:{name}")"."""
    rng = BattleRng(20071213)
    for name in STREAMS:
        ref = random.Random(f"20071213:{name}")
        assert [rng.randrange(name, 8) for _ in range(5)] == [ref.randrange(8) for _ in range(5)]


def test_r_rng_1_chance_is_random_below_p() -> None:
    """R-RNG-1: "a chance p is rng.random() < p"."""
    rng = BattleRng("s")
    ref = random.Random("s:chances")
    got = [rng.chance("chances", 2 / 3) for _ in range(20)]
    assert got == [ref.random() < 2 / 3 for _ in range(20)]


def test_r_rng_1_no_draw_when_p_is_0_or_1_or_n_is_1() -> None:
    """R-RNG-1: "No draw is made when n = 1 or p is 0 or 1"."""
    rng = BattleRng(1)
    assert rng.chance("chances", 1) is True
    assert rng.chance("chances", 0) is False
    assert rng.randrange("ties", 1) == 0
    assert rng.draws == {name: 0 for name in STREAMS}
    # the next real draw is the stream's first
    assert rng.randrange("ties", 5) == random.Random("1:ties").randrange(5)


def test_r_rng_1_streams_are_independent() -> None:
    """R-RNG-1: a draw on one stream does not reshuffle another."""
    a, b = BattleRng(3), BattleRng(3)
    a.randrange("knockback", 8)
    assert a.randrange("initiative", 6) == b.randrange("initiative", 6)


def test_unknown_stream_is_an_error() -> None:
    with pytest.raises(ValueError):
        BattleRng(1).chance("luck", 0.5)


def test_scripted_rng_returns_script_and_skips_free_draws() -> None:
    rng = ScriptedRng({"chances": [False, True], "ties": [2]}, strict=True)
    assert rng.chance("chances", 1) is True  # consumes nothing
    assert rng.chance("chances", 0.5) is False
    assert rng.chance("chances", 0.5) is True
    assert choose(rng, "ties", ["a", "b", "c"]) == "c"
    assert rng.remaining() == {}
    with pytest.raises(RngScriptError):
        rng.randrange("ties", 3)


def test_only_rng_module_imports_random() -> None:
    """Determinism: only referee/engine/rng.py imports random (style lesson 5)."""
    root = Path(referee.__file__).parent
    pattern = re.compile(r"^\s*(import random\b|from random import)", re.MULTILINE)
    offenders = [
        str(p.relative_to(root))
        for p in sorted(root.rglob("*.py"))
        if pattern.search(p.read_text(encoding="utf-8")) and p != root / "engine" / "rng.py"
    ]
    assert offenders == []
