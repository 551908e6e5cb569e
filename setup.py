"""Build the compiled core: mypyc compiles the modules of ``referee/compiled.py``'s
table when the package is installed (``pip install .`` or ``pip install -e .``).

``REFEREE_COMPILE=0`` builds without compiling; so does a machine without a C
compiler or without mypyc, with a note (``pip install -v`` shows it).  Either
way the same source runs interpreted.  Every build first removes what the
previous one made, and records what it compiled (``referee/compiled.py``
reads the record at import and never runs a compiled module older than its
source).  The project's metadata is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from importlib.util import module_from_spec, spec_from_file_location

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.errors import CCompilerError, ExecError, PlatformError

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = spec_from_file_location("referee_compiled_table", os.path.join(HERE, "referee", "compiled.py"))
assert _spec is not None and _spec.loader is not None
table = module_from_spec(_spec)
_spec.loader.exec_module(table)

#: REFEREE_COMPILE=0 builds the interpreted package only.
COMPILE = os.environ.get("REFEREE_COMPILE", "1") != "0"


def note(message: str) -> None:
    print(f"tcgt-referee build: {message}", file=sys.stderr)


class CompiledDistribution(Distribution):
    """A distribution with extension modules exactly when compiling, which
    setuptools only learns inside ``build_ext`` (mypyc runs there, once)."""

    def has_ext_modules(self) -> bool:
        return COMPILE


class BuildPy(build_py):
    """Removes the previous build's compiled files (in the build folder, or
    beside the source for an editable install) before anything is built."""

    def run(self) -> None:
        table.remove_build(HERE if self.editable_mode else self.build_lib)
        super().run()


class BuildCompiled(build_ext):
    """Compiles the table's modules with mypyc, then records them; without
    mypyc or a C compiler, leaves the package interpreted."""

    def finalize_options(self) -> None:
        self.sources = table.table_sources(HERE)
        # digests of the sources as mypyc reads them: an edit during the build leaves it out of date
        self.digests = {module: table.source_digest(os.path.join(HERE, path)) for module, path in self.sources.items()}
        self.distribution.ext_modules = self.mypyc_extensions(list(self.sources.values()))
        super().finalize_options()

    @staticmethod
    def mypyc_extensions(paths: list[str]) -> list[Extension]:
        try:
            from mypyc.build import mypycify
        except ImportError:
            note("mypyc is not installed: the package runs interpreted")
            return []
        try:
            return mypycify(paths, opt_level="3", group_name=table.LIBRARY)
        except SystemExit:
            note("mypyc could not compile the modules above; REFEREE_COMPILE=0 builds without compiling")
            raise

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError) as exc:
            note(f"no working C compiler ({exc}): the package runs interpreted")
            return
        if not self.extensions:
            return
        root = HERE if self.inplace else self.build_lib
        entries = []
        for ext in self.extensions:
            built = os.path.relpath(self.get_ext_fullpath(ext.name), root)
            if ext.name in self.sources:
                entries.append(table.Entry(built, ext.name, self.sources[ext.name], self.digests[ext.name]))
            else:  # the library the modules share
                entries.append(table.Entry(built))
        table.write_manifest(root, entries)


setup(distclass=CompiledDistribution, cmdclass={"build_py": BuildPy, "build_ext": BuildCompiled})
