"""``referee odds``: derived seeds, rates with intervals, and the same numbers
on every executor (issue 16, item 2)."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.app import executors
from referee.app.executors import ExecutorSpec, parse_executor, run_chunks
from referee.app.inputs import battle_inputs
from referee.app.odds import chunk_seeds, derive_seeds, summarise, wilson_interval
from referee.app.pipeline import parse_seed, resolve_file
from referee.battlefile import load_battle
from referee.cli import main
from referee.commands.odds import _Bar
from referee.diagnostics import ReferError

HERE = Path(__file__).parent
BATTLES = HERE / "odds_battles"
DUEL = HERE.parent / "fixtures" / "duel.battle.yaml"


def odds(path: Path, n: int, *, jobs: int = 1, executor: ExecutorSpec = ExecutorSpec("process"),
         base: int | str | None = None) -> dict[str, object]:
    battle, diags = load_battle(path)
    assert battle is not None, diags
    seeds = derive_seeds(battle.seed if base is None else base, n)
    outcomes = run_chunks(battle_inputs(battle), battle.ruleset, chunk_seeds(seeds, 25), jobs=jobs,
                          executor=executor)
    return summarise(outcomes, battle.seed).to_json()


def test_seeds_are_the_battle_seed_and_an_index() -> None:
    assert derive_seeds(7, 3) == ["7-1", "7-2", "7-3"]
    assert derive_seeds("round-3", 1) == ["round-3-1"]
    # ``--seed`` reads a derived seed back as the same (text) seed.
    assert parse_seed("7-2") == "7-2"


def test_a_certain_battle_gives_100_percent_with_a_tight_interval() -> None:
    summary = odds(BATTLES / "certain.battle.yaml", 500)
    white, draw, black = (summary["rates"][k] for k in ("white", "draw", "black"))  # type: ignore[index]
    assert white["count"] == 500 and white["share"] == 1.0
    assert white["ci95"][1] == 1.0 and white["ci95"][0] > 0.99
    assert draw["count"] == black["count"] == 0 and black["ci95"] == [0.0, black["ci95"][1]]
    assert black["ci95"][1] < 0.01
    assert summary["turns"] == {"1": 500}
    assert summary["survivors"] == {"white": {"1": 500}, "black": {"0": 500}}
    assert summary["samples"] == {"white": "3-1"}


def test_a_mirror_battle_is_close_to_even_over_2000_seeds() -> None:
    summary = odds(BATTLES / "mirror.battle.yaml", 2000)
    rates = summary["rates"]
    assert sum(r["count"] for r in rates.values()) == 2000  # type: ignore[union-attr]
    for side in ("white", "black"):
        share = rates[side]["share"]  # type: ignore[index]
        low, high = rates[side]["ci95"]  # type: ignore[index]
        assert abs(share - 0.5) < 0.04, summary
        assert low < share < high and high - low < 0.05


def test_each_sample_seed_replays_to_its_outcome() -> None:
    summary = odds(DUEL, 60)
    samples = summary["samples"]
    assert set(samples) == {"white", "black"}  # type: ignore[arg-type]
    for outcome, seed in samples.items():  # type: ignore[union-attr]
        assert resolve_file(DUEL, parse_seed(seed)).result.winner == outcome


def test_jobs_do_not_change_the_numbers() -> None:
    assert odds(DUEL, 120, jobs=1) == odds(DUEL, 120, jobs=2)


def test_outcomes_arriving_in_any_order_give_one_summary() -> None:
    battle, _ = load_battle(DUEL)
    assert battle is not None
    seeds = derive_seeds(1, 50)
    outcomes = run_chunks(battle_inputs(battle), battle.ruleset, chunk_seeds(seeds, 7))
    assert summarise(outcomes, 1) == summarise(list(reversed(outcomes)), 1)


@given(st.integers(0, 3000), st.integers(1, 3000))
def test_wilson_interval_holds_the_share(count: int, total: int) -> None:
    count = min(count, total)
    low, high = wilson_interval(count, total)
    assert 0.0 <= low <= count / total <= high <= 1.0
    assert (low == 0.0) == (count == 0) and (high == 1.0) == (count == total)


def test_wilson_interval_known_value() -> None:
    low, high = wilson_interval(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4) and math.isclose(high, 0.5962, abs_tol=1e-4)


def test_executor_names() -> None:
    assert parse_executor("process") == ExecutorSpec("process")
    assert parse_executor("dask://127.0.0.1:8786") == ExecutorSpec("dask", "tcp://127.0.0.1:8786")
    for bad in ("dask://nohost", "spark://x:1", "dask://:80"):
        with pytest.raises(ReferError):
            parse_executor(bad)


def test_dask_missing_is_a_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executors, "dask_available", lambda: False)
    with pytest.raises(ReferError) as err:
        run_chunks({}, None, [(0, ["1-1"])], executor=ExecutorSpec("dask", "tcp://127.0.0.1:1"))  # type: ignore[arg-type]
    assert "pip install -e '.[dask]'" in str(err.value.diagnostics[0].hint)


def test_cli_prints_rates_turns_survivors_and_replayable_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(BATTLES / "certain.battle.yaml"), "-n", "40", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "40 seeds: 3-1 .. 3-40" in out
    assert "White wins  100.0%  [ 91.2%, 100.0%]      40 (Wolf)" in out
    assert "Black wins    0.0%  [  0.0%,   8.8%]       0 (Lamb)" in out
    assert "turns: min 1, quartiles 1 / 1 / 1, max 1, mean 1.0" in out
    assert "Black still standing: 0: 40 (100.0%)" in out
    assert f"referee resolve {BATTLES / 'certain.battle.yaml'} --seed 3-1" in out


def test_cli_json_and_base_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(DUEL), "-n", "30", "--jobs", "1", "--seed", "x", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["base_seed"] == "x" and data["seeds"] == 30
    assert data == {**odds(DUEL, 30, base="x"), "base_seed": "x", "battle": str(DUEL), "title": data["title"]}


def test_cli_bad_executor_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(DUEL), "-n", "5", "--executor", "yarn://x"]) == 1
    assert "error[bad-executor]" in capsys.readouterr().err


def test_progress_bar_only_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, plain = Tty(), io.StringIO()
    for stream in (tty, plain):
        bar = _Bar(50, stream)
        bar(25)
        bar(25)
    assert tty.getvalue().endswith("] 50/50 seeds\n") and plain.getvalue() == ""


#: Run in a child process, so no Dask thread lingers in the test process
#: (later tests fork worker pools, and forking a threaded process can deadlock).
DASK_SCRIPT = """
import sys
from distributed import LocalCluster
from referee.cli import main

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, protocol="tcp://") as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:"), address
        code = main(["odds", sys.argv[1], "-n", "120", "--format", "json",
                     "--executor", address.replace("tcp://", "dask://")])
    sys.exit(code)
