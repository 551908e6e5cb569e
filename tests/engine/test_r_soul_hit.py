"""R-SOUL-CHECK-*, R-SOUL-HIT-*, R-SOUL-HARD-* (variant-soulwired.md): d6-pool
attack checks, evasion dice and hard mode, each as a scenario with fixed
squares and order and scripted ``checks`` dice (faces as on the table).

These run soulwired's hit and stall mechanics under tcgt's action (a house
ruleset), so every attack check is at NORMAL (no stance step); the whole
ruleset, stances included, is tested in ``test_r_soul_action.py``."""

from __future__ import annotations

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.rng import ScriptedRng
from tests.engine.helpers import battle, damage_to, fighter, hp, of
from tests.engine.soulhelpers import house


def _duel(white: list, black: list, checks: list[int], turns: int = 1, **script: list) -> tuple:
    rng = ScriptedRng({"checks": checks, **script})
    rec = resolve_battle(battle(white=white, black=black), house(turns), 1, rng=rng)
    return rec, rng


def test_r_soul_check_1_any_die_at_the_difficulty_succeeds() -> None:
    """R-SOUL-CHECK-1: "one d6 per point of the named ability; each die
    showing the difficulty or more is a success; the check succeeds with at
    least one".  Body 3 rolls 3 dice; 4 1 1 at 4: one success."""
    rec, rng = _duel([fighter("W", "d4", skills="slash", body=3)],
                     [fighter("P", "d4", skills="rest", patterns="水水水", body=1, intellect=1)],
                     checks=[4, 1, 1, 1])
    check = of(rec, E.D6Check)[0]
    assert (check.ability, check.dice, check.difficulty, check.successes, check.success) == \
        ("body", (4, 1, 1), 4, 1, True)
    assert rng.remaining() == {}


def test_r_soul_check_2_normal_is_four_and_the_ladder_is_data() -> None:
    """R-SOUL-CHECK-2: "A check is NORMAL ... KIDS 2, EASY 3, NORMAL 4, HARD
    5, ULTRA HARD 6": three 3s fail at NORMAL (no die reaches 4)."""
    rec, _ = _duel([fighter("W", "d4", skills="slash", body=3)],
                   [fighter("P", "d4", skills="rest", patterns="水水水")], checks=[3, 3, 3])
    check = of(rec, E.D6Check)[0]
    assert check.difficulty == 4 and check.successes == 0 and not check.success


def test_r_soul_check_3_the_skill_decides_the_ability() -> None:
    """R-SOUL-CHECK-3: "its attack check uses body if melee physical (Slash
    ...), reflex if ranged physical (Night Shrieker), intellect if spiritual
    (every other skill ..., Pressurize included)".  Reflex 5 rolls 5 dice for
    Night Shrieker; intellect 2 rolls 2 for Firecracker."""
    rec, _ = _duel([fighter("Archer", "c3", skills="night-shrieker", patterns="風剣風剣風剣", body=2, reflex=5,
                            intellect=2),
                    fighter("Mage", "c5", skills="firecracker", patterns="火火", body=3, reflex=2, intellect=2)],
                   [fighter("T", "d4", skills="rest", patterns="水", body=1, reflex=1, intellect=1)],
                   checks=[1, 1, 1, 1, 1, 1, 1], **{"chances": []})
    assert [(c.actor, c.ability, len(c.dice)) for c in of(rec, E.D6Check)] == \
        [("Archer", "reflex", 5), ("Mage", "intellect", 2)]


def test_r_soul_hit_1_a_failed_attack_check_reaches_no_target() -> None:
    """R-SOUL-HIT-1: "Failed: no R-TURN-3 step runs for any target (no
    obstruct, hit, effect or counter); the panels stay used"."""
    rec, _ = _duel([fighter("W", "d4", skills="slash", body=2)],
                   [fighter("P", "d4", skills="avenger rest", patterns="地水水")], checks=[1, 2])
    assert damage_to(rec, "P") == [] and of(rec, E.Reaction) == [] and of(rec, E.Evasion) == []
    assert of(rec, E.SkillUsed)[0].panels  # paid all the same


