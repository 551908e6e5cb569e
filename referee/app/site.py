"""``referee site``: the tournament's static site, from what the referee
already wrote (docs/tournament.md, "The site").

Pages: an index (the next deadline in UTC and the tournament's time zone,
the rounds, the standings), a page per round (results, byes, who played
with their own files and whose were missing, the seed commitment and after
the reveal the secret, the standings after it), a page per battle (the
result; once public, the HTML replay and the text report, rendered from the
JSON report by :mod:`referee.report`, and the JSON itself for ``replay``),
a page per player (their battles and record; once public, their sheets),
an Atom feed and a BBCode post per round for a forum.

Every page comes from a Jinja2 template with autoescaping on, so no name,
title or plan can open a tag; every link is relative, so the site works
from a folder and on any host.  ``visibility`` decides when plans and
sheets are published (every report embeds every plan): ``after-round``
once the round's results are in, ``after-tournament`` once every round's are.
Nothing here reads a clock: the same files give the same site.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
import zoneinfo
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import jinja2

from referee.app.ledger import BattleRecord, RoundRecord, read_ledger
from referee.app.pipeline import write_atomic
from referee.app.ranking import Standings
from referee.app.tournament import Round, Tournament
from referee.app.tourney import standings_document, standings_of, table_rows
from referee.confine import read_untrusted, read_untrusted_text
from referee.diagnostics import Diagnostic
from referee.limits import MAX_REPORT_BYTES
from referee.report import render
from referee.report.forum import BBCodeMarkup
from referee.report.messages import MESSAGES, message, team_label
from referee.report.record import report_from_json

__all__ = ["Cell", "build_site"]


@dataclass(frozen=True)
class Cell:
    """A table cell: its text and, for a link, its relative address."""

    text: str
    href: str = ""


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("referee", "templates"), autoescape=True,
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def _when(t: Tournament, spec: Round) -> dict[str, Any]:
    local = spec.deadline.astimezone(zoneinfo.ZoneInfo(t.timezone))
    utc = spec.deadline.astimezone(dt.timezone.utc)
    return {"number": spec.number, "iso": utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "utc": utc.strftime("%Y-%m-%d %H:%M UTC"), "local": f"{local.strftime('%Y-%m-%d %H:%M')} {t.timezone}"}


class _Site:
    def __init__(self, t: Tournament, ledger: list[RoundRecord], lang: str) -> None:
        self.t, self.ledger, self.lang = t, ledger, lang
        self.env = _environment()
        self.names = {p.id: p.name for p in t.players}
        self.finished = all(r.resolved for r in ledger)
        self.files: dict[str, str] = {}

    def say(self, key: str, **fields: Any) -> str:
        return message(self.lang, key, **fields) if fields else MESSAGES[self.lang][key]

    def public(self, record: RoundRecord) -> bool:
        """Plans, sheets and reports of this round may be published."""
        return record.resolved and (self.t.visibility == "after-round" or self.finished)

    def page(self, path: str, template: str, **context: Any) -> None:
        root = "../" * path.count("/")
        self.files[path] = self.env.get_template(template).render(
            t=self.t, lang=self.lang, root=root, say=self.say, rounds=self.rounds_summary(), **context)

    def state(self, record: RoundRecord) -> str:
        if record.resolved:
            return self.say("site.state_resolved", battles=len(record.battles))
        if record.paired:
            return self.say("site.state_paired", battles=len(record.battles))
        return self.say("site.state_unpaired")

    def rounds_summary(self) -> list[dict[str, Any]]:
        return [{**_when(self.t, self.t.round(r.number)), "state": self.state(r), "resolved": r.resolved,
                 "commitment": r.commitment, "secret": r.secret} for r in self.ledger]

    def standings_tables(self, standing: Standings, root: str) -> dict[str, Any]:
        armies = {p.id: p.army for p in self.t.players} if self.t.army_size > 1 else {}
        header, rows = table_rows(standing, self.names, armies, "player", self.t.tiebreaks, self.lang)
        ids = [e.id for e in standing.players]
        linked = [[Cell(c, f"{root}players/{ids[i]}.html" if k == 1 else "") for k, c in enumerate(row)]
                  for i, row in enumerate(rows)]
        out: dict[str, Any] = {"players_header": header, "players_rows": linked,
                               "standings_title": message(self.lang, "tournament.standings_title", name=self.t.name,
                                                          round=standing.upto),
                               "armies_header": [], "armies_rows": []}
        if self.t.army_size > 1:
            header, rows = table_rows(standing, {}, {}, "army", self.t.tiebreaks, self.lang)
            out["armies_header"], out["armies_rows"] = header, [[Cell(c) for c in row] for row in rows]
        return out

    def result_line(self, b: BattleRecord) -> str:
        if not b.resolved:
            return self.say("site.no_result", status=b.status)
        if not b.fought:
            return self.say("site.forfeited", winner=team_label(self.lang, b.winner) if b.winner != "none"
                            else self.say("none"))
        winner = (self.say("result.draw_word") if b.winner == "draw"
                  else self.say("site.wins", team=team_label(self.lang, b.winner)))
        return self.say("site.result", winner=winner, turns=b.turns, white=b.left.get("white", 0),
                        black=b.left.get("black", 0), white_hp=b.hp.get("white", 0), black_hp=b.hp.get("black", 0))

    def side_names(self, side: Any) -> str:
        return ", ".join(self.names[p] for p in side.players)

    # -- pages ---------------------------------------------------------

    def index(self) -> None:
        upcoming = next((r for r in self.ledger if not r.resolved), None)
        upto = max((r.number for r in self.ledger if r.resolved), default=0)
        self.page("index.html", "index.html",
                  next=_when(self.t, self.t.round(upcoming.number)) if upcoming else None,
                  **self.standings_tables(standings_of(self.t, self.ledger, upto), ""))

    def round(self, record: RoundRecord) -> None:
        rows, header = [], [self.say(f"site.col.{c}") for c in ("table", "white", "black", "result")]
        for k, b in enumerate(record.battles, 1):
            rows.append([Cell(str(k), f"../battles/{record.number}/{_stem(b)}.html"), Cell(self.side_names(b.white)),
                         Cell(self.side_names(b.black)), Cell(self.result_line(b))])
        missing = [f"{self.names[p]} ({policy})" for b in record.battles for p, policy, _ in b.nmr]
        late = {p for b in record.battles for p, _, _ in b.nmr}
        received = [self.names[p] for b in record.battles for p in (*b.white.players, *b.black.players) if p not in late]
        tables = (self.standings_tables(standings_of(self.t, self.ledger, record.number), "../") if record.resolved
                  else {"players_header": [], "players_rows": [], "armies_header": [], "armies_rows": [],
                        "standings_title": ""})
        self.page(f"rounds/{record.number}.html", "round.html", r=self.rounds_summary()[record.number - 1],
                  battle_header=header, battle_rows=rows, byes=[self.side_names(s) for s in record.byes],
                  left_out=[self.names[p] for p in record.left_out], received=received, missing=missing, **tables)

    def battle(self, record: RoundRecord, b: BattleRecord) -> None:
        stem = _stem(b)
        public = self.public(record) and b.fought
        text = ""
        base = f"battles/{record.number}/{stem}"
        if public:
            path = self.t.path(self.t.round(record.number).reports) / f"{stem}.json"
            raw = read_untrusted(path, limit=MAX_REPORT_BYTES).decode("utf-8")
            report = report_from_json(json.loads(raw))
            text = render(report, "text", self.lang)
            self.files[f"{base}.replay.html"] = render(report, "html", self.lang)
            self.files[f"{base}.json"] = raw
        people = {team: [{"id": p, "name": self.names[p]} for p in b.side(team).players] for team in ("white", "black")}
        title = self.say("site.battle_title", round=record.number, table=int(stem[1:]) if stem[1:].isdigit() else stem)
        self.page(f"{base}.html", "battle.html", b={"title": title, "round": record.number, "stem": stem,
                                                    "result": self.result_line(b), "public": public, "text": text,
                                                    **people})

    def player(self, pid: str, standing: Standings) -> None:
        p = self.t.player(pid)
        entry = next(e for e in standing.players if e.id == pid)
        header = [self.say(f"site.col.{c}") for c in ("round", "side", "opponents", "result", "survivors")]
        rows, sheets = [], []
        for record in self.ledger:
            for b in record.battles:
                for team in ("white", "black"):
                    if pid in b.side(team).players:
                        other = b.side("black" if team == "white" else "white")
                        rows.append([Cell(str(record.number), f"../battles/{record.number}/{_stem(b)}.html"),
                                     Cell(team_label(self.lang, team)), Cell(self.side_names(other)),
                                     Cell(self.result_line(b)), Cell(str(b.survivors.get(pid, "")))])
                        if self.public(record):
                            sheets = [(record.number, s) for s in b.side(team).sheets[pid]]
            for side in record.byes:
                if pid in side.players:
                    rows.append([Cell(str(record.number), f"../rounds/{record.number}.html"), Cell(""),
                                 Cell(self.say("site.bye")), Cell(""), Cell("")])
        shown = []
        for number, rel in sheets:
            folder = self.t.path(self.t.round(number).folder)
            text, _ = read_untrusted_text(folder / rel, folder, shown=rel)
            if text is not None:  # a sheet gone, or no longer a file: its page lists the battles only
                shown.append({"name": self.say("site.sheet", name=Path(rel).name, round=number), "text": text})
        self.page(f"players/{pid}.html", "player.html",
                  p={"name": p.name, "army": p.army, "rank": f"{entry.rank}{'=' if entry.tied else ''}",
                     "points": entry.points, "record": entry.record(), "dropped": p.drop},
                  header=header, rows=rows, sheets=shown)

    def feed(self) -> None:
        feed_id = uuid.uuid5(uuid.NAMESPACE_URL, f"tcgt-referee:tournament:{self.t.name}")
        entries = []
        for record in self.ledger:
            if not record.paired:
                continue
            when = _when(self.t, self.t.round(record.number))["iso"]
            key = "resolved" if record.resolved else "paired"
            entries.append({"title": self.say(f"site.feed_{key}", n=record.number),
                            "id": f"urn:uuid:{uuid.uuid5(feed_id, f'round-{record.number}-{key}')}",
                            "updated": when, "href": f"rounds/{record.number}.html", "summary": self.state(record)})
        entries.reverse()
        updated = entries[0]["updated"] if entries else _when(self.t, self.t.rounds[0])["iso"]
        self.files["feed.atom"] = self.env.get_template("feed.atom").render(
            t=self.t, feed_id=f"urn:uuid:{feed_id}", updated=updated, entries=entries)

    def forum(self, record: RoundRecord) -> None:
        """The round's BBCode post: results, byes, missing files, seeds, standings."""
        markup = BBCodeMarkup()
        lines = markup.title(f"{self.t.name}: {self.say('site.round', n=record.number)}") + [""]
        rows = [[str(k), self.side_names(b.white), self.side_names(b.black), self.result_line(b)]
                for k, b in enumerate(record.battles, 1)]
        lines += markup.table([self.say(f"site.col.{c}") for c in ("table", "white", "black", "result")], rows)
        if record.byes:
            lines += [""] + markup.para(f"{self.say('site.byes')}: " + "; ".join(self.side_names(s) for s in record.byes))
        missing = [f"{self.names[p]} ({policy})" for b in record.battles for p, policy, _ in b.nmr]
        lines += [""] + markup.para(f"{self.say('site.missing_list')}: {', '.join(missing) or self.say('none')}")
        if record.commitment:
            lines += markup.para(f"{self.say('site.commitment')}: {record.commitment}")
            lines += markup.para(f"{self.say('site.secret')}: {record.secret}" if record.secret
                                 else self.say("site.secret_hidden"))
        if record.resolved:
            lines += [""] + standings_document(self.t, standings_of(self.t, self.ledger, record.number), markup,
                                               self.lang)
        self.files[f"forum/round-{record.number}.bbcode"] = "\n".join(lines) + "\n"

    def build(self) -> dict[str, str]:
        self.files["style.css"] = self.env.loader.get_source(self.env, "style.css")[0]  # type: ignore[union-attr]
        self.index()
        final = standings_of(self.t, self.ledger, max((r.number for r in self.ledger if r.resolved), default=0))
        for record in self.ledger:
            self.round(record)
            if record.paired:
                self.forum(record)
            for b in record.battles:
                self.battle(record, b)
        for p in self.t.players:
            self.player(p.id, final)
        self.feed()
        return self.files


def _stem(b: BattleRecord) -> str:
    return b.battle.rsplit(".battle.", 1)[0]


def build_site(t: Tournament, outdir: str | Path, lang: str | None = None,
               progress: Callable[[str], None] | None = None) -> tuple[list[str], list[Diagnostic]]:
    """Write the site into ``outdir``; its files (relative paths) and the
    ledger's diagnostics (warnings: a round with a problem is shown as far
    as it goes)."""
    ledger, diags = read_ledger(t)
    files = _Site(t, ledger, lang or t.lang).build()
    out = Path(outdir)
    for rel, text in sorted(files.items()):
        write_atomic(out / rel, text, root=out)
        if progress is not None:
            progress(rel)
    return sorted(files), diags

