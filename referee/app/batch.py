"""Resolve a whole round: every battle file under a folder, in parallel.

Each battle runs in a worker process (``ProcessPoolExecutor``); a battle that
fails validation or crashes becomes a row with its error and never stops the
others.  Every report is written atomically (temporary file + rename) so an
interrupted round leaves whole reports or none.  At the end a summary table is
written in Markdown and JSON (``standings.md``, ``standings.json``).
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, TextIO

from referee.diagnostics import Diagnostic, ReferError, format_diagnostics
from referee.report import SUFFIXES, render
from referee.report.messages import MESSAGES, message, team_label, word
from referee.app.pipeline import resolve_file_checked, write_atomic

__all__ = ["BattleOutcome", "find_battles", "no_battle_error", "run_batch", "standings_markdown", "standings_json"]

#: Battle file endings, accepted alike by check, resolve and batch.
BATTLE_SUFFIXES = (".battle.yaml", ".battle.yml")


@dataclass(frozen=True)
class BattleOutcome:
    """One row of the round's summary.

    :param battle: path relative to the round folder (``/`` separators).
    :param status: ``ok``, ``invalid`` (diagnostics) or ``crashed`` (a bug).
    :param error: the diagnostics or the exception, for failed battles.
    :param warnings: the battle's warnings (formatted diagnostics), resolved or not.
    """

    battle: str
    status: str
    title: str = ""
    seed: int | str | None = None
    winner: str = ""
    reason: str = ""
    turns: int = 0
    standing: str = ""
    reports: tuple[str, ...] = ()
    error: str = ""
    warnings: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def find_battles(folder: str | Path) -> list[Path]:
    """Every ``*.battle.yaml`` / ``*.battle.yml`` under ``folder``, sorted by relative path."""
    root = Path(folder)
    return sorted((p for p in root.rglob("*") if p.name.lower().endswith(BATTLE_SUFFIXES) and p.is_file()),
                  key=lambda p: p.relative_to(root).as_posix())


def no_battle_error(folder: str | Path) -> ReferError:
    """A round folder with no battle file is a mistake, not "0 of 0": say what is there."""
    root = Path(folder)
    kinds: dict[str, list[str]] = {}
    for p in sorted(root.rglob("*"), key=lambda p: p.as_posix()):
        if p.is_file():
            kinds.setdefault("".join(p.suffixes[-2:]).lower() or "(no extension)", []).append(p.relative_to(root).as_posix())
    found = "; ".join(f"{len(v)} {k} ({', '.join(v[:3])}{', ...' if len(v) > 3 else ''})" for k, v in sorted(kinds.items()))
    return ReferError([Diagnostic(str(folder), 0, 0, "no-battles",
                                  f"no battle file (*.battle.yaml) under {folder}; found {found or 'nothing'}",
                                  hint="name each battle NAME.battle.yaml; sheets and plans may sit beside them")])


def _report_stem(rel: str) -> str:
    for suffix in BATTLE_SUFFIXES:
        if rel.lower().endswith(suffix):
            return rel[: -len(suffix)]
    return rel


def resolve_one(path: str, rel: str, outdir: str, formats: tuple[str, ...], lang: str,
                full: bool = False) -> BattleOutcome:
    """Worker: resolve one battle, write its reports, return its summary row.

    Never raises: invalid input and crashes both become outcomes.
    """
    root = path[: len(path) - len(rel)] if path.endswith(rel) else ""

    def shown(diags: Any) -> str:
        """Diagnostics with paths relative to the round's folder (standings are posted)."""
        return format_diagnostics([replace(d, file=d.file[len(root):]) if root and d.file.startswith(root) else d
                                   for d in diags])

    try:
        report, warnings = resolve_file_checked(path)
        written = []
        stem = _report_stem(rel)
        for fmt in formats:
            out = Path(outdir) / f"{stem}.{SUFFIXES[fmt]}"
            write_atomic(out, render(report, fmt, lang, full=full))
            written.append(out.relative_to(outdir).as_posix())
        result = report.result
        standing = {"white": 0, "black": 0}
        for c in result.final:
            if not c.down:
                standing[c.team] = standing.get(c.team, 0) + 1
        return BattleOutcome(
            battle=rel, status="ok", title=report.title, seed=report.seed, winner=result.winner,
            reason=result.reason, turns=result.turns, standing=f"{standing['white']}-{standing['black']}",
            reports=tuple(written), warnings=shown(warnings))
    except ReferError as err:
        return BattleOutcome(battle=rel, status="invalid", error=shown(d for d in err.diagnostics if d.is_error),
                             warnings=shown(d for d in err.diagnostics if not d.is_error))
    except Exception as err:  # a bug: reported, never stops the round
        last = traceback.format_exception_only(type(err), err)[-1].strip()
        return BattleOutcome(battle=rel, status="crashed", error=f"internal error: {last}")


