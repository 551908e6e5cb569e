"""Plans written in the plan language, parsed and run by the engine.

Each test parses real plan text with :func:`referee.plan.parser.parse_plan`
(the canonical clauses of interfaces.md), hands the AST to the engine
(``referee.engine.astcompile``) and checks what the battle did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine import events as E
from referee.engine import clauses as R
from referee.engine.astcompile import compile_ast_plan, compile_condition_text
from referee.engine.battle import resolve_battle
from referee.engine.conditions import CondContext
from referee.engine.mechanics.metric import Chebyshev
from referee.engine.rng import ScriptedRng
from referee.engine.state import BattleState
from referee.plan import ast as A
from referee.plan.parser import parse_plan

from .helpers import TestPattern as Pat
from .helpers import battle, damage_to, fighter, of, ruleset, run
from specfiles import spec_file

SPEC = spec_file("interfaces.md")


def plan(text: str) -> A.Plan:
    parsed, diags = parse_plan(text, "test.plan")
    assert [d for d in diags if d.severity == "error"] == []
    return parsed


def used(rec: object, actor: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(u.skill, u.targets) for u in of(rec, E.SkillUsed) if u.actor == actor]  # type: ignore[arg-type]


HOLD = "hold position\n"


# ------------------------------------------------------- every canonical clause


def _canonical_lines() -> list[str]:
    block = SPEC.read_text(encoding="utf-8").split("Canonical clauses", 1)[1].split("```")[1]
    return [ln for ln in block.splitlines() if ln.strip()]


EXPECTED_KINDS = [
    R.UseFirst, R.UseOnly, R.NeverUse, R.UseFirst, R.UseFirst, R.TargetPref, R.TargetPref,
    R.TargetRestrict, R.Extend, R.Extend, R.Flag, R.Flag, R.Flag, R.Stack, R.Maintain, R.Release,
    R.MoveToward, R.MoveToward, R.MoveToward, R.MoveTo, R.Hold, R.KeepAway,
]


def test_every_canonical_clause_compiles_to_its_engine_clause() -> None:
    """interfaces.md: each canonical clause "must parse and mean what its comment says"."""
    lines = _canonical_lines()
    rules = compile_ast_plan(plan("\n".join(lines)), ruleset(), allies=("Kagura",))
    assert [type(c) for c in rules.clauses] == EXPECTED_KINDS
    assert [c.line for c in rules.clauses] == list(range(1, len(lines) + 1))
    ext = [c for c in rules.clauses if isinstance(c, R.Extend)]
    assert [(e.skill, e.count) for e in ext] == [("eruption", None), ("firecracker", 1)]
    flags = [c.flag.value for c in rules.clauses if isinstance(c, R.Flag)]
    assert flags == ["friendly fire", "counter allies", "heal even when unhurt"]
    first = rules.use_first
    assert [u.skill for u in first] == ["rest", "pressurize", "night-shrieker"]
    assert [u.targets_condition for u in first] == [False, True, False]
    moves = rules.moves
    assert [getattr(getattr(m, "who", None), "value", None) for m in moves[:3]] == ["ally_matching", "nearest_enemy", "named"]
    assert moves[0].then_use == "rest"  # type: ignore[attr-defined]


def test_skill_names_are_resolved_in_any_spelling() -> None:
    """interfaces.md: skill names "may be written as id, English name, Japanese name or reading"."""
    rules = compile_ast_plan(plan("use 爆撃 first\nuse レスト first\nuse Night Shrieker first\n"), ruleset())
    assert [c.skill for c in rules.use_first] == ["eruption", "rest", "night-shrieker"]


# ------------------------------------------------------------- skill priority


def test_r_plan_5_use_rest_first_when_ally_hp_lost_ge_5() -> None:
    """``use rest first when ally hp lost >= 5``: Rest to the top while an ally
    in range has lost 5+ HP (R-PLAN-5)."""
    text = "use rest first when ally hp lost >= 5\n" + HOLD
    hurt = run(battle([fighter("H", "c3", "firecracker rest", "火水", plan=plan(text)),
                       fighter("W", "c4", "", body=3, hp=7, plan=plan(HOLD))],
                      [fighter("B", "d4", "", plan=plan(HOLD))]))
    order = [o for o in of(hurt, E.SkillOrder) if o.actor == "H"][0]
    assert order.skills == ("rest", "firecracker") and order.moved_by == (1,)
    assert used(hurt, "H") == [("rest", ("W",)), ("firecracker", ("B",))]
    barely = run(battle([fighter("H", "c3", "firecracker rest", "火水", plan=plan(text)),
                         fighter("W", "c4", "", body=3, hp=8, plan=plan(HOLD))],
                        [fighter("B", "d4", "", plan=plan(HOLD))]))
    assert [o for o in of(barely, E.SkillOrder) if o.actor == "H"][0].skills == ("firecracker", "rest")


def test_r_plan_5_use_eruption_only_when_enemies_in_range_ge_2() -> None:
    """``use eruption only when enemies in range >= 2`` (range 1 for Eruption)."""
    text = "use eruption only when enemies in range >= 2\n" + HOLD
    one = run(battle([fighter("A", "c3", "eruption", "火火", plan=plan(text))],
                     [fighter("B", "d4", "", plan=plan(HOLD)), fighter("C", "f6", "", plan=plan(HOLD))]))
    passed = [(p.skill, p.reason, p.line) for p in of(one, E.SkillPassed) if p.actor == "A"]
    assert passed == [("eruption", "condition_false", 1)]
    two = run(battle([fighter("A", "c3", "eruption", "火火", plan=plan(text))],
                     [fighter("B", "d4", "", plan=plan(HOLD)), fighter("C", "b2", "", plan=plan(HOLD))]))
    assert [s for s, _ in used(two, "A")] == ["eruption"]


def test_r_plan_5_never_use_slash_when_hp_le_4() -> None:
    """``never use slash when hp <= 4``: hp is the character's own current HP."""
    text = "never use slash when hp <= 4\n" + HOLD
    low = run(battle([fighter("A", "c3", "slash", "剣", hp=4, plan=plan(text))],
                     [fighter("B", "c3", "", plan=plan(HOLD))]))
    assert used(low, "A") == []
    ok = run(battle([fighter("A", "c3", "slash", "剣", hp=5, plan=plan(text))],
                    [fighter("B", "c3", "", plan=plan(HOLD))]))
    assert used(ok, "A") == [("slash", ("B",))]


