"""Issue 17, point 18: messages that say what is wrong, where."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from referee.app.batch import run_batch
from referee.battlefile import load_battle
from referee.cli import main
from referee.diagnostics import ReferError
from referee.ruleset import load_ruleset
from referee.sheet import load_sheet

from .hostilehelpers import BATTLE, SHEET, make_round, write


def codes(diags: list) -> list[tuple[str, int]]:  # type: ignore[type-arg]
    return [(d.code, d.line) for d in diags if d.is_error]


def test_point_18_a_whole_number_written_as_5_0_is_an_error_where_it_is(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    sheet = write(tmp_path, "sheets/kagura.yaml", SHEET.format(name="Kagura").replace("body: 3", "body: 3.0"))
    _, diags = load_sheet(sheet, load_ruleset())
    assert codes(diags) == [("wrong-type", 2)]
    battle = make_round(tmp_path, BATTLE + "setup: {Ash: {hp: 3.0}}\n", names=("Ash",))
    assert main(["resolve", str(battle)]) == 1
    err = capsys.readouterr().err
    assert "kagura.yaml:2:" in err and "a.battle.yaml:6:" in err and err.count("error[wrong-type]") == 2


def test_point_18_a_blank_name(tmp_path: Path) -> None:
    sheet = write(tmp_path, "s.yaml", SHEET.format(name='"  "'))
    _, diags = load_sheet(sheet, load_ruleset())
    assert codes(diags) == [("bad-name", 1)]


def test_point_18_errors_about_the_whole_file_still_have_a_line(tmp_path: Path) -> None:
    write(tmp_path, "latin.yaml", "name: Kagura\nabilities: {body: 3}\n# caf\xe9\n".encode("latin-1"))
    write(tmp_path, "empty.yaml", "")
    write(tmp_path, "deep.yaml", "a:\n" + "".join("  " * i + "- \n" for i in range(1, 40)))
    ruleset = load_ruleset()
    assert [(d.code, d.line, d.column) for d in load_sheet(tmp_path / "latin.yaml", ruleset)[1]] == [("encoding", 3, 6)]
    assert codes(load_sheet(tmp_path / "empty.yaml", ruleset)[1]) == [("wrong-type", 1)]
    assert [d.code for d in load_sheet(tmp_path / "deep.yaml", ruleset)[1]] == ["yaml-too-complex"]
    assert all(d.line > 1 for d in load_sheet(tmp_path / "deep.yaml", ruleset)[1])


def test_point_18_a_fifo_is_not_missing_and_a_symlink_loop_does_not_leave_the_folder(tmp_path: Path) -> None:
    make_round(tmp_path)
    os.mkfifo(tmp_path / "sheets" / "fifo.yaml")
    os.symlink("loop.yaml", tmp_path / "sheets" / "loop.yaml")
    battle = write(tmp_path, "b.battle.yaml", BATTLE.replace("sheets/kagura.yaml", "sheets/fifo.yaml, sheets/loop.yaml"))
    _, diags = load_battle(battle)
    assert [(d.code, d.line, d.column) for d in diags] == [("not-a-file", 4, 11), ("symlink-loop", 4, 29)]
    assert "FIFO" in diags[0].message


def test_point_18_an_output_below_a_file_is_refused_before_any_battle(tmp_path: Path) -> None:
    battle = make_round(tmp_path)
    with pytest.raises(ReferError) as caught:
        run_batch(tmp_path, battle / "reports", progress=io.StringIO())
    assert [d.code for d in caught.value.diagnostics] == ["output-below-file"]
    assert not any(p.name.endswith(".json") for p in tmp_path.iterdir())


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_point_18_an_unwritable_output_is_one_error_not_a_crash_per_battle(tmp_path: Path) -> None:
    make_round(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(ReferError) as caught:
            run_batch(tmp_path, locked / "out", progress=io.StringIO())
        assert [d.code for d in caught.value.diagnostics] == ["output-unwritable"]
    finally:
        locked.chmod(0o755)
