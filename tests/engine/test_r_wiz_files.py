"""The wiz files: the ``wiz:`` sheet block (R-WIZ-SHEET-1), battle-file sizes
(R-WIZ-BATTLE-1), the plan words (R-WIZ-PLAN-1), what ``referee check``
refuses (R-WIZ-CHECK-1) and that the aim module is off in ``wiz`` (R-WIZ-AIM-1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.battlefile import load_battle
from referee.catalog import parse_catalog
from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.rng import ScriptedRng
from referee.plan import check_plan
from referee.plan.parser import parse_plan
from referee.ruleset import load_ruleset
from referee.sheet import parse_sheet
from tests.engine.helpers import battle, hp, of
from tests.engine.wizhelpers import HOLD, seed_ruleset, wiz_ruleset, wizard

SHEET = """name: Mage
abilities: {body: 2, reflex: 3, intellect: 4}
patterns: [火火火]
skills: [firecracker]
"""


def _sheet(extra: str, ruleset: str = "wiz") -> tuple[Any, list[Any]]:
    return parse_sheet(SHEET + extra, "mage.yaml", load_ruleset(ruleset))


def _codes(diags: list[Any]) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in diags if d.is_error]


# ------------------------------------------------------------------ R-WIZ-SHEET-1


def test_r_wiz_sheet_1_levels_in_english_or_japanese_within_the_budget() -> None:
    """R-WIZ-SHEET-1: "A sheet may carry wiz: {magic_change, …} (keys 魔法変化 …
    accepted). Values are integers 0..max_level (5), with wide_view ≤ 2, absent
    = 0. They sum to at most points_per_intellect (1) × intellect."""
    sheet, diags = _sheet("wiz: {魔法変化: 2, chant: 1, 広視界: 1}\n")
    assert _codes(diags) == [] and dict(sheet.wiz) == {"magic_change": 2, "chant": 1, "wide_view": 1}
    sheet, diags = _sheet("")
    assert sheet.wiz == ()


def test_r_wiz_sheet_1_the_levels_reach_the_engine() -> None:
    """The levels are read by the mechanics: ``move`` 2 adds to IN (R-WIZ-IN-1)."""
    fast = wizard("Fast", "a1", "slash", "剣剣", levels={"move": 2, "flexible": 3})
    slow = wizard("Slow", "h8", "slash", "剣剣剣")
    setup = battle([fast], [slow])
    from dataclasses import replace
    rec = resolve_battle(replace(setup, order=None), wiz_ruleset(), 1,
                         rng=ScriptedRng({"initiative": [1, 1, 1, 6, 6, 6]}))
    values = {e.actor: (e.value, e.move, e.flexible_bonus) for e in of(rec, E.InitiativeValue)}
    assert values == {"Fast": (2 + 2 + 1, 2, 1), "Slow": (3, 0, 0)}
    assert of(rec, E.ActionOrder)[0].order == ("Fast", "Slow")


# ------------------------------------------------------------------ R-WIZ-CHECK-1


def test_r_wiz_check_1_wiz_block_errors() -> None:
    """R-WIZ-CHECK-1: "an unknown key; a value that is negative, not an
    integer, or over its maximum; a sum over the budget"."""
    _, diags = _sheet("wiz:\n  magic_changes: 1\n  chant: -1\n  move: 1.5\n  sense: 6\n  wide_view: 3\n")
    codes = _codes(diags)
    assert ("unknown-field", 6) in codes
    assert [c for c in codes if c[0] == "invalid-value"] == [
        ("invalid-value", 7), ("invalid-value", 8), ("invalid-value", 9), ("invalid-value", 10)]
    _, diags = _sheet("wiz: {magic_change: 3, magic_amplify: 2}\n")
    assert [d.message for d in diags if d.is_error] == [
        "wiz levels sum to 5; intellect 4 allows at most 4 (R-WIZ-SHEET-1)"]


def test_r_wiz_check_1_ruleset_mismatch_is_clause_not_in_ruleset() -> None:
    """R-WIZ-CHECK-1: "a wiz block, size, spare, frozen, enemy with or take aim
    under a ruleset whose mechanics lack them (clause-not-in-ruleset)"."""
    _, diags = _sheet("wiz: {chant: 1}\n", "tcgt")
    assert _codes(diags) == [("clause-not-in-ruleset", 5)]
    plan, _ = parse_plan("spare Berserker\nuse firecracker first when target frozen\nspare enemy with hp <= 3\n", "p.plan")
    for name, expected in (("tcgt", [(1, 1), (2, 28), (3, 1), (3, 7)]), ("wiz", [])):
        diags = check_plan(plan, None, load_ruleset(name).catalog, features=load_ruleset(name).features)
        assert [(d.line, d.column) for d in diags if d.code == "clause-not-in-ruleset"] == expected


