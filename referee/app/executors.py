"""Where the chunks of an odds run are resolved: this process, a local
process pool, or an existing Dask distributed cluster.

Why a choice of executors at all: an organiser testing a round's plans over
thousands of seeds outgrows one machine, and Dask distributed is a scheduler
many already run.  Nothing here changes a number: every executor returns the
same :class:`~referee.app.odds.SeedOutcome` values, which
:func:`referee.app.odds.summarise` orders by seed index.

Executors are named on the command line: ``process`` (the default; ``--jobs``
worker processes, in this process when ``--jobs 1``) or
``dask://HOST:PORT`` (the scheduler's address; Dask is the optional extra
``pip install -e '.[dask]'``).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from referee.app.workers import fork_context, warm_up, worker_init
from referee.app.odds import SeedOutcome, outcomes_for_seeds
from referee.diagnostics import Diagnostic, ReferError
from referee.ruleset import Ruleset

__all__ = ["ExecutorSpec", "parse_executor", "run_chunks", "dask_available", "dask_client"]

Chunks = list[tuple[int, list[str]]]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class ExecutorSpec:
    """``kind`` is ``process`` or ``dask``; ``address`` the Dask scheduler."""

    kind: str
    address: str = ""


def dask_available() -> bool:
    """Whether the optional ``dask[distributed]`` extra is installed."""
    return importlib.util.find_spec("distributed") is not None


def _usage_error(message: str, hint: str | None = None) -> ReferError:
    return ReferError([Diagnostic("--executor", 0, 0, "bad-executor", message, hint=hint)])


def parse_executor(text: str) -> ExecutorSpec:
    """``process`` or ``dask://HOST:PORT`` (``tcp://HOST:PORT`` is accepted too).

    :raises ReferError: on anything else.
    """
    value = text.strip()
    if value in ("", "process"):
        return ExecutorSpec("process")
    for scheme in ("dask://", "tcp://"):
        if value.startswith(scheme):
            rest = value[len(scheme):]
            host, _, port = rest.rpartition(":")
            if not host or not port.isdigit():
                raise _usage_error(f"executor {text!r}: expected dask://HOST:PORT",
                                   hint="for example --executor dask://127.0.0.1:8786")
            return ExecutorSpec("dask", f"tcp://{host}:{port}")
    raise _usage_error(f"unknown executor {text!r}; expected 'process' or dask://HOST:PORT")


def run_chunks(inputs: Mapping[str, Any], ruleset: Ruleset, chunks: Chunks, *, jobs: int = 1,
               executor: ExecutorSpec = ExecutorSpec("process"),
               on_done: Progress | None = None) -> list[SeedOutcome]:
    """Resolve every chunk; outcomes come back in completion order (the
    caller sorts them by seed index).

    :param on_done: called with the number of seeds each finished chunk held.
    :raises ReferError: Dask missing or its scheduler unreachable.
    """
    tick = on_done or (lambda n: None)
    if executor.kind == "dask":
        return _run_dask(inputs, ruleset, chunks, executor.address, tick)
    if jobs <= 1 or len(chunks) <= 1:
        out: list[SeedOutcome] = []
        for first, seeds in chunks:
            out += outcomes_for_seeds(inputs, ruleset, first, seeds)
            tick(len(seeds))
        return out
    return _run_pool(inputs, ruleset, chunks, jobs, tick)


def _run_pool(inputs: Mapping[str, Any], ruleset: Ruleset, chunks: Chunks, jobs: int,
              tick: Progress) -> list[SeedOutcome]:
    """A local process pool, forked from a warmed-up parent as ``referee batch`` does."""
    context = fork_context()
    if context is not None:
        warm_up()
    out: list[SeedOutcome] = []
    with ProcessPoolExecutor(max_workers=jobs, initializer=worker_init, initargs=(os.getpid(),), mp_context=context) as pool:
        futures = {pool.submit(outcomes_for_seeds, inputs, ruleset, first, seeds): len(seeds)
                   for first, seeds in chunks}
        for future in as_completed(futures):
            out += future.result()
            tick(futures[future])
    return out


@contextlib.contextmanager
def dask_client(address: str) -> Iterator[tuple[Any, Any]]:
    """A client of the Dask scheduler at ``address`` and the ``distributed``
    module (imported as untyped data: the extra is optional, and mypy runs
    without it); closed on the way out.  Used by ``odds`` and ``batch`` alike.

    :raises ReferError: Dask is not installed, or the scheduler cannot be reached.
    """
    if not dask_available():
        raise _usage_error("the Dask executor needs the optional extra: dask[distributed] is not installed",
                           hint="pip install -e '.[dask]'")
    distributed: Any = importlib.import_module("distributed")
    try:
        client = distributed.Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise _usage_error(f"cannot reach the Dask scheduler at {address}: {err}",
                           hint="start one with: dask scheduler  (and dask worker ADDRESS on each machine)") from None
    try:
        yield client, distributed
    finally:
        client.close()


def _run_dask(inputs: Mapping[str, Any], ruleset: Ruleset, chunks: Chunks, address: str,
              tick: Progress) -> list[SeedOutcome]:
    """The chunks as tasks on an existing Dask scheduler (the workers need
    this package installed, at the same version, like any Dask task code)."""
    out: list[SeedOutcome] = []
    with dask_client(address) as (client, distributed):
        shared_inputs = client.scatter(dict(inputs), broadcast=True)
        shared_ruleset = client.scatter(ruleset, broadcast=True)
        futures = [client.submit(outcomes_for_seeds, shared_inputs, shared_ruleset, first, seeds,
                                 key=f"referee-odds-{first}-{len(seeds)}-{id(chunks)}", pure=False)
                   for first, seeds in chunks]
        sizes = {f.key: len(seeds) for f, (_, seeds) in zip(futures, chunks)}
        for future in distributed.as_completed(futures, loop=client.loop):
            out += future.result()
            tick(sizes[future.key])
    return out
