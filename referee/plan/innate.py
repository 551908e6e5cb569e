"""Skills every character has without listing them (R-ORM-ACT-5's normal
attack, 通常攻撃), as plans and ``referee check`` name them (R-ORM-PLAN-1).

Only the names and classes live here (what a plan check needs: ``extend
normal-attack`` is refused because it is not classed extend); its numbers are
the ruleset's (``action.normal_attack``) and the engine builds the skill it
fights with from them (``engine/mechanics/orm_turn.py``).
"""

from __future__ import annotations

from typing import Any

from referee.catalog import Skill, normalize_name
from referee.elements import Element
from referee.mechanicspec import ORM_NORMAL_ATTACK

__all__ = ["NORMAL_ATTACK", "innate_skill", "WithInnateSkills"]

#: The normal attack as plans name it; range and power are placeholders here.
NORMAL_ATTACK = Skill(id="normal-attack", name_ja="通常攻撃", reading="つうじょうこうげき", name_en="Normal Attack",
                      cost=(), level=0, classes=("attack",), range=1, targets="enemies", element=Element.SWORD,
                      damage=2)
_SPELLINGS = {normalize_name(s): NORMAL_ATTACK for s in ("normal-attack", "Normal Attack", "通常攻撃", "つうじょうこうげき")}


def innate_skill(name: str) -> Skill | None:
    """The innate skill ``name`` spells, else None."""
    return _SPELLINGS.get(normalize_name(name))


class WithInnateSkills:
    """A catalogue that also resolves the innate skills' spellings; given to
    the plan check when the ruleset's features include the normal attack."""

    feature = ORM_NORMAL_ATTACK

    def __init__(self, catalog: Any) -> None:
        self._catalog = catalog

    def resolve(self, name: str) -> Any:
        return self._catalog.resolve(name) or innate_skill(name)

    def did_you_mean(self, name: str) -> str | None:
        hint: str | None = self._catalog.did_you_mean(name)
        return hint
