"""variant-d20.md's plan words (R-D20-PLAN-1..3) and what only they reach:
drops and boosts (R-D20-CHECK-3/4), the ``recover`` support (R-D20-TURN-3),
push and grapple (R-D20-PUSH-1/-2), revival by a heal (R-D20-KO-2) -- the
worked examples D20-A, D20-B and D20-C with their plans, dice scripted as
faces, and R-D20-FILE-1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.battlefile import load_battle
from referee.board import parse_square as sq
from referee.engine import events as E
from referee.engine.battle import BattleRecord, BattleSetup, resolve_battle
from referee.engine.rng import ScriptedRng
from referee.plan import ast as A
from referee.plan import check_plan, format_plan, parse_plan
from referee.ruleset import load_ruleset

from tests.engine.helpers import battle, fighter, hp, of, ruleset

#: The spec's canonical clauses, each with what it must mean (R-D20-PLAN-1..2).
CANONICAL = {
    "drop 2 dice on attack when target hp <= 6":
        A.DropDice("attack", 2, A.Compare("target", "hp", "<=", 6)),
    "drop 1 die on defence when hp >= 10":
        A.DropDice("defence", 1, A.Compare("self", "hp", ">=", 10)),
    "boost attack by 3 when hp >= 8": A.Boost("attack", 3, A.Compare("self", "hp", ">=", 8)),
    "boost defence by 2 when hp >= 10": A.Boost("defence", 2, A.Compare("self", "hp", ">=", 10)),
    "recover when hp <= 6": A.Recover(A.Compare("self", "hp", "<=", 6)),
    "push target lowest hp when engaged": A.Push(A.RankBy("lowest-hp"), A.Engaged("self")),
    "grapple target Runner": A.Grapple(A.CharacterRef("Runner")),
    "use rest first when ally ko": A.UseFirst(A.SkillRef("rest"), A.Ko("ally")),
}


def plan(text: str) -> A.Plan:
    parsed, diags = parse_plan(text + "\n")
    assert not [d for d in diags if d.severity == "error"], diags
    return parsed


def d20(setup: BattleSetup, turns: int | None = 1, strict: bool = True,
        **script: list[int]) -> tuple[BattleRecord, ScriptedRng]:
    rng = ScriptedRng(script, strict=strict)
    return resolve_battle(setup, ruleset("d20pool", turns), 1, rng=rng), rng


# ------------------------------------------------------------------ the language


@pytest.mark.parametrize("text", sorted(CANONICAL))
def test_r_d20_plan_1_the_canonical_clauses_parse_to_what_they_mean(text: str) -> None:
    """R-D20-PLAN-1: "Canonical clauses (each must parse and mean what its
    comment says)"; the pretty-printer writes them back the same."""
    parsed = plan(text)
    assert parsed.clauses == (CANONICAL[text],)
    assert plan(format_plan(parsed).strip()).clauses == parsed.clauses


def test_r_d20_plan_1_die_or_dice_defence_or_defense() -> None:
    """R-D20-PLAN-1: "(N >= 1; die or dice, defence or defense)"."""
    assert plan("drop 1 dice on defense").clauses == (A.DropDice("defence", 1),)
    assert plan("drop 3 die on attack").clauses == (A.DropDice("attack", 3),)


def test_r_d20_plan_2_ko_and_grappled_with_the_subjects_of_engaged() -> None:
    """R-D20-PLAN-2: "ko, with the subjects of engaged (target is ko; ally
    ko ...), and grappled (own or target)"."""
    assert plan("hold position when grappled").clauses[0] == A.HoldPosition(A.Grappled("self"))
    assert plan("use slash first when target is grappled").clauses[0].condition == A.Grappled("target")
    assert plan("use rest first when target is ko").clauses[0].condition == A.Ko("target")
    assert plan("target ally with ko").clauses[0] == A.TargetPreference(A.AllyWith(A.Ko("target")))


def test_r_d20_plan_3_a_d20_word_under_tcgt_is_clause_not_in_ruleset() -> None:
    """R-D20-PLAN-3: "a clause or condition of R-D20-PLAN-1..2 under a
    ruleset without these mechanics (clause-not-in-ruleset)", at its place."""
    parsed = plan("push target lowest hp\nuse rest first when ally ko")
    tcgt = check_plan(parsed, features=load_ruleset("tcgt").features)
    assert [(d.code, d.line, d.column) for d in tcgt] == [("clause-not-in-ruleset", 1, 1),
                                                          ("clause-not-in-ruleset", 2, 21)]
    assert check_plan(parsed, features=load_ruleset("d20pool").features) == []


