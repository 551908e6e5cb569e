"""Gase-Wiz's area selection (variant-wiz.md R-WIZ-AREA-3..7), as pure logic.

The seed's procedure (「グループに分ける」, 「グループ内の順番が繋がる」, 「グループを1つ
追加するごとに…−2」, <魔法変化>, <魔法増幅>) is a choice among *selections*:
whole groups plus at most one contiguous run of one other group.  The spec
fixes everything about a selection once its groups and run are known
(R-WIZ-AREA-6), so the referee's choice is a search over (whole groups,
partial run) pairs, ranked by R-WIZ-AREA-7's six tests.  No draw is made.

This module knows nothing of fighters, events or the RNG: it takes the
candidates as plain records and returns plain records, so the seed's
walkthroughs can be checked here number by number and the search can be
benchmarked on its own (``benchmarks/bench_wiz_area.py``).

Speed: the search is exhaustive but every selection is scored from per-group
prefix counts in constant time (tests 1-4); the rank lists of test 5 are
built only for selections still tied after test 4.  Whole-group sets are
enumerated depth-first and a branch is cut as soon as its slots and group
penalties already need more than every change and amplify level could give
(adding a group never lowers that need).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from referee.board import Square

__all__ = ["Role", "Candidate", "Member", "Group", "AreaParams", "TallyStep", "Selection",
           "area_groups", "select", "group_label"]

#: R-WIZ-AREA-4: what the user wants done to a member.
Role = Literal["wanted", "spared", "risked", "neutral"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A living character within range, as the selection needs it.

    :param index: roster index (R-RNG-1's canonical character order).
    :param preference: the user's target preference key for it (R-PLAN-4),
        smaller first; only read to rank wanted members (test 5).
    """

    name: str
    square: Square
    index: int
    role: Role
    preference: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Member:
    """A numbered member of a group (R-WIZ-AREA-3); ``rank`` is its place
    among the wanted members (R-WIZ-AREA-7 test 5), 0 when not wanted."""

    name: str
    number: int
    square: Square
    distance: int
    role: Role
    rank: int


@dataclass(frozen=True, slots=True)
class Group:
    label: str
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class AreaParams:
    """The numbers of one selection: the roll R, the cap A·B, the user's
    <魔法変化> L and <魔法増幅> M levels, the penalty g per extra group and
    the level cost of one exclusion (R-WIZ-AREA-5)."""

    roll: int
    cap: int
    change_levels: int
    amplify_levels: int
    group_penalty: int = 2
    exclusion_cost: int = 1


@dataclass(frozen=True, slots=True)
class TallyStep:
    """One step of the seed's walk-through (R-WIZ-EV-1): ``roll``, ``enter``,
    ``take``, ``change`` or ``amplify``; ``excluded`` are the member numbers
    left out in a ``take``; ``max`` and ``total`` after the step."""

    kind: str
    group: str | None
    amount: int
    excluded: tuple[int, ...]
    max: int
    total: int


@dataclass(frozen=True, slots=True)
class Selection:
    """The chosen selection (R-WIZ-AREA-5/6) or a fizzle (no legal one).

    ``partial`` is (label, from, to) or None; ``targets`` are the affected
    members in taking order (R-WIZ-AREA-8)."""

    whole: tuple[str, ...]
    partial: tuple[str, int, int] | None
    excluded: tuple[str, ...]
    change: int
    amplify: int
    penalty: int
    count: int
    slots: int
    levels: int
    targets: tuple[str, ...]
    tally: tuple[TallyStep, ...]
    fizzled: bool


def group_label(i: int) -> str:
    """A, B, ..., Z, then AA, AB, ... (more than 26 groups never fit a map
    of 16 characters, but a label is never ambiguous)."""
    label = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        label = chr(ord("A") + r) + label
    return label


def _square_key(sq: Square) -> tuple[int, int]:
    """R-RNG-1's canonical square order: a1, b1, ..., h1, a2, ..."""
    return (sq.rank, sq.file)


