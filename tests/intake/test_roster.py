"""The roster: located diagnostics, tokens as salted hashes, and the
organiser's ``referee roster`` command."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main
from referee.intake.roster import hash_token, load_roster, token_matches


def write(folder: Path, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "roster.yaml").write_text(text, encoding="utf-8")
    return folder


def test_every_problem_at_once_at_its_line(tmp_path: Path) -> None:
    folder = write(tmp_path / "r", """round: Round 3
deadline: next friday
nmr: reuse-last
players:
  - id: kagura
    name: Kagura
    addresses: [k@players.test]
    sheets: [../kagura.yaml]
    token: my-secret-token
  - id: ash
    name: Ash
    addresses: [K@Players.test, not-an-address]
    sheets: [sheets/ash.plan]
  - id: kagura
    name: Again
    addresses: [x@players.test]
    sheets: [sheets/x.yaml]
""")
    roster, diags = load_roster(folder)
    assert roster is None
    found = {(d.line, d.code) for d in diags}
    assert found == {(2, "bad-deadline"), (3, "missing-field"), (8, "path-outside"), (9, "bad-token-hash"),
                     (12, "duplicate-address"), (12, "bad-address"), (13, "wrong-file-kind"), (14, "duplicate-id")}
    assert all(d.file.endswith("roster.yaml") and d.source_line for d in diags)


def test_a_token_is_stored_salted_and_checked() -> None:
    one, two = hash_token("tok"), hash_token("tok")
    assert one != two and "tok" not in one.split("$")[-1]
    assert token_matches(one, "tok") and token_matches(two, "tok")
    assert not token_matches(one, "tok ") and not token_matches(one, None) and not token_matches(None, "tok")
    assert not token_matches("scrypt$1073741824$8$1$" + "00" * 16 + "$" + "00" * 32, "tok")  # a cost out of bounds


def test_roster_add_and_token(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "round3"
    folder.mkdir()
    assert main(["roster", "add", str(folder), "kagura", "--name", "Kagura's player", "--address", "k@players.test",
                 "--sheet", "sheets/kagura.yaml", "--lang", "ja"]) == 0
    first = capsys.readouterr().out.split("token for kagura: ")[1].split()[0]
    text = (folder / "roster.yaml").read_text()
    assert first not in text and "# The roster of round3" in text
    (folder / "roster.yaml").write_text(text.replace("players:", "# my note\nplayers:"))
    assert main(["roster", "add", str(folder), "ash", "--name", "Ash", "--address", "a@players.test",
                 "--sheet", "sheets/ash.yaml", "--plan", "sheets/ash.plan"]) == 0
    capsys.readouterr()
    roster, diags = load_roster(folder)
    assert roster is not None and not diags and [p.id for p in roster.players] == ["kagura", "ash"]
    assert token_matches(roster.players[0].token_hash, first) and roster.players[0].lang == "ja"
    assert "# my note" in (folder / "roster.yaml").read_text()
    assert main(["roster", "token", str(folder), "kagura"]) == 0
    second = capsys.readouterr().out.split("token for kagura: ")[1].split()[0]
    kagura = load_roster(folder)[0].player("kagura")  # type: ignore[union-attr]
    assert token_matches(kagura.token_hash, second) and not token_matches(kagura.token_hash, first)
    # a duplicate is refused and the roster is left as it was
    before = (folder / "roster.yaml").read_text()
    assert main(["roster", "add", str(folder), "ash", "--name", "Ash", "--address", "b@players.test",
                 "--sheet", "sheets/b.yaml"]) == 1
    assert "duplicate-id" in capsys.readouterr().err and (folder / "roster.yaml").read_text() == before
    assert main(["roster", "check", str(folder)]) == 0
