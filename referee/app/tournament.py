"""``tournament.yaml``: the roster, the format, the points and the rounds.

A round is one night; a tournament is several, and this file is what ties
them together (docs/tournament.md).  It is read like every other file the
referee reads: :func:`referee.yamlio.read_yaml_file` (confined, size- and
depth-limited), the shape checked by ``referee/schemas/tournament.schema.json``,
then the meaning checks a schema cannot express -- ids unique, every sheet a
regular file inside the tournament's folder and owned once, armies complete
when they have several players, the tie-breaks in a legal order, deadlines
real instants, round folders distinct -- every problem at once, each at its
line and column.

Players and armies: a player owns one or more character sheets; an army is
the players who fight on one side (``army_size`` of them, named by each
player's ``army``; with ``army_size: 1`` every player is an army of one,
named by the player's id).  Pairings are between armies; points are kept per
player and per army (:mod:`referee.app.standings`).  A player's id is the id
the mail intake's roster uses for the same person.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.confine import UnsafePathError, confine
from referee.diagnostics import Diagnostic, ReferError, has_errors
from referee.ruleset import is_builtin_name, load_ruleset
from referee.textcheck import name_problem
from referee.yamlio import YamlDocument, read_yaml_file, schema_diagnostics

__all__ = ["TOURNAMENT_FILE", "TIEBREAKS", "Army", "Player", "Points", "Costs", "Round", "Tournament",
           "load_tournament", "read_tournament", "check_tournament_file"]

#: The file a tournament folder holds (``referee tournament ... FOLDER`` finds it).
TOURNAMENT_FILE = "tournament.yaml"

#: Every tie-break, in the default order: ``lot`` (drawn from the revealed
#: seed secret) is always the last word.
TIEBREAKS: tuple[str, ...] = ("points", "opponents-points", "survivors", "hp-margin", "head-to-head", "lot")


@dataclass(frozen=True)
class Points:
    """What each outcome is worth (docs/tournament.md, "Points")."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    forfeit: int = 0
    nmr: int = 0


@dataclass(frozen=True)
class Costs:
    """The swiss pairing's declared costs (:mod:`referee.app.pairing`): per
    square of the points between two armies, per earlier meeting, per game
    of side imbalance.  The default rematch cost outweighs any sum of score
    costs a tournament can reach, so a rematch happens only when no pairing
    avoids it."""

    score: int = 1000
    rematch: int = 1_000_000_000_000
    side: int = 10


@dataclass(frozen=True)
class Player:
    """One player: ``sheets`` as written (relative to tournament.yaml),
    ``drop``: the first round they no longer play, or ``None``."""

    id: str
    name: str
    sheets: tuple[str, ...]
    army: str
    drop: int | None = None

    def plays(self, round_number: int) -> bool:
        return self.drop is None or round_number < self.drop


@dataclass(frozen=True)
class Army:
    """The players who fight on one side, in roster order."""

    id: str
    players: tuple[Player, ...]

    def active(self, round_number: int) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.plays(round_number))


@dataclass(frozen=True)
class Round:
    """A round's folder and reports folder (paths as written, relative to
    tournament.yaml) and its deadline (an aware instant)."""

    number: int
    folder: str
    reports: str
    deadline: dt.datetime


@dataclass(frozen=True)
class Tournament:
    """A loaded, checked ``tournament.yaml``.

    :param root: the folder holding tournament.yaml; every path is relative to it.
    """

    root: Path
    name: str
    format: str
    ruleset: str
    army_size: int
    points: Points
    tiebreaks: tuple[str, ...]
    costs: Costs
    draw_rule: tuple[str, ...]
    visibility: str
    timezone: str
    lang: str
    players: tuple[Player, ...]
    rounds: tuple[Round, ...]
    armies: tuple[Army, ...] = field(default=())

    def player(self, player_id: str) -> Player:
        return next(p for p in self.players if p.id == player_id)

    def army(self, army_id: str) -> Army:
        return next(a for a in self.armies if a.id == army_id)

    def round(self, number: int) -> Round:
        return self.rounds[number - 1]

    def path(self, rel: str) -> Path:
        return self.root / rel


def read_tournament(path: str | Path) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """Parse ``tournament.yaml`` and check its shape (``referee check`` style)."""
    doc, diags = read_yaml_file(path, root=Path(path).parent)
    if doc is None:
        return None, diags
    if not isinstance(doc.data, dict):
        return None, diags + [doc.diagnostic((), "wrong-type", "a tournament file is a mapping with name, format, "
                                                               "players and rounds")]
    return doc, diags + schema_diagnostics(doc, "tournament")


def check_tournament_file(path: str | Path) -> list[Diagnostic]:
    """Every diagnostic of a tournament file (``referee check tournament.yaml``)."""
    try:
        load_tournament(path)
    except ReferError as err:
        return list(err.diagnostics)
    return []