def area_groups(user_square: Square, cands: Sequence[Candidate],
                distance: Callable[[Square, Square], int]) -> tuple[Group, ...]:
    """R-WIZ-AREA-3: connected components under distance <= 1, members
    numbered by distance from the user, then square, then roster; groups
    labelled in the order of their first members.  Ranks (test 5) follow
    the preference, then distance, square and roster, over wanted members."""
    def key(c: Candidate) -> tuple[int, tuple[int, int], int]:
        return (distance(user_square, c.square), _square_key(c.square), c.index)

    ordered = sorted(cands, key=key)
    wanted = sorted((c for c in ordered if c.role == "wanted"), key=lambda c: (c.preference, *key(c)))
    rank = {c.name: i + 1 for i, c in enumerate(wanted)}
    # Components by square first: characters on one square always join.
    squares = sorted({c.square for c in ordered}, key=_square_key)
    parent = {sq: sq for sq in squares}

    def find(sq: Square) -> Square:
        while parent[sq] != sq:
            parent[sq] = parent[parent[sq]]
            sq = parent[sq]
        return sq

    for i, a in enumerate(squares):
        for b in squares[i + 1:]:
            if distance(a, b) <= 1:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[rb] = ra
    comps: dict[Square, list[Candidate]] = {}
    for c in ordered:  # already in member order, so each component is too
        comps.setdefault(find(c.square), []).append(c)
    firsts = sorted(comps.values(), key=lambda ms: key(ms[0]))
    return tuple(
        Group(group_label(gi), tuple(
            Member(c.name, n + 1, c.square, distance(user_square, c.square), c.role, rank.get(c.name, 0))
            for n, c in enumerate(ms)))
        for gi, ms in enumerate(firsts))


@dataclass(slots=True)
class _Prefix:
    """Per-group prefix counts: role counts of members 1..k."""

    size: int
    wanted: list[int]
    spared: list[int]
    risked: list[int]

    @staticmethod
    def of(g: Group) -> _Prefix:
        w, s, r = [0], [0], [0]
        for m in g.members:
            w.append(w[-1] + (m.role == "wanted"))
            s.append(s[-1] + (m.role == "spared"))
            r.append(r[-1] + (m.role == "risked"))
        return _Prefix(len(g.members), w, s, r)


@dataclass(frozen=True, slots=True)
class _Plan:
    """A legal selection's scores and its fixed quantities."""

    tests: tuple[int, int, int, int]   # -wanted affected, risked affected, levels, |S|
    whole: tuple[int, ...]              # group indices, by label
    partial: tuple[int, int, int] | None  # (group index, from, to), numbers from 1
    change: int
    amplify: int
    excluded_risked: int                # how many taken risked members are excluded
    slots: int


