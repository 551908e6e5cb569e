"""The second round of per-use savings (issue 18, helper flat2) answer as
what they replaced: the payment's panels, the candidates' distances, the
cached members of a bitset."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest

from referee.board import Square
from referee.elements import Element
from referee.engine.battle import resolve_battle
from referee.engine.panels import plan_payment
from referee.engine.state import BattleState, Panel
from referee.engine.targeting import distances

from .helpers import ruleset
from .test_state_index import _setup


def _payment_scan(panels: Sequence[Panel], cost: Sequence[Element],
                  taken: frozenset[int] = frozenset()) -> tuple[int, ...] | None:
    """R-PAN-3 as written before: per element, the leftmost free panel of it."""
    chosen: list[int] = []
    for element in cost:
        for i, p in enumerate(panels):
            if not p.used and p.assigned is None and p.element is element and i not in taken and i not in chosen:
                chosen.append(i)
                break
        else:
            return None
    return tuple(chosen)


def test_plan_payment_equals_the_panel_scan() -> None:
    """Every panel state of three panels (element, used, assigned, changed)
    and every cost of up to three elements, with and without taken panels."""
    elements = list(Element)[:3] + [Element.WIND]
    states = list(itertools.product(elements, (False, True), (None, 0), (0, 1)))
    costs = [c for n in range(0, 4) for c in itertools.product(elements, repeat=n)]
    checked = 0
    for trio in itertools.product(states[::3], repeat=3):
        panels = []
        for base, used, assigned, changed in trio:
            p = Panel(base)
            p.used, p.assigned, p.changed = used, assigned, changed
            panels.append(p)
        for cost in costs:
            for taken in (frozenset(), frozenset({0}), frozenset({1, 2})):
                assert plan_payment(panels, cost, taken) == _payment_scan(panels, cost, taken), (trio, cost, taken)
                checked += 1
    assert checked > 10_000


def test_a_box_metric_measures_the_chebyshev_distance() -> None:
    """``box_is_range`` makes ``distance`` the Chebyshev distance, which
    ``targeting.distances`` computes inline: every registered metric that
    promises it keeps it."""
    from referee.engine.mechanics.registry import RANGE
    from referee.mechanicspec import PlainSpec

    built = [(kind, RANGE.build(PlainSpec(kind))) for kind in RANGE.kinds()]
    boxes = [(kind, metric) for kind, metric in built if metric.box_is_range]
    assert "chebyshev" in [kind for kind, _ in boxes], built
    grid = [Square(f, r) for f in range(-1, 9) for r in range(-1, 9)]
    for (kind, metric), a, b in itertools.product(boxes, grid, grid):
        assert metric.distance(a, b) == max(abs(a.file - b.file), abs(a.rank - b.rank)), (kind, a, b)


@pytest.mark.parametrize("name", ["tcgt", "orm"])
def test_candidate_distances_are_the_metrics(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call of ``distances`` and every key ``preference_keys`` gives in
    random battles carries the metric's own ``distance`` per candidate (orm:
    a metric without the promise)."""
    from referee.engine import targeting

    seen = [0]
    keys_of = targeting.preference_keys

    def checked(state: BattleState, here: Square, pool: Sequence[Any]) -> list[int]:
        got = distances(state, here, pool)
        assert got == [state.metric.distance(here, c.square) for c in pool]
        seen[0] += len(pool)
        return got

    def checked_keys(user: Any, pref: Any, pool: Sequence[Any], state: BattleState,
                     skill: Any = None) -> list[tuple[int, int]]:
        got = keys_of(user, pref, pool, state, skill)
        assert [d for _, d in got] == [state.metric.distance(user.square, c.square) for c in pool]
        seen[0] += len(pool)
        return got

    monkeypatch.setattr(targeting, "distances", checked)
    monkeypatch.setattr(targeting, "preference_keys", checked_keys)
    rs = ruleset(name)
    for seed in range(3):
        resolve_battle(_setup(name, seed, 8), rs, seed)
    assert seen[0] > 50
    assert distances.__module__ == "referee.engine.targeting"


def test_members_are_kept_and_each_call_gets_its_own_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached answer of ``members`` is the bits' characters in roster
    order, and a caller changing its list changes no later answer."""
    seen = [0]
    original = BattleState.members

    def checked(self: BattleState, bits: int) -> list[object]:
        got = original(self, bits)
        want = [f for f in self.fighters if bits >> f.pos & 1]
        assert got == want
        got.append(None)  # type: ignore[arg-type]
        assert original(self, bits) == want
        seen[0] += 1
        return want  # type: ignore[return-value]

    monkeypatch.setattr(BattleState, "members", checked)
    rs = ruleset("tcgt")
    for seed in range(2):
        resolve_battle(_setup("tcgt", seed, 16), rs, seed)
    assert seen[0] > 100


@pytest.mark.parametrize("size", [4, 16])
def test_nearest_rings_are_the_keys_order(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unextended nearest use read ring by ring from the bitset index
    gives what the keys give: the ranking sorted by (distance, roster
    index), and the first ring is the tie among the nearest."""
    from referee.engine import targeting
    from referee.engine.clauses import NEAREST

    seen = [0]
    rings_of = targeting._nearest_rings

    def checked(st: BattleState, here: Square, pool: Sequence[Any], every: bool) -> Any:
        got = rings_of(st, here, pool, every)
        if got is not None:
            user = next(f for f in st.fighters if f.square == here)
            keys = targeting.preference_keys(user, NEAREST, pool, st)
            best = min(keys)
            assert got[0] == [c for k, c in zip(keys, pool) if k == best]
            if every:
                assert [c for ring in got for c in ring] == targeting._ranked(keys, pool)
            assert all(f.index == f.pos for f in st.fighters)
            seen[0] += 1
        return got

    monkeypatch.setattr(targeting, "_nearest_rings", checked)
    rs = ruleset("tcgt")
    for seed in range(3):
        resolve_battle(_setup("tcgt", seed, size), rs, seed)
        resolve_battle(_setup("tcgt", seed, size), rs, seed, decisions=False)
    assert seen[0] > 20
