"""Worker processes of ``referee batch``: a time limit per battle, and no
worker that outlives its round.

Why a module of its own: these are the process-level guarantees of issue 17
(points 5 and 19) and of Ctrl-C in a round, kept apart from what a round
computes.

- :func:`time_limit` bounds one battle: a ``SIGALRM`` timer whose handler
  raises :class:`BattleTimeout`, which interrupts Python code and blocking
  system calls alike (a plan "file" that is a FIFO, an endless loop).
- :func:`worker_init` makes a worker ignore Ctrl-C (the parent decides what
  an interrupted round writes) and, on Linux, ask the kernel to kill it when
  its parent dies (``PR_SET_PDEATHSIG``), so ``kill -9`` of ``referee batch``
  leaves no worker behind.
- :func:`kill_workers` ends a pool's processes at once (Ctrl-C, or a worker
  stuck where even the timer cannot reach it).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import threading
from typing import Any, Iterator

__all__ = ["BattleTimeout", "time_limit", "worker_init", "kill_workers", "fork_context", "warm_up"]

_PR_SET_PDEATHSIG = 1


class BattleTimeout(BaseException):
    """A battle ran past its time limit.

    A ``BaseException`` on purpose: no ``except Exception`` on the way out of
    the engine or a loader may swallow it."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"took longer than {seconds:g} s")
        self.seconds = seconds


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`BattleTimeout` in this thread after ``seconds``.

    No limit when ``seconds`` is ``None`` or 0, off the main thread, or where
    the platform has no interval timer (the batch parent's watchdog still
    ends a stuck worker there)."""
    usable = (seconds and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    assert seconds is not None

    def on_alarm(_signum: int, _frame: Any) -> None:
        raise BattleTimeout(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _die_with_parent(parent_pid: int) -> None:
    """Linux: the kernel sends SIGKILL to this process when its parent dies."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)


def worker_init(parent_pid: int) -> None:
    """Initialiser of every batch worker process.

    Ignores Ctrl-C (the terminal sends it to the whole process group; the
    parent kills the workers and writes partial standings), dies with its
    parent, and moves the imported modules out of the collector's way:
    workers allocate many small, acyclic event objects."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent_pid)
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def kill_workers(pool: Any) -> None:
    """Kill every process of a ``ProcessPoolExecutor`` now and forget its
    queued work (its futures then fail with ``BrokenProcessPool``)."""
    processes = dict(getattr(pool, "_processes", None) or {})
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.kill()
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.join(timeout=1.0)
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)


def fork_context() -> Any:
    """The ``fork`` start method where the platform offers it safely (Linux),
    else ``None`` (the platform's default).

    Why: a forked worker inherits what the parent has already built -- the
    LALR plan parser (about 0.5 s to build), the skill catalogue, the built-in
    rulesets -- instead of building it again in every worker."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def warm_up() -> None:
    """Build, once in the parent, what every battle needs (see fork_context)."""
    from referee.catalog import load_catalog
    from referee.plan.parser import plan_parser
    from referee.ruleset import load_ruleset

    plan_parser()
    load_catalog()
    load_ruleset()
    gc.freeze()  # the inherited objects stay out of every collection (and copy-on-write)
