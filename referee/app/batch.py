"""Resolve a whole round: every battle file under a folder, in parallel.

Each battle runs in a worker process (``ProcessPoolExecutor``); a battle that
fails validation or crashes becomes a row with its error and never stops the
others.  Every report is written atomically (temporary file + rename) so an
interrupted round leaves whole reports or none.  At the end a summary table is
written in Markdown and JSON (``standings.md``, ``standings.json``).

Everything in a standings row comes from strangers' files -- titles, battle
paths, diagnostics quoting their lines -- and ``standings.md`` is posted where
it is rendered: every cell is escaped for Markdown and HTML, and each failed
battle's error sits in a code fence longer than any run of backticks inside
it (docs/security.md).  The output folder, the time limit per battle, Ctrl-C
and worker hygiene are :mod:`referee.app.outfolder` and
:mod:`referee.app.workers`.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, replace as dc_replace
from pathlib import Path
from typing import Any, Callable, TextIO

from referee.app.executors import ExecutorSpec, dask_client
from referee.app.outfolder import prepare_output_folder, remove_temporaries
from referee.app.pipeline import PreparedBattle, prepare_file, resolve_file_checked, write_atomic
from referee.app.seeds import RoundCommitment, prepare_committed, resolve_committed, round_secret
from referee.app.workers import BattleTimeout, fork_context, kill_workers, time_limit, warm_up, worker_init
from referee.confine import UnsafePathError
from referee.diagnostics import Diagnostic, ReferError, format_diagnostics
from referee.limits import BATTLE_TIME_LIMIT_SECONDS
from referee.report import SUFFIXES, Report, render
from referee.ruleset import Ruleset
from referee.report.messages import MESSAGES, message, team_label, word
from referee.textcheck import shown_escaped

__all__ = ["BattleOutcome", "BatchInterrupted", "find_battles", "no_battle_error", "run_batch", "shown_path", "standings_markdown",
           "standings_json"]

#: Battle file endings, accepted alike by check, resolve and batch.
BATTLE_SUFFIXES = (".battle.yaml", ".battle.yml")

#: A committed round's commitment and secret, or None (seeds as usual).
Sealed = tuple[RoundCommitment, bytes] | None


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
    #: the round's missing-plan rulings about this battle's players
    #: (``referee.intake.nmr``): ``{"player", "policy", "detail"}`` each.
    nmr: tuple[dict[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def failed(self) -> bool:
        """Not resolved for a reason other than a forfeit (which is a result)."""
        return self.status not in ("ok", "forfeit")


def find_battles(folder: str | Path) -> list[Path]:
    """Every ``*.battle.yaml`` / ``*.battle.yml`` under ``folder``, sorted by relative path.

    Only files whose folder stays inside the round once symlinks are resolved
    (``rglob`` does not enter symlinked folders today; this keeps it so).  A
    battle file that is itself a symlink out of the round is found, and
    refused by :func:`referee.battlefile.load_battle` with ``path-outside``.
    The round's inbox (``intake/``: every version ever received, and the
    intake's private copies) is not part of the round."""
    root = Path(folder)
    real = root.resolve()
    inbox = root / "intake"
    return sorted((p for p in root.rglob("*")
                   if p.name.lower().endswith(BATTLE_SUFFIXES) and p.is_file()
                   and p.parent.resolve().is_relative_to(real) and not p.is_relative_to(inbox)),
                  key=lambda p: p.relative_to(root).as_posix())


def no_battle_error(folder: str | Path) -> ReferError:
    """A round folder with no battle file is a mistake, not "0 of 0": say what is there."""
    root = Path(folder)
    kinds: dict[str, list[str]] = {}
    for p in sorted(root.rglob("*"), key=lambda p: p.as_posix()):
        if p.is_file():
            kinds.setdefault("".join(p.suffixes[-2:]).lower() or "(no extension)", []).append(
                shown_path(p.relative_to(root).as_posix()))
    found = "; ".join(f"{len(v)} {k} ({', '.join(v[:3])}{', ...' if len(v) > 3 else ''})" for k, v in sorted(kinds.items()))
    return ReferError([Diagnostic(str(folder), 0, 0, "no-battles",
                                  f"no battle file (*.battle.yaml) under {folder}; found {found or 'nothing'}",
                                  hint="name each battle NAME.battle.yaml; sheets and plans may sit beside them")])


