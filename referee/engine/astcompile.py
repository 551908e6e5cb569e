"""Translate the plan language's AST (``referee.plan.ast``) into PlanRules.

The players' language (:mod:`referee.plan.ast`) and the engine's vocabulary
(:mod:`referee.engine.clauses`) are kept apart: this module is the one place
that knows both.  Every condition node becomes a closure over
:class:`CondContext` once per battle, so the resolver never walks syntax at
run time (style lesson 2).

Meanings (interfaces.md "Plan file", rules.md R-PLAN-*):

* ``hp``, ``hp lost``, ``max hp``, ``engaged``, ``bound`` without a subject are
  the character's own; ``target ...`` is the candidate being considered
  (R-PLAN-5: a use clause whose condition speaks of ``target`` holds if some
  candidate satisfies it and then filters the candidates; where no candidate
  is being considered a ``target`` test is false); ``ally ...`` holds if some
  member of the army, itself included, satisfies it -- within the skill's
  range in a condition on using a skill, anywhere otherwise.
* ``enemies|allies in range``: within the skill's range, or distance 1 when
  no skill is concerned; ``alive``: anywhere.  Allies include the character.
* ``bound`` is Bind on the character (R-ST-BIND).
* ``readies S`` / ``readies CLASS``: R-PAN-4.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable

from referee.board import parse_square
from referee.engine import clauses as R
from referee.engine.conditions import CondContext, acting_first, readies, readies_class
from referee.engine.state import Fighter
from referee.plan import ast as A
from referee.plan import parse_condition
from referee.mechanicspec import D6PoolSpec
from referee.plan.innate import innate_skill
from referee.ruleset import Ruleset

__all__ = ["compile_ast_plan", "compile_condition", "compile_condition_text", "compile_pattern_condition",
           "never"]

_OPS: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt, "<=": operator.le, "==": operator.eq,
    "!=": operator.ne, ">=": operator.ge, ">": operator.gt,
}

#: The AST's rank keys -> the engine's preference kinds (R-PLAN-4).
_RANK_KINDS: dict[str, R.PreferenceKind] = {
    "nearest": R.PreferenceKind.NEAREST, "farthest": R.PreferenceKind.FARTHEST,
    "lowest-hp": R.PreferenceKind.LOWEST_HP, "highest-hp": R.PreferenceKind.HIGHEST_HP,
    "most-hp-lost": R.PreferenceKind.MOST_HP_LOST, "least-hp-lost": R.PreferenceKind.LEAST_HP_LOST,
}

#: Flag clauses -> the flag names :func:`referee.engine.planquery.has_flag` asks for.
_FLAGS: dict[type, R.PlanFlag] = {
    A.FriendlyFire: R.PlanFlag.FRIENDLY_FIRE,
    A.CounterAllies: R.PlanFlag.COUNTER_ALLIES,
    A.HealEvenWhenUnhurt: R.PlanFlag.HEAL_UNHURT,
}


def never(_: CondContext) -> bool:
    """A condition that cannot hold (a pattern condition that failed to parse:
    the sheet loader has already reported it, and such a battle is refused)."""
    return False


# ----------------------------------------------------------------- conditions


def _quantity(quantity: str) -> Callable[[Fighter], int]:
    if quantity == "hp":
        return lambda f: f.hp
    if quantity == "hp_lost":
        return lambda f: f.max_hp - f.hp
    if quantity == "max_hp":
        return lambda f: f.max_hp
    raise ValueError(f"unknown quantity {quantity!r}")


def _ally_domain(ctx: CondContext) -> Iterable[Fighter]:
    """The ``ally`` subject's domain: the army, itself included, within the
    skill's range when a skill is concerned (interfaces.md)."""
    me = ctx.me
    team = me.team
    st = ctx.state
    ko_too = st.revivable  # R-D20-KO-2: `ally ...` sees a KO ally at its return area
    if ctx.skill is None:
        return (g for g in st.fighters if (ko_too or not g.down) and g.team == team)
    r = ctx.skill.range
    sq = me.square
    if ko_too:
        in_range = st.metric.in_range
        return (g for g in st.fighters if g.team == team and in_range(sq, g.square, r))
    return iter(st.occupancy.within(sq, r, team))


