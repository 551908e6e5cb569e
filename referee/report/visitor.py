"""Dispatch of events to renderer methods through a ``type -> method`` table.

Style lesson 7 (d20's ``_nodes``, python-chess's ``BaseVisitor``): a renderer
subclasses :class:`EventVisitor` and defines one ``on_<type>`` method per event
type it renders (``on_damage`` for ``damage``).  The table is built once per
class from the engine's ``EVENT_TYPES``; an event type without a method goes
to :meth:`EventVisitor.on_unhandled`, which renderers may make loud.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

__all__ = ["EventVisitor", "handled_types"]


def _event_types() -> tuple[str, ...]:
    from referee.engine.events import EVENT_TYPES

    return tuple(EVENT_TYPES)


class EventVisitor:
    """Base of every renderer; :meth:`visit` dispatches by ``event.TYPE``."""

    _table: ClassVar[dict[str, str] | None] = None

    @classmethod
    def dispatch_table(cls) -> dict[str, str]:
        """``{event type: method name}`` for the types this class renders."""
        if cls.__dict__.get("_table") is None:
            cls._table = {t: f"on_{t}" for t in _event_types() if callable(getattr(cls, f"on_{t}", None))}
        table = cls.__dict__["_table"]
        assert table is not None
        return dict(table)

    def visit(self, event: Any) -> None:
        """Call the method registered for ``event``'s type."""
        table = type(self).__dict__.get("_table") or type(self).dispatch_table()
        name = table.get(event.TYPE)
        if name is None:
            self.on_unhandled(event)
            return
        method: Callable[[Any], None] = getattr(self, name)
        method(event)

    def bound_handlers(self) -> dict[str, Callable[[Any], None]]:
        """``{event type: bound method}`` for a fast loop over many events."""
        return {t: getattr(self, name) for t, name in type(self).dispatch_table().items()}

    def visit_all(self, events: Any) -> None:
        handlers = self.bound_handlers()
        fallback = self.on_unhandled
        for event in events:
            handlers.get(event.TYPE, fallback)(event)

    def on_unhandled(self, event: Any) -> None:
        """An event type this renderer has no method for: ignored by default."""


def handled_types(cls: type[EventVisitor]) -> set[str]:
    """Event types ``cls`` has a method for (tests check renderers cover them all)."""
    return set(cls.dispatch_table())
