"""The ``referee`` command line.

Each sub-command lives in its own module under :mod:`referee.commands` and
exposes ``register(subparsers)``; this module only wires them together and maps
outcomes to exit codes: 0 ok, 1 user error (diagnostics printed), 2 usage.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from referee import CORE, __version__
from referee.diagnostics import ReferError, format_diagnostics

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = ("check", "resolve", "batch", "replay", "skills", "rulesets", "demo", "odds", "seeds",
                            "diff", "whatif", "tournament", "site",
                            "roster", "intake", "status", "remind", "lock",
                            "practice", "template", "serve")

EPILOG = """examples:
  referee demo                          resolve the bundled demo battle
  referee check plans/*.plan sheets/*.yaml
  referee resolve round3.battle.yaml --format md -o round3.md
  referee batch rounds/3 --jobs 2 -o reports/
  referee replay reports/round3.json
  referee skills --lang ja              the skill catalogue
  referee rulesets                      the built-in rulesets
  referee intake rounds/3 --maildir ~/Maildir --smtp localhost   file mailed plans, send receipts
  referee template sheets/kagura.yaml   a plan skeleton to fill in
  referee practice sheets/*.yaml -n 200 your army against the bundled opponents
  referee serve rounds/3 --port 8000    the round's page: players check and submit, the organiser locks
"""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, one subcommand per module of ``referee.commands``."""
    parser = argparse.ArgumentParser(
        prog="referee",
        description="Referee for TCG Tactics battles: check plans, resolve battles, write reports.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"referee {__version__} (core {CORE})")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"referee.commands.{name}").register(subparsers)
    return parser


def use_utf8_streams() -> None:
    """Write stdout and stderr as UTF-8 whatever the console's code page.

    Reports and diagnostics carry Japanese names; on a Windows console in
    cp1252 or cp932, or with ``referee demo > report.txt`` there, Python's
    default encoding would crash every report with ``UnicodeEncodeError``.
    The files the referee writes itself are UTF-8 already (``write_atomic``)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = (getattr(stream, "encoding", "") or "").lower().replace("-", "").replace("_", "")
        if reconfigure is not None and encoding != "utf8":
            reconfigure(encoding="utf-8", errors="replace" if stream is sys.stderr else "strict")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``referee`` console script; returns the exit code."""
    use_utf8_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        code: int = args.run(args)
    except ReferError as exc:
        print(format_diagnostics(exc.diagnostics), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
