"""Screenshots of the demo's HTML replay for a reviewer (issue 15, item 5).

    python scripts/screenshots.py [-o screenshots/] [--size 1400,1000]

Renders the demo battle's page in English and Japanese and has headless
Chromium photograph it at a few telling steps (the start, the first hit,
the first knockback, the narrowing, the first knock-out, the end), so a
reviewer can look at what a player sees without running anything.  Japanese
needs a CJK font (``apt-get install fonts-noto-cjk``; CI installs one).
Exit 2 when no Chromium is found.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.report.browser import HEADLESS_FLAGS, find_chromium  # noqa: E402
FLAGS = [*HEADLESS_FLAGS, "--hide-scrollbars"]


def telling_steps(report: object, lang: str) -> list[tuple[str, int]]:
    """(name, 1-based step) for the start, first hit, knockback, narrowing, KO and end."""
    from referee.report.steps import replay_steps

    steps = replay_steps(report, lang)  # type: ignore[arg-type]
    wanted: list[tuple[str, int]] = [("start", 1)]
    firsts = {"hit": lambda s: s.actor and any(d < 0 for d in s.hp_changes.values()),
              "knockback": lambda s: any(a[2] == "knock" for a in s.arrows),
              "narrowing": lambda s: s.actor is None and s.turn > 0 and s is not steps[-1],
              "knockout": lambda s: bool(s.downs)}
    for name, test in firsts.items():
        for number, step in enumerate(steps, 1):
            if test(step):
                wanted.append((name, number))
                break
    wanted.append(("end", len(steps)))
    return wanted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--output", default=str(ROOT / "screenshots"), help="folder for the PNG files")
    parser.add_argument("--size", default="1400,1000", help="window size WIDTH,HEIGHT (default 1400,1000)")
    args = parser.parse_args(argv)
    browser = find_chromium()
    if browser is None:
        print("screenshots: no chromium found (apt-get install chromium)", file=sys.stderr)
        return 2
    from referee.app.pipeline import resolve_file
    from referee.report import render

    report = resolve_file(ROOT / "referee" / "demo" / "demo.battle.yaml")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "ja"):
        page = out / f"demo.{lang}.html"
        page.write_text(render(report, "html", lang), encoding="utf-8")
        for name, number in telling_steps(report, lang):
            shot = out / f"demo.{lang}.{number:03}-{name}.png"
            with tempfile.TemporaryDirectory() as profile:
                subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", f"--window-size={args.size}",
                                "--virtual-time-budget=300", f"--screenshot={shot}",
                                page.resolve().as_uri() + f"#step={number}"],
                               capture_output=True, timeout=120, check=True)
            print(shot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
