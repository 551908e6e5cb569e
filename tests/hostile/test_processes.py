"""Issue 17, point 19 and Ctrl-C in ``referee batch`` (issue 14): a round
that is interrupted or killed leaves no worker alive, no partial report and
no temporary file after the next run; Ctrl-C writes partial standings."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .hostilehelpers import BATTLE, make_round, write

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics (/proc, prctl)")

#: Battles that each take a good fraction of a second: 1,000 turns at most.
LONG = "extends: tcgt\nname: long\nturn_limit: 1000\nmechanics: {stall: {kind: none}}\nhp_per_body: 1000\n"
CODE = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"


def _long_round(folder: Path, battles: int) -> None:
    make_round(folder)
    write(folder, "long.ruleset.yaml", LONG)
    for i in range(battles):
        write(folder, f"b{i:02}.battle.yaml", BATTLE.replace("seed: 7", f"seed: {i}") + "ruleset: long.ruleset.yaml\n")


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start(folder: Path, out: Path, log: Path) -> subprocess.Popen[bytes]:
    """The batch in its own session, its output in a file (a pipe would stay
    open as long as any worker lives, and reading it would hang the test)."""
    with open(log, "wb") as handle:
        return subprocess.Popen([sys.executable, "-c", CODE, "batch", str(folder), "-o", str(out), "--jobs", "2"],
                                stdout=handle, stderr=handle, start_new_session=True)


def _wait_for_workers(proc: subprocess.Popen[bytes]) -> list[int]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        workers = _children(proc.pid)
        if len(workers) >= 2:
            return workers
        time.sleep(0.05)
    raise AssertionError("the batch never started its workers")


def _running_round(tmp_path: Path, battles: int) -> tuple[subprocess.Popen[bytes], list[int]]:
    """A batch of long battles under way in a child, and its worker pids."""
    _long_round(tmp_path / "round", battles)
    proc = _start(tmp_path / "round", tmp_path / "out", tmp_path / "log")
    workers = _wait_for_workers(proc)
    time.sleep(0.4)
    return proc, workers


def test_point_19_kill_9_of_the_batch_leaves_no_worker_and_no_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc, workers = _running_round(tmp_path, 6)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 2
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [w for w in workers if _alive(w)]
    for pid in survivors:  # leave nothing behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not survivors
    write(out, ".b03.json.abcd1234.tmp", "half a report")  # what a kill between write and rename leaves
    done = subprocess.run([sys.executable, "-c", CODE, "batch", str(tmp_path / "round"), "-o", str(out),
                           "--jobs", "2"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert not [p for p in out.rglob("*.tmp")]
    assert json.loads((out / "standings.json").read_text("utf-8"))["summary"]["resolved"] == 7


def test_ctrl_c_stops_the_round_at_once_and_writes_partial_standings(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc, workers = _running_round(tmp_path, 30)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    start = time.monotonic()
    proc.wait(timeout=30)
    seconds = time.monotonic() - start
    assert proc.returncode == 130 and seconds < 3.0
    text = (tmp_path / "log").read_text("utf-8")
    assert "interrupted: " in text and " of 31 battles finished" in text and "Traceback" not in text
    assert not any(_alive(w) for w in workers)
    standings = json.loads((out / "standings.json").read_text("utf-8"))
    statuses = {b["status"] for b in standings["battles"]}
    assert "interrupted" in statuses and standings["summary"]["battles"] == 31
    assert not [p for p in out.rglob("*.tmp")]
    for row in standings["battles"]:  # every report listed is whole JSON
        for rel in row["reports"]:
            if rel.endswith(".json"):
                json.loads((out / rel).read_text("utf-8"))
