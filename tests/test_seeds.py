"""Fair seeds: commit, batch with committed seeds, reveal, verify (issue 16, item 4)."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
import stat
from pathlib import Path

import pytest

from referee.app.batch import run_batch
from referee.app.replay import replay_report
from referee.app.seedcheck import verify_round
from referee.app.seeds import (
    COMMITMENT_FILE,
    REVEAL_FILE,
    battle_seed,
    commit_round,
    commitment_of,
    reveal_round,
)
from referee.cli import main
from referee.diagnostics import ReferError
from referee.report import render
from referee.report.record import report_from_json

ROUND = Path(__file__).resolve().parent.parent / "fixtures" / "round"


@pytest.fixture
def round_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture round, and a private secret store for the organiser."""
    monkeypatch.setenv("REFEREE_SECRETS_DIR", str(tmp_path / "organiser-secrets"))
    folder = tmp_path / "round"
    shutil.copytree(ROUND, folder)
    return folder


def secret_of(store: Path) -> bytes:
    (path,) = store.glob("*.secret")
    return bytes.fromhex(path.read_text().strip())


def test_battle_seed_is_hmac_sha256_of_the_name_read_as_a_number() -> None:
    secret = bytes(range(32))
    digest = hmac.new(secret, b"r1.battle.yaml", hashlib.sha256).digest()
    assert battle_seed(secret, "r1.battle.yaml") == int.from_bytes(digest[:4], "big")
    assert battle_seed(secret, "r1.battle.yaml") != battle_seed(secret, "r2.battle.yaml")
    assert battle_seed(secret, "r1.battle.yaml") != battle_seed(bytes(32), "r1.battle.yaml")


def test_commit_keeps_the_secret_outside_the_round_and_only_once(round_dir: Path, tmp_path: Path) -> None:
    sealed = commit_round(round_dir)
    store = tmp_path / "organiser-secrets"
    secret = secret_of(store)
    assert commitment_of(secret) == sealed.commitment
    assert stat.S_IMODE((store / f"{sealed.commitment}.secret").stat().st_mode) == 0o600
    assert json.loads((round_dir / COMMITMENT_FILE).read_text())["commitment"] == sealed.commitment
    assert secret.hex() not in "".join(p.read_text(errors="replace") for p in round_dir.rglob("*") if p.is_file())
    with pytest.raises(ReferError) as err:
        commit_round(round_dir)
    assert err.value.diagnostics[0].code == "already-committed"


def test_a_committed_round_resolves_each_battle_with_its_hmac_seed(round_dir: Path, tmp_path: Path) -> None:
    sealed = commit_round(round_dir)
    secret = secret_of(tmp_path / "organiser-secrets")
    out = tmp_path / "out"
    outcomes = run_batch(round_dir, out, jobs=1)
    resolved = [o for o in outcomes if o.ok]
    assert [o.battle for o in resolved] == ["r1.battle.yaml", "r2.battle.yaml"]
    for o in resolved:
        assert o.seed == battle_seed(secret, o.battle)
        data = json.loads((out / o.battle.replace(".battle.yaml", ".json")).read_text())
        assert data["seed"] == o.seed and data["seed_source"] == "committed"
        assert data["seed_commitment"]["commitment"] == sealed.commitment
        text = render(report_from_json(data), "text", "en")
        assert f"whose sha256, posted in advance, is {sealed.commitment}" in text
        assert "referee seeds verify" in render(report_from_json(data), "md", "ja")
    assert f"sha256 `{sealed.commitment}`" in (out / "standings.md").read_text()
    assert json.loads((out / "standings.json").read_text())["seed_commitment"] == sealed.commitment
    assert replay_report(out / "r1.json").identical