def _fork_context() -> Any:
    """The ``fork`` start method where the platform offers it safely (Linux),
    else ``None`` (the platform's default).

    Why: a forked worker inherits what the parent has already built -- the
    LALR plan parser (about 0.5 s to build), the skill catalogue, the built-in
    rulesets -- instead of building it again in every worker."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def _warm_up() -> None:
    """Build, once in the parent, what every battle needs (see _fork_context)."""
    from referee.catalog import load_catalog
    from referee.plan.parser import plan_parser
    from referee.ruleset import load_ruleset

    plan_parser()
    load_catalog()
    load_ruleset()
    gc.freeze()  # the inherited objects stay out of every collection (and copy-on-write)


def _worker_init() -> None:
    """Worker processes allocate many small, acyclic event objects: move the
    imported modules out of the collector's way and collect less often."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


class _Progress:
    """A one-line progress bar on a terminal; one plain line per battle otherwise."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.tty = stream.isatty()
        self.done = 0
        self.failed = 0

    def update(self, outcome: BattleOutcome) -> None:
        self.done += 1
        self.failed += 0 if outcome.ok else 1
        if self.tty:
            width = 30
            filled = width * self.done // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                              f"  failed {self.failed}")
            if self.done == self.total:
                self.stream.write("\n")
        else:
            what = (f"{outcome.winner} ({outcome.reason}, turn {outcome.turns})" if outcome.ok
                    else f"FAILED ({outcome.status})")
            self.stream.write(f"[{self.done}/{self.total}] {outcome.battle}: {what}\n")
        self.stream.flush()


def _run_pool(pool: Any, tasks: list[tuple[str, str]], outdir: str, formats: tuple[str, ...], lang: str,
              outcomes: list[BattleOutcome], bar: _Progress, full: bool = False) -> list[tuple[str, str]]:
    """Resolve ``tasks`` in ``pool``, adding outcomes; returns the tasks left
    unresolved because a worker process died (the pool is then broken)."""
    left: list[tuple[str, str]] = []
    with pool:
        futures = {pool.submit(resolve_one, path, rel, outdir, formats, lang, full): (path, rel) for path, rel in tasks}
        for future in as_completed(futures):
            try:
                outcome = future.result()
            except BrokenProcessPool:
                left.append(futures[future])
                continue
            except Exception as err:  # resolve_one never raises; a pickling failure would
                outcome = BattleOutcome(battle=futures[future][1], status="crashed", error=f"worker failed: {err}")
            outcomes.append(outcome)
            bar.update(outcome)
    return sorted(left, key=lambda t: t[1])


def run_batch(
    folder: str | Path,
    outdir: str | Path,
    *,
    jobs: int = 1,
    formats: tuple[str, ...] = ("json", "text"),
    lang: str = "en",
    full: bool = False,
    progress: TextIO | None = None,
    executor_factory: Callable[[int], Any] | None = None,
) -> list[BattleOutcome]:
    """Resolve every battle under ``folder``; write reports and the standings.

    :returns: one outcome per battle, sorted by path.
    """
    root = Path(folder)
    out = Path(outdir)
    battles = find_battles(root)
    if not battles:
        raise no_battle_error(folder)
    bar = _Progress(len(battles), progress or sys.stderr)
    outcomes: list[BattleOutcome] = []
    tasks = [(str(p), p.relative_to(root).as_posix()) for p in battles]
    if jobs <= 1 or len(tasks) <= 1:
        for path, rel in tasks:
            outcome = resolve_one(path, rel, str(out), formats, lang, full)
            outcomes.append(outcome)
            bar.update(outcome)
    else:
        if executor_factory is None:
            context = _fork_context()
            if context is not None:
                _warm_up()

            def executor_factory(n: int) -> Any:
                return ProcessPoolExecutor(max_workers=n, initializer=_worker_init, mp_context=context)
        left = _run_pool(executor_factory(jobs), tasks, str(out), formats, lang, outcomes, bar, full)
        # A worker process that died (killed, out of memory) breaks the whole
        # pool: every battle it had not finished is run again, each in a pool of
        # its own, so only the battle that kills its worker is lost.
        for task in left:
            for crashed in _run_pool(executor_factory(1), [task], str(out), formats, lang, outcomes, bar, full):
                outcome = BattleOutcome(battle=crashed[1], status="crashed",
                                        error="internal error: the worker process resolving it died")
                outcomes.append(outcome)
                bar.update(outcome)
    outcomes.sort(key=lambda o: o.battle)
    write_atomic(out / "standings.md", standings_markdown(outcomes, root.resolve().name or str(root), lang))
    write_atomic(out / "standings.json", standings_json(outcomes))
    return outcomes


def _counts(outcomes: list[BattleOutcome]) -> dict[str, int]:
    return {
        "battles": len(outcomes),
        "resolved": sum(o.ok for o in outcomes),
        "failed": sum(not o.ok for o in outcomes),
        "white_wins": sum(o.ok and o.winner == "white" for o in outcomes),
        "black_wins": sum(o.ok and o.winner == "black" for o in outcomes),
        "draws": sum(o.ok and o.winner == "draw" for o in outcomes),
    }


def standings_json(outcomes: list[BattleOutcome]) -> str:
    """The round's summary as JSON (counts, then one object per battle)."""
    rows = []
    for o in outcomes:
        row = asdict(o)
        row["reports"] = list(o.reports)
        rows.append(row)
    return json.dumps({"summary": _counts(outcomes), "battles": rows}, ensure_ascii=False, indent=2) + "\n"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def standings_markdown(outcomes: list[BattleOutcome], name: str, lang: str = "en") -> str:
    """The round's summary as a GitHub-flavoured Markdown table, in ``lang``;
    failed battles with their errors, then every battle's warnings."""
    def say(key: str, **fields: Any) -> str:
        return message(lang, f"standings.{key}", **fields)

    header = say("header").split("|")
    lines = [f"# {say('title', name=name)}", "", say("summary", **_counts(outcomes)), "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for o in outcomes:
        if o.ok:
            how = MESSAGES[lang].get(f"standings.reason.{o.reason}", o.reason)
            winner = word(lang, "result.draw_word") if o.winner == "draw" else team_label(lang, o.winner)
            lines.append(f"| {_cell(o.battle)} | {_cell(o.title)} | {winner} | {how} | {o.turns} | "
                         f"{o.standing} | {_cell(o.seed)} |")
        else:
            lines.append(f"| {_cell(o.battle)} | | **{say('failed')}** | {say('status.' + o.status)} | | | |")
    for title, rows in (("failed_title", [(o.battle, o.error) for o in outcomes if not o.ok]),
                        ("warnings_title", [(o.battle, o.warnings) for o in outcomes if o.warnings])):
        if rows:
            lines += ["", f"## {say(title)}", ""] + ([say("warnings_note"), ""] if title == "warnings_title" else [])
            for battle, text in rows:
                lines += [f"### {battle}", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
