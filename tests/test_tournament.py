"""tournament.yaml's diagnostics, ``referee tournament pair|standings``,
the NMR points, the re-checkable export, and the six-round example
tournament rebuilt end to end by the commands."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.app.ledger import read_ledger
from referee.app.tournament import load_tournament
from referee.app.tourney import standings_of
from referee.cli import main
from referee.diagnostics import ReferError
from reporthelpers import tree

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "tournament"
sys.path.insert(0, str(ROOT / "scripts"))


def roster_copy(tmp_path: Path) -> Path:
    """The fixture's roster without its rounds."""
    out = tmp_path / "cup"
    out.mkdir()
    shutil.copy2(FIXTURE / "tournament.yaml", out / "tournament.yaml")
    shutil.copytree(FIXTURE / "players", out / "players")
    return out


def played_copy(tmp_path: Path) -> Path:
    out = tmp_path / "played"
    shutil.copytree(FIXTURE, out)
    return out


def test_every_mistake_of_a_tournament_file_at_once_each_at_its_line(tmp_path: Path) -> None:
    cup = roster_copy(tmp_path)
    text = (cup / "tournament.yaml").read_text(encoding="utf-8")
    text = text.replace("tiebreaks: [points, opponents-points, survivors, hp-margin, head-to-head, lot]",
                        "tiebreaks: [points, lot, survivors]")
    text = text.replace("timezone: Asia/Tokyo", "timezone: Mars/Olympus")
    text = text.replace("players/bo/ash.yaml", "../outside.yaml")
    text = text.replace("players/chen/bryn.yaml", "players/aiko/kagura.yaml")
    text = text.replace("{id: emi,", "{id: dai,")
    text = text.replace('deadline: "2026-12-15T20:00:00+09:00"', 'deadline: "2026-12-02T20:00:00+09:00"')
    (cup / "tournament.yaml").write_text(text, encoding="utf-8")
    (cup / "players/gil/hana.yaml").unlink()
    os.mkfifo(cup / "players/gil/hana.yaml")  # never opened: a FIFO would block the reader
    with pytest.raises(ReferError) as err:
        load_tournament(cup)
    found = {(d.code, d.line) for d in err.value.diagnostics}
    lines = text.splitlines()

    def line_of(words: str) -> int:
        return next(i for i, line in enumerate(lines, 1) if words in line)

    assert ("invalid-value", line_of("tiebreaks:")) in found  # lot is not last
    assert ("unknown-timezone", line_of("timezone:")) in found
    assert ("path-outside", line_of("../outside.yaml")) in found
    assert ("sheet-owned-twice", line_of("{id: chen")) in found
    assert ("duplicate-id", line_of("{id: dai, name: Emi")) in found
    assert ("deadline-order", line_of("2026-12-02T20")) in found
    assert ("not-a-file", line_of("players/gil/hana.yaml")) in found
    assert all(d.column > 0 for d in err.value.diagnostics if d.code != "unknown-timezone" or d.line)


def test_the_shape_is_checked_by_the_schema_with_located_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cup = roster_copy(tmp_path)
    text = (cup / "tournament.yaml").read_text(encoding="utf-8").replace("format: swiss", "format: swis")
    (cup / "tournament.yaml").write_text(text.replace("army_size: 2", "army_size: 2\narmy_sise: 3"), encoding="utf-8")
    assert main(["tournament", "check", "-t", str(cup)]) == 1
    err = capsys.readouterr().err
    assert "tournament.yaml:4:9: error[invalid-value]: format must be one of swiss, round-robin, single-elimination" in err
    assert "did you mean 'swiss'?" in err
    assert "error[unknown-field]: unknown field 'army_sise'" in err and "did you mean 'army_size'?" in err
    assert main(["check", str(cup / "tournament.yaml")]) == 1, "referee check knows a tournament file too"
    assert "unknown field 'army_sise'" in capsys.readouterr().err