def _on_subject(subject: str, test: Callable[[Fighter, CondContext], bool]) -> R.Condition:
    """Lift a test of one character to the plan's subjects."""
    if subject == "self":
        return lambda ctx: test(ctx.me, ctx)
    if subject == "target":
        def on_target(ctx: CondContext) -> bool:
            t = ctx.target
            return t is not None and test(t, ctx)
        return on_target
    if subject == "ally":
        return lambda ctx: any(test(g, ctx) for g in _ally_domain(ctx))
    raise ValueError(f"unknown subject {subject!r}")


def _count(side: str, scope: str, op: Callable[[int, int], bool], value: int) -> R.Condition:
    enemies = side == "enemies"

    def count(ctx: CondContext) -> bool:
        me = ctx.me
        team, sq = me.team, me.square
        r = -1 if scope == "alive" else (ctx.skill.range if ctx.skill is not None else 1)
        st = ctx.state
        if r < 0:  # alive anywhere: the kept head counts
            n = sum(len(v) for t, v in st.standing_by_team.items() if (t != team) is enemies)
            return op(n, value)
        return op(len(st.occupancy.within(sq, r, team, enemies=enemies)), value)
    return count


def compile_condition(cond: A.Condition | None, ruleset: Ruleset) -> R.Condition:
    """One condition node -> a closure (None -> always)."""
    if cond is None:
        return R.always
    if isinstance(cond, A.Compare):
        get = _quantity(cond.quantity)
        op, value = _OPS[cond.op], cond.value
        return _on_subject(cond.subject, lambda f, _ctx: op(get(f), value))
    if isinstance(cond, A.Count):
        return _count(cond.side, cond.scope, _OPS[cond.op], cond.value)
    if isinstance(cond, A.TurnCompare):
        op, value = _OPS[cond.op], cond.value
        return lambda ctx: op(ctx.state.turn, value)
    if isinstance(cond, A.Engaged):
        return _on_subject(cond.subject, lambda f, ctx: ctx.state.is_engaged(f))
    if isinstance(cond, A.Bound):
        return _on_subject(cond.subject, lambda f, _ctx: f.bind > 0)
    if isinstance(cond, A.Readies):
        if cond.skill is not None:
            skill_id = _skill_id(cond.skill, ruleset)
            return _on_subject(cond.subject, lambda f, ctx: readies(ctx.state, f, skill_id))
        cls = cond.skill_class or ""
        return _on_subject(cond.subject, lambda f, _ctx: readies_class(f, cls))
    if isinstance(cond, A.Frozen):  # variant-wiz.md R-WIZ-PLAN-1: Freeze on the character
        return _on_subject(cond.subject, lambda f, _ctx: f.freeze > 0)
    if isinstance(cond, A.Ko):  # R-D20-PLAN-2
        return _on_subject(cond.subject, lambda f, _ctx: f.down)
    if isinstance(cond, A.Grappled):  # R-D20-PLAN-2
        return _on_subject(cond.subject, lambda f, _ctx: f.grapple > 0)
    if isinstance(cond, A.ActingFirst):
        return acting_first
    if isinstance(cond, A.ActingSecond):
        return lambda ctx: not acting_first(ctx)
    if isinstance(cond, A.And):
        parts = tuple(compile_condition(p, ruleset) for p in cond.parts)
        return lambda ctx: all(p(ctx) for p in parts)
    if isinstance(cond, A.Or):
        parts = tuple(compile_condition(p, ruleset) for p in cond.parts)
        return lambda ctx: any(p(ctx) for p in parts)
    if isinstance(cond, A.Not):
        inner = compile_condition(cond.operand, ruleset)
        return lambda ctx: not inner(ctx)
    extra = _resource_condition(cond, ruleset)
    if extra is not None:
        return extra
    raise TypeError(f"unknown condition node {type(cond).__name__}")


# --- soulwired (R-SOUL-PLAN-2/4) ---


def evasion_dice_left(ruleset: Ruleset) -> Callable[[Fighter], int]:
    """A character's evasion dice left: as last set, else full (R-SOUL-HIT-2:
    full at battle start), read from the ruleset's ``d6_pool`` numbers."""
    hit = ruleset.mechanics.hit
    evasive = hit.evasive_dice if isinstance(hit, D6PoolSpec) else 0

    def left(f: Fighter) -> int:
        if f.evasion_dice is not None:
            return f.evasion_dice
        if f.evasion_type == "none":
            return 0
        return max(f.abilities.values()) + (evasive if f.garb == "evasive" else 0)
    return left


