"""Target choice (R-RANGE-2/4, R-PLAN-1, R-PLAN-4) and extension (R-EXT-*).

One comparator decides order (style lesson 6): :func:`preference_key` lists
the keys -- the plan's preference, then nearest -- and remaining ties are
drawn on the ``ties`` stream among the tied candidates in roster order, only
when a pick is actually needed.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from referee.board import Square
from referee.catalog import Skill
from referee.engine.conditions import CondContext, targets_where
from referee.engine.core import Resolution
from referee.engine.events import EXTEND_MAX
from referee.engine.mechanics.metric import RangeMetric
from referee.engine.panels import plan_extension
from referee.engine.planquery import has_flag
from referee.engine.rng import choose
from referee.engine.clauses import NEAREST, Condition, PlanFlag, Preference, PreferenceKind
from referee.engine.state import BattleState, Fighter
from referee.engine.uses import Choice


def preference_for(b: Resolution, user: Fighter, skill: Skill) -> Preference:
    """R-PLAN-5: ``with X target P`` beats ``target P``; default nearest."""
    prefs = user.plan.target_prefs
    if not prefs:
        return NEAREST
    general: Preference | None = None
    ctx = CondContext(b.state, user, skill)
    for c in prefs:
        if not user.clause_active(c.line) or not c.when(ctx):
            continue
        if c.skill == skill.id:
            return c.preference
        if c.skill is None and general is None:
            general = c.preference
    return general or NEAREST


def preference_key(user: Fighter, pref: Preference, c: Fighter, state: BattleState,
                   skill: Skill | None = None) -> tuple[int, int]:
    """R-PLAN-4's sort key of candidate ``c``, smaller first: the
    preference's own key, then the distance in the range metric (nearest
    first).  ``skill`` is read only by ``ally_with`` (its test reads the
    candidate as ``target``)."""
    d = state.metric.distance(user.square, c.square)
    k = pref.kind
    if k is PreferenceKind.NEAREST:
        return 0, d
    if k is PreferenceKind.FARTHEST:
        return -d, d
    if k is PreferenceKind.LOWEST_HP:
        return c.hp, d
    if k is PreferenceKind.HIGHEST_HP:
        return -c.hp, d
    if k is PreferenceKind.MOST_HP_LOST:
        return -c.hp_lost, d
    if k is PreferenceKind.LEAST_HP_LOST:
        return c.hp_lost, d
    if k is PreferenceKind.NAMED:
        return (0 if c.name == pref.name else 1), d
    if k is PreferenceKind.FEWEST_EVASION_DICE:  # soulwired (R-SOUL-PLAN-4)
        return (pref.key(c) if pref.key is not None else 0), d
    # PreferenceKind.ALLY_WITH
    match = pref.match
    return (0 if match is not None and match(CondContext(state, user, skill, c)) else 1), d


def pick(b: Resolution, user: Fighter, pref: Preference, pool: Sequence[Fighter], n: int,
         skill: Skill | None = None) -> list[Fighter]:
    """R-PLAN-4: up to ``n`` of ``pool`` (roster order), one at a time: the
    least :func:`preference_key`, a tie drawn on ``ties`` among the tied in
    roster order (a lone best draws nothing, R-RNG-1)."""
    keyed = [(preference_key(user, pref, c, b.state, skill), c) for c in pool]
    out: list[Fighter] = []
    while keyed and len(out) < n:
        best = min(k for k, _ in keyed)
        chosen = choose(b.rng, "ties", [c for k, c in keyed if k == best])
        out.append(chosen)
        keyed = [(k, c) for k, c in keyed if c is not chosen]
    return out


def rank(user: Fighter, pref: Preference, pool: Sequence[Fighter], state: BattleState,
         skill: Skill | None = None) -> list[Fighter]:
    """R-PLAN-4's order of ``pool`` for the report (``targets_chosen``):
    by :func:`preference_key`, ties in roster order, no draw."""
    return sorted(pool, key=lambda c: (preference_key(user, pref, c, state, skill), c.index))


@dataclass(slots=True)
class Candidates:
    pool: list[Fighter]
    reason: str  # "" when some remain; else no_target / heal_guard


def candidates(b: Resolution, user: Fighter, skill: Skill, filters: Sequence[tuple[Condition, bool]]) -> Candidates:
    """R-PLAN-4: living characters in range the skill may target, less
    R-PLAN-1's unhurt and the plan's restrictions and target conditions.
    ``filters``: (condition on target, keep-when-true) from use clauses."""
    st = b.state
    team, r, here = user.team, skill.range, user.square
    if skill.targets_allies:
        if st.revivable:  # R-D20-KO-2: a heal may take a KO ally at its return area
            pool = [c for c in st.fighters if c.team == team and st.metric.in_range(here, c.square, r)]
        else:
            pool = st.occupancy.within(here, r, team)
    elif admits_allies(b, user, skill):  # R-EXT-9: allies too, never the user itself
        pool = [c for c in st.occupancy.within(here, r) if c is not user]
    else:
        pool = st.occupancy.within(here, r, team, enemies=True)
    if not pool:
        return Candidates([], "no_target")
    if skill.targets_allies and not has_flag(st, user, PlanFlag.HEAL_UNHURT):
        pool = [c for c in pool if c.hp_lost > 0]
        if not pool:
            return Candidates([], "heal_guard")
    pool = restrict(b, user, skill, pool)
    for cond, keep in filters:
        pool = targets_where(cond, st, user, skill, pool, keep)
    return Candidates(pool, "" if pool else "no_target")


def admits_allies(b: Resolution, user: Fighter, skill: Skill) -> bool:
    """R-EXT-9: an unextended use targets an ally only when a clause names
    allies -- an active ``only target`` clause for this skill admitting them.
    The user itself is never the target of its own attack (docs/decisions.md)."""
    restricts = user.plan.restricts
    if not restricts:
        return False
    for c in restricts:
        if c.admits_allies and user.clause_active(c.line) and (c.skill is None or c.skill == skill.id) \
                and c.when(CondContext(b.state, user, skill)):
            return True
    return False


def restrict(b: Resolution, user: Fighter, skill: Skill, pool: list[Fighter]) -> list[Fighter]:
    """``never target X`` / ``only target ...`` clauses (R-PLAN-4)."""
    st = b.state
    for c in user.plan.restricts:
        if not user.clause_active(c.line) or (c.skill is not None and c.skill != skill.id):
            continue
        if not c.when(CondContext(st, user, skill)):
            continue
        pool = targets_where(c.test, st, user, skill, pool, not c.exclude)
    return pool


def requested_extras(b: Resolution, user: Fighter, skill: Skill) -> int | None:
    """R-EXT-7: 0 (no order), N, or None for ``max``; first applying clause."""
    if not skill.can_extend:
        return 0
    extends = user.plan.extends
    if not extends:
        return 0
    ctx = CondContext(b.state, user, skill)
    for c in extends:
        if c.skill == skill.id and user.clause_active(c.line) and c.when(ctx):
            return c.count
    return 0


def choose_targets(b: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
                   base: tuple[int, ...]) -> Choice:
    """The primary and extras of one use (R-PLAN-4, R-EXT-1..9)."""
    pref = preference_for(b, user, skill)
    want = requested_extras(b, user, skill)
    requested = EXTEND_MAX if want is None else want
    if requested > 0:
        ext = _extended_choice(b, user, skill, pool, base, requested, pref)
        if ext is not None:
            return ext
    return Choice(pick(b, user, pref, pool, 1, skill), base, requested, 0)


def _extended_choice(b: Resolution, user: Fighter, skill: Skill, pool: list[Fighter], base: tuple[int, ...],
                     requested: int, pref: Preference) -> Choice | None:
    """R-EXT-1..9: the primary whose group lets the use hit the most
    characters (enemies preferred, R-EXT-9), then its extras picked by
    preference from that group and paid panel by panel; None when no extra
    can be paid or granted (the use goes unextended)."""
    st = b.state
    assert user.active is not None
    panels = user.panels[user.active]
    per = skill.extension_cost
    affordable = len(plan_extension(panels, skill.cost, per, 99, base)) // per if per else 0
    if affordable == 0:
        return None
    engaged = st.is_engaged(user)
    # R-EXT-4: while engaged, every target of an extended use is in the user's area.
    # R-EXT-9: an ally is never an extra of a skill that targets enemies (even
    # when ``only target allies`` put allies among the candidates).
    heals = skill.targets_allies
    extras_pool = [c for c in pool if (not engaged or c.square == user.square)
                   and (heals or c.team != user.team)]
    primaries = list(extras_pool)
    allies_ok = not skill.targets_allies and has_flag(st, user, PlanFlag.FRIENDLY_FIRE)
    ally_primaries: list[Fighter] = []
    if allies_ok:
        ally_primaries = [a for a in st.fighters if not a.down and a.team == user.team and a is not user
                          and st.metric.in_range(user.square, a.square, skill.range)
                          and (not engaged or a.square == user.square)]
        ally_primaries = restrict(b, user, skill, ally_primaries)
    keyed = [(g, g.square) for g in extras_pool]
    groups = {p: list(extension_group(st.metric, user.square, p.square, skill.range, engaged, keyed,
                                      exclude=(p, user)))
              for p in (*primaries, *ally_primaries)}

    def value(p: Fighter) -> tuple[int, int]:
        """(characters hit, extras granted) with ``p`` as the primary."""
        k = min(requested, len(groups[p]), affordable)
        hits = k + (1 if p.team != user.team or skill.targets_allies else 0)
        return hits, k

    best_enemy = max((value(p)[0] for p in primaries), default=0)
    best_ally = max((value(p)[0] for p in ally_primaries), default=0)
    if ally_primaries and best_ally > best_enemy:
        field_ = [p for p in ally_primaries if value(p)[0] == best_ally]
    else:
        field_ = [p for p in primaries if value(p)[0] == best_enemy]
    if not field_:
        return None
    primary = pick(b, user, pref, field_, 1, skill)[0]
    k = value(primary)[1]
    if k == 0:
        return None
    extras = pick(b, user, pref, groups[primary], k, skill)
    paid = plan_extension(panels, skill.cost, per, len(extras), base)
    return Choice([primary, *extras], base + paid, requested, len(extras))


K = TypeVar("K", bound=Hashable)


def extension_group(
    metric: RangeMetric,
    user_square: Square,
    primary_square: Square,
    skill_range: int,
    user_engaged: bool,
    candidates: Sequence[tuple[K, Square]],
    *,
    exclude: Collection[Hashable] = (),
) -> tuple[K, ...]:
    """R-EXT-8: the keys of ``candidates`` that R-EXT-2..5 allow as extra targets.

    ``candidates`` are (key, square) pairs in roster order (a key is anything
    hashable: a name, a fighter); the result keeps that order. A candidate
    qualifies when it is within the skill's range of the user *and* within
    distance 1 of the primary (R-EXT-2), both in the ruleset's range metric,
    so a group is not transitive: with range 2 from e4, a primary at e5
    groups d5 and f6, a primary at d5 does not reach f6. With range 0 both
    conditions mean the user's own area (R-EXT-3). While the user is engaged,
    every target, the primary included, comes from the user's own area
    (R-EXT-4): if the primary is elsewhere the group is empty (the use may
    still be made unextended there).

    Who the user and the primary are cannot be told from squares (an ally
    may share the user's area), so this function never guesses: leave them
    out of ``candidates`` or name their keys in ``exclude``. R-EXT-5 (the
    user is never in its own group) and "each character at most one target of
    a use" (R-TURN-3) are kept that way. Which candidates may be targeted at
    all (living, R-RANGE-4, plan restrictions) is the caller's filter.

    An empty group also results when the primary itself is out of the
    skill's range: such a use is not legal (R-RANGE-2), so nothing extends it.

    :raises ValueError: for a negative range.
    """
    if skill_range < 0:
        raise ValueError(f"a range is 0 or more, not {skill_range}")
    if not metric.in_range(user_square, primary_square, skill_range):
        return ()
    if user_engaged:
        if primary_square != user_square:
            return ()
        return tuple(key for key, sq in candidates if sq == user_square and key not in exclude)
    in_range = metric.in_range
    return tuple(key for key, sq in candidates
                 if in_range(user_square, sq, skill_range) and in_range(primary_square, sq, 1) and key not in exclude)
