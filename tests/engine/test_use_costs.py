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
