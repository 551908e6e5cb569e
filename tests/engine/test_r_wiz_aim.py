"""Scenario tests for Gase-Wiz's aim module (variant-wiz.md R-WIZ-AIM-1), on
in a house ruleset that ``extends: wiz`` with ``hit: {..., aim: true}``; the
built-in ``wiz`` keeps it off ("[module aim, off in wiz]")."""

from __future__ import annotations

import functools
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.rng import ScriptedRng
from referee.plan import check_plan
from referee.plan.parser import parse_plan
from referee.ruleset import load_ruleset
from tests.engine.helpers import battle, hp, of
from tests.engine.randombattle import random_setup
from tests.engine.test_properties import check_invariants
from tests.engine.wizhelpers import HOLD, wizard

AIM_RULESET = """name: wiz-aim
extends: wiz
mechanics:
  hit: {kind: percentile, base: 70, per_reflex: 5, min: 5, max: 95,
        facing: {side: 10, back: 20}, missile: {base: 5, per_extra_opponent: 2},
        sizes: [T, S, M, L, H], aim: true}
"""


@functools.lru_cache(maxsize=None)
def aim_ruleset(turn_limit: int = 2) -> Any:
    """``extends: wiz`` with the aim module on (R-WIZ-AIM-1)."""
    folder = Path(tempfile.mkdtemp(prefix="wiz-aim-"))
    (folder / "aim.yaml").write_text(AIM_RULESET, encoding="utf-8")
    return replace(load_ruleset(folder / "aim.yaml"), turn_limit=turn_limit)


def _kinds(rec: Any, actor: str, *types: type[E.Event]) -> list[Any]:
    return [e for e in rec.events if isinstance(e, types) and getattr(e, "actor", None) == actor]


def _melee(archer_plan: str) -> Any:
    """The Archer (c3, Night Shrieker: a weapon, range 1) shoots Rat (d4),
    which is in a melee with the Archer's ally Wall: one enemy in Rat's area,
    so a missile penalty of 5 (R-WIZ-MIS-1).  Order Archer, Wall, Rat."""
    return battle([wizard("Archer", "c3", "night-shrieker", "風剣剣", plan_text=archer_plan),
                   wizard("Wall", "d4", "rest", "水水水", plan_text=HOLD)],
                  [wizard("Rat", "d4", "rest", "水水水", plan_text=HOLD)])


def test_r_wiz_aim_1_take_aim_skips_the_walk_and_removes_the_penalty() -> None:
    """R-WIZ-AIM-1: "take aim at NAME [when C] applies at the start of the walk
    if C holds, NAME is a standing enemy and the character has no aim on NAME.
    The character then skips the walk and its movement (stayed, reason aiming),
    and gains aim on NAME: its missile uses on NAME take no penalty."

    Turn 1 the Archer aims (no walk, no roll, no move); turn 2 the clause no
    longer applies (it has aim on Rat), so it shoots: p 70, not 65."""
    rec = resolve_battle(_melee("take aim at Rat\n"), aim_ruleset(2), 1, rng=ScriptedRng({"checks": [70]}))
    turn1 = [e for e in _kinds(rec, "Archer", E.Aimed, E.Stayed, E.SkillOrder, E.SkillUsed, E.Moved)
             if e.turn == 1]
    assert [type(e) for e in turn1] == [E.Aimed, E.Stayed]
    assert (turn1[0].target, turn1[0].line) == ("Rat", 1)
    assert (turn1[1].reason, turn1[1].line, turn1[1].rule) == ("aiming", 1, "R-WIZ-AIM-1")
    (check,) = of(rec, E.D100Check)
    assert check.turn == 2
    assert (check.facing, check.aimed, check.missile_penalty, check.chance, check.hit) == (None, True, 0, 70, True)
    assert hp(rec, "Rat") < 12


def test_r_wiz_aim_1_without_aim_the_missile_penalty_stands() -> None:
    """R-WIZ-AIM-1 (contrast): the same shot unaimed is at 70 − 5 = 65, so a
    70 misses."""
    rec = resolve_battle(_melee(""), aim_ruleset(1), 1, rng=ScriptedRng({"checks": [70]}))
    (check,) = of(rec, E.D100Check)
    assert (check.aimed, check.missile_penalty, check.chance, check.hit) == (False, 5, 65, False)


def test_r_wiz_aim_1_when_c_must_hold_and_name_must_be_a_standing_enemy() -> None:
    """R-WIZ-AIM-1: "applies … if C holds, NAME is a standing enemy": a false
    condition, or an ally's name, and the Archer walks and shoots at once."""
    for plan in ("take aim at Rat when hp <= 1\n", "take aim at Wall\n"):
        rec = resolve_battle(_melee(plan), aim_ruleset(1), 1, rng=ScriptedRng({"checks": [1]}))
        assert of(rec, E.Aimed) == []
        (check,) = of(rec, E.D100Check)
        assert (check.aimed, check.missile_penalty) == (False, 5)