def load_tournament(path: str | Path) -> Tournament:
    """Load and check a tournament (a folder holding tournament.yaml, or the file).

    :raises ReferError: with every diagnostic, each at its line and column.
    """
    file = Path(path)
    if file.is_dir():
        file = file / TOURNAMENT_FILE
    doc, diags = read_tournament(file)
    if doc is None or has_errors(diags):
        raise ReferError(diags)
    checker = _Checker(doc, file.parent)
    tournament = checker.check()
    if has_errors(checker.diags) or tournament is None:
        raise ReferError(sorted(set(checker.diags), key=lambda d: (d.line, d.column, d.code, d.message)))
    return tournament


_DEADLINE = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:\d{2})$")


class _Checker:
    """The meaning checks over a document whose shape is valid."""

    def __init__(self, doc: YamlDocument, root: Path) -> None:
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.root = root
        self.diags: list[Diagnostic] = []

    def error(self, path: tuple[Any, ...], code: str, message: str, **kw: Any) -> None:
        self.diags.append(self.doc.diagnostic(path, code, message, **kw))

    def check(self) -> Tournament | None:
        data = self.data
        problem = name_problem(data["name"], "a tournament's name")
        if problem:
            self.error(("name",), "bad-name", problem)
        fmt = data["format"]
        army_size = data.get("army_size", 1)
        players = self._players(army_size)
        armies = self._armies(players, army_size)
        rounds = self._rounds()
        tiebreaks = self._tiebreaks()
        draw_rule = tuple(data.get("draw_rule", ("survivors", "hp", "lot")))
        if "draw_rule" in data and fmt != "single-elimination":
            self.error(("draw_rule",), "not-for-format",
                       f"draw_rule decides who advances in single-elimination; a {fmt} tournament counts draws",
                       at_key=True)
        if len(set(draw_rule)) != len(draw_rule):
            self.error(("draw_rule",), "duplicate-entry", "draw_rule lists a rule twice")
        timezone = data.get("timezone", "UTC")
        try:
            zoneinfo.ZoneInfo(timezone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            self.error(("timezone",), "unknown-timezone", f"no time zone called {timezone!r}",
                       hint="an IANA name such as Europe/Paris, Asia/Tokyo or UTC")
        ruleset = data.get("ruleset", "tcgt")
        self._ruleset(ruleset)
        self._format_fits(fmt, len(armies), len(rounds))
        if has_errors(self.diags):
            return None
        return Tournament(
            root=self.root, name=data["name"], format=fmt, ruleset=ruleset, army_size=army_size,
            points=Points(**data.get("points", {})), tiebreaks=tiebreaks, costs=Costs(**data.get("costs", {})),
            draw_rule=draw_rule, visibility=data.get("visibility", "after-round"), timezone=timezone,
            lang=data.get("lang", "en"), players=players, rounds=rounds, armies=armies)

    def _inside(self, rel: str, field: tuple[Any, ...], what: str) -> Path | None:
        """``rel`` inside the tournament's folder (symlinks resolved), else an error."""
        if Path(rel).is_absolute() or rel.startswith("~"):
            self.error(field, "path-outside", f"{what} {rel!r} must be relative to tournament.yaml")
            return None
        try:
            return confine(self.root / rel, self.root, rel)
        except UnsafePathError as err:
            self.error(field, err.problem.code, f"{what}: {err.problem.message}")
            return None

    def _players(self, army_size: int) -> tuple[Player, ...]:
        out = []
        ids: dict[str, int] = {}
        owners: dict[Path, str] = {}
        for i, raw in enumerate(self.data["players"]):
            pid = raw["id"]
            if pid in ids:
                self.error(("players", i, "id"), "duplicate-id", f"player id {pid!r} is already player {ids[pid] + 1}'s")
            ids.setdefault(pid, i)
            name = raw.get("name", pid)
            problem = name_problem(name, "a player's name")
            if problem:
                self.error(("players", i, "name"), "bad-name", problem)
            for j, sheet in enumerate(raw["sheets"]):
                where = ("players", i, "sheets", j)
                real = self._inside(sheet, where, "sheet")
                if real is None:
                    continue
                if not real.exists():
                    self.error(where, "file-not-found", f"sheet {sheet!r} does not exist (looked in {self.root})")
                elif not real.is_file():
                    self.error(where, "not-a-file", f"sheet {sheet!r} is not a regular file; it was not read")
                elif real in owners:
                    self.error(where, "sheet-owned-twice", f"sheet {sheet!r} is already {owners[real]}'s; "
                                                           "a sheet has one owner")
                else:
                    owners[real] = pid
            names = [Path(s).name for s in raw["sheets"]]
            for j, base in enumerate(names):
                if base in names[:j]:
                    self.error(("players", i, "sheets", j), "duplicate-file-name",
                               f"{pid} has two sheets named {base!r}; a round keeps a player's sheets in one folder")
            if army_size > 1 and "army" not in raw:
                self.error(("players", i), "missing-field",
                           f"player {pid!r} names no army; with army_size {army_size} every player names one",
                           at_key=True)
            if army_size == 1 and "army" in raw:
                self.error(("players", i, "army"), "not-for-format",
                           "army: with army_size 1 every player is an army of one", at_key=True)
            drop = raw.get("drop")
            if drop is not None and drop > len(self.data["rounds"]):
                self.error(("players", i, "drop"), "out-of-range",
                           f"drop: {drop} is after the last round ({len(self.data['rounds'])})")
            out.append(Player(pid, name, tuple(raw["sheets"]), raw.get("army", pid), drop))
        return tuple(out)

    def _armies(self, players: tuple[Player, ...], army_size: int) -> tuple[Army, ...]:
        members: dict[str, list[Player]] = {}
        for p in players:
            members.setdefault(p.army, []).append(p)
        armies = tuple(Army(a, tuple(ps)) for a, ps in members.items())
        for army in armies:
            if len(army.players) > army_size:
                first = next(i for i, raw in enumerate(self.data["players"]) if raw.get("army") == army.id)
                self.error(("players", first, "army"), "army-too-large",
                           f"army {army.id!r} has {len(army.players)} players; army_size is {army_size}")
        if len(armies) < 2:
            self.error(("players",), "too-few-armies", "a tournament needs at least two armies", at_key=True)
        return armies

    def _rounds(self) -> tuple[Round, ...]:
        out: list[Round] = []
        folders: dict[str, int] = {}
        for i, raw in enumerate(self.data["rounds"]):
            folder = raw["folder"].rstrip("/")
            real = self._inside(folder, ("rounds", i, "folder"), "round folder")
            if real is not None:
                key = str(real)
                if key in folders:
                    self.error(("rounds", i, "folder"), "duplicate-folder",
                               f"round {i + 1} uses round {folders[key] + 1}'s folder {folder!r}")
                folders.setdefault(key, i)
                if real == self.root.resolve():
                    self.error(("rounds", i, "folder"), "bad-folder", "a round needs a folder of its own below "
                                                                      "tournament.yaml's")
            reports = raw.get("reports", f"{folder}/reports")
            if "reports" in raw:
                self._inside(reports, ("rounds", i, "reports"), "reports folder")
            when = _DEADLINE.match(raw["deadline"])
            deadline = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
            if when is not None:
                date, clock, zone = when.groups()
                try:
                    deadline = dt.datetime.fromisoformat(f"{date}T{clock}{'+00:00' if zone == 'Z' else zone}")
                except ValueError as err:
                    self.error(("rounds", i, "deadline"), "invalid-value", f"deadline {raw['deadline']!r}: {err}")
            if out and deadline <= out[-1].deadline:
                self.error(("rounds", i, "deadline"), "deadline-order",
                           f"round {i + 1}'s deadline is not after round {i}'s")
            out.append(Round(i + 1, folder, reports.rstrip("/"), deadline))
        return tuple(out)

    def _tiebreaks(self) -> tuple[str, ...]:
        tiebreaks = tuple(self.data.get("tiebreaks", TIEBREAKS))
        if tiebreaks[0] != "points":
            self.error(("tiebreaks", 0), "invalid-value", "the standings rank by points first: tiebreaks starts "
                                                          "with points")
        for i, name in enumerate(tiebreaks):
            if name in tiebreaks[:i]:
                self.error(("tiebreaks", i), "duplicate-entry", f"tiebreaks lists {name} twice")
        if "lot" in tiebreaks and tiebreaks[-1] != "lot":
            self.error(("tiebreaks", tiebreaks.index("lot")), "invalid-value",
                       "lot is the last word: nothing can break a tie the lot leaves, so it comes last")
        return tiebreaks

    def _ruleset(self, ruleset: str) -> None:
        if is_builtin_name(ruleset):
            try:
                load_ruleset(ruleset)
            except ReferError as err:
                self.error(("ruleset",), "unknown-ruleset", err.diagnostics[0].message, hint=err.diagnostics[0].hint)
            return
        real = self._inside(ruleset, ("ruleset",), "ruleset")
        if real is None:
            return
        try:
            load_ruleset(real, root=self.root)
        except ReferError as err:
            self.diags.extend(err.diagnostics)

    def _format_fits(self, fmt: str, armies: int, rounds: int) -> None:
        if fmt == "round-robin" and rounds > armies - (armies % 2 == 0):
            self.error(("rounds",), "too-many-rounds",
                       f"a round-robin of {armies} armies has {armies - (armies % 2 == 0)} rounds, not {rounds}",
                       at_key=True)
        if fmt == "single-elimination" and rounds != (armies - 1).bit_length():
            self.error(("rounds",), "wrong-round-count",
                       f"single elimination of {armies} armies takes {(armies - 1).bit_length()} rounds, not {rounds}",
                       at_key=True)
