"""Median time per battle to the end for 3v3, 8v8 and 16v16 (issue 4).

Run: ``python benchmarks/bench_engine.py [--profile] [--scaling] [--ruleset NAME ...]``
(``--help`` for every option; ``--ruleset`` may be given several times: each
built-in ruleset's 8v8 time is printed beside tcgt's, with the ratio -- the
variants' "within 2x" goal).  Battles always carry their decision events
(the engine always writes them).  Prints figures; it
is not a timed test.  Battles are random legal ones (tests/engine/randombattle)
with realistic plans written in the plan language (tests/engine/randombattle
``random_plan_text``: the canonical clauses of interfaces.md drawn up to
2 x intellect per character), parsed before timing; compiling them is timed.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.battle import resolve_battle  # noqa: E402
from referee.engine.events import ActionStart  # noqa: E402
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


def bench(size: int, battles: int = 21, repeat: int = 3, ruleset_name: str = "tcgt") -> tuple[float, float, float]:
    """Median ms per battle (best of ``repeat`` timings of each battle, to
    shave scheduler noise), median turns, median events."""
    rs = ruleset(ruleset_name)
    times, turns, events = [], [], []
    for i, setup in enumerate(setups(size, battles)):
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            rec = resolve_battle(setup, rs, i)
            best = min(best, time.perf_counter() - t0)
        times.append(best)
        turns.append(rec.result.turns)
        events.append(len(rec.events))
    return statistics.median(times) * 1000, statistics.median(turns), statistics.median(events)


@dataclass
class Versus:
    """tcgt against a variant on the same 8v8 inputs (:func:`versus`)."""

    tcgt_ms: float  #: tcgt's median ms per battle
    variant_ms: float  #: the variant's median ms per battle
    turns: float  #: the variant's median turns (rounds) per battle
    events: float  #: the variant's median events per battle
    tcgt_us: float  #: tcgt's CPU per character-turn (all battles' best times / their action turns)
    variant_us: float  #: the variant's CPU per character-turn
    acts: float  #: the variant's character-turns over tcgt's, all battles

    @property
    def ratio(self) -> float:
        return self.variant_ms / self.tcgt_ms


def versus(name: str, battles: int = 21, repeat: int = 3) -> Versus:
    """tcgt's and ruleset ``name``'s median ms per 8v8 battle on the same
    inputs, each battle's best of ``repeat`` rounds of CPU time.

    Each ruleset runs in its own worker process (as a user's ``referee
    resolve`` does), and the two are timed in alternating rounds.  Why both:
    timed minutes apart, the host's drift would be in the ratio; timed in one
    process, the two rulesets' battles share the interpreter's specialised
    instructions and caches, and each block starts on the other's -- which
    cost the variant about 5 % (d20pool 20.2 ms alternating in one process
    against 18.9-19.4 ms run alone), an effect no user sees.

    Also the cost per character-turn (an ``action_start``) of each: a
    variant's rules may make its battles longer on the same inputs (d20pool
    plays about 1.6x tcgt's character-turns: its battles end at a wipeout),
    and the per-battle ratio is that length times the per-turn one."""
    workers = [_VersusWorker(rs_name, battles) for rs_name in ("tcgt", name)]
    best = [[float("inf")] * battles for _ in workers]
    turns: list[int] = []
    events: list[int] = []
    acts = [[0] * battles for _ in workers]
    try:
        for rnd in range(repeat):
            for k, worker in enumerate(workers):
                times, rnd_turns, rnd_events, rnd_acts = worker.round()
                best[k] = [min(a, b) for a, b in zip(best[k], times)]
                acts[k] = rnd_acts
                if rnd == 0 and k == 1:
                    turns, events = rnd_turns, rnd_events
    finally:
        for worker in workers:
            worker.close()
    return Versus(statistics.median(best[0]) * 1000, statistics.median(best[1]) * 1000,
                  statistics.median(turns), statistics.median(events),
                  1e6 * sum(best[0]) / max(sum(acts[0]), 1), 1e6 * sum(best[1]) / max(sum(acts[1]), 1),
                  sum(acts[1]) / max(sum(acts[0]), 1))


class _VersusWorker:
    """A child process that resolves one ruleset's 8v8 battles a round at a
    time when told to (one line on its stdin), answering one JSON line of
    per-battle CPU seconds, turns and events (:func:`_versus_child`)."""

    def __init__(self, rs_name: str, battles: int) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--versus-child", rs_name, str(battles)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def round(self) -> tuple[list[float], list[int], list[int], list[int]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the benchmark's worker stopped (exit {self.proc.wait()})")
        answer = json.loads(line)
        return answer["times"], answer["turns"], answer["events"], answer["acts"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _versus_child(rs_name: str, battles: int) -> None:
    """The worker's side of :class:`_VersusWorker`: inputs built once (the
    same as the parent's :func:`setups`), one untimed battle to warm up,
    then a timed round per line read."""
    rs = ruleset(rs_name)
    inputs = setups(8, battles)
    resolve_battle(inputs[0], rs, 0)
    for _line in sys.stdin:
        times, turns, events, acts = [], [], [], []
        for i, setup in enumerate(inputs):
            t0 = time.process_time()
            rec = resolve_battle(setup, rs, i)
            times.append(time.process_time() - t0)
            turns.append(rec.result.turns)
            events.append(len(rec.events))
            acts.append(sum(1 for e in rec.events if isinstance(e, ActionStart)))
        print(json.dumps({"times": times, "turns": turns, "events": events, "acts": acts}), flush=True)


#: Where a battle's time goes: (label, module path suffix, function name).
PHASES = (
    ("actions (all of them)", "engine/action.py", "act"),
    ("  skill walk (R-PLAN-3..5)", "engine/action.py", "walk"),
    ("    walk order (use X first)", "engine/action.py", "walk_order"),
    ("    candidates (R-PLAN-4)", "engine/targeting.py", "candidates"),
    ("    target choice / extension", "engine/targeting.py", "choose_targets"),
    ("    a use and its responses", "engine/action.py", "use_skill"),
    ("    skill_passed decisions", "engine/action.py", "skill_passed"),
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


@dataclass
class Series:
    """One configuration of the scaling table: its battles (inputs built
    beforehand), each battle's best CPU time so far, its character-turns and
    events (both fixed by the seed)."""

    label: str
    rs: Any
    inputs: list[Any]
    best: list[float]
    turns: int
    events: int
    uses: int

    @property
    def per_turn(self) -> float:
        return 1e6 * sum(self.best) / max(self.turns, 1)

    @property
    def per_event(self) -> float:
        return 1e6 * sum(self.best) / max(self.events, 1)


def series(label: str, size: int, side: int, battles: int) -> Series:
    """``battles`` random ``size`` v ``size`` battles on a ``side`` x ``side``
    map, resolved once untimed (imports, route tables, turn and event counts)."""
    from dataclasses import replace as _replace

    from referee.engine.events import SkillUsed

    rs = ruleset()
    if side != 8:
        rs = _replace(rs, map=_replace(rs.map, width=side, height=side))
    inputs = setups(size, battles)
    turns = events = uses = 0
    for i, setup in enumerate(inputs):
        rec = resolve_battle(setup, rs, i)
        turns += sum(1 for e in rec.events if isinstance(e, ActionStart))
        uses += sum(1 for e in rec.events if isinstance(e, SkillUsed))
        events += len(rec.events)
    return Series(label, rs, inputs, [float("inf")] * len(inputs), turns, events, uses)


def time_interleaved(table: list[Series], rounds: int) -> None:
    """Time every battle of every series once per round, keeping each battle's
    best CPU time.  Why interleaved: on this shared host process_time drifts by
    10-30 % over minutes; timing 4v4 now and 32v32 a minute later would put the
    drift into the ratio.  Round by round, a slow minute slows every size alike."""
    for _ in range(rounds):
        for row in table:
            for i, setup in enumerate(row.inputs):
                t0 = time.process_time()
                resolve_battle(setup, row.rs, i)
                row.best[i] = min(row.best[i], time.process_time() - t0)


def scaling(battles: int = 20, rounds: int = 4) -> None:
    """Cost per character-turn (one ``action_start``) by army size on 8x8, by
    map size (8v8), and at one density (issue 18: flat from 4v4 to 32v32 means
    the engine's cost is linear)."""
    army = [series(f"{n}v{n} on 8x8", n, 8, battles) for n in (4, 8, 16, 32)]
    maps = [series(f"8v8 on {m}x{m}", 8, m, battles) for m in (16, 32)]
    # On one 8x8 map a bigger army is also a denser one: more targets in range,
    # more uses and more candidates per action (work the rules ask for, not a
    # scan of the army).  The same density (one character per 8 areas) and the
    # cost per event separate the two.
    sides = {n: min(32, round((16 * n) ** 0.5)) for n in (4, 8, 16, 32)}
    density = [series(f"{n}v{n} on {sides[n]}x{sides[n]}", n, sides[n], battles) for n in (4, 8, 16, 32)]
    time_interleaved(army + maps + density, rounds)
    print(f"\ncost per character-turn (CPU, best of {rounds} interleaved rounds, "
          f"{battles} random battles each; goal: 32v32 within 1.2x of 4v4):")
    for table in (army, [army[1], *maps], density):
        if table is density:
            print("at one density (a side of sqrt(16 x size) areas):")
        base = table[0].per_turn
        for row in table:
            print(f"  {row.label:<15} {row.per_turn:6.1f} us per character-turn ({row.per_turn / base:.2f}x)  "
                  f"{row.turns / len(row.inputs):6.0f} per battle  {row.uses / max(row.turns, 1):4.2f} uses "
                  f"per turn  {row.per_event:5.2f} us per event")
    print("(uses per turn: a skill used is the costliest part of a turn, and a crowded map gives more\n"
          " characters a target in range -- the rules' work per turn grows, not a scan of the army)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Median time per battle (3v3, 8v8, 16v16), optionally the variants' "
                    "8v8 against tcgt's and the cost per character-turn by army and map size.",
        epilog="examples:\n  python benchmarks/bench_engine.py\n"
               "  python benchmarks/bench_engine.py --ruleset d20pool --ruleset soulwired\n"
               "  python benchmarks/bench_engine.py --scaling --rounds 6\n"
               "  python benchmarks/bench_engine.py --profile",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", action="append", default=[], metavar="NAME",
                        help="a built-in ruleset whose 8v8 is timed beside tcgt's (repeatable)")
    parser.add_argument("--scaling", action="store_true", help="cost per character-turn, 4v4 to 32v32")
    parser.add_argument("--rounds", type=int, default=4, help="--scaling: interleaved timing rounds (default 4)")
    parser.add_argument("--battles", type=int, default=20, help="--scaling: battles per size (default 20: five read 1.40x where twenty read 1.31x -- a small sample is a few battles' plans)")
    parser.add_argument("--profile", action="store_true", help="a cProfile of ten 8v8 battles")
    parser.add_argument("--skip-medians", action="store_true", help="only --scaling / --profile")
    if sys.argv[1:2] == ["--versus-child"]:
        _versus_child(sys.argv[2], int(sys.argv[3]))
        return
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; best of 3 per battle, median of 21 battles")
    if not args.skip_medians:
        for size in (3, 8, 16):
            ms, turns, events = bench(size)
            print(f"{size}v{size}: median {ms:.1f} ms per battle (median {turns:.0f} turns, {events:.0f} events)")
    for name in args.ruleset:
        v = versus(name)
        print(f"8v8 {name}: median {v.variant_ms:.1f} ms per battle (median {v.turns:.0f} turns, "
              f"{v.events:.0f} events); {v.ratio:.2f}x tcgt's {v.tcgt_ms:.1f} ms, each in its own process, "
              f"rounds in turn (goal: within 2x)\n"
              f"  per character-turn {v.variant_us:.1f} us against tcgt's {v.tcgt_us:.1f} us "
              f"({v.variant_us / v.tcgt_us:.2f}x), over {v.acts:.2f}x tcgt's character-turns")
    if args.scaling:
        scaling(args.battles, args.rounds)
    if args.profile:
        profile()


if __name__ == "__main__":
    main()
