"""Target choice (R-RANGE-2/4, R-PLAN-1, R-PLAN-4) and extension (R-EXT-*).

One comparator decides order (style lesson 6): :func:`preference_key` lists
the keys -- the plan's preference, then nearest -- and remaining ties are
drawn on the ``ties`` stream among the tied candidates in roster order, only
when a pick is actually needed.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import itemgetter
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
    """Sort key, smaller first: (the preference's key, distance in the range
    metric) -- R-PLAN-4.  ``skill`` is read only by ``ally_with`` (its test
    reads the candidate as ``target``)."""
    return preference_keys(user, pref, (c,), state, skill)[0]


def preference_keys(user: Fighter, pref: Preference, pool: Sequence[Fighter], state: BattleState,
                    skill: Skill | None = None) -> list[tuple[int, int]]:
    """:func:`preference_key` of each of ``pool``, in its order: the
    preference's kind is read once for the pool, not once per candidate
    (every use keys all its candidates, issue 18)."""
    k = pref.kind
    if k is PreferenceKind.NEAREST:  # the default: most uses
        if state.box_is_range:
            return _nearest_box_keys(user.square, pool)
        dist, here = state.metric.distance, user.square
        return [(0, dist(here, c.square)) for c in pool]
    ds = distances(state, user.square, pool)
    if k is PreferenceKind.FARTHEST:
        return [(-d, d) for d in ds]
    firsts = _first_keys(user, pref, pool, state, skill)
    assert firsts is not None
    return list(zip(firsts, ds))


def _first_keys(user: Fighter, pref: Preference, pool: Sequence[Fighter], state: BattleState,
                skill: Skill | None = None) -> list[int] | None:
    """The first of R-PLAN-4's keys of each of ``pool`` (the preference's own,
    smaller first), when it does not read the distance; None for nearest and
    farthest, whose first key is the distance (:func:`preference_keys`)."""
    k = pref.kind
    if k is PreferenceKind.LOWEST_HP:
        return [c.hp for c in pool]
    if k is PreferenceKind.HIGHEST_HP:
        return [-c.hp for c in pool]
    if k is PreferenceKind.MOST_HP_LOST:  # -(HP lost)
        return [c.hp - c.max_hp for c in pool]
    if k is PreferenceKind.LEAST_HP_LOST:  # HP lost
        return [c.max_hp - c.hp for c in pool]
    if k is PreferenceKind.NAMED:
        name = pref.name
        return [0 if c.name == name else 1 for c in pool]
    if k is PreferenceKind.NEAREST or k is PreferenceKind.FARTHEST:
        return None
    if k is PreferenceKind.FEWEST_EVASION_DICE:  # soulwired (R-SOUL-PLAN-4)
        key = pref.key
        return [key(c) if key is not None else 0 for c in pool]
    # PreferenceKind.ALLY_WITH
    match = pref.match
    return [0 if match is not None and match(CondContext(state, user, skill, c)) else 1 for c in pool]


def _pick_first(b: Resolution, user: Fighter, pref: Preference, pool: Sequence[Fighter],
                skill: Skill | None = None) -> Fighter:
    """``_pick_one(b, preference_keys(user, pref, pool, b.state, skill), pool)``
    with the distance (the second key) measured only for the candidates tied
    on the first: the same least key, the same tie drawn among in the same
    order.  Why: a pick that writes no ranking (a lean use, an extended use's
    primary) weighed the distance of every candidate of a crowd's dozen when
    the preference's own key mostly decides alone (issue 18)."""
    firsts = _first_keys(user, pref, pool, b.state, skill)
    if firsts is None:
        return _pick_one(b, preference_keys(user, pref, pool, b.state, skill), pool)
    best = min(firsts)
    if firsts.count(best) == 1:
        return pool[firsts.index(best)]
    tied = [c for c, k in zip(pool, firsts) if k == best]
    return _pick_one(b, distances(b.state, user.square, tied), tied)


