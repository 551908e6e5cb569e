"""Scenario tests for the built-in ``wiz`` ruleset (variant-wiz.md): the
seed's worked examples W1 (Katino 1x3), W2 (the troll Tiltwait) and W3
(front, side and back), and one test per rule of the action, the casting
delay and area uses, each on the smallest position that shows it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.rng import ScriptedRng
from tests.engine.helpers import battle, hp, of
from tests.engine.wizhelpers import HOLD, seed_ruleset, wiz_ruleset, wizard


def _run(setup: Any, script: dict[str, list[int]], rs: Any = None) -> Any:
    return resolve_battle(setup, rs if rs is not None else seed_ruleset(), 1, rng=ScriptedRng(script))


def _types(rec: Any, since: type[E.Event] | None = None) -> list[str]:
    return [e.TYPE for e in rec.events if e.turn >= 1]


# ------------------------------------------------------------------ W1: Katino


def _katino(levels: dict[str, int]) -> Any:
    mage = wizard("Mage", "c1", "katino", "風風風", body=2, intellect=4, levels=levels)
    sleepers = [wizard(f"G{i}", "c3", "rest", "水水水", plan_text=HOLD) for i in range(1, 7)]
    setup = battle([mage], sleepers)
    return _run(setup, {"area": [2]})


def test_r_wiz_cast_1_katino_is_cast_at_7_and_resolves_at_6() -> None:
    """R-WIZ-CAST-1: "A spell used actively … is cast when its delay d =
    max(0, level − chant) is at least 1 … its cost is paid … It resolves at
    value v − d." W1: the Mage casts Katino at 7, paying 風, resolving at 6."""
    rec = _katino({"magic_change": 2})
    cast = of(rec, E.Cast)[0]
    assert (cast.actor, cast.skill, cast.value, cast.resolves_at, cast.panels, cast.extend) == (
        "Mage", "katino", 7, 6, (0,), 0)
    assert not [e for e in of(rec, E.SkillUsed) if e.actor == "Mage" and e.turn == 1
                and rec.events.index(e) < rec.events.index(cast)]


def test_r_wiz_cast_2_at_one_value_actions_come_before_resolutions() -> None:
    """R-WIZ-CAST-2: "At one value, actions (in R-WIZ-IN-2 order) come before
    resolutions." W1: G1 acts at 6, then Katino goes off at 6, then G2 (5)."""
    rec = _katino({"magic_change": 2})
    seq = [(e.TYPE, getattr(e, "actor", None)) for e in rec.events
           if isinstance(e, (E.ActionStart, E.CastResolves))]
    assert seq[:4] == [("action_start", "Mage"), ("action_start", "G1"), ("cast_resolves", "Mage"),
                       ("action_start", "G2")]


def test_r_wiz_area_5_w1a_katino_change_two_freezes_g1_to_g3() -> None:
    """W1a, 「選択対象の数は、0〜3体になる」: 1d3 = 2 with <魔法変化>2: A 1-3, c = +1."""
    rec = _katino({"magic_change": 2})
    roll = of(rec, E.AreaRoll)[0]
    assert (roll.area, roll.dice, roll.total, roll.cap) == ("1x3", (2,), 2, 3)
    groups = of(rec, E.AreaGroups)[0].groups
    assert [g["label"] for g in groups] == ["A"]
    assert [m["name"] for m in groups[0]["members"]] == ["G1", "G2", "G3", "G4", "G5", "G6"]
    sel = of(rec, E.AreaSelection)[0]
    assert sel.partial == {"label": "A", "from": 1, "to": 3} and (sel.change, sel.levels) == (1, 1)
    frozen = [e.target for e in of(rec, E.StatusApplied)]
    assert frozen == ["G1", "G2", "G3"]


def test_r_wiz_area_5_w1b_katino_amplify_two_freezes_four() -> None:
    """W1b: <魔法増幅>2: R 2 + a 2 = 4 (「4体」): G1..G4 are Frozen."""
    rec = _katino({"magic_amplify": 2})
    assert [e.target for e in of(rec, E.StatusApplied)] == ["G1", "G2", "G3", "G4"]


