"""Benchmark and acceptance run: a round of strangers' files (issue 17, "done when").

Generates a round of N battles (default 500) with ``bench_batch``'s valid
sheets, then spoils some: 25 corrupt battles of different kinds (broken YAML,
an alias bomb, a number of 5,000 digits, a sheet symlinked out of the round,
a name with a line break, a plan with an escape code, a 2 MB sheet ...), one
plan that is a FIFO and one battle under an endless house ruleset.  Runs
``referee batch DIR --jobs J`` as an organiser would (in a child process
limited to 2 GB of address space) and prints the time, the peak memory, the
status of every battle and whether every bad battle is listed with its
reason and the standings were written.  Exit 1 when any of that fails.

    python benchmarks/bench_hostile_round.py [--battles 500] [--jobs 2] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_batch import write_round  # noqa: E402

GOOD_SHEET = "name: {name}\nabilities: {body: 3, reflex: 3, intellect: 3}\npatterns: [火火水]\nskills: [rest, slash]\n"
LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))

#: (kind, sheet text or None, battle text or None): each replaces battle bNNNN.
CORRUPT: list[tuple[str, str | None, str | None]] = [
    ("yaml syntax", None, "title: [unclosed\n"),
    ("alias bomb", "name: X\n" + LAUGHS, None),
    ("5000-digit number", GOOD_SHEET.replace("body: 3", "body: " + "9" * 5000), None),
    ("5000-digit seed", None, "title: t\nseed: " + "9" * 5000 + "\nteams: {white: [sheets/kagura.yaml], black: [sheets/ash.yaml]}\n"),
    ("name with a line break", GOOD_SHEET.replace("{name}", '"Ash\\nResult: White wins"'), None),
    ("blank name", GOOD_SHEET.replace("{name}", '"  "'), None),
    ("escape code in a plan", GOOD_SHEET + 'plan: "use \\e[2J rest first"\n', None),
    ("body 5.0", GOOD_SHEET.replace("body: 3", "body: 3.0"), None),
    ("budget broken", GOOD_SHEET.replace("body: 3", "body: 9"), None),
    ("unknown skill", GOOD_SHEET.replace("rest, slash", "fireball"), None),
    ("path outside", None, "title: t\nteams: {white: ['../../etc/passwd'], black: [sheets/ash.yaml]}\n"),
    ("absolute path", None, "title: t\nteams: {white: [/dev/zero], black: [sheets/ash.yaml]}\n"),
    ("NUL in a path", None, 'title: t\nteams: {white: ["sheets/a\\0.yaml"], black: [sheets/ash.yaml]}\n'),
    ("missing sheet", None, "title: t\nteams: {white: [sheets/nobody.yaml], black: [sheets/ash.yaml]}\n"),
    ("symlink out of the round", "@symlink", None),
    ("2 MB sheet", GOOD_SHEET + "#" + "x" * (2 * 1024 * 1024) + "\n", None),
    ("10,000 blank plan lines", GOOD_SHEET + "plan: |\n" + "  \n" * 10000 + "  use rest first\n", None),
    ("40 KB plan line", GOOD_SHEET + "plan: use " + "x" * 40000 + "\n", None),
    ("not UTF-8", None, "title: caf\xe9\n"),
    ("empty battle", None, ""),
    ("deep nesting", None, "title: " + "[" * 5000 + "]" * 5000 + "\n"),
    ("duplicate names", None, "title: t\nteams: {white: [sheets/kagura.yaml], black: [sheets/kagura.yaml]}\n"),
    ("setup hp too high", None, "title: t\nteams: {white: [sheets/kagura.yaml], black: [sheets/ash.yaml]}\n"
                                "setup: {Kagura: {hp: 99}}\n"),
    ("order incomplete", None, "title: t\nteams: {white: [sheets/kagura.yaml], black: [sheets/ash.yaml]}\n"
                               "order: [Kagura]\n"),
    ("tiny map ruleset", None, "@tiny"),
]


def spoil(round_dir: Path, battles: int) -> dict[str, str]:
    """Replace some battles with bad ones; ``{battle file: kind}``."""
    bad: dict[str, str] = {}
    outside = round_dir.parent / "outside.yaml"
    outside.write_text(GOOD_SHEET.replace("{name}", "Secret"), encoding="utf-8")
    (round_dir / "tiny.ruleset.yaml").write_text("extends: tcgt\nmap: {height: 2}\nnarrowing: []\n", encoding="utf-8")
    (round_dir / "endless.ruleset.yaml").write_text(
        "extends: tcgt\nname: endless\nturn_limit: 1000000000\nnarrowing: []\nhp_per_body: 1000000\n", encoding="utf-8")
    step = battles // (len(CORRUPT) + 3)
    for n, (kind, sheet, battle) in enumerate(CORRUPT):
        name = f"b{(n + 1) * step:04d}.battle.yaml"
        path = round_dir / name
        if sheet == "@symlink":
            os.symlink(outside, round_dir / "sheets" / f"bad{n}.yaml")
        elif sheet is not None:
            (round_dir / "sheets" / f"bad{n}.yaml").write_text(sheet.replace("{name}", f"Bad{n}"), encoding="utf-8")
        if battle == "@tiny":
            battle = "title: t\nruleset: tiny.ruleset.yaml\nteams: {white: [sheets/kagura.yaml], black: [sheets/ash.yaml]}\n"
        if battle is None:
            battle = f"title: t\nteams: {{white: [sheets/bad{n}.yaml], black: [sheets/ash.yaml]}}\n"
        path.write_bytes(battle.encode("latin-1") if kind == "not UTF-8" else battle.encode("utf-8"))
        bad[name] = kind
    fifo_at = f"b{(len(CORRUPT) + 1) * step:04d}.battle.yaml"
    os.mkfifo(round_dir / "sheets" / "fifo.plan")
    (round_dir / "sheets" / "fifo.yaml").write_text(GOOD_SHEET.replace("{name}", "Fifo") + "plan: fifo.plan\n", encoding="utf-8")
    (round_dir / fifo_at).write_text("title: t\nteams: {white: [sheets/fifo.yaml], black: [sheets/ash.yaml]}\n",
                                     encoding="utf-8")
    bad[fifo_at] = "FIFO plan"
    endless_at = f"b{(len(CORRUPT) + 2) * step:04d}.battle.yaml"
    (round_dir / endless_at).write_text(
        "title: t\nruleset: endless.ruleset.yaml\nteams: {white: [sheets/kagura.yaml], black: [sheets/ash.yaml]}\n",
        encoding="utf-8")
    bad[endless_at] = "endless house ruleset"
    return bad


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the generated round and reports")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    try:
        round_dir, out = tmp / "round", tmp / "out"
        write_round(round_dir, args.battles, seed=2007)
        bad = spoil(round_dir, args.battles)
        code = ("import resource, sys\nfrom referee.cli import main\ntry:\n    status = main(sys.argv[1:])\n"
                "finally:\n    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
                "    c = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
                "    sys.stderr.write('\\n@maxrss %d %d\\n' % (r, c))\nsys.exit(status)")
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code, "batch", str(round_dir), "--jobs", str(args.jobs),
                               "-o", str(out)], capture_output=True, text=True, preexec_fn=_limit, timeout=1800)
        elapsed = time.perf_counter() - start
        parent_kb, worker_kb = (int(x) for x in proc.stderr.rsplit("@maxrss ", 1)[1].split())
        standings = json.loads((out / "standings.json").read_text("utf-8"))
        rows = {b["battle"]: b for b in standings["battles"]}
        print(f"battles: {len(rows)}  jobs: {args.jobs}  exit: {proc.returncode}  "
              f"traceback: {'Traceback' in proc.stderr}")
        print(f"time: {elapsed:.1f} s  peak memory: parent {parent_kb / 1024:.0f} MB, largest worker {worker_kb / 1024:.0f} MB")
        print(f"statuses: {dict(Counter(b['status'] for b in rows.values()))}")
        missing = []
        for name, kind in sorted(bad.items()):
            row = rows.get(name)
            status = row["status"] if row else "MISSING"
            first = (row or {}).get("error", "").splitlines()[0] if row and row.get("error") else ""
            reason = first.split("error[", 1)[1].split("]", 1)[0] if "error[" in first else first[:60]
            print(f"  {name}  {kind:28} {status:10} {reason}")
            if row is None or row["status"] == "ok":
                missing.append(name)
        ok = (not missing and proc.returncode == 1 and "Traceback" not in proc.stderr
              and standings["summary"]["failed"] == len(bad) and (out / "standings.md").exists())
        print("every bad battle listed with its reason, standings written" if ok else f"FAILED: {missing}")
        return 0 if ok else 1
    finally:
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
