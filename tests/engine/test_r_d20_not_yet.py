"""variant-d20.md rules this version does not referee yet, and R-D20-FILE-1.

The plan clauses of R-D20-PLAN-1..3 (and the push, grapple and revival by a
heal that only they reach, R-D20-PUSH-1/-2, R-D20-KO-2) are not in the plan
grammar yet.  Each has a scenario test here asserting the spec's behaviour,
marked ``xfail(strict=True)``: it fails today (the mark says why), and the
day the rule works it passes, the strict mark turns it red, and the mark must
go.  docs/rules.md lists these rules under "Not yet refereed".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.battlefile import load_battle
from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.rng import ScriptedRng
from referee.plan import parse_plan

from tests.engine.helpers import battle, fighter, of, ruleset

NOT_YET = pytest.mark.xfail(strict=True, reason="R-D20-PLAN-1 clauses are not in the plan grammar yet")


def _parses(text: str) -> bool:
    plan, diags = parse_plan(text + "\n")
    return plan is not None and not [d for d in diags if d.severity == "error"]


@NOT_YET
def test_r_d20_plan_1_the_canonical_clauses_parse() -> None:
    """R-D20-PLAN-1: "drop 2 dice on attack when target hp <= 6", "boost
    attack by 3 when hp >= 8", "recover when hp <= 6", "push target lowest
    hp when engaged", "grapple target Runner" each parse."""
    for text in ("drop 2 dice on attack when target hp <= 6", "drop 1 die on defence when hp >= 10",
                 "boost attack by 3 when hp >= 8", "boost defence by 2 when hp >= 10", "recover when hp <= 6",
                 "push target lowest hp when engaged", "grapple target Runner"):
        assert _parses(text), text


@NOT_YET
def test_r_d20_plan_2_ko_and_grappled_conditions_parse() -> None:
    """R-D20-PLAN-2: "use rest first when ally ko" and ``grappled``."""
    assert _parses("use rest first when ally ko") and _parses("hold position when grappled")


@NOT_YET
def test_r_d20_plan_3_a_d20_clause_under_tcgt_is_clause_not_in_ruleset() -> None:
    """R-D20-PLAN-3: "a clause or condition of R-D20-PLAN-1..2 under a ruleset
    without these mechanics (clause-not-in-ruleset)"."""
    plan, diags = parse_plan("push target lowest hp\n")
    assert [d.code for d in diags] == ["clause-not-in-ruleset"]


@NOT_YET
def test_r_d20_push_1_a_push_rides_the_target_one_area_away() -> None:
    """R-D20-PUSH-1, D20-B: D's push on A (distance 1): body 3d20, 14 >= 11:
    A rides from d4 directly away from e5, to c3."""
    plan, _ = parse_plan("push\nhold position\n")
    assert plan is not None
    setup = battle([fighter("A", "d4", "rest", "水水水")], [fighter("D", "e5", "rest", "水水水", plan=plan)],
                   order=["D", "A"])
    record = resolve_battle(setup, ruleset("d20pool", 1), 1, rng=ScriptedRng({"checks": [14, 2, 8]}))
    assert [(r.target, r.blocked) for r in of(record, E.Ridden)] == [("A", False)]


@NOT_YET
def test_r_d20_push_2_a_grapple_stops_the_target_shifting() -> None:
    """R-D20-PUSH-2: "status grapple on the character, duration 1 of its
    turns: it cannot shift until its next turn ends"."""
    plan, _ = parse_plan("grapple target Runner\n")
    assert plan is not None
    setup = battle([fighter("Holder", "d4", "", plan=plan)], [fighter("Runner", "d4", "")],
                   order=["Holder", "Runner"])
    record = resolve_battle(setup, ruleset("d20pool", 1), 1, rng=ScriptedRng({"checks": [15, 2, 2]}))
    assert [s.status for s in of(record, E.StatusApplied)] == ["grapple"]


@pytest.mark.xfail(strict=True, reason="R-D20-KO-2: heals do not take KO allies yet")
def test_r_d20_ko_2_rest_revives_a_ko_ally_from_its_return_area() -> None:
    """R-D20-KO-2, D20-C: "Medic: Rest may take Fighter, 2 away from d4 (loss
    12): heal 3, revived on d4"."""
    plan, _ = parse_plan("hold position\n")
    setup = battle([fighter("Fighter", "d4", "slash", "剣剣剣"), fighter("Medic", "d6", "rest", "水水水", plan=plan)],
                   [fighter("Ogre", "d4", "slash", "剣剣", body=5, reflex=2, intellect=2, hp=3)],
                   order=["Ogre", "Fighter", "Medic"])
    script = {"checks": [19, 4, 11, 8, 2, 3, 7, 5, 2, 14, 9, 6, 1, 12, 3, 10]}
    record = resolve_battle(setup, ruleset("d20pool", None), 1, rng=ScriptedRng(script))
    assert [(r.target, r.cause) for r in of(record, E.Revived)] == [("Fighter", "heal")]


def test_r_d20_file_1_a_terrain_block_is_an_error_with_its_place(tmp_path: Path) -> None:
    """R-D20-FILE-1: "A battle file's terrain block is an error under
    d20pool": refused with a diagnostic naming the file and line."""
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    for name, square in (("Aki", "a1"), ("Ben", "h8")):
        (sheets / f"{name.lower()}.yaml").write_text(
            f"name: {name}\nabilities: {{body: 3, reflex: 3, intellect: 3}}\npatterns: [剣剣剣]\nskills: [slash]\n",
            encoding="utf-8")
    path = tmp_path / "t.battle.yaml"
    path.write_text("title: T\nruleset: d20pool\nseed: 1\nteams:\n  white: [sheets/aki.yaml]\n"
                    "  black: [sheets/ben.yaml]\nterrain:\n  walls: [c3]\n", encoding="utf-8")
    result, diags = load_battle(path)
    assert result is None
    terrain = [d for d in diags if "terrain" in d.message]
    assert terrain and terrain[0].line == 7 and str(path.name) in str(terrain[0].file)