def test_r_wiz_aim_1_a_missile_use_on_anyone_else_ends_the_aim() -> None:
    """R-WIZ-AIM-1: "Aim ends when the character … makes a missile use on
    anyone else".  The Archer aims at Rat (turn 1), then its plan sends its
    shot at Mouse (turn 2): the aim ends (``aim_lost``, ``other_target``) and
    the shot carries Mouse's penalty."""
    setup = battle([wizard("Archer", "c3", "night-shrieker", "風剣剣",
                           plan_text="take aim at Rat when turn = 1\ntarget Mouse\n"),
                    wizard("Wall", "d4", "rest", "水水水", plan_text=HOLD)],
                   [wizard("Rat", "d4", "rest", "水水水", plan_text=HOLD),
                    wizard("Mouse", "d4", "rest", "水水水", plan_text=HOLD)])
    rec = resolve_battle(setup, aim_ruleset(2), 1, rng=ScriptedRng({"checks": [1]}))
    (lost,) = of(rec, E.AimLost)
    assert (lost.actor, lost.target, lost.reason, lost.turn) == ("Archer", "Rat", "other_target", 2)
    (check,) = of(rec, E.D100Check)
    assert (check.target, check.aimed, check.missile_penalty) == ("Mouse", False, 5)
    assert rec.events.index(lost) < rec.events.index(check)


def test_r_wiz_aim_1_moving_ends_the_aim() -> None:
    """R-WIZ-AIM-1: "Aim ends when the character moves".  The Archer aims at
    Rat, far away, in turn 1; in turn 2 nothing is in reach, so it steps
    toward Rat (R-MOVE-6) and loses its aim (``moved``)."""
    setup = battle([wizard("Archer", "a1", "night-shrieker", "風剣剣", plan_text="take aim at Rat when turn = 1\n")],
                   [wizard("Rat", "h8", "rest", "水水水", plan_text=HOLD)])
    rec = resolve_battle(setup, aim_ruleset(2), 1, rng=ScriptedRng({}))
    (lost,) = of(rec, E.AimLost)
    assert (lost.target, lost.reason, lost.turn) == ("Rat", "moved", 2)
    moved = next(e for e in of(rec, E.Moved) if e.actor == "Archer")
    assert rec.events.index(moved) < rec.events.index(lost)
    assert not [e for e in of(rec, E.Moved) if e.actor == "Archer" and e.turn == 1]


def test_r_wiz_aim_1_refused_with_aim_off_and_given_with_aim_on() -> None:
    """R-WIZ-CHECK-1: "take aim with aim off" is an error; with ``aim: true``
    the clause is a plan word (R-WIZ-PLAN-1)."""
    plan, _ = parse_plan("take aim at Rat\n", "p.plan")
    for rs, codes in ((load_ruleset("wiz"), [("clause-not-in-ruleset", 1)]), (aim_ruleset(), [])):
        diags = check_plan(plan, None, rs.catalog, features=rs.features)
        assert [(d.code, d.line) for d in diags if d.is_error] == codes


def test_r_wiz_aim_1_being_pushed_ends_the_aim() -> None:
    """R-WIZ-AIM-1: "Aim ends when the character … is pushed".  The Archer
    (b2) aims at Rat (turn 1); the Pusher's Pressurize (range 2, cast at 2,
    going off at 1, R-WIZ-CAST-1) knocks it back to a1 (R-KNOCK-1): the aim
    ends (``pushed``) right after the ``knockback``."""
    setup = battle([wizard("Archer", "b2", "night-shrieker", "風剣剣", plan_text="take aim at Rat\n")],
                   [wizard("Pusher", "c3", "pressurize", "風風風", plan_text=HOLD),
                    wizard("Rat", "h8", "rest", "水水水", plan_text=HOLD)])
    rec = resolve_battle(setup, aim_ruleset(1), 1, rng=ScriptedRng({"knockback": [1]}))
    (aimed,) = of(rec, E.Aimed)
    (push,) = of(rec, E.Knockback)
    (lost,) = of(rec, E.AimLost)
    assert (push.target, str(push.from_square), str(push.to_square), push.wall) == ("Archer", "b2", "a1", False)
    assert (lost.target, lost.reason) == ("Rat", "pushed")
    assert rec.events.index(aimed) < rec.events.index(push) < rec.events.index(lost)