def report_stem(rel: str) -> str:
    for suffix in BATTLE_SUFFIXES:
        if rel.lower().endswith(suffix):
            return rel[: -len(suffix)]
    return rel


def shown_path(rel: str) -> str:
    """A relative path as standings and progress lines show it: valid UTF-8
    (undecodable bytes of a file name become backslash escapes) with control
    characters made visible, so a folder named with a newline cannot forge a
    line."""
    return shown_escaped(os.fsencode(rel).decode("utf-8", "backslashreplace"))


def resolve_one(path: str, rel: str, outdir: str, formats: tuple[str, ...], lang: str,
                time_limit_seconds: float | None = None, full: bool = False,
                sealed: Sealed = None, json_decisions: bool = False,
                nmr: tuple[dict[str, Any], ...] = ()) -> BattleOutcome:
    """Worker: resolve one battle, write its reports, return its summary row.

    Never raises: invalid input, a battle over its time limit, an unwritable
    report and crashes all become outcomes.  Every report stays inside
    ``outdir`` (symlinks resolved) and is written atomically.

    :param sealed: the round's seed commitment and secret (``referee.app.seeds``).
    :param json_decisions: the json report keeps the decision events
        (``--decisions``); otherwise it is lean (``"decisions": false``).
    :param nmr: the missing-plan rulings about this battle's players, each
        with the battle-relative ``sheets`` it covers; the report records
        them (``inputs.nmr``, with the characters' names) and says so.
    """
    shown = shown_path(rel)
    root = _round_root(path, rel)
    try:
        with time_limit(time_limit_seconds):
            report, warnings = (resolve_file_checked(path) if sealed is None
                                else resolve_committed(path, rel, *sealed))
            report = _for_round(report, json_decisions, nmr)
            texts = _rendered(report, formats, lang, full)
        return dc_replace(_resolved(report), battle=shown, reports=_write_reports(outdir, rel, texts),
                          warnings=_said(warnings, root), nmr=_nmr_rows(nmr))
    except (BattleTimeout, Exception) as err:
        return dc_replace(_failed(err, shown, root), nmr=_nmr_rows(nmr))


def _round_root(path: str, rel: str) -> str:
    """The round folder's prefix of ``path`` (diagnostics are shown relative to it)."""
    return path[: len(path) - len(rel)] if path.endswith(rel) else ""


def _said(diags: Any, root: str) -> str:
    """Diagnostics with paths relative to the round's folder (standings are posted)."""
    return format_diagnostics([dc_replace(d, file=d.file[len(root):]) if root and d.file.startswith(root) else d
                               for d in diags])


def _rendered(report: Report, formats: tuple[str, ...], lang: str, full: bool) -> list[tuple[str, str]]:
    return [(fmt, render(report, fmt, lang, full=full)) for fmt in formats]


def _write_reports(outdir: str | Path, rel: str, texts: list[tuple[str, str]]) -> tuple[str, ...]:
    """Each report written atomically inside ``outdir``; their shown paths."""
    written = []
    stem = report_stem(rel)
    for fmt, text in texts:
        out = Path(outdir) / f"{stem}.{SUFFIXES[fmt]}"
        write_atomic(out, text, root=outdir)
        written.append(shown_path(out.relative_to(outdir).as_posix()))
    return tuple(written)


def _resolved(report: Report) -> BattleOutcome:
    """The row of a resolved battle, before its name, reports and warnings are known."""
    result = report.result
    standing = {"white": 0, "black": 0}
    for c in result.final:
        if not c.down:
            standing[c.team] = standing.get(c.team, 0) + 1
    return BattleOutcome(battle="", status="ok", title=report.title, seed=report.seed, winner=result.winner,
                         reason=result.reason, turns=result.turns, standing=f"{standing['white']}-{standing['black']}")