def distances(state: BattleState, here: Square, pool: Sequence[Fighter]) -> list[int]:
    """Each of ``pool``'s distance from ``here`` in the range metric
    (R-RANGE-1, R-PLAN-4's nearest key).  A metric whose range is its box
    (``box_is_range``) measures the Chebyshev distance (the least r whose box
    holds the area), so it is computed inline, without a call per candidate
    (every use keys every candidate, issue 18); else the metric's own."""
    if state.box_is_range:
        return _chebyshev(here, pool)
    dist = state.metric.distance
    return [dist(here, c.square) for c in pool]


def _nearest_box_keys(here: Square, pool: Sequence[Fighter]) -> list[tuple[int, int]]:
    """R-PLAN-4's nearest keys, (0, distance), for a metric whose range is
    its box: the Chebyshev distances, paired by a C ``zip`` (issue 18)."""
    return list(zip(repeat(0), _chebyshev(here, pool)))


def _chebyshev(here: Square, pool: Sequence[Fighter]) -> list[int]:
    """Each of ``pool``'s Chebyshev distance from ``here``, computed inline
    (a metric whose range is its box measures it, ``box_is_range``): no call
    per candidate (every use keys every candidate, issue 18)."""
    hf, hr = here.file, here.rank
    out = []
    for c in pool:
        q = c.square
        dx = q.file - hf
        dy = q.rank - hr
        if dx < 0:
            dx = -dx
        if dy < 0:
            dy = -dy
        out.append(dx if dx > dy else dy)
    return out


def pick(b: Resolution, user: Fighter, pref: Preference, pool: Sequence[Fighter], n: int,
         skill: Skill | None = None) -> list[Fighter]:
    """Pick up to ``n`` from ``pool`` (roster order) by preference, ties drawn."""
    return _pick_keyed(b, list(zip(preference_keys(user, pref, pool, b.state, skill), pool)), n)


def _pick_keyed(b: Resolution, keyed: list[tuple[tuple[int, int], Fighter]], n: int) -> list[Fighter]:
    """:func:`pick` on (key, candidate) pairs already keyed, roster order."""
    out: list[Fighter] = []
    while keyed and len(out) < n:
        best = min(map(_FIRST, keyed))
        tied = [c for k, c in keyed if k == best]
        chosen = choose(b.rng, "ties", tied)
        out.append(chosen)
        if len(out) < n:
            keyed = [(k, c) for k, c in keyed if c is not chosen]
    return out


_FIRST = itemgetter(0)


def rank(user: Fighter, pref: Preference, pool: Sequence[Fighter], state: BattleState,
         skill: Skill | None = None) -> list[Fighter]:
    """Deterministic preference order (ties in roster order) for reporting."""
    return _ranked(preference_keys(user, pref, pool, state, skill), pool)


def _ranked(keys: list[tuple[int, int]], pool: Sequence[Fighter]) -> list[Fighter]:
    """:func:`rank` on the pool's keys: (key, roster index, candidate) sorted
    -- the index is unique, so no two candidates are ever compared, and no
    key function is called per candidate.  The indexes and the result by
    list comprehensions: 3.11's specialised reads beat an ``attrgetter`` or
    ``itemgetter`` call per candidate (issue 18)."""
    return [t[2] for t in sorted(zip(keys, [c.index for c in pool], pool))]


@dataclass(slots=True)
class Candidates:
    pool: list[Fighter]
    reason: str  # "" when some remain; else no_target / heal_guard


