"""R-PLAN-4's order of candidates, as properties of ``preference_key``,
``pick`` and ``rank`` on drawn positions: the preference's own key first,
then the nearest in the range metric; a tie drawn on ``ties`` among exactly
the tied candidates in roster order, a lone best drawing nothing (R-RNG-1);
the report's ranking is that order with ties in roster order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from referee.engine.clauses import Preference, PreferenceKind
from referee.engine.mechanics.metric import Chebyshev
from referee.engine.mechanics.orm import Manhattan
from referee.engine.targeting import pick, preference_key, rank

from .positions import Piece, Probe, pieces, position, resolution

KINDS = (PreferenceKind.NEAREST, PreferenceKind.FARTHEST, PreferenceKind.LOWEST_HP, PreferenceKind.HIGHEST_HP,
         PreferenceKind.MOST_HP_LOST, PreferenceKind.LEAST_HP_LOST, PreferenceKind.NAMED)

#: What each preference puts first, in the rule's words (R-PLAN-4), as a
#: number smaller first (nearest: nothing before the distance).
FIRST = {
    PreferenceKind.LOWEST_HP: lambda c, d, name: c.hp,
    PreferenceKind.HIGHEST_HP: lambda c, d, name: -c.hp,
    PreferenceKind.MOST_HP_LOST: lambda c, d, name: c.hp - c.max_hp,
    PreferenceKind.LEAST_HP_LOST: lambda c, d, name: c.max_hp - c.hp,
    PreferenceKind.NAMED: lambda c, d, name: int(c.name != name),
    PreferenceKind.NEAREST: lambda c, d, name: 0,
    PreferenceKind.FARTHEST: lambda c, d, name: -d,
}

drawn = st.tuples(pieces(most=10), st.sampled_from(KINDS), st.integers(0, 20), st.booleans(),
                  st.integers(0, 9))


def _case(case: tuple[list[Piece], PreferenceKind, int, bool, int]):  # type: ignore[no-untyped-def]
    found, kind, answer, manhattan, named = case
    state = position(found, metric=Manhattan() if manhattan else Chebyshev())
    user, pool = state.fighters[0], state.fighters[1:]
    pref = Preference(kind=kind, name=state.fighters[named % len(state.fighters)].name)
    return state, user, pool, pref, answer


@given(drawn)
def test_the_pick_is_a_least_key_and_a_tie_is_drawn_among_the_tied_in_roster_order(case) -> None:  # type: ignore[no-untyped-def]
    state, user, pool, pref, answer = _case(case)
    if not pool:
        return
    keys = [preference_key(user, pref, c, state) for c in pool]
    for c, (first, d) in zip(pool, keys):  # the rule's words: its own key, then the range metric's distance
        assert d == state.metric.distance(user.square, c.square)
        assert FIRST[pref.kind](c, d, pref.name) == first
    tied = [c for c, k in zip(pool, keys) if k == min(keys)]
    probe = Probe(answer)
    chosen = pick(resolution(state, probe), user, pref, pool, 1)
    assert chosen == [tied[answer % len(tied)]]
    assert probe.asked == ([("ties", len(tied))] if len(tied) > 1 else [])


@given(drawn, st.integers(0, 10))
def test_picking_several_takes_them_best_first_without_repeats(case, n: int) -> None:  # type: ignore[no-untyped-def]
    state, user, pool, pref, _ = _case(case)
    chosen = pick(resolution(state, Probe(0)), user, pref, pool, n)
    ranked = rank(user, pref, pool, state)
    assert chosen == ranked[:n]  # first of each tie: roster order, as the ranking
    assert sorted(c.index for c in ranked) == [c.index for c in pool]
    order = [(preference_key(user, pref, c, state), c.index) for c in ranked]
    assert order == sorted(order)
