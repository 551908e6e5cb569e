"""``referee practice SHEET...``: your army against a gauntlet of ready opponents."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from referee.app.executors import parse_executor
from referee.app.odds import Rate, derive_seeds
from referee.app.practice import (DEFAULT_BASE, Gauntlet, OpponentResult, PlayerSheet, build_practice,
                                  builtin_gauntlets, load_gauntlet, load_player, replay_command, run_practice)
from referee.commands.batch import _jobs
from referee.commands.odds import _Bar
from referee.commands.resolve import _seed, check_output, emit
from referee.diagnostics import Diagnostic, ReferError, display_width, format_diagnostics, has_errors

EXAMPLE = """examples:
  referee practice sheets/kagura.yaml sheets/tomoe.yaml sheets/ren.yaml -n 200 --jobs 2
  referee practice sheets/*.yaml --ruleset wiz --format md -o practice.md
  referee practice sheets/*.yaml --only melee-rush,volley --lang ja
  referee practice sheets/*.yaml --against my-gauntlet/        a folder holding gauntlet.yaml
  referee practice sheets/*.yaml -n 5000 --executor dask://10.0.0.5:8786
  referee practice --list --ruleset orm                         the opponents and their styles

Your sheets are one army (White); each opponent's battle is a battle file
without setup: squares and the order are drawn from the seed.  Seed k is
"BASE-k" (BASE: --seed, else "practice"), the same for every opponent, so
the same command prints the same table with any --jobs and on any executor.
The worst loss of each row is replayed, with the reasons, by the command
printed under the table (referee resolve practice:GAUNTLET:ARMY SHEET...).
"""

#: The words of the table, in English and Japanese.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Practice: {army} against the {gauntlet} gauntlet ({count} armies)",
        "seeds": "{n} seeds per opponent: {base}-1 .. {base}-{n}; your army is White, {size} against {sizes}",
        "opponent": "opponent", "win": "win", "draw": "draw", "loss": "loss", "turns": "turns",
        "worst": "worst loss", "none": "-", "style": "style",
        "legend": "turns: the median; {names}: the share of seeds each was still standing at the end",
        "replay": "Worst losses (fewest of yours standing, then the most HP left to the opponent, then the quickest),\n"
                  "replayed with the reasons:",
        "no_loss": "No losses: nothing to replay.",
        "styles": "Opponents:",
        "list": "The {gauntlet} gauntlet ({ruleset}): {count} armies",
        "beats": "beats",
    },
    "ja": {
        "title": "練習: {army} 対 {gauntlet} の対戦相手 ({count} 軍)",
        "seeds": "相手ごとに {n} シード: {base}-1 .. {base}-{n}。あなたの軍は白、{size} 人 対 {sizes} 人",
        "opponent": "相手", "win": "勝ち", "draw": "引分", "loss": "負け", "turns": "ターン",
        "worst": "最悪の負け", "none": "-", "style": "戦い方",
        "legend": "ターン: 中央値。{names}: 最後まで立っていたシードの割合",
        "replay": "最悪の負け (残った味方が最も少なく、次に相手の残り HP が最も多く、次に最も早い) を理由つきで再現:",
        "no_loss": "負けなし: 再現するものはありません。",
        "styles": "相手の戦い方:",
        "list": "{gauntlet} の対戦相手 ({ruleset}): {count} 軍",
        "beats": "得意な相手",
    },
}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "practice",
        help="your sheets against a gauntlet of ready opponent armies, each over many seeds",
        description="Resolve your army (your sheets, White) against every army of a gauntlet -- the "
                    "ruleset's bundled one, or a folder of your own -- over N seeds each, and print "
                    "one row per opponent: win/draw/loss with 95% intervals, median turns, how often "
                    "each of your characters survived, and the seed of the worst loss with the "
                    "command that replays it.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sheets", nargs="*", metavar="SHEET", help="your character sheets: one army")
    parser.add_argument("--ruleset", metavar="NAME",
                        help=f"whose bundled gauntlet to face: {', '.join(builtin_gauntlets())} (default tcgt)")
    parser.add_argument("--against", default="builtin", metavar="builtin|DIR",
                        help="the ruleset's bundled gauntlet (default), or a folder holding gauntlet.yaml")
    parser.add_argument("--only", metavar="ID,...", help="only these armies of the gauntlet")
    parser.add_argument("-n", "--seeds", type=_jobs, default=200, metavar="N", help="seeds per opponent (default: 200)")
    parser.add_argument("--seed", type=_seed, help=f"base seed (default: {DEFAULT_BASE})")
    parser.add_argument("--jobs", "-j", type=_jobs, default=min(4, os.cpu_count() or 1),
                        help="local worker processes (default: up to 4)")
    parser.add_argument("--executor", default="process", metavar="EXECUTOR",
                        help="'process' (default) or dask://HOST:PORT (an existing Dask scheduler)")
    parser.add_argument("--format", choices=("text", "md", "json"), default="text", help="output (default: text)")
    parser.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the table (default: en)")
    parser.add_argument("--list", action="store_true", help="list the gauntlet's armies and their styles, and stop")
    parser.add_argument("-o", "--output", metavar="OUT", help="write to OUT (atomically) instead of stdout")
    parser.set_defaults(run=run)


def _usage(message: str, hint: str | None = None) -> ReferError:
    return ReferError([Diagnostic("referee practice", 0, 0, "bad-practice", message, hint=hint)])


def choose_gauntlet(against: str, ruleset: str | None) -> Gauntlet:
    """``--against`` and ``--ruleset`` together: the bundled gauntlet of the
    ruleset, or a folder's, whose own ruleset ``--ruleset`` must then match.

    :raises ReferError: a ruleset without a bundled gauntlet, a folder that
        is not a gauntlet, or a ruleset mismatch."""
    if against == "builtin":
        name = ruleset or "tcgt"
        if name not in builtin_gauntlets():
            raise _usage(f"no bundled gauntlet for ruleset {name!r}",
                         hint=f"bundled: {', '.join(builtin_gauntlets())}; or --against DIR with your own gauntlet.yaml")
        return load_gauntlet(name)
    gauntlet = load_gauntlet(against, folder_only=True)
    if ruleset is not None and ruleset != gauntlet.ruleset.name:
        raise _usage(f"the gauntlet {against!r} is played under {gauntlet.ruleset.name!r}, not {ruleset!r}",
                     hint="leave out --ruleset: a gauntlet names its own")
    return gauntlet


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(rate: Rate) -> str:
    return f"{_percent(rate.share):>6} [{_percent(rate.low):>6}, {_percent(rate.high):>6}]"


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def _columns(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    widths = [max(display_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(_pad(cell, w, r) for cell, w, r in zip(row, widths, right)).rstrip() for row in rows]


def _header(lang: str, player: Sequence[PlayerSheet], gauntlet: Gauntlet, results: Sequence[OpponentResult],
            n: int, base: str) -> list[str]:
    w = WORDS[lang]
    sizes = sorted({len(r.army.sheets) for r in results})
    return [w["title"].format(army=", ".join(p.sheet.name for p in player), gauntlet=gauntlet.label,
                              count=len(results)),
            w["seeds"].format(n=n, base=base, size=len(player), sizes="/".join(map(str, sizes)))]


def practice_text(lang: str, player: Sequence[PlayerSheet], gauntlet: Gauntlet, results: Sequence[OpponentResult],
                  n: int, base: str) -> str:
    """The table in words (fixed layout: tests compare it)."""
    w = WORDS[lang]
    names = [p.sheet.name for p in player]
    head = [w["opponent"], w["win"], w["draw"], w["loss"], w["turns"], *names, w["worst"]]
    rows = [head]
    for r in results:
        rates = r.summary.rates
        rows.append([r.army.id, _rate(rates["white"]), _rate(rates["draw"]), _rate(rates["black"]),
                     str(r.median_turns), *(f"{100 * r.survival[x]:.0f}%" for x in names),
                     r.worst.seed if r.worst else w["none"]])
    right = [False, True, True, True, True, *([True] * len(names)), False]
    lines = _header(lang, player, gauntlet, results, n, base) + [""] + _columns(rows, right)
    lines += ["", w["legend"].format(names=", ".join(names)), ""]
    losses = [r for r in results if r.worst is not None]
    if losses:
        lines.append(w["replay"])
        width = max(display_width(r.army.id) for r in losses)
        for r in losses:
            assert r.worst is not None
            lines.append(f"  {_pad(r.army.id, width)}  {replay_command(r.ref, [p.path for p in player], r.worst.seed)}")
    else:
        lines.append(w["no_loss"])
    lines += ["", w["styles"]]
    width = max(display_width(r.army.id) for r in results)
    lines += [f"  {_pad(r.army.id, width)}  {r.army.describe(lang)}" for r in results]
    return "\n".join(lines) + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def practice_md(lang: str, player: Sequence[PlayerSheet], gauntlet: Gauntlet, results: Sequence[OpponentResult],
                n: int, base: str) -> str:
    """The table as Markdown, to post (one row per opponent, the replay command in the row)."""
    w = WORDS[lang]
    names = [p.sheet.name for p in player]
    title, seeds = _header(lang, player, gauntlet, results, n, base)
    head = [w["opponent"], w["style"], w["win"], w["draw"], w["loss"], w["turns"], *names, w["worst"]]
    lines = [f"## {_md_cell(title)}", "", _md_cell(seeds), "",
             "| " + " | ".join(_md_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    for r in results:
        rates = r.summary.rates
        worst = (f"`{r.worst.seed}`: `{replay_command(r.ref, [p.path for p in player], r.worst.seed)}`"
                 if r.worst else w["none"])
        cells = [f"`{r.army.id}`", r.army.describe(lang),
                 *(" ".join(_rate(rates[k]).split()) for k in ("white", "draw", "black")),
                 str(r.median_turns), *(f"{100 * r.survival[x]:.0f}%" for x in names), worst]
        lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    lines += ["", _md_cell(w["legend"].format(names=", ".join(names)))]
    return "\n".join(lines) + "\n"


def practice_json(player: Sequence[PlayerSheet], gauntlet: Gauntlet, results: Sequence[OpponentResult],
                  n: int, base: str) -> str:
    data = {
        "gauntlet": gauntlet.ref,
        "ruleset": gauntlet.ruleset.name,
        "seeds": n,
        "base_seed": base,
        "army": [{"name": p.sheet.name, "sheet": p.path} for p in player],
        "opponents": [{
            "id": r.army.id,
            "description": dict(r.army.description),
            "battle": r.ref,
            **{k: v for k, v in r.summary.to_json().items() if k not in ("seeds", "base_seed")},
            "median_turns": r.median_turns,
            "survival": dict(r.survival),
            "worst_loss": None if r.worst is None else {
                "seed": r.worst.seed, "turns": r.worst.turns, "standing": list(r.worst.standing),
                "command": replay_command(r.ref, [p.path for p in player], r.worst.seed)},
        } for r in results],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def gauntlet_listing(gauntlet: Gauntlet, lang: str) -> str:
    """``--list``: every army with its style, sheets and the armies it is built to beat."""
    w = WORDS[lang]
    lines = [w["list"].format(gauntlet=gauntlet.label, ruleset=gauntlet.ruleset.name, count=len(gauntlet.armies)), ""]
    for army in gauntlet.armies:
        lines.append(f"{army.id}: {army.describe(lang)}")
        lines.append(f"  {', '.join(army.sheets)}")
        if army.beats:
            lines.append(f"  {w['beats']}: {', '.join(army.beats)}")
    return "\n".join(lines) + "\n"


def _chosen(gauntlet: Gauntlet, only: str | None) -> list[Any]:
    if not only:
        return list(gauntlet.armies)
    return [gauntlet.army(i.strip()) for i in only.split(",") if i.strip()]


def run(args: argparse.Namespace) -> int:
    check_output(args.output)
    executor = parse_executor(args.executor)
    gauntlet = choose_gauntlet(args.against, args.ruleset)
    if args.list:
        emit(gauntlet_listing(gauntlet, args.lang), args.output)
        return 0
    if not args.sheets:
        raise _usage("no character sheets: name your army's sheets",
                     hint="referee practice sheets/a.yaml sheets/b.yaml sheets/c.yaml")
    armies = _chosen(gauntlet, args.only)
    player, diags = load_player(args.sheets, gauntlet.ruleset)
    if has_errors(diags):
        raise ReferError(diags)
    battles, more = build_practice(player, gauntlet, armies)
    warnings = diags + more
    if warnings:
        print(format_diagnostics(warnings), file=sys.stderr)
    base = str(args.seed) if args.seed is not None else DEFAULT_BASE
    seeds = derive_seeds(base, args.seeds)
    bar = _Bar(len(seeds) * len(armies), sys.stderr)
    results = run_practice(player, gauntlet, battles, seeds, base, jobs=args.jobs, executor=executor, on_done=bar)
    if args.format == "json":
        text = practice_json(player, gauntlet, results, args.seeds, base)
    elif args.format == "md":
        text = practice_md(args.lang, player, gauntlet, results, args.seeds, base)
    else:
        text = practice_text(args.lang, player, gauntlet, results, args.seeds, base)
    emit(text, args.output)
    return 0