"""


def test_dask_local_cluster_gives_the_same_numbers(tmp_path: Path) -> None:
    """The Dask executor against a LocalCluster this test starts: loopback
    only, two single-threaded worker processes, shut down at the end."""
    pytest.importorskip("distributed", reason="the optional extra dask[distributed] is not installed "
                                              "(pip install -e '.[dask]')")
    import subprocess
    import sys

    script = tmp_path / "dask_odds.py"
    script.write_text(DASK_SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(DUEL)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    dasked = json.loads(done.stdout)
    assert dasked == {**odds(DUEL, 120, jobs=1), "battle": str(DUEL), "title": dasked["title"]}


def test_a_house_ruleset_from_a_file(tmp_path: Path) -> None:
    """Odds work for any ruleset: here a file that shortens the battle to 3
    turns (R-TURN-9 as house rule); the worker processes get the ruleset too."""
    import shutil

    shutil.copytree(BATTLES / "sheets", tmp_path / "sheets")
    (tmp_path / "short.ruleset.yaml").write_text("extends: tcgt\nname: short\nturn_limit: 3\n", encoding="utf-8")
    battle = tmp_path / "short.battle.yaml"
    battle.write_text((BATTLES / "mirror.battle.yaml").read_text(encoding="utf-8")
                      .replace("seed: 5", "seed: 5\nruleset: short.ruleset.yaml"), encoding="utf-8")
    one, two = odds(battle, 60, jobs=1), odds(battle, 60, jobs=2)
    assert one == two
    assert max(int(t) for t in one["turns"]) <= 3  # type: ignore[union-attr]