def _resource_condition(cond: A.Condition, ruleset: Ruleset) -> R.Condition | None:
    if isinstance(cond, A.EvasionDiceLeft):
        left, op, value = evasion_dice_left(ruleset), _OPS[cond.op], cond.value
        return _on_subject(cond.subject, lambda f, _ctx: op(left(f), value))
    if isinstance(cond, A.Attacked):
        def attacked(ctx: CondContext) -> bool:
            memory = ctx.me.mechanic_state
            return bool(getattr(memory, "attacked", False))
        return attacked
    if isinstance(cond, A.HardModeOn):
        return lambda ctx: ctx.state.hard_mode_level >= 1
    if isinstance(cond, A.UltraHard):
        return lambda ctx: ctx.state.hard_mode_level >= 2
    if isinstance(cond, A.IncomingDamage):
        op, value = _OPS[cond.op], cond.value
        return lambda ctx: ctx.incoming is not None and op(ctx.incoming.damage, value)
    if isinstance(cond, A.IncomingMelee):
        hit = ruleset.mechanics.hit
        melee_max = hit.melee_max_range if isinstance(hit, D6PoolSpec) else 0
        return lambda ctx: ctx.incoming is not None and ctx.incoming.range <= melee_max
    return None


def mentions_target(cond: A.Condition | None) -> bool:
    """Whether a condition speaks of ``target`` (R-PLAN-5: it then filters
    the candidates of the clause's skill)."""
    if cond is None:
        return False
    if isinstance(cond, (A.And, A.Or)):
        return any(mentions_target(p) for p in cond.parts)
    if isinstance(cond, A.Not):
        return mentions_target(cond.operand)
    return getattr(cond, "subject", None) == "target"


def compile_condition_text(text: str, file: str, line: int, column: int, ruleset: Ruleset) -> R.Condition:
    """R-PAT-2: a pattern's condition written in plan-condition syntax."""
    cond, diags = parse_condition(text, file, line or 1, column or 1)
    if cond is None or any(d.severity == "error" for d in diags):
        return never
    return compile_condition(cond, ruleset)


# ----------------------------------------------------------------- clauses


def _skill_id(ref: A.SkillRef, ruleset: Ruleset) -> str:
    """The catalogue id of a skill named in a plan (id, names or reading)."""
    if ref.id is not None:
        return ref.id
    skill = ruleset.catalog.resolve(ref.text) or innate_skill(ref.text)
    return skill.id if skill is not None else ref.text


def _opt_skill(ref: A.SkillRef | None, ruleset: Ruleset) -> str | None:
    return None if ref is None else _skill_id(ref, ruleset)


def _named(name: str) -> R.Condition:
    def is_named(ctx: CondContext) -> bool:
        t = ctx.target
        return t is not None and t.name == name
    return is_named


def _ally_match(test: R.Condition) -> R.Condition:
    """``ally with T``: the candidate is an ally (itself included) and T holds
    of it (T reads the candidate as ``target``)."""
    def match(ctx: CondContext) -> bool:
        t = ctx.target
        return t is not None and t.team == ctx.me.team and test(ctx)
    return match


def _is_ally(ctx: CondContext) -> bool:
    t = ctx.target
    return t is not None and t.team == ctx.me.team


def _is_enemy(ctx: CondContext) -> bool:
    t = ctx.target
    return t is not None and t.team != ctx.me.team


def _spared(who: A.Node, ruleset: Ruleset) -> R.Condition:
    """R-WIZ-PLAN-1: the test of ``spare WHO`` on a candidate."""
    if isinstance(who, A.CharacterRef):
        return _named(who.name)
    if isinstance(who, A.AllAllies):
        return _is_ally
    if isinstance(who, A.AllyWith):
        return _ally_match(compile_condition(who.test, ruleset))
    if isinstance(who, A.EnemyWith):
        test = compile_condition(who.test, ruleset)

        def enemy_match(ctx: CondContext) -> bool:
            return _is_enemy(ctx) and test(ctx)
        return enemy_match
    raise TypeError(f"unknown spare target {type(who).__name__}")


