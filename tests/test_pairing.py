"""Swiss pairing over random tournaments of 4-64 players (hypothesis), and
the round-robin and bracket schedules.

The tournaments are played on paper: the ledger's results are drawn at
random (wins, draws, losses), players drop, and each round is paired from
the standings the same code computes for ``referee tournament standings``."""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

import networkx as nx
from hypothesis import given, settings, strategies as st

from referee.app.ledger import BattleRecord, RoundRecord
from referee.app.pairing import ArmyRecord, bracket_order, pair_elimination, pair_round_robin, pair_swiss
from referee.app.ranking import Rules, rank
from referee.app.tournament import Army, Costs, Player, Points, Round, Tournament
from referee.app.tourney import plan_round


def tournament(n: int, rounds: int, drops: dict[int, int]) -> Tournament:
    import datetime as dt

    players = tuple(Player(f"p{i:02d}", f"P{i}", (f"s{i}.yaml",), f"p{i:02d}", drops.get(i)) for i in range(n))
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    return Tournament(root=Path("."), name="T", format="swiss", ruleset="tcgt", army_size=1, points=Points(),
                      tiebreaks=("points", "opponents-points", "survivors", "hp-margin", "head-to-head", "lot"),
                      costs=Costs(), draw_rule=("survivors",), visibility="after-round", timezone="UTC", lang="en",
                      players=players, rounds=tuple(Round(r, f"r{r}", f"r{r}/reports", start + dt.timedelta(days=r))
                                                    for r in range(1, rounds + 1)),
                      armies=tuple(Army(p.id, (p,)) for p in players))


def play(t: Tournament, rng: random.Random, timings: list[float] | None = None) -> list[RoundRecord]:
    """Every round paired by :func:`plan_round` and given random results
    (``timings``: each pairing's seconds, for benchmarks/bench_tournament.py)."""
    ledger: list[RoundRecord] = []
    for spec in t.rounds:
        start = time.perf_counter()
        paired = plan_round(t, spec.number, ledger)
        if timings is not None:
            timings.append(time.perf_counter() - start)
        battles = []
        for b in paired.battles:
            winner = rng.choice(("white", "black", "draw"))
            left = {"white": rng.randint(0, 3), "black": rng.randint(0, 3)}
            battles.append(BattleRecord(spec.number, b.battle, b.white, b.black, "ok", winner, rng.randint(0, 99), 10,
                                        {p: left[t2] for t2 in ("white", "black") for p in b.side(t2).players},
                                        left, {k: 4 * v for k, v in left.items()}))
        ledger.append(RoundRecord(spec.number, True, True, tuple(battles), paired.byes, paired.left_out))
    return ledger


