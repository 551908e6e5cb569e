"""Random legal battles for property tests and the benchmark."""

from __future__ import annotations

import itertools
from typing import Any

from referee.engine.battle import BattleSetup, Combatant
from referee.engine.clauses import Extend, Flag, PlanFlag, PlanRules, Preference, PreferenceKind, TargetPref

try:
    from .helpers import TestPattern, TestSheet
except ImportError:  # run as tests.engine.randombattle from a subprocess
    from tests.engine.helpers import TestPattern, TestSheet

SKILLS = ("firecracker", "rest", "pressurize", "avenger", "slash", "eruption", "flame-bind",
          "heat-wave", "fiery-cloak", "kusanagi", "aqua-form", "shield-mist", "restore",
          "poison-fang", "whirlwind", "skill-ensnare", "night-shrieker", "drain-life",
          "ia-temu-curse", "sala-twin-trees")
ELEMENTS = "火水風地剣"


def random_plan_text(draw: Any, skills: tuple[str, ...], enemies: list[str], intellect: int,
                     extra: tuple[str, ...] = ()) -> str:
    """A plausible plan in the plan language for a character with ``skills``:
    up to 2 x intellect clauses (R-CHAR-4) drawn from the canonical clauses of
    interfaces.md, naming its own skills and the enemies' names."""
    from referee.ruleset import load_ruleset

    catalog = load_ruleset("tcgt").catalog
    sk = [catalog.get(s) for s in skills]
    active = [s.id for s in sk if not s.is_passive and not s.is_maintain] or [skills[0]]
    extend = [s.id for s in sk if s.can_extend] or [active[0]]
    maintain = [s.id for s in sk if s.is_maintain and not s.is_passive]

    def one(xs: list[str]) -> str:
        return xs[draw(len(xs))]

    menu = [
        lambda: f"use {one(active)} first when ally hp lost >= {3 + draw(5)}",
        lambda: f"use {one(active)} only when enemies in range >= {1 + draw(2)}",
        lambda: f"never use {one(active)} when hp <= {1 + draw(4)}",
        lambda: f"use {one(active)} first when target readies avenger",
        lambda: f"use {one(active)} first when acting first",
        lambda: f"with {one(active)} target lowest hp",
        lambda: "target most hp lost",
        lambda: f"never target {one(enemies)}",
        lambda: f"extend {one(extend)} max",
        lambda: f"extend {one(extend)} by 1 when enemies in range >= 2",
        lambda: "friendly fire",
        lambda: "counter allies when hp >= 4",
        lambda: "stack avenger when hp <= 6",
        lambda: f"maintain {one(maintain)} when engaged" if maintain else "hold position when hp <= 1",
        lambda: f"release {one(maintain)} when hp <= 4" if maintain else "target nearest",
        lambda: "move toward ally with hp lost >= 5 then use rest" if "rest" in skills
        else "move toward nearest enemy when hp >= 6",
        lambda: f"move toward {one(enemies)} when turn >= 3",
        lambda: "keep away from enemies when hp <= 3 and not engaged",
        lambda: "hold position when hp <= 2 or bound",
    ]
    # a ruleset's own clauses (``{enemy}`` names one of the enemies), when asked
    menu += [lambda text=text: text.format(enemy=one(enemies)) for text in extra]  # type: ignore[misc]
    lines = [menu[draw(len(menu))]() for _ in range(draw(2 * intellect + 1))]
    return "\n".join(lines) + "\n"


def random_setup(draw: Any, size: int, text_plans: bool = False, extra: tuple[str, ...] = ()) -> BattleSetup:
    """``draw(n)`` -> int in range(n) (hypothesis or a seeded source).

    ``text_plans``: plans written in the plan language and parsed (the engine
    compiles the AST), instead of hand-built :class:`PlanRules`."""
    from referee.elements import parse_pattern
    from referee.plan.parser import parse_plan

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
            clauses.append(Flag(line=2, flag=PlanFlag.FRIENDLY_FIRE))
        if draw(3) == 0:
            clauses.append(TargetPref(line=3, preference=Preference(PreferenceKind.LOWEST_HP)))
        sheet = TestSheet(f"{team[0]}{i}", body, reflex, intellect, 4 * body, patterns, skills)
        plan: Any = PlanRules(tuple(clauses))
        if text_plans:
            foe = "b" if team == "white" else "w"
            text = random_plan_text(draw, skills, [f"{foe}{j}" for j in range(size)], intellect, extra)
            plan, diags = parse_plan(text, f"{sheet.name}.plan")
            assert not [d for d in diags if d.severity == "error"], (text, diags)
        combatants.append(Combatant(sheet, plan, team))
    return BattleSetup(tuple(combatants))
