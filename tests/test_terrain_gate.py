"""Which battle-file ``terrain:`` fields a ruleset takes (R-ORM-BATTLE-1,
R-SOUL-FILE-2, R-NARROW-2), asked one way by the battle-file loader and by
``replay``'s check of a report's embedded inputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.app.inputcheck import check_report_inputs
from referee.battlefile import load_battle
from referee.ruleset import load_ruleset, load_ruleset_file

ROOT = Path(__file__).resolve().parents[1]
SHEET = "name: {n}\nabilities: {{body: 3, reflex: 3, intellect: 3}}\npatterns: [剣剣剣]\nskills: [slash]\n"
#: soulwired with narrowing turned back on (R-SOUL-FILE-2: "rejects `terrain`").
NARROWED = ("name: soul-narrowed\nextends: soulwired\nmechanics:\n  stall:\n    kind: narrowing\n"
            "    schedule:\n      - {after_turn: 30, keep: b2-g7}\n")


def write_battle(folder: Path, ruleset: str, terrain: str) -> Path:
    for name in ("A", "B"):
        (folder / f"{name.lower()}.yaml").write_text(SHEET.format(n=name), "utf-8")
    path = folder / "t.battle.yaml"
    path.write_text(f"title: t\nruleset: {ruleset}\nteams: {{white: [a.yaml], black: [b.yaml]}}\n{terrain}", "utf-8")
    return path


def narrowed(folder: Path) -> Any:
    path = folder / "narrowed.ruleset.yaml"
    path.write_text(NARROWED, "utf-8")
    rs, diags = load_ruleset_file(path)
    assert rs is not None and not [d for d in diags if d.is_error], diags
    return rs


@pytest.mark.parametrize("terrain", ["terrain:\n  blocked: [d5]\n",
                                     "terrain:\n  barriers: [c4]\n  objects: [{square: a4, strength: 3}]\n"])
def test_r_soul_file_2_narrowing_rejects_the_whole_terrain_block(tmp_path: Path, terrain: str) -> None:
    """R-SOUL-FILE-2: "a ruleset that extends it and turns narrowing back on
    rejects `terrain` (R-NARROW-2 knows no terrain)": one error at the key,
    blocked areas included, with this exact place, message and hint."""
    narrowed(tmp_path)
    path = write_battle(tmp_path, "narrowed.ruleset.yaml", terrain)
    battle, diags = load_battle(path)
    assert battle is None
    assert [(d.code, Path(d.file).name, d.line, d.column, d.message, d.hint) for d in diags] == [
        ("clause-not-in-ruleset", "t.battle.yaml", 4, 1,
         "the battle file's `terrain: {blocked: [...]}` is not part of ruleset 'soul-narrowed'",
         "narrowing (R-NARROW-2) knows no terrain")]


def test_r_soul_file_2_soulwired_and_orm_keep_their_terrain(tmp_path: Path) -> None:
    """The same block loads under soulwired; orm takes ``blocked`` alone and
    names R-ORM-CHECK-1 for the rest; tcgt names the providers."""
    whole = "terrain:\n  blocked: [d5]\n  barriers: [c4]\n"
    battle, diags = load_battle(write_battle(tmp_path, "soulwired", whole))
    assert battle is not None and battle.terrain is not None and not diags
    _, diags = load_battle(write_battle(tmp_path, "orm", whole))
    assert [(d.code, d.line, d.message) for d in diags] == [
        ("unknown-field", 6, "terrain: no field 'barriers' under ruleset 'orm'; it takes blocked (R-ORM-CHECK-1)")]
    _, diags = load_battle(write_battle(tmp_path, "tcgt", whole))
    assert [(d.code, d.line, d.hint) for d in diags] == [
        ("clause-not-in-ruleset", 4, "providers: hit: percentile")]


def soul_report_inputs() -> dict[str, Any]:
    report = json.loads((ROOT / "fixtures" / "soulwired-6v6.json.golden").read_text("utf-8"))
    inputs: dict[str, Any] = report["inputs"]
    return inputs


def test_replay_refuses_terrain_the_ruleset_does_not_take(tmp_path: Path) -> None:
    """``replay`` asks the loader's question of a report's inputs: the
    soulwired fixture's terrain passes under soulwired, and is refused under
    soulwired with narrowing, as the battle file would have been."""
    inputs = soul_report_inputs()
    assert check_report_inputs(inputs, load_ruleset("soulwired"), "r.json") == []
    bad = [(d.code, d.message) for d in check_report_inputs(inputs, narrowed(tmp_path), "r.json")
           if "terrain" in d.message]
    assert bad == [("bad-input", "inputs.terrain: ruleset 'soul-narrowed' takes no terrain")]
    inputs["terrain"]["barriers"] = ["c4"]
    assert [(d.code, d.message) for d in check_report_inputs(inputs, load_ruleset("orm"), "r.json")
            if "terrain" in d.message] == [("bad-input", "inputs.terrain: is not {blocked} on this map")]
