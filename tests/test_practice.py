"""``referee practice``: a player's army against a gauntlet (issue 33).

The practice battle is a battle file without ``setup``; its numbers are the
odds machinery's and do not depend on how the seeds are spread; the replay
command it prints rebuilds the very battle."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.app.odds import SeedOutcome, derive_seeds
from referee.app.pipeline import resolve_file, resolve_loaded
from referee.app.practice import (PRACTICE_PREFIX, build_practice, load_gauntlet, load_player, load_practice_battle,
                                  parse_practice_ref, practice_ref, run_practice, worst_loss)
from referee.cli import main
from referee.diagnostics import ReferError

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "referee" / "demo" / "sheets"
GAUNTLETS = ROOT / "referee" / "data" / "gauntlets"
WHITE = ["kagura", "tomoe", "ren"]


@pytest.fixture
def army(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The demo's White army (sheets and plan files) in a folder of the
    player's, which is the working folder: paths as a player types them."""
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    for name in WHITE:
        for found in DEMO.glob(f"{name}.*"):
            shutil.copy(found, sheets / found.name)
    monkeypatch.chdir(tmp_path)
    return [f"sheets/{name}.yaml" for name in WHITE]


def _practice_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["practice", *args, "--format", "json"]) == 0, capsys.readouterr().err
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_practice_battle_is_the_battle_file_without_setup(army: list[str], tmp_path: Path) -> None:
    """The same sheets in a battle file with no setup, order or seed, resolved
    from the same seed, give the same events: squares and the order are drawn
    as for any such file (R-SETUP-1, R-TURN-1)."""
    folder = tmp_path / "as-a-file"
    shutil.copytree(tmp_path / "sheets", folder / "white")
    shutil.copytree(GAUNTLETS / "tcgt" / "melee-rush", folder / "black")
    black = sorted(p.name for p in (folder / "black").glob("*.yaml"))
    gauntlet = load_gauntlet("tcgt")
    order = [Path(p).name for p in gauntlet.army("melee-rush").sheets]
    assert sorted(order) == black
    (folder / "x.battle.yaml").write_text(
        "title: the same battle\nruleset: tcgt\nteams:\n"
        f"  white: [{', '.join(f'white/{n}.yaml' for n in WHITE)}]\n"
        f"  black: [{', '.join(f'black/{n}' for n in order)}]\n", encoding="utf-8")
    for seed in ("practice-1", "practice-2", "7"):
        as_file = resolve_file(folder / "x.battle.yaml", seed)
        practised, _ = resolve_loaded(load_practice_battle("practice:tcgt:melee-rush", army), seed)
        assert practised.events == as_file.events
        assert practised.result == as_file.result


