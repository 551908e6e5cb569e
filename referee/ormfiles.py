"""ORM's additions to sheets and battle files (variant-orm.md R-ORM-SHEET-1,
R-ORM-BATTLE-1, R-ORM-CHECK-1), checked apart from the generic loaders so
that ``sheet.py`` and ``battlefile.py`` only call in.

Each is refused, at its key, under a ruleset whose mechanics do not give it
(``MechanicsSpec.features``), the way ``clause-not-in-ruleset`` refuses a
variant's plan words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.elements import Element
from referee.mechanicspec import ORM_DEFENCE, ORM_PCS, ORM_TERRAIN, PowerPlusDiceSpec
from referee.ruleset import Ruleset

__all__ = ["DEFENCE_KEYS", "check_defence", "check_pcs", "check_terrain"]

#: R-ORM-SHEET-1: the element keys of ``defence`` (English or the kanji).
DEFENCE_KEYS: dict[str, str] = {**{e.value: e.value for e in Element}, **{e.kanji: e.value for e in Element}}

#: ``error(path, code, message, at_key=...)``: the caller's located diagnostic.
Report = Callable[..., None]


def _not_in_ruleset(ruleset: Ruleset, feature: str, path: tuple[Any, ...], error: Report) -> None:
    error(path, "clause-not-in-ruleset", f"{feature} is not part of ruleset {ruleset.name!r}", at_key=True)


def check_defence(value: object, ruleset: Ruleset, error: Report) -> dict[str, int] | None:
    """R-ORM-SHEET-1: ``defence: {fire, water, wind, earth, sword}`` (kanji keys
    accepted), whole numbers >= 0 summing to at most ``defence_points``;
    refused under a ruleset without element defence.  Returns the block by
    English element name, or None after reporting its problems."""
    path = ("defence",)
    if ORM_DEFENCE not in ruleset.features.names:
        _not_in_ruleset(ruleset, ORM_DEFENCE, path, error)
        return None
    if not isinstance(value, dict):
        error(path, "invalid-value", "defence: expected a mapping such as {fire: 2, sword: 1}")
        return None
    out: dict[str, int] = {}
    ok = True
    for key, points in value.items():
        element = DEFENCE_KEYS.get(str(key))
        if element is None:
            error((*path, key), "unknown-element", f"defence: {key!r} is not an element; expected one of "
                  + ", ".join(e.value for e in Element) + " (or 火 水 風 地 剣)", at_key=True)
            ok = False
            continue
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            error((*path, key), "invalid-value", f"defence.{key}: expected a whole number 0 or more")
            ok = False
            continue
        out[element] = out.get(element, 0) + points
    spec = ruleset.mechanics.damage
    limit = spec.defence_points if isinstance(spec, PowerPlusDiceSpec) else 0
    if ok and sum(out.values()) > limit:
        error(path, "defence-over-budget", f"defence: {sum(out.values())} points, more than the {limit} allowed "
              "(R-ORM-SHEET-1)", at_key=True)
        ok = False
    return out if ok else None


def check_pcs(value: object, ruleset: Ruleset, error: Report) -> str | None:
    """R-ORM-BATTLE-1: ``pcs: white|black``, only where the PC tie rule is."""
    if ORM_PCS not in ruleset.features.names:
        _not_in_ruleset(ruleset, ORM_PCS, ("pcs",), error)
        return None
    if value not in ("white", "black"):
        error(("pcs",), "invalid-value", "pcs: expected white or black")
        return None
    return str(value)


