"""Median time per battle to the end for 3v3, 8v8 and 16v16 (issue 4).

Run: ``python benchmarks/bench_engine.py [--profile] [--scaling] [--ruleset NAME ...]``
(``--ruleset`` may be given several times: each built-in ruleset's 8v8 time is
printed beside tcgt's, with the ratio -- the variants' "within 2x" goal).  Prints figures; it
is not a timed test.  Battles are random legal ones (tests/engine/randombattle)
with realistic plans written in the plan language (tests/engine/randombattle
``random_plan_text``: the canonical clauses of interfaces.md drawn up to
2 x intellect per character), parsed before timing; compiling them is timed.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.battle import resolve_battle  # noqa: E402
from referee.engine.rng import BattleRng  # noqa: E402
from tests.engine.helpers import ruleset  # noqa: E402
from tests.engine.randombattle import random_setup  # noqa: E402


def setups(size: int, battles: int) -> list[Any]:
    """The battles' inputs, built (and their plans parsed) before any timing."""
    out = []
    for i in range(battles):
        src = BattleRng(f"bench-{size}-{i}")  # input generation only
        out.append(random_setup(lambda n: src.randrange("setup", n), size, text_plans=True))
    return out


def bench(size: int, battles: int = 21, repeat: int = 3, ruleset_name: str = "tcgt",
          decisions: bool = True) -> tuple[float, float, float]:
    """Median ms per battle (best of ``repeat`` timings of each battle, to
    shave scheduler noise), median turns, median events.  ``decisions=False``:
    a lean resolution, as a round or odds run it (issue 18)."""
    rs = ruleset(ruleset_name)
    times, turns, events = [], [], []
    for i, setup in enumerate(setups(size, battles)):
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            rec = resolve_battle(setup, rs, i, decisions=decisions)
            best = min(best, time.perf_counter() - t0)
        times.append(best)
        turns.append(rec.result.turns)
        events.append(len(rec.events))
    return statistics.median(times) * 1000, statistics.median(turns), statistics.median(events)


#: Where a battle's time goes: (label, module path suffix, function name).
PHASES = (
    ("actions (all of them)", "engine/action.py", "act"),
    ("  skill walk (R-PLAN-3..5)", "engine/action.py", "walk"),
    ("    walk order (use X first)", "engine/action.py", "walk_order"),
    ("    candidates (R-PLAN-4)", "engine/targeting.py", "candidates"),
    ("    target choice / extension", "engine/targeting.py", "choose_targets"),
    ("    a use and its responses", "engine/action.py", "use_skill"),
    ("    skill_passed decisions", "engine/action.py", "passed"),
    ("  pattern + panel reset", "engine/action.py", "select_pattern"),
    ("  movement (R-MOVE-*)", "engine/movement.py", "move_step"),
    ("  status countdown", "engine/statuses.py", "tick"),
    ("event appends (all)", "engine/core.py", "emit"),
)


def profile(size: int = 8, battles: int = 10, top: int = 25) -> None:
    """cProfile of resolve_battle only (inputs built beforehand): a share
    per phase, then the top functions by own time."""
    rs = ruleset()
    inputs = setups(size, battles)
    resolve_battle(inputs[0], rs, 0)  # imports and route tables out of the way
    prof = cProfile.Profile()
    prof.enable()
    for i, setup in enumerate(inputs):
        resolve_battle(setup, rs, i)
    prof.disable()
    stats = pstats.Stats(prof)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(v[3] for (file, _l, fn), v in raw.items() if fn == "resolve_battle" and file.endswith("battle.py"))
    print(f"\nprofile of {battles} {size}v{size} battles (cProfile inflates absolute times; shares matter):")
    for label, path, name in PHASES:
        cum = sum(v[3] for (file, _line, fn), v in raw.items() if fn == name and file.endswith(path))
        print(f"  {label:<34} {100 * cum / total:5.1f} %")
    stats.sort_stats("tottime").print_stats(top)