def candidates(b: Resolution, user: Fighter, skill: Skill, filters: Sequence[tuple[Condition, bool]]) -> Candidates:
    """R-PLAN-4: living characters in range the skill may target, less
    R-PLAN-1's unhurt and the plan's restrictions and target conditions.
    ``filters``: (condition on target, keep-when-true) from use clauses."""
    st = b.state
    heals = skill.targets_allies
    restricts = user.plan.restricts  # (most plans have none: two calls saved per use, issue 18)
    allies_too = not heals and bool(restricts) and admits_allies(b, user, skill)
    team, r, here = user.team, skill.range, user.square
    if heals and st.revivable:  # R-D20-KO-2: a heal may take a KO ally at its return area
        if st.all_standing(team):
            pool = st.within(here, r, st.side_bits(team, False))  # none of the army is KO: the index's
        else:
            in_range = st.metric.in_range  # R-RANGE-1 (the ruleset's metric) and R-RANGE-4
            pool = [c for c in st.fighters if c.team == team and in_range(here, c.square, r)]
    else:
        # the army (heals), everyone but the user (allies admitted), else the
        # enemies: a mask of the bitset index, no character read to drop it
        mask = (st.side_bits(team, False) if heals else ~(1 << user.pos) if allies_too
                else st.side_bits(team, True))
        pool = st.within(here, r, mask)
    if not pool:
        return Candidates([], "no_target")
    if skill.targets_allies and not has_flag(st, user, PlanFlag.HEAL_UNHURT):
        pool = [c for c in pool if c.hp < c.max_hp]  # HP lost (Fighter.hp_lost) > 0
        if not pool:
            return Candidates([], "heal_guard")
    if restricts:
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
    # (the two clause reads are called only when the plan has such clauses:
    # most have none, and every use comes here, issue 18)
    plan = user.plan
    pref = preference_for(b, user, skill) if plan.target_prefs else NEAREST
    want = requested_extras(b, user, skill) if skill.can_extend and plan.extends else 0
    requested = EXTEND_MAX if want is None else want
    st = b.state
    if requested == 0 and pref.kind is PreferenceKind.NEAREST and st.box_is_range:
        near = _nearest_rings(st, user.square, pool, b.decisions)
        if near is not None:  # the pool's rings, nearest first (roster order in each)
            tied = near[0]
            primary = tied[0] if len(tied) == 1 else choose(b.rng, "ties", tied)
            ranked = list(chain.from_iterable(near)) if b.decisions else None
            return Choice([primary], base, requested, 0, ranked, pref)
    # The pool's keys, read once for the pick and the report's ranking
    # (``targets_chosen``, built only with the decision events, issue 18).
    keys = preference_keys(user, pref, pool, b.state, skill) if b.decisions else None
    ranked = _ranked(keys, pool) if keys is not None else None
    if requested > 0:
        ext = _extended_choice(b, user, skill, pool, base, requested, pref)
        if ext is not None:
            ext.ranked, ext.preference = ranked, pref
            return ext
    primary = _pick_first(b, user, pref, pool, skill) if keys is None else _pick_one(b, keys, pool)
    return Choice([primary], base, requested, 0, ranked, pref)


def _nearest_rings(st: BattleState, here: Square, pool: Sequence[Fighter],
                   every: bool) -> list[Sequence[Fighter]] | None:
    """An unextended use's nearest-first order (R-PLAN-4) read from the
    bitset index, for a metric whose range is its box: the pool's members
    ring by ring around ``here`` (distance 0, 1, ...), each in roster order
    -- the sort by (distance, roster index) of :func:`_ranked`, and the first
    ring is :func:`_pick_one`'s tie among the nearest.  No key per candidate
    (pools of a crowd hold a dozen candidates and more, issue 18).
    ``every``: all the rings (the ranking), else the first only.  None when
    the pool is not all living, distinct characters (a KO one is not in the
    index, R-D20-KO-2): then the keys decide.  The pool is in roster order,
    as every pool is (``candidates``)."""
    # an OR loop, not sum(map(attrgetter("bit"), pool)): 3.11's specialised
    # slot read beats attrgetter's call per candidate, and past 62
    # characters sum leaves its C-long fast path (callgrind: 1.1 k
    # instructions less for a dozen candidates at 32v32, issue 18)
    bits = 0
    for c in pool:
        bits |= c.bit
    living = st.living_bits
    if bits & living != bits or bits.bit_count() != len(pool):
        return None
    members, cache = st.members, st.member_cache
    # box_bits inline (the same four look-ups; the index does not change
    # while the rings are read): one call saved per ring, a dozen rings a
    # use at 32v32 (issue 18).  No cap on d as box_bits caps r: every bit is
    # a living character, all inside the box of size + 1, so the loop ends
    # by then.
    ranks, files = st.rank_below, st.file_below
    rk2, rk1 = st.pad + here.rank + 2, st.pad + here.rank + 1
    fl2, fl1 = st.pad + here.file + 2, st.pad + here.file + 1
    rings: list[Sequence[Fighter]] = []
    d = 0
    while bits:  # each ring: the box of d less the rings before (taken out of bits)
        ring = (ranks[rk2 + d] ^ ranks[rk1 - d]) & (files[fl2 + d] ^ files[fl1 - d]) & bits
        if ring:
            found = cache.get(ring)  # members' cache read inline: most rings of a crowd were asked
            if found is None:
                rings.append(members(ring))
            elif rings:  # a later ring is only joined into the ranking: the kept tuple itself, no copy
                rings.append(found)
            else:  # the first ring (the tie drawn among) as a list, as members gives it
                rings.append(list(found))
            if not every:
                break
            bits ^= ring  # (ring is a subset of bits)
        d += 1
    return rings