def _preference(pref: A.TargetPref, ruleset: Ruleset) -> R.Preference:
    if isinstance(pref, A.RankBy):
        return R.Preference(_RANK_KINDS[pref.key])
    if isinstance(pref, A.CharacterRef):
        return R.Preference(R.PreferenceKind.NAMED, pref.name)
    if isinstance(pref, A.AllyWith):
        return R.Preference(R.PreferenceKind.ALLY_WITH, match=_ally_match(compile_condition(pref.test, ruleset)))
    if isinstance(pref, A.FewestEvasionDice):  # soulwired (R-SOUL-PLAN-4)
        return R.Preference(R.PreferenceKind.FEWEST_EVASION_DICE, key=evasion_dice_left(ruleset))
    raise TypeError(f"unknown target preference {type(pref).__name__}")


def _restriction(line: int, when: R.Condition, conditional: bool, exclude: bool, test: R.Condition,
                 skill: str | None, admits_allies: bool, per_candidate: bool) -> R.TargetRestrict:
    """A ``never target`` / ``only target`` clause.  When its condition speaks
    of ``target`` it is judged per candidate (R-PLAN-5) and folded into the test."""
    if per_candidate:
        if exclude:
            def excl(ctx: CondContext) -> bool:
                return test(ctx) and when(ctx)
            return R.TargetRestrict(line, R.always, conditional, True, excl, skill, admits_allies)

        def only(ctx: CondContext) -> bool:
            return test(ctx) or not when(ctx)
        return R.TargetRestrict(line, R.always, conditional, False, only, skill, admits_allies)
    return R.TargetRestrict(line, when, conditional, exclude, test, skill, admits_allies)


