"""Typed battle events: the single record every report is rendered from.

``to_json`` gives the stable field names of interfaces.md: ``type``,
``turn``, and where they apply ``actor``, ``skill`` (id), ``targets``
(names), squares as ``"c3"``, ``amount``, ``hp_after``, ``rule`` and
``cause``.  Every HP loss is one :class:`Damage` naming one ``target``;
every move or push is one event with ``from`` and ``to``.
:func:`event_from_json` inverts ``to_json`` exactly.

The events live by ruleset family: :mod:`.base` (the :class:`Event` base,
its codec, the battle's result), :mod:`.tcgt` (the events every ruleset
writes), then one module per variant family.  A ruleset that needs events
of its own adds a module beside them, with its classes and their
``EVENTS`` tuple, and names it in :data:`FAMILIES` (docs/events.md).

docs/events.md documents every type; a test checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.events import d20pool, orm, soulwired, tcgt, wiz
from referee.engine.events.base import (
    Event, Decoders, JSON_NAMES, json_value, parse_squares, FinalCharacter, BattleResult,
)
from referee.engine.events.tcgt import (
    BattleStart, Placed, InitiativeRoll, ActionOrder, TurnStart, ActionStart, ActionEnd, PatternSelected,
    PanelsReset, SkillOrder, SkillPassed, TargetsChosen, SkillUsed, MaintainStarted, MaintainReleased, ChanceRoll,
    Obstructed, Reaction, CounterMissed, Damage, Heal, PanelUsed, StatusApplied, StatusNoEffect, StatusExpired,
    StatusCleansed, Knockback, SinkStarted, SinkEnded, Moved, Stayed, Narrowing, Pushed, Down, BattleEnd,
    EXTEND_MAX,
)
from referee.engine.events.d20pool import (
    TurnRoll, TurnSelected, D20Check, HitTest, Margin, Support, MoveEnd, Ridden, Revived,
)
from referee.engine.events.orm import (
    InitiativeScore, InitiativeTie, PhaseStart, SimpleUse, Nd6Check, OpposedResult, DamageRoll, HealRoll, FollowUp,
)
from referee.engine.events.soulwired import (
    InitiativeRanked, D6Check, Evasion, EvasionDice, TurnStalled, HardMode, Terrain, Stance, MovePhase, Armour,
    ObjectHit, ObjectDestroyed,
)
from referee.engine.events.wiz import (
    InitiativeValue, D100Check, Cast, CastResolves, CastLost, AreaRoll, AreaGroups, AreaSelection, Aimed, AimLost,
)

__all__ = [
    "FAMILIES", "EVENT_TYPES", "DECISION_TYPES", "is_decision", "event_from_json", "Event", "Decoders",
    "JSON_NAMES", "json_value", "parse_squares", "FinalCharacter", "BattleResult", "BattleStart", "Placed",
    "InitiativeRoll", "ActionOrder", "TurnStart", "ActionStart", "ActionEnd", "PatternSelected", "PanelsReset",
    "SkillOrder", "SkillPassed", "TargetsChosen", "SkillUsed", "MaintainStarted", "MaintainReleased", "ChanceRoll",
    "Obstructed", "Reaction", "CounterMissed", "Damage", "Heal", "PanelUsed", "StatusApplied", "StatusNoEffect",
    "StatusExpired", "StatusCleansed", "Knockback", "SinkStarted", "SinkEnded", "Moved", "Stayed", "Narrowing",
    "Pushed", "Down", "BattleEnd", "EXTEND_MAX", "TurnRoll", "TurnSelected", "D20Check", "HitTest", "Margin",
    "Support", "MoveEnd", "Ridden", "Revived", "InitiativeScore", "InitiativeTie", "PhaseStart", "SimpleUse",
    "Nd6Check", "OpposedResult", "DamageRoll", "HealRoll", "FollowUp", "InitiativeRanked", "D6Check", "Evasion",
    "EvasionDice", "TurnStalled", "HardMode", "Terrain", "Stance", "MovePhase", "Armour", "ObjectHit",
    "ObjectDestroyed", "InitiativeValue", "D100Check", "Cast", "CastResolves", "CastLost", "AreaRoll", "AreaGroups",
    "AreaSelection", "Aimed", "AimLost",
]

#: The event modules, one per ruleset family.
FAMILIES = (tcgt, d20pool, soulwired, wiz, orm)

#: Every event class by its ``TYPE``.
EVENT_TYPES: dict[str, type[Event]] = {cls.TYPE: cls for family in FAMILIES for cls in family.EVENTS}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.to_json` output.

    :raises KeyError: on an unknown ``type``; TypeError: on a missing field.
    """
    return EVENT_TYPES[data["type"]].from_json(data)


# ------------------------------------------------------------ decision events

#: The decision events (docs/events.md "a decision"): why the engine chose
#: what it did -- the walk's order and every entry passed over, the targets
#: chosen among the candidates, a stay, the pattern kept and the panels reset;
#: and the variants' own: d20pool's turn selection, support and end of a shift,
#: soulwired's end of a move, ORM's phase starts and simple uses.
#: The engine always writes them and nothing it decides reads them back; a
#: writer that does not want them leaves them out (:func:`is_decision`): the
#: written report without ``--explain``, a round's lean json.  A
#: ``pattern_selected`` that switched patterns is not one of them: the
#: written report always says so.
DECISION_TYPES: frozenset[str] = frozenset({
    SkillOrder.TYPE, SkillPassed.TYPE, TargetsChosen.TYPE, Stayed.TYPE, PatternSelected.TYPE, PanelsReset.TYPE,
    TurnSelected.TYPE, Support.TYPE, MoveEnd.TYPE, PhaseStart.TYPE, SimpleUse.TYPE,
})


def is_decision(event: Event) -> bool:
    """Whether ``event`` is a decision event, which a lean json report
    (``"decisions": false``) leaves out.

    >>> is_decision(PanelsReset(turn=1, actor="Goro", kept=()))
    True
    """
    if isinstance(event, PatternSelected):
        return not event.switched
    return event.TYPE in DECISION_TYPES
