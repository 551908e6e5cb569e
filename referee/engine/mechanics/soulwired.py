"""soulwired's mechanics (``../shared/spec/variant-soulwired.md``): the
implementations ``referee/data/rulesets/soulwired.yaml`` will name.

Built so far: the ability initiative (R-SOUL-INIT-1).  Like tcgt's, each is
stateless; what a battle remembers lives on ``BattleState``/``Fighter``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine import events as E
from referee.engine.core import Resolution
from referee.engine.state import Fighter
from referee.mechanicspec import Ability

__all__ = ["AbilityInitiative"]


@dataclass(frozen=True, slots=True)
class AbilityInitiative:
    """R-SOUL-INIT-1: descending ``ability`` (reflex), the same order every
    turn.  Characters sharing a score roll one ``tie_die`` each in roster
    order; then, round by round, those whose rolls still equal another's of
    the same score roll once more, in roster order; rolls compare element by
    element, higher first.  Rolled once per battle (「ミッション終了まで維持」)."""

    ability: Ability = "reflex"
    tie_die: int = 100

    @property
    def each_turn(self) -> bool:
        return False

    def order(self, ctx: Resolution, fighters: Sequence[Fighter]) -> list[Fighter]:
        score = {f.name: f.abilities[self.ability] for f in fighters}
        rolls: dict[str, list[int]] = {f.name: [] for f in fighters}
        tied = [f for f in fighters if sum(1 for g in fighters if score[g.name] == score[f.name]) > 1]
        while tied:
            for f in tied:
                rolls[f.name].append(ctx.rng.die("initiative", self.tie_die))
            keys = [(score[f.name], tuple(rolls[f.name])) for f in fighters]
            tied = [f for f, key in zip(fighters, keys) if keys.count(key) > 1]
        ranked = sorted(fighters, key=lambda f: (-score[f.name], tuple(-r for r in rolls[f.name]), f.index))
        for f in ranked:
            ctx.emit(E.InitiativeRanked(turn=ctx.turn, actor=f.name, ability=self.ability,
                                        score=score[f.name], tie_rolls=tuple(rolls[f.name]),
                                        rule="R-SOUL-INIT-1"))
        return ranked
