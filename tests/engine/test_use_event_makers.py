"""The makers of the events every use writes (events.make_*) build the
events the keyword class call builds: same class, fields, equality, hash,
immutability and pickling (issue 18)."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from referee.board import Square
from referee.engine import events as E

CASES = [
    (E.make_skill_used, E.SkillUsed(turn=4, actor="a", skill="s1", entry=2, targets=("b", "c"), panels=(0, 3),
                                    square=Square(2, 5)),
     (4, "a", "s1", 2, ("b", "c"), (0, 3), Square(2, 5), "R-SK-1")),
    (E.make_targets_chosen, E.TargetsChosen(turn=4, actor="a", skill="s1", candidates=("c", "b"), targets=("c",),
                                            preference="nearest", extend_requested=0, extended=0),
     (4, "a", "s1", ("c", "b"), ("c",), "nearest", 0, 0, "R-PLAN-4")),
    (E.make_damage, E.Damage(turn=7, target="b", amount=3, hp_after=2, cause="skill", actor="a", skill="s1",
                             element="fire", printed=4, reduced=1, rule="R-TURN-3"),
     (7, "b", 3, 2, "skill", "a", "s1", "fire", 4, 1, "R-TURN-3")),
    (E.make_damage, E.Damage(turn=7, target="b", amount=1, hp_after=0, cause="poison", printed=1),
     (7, "b", 1, 0, "poison", None, None, "", 1, 0, "R-SK-3")),
    (E.make_heal, E.Heal(turn=2, target="c", amount=2, hp_after=5, actor="a", skill="s2"),
     (2, "c", 2, 5, "a", "s2", "skill", "R-SK-2")),
    (E.make_status_applied, E.StatusApplied(turn=3, target="b", status="poison", object="panel", index=1, pattern=0,
                                            duration=None, actor="a", skill="s1", rule="R-ST-POISON"),
     (3, "b", "poison", "panel", 1, 0, None, "a", "s1", "R-ST-POISON")),
    (E.make_status_expired, E.StatusExpired(turn=5, target="b", status="change", object="panel", index=2, pattern=1,
                                            rule="R-ST-CHANGE"),
     (5, "b", "change", "panel", 2, 1, "R-ST-CHANGE")),
    (E.make_knockback, E.Knockback(turn=6, target="b", from_square=Square(1, 1), to_square=Square(1, 2),
                                   direction="N", wall=False, actor="a", skill="s1"),
     (6, "b", Square(1, 1), Square(1, 2), "N", False, "a", "s1", "R-KNOCK-1")),
    (E.make_obstructed, E.Obstructed(turn=2, actor="b", skill="s3", by="a", against_skill="s1", panels=(0, 2)),
     (2, "b", "s3", "a", "s1", (0, 2), "R-TURN-3")),
    (E.make_sink_started, E.SinkStarted(turn=2, actor="b", skill="s3", square=Square(3, 4)),
     (2, "b", "s3", Square(3, 4), "R-ST-SINK")),
    (E.make_sink_ended, E.SinkEnded(turn=3, actor="b", square=Square(3, 4), cause="owner_action"),
     (3, "b", Square(3, 4), "owner_action", "R-ST-SINK")),
]


@pytest.mark.parametrize(("make", "expected", "args"), CASES)
def test_maker_builds_the_class_calls_event(make, expected, args) -> None:
    got = make(*args)
    assert type(got) is type(expected)
    assert got == expected
    assert hash(got) == hash(expected)
    assert [f.name for f in dataclasses.fields(got)] == [f.name for f in dataclasses.fields(expected)]
    assert got.to_json() == expected.to_json()
    assert pickle.loads(pickle.dumps(got)) == expected
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.turn = 0  # type: ignore[misc]


def test_every_field_in_class_order() -> None:
    """A maker takes every field positionally: a field added to one of these
    classes changes its arity, and every call site fails loudly."""
    for make, expected, args in CASES:
        assert make.__code__.co_argcount == len(dataclasses.fields(expected)) == len(args)


def test_positional_call_sites_read_the_classes_default_rules() -> None:
    """The positional calls name every field; the rules they pass by default
    are read from the classes (events.field_default), so a class's default
    has one copy."""
    from referee.engine import action, core

    assert action._SKILL_USED_RULE == E.SkillUsed(turn=1, actor="A", skill="s", entry=0, targets=(), panels=(),
                                                  square=Square(0, 0)).rule
    assert action._SKILL_ORDER_RULE == E.SkillOrder(turn=1, actor="A", entries=(), skills=(), moved_by=()).rule
    assert core._HEAL_RULE == E.Heal(turn=1, target="A", amount=1, hp_after=1, actor="A", skill="s").rule
    from referee.engine import responses

    assert responses._OBSTRUCTED_RULE == E.Obstructed(turn=1, actor="A", skill="s", by="B", against_skill="t",
                                                      panels=()).rule
    assert responses._SINK_RULE == E.SinkStarted(turn=1, actor="A", skill="s", square=Square(0, 0)).rule
    assert action._SINK_ENDED_RULE == E.SinkEnded(turn=1, actor="A", square=Square(0, 0), cause="owner_action").rule
    from referee.engine.mechanics import d20pool

    assert d20pool._ACTION_END_RULE == E.ActionEnd(turn=1, actor="A").rule
    with pytest.raises(ValueError, match="no default"):
        E.field_default(E.Heal, "target")
