"""The five panel elements and skill patterns (R-PAN-1, R-PAT-1).

Elements are written in kanji on sheets (``火水風``) and in English in the skill
YAML (``cost: [fire, water]``); both spellings parse to the same :class:`Element`.
The enum's declaration order is the rules' order 火水風地剣 and is the order used
whenever elements are listed.
"""

from __future__ import annotations

import difflib
import enum
import unicodedata


class Element(enum.Enum):
    """One panel element (R-PAN-1). ``value`` is the English name used in YAML."""

    FIRE = "fire"
    WATER = "water"
    WIND = "wind"
    EARTH = "earth"
    SWORD = "sword"

    @property
    def kanji(self) -> str:
        """The one-character kanji written on sheets and in reports."""
        return _KANJI[self]

    @property
    def english(self) -> str:
        """The lower-case English name (same as ``value``)."""
        return self.value

    def __str__(self) -> str:
        return self.value


_KANJI: dict[Element, str] = {
    Element.FIRE: "火",
    Element.WATER: "水",
    Element.WIND: "風",
    Element.EARTH: "地",
    Element.SWORD: "剣",
}

_BY_SPELLING: dict[str, Element] = {}
for _element in Element:
    _BY_SPELLING[_element.value] = _element
    _BY_SPELLING[_element.kanji] = _element
del _element

#: Characters players write by mistake for an element, mapped to what they most
#: likely meant. Used only for hints, never accepted silently.
LIKELY_MEANT: dict[str, Element] = {
    "炎": Element.FIRE,
    "焔": Element.FIRE,
    "氷": Element.WATER,
    "空": Element.WIND,
    "気": Element.WIND,
    "土": Element.EARTH,
    "石": Element.EARTH,
    "刀": Element.SWORD,
    "劍": Element.SWORD,
    "剱": Element.SWORD,
}


class InvalidElementError(ValueError):
    """Raised by :func:`parse_element` / :func:`parse_pattern` for unknown text.

    :param text: the offending spelling.
    :param index: for patterns, the 0-based index of the bad element.
    :param hint: a suggestion such as ``did you mean 火 (fire)?``, or ``None``.
    """

    def __init__(self, text: str, index: int = 0, hint: str | None = None) -> None:
        self.text = text
        self.index = index
        self.hint = hint
        super().__init__(f"unknown element {text!r}")


def _normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().casefold()


def element_hint(text: str) -> str | None:
    """A did-you-mean hint for a misspelt element, or ``None``.

    >>> element_hint("fier")
    'did you mean fire (火)?'
    >>> element_hint("土")
    'did you mean 地 (earth)?'
    """
    norm = _normalize(text)
    if norm in LIKELY_MEANT:
        el = LIKELY_MEANT[norm]
        return f"did you mean {el.kanji} ({el.value})?"
    close = difflib.get_close_matches(norm, [e.value for e in Element], n=1, cutoff=0.6)
    if close:
        el = Element(close[0])
        return f"did you mean {el.value} ({el.kanji})?"
    return None


def parse_element(text: str) -> Element:
    """Parse ``火``/``fire``/``Fire`` (full-width forms too) into an :class:`Element`.

    >>> parse_element("水"), parse_element("Earth")
    (<Element.WATER: 'water'>, <Element.EARTH: 'earth'>)

    :raises InvalidElementError: for anything else, with a hint when one is likely.
    """
    norm = _normalize(text)
    try:
        return _BY_SPELLING[norm]
    except KeyError:
        raise InvalidElementError(text, hint=element_hint(text)) from None


def parse_pattern(text: str) -> tuple[Element, ...]:
    """Parse a skill pattern (R-PAT-1): a kanji string ``火水風``, or English words
    separated by spaces or commas (``fire, water, wind``).

    >>> [e.kanji for e in parse_pattern("火水風")]
    ['火', '水', '風']
    >>> [e.kanji for e in parse_pattern("fire water")]
    ['火', '水']

    :raises InvalidElementError: naming the first bad element and its index
        (see :func:`split_pattern` to get every bad element at once).
    """
    elements, errors = split_pattern(text)
    if errors:
        raise errors[0]
    return elements


def split_pattern(text: str) -> tuple[tuple[Element, ...], list[InvalidElementError]]:
    """Parse a pattern, collecting every bad element instead of stopping.

    Each error's ``index`` is the character offset of the bad element in
    ``text`` (so a caller can point a caret at it).
    """
    known = _SPLIT.get(text)
    if known is not None:
        return known, []
    elements: list[Element] = []
    errors: list[InvalidElementError] = []
    for offset, token in _tokens(text):
        try:
            elements.append(parse_element(token))
        except InvalidElementError as err:
            errors.append(InvalidElementError(token, offset, err.hint))
    if not errors and len(text) <= 64:  # remembered (issue 18): a round's sheets repeat patterns
        if len(_SPLIT) >= 4096:
            _SPLIT.clear()
        _SPLIT[text] = tuple(elements)
    return tuple(elements), errors


#: split_pattern's memo of sound short patterns (elements are immutable); bounded.
_SPLIT: dict[str, tuple[Element, ...]] = {}


def _tokens(text: str) -> list[tuple[int, str]]:
    """Split a pattern into (offset, token): words if it has separators or ASCII
    letters, else one token per non-space character."""
    if any(ch.isascii() and ch.isalpha() for ch in text) or "," in text or "、" in text:
        out: list[tuple[int, str]] = []
        start = -1
        for i, ch in enumerate(text + " "):
            sep = ch.isspace() or ch in ",、"
            if sep and start >= 0:
                out.append((start, text[start:i]))
                start = -1
            elif not sep and start < 0:
                start = i
        return out
    return [(i, ch) for i, ch in enumerate(text) if not ch.isspace()]


def pattern_name(elements: tuple[Element, ...]) -> str:
    """The kanji spelling of a pattern: ``(FIRE, WATER) -> '火水'``."""
    return "".join(e.kanji for e in elements)