def test_a_committed_round_without_its_secret_does_not_fall_back(round_dir: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    commit_round(round_dir)
    monkeypatch.setenv("REFEREE_SECRETS_DIR", str(tmp_path / "someone-else"))
    with pytest.raises(ReferError) as err:
        run_batch(round_dir, tmp_path / "out", jobs=1)
    assert err.value.diagnostics[0].code == "secret-unavailable"


def published(round_dir: Path, tmp_path: Path) -> Path:
    commit_round(round_dir)
    out = tmp_path / "out"
    run_batch(round_dir, out, jobs=1)
    reveal_round(round_dir)
    return out


def test_verify_accepts_an_honest_round(round_dir: Path, tmp_path: Path) -> None:
    out = published(round_dir, tmp_path)
    check = verify_round(round_dir, out)
    assert check.ok and check.diagnostics == () and check.checked == 4  # 2 reports + 2 standings rows


def test_verify_rejects_a_tampered_seed_in_a_report(round_dir: Path, tmp_path: Path) -> None:
    out = published(round_dir, tmp_path)
    report = out / "r2.json"
    data = json.loads(report.read_text())
    data["seed"] += 1
    report.write_text(json.dumps(data))
    check = verify_round(round_dir, out)
    assert not check.ok
    assert [(d.code, Path(d.file).name) for d in check.diagnostics] == [("seed-mismatch", "r2.json")]


def test_verify_rejects_a_tampered_seed_in_the_standings(round_dir: Path, tmp_path: Path) -> None:
    out = published(round_dir, tmp_path)
    standings = out / "standings.json"
    data = json.loads(standings.read_text())
    data["battles"][0]["seed"] = 7
    standings.write_text(json.dumps(data))
    codes = [(d.code, d.message.split(":")[0]) for d in verify_round(round_dir, out).diagnostics]
    assert codes == [("seed-mismatch", "r1.battle.yaml")]


def test_verify_rejects_a_secret_that_is_not_the_committed_one(round_dir: Path, tmp_path: Path) -> None:
    out = published(round_dir, tmp_path)
    reveal = round_dir / REVEAL_FILE
    data = json.loads(reveal.read_text())
    data["secret"] = "00" * 32
    reveal.write_text(json.dumps(data))
    with pytest.raises(ReferError) as err:
        verify_round(round_dir, out)
    assert err.value.diagnostics[0].code == "commitment-mismatch"


def test_verify_before_the_reveal_says_so(round_dir: Path, tmp_path: Path) -> None:
    commit_round(round_dir)
    with pytest.raises(ReferError) as err:
        verify_round(round_dir, tmp_path)
    assert err.value.diagnostics[0].code == "not-revealed"


def test_cli_commit_batch_reveal_verify(round_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["seeds", "commit", str(round_dir)]) == 0
    assert "commitment (post this before the deadline): sha256 " in capsys.readouterr().out
    out = tmp_path / "out"
    main(["batch", str(round_dir), "-o", str(out), "--jobs", "2"])
    assert main(["seeds", "verify", str(round_dir), "--reports", str(out)]) == 1  # not revealed yet
    assert "error[not-revealed]" in capsys.readouterr().err
    assert main(["seeds", "reveal", str(round_dir)]) == 0
    assert main(["seeds", "verify", str(round_dir), "--reports", str(out)]) == 0
    assert "verified: the secret matches commitment" in capsys.readouterr().out
    (out / "r1.json").write_text((out / "r1.json").read_text().replace('"seed": ', '"seed": 1', 1))
    assert main(["seeds", "verify", str(round_dir), "--reports", str(out)]) == 1
    assert "error[seed-mismatch]" in capsys.readouterr().err


def test_verify_replay_catches_an_edited_result(round_dir: Path, tmp_path: Path) -> None:
    out = published(round_dir, tmp_path)
    assert verify_round(round_dir, out, replay=True).ok
    report = out / "r1.json"
    data = json.loads(report.read_text())
    data["result"]["winner"] = "white" if data["result"]["winner"] == "black" else "black"
    report.write_text(json.dumps(data))
    assert verify_round(round_dir, out).ok  # the seed is still the committed one
    codes = [d.code for d in verify_round(round_dir, out, replay=True).diagnostics]
    assert codes == ["replay-differs"]
