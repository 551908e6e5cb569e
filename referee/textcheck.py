"""Text from strangers that reports will print: names, titles, seeds, plans.

Reports are posted where other players read them and printed on organisers'
terminals.  A newline in a name forges a report line ("Result ... White
wins"), an ANSI escape recolours or rewrites the terminal, a bidirectional
override turns text around, a lone surrogate cannot even be written as UTF-8
(issue 17, points 12, 14, 18).  Such text is refused where the file is loaded,
with a located diagnostic, so no renderer ever meets it; renderers still
escape for their format (HTML, Markdown), which is a different job.
"""

from __future__ import annotations

import unicodedata

from referee.limits import MAX_NAME_CHARS

__all__ = ["BIDI_CONTROLS", "name_problem", "text_problems", "is_unsafe_character", "printable", "shown_escaped"]

#: Bidirectional embeddings, overrides and isolates (they reorder what follows).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def shown_escaped(text: str) -> str:
    """``text`` on one line, read as written: every unsafe character
    (:func:`is_unsafe_character`) and line or paragraph separator shown as
    ``\\uXXXX``.  One form for every place that prints a stranger's text it
    could not refuse -- report lines and batch standings alike.

    >>> shown_escaped("Red\\nFox \\u202e")
    'Red\\\\u000aFox \\\\u202e'
    """
    if text.isprintable() and not BIDI_CONTROLS.intersection(text):
        return text
    return "".join(f"\\u{ord(ch):04x}" if is_unsafe_character(ch) or unicodedata.category(ch) in ("Zl", "Zp") else ch
                   for ch in text)


def is_unsafe_character(ch: str) -> bool:
    """A control character (newline, escape, NUL ...), a lone surrogate, or a
    bidirectional control.

    >>> [is_unsafe_character(c) for c in ("a", "火", "\\n", "\\x1b", "\\ud800", "\\u202e")]
    [False, False, True, True, True, True]
    """
    if ch in BIDI_CONTROLS:
        return True
    category = unicodedata.category(ch)
    return category in ("Cc", "Cs")


def _describe(ch: str) -> str:
    names = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab", "\x1b": "an escape (ANSI) code",
             "\x00": "a NUL character"}
    if ch in names:
        return names[ch]
    if unicodedata.category(ch) == "Cs":
        return f"a lone surrogate (U+{ord(ch):04X}, not a character)"
    if ch in BIDI_CONTROLS:
        return f"a text-direction control (U+{ord(ch):04X})"
    return f"a control character (U+{ord(ch):04X})"


def name_problem(text: str, what: str = "a name", limit: int = MAX_NAME_CHARS) -> str | None:
    """Why ``text`` cannot be a name or a title (``None``: it can).

    >>> name_problem("Kagura"), name_problem("  ")
    (None, 'a name cannot be blank')
    >>> name_problem("Ash\\nResult: White wins")
    'a name cannot contain a line break (at character 4)'
    """
    if not text.strip():
        return f"{what} cannot be blank"
    for index, ch in enumerate(text):
        if is_unsafe_character(ch):
            return f"{what} cannot contain {_describe(ch)} (at character {index + 1})"
    if len(text) > limit:
        return f"{what} has {len(text)} characters; at most {limit}"
    return None


def text_problems(text: str) -> list[tuple[int, int, str]]:
    """``(line, column, words)`` for each line of multi-line text (a plan) that
    holds an unsafe character other than tab and line ends; 1-based."""
    out = []
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        for index, ch in enumerate(line):
            if ch != "\t" and is_unsafe_character(ch):
                out.append((number, index + 1, f"a plan cannot contain {_describe(ch)}"))
                break
    return out


def printable(text: str) -> str:
    """``text`` safe for a terminal: each unsafe character (other than tab)
    shows as U+FFFD, one cell, so carets keep their columns.  For messages
    that quote a hostile file (diagnostics, replay differences)."""
    if text.isprintable():
        return text
    return "".join("\ufffd" if ch != "\t" and is_unsafe_character(ch) else ch for ch in text)
