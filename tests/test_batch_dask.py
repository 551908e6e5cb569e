"""``referee batch --executor dask://``: a round on a real Dask cluster
(a scheduler and two workers started here as separate processes, loopback
only) writes the same reports, byte for byte, as a local pool of two."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from referee.cli import main
from reporthelpers import tree

ROUND = Path(__file__).resolve().parent.parent / "fixtures" / "round"
SHEETS = sorted(p.name for p in (ROUND / "sheets").glob("*.yaml"))


def make_round(folder: Path, battles: int) -> None:
    """``battles`` 2v2 battles of the fixture sheets, each with its own seed,
    one committed-free round; one battle names a sheet that is not there."""
    shutil.copytree(ROUND / "sheets", folder / "sheets")
    for i in range(battles):
        four = [SHEETS[(i + k * 3) % len(SHEETS)] for k in range(4)]
        if len(set(four)) < 4:
            four = [SHEETS[(i + k) % len(SHEETS)] for k in range(4)]
        white, black = four[:2], four[2:]
        (folder / f"t{i:03d}.battle.yaml").write_text(
            f"title: Table {i}\nseed: {1000 + i}\nteams:\n"
            f"  white: [sheets/{white[0]}, sheets/{white[1]}]\n  black: [sheets/{black[0]}, sheets/{black[1]}]\n",
            encoding="utf-8")
    (folder / "zz-broken.battle.yaml").write_text(
        "title: Broken\nteams:\n  white: [sheets/nobody.yaml]\n  black: [sheets/ash.yaml]\n", encoding="utf-8")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1,
    stopped (and waited for) at the end."""
    if os.environ.get("CI"):
        import distributed  # noqa: F401 - CI installs the dask extra: no skipping there
    pytest.importorskip("distributed", reason="the optional extra dask[distributed] is not installed "
                                              "(pip install -e '.[dask]'); not in CI")
    here = tmp_path_factory.mktemp("dask")
    info = here / "scheduler.json"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    env = {**os.environ, "DASK_DISTRIBUTED__LOGGING__DISTRIBUTED": "error"}
    procs = [subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(info)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert info.exists(), "the scheduler did not start"
        address = json.loads(info.read_text())["address"]
        for n in range(2):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(info),
                 "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                 "--name", f"w{n}", "--local-directory", str(here / f"w{n}")],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        # Waited for in a child process: no Dask thread may linger in this one
        # (later tests fork worker pools, and forking a threaded process can deadlock).
        subprocess.run([sys.executable, "-c", "import sys; from distributed import Client; "
                        "c = Client(sys.argv[1], timeout='30s'); c.wait_for_workers(2, timeout=60); c.close()",
                        address], check=True, timeout=120, capture_output=True)
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in reversed(procs):
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_a_200_battle_round_on_dask_gives_the_local_pools_reports(cluster: str, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A committed round: every battle's seed comes from the secret, on the
    organiser's machine, before the battle travels to a worker."""
    monkeypatch.setenv("REFEREE_SECRETS_DIR", str(tmp_path / "secrets"))
    folder = tmp_path / "round"
    make_round(folder, 200)
    assert main(["seeds", "commit", str(folder)]) == 0
    local, dasked = tmp_path / "local", tmp_path / "dask"
    formats = "json,text"
    assert main(["batch", str(folder), "--jobs", "2", "-o", str(local), "--formats", formats]) == 1  # the broken one
    code = subprocess.run([sys.executable, "-m", "referee.cli", "batch", str(folder), "-o", str(dasked),
                           "--formats", formats, "--executor", cluster.replace("tcp://", "dask://")],
                          capture_output=True, text=True, timeout=600)
    assert code.returncode == 1, code.stderr[-3000:]
    assert "200 of 201 battles resolved" in code.stdout
    want, got = tree(local), tree(dasked)
    assert len(want) == 2 * 200 + 3  # and standings.md, standings.json, the round marker
    assert sorted(got) == sorted(want)
    assert [name for name in want if want[name] != got[name]] == []
    standings = json.loads(got["standings.json"])
    broken = [b for b in standings["battles"] if b["status"] != "ok"]
    assert [(b["battle"], b["status"]) for b in broken] == [("zz-broken.battle.yaml", "invalid")]
    assert "nobody.yaml" in broken[0]["error"]
    assert standings["seed_commitment"] and all(b["seed"] != 1000 for b in standings["battles"][:1])