def test_r_plan_5_use_pressurize_first_when_target_readies_avenger() -> None:
    """``use pressurize first when target readies avenger``: holds if some
    candidate holds Avenger readied (R-PAN-4), and then filters the candidates."""
    text = "use pressurize first when target readies avenger\n" + HOLD
    rec = run(battle([fighter("A", "c3", "firecracker pressurize", "火風", plan=plan(text))],
                     [fighter("N", "c4", "", plan=plan(HOLD)),
                      fighter("V", "d4", "avenger", "地", plan=plan(HOLD))]))
    assert used(rec, "A")[0] == ("pressurize", ("V",))


def test_acting_first_means_no_living_enemy_has_acted() -> None:
    """``use night-shrieker first when acting first``."""
    text = "use night-shrieker first when acting first\n" + HOLD
    first = run(battle([fighter("A", "c3", "slash night-shrieker", "剣風剣", plan=plan(text))],
                       [fighter("B", "c3", "", body=5, plan=plan(HOLD))], order=["A", "B"]))
    assert [o for o in of(first, E.SkillOrder) if o.actor == "A"][0].skills[0] == "night-shrieker"
    second = run(battle([fighter("A", "c3", "slash night-shrieker", "剣風剣", plan=plan(text))],
                        [fighter("B", "c3", "", body=5, plan=plan(HOLD))], order=["B", "A"]))
    assert [o for o in of(second, E.SkillOrder) if o.actor == "A"][0].skills[0] == "slash"


# ------------------------------------------------------------------ targeting


def test_r_plan_4_with_firecracker_target_lowest_hp() -> None:
    """``with firecracker target lowest hp`` beats the default nearest."""
    text = "with firecracker target lowest hp\n" + HOLD
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=plan(text))],
                     [fighter("N", "c4", "", plan=plan(HOLD)), fighter("L", "e5", "", hp=3, plan=plan(HOLD))]))
    assert used(rec, "A") == [("firecracker", ("L",))]


