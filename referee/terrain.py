"""The battle file's ``terrain:`` (variant-soulwired.md, R-SOUL-FILE-2,
R-SOUL-TERR-1): blocked areas, barrier areas and objects, as frozen data.

Kept apart from the engine so the battle-file loader can build it without
importing the engine (the import arrows point one way)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.board import Square

__all__ = ["TerrainObject", "Terrain"]


@dataclass(frozen=True, slots=True)
class TerrainObject:
    """An object on the map (R-SOUL-TERR-1): its area is never entered; it
    is attacked on a plan order and removed at strength 0 (R-SOUL-TERR-2)."""

    square: Square
    strength: int
    armour: int = 0


@dataclass(frozen=True, slots=True)
class Terrain:
    """Blocked areas, barrier areas (【障壁結界】) and objects, each list in
    the order written."""

    blocked: tuple[Square, ...] = ()
    barriers: tuple[Square, ...] = ()
    objects: tuple[TerrainObject, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.blocked or self.barriers or self.objects)

    def closed(self) -> frozenset[Square]:
        """Areas a character never enters: blocked ones and objects' areas."""
        return frozenset(self.blocked) | frozenset(o.square for o in self.objects)
