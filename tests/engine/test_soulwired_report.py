"""soulwired's events in the reports (issue 12 item 3): each pool as rolled
(dice, difficulty, successes), evasion dice committed and left, hard-mode
changes; every written format, English and Japanese, and ``--explain``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.app.pipeline import resolve_file
from referee.report import render
from tests.engine.soulhelpers import SOUL_MECHANICS


def _battle(folder: Path) -> Path:
    mech = "".join(f"  {slot}: {spec}\n" for slot, spec in sorted(SOUL_MECHANICS.items()))
    (folder / "soulhouse.yaml").write_text(f"extends: tcgt\nname: soulhouse\nturn_limit: 6\nmechanics:\n{mech}",
                                           "utf-8")
    (folder / "Walker.yaml").write_text("name: Walker\nabilities: {body: 3, reflex: 3, intellect: 3}\n"
                                        "patterns: [剣剣剣]\nskills: [slash]\n", "utf-8")
    (folder / "Post.yaml").write_text("name: Post\nabilities: {body: 3, reflex: 3, intellect: 3}\n"
                                      "patterns: [水水水]\nskills: [rest]\n", "utf-8")
    (folder / "b.battle.yaml").write_text(
        "title: stall\nruleset: soulhouse.yaml\nseed: 7\nteams: {white: [Walker.yaml], black: [Post.yaml]}\n"
        "setup: {Walker: {square: d4}, Post: {square: d4}}\norder: [Walker, Post]\n", "utf-8")
    return folder / "b.battle.yaml"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return resolve_file(_battle(tmp_path_factory.mktemp("soulreport")))


def test_text_report_says_each_roll_as_a_gm_would(report) -> None:  # type: ignore[no-untyped-def]
    events = json.loads(render(report, "json"))["events"]
    check = next(e for e in events if e["type"] == "d6_check")
    faces = " ".join(str(f) for f in check["dice"])
    text = render(report, "text", "en", full=True)
    outcome = "success" if check["success"] else "failure"
    assert f"Walker: Slash (斬撃), body 3d6 ≥ 4: {faces}, {outcome}" in text
    evasion = next(e for e in events if e["type"] == "evasion")
    assert f"Post evades with {evasion['committed']}d6 ≥ {evasion['difficulty']}" in text
    assert f"{evasion['dice_left']} left" in text


@pytest.mark.parametrize("fmt", ["text", "md", "html", "bbcode", "discord"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_format_and_language_renders_the_soulwired_events(report, fmt: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    out = render(report, fmt, lang, full=True)
    assert ("3d6 ≥ 4" in out) and (("body" in out) if lang == "en" else ("体" in out))


def test_explain_gives_the_evasion_choice(report) -> None:  # type: ignore[no-untyped-def]
    events = json.loads(render(report, "json"))["events"]
    assert any(e["type"] == "evasion" for e in events)  # seed 7 makes several
    assert "R-SOUL-HIT-4" in render(report, "text", "en", explain=True)
    assert "R-SOUL-HIT-4" in render(report, "text", "ja", explain=True)


def test_json_round_trips_the_new_events(report) -> None:  # type: ignore[no-untyped-def]
    from referee.report.record import report_from_json, report_to_json

    data = report_to_json(report)
    assert report_to_json(report_from_json(json.loads(json.dumps(data)))) == data
    types = {e["type"] for e in data["events"]}
    assert {"d6_check", "evasion_dice"} <= types


def test_replay_confirms_a_soulwired_report(tmp_path: Path) -> None:
    """Issue 12 item 4: `replay` re-resolves the battle from the JSON report
    (the house ruleset beside it) and finds every event the same."""
    from referee.cli import main

    battle = _battle(tmp_path)
    out = tmp_path / "r.json"
    assert main(["resolve", str(battle), "--format", "json", "-o", str(out)]) == 0
    assert main(["replay", str(out)]) == 0
    text = out.read_text("utf-8")
    tampered = tmp_path / "t.json"
    assert '"committed": 2' in text
    tampered.write_text(text.replace('"committed": 2', '"committed": 1', 1), "utf-8")
    assert main(["replay", str(tampered)]) != 0


# --- issue 12: the whole ruleset's fixtures (stances, moves, terrain, objects) ---

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def terrain_report():  # type: ignore[no-untyped-def]
    return resolve_file(FIXTURES / "soulwired-6v6.battle.yaml")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_explain_gives_the_stance_choice_and_the_moves(terrain_report, lang: str) -> None:  # type: ignore[no-untyped-def]
    """``--explain`` covers stance and evasion choices (issue 12 item 3)."""
    text = render(terrain_report, "text", lang, explain=True)
    assert "R-SOUL-STANCE-3" in text and "R-SOUL-PLAN-1" in text and "R-SOUL-HIT-4" in text
    assert ("first move ends" in text) if lang == "en" else ("第一移動終了" in text)


@pytest.mark.parametrize("fmt", ["text", "md", "html", "bbcode", "discord"])
def test_every_board_draws_the_terrain(terrain_report, fmt: str) -> None:  # type: ignore[no-untyped-def]
    """R-SOUL-TERR-1 / issue 12 item 1: terrain "drawn on every board"."""
    out = render(terrain_report, fmt, "en", full=True)
    assert "O = object" in out and "~ = barrier" in out


def test_objects_and_armour_are_reported(terrain_report) -> None:  # type: ignore[no-untyped-def]
    events = json.loads(render(terrain_report, "json"))["events"]
    hit = next(e for e in events if e["type"] == "object_hit")
    text = render(terrain_report, "text", "en", full=True)
    assert f"hits the object on {hit['square']}" in text and "is destroyed and removed" in text
    assert "armour takes 1 off" in text
    assert "Hard mode 1" in text
