"""The intake commands as an organiser types them: one message on stdin,
help with examples, located errors and exit codes."""

from __future__ import annotations

import io
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from referee.cli import main
from referee.intake.core import IncomingFile, Submission, check_submission, open_round

from .mailhelpers import SmtpCatcher, body_of, make_round, sheet, submission_mail, token_of


def test_one_message_on_stdin(tmp_path: Path, smtp: SmtpCatcher, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_round(tmp_path / "round")
    raw = submission_mail("kagura", {"kagura.yaml": sheet(folder, "kagura")})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["intake", str(folder), "--smtp", f"{smtp.host}:{smtp.port}"]) == 0
    out = capsys.readouterr().out
    assert "filed kagura: sheets/kagura.yaml (current)" in out and token_of("kagura") not in out
    assert "The round will use this version." in body_of(smtp.wait_for(1)[0])


def test_receipts_wait_for_a_run_with_smtp(tmp_path: Path, smtp: SmtpCatcher, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_round(tmp_path / "round")
    raw = submission_mail("ash", {"ash.yaml": sheet(folder, "ash")})
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["intake", str(folder)]) == 0
    assert "0 receipt(s) sent" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))  # the MTA delivers it again
    assert main(["intake", str(folder), "--smtp", f"{smtp.host}:{smtp.port}"]) == 0
    assert len(smtp.wait_for(1)) == 1 and "1 receipt(s) sent" in capsys.readouterr().out


def test_every_command_has_help_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("roster", "intake", "status", "remind", "lock"):
        with pytest.raises(SystemExit) as stop:
            main([command, "--help"])
        assert stop.value.code == 0
        assert "examples:" in capsys.readouterr().out, command


def test_errors_are_located_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["status", str(tmp_path)]) == 1
    assert "roster.yaml: error[no-roster]" in capsys.readouterr().err
    (tmp_path / "roster.yaml").write_text("players:\n  - id: Bad Id\n")
    assert main(["lock", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "roster.yaml:2:9: error" in err and "roster.yaml:2:5: error[missing-field]" in err
    assert main(["intake", str(tmp_path / "nowhere")]) == 1
    assert "not-a-folder" in capsys.readouterr().err


def test_check_before_submit_stores_nothing(tmp_path: Path) -> None:
    rnd = open_round(make_round(tmp_path / "round"))
    receipt = check_submission(rnd, Submission("web-1", datetime.now(timezone.utc), "web", token_of("kagura"),
                                               player="kagura",
                                               files=(IncomingFile("kagura.yaml", sheet(rnd.folder, "kagura")),)))
    assert receipt.files[0].state == "current" and receipt.to is None
    assert not (rnd.folder / "sheets" / "kagura.yaml").exists() and not rnd.inbox.ledger.exists()
    assert not any((rnd.inbox.folder / "objects").iterdir())
