"""The d20pool makers (referee.engine.d20pool_events) build the events the
class call builds: same class, fields, equality and hash (issue 13)."""

from __future__ import annotations

import dataclasses

import pytest

from referee.board import Square
from referee.engine import d20pool_events as D
from referee.engine import events as E

CASES = [
    (D.turn_roll, E.TurnRoll(turn=3, actor="a", number=4, roll=17, key=(2, 17), rule="R-D20-ORDER-3"),
     (3, "a", 4, 17, (2, 17), "R-D20-ORDER-3")),
    (D.turn_selected, E.TurnSelected(turn=2, actor="b", square=Square(3, 4), number=4, contenders=("b", "c"),
                                     rule="R-D20-ORDER-1"),
     (2, "b", Square(3, 4), 4, ("b", "c"), "R-D20-ORDER-1")),
    (D.support, E.Support(turn=1, actor="c", kind="none", first=True, stuck="bound", rule="R-D20-TURN-3"),
     (1, "c", "none", True, None, "bound", "R-D20-TURN-3")),
    (D.support, E.Support(turn=1, actor="c", kind="recover", first=False, line=7, rule="R-D20-TURN-3"),
     (1, "c", "recover", False, 7, None, "R-D20-TURN-3")),
    (D.d20_check, E.D20Check(turn=5, actor="d", check="attack", skill="s1", targets=("e",), ability="body", pool=3,
                             dropped=1, dice=(4, 20), highest=20, modifiers={"printed": 2, "drop": 1, "boost": 0,
                                                                            "critical": 5},
                             achievement=28, critical=True, fumble=False, rule="R-D20-HIT-1"),
     (5, "d", "attack", "s1", ("e",), "body", 3, 1, (4, 20), 20, {"printed": 2, "drop": 1, "boost": 0, "critical": 5},
      28, True, False, "R-D20-HIT-1")),
    (D.hit_test, E.HitTest(turn=5, actor="d", target="e", achievement=12, sensitivity=11, hit=True,
                           rule="R-D20-HIT-1"),
     (5, "d", "e", 12, 11, True, "R-D20-HIT-1")),
    (D.margin_event, E.Margin(turn=5, actor="d", target="e", attack=12, defence=9, margin=3, rule="R-D20-HIT-2"),
     (5, "d", "e", 12, 9, 3, "R-D20-HIT-2")),
    (D.move_end, E.MoveEnd(turn=6, actor="f", phase="shift", steps=1, points_left=1, reason="no_points", line=None,
                           rule="R-D20-MOVE-1"),
     (6, "f", "shift", 1, 1, "no_points", None, "R-D20-MOVE-1")),
    (D.action_end, E.ActionEnd(turn=6, actor="f"), (6, "f", "R-TURN-2")),
]


@pytest.mark.parametrize(("make", "expected", "args"), CASES)
def test_maker_builds_the_class_calls_event(make, expected, args) -> None:
    got = make(*args)
    assert type(got) is type(expected)
    assert got == expected
    if not isinstance(expected, E.D20Check):  # its modifiers are a dict: it does not hash
        assert hash(got) == hash(expected)
    for f in dataclasses.fields(expected):
        assert getattr(got, f.name) == getattr(expected, f.name)
    assert got.to_json() == expected.to_json()
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.turn = 0  # type: ignore[misc]


def test_every_field_in_class_order() -> None:
    """A maker takes every field positionally, so a field added to an event
    class changes its arity and every call site fails loudly."""
    for make, expected, args in CASES:
        assert make.__code__.co_argcount == len(dataclasses.fields(expected)) == len(args)


def test_a_check_is_its_named_tuple() -> None:
    from referee.engine.d20pool_checks import PoolCheck, roll_pool
    from referee.engine.rng import BattleRng

    check = roll_pool(BattleRng(5), 3, dropped=1, printed=2)
    assert type(check) is PoolCheck and check == PoolCheck(*check)
    assert check.printed == 2 and check.dropped == 1 and len(check.dice) == 2


@pytest.mark.parametrize(("make", "expected", "args"), CASES)
def test_maker_leaves_no_trace_of_its_open_twin(make, expected, args) -> None:
    """The maker stores the fields on an open twin of the class, then gives
    the object its class: what comes out is of the event class alone, frozen
    against deletion too, and copies and pickles as the class call's does."""
    import copy
    import pickle

    got = make(*args)
    assert type(got).__mro__ == type(expected).__mro__
    assert got.__class__ is type(expected)
    with pytest.raises(dataclasses.FrozenInstanceError):
        del got.turn  # type: ignore[misc]
    assert copy.copy(got) == expected
    assert pickle.loads(pickle.dumps(got)) == expected
    assert dataclasses.replace(got) == expected


def test_the_judged_walks_makers_build_the_class_calls_events() -> None:
    """write_walk_start (only d20pool's turns write through it) builds
    ``skill_order`` and ``skill_passed`` positionally, the class's defaults
    spelt out: the same events as the class call with those defaults."""
    from referee.engine import action

    assert action._skill_order(2, "a", (1, 0), ("s1", "s0"), (), "R-PLAN-5") == E.SkillOrder(
        turn=2, actor="a", entries=(1, 0), skills=("s1", "s0"), moved_by=())
    assert action._skill_passed(2, "a", "s1", 1, "passive", None, "", "R-SK-2") == E.SkillPassed(
        turn=2, actor="a", skill="s1", entry=1, reason="passive", rule="R-SK-2")
    assert action._skill_passed(2, "a", "s1", 1, "cost_unpayable", 4, "火", "R-PAN-3") == E.SkillPassed(
        turn=2, actor="a", skill="s1", entry=1, reason="cost_unpayable", line=4, detail="火", rule="R-PAN-3")
