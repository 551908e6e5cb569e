"""R-PAN-3's payment against the panel scan."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from referee.elements import Element
from referee.engine.panels import plan_payment
from referee.engine.state import Panel


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