def _failed(err: BaseException, shown: str, root: str) -> BattleOutcome:
    """The row of a battle that could not be resolved or written, by what went wrong."""
    if isinstance(err, BattleTimeout):
        return BattleOutcome(battle=shown, status="timed-out",
                             error=f"{shown}: {err} (the time limit per battle); no report was written",)
    if isinstance(err, ReferError):
        return BattleOutcome(battle=shown, status="invalid", error=_said((d for d in err.diagnostics if d.is_error), root),
                             warnings=_said((d for d in err.diagnostics if not d.is_error), root))
    if isinstance(err, UnsafePathError):
        return BattleOutcome(battle=shown, status="unwritable", error=f"report not written: {err.problem.message}")
    if isinstance(err, OSError):
        return BattleOutcome(battle=shown, status="unwritable",
                             error=f"report not written: {err.strerror or err} ({shown_path(str(err.filename or ''))})")
    # a bug: reported, never stops the round
    last = traceback.format_exception_only(type(err), err)[-1].strip()
    return BattleOutcome(battle=shown, status="crashed", error=f"internal error: {last}")


def resolve_prepared(prepared: PreparedBattle, ruleset: Ruleset, formats: tuple[str, ...], lang: str, full: bool,
                     json_decisions: bool, nmr: tuple[dict[str, Any], ...] = ()
                     ) -> tuple[BattleOutcome, list[tuple[str, str]]]:
    """Dask task: resolve a battle the organiser's machine loaded and render
    its reports; the row and the texts travel back, the caller writes them
    (the workers need not see the round's files).  The ruleset travels
    apart, sent to each worker once per round rather than with every battle."""
    report = _for_round(dc_replace(prepared, ruleset=ruleset).resolve(), json_decisions, nmr)
    return dc_replace(_resolved(report), nmr=_nmr_rows(nmr)), _rendered(report, formats, lang, full)


def _for_round(report: Report, json_decisions: bool, nmr: tuple[dict[str, Any], ...]) -> Report:
    """The report as a round writes it: its json without the decision
    events unless ``json_decisions`` (``--decisions``), and the round's
    missing-plan rulings about its players recorded in its inputs
    (``inputs.nmr``), which its header then states."""
    inputs = {**report.inputs, "nmr": _nmr_inputs(report, nmr)} if nmr else report.inputs
    return dc_replace(report, decisions=json_decisions, inputs=inputs)


def _nmr_rows(nmr: tuple[dict[str, Any], ...]) -> tuple[dict[str, str], ...]:
    """The rulings as ``standings.json`` writes them: player, policy, detail."""
    return tuple({"player": str(e["player"]), "policy": str(e["policy"]), "detail": str(e["detail"])} for e in nmr)