def rematch_free_possible(active: list[str], met: dict[str, set[str]]) -> bool:
    """Whether the active players can all be paired (one bye when odd, to a
    player who had none is not asked here) without a rematch."""
    graph = nx.Graph()
    graph.add_nodes_from(active)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(active, 2) if b not in met[a])
    return len(nx.max_weight_matching(graph, maxcardinality=True)) == len(active) // 2


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Tournament, int]:
    n = draw(st.integers(4, 64))
    rounds = draw(st.integers(1, min(6, n - 1)))
    drops = draw(st.dictionaries(st.integers(0, n - 1), st.integers(2, rounds + 1) if rounds > 1 else st.just(2),
                                 max_size=max(0, (n - rounds - 2) // 2)))
    return tournament(n, rounds, {k: v for k, v in drops.items() if v <= rounds}), draw(st.integers(0, 2 ** 32))


@settings(max_examples=40)
@given(tournaments())
def test_swiss_pairings_hold_their_promises(case: tuple[Tournament, int]) -> None:
    t, seed = case
    ledger = play(t, random.Random(seed))
    met: dict[str, set[str]] = {p.id: set() for p in t.players}
    byes: dict[str, int] = {p.id: 0 for p in t.players}
    for record in ledger:
        active = [p.id for p in t.players if p.plays(record.number)]
        seen = [p for b in record.battles for p in (*b.white.players, *b.black.players)]
        seen += [p for s in record.byes for p in s.players]
        # every active player in exactly one battle (or the one bye), dropped players in none
        assert sorted(seen) == sorted(active)
        assert len(record.byes) == len(active) % 2
        if record.byes:
            (bye,) = record.byes[0].players
            assert byes[bye] == 0 or all(byes[p] for p in active), "a second bye while another could take it"
            byes[bye] += 1
        pairs = [(b.white.players[0], b.black.players[0]) for b in record.battles]
        rematches = [pair for pair in pairs if pair[1] in met[pair[0]]]
        if rematches:
            assert not rematch_free_possible(active, met) or len(active) % 2, rematches
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
    # scores add up: each player's points are the sum of what each round gave them
    standing = rank(Rules(t.points, t.tiebreaks, tuple(p.id for p in t.players), tuple(a.id for a in t.armies),
                          {p.id: p.id for p in t.players}), ledger)
    for entry in standing.players:
        want = 0
        for record in ledger:
            want += sum(t.points.bye for s in record.byes if entry.id in s.players)
            for b in record.battles:
                for team in ("white", "black"):
                    if entry.id in b.side(team).players:
                        want += (t.points.draw if b.winner == "draw" else
                                 t.points.win if b.winner == team else t.points.loss)
        assert entry.points == want
    # the same inputs give the same pairings
    assert [r.battles for r in play(t, random.Random(seed))] == [r.battles for r in ledger]


@settings(max_examples=25)
@given(st.integers(4, 40), st.integers(0, 2 ** 32))
def test_no_rematch_when_an_odd_field_can_avoid_one(n: int, seed: int) -> None:
    """With a bye in every round the promise still holds: counted with the
    bye as a player who meets anyone who has not had it."""
    t = tournament(n, min(5, n - 2), {})
    ledger = play(t, random.Random(seed))
    met: dict[str, set[str]] = {p.id: set() for p in t.players}
    had_bye: set[str] = set()
    for record in ledger:
        pairs = [(b.white.players[0], b.black.players[0]) for b in record.battles]
        active = [p.id for p in t.players]
        graph_met = {**{p: set(m) for p, m in met.items()}, "BYE": set(had_bye)}
        for p in had_bye:
            graph_met[p].add("BYE")
        field = active + (["BYE"] if len(active) % 2 else [])
        if any(b in met[a] for a, b in pairs):
            assert not rematch_free_possible(field, graph_met)
        for a, b in pairs:
            met[a].add(b)
            met[b].add(a)
        had_bye.update(p for s in record.byes for p in s.players)


def test_first_round_pairs_neighbours_and_balances_sides() -> None:
    records = [ArmyRecord(f"a{i}") for i in range(6)]
    pairing = pair_swiss(records, Costs(), 1)
    assert pairing.byes == ()
    assert {frozenset(b) for b in pairing.battles} == {frozenset(("a0", "a1")), frozenset(("a2", "a3")),
                                                       frozenset(("a4", "a5"))}
    two = pair_swiss([ArmyRecord("x", whites=1), ArmyRecord("y", blacks=1)], Costs(), 2)
    assert two.battles == (("y", "x"),), "the army that was White plays Black"


def test_the_bye_goes_to_the_lowest_placed_army_that_has_had_none() -> None:
    records = [ArmyRecord("top", 6), ArmyRecord("mid", 3), ArmyRecord("low", 0, byes=1), ArmyRecord("lower", 0),
               ArmyRecord("last", 0, byes=1)]
    assert pair_swiss(records, Costs(), 3).byes == ("lower",)


def test_round_robin_meets_everyone_once_and_gives_the_dropped_armys_opponent_a_bye() -> None:
    armies = [f"a{i}" for i in range(5)]
    seen = set()
    for r in range(1, 6):
        pairing = pair_round_robin(armies, r, lambda a: True)
        assert len(pairing.byes) == 1
        for w, b in pairing.battles:
            assert frozenset((w, b)) not in seen
            seen.add(frozenset((w, b)))
    assert len(seen) == 10
    full = pair_round_robin(armies, 1, lambda a: True)
    gone = full.battles[0][0]
    dropped = pair_round_robin(armies, 1, lambda a: a != gone)
    assert dropped.battles == full.battles[1:]
    assert set(dropped.byes) == {*full.byes, full.battles[0][1]}


def test_a_bracket_keeps_the_top_seeds_apart_and_gives_them_the_byes() -> None:
    assert bracket_order(4) == [1, 4, 2, 3]
    seeds = [f"s{i}" for i in range(1, 7)]
    entrants = [seeds[s - 1] if s <= 6 else None for s in bracket_order(8)]
    pairing, bracket = pair_elimination(entrants, 1)
    assert set(pairing.byes) == {"s1", "s2"}
    assert {frozenset(b) for b in pairing.battles} == {frozenset(("s4", "s5")), frozenset(("s3", "s6"))}
    assert len(bracket) == 4
