"""The commands: resolve, replay, demo, batch -- exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reporthelpers import FIXTURES


from referee.cli import build_parser, main


def test_every_command_has_help_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("resolve", "batch", "replay", "demo"):
        with pytest.raises(SystemExit) as exit_info:
            main([command, "--help"])
        assert exit_info.value.code == 0
        out = capsys.readouterr().out
        assert "example" in out and f"referee {command}" in out, command


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["resolve", "x.battle.yaml", "--format", "pdf"])
    assert exit_info.value.code == 2


def test_resolve_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "duel.md"
    assert main(["resolve", str(FIXTURES / "duel.battle.yaml"), "--format", "md", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("# Duel: Dana vs Eiji")
    assert [p.name for p in tmp_path.iterdir()] == ["duel.md"]   # no temp file left


def test_resolve_seed_option_overrides_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(FIXTURES / "duel.battle.yaml"), "--seed", "99", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 99 and data["seed_source"] == "option"


def test_resolve_without_any_seed_draws_and_records_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = tmp_path / "b.battle.yaml"
    sheets = FIXTURES / "sheets"
    (tmp_path / "sheets").mkdir()
    for name in ("dana", "eiji"):
        (tmp_path / "sheets" / f"{name}.yaml").write_text((sheets / f"{name}.yaml").read_text("utf-8"), "utf-8")
    battle.write_text("title: t\nteams:\n  white: [sheets/dana.yaml]\n  black: [sheets/eiji.yaml]\n", "utf-8")
    assert main(["resolve", str(battle), "--format", "json", "-o", str(tmp_path / "r.json")]) == 0
    captured = capsys.readouterr()
    data = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert data["seed_source"] == "drawn" and isinstance(data["seed"], int)
    assert f"drew seed {data['seed']}" in captured.err
    assert main(["replay", str(tmp_path / "r.json")]) == 0


def test_invalid_battle_exits_1_with_every_diagnostic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(FIXTURES / "round" / "r3-broken.battle.yaml")]) == 1
    err = capsys.readouterr().err
    assert "error[path-outside]" in err and "r3-broken.battle.yaml:6:" in err
    assert "Traceback" not in err


def test_replay_confirms_and_names_the_first_difference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "duel.json"
    assert main(["resolve", str(FIXTURES / "duel.battle.yaml"), "--format", "json", "-o", str(report)]) == 0
    assert main(["replay", str(report)]) == 0
    assert capsys.readouterr().out.startswith("identical: ")
    data = json.loads(report.read_text("utf-8"))
    index = next(i for i, e in enumerate(data["events"]) if e["type"] == "damage")
    data["events"][index]["amount"] += 1
    report.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    assert main(["replay", str(report)]) == 1
    err = capsys.readouterr().err
    event = data["events"][index]
    who = event.get("actor") or event["target"]
    assert f"differs at event {index + 1} (turn {event['turn']}, {who}): expected damage" in err
    assert f"amount {event['amount']}, " in err and f"got damage" in err and f"amount {event['amount'] - 1}, " in err


def test_replay_of_a_custom_ruleset_needs_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A battle under a ruleset file: the report carries the ruleset (fields
    and skill catalogue), so it replays from another folder, after the round's
    files are gone; an edited embedded ruleset is caught by its digest."""
    folder = tmp_path / "round"
    (folder / "sheets").mkdir(parents=True)
    for name in ("dana", "eiji"):
        (folder / "sheets" / f"{name}.yaml").write_text((FIXTURES / "sheets" / f"{name}.yaml").read_text("utf-8"), "utf-8")
    (folder / "house.ruleset.yaml").write_text("extends: tcgt\nname: house\nturn_limit: 60\n", "utf-8")
    (folder / "b.battle.yaml").write_text("title: house rules\nruleset: house.ruleset.yaml\nseed: 3\n"
                                          "teams:\n  white: [sheets/dana.yaml]\n  black: [sheets/eiji.yaml]\n", "utf-8")
    assert main(["batch", str(folder), "-o", str(tmp_path / "reports"), "--jobs", "1"]) == 0
    report = tmp_path / "reports" / "b.json"
    data = json.loads(report.read_text("utf-8"))
    assert data["inputs"]["ruleset_embedded"]["fields"]["turn_limit"] == 60
    for path in sorted(folder.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    capsys.readouterr()
    assert main(["replay", str(report)]) == 0
    assert capsys.readouterr().out.startswith("identical: ")
    data["inputs"]["ruleset_embedded"]["fields"]["turn_limit"] = 99
    report.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    assert main(["replay", str(report)]) == 1
    assert "error[ruleset-changed]" in capsys.readouterr().err
    # built-in rulesets are known by name and not embedded
    builtin = tmp_path / "duel.json"
    assert main(["resolve", str(FIXTURES / "duel.battle.yaml"), "--format", "json", "-o", str(builtin)]) == 0
    assert "ruleset_embedded" not in json.loads(builtin.read_text("utf-8"))["inputs"]


def test_replay_of_a_file_that_is_not_a_report_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("{not json", "utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "error[not-json]" in capsys.readouterr().err
    bad.write_text("{}", "utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "error[not-a-report]" in capsys.readouterr().err


def test_demo_prints_a_full_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Demo: Kagura's company vs Ash's raiders")
    assert "Summary" in out and "Turn 1 · " in out and "Result" in out and "Shared squares:" in out
    assert main(["demo", "--full"]) == 0
    full = capsys.readouterr().out
    assert "\nTurn 1\n------\n" in full and len(full.splitlines()) > 2 * len(out.splitlines())


def test_demo_summary_fits_in_forty_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 15: the story first -- title, result, highlights, final table and
    end board before the armies, in at most 40 lines, so it can be posted alone."""
    assert main(["demo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    summary = "\n".join(lines[: lines.index("Armies")]).rstrip().splitlines()
    assert len(summary) <= 40, len(summary)
    text = "\n".join(summary)
    assert "White wins" in text and "(R-GOAL-1)" in text
    assert "KO · turn 18: Tomoe's Sala Twin Trees (沙羅双樹) fells Ash on b7" in text
    assert "Big hit" in text and "Narrowing · after turn 30" in text and "Turning point" in text
    assert "b7  W2 Tomoe, B2 Bryn, B1 Ash (down), B3 Cole (down)" in text


@pytest.mark.parametrize("fmt", ["bbcode", "discord"])
def test_demo_in_the_forum_formats(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    for lang in ("en", "ja"):
        assert main(["demo", "--format", fmt, "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert ("[spoiler=" in out) if fmt == "bbcode" else ("✂ ────────" in out)


def test_demo_html_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "demo.html"
    assert main(["demo", "--format", "html", "-o", str(out)]) == 0
    assert out.read_text("utf-8").startswith("<!DOCTYPE html>")


def test_batch_finishes_the_round_and_reports_the_broken_battle(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["batch", str(FIXTURES / "round"), "--jobs", "2", "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert "[3/3]" in captured.err                      # plain progress lines when not a tty
    assert "r3-broken.battle.yaml: invalid" in captured.err
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert names == ["r1.json", "r1.txt", "r2.json", "r2.txt", "standings.json", "standings.md"]
    standings = json.loads((out / "standings.json").read_text("utf-8"))
    assert standings["summary"]["resolved"] == 2 and standings["summary"]["failed"] == 1
    broken = next(b for b in standings["battles"] if b["battle"] == "r3-broken.battle.yaml")
    assert broken["status"] == "invalid" and "path-outside" in broken["error"]
    md = (out / "standings.md").read_text("utf-8")
    assert "| r3-broken.battle.yaml | | **failed** | invalid input |" in md
    assert main(["replay", str(out / "r1.json")]) == 0


def test_batch_survives_a_crashing_battle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from referee.app import batch

    def boom(path, seed=None, **options):  # type: ignore[no-untyped-def]
        if "r2" in str(path):
            raise RuntimeError("engine bug")
        return real(path, seed, **options)

    real = batch.resolve_file_checked
    monkeypatch.setattr(batch, "resolve_file_checked", boom)
    outcomes = batch.run_batch(FIXTURES / "round", tmp_path, jobs=1, formats=("json",))
    status = {o.battle: o.status for o in outcomes}
    assert status == {"r1.battle.yaml": "ok", "r2.battle.yaml": "crashed", "r3-broken.battle.yaml": "invalid"}
    assert "engine bug" in next(o.error for o in outcomes if o.status == "crashed")


def test_parser_lists_all_commands() -> None:
    text = build_parser().format_help()
    for command in ("resolve", "batch", "replay", "demo"):
        assert command in text


def test_demo_names_the_bundled_demos_when_asked_for_a_ruleset_without_one(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main as cli_main
    from referee.commands.demo import bundled_demos

    assert "tcgt" in bundled_demos()
    assert cli_main(["demo", "--ruleset", "no-such-ruleset"]) == 2
    err = capsys.readouterr().err
    assert "no bundled demo for ruleset 'no-such-ruleset'" in err and "tcgt" in err