def test_the_table_has_a_row_per_army_with_intervals_turns_survival_and_worst_loss(
        army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["practice", *army, "-n", "12", "--jobs", "1", "--only", "melee-rush,volley,thorns"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Practice: Kagura, Tomoe, Ren against the tcgt gauntlet (3 armies)"
    assert lines[1] == "12 seeds per opponent: practice-1 .. practice-12; your army is White, 3 against 3"
    head = lines[3].split()
    assert head == ["opponent", "win", "draw", "loss", "turns", "Kagura", "Tomoe", "Ren", "worst", "loss"]
    rows = {line.split()[0]: line for line in lines[4:7]}
    assert list(rows) == ["melee-rush", "volley", "thorns"]
    for row in rows.values():
        assert row.count("[") == 3 and row.count("%") == 12  # three rates with intervals, three survivals
    gauntlet = load_gauntlet("tcgt")
    assert f"Opponents:\n  melee-rush  {gauntlet.army('melee-rush').describe('en')}\n" in out


def test_json_holds_every_number_and_the_replay_command(army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    data = _practice_json(capsys, *army, "-n", "20", "--jobs", "1", "--only", "melee-rush", "--seed", "x")
    assert data["gauntlet"] == "tcgt" and data["seeds"] == 20 and data["base_seed"] == "x"
    assert data["army"] == [{"name": n.capitalize(), "sheet": f"sheets/{n}.yaml"} for n in WHITE]
    [row] = data["opponents"]  # type: ignore[misc]
    rates = row["rates"]
    assert sum(rates[k]["count"] for k in ("white", "draw", "black")) == 20
    for rate in rates.values():
        low, high = rate["ci95"]
        assert low <= rate["share"] <= high
    assert row["median_turns"] >= 1 and set(row["survival"]) == {"Kagura", "Tomoe", "Ren"}
    assert row["description"]["en"] and row["description"]["ja"]
    worst = row["worst_loss"]
    assert worst["seed"].startswith("x-")
    assert worst["command"] == (f"referee resolve practice:tcgt:melee-rush {' '.join(army)} "
                                f"--seed {worst['seed']} --explain")


def test_the_printed_command_replays_the_worst_loss(army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Pasted as printed, the command resolves the very battle: Black wins,
    in the turn and with the standing the practice run counted."""
    data = _practice_json(capsys, *army, "-n", "25", "--jobs", "1", "--only", "volley,thorns")
    checked = 0
    for row in data["opponents"]:  # type: ignore[attr-defined]
        worst = row["worst_loss"]
        if worst is None:
            continue
        assert main(["practice", *army, "-n", "25", "--jobs", "1", "--only", row["id"]]) == 0
        printed = capsys.readouterr().out
        assert f"  {row['id']}  {worst['command']}" in printed
        argv = shlex.split(worst["command"])
        assert argv[0] == "referee" and "--explain" in argv
        assert main(argv[1:]) == 0
        report = capsys.readouterr().out
        assert f"Black wins: " in report and f"during turn {worst['turns']} " in report
        assert "  - why: " in report  # --explain: the reasons of each choice
        assert main([*argv[1:-1], "--format", "json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        standing = [n for n, c in replayed["result"]["final"].items() if not c["down"]]
        assert replayed["result"]["winner"] == "black" and standing == worst["standing"]
        checked += 1
    assert checked


def test_worst_loss_is_the_heaviest_defeat() -> None:
    def o(i: int, winner: str, white: int, black_hp: int, turns: int) -> SeedOutcome:
        return SeedOutcome(i, f"s-{i}", winner, turns, white, 1, (), 0, black_hp)

    outcomes = [o(0, "white", 0, 0, 1), o(1, "black", 1, 30, 3), o(2, "black", 0, 5, 9), o(3, "black", 0, 12, 9),
                o(4, "black", 0, 12, 4), o(5, "black", 0, 12, 4), o(6, "draw", 0, 40, 1)]
    worst = worst_loss(outcomes)
    assert worst is not None and worst.index == 4
    assert worst_loss([o(0, "white", 2, 0, 5)]) is None


def test_jobs_do_not_change_the_numbers(army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    args = [*army, "-n", "30", "--only", "melee-rush,inferno,mirage"]
    assert _practice_json(capsys, *args, "--jobs", "1") == _practice_json(capsys, *args, "--jobs", "2")


def test_markdown_is_a_table_to_post(army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["practice", *army, "-n", "10", "--jobs", "1", "--only", "volley", "--format", "md",
                 "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("## 練習: Kagura, Tomoe, Ren 対 tcgt の対戦相手 (1 軍)\n")
    table = [line for line in out.splitlines() if line.startswith("|")]
    assert table[0] == "| 相手 | 戦い方 | 勝ち | 引分 | 負け | ターン | Kagura | Tomoe | Ren | 最悪の負け |"
    assert table[2].startswith(f"| `volley` | {load_gauntlet('tcgt').army('volley').describe('ja')} | ")


def test_list_shows_each_army_with_its_style(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["practice", "--list", "--ruleset", "orm"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("The orm gauntlet (orm): ")
    assert "blockers: " in out and "beats: " in out


def test_a_plan_naming_someone_absent_is_warned_once(army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    plan = Path("sheets/ren.plan")
    plan.write_text(plan.read_text(encoding="utf-8") + "never target Ash\n", encoding="utf-8")
    assert main(["practice", *army, "-n", "2", "--jobs", "1", "--only", "volley,thorns"]) == 0
    err = capsys.readouterr().err
    assert err.count("warning[unknown-character]") == 1 and "'Ash'" in err


def test_a_name_shared_with_an_opponent_is_an_error(army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    sheet = Path("sheets/tomoe.yaml")
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("name: Tomoe", "name: Oga"), encoding="utf-8")
    assert main(["practice", *army, "-n", "2", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "sheets/tomoe.yaml: error[duplicate-name]: 'Oga' is also the name of a character of the army 'melee-rush'" in err


@pytest.mark.parametrize(("args", "code"), [
    (["--against", "nowhere"], "not-a-gauntlet"),
    (["--ruleset", "chess"], "bad-practice"),
    (["--only", "melee-rusk"], "unknown-army"),
    (["--executor", "yarn://x"], "bad-executor"),
])
def test_bad_options_are_diagnostics(army: list[str], capsys: pytest.CaptureFixture[str], args: list[str],
                                     code: str) -> None:
    assert main(["practice", *army, "-n", "2", *args]) == 1
    assert f"error[{code}]" in capsys.readouterr().err


def test_a_gauntlet_folder_of_ones_own(army: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--against DIR``: the same index as the bundled ones; its armies'
    replay commands name the folder, and a folder named like a built-in
    gauntlet is written ./NAME so that it is read back as the folder."""
    mine = tmp_path / "tcgt"
    shutil.copytree(GAUNTLETS / "tcgt" / "thorns", mine / "thorns")
    sheets = ", ".join(f"thorns/{p.name}" for p in sorted((mine / "thorns").glob("*.yaml")))
    (mine / "gauntlet.yaml").write_text(
        f"ruleset: tcgt\narmies:\n  - id: spiky\n    description: {{ja: とげ}}\n    sheets: [{sheets}]\n",
        encoding="utf-8")
    data = _practice_json(capsys, *army, "-n", "15", "--jobs", "1", "--against", "tcgt")
    [row] = data["opponents"]  # type: ignore[misc]
    assert row["battle"] == f"{PRACTICE_PREFIX}./tcgt:spiky"
    assert parse_practice_ref(row["battle"]) == ("./tcgt", "spiky")
    if row["worst_loss"] is not None:
        assert main(shlex.split(row["worst_loss"]["command"])[1:]) == 0
    assert main(["practice", *army, "--against", "tcgt", "--ruleset", "orm"]) == 1
    assert "is played under 'tcgt', not 'orm'" in capsys.readouterr().err


def test_a_broken_gauntlet_gets_every_diagnostic(tmp_path: Path) -> None:
    (tmp_path / "gauntlet.yaml").write_text(
        "ruleset: tcgt\narmies:\n"
        "  - id: a\n    description: {en: one}\n    sheets: [../../etc/passwd]\n    beats: [c]\n"
        "  - id: a\n    description: {}\n    sheets: [x.yaml]\n"
        "  - id: Bad Id\n    description: {en: x}\n    sheets: []\n", encoding="utf-8")
    with pytest.raises(ReferError) as err:
        load_gauntlet(str(tmp_path))
    codes = sorted(d.code for d in err.value.diagnostics)
    assert codes.count("invalid-value") + codes.count("wrong-size") + codes.count("out-of-range") >= 1
    for d in err.value.diagnostics:
        assert d.file.endswith("gauntlet.yaml") and d.line > 0


def test_a_broken_gauntlet_index_after_the_schema(tmp_path: Path) -> None:
    (tmp_path / "gauntlet.yaml").write_text(
        "ruleset: tcgt\narmies:\n"
        "  - id: a\n    description: {en: one}\n    sheets: [../outside.yaml]\n    beats: [c, a]\n"
        "  - id: a\n    description: {en: two}\n    sheets: [x.yaml]\n", encoding="utf-8")
    with pytest.raises(ReferError) as err:
        load_gauntlet(str(tmp_path))
    found = sorted((d.code, d.line) for d in err.value.diagnostics)
    assert found == [("duplicate-army", 7), ("path-outside", 5), ("unknown-army", 6), ("unknown-army", 6)]


def test_resolve_refuses_sheets_without_a_practice_battle(capsys: pytest.CaptureFixture[str]) -> None:
    duel = str(ROOT / "fixtures" / "duel.battle.yaml")
    assert main(["resolve", duel, "x.yaml"]) == 1
    assert "error[unexpected-sheet]" in capsys.readouterr().err
    assert main(["resolve", "practice:tcgt", "x.yaml"]) == 1
    assert "error[bad-practice-battle]" in capsys.readouterr().err
    assert main(["resolve", "practice:tcgt:volley"]) == 1
    assert "error[no-sheets]" in capsys.readouterr().err


def test_run_practice_summarises_in_seed_order(army: list[str]) -> None:
    gauntlet = load_gauntlet("tcgt")
    player, diags = load_player(army, gauntlet.ruleset)
    assert not diags
    battles, _ = build_practice(player, gauntlet, [gauntlet.army("volley")])
    [row] = run_practice(player, gauntlet, battles, derive_seeds("s", 10), "s")
    assert row.ref == practice_ref(gauntlet, gauntlet.army("volley")) == "practice:tcgt:volley"
    assert row.summary.seeds == 10 and sum(r.count for r in row.summary.rates.values()) == 10


#: Two workers and a scheduler, each its own process, on loopback only.
def _start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=log.open("wb"), start_new_session=True)


def test_a_dask_cluster_prints_the_same_numbers(army: list[str], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``--executor dask://``: a scheduler and two workers this test starts as
    separate processes (``dask scheduler``, ``dask worker``), stopped at the end."""
    pytest.importorskip("distributed", reason="the optional extra dask[distributed] is not installed "
                                              "(pip install -e '.[dask]')")
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        pytest.skip("no dask command")
    info = tmp_path / "scheduler.json"
    procs = [_start([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(info)], tmp_path / "scheduler.log")]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert info.exists(), (tmp_path / "scheduler.log").read_text()
        time.sleep(0.2)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for i in range(2):
            procs.append(_start([dask, "worker", "--scheduler-file", str(info), "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--host", "127.0.0.1"], tmp_path / f"worker{i}.log"))
        args = [*army, "-n", "30", "--only", "melee-rush,inferno,mirage", "--format", "json"]
        done = subprocess.run([sys.executable, "-m", "referee.cli", "practice", *args,
                               "--executor", address.replace("tcp://", "dask://")],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == _practice_json(capsys, *args[:-2], "--jobs", "1")
    finally:
        for proc in reversed(procs):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def test_the_same_sheet_twice_is_an_error(army: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["practice", army[0], army[0], "-n", "2", "--jobs", "1", "--only", "volley"]) == 1
    assert "error[duplicate-name]: two of your characters are named 'Kagura'" in capsys.readouterr().err


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
       st.from_regex(r"[a-z0-9]+(-[a-z0-9]+)*", fullmatch=True))
def test_a_practice_battle_name_reads_back(folder: str, army_id: str) -> None:
    """Whatever the gauntlet folder is called (colons included), the army is
    what follows the last colon: the name a command prints reads back."""
    assert parse_practice_ref(f"{PRACTICE_PREFIX}{folder}:{army_id}") == (folder, army_id)
