"""Run code in fresh Python processes under different ``PYTHONHASHSEED``s.

R-RNG-1 promises byte-identical events for the same inputs and seed in any
process; a set or dict iterated in hash order somewhere would break that only
across processes, never inside one test run.  So the property tests resolve
one battle in two fresh interpreters and compare the output byte for byte.
The script is written once here: each test names its battle builder and
ruleset by ``module:function``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["ROOT", "outputs_under_hash_seeds", "events_across_processes"]

ROOT = Path(__file__).resolve().parents[2]

#: Builds a battle from a digit stream with ``setup(draw, 4)`` and prints its
#: events as sorted JSON.  ``REFEREE_DEV_STUB`` (a line of Python) is run first.
_BATTLE_SCRIPT = """
import importlib, json, sys
sys.path.insert(0, {root!r})
{stub}
from referee.engine.battle import resolve_battle

def named(ref):
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)

it = iter([int(x) for x in {digits!r}] * 1000)
setup = named({setup!r})(lambda n: next(it) % n, 4)
rec = resolve_battle(setup, named({ruleset!r})(*{ruleset_args!r}), {seed!r})
print(json.dumps([e.to_json() for e in rec.events], ensure_ascii=False, sort_keys=True))
"""


def outputs_under_hash_seeds(code: str, hash_seeds: Sequence[str] = ("1", "4242")) -> list[str]:
    """``code``'s standard output in one fresh process per hash seed."""
    outs = []
    for hash_seed in hash_seeds:
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              check=True, cwd=str(ROOT / "tests"))
        outs.append(proc.stdout)
    return outs


def events_across_processes(setup: str, ruleset: str, *ruleset_args: object, seed: int,
                            digits: str) -> list[dict[str, Any]]:
    """The events of one battle resolved in two fresh processes (hash seeds
    1 and 4242), asserted byte-identical (R-RNG-1), parsed.

    :param setup: ``module:function`` taking ``(draw, size)``, ``draw(n)``
        giving a number below ``n`` (``tests.engine.randombattle:random_setup``).
    :param ruleset: ``module:function`` called with ``ruleset_args``.
    :param digits: the draw stream, repeated.
    """
    code = _BATTLE_SCRIPT.format(root=str(ROOT), stub=os.environ.get("REFEREE_DEV_STUB", ""), digits=digits,
                                 setup=setup, ruleset=ruleset, ruleset_args=tuple(ruleset_args), seed=seed)
    first, second = outputs_under_hash_seeds(code)
    assert first == second, "the same battle gave different events in two processes"
    events: list[dict[str, Any]] = json.loads(first)
    return events