def _pick_one(b: Resolution, keys: Sequence[tuple[int, int]] | Sequence[int], pool: Sequence[Fighter]) -> Fighter:
    """``_pick_keyed(b, list(zip(keys, pool)), 1)[0]``: the least key, ties
    drawn on ``ties`` in pool order; a lone best is taken without asking the
    RNG (a choice among one draws nothing, R-RNG-1).  Found by C scans of
    the keys (every use picks its primary, issue 18)."""
    best = min(keys)
    if keys.count(best) == 1:
        return pool[keys.index(best)]
    return choose(b.rng, "ties", [c for k, c in zip(keys, pool) if k == best])


def _extended_choice(b: Resolution, user: Fighter, skill: Skill, pool: list[Fighter], base: tuple[int, ...],
                     requested: int, pref: Preference) -> Choice | None:
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

    groups: dict[int, list[Fighter]] = {}  # by roster position: each group is found once
    sizes: dict[int, int] = {}
    if st.box_is_range and not any(g.down for g in extras_pool):
        # R-EXT-8's group read from the bitset index (the metric's range is
        # its box; the index holds the living, so not with a KO candidate,
        # R-D20-KO-2): in range of the user, within 1 of the primary, among
        # the extras' pool, less the primary and the user -- extension_group's
        # answer (tests/engine/test_state_index.py), sized by a bit count and
        # listed only for the primary taken (issue 18)
        pool_bits = 0
        for g in extras_pool:
            pool_bits |= 1 << g.pos
        reach = skill.range

        def group(p: Fighter) -> list[Fighter]:
            return st.members(group_bits(st, user, p, reach, engaged, pool_bits))

        def size(p: Fighter) -> int:
            n = sizes.get(p.pos)
            if n is None:
                n = sizes[p.pos] = group_bits(st, user, p, reach, engaged, pool_bits).bit_count()
            return n
    else:
        keyed = [(g, g.square) for g in extras_pool]

        def group(p: Fighter) -> list[Fighter]:
            found = groups.get(p.pos)
            if found is None:
                found = groups[p.pos] = list(extension_group(st.metric, user.square, p.square, skill.range,
                                                             engaged, keyed, exclude=(p, user)))
            return found

        def size(p: Fighter) -> int:
            return len(group(p))

    def value(p: Fighter) -> tuple[int, int]:
        k = min(requested, size(p), affordable)
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
    primary = _pick_first(b, user, pref, field_, skill)
    k = value(primary)[1]
    if k == 0:
        return None
    extras = pick(b, user, pref, group(primary), k, skill)
    paid = plan_extension(panels, skill.cost, per, len(extras), base)
    return Choice([primary, *extras], base + paid, requested, len(extras))


def group_bits(st: BattleState, user: Fighter, primary: Fighter, skill_range: int, user_engaged: bool,
               pool_bits: int) -> int:
    """:func:`extension_group` read from the bitset index, as bits
    (``1 << pos``), for a metric whose range is its box (``box_is_range``)
    and living candidates ``pool_bits``: those in range of the user and
    within 1 of the primary (R-EXT-2), all in the user's area while it is
    engaged (R-EXT-4), less the user and the primary (R-EXT-5).  The same
    group (tests/engine/test_state_index.py), at a few ``&`` rather than two
    ``in_range`` calls per candidate (issue 18)."""
    here = user.square
    if not st.metric.in_range(here, primary.square, skill_range):
        return 0
    bits = pool_bits & ~(1 << user.pos) & ~(1 << primary.pos)
    if user_engaged:
        if primary.square != here:
            return 0
        return bits & st.box_bits(here, 0)
    return bits & st.box_bits(here, skill_range) & st.box_bits(primary.square, 1)


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
