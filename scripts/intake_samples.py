"""The sample receipts of ``docs/intake.md``, made by the real code.

    python scripts/intake_samples.py            print them
    python scripts/intake_samples.py --write    put them into docs/intake.md

A throwaway copy of ``fixtures/round`` gets a roster; Kagura's player mails
a sheet with a misspelt skill (English receipt) and Tomoe's player a valid
sheet (Japanese receipt), at a fixed time, through :func:`submit` -- what
``referee intake`` does with a mail -- and :func:`render_receipt` words
them.  ``tests/intake/test_docs.py`` holds the document equal to this output.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.intake.core import IncomingFile, Submission, open_round, submit  # noqa: E402
from referee.intake.render import render_receipt  # noqa: E402
from referee.intake.roster import hash_token  # noqa: E402

DOC = ROOT / "docs" / "intake.md"
MARKERS = {"en": ("<!-- sample receipt: en -->", "<!-- end of sample: en -->"),
           "ja": ("<!-- sample receipt: ja -->", "<!-- end of sample: ja -->")}
RECEIVED = datetime(2026, 12, 4, 9, 30, tzinfo=timezone.utc)

ROSTER = """round: Round 3
deadline: 2026-12-05T18:00:00+09:00
nmr: reuse-last
previous: ../round2
mail:
  from: referee@example.org
players:
  - id: kagura
    name: Kagura's player
    addresses: [kagura@example.org]
    lang: en
    sheets: [sheets/kagura.yaml]
    token: "{kagura}"
  - id: tomoe
    name: 巴
    addresses: [tomoe@example.jp]
    lang: ja
    sheets: [sheets/tomoe.yaml]
    token: "{tomoe}"
"""


def samples() -> dict[str, str]:
    """Each language's sample: the subject line and the body, as mailed."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "round3"
        shutil.copytree(ROOT / "fixtures" / "round", folder)
        (folder / "r3-broken.battle.yaml").unlink()
        kagura = (folder / "sheets" / "kagura.yaml").read_bytes().replace(b"firecracker", b"firecraker")
        tomoe = (folder / "sheets" / "tomoe.yaml").read_bytes()
        for name in ("kagura", "tomoe"):
            (folder / "sheets" / f"{name}.yaml").unlink()
        (folder / "roster.yaml").write_text(ROSTER.format(kagura=hash_token("k-token", cost=2 ** 8),
                                                          tomoe=hash_token("t-token", cost=2 ** 8)), encoding="utf-8")
        rnd = open_round(folder)
        out = {}
        for lang, player, token, data in (("en", "kagura", "k-token", kagura), ("ja", "tomoe", "t-token", tomoe)):
            receipt = submit(rnd, Submission(f"sample-{lang}", RECEIVED, "mail", token,
                                             sender=rnd.roster.player(player).addresses[0],  # type: ignore[union-attr]
                                             files=(IncomingFile(f"{player}.yaml", data),)))
            subject, body = render_receipt(receipt)
            out[lang] = f"Subject: {subject}\n\n{body}"
        return out


def with_samples(doc: str, found: dict[str, str]) -> str:
    for lang, (start, end) in MARKERS.items():
        head, rest = doc.split(start, 1)
        _, tail = rest.split(end, 1)
        doc = f"{head}{start}\n~~~text\n{found[lang]}~~~\n{end}{tail}"
    return doc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the samples into docs/intake.md")
    args = parser.parse_args()
    found = samples()
    if args.write:
        DOC.write_text(with_samples(DOC.read_text(encoding="utf-8"), found), encoding="utf-8")
    else:
        for lang, text in found.items():
            print(f"--- {lang}\n{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
