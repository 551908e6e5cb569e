"""Build the example tournament (fixtures/tournament) end to end with the
referee's own commands, as an organiser would run them round after round:

    referee tournament pair N -t T
    referee seeds commit T/rounds/N        (or, rebuilding, the recorded commitment and reveal)
    referee batch T/rounds/N --jobs 1
    referee seeds reveal T/rounds/N
    ... six times, then
    referee tournament standings -t T
    referee site T -o T/site

Usage: python scripts/build_tournament.py [--from fixtures/tournament] OUT

OUT gets the tournament's tournament.yaml and players/ from --from; each
round's seed files are copied from --from when it has them (so the same
seeds, and the same battles, come out again), else committed afresh.
tests/test_tournament_fixture.py rebuilds the fixture this way and compares.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from referee.app.seeds import COMMITMENT_FILE, REVEAL_FILE
from referee.app.tournament import load_tournament
from referee.cli import main

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "tournament"


def run(*argv: str) -> None:
    code = main(list(argv))
    if code != 0:
        raise SystemExit(f"referee {' '.join(argv)}: exit {code}")


def build(source: Path, out: Path, *, site: bool = True) -> None:
    """The whole tournament from ``source``'s roster into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / "tournament.yaml", out / "tournament.yaml")
    shutil.copytree(source / "players", out / "players", dirs_exist_ok=True)
    tournament = load_tournament(out)
    with tempfile.TemporaryDirectory() as secrets:
        os.environ["REFEREE_SECRETS_DIR"] = secrets
        for spec in tournament.rounds:
            folder = out / spec.folder
            run("tournament", "pair", str(spec.number), "-t", str(out))
            recorded = source / spec.folder
            if (recorded / REVEAL_FILE).exists():
                for name in (COMMITMENT_FILE, REVEAL_FILE):
                    shutil.copy2(recorded / name, folder / name)
            else:
                run("seeds", "commit", str(folder))
            run("batch", str(folder), "--jobs", "1", "--formats", "json")
            run("seeds", "reveal", str(folder))
            # The output folder's claim names this machine's path: not part of the example.
            (out / spec.reports / ".referee-round.json").unlink(missing_ok=True)
    run("tournament", "standings", "-t", str(out))
    if site:
        run("site", str(out), "-o", str(out / "site"))


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="the folder to build the tournament in")
    parser.add_argument("--from", dest="source", type=Path, default=FIXTURE,
                        help="the tournament whose roster (and recorded seeds) to use (default: the fixture)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse(sys.argv[1:])
    build(args.source, args.out)