def test_r_wiz_check_1_take_aim_with_aim_off_is_refused() -> None:
    """R-WIZ-CHECK-1: "take aim with aim off" is an error (``wiz`` has aim off)."""
    plan, _ = parse_plan("take aim at Rat\n", "p.plan")
    rs = load_ruleset("wiz")
    diags = check_plan(plan, None, rs.catalog, features=rs.features)
    assert [(d.code, d.line) for d in diags] == [("clause-not-in-ruleset", 1)]


def test_r_wiz_check_1_catalogue_area_errors() -> None:
    """R-WIZ-CHECK-1: "an area that is not AxB with A, B ≥ 1, or an area on a
    拡大 skill"."""
    skill = ("  - {id: blast, name_ja: 爆, reading: バク, name_en: Blast, cost: [fire], level: 1, "
             "classes: [attack%s], range: 2, targets: enemies, damage: 1, area: %s}\n")
    for classes, area, ok in (("", "2x3", True), ("", "0x3", False), ("", "3", False), (", extend", "1x3", False)):
        catalog, diags = parse_catalog("version: 1\nskills:\n" + skill % (classes, area), "s.yaml")
        assert (catalog is not None) == ok, (classes, area, [d.message for d in diags])
        if not ok:
            assert [d.line for d in diags if d.is_error] == [3]


def test_r_wiz_check_1_extend_of_an_area_skill_is_not_extendable() -> None:
    """R-WIZ-CHECK-1: "extend of a skill with area (not-extendable)": an area
    skill is never classed 拡大, so the plan check's not-extendable applies."""
    plan, _ = parse_plan("extend tiltwait by 1\n", "p.plan")
    rs = seed_ruleset()
    diags = check_plan(plan, None, rs.catalog, features=rs.features)
    assert [d.code for d in diags] == ["not-extendable"]


def _battle_dir(tmp_path: Path, ruleset: str, setup: str) -> Path:
    (tmp_path / "a.yaml").write_text("name: Ann\nabilities: {body: 3, reflex: 3, intellect: 3}\n"
                                     "patterns: [剣剣剣]\nskills: [slash]\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("name: Bob\nabilities: {body: 3, reflex: 3, intellect: 3}\n"
                                     "patterns: [剣剣剣]\nskills: [slash]\n", encoding="utf-8")
    path = tmp_path / "x.battle.yaml"
    path.write_text(f"title: Sizes\nruleset: {ruleset}\nseed: 1\nteams:\n  white: [a.yaml]\n  black: [b.yaml]\n"
                    f"setup:\n{setup}", encoding="utf-8")
    return path


def test_r_wiz_battle_1_size_is_read_and_defaults_to_m(tmp_path: Path) -> None:
    """R-WIZ-BATTLE-1: "A battle file may give setup.NAME.size: T|S|M|L|H,
    default M"; a size outside T..H is an error (R-WIZ-CHECK-1)."""
    b, diags = load_battle(_battle_dir(tmp_path, "wiz", "  Ann: {size: H}\n"))
    assert b is not None and [(e.name, e.size) for e in b.entries] == [("Ann", "H"), ("Bob", None)]
    b, diags = load_battle(_battle_dir(tmp_path, "wiz", "  Ann: {size: X}\n"))
    assert b is None and [d.line for d in diags if d.is_error] == [8]
    b, diags = load_battle(_battle_dir(tmp_path, "tcgt", "  Ann: {size: S}\n"))
    assert b is None and [(d.code, d.line) for d in diags if d.is_error] == [("clause-not-in-ruleset", 8)]


def test_r_wiz_battle_1_sizes_change_the_missile_penalty() -> None:
    """R-WIZ-BATTLE-1 sizes in R-WIZ-MIS-1 ("M fighting T: 14"): the Archer
    shoots Night Shrieker (range 1) into c4, where the Rat (size T) fights
    Brute (size M, default): p = 70 − (5 + 9) = 56."""
    from dataclasses import replace
    archer = wizard("Archer", "c3", "night-shrieker", "風剣剣")
    brute = wizard("Brute", "c4", "rest", "水水水", plan_text=HOLD)
    rat = wizard("Rat", "c4", "rest", "水水水", plan_text=HOLD)
    setup = battle([archer, brute], [rat, wizard("Far", "h8", "rest", "水水水", plan_text=HOLD)])
    setup = replace(setup, combatants=tuple(replace(c, size="T") if c.sheet.name == "Rat" else c
                                            for c in setup.combatants))
    rec = resolve_battle(setup, wiz_ruleset(), 1, rng=ScriptedRng({"checks": [56], "chances": [False]}))
    check = of(rec, E.D100Check)[0]
    assert (check.target, check.facing, check.missile_penalty, check.chance, check.hit) == ("Rat", None, 14, 56, True)


# ------------------------------------------------------------------ R-WIZ-PLAN-1


