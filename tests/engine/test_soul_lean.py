"""A soulwired battle never depends on a decision event being recorded
(issue 12 / the "lean" mode, which skips building them): resolving with
every decision event dropped at ``emit`` gives the same battle, event for
event, as the full record without them.  The soul move once popped its own
``stayed`` event back to read the deciding line; a lean run then lost the
line of ``move_end``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.board import Square
from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.core import Resolution
from referee.engine.rng import BattleRng
from referee.ruleset import load_ruleset
from referee.terrain import Terrain, TerrainObject

from .randombattle import random_setup

#: The decision events a lean run does not build.
DECISIONS = (E.SkillPassed, E.SkillOrder, E.TargetsChosen, E.PatternSelected, E.PanelsReset, E.Stayed)


def _setup(i: int):  # type: ignore[no-untyped-def]
    src = BattleRng(f"lean-{i}")

    def draw(n: int) -> int:
        return src.randrange("setup", n)

    setup = random_setup(draw, 2 + draw(5), text_plans=True)
    cells = sorted({(draw(8), draw(8)) for _ in range(draw(7))})
    kinds = [draw(3) for _ in cells]
    squares = [Square(file=f, rank=r) for f, r in cells]
    terrain = Terrain(tuple(s for s, k in zip(squares, kinds) if k == 0),
                      tuple(s for s, k in zip(squares, kinds) if k == 1),
                      tuple(TerrainObject(s, 1 + draw(5), draw(2)) for s, k in zip(squares, kinds) if k == 2))
    return replace(setup, terrain=terrain)


@pytest.mark.parametrize("i", range(12))
def test_soulwired_battle_is_the_same_without_decision_events(i: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = load_ruleset("soulwired")
    setup = _setup(i)
    full = [e.to_json() for e in resolve_battle(setup, rs, i).events if not isinstance(e, DECISIONS)]
    plain_emit = Resolution.emit

    def lean_emit(self: Resolution, event: E.Event) -> None:
        if not isinstance(event, DECISIONS):
            plain_emit(self, event)

    monkeypatch.setattr(Resolution, "emit", lean_emit)
    lean = [e.to_json() for e in resolve_battle(setup, rs, i).events]
    assert lean == full