def test_r_d20_plan_3_target_in_recover_and_n_zero_are_errors() -> None:
    """R-D20-PLAN-3: "`target` in `recover`; N = 0"."""
    parsed, _ = parse_plan("recover when target hp <= 3\nrecover target Bob\ndrop 0 dice on attack\n"
                           "boost defence by 0\n")
    diags = check_plan(parsed, features=load_ruleset("d20pool").features)
    assert [(d.code, d.line) for d in diags] == [("recover-target", 1), ("recover-target", 2),
                                                 ("zero-count", 3), ("zero-count", 4)]


def test_r_d20_plan_ast_features_are_the_ones_d20pool_gives() -> None:
    """R-D20-PLAN-3: every d20pool node's feature is given by the d20pool
    mechanics (so `referee check` accepts it there and refuses it elsewhere)."""
    names = load_ruleset("d20pool").features.names
    for cls in (A.DropDice, A.Boost, A.Recover, A.Push, A.Grapple, A.Ko, A.Grappled):
        assert cls.needs in names, cls


# ------------------------------------------------------------------ drops and boosts


def test_r_d20_check_3_worked_example_d20_a_a_drop_dice_attack() -> None:
    """D20-A (R-D20-CHECK-1..3, -HIT-1..2, -TURN-1, -3): "body 3 dice, drop 2
    -> 1 die, modifiers 3 + 4: 16 + 7 = 23 >= 11, hit. Guard defends with
    3d20: 5 13 2 -> 13. Margin 10 ...: Guard 12 -> 2"; Guard: 8 1 4 -> 11,
    Striker defends 10 -> margin 1, Striker 11; Guard self-recovers to 5.
    "White wins" on HP.  Draws: 10 checks."""
    setup = battle([fighter("Striker", "d4", "slash", "剣剣剣", plan=plan("drop 2 dice on attack"))],
                   [fighter("Guard", "d4", "slash", "剣剣剣")], order=["Striker", "Guard"])
    record, rng = d20(setup, checks=[16, 5, 13, 2, 8, 1, 4, 10, 2, 2])
    first = of(record, E.D20Check)[0]
    assert (first.pool, first.dropped, first.dice, first.modifiers["drop"], first.achievement) == (3, 2, (16,), 4, 23)
    assert [m.margin for m in of(record, E.Margin)] == [10, 1]
    assert hp(record, "Guard") == 5 and hp(record, "Striker") == 11
    assert record.result.winner == "white" and rng.remaining() == {}


def test_r_d20_check_3_the_first_drop_clause_whose_condition_holds() -> None:
    """R-D20-CHECK-3: "k = min(N, n - 1) from the first drop clause of the
    check's kind whose condition holds": `target hp <= 6` reads the primary
    target (Guard at 12: no), so the second clause drops 1; defence drops
    come from `on defence` clauses only."""
    setup = battle([fighter("Striker", "d4", "slash", "剣剣剣",
                            plan=plan("drop 2 dice on attack when target hp <= 6\ndrop 5 dice on attack\n"
                                      "drop 1 die on defence when hp >= 100"))],
                   [fighter("Guard", "d4", "slash", "剣剣剣", plan=plan("drop 1 die on defence when hp >= 10"))],
                   order=["Striker", "Guard"])
    record, _ = d20(setup, checks=[15, 5, 13, 8, 1, 4, 10, 2, 2])
    checks = of(record, E.D20Check)
    assert [(c.actor, c.check, c.dropped) for c in checks[:2]] == [("Striker", "attack", 2), ("Guard", "defence", 1)]
    # 15 + 3 printed + 2 x 2 = 22; Guard drops 1: 5 13 + 2 = 15; margin 7
    assert checks[0].achievement == 22 and checks[1].achievement == 15 and of(record, E.Margin)[0].margin == 7


