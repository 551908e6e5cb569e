"""The organiser's *batch* button: ``referee batch ROUND`` (the same
function, :func:`referee.commands.batch.batch_round`), run in a process of
its own.

Why a process: the server is multi-threaded, and a batch forks its workers
(:func:`referee.app.workers.fork_context`); a fork from a threaded process
may inherit a lock some other thread held.  A freshly spawned process has
one thread, gives each battle its time limit as the terminal does (timers
need the main thread), and dies with the server (its workers too).
Its progress lines and outcomes come back over a pipe; nothing else is
shared.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from referee.app.batch import BattleOutcome

__all__ = ["BatchJob", "BatchState"]


class _PipeStream:
    """A text stream whose lines go to the server (the batch's progress)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def write(self, text: str) -> int:
        self.conn.send(("progress", text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def _batch_process(folder: str, parent: int, conn: Any) -> None:
    """The spawned process: the round's batch, its outcome sent back."""
    from referee.app.batch import BatchInterrupted
    from referee.app.workers import worker_init
    from referee.commands.batch import batch_round
    from referee.confine import without_place
    from referee.diagnostics import ReferError, format_diagnostics

    worker_init(parent)  # dies with the server; Ctrl-C is the server's to handle
    try:
        outdir, outcomes = batch_round(folder, progress=_PipeStream(conn))  # type: ignore[arg-type]
        standings = (Path(outdir) / "standings.md").read_text(encoding="utf-8")
        conn.send(("done", ([asdict(o) for o in outcomes], without_place(standings, folder))))
    except ReferError as err:
        conn.send(("refused", without_place(format_diagnostics(err.diagnostics), folder)))
    except BatchInterrupted as stop:
        conn.send(("crashed", f"interrupted after {stop.finished} battle(s)"))
    except Exception as err:  # a bug: said on the page, never a traceback there
        conn.send(("crashed", type(err).__name__))
    finally:
        conn.close()


@dataclass
class BatchState:
    """What the organiser's page shows of the last batch.

    :param state: ``idle``, ``running``, ``done``, ``refused`` or ``crashed``.
    """

    state: str = "idle"
    started: str | None = None
    finished: str | None = None
    progress: list[str] = field(default_factory=list)
    outcomes: list[BattleOutcome] = field(default_factory=list)
    standings: str = ""
    problem: str = ""

    @property
    def resolved(self) -> int:
        return sum(o.ok for o in self.outcomes)


class BatchJob:
    """At most one batch at a time for the round in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._state = BatchState()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def snapshot(self) -> BatchState:
        with self._lock:
            return replace(self._state, progress=list(self._state.progress), outcomes=list(self._state.outcomes))

    def start(self) -> bool:
        """Start a batch; ``False`` when one is running already."""
        with self._lock:
            if self._state.state == "running":
                return False
            self._state = BatchState("running", datetime.now(timezone.utc).isoformat())
        self._thread = threading.Thread(target=self._run, name="referee-batch", daemon=True)
        self._thread.start()
        return True

    def wait(self, seconds: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(seconds)

    def _run(self) -> None:
        context = multiprocessing.get_context("spawn")
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_batch_process, args=(str(self.folder), os.getpid(), sender),
                                  name="referee-batch")
        process.start()
        sender.close()
        ending: tuple[str, Any] = ("crashed", "the batch process ended without an answer")
        while True:
            try:
                kind, payload = receiver.recv()
            except (EOFError, OSError):
                break
            if kind == "progress":
                with self._lock:
                    self._state.progress += [line for line in str(payload).splitlines() if line.strip()]
            else:
                ending = (kind, payload)
        process.join()
        receiver.close()
        kind, payload = ending
        with self._lock:
            self._state.state = kind
            self._state.finished = datetime.now(timezone.utc).isoformat()
            if kind == "done":
                rows, self._state.standings = payload
                self._state.outcomes = [BattleOutcome(**{**o, "reports": tuple(o["reports"]), "nmr": tuple(o["nmr"])})
                                        for o in rows]
            else:
                self._state.problem = str(payload)
