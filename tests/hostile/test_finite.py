"""Issue 17, "A round that always finishes" (points 4-11): every hostile
file is refused, or resolved, in bounded time and memory.  The memory-hungry
cases run the real command line in a child process under an address-space
limit (``run_limited``), so a regression fails instead of swapping."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path
from typing import Any

from referee.app.batch import run_batch
from referee.battlefile import load_battle
from referee.cli import main
from referee.limits import MAX_INPUT_BYTES, MAX_PLAN_LINES, MAX_TURN_LIMIT
from referee.plan import parse_plan
from referee.ruleset import load_ruleset_file
from referee.sheet import load_sheet
from referee.ruleset import load_ruleset

from .hostilehelpers import BATTLE, SHEET, make_round, run_limited, write

ENDLESS = "extends: tcgt\nturn_limit: 1000000000\nmechanics: {stall: {kind: none}}\nhp_per_body: 1000000\nname: endless\n"


def test_point_4_a_house_ruleset_cannot_set_an_endless_turn_cap(tmp_path: Path) -> None:
    path = write(tmp_path, "endless.ruleset.yaml", ENDLESS)
    ruleset, diags = load_ruleset_file(path)
    assert ruleset is None
    assert [(d.code, d.line) for d in diags] == [("turn-limit-too-high", 2)]
    battle = make_round(tmp_path, BATTLE + "ruleset: endless.ruleset.yaml\n")
    run = run_limited(["check", str(battle)], tmp_path)
    assert run.code == 1 and "error[turn-limit-too-high]" in run.err


def test_point_4_the_ceiling_itself_finishes_in_bounded_time(tmp_path: Path) -> None:
    """At the ceiling, with HP nobody can take away, a battle still ends (by
    the turn cap) within the time a batch allows."""
    write(tmp_path, "long.ruleset.yaml", ENDLESS.replace("1000000000", str(MAX_TURN_LIMIT)).replace("1000000", "1000"))
    battle = make_round(tmp_path, BATTLE + "ruleset: long.ruleset.yaml\n")
    run = run_limited(["resolve", str(battle), "--format", "json", "-o", str(tmp_path / "r.json")], tmp_path)
    assert run.code == 0, run.err
    result = json.loads((tmp_path / "r.json").read_text("utf-8"))["result"]
    assert result["turns"] <= MAX_TURN_LIMIT and run.max_rss_mb < 200


def test_point_5_a_fifo_plan_is_refused_and_the_round_finishes(tmp_path: Path) -> None:
    make_round(tmp_path)
    os.mkfifo(tmp_path / "sheets" / "fifo.plan")
    write(tmp_path, "sheets/bryn.yaml", SHEET.format(name="Bryn") + "plan: fifo.plan\n")
    write(tmp_path, "b.battle.yaml", BATTLE.replace("kagura", "bryn"))
    start = time.monotonic()
    outcomes = run_batch(tmp_path, tmp_path / "out", jobs=2, progress=io.StringIO(), time_limit_seconds=5)
    assert time.monotonic() - start < 10
    assert [(o.battle, o.status) for o in outcomes] == [("a.battle.yaml", "ok"), ("b.battle.yaml", "invalid")]
    assert "not-a-file" in outcomes[1].error and "FIFO" in outcomes[1].error
    assert (tmp_path / "out" / "standings.json").exists()


def test_point_5_a_battle_over_the_time_limit_is_listed_as_timed_out(tmp_path: Path, monkeypatch: object) -> None:
    """Whatever makes a battle slow, the round goes on: the battle is listed
    as timed out and the standings are written."""
    import referee.app.batch as batch

    make_round(tmp_path)
    real = batch.resolve_file_checked

    def slow(path: str, **options: object) -> object:
        if path.endswith("a.battle.yaml"):
            while True:
                time.sleep(0.01)
        return real(path, **options)

    monkeypatch.setattr(batch, "resolve_file_checked", slow)  # type: ignore[attr-defined]
    outcomes = run_batch(tmp_path, tmp_path / "out", progress=io.StringIO(), time_limit_seconds=0.5)
    assert [(o.battle, o.status) for o in outcomes] == [("a.battle.yaml", "timed-out")]
    assert "took longer than 0.5 s" in outcomes[0].error
    assert "over the time limit" in (tmp_path / "out" / "standings.md").read_text("utf-8")


def test_point_6_a_40kb_plan_line_is_diagnosed_at_once() -> None:
    for line in ("use " + "x" * 40_000, "use rest first when " + "(" * 20_000, '"' + "a " * 20_000):
        start = time.process_time()  # CPU: a busy host must not fail a cost check
        _, diags = parse_plan(line, "long.plan")
        assert time.process_time() - start < 1.0
        assert [(d.code, d.line) for d in diags] == [("line-too-long", 1)]


def test_point_6_the_previous_word_scan_is_linear() -> None:
    """Below the line limit, a line of 499 unexpected characters costs no
    more than a short one (the old regex was tried at every position)."""
    from referee.plan.parser import _previous_word

    line = "a" * 200_000 + " "
    start = time.process_time()
    assert _previous_word(line, len(line) + 1) == "a" * 200_000
    assert time.process_time() - start < 0.5  # the regex it replaced: ~2e10 steps


LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


def test_point_7_yaml_alias_bombs_are_refused_while_composing(tmp_path: Path) -> None:
    sheet = write(tmp_path, "laughs.yaml", "name: X\n" + LAUGHS)
    run = run_limited(["check", str(sheet)], tmp_path)
    assert run.code == 1 and "error[yaml-too-complex]" in run.err and "Traceback" not in run.err
    assert run.max_rss_mb < 200
    merge = "base: &b {k0: 1}\n" + "".join(
        f"m{i}: &m{i}\n  <<: [*{'b' if i == 0 else 'm' + str(i - 1)}, *{'b' if i == 0 else 'm' + str(i - 1)}]\n  k{i + 1}: 1\n"
        for i in range(60))
    sheet = write(tmp_path, "merge.yaml", merge)
    run = run_limited(["check", str(sheet)], tmp_path)
    assert run.code == 1 and "error[yaml-too-complex]" in run.err


def test_point_7_an_alias_that_contains_itself_and_deep_nesting(tmp_path: Path) -> None:
    from referee.yamlio import load_yaml

    _, diags = load_yaml("a: &a [1, *a]\n", "loop.yaml")
    assert [(d.code, d.line) for d in diags] == [("yaml-too-complex", 1)]
    _, diags = load_yaml("x: " + "[" * 100 + "]" * 100 + "\n", "deep.yaml")
    assert [(d.code, d.line) for d in diags] == [("yaml-too-complex", 1)]


def test_point_8_a_plan_of_blank_lines_is_refused_cheaply(tmp_path: Path) -> None:
    write(tmp_path, "blank.plan", "\n" * (900 * 1024))
    run = run_limited(["check", str(tmp_path / "blank.plan")], tmp_path)
    assert run.code == 1 and "error[plan-too-long]" in run.err and run.max_rss_mb < 200
    _, diags = parse_plan("\n" * (MAX_PLAN_LINES - 1), "ok.plan")
    assert diags == []


def test_point_9_a_big_battle_file_with_duplicates_is_checked_in_linear_time(tmp_path: Path) -> None:
    make_round(tmp_path)
    lines = ["title: t", "teams:", "  white: [sheets/kagura.yaml]", "  black: [sheets/ash.yaml]", "setup:"]
    lines += [f"  Kagura: {{hp: 1}}" for _ in range(24_000)]  # 96,000 values, just under the limit
    path = write(tmp_path, "dup.battle.yaml", "\n".join(lines) + "\n")
    assert path.stat().st_size > 360_000
    start = time.process_time()  # CPU, not wall: a busy host must not fail a linear check
    _, diags = load_battle(path)
    assert time.process_time() - start < 5.0  # ~1.2 s here; quadratic, it took 62 s
    assert len([d for d in diags if d.code == "duplicate-key"]) == 23_999


def test_point_10_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    sheet = write(tmp_path, "big.yaml", SHEET.format(name="Big") + "# " + "x" * MAX_INPUT_BYTES + "\n")
    _, diags = load_sheet(sheet, load_ruleset())
    assert [(d.code, d.line) for d in diags] == [("file-too-large", 0)]
    write(tmp_path, "huge.yaml", b"#" * (100 * 1024 * 1024))
    run = run_limited(["check", str(tmp_path / "huge.yaml")], tmp_path)
    assert run.code == 1 and "error[file-too-large]" in run.err and run.max_rss_mb < 200


def test_point_11_replay_of_two_characters_with_one_name_stops_at_once(tmp_path: Path) -> None:
    battle = make_round(tmp_path)
    report = tmp_path / "r.json"
    assert main(["resolve", str(battle), "--format", "json", "-o", str(report)]) == 0
    data = json.loads(report.read_text("utf-8"))
    data["inputs"]["characters"][1]["name"] = data["inputs"]["characters"][0]["name"]
    report.write_text(json.dumps(data), "utf-8")
    run = run_limited(["replay", str(report)], tmp_path, timeout=20)
    assert run.code == 1 and "error[duplicate-name]" in run.err


def _deaf_on_a(path: str, rel: str, *rest: Any) -> object:
    """A worker stuck where its own timer cannot reach (SIGALRM blocked, as
    in a long call into C) on battle ``a``."""
    import signal

    import referee.app.batch as batch

    if rel.startswith("a"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)
    return batch._REAL_RESOLVE_ONE(path, rel, *rest)  # type: ignore[attr-defined]


def test_point_5_a_worker_deaf_to_its_timer_is_killed_by_the_watchdog(tmp_path: Path, monkeypatch: Any) -> None:
    import referee.app.batch as batch

    make_round(tmp_path)
    write(tmp_path, "b.battle.yaml", BATTLE)
    monkeypatch.setattr(batch, "_REAL_RESOLVE_ONE", batch.resolve_one, raising=False)
    monkeypatch.setattr(batch, "resolve_one", _deaf_on_a)  # forked workers inherit it
    monkeypatch.setattr(batch, "WATCHDOG_GRACE_SECONDS", 0.5)
    start = time.monotonic()
    outcomes = run_batch(tmp_path, tmp_path / "out", jobs=2, progress=io.StringIO(), time_limit_seconds=0.5)
    assert time.monotonic() - start < 15
    assert [(o.battle, o.status) for o in outcomes] == [("a.battle.yaml", "timed-out"), ("b.battle.yaml", "ok")]
    assert "its worker was killed" in outcomes[0].error