def test_pair_writes_battle_files_that_check_and_refuses_to_pair_twice(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_SECRETS_DIR", str(tmp_path / "secrets"))
    cup = roster_copy(tmp_path)
    assert main(["tournament", "pair", "1", "-t", str(cup)]) == 0
    first = (cup / "rounds/1/pairings.json").read_text()
    data = json.loads(first)
    assert [len(b["white"]["players"]) for b in data["battles"]] == [2, 2, 2]
    for battle in sorted((cup / "rounds/1").glob("*.battle.yaml")):
        assert main(["check", str(battle)]) == 0
    assert main(["tournament", "pair", "2", "-t", str(cup)]) == 1  # round 1 has no results yet
    assert main(["tournament", "pair", "1", "-t", str(cup)]) == 1  # already paired
    assert main(["tournament", "pair", "1", "-t", str(cup), "--replace"]) == 0
    assert (cup / "rounds/1/pairings.json").read_text() == first, "the same inputs give the same pairing"
    assert main(["seeds", "commit", str(cup / "rounds/1")]) == 0
    assert main(["tournament", "pair", "1", "-t", str(cup), "--replace"]) == 1  # committed: never again


def test_the_standings_count_nmr_and_forfeit_points_from_the_intakes_field(tmp_path: Path) -> None:
    """Round 1's standings.json as the mail intake writes it: Bo's plan was
    missing and his last sheet reused; Kai forfeited."""
    cup = played_copy(tmp_path)
    t = load_tournament(cup)
    before = standings_of(t, read_ledger(t)[0], 1)
    path = cup / "rounds/1/reports/standings.json"
    data = json.loads(path.read_text())
    by_battle = {b["battle"]: b for b in data["battles"]}
    pairs = json.loads((cup / "rounds/1/pairings.json").read_text())["battles"]
    with_bo = next(b["battle"] for b in pairs if "bo" in [p["id"] for s in ("white", "black") for p in b[s]["players"]])
    with_kai = next(b["battle"] for b in pairs if "kai" in [p["id"] for s in ("white", "black") for p in b[s]["players"]])
    by_battle[with_bo]["nmr"] = [{"player": "bo", "policy": "reuse-last", "detail": "no plan"}]
    by_battle[with_kai].setdefault("nmr", []).append({"player": "kai", "policy": "forfeit", "detail": "none"})
    path.write_text(json.dumps(data))
    after = standings_of(t, read_ledger(t)[0], 1)
    points = {e.id: e.points for e in before.players}
    now = {e.id: e for e in after.players}
    assert now["bo"].points == points["bo"] + t.points.nmr and now["bo"].nmrs == 1
    assert now["kai"].points == t.points.forfeit and now["kai"].forfeits == 1
    assert {e.id: e.points for e in after.armies} == {e.id: e.points for e in before.armies}, \
        "an army's points change only when all its players missed"


def test_the_export_rechecks_and_a_tampered_one_does_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = FIXTURE / "standings" / "standings.json"
    assert main(["tournament", "standings", "--from", str(export)]) == 0
    assert "consistent" in capsys.readouterr().out
    data = json.loads(export.read_text())
    data["rounds"][2]["battles"][0]["winner"] = "draw" if data["rounds"][2]["battles"][0]["winner"] != "draw" else "white"
    tampered = tmp_path / "standings.json"
    tampered.write_text(json.dumps(data))
    assert main(["tournament", "standings", "--from", str(tampered)]) == 1
    assert "NOT consistent" in capsys.readouterr().err


def test_the_lot_is_undecided_until_the_secret_is_revealed(tmp_path: Path) -> None:
    cup = played_copy(tmp_path)
    (cup / "rounds/6/seeds.reveal.json").unlink()
    t = load_tournament(cup)
    standing = standings_of(t, read_ledger(t)[0])
    assert standing.lot_secret == "" and all(e.values["lot"] == "" for e in standing.players)
    assert main(["tournament", "standings", "-t", str(cup), "-o", str(tmp_path / "s")]) == 0
    assert "| undecided |" in (tmp_path / "s/standings.md").read_text()
    revealed = standings_of(load_tournament(FIXTURE), read_ledger(load_tournament(FIXTURE))[0])
    assert all(len(e.values["lot"]) == 8 for e in revealed.players)


def test_japanese_tables_and_bbcode(tmp_path: Path) -> None:
    assert main(["tournament", "standings", "-t", str(FIXTURE), "-o", str(tmp_path), "--lang", "ja"]) == 0
    md = (tmp_path / "standings.md").read_text()
    assert "第6回戦後の順位" in md and "対戦相手の得点" in md
    bb = (tmp_path / "standings.bbcode").read_text()
    assert "[table]" in bb and "[b]" not in bb.replace("[b][u]", "").replace("[/u][/b]", "").replace("[size=150][b]", "").replace("[/b][/size]", "")
    assert "Léa ［b］x［/b］" in bb, "a name cannot open a BBCode tag"


def test_the_example_tournament_is_rebuilt_by_the_commands_file_for_file(tmp_path: Path) -> None:
    from build_tournament import build

    out = tmp_path / "cup"
    build(FIXTURE, out, site=False)
    for part in ("rounds", "standings"):
        want, got = tree(FIXTURE / part), tree(out / part)
        assert sorted(got) == sorted(want)
        assert [name for name in want if want[name] != got[name]] == []
    assert main(["seeds", "verify", str(out / "rounds/6")]) == 0


def small_tournament(tmp_path: Path, fmt: str, players: int, rounds: int, extra: str = "") -> Path:
    """``players`` players of one fixture sheet each, in a ``fmt`` tournament."""
    cup = tmp_path / fmt
    sheets = sorted((FIXTURE / "players").rglob("*.yaml"))[:players]
    lines = [f"name: {fmt} cup", f"format: {fmt}", *([extra] if extra else []), "players:"]
    for i, sheet in enumerate(sheets):
        target = cup / "players" / f"p{i}" / sheet.name
        target.parent.mkdir(parents=True)
        shutil.copy2(sheet, target)
        lines.append(f"  - {{id: p{i}, sheets: [players/p{i}/{sheet.name}]}}")
    lines.append("rounds:")
    lines += [f"  - {{folder: rounds/{r}, deadline: '2026-12-0{r}T20:00:00Z'}}" for r in range(1, rounds + 1)]
    (cup / "tournament.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return cup


def play_round(cup: Path, number: int) -> dict[str, object]:
    assert main(["tournament", "pair", str(number), "-t", str(cup)]) == 0
    pairings = json.loads((cup / f"rounds/{number}/pairings.json").read_text())
    if pairings["battles"]:
        assert main(["batch", str(cup / f"rounds/{number}"), "--jobs", "1", "--formats", "json"]) == 0
    else:
        (cup / f"rounds/{number}/reports").mkdir()
        (cup / f"rounds/{number}/reports/standings.json").write_text('{"battles": []}')
    return pairings  # type: ignore[no-any-return]


def test_a_single_elimination_bracket_is_played_to_its_final(tmp_path: Path) -> None:
    cup = small_tournament(tmp_path, "single-elimination", 5, 3, "draw_rule: [survivors, hp, seed]")
    first = play_round(cup, 1)
    assert [s["army"] for s in first["byes"]] == ["p0", "p1", "p2"]  # type: ignore[index]
    assert [(b["white"]["army"], b["black"]["army"]) for b in first["battles"]] == [("p3", "p4")]  # type: ignore[index]
    t = load_tournament(cup)
    winner = next(iter(b.side(b.winner).army if b.winner != "draw" else "" for b in read_ledger(t)[0][0].battles))
    second = play_round(cup, 2)
    met = [{b["white"]["army"], b["black"]["army"]} for b in second["battles"]]  # type: ignore[index]
    assert {"p1", "p2"} in met, "seeds 2 and 3 meet in the semi-final"
    assert any("p0" in pair for pair in met), "seed 1 meets the first round's winner"
    if winner:
        assert {"p0", winner} in met
    final = play_round(cup, 3)
    assert len(final["battles"]) == 1 and not final["byes"]  # type: ignore[arg-type]
    assert main(["tournament", "pair", "3", "-t", str(cup), "--replace"]) == 1, "a resolved round is never re-paired"


def test_a_round_robin_meets_everyone_once(tmp_path: Path) -> None:
    cup = small_tournament(tmp_path, "round-robin", 3, 3)
    pairs = []
    for number in (1, 2, 3):
        pairing = play_round(cup, number)
        assert len(pairing["battles"]) == 1 and len(pairing["byes"]) == 1  # type: ignore[arg-type]
        pairs += [frozenset((b["white"]["army"], b["black"]["army"])) for b in pairing["battles"]]  # type: ignore[index]
    assert sorted(map(sorted, pairs)) == [["p0", "p1"], ["p0", "p2"], ["p1", "p2"]]
    t = load_tournament(cup)
    standing = standings_of(t, read_ledger(t)[0])
    assert sum(e.byes for e in standing.players) == 3
    assert sum(e.played for e in standing.players) == 6


def test_a_forfeited_battle_is_a_result_as_the_intake_writes_it(tmp_path: Path) -> None:
    """The mail intake's batch does not fight a battle a side forfeits: its
    row has status forfeit, the other side as winner, and no report."""
    cup = played_copy(tmp_path)
    path = cup / "rounds/1/reports/standings.json"
    data = json.loads(path.read_text())
    row = data["battles"][0]
    pairs = json.loads((cup / "rounds/1/pairings.json").read_text())["battles"]
    black = [p["id"] for p in pairs[0]["black"]["players"]]
    row.update({"status": "forfeit", "winner": "white", "reason": "forfeit", "turns": 0, "seed": None,
                "nmr": [{"player": black[0], "policy": "forfeit", "detail": "no valid file"}]})
    path.write_text(json.dumps(data))
    (cup / "rounds/1/reports" / row["battle"].replace(".battle.yaml", ".json")).unlink()
    t = load_tournament(cup)
    ledger, diags = read_ledger(t, 1)
    assert diags == []
    standing = standings_of(t, ledger, 1)
    players = {e.id: e for e in standing.players}
    assert players[black[0]].points == t.points.forfeit and players[black[0]].forfeits == 1
    assert players[black[1]].points == t.points.loss and players[black[1]].losses == 1
    for p in pairs[0]["white"]["players"]:
        assert players[p["id"]].points == t.points.win
    assert {e.id: e.points for e in standing.armies}[pairs[0]["black"]["army"]] == t.points.loss
    shutil.rmtree(cup / "rounds/2")
    assert main(["tournament", "pair", "2", "-t", str(cup)]) == 0, "a forfeit is a result: round 2 can be paired"
    assert main(["site", str(cup), "-o", str(tmp_path / "site")]) == 0
    page = (tmp_path / "site/battles/1" / row["battle"].replace(".battle.yaml", ".html")).read_text()
    assert "forfeited; the winner: White" in page and ".replay.html" not in page


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-10, 10 ** 6) | st.text(max_size=12),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                       max_leaves=6)


@pytest.fixture(scope="module")
def roster(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return roster_copy(tmp_path_factory.mktemp("roster"))


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 10 ** 6), JSONISH), min_size=1, max_size=4))
def test_any_edit_of_a_tournament_file_gives_diagnostics_never_a_traceback(roster: Path,
                                                                          edits: list[tuple[int, object]]) -> None:
    """Random values put anywhere in the example's tournament.yaml: it loads,
    or every problem is a located diagnostic."""
    import yaml

    data = yaml.safe_load((FIXTURE / "tournament.yaml").read_text(encoding="utf-8"))
    for where, value in edits:
        node: object = data
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
            if not keys:
                break
            key = keys[where % len(keys)]
            child = node[key]  # type: ignore[index]
            if not isinstance(child, (dict, list)) or where % 3 == 0:
                node[key] = value  # type: ignore[index]
                break
            node, where = child, where // 7
    (roster / "tournament.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    try:
        load_tournament(roster)
    except ReferError as err:
        assert err.diagnostics
        assert all(d.line > 0 for d in err.diagnostics if d.file.endswith("tournament.yaml")), err.diagnostics