def compile_clause(clause: A.Clause, ruleset: Ruleset, allies: frozenset[str] = frozenset()) -> R.Clause:
    """One AST clause -> the engine's clause (``line`` is its identity)."""
    cond: A.Condition | None = getattr(clause, "condition", None)
    when = compile_condition(cond, ruleset)
    line = clause.line
    conditional = cond is not None
    on_target = mentions_target(cond)
    if isinstance(clause, A.UseFirst):
        return R.UseFirst(line, when, conditional, _skill_id(clause.skill, ruleset), on_target)
    if isinstance(clause, A.UseOnlyWhen):
        return R.UseOnly(line, when, conditional, _skill_id(clause.skill, ruleset), on_target)
    if isinstance(clause, A.NeverUse):
        return R.NeverUse(line, when, conditional, _skill_id(clause.skill, ruleset), on_target)
    if isinstance(clause, A.TargetPreference):
        return R.TargetPref(line, when, conditional, _preference(clause.preference, ruleset),
                            _opt_skill(clause.skill, ruleset))
    if isinstance(clause, A.NeverTarget):
        return _restriction(line, when, conditional, True, _named(clause.character.name),
                            _opt_skill(clause.skill, ruleset), False, on_target)
    if isinstance(clause, A.OnlyTarget):
        who = clause.who
        test: R.Condition
        if isinstance(who, A.CharacterRef):
            test, admits = _named(who.name), who.name in allies
        elif isinstance(who, A.AllyWith):
            test, admits = _ally_match(compile_condition(who.test, ruleset)), True
        elif isinstance(who, A.AllAllies):
            test, admits = _is_ally, True
        elif isinstance(who, A.AllEnemies):
            test, admits = _is_enemy, False
        else:
            raise TypeError(f"unknown target filter {type(who).__name__}")
        return _restriction(line, when, conditional, False, test, _opt_skill(clause.skill, ruleset),
                            admits, on_target)
    if isinstance(clause, A.Spare):
        # R-WIZ-PLAN-1: spared in area uses, and for single-target uses the
        # same as ``never target WHO`` -- so it is compiled as that exclusion.
        return _restriction(line, when, conditional, True, _spared(clause.who, ruleset), None, False, on_target)
    if isinstance(clause, A.TakeAim):
        # R-WIZ-AIM-1: `check` refuses the clause unless the ruleset's hit
        # roll has the aim module on; the percentile mechanic reads it.
        return R.TakeAim(line, when, conditional, clause.character.name)
    if isinstance(clause, A.Extend):
        count = None if clause.count == "max" else int(clause.count)
        return R.Extend(line, when, conditional, _skill_id(clause.skill, ruleset), count)
    flag = _FLAGS.get(type(clause))
    if flag is not None:
        return R.Flag(line, when, conditional, flag)
    if isinstance(clause, A.Stack):
        return R.Stack(line, when, conditional, _skill_id(clause.skill, ruleset))
    if isinstance(clause, A.Maintain):
        return R.Maintain(line, when, conditional, _skill_id(clause.skill, ruleset))
    if isinstance(clause, A.Release):
        return R.Release(line, when, conditional, _skill_id(clause.skill, ruleset))
    if isinstance(clause, A.MoveToward):
        dest = clause.destination
        then_use = _opt_skill(clause.then_use, ruleset)
        if isinstance(dest, A.NearestEnemy):
            return R.MoveToward(line, when, conditional, R.MoveGoal.NEAREST_ENEMY, None, R.always, then_use)
        if isinstance(dest, A.NearestAlly):
            return R.MoveToward(line, when, conditional, R.MoveGoal.NEAREST_ALLY, None, R.always, then_use)
        if isinstance(dest, A.CharacterRef):
            return R.MoveToward(line, when, conditional, R.MoveGoal.NAMED, dest.name, R.always, then_use)
        if isinstance(dest, A.AllyWith):
            return R.MoveToward(line, when, conditional, R.MoveGoal.ALLY_MATCHING, None,
                                compile_condition(dest.test, ruleset), then_use)
        if isinstance(dest, A.SquareRef):
            return R.MoveTo(line, when, conditional, parse_square(dest.name), then_use)
        raise TypeError(f"unknown destination {type(dest).__name__}")
    if isinstance(clause, A.MoveTo):
        return R.MoveTo(line, when, conditional, parse_square(clause.square.name))
    if isinstance(clause, A.HoldPosition):
        return R.Hold(line, when, conditional)
    if isinstance(clause, A.KeepAway):
        return R.KeepAway(line, when, conditional)
    # soulwired (R-SOUL-PLAN-1..3)
    if isinstance(clause, A.StanceOrder):
        return R.StanceClause(line, when, conditional, clause.stance)
    if isinstance(clause, A.Evade):
        return R.EvadeClause(line, when, conditional, None if clause.dice == "all" else int(clause.dice))
    if isinstance(clause, A.AttackObjectAt):
        return R.AttackObject(line, when, conditional, parse_square(clause.square.name))
    if isinstance(clause, A.DropDice):  # R-D20-PLAN-1
        return R.CheckDrop(line, when, conditional, clause.check, clause.count)
    if isinstance(clause, A.Boost):
        return R.CheckBoost(line, when, conditional, clause.check, clause.amount)
    if isinstance(clause, A.Recover):
        return R.SelfRecover(line, when, conditional)
    if isinstance(clause, (A.Push, A.Grapple)):
        pref = None if clause.preference is None else _preference(clause.preference, ruleset)
        return R.Ride(line, when, conditional, isinstance(clause, A.Grapple), pref, on_target)
    if isinstance(clause, A.NeverFollowUp):
        return R.NeverFollowUp(line, when, conditional)  # orm (R-ORM-PLAN-1)
    raise TypeError(f"unknown clause {type(clause).__name__}")


def compile_ast_plan(plan: A.Plan, ruleset: Ruleset, allies: Iterable[str] = ()) -> R.PlanRules:
    """A parsed plan -> the engine's :class:`PlanRules`, clauses in file order.

    ``allies``: names of the character's army (so that ``only target NAME``
    naming an ally lets an attack take that ally, R-EXT-9).
    """
    known = frozenset(allies)
    return R.PlanRules(tuple(compile_clause(c, ruleset, known) for c in plan.clauses))



def compile_pattern_condition(pattern: object, sheet: object, ruleset: Ruleset) -> R.Condition | None:
    """R-PAT-2: a pattern's optional condition, compiled; None if it has none.

    A pattern object may carry an already compiled ``when`` (tests), or
    ``condition_text`` (sheets) parsed with the plan language.
    """
    when = getattr(pattern, "when", None)
    if callable(when):
        return when  # type: ignore[no-any-return]
    text = getattr(pattern, "condition_text", None)
    if not text:
        return None
    return compile_condition_text(text, getattr(sheet, "file", "<sheet>"), getattr(pattern, "condition_line", 0),
                                  getattr(pattern, "condition_column", 0), ruleset)
