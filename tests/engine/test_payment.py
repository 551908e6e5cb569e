"""R-PAN-3's left-front rule and R-EXT-1's extra panels, as properties of
``plan_payment`` and ``plan_extension`` on drawn panel states (element,
used, changed to wind by R-ST-CHANGE, held by a maintained skill)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from referee.elements import Element
from referee.engine.panels import plan_extension, plan_payment
from referee.engine.state import Panel

ELEMENTS = tuple(Element)


def _panel(base: Element, used: bool, changed: int, assigned: int | None) -> Panel:
    p = Panel(base)
    p.used, p.changed, p.assigned = used, changed, assigned
    return p


panel_rows = st.lists(st.builds(_panel, st.sampled_from(ELEMENTS), st.booleans(), st.integers(0, 2),
                                st.sampled_from((None, None, 0))), max_size=6)
costs = st.lists(st.sampled_from(ELEMENTS), max_size=4)


def _free(p: Panel) -> bool:
    return not p.used and p.assigned is None


@given(panel_rows, costs)
def test_each_element_takes_the_leftmost_free_panel_reading_as_it(row: list[Panel], cost: list[Element]) -> None:
    """Paid: one distinct free panel per element of the cost, in cost order,
    each the leftmost free panel reading as its element that no earlier
    element took.  Unpaid exactly when some element is needed more times
    than free panels read as it."""
    paid = plan_payment(row, cost)
    free = Counter(p.element for p in row if _free(p))
    if paid is None:
        assert any(n > free[e] for e, n in Counter(cost).items())
        return
    assert len(paid) == len(cost) and len(set(paid)) == len(paid)
    for k, (element, i) in enumerate(zip(cost, paid)):
        assert _free(row[i]) and row[i].element is element
        assert not any(_free(p) and p.element is element and j not in paid[:k] for j, p in enumerate(row[:i]))


@given(panel_rows, costs, st.integers(0, 3), st.integers(0, 4), st.lists(st.integers(0, 5), max_size=3))
def test_extras_are_paid_by_whole_extras_from_the_leftmost_free_panels_of_the_cost(
        row: list[Panel], cost: list[Element], per: int, extras: int, taken: list[int]) -> None:
    """R-EXT-1: ``per`` panels an extra, each free, not taken by the base
    cost, of an element in the cost, the leftmost first; as many whole
    extras as there are such panels, at most ``extras``."""
    paid = plan_extension(row, cost, per, extras, taken)
    usable = [i for i, p in enumerate(row) if _free(p) and i not in taken and p.element in cost]
    want = min(extras, len(usable) // per) if per else 0
    assert list(paid) == usable[:want * per]
