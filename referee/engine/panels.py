"""Paying costs from panels (R-PAN-3 left-front rule, R-EXT-1, R-PAN-4).

Payment is computed first (:func:`plan_payment`, pure) and applied second
(:func:`mark_used`), so a cost that cannot be paid changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.elements import Element
from referee.engine.state import Fighter, Panel


def plan_payment(panels: Sequence[Panel], cost: Sequence[Element]) -> tuple[int, ...] | None:
    """R-PAN-3, the left-front rule: for each element of ``cost``, in cost
    order, the leftmost unused panel reading as that element (R-ST-CHANGE)
    that no maintained skill holds and no earlier element took.  None if
    some element finds none: then nothing is paid."""
    chosen: list[int] = []
    for element in cost:
        for i, p in enumerate(panels):
            if p.element is element and not p.used and p.assigned is None and i not in chosen:
                chosen.append(i)
                break
        else:
            return None
    return tuple(chosen)


def plan_extension(
    panels: Sequence[Panel], cost: Sequence[Element], per_extra: int, extras: int, taken: Sequence[int]
) -> tuple[int, ...]:
    """R-EXT-1: panels for up to ``extras`` extra targets, each ``per_extra``
    leftmost unused panels whose element is in the cost.  Returns the panels
    for as many whole extras as can be paid (len // per_extra extras)."""
    free = [i for i, p in enumerate(panels)
            if not p.used and p.assigned is None and i not in taken and p.element in cost]
    n = min(extras, len(free) // per_extra) if per_extra > 0 else 0
    return tuple(free[: n * per_extra])


def can_pay(f: Fighter, cost: Sequence[Element]) -> bool:
    """R-PAN-4 *readied*: the cost could be paid from the unused panels now."""
    if f.active is None:
        return False
    return plan_payment(f.panels[f.active], cost) is not None


def could_pay_fresh(f: Fighter, cost: Sequence[Element]) -> bool:
    """R-MOVE-6: payable with every panel not assigned to a maintained skill
    unused (Freeze ignored)."""
    if f.active is None:
        return False
    free = [p.element for p in f.panels[f.active] if p.assigned is None]
    for e in cost:
        if e not in free:
            return False
        free.remove(e)
    return True


def mark_used(f: Fighter, indices: Sequence[int]) -> int:
    """Turn the panels used; return how many of them were poisoned."""
    panels = f.active_panels()
    poisoned = 0
    for i in indices:
        panels[i].used = True
        if panels[i].poisoned:
            poisoned += 1
    return poisoned