def per_character_turn(size: int, battles: int = 5, width: int = 8, height: int = 8) -> tuple[float, float]:
    us, turns, _ = per_turn_and_event(size, battles, width, height)
    return us, turns


def per_turn_and_event(size: int, battles: int = 5, width: int = 8,
                       height: int = 8) -> tuple[float, float, float]:
    """CPU microseconds per character-turn (one ``action_start``) over
    ``battles`` random ``size`` v ``size`` battles on a ``width`` x ``height``
    map (best of 2 timings each), and the mean character-turns per battle.
    Flat from 4v4 to 32v32 means the engine's cost is linear (issue 18)."""
    from dataclasses import replace as _replace

    from referee.engine.events import ActionStart

    rs = ruleset()
    if (width, height) != (8, 8):
        rs = _replace(rs, map=_replace(rs.map, width=width, height=height))
    spent, actions, events = 0.0, 0, 0
    for i, setup in enumerate(setups(size, battles)):
        best = float("inf")
        for _ in range(2):
            t0 = time.process_time()
            rec = resolve_battle(setup, rs, i)
            best = min(best, time.process_time() - t0)
        spent += best
        actions += sum(1 for e in rec.events if isinstance(e, ActionStart))
        events += len(rec.events)
    return 1e6 * spent / max(actions, 1), actions / battles, 1e6 * spent / max(events, 1)


def scaling() -> None:
    """Cost per character-turn by army size (8x8 map) and by map size (8v8)."""
    print("\ncost per character-turn (CPU, best of 2, 5 random battles each; goal: 32v32 within 1.2x of 4v4):")
    base = None
    for size in (4, 8, 16, 32):
        us, turns, per_event = per_turn_and_event(size)
        base = base or us
        print(f"  {size}v{size} on 8x8: {us:6.1f} us per character-turn  ({us / base:.2f}x 4v4; {turns:.0f} per battle; "
              f"{per_event:.2f} us per event)")
    for side in (8, 16, 32):
        us, turns = per_character_turn(8, width=side, height=side)
        print(f"  8v8 on {side}x{side}: {us:6.1f} us per character-turn  ({turns:.0f} per battle)")
    # On one 8x8 map a bigger army is also a denser one: more targets in range,
    # more uses and more candidates per action (work the rules ask for, not a
    # scan of the army).  The same density (one character per 8 areas) and the
    # cost per event separate the two (issue 18).
    print("at one density (a side of sqrt(16 x size) areas), and per event:")
    base = None
    for size in (4, 8, 16, 32):
        side = min(32, round((16 * size) ** 0.5))
        us, turns, per_event = per_turn_and_event(size, width=side, height=side)
        base = base or us
        print(f"  {size}v{size} on {side}x{side}: {us:6.1f} us per character-turn ({us / base:.2f}x), "
              f"{per_event:5.2f} us per event")


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; best of 3 per battle, median of 21 battles")
    for size in (3, 8, 16):
        ms, turns, events = bench(size)
        print(f"{size}v{size}: median {ms:.1f} ms per battle (median {turns:.0f} turns, {events:.0f} events)")
    ms, turns, events = bench(8, decisions=False)
    print(f"8v8 lean (no decision events, as a round and odds resolve): median {ms:.1f} ms per battle "
          f"({events:.0f} events; goal: under 10 ms)")
    names = [sys.argv[i + 1] for i, arg in enumerate(sys.argv[:-1]) if arg == "--ruleset"]
    if names:
        base, _, _ = bench(8)
        for name in names:
            ms, turns, events = bench(8, ruleset_name=name)
            print(f"8v8 {name}: median {ms:.1f} ms per battle (median {turns:.0f} turns, {events:.0f} events); "
                  f"{ms / base:.2f}x tcgt's {base:.1f} ms (goal: within 2x)")
    if "--scaling" in sys.argv:
        scaling()
    if "--profile" in sys.argv:
        profile()


if __name__ == "__main__":
    main()
