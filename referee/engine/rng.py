"""The battle's only source of luck (R-RNG-1, R-VAR-2).

Named streams, each ``random.Random(f"{seed}:{name}")``, so that a new
draw in one place (say an extra knockback direction) does not reshuffle the
draws of another (say initiative): R-RNG-1's five, and the variants' ``checks``
(every die of a check), ``damage`` (damage and heal dice) and ``area`` (rolled
target counts) of R-VAR-2 -- a tcgt battle never draws from those three, so
adding them moved no tcgt draw.  Only two draw forms exist:

* a *chance p*: ``stream.random() < p``, no draw when p is 0 or 1;
* a *choice* among n candidates: ``stream.randrange(n)``, no draw when n == 1;

and a *die* of n faces is a choice among its faces, ``1 + randrange(n)``.

This is the only module of the package that imports :mod:`random`
(a test greps for it).  ``ScriptedRng`` replaces the streams in scenario
tests with scripted outcomes, so that a test never hunts for a lucky seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Protocol, TypeVar

__all__ = ["STREAMS", "TCGT_STREAMS", "VARIANT_STREAMS", "BattleRng", "Rng", "ScriptedRng", "RngScriptError",
           "choose"]

#: The five streams of R-RNG-1, in the order the rule lists them.
TCGT_STREAMS: tuple[str, ...] = ("setup", "initiative", "ties", "chances", "knockback")
#: The variants' dice streams (R-VAR-2).
VARIANT_STREAMS: tuple[str, ...] = ("checks", "damage", "area")
STREAMS: tuple[str, ...] = TCGT_STREAMS + VARIANT_STREAMS

T = TypeVar("T")


class Rng(Protocol):
    """What the engine needs from a source of luck."""

    def chance(self, stream: str, p: Fraction | float) -> bool:
        """True with probability ``p`` (R-RNG-1 *chance*)."""

    def randrange(self, stream: str, n: int) -> int:
        """An index in ``range(n)`` (R-RNG-1 *choice*); 0 without a draw if n == 1."""

    def die(self, stream: str, faces: int) -> int:
        """One die of ``faces`` faces, ``1 + randrange(faces)`` (R-VAR-2); 1
        without a draw for a one-faced die."""

    def dice(self, stream: str, faces: int, count: int) -> tuple[int, ...]:
        """``count`` dice of ``faces`` faces, in draw order: what ``count``
        calls of :meth:`die` give, drawn in one call (a check's pool)."""


def _check_stream(stream: str) -> None:
    if stream not in STREAMS:
        raise ValueError(f"unknown RNG stream {stream!r}; expected one of {STREAMS}")


def _without_draw(stream: str, p: Fraction | float) -> bool | None:
    """A chance's outcome when R-RNG-1 makes no draw (p <= 0 or p >= 1), else None."""
    _check_stream(stream)
    if p <= 0:
        return False
    if p >= 1:
        return True
    return None


class BattleRng:
    """The seeded streams of one battle (R-RNG-1).

    >>> a, b = BattleRng(7), BattleRng(7)
    >>> [a.randrange("setup", 8) for _ in range(3)] == [b.randrange("setup", 8) for _ in range(3)]
    True
    >>> BattleRng(7).chance("chances", 1)  # no draw for p == 1
    True
    """

    __slots__ = ("seed", "_streams", "_bits", "draws")

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._streams = {name: random.Random(f"{seed}:{name}") for name in STREAMS}
        #: Each stream's ``getrandbits``, which :meth:`randrange` draws with.
        self._bits = {name: stream.getrandbits for name, stream in self._streams.items()}
        #: Number of draws made per stream (diagnostics and tests).
        self.draws: dict[str, int] = {name: 0 for name in STREAMS}

    def chance(self, stream: str, p: Fraction | float) -> bool:
        """``random() < p``; no draw when p <= 0 or p >= 1 (R-RNG-1)."""
        certain = _without_draw(stream, p)
        if certain is not None:
            return certain
        self.draws[stream] += 1
        return self._streams[stream].random() < p

    def randrange(self, stream: str, n: int) -> int:
        """``randrange(n)``; no draw when n == 1 (R-RNG-1).

        Drawn as :meth:`random.Random.randrange` draws ``randrange(n)``
        (CPython 3.11+: ``_randbelow``, rejection sampling on
        ``getrandbits(n.bit_length())``), inline: every die of a check and
        every tie goes through here, and the library's three Python-level
        calls per draw were most of a die's cost.  Same numbers, same
        order, same stream state (tests/engine/test_rng_draws.py holds the
        two equal).

        :raises ValueError: if ``n`` < 1.
        """
        try:
            bits = self._bits[stream]
        except KeyError:
            _check_stream(stream)  # raises: an unknown stream
            raise
        if n <= 1:
            if n < 1:
                raise ValueError("a choice needs at least one candidate")
            return 0
        self.draws[stream] += 1
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def die(self, stream: str, faces: int) -> int:
        """``1 + randrange(faces)``: the same draw as a choice among the faces.

        >>> BattleRng(7).die("checks", 1)  # no draw for one face
        1
        """
        return 1 + self.randrange(stream, faces)

    def dice(self, stream: str, faces: int, count: int) -> tuple[int, ...]:
        """``count`` calls of :meth:`die` in one: the same draws, in the same
        order (:meth:`randrange`'s rejection sampling, per die), without a
        call per die -- a d20pool check rolls several (R-D20-CHECK-1)."""
        bits = self._bits.get(stream)
        if bits is None or faces <= 1 or count <= 0:
            return tuple([self.die(stream, faces) for _ in range(count)])  # no draw, or an error
        self.draws[stream] += count
        k = faces.bit_length()
        out = []
        for _ in range(count):
            r = bits(k)
            while r >= faces:
                r = bits(k)
            out.append(r + 1)
        return tuple(out)


def choose(rng: Rng, stream: str, candidates: Sequence[T]) -> T:
    """``candidates[rng.randrange(n)]``: the R-RNG-1 *choice*.

    The caller passes candidates in canonical order (roster order, squares
    rank by rank, directions N..NW).
    """
    return candidates[rng.randrange(stream, len(candidates))]


class RngScriptError(AssertionError):
    """A scripted RNG ran out of outcomes or got an impossible one."""


class ScriptedRng:
    """Test double: returns scripted outcomes per stream, in order.

    ``script`` maps a stream name to outcomes: booleans for chances, ints for
    choices (an index) and for dice (the face shown, 1..faces, so a variant
    scenario reads ``{"checks": [6, 6, 1]}`` as the dice on the table).  Draws that R-RNG-1 skips (p in {0, 1}, n == 1) consume nothing,
    exactly like :class:`BattleRng`.  A draw with an empty script falls back
    to ``default_chance`` / index 0 when ``strict`` is False, and raises
    :class:`RngScriptError` when it is True.
    """

    def __init__(
        self,
        script: Mapping[str, Iterable[bool | int]] | None = None,
        *,
        strict: bool = False,
        default_chance: bool = True,
    ) -> None:
        self._script: dict[str, list[bool | int]] = {name: [] for name in STREAMS}
        for name, outcomes in (script or {}).items():
            _check_stream(name)
            self._script[name] = list(outcomes)
        self.strict = strict
        self.default_chance = default_chance
        #: Every draw made, as (stream, kind, outcome), for assertions.
        self.log: list[tuple[str, str, bool | int]] = []

    def _next(self, stream: str) -> bool | int | None:
        queue = self._script[stream]
        if queue:
            return queue.pop(0)
        if self.strict:
            raise RngScriptError(f"no scripted outcome left on stream {stream!r}")
        return None

    def chance(self, stream: str, p: Fraction | float) -> bool:
        certain = _without_draw(stream, p)
        if certain is not None:
            return certain
        value = self._next(stream)
        outcome = self.default_chance if value is None else bool(value)
        self.log.append((stream, "chance", outcome))
        return outcome

    def randrange(self, stream: str, n: int) -> int:
        return self._scripted(stream, n, 0, "choice")

    def die(self, stream: str, faces: int) -> int:
        return self._scripted(stream, faces, 1, "die")

    def dice(self, stream: str, faces: int, count: int) -> tuple[int, ...]:
        return tuple([self.die(stream, faces) for _ in range(count)])

    def _scripted(self, stream: str, n: int, first: int, kind: str) -> int:
        """The next scripted outcome among ``first .. first + n - 1`` (an index
        for a choice, a face for a die); none consumed when n == 1."""
        _check_stream(stream)
        if n < 1:
            raise ValueError(f"a {kind} needs at least one outcome")
        if n == 1:
            return first
        value = self._next(stream)
        outcome = first if value is None else int(value)
        if not first <= outcome < first + n:
            raise RngScriptError(f"scripted {kind} {outcome} is not in {first}..{first + n - 1} on {stream!r}")
        self.log.append((stream, kind, outcome))
        return outcome

    def remaining(self) -> dict[str, int]:
        """Outcomes not yet consumed, per stream (tests assert they were all used)."""
        return {name: len(q) for name, q in self._script.items() if q}
