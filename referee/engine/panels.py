"""Paying costs from panels (R-PAN-3 left-front rule, R-EXT-1, R-PAN-4).

Payment is computed first (:func:`plan_payment`, pure) and applied second
(:func:`mark_used`), so a cost that cannot be paid changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.elements import Element
from referee.engine.state import Fighter, Panel


def plan_payment(
    panels: Sequence[Panel], cost: Sequence[Element], taken: frozenset[int] = frozenset()
) -> tuple[int, ...] | None:
    """Panel indices paying ``cost`` by R-PAN-3: for each element needed, in
    cost order, the leftmost unused panel of that element.  None if unpayable.
    """
    chosen: list[int] = []
    wind = Element.WIND
    for element in cost:
        # The element first (most panels fail it: most entries reaching
        # payment are unpayable), p.element inlined: a panel reads as
        # ``element`` when that is its base and it is not changed, or, for
        # wind, when it is changed (R-ST-CHANGE).  So a panel of another base
        # fails at its base's identity and one flag, with no read of
        # ``changed``.  A counter rather than enumerate's tuples: this is the
        # walk's innermost loop (issue 18).
        seek_wind = element is wind
        i = 0
        for p in panels:
            if (p.base is element and p.changed <= 0 or seek_wind and p.changed > 0) \
                    and not p.used and p.assigned is None and i not in taken and i not in chosen:
                chosen.append(i)
                break
            i += 1
        else:
            return None
    return tuple(chosen)


#: A cost read against one pattern (:func:`cost_slots`): per element of the
#: cost, in cost order, the indices of the pattern's panels of that base, left
#: to right; None for wind (any changed panel reads as wind, R-ST-CHANGE).
Slots = tuple[tuple[int, ...] | None, ...]


def cost_slots(pattern: Sequence[Element], cost: Sequence[Element]) -> Slots | None:
    """``cost`` read against the pattern ``pattern`` (its panels' bases), for
    :func:`pay_slots`; None when no state of those panels can pay it: an
    element other than wind needed more times than the pattern holds panels of
    that base (a changed panel reads only as wind, R-ST-CHANGE, so nothing
    else pays it; R-PAN-3).  Fixed by the sheet: the walk finds it once per
    pattern and entry (``Fighter.payments``), and most entries that reach
    payment fail here, with no panel read (issue 18)."""
    wind = Element.WIND
    slots: list[tuple[int, ...] | None] = []
    for element in cost:
        if element is wind:
            slots.append(None)
            continue
        panels = tuple([i for i, base in enumerate(pattern) if base is element])
        if len(panels) < sum(1 for e in cost if e is element):
            return None
        slots.append(panels)
    return tuple(slots)


def pay_slots(panels: Sequence[Panel], slots: Slots) -> tuple[int, ...] | None:
    """:func:`plan_payment` of the cost ``slots`` was read from (nothing
    taken), on the pattern's panels ``panels``: an element other than wind
    tries only the panels of its base (the one way such a panel reads as it,
    unchanged), not every panel.  Same panels, same order (R-PAN-3)."""
    chosen: list[int] = []
    for indices in slots:
        if indices is None:  # wind: a wind panel unchanged, or any changed one
            i = 0
            for p in panels:
                if (p.changed > 0 or p.base is Element.WIND) and not p.used and p.assigned is None \
                        and i not in chosen:
                    chosen.append(i)
                    break
                i += 1
            else:
                return None
            continue
        for i in indices:
            p = panels[i]
            if not p.used and p.changed <= 0 and p.assigned is None and i not in chosen:
                chosen.append(i)
                break
        else:
            return None
    return tuple(chosen)


def entry_payment(f: Fighter, entry: int) -> tuple[int, ...] | None:
    """``plan_payment(f.panels[f.active], f.skills[entry].cost)`` (R-PAN-3)
    through the entry's :func:`cost_slots`, found once per pattern and entry
    and kept on ``Fighter.payments``."""
    active = f.active
    assert active is not None
    row = f.payments[active]
    slots = row[entry]
    if slots is False:
        slots = row[entry] = cost_slots(f.patterns[active].elements, f.skills[entry].cost)
    if slots is None:
        return None
    assert slots is not True
    return pay_slots(f.panels[active], slots)


def plan_extension(
    panels: Sequence[Panel], cost: Sequence[Element], per_extra: int, extras: int, taken: Sequence[int]
) -> tuple[int, ...]:
    """R-EXT-1: panels for up to ``extras`` extra targets, each ``per_extra``
    leftmost unused panels whose element is in the cost.  Returns the panels
    for as many whole extras as can be paid (len // per_extra extras)."""
    # the cost's elements as a tuple and p.element inlined: ``in`` compares
    # by identity first, where a set hashed each Element through the enum's
    # Python-level __hash__ (issue 18)
    allowed = tuple(cost)
    wind = Element.WIND
    free = [
        i for i, p in enumerate(panels)
        if not p.used and p.assigned is None and i not in taken
        and (wind if p.changed > 0 else p.base) in allowed
    ]
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
    # the cost is a sub-multiset of the free panels' elements (compared by
    # identity: no enum hash per panel)
    wind = Element.WIND
    free = [wind if p.changed > 0 else p.base for p in f.panels[f.active] if p.assigned is None]
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