def test_r_d20_check_4_a_boost_costs_hp_before_the_roll() -> None:
    """R-D20-CHECK-4 "lose b HP for +b, b = min(N, 表現力, HP - 1)"; "The loss
    is one damage event, cause boost"; order "skill_used, the boost's damage,
    d20_check".  `boost attack by 5` with 表現力 3: b = 3."""
    setup = battle([fighter("Striker", "d4", "slash", "剣剣剣", plan=plan("boost attack by 5 when hp >= 8"))],
                   [fighter("Guard", "d4", "slash", "剣剣剣", plan=plan("boost defence by 2 when hp >= 10"))],
                   order=["Striker", "Guard"])
    record, _ = d20(setup, checks=[16, 5, 2, 5, 13, 2, 1, 1, 1])
    boosts = [(d.target, d.amount, d.hp_after) for d in of(record, E.Damage) if d.cause == "boost"]
    assert boosts[:2] == [("Striker", 3, 9), ("Guard", 2, 10)]
    first = of(record, E.D20Check)[:2]
    assert [c.modifiers["boost"] for c in first] == [3, 2]
    assert first[0].achievement == 16 + 3 + 3 and first[1].achievement == 13 + 2
    kinds = [e.TYPE for e in record.events if e.TYPE in ("skill_used", "damage", "d20_check")][:4]
    assert kinds == ["skill_used", "damage", "d20_check", "damage"]


def test_r_d20_check_4_a_boost_never_takes_hp_to_zero() -> None:
    """R-D20-CHECK-4: "a voluntary loss never takes 耐久力 to 0": at HP 1, b =
    0, no boost and no damage event."""
    setup = battle([fighter("Striker", "d4", "slash", "剣剣剣", hp=1, plan=plan("boost attack by 3"))],
                   [fighter("Guard", "d4", "slash", "剣剣剣")], order=["Striker", "Guard"])
    record, _ = d20(setup, checks=[16, 5, 2, 5, 13, 2, 1, 1, 1])
    assert not [d for d in of(record, E.Damage) if d.cause == "boost"]
    assert of(record, E.D20Check)[0].modifiers["boost"] == 0


# ------------------------------------------------------------------ recover


def test_r_d20_turn_3_a_recover_clause_self_recovers_instead_of_shifting() -> None:
    """R-D20-TURN-3 (1): "a recover clause holds and HP < max: self-recover"
    -- even though the approach would take a step (the enemy is far)."""
    setup = battle([fighter("Medic", "a1", "slash", "剣剣剣", hp=5, plan=plan("recover when hp <= 6"))],
                   [fighter("Far", "h8", "slash", "剣剣剣", plan=plan("hold position"))], order=["Medic", "Far"])
    record, _ = d20(setup)
    supports = [(s.actor, s.kind, s.line) for s in of(record, E.Support)]
    assert supports[0] == ("Medic", "recover", 1)
    assert hp(record, "Medic") == 8 and not of(record, E.Moved)


# ------------------------------------------------------------------ push and grapple


def test_r_d20_push_1_worked_example_d20_b_a_push_changes_the_order() -> None:
    """D20-B (R-D20-ORDER-1..3, -PUSH-1): D's push on A: body 3d20, 14 >= 11:
    "A rides from d4 directly away from e5, to c3"; "Order D, A, C, B".
    Draws: 5 initiative, 3 checks.  After round 1: draw."""
    hold = plan("hold position")
    setup = battle([fighter("A", "d4", "rest", "水水水", plan=hold), fighter("B", "a1", "rest", "水水水", plan=hold)],
                   [fighter("C", "c3", "rest", "水水水", plan=hold),
                    fighter("D", "e5", "rest", "水水水", plan=plan("push\nhold position"))], order=None)
    setup = BattleSetup(setup.combatants, None)
    record, rng = d20(setup, initiative=[12, 12, 3, 17, 9], checks=[14, 2, 8])
    assert [t.actor for t in of(record, E.TurnSelected)] == ["D", "A", "C", "B"]
    ridden = of(record, E.Ridden)
    assert [(r.target, r.from_square, r.to_square, r.blocked) for r in ridden] == [("A", sq("d4"), sq("c3"), False)]
    check = of(record, E.D20Check)[0]
    assert (check.check, check.ability, check.skill, check.achievement) == ("push", "body", None, 14)
    assert record.result.winner == "draw" and rng.remaining() == {}


def test_r_d20_push_1_off_the_field_the_target_stays_without_damage() -> None:
    """R-D20-PUSH-1: "off the field or into a removed area it stays, without
    damage"."""
    setup = battle([fighter("Pusher", "b2", "", plan=plan("push\nhold position"))],
                   [fighter("Edge", "a1", "", plan=plan("hold position"))], order=["Pusher", "Edge"])
    record, _ = d20(setup, checks=[15, 2, 2])
    assert [(r.to_square, r.blocked) for r in of(record, E.Ridden)] == [(sq("a1"), True)]
    assert not of(record, E.Damage)


