"""The board as the events say it is: positions, HP, KOs, the narrowed field.

Renderers need the position at the start, after each narrowing and at the
end; they rebuild it from the events alone (``placed``, ``moved``,
``knockback``, ``pushed``, ``damage``, ``heal``, ``down``, ``narrowing``) so
they never look at the engine's state.  :func:`draw_board` prints it as a
grid with a legend; names go in the legend, padded by display width so that
full-width (Japanese) names keep the columns aligned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from referee.board import MAX_SIDE, Square, file_name, parse_square, square_name
from referee.report.markup import text_width
from referee.report.messages import message, team_label, word

__all__ = ["Piece", "BoardView", "BoardPicture", "board_picture", "draw_board", "file_letters", "square_text", "pad",
           "QUIET_TYPES"]


#: 0 -> ``a``, 26 -> ``aa``: the board's own file names.
file_letters = file_name


#: ``{file: {rank: "c3"}}`` for every square of the largest map: a report
#: names a square a few hundred times (issue 18).  A square off it misses and
#: goes to square_name, which raises as before.
_SQUARE_NAMES: dict[int, dict[int, str]] = {
    f: {r: square_name(Square(f, r)) for r in range(MAX_SIDE)} for f in range(MAX_SIDE)}


def square_text(square: Any) -> str:
    """A square (``referee.board.Square`` or text) as ``"c3"``."""
    if square.__class__ is Square:
        try:
            return _SQUARE_NAMES[square.file][square.rank]
        except KeyError:
            return square_name(square)
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
    return text + " " * max(0, width - text_width(text))


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


#: tcgt's event types that never change the view, answered first.  Only a
#: shortcut: a type missing here (a variant's) still goes through ``apply``.
_QUIET = frozenset({
    "battle_start", "initiative_roll", "action_order", "turn_start", "action_start", "action_end",
    "pattern_selected", "panels_reset", "skill_order", "skill_passed", "targets_chosen", "skill_used",
    "maintain_started", "maintain_released", "chance_roll", "obstructed", "reaction", "counter_missed",
    "panel_used", "status_applied", "status_no_effect", "status_expired", "status_cleansed",
    "sink_started", "sink_ended", "stayed", "battle_end",
})
#: The same set for renderers that skip the call to :meth:`BoardView.apply`
#: for these types themselves (issue 18, item 4).
QUIET_TYPES = _QUIET


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
        # soulwired (R-SOUL-TERR-1): the battle file's terrain, from the inputs;
        # objects leave the board when an ``object_destroyed`` event says so.
        terrain = inputs.get("terrain") or {}
        self.blocked |= frozenset(_xy(s) for s in terrain.get("blocked", []))
        self.barriers: frozenset[tuple[int, int]] = frozenset(_xy(s) for s in terrain.get("barriers", []))
        self.objects: set[tuple[int, int]] = {_xy(o["square"]) for o in terrain.get("objects", [])}
        self.terrain = bool(terrain)
        counters = {"white": 0, "black": 0}
        self.pieces: dict[str, Piece] = {}
        for c in inputs.get("characters", []):
            team = c["team"]
            counters[team] = counters.get(team, 0) + 1
            symbol = ("W" if team == "white" else "B") + str(counters[team])
            self.pieces[c["name"]] = Piece(c["name"], team, symbol, c["max_hp"], c["max_hp"], None)

    def _set(self, name: str, **changes: Any) -> None:
        old = self.pieces.get(name)
        if old is not None:
            # a copy of the frozen piece with ``changes``, made by copying its
            # field dict: dataclasses.replace, or even rebuilding the fields
            # through the constructor, cost a report more (issue 18)
            new = object.__new__(Piece)
            fields = new.__dict__
            fields.update(old.__dict__)
            fields.update(changes)
            self.pieces[name] = new

    def set_hp(self, name: str, hp: int) -> None:
        """``name``'s HP now ``hp`` (a ``damage`` or ``heal``): :meth:`_set`
        without its keyword dict, for the most common change (issue 18)."""
        old = self.pieces.get(name)
        if old is not None:
            new = object.__new__(Piece)
            fields = new.__dict__
            fields.update(old.__dict__)
            fields["hp"] = hp
            self.pieces[name] = new

    def apply(self, event: Any) -> None:
        """Update the view for one event (other types change nothing)."""
        kind = event.TYPE
        if kind in _QUIET:  # most of a battle's events (issue 18)
            return
        if kind == "placed":
            self._set(event.actor, square=square_text(event.square), hp=event.hp, max_hp=event.max_hp)
        elif kind == "moved":
            self._set(event.actor, square=square_text(event.to_square))
        elif kind in ("knockback", "pushed"):
            self._set(event.target, square=square_text(event.to_square))
        elif kind in ("damage", "heal"):
            self.set_hp(event.target, event.hp_after)
        elif kind == "down":
            self._set(event.target, down=True)
        elif kind == "narrowing":
            a, b = event.kept.split("-") if "-" in event.kept else (event.kept, event.kept)
            (x1, y1), (x2, y2) = _xy(a), _xy(b)
            self.kept = (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
        # --- d20pool (variant-d20.md) ---
        elif kind == "ridden":
            self._set(event.target, square=square_text(event.to_square))
        elif kind == "revived":
            self._set(event.target, down=False, hp=event.hp, square=square_text(event.square))
        # --- soulwired, issue 12 ---
        elif kind == "object_destroyed":
            self.objects.discard(_xy(square_text(event.square)))

    def copy(self) -> BoardView:
        """The view as it stands, kept while this one goes on: the pieces are
        frozen, so copying the dict that holds them (and the mutable object
        set) is enough (issue 18: the written report draws its boards from
        the story pass's copies instead of applying every event again)."""
        new = object.__new__(BoardView)
        new.__dict__.update(self.__dict__)
        new.pieces = dict(self.pieces)
        new.objects = set(self.objects)
        return new

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready state (the HTML replay stores one per step)."""
        return {
            "kept": list(self.kept),
            "pieces": [[p.symbol, p.square, p.hp, p.down] for p in self.pieces.values()],
        }


@dataclass(frozen=True)
class BoardPicture:
    """A board ready to draw: the grid's cells, the shared squares and the legend.

    Markups draw it their own way (a preformatted block, a BBCode table);
    every text in it is plain (names unescaped) for the markup to escape.
    """

    files: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]  # rank label, cells left to right
    cell_width: int
    shared: tuple[str, ...]
    legend: tuple[str, ...]

    def grid_lines(self) -> list[str]:
        """The grid, every cell ``cell_width`` wide plus one space, so
        neighbours never run together (``W1+ W2``, not ``W1+W2``)."""
        w = self.cell_width + 1
        lines = ["     " + "".join(f"{f:<{w}}" for f in self.files).rstrip()]
        lines.extend(f"{rank:>3}  " + "".join(f"{c:<{w}}" for c in cells).rstrip() for rank, cells in self.rows)
        return lines

    def notes(self) -> list[str]:
        """The shared squares and the legend, as lines under the grid."""
        out: list[str] = []
        if self.shared:
            out.extend(self.shared)
        if self.legend:
            if out:
                out.append("")
            out.extend(self.legend)
        return out

    def lines(self) -> list[str]:
        notes = self.notes()
        return self.grid_lines() + ([""] + notes if notes else [])


def board_picture(view: BoardView, lang: str, *, legend: bool | str = True) -> BoardPicture:
    """The grid (ranks top to bottom, files left to right), who shares a
    square, and (``legend``) who each symbol is.

    A cell shows the first standing character in roster order and ``+`` when
    others stand there too (R-SETUP-1 lets several share an area); ``.``
    empty, ``#`` outside the (narrowed) field or blocked.  Characters that
    are down are not drawn, but a square holding two or more characters,
    standing or down, is listed under the grid with everyone there, the
    down ones marked, so nobody is hidden behind a ``+``.

    ``legend``: True for one line per character, ``"short"`` for everyone on
    one line (symbol, name, HP), False for none (a table beside it says who).
    """
    at: dict[str, list[Piece]] = {}
    everyone_at: dict[str, list[Piece]] = {}
    for p in view.pieces.values():
        if p.square is not None:
            everyone_at.setdefault(p.square, []).append(p)
            if not p.down:
                at.setdefault(p.square, []).append(p)
    symbol_w = max((len(p.symbol) for p in view.pieces.values()), default=2)
    ranks, empty, index = _empty_grid(view)
    grid = list(map(list, empty))
    for square, here in at.items():
        where = index.get(square)
        if where is not None:
            grid[where[0]][where[1]] = here[0].symbol + ("+" if len(here) > 1 else "")
    rows = list(zip(ranks, map(tuple, grid)))
    shared = _shared_lines(everyone_at, lang)
    return BoardPicture(tuple(file_letters(x) for x in range(view.width)), tuple(rows), max(symbol_w + 1, 3),
                        tuple(shared), tuple(_legend_lines(view, lang, short=legend == "short")) if legend else ())


#: Every file's letters, for the grid's cells (issue 18: looked up, not called).
_FILE_LETTERS: tuple[str, ...] = tuple(file_name(x) for x in range(MAX_SIDE))

#: :func:`_empty_grid`'s memo, bounded (cleared when full).
_EMPTY_GRIDS: dict[tuple[Any, ...], tuple[tuple[str, ...], tuple[tuple[str, ...], ...], dict[str, tuple[int, int]]]] = {}


def _empty_grid(view: BoardView) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], dict[str, tuple[int, int]]]:
    """The grid without its pieces -- the rank labels top to bottom, each
    row's cells (``O`` an object, ``#`` blocked or outside the narrowed
    field, ``~`` a barrier, ``.`` empty) -- and where each square's name is
    in it.  Remembered by everything it is made of (issue 18, helper
    roundfast: a report draws three or four boards of the same field)."""
    key = (view.width, view.height, view.kept, view.blocked, frozenset(view.objects), view.barriers)
    known = _EMPTY_GRIDS.get(key)
    if known is not None:
        return known
    x1, y1, x2, y2 = view.kept
    files = _FILE_LETTERS[:view.width] if view.width <= len(_FILE_LETTERS) else None
    ranks: list[str] = []
    rows: list[tuple[str, ...]] = []
    index: dict[str, tuple[int, int]] = {}
    for y in range(view.height - 1, -1, -1):
        cells = []
        rank = str(y + 1)
        for x in range(view.width):
            index[(files[x] if files is not None else file_letters(x)) + rank] = (len(rows), x)
            if (x, y) in view.objects:  # soulwired (R-SOUL-TERR-1)
                cells.append("O")
            elif (x, y) in view.blocked or not (x1 <= x <= x2 and y1 <= y <= y2):
                cells.append("#")
            elif (x, y) in view.barriers:
                cells.append("~")
            else:
                cells.append(".")
        ranks.append(rank)
        rows.append(tuple(cells))
    if len(_EMPTY_GRIDS) >= 256:
        _EMPTY_GRIDS.clear()
    known = _EMPTY_GRIDS[key] = (tuple(ranks), tuple(rows), index)
    return known


def _board_order(square: str) -> tuple[int, int]:
    """Top rank first, then files left to right: the order a reader scans the grid."""
    x, y = _xy(square)
    return -y, x


def _shared_lines(everyone_at: dict[str, list[Piece]], lang: str) -> list[str]:
    shared = sorted((sq for sq, here in everyone_at.items() if len(here) > 1), key=_board_order)
    if not shared:
        return []
    lines = [word(lang, "board.shared")]
    square_w = max(len(sq) for sq in shared)
    for sq in shared:
        # standing first, then the down ones; roster order within each
        here = sorted(everyone_at[sq], key=lambda p: p.down)
        who = word(lang, "list.sep").join(
            message(lang, "board.shared.down" if p.down else "board.shared.piece", symbol=p.symbol, name=p.name)
            for p in here)
        lines.append("  " + message(lang, "board.shared.row", square=pad(sq, square_w), who=who))
    return lines


def _legend_lines(view: BoardView, lang: str, *, short: bool = False) -> list[str]:
    if short:
        return [word(lang, "list.sep").join(
            message(lang, "legend.short.down" if p.down else "legend.short", symbol=p.symbol, name=p.name,
                    hp=p.hp, max_hp=p.max_hp) for p in view.pieces.values())]
    lines = [word(lang, "legend.title") + ":"]
    name_w = max((text_width(p.name) for p in view.pieces.values()), default=0)
    team_w = max((text_width(team_label(lang, p.team)) for p in view.pieces.values()), default=0)
    hp_w = max((len(str(p.max_hp)) for p in view.pieces.values()), default=1)
    symbol_w = max((len(p.symbol) for p in view.pieces.values()), default=2)
    for p in view.pieces.values():
        lines.append("  " + message(
            lang, "legend.row", symbol=f"{p.symbol:<{symbol_w}}", name=pad(p.name, name_w),
            team=pad(team_label(lang, p.team), team_w), hp=f"{p.hp:>{hp_w}}", max_hp=f"{p.max_hp:<{hp_w}}",
            square=p.square or "-", down=word(lang, "legend.down") if p.down else "").rstrip())
    if view.terrain:  # soulwired (R-SOUL-TERR-1)
        lines.append("  " + word(lang, "soul.legend.terrain"))
    elif view.kept != (0, 0, view.width - 1, view.height - 1) or view.blocked:
        lines.append("  " + word(lang, "legend.removed"))
    return lines


def draw_board(view: BoardView, lang: str, *, legend: bool = True) -> list[str]:
    """The board as text lines: grid, shared squares, legend (see :func:`board_picture`)."""
    return board_picture(view, lang, legend=legend).lines()
