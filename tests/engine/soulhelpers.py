"""House rulesets carrying soulwired's built mechanics on tcgt's others, for
the R-SOUL scenario tests that isolate one mechanic (the whole ``soulwired``
ruleset is ``ruleset("soulwired")``)."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from referee.ruleset import load_ruleset

D6_POOL = ("{kind: d6_pool, normal: 4, min: 2, max: 6, focus: -1, maneuver: 1, physical_elements: [sword], "
           "melee_max_range: 0, ability: {melee_physical: body, ranged_physical: reflex, spiritual: intellect}, "
           "maneuver_check: {ability: reflex, movement: 1, evasion_dice: 1}, "
           "evasion: {dice: highest_ability, default_commit: 2}}")
HARD_MODE = "{kind: hard_mode, to_level_1: 2, to_level_2: 2, melee_only: true}"
INITIATIVE = "{kind: ability, ability: reflex, tie_die: 100}"

SOUL_MECHANICS = {"initiative": INITIATIVE, "hit": D6_POOL, "stall": HARD_MODE}


@lru_cache(maxsize=None)
def _load(text: str) -> Any:
    folder = Path(tempfile.mkdtemp(prefix="soul-house-"))
    path = folder / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path)


def house(turn_limit: int = 1, **mechanics: str) -> Any:
    """``extends: tcgt`` with the named slots replaced (default: every
    soulwired mechanic built so far)."""
    chosen = mechanics or SOUL_MECHANICS
    text = "extends: tcgt\nmechanics:\n" + "".join(f"  {slot}: {spec}\n" for slot, spec in sorted(chosen.items()))
    return replace(_load(text), turn_limit=turn_limit)
