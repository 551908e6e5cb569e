"""The tournament's commands' work: pair a round into battle files, write
the standings and their export (``referee tournament pair|standings``).

Pairing a round reads the ledger so far (:mod:`referee.app.ledger`), ranks
it (:mod:`referee.app.ranking`), pairs the active armies
(:mod:`referee.app.pairing`) and writes the round's folder: one battle file
per table naming the players' sheets, copied into ``ROUND/sheets/PLAYER/``
(a battle file never names a path outside its folder), and
``pairings.json``.  Nothing there is overwritten: a sheet already in the
round (the mail intake's newer copy) stays, and a round already paired is
paired again only with ``replace`` and never once its seeds are committed
-- new battle files after the commitment would let the organiser choose
which battle gets which seed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from referee.app.batch import find_battles
from referee.app.ledger import PAIRINGS_FILE, BattleRecord, RoundRecord, Side, ledger_from_json, ledger_json, read_ledger
from referee.app.pairing import ArmyRecord, Pairing, bracket_order, pair_elimination, pair_round_robin, pair_swiss
from referee.app.pipeline import write_atomic
from referee.app.ranking import Entry, Rules, Standings, lot_value, rank
from referee.app.seeds import COMMITMENT_FILE
from referee.app.tournament import Points, Tournament
from referee.confine import UnsafePathError, confine, read_untrusted
from referee.diagnostics import Diagnostic, ReferError, has_errors
from referee.report.markup import Markup
from referee.report.messages import message
from referee.ruleset import is_builtin_name
from referee.textfile import decode_text
from referee.yamlio import load_yaml

__all__ = ["PairedRound", "rules_of", "plan_round", "write_round", "standings_of", "standings_document",
           "standings_export", "recheck_export", "HOUSE_RULESET", "write_standings", "pairings_json", "table_rows"]

#: The name a tournament's house ruleset takes in each round folder.
HOUSE_RULESET = "house.ruleset.yaml"


@dataclass(frozen=True)
class PairedRound:
    """What ``pair`` writes: the battles (with their sides), the byes, who
    is left out, and for single elimination the bracket."""

    number: int
    battles: tuple[BattleRecord, ...]
    byes: tuple[Side, ...]
    left_out: tuple[str, ...]
    bracket: tuple[tuple[str | None, str | None], ...] = ()


def rules_of(t: Tournament) -> Rules:
    return Rules(t.points, t.tiebreaks, tuple(p.id for p in t.players), tuple(a.id for a in t.armies),
                 {p.id: p.army for p in t.players})


def _fail(t: Tournament, code: str, text: str, hint: str | None = None) -> ReferError:
    return ReferError([Diagnostic(str(t.root / "tournament.yaml"), 0, 0, code, text, hint=hint)])


def _ready(t: Tournament, number: int, ledger: list[RoundRecord]) -> None:
    """Round ``number`` can be paired: it exists, and (but for a round-robin,
    whose schedule needs no result) every earlier round is resolved whole."""
    if not 1 <= number <= len(t.rounds):
        raise _fail(t, "no-such-round", f"round {number}: the tournament has rounds 1 to {len(t.rounds)}")
    if t.format == "round-robin":
        return
    for record in ledger[: number - 1]:
        if not record.resolved:
            raise _fail(t, "round-not-resolved", f"round {record.number} has no results yet; round {number} is paired "
                                                 "from the standings after it",
                        hint=f"referee batch {t.round(record.number).folder}")
        broken = [b.battle for b in record.battles if not b.resolved]
        if broken:
            raise _fail(t, "round-not-resolved", f"round {record.number}: {', '.join(broken)} did not resolve",
                        hint="mend the battle and run referee batch again")


def _army_records(t: Tournament, ledger: list[RoundRecord], standing: Standings, active: list[str]) -> list[ArmyRecord]:
    met: dict[str, dict[str, int]] = {a: {} for a in active}
    whites = dict.fromkeys(active, 0)
    blacks = dict.fromkeys(active, 0)
    byes = dict.fromkeys(active, 0)
    for record in ledger:
        for b in record.battles:
            for one, two in ((b.white.army, b.black.army), (b.black.army, b.white.army)):
                if one in met:
                    met[one][two] = met[one].get(two, 0) + 1
            if b.white.army in whites:
                whites[b.white.army] += 1
            if b.black.army in blacks:
                blacks[b.black.army] += 1
        for side in record.byes:
            if side.army in byes:
                byes[side.army] += 1
    points = {e.id: e.points for e in standing.armies}
    order = [e.id for e in standing.armies if e.id in met]
    return [ArmyRecord(a, points[a], met[a], whites[a], blacks[a], byes[a]) for a in order]


def _advancer(t: Tournament, battle: BattleRecord, secret: str) -> str | None:
    """The army that goes on from an elimination battle: the winner, or by
    the declared draw rule; nobody when both sides forfeited."""
    if battle.winner in ("white", "black"):
        return battle.side(battle.winner).army
    if battle.winner == "none":
        return None
    seeds = {a.id: i for i, a in enumerate(t.armies)}
    for rule in t.draw_rule:
        score: Callable[[str], Any] = {
            "survivors": lambda team: -battle.left.get(team, 0),
            "hp": lambda team: -battle.hp.get(team, 0),
            "seed": lambda team: seeds[battle.side(team).army],
            "lot": lambda team: lot_value(secret, "army", battle.side(team).army),
        }[rule]
        if rule == "lot" and not secret:
            raise _fail(t, "lot-undecided", f"round {battle.round}, {battle.battle} was drawn and the draw rule "
                                             "comes to the lot, which needs the round's revealed secret",
                        hint=f"referee seeds reveal {t.round(battle.round).folder}")
        white, black = score("white"), score("black")
        if white != black:
            return battle.white.army if white < black else battle.black.army
    raise _fail(t, "draw-undecided", f"round {battle.round}, {battle.battle} was drawn and no draw rule decides it",
                hint="end draw_rule with seed or lot")


def plan_round(t: Tournament, number: int, ledger: list[RoundRecord] | None = None) -> PairedRound:
    """Round ``number``'s pairing from the ledger of the rounds before it.

    :raises ReferError: the round does not exist, or an earlier one is not resolved.
    """
    if ledger is None:
        ledger, diags = read_ledger(t, number - 1)
        if has_errors(diags):
            raise ReferError(diags)
    _ready(t, number, ledger)
    active = [a.id for a in t.armies if a.active(number)]
    live = set(active)
    bracket: list[list[str | None]] = []
    if t.format == "swiss":
        standing = standings_of(t, ledger, exclude_lot=True)
        pairing = pair_swiss(_army_records(t, ledger, standing, active), t.costs, number)
    elif t.format == "round-robin":
        pairing = pair_round_robin([a.id for a in t.armies], number, lambda a: a in live)
    else:
        if number == 1:
            size = 2 ** len(t.rounds)
            seeded = [t.armies[s - 1].id if s <= len(t.armies) else None for s in bracket_order(size)]
        else:
            before = ledger[number - 2]
            won = {frozenset((b.white.army, b.black.army)): _advancer(t, b, before.secret) for b in before.battles}
            seeded = [won.get(frozenset((a, b)), a or b) if a and b else (a or b) for a, b in before.bracket]
        pairing, bracket = pair_elimination([a if a in live else None for a in seeded], number)
    return _sides(t, number, pairing, bracket)


def _side(t: Tournament, army: str, number: int) -> Side:
    players = t.army(army).active(number)
    return Side(army, tuple(p.id for p in players),
                {p.id: tuple(f"sheets/{p.id}/{Path(s).name}" for s in p.sheets) for p in players})


def _sides(t: Tournament, number: int, pairing: Pairing, bracket: list[list[str | None]]) -> PairedRound:
    width = len(str(len(pairing.battles)))
    battles = tuple(BattleRecord(number, f"t{k:0{width}d}.battle.yaml", _side(t, w, number), _side(t, b, number))
                    for k, (w, b) in enumerate(pairing.battles, 1))
    byes = tuple(_side(t, a, number) for a in pairing.byes)
    playing = {p for b in battles for p in (*b.white.players, *b.black.players)} | {p for s in byes for p in s.players}
    return PairedRound(number, battles, byes, tuple(p.id for p in t.players if p.id not in playing),
                       tuple((a, b) for a, b in bracket))


def _display(t: Tournament, side: Side) -> str:
    return t.player(side.players[0]).name if t.army_size == 1 and side.players else side.army


def _battle_file(t: Tournament, paired: PairedRound, battle: BattleRecord, table: int) -> str:
    title = f"{t.name}: round {paired.number}, table {table}"
    title = title if len(title) <= 100 else f"Round {paired.number}, table {table}"
    ruleset = t.ruleset if is_builtin_name(t.ruleset) else HOUSE_RULESET
    lines = [f"title: {json.dumps(title, ensure_ascii=False)}", f"ruleset: {json.dumps(ruleset)}", "teams:"]
    for team in ("white", "black"):
        side = battle.side(team)
        sheets = [s for p in side.players for s in side.sheets[p]]
        lines.append(f"  {team}: [{', '.join(json.dumps(s, ensure_ascii=False) for s in sheets)}]"
                     f"   # {json.dumps(_display(t, side), ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def _copy_new(source: Path, target: Path, root: Path) -> bytes:
    """Copy ``source`` (a regular file inside the tournament's folder, within
    the input size limit) to ``target`` unless ``target`` exists: a file the
    round already holds stays.  Returns what was read.

    :raises UnsafePathError: the source is outside, not a regular file, or too large.
    """
    raw = read_untrusted(source, root)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, raw.decode("utf-8", "replace"))
    return raw


def _plan_file(sheet: bytes, shown: str) -> str | None:
    """The plan file a sheet names (``plan: kagura.plan``), else None."""
    text, _ = decode_text(sheet, shown)
    doc, _ = load_yaml(text, shown) if text is not None else (None, [])
    plan = doc.data.get("plan") if doc is not None and isinstance(doc.data, dict) else None
    return plan if isinstance(plan, str) and "\n" not in plan.strip() and plan.strip().endswith(".plan") else None


def pairings_json(t: Tournament, paired: PairedRound) -> str:
    record = RoundRecord(paired.number, True, False, paired.battles, paired.byes, paired.left_out,
                         bracket=paired.bracket)
    data = ledger_json([record])[0]
    body = {"tournament": t.name, "round": paired.number, "format": t.format,
            "battles": [{"battle": b["battle"], "table": k, "white": b["white"], "black": b["black"]}
                        for k, b in enumerate(data["battles"], 1)],
            "byes": data["byes"], "left_out": data["left_out"],
            **({"bracket": data["bracket"]} if "bracket" in data else {})}
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def write_round(t: Tournament, paired: PairedRound, *, replace_existing: bool = False) -> Path:
    """Write the round's folder: sheets (new ones only), the house ruleset,
    one battle file per table, ``pairings.json`` last.

    :raises ReferError: the round is already paired (without ``replace_existing``),
        committed or resolved.
    """
    spec = t.round(paired.number)
    folder = t.path(spec.folder)
    if (folder / COMMITMENT_FILE).exists():
        raise _fail(t, "round-committed", f"round {paired.number}'s seeds are committed; its battles can no longer "
                                          "change", hint="a committed round is paired once, before the commitment")
    if (t.path(spec.reports) / "standings.json").exists():
        raise _fail(t, "round-resolved", f"round {paired.number} has results ({spec.reports}/standings.json); "
                                         "its battles can no longer change")
    old = find_battles(folder) if folder.is_dir() else []
    if (old or (folder / PAIRINGS_FILE).exists()) and not replace_existing:
        raise _fail(t, "round-paired", f"round {paired.number} is already paired ({spec.folder})",
                    hint="--replace writes its battle files and pairings.json again")
    try:
        confine(folder, t.root, spec.folder)
        for p in t.players:
            if p.id in paired.left_out:
                continue
            for sheet in p.sheets:
                source = t.path(sheet)
                target = folder / "sheets" / p.id / source.name
                plan = _plan_file(_copy_new(source, target, t.root), sheet)
                if plan is not None:
                    _copy_new(source.parent / plan, target.parent / plan, t.root)
        if not is_builtin_name(t.ruleset):
            _copy_new(t.path(t.ruleset), folder / HOUSE_RULESET, t.root)
    except UnsafePathError as err:
        raise _fail(t, err.problem.code, err.problem.message) from None
    for path in old:
        path.unlink()
    for k, battle in enumerate(paired.battles, 1):
        write_atomic(folder / battle.battle, _battle_file(t, paired, battle, k), root=folder)
    write_atomic(folder / PAIRINGS_FILE, pairings_json(t, paired), root=folder)
    return folder


def standings_of(t: Tournament, ledger: list[RoundRecord], upto: int | None = None, *,
                 exclude_lot: bool = False) -> Standings:
    rules = rules_of(t)
    if exclude_lot:
        rules = replace(rules, tiebreaks=tuple(x for x in rules.tiebreaks if x != "lot"))
    return rank(rules, ledger, upto)


# -------------------------------------------------------------- the tables


_COLUMNS = ("opponents-points", "survivors", "hp-margin", "head-to-head", "lot")


def _cell(entry: Entry, name: str, lang: str) -> str:
    if name not in entry.values:
        return "-"
    value = entry.values[name]
    if name == "lot":
        return str(value) or message(lang, "tournament.undecided")
    if name == "hp-margin":
        return f"{value:+d}"
    return str(value)


def table_rows(standing: Standings, t_names: dict[str, str], armies: dict[str, str], kind: str,
               tiebreaks: tuple[str, ...], lang: str) -> tuple[list[str], list[list[str]]]:
    """A table's header and rows, every tie-break's value shown."""
    shown = [c for c in _COLUMNS if c in tiebreaks]
    header = [message(lang, f"tournament.col.{c}") for c in ("rank", kind)]
    if kind == "player" and armies:
        header.append(message(lang, "tournament.col.army"))
    header += [message(lang, f"tournament.col.{c}") for c in ("points", "record", "byes")]
    header += [message(lang, f"tournament.col.{c}") for c in shown]
    rows = []
    for e in (standing.players if kind == "player" else standing.armies):
        row = [f"{e.rank}{'=' if e.tied else ''}", t_names.get(e.id, e.id)]
        if kind == "player" and armies:
            row.append(armies.get(e.id, ""))
        row += [str(e.points), e.record(), str(e.byes)]
        row += [_cell(e, c, lang) for c in shown]
        rows.append(row)
    return header, rows


def standings_document(t: Tournament, standing: Standings, markup: Markup, lang: str) -> list[str]:
    """The standings as a document (Markdown, BBCode, text): both tables,
    the unresolved battles, how ties were broken."""
    names = {p.id: p.name for p in t.players}
    armies = {p.id: p.army for p in t.players} if t.army_size > 1 else {}
    out = markup.title(message(lang, "tournament.standings_title", name=t.name, round=standing.upto))
    out += [""]
    out += markup.para(message(lang, "tournament.tiebreaks",
                               order=", ".join(message(lang, f"tournament.col.{c}") for c in t.tiebreaks)))
    if "lot" in t.tiebreaks and not standing.lot_secret:
        out += [""] + markup.para(message(lang, "tournament.lot_undecided"))
    out += [""] + markup.heading(message(lang, "tournament.players"))
    out += markup.table(*table_rows(standing, names, armies, "player", t.tiebreaks, lang))
    if t.army_size > 1:
        out += [""] + markup.heading(message(lang, "tournament.armies"))
        out += markup.table(*table_rows(standing, {}, {}, "army", t.tiebreaks, lang))
    if standing.unresolved:
        out += [""] + markup.heading(message(lang, "tournament.unresolved"))
        for b in standing.unresolved:
            out += markup.item(message(lang, "tournament.unresolved_row", round=b.round, battle=b.battle,
                                       status=b.status))
    return out


def _entry_json(e: Entry) -> dict[str, Any]:
    return {"rank": e.rank, "tied": e.tied, "id": e.id, "points": e.points, "played": e.played, "wins": e.wins,
            "draws": e.draws, "losses": e.losses, "byes": e.byes, "forfeits": e.forfeits, "nmrs": e.nmrs,
            "tiebreaks": {k: v for k, v in e.values.items()}}


def standings_export(t: Tournament, ledger: list[RoundRecord], standing: Standings) -> str:
    """Everything a third party needs to re-check the standings: the rules,
    the roster, every round's pairings and results (with each JSON
    report's sha256 and the revealed secrets), and the tables."""
    body = {
        "tournament": {"name": t.name, "format": t.format, "army_size": t.army_size,
                       "points": vars(t.points), "tiebreaks": list(t.tiebreaks),
                       "players": [{"id": p.id, "name": p.name, "army": p.army,
                                    **({"drop": p.drop} if p.drop is not None else {})} for p in t.players],
                       "armies": [a.id for a in t.armies]},
        "upto": standing.upto,
        "rounds": ledger_json(ledger[: standing.upto]),
        "lot_secret": standing.lot_secret,
        "players": [_entry_json(e) for e in standing.players],
        "armies": [_entry_json(e) for e in standing.armies],
        "unresolved": [{"round": b.round, "battle": b.battle, "status": b.status} for b in standing.unresolved],
    }
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def recheck_export(data: Any) -> list[str]:
    """Recompute the tables of a standings export from its rules and rounds
    alone; the differences (empty: the export is consistent).

    :raises KeyError, TypeError, ValueError: not an export.
    """
    spec = data["tournament"]
    rules = Rules(Points(**spec["points"]), tuple(spec["tiebreaks"]), tuple(p["id"] for p in spec["players"]),
                  tuple(spec["armies"]), {p["id"]: p["army"] for p in spec["players"]})
    again = rank(rules, ledger_from_json(data["rounds"]), int(data["upto"]))
    out = []
    for kind, rows in (("players", again.players), ("armies", again.armies)):
        want = json.loads(json.dumps([_entry_json(e) for e in rows]))
        if want != data[kind]:
            for got, expected in zip(data[kind], want):
                if got != expected:
                    out.append(f"{kind}: {got.get('id')}: exported {got}, recomputed {expected}")
            if len(want) != len(data[kind]):
                out.append(f"{kind}: {len(data[kind])} rows exported, {len(want)} recomputed")
    return out


def write_standings(t: Tournament, ledger: list[RoundRecord], standing: Standings, outdir: Path,
                    lang: str) -> list[Path]:
    """standings.md, standings.bbcode and standings.json (the export) in ``outdir``."""
    from referee.report.forum import BBCodeMarkup
    from referee.report.markup import MarkdownMarkup

    written = []
    for name, markup in (("standings.md", MarkdownMarkup()), ("standings.bbcode", BBCodeMarkup())):
        path = outdir / name
        write_atomic(path, "\n".join(standings_document(t, standing, markup, lang)) + "\n")
        written.append(path)
    write_atomic(outdir / "standings.json", standings_export(t, ledger, standing))
    written.append(outdir / "standings.json")
    return written

