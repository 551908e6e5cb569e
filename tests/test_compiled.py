"""The compiled core (referee/compiled.py, setup.py): the modules of the table
run compiled or interpreted as chosen, never a mix, and never a compiled
module older than its source.

CI runs the suite twice, on the compiled build and with ``REFEREE_PURE=1``;
there, the first test fails if the table's modules are not the compiled ones,
so CI cannot silently test the source twice.  The staleness tests copy the
installed package, compiled, to a temporary folder and edit the copy.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import referee
from referee import compiled

ROOT = Path(referee.__file__).resolve().parents[1]
PURE = os.environ.get(compiled.PURE_ENV, "") not in ("", "0")


def running_compiled() -> dict[str, bool]:
    """Each module of the table, imported: whether the one running is compiled."""
    return {module: (importlib.import_module(module).__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))
            for module in compiled.table_sources(str(ROOT))}


def test_the_table_runs_compiled_or_interpreted_as_chosen_never_a_mix() -> None:
    running = running_compiled()
    assert running, "the table names no module"
    if os.environ.get("CI") and not PURE:
        assert all(running.values()), f"CI's compiled run imported source modules: {running}"
    if PURE:
        assert not any(running.values()), f"REFEREE_PURE=1 still ran compiled modules: {running}"
    assert len(set(running.values())) == 1, f"compiled and interpreted modules mixed: {running}"
    assert (referee.CORE == "compiled by mypyc") == all(running.values())


def test_the_table_names_source_files() -> None:
    sources = compiled.table_sources(str(ROOT))
    assert all((ROOT / path).is_file() for path in sources.values()), sources


def test_a_package_in_the_table_stands_for_every_module_under_it() -> None:
    sources = compiled.table_sources(str(ROOT), ("referee.engine", "referee.board"))
    assert sources["referee.engine"] == os.path.join("referee", "engine", "__init__.py")
    assert sources["referee.engine.mechanics.tcgt"] == os.path.join("referee", "engine", "mechanics", "tcgt.py")
    assert sources["referee.board"] == os.path.join("referee", "board.py")
    engine = ROOT / "referee" / "engine"
    assert len(sources) == len(list(engine.rglob("*.py"))) + 1


@pytest.fixture()
def installed_copy(tmp_path: Path) -> Path:
    """A copy of the installed, compiled package; skipped where it is not compiled (never in CI)."""
    if not compiled.read_manifest(str(ROOT)):
        if os.environ.get("CI"):
            pytest.fail("CI installs the compiled build, but this package has no compiled modules")
        pytest.skip("this install is not compiled (REFEREE_COMPILE=0, or no C compiler)")
    shutil.copytree(ROOT / "referee", tmp_path / "referee", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def run_in(root: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a new interpreter that imports ``referee`` from ``root``."""
    environ = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    return subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False,
                          env={**environ, "PYTHONPATH": str(root), **env})


#: Prints which core runs, then each module of the table and the file it was imported from.
SHOW = """
import importlib, os, referee
from referee import compiled
print(referee.CORE)
for module in compiled.table_sources(os.path.dirname(os.path.dirname(compiled.__file__))):
    print(module, importlib.import_module(module).__file__)
"""


def show(root: Path, **env: str) -> tuple[str, dict[str, str], str]:
    """Which core runs from ``root``, the file of each module of the table, and stderr."""
    result = run_in(root, SHOW, **env)
    assert result.returncode == 0, result.stderr
    core, *lines = result.stdout.splitlines()
    return core, dict(line.split(" ", 1) for line in lines), result.stderr


def is_extension(file: str) -> bool:
    return file.endswith(tuple(EXTENSION_SUFFIXES))


def test_an_untouched_copy_runs_compiled_and_quietly(installed_copy: Path) -> None:
    core, files, stderr = show(installed_copy)
    assert core == "compiled by mypyc"
    assert all(is_extension(file) and file.startswith(str(installed_copy)) for file in files.values()), files
    assert stderr == ""


def test_referee_pure_runs_the_source_quietly(installed_copy: Path) -> None:
    core, files, stderr = show(installed_copy, REFEREE_PURE="1")
    assert core == "interpreted (REFEREE_PURE=1)"
    assert not any(is_extension(file) for file in files.values()), files
    assert stderr == ""


def test_an_edited_source_runs_interpreted_with_one_warning(installed_copy: Path) -> None:
    board = installed_copy / "referee" / "board.py"
    board.write_text(board.read_text(encoding="utf-8") + "\nEDITED = 'the edit runs'\n", encoding="utf-8")
    core, files, stderr = show(installed_copy)
    assert core == "interpreted (out of date)"
    assert files["referee.board"] == str(board)
    assert not any(is_extension(file) for file in files.values()), files
    assert stderr.count("referee:") == 1 and stderr.endswith("\n") and stderr.count("\n") == 1
    assert "referee/board.py changed since the build" in stderr and "pip install -e ." in stderr
    assert run_in(installed_copy, "import referee.board; print(referee.board.EDITED)").stdout == "the edit runs\n"


def test_a_missing_source_never_runs_its_compiled_module(installed_copy: Path) -> None:
    (installed_copy / "referee" / "elements.py").unlink()
    result = run_in(installed_copy, "import referee.board\nimport referee.elements")
    assert "referee/elements.py is missing" in result.stderr
    assert result.returncode == 1
    assert "ModuleNotFoundError: No module named 'referee.elements' (its source is missing)" in result.stderr


def test_a_missing_built_file_runs_the_source(installed_copy: Path) -> None:
    built = next(p for p in (installed_copy / "referee").iterdir() if p.name.startswith("elements.")
                 and is_extension(p.name))
    built.unlink()
    core, files, stderr = show(installed_copy)
    assert core == "interpreted (out of date)"
    assert not any(is_extension(file) for file in files.values()), files
    assert f"referee/{built.name} is missing" in stderr


def test_a_damaged_build_record_runs_the_source(installed_copy: Path) -> None:
    manifest = installed_copy / "referee" / compiled.MANIFEST
    *lines, last = manifest.read_text(encoding="utf-8").splitlines()
    manifest.write_text("\n".join([*lines, " ".join(last.split()[:2])]) + "\n", encoding="utf-8")  # cut short
    core, files, stderr = show(installed_copy)
    assert core == "interpreted (out of date)"
    assert not any(is_extension(file) for file in files.values()), files
    assert f"referee/{compiled.MANIFEST} is damaged" in stderr
