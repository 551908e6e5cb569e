"""Odds: one battle resolved over many seeds, and what the outcomes say.

``referee odds BATTLE -n N`` answers the question a player asks before a
round ("how often does this plan win?") by resolving the same inputs under
N seeds and counting.  Three promises shape this module:

* **Seeds are derived, not drawn.**  Seed *k* (1-based) of a run is the text
  ``f"{base}-{k}"`` where ``base`` is the battle's seed (``--seed`` or the
  file's).  Every derived seed is an ordinary seed: ``referee resolve BATTLE
  --seed 20071213-17`` replays it (:func:`derive_seeds`, docs/decisions.md).
* **The numbers do not depend on how the work is spread.**  Seeds are cut into
  chunks; each chunk's outcomes come back with their seed index and are
  aggregated in seed order, so ``--jobs 1``, ``--jobs 2`` and a Dask cluster
  give byte-identical summaries (the executors live in
  :mod:`referee.app.executors`).
* **Only outcomes travel.**  A worker returns one small :class:`SeedOutcome`
  per seed (winner, turns, survivors), never the event list.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.app.inputs import resolve_inputs
from referee.ruleset import Ruleset

__all__ = [
    "OUTCOMES",
    "SeedOutcome",
    "OddsSummary",
    "Rate",
    "derive_seeds",
    "chunk_seeds",
    "outcomes_for_seeds",
    "summarise",
    "wilson_interval",
]

#: The three outcomes of a battle, from White's side: win, draw, loss (R-GOAL-1/2).
OUTCOMES: tuple[str, ...] = ("white", "draw", "black")

#: z for a two-sided 95 % interval.
Z_95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class SeedOutcome:
    """What one seed gave: the winner (``white``/``black``/``draw``), the turn
    the battle ended in, how many of each army were still standing, who
    (names in roster order) and the HP each army had left."""

    index: int
    seed: str
    winner: str
    turns: int
    white_left: int
    black_left: int
    standing: tuple[str, ...] = ()
    white_hp: int = 0
    black_hp: int = 0


def derive_seeds(base: int | str, count: int) -> list[str]:
    """The ``count`` seeds of an odds run from the battle's seed ``base``.

    Text seeds, so ``referee resolve --seed`` reads them back as the same
    seed (``parse_seed`` keeps anything that is not all digits as text).

    >>> derive_seeds(20071213, 3)
    ['20071213-1', '20071213-2', '20071213-3']
    """
    if count < 0:
        raise ValueError("the number of seeds cannot be negative")
    return [f"{base}-{k}" for k in range(1, count + 1)]


def chunk_seeds(seeds: Sequence[str], chunk: int) -> list[tuple[int, list[str]]]:
    """``(first index, seeds)`` slices of at most ``chunk`` seeds, in order."""
    size = max(1, chunk)
    return [(start, list(seeds[start:start + size])) for start in range(0, len(seeds), size)]


def outcomes_for_seeds(inputs: Mapping[str, Any], ruleset: Ruleset, first_index: int,
                       seeds: Sequence[str]) -> list[SeedOutcome]:
    """Worker: resolve the inputs under each seed; one outcome per seed.

    Module-level and fed only picklable values, so a process pool and a Dask
    worker can both run it.
    """
    out = []
    for offset, seed in enumerate(seeds):
        result = resolve_inputs(inputs, ruleset, seed, "odds").result
        up = [c for c in result.final if not c.down]
        left = {team: sum(1 for c in up if c.team == team) for team in ("white", "black")}
        hp = {team: sum(c.hp for c in up if c.team == team) for team in ("white", "black")}
        out.append(SeedOutcome(first_index + offset, seed, result.winner, result.turns,
                               left["white"], left["black"], tuple(c.name for c in up), hp["white"], hp["black"]))
    return out


@dataclass(frozen=True)
class Rate:
    """A share of the seeds with its 95 % Wilson score interval."""

    count: int
    total: int
    low: float
    high: float

    @property
    def share(self) -> float:
        return self.count / self.total if self.total else 0.0


def wilson_interval(count: int, total: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of ``count`` successes in ``total`` trials.

    Why Wilson and not ``p +- z*sqrt(p(1-p)/n)``: at 0 % or 100 % the normal
    approximation collapses to a zero-width interval, which would claim
    certainty from a finite sample; Wilson gives ``[0, 0.19 %]`` for 0/2000.

    >>> low, high = wilson_interval(0, 2000)
    >>> low, round(high, 4)
    (0.0, 0.0019)
    """
    if total <= 0:
        return 0.0, 1.0
    p = count / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    # At 0 and at total the exact bound is 0 (or 1); floating point leaves dust.
    low = 0.0 if count <= 0 else max(0.0, centre - half)
    high = 1.0 if count >= total else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class OddsSummary:
    """Everything ``referee odds`` prints, computed from outcomes in seed order.

    :param rates: per outcome (``white``, ``draw``, ``black``).
    :param turns: ``{turns: battles}``, sorted by turns.
    :param survivors: per army, ``{standing: battles}`` sorted by standing.
    :param samples: per outcome, the first seed (in seed order) that gave it.
    """

    seeds: int
    base: str
    rates: Mapping[str, Rate]
    turns: Mapping[int, int]
    survivors: Mapping[str, Mapping[int, int]]
    samples: Mapping[str, str]

    @property
    def mean_turns(self) -> float:
        return sum(t * n for t, n in self.turns.items()) / self.seeds if self.seeds else 0.0

    def turn_quantile(self, q: float) -> int:
        """The smallest turn count reached by at least ``q`` of the seeds."""
        need = q * self.seeds
        seen = 0
        for turns, n in self.turns.items():
            seen += n
            if seen >= need:
                return turns
        return 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seeds": self.seeds,
            "base_seed": self.base,
            "rates": {k: {"count": r.count, "share": r.share, "ci95": [r.low, r.high]} for k, r in self.rates.items()},
            "turns": {str(t): n for t, n in self.turns.items()},
            "survivors": {team: {str(k): n for k, n in d.items()} for team, d in self.survivors.items()},
            "samples": dict(self.samples),
        }


def summarise(outcomes: Iterable[SeedOutcome], base: int | str) -> OddsSummary:
    """Aggregate outcomes **in seed order** (whatever order they arrived in)."""
    ordered = sorted(outcomes, key=lambda o: o.index)
    total = len(ordered)
    wins = Counter(o.winner for o in ordered)
    rates = {}
    for outcome in OUTCOMES:
        low, high = wilson_interval(wins[outcome], total)
        rates[outcome] = Rate(wins[outcome], total, low, high)
    samples: dict[str, str] = {}
    for o in ordered:
        samples.setdefault(o.winner, o.seed)
    return OddsSummary(
        seeds=total,
        base=str(base),
        rates=rates,
        turns=dict(sorted(Counter(o.turns for o in ordered).items())),
        survivors={
            "white": dict(sorted(Counter(o.white_left for o in ordered).items())),
            "black": dict(sorted(Counter(o.black_left for o in ordered).items())),
        },
        samples={k: samples[k] for k in OUTCOMES if k in samples},
    )