def test_r_wiz_aim_1_one_aim_at_a_time() -> None:
    """R-WIZ-AIM-1 [decision, docs/decisions.md]: a character holds one aim;
    taking aim at another ends the first (``new_aim``) before the new
    ``aimed``.  Turn 1 the Archer aims at Rat, turn 2 at Mouse."""
    setup = battle([wizard("Archer", "a1", "night-shrieker", "風剣剣",
                           plan_text="take aim at Rat when turn = 1\ntake aim at Mouse\n")],
                   [wizard("Rat", "h8", "rest", "水水水", plan_text=HOLD),
                    wizard("Mouse", "h7", "rest", "水水水", plan_text=HOLD)])
    rec = resolve_battle(setup, aim_ruleset(2), 1, rng=ScriptedRng({}))
    seq = [(type(e).__name__, e.target, e.turn) for e in rec.events if isinstance(e, (E.Aimed, E.AimLost))]
    assert seq == [("Aimed", "Rat", 1), ("AimLost", "Rat", 2), ("Aimed", "Mouse", 2)]
    assert of(rec, E.AimLost)[0].reason == "new_aim"
    assert [e.line for e in of(rec, E.Aimed)] == [1, 2]
    assert not [e for e in of(rec, E.Moved) if e.actor == "Archer"]


def test_r_wiz_aim_1_the_report_tells_the_aim_in_every_language_and_explain() -> None:
    """R-WIZ-EV-1: "aimed and aim_lost"; ``stayed`` gains the reason
    ``aiming`` (told under ``--explain``); the d100 line says the shot was
    aimed.  The house fixture ``fixtures/house-wiz-aim.battle.yaml``."""
    from reporthelpers import FIXTURES, resolved

    from referee.report import render

    rep = resolved(str(FIXTURES / "house-wiz-aim.battle.yaml"))
    types = {e.TYPE for e in rep.events}
    assert {"aimed", "aim_lost"} <= types
    en = render(rep, "text", "en", explain=True)
    assert "Rin takes aim at Doji (plan line 1)" in en
    assert "Rin stays on h2 (spends the walk and the move taking aim (R-WIZ-AIM-1))" in en
    assert "aimed: no missile penalty" in en and "loses its aim on Doji" in en
    ja = render(rep, "text", "ja", explain=True)
    assert "Rin は Doji に狙いを定める" in ja and "狙い済み" in ja and "狙いが外れた" in ja
    for fmt in ("md", "html", "bbcode", "discord"):
        assert "Doji" in render(rep, fmt, "en") and "狙いを定める" in render(rep, fmt, "ja")
    assert "stays on h2" not in render(rep, "text", "en")


_AIM_CLAUSES = ("take aim at {enemy}", "take aim at {enemy} when turn <= 3", "take aim at {enemy} when hp >= 6")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(1, 5), st.integers(0, 10**6))
def test_r_wiz_aim_1_invariants_in_random_aim_battles(data, size, seed) -> None:  # type: ignore[no-untyped-def]
    """R-WIZ-AIM-1 over random battles with ``take aim at`` in the plans:
    tcgt's invariants hold; an ``aimed`` action tries no entry and does not
    move (its ``stayed`` says ``aiming``); an aimed d100 is a missile with no
    penalty on the one aimed at; ``aim_lost`` only ends a held aim; the same
    inputs give the same events."""
    setup = replace(random_setup(lambda n: data.draw(st.integers(0, n - 1)), size, text_plans=True,
                                 extra=_AIM_CLAUSES), order=None)
    rs = replace(aim_ruleset(), turn_limit=60)
    record = resolve_battle(setup, rs, seed)
    check_invariants(record, setup, 60)
    aims: dict[str, str] = {}
    aiming: str | None = None
    for ev in record.events:
        if isinstance(ev, E.ActionStart):
            aiming = None
        elif isinstance(ev, E.Aimed):
            assert aims.get(ev.actor) != ev.target
            aims[ev.actor] = ev.target
            aiming = ev.actor
        elif isinstance(ev, E.AimLost):
            assert aims.pop(ev.actor) == ev.target
        elif isinstance(ev, (E.SkillOrder, E.Moved)) and aiming is not None:
            assert ev.actor != aiming, "an aiming character walked or moved (R-WIZ-AIM-1)"
        elif isinstance(ev, E.Stayed) and ev.actor == aiming:
            assert ev.reason == "aiming"
        elif isinstance(ev, E.D100Check) and ev.aimed:
            assert ev.facing is None and ev.missile_penalty == 0 and aims.get(ev.actor) == ev.target
    again = resolve_battle(setup, rs, seed)
    assert [e.to_json() for e in again.events] == [e.to_json() for e in record.events]
