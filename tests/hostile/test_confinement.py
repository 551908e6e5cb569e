"""Issue 17, "Security and confinement" (points 1-3): nothing is read or
written outside the round through a symlink or a name in a file."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from referee.app.batch import run_batch
from referee.battlefile import load_battle
from referee.cli import main
from referee.diagnostics import ReferError

from .hostilehelpers import make_round, run_limited, write

SECRET = "title: the secret of someone else\nseed: 1\nteams: {white: [x.yaml], black: [y.yaml]}\n"


def test_point_1_a_reports_symlink_out_of_the_round_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    """A ``reports`` folder that is a symlink to elsewhere: batch refuses it
    (path-outside) and writes nothing there."""
    round_dir = tmp_path / "round"
    make_round(round_dir)
    victim = tmp_path / "victim"
    victim.mkdir()
    write(victim, "standings.md", "precious\n")
    os.symlink(victim, round_dir / "reports")
    with pytest.raises(ReferError) as caught:
        run_batch(round_dir, round_dir / "reports", default_outdir=True, progress=io.StringIO())
    assert [d.code for d in caught.value.diagnostics] == ["path-outside"]
    assert sorted(p.name for p in victim.iterdir()) == ["standings.md"]
    assert (victim / "standings.md").read_text() == "precious\n"


def test_point_1_a_symlinked_subfolder_inside_the_output_does_not_lead_a_report_out(tmp_path: Path) -> None:
    round_dir = tmp_path / "round"
    make_round(round_dir)
    write(round_dir, "sub/b.battle.yaml", "title: t\nseed: 1\nteams: {white: [../sheets/kagura.yaml], black: [../sheets/ash.yaml]}\n")
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.mkdir()
    os.symlink(victim, out / "sub")
    outcomes = run_batch(round_dir, out, progress=io.StringIO())
    assert list(victim.iterdir()) == []
    assert {o.battle: o.status for o in outcomes}["a.battle.yaml"] == "ok"


def test_point_2_a_battle_file_symlinked_out_of_the_round_is_not_read(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    round_dir = tmp_path / "round"
    make_round(round_dir)
    secret = write(tmp_path, "elsewhere/secret.battle.yaml", SECRET)
    os.symlink(secret, round_dir / "z.battle.yaml")
    battle, diags = load_battle(round_dir / "z.battle.yaml")
    assert battle is None and [(d.code, d.line) for d in diags] == [("path-outside", 0)]
    outcomes = run_batch(round_dir, tmp_path / "out", progress=io.StringIO())
    assert [(o.battle, o.status) for o in outcomes] == [("a.battle.yaml", "ok"), ("z.battle.yaml", "invalid")]
    standings = (tmp_path / "out" / "standings.md").read_text("utf-8")
    assert "secret" not in standings.replace("secret.battle", "") and "path-outside" in standings
    assert main(["check", str(round_dir / "z.battle.yaml")]) == 1
    assert "the secret of someone else" not in capsys.readouterr().err


def test_point_3_replay_reads_no_ruleset_outside_the_reports_folder(tmp_path: Path) -> None:
    """An old-style report naming ``inputs.ruleset: /dev/zero`` (or a path
    out of its folder): refused without reading, in a child process limited
    in memory."""
    battle = make_round(tmp_path)
    report = tmp_path / "r.json"
    assert main(["resolve", str(battle), "--format", "json", "-o", str(report)]) == 0
    data = json.loads(report.read_text("utf-8"))
    for target, code in (("/dev/zero", "path-outside"), ("../../etc/passwd", "path-outside")):
        data["inputs"]["ruleset"] = target
        report.write_text(json.dumps(data), "utf-8")
        run = run_limited(["replay", str(report)], tmp_path)
        assert run.code == 1 and f"error[{code}]" in run.err and "Traceback" not in run.err
        assert run.max_rss_mb < 200
    os.symlink("/dev/zero", tmp_path / "zero.ruleset.yaml")
    data["inputs"]["ruleset"] = "zero.ruleset.yaml"
    report.write_text(json.dumps(data), "utf-8")
    run = run_limited(["replay", str(report)], tmp_path)
    assert run.code == 1 and "error[path-outside]" in run.err


def test_point_3_a_fifo_or_device_is_never_opened_for_reading(tmp_path: Path) -> None:
    from referee.confine import UnsafePathError, read_untrusted

    os.mkfifo(tmp_path / "pipe")
    for path in (tmp_path / "pipe", Path("/dev/zero")):
        with pytest.raises(UnsafePathError) as caught:
            read_untrusted(path)
        assert caught.value.problem.code == "not-a-file"