def test_r_soul_hit_2_evasion_dice_are_the_highest_ability_refilled_each_action() -> None:
    """R-SOUL-HIT-2: "the highest of body, reflex and intellect ... Full at
    battle start; set to that number at step 1 of each of the owner's
    actions".  P (2/5/1) has 5; spends 2 in turn 1, refills to 5 in its
    action."""
    rec, _ = _duel([fighter("W", "d4", skills="slash", body=1)],
                   [fighter("P", "d4", skills="rest", patterns="水水水", body=2, reflex=5, intellect=1)],
                   checks=[6, 1, 1])
    refills = [(e.actor, e.dice, e.cause) for e in of(rec, E.EvasionDice)]
    assert refills == [("W", 3, "refill"), ("P", 5, "refill")]
    ev = of(rec, E.Evasion)[0]
    assert (ev.dice_before, ev.committed, ev.dice_left) == (5, 2, 3)


def test_r_soul_hit_3_one_success_evades_and_the_dice_are_spent_anyway() -> None:
    """R-SOUL-HIT-3: "it commits k dice ..., spent whatever the roll ... One
    success: it evades, the use does nothing to it, and it is not hit"."""
    rec, _ = _duel([fighter("W", "d4", skills="slash", body=1)],
                   [fighter("P", "d4", skills="avenger rest", patterns="地水水")], checks=[5, 6, 1])
    ev = of(rec, E.Evasion)[0]
    assert (ev.dice, ev.successes, ev.evaded, ev.dice_left) == ((6, 1), 1, True, 1)
    assert damage_to(rec, "P") == [] and of(rec, E.Reaction) == []  # no counter: not hit


def test_r_soul_hit_4_commit_all_against_a_lethal_hit_else_two() -> None:
    """R-SOUL-HIT-4 default: "every die left if the use's printed damage is at
    least the target's current HP, else min(2, dice left)", and `no_dice`
    before `lethal` (clarification).  First Slash (3 < HP 6): 2 dice, hit;
    second Slash (3 >= HP 3): all 1 left, evaded; third: none left."""
    rec, _ = _duel([fighter(n, "d4", skills="slash", body=1, reflex=1, intellect=1) for n in ("A", "B", "C")],
                   [fighter("P", "d4", skills="rest", patterns="水水水", body=1, reflex=3, intellect=1, hp=6)],
                   checks=[6, 1, 1, 6, 6, 6])
    assert [(e.committed, e.reason) for e in of(rec, E.Evasion)] == [(2, "default"), (1, "lethal"), (0, "no_dice")]


def test_r_soul_hit_5_evasion_difficulty_is_normal_for_ranged_at_any_level() -> None:
    """R-SOUL-HIT-5: "NORMAL, plus the hard-mode level against a melee use,
    at most 6"; a ranged use is evaded at 4 even at level 2 (R-SOUL-HARD-3)."""
    setup = battle(white=[fighter("Archer", "b2", skills="night-shrieker", patterns="風剣風剣風剣", body=1, reflex=2, intellect=1)],
                   black=[fighter("P", "c3", skills="rest", patterns="水水水", body=1, reflex=2, intellect=1)])
    st_rec = resolve_battle(setup, house(1), 1, rng=ScriptedRng({"checks": [6, 1, 4, 1]}))
    assert of(st_rec, E.Evasion)[0].difficulty == 4
    assert of(st_rec, E.Evasion)[0].melee is False


def test_r_soul_hit_6_counters_make_no_check() -> None:
    """R-SOUL-HIT-6: "Counter hits ... make no check and cannot be evaded":
    Avenger's counter lands with no d6_check and no evasion."""
    rec, _ = _duel([fighter("W", "d4", skills="slash", body=1, reflex=1, intellect=1)],
                   [fighter("P", "d4", skills="avenger", patterns="地", body=3, reflex=1, intellect=1)],
                   checks=[6, 1, 1, 1])
    assert [c.actor for c in of(rec, E.D6Check)] == ["W"]
    assert [e.actor for e in of(rec, E.Evasion)] == ["P"]
    assert [d[1] for d in damage_to(rec, "W")] == ["counter"]


def _stall_battle(turns: int, checks: list[int]) -> tuple:
    """SW-B's shape (R-SOUL-HARD-*) without focus: Walker slashes Post every
    turn at NORMAL; Post (3/3/3) commits 2 of its 3 dice."""
    setup = battle(white=[fighter("Walker", "d4", skills="slash")],
                   black=[fighter("Post", "d4", skills="rest", patterns="水水水")])
    rng = ScriptedRng({"checks": checks})
    return resolve_battle(setup, house(turns), 1, rng=rng), rng


