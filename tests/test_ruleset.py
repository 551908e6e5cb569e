"""The ruleset as validated data: the built-in tcgt numbers, extends, digests, errors."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from referee.catalog import load_catalog
from referee.diagnostics import Diagnostic, ReferError
from referee.mechanicspec import ArmyReducedSpec, DecimalDiceSpec, NarrowingSpec, StepsSpec
from referee.ruleset import DEFAULT_RULESET, builtin_rulesets, deep_merge, load_ruleset, load_ruleset_file
from tests.engine.crossprocess import outputs_under_hash_seeds

TCGT_YAML = Path(__file__).resolve().parents[1] / "referee" / "data" / "rulesets" / "tcgt.yaml"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def errors_of(path: Path) -> list[Diagnostic]:
    ruleset, diags = load_ruleset_file(path)
    assert ruleset is None
    return diags


# --- the built-in numbers -----------------------------------------------------


def test_tcgt_is_the_default_and_builtin() -> None:
    assert DEFAULT_RULESET == "tcgt" and "tcgt" in builtin_rulesets()
    assert load_ruleset() is load_ruleset("tcgt")


def test_r_field_1_map_is_8_by_8_king_steps() -> None:
    """R-FIELD-1: the field is an 8x8 grid of areas."""
    r = load_ruleset()
    assert (r.map.width, r.map.height, r.map.blocked) == (8, 8, ())
    assert r.mechanics.movement == StepsSpec("steps", "king")


def test_r_turn_9_turn_limit_is_100() -> None:
    """R-TURN-9: after turn 100 the battle ends."""
    assert load_ruleset().turn_limit == 100


def test_r_narrow_1_schedule() -> None:
    """R-NARROW-1: after turns 30, 35, 40 and 45 the field narrows: b2-g7, c3-f6,
    d4-e5, then one of d4/e4/d5/e5."""
    stall = load_ruleset().mechanics.stall
    assert isinstance(stall, NarrowingSpec)
    stages = [(s.after_turn, s.keep, s.keep_one_of) for s in stall.schedule]
    assert stages == [(30, "b2-g7", False), (35, "c3-f6", False), (40, "d4-e5", False), (45, "d4-e5", True)]


def test_r_turn_1_three_six_sided_dice_once_per_battle() -> None:
    """R-TURN-1: three dice, six-sided, rolled once per battle."""
    ini = load_ruleset().mechanics.initiative
    assert isinstance(ini, DecimalDiceSpec)
    assert (ini.dice, ini.sides, ini.reroll) == (3, 6, "once_per_battle")


def test_r_char_1_to_4_numbers() -> None:
    """R-CHAR-1 9 points each >= 1; R-CHAR-2 HP = 4 x body; R-CHAR-3 1..intellect
    patterns and 1..intellect+2 entries; R-CHAR-4 at most 2 x intellect clauses."""
    r = load_ruleset()
    assert (r.abilities.budget, r.abilities.minimum) == (9, 1)
    assert r.max_hp(3) == 12
    assert r.max_patterns(3) == 3 and r.max_skill_entries(3) == 5 and r.max_clauses(3) == 6


@pytest.mark.parametrize("start, threshold", [(1, 0), (2, 0), (3, 1), (6, 2), (7, 2), (9, 3)])
def test_r_goal_1_threshold_is_a_third_rounded_down(start: int, threshold: int) -> None:
    """R-GOAL-1: standing <= floor(start/3) (3 -> 1, 6 -> 2, 1 or 2 -> 0)."""
    end = load_ruleset().mechanics.end
    assert isinstance(end, ArmyReducedSpec) and end.goal.threshold(start) == threshold


def test_r_var_1_tcgt_writes_its_own_mechanics_out() -> None:
    """R-VAR-1: "A ruleset names its mechanics ...; tcgt's are sections A-B"."""
    kinds = {slot: spec.kind for slot, spec in load_ruleset().mechanics.slots()}
    assert kinds == {"range": "chebyshev", "movement": "steps", "initiative": "decimal_dice",
                     "action": "skill_walk", "hit": "always", "damage": "printed", "area": "extension",
                     "stall": "narrowing", "end": "army_reduced"}


def test_ruleset_carries_the_builtin_catalog() -> None:
    assert load_ruleset().catalog is load_catalog()


# --- digest -------------------------------------------------------------------


def test_digest_is_stable_across_processes_and_hash_seeds() -> None:
    code = "from referee.ruleset import load_ruleset; print(load_ruleset().digest)"
    digests = {out.strip() for out in outputs_under_hash_seeds(code, ("0", "1", "12345"))}
    assert digests == {load_ruleset().digest}
    assert len(load_ruleset().digest) == 64


def test_digest_ignores_location_and_key_order(tmp_path: Path) -> None:
    copy = tmp_path / "copy.yaml"
    copy.write_text(TCGT_YAML.read_text("utf-8"), encoding="utf-8")
    lines = TCGT_YAML.read_text("utf-8").splitlines()
    # Move the top-level `turn_limit` line to the end: same data, other order.
    moved = [ln for ln in lines if not ln.startswith("turn_limit:")] + ["turn_limit: 100"]
    reordered = tmp_path / "reordered.yaml"
    reordered.write_text("\n".join(moved) + "\n", encoding="utf-8")
    assert load_ruleset(copy).digest == load_ruleset(reordered).digest == load_ruleset().digest


def test_digest_changes_with_any_number(tmp_path: Path) -> None:
    text = TCGT_YAML.read_text("utf-8").replace("turn_limit: 100", "turn_limit: 99")
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    assert load_ruleset(path).digest != load_ruleset().digest


def test_digest_covers_the_skill_catalog(tmp_path: Path) -> None:
    """A ruleset with its own catalogue differing in one number has another digest."""
    skills = Path(__file__).resolve().parents[1] / "referee" / "data" / "skills.yaml"
    (tmp_path / "skills.yaml").write_text(skills.read_text("utf-8").replace("damage: 3", "damage: 2", 1), encoding="utf-8")
    path = write(tmp_path, "mine.yaml", "extends: tcgt\nskills: skills.yaml\n")
    r = load_ruleset(path)
    assert r.catalog.get("slash").damage == 2
    assert r.digest != load_ruleset().digest


# --- extends ------------------------------------------------------------------


def test_deep_merge_merges_mappings_and_replaces_lists() -> None:
    base = {"map": {"width": 8, "blocked": ["a1"]}, "x": [1, 2]}
    assert deep_merge(base, {"map": {"blocked": []}, "x": [3]}) == {"map": {"width": 8, "blocked": []}, "x": [3]}
    assert base == {"map": {"width": 8, "blocked": ["a1"]}, "x": [1, 2]}  # not mutated


def test_extends_tcgt_lists_only_what_differs(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "small.ruleset.yaml",
        """\
        extends: tcgt
        map: {width: 6, height: 6}
        mechanics:
          stall: {schedule: []}
          initiative: {reroll: every_turn}
        abilities: {budget: 11}
        """,
    )
    r = load_ruleset(path)
    assert r.name == "small"
    assert (r.map.width, r.map.height, r.mechanics.movement) == (6, 6, StepsSpec("steps", "king"))
    assert r.mechanics.stall == NarrowingSpec("narrowing", ())
    assert r.mechanics.initiative == DecimalDiceSpec("decimal_dice", 3, 6, "every_turn")
    assert (r.abilities.budget, r.abilities.minimum) == (11, 1)
    assert r.turn_limit == 100 and r.catalog is load_catalog()
    assert r.digest != load_ruleset().digest


def test_extends_a_file_relative_to_the_ruleset(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "extends: tcgt\nname: base\nturn_limit: 50\n")
    (tmp_path / "sub").mkdir()
    path = write(tmp_path, "sub/child.yaml", "extends: ../base.yaml\nname: child\nhp_per_body: 5\n")
    r = load_ruleset(path)
    assert (r.name, r.turn_limit, r.hp_per_body, r.map.width) == ("child", 50, 5, 8)


def test_extends_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    assert "extends-cycle" in {d.code for d in errors_of(tmp_path / "a.yaml")}


def test_extends_unknown_builtin_has_a_hint(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "name: v\nextends: tcg\n")
    (d,) = errors_of(path)
    assert (d.code, d.line, d.column, d.hint) == ("unknown-ruleset", 2, 10, "did you mean 'tcgt'?")


# --- errors -------------------------------------------------------------------


def test_unknown_builtin_name_raises_refer_error_with_hint() -> None:
    with pytest.raises(ReferError) as info:
        load_ruleset("tcgx")
    (d,) = info.value.diagnostics
    assert d.code == "unknown-ruleset" and d.hint == "did you mean 'tcgt'?"


def test_missing_file_raises_refer_error(tmp_path: Path) -> None:
    with pytest.raises(ReferError) as info:
        load_ruleset(tmp_path / "nope.yaml")
    assert info.value.diagnostics[0].code == "file-not-found"


def test_schema_errors_are_all_reported_with_field_positions(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bad.yaml",
        """\
        extends: tcgt
        name: bad
        map:
          width: 40
        turn_limit: many
        mechanics:
          initiative: {dice: 3, sides: 6, reroll: sometimes}
        mechanic: {orm: true}
        """,
    )
    diags = errors_of(path)
    got = {(d.code, d.line, d.column) for d in diags}
    assert ("out-of-range", 4, 10) in got  # map.width
    assert ("wrong-type", 5, 13) in got  # turn_limit
    assert ("unknown-field", 8, 1) in got  # mechanic
    unknown = next(d for d in diags if d.code == "unknown-field")
    assert unknown.hint == "did you mean 'mechanics'?"
    assert all(d.file == str(path) for d in diags)
    width = next(d for d in diags if d.line == 4)
    assert "map.width" in width.message and "32" in width.message


def test_yaml_syntax_error_has_a_position(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "name: x\nmap: {width: 8\nturn_limit: 3\n")
    (d,) = errors_of(path)
    assert d.code == "yaml-syntax" and d.line >= 2 and d.column > 0


def test_narrowing_schedule_meaning_is_checked(tmp_path: Path) -> None:
    """R-NARROW-1: the schedule only shrinks, in increasing turns, on the map."""
    path = write(
        tmp_path,
        "n.yaml",
        """\
        extends: tcgt
        mechanics:
          stall:
            schedule:
              - {after_turn: 30, keep: b2-g7}
              - {after_turn: 30, keep: a1-h8}
              - {after_turn: 40, keep: g7-b2}
              - {after_turn: 41, keep_one_of: d4-e5}
              - {after_turn: 42, keep: d4-d4}
              - {after_turn: 43, keep: z1-z2}
        """,
    )
    got = {(d.code, d.line) for d in errors_of(path)}
    assert {("narrowing-order", 6), ("narrowing-grows", 6), ("invalid-value", 7), ("invalid-value", 8), ("off-map", 10)} <= got


def test_narrowing_entry_needs_exactly_one_of_keep_and_keep_one_of(tmp_path: Path) -> None:
    path = write(tmp_path, "n.yaml", "extends: tcgt\nmechanics:\n  stall:\n    schedule:\n"
                 "      - {after_turn: 30}\n      - {after_turn: 31, keep: b2-g7, keep_one_of: c3-c3}\n")
    diags = errors_of(path)
    assert {d.line for d in diags} == {5, 6}
    assert all("keep_one_of" in d.message for d in diags)


def test_blocked_square_off_map(tmp_path: Path) -> None:
    path = write(tmp_path, "b.yaml", "extends: tcgt\nmap: {blocked: [c3, i9]}\n")
    (d,) = errors_of(path)
    assert (d.code, d.line) == ("off-map", 2) and "i9" in d.message


def test_bad_skill_catalog_path_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "s.yaml", "extends: tcgt\nskills: nowhere.yaml\n")
    diags = errors_of(path)
    assert diags[0].code == "bad-catalog" and diags[0].line == 2
    assert any(d.code == "file-not-found" for d in diags)