def test_r_plan_4_target_most_hp_lost_and_never_target() -> None:
    """``target most hp lost`` for every skill; ``never target Kagura`` removes her."""
    text = "target most hp lost\nnever target Kagura\n" + HOLD
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=plan(text))],
                     [fighter("Kagura", "c4", "", hp=2, plan=plan(HOLD)),
                      fighter("M", "d4", "", hp=10, plan=plan(HOLD)),
                      fighter("L", "e5", "", hp=5, plan=plan(HOLD))]))
    assert used(rec, "A") == [("firecracker", ("L",))]


def test_r_plan_4_target_ally_with_prefers_matching_allies() -> None:
    """``with rest target ally with hp lost >= 5``: matching allies first."""
    text = "with rest target ally with hp lost >= 5\n" + HOLD
    rec = run(battle([fighter("H", "c3", "rest", "水", plan=plan(text)),
                      fighter("N", "c4", "", hp=11, plan=plan(HOLD)),
                      fighter("F", "e5", "", hp=6, plan=plan(HOLD))],
                     [fighter("B", "h8", "", plan=plan(HOLD))]))
    chosen = [t for t in of(rec, E.TargetsChosen) if t.actor == "H"][0]
    assert chosen.targets == ("F",) and chosen.preference == "ally_with"


def test_r_ext_9_only_target_allies_names_allies() -> None:
    """R-EXT-9: "an unextended use never targets an ally unless a clause names
    allies" -- ``only target allies`` is such a clause."""
    text = "with firecracker only target allies\n" + HOLD
    rec = run(battle([fighter("A", "c3", "firecracker", "火", plan=plan(text)),
                      fighter("W", "c4", "", plan=plan(HOLD))],
                     [fighter("B", "d4", "", plan=plan(HOLD))]))
    assert used(rec, "A") == [("firecracker", ("W",))]  # never the user itself (docs/decisions.md)
    assert damage_to(rec, "B") == []


# ------------------------------------------------------------------ extension


def test_r_ext_7_extend_eruption_max() -> None:
    """``extend eruption max``: as many extras as the group and panels allow."""
    text = "extend eruption max\n" + HOLD
    rec = run(battle([fighter("A", "c3", "eruption", "火火火火", plan=plan(text))],
                     [fighter("B", "d4", "", body=5, plan=plan(HOLD)),
                      fighter("C", "d4", "", body=5, plan=plan(HOLD)),
                      fighter("D", "c4", "", body=5, plan=plan(HOLD))]))
    (u,) = of(rec, E.SkillUsed)
    assert len(u.targets) == 3 and len(u.panels) == 4  # 2 base + 1 per extra (ceil(2/2))


def test_r_ext_7_extend_by_1_only_when_condition_holds() -> None:
    """``extend firecracker by 1 when enemies in range >= 3``."""
    text = "extend firecracker by 1 when enemies in range >= 3\n" + HOLD
    two = run(battle([fighter("A", "c3", "firecracker", "火火", plan=plan(text))],
                     [fighter("B", "d4", "", plan=plan(HOLD)), fighter("C", "d4", "", plan=plan(HOLD))]))
    assert [len(t) for _, t in used(two, "A")] == [1]
    three = run(battle([fighter("A", "c3", "firecracker", "火火", plan=plan(text))],
                       [fighter("B", "d4", "", plan=plan(HOLD)), fighter("C", "d4", "", plan=plan(HOLD)),
                        fighter("D", "d5", "", plan=plan(HOLD))]))
    assert [len(t) for _, t in used(three, "A")] == [2]


def test_r_ext_7_the_first_applying_extend_decides_so_by_0_switches_a_later_max_off() -> None:
    """R-EXT-7 with the plan's top-down reading: ``extend eruption by 0 when
    hp <= 5`` above ``extend eruption max`` keeps the panels while hurt."""
    text = "extend eruption by 0 when hp <= 5\nextend eruption max\n" + HOLD
    foes = [fighter("B", "d4", "", body=5, plan=plan(HOLD)), fighter("C", "d4", "", body=5, plan=plan(HOLD))]
    fresh = run(battle([fighter("A", "c3", "eruption", "火火火", plan=plan(text))], foes))
    assert [len(t) for _, t in used(fresh, "A")] == [2]
    hurt = run(battle([fighter("A", "c3", "eruption", "火火火", hp=5, plan=plan(text))], foes))
    (u,) = of(hurt, E.SkillUsed)
    assert len(u.targets) == 1 and len(u.panels) == 2


