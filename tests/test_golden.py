"""Golden reports (style lesson 13) and cross-process determinism (lesson 15).

Cases are found by listing fixtures/: every ``fixtures/<name>.battle.yaml``
has ``fixtures/<name>.<kind>.golden`` per kind below.  A failure shows the
first differing line; ``pytest --update-goldens`` rewrites them (review the
diff before committing).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reporthelpers import FIXTURES, ROOT, fixture_battles, resolved


from referee.cli import main
from referee.report import render

#: golden kind -> (format, language, full)
KINDS: dict[str, tuple[str, str, bool]] = {
    "txt": ("text", "en", False),
    "full.txt": ("text", "en", True),
    "ja.txt": ("text", "ja", False),
    "md": ("md", "en", False),
    "bbcode": ("bbcode", "en", False),
    "ja.bbcode": ("bbcode", "ja", False),
    "discord": ("discord", "en", False),
    "ja.discord": ("discord", "ja", False),
    "html": ("html", "en", False),
    "json": ("json", "en", False),
}

CASES = [(battle, kind) for battle in fixture_battles() for kind in KINDS]


def golden_path(battle: Path, kind: str) -> Path:
    return battle.with_name(battle.name[: -len(".battle.yaml")] + f".{kind}.golden")


def first_difference(expected: str, got: str) -> str:
    exp, new = expected.splitlines(), got.splitlines()
    for i, (a, b) in enumerate(zip(exp, new), start=1):
        if a != b:
            return f"line {i} differs:\n  golden: {a!r}\n  now:    {b!r}"
    return f"lengths differ: golden has {len(exp)} lines, now {len(new)}"


def test_fixture_folder_has_enough_battles() -> None:
    assert len(fixture_battles()) >= 5
    assert len(list((FIXTURES / "round").glob("*.battle.yaml"))) >= 3


@pytest.mark.parametrize(("battle", "kind"), CASES, ids=[f"{b.name[:-12]}.{k}" for b, k in CASES])
def test_golden(battle: Path, kind: str, request: pytest.FixtureRequest) -> None:
    fmt, lang, full = KINDS[kind]
    got = render(resolved(str(battle)), fmt, lang, full=full)
    path = golden_path(battle, kind)
    if request.config.getoption("--update-goldens"):
        path.write_text(got, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"{path.name} is missing; run: python -m pytest tests/test_golden.py --update-goldens"
    expected = path.read_text(encoding="utf-8")
    if got != expected:
        pytest.fail(f"{path.name}: {first_difference(expected, got)}\n"
                    "(if the change is intended: python -m pytest tests/test_golden.py --update-goldens)")


RUNNER = """
import sys
from referee.cli import main
out = sys.argv[1]
for battle in sys.argv[2:]:
    stem = battle.rsplit('/', 1)[-1][: -len('.battle.yaml')]
    for fmt, lang, full in (('text', 'en', []), ('text', 'ja', ['--full']), ('md', 'en', []), ('html', 'ja', []),
                            ('bbcode', 'ja', []), ('discord', 'en', ['--full']), ('json', 'en', [])):
        code = main(['resolve', battle, '--format', fmt, '--lang', lang, *full, '-o', f'{out}/{stem}.{lang}.{fmt}'])
        assert code == 0, (battle, fmt)
"""


def test_resolve_is_byte_identical_across_processes(tmp_path: Path) -> None:
    """Each fixture resolved in two processes with different PYTHONHASHSEED:
    identical bytes in every format; and replay confirms each JSON report."""
    battles = [str(b) for b in fixture_battles()]
    outs = []
    for hashseed in ("1", "4242"):
        out = tmp_path / f"run{hashseed}"
        out.mkdir()
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", RUNNER, str(out), *battles], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        outs.append(out)
    a, b = outs
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir()) and len(names) == 7 * len(battles)
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    for name in names:
        if name.endswith(".json"):
            assert main(["replay", str(a / name)]) == 0, name
