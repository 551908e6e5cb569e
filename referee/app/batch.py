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
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, TextIO

from referee.diagnostics import ReferError, format_diagnostics
from referee.report import SUFFIXES, render
from referee.app.pipeline import resolve_file, write_atomic
from referee.app.seeds import RoundCommitment, resolve_committed, round_secret

#: A committed round's commitment and secret, or None (seeds as usual).
Sealed = tuple[RoundCommitment, bytes] | None

__all__ = ["BattleOutcome", "find_battles", "run_batch", "standings_markdown", "standings_json"]

BATTLE_SUFFIX = ".battle.yaml"


@dataclass(frozen=True)
class BattleOutcome:
    """One row of the round's summary.

    :param battle: path relative to the round folder (``/`` separators).
    :param status: ``ok``, ``invalid`` (diagnostics) or ``crashed`` (a bug).
    :param error: the diagnostics or the exception, for failed battles.
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

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def find_battles(folder: str | Path) -> list[Path]:
    """Every ``*.battle.yaml`` under ``folder``, sorted by relative path."""
    root = Path(folder)
    return sorted((p for p in root.rglob(f"*{BATTLE_SUFFIX}") if p.is_file()),
                  key=lambda p: p.relative_to(root).as_posix())


def _report_stem(rel: str) -> str:
    return rel[: -len(BATTLE_SUFFIX)] if rel.endswith(BATTLE_SUFFIX) else rel


def resolve_one(path: str, rel: str, outdir: str, formats: tuple[str, ...], lang: str,
                sealed: Sealed = None) -> BattleOutcome:
    """Worker: resolve one battle, write its reports, return its summary row.

    Never raises: invalid input and crashes both become outcomes.

    :param sealed: the round's seed commitment and secret (``referee.app.seeds``).
    """
    try:
        report = resolve_file(path) if sealed is None else resolve_committed(path, rel, *sealed)
        written = []
        stem = _report_stem(rel)
        for fmt in formats:
            out = Path(outdir) / f"{stem}.{SUFFIXES[fmt]}"
            write_atomic(out, render(report, fmt, lang))
            written.append(out.relative_to(outdir).as_posix())
        result = report.result
        standing = {"white": 0, "black": 0}
        for c in result.final:
            if not c.down:
                standing[c.team] = standing.get(c.team, 0) + 1
        return BattleOutcome(
            battle=rel, status="ok", title=report.title, seed=report.seed, winner=result.winner,
            reason=result.reason, turns=result.turns, standing=f"{standing['white']}-{standing['black']}",
            reports=tuple(written))
    except ReferError as err:
        return BattleOutcome(battle=rel, status="invalid", error=format_diagnostics(err.diagnostics))
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
              outcomes: list[BattleOutcome], bar: _Progress, sealed: Sealed = None) -> list[tuple[str, str]]:
    """Resolve ``tasks`` in ``pool``, adding outcomes; returns the tasks left
    unresolved because a worker process died (the pool is then broken)."""
    left: list[tuple[str, str]] = []
    with pool:
        futures = {pool.submit(resolve_one, path, rel, outdir, formats, lang, sealed): (path, rel) for path, rel in tasks}
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
    progress: TextIO | None = None,
    executor_factory: Callable[[int], Any] | None = None,
) -> list[BattleOutcome]:
    """Resolve every battle under ``folder``; write reports and the standings.

    :returns: one outcome per battle, sorted by path.
    """
    root = Path(folder)
    out = Path(outdir)
    battles = find_battles(root)
    bar = _Progress(len(battles), progress or sys.stderr)
    outcomes: list[BattleOutcome] = []
    tasks = [(str(p), p.relative_to(root).as_posix()) for p in battles]
    sealed = round_secret(root)  # a committed round: seeds from its secret (raises if unavailable)
    if jobs <= 1 or len(tasks) <= 1:
        for path, rel in tasks:
            outcome = resolve_one(path, rel, str(out), formats, lang, sealed)
            outcomes.append(outcome)
            bar.update(outcome)
    else:
        if executor_factory is None:
            context = _fork_context()
            if context is not None:
                _warm_up()

            def executor_factory(n: int) -> Any:
                return ProcessPoolExecutor(max_workers=n, initializer=_worker_init, mp_context=context)
        left = _run_pool(executor_factory(jobs), tasks, str(out), formats, lang, outcomes, bar, sealed)
        # A worker process that died (killed, out of memory) breaks the whole
        # pool: every battle it had not finished is run again, each in a pool of
        # its own, so only the battle that kills its worker is lost.
        for task in left:
            for crashed in _run_pool(executor_factory(1), [task], str(out), formats, lang, outcomes, bar, sealed):
                outcome = BattleOutcome(battle=crashed[1], status="crashed",
                                        error="internal error: the worker process resolving it died")
                outcomes.append(outcome)
                bar.update(outcome)
    outcomes.sort(key=lambda o: o.battle)
    commitment = sealed[0].commitment if sealed else None
    write_atomic(out / "standings.md", standings_markdown(outcomes, root.name or str(root), commitment))
    write_atomic(out / "standings.json", standings_json(outcomes, commitment))
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


def standings_json(outcomes: list[BattleOutcome], commitment: str | None = None) -> str:
    """The round's summary as JSON (counts, then one object per battle; the
    seed commitment first when the round has one)."""
    rows = []
    for o in outcomes:
        row = asdict(o)
        row["reports"] = list(o.reports)
        rows.append(row)
    sealed = {"seed_commitment": commitment} if commitment else {}
    return json.dumps({**sealed, "summary": _counts(outcomes), "battles": rows}, ensure_ascii=False, indent=2) + "\n"


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def standings_markdown(outcomes: list[BattleOutcome], name: str, commitment: str | None = None) -> str:
    """The round's summary as a GitHub-flavoured Markdown table."""
    c = _counts(outcomes)
    lines = [
        f"# Results: {name}",
        "",
        f"{c['resolved']} of {c['battles']} battles resolved; White won {c['white_wins']}, "
        f"Black won {c['black_wins']}, {c['draws']} drawn; {c['failed']} failed.",
        "",
        *([f"Seeds committed before the deadline: sha256 `{commitment}`; "
           "check with `referee seeds verify ROUND_DIR` once the secret is revealed.", ""] if commitment else []),
        "| battle | title | winner | how | turns | standing (W-B) | seed |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        if o.ok:
            lines.append(f"| {_cell(o.battle)} | {_cell(o.title)} | {o.winner} | {o.reason} | {o.turns} | "
                         f"{o.standing} | {_cell(o.seed)} |")
        else:
            lines.append(f"| {_cell(o.battle)} | | **failed** | {o.status} | | | |")
    failed = [o for o in outcomes if not o.ok]
    if failed:
        lines += ["", "## Failed battles", ""]
        for o in failed:
            lines += [f"### {o.battle}", "", "```text", o.error.rstrip(), "```", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
