"""Benchmark: how long a command takes to start, compiled and interpreted.

Runs ``referee --help`` and ``referee check fixtures/calm.battle.yaml`` as new
processes, interleaving the builds so that the load of the machine falls on all
of them alike, and prints the best and the median of each: CPU time (user + system of the
process, which other jobs on the machine move less) and wall time.  The
builds compared are this installation as it is (compiled modules where the
build made them), the same with ``REFEREE_PURE=1`` (the interpreted source),
and, with ``--against PYTHON``, the interpreter of another virtual environment
with another checkout installed, e.g. main's.  Every process starts in an empty
folder, so no checkout shadows the installed package, and writes and reads
bytecode caches (``PYTHONDONTWRITEBYTECODE`` is dropped), as a user's does.
``--instructions`` counts callgrind instructions of one run of each instead
(the figure to compare when the machine is loaded; needs ``valgrind``).

    python benchmarks/bench_startup.py [--runs 20] [--against /tmp/main/.venv/bin/python] [--instructions]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The commands timed: the help every user meets first, and a check of a small battle.
COMMANDS: dict[str, list[str]] = {
    "referee --help": ["--help"],
    "referee check": ["check", str(ROOT / "fixtures" / "calm.battle.yaml")],
}

#: Run the command line as the console script does.
_MAIN = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"


#: Where every process starts (``python -c`` puts its folder first on sys.path).
EMPTY = tempfile.mkdtemp(prefix="bench-startup-")


def run_once(python: str, argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU and wall seconds of one ``referee`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([python, "-c", _MAIN, *argv], env=env, check=True, cwd=EMPTY,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def instructions(python: str, argv: list[str], env: dict[str, str]) -> int:
    """Callgrind instructions of one ``referee`` process, start to exit."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-c", _MAIN,
                        *argv], env={**env, "PYTHONHASHSEED": "0"}, check=True, cwd=EMPTY,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out, encoding="utf-8") as file:
            return next(int(line.split()[1]) for line in file if line.startswith("summary:"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="runs of each command and build (default 20)")
    parser.add_argument("--against", metavar="PYTHON", help="also time the referee installed for this interpreter")
    parser.add_argument("--instructions", action="store_true", help="count callgrind instructions instead")
    args = parser.parse_args()
    # bytecode caches written and read, as an installed package has them
    base = {k: v for k, v in os.environ.items() if k not in ("REFEREE_PURE", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    builds: dict[str, tuple[str, dict[str, str]]] = {
        "installed": (sys.executable, base), "REFEREE_PURE=1": (sys.executable, {**base, "REFEREE_PURE": "1"})}
    if args.against is not None:
        builds["--against PYTHON"] = (args.against, base)
    if args.instructions:
        print(f"{'command':<16} {'build':<28} {'instructions':>14}")
        for command, argv in COMMANDS.items():
            for build, (python, build_env) in builds.items():
                run_once(python, argv, build_env)  # the bytecode caches written
                print(f"{command:<16} {build:<28} {instructions(python, argv, build_env):14,}")
        return
    times: dict[tuple[str, str], list[tuple[float, float]]] = {(c, b): [] for c in COMMANDS for b in builds}
    for python, build_env in builds.values():  # warm the bytecode caches and the disk
        for argv in COMMANDS.values():
            run_once(python, argv, build_env)
    for _ in range(args.runs):
        for command, argv in COMMANDS.items():
            for build, (python, build_env) in builds.items():
                times[command, build].append(run_once(python, argv, build_env))
    print(f"{'command':<16} {'build':<28} {'CPU best':>9} {'median':>7} {'wall best':>10} {'median':>7}  (ms)")
    for (command, build), runs in times.items():
        cpu, wall = [r[0] * 1000 for r in runs], [r[1] * 1000 for r in runs]
        print(f"{command:<16} {build:<28} {min(cpu):9.1f} {statistics.median(cpu):7.1f} "
              f"{min(wall):10.1f} {statistics.median(wall):7.1f}")


if __name__ == "__main__":
    main()