def test_r_d20_push_2_a_grapple_stops_the_target_shifting() -> None:
    """R-D20-PUSH-2: "status grapple on the character, duration 1 of its
    turns: it cannot shift until its next turn ends" -- Runner wants to
    approach Far and is stuck, ``grappled``; the status expires at the end
    of its turn."""
    setup = battle([fighter("Holder", "d4", "", plan=plan("grapple target Runner\nhold position")),
                    fighter("Far", "h8", "", plan=plan("hold position"))],
                   [fighter("Runner", "d4", "", plan=plan("move toward Far"))], order=["Holder", "Far", "Runner"])
    record, _ = d20(setup, checks=[15, 2, 2])
    assert [(s.target, s.status, s.duration) for s in of(record, E.StatusApplied)] == [("Runner", "grapple", 1)]
    runner = [s for s in of(record, E.Support) if s.actor == "Runner"]
    assert [(s.kind, s.stuck) for s in runner] == [("none", "grappled")]
    assert [(s.target, s.status) for s in of(record, E.StatusExpired)] == [("Runner", "grapple")]
    assert not [m for m in of(record, E.Moved) if m.actor == "Runner"]


def test_r_d20_push_1_a_push_is_no_hit_and_counts_as_the_action() -> None:
    """R-D20-TURN-2/-PUSH-1: the push is the action (no skill is used that
    turn) and "a push is neither a skill use nor a hit": no defence check."""
    setup = battle([fighter("Pusher", "d4", "slash", plan=plan("push\nhold position"))],
                   [fighter("Target", "e5", "", plan=plan("hold position"))], order=["Pusher", "Target"])
    record, _ = d20(setup, checks=[3, 2, 2])
    assert not [u for u in of(record, E.SkillUsed) if u.actor == "Pusher"]
    assert [c.check for c in of(record, E.D20Check)] == ["push"]
    assert [t.hit for t in of(record, E.HitTest)] == [False] and not of(record, E.Ridden)


def test_r_d20_turn_3_grapple_after_shift() -> None:
    """R-D20-TURN-1/-2 with -TURN-3: Grappler has no enemy in its area, so no
    action can be taken now and the support comes first: a shift of 2
    (reflex 3) from a1 by b2 into Target's c3.  "The action is exactly one
    of: the first push or grapple clause ... that holds and has a target" --
    now Target, so Grappler grapples (body 3d20: 15 >= 11), and those are
    the dice the check draws, not the next character's."""
    setup = battle([fighter("Grappler", "a1", "", plan=plan("grapple"))],
                   [fighter("Target", "c3", "", plan=plan("hold position"))], order=["Grappler", "Target"])
    record, rng = d20(setup, checks=[15, 2, 2])
    turn = [e.TYPE for e in record.events if getattr(e, "actor", getattr(e, "target", None)) in ("Grappler", "Target")
            and e.TYPE in ("support", "moved", "move_end", "d20_check", "hit_test", "status_applied")]
    assert turn == ["support", "moved", "moved", "move_end", "d20_check", "hit_test", "status_applied", "support"]
    assert [(m.actor, m.to_square) for m in of(record, E.Moved)] == [("Grappler", sq("b2")), ("Grappler", sq("c3"))]
    check = of(record, E.D20Check)[0]
    assert (check.actor, check.check, check.dice, check.achievement) == ("Grappler", "grapple", (15, 2, 2), 15)
    assert [(s.target, s.status, s.actor) for s in of(record, E.StatusApplied)] == [("Target", "grapple", "Grappler")]
    assert rng.remaining() == {}


# ------------------------------------------------------------------ KO and revival


def d20_c() -> BattleSetup:
    return battle([fighter("Fighter", "d4", "slash", "剣剣剣"),
                   fighter("Medic", "d6", "rest", "水水水", plan=plan("hold position"))],
                  [fighter("Ogre", "d4", "slash", "剣剣", body=5, reflex=2, intellect=2, hp=3)],
                  order=["Ogre", "Fighter", "Medic"])


