"""Small wiz battles for the scenario tests (variant-wiz.md's worked examples).

The examples use "a test ruleset that ``extends: wiz``, whose catalogue adds
two skills", Katino (1x3) and Tiltwait (5x5): :func:`seed_ruleset` writes
that ruleset (the built-in catalogue plus the two) once per session.
"""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee.catalog import builtin_catalog_path
from referee.plan.parser import parse_plan
from referee.ruleset import load_ruleset
from tests.engine.helpers import Spec, TestSheet, fighter

SEED_SKILLS = """
  - id: katino
    name_ja: カティノ
    reading: カティノ
    name_en: Katino
    cost: [wind]
    level: 1
    classes: [obstruct, change]
    range: 2
    targets: enemies
    area: 1x3
    effects:
      - {kind: status, status: freeze, object: character, duration: 1}
    note: "the seed's sleep spell (variant-wiz.md worked examples)"

  - id: tiltwait
    name_ja: ティルトウェイト
    reading: ティルトウェイト
    name_en: Tiltwait
    cost: [fire, fire]
    level: 2
    classes: [attack]
    range: 7
    targets: enemies
    area: 5x5
    damage: 6
    note: "the seed's area spell (variant-wiz.md worked examples)"
"""


@functools.lru_cache(maxsize=None)
def seed_ruleset(turn_limit: int = 1) -> Any:
    """``extends: wiz`` with Katino and Tiltwait added to the catalogue."""
    folder = Path(tempfile.mkdtemp(prefix="wiz-seed-"))
    skills = builtin_catalog_path().read_text(encoding="utf-8").rstrip("\n") + "\n" + SEED_SKILLS
    (folder / "skills.yaml").write_text(skills, encoding="utf-8")
    (folder / "seed.yaml").write_text("name: wiz-seed\nextends: wiz\nskills: skills.yaml\n", encoding="utf-8")
    return replace(load_ruleset(folder / "seed.yaml"), turn_limit=turn_limit)


@functools.lru_cache(maxsize=None)
def wiz_ruleset(turn_limit: int = 1) -> Any:
    return replace(load_ruleset("wiz"), turn_limit=turn_limit)


@dataclass(frozen=True)
class WizSheet(TestSheet):
    """A test sheet with a ``wiz:`` block (R-WIZ-SHEET-1), English keys."""

    wiz: tuple[tuple[str, int], ...] = ()


def plan(text: str) -> Any:
    parsed, diags = parse_plan(text, "t.plan")
    assert diags == [], diags
    return parsed


HOLD = "hold position\n"


def wizard(name: str, square: str, skills: str, patterns: str, *, body: int = 3, reflex: int | None = None,
           intellect: int = 3, plan_text: str = "", levels: dict[str, int] | None = None) -> Spec:
    """``fighter`` with a plan written in the plan language and wiz levels."""
    spec = fighter(name, square, skills, patterns, body=body, reflex=reflex, intellect=intellect,
                   plan=plan(plan_text) if plan_text else ())
    sheet = WizSheet(**{f: getattr(spec.sheet, f) for f in TestSheet.__dataclass_fields__},
                     wiz=tuple(sorted((levels or {}).items())))
    return replace(spec, sheet=sheet)