def test_r_wiz_area_5_w1c_katino_both_freeze_five() -> None:
    """W1c: both: c = +1 (capped at 3) and a = 2 make 5 (「5体」)."""
    rec = _katino({"magic_change": 2, "magic_amplify": 2})
    sel = of(rec, E.AreaSelection)[0]
    assert (sel.change, sel.amplify, sel.count) == (1, 2, 5)
    assert [e.target for e in of(rec, E.StatusApplied)] == ["G1", "G2", "G3", "G4", "G5"]


# ------------------------------------------------------------------ W2: the troll Tiltwait


def _trolls(mage_plan: str = "") -> Any:
    mage = wizard("Mage", "a1", "tiltwait", "火火火", body=2, intellect=4, levels={"magic_change": 4},
                  plan_text=mage_plan)
    berserker = wizard("Berserker", "e5", "rest", "水水水", plan_text=HOLD)
    squares = [("A1", "a4"), ("A2", "a4"), ("A3", "a4"), ("A4", "a4"), ("A5", "a4"), ("A6", "a4"),
               ("B1", "d4"), ("B2", "d4"), ("B3", "d4"), ("B5", "e5"), ("B6", "e5"),
               ("C1", "h1"), ("C2", "h1"), ("C3", "h1")]
    trolls = [wizard(n, sq, "rest", "水水水", plan_text=HOLD) for n, sq in squares]
    return _run(battle([mage, berserker], trolls), {"area": [3, 3, 3, 3, 3]})


