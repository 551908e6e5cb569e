"""The board as the events say it is: positions, HP, KOs, the narrowed field.

Renderers need the position at the start, after each narrowing and at the
end; they rebuild it from the events alone (``placed``, ``moved``,
``knockback``, ``pushed``, ``damage``, ``heal``, ``down``, ``narrowing``) so
they never look at the engine's state.  :func:`draw_board` prints it as a
grid with a legend; names go in the legend, padded by display width so that
full-width (Japanese) names keep the columns aligned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from referee.board import file_name, parse_square, square_name
from referee.diagnostics import display_width
from referee.report.messages import message, team_label, word

__all__ = ["Piece", "BoardView", "draw_board", "file_letters", "square_text", "pad"]


#: 0 -> ``a``, 26 -> ``aa``: the board's own file names.
file_letters = file_name


def square_text(square: Any) -> str:
    """A square (``referee.board.Square`` or text) as ``"c3"``."""
    if square is None:
        return "-"
    if isinstance(square, str):
        return square
    return square_name(square)


def _xy(text: str) -> tuple[int, int]:
    square = parse_square(text)
    return square.file, square.rank


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells."""
    return text + " " * max(0, width - display_width(text))


@dataclass(frozen=True)
class Piece:
    """One character on the board as seen by a reader."""

    name: str
    team: str
    symbol: str
    hp: int
    max_hp: int
    square: str | None
    down: bool = False


class BoardView:
    """Positions and HP rebuilt from events; :meth:`apply` one event at a time.

    :param inputs: the report's normalised inputs (roster order, map size).
    """

    def __init__(self, inputs: Mapping[str, Any]) -> None:
        rules = inputs.get("rules", {})
        board = rules.get("map", {})
        self.width: int = int(board.get("width", 8))
        self.height: int = int(board.get("height", 8))
        self.blocked: frozenset[tuple[int, int]] = frozenset(_xy(s) for s in board.get("blocked", []))
        self.kept: tuple[int, int, int, int] = (0, 0, self.width - 1, self.height - 1)
        counters = {"white": 0, "black": 0}
        self.pieces: dict[str, Piece] = {}
        for c in inputs.get("characters", []):
            team = c["team"]
            counters[team] = counters.get(team, 0) + 1
            symbol = ("W" if team == "white" else "B") + str(counters[team])
            self.pieces[c["name"]] = Piece(c["name"], team, symbol, c["max_hp"], c["max_hp"], None)

    def _set(self, name: str, **changes: Any) -> None:
        if name in self.pieces:
            self.pieces[name] = replace(self.pieces[name], **changes)

    def apply(self, event: Any) -> None:
        """Update the view for one event (other types change nothing)."""
        kind = event.TYPE
        if kind == "placed":
            self._set(event.actor, square=square_text(event.square), hp=event.hp, max_hp=event.max_hp)
        elif kind == "moved":
            self._set(event.actor, square=square_text(event.to_square))
        elif kind in ("knockback", "pushed"):
            self._set(event.target, square=square_text(event.to_square))
        elif kind in ("damage", "heal"):
            self._set(event.target, hp=event.hp_after)
        elif kind == "down":
            self._set(event.target, down=True)
        elif kind == "narrowing":
            a, b = event.kept.split("-") if "-" in event.kept else (event.kept, event.kept)
            (x1, y1), (x2, y2) = _xy(a), _xy(b)
            self.kept = (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready state (the HTML replay stores one per step)."""
        return {
            "kept": list(self.kept),
            "pieces": [[p.symbol, p.square, p.hp, p.down] for p in self.pieces.values()],
        }


def draw_board(view: BoardView, lang: str) -> list[str]:
    """The grid (ranks top to bottom, files left to right) and its legend.

    Each cell is three columns wide: ``W1`` for a character, ``W1+`` when
    several share the area (R-SETUP-1 allows it), ``.`` empty, ``#`` outside
    the (narrowed) field or blocked.  Characters that are down are not drawn.
    """
    at: dict[str, list[Piece]] = {}
    for p in view.pieces.values():
        if p.square is not None and not p.down:
            at.setdefault(p.square, []).append(p)
    x1, y1, x2, y2 = view.kept
    lines = ["    " + "".join(f" {file_letters(x):<2}" for x in range(view.width)).rstrip()]
    for y in range(view.height - 1, -1, -1):
        cells = []
        for x in range(view.width):
            here = at.get(f"{file_letters(x)}{y + 1}", [])
            if here:
                cell = here[0].symbol + ("+" if len(here) > 1 else "")
            elif (x, y) in view.blocked or not (x1 <= x <= x2 and y1 <= y <= y2):
                cell = "#"
            else:
                cell = "."
            cells.append(f" {cell:<2}" if len(cell) < 3 else cell)
        lines.append(f"{y + 1:>3} " + "".join(cells).rstrip())
    lines.append("")
    lines.append(word(lang, "legend.title") + ":")
    name_w = max((display_width(p.name) for p in view.pieces.values()), default=0)
    team_w = max((display_width(team_label(lang, p.team)) for p in view.pieces.values()), default=0)
    hp_w = max((len(str(p.max_hp)) for p in view.pieces.values()), default=1)
    for p in view.pieces.values():
        lines.append("  " + message(
            lang, "legend.row", symbol=p.symbol, name=pad(p.name, name_w),
            team=pad(team_label(lang, p.team), team_w), hp=f"{p.hp:>{hp_w}}", max_hp=f"{p.max_hp:<{hp_w}}",
            square=p.square or "-", down=word(lang, "legend.down") if p.down else "").rstrip())
    if view.kept != (0, 0, view.width - 1, view.height - 1) or view.blocked:
        lines.append("  " + word(lang, "legend.removed"))
    return lines
