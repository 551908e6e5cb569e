"""The variant gate (referee.plan.gate): a variant's plan words are refused,
where written, under a ruleset whose mechanics do not give them
(``clause-not-in-ruleset``: R-D20-PLAN-3, R-SOUL-PLAN-5, R-ORM-CHECK-1,
R-WIZ-CHECK-1).  The variants' own clauses are tested with their rules; this
tests the gate itself with a clause made for the purpose."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from referee.mechanicspec import Features, KindInfo, MechanicsSpec, PlainSpec, feature_providers, register_kind, unregister_kind
from referee.plan import ast as A
from referee.plan.gate import gate_diagnostics, walk
from referee.ruleset import load_ruleset


@dataclass(frozen=True, slots=True)
class _Hum(A.Node):
    needs: ClassVar[str | None] = "the hum condition"


@dataclass(frozen=True, slots=True)
class _Sing(A.Clause):
    needs: ClassVar[str | None] = "the sing clause"
    condition: A.Condition | None = None


def test_a_base_language_plan_passes_any_gate() -> None:
    clause = A.UseFirst(A.SkillRef("rest"), A.Engaged(line=1, column=20), line=1, column=1)
    assert gate_diagnostics([clause], Features("tcgt", frozenset()), "p.plan") == []


def test_r_var_3_every_refused_node_is_reported_where_written() -> None:
    """R-VAR-3: "A sheet block, battle-file field, terrain kind or plan clause that
    only a variant's mechanics understand is rejected with a located diagnostic
    under a ruleset without those mechanics"."""
    clause = _Sing(A.And((A.Engaged(line=2, column=12), _Hum(line=2, column=24)), line=2, column=12), line=2, column=1)
    diags = gate_diagnostics([clause], Features("tcgt", frozenset()), "p.plan")
    assert [(d.code, d.line, d.column) for d in diags] == [("clause-not-in-ruleset", 2, 1), ("clause-not-in-ruleset", 2, 24)]
    assert "the sing clause is not part of ruleset 'tcgt'" in diags[0].message


def test_a_ruleset_with_the_feature_accepts_it() -> None:
    clause = _Sing(_Hum(line=1, column=9), line=1, column=1)
    assert gate_diagnostics([clause], Features("house", frozenset({"the sing clause", "the hum condition"})), "p") == []
    only_sing = gate_diagnostics([clause], Features("house", frozenset({"the sing clause"})), "p")
    assert [d.column for d in only_sing] == [9]


def test_features_come_from_the_kinds_chosen_and_the_hint_names_them() -> None:
    register_kind(KindInfo("stall", "choir", "test", build=lambda kind, _: PlainSpec(kind),
                           features=frozenset({"the sing clause"})))
    try:
        tcgt = load_ruleset("tcgt").mechanics
        assert "the sing clause" not in tcgt.features()
        singing = MechanicsSpec(**{**dict(tcgt.slots()), "stall": PlainSpec("choir")})
        assert "the sing clause" in singing.features()
        assert feature_providers("the sing clause") == ["stall: choir"]
        diag, = gate_diagnostics([_Sing(line=3, column=1)], Features("tcgt", tcgt.features()), "p")
        assert diag.hint == "it comes with the mechanics stall: choir"
    finally:
        unregister_kind("stall", "choir")


def test_walk_visits_nested_conditions_in_order() -> None:
    inner = A.Not(A.Engaged(line=1, column=5), line=1, column=1)
    assert [type(n).__name__ for n in walk(A.Or((inner, A.Bound()), line=1, column=1))] == ["Or", "Not", "Engaged", "Bound"]


@pytest.mark.parametrize("name", ["tcgt"])
def test_builtin_tcgt_gives_no_variant_features(name: str) -> None:
    assert load_ruleset(name).features.names == frozenset()