def test_r_d20_ko_2_worked_example_d20_c_rest_revives_a_ko_ally() -> None:
    """D20-C (R-D20-KO-1..2, -END-1, -ORDER-4): Fighter is KO; "Medic: Rest
    may take Fighter, 2 away from d4 (loss 12): heal 3, revived on d4"; then
    Fighter, unacted, takes its turn and fells Ogre.  "White wins, reason
    wipeout, round 1 ... Final: Fighter 6, Medic 12, Ogre KO".  16 checks."""
    script = [19, 4, 11, 8, 2, 3, 7, 5, 2, 14, 9, 6, 1, 12, 3, 10]
    record, rng = d20(d20_c(), None, checks=script)
    assert [(r.target, r.cause, r.square, r.hp) for r in of(record, E.Revived)] == [("Fighter", "heal", sq("d4"), 3)]
    assert [t.actor for t in of(record, E.TurnSelected)] == ["Ogre", "Medic", "Fighter"]
    final = {f.name: (f.hp, f.down) for f in record.result.final}
    assert final == {"Fighter": (6, False), "Medic": (12, False), "Ogre": (0, True)}
    assert (record.result.winner, record.result.reason, record.result.turns) == ("white", "wipeout", 1)
    assert rng.remaining() == {}


def test_r_d20_ko_2_use_rest_first_when_ally_ko_sees_the_return_area() -> None:
    """R-D20-PLAN-2/KO-2: "use rest first when ally ko  # a KO ally within
    Rest's range of its return area" moves Rest to the top: the Medic heals
    the KO Fighter rather than slashing."""
    setup = battle([fighter("Fighter", "d4", "slash", "剣剣剣"),
                    fighter("Medic", "d4", "slash rest", "剣水水", plan=plan("use rest first when ally ko\nhold position"))],
                   [fighter("Ogre", "d4", "slash", "剣剣", body=5, reflex=2, intellect=2,
                            plan=plan("target Fighter\nhold position"))],
                   order=["Ogre", "Medic", "Fighter"])
    record, _ = d20(setup, 1, strict=False, checks=[19, 4, 11, 8, 2, 3, 7, 5] + [1] * 40)
    medic = [u for u in of(record, E.SkillUsed) if u.actor == "Medic"]
    assert medic and medic[0].skill == "rest" and medic[0].targets == ("Fighter",)
    assert of(record, E.Revived)[0].target == "Fighter"


def test_r_d20_ko_1_a_ko_clears_statuses_and_keeps_its_return_area() -> None:
    """R-D20-KO-1: "every status on it ... is removed"; it keeps a return
    area.  A grappled character felled loses its grapple."""
    setup = battle([fighter("Holder", "d4", "", plan=plan("grapple\nhold position")),
                    fighter("Killer", "d4", "slash", plan=plan("hold position"))],
                   [fighter("Victim", "d4", "slash", hp=1, plan=plan("hold position"))],
                   order=["Holder", "Killer", "Victim"])
    record, _ = d20(setup, 1, checks=[15, 2, 2, 20, 2, 2, 2, 2, 2])
    assert of(record, E.StatusApplied)[0].status == "grapple"
    downs = of(record, E.Down)
    assert [(d.target, d.square) for d in downs] == [("Victim", sq("d4"))]
    assert not of(record, E.StatusExpired)  # removed at the KO, not counted down


# ------------------------------------------------------------------ files


def test_r_d20_file_1_a_terrain_block_is_an_error_with_its_place(tmp_path: Path) -> None:
    """R-D20-FILE-1: "A battle file's terrain block is an error under
    d20pool": refused with a diagnostic naming the file and line."""
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    for name, square in (("Aki", "a1"), ("Ben", "h8")):
        (sheets / f"{name.lower()}.yaml").write_text(
            f"name: {name}\nabilities: {{body: 3, reflex: 3, intellect: 3}}\npatterns: [剣剣剣]\nskills: [slash]\n",
            encoding="utf-8")
    path = tmp_path / "t.battle.yaml"
    path.write_text("title: T\nruleset: d20pool\nseed: 1\nteams:\n  white: [sheets/aki.yaml]\n"
                    "  black: [sheets/ben.yaml]\nterrain:\n  walls: [c3]\n", encoding="utf-8")
    result, diags = load_battle(path)
    assert result is None
    terrain = [d for d in diags if "terrain" in d.message]
    assert terrain and terrain[0].line == 7 and str(path.name) in str(terrain[0].file)


