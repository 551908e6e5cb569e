"""The battle state's kept indexes (issue 18) equal a recount after every
event: the occupancy by square and the standing members of each army are
changed only by ``BattleState.move`` and ``BattleState.set_down``, and every
change of a character's square or down flag -- variants' included (d20pool's
KO and revival, knockback, orm's given-back steps, soulwired's look-ahead
undo, the narrowing, setup draws) -- goes through them."""

from __future__ import annotations

import ast
import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.board import Square
from referee.engine.battle import resolve_battle
from referee.engine.core import Resolution
from referee.engine.rng import BattleRng
from referee.terrain import Terrain

from .helpers import ruleset
from .randombattle import random_setup
from .test_properties_d20pool import D20_CLAUSES

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("tcgt", "orm", "wiz", "soulwired", "d20pool")


@pytest.fixture
def checked_emit(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Check the kept indexes against a recount before every event is recorded."""
    original = Resolution.emit
    counted = [0]

    def emit(self: Resolution, event: Any) -> None:
        errors = self.state.index_errors()
        assert not errors, (event, errors)
        counted[0] += 1
        original(self, event)

    monkeypatch.setattr(Resolution, "emit", emit)
    return counted


def _setup(name: str, seed: int, size: int) -> Any:
    src = BattleRng(f"index-{name}-{seed}")
    draw = lambda n: src.randrange("setup", n)  # noqa: E731 (input generation only)
    setup = random_setup(draw, size, text_plans=True, extra=D20_CLAUSES if name == "d20pool" else ())
    if name == "orm":
        combatants = tuple(replace(c, sheet=replace(c.sheet, max_hp=10 * c.sheet.body)) for c in setup.combatants)
        blocked = tuple(Square(draw(8), 2 + draw(4)) for _ in range(draw(3)))
        setup = replace(setup, combatants=combatants, terrain=Terrain(blocked=blocked) if blocked else None)
    if name == "wiz" or (name == "soulwired" and draw(2)):
        setup = replace(setup, order=None)
    return setup


@pytest.mark.parametrize("name", RULESETS)
def test_kept_indexes_equal_a_recount_after_every_event(name: str, checked_emit: list[int]) -> None:
    rs = ruleset(name)
    for seed in range(12):
        size = (1, 2, 4, 8)[seed % 4]
        record = resolve_battle(_setup(name, seed, size), rs, seed)
        assert record.result is not None
    assert checked_emit[0] > 1000  # the check really ran


def test_no_square_or_down_is_assigned_outside_the_state() -> None:
    """Every ``x.square = ...`` / ``x.down = ...`` in the engine is inside
    ``BattleState`` or ``Fighter.__init__`` (a new one would bypass the kept
    indexes)."""
    offenders = []
    for path in sorted((ROOT / "referee" / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            flat: list[ast.expr] = []
            for t in targets:
                flat.extend(t.elts if isinstance(t, ast.Tuple) else [t])
            for t in flat:
                if isinstance(t, ast.Attribute) and t.attr in ("square", "down"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    allowed = {"referee/engine/state.py"}
    assert [o for o in offenders if o.split(":")[0] not in allowed] == []


def test_every_range_metric_stays_inside_the_chebyshev_box() -> None:
    """``BattleState.near`` narrows range scans to the Chebyshev box of the
    range (issue 18): every registered range metric must never reach beyond
    it (``in_range(a, b, r)`` implies both the file and rank gaps are <= r)."""
    from referee.board import Square as Sq
    from referee.engine.mechanics.registry import RANGE
    from referee.mechanicspec import PlainSpec

    squares = [Sq(f, r) for f in range(-1, 9) for r in range(-1, 9)]
    assert RANGE.kinds()
    for kind in RANGE.kinds():
        metric = RANGE.build(PlainSpec(kind))
        for a in squares:
            for b in squares:
                for r in range(0, 5):
                    if metric.in_range(a, b, r):
                        assert abs(a.file - b.file) <= r and abs(a.rank - b.rank) <= r, (kind, a, b, r)


@pytest.mark.parametrize("size", [1, 4, 16])
def test_near_equals_a_scan_of_the_army(size: int) -> None:
    """``near`` returns exactly the living characters of the box, in roster
    order, whenever it does not defer to a scan (None)."""
    from referee.engine.state import BattleState

    setup = _setup("tcgt", size, size)
    record_state: list[BattleState] = []
    original = Resolution.emit

    def emit(self: Resolution, event: Any) -> None:
        if not record_state:
            record_state.append(self.state)
        original(self, event)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Resolution, "emit", emit)
        resolve_battle(setup, ruleset("tcgt"), size)
    state = record_state[0]
    seen = 0
    for f in state.fighters:
        for r in range(0, 4):
            near = state.near(f.square, r)
            if near is None:
                continue
            seen += 1
            box = [g for g in state.fighters if not g.down and abs(g.square.file - f.square.file) <= r
                   and abs(g.square.rank - f.square.rank) <= r]
            assert near == box
    assert size < 16 or seen > 0


def test_members_lists_every_bit_in_roster_order() -> None:
    """``members`` reads one-digit bitsets bit by bit and wider ones byte by
    byte (issue 18): both list the characters of every bit set, low to high,
    for rosters past 30 and past 64 characters."""
    import random
    from types import SimpleNamespace

    from referee.engine.state import BattleState

    draw = random.Random(18)
    for size in (8, 31, 64, 200):
        kept = SimpleNamespace(fighters=[f"c{i}" for i in range(size)], member_cache={})
        for _ in range(300):
            bits = draw.getrandbits(size) & draw.getrandbits(size)
            want = [kept.fighters[i] for i in range(size) if bits >> i & 1]
            assert BattleState.members(kept, bits) == want, (size, bits)  # type: ignore[arg-type]
            assert BattleState.members(kept, bits) == want  # the cached answer