def _fix(p: AreaParams, slots: int, n_groups: int, has_partial: bool, spared: int, risked: int,
         wanted: int) -> tuple[int, int, int, int] | None:
    """R-WIZ-AREA-6 then the legality of R-WIZ-AREA-5: (change, amplify,
    excluded risked, levels), or None when illegal."""
    d = slots + p.group_penalty * (n_groups - 1) - p.roll
    if not has_partial and d <= 0:
        c = a = 0
    elif d < 0:
        c, a = d, 0
    else:
        a = min(p.amplify_levels, d)
        c = d - a
    if abs(c) > p.change_levels or not 0 <= p.roll + c <= p.cap:
        return None
    levels = abs(c) + p.exclusion_cost * spared
    if levels > p.change_levels or wanted == 0:
        return None
    left = p.change_levels - levels
    extra = risked if p.exclusion_cost == 0 else min(risked, left // p.exclusion_cost)
    return c, a, extra, levels + p.exclusion_cost * extra


def _candidates(groups: Sequence[Group], p: AreaParams) -> list[_Plan]:
    """Every legal selection tied best on tests 1-4 (R-WIZ-AREA-7)."""
    pre = [_Prefix.of(g) for g in groups]
    n = len(groups)
    best: list[_Plan] = []
    best_tests: tuple[int, int, int, int] | None = None
    budget = p.change_levels + p.amplify_levels

    def consider(whole: tuple[int, ...], partial: tuple[int, int, int] | None, slots: int,
                 wanted: int, spared: int, risked: int) -> None:
        nonlocal best_tests
        n_groups = len(whole) + (partial is not None)
        fixed = _fix(p, slots, n_groups, partial is not None, spared, risked, wanted)
        if fixed is None:
            return
        c, a, extra, levels = fixed
        tests = (-wanted, risked - extra, levels, n_groups)
        if best_tests is None or tests < best_tests:
            best_tests = tests
            best.clear()
        if tests == best_tests:
            best.append(_Plan(tests, whole, partial, c, a, extra, slots))

    # Bounds for the search (each one only cuts what cannot win):
    # the wanted members groups start.. could still add, whole ...
    wanted_after = [0] * (n + 1)
    for gi in range(n - 1, -1, -1):
        wanted_after[gi] = wanted_after[gi + 1] + pre[gi].wanted[-1]
    # ... and the most one partial run could add (shorter than its group).
    best_run = max((max(pr.wanted[j] - pr.wanted[i] for i in range(pr.size) for j in range(i + 1, pr.size + 1)
                        if j - i < pr.size) if pr.size > 1 else 0 for pr in pre), default=0)

    def hopeless(wanted: int, start: int) -> bool:
        """Test 1: even every later group and the best run cannot reach the
        most wanted members a selection found so far affects."""
        return best_tests is not None and wanted + wanted_after[start] + best_run < -best_tests[0]

    def walk(start: int, whole: tuple[int, ...], slots: int, wanted: int, spared: int, risked: int) -> None:
        n_groups = len(whole)
        if n_groups:
            consider(whole, None, slots, wanted, spared, risked)
        # Once the whole groups need no lowering (d >= 0), a group or run with
        # no wanted member only makes a selection worse: the same one without
        # it affects as many wanted, no more risked, with no more levels and
        # fewer groups (R-WIZ-AREA-6/7), so it is not tried.
        no_lowering = n_groups > 0 and slots + p.group_penalty * (n_groups - 1) - p.roll >= 0
        # A partial run of a group not taken whole (one more group, its penalty).
        chosen = set(whole)
        for gi in range(n):
            if gi in chosen or (no_lowering and pre[gi].wanted[-1] == 0):
                continue
            pr = pre[gi]
            for i in range(pr.size):
                for j in range(i + 1, pr.size + 1):
                    if j - i >= pr.size:
                        break  # a partial run is shorter than its group
                    t = slots + j - i
                    if t + p.group_penalty * n_groups - p.roll > budget:
                        break  # longer runs only need more
                    consider(whole, (gi, i + 1, j), t, wanted + pr.wanted[j] - pr.wanted[i],
                             spared + pr.spared[j] - pr.spared[i], risked + pr.risked[j] - pr.risked[i])
        for gi in range(start, n):
            pr = pre[gi]
            t = slots + pr.size
            if t + p.group_penalty * n_groups - p.roll > budget:
                continue  # this group whole is already too many; a later, smaller one may fit
            if no_lowering and pr.wanted[-1] == 0:
                continue
            if hopeless(wanted + pr.wanted[-1], gi + 1):
                continue
            walk(gi + 1, (*whole, gi), t, wanted + pr.wanted[-1], spared + pr.spared[-1], risked + pr.risked[-1])

    walk(0, (), 0, 0, 0, 0)
    return best


def _taken(groups: Sequence[Group], plan: _Plan) -> list[tuple[Group, list[Member]]]:
    """The taken members, group by group, in taking order (R-WIZ-AREA-6)."""
    out = [(groups[gi], list(groups[gi].members)) for gi in plan.whole]
    if plan.partial is not None:
        gi, lo, hi = plan.partial
        out.append((groups[gi], list(groups[gi].members[lo - 1:hi])))
    return out


def _ranks(groups: Sequence[Group], plan: _Plan) -> tuple[int, ...]:
    return tuple(sorted(m.rank for _, ms in _taken(groups, plan) for m in ms if m.role == "wanted"))


def _final_key(groups: Sequence[Group], plan: _Plan) -> tuple[object, ...]:
    """Tests 5 and 6 of R-WIZ-AREA-7 (tests 1-4 are tied)."""
    labels = sorted([groups[gi].label for gi in plan.whole]
                    + ([groups[plan.partial[0]].label] if plan.partial else []))
    part: tuple[int, str, int, int] = (0, "", 0, 0)
    if plan.partial is not None:
        gi, lo, hi = plan.partial
        part = (1, groups[gi].label, lo, hi - lo)
    return (_ranks(groups, plan), "".join(labels), part)


def _fizzle(p: AreaParams) -> Selection:
    return Selection((), None, (), 0, 0, 0, 0, 0, 0, (), (TallyStep("roll", None, p.roll, (), p.roll, 0),), True)


def select(groups: Sequence[Group], p: AreaParams) -> Selection:
    """R-WIZ-AREA-5..7: the referee's selection; a fizzle when none is legal."""
    tied = _candidates(groups, p)
    if not tied:
        return _fizzle(p)
    plan = min(tied, key=lambda pl: _final_key(groups, pl))
    taken = _taken(groups, plan)
    excluded: list[Member] = [m for _, ms in taken for m in ms if m.role == "spared"]
    risked = [m for _, ms in taken for m in ms if m.role == "risked"]
    excluded += risked[:plan.excluded_risked]
    out = {m.name for m in excluded}
    # Affected = taken and not excluded (R-WIZ-AREA-5), neutral members too:
    # a taken slot the user may not leave out by a level.
    targets = tuple(m.name for _, ms in taken for m in ms if m.name not in out)
    n_groups = len(taken)
    penalty = p.group_penalty * (n_groups - 1)
    levels = abs(plan.change) + p.exclusion_cost * len(excluded)
    return Selection(
        whole=tuple(groups[gi].label for gi in plan.whole),
        partial=None if plan.partial is None else (groups[plan.partial[0]].label, plan.partial[1], plan.partial[2]),
        excluded=tuple(m.name for m in excluded), change=plan.change, amplify=plan.amplify, penalty=penalty,
        count=p.roll + plan.change + plan.amplify - penalty, slots=plan.slots, levels=levels,
        targets=targets, tally=_tally(p, taken, plan.change, plan.amplify, out), fizzled=False)


def _tally(p: AreaParams, taken: Sequence[tuple[Group, list[Member]]], change: int, amplify: int,
           out: set[str]) -> tuple[TallyStep, ...]:
    """R-WIZ-EV-1's tally: roll; per group ``enter`` (from the second) and
    ``take``; ``change`` then ``amplify`` just before the first step after
    which the total would exceed the maximum without them (last when the
    change lowers)."""
    plain: list[tuple[str, str | None, int, tuple[int, ...]]] = []
    for i, (g, ms) in enumerate(taken):
        if i:
            plain.append(("enter", g.label, -p.group_penalty, ()))
        plain.append(("take", g.label, len(ms), tuple(m.number for m in ms if m.name in out)))
    adjust = [(k, v) for k, v in (("change", change), ("amplify", amplify)) if v]
    at = len(plain)
    if change >= 0 and adjust:
        mx, total = p.roll, 0
        for i, (kind, _, amount, _) in enumerate(plain):
            mx, total = (mx + amount, total) if kind == "enter" else (mx, total + amount)
            if total > mx:
                at = i
                break
    steps = [TallyStep("roll", None, p.roll, (), p.roll, 0)]
    mx, total = p.roll, 0
    seq = plain[:at] + [(k, None, v, ()) for k, v in adjust] + plain[at:]
    for kind, label, amount, excl in seq:
        if kind == "take":
            total += amount
        else:
            mx += amount
        steps.append(TallyStep(kind, label, amount, excl, mx, total))
    return tuple(steps)
