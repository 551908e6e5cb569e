"""Batch internals: progress display, atomic writes, standings tables."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from referee.app import batch as batch_module
from referee.app.batch import BattleOutcome, _Progress, find_battles, standings_json, standings_markdown
from referee.app.pipeline import parse_seed, write_atomic
from referee.app.workers import fork_context
from reporthelpers import FIXTURES


class TtyStream(io.StringIO):
    def isatty(self) -> bool:
        return True


OK = BattleOutcome(battle="a.battle.yaml", status="ok", title="A | B", seed=3, winner="white",
                   reason="army_reduced", turns=7, standing="2-0", reports=("a.json",))
BAD = BattleOutcome(battle="b.battle.yaml", status="invalid", error="b.battle.yaml:3:5: error[x]: broken")


def test_progress_bar_on_a_terminal_and_lines_otherwise() -> None:
    tty = TtyStream()
    bar = _Progress(2, tty)
    bar.update(OK)
    bar.update(BAD)
    text = tty.getvalue()
    assert text.startswith("\r[###############...............] 1/2")
    assert text.endswith("] 2/2  failed 1\n") and text.count("\n") == 1
    plain = io.StringIO()
    bar = _Progress(2, plain)
    bar.update(OK)
    bar.update(BAD)
    assert plain.getvalue().splitlines() == [
        "[1/2] a.battle.yaml: white (army_reduced, turn 7)", "[2/2] b.battle.yaml: FAILED (invalid)"]


def test_standings_list_failures_with_their_errors() -> None:
    md = standings_markdown([OK, BAD], "3")
    assert "1 of 2 battles resolved; White won 1, Black won 0, 0 drawn; 1 failed." in md
    assert "| a.battle.yaml | A \\| B | White | army reduced (R-GOAL-1) | 7 | 2-0 | 3 |" in md
    assert "### b.battle.yaml" in md and "error[x]: broken" in md
    import json

    data = json.loads(standings_json([OK, BAD]))
    assert data["summary"] == {"battles": 2, "resolved": 1, "failed": 1, "white_wins": 1, "black_wins": 0, "draws": 0}
    assert data["battles"][1]["error"].startswith("b.battle.yaml:3:5")


def test_standings_in_japanese_with_warnings_per_battle() -> None:
    warned = BattleOutcome(battle="c.battle.yaml", status="ok", title="C", seed=1, winner="draw",
                           reason="turn_limit", turns=60, standing="1-1",
                           warnings="sheets/x.yaml:9:3: warning[skill-not-on-sheet]: Rest is not on this sheet")
    md = standings_markdown([OK, BAD, warned], "3", "ja")
    assert md.startswith("# 結果：3\n")
    assert "| a.battle.yaml | A \\| B | 白軍 | 軍の減少（R-GOAL-1） | 7 | 2-0 | 3 |" in md
    assert "| c.battle.yaml | C | 引き分け | ターン上限（R-TURN-9） | 60 | 1-1 | 1 |" in md
    assert "| b.battle.yaml | | **失敗** | 入力の誤り | | | |" in md
    assert "## 警告" in md and "### c.battle.yaml" in md and "warning[skill-not-on-sheet]" in md
    assert "army_reduced" not in md and "turn_limit" not in md
    english = standings_markdown([warned], "3")
    assert "## Warnings" in english and "| Draw | turn limit (R-TURN-9) |" in english


def test_find_battles_is_sorted_and_recursive() -> None:
    found = [p.relative_to(FIXTURES).as_posix() for p in find_battles(FIXTURES)]
    assert found == sorted(found) and "round/r3-broken.battle.yaml" in found and "duel.battle.yaml" in found


def test_write_atomic_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "r.txt"
    write_atomic(target, "one\n")
    write_atomic(target, "two\n")
    assert target.read_text("utf-8") == "two\n"
    assert os.listdir(target.parent) == ["r.txt"]
    assert target.stat().st_mode & 0o777 == 0o644


def test_write_atomic_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "r.txt"
    write_atomic(target, "old\n")

    with pytest.raises(TypeError):
        write_atomic(target, 42)  # type: ignore[arg-type]
    assert target.read_text("utf-8") == "old\n" and os.listdir(tmp_path) == ["r.txt"]


def test_seed_option_parsing() -> None:
    assert parse_seed("007") == 7 and parse_seed("round-3") == "round-3"
    with pytest.raises(ValueError):
        parse_seed("  ")


def _dies_on_r2(path: str, rel: str, *rest: Any) -> BattleOutcome:
    """A worker whose process dies (as if killed) on the battle r2."""
    if rel.startswith("r2"):
        os._exit(3)
    return _REAL_RESOLVE_ONE(path, rel, *rest)


_REAL_RESOLVE_ONE = batch_module.resolve_one


@pytest.mark.skipif(fork_context() is None, reason="needs the fork start method (Linux)")
def test_a_worker_process_that_dies_loses_only_its_own_battle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'A battle that crashes is listed with its error and the rest still
    finish' -- even when the crash kills the worker process, which breaks the
    whole process pool: the unfinished battles are run again one pool each."""
    import shutil

    round_dir = tmp_path / "round"
    shutil.copytree(FIXTURES / "round", round_dir)
    monkeypatch.setattr(batch_module, "resolve_one", _dies_on_r2)  # forked workers inherit it
    outcomes = batch_module.run_batch(round_dir, tmp_path / "out", jobs=2, progress=io.StringIO())
    assert [(o.battle, o.status) for o in outcomes] == [
        ("r1.battle.yaml", "ok"), ("r2.battle.yaml", "crashed"), ("r3-broken.battle.yaml", "invalid")]
    assert "worker process resolving it died" in (outcomes[1].error or "")
    assert (tmp_path / "out" / "r1.json").exists() and not (tmp_path / "out" / "r2.json").exists()
    assert "referee error" in (tmp_path / "out" / "standings.md").read_text("utf-8")


def test_a_rounds_json_is_lean_unless_decisions_are_asked_for(tmp_path: Path) -> None:
    """Issue 18, item 3: a round's json reports leave out the decision events
    (``"decisions": false``) and ``replay`` confirms them; ``--decisions``
    keeps them, as ``resolve --format json`` does; the text is the same."""
    import json

    from referee.app.replay import replay_report
    from referee.engine.events import DECISION_TYPES

    lean_out, full_out = tmp_path / "lean", tmp_path / "full"
    batch_module.run_batch(FIXTURES / "round", lean_out, formats=("json", "text"), progress=io.StringIO())
    batch_module.run_batch(FIXTURES / "round", full_out, formats=("json", "text"), decisions=True,
                           progress=io.StringIO())
    lean = json.loads((lean_out / "r1.json").read_text("utf-8"))
    full = json.loads((full_out / "r1.json").read_text("utf-8"))
    assert lean["decisions"] is False and "decisions" not in full
    assert not any(e["type"] in DECISION_TYPES and not e.get("switched") for e in lean["events"])
    assert any(e["type"] in DECISION_TYPES for e in full["events"])
    assert len(lean["events"]) < len(full["events"]) and lean["result"] == full["result"]
    assert (lean_out / "r1.txt").read_bytes() == (full_out / "r1.txt").read_bytes()
    for out in (lean_out, full_out):
        outcome = replay_report(out / "r1.json")
        assert outcome.identical, outcome.message