def test_r_ext_9_hits_count_only_the_extras_the_plan_asks_for() -> None:
    """R-EXT-9 [clarified]: ""Hits the most" counts the primary plus the extras
    the use would actually take: no more than the plan asks for (`extend X by
    N`: N ...), so two primaries that both reach the plan's number tie."  U on
    a1, Firecracker (range 2) with panels for two extras, ``extend
    firecracker by 1``: Far (c3) has two in its group (Left b3, Twin c3),
    Near (b1) one (Side c1); every primary reaches 1 + 1 = 2, so the default
    preference decides: Near, the nearest, with Side.  Counting Far's whole
    group would have taken Far (or Left or Twin, 3 "hits" each)."""
    text = "extend firecracker by 1\n" + HOLD
    foes = [fighter(n, sq, "", plan=plan(HOLD))
            for n, sq in (("Near", "b1"), ("Side", "c1"), ("Far", "c3"), ("Left", "b3"), ("Twin", "c3"))]
    rng = ScriptedRng(strict=True)
    rec = resolve_battle(battle([fighter("U", "a1", "firecracker", "火火火", plan=plan(text))], foes),
                         ruleset(turn_limit=1), 1, rng=rng)
    chosen = [t for t in of(rec, E.TargetsChosen) if t.actor == "U"]
    assert [(t.targets, t.extend_requested, t.extended) for t in chosen] == [(("Near", "Side"), 1, 1)]
    assert [(u.targets, len(u.panels)) for u in of(rec, E.SkillUsed)] == [(("Near", "Side"), 2)]
    assert rng.log == []


# ------------------------------------------------------------- flags, maintain


