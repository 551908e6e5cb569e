"""What a condition can be, before any battle: always, never, or it depends.

The plan linter (:mod:`referee.plan.lint`) asks two questions of conditions
and must never answer wrongly (a false warning teaches players to ignore
warnings), so both answers here are *sound but incomplete*: ``None`` means
"cannot tell", never a guess.

* :func:`truth` -- ``True`` (always holds), ``False`` (never holds) or
  ``None``, from the ranges the numbers a condition reads can take
  (:class:`Bounds`: HP 0..max HP, R-CHAR-2, R-CHAR-2a;
  turns 1..the turn limit, R-TURN-9; head counts from the armies' sizes).
* :func:`implies` -- ``True`` only when ``a`` holding guarantees ``b`` holds
  (used for R-PLAN-5 shadowing: an earlier clause whose condition is weaker
  or equal always decides first).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.plan import ast as A

__all__ = ["Range", "Bounds", "truth", "implies", "op_holds"]

#: Numbers in plans are 0..9999 (docs/plan-language.md); one past that is "unbounded".
TOP = 10_000


@dataclass(frozen=True)
class Range:
    """Whole numbers ``lo..hi`` inclusive (``hi`` = :data:`TOP` when unknown)."""

    lo: int
    hi: int = TOP


@dataclass(frozen=True)
class Bounds:
    """The ranges a condition's numbers can take for one character.

    Defaults are what holds for any character under any battle.  HP may be 0
    when a condition is read: a character felled by a hit still makes that
    hit's counters (R-CHAR-2a), and ``use X only when`` / ``never use X when``
    also gate passives firing then (R-PLAN-5); for the same reason head
    counts may be 0.  A body of at least 1 gives max HP >= 4 (R-CHAR-1,
    R-CHAR-2).
    """

    self_hp: Range = Range(0)
    self_max_hp: Range = Range(4)
    ally_hp: Range = Range(0)
    ally_max_hp: Range = Range(4)
    target_hp: Range = Range(0)
    target_max_hp: Range = Range(4)
    turn: Range = Range(1)
    allies: Range = Range(0)
    enemies: Range = Range(0)
    own_classes: frozenset[str] | None = None


def op_holds(x: int, op: str, n: int) -> bool:
    """``x OP n`` for the plan's canonical operators."""
    return {"<": x < n, "<=": x <= n, "==": x == n, "!=": x != n, ">=": x >= n, ">": x > n}[op]


def _range_truth(r: Range, op: str, n: int) -> bool | None:
    """Whether ``x OP n`` holds for every / no ``x`` in ``r`` (else ``None``)."""
    if r.lo > r.hi:
        return None
    # x OP n over an interval is decided by its ends and by n itself (for == / !=).
    probes = {r.lo, r.hi} | ({n} if r.lo <= n <= r.hi else set())
    if op in ("==", "!="):
        inside = r.lo <= n <= r.hi
        single = r.lo == r.hi == n
        if op == "==":
            return True if single else (None if inside else False)
        return False if single else (None if inside else True)
    results = {op_holds(x, op, n) for x in probes}
    return results.pop() if len(results) == 1 else None


def _quantity(b: Bounds, subject: str, quantity: str) -> Range:
    hp, max_hp = {"self": (b.self_hp, b.self_max_hp), "ally": (b.ally_hp, b.ally_max_hp),
                  "target": (b.target_hp, b.target_max_hp)}[subject]
    if quantity == "hp":
        return Range(hp.lo, min(hp.hi, max_hp.hi))
    if quantity == "max_hp":
        return max_hp
    # hp lost = max HP - HP: 0 .. max HP (0 HP while answering the hit that felled it).
    return Range(0, max_hp.hi)


def truth(cond: A.Condition | None, b: Bounds) -> bool | None:
    """``True`` if ``cond`` always holds, ``False`` if it never does, else ``None``.

    ``None`` for a missing condition is never asked: callers treat "no
    condition" as "always" themselves.
    """
    if cond is None:
        return True
    if isinstance(cond, A.Compare):
        return _range_truth(_quantity(b, cond.subject, cond.quantity), cond.op, cond.value)
    if isinstance(cond, A.TurnCompare):
        return _range_truth(b.turn, cond.op, cond.value)
    if isinstance(cond, A.Count):
        side = b.allies if cond.side == "allies" else b.enemies
        # In range: nobody or up to everybody.
        lo = side.lo if cond.scope == "alive" else 0
        return _range_truth(Range(lo, side.hi), cond.op, cond.value)
    if isinstance(cond, A.Readies):
        if cond.subject == "self" and cond.skill_class is not None and b.own_classes is not None:
            return False if cond.skill_class not in b.own_classes else None
        return None
    if isinstance(cond, A.Not):
        inner = truth(cond.operand, b)
        return None if inner is None else not inner
    if isinstance(cond, A.And):
        parts = [truth(p, b) for p in cond.parts]
        return False if False in parts else (True if all(p is True for p in parts) else None)
    if isinstance(cond, A.Or):
        parts = [truth(p, b) for p in cond.parts]
        return True if True in parts else (False if all(p is False for p in parts) else None)
    return None  # engaged, bound, acting first/second: they depend on the battle


def _atom_key(c: A.Condition) -> tuple[object, ...] | None:
    """What a numeric atom compares, so two atoms on the same number can be compared."""
    if isinstance(c, A.Compare):
        return ("compare", c.subject, c.quantity)
    if isinstance(c, A.Count):
        return ("count", c.side, c.scope)
    if isinstance(c, A.TurnCompare):
        return ("turn",)
    return None


def _numeric_implies(a: A.Condition, b: A.Condition) -> bool:
    """``x OPa na`` implies ``x OPb nb`` for every whole x in 0..TOP.

    For ``ally``/``target`` subjects (some character satisfies it) this is
    still sound: the character that satisfies ``a`` satisfies ``b``.
    """
    key = _atom_key(a)
    if key is None or key != _atom_key(b):
        return False
    na, nb = getattr(a, "value"), getattr(b, "value")
    oa, ob = getattr(a, "op"), getattr(b, "op")
    # Only the points near the two thresholds can break the implication.
    probes = {0, TOP} | {v + d for v in (na, nb) for d in (-1, 0, 1) if 0 <= v + d <= TOP}
    return all(op_holds(x, ob, nb) for x in probes if op_holds(x, oa, na))


def implies(a: A.Condition | None, b: A.Condition | None) -> bool:
    """``True`` only if ``a`` holding guarantees ``b`` holds (``None`` = always)."""
    if b is None:
        return True
    if a is None:
        return False
    if a == b:
        return True
    if isinstance(b, A.Or) and any(implies(a, p) for p in b.parts):
        return True
    if isinstance(b, A.And) and all(implies(a, p) for p in b.parts):
        return True
    if isinstance(a, A.And) and any(implies(p, b) for p in a.parts):
        return True
    if isinstance(a, A.Or) and all(implies(p, b) for p in a.parts):
        return True
    return _numeric_implies(a, b)
