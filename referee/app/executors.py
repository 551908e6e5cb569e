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
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from referee.app.workers import fork_context, warm_up, worker_init
from referee.app.odds import SeedOutcome, outcomes_for_seeds
from referee.diagnostics import Diagnostic, ReferError
from referee.ruleset import Ruleset

__all__ = ["ExecutorSpec", "parse_executor", "run_chunks", "run_battles", "dask_available", "dask_client"]

Chunks = list[tuple[int, list[str]]]
#: A battle to resolve: its normalised inputs and its ruleset.
BattleJob = tuple[Mapping[str, Any], Ruleset]
#: ``(battle index, first seed index, seeds)``.
BattleChunks = Sequence[tuple[int, int, list[str]]]
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
    """Resolve every chunk of one battle; outcomes come back in completion
    order (the caller sorts them by seed index).

    :param on_done: called with the number of seeds each finished chunk held.
    :raises ReferError: Dask missing or its scheduler unreachable.
    """
    return run_battles([(inputs, ruleset)], [(0, first, seeds) for first, seeds in chunks],
                       jobs=jobs, executor=executor, on_done=on_done)[0]


def run_battles(battles: Sequence[BattleJob], chunks: BattleChunks, *, jobs: int = 1,
                executor: ExecutorSpec = ExecutorSpec("process"),
                on_done: Progress | None = None) -> list[list[SeedOutcome]]:
    """Resolve the chunks of several battles with one pool or one Dask
    client (``referee practice`` runs a battle per opponent): chunk
    ``(b, first, seeds)`` is battle ``b``'s.  Returns each battle's outcomes,
    in completion order.

    :raises ReferError: Dask missing or its scheduler unreachable.
    """
    tick = on_done or (lambda n: None)
    out: list[list[SeedOutcome]] = [[] for _ in battles]
    if executor.kind == "dask":
        _run_dask(battles, chunks, executor.address, tick, out)
    elif jobs <= 1 or len(chunks) <= 1:
        for b, first, seeds in chunks:
            out[b] += outcomes_for_seeds(*battles[b], first, seeds)
            tick(len(seeds))
    else:
        _run_pool(battles, chunks, jobs, tick, out)
    return out


def _run_pool(battles: Sequence[BattleJob], chunks: BattleChunks, jobs: int, tick: Progress,
              out: list[list[SeedOutcome]]) -> None:
    """A local process pool, forked from a warmed-up parent as ``referee batch`` does."""
    context = fork_context()
    if context is not None:
        warm_up()
    with ProcessPoolExecutor(max_workers=jobs, initializer=worker_init, initargs=(os.getpid(),), mp_context=context) as pool:
        futures = {pool.submit(outcomes_for_seeds, *battles[b], first, seeds): (b, len(seeds))
                   for b, first, seeds in chunks}
        for future in as_completed(futures):
            b, size = futures[future]
            out[b] += future.result()
            tick(size)


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


def _run_dask(battles: Sequence[BattleJob], chunks: BattleChunks, address: str, tick: Progress,
              out: list[list[SeedOutcome]]) -> None:
    """The chunks as tasks on an existing Dask scheduler (the workers need
    this package installed, at the same version, like any Dask task code)."""
    with dask_client(address) as (client, distributed):
        # Each battle's inputs and each distinct ruleset go to every worker once.  In
        # a list: Dask scatters a mapping item by item under its own keys
        # ("characters", ...), which every battle's inputs share.
        rulesets = {id(r): client.scatter([r], broadcast=True)[0] for _, r in battles}
        shared = [(client.scatter([dict(inputs)], broadcast=True)[0], rulesets[id(r)]) for inputs, r in battles]
        run = id(chunks)
        futures = [client.submit(outcomes_for_seeds, *shared[b], first, seeds,
                                 key=f"referee-odds-{b}-{first}-{len(seeds)}-{run}", pure=False)
                   for b, first, seeds in chunks]
        sizes = {f.key: (b, len(seeds)) for f, (b, _, seeds) in zip(futures, chunks)}
        for future in distributed.as_completed(futures, loop=client.loop):
            b, size = sizes[future.key]
            out[b] += future.result()
            tick(size)
