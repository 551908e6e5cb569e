"""What one use of a skill is while it resolves: who, which skill, which
targets (R-TURN-3, R-KNOCK-5), and the targets and panels a choice settled on
(R-PLAN-4, R-EXT-*).

Plain data, below the resolution modules and the mechanics protocols alike,
so that both can name it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.catalog import Skill
from referee.engine.state import Fighter

__all__ = ["Use", "Choice"]


@dataclass(slots=True)
class Use:
    """One declared use: its user, skill, entry and fixed targets (R-KNOCK-5)."""

    user: Fighter
    skill: Skill
    entry: int
    targets: tuple[Fighter, ...]


@dataclass(slots=True)
class Choice:
    """The targets of one use (primary first) and every panel it pays:
    ``requested`` extras asked by the plan (R-EXT-7), ``extended`` granted."""

    targets: list[Fighter]
    panels: tuple[int, ...]
    requested: int
    extended: int