def _nmr_inputs(report: Any, nmr: tuple[dict[str, Any], ...]) -> list[dict[str, Any]]:
    """The rulings as a report's inputs record them: with the names of the
    characters each covers (read off the report's own characters)."""
    return [{**row, "characters": [c["name"] for c in report.characters() if c["sheet"] in entry["sheets"]]}
            for row, entry in zip(_nmr_rows(nmr), nmr)]


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a round, raised once partial standings are written.

    :param outcomes: every battle, the unfinished ones with status ``interrupted``.
    """

    def __init__(self, outcomes: list[BattleOutcome]) -> None:
        super().__init__("interrupted")
        self.outcomes = outcomes

    @property
    def finished(self) -> int:
        return sum(o.status != "interrupted" for o in self.outcomes)


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


#: Seconds past the time limit after which the parent kills a worker that
#: has not answered (stuck where the worker's own timer cannot reach).
WATCHDOG_GRACE_SECONDS = 10.0

#: (battle path, round-relative name, its missing-plan rulings)
_Task = tuple[str, str, tuple[dict[str, Any], ...]]


def _run_pool(pool: Any, tasks: list[_Task], outdir: str, formats: tuple[str, ...], lang: str,
              outcomes: list[BattleOutcome], bar: _Progress,
              time_limit_seconds: float | None, full: bool = False,
              sealed: Sealed = None, json_decisions: bool = False) -> tuple[list[_Task], bool]:
    """Resolve ``tasks`` in ``pool``, adding outcomes.

    :returns: the tasks left unresolved because a worker process died (the
        pool is then broken), and whether the watchdog killed the pool (no
        battle finished for the time limit plus a grace period).
    :raises KeyboardInterrupt: after killing the pool's workers at once.
    """
    left: list[_Task] = []
    stalled = False
    try:
        futures = {pool.submit(resolve_one, path, rel, outdir, formats, lang, time_limit_seconds, full, sealed,
                               json_decisions, nmr):
                   (path, rel, nmr)
                   for path, rel, nmr in tasks}
        pending = set(futures)
        last_progress = time.monotonic()
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            now = time.monotonic()
            if done:
                last_progress = now
            elif time_limit_seconds and now - last_progress > time_limit_seconds + WATCHDOG_GRACE_SECONDS:
                stalled = True
                kill_workers(pool)
            for future in sorted(done, key=lambda f: futures[f][1]):
                try:
                    outcome = future.result()
                except BrokenProcessPool:
                    left.append(futures[future])
                    continue
                except Exception as err:  # resolve_one never raises; a pickling failure would
                    outcome = BattleOutcome(battle=shown_path(futures[future][1]), status="crashed",
                                            error=f"worker failed: {err}")
                outcomes.append(outcome)
                bar.update(outcome)
    except BaseException:
        kill_workers(pool)
        raise
    pool.shutdown(wait=True)
    return sorted(left, key=lambda t: t[1]), stalled


def run_batch(
    folder: str | Path,
    outdir: str | Path,
    *,
    jobs: int = 1,
    formats: tuple[str, ...] = ("json", "text"),
    lang: str = "en",
    full: bool = False,
    decisions: bool = False,
    progress: TextIO | None = None,
    executor_factory: Callable[[int], Any] | None = None,
    time_limit_seconds: float | None = BATTLE_TIME_LIMIT_SECONDS,
    replace: bool = False,
    default_outdir: bool = False,
    executor: ExecutorSpec = ExecutorSpec("process"),
) -> list[BattleOutcome]:
    """Resolve every battle under ``folder``; write reports and the standings.

    The output folder is checked and claimed first (:mod:`referee.app.outfolder`):
    nothing runs when it cannot be written or holds another round.

    :param time_limit_seconds: per battle (``None``: no limit); a battle over
        it is listed as ``timed-out``.
    :param replace: remove another round's reports from ``outdir`` first.
    :param default_outdir: ``outdir`` is the round's own ``reports`` folder,
        which must not lead outside the round.
    :param full: written reports with every sentence (no folding).
    :param decisions: the json reports keep the decision events (``--decisions``);
        by default they are lean (``"decisions": false``), which ``replay`` confirms.
    :param executor: ``process`` (``jobs`` local workers) or a Dask scheduler
        (:mod:`referee.app.executors`; ``jobs`` is then unused).
    :returns: one outcome per battle, sorted by path.
    :raises ReferError: the output folder cannot be used, or ``folder`` holds no battle.
    :raises BatchInterrupted: on Ctrl-C, after writing partial standings.
    """
    root = Path(folder)
    battles = find_battles(root)
    if not battles:
        raise no_battle_error(folder)
    out = prepare_output_folder(outdir, root, default=default_outdir, replace=replace)
    sealed = round_secret(root)  # a committed round: seeds from its secret (raises if unavailable)
    bar = _Progress(len(battles), progress or sys.stderr)
    outcomes: list[BattleOutcome] = []
    tasks = []
    for p, rulings in _missing_plans(root, battles):
        forfeit = _forfeit(p, root, rulings)
        if forfeit is not None:
            outcomes.append(forfeit)
            bar.update(forfeit)
        else:
            tasks.append((str(p), p.relative_to(root).as_posix(), rulings))
    try:
        _resolve_all(tasks, out, jobs, formats, lang, outcomes, bar, executor_factory, time_limit_seconds, full, sealed,
                     decisions, executor)
    except KeyboardInterrupt:
        finished = {o.battle for o in outcomes}
        outcomes += [BattleOutcome(battle=shown_path(rel), status="interrupted",
                                   error="not resolved: the round was interrupted (Ctrl-C)")
                     for _, rel, _ in tasks if shown_path(rel) not in finished]
        remove_temporaries(out)
        _write_standings(outcomes, out, root, lang, sealed)
        raise BatchInterrupted(sorted(outcomes, key=lambda o: o.battle)) from None
    _write_standings(outcomes, out, root, lang, sealed)
    return outcomes


def _missing_plans(root: Path, battles: list[Path]) -> list[tuple[Path, tuple[dict[str, Any], ...]]]:
    """Each battle with the round's missing-plan rulings about its players
    (``referee.intake.nmr``; none for a round without a roster), each ruling
    with the battle-relative sheets it covers."""
    from referee.intake.core import battle_teams
    from referee.intake.nmr import missing_plans

    ruled = missing_plans(root)
    out = []
    for battle in battles:
        rulings: tuple[dict[str, Any], ...] = ()
        if ruled is not None:
            teams = battle_teams(battle, root)[0]
            sheets = {s for team in teams.values() for s in team}
            rulings = tuple({**e.to_json(), "sheets": [os.path.relpath(root / s, battle.parent).replace(os.sep, "/")
                                                       for s in e.sheets if s in sheets],
                             "teams": sorted(t for t, team in teams.items() if set(team) & set(e.sheets))}
                            for e in ruled.for_sheets(sheets))
        out.append((battle, rulings))
    return out


def _forfeit(battle: Path, root: Path, rulings: tuple[dict[str, Any], ...]) -> BattleOutcome | None:
    """The battle's result when a side forfeits (R-NMR: the side of a player
    who forfeits loses without the battle being resolved; both: nobody wins)."""
    losers = {t for e in rulings if e["policy"] == "forfeit" for t in e["teams"]}
    if not losers:
        return None
    others = [t for t in ("white", "black") if t not in losers]
    return BattleOutcome(battle=shown_path(battle.relative_to(root).as_posix()), status="forfeit",
                         winner=others[0] if len(others) == 1 else "none", reason="forfeit", nmr=_nmr_rows(rulings))


def _write_standings(outcomes: list[BattleOutcome], out: Path, root: Path, lang: str, sealed: Sealed) -> None:
    outcomes.sort(key=lambda o: o.battle)
    commitment = sealed[0].commitment if sealed else None
    write_atomic(out / "standings.md",
                 standings_markdown(outcomes, shown_path(root.resolve().name or str(root)), lang, commitment))
    write_atomic(out / "standings.json", standings_json(outcomes, commitment))


def _resolve_all(tasks: list[_Task], out: Path, jobs: int, formats: tuple[str, ...], lang: str,
                 outcomes: list[BattleOutcome], bar: _Progress, executor_factory: Callable[[int], Any] | None,
                 time_limit_seconds: float | None, full: bool = False, sealed: Sealed = None,
                 json_decisions: bool = False, executor: ExecutorSpec = ExecutorSpec("process")) -> None:
    """Every task resolved, in this process, a pool of workers or on a Dask cluster."""
    if executor.kind == "dask":
        _run_dask(tasks, out, formats, lang, outcomes, bar, full, sealed, json_decisions, executor.address)
        return
    if jobs <= 1 or len(tasks) <= 1:
        for path, rel, nmr in tasks:
            outcome = resolve_one(path, rel, str(out), formats, lang, time_limit_seconds, full, sealed, json_decisions,
                                  nmr)
            outcomes.append(outcome)
            bar.update(outcome)
        return
    if executor_factory is None:
        context = fork_context()
        if context is not None:
            warm_up()

        def executor_factory(n: int) -> Any:
            return ProcessPoolExecutor(max_workers=n, initializer=worker_init, initargs=(os.getpid(),),
                                       mp_context=context)
    left, _ = _run_pool(executor_factory(jobs), tasks, str(out), formats, lang, outcomes, bar, time_limit_seconds,
                        full, sealed, json_decisions)
    # A worker process that died (killed, out of memory, stuck and killed by
    # the watchdog) breaks the whole pool: every battle it had not finished is
    # run again, each in a pool of its own, so only the battle that kills its
    # worker is lost.
    for task in left:
        crashed, stalled = _run_pool(executor_factory(1), [task], str(out), formats, lang, outcomes, bar,
                                     time_limit_seconds, full, sealed, json_decisions)
        for _, rel, _ in crashed:
            outcome = (BattleOutcome(battle=shown_path(rel), status="timed-out",
                                     error=f"{shown_path(rel)}: took longer than {time_limit_seconds:g} s "
                                           "and did not stop; its worker was killed")
                       if stalled and time_limit_seconds else
                       BattleOutcome(battle=shown_path(rel), status="crashed",
                                     error="internal error: the worker process resolving it died"))
            outcomes.append(outcome)
            bar.update(outcome)


def _run_dask(tasks: list[_Task], out: Path, formats: tuple[str, ...], lang: str, outcomes: list[BattleOutcome],
              bar: _Progress, full: bool, sealed: Sealed, json_decisions: bool, address: str) -> None:
    """Every task on an existing Dask cluster: each battle is loaded and
    checked here (its files never leave this machine, and a FIFO or a path
    out of the round is refused here as in a local round), resolved and
    rendered on a worker, and written here.  The reports are the local
    pool's, byte for byte: the same inputs, seed and renderers.  The time
    limit per battle does not apply (a worker's thread cannot be
    interrupted); the turn cap (``referee.limits``) bounds every battle."""
    with dask_client(address) as (client, distributed):
        pending: dict[str, tuple[str, str, str, str, tuple[dict[str, Any], ...]]] = {}
        futures = []
        rulesets: dict[str, Any] = {}  # digest -> the ruleset, scattered once
        for index, (path, rel, nmr) in enumerate(tasks):
            shown, root = shown_path(rel), _round_root(path, rel)
            try:
                prepared, warnings = (prepare_file(path) if sealed is None
                                      else prepare_committed(path, rel, *sealed))
            except Exception as err:
                outcome = dc_replace(_failed(err, shown, root), nmr=_nmr_rows(nmr))
                outcomes.append(outcome)
                bar.update(outcome)
                continue
            ruleset = prepared.ruleset
            if ruleset.digest not in rulesets:
                rulesets[ruleset.digest] = client.scatter(ruleset, broadcast=True, hash=False)
            future = client.submit(resolve_prepared, dc_replace(prepared, ruleset=_NO_RULESET), rulesets[ruleset.digest],
                                   formats, lang, full, json_decisions, nmr,
                                   key=f"referee-batch-{index}-{id(tasks)}-{os.getpid()}", pure=False)
            pending[future.key] = (rel, shown, root, _said(warnings, root), nmr)
            futures.append(future)
        for future in distributed.as_completed(futures, loop=client.loop):
            rel, shown, root, said, nmr = pending[future.key]
            try:
                row, texts = future.result()
                outcome = dc_replace(row, battle=shown, reports=_write_reports(out, rel, texts), warnings=said)
            except Exception as err:
                outcome = dc_replace(_failed(err, shown, root), nmr=_nmr_rows(nmr))
            outcomes.append(outcome)
            bar.update(outcome)


#: What a battle sent to a Dask worker carries in place of its ruleset (sent apart).
_NO_RULESET: Any = None


def _counts(outcomes: list[BattleOutcome]) -> dict[str, int]:
    return {
        "battles": len(outcomes),
        "resolved": sum(o.ok for o in outcomes),
        "failed": sum(o.failed for o in outcomes),
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
        row["nmr"] = [dict(e) for e in o.nmr]
        rows.append(row)
    sealed = {"seed_commitment": commitment} if commitment else {}
    return json.dumps({**sealed, "summary": _counts(outcomes), "battles": rows}, ensure_ascii=False, indent=2) + "\n"


#: Characters that make markup inside a table cell (emphasis, code, links,
#: strikethrough, the cell border), escaped with a backslash; ``#``, ``+``,
#: ``-`` and friends only matter at the start of a line, which a cell never is.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def nmr_sentence(lang: str, ruling: dict[str, str]) -> str:
    """One missing-plan ruling in words (``standings.md``)."""
    detail = MESSAGES[lang].get(f"nmr.reason.{ruling['detail']}", ruling["detail"])
    return message(lang, f"standings.nmr.{ruling['policy']}", player=ruling["player"], detail=detail)


def markdown_cell(value: Any) -> str:
    """``value`` as the text of one Markdown table cell: HTML's ``& < >``
    as entities, Markdown punctuation backslash-escaped, line breaks as spaces.

    >>> markdown_cell("<b>A|B</b> *x*")
    '&lt;b&gt;A\\\\|B&lt;/b&gt; \\\\*x\\\\*'
    """
    text = " ".join(str(value).splitlines())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _fence(text: str) -> list[str]:
    """``text`` in a fenced code block no line of it can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", text, fence]


