"""Fuzzing the files strangers send (issue 17, deliverable 3): sheets, battle
files, plans and reports, each mutated at random from a valid one, never
make the referee raise anything but diagnostics.

Modest in CI; ``REFEREE_FUZZ_EXAMPLES=N`` runs N examples per property
(figures in the README).
"""

from __future__ import annotations

import copy
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.app.replay import replay_report
from referee.battlefile import load_battle
from referee.cli import main
from referee.diagnostics import ReferError
from referee.plan import parse_plan
from referee.ruleset import load_ruleset
from referee.sheet import parse_sheet

from .hostilehelpers import BATTLE, SHEET, make_round

EXAMPLES = int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.integers(-10**60, 10**60), st.floats(allow_nan=True),
    st.text(max_size=12), st.sampled_from(["", " ", "\n", "\x1b[31m", "<!--", "../../etc/passwd", "/dev/zero",
                                           "火火水", "rest", "hp <= 4", "*a", "&a", "\ud800"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                      max_leaves=12)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON-like value, the root included."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, prefix + (i,))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any, rounds: int = 3) -> Any:
    """``base`` with a few values replaced, removed or duplicated at random."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, rounds))):
        path = draw(st.sampled_from(_paths(data)))
        if not path:
            data = draw(values)
            continue
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(("replace", "remove", "duplicate")))
        if action == "remove":
            parent.pop(path[-1]) if isinstance(parent, list) else parent.pop(path[-1], None)
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
        else:
            parent[path[-1]] = draw(values)
    return data


SHEET_DATA = yaml.safe_load(SHEET.format(name="Kagura") + "plan: |\n  use rest first when hp <= 4\n")
BATTLE_DATA = yaml.safe_load(BATTLE + "setup: {Kagura: {square: c3, hp: 5}}\norder: [Kagura, Ash]\n")


def _as_yaml(data: Any) -> str:
    try:
        return yaml.safe_dump(data, allow_unicode=True)
    except (yaml.YAMLError, UnicodeEncodeError):
        return json.dumps(data, ensure_ascii=True)


@FUZZ
@given(st.one_of(mutated(SHEET_DATA).map(_as_yaml), st.text(max_size=200)))
def test_fuzz_sheets_give_diagnostics_or_a_sheet(text: str) -> None:
    sheet, diags = parse_sheet(text, "fuzz.yaml", load_ruleset())
    assert (sheet is None) == any(d.is_error for d in diags)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", d.code) and d.line >= 0 for d in diags)


@FUZZ
@given(mutated(BATTLE_DATA).map(_as_yaml))
def test_fuzz_battle_files_give_diagnostics_or_a_battle(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = make_round(Path(folder), text)
        battle, diags = load_battle(path)
        assert (battle is None) == any(d.is_error for d in diags)


@FUZZ
@given(st.text(max_size=300))
def test_fuzz_plans_never_raise(text: str) -> None:
    plan, diags = parse_plan(text, "fuzz.plan")
    assert plan is not None and all(d.file == "fuzz.plan" for d in diags)


def _report() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        battle = make_round(Path(folder))
        out = Path(folder) / "r.json"
        assert main(["resolve", str(battle), "--format", "json", "-o", str(out)]) == 0
        data: dict[str, Any] = json.loads(out.read_text("utf-8"))
    data["events"] = data["events"][:40]  # mutate the inputs more than the long event list
    return data


REPORT = _report()


@FUZZ
@given(mutated(REPORT))
def test_fuzz_reports_replay_or_give_diagnostics(data: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "r.json"
        try:
            path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
        except UnicodeEncodeError:
            path.write_text(json.dumps(data), "utf-8")
        try:
            outcome = replay_report(path)
        except ReferError as err:
            assert err.diagnostics
        else:
            assert not outcome.identical or data["events"] == REPORT["events"]