def test_r_wiz_area_7_w2_the_troll_tiltwait_exactly_as_the_seed() -> None:
    """W2, the seed's 「トロールの集団に対して、ティルトウェイト」: cast at 16 (delay 2),
    the Berserker (15) and A1 (14) act, Tiltwait resolves at 14; 5d5 = 15;
    A and B whole, C 1-2, the Berserker left out at one level, c = +3; the
    tally is the seed's own; 6 fire damage to 13 trolls."""
    rec = _trolls()
    cast = of(rec, E.Cast)[0]
    assert (cast.value, cast.resolves_at) == (16, 14)
    before = [e.actor for e in rec.events if isinstance(e, E.ActionStart)
              and rec.events.index(e) < rec.events.index(of(rec, E.CastResolves)[0])]
    assert before == ["Mage", "Berserker", "A1"]
    roll = of(rec, E.AreaRoll)[0]
    assert (roll.dice, roll.total, roll.cap) == ((3, 3, 3, 3, 3), 15, 25)
    groups = of(rec, E.AreaGroups)[0].groups
    assert [(m["number"], m["name"], m["role"]) for m in groups[1]["members"]] == [
        (1, "B1", "wanted"), (2, "B2", "wanted"), (3, "B3", "wanted"), (4, "Berserker", "spared"),
        (5, "B5", "wanted"), (6, "B6", "wanted")]
    sel = of(rec, E.AreaSelection)[0]
    assert sel.whole == ("A", "B") and sel.partial == {"label": "C", "from": 1, "to": 2}
    assert sel.excluded == ("Berserker",)
    assert (sel.change, sel.amplify, sel.penalty, sel.count, sel.slots, sel.levels) == (3, 0, 4, 14, 14, 4)
    assert [(s["kind"], s["group"], s["amount"], s["max"], s["total"]) for s in sel.tally] == [
        ("roll", None, 15, 15, 0), ("take", "A", 6, 15, 6), ("enter", "B", -2, 13, 6), ("take", "B", 6, 13, 12),
        ("change", None, 3, 16, 12), ("enter", "C", -2, 14, 12), ("take", "C", 2, 14, 14)]
    assert sel.tally[3]["excluded"] == [4]
    hit = [e.target for e in of(rec, E.Damage) if e.skill == "tiltwait"]
    assert hit == ["A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "B3", "B5", "B6", "C1", "C2"]
    assert all(e.amount == 6 and e.hp_after == 6 for e in of(rec, E.Damage) if e.skill == "tiltwait")
    assert hp(rec, "Berserker") == 12 and hp(rec, "C3") == 12


def test_r_wiz_area_7_test_5_ranks_the_wanted_members_of_all_groups() -> None:
    """R-WIZ-AREA-7 test 5: "Ranks follow the user's target preference
    (R-PLAN-4), then distance, square and roster ... [clarified: the ranking
    is over the wanted members of all groups only]".  Katino rolls 1: one
    slot.  Near (c2, group A, number 1) and Hurt (a3, group B, number 1) are
    the two legal selections, tied on tests 1-4; the Mage's ``target lowest
    hp`` ranks Hurt (5 HP) first over both groups, so group B is taken --
    not A, which numbers within each group (both 1) and then labels (test 6)
    would pick."""
    mage = wizard("Mage", "c1", "katino", "風風風", body=2, intellect=4, plan_text="target lowest hp\n")
    near = wizard("Near", "c2", "rest", "水水水", plan_text=HOLD)
    hurt = replace(wizard("Hurt", "a3", "rest", "水水水", plan_text=HOLD), hp=5)
    rng = ScriptedRng({"area": [1]}, strict=True)
    rec = resolve_battle(battle([mage], [near, hurt]), seed_ruleset(), 1, rng=rng)
    groups = of(rec, E.AreaGroups)[0].groups
    assert [(g["label"], [(m["name"], m["number"], m["role"]) for m in g["members"]]) for g in groups] == [
        ("A", [("Near", 1, "wanted")]), ("B", [("Hurt", 1, "wanted")])]
    sel = of(rec, E.AreaSelection)[0]
    assert (sel.whole, sel.partial, sel.targets) == (("B",), None, ("Hurt",))
    assert [(e.target, e.status) for e in of(rec, E.StatusApplied)] == [("Hurt", "freeze")]
    assert rng.remaining() == {}


def test_r_wiz_area_4_w2b_friendly_fire_risks_the_berserker() -> None:
    """W2b, 「味方を巻き添えにすれば…全てのトロールを対象とすることもできる」: with
    ``friendly fire`` the Berserker is risked: A, B, C whole, c = +4, E = ∅."""
    rec = _trolls("friendly fire\n")
    sel = of(rec, E.AreaSelection)[0]
    assert sel.whole == ("A", "B", "C") and sel.partial is None and sel.excluded == ()
    assert (sel.change, sel.count, sel.slots) == (4, 15, 15)
    assert hp(rec, "Berserker") == 6 and hp(rec, "C3") == 6


def test_r_wiz_area_8_excluded_and_untaken_take_no_hit() -> None:
    """R-WIZ-AREA-8: "Excluded and untaken members are untouched: they take no
    hit." W2: the Berserker (excluded) and C3 (untaken) take nothing."""
    rec = _trolls()
    touched = {e.target for e in rec.events if isinstance(e, (E.Damage, E.StatusApplied, E.Knockback))}
    assert "Berserker" not in touched and "C3" not in touched
    used = [e for e in of(rec, E.SkillUsed) if e.skill == "tiltwait"][0]
    assert used.targets == of(rec, E.AreaSelection)[0].targets


def test_r_wiz_ev_1_the_area_events_replace_targets_chosen_in_order() -> None:
    """R-WIZ-EV-1: "cast_resolves opens the resolution … The three area
    events take the place of targets_chosen: … after cast_resolves", then
    skill_used."""
    rec = _trolls()
    i = rec.events.index(of(rec, E.CastResolves)[0])
    assert [e.TYPE for e in rec.events[i:i + 5]] == [
        "cast_resolves", "area_roll", "area_groups", "area_selection", "skill_used"]
    assert not [e for e in of(rec, E.TargetsChosen) if e.actor == "Mage"]
    assert all(E.event_from_json(e.to_json()) == e for e in rec.events)


# ------------------------------------------------------------------ W3: front, side and back


def _melee(knight_levels: dict[str, int] | None = None) -> Any:
    knight = wizard("Knight", "d4", "slash", "剣剣剣", plan_text="target E3\n", levels=knight_levels)
    foes = [wizard(n, "d4", "slash", "剣剣剣") for n in ("E1", "E2", "E3")]
    return _run(battle([knight], foes), {"checks": [10, 75, 85, 72]}, wiz_ruleset())


def test_r_wiz_melee_2_w3_front_side_back() -> None:
    """W3: Knight → E3 front 70 (10 hits); E1 side 80 (75 hits); E2 back 90
    (85 hits); E3 front 70 (72 misses): Knight 6, E3 9, E1 12, E2 12."""
    rec = _melee()
    checks = of(rec, E.D100Check)
    assert [(c.actor, c.facing, c.chance, c.hit) for c in checks] == [
        ("Knight", "front", 70, True), ("E1", "side", 80, True), ("E2", "back", 90, True), ("E3", "front", 70, False)]
    assert (hp(rec, "Knight"), hp(rec, "E3"), hp(rec, "E1"), hp(rec, "E2")) == (6, 9, 12, 12)


def test_r_wiz_melee_2_w3b_wide_view_makes_all_three_front() -> None:
    """W3b: the Knight has wide_view 1, so f = 3: 75, 85 and 72 all miss at 70."""
    rec = _melee({"wide_view": 1})
    assert [c.facing for c in of(rec, E.D100Check)][1:] == ["front", "front", "front"]
    assert hp(rec, "Knight") == 12


# ------------------------------------------------------------------ the rules one by one


def test_r_wiz_kind_1_sword_cost_is_a_weapon_anything_else_a_spell() -> None:
    """R-WIZ-KIND-1: "A skill with 剣 in its cost is a weapon skill, and any
    other skill is a spell": Slash rolls a d100 and is never cast; Katino
    (風) is cast and rolls none."""
    rec = _katino({})
    assert of(rec, E.Cast) and not of(rec, E.D100Check)
    rec = _melee()
    assert of(rec, E.D100Check) and not of(rec, E.Cast)


def test_r_wiz_in_3_a_fixed_order_gives_values_n_down_to_1() -> None:
    """R-WIZ-IN-3: "the i-th … has value n − i + 1, and no dice are rolled."
    W1's order Mage, G1..G6 gives the Mage 7 (its cast's value)."""
    rec = _katino({})
    assert of(rec, E.Cast)[0].value == 7 and not of(rec, E.InitiativeRoll)


def test_r_wiz_act_1_one_main_use_then_main_used() -> None:
    """R-WIZ-ACT-1: "After it, each later entry that is not a maintain entry is
    passed … (skill_passed, reason main_used)." A Knight with two Slashes
    uses the first and passes the second."""
    knight = wizard("Knight", "d4", "slash slash", "剣剣剣")
    foe = wizard("Foe", "d4", "rest", "水水水", plan_text=HOLD)
    rec = _run(battle([knight], [foe]), {"checks": [1]}, wiz_ruleset())
    used = [e for e in of(rec, E.SkillUsed) if e.actor == "Knight"]
    passed = [e for e in of(rec, E.SkillPassed) if e.actor == "Knight"]
    assert len(used) == 1 and [(p.entry, p.reason) for p in passed] == [(1, "main_used")]


def _with_hp(setup: Any, **hps: int) -> Any:
    return replace(setup, combatants=tuple(replace(c, hp=hps[c.sheet.name]) if c.sheet.name in hps else c
                                           for c in setup.combatants))


def test_r_wiz_cast_3_a_downed_caster_loses_its_cast() -> None:
    """R-WIZ-CAST-3: "It is also lost if its caster is down"; R-WIZ-EV-1: "A
    caster down at its cast's value gets only cast_lost." The Mage (HP 1)
    casts Tiltwait at 4 (delay 2, resolving at 2); Brute fells it at 3."""
    setup = battle([wizard("Mage", "c1", "tiltwait", "火火火", body=2, intellect=4),
                    wizard("Friend", "a8", "rest", "水水水", plan_text=HOLD)],
                   [wizard("Brute", "c1", "slash", "剣剣剣"), wizard("Far", "h8", "rest", "水水水", plan_text=HOLD)],
                   order=["Mage", "Brute", "Friend", "Far"])
    rec = _run(_with_hp(setup, Mage=1), {"checks": [1]})
    assert (of(rec, E.Cast)[0].value, of(rec, E.Cast)[0].resolves_at) == (4, 2)
    assert [(e.actor, e.reason) for e in of(rec, E.CastLost)] == [("Mage", "caster_down")]
    assert not of(rec, E.CastResolves) and not of(rec, E.AreaRoll)


def test_r_wiz_cast_3_no_candidate_left_loses_the_cast() -> None:
    """R-WIZ-CAST-3: "A resolving cast takes its targets afresh … Without a
    candidate the cast is lost, and its cost stays paid." The Mage casts
    Katino at 4 on Foe (c2); Ally fells Foe at 3, before the resolution at 3."""
    setup = battle([wizard("Mage", "c1", "katino", "風風風", body=2, intellect=4),
                    wizard("Ally", "c2", "slash", "剣剣剣")],
                   [wizard("Foe", "c2", "rest", "水水水", plan_text=HOLD),
                    wizard("Far", "h8", "rest", "水水水", plan_text=HOLD)],
                   order=["Mage", "Ally", "Foe", "Far"])
    rec = _run(_with_hp(setup, Foe=1), {"checks": [1]})
    assert of(rec, E.Cast)[0].resolves_at == 3
    i = rec.events.index(of(rec, E.CastResolves)[0])
    assert isinstance(rec.events[i + 1], E.CastLost) and rec.events[i + 1].reason == "no_candidate"
    assert not of(rec, E.AreaRoll) and not of(rec, E.StatusApplied)


def test_r_wiz_area_1_an_extended_extend_skill_is_an_area_of_1_plus_n_by_range_plus_1() -> None:
    """R-WIZ-AREA-1: "a 拡大 skill … extended by N ≥ 1 payments: A = 1 + N,
    B = range + 1." ``extend firecracker by 2`` (range 2): a 3x3 use, 3d3."""
    mage = wizard("Mage", "c1", "firecracker", "火火火", plan_text="extend firecracker by 2\n")
    foes = [wizard(f"G{i}", "c3", "rest", "水水水", plan_text=HOLD) for i in range(1, 5)]
    rec = _run(battle([mage], foes), {"area": [2, 2, 2]}, wiz_ruleset())
    cast = of(rec, E.Cast)[0]
    assert cast.extend == 2 and len(cast.panels) == 3
    roll = of(rec, E.AreaRoll)[0]
    assert (roll.area, roll.total, roll.cap) == ("3x3", 6, 9)


def test_r_wiz_area_2_a_d_b_dice_on_the_area_stream() -> None:
    """R-WIZ-AREA-2: "An area use rolls A dice of B faces on area …; R is their
    sum." Tiltwait 5d5 draws five faces from ``area`` and none elsewhere."""
    rec = _trolls()
    roll = of(rec, E.AreaRoll)[0]
    assert len(roll.dice) == 5 and roll.total == sum(roll.dice)


def test_r_wiz_rng_1_no_area_selection_draws() -> None:
    """R-WIZ-RNG-1: "No area selection draws": W2's script holds exactly the
    five ``area`` faces and nothing on ``ties``; the scripted RNG would fail
    on any other draw it was not given (a choice among several falls back
    to the first only when unscripted): every scripted face is used, no other
    stream is asked (an unscripted draw would take the first outcome)."""
    rng = ScriptedRng({"area": [3, 3, 3, 3, 3]})
    mage = wizard("Mage", "a1", "tiltwait", "火火火", body=2, intellect=4, levels={"magic_change": 4})
    trolls = [wizard(f"T{i}", sq, "slash", "剣剣剣", plan_text=HOLD) for i, sq in enumerate(["a4", "a4", "d4", "h1"])]
    rec = resolve_battle(battle([mage], trolls), seed_ruleset(), 1, rng=rng)
    assert of(rec, E.AreaSelection)
    assert rng.remaining() == {}
    assert [stream for stream, _, _ in rng.log] == ["area"] * 5


def test_r_wiz_kind_1_the_catalogues_kind_overrides_the_cost(tmp_path: Any) -> None:
    """R-WIZ-KIND-1: "The catalogue's kind: weapon|spell overrides this": a
    剣 skill catalogued ``kind: spell`` is cast (delay 1) and rolls no d100."""
    from referee.catalog import builtin_catalog_path
    from referee.ruleset import load_ruleset
    extra = ("\n  - {id: spirit-blade, name_ja: 霊剣, reading: レイケン, name_en: Spirit Blade, cost: [sword], "
             "level: 1, classes: [attack], range: 0, targets: enemies, damage: 1, kind: spell}\n")
    (tmp_path / "skills.yaml").write_text(builtin_catalog_path().read_text(encoding="utf-8").rstrip("\n") + extra,
                                          encoding="utf-8")
    (tmp_path / "r.yaml").write_text("name: r\nextends: wiz\nskills: skills.yaml\n", encoding="utf-8")
    rs = replace(load_ruleset(tmp_path / "r.yaml"), turn_limit=1)
    knight = wizard("Knight", "d4", "spirit-blade", "剣剣剣")
    rec = _run(battle([knight], [wizard("Foe", "d4", "rest", "水水水", plan_text=HOLD)]), {}, rs)
    assert [c.skill for c in of(rec, E.Cast)] == ["spirit-blade"] and not of(rec, E.D100Check)
    assert [e.target for e in of(rec, E.Damage)] == ["Foe"]