def standings_markdown(outcomes: list[BattleOutcome], name: str, lang: str = "en",
                       commitment: str | None = None) -> str:
    """The round's summary as a GitHub-flavoured Markdown table, in ``lang``;
    failed battles with their errors, then every battle's warnings.  Every
    cell is escaped and every error fenced (:func:`markdown_cell`)."""
    def say(key: str, **fields: Any) -> str:
        return message(lang, f"standings.{key}", **fields)

    header = say("header").split("|")
    lines = [f"# {say('title', name=markdown_cell(name))}", "", say("summary", **_counts(outcomes)), "",
             *([say("commitment", commitment=commitment), ""] if commitment else []),
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for o in outcomes:
        if o.ok:
            how = MESSAGES[lang].get(f"standings.reason.{o.reason}", o.reason)
            winner = word(lang, "result.draw_word") if o.winner == "draw" else team_label(lang, o.winner)
            lines.append(f"| {markdown_cell(o.battle)} | {markdown_cell(o.title)} | {winner} | {markdown_cell(how)} | "
                         f"{o.turns} | {o.standing} | {markdown_cell(o.seed)} |")
        elif o.status == "forfeit":
            winner = team_label(lang, o.winner) if o.winner != "none" else word(lang, "none")
            lines.append(f"| {markdown_cell(o.battle)} | | {winner} | {say('status.forfeit')} | | | |")
        else:
            status = MESSAGES[lang].get(f"standings.status.{o.status}", o.status)
            lines.append(f"| {markdown_cell(o.battle)} | | **{say('failed')}** | {markdown_cell(status)} | | | |")
    rulings = [(o.battle, e) for o in outcomes for e in o.nmr]
    if rulings:
        lines += ["", f"## {say('nmr_title')}", ""]
        lines += [f"- {markdown_cell(battle)}: {markdown_cell(nmr_sentence(lang, e))}" for battle, e in rulings]
    for title, rows in (("failed_title", [(o.battle, o.error) for o in outcomes if o.failed]),
                        ("warnings_title", [(o.battle, o.warnings) for o in outcomes if o.warnings])):
        if rows:
            lines += ["", f"## {say(title)}", ""] + ([say("warnings_note"), ""] if title == "warnings_title" else [])
            for battle, text in rows:
                lines += [f"### {markdown_cell(battle)}", "", *_fence(text.rstrip()), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
