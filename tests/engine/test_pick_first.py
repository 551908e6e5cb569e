"""A pick that writes no ranking (targeting._pick_first: a lean use, an
extended use's primary) measures the distance only among the candidates tied
on the preference's own key (issue 18).  It must take the candidate the full
keys take, drawing among the same tie in the same order: checked for every
preference kind on every pool of random tcgt battles,
with a probe RNG that records each draw and answers the first or the last."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from referee.engine import targeting
from referee.engine.battle import resolve_battle
from referee.engine.clauses import Preference, PreferenceKind
from referee.engine.state import Fighter

from .helpers import ruleset
from .test_state_index import _setup

KINDS = (PreferenceKind.NEAREST, PreferenceKind.FARTHEST, PreferenceKind.LOWEST_HP, PreferenceKind.HIGHEST_HP,
         PreferenceKind.MOST_HP_LOST, PreferenceKind.LEAST_HP_LOST, PreferenceKind.NAMED)


class Probe:
    """Records each draw's (stream, n); answers index 0 or n - 1."""

    def __init__(self, last: bool) -> None:
        self.last = last
        self.asked: list[tuple[str, int]] = []

    def randrange(self, stream: str, n: int) -> int:
        self.asked.append((stream, n))
        return n - 1 if self.last else 0


def test_pick_first_takes_what_the_full_keys_take(monkeypatch: pytest.MonkeyPatch) -> None:
    original = targeting._pick_first
    checked = [0]

    def compared(b: Any, user: Fighter, pref: Preference, pool: list[Fighter], skill: Any = None) -> Fighter:
        for kind in KINDS:
            other = Preference(kind=kind, name=pool[-1].name if kind is PreferenceKind.NAMED else None)
            for last in (False, True):
                got_rng, want_rng = Probe(last), Probe(last)
                got = original(SimpleNamespace(state=b.state, rng=got_rng), user, other, pool, skill)
                keys = targeting.preference_keys(user, other, pool, b.state, skill)
                want = targeting._pick_one(SimpleNamespace(state=b.state, rng=want_rng), keys, pool)  # type: ignore[arg-type]
                assert got is want and got_rng.asked == want_rng.asked, (kind, last, pool)
                checked[0] += 1
        return original(b, user, pref, pool, skill)

    monkeypatch.setattr(targeting, "_pick_first", compared)
    name = "tcgt"  # the rulesets whose area mechanic is targeting's (the others pick their own way)
    rs = ruleset(name)
    for seed in range(6):
        resolve_battle(_setup(name, seed, (6, 10, 16)[seed % 3]), rs, seed, decisions=False)
    assert checked[0] > 100, checked  # the lean picks really ran
