"""R-SOUL-INIT-1 (variant-soulwired.md): initiative by reflex, ties by 1d100
rolled once per battle.  Run under a house ruleset that swaps only the
initiative mechanic of tcgt (the full soulwired ruleset is not built yet)."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as E
from referee.engine.battle import BattleSetup, resolve_battle
from referee.engine.rng import BattleRng, ScriptedRng
from referee.ruleset import load_ruleset
from tests.engine.helpers import battle, fighter, of

HOUSE = "extends: tcgt\nmechanics:\n  initiative: {kind: ability, ability: reflex, tie_die: 100}\n"


@lru_cache(maxsize=None)
def _house(folder: str) -> Any:
    path = Path(folder) / "soul-init.yaml"
    path.write_text(HOUSE, encoding="utf-8")
    return replace(load_ruleset(path), turn_limit=1)


@pytest.fixture
def house(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _house(str(tmp_path_factory.mktemp("soul")))


def _unordered(setup: BattleSetup) -> BattleSetup:
    return replace(setup, order=None)


def test_r_soul_init_1_ties_by_1d100_rolled_until_distinct_sw_a(house: Any) -> None:
    """R-SOUL-INIT-1, worked example SW-A: "Characters act in descending
    reflex ... Equal reflex: 1d100, higher first ... every character whose rolls
    equal those of another character of its reflex rolls once more".  Reflex 3
    for all: A1 90, A2 75, A3 75, T 10; A2 and A3 roll again 30, 60: order A1,
    A3, A2, T; six initiative draws."""
    setup = _unordered(battle(
        white=[fighter(n, "d4", skills="slash", reflex=3) for n in ("A1", "A2", "A3")],
        black=[fighter("T", "d4", skills="rest", patterns="水水水", reflex=3)]))
    rng = ScriptedRng({"initiative": [90, 75, 75, 10, 30, 60]})
    rec = resolve_battle(setup, house, 1, rng=rng)
    ranked = of(rec, E.InitiativeRanked)
    assert [(e.actor, e.score, e.tie_rolls) for e in ranked] == [
        ("A1", 3, (90,)), ("A3", 3, (75, 60)), ("A2", 3, (75, 30)), ("T", 3, (10,))]
    assert of(rec, E.ActionOrder)[0].order == ("A1", "A3", "A2", "T")
    assert of(rec, E.InitiativeRoll) == []
    assert rng.remaining().get("initiative", 0) == 0


def test_r_soul_init_1_higher_reflex_first_without_a_roll(house: Any) -> None:
    """R-SOUL-INIT-1 (SW-C): "reflex 6 before 2, no roll": untied characters
    draw nothing and carry empty tie_rolls."""
    setup = _unordered(battle(white=[fighter("Slow", "b2", skills="slash", reflex=2)],
                              black=[fighter("Quick", "e1", skills="slash", reflex=6)]))
    rng = ScriptedRng({"initiative": []})
    rec = resolve_battle(setup, house, 1, rng=rng)
    assert [(e.actor, e.tie_rolls) for e in of(rec, E.InitiativeRanked)] == [("Quick", ()), ("Slow", ())]
    assert of(rec, E.ActionOrder)[0].order == ("Quick", "Slow")


def test_r_soul_init_1_only_the_tied_score_rolls_and_the_order_is_kept(house: Any) -> None:
    """R-SOUL-INIT-1: only characters sharing a score roll; "the same order
    every turn" (once per battle: one action_order event)."""
    setup = _unordered(battle(
        white=[fighter("A", "a1", skills="slash", reflex=2), fighter("B", "b1", skills="slash", reflex=5)],
        black=[fighter("C", "h8", skills="slash", reflex=2)]))
    rng = ScriptedRng({"initiative": [7, 40]})
    rec = resolve_battle(setup, replace(house, turn_limit=3), 1, rng=rng)
    assert of(rec, E.ActionOrder)[0].order == ("B", "C", "A")
    assert len(of(rec, E.ActionOrder)) == 1
    assert [e.tie_rolls for e in of(rec, E.InitiativeRanked)] == [(), (40,), (7,)]


def test_r_soul_init_1_a_fixed_order_draws_nothing(house: Any) -> None:
    """R-SOUL-INIT-1: "A battle file's `order` replaces this rule (no rolls)"."""
    setup = battle(white=[fighter("A", "a1", skills="slash", reflex=3)],
                   black=[fighter("B", "h8", skills="slash", reflex=3)], order=["B", "A"])
    rec = resolve_battle(setup, house, 1, rng=ScriptedRng({"initiative": []}))
    assert of(rec, E.InitiativeRanked) == []
    assert of(rec, E.ActionOrder)[0].order == ("B", "A")


def test_r_soul_init_1_seeded_rolls_repeat(house: Any) -> None:
    """R-SOUL-RNG-1: the tie dice come from the `initiative` stream; the same
    seed gives the same events."""
    setup = _unordered(battle(white=[fighter(n, "d4", skills="slash", reflex=3) for n in ("A", "B")],
                              black=[fighter("C", "e5", skills="slash", reflex=3)]))
    first = resolve_battle(setup, house, "s", rng=BattleRng("s"))
    again = resolve_battle(setup, house, "s", rng=BattleRng("s"))
    assert first.to_json() == again.to_json()
    assert all(1 <= r <= 100 for e in of(first, E.InitiativeRanked) for r in e.tie_rolls)
