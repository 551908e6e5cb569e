"""Random legal battles for property tests and the benchmark."""

from __future__ import annotations

import itertools
from typing import Any

from referee.engine.battle import BattleSetup, Combatant
from referee.engine.rules import Extend, Flag, PlanRules, TargetPref, Preference

try:
    from .helpers import TestPattern, TestSheet
except ImportError:  # run as tests.engine.randombattle from a subprocess
    from tests.engine.helpers import TestPattern, TestSheet

SKILLS = ("firecracker", "rest", "pressurize", "avenger", "slash", "eruption", "flame-bind",
          "heat-wave", "fiery-cloak", "kusanagi", "aqua-form", "shield-mist", "restore",
          "poison-fang", "whirlwind", "skill-ensnare", "night-shrieker", "drain-life",
          "ia-temu-curse", "sala-twin-trees")
ELEMENTS = "火水風地剣"


def random_setup(draw: Any, size: int) -> BattleSetup:
    """``draw(n)`` -> int in range(n) (hypothesis or a seeded source)."""
    from referee.elements import parse_pattern

    combatants = []
    for team, i in itertools.product(("white", "black"), range(size)):
        body = 1 + draw(5)
        reflex = 2 + draw(4)
        intellect = 2 + draw(3)
        patterns = tuple(
            TestPattern(parse_pattern("".join(ELEMENTS[draw(5)] for _ in range(reflex))))
            for _ in range(1 + draw(2)))
        skills = tuple(SKILLS[draw(len(SKILLS))] for _ in range(2 + draw(intellect + 1)))
        clauses: list[Any] = []
        if draw(2):
            clauses.append(Extend(line=1, skill=skills[0], count=None if draw(2) else 1))
        if draw(3) == 0:
            clauses.append(Flag(line=2, flag="friendly fire"))
        if draw(3) == 0:
            clauses.append(TargetPref(line=3, preference=Preference("lowest_hp")))
        sheet = TestSheet(f"{team[0]}{i}", body, reflex, intellect, 4 * body, patterns, skills)
        combatants.append(Combatant(sheet, PlanRules(tuple(clauses)), team))
    return BattleSetup(tuple(combatants))
