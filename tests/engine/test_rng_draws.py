"""BattleRng draws inline what ``random.Random.randrange`` draws (issue 13's
d20pool speed work): the same numbers, in the same order, leaving each
stream where the library's call leaves it.  Compared against the stream's
own ``randrange`` on a second BattleRng of the same seed, so that a Python
whose ``randrange`` draws differently fails here rather than in a golden."""

from __future__ import annotations

import pytest

from referee.engine.rng import STREAMS, BattleRng


@pytest.mark.parametrize("seed", [0, 7, "bench-8-3", 2007])
def test_randrange_and_die_draw_what_the_library_draws(seed: int | str) -> None:
    ours, library = BattleRng(seed), BattleRng(seed)
    sizes = [2, 3, 4, 5, 6, 7, 8, 16, 17, 20, 31, 32, 33, 100, 1000, 2**40 + 3]
    for stream in STREAMS:
        raw = library._streams[stream]
        for i in range(400):
            n = sizes[i % len(sizes)]
            if i % 3 == 0:
                assert ours.die(stream, n) == 1 + raw.randrange(n)
            else:
                assert ours.randrange(stream, n) == raw.randrange(n)
        # the streams are left in the same state
        assert ours._streams[stream].getstate() == raw.getstate()
    assert ours.draws == {name: 400 for name in STREAMS}


def test_no_draw_and_errors_are_unchanged() -> None:
    rng = BattleRng(3)
    assert rng.randrange("ties", 1) == 0 and rng.die("checks", 1) == 1
    assert rng.draws["ties"] == 0 and rng.draws["checks"] == 0
    with pytest.raises(ValueError, match="unknown RNG stream"):
        rng.randrange("nope", 4)
    with pytest.raises(ValueError, match="unknown RNG stream"):
        rng.randrange("nope", 1)
    with pytest.raises(ValueError, match="at least one candidate"):
        rng.randrange("ties", 0)


@pytest.mark.parametrize("faces", [1, 2, 6, 20, 100])
def test_dice_are_die_calls_in_one(faces: int) -> None:
    """``dice(stream, faces, n)`` gives what ``n`` calls of ``die`` give and
    leaves the stream and the draw count where they leave them."""
    one, many = BattleRng("dice"), BattleRng("dice")
    for count in (0, 1, 2, 5, 9):
        assert many.dice("checks", faces, count) == tuple(one.die("checks", faces) for _ in range(count))
    assert many.draws == one.draws
    assert many._streams["checks"].getstate() == one._streams["checks"].getstate()
    with pytest.raises(ValueError, match="unknown RNG stream"):
        many.dice("nope", faces, 2)