def test_r_d20_plan_2_grappled_holds_while_the_status_lasts() -> None:
    """R-D20-PLAN-2: ``grappled`` (own): Runner, grappled by Holder, answers
    with ``push when grappled`` (a push from the same area draws its
    direction, R-KNOCK-2); Holder, not grappled, never pushes."""
    setup = battle([fighter("Holder", "d4", "", plan=plan("grapple\npush when grappled\nhold position"))],
                   [fighter("Runner", "d4", "", plan=plan("push when grappled\nhold position"))],
                   order=["Holder", "Runner"])
    record, _ = d20(setup, 1, strict=False, checks=[15, 2, 2, 15, 2, 2])
    assert [(c.actor, c.check) for c in of(record, E.D20Check)] == [("Holder", "grapple"), ("Runner", "push")]
    assert [(r.actor, r.target) for r in of(record, E.Ridden)] == [("Runner", "Holder")]


@pytest.mark.parametrize("lang, winner, draw", [
    ("en", "White wins: the other army was wiped out by the end of round 3 (R-D20-END-1).",
     "Draw: both armies were wiped out by the end of round 3 (R-D20-END-1)."),
    ("ja", "白軍の勝利：第3ラウンド終了時に相手軍が全員KO（R-D20-END-1）。",
     "引き分け：第3ラウンド終了時に両軍とも全員KO（R-D20-END-1）。"),
])
def test_r_d20_end_1_the_wipeout_result_reads_as_a_sentence(lang: str, winner: str, draw: str) -> None:
    """R-D20-END-1: "an army with no standing member loses ...; both at once:
    a draw", reported like the other rulesets' results (English and Japanese)."""
    from referee.report.written import result_sentence

    won = E.BattleResult("white", "wipeout", 3, (), "R-D20-END-1")
    level = E.BattleResult("draw", "wipeout", 3, (), "R-D20-END-1")
    assert result_sentence(lang, won) == winner and result_sentence(lang, level) == draw


def test_r_d20_ko_1_a_narrowing_clamps_the_return_area_without_damage() -> None:
    """R-D20-KO-1: the return area is "its last area; if a narrowing removes
    it, its clamped kept area, R-NARROW-2, with no damage"; R-D20-END-2 then
    stands the winner up there.  Dead is KO on a1; after round 30 b2-g7 is
    kept: Stone (standing) is pushed to b2 and takes 3, Dead moves to b2
    silently; White wins on HP and Dead gets up on b2."""
    hold = plan("hold position")
    setup = battle([fighter("Dead", "a1", "", hp=1, plan=hold), fighter("Keeper", "d4", "", plan=hold)],
                   [fighter("Stone", "a1", "slash", plan=hold)], order=["Stone", "Dead", "Keeper"])
    record, _ = d20(setup, 30, strict=False, checks=[20, 20, 20, 1, 1, 1])
    assert [d.target for d in of(record, E.Down)] == ["Dead"]
    assert [(p.target, p.to_square) for p in of(record, E.Pushed)] == [("Stone", sq("b2"))]
    assert [d.target for d in of(record, E.Damage) if d.cause == "narrowing"] == ["Stone"]
    assert [(r.target, r.square, r.cause) for r in of(record, E.Revived)] == [("Dead", sq("b2"), "victory")]
    final = {f.name: (f.square, f.down) for f in record.result.final}
    assert final["Dead"] == (sq("b2"), False) and record.result.winner == "white"


def test_r_d20_push_1_push_target_lowest_hp_when_engaged() -> None:
    """R-D20-PLAN-1 canonical "push target lowest hp when engaged  # ride an
    enemy within distance 1 one area away": engaged by Big (same area), the
    Pusher pushes Weak (4 HP, e5) rather than Big (12 HP): e5 -> f6.  Not
    engaged (Big away on h8), it does not push at all."""
    pusher = fighter("Pusher", "d4", "", plan=plan("push target lowest hp when engaged\nhold position"))
    weak = fighter("Weak", "e5", "", hp=4, plan=plan("hold position"))
    record, _ = d20(battle([pusher], [fighter("Big", "d4", "", plan=plan("hold position")), weak],
                           order=["Pusher", "Big", "Weak"]), checks=[15, 2, 2])
    assert [(r.target, r.to_square) for r in of(record, E.Ridden)] == [("Weak", sq("f6"))]
    record, _ = d20(battle([pusher], [fighter("Big", "h8", "", plan=plan("hold position")), weak],
                           order=["Pusher", "Big", "Weak"]))
    assert not of(record, E.D20Check) and not of(record, E.Ridden)
