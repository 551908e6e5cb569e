"""The board vocabulary: squares, directions, rectangles (style lesson 1).

Pure geometry with no graph library: a :class:`Square` is a frozen value with
0-based ``file`` (a = 0) and ``rank`` (1 = 0). Squares sort in the canonical
order of R-RNG-1 -- a1, b1, ..., h1, a2, ... (rank first, then file) -- so that
any list of candidate squares handed to the seeded RNG is in one documented
order whatever produced it.

Maps may be any size from 1x1 to 32x32 (rules.md B leaves the size to the
ruleset). Files are named ``a`` .. ``z`` and then ``aa`` .. ``af`` (0-based
file 26 is ``aa``, so its first square is ``aa1``); ranks are 1..32. Every
function here works on every size. Distances for ranges are the ruleset's
range metric (``referee.engine.mechanics.metric``), routes the map graph's
(``referee.mapgraph``); the narrowing schedule is ruleset data.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Set
from dataclasses import dataclass

#: The largest map side the referee supports (files a..z, aa..af).
MAX_SIDE = 32

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_FILE_NAMES: tuple[str, ...] = tuple(_LETTERS) + tuple("a" + c for c in _LETTERS[: MAX_SIDE - 26])
_FILE_INDEX = {name: i for i, name in enumerate(_FILE_NAMES)}
_SQUARE_RE = re.compile(r"^([a-z]{1,2})([1-9][0-9]?)$")


class InvalidSquareError(ValueError):
    """A square name that is not ``<file letters><rank number>`` within 32x32."""


@dataclass(frozen=True, slots=True)
class Square:
    """One area of the field (R-FIELD-1), 0-based ``file`` and ``rank``.

    Ordering is canonical (R-RNG-1): by rank, then by file.

    >>> sorted([parse_square("b1"), parse_square("a2"), parse_square("a1")])
    [Square('a1'), Square('b1'), Square('a2')]
    """

    file: int
    rank: int

    # Equality and hash are written out: the engine compares and hashes squares
    # in every scan of the board, and the compiled build compiles these (mypyc
    # leaves a dataclass's generated methods interpreted, and generates no hash
    # for a class that defines __eq__).  The hash is the dataclass's.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is Square:
            return self.file == other.file and self.rank == other.rank
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.file, self.rank))

    def __reduce__(self) -> tuple[type[Square], tuple[int, int]]:
        # copy and pickle (batch workers send events holding squares) rebuild a
        # square by its constructor: compiled, a frozen dataclass refuses the
        # field stores of the default protocol.
        return (Square, (self.file, self.rank))

    def _key(self) -> tuple[int, int]:
        return (self.rank, self.file)

    def __lt__(self, other: Square) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Square) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Square) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Square) -> bool:
        return self._key() >= other._key()

    def __repr__(self) -> str:
        return f"Square({square_name(self)!r})"

    def __str__(self) -> str:
        return square_name(self)

    def offset(self, dx: int, dy: int) -> Square:
        """The square ``dx`` files right and ``dy`` ranks up (may be off any map)."""
        return Square(self.file + dx, self.rank + dy)


def parse_square(name: str) -> Square:
    """``"c3"`` -> ``Square(file=2, rank=2)``.

    Accepts ``a1`` .. ``af32`` (files ``a``..``z``, ``aa``..``af``); upper
    case and surrounding blanks are forgiven (``" C3 "``). Whether the square
    is on a given map is ``MapGraph.contains``'s question, not this one's.

    :raises InvalidSquareError: for anything else, with an example in the
        message (``"c0"``, ``"c33"``, ``"ag1"``, ``"c3x"``, ``""``).
    """
    match = _SQUARE_RE.match(name.strip().lower()) if isinstance(name, str) else None
    if match is None or match.group(1) not in _FILE_INDEX:
        raise InvalidSquareError(f"{name!r} is not a square; write a file letter and a rank number, like c3")
    rank = int(match.group(2))
    if not 1 <= rank <= MAX_SIDE:
        raise InvalidSquareError(f"{name!r} is not a square; ranks run from 1 to {MAX_SIDE}")
    return Square(_FILE_INDEX[match.group(1)], rank - 1)


def file_name(index: int) -> str:
    """0-based file -> its letters: ``0`` -> ``"a"``, ``26`` -> ``"aa"`` (maps up to 32 files)."""
    if not 0 <= index < MAX_SIDE:
        raise InvalidSquareError(f"file {index} is outside a {MAX_SIDE}x{MAX_SIDE} map")
    return _FILE_NAMES[index]


def square_name(square: Square) -> str:
    """``Square(2, 2)`` -> ``"c3"`` (the inverse of :func:`parse_square`)."""
    if not (0 <= square.file < MAX_SIDE and 0 <= square.rank < MAX_SIDE):
        raise InvalidSquareError(f"square ({square.file}, {square.rank}) is outside a {MAX_SIDE}x{MAX_SIDE} map")
    return f"{_FILE_NAMES[square.file]}{square.rank + 1}"


def euclidean_sq(a: Square, b: Square) -> int:
    """Squared straight-line distance, the R-MOVE-5 tie-break (integers, no floats)."""
    return (a.file - b.file) ** 2 + (a.rank - b.rank) ** 2


def sign(n: int) -> int:
    """-1, 0 or 1."""
    return (n > 0) - (n < 0)


class Direction(enum.Enum):
    """The 8 directions in the canonical order of R-RNG-1 (N = rank + 1)."""

    N = (0, 1)
    NE = (1, 1)
    E = (1, 0)
    SE = (1, -1)
    S = (0, -1)
    SW = (-1, -1)
    W = (-1, 0)
    NW = (-1, 1)

    @property
    def dx(self) -> int:
        return self.value[0]

    @property
    def dy(self) -> int:
        return self.value[1]

    @classmethod
    def from_delta(cls, dx: int, dy: int) -> Direction:
        """The direction of (sign dx, sign dy); raises ValueError for (0, 0)."""
        if dx == 0 and dy == 0:
            raise ValueError("no direction from a square to itself; draw one (R-KNOCK-2)")
        return cls((sign(dx), sign(dy)))


#: Directions in canonical order, as a tuple for ``rng.randrange(8)``.
DIRECTIONS: tuple[Direction, ...] = tuple(Direction)


def direction_between(a: Square, b: Square) -> Direction | None:
    """R-KNOCK-1: the direction (sign dx, sign dy) from ``a`` to ``b``; None if equal."""
    if a == b:
        return None
    return Direction.from_delta(b.file - a.file, b.rank - a.rank)


@dataclass(frozen=True, slots=True)
class Rect:
    """An inclusive rectangle of squares (a map, or a narrowing stage's kept area)."""

    min_file: int
    min_rank: int
    max_file: int
    max_rank: int

    def __reduce__(self) -> tuple[type[Rect], tuple[int, int, int, int]]:
        # as Square.__reduce__: copy and pickle through the constructor
        return (Rect, (self.min_file, self.min_rank, self.max_file, self.max_rank))

    def __post_init__(self) -> None:
        if self.min_file > self.max_file or self.min_rank > self.max_rank:
            raise ValueError(f"empty rectangle {self.min_file},{self.min_rank}-{self.max_file},{self.max_rank}")

    @classmethod
    def of_map(cls, width: int, height: int) -> Rect:
        """The whole map of ``width`` x ``height`` (1..32 each)."""
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise ValueError(f"a map is 1x1 to {MAX_SIDE}x{MAX_SIDE}, not {width}x{height}")
        return cls(0, 0, width - 1, height - 1)

    @property
    def width(self) -> int:
        return self.max_file - self.min_file + 1

    @property
    def height(self) -> int:
        return self.max_rank - self.min_rank + 1

    def contains(self, square: Square) -> bool:
        return self.min_file <= square.file <= self.max_file and self.min_rank <= square.rank <= self.max_rank

    def clamp(self, square: Square) -> Square:
        """R-NARROW-2: the nearest kept area, coordinates clamped into the rectangle."""
        return Square(
            min(max(square.file, self.min_file), self.max_file),
            min(max(square.rank, self.min_rank), self.max_rank),
        )

    def squares(self) -> tuple[Square, ...]:
        """Every square, in canonical order."""
        return tuple(
            Square(f, r)
            for r in range(self.min_rank, self.max_rank + 1)
            for f in range(self.min_file, self.max_file + 1)
        )

    def __iter__(self) -> Iterator[Square]:
        return iter(self.squares())

    def intersection(self, other: Rect) -> Rect | None:
        """The squares in both rectangles, or None when they do not overlap."""
        f0, r0 = max(self.min_file, other.min_file), max(self.min_rank, other.min_rank)
        f1, r1 = min(self.max_file, other.max_file), min(self.max_rank, other.max_rank)
        if f0 > f1 or r0 > r1:
            return None
        return Rect(f0, r0, f1, r1)

    def __str__(self) -> str:
        return rect_name(self)


def parse_rect(text: str) -> Rect:
    """``"b2-g7"`` -> the inclusive rectangle from b2 to g7 (either corner order)."""
    parts = text.strip().split("-")
    if len(parts) != 2:
        raise InvalidSquareError(f"{text!r} is not a rectangle; write two corners like b2-g7")
    a, b = parse_square(parts[0]), parse_square(parts[1])
    return Rect(min(a.file, b.file), min(a.rank, b.rank), max(a.file, b.file), max(a.rank, b.rank))


def rect_name(rect: Rect) -> str:
    """The inverse of :func:`parse_rect`: ``"b2-g7"``."""
    return f"{square_name(Square(rect.min_file, rect.min_rank))}-{square_name(Square(rect.max_file, rect.max_rank))}"


class AreaSet:
    """A set of squares on a ``width`` x ``height`` map that prints as a grid.

    Iterates in canonical order (R-RNG-1). ``repr`` is the grid of
    :func:`format_area_set`, so an ``assert AreaSet(...) == AreaSet(...)``
    that fails shows two pictures instead of two lists of names. Equality is
    set equality (the map size is only for printing).  Its methods are
    written out rather than inherited from ``collections.abc.Set``, whose
    mixins a compiled class does not get.
    """

    __slots__ = ("_squares", "width", "height")

    def __init__(self, squares: Iterable[Square], width: int = 8, height: int = 8) -> None:
        self._squares = frozenset(squares)
        self.width = width
        self.height = height

    @classmethod
    def from_names(cls, names: str, width: int = 8, height: int = 8) -> AreaSet:
        """``AreaSet.from_names("a1 b2 c3")``."""
        return cls((parse_square(n) for n in names.split()), width, height)

    def __contains__(self, item: object) -> bool:
        return item in self._squares

    def __iter__(self) -> Iterator[Square]:
        return iter(sorted(self._squares))

    def __len__(self) -> int:
        return len(self._squares)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AreaSet):
            return self._squares == other._squares
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._squares)

    def __repr__(self) -> str:
        return f"AreaSet({self.width}x{self.height}):\n{format_area_set(self._squares, self.width, self.height)}"


def format_area_set(squares: Set[Square], width: int, height: int) -> str:
    """A grid of ``1``/``.`` with rank ``height`` on top, for readable test failures.

    >>> print(format_area_set({parse_square("a1"), parse_square("b2")}, 3, 2))
    .1.
    1..
    """
    rows = []
    for r in range(height - 1, -1, -1):
        rows.append("".join("1" if Square(f, r) in squares else "." for f in range(width)))
    return "\n".join(rows)