def test_r_wiz_plan_1_spare_leaves_an_ally_out_at_a_level() -> None:
    """R-WIZ-PLAN-1: "spare WHO: spared in area uses (R-WIZ-AREA-4)": with
    ``friendly fire`` the Berserker would be risked, ``spare Berserker``
    makes it spared again (excluded at one change level)."""
    mage = wizard("Mage", "a1", "tiltwait", "火火火", body=2, intellect=4, levels={"magic_change": 2},
                  plan_text="friendly fire\nspare Berserker\n")
    berserker = wizard("Berserker", "a4", "rest", "水水水", plan_text=HOLD)
    trolls = [wizard(f"T{i}", "a4", "rest", "水水水", plan_text=HOLD) for i in range(1, 4)]
    rec = resolve_battle(battle([mage, berserker], trolls), seed_ruleset(), 1, rng=ScriptedRng({"area": [1] * 5}))
    roles = {m["name"]: m["role"] for g in of(rec, E.AreaGroups)[0].groups for m in g["members"]}
    assert roles["Berserker"] == "spared"
    sel = of(rec, E.AreaSelection)[0]
    assert "Berserker" in sel.excluded and hp(rec, "Berserker") == 12


def test_r_wiz_plan_1_spare_enemy_with_frozen_and_single_target_never_target() -> None:
    """R-WIZ-PLAN-1: ``spare enemy with frozen`` (don't wake the Katino
    sleeper); for single-target uses the same as ``never target WHO``: a
    Knight told ``spare Foe`` never slashes Foe."""
    knight = wizard("Knight", "d4", "slash", "剣剣剣", plan_text="spare Foe\n")
    rec = resolve_battle(battle([knight], [wizard("Foe", "d4", "rest", "水水水", plan_text=HOLD)]),
                         wiz_ruleset(), 1, rng=ScriptedRng({}))
    assert not [e for e in of(rec, E.SkillUsed) if e.actor == "Knight"]
    plan, diags = parse_plan("spare enemy with frozen\n", "p.plan")
    assert diags == [] and type(plan.clauses[0].who).__name__ == "EnemyWith"


# ------------------------------------------------------------------ R-WIZ-AIM-1


def test_r_wiz_aim_1_the_aim_module_is_off_in_wiz() -> None:
    """R-WIZ-AIM-1: "[module aim, off in wiz]": ``wiz`` names ``aim: false``,
    so its features lack ``take aim at``; ``aim`` takes a boolean (the module
    itself: tests/engine/test_r_wiz_aim.py)."""
    assert "take aim" not in " ".join(load_ruleset("wiz").features.names)
    from referee.mechanicspec import KINDS
    check = KINDS["hit"]["percentile"].params["aim"]
    assert check(True) == [] and check(False) == [] and check("yes") != []


def test_r_wiz_battle_1_terrain_blocked_squares_join_the_map(tmp_path: Path) -> None:
    """R-WIZ-BATTLE-1: "A battle file may give … terrain: {blocked: [squares]}";
    R-WIZ-CHECK-1: "terrain.barriers or terrain.objects" are errors; under a
    ruleset without it, terrain is refused where written."""
    from referee.board import parse_square
    path = _battle_dir(tmp_path, "wiz", "  Ann: {square: a1}\n")
    path.write_text(path.read_text(encoding="utf-8") + "terrain:\n  blocked: [d4, e5]\n", encoding="utf-8")
    b, diags = load_battle(path)
    assert b is not None and b.terrain is not None and b.terrain.blocked == (parse_square("d4"), parse_square("e5"))
    from referee.app.inputs import battle_inputs, setup_from_inputs
    setup = setup_from_inputs(battle_inputs(b))
    assert setup.terrain is not None and setup.terrain.blocked == (parse_square("d4"), parse_square("e5"))
    rec = resolve_battle(setup, b.ruleset, 1)
    assert not [e for e in of(rec, E.Moved) if e.to_square in setup.terrain.blocked]
    path.write_text(path.read_text(encoding="utf-8").replace("blocked: [d4, e5]", "barriers: [d4]\n  blocked: [a1]"),
                    encoding="utf-8")
    b, diags = load_battle(path)
    # the fixed square a1 is now blocked (reported at the setup line) and barriers is refused
    assert b is None and sorted((d.code, d.line) for d in diags if d.is_error) == [("blocked-square", 8),
                                                                                  ("unknown-field", 10)]
    path = _battle_dir(tmp_path, "tcgt", "  Ann: {square: a1}\n")
    path.write_text(path.read_text(encoding="utf-8") + "terrain:\n  blocked: [d4]\n", encoding="utf-8")
    b, diags = load_battle(path)
    assert b is None and [(d.code, d.line) for d in diags if d.is_error] == [("clause-not-in-ruleset", 9)]