def test_r_plan_2_counter_allies() -> None:
    """``counter allies``: counters answer allies' skills too (R-PLAN-2)."""
    attacker = fighter("A", "c3", "eruption", "火火",
                       plan=plan("with eruption only target allies\n" + HOLD))
    no = run(battle([attacker, fighter("K", "d4", "kusanagi", "火剣", plan=plan(HOLD))],
                    [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert [d for d in damage_to(no, "A") if d[1] == "counter"] == []
    yes = run(battle([attacker, fighter("K", "d4", "kusanagi", "火剣", plan=plan("counter allies\n" + HOLD))],
                     [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert (4, "counter", "kusanagi") in damage_to(yes, "A")


def test_r_plan_1_heal_even_when_unhurt() -> None:
    """``heal even when unhurt`` lifts R-PLAN-1's guard."""
    rec = run(battle([fighter("H", "c3", "rest", "水", plan=plan("heal even when unhurt\n" + HOLD))],
                     [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert used(rec, "H") == [("rest", ("H",))]


def test_r_turn_4_maintain_when_engaged_and_release_when() -> None:
    """``maintain sala-twin-trees when engaged``: started only while engaged,
    released at the maintenance step when no longer."""
    text = "maintain sala-twin-trees when engaged\n" + HOLD
    free = run(battle([fighter("S", "c3", "sala-twin-trees", "剣剣", plan=plan(text))],
                      [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert of(free, E.MaintainStarted) == []
    assert [(p.skill, p.reason, p.line) for p in of(free, E.SkillPassed)] == [("sala-twin-trees", "held_back", 1)]
    engaged = run(battle([fighter("S", "c3", "sala-twin-trees", "剣剣", plan=plan(text))],
                         [fighter("B", "c3", "", plan=plan(HOLD))]))
    assert [m.skill for m in of(engaged, E.MaintainStarted)] == ["sala-twin-trees"]
    rel = run(battle([fighter("S", "c3", "sala-twin-trees", "剣剣",
                              plan=plan("release sala-twin-trees when hp <= 10\n" + HOLD))],
                     [fighter("B", "c3", "slash", "剣", body=5, plan=plan(HOLD))]), turns=2)
    assert [m.skill for m in of(rel, E.MaintainStarted)] == ["sala-twin-trees"]  # hp 12: started
    released = [(r.turn, r.skill, r.cause, r.line) for r in of(rel, E.MaintainReleased)]
    assert released == [(2, "sala-twin-trees", "clause", 1)]  # hp 9 after the slash


# ------------------------------------------------------------------- movement


def test_r_move_8_move_toward_ally_with_hp_lost_then_use_rest() -> None:
    """The seed's example: ``move toward ally with hp lost >= 5 then use rest``
    -- steps toward the hurt ally, and stops once Rest (range 2) reaches it."""
    text = "move toward ally with hp lost >= 5 then use rest\n"
    far = run(battle([fighter("H", "a1", "", plan=plan(text)), fighter("W", "e5", "", hp=6, plan=plan(HOLD))],
                     [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert [(m.from_square.file, m.to_square.file, m.toward) for m in of(far, E.Moved)] == [(0, 1, "W")]
    near = run(battle([fighter("H", "c3", "", plan=plan(text)), fighter("W", "e5", "", hp=6, plan=plan(HOLD))],
                      [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert [(s.actor, s.reason) for s in of(near, E.Stayed) if s.actor == "H"] == [("H", "in_reach")]


def test_r_move_8_move_to_square_and_toward_named() -> None:
    """``move to d4`` steps toward d4; ``move toward Kagura`` toward her."""
    rec = run(battle([fighter("A", "b2", "", plan=plan("move to d4\n")),
                      fighter("C", "a1", "", plan=plan("move toward Kagura\n"))],
                     [fighter("Kagura", "a8", "", plan=plan(HOLD))]))
    moves = {m.actor: (m.to_square.file, m.to_square.rank) for m in of(rec, E.Moved)}
    assert moves == {"A": (2, 2), "C": (0, 1)}


def test_r_move_7_hold_and_keep_away_when_hurt() -> None:
    """``hold position when hp <= 4`` / ``keep away from enemies when hp <= 4``."""
    hold = run(battle([fighter("A", "c3", "", hp=4, plan=plan("hold position when hp <= 4\n"))],
                      [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert [(s.reason, s.line) for s in of(hold, E.Stayed) if s.actor == "A"] == [("hold", 1)]
    walk = run(battle([fighter("A", "c3", "", hp=5, plan=plan("hold position when hp <= 4\n"))],
                      [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert [m.mode for m in of(walk, E.Moved) if m.actor == "A"] == ["auto"]
    away = run(battle([fighter("A", "c3", "", hp=4, plan=plan("keep away from enemies when hp <= 4\n"))],
                      [fighter("B", "d4", "", plan=plan(HOLD))]))
    (m,) = [m for m in of(away, E.Moved) if m.actor == "A"]
    assert (m.to_square.file, m.to_square.rank) == (1, 1) and m.toward == "away"


# ------------------------------------------------------------ conditions, R-PAT-2


def test_r_pat_2_pattern_condition_text_is_compiled() -> None:
    """R-PAT-2/3: a pattern carrying ``when hp <= 5`` is chosen when it holds."""
    from referee.elements import parse_pattern

    pats = [Pat(parse_pattern("剣剣"), condition_text="hp <= 5"), Pat(parse_pattern("火火"))]
    low = run(battle([fighter("A", "c3", "", patterns=pats, hp=5, plan=plan(HOLD))],
                     [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert [(p.pattern, p.reason) for p in of(low, E.PatternSelected) if p.actor == "A"][-1] == (0, "condition")
    high = run(battle([fighter("A", "c3", "", patterns=pats, hp=6, plan=plan(HOLD))],
                      [fighter("B", "h8", "", plan=plan(HOLD))]))
    assert [(p.pattern, p.reason) for p in of(high, E.PatternSelected) if p.actor == "A"][-1] == (1, "default")


@pytest.mark.parametrize(("text", "expected"), [
    ("hp <= 5 and not engaged", True),
    ("hp <= 4 or turn >= 1", True),
    ("(hp lost >= 8) or bound", False),
    ("enemies alive == 2 and allies alive >= 1", True),
    ("enemies in range >= 1", True),
    ("ally hp lost >= 7", True),
    ("max hp == 12", True),
    ("turn != 0", True),
])
def test_conditions_combine_with_and_or_not(text: str, expected: bool) -> None:
    """interfaces.md: conditions combine with and, or, not and parentheses."""
    from referee.mapgraph import open_map

    setup = battle([fighter("A", "c3", "", hp=5), fighter("W", "a1", "", hp=5)],
                   [fighter("B", "d4", ""), fighter("C", "h8", "")])
    rs = ruleset()
    cond = compile_condition_text(text, "<t>", 1, 1, rs)
    from referee.engine.battle import _fighter

    by_id = {s.id: s for s in rs.catalog.skills}
    fighters = [_fighter(c, i, rs, by_id) for i, c in enumerate(setup.combatants)]
    st = BattleState(fighters, open_map(8, 8), Chebyshev())
    st.turn = 1
    assert cond(CondContext(st, fighters[0])) is expected


def test_a_broken_pattern_condition_never_holds() -> None:
    """A condition that does not parse (already reported by the sheet loader)
    never selects its pattern."""
    from referee.mapgraph import open_map

    cond = compile_condition_text("hp <=", "<t>", 1, 1, ruleset())
    st = BattleState([], open_map(8, 8), Chebyshev())
    assert cond(CondContext(st, None)) is False  # type: ignore[arg-type]


def test_plans_from_the_plans_folder_run_a_battle() -> None:
    """Every example plan of ``plans/`` compiles and drives a short battle."""
    root = Path(__file__).resolve().parents[2] / "plans"
    files = sorted(root.glob("*.plan"))
    assert files, "plans/ holds the canonical example plans"
    for path in files:
        parsed = plan(path.read_text(encoding="utf-8"))
        setup = battle([fighter("Kagura", "c3", "rest eruption firecracker slash avenger", "火火水剣地", plan=parsed),
                        fighter("Tomoe", "d3", "sala-twin-trees shield-mist whirlwind", "剣剣水風", plan=parsed)],
                       [fighter("Ash", "e6", "eruption firecracker", "火火火", plan=plan(HOLD)),
                        fighter("Bryn", "f6", "slash avenger", "剣地", plan=plan(HOLD))])
        rec = resolve_battle(setup, ruleset(turn_limit=10), 7, rng=None)
        assert isinstance(rec.events[-1], E.BattleEnd), path.name


def test_scripted_rng_is_not_needed_for_plans() -> None:
    """Sanity: the AST path and PlanRules path give the same battle."""
    text = "use eruption first\n" + HOLD
    a = run(battle([fighter("A", "c3", "firecracker eruption", "火火火", plan=plan(text))],
                   [fighter("B", "d4", "", body=5, plan=plan(HOLD))]))
    b = run(battle([fighter("A", "c3", "firecracker eruption", "火火火",
                            plan=[R.UseFirst(line=1, skill="eruption"), R.Hold(line=2)])],
                   [fighter("B", "d4", "", body=5, plan=[R.Hold(line=1)])]))
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert isinstance(ScriptedRng({}), ScriptedRng)


def test_r_ext_9_an_ally_is_never_an_extra_even_when_allies_are_candidates() -> None:
    """R-EXT-9: "an ally is never an extra" -- ``only target allies`` lets an
    attack take an ally, but an extension still takes enemies only."""
    text = "with eruption only target allies\nextend eruption max\n" + HOLD
    rec = run(battle([fighter("A", "c3", "eruption", "火火火火", plan=plan(text)),
                      fighter("W", "d4", "", body=5, plan=plan(HOLD)),
                      fighter("X", "d4", "", body=5, plan=plan(HOLD))],
                     [fighter("B", "h8", "", plan=plan(HOLD))]))
    (u,) = of(rec, E.SkillUsed)
    assert u.targets == ("W",)  # X, an ally next to W, is not taken as an extra


def test_r_plan_5_never_use_and_use_only_also_stop_a_passive_firing() -> None:
    """R-PLAN-5: "`never use X when C` and `use X only when C` are checked when
    X is tried, and also stop X firing as a passive"."""

    def reactions(defender_plan: str) -> list[str]:
        rec = run(battle([fighter("A", "c3", "slash", "剣", plan=plan(HOLD))],
                         [fighter("V", "c3", "avenger", "地", body=5, plan=plan(defender_plan + HOLD))]))
        return [f"{r.kind}:{r.skill}" for r in of(rec, E.Reaction) if r.actor == "V"]

    assert reactions("") == ["defence:avenger", "counter:avenger"]
    assert reactions("never use avenger when hp >= 1\n") == []
    assert reactions("use avenger only when hp <= 1\n") == []
    assert reactions("use avenger only when hp >= 1\n") == ["defence:avenger", "counter:avenger"]