def test_r_soul_hard_1_a_turn_with_a_check_and_no_hp_lost_is_stalled() -> None:
    """R-SOUL-HARD-1: "stalled if at least one attack check ... was made in
    it and no character lost HP in it".  Turn 1 evaded: stalled; turn 2 hit:
    not stalled."""
    rec, rng = _stall_battle(2, [4, 1, 1, 4, 2, 5, 5, 5, 1, 1])
    assert [(e.turn, e.stalled, e.level) for e in of(rec, E.TurnStalled)] == [(1, 1, 0)]
    assert rng.remaining() == {}


def test_r_soul_hard_2_level_1_after_two_stalled_turns_then_2_after_a_run_of_two() -> None:
    """R-SOUL-HARD-2, SW-B's table (attacks at NORMAL here): stalled turns 1-2
    raise level 1 from turn 3; stalled turns 3-4 at level 1 raise level 2 from
    turn 5, where 5 5 at 6 fails and Post is hit."""
    checks = [4, 1, 1, 4, 2,   # turn 1: evaded at 4
              5, 3, 3, 1, 5,   # turn 2: evaded at 4 -> level 1 from turn 3
              6, 2, 2, 5, 1,   # turn 3: evaded at 5, run 1
              4, 3, 1, 4, 5,   # turn 4: evaded at 5 (the 4 alone would fail), run 2 -> level 2
              4, 1, 1, 5, 5]   # turn 5: 5 5 at 6: hit
    rec, rng = _stall_battle(5, checks)
    assert [(e.turn, e.stalled, e.run, e.level) for e in of(rec, E.TurnStalled)] == \
        [(1, 1, 0, 0), (2, 2, 0, 0), (3, 3, 1, 1), (4, 4, 2, 1)]
    assert [(e.turn, e.level, e.melee_evasion_difficulty) for e in of(rec, E.HardMode)] == [(3, 1, 5), (5, 2, 6)]
    assert [e.difficulty for e in of(rec, E.Evasion)] == [4, 4, 5, 5, 6]
    assert damage_to(rec, "Post") == [(3, "skill", "slash")]
    assert rng.remaining() == {}
    kinds = [e.TYPE for e in rec.events if e.turn == 3][:2]
    assert kinds == ["turn_start", "hard_mode"]


def test_r_soul_hard_2_an_hp_loss_at_level_1_resets_the_run_and_the_level_never_falls() -> None:
    """R-SOUL-HARD-2: "a turn with an HP loss resets it to 0 ... The level
    starts at 0 and never falls"."""
    checks = [4, 1, 1, 4, 2,  4, 1, 1, 4, 2,  # stalled, stalled -> level 1
              4, 1, 1, 5, 1,                  # turn 3 stalled, run 1
              4, 1, 1, 1, 1,                  # turn 4 hit: run 0
              4, 1, 1, 5, 1]                  # turn 5 stalled, run 1
    rec, _ = _stall_battle(5, checks)
    assert [(e.turn, e.run, e.level) for e in of(rec, E.TurnStalled)] == \
        [(1, 0, 0), (2, 0, 0), (3, 1, 1), (5, 1, 1)]
    assert [e.level for e in of(rec, E.HardMode)] == [1]
    assert hp(rec, "Post") == 12  # Rest healed the loss: it still counted


def test_r_soul_hard_3_melee_evasion_only_and_attack_checks_untouched() -> None:
    """R-SOUL-HARD-3: "The level raises the evasion difficulty of melee uses
    only ... Attack checks ... are untouched": at level 1 the attack check is
    still at 4."""
    checks = [4, 1, 1, 4, 2,  4, 1, 1, 4, 2,  4, 1, 1, 5, 1]
    rec, _ = _stall_battle(3, checks)
    assert [c.difficulty for c in of(rec, E.D6Check)] == [4, 4, 4]
    assert [e.difficulty for e in of(rec, E.Evasion)] == [4, 4, 5]


def test_head_count_end_is_r_goal_1_and_2_unchanged() -> None:
    """variant-soulwired.md: `end: {kind: head_count}  # R-GOAL-1/2
    unchanged`; SW-A's end: 3 against 1 standing after the last turn, White
    wins on the head count (a lone character is beaten only at 0)."""
    setup = battle(white=[fighter(n, "a1", skills="slash") for n in ("A1", "A2", "A3")],
                   black=[fighter("T", "h8", skills="rest", patterns="水水水")])
    from tests.engine.soulhelpers import SOUL_MECHANICS
    rs = house(1, **SOUL_MECHANICS, end="{kind: head_count}")
    rec = resolve_battle(setup, rs, 1, rng=ScriptedRng({}))
    assert (rec.result.winner, rec.result.reason) == ("white", "turn_limit")
