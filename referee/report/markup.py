"""Block markup for the written reports: plain text or GitHub-flavoured Markdown.

The report renderer says *what* a block is (title, heading, paragraph, list
item, preformatted block, table, board, a turn) and a :class:`Markup` says
how it looks.  Both produce a fixed width, no colour and no timestamps
(style lesson 13).

Every text handed to a markup is plain: names and titles come from players'
files, so each markup escapes what its format would read as markup, and
every markup turns control characters (a line break inside a name) into a
visible ``\\u000a`` so a name can never forge a line of the report.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from referee.diagnostics import display_width
from referee.textcheck import shown_escaped

if TYPE_CHECKING:
    from referee.report.boardview import BoardPicture

__all__ = ["Markup", "TextMarkup", "MarkdownMarkup", "one_line", "markdown_escape", "fence_for", "text_width"]



def one_line(text: str) -> str:
    """``text`` with every control, line-separator and bidi-override
    character shown as ``\\uXXXX``: one line, read as written.

    Printable text is returned at once: every character
    :func:`~referee.textcheck.shown_escaped` escapes (a control, a surrogate,
    a bidi control -- all category C -- or a line or paragraph separator,
    category Z) is one ``str.isprintable`` refuses, and a report runs this
    on every line (issue 18)."""
    return text if text.isprintable() else shown_escaped(text)


def text_width(text: str) -> int:
    """:func:`~referee.diagnostics.display_width`, with ASCII text (no
    full-width character) answered by its length: most names, every board
    row and most table cells of an English report (issue 18)."""
    return len(text) if text.isascii() else display_width(text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - text_width(text))


class Markup:
    """Interface: each method returns the lines of one block."""

    #: The compact log writes a turn's title in front of its first line
    #: (False: the markup wraps each turn, as BBCode's spoilers do).
    inline_turns = True

    def title(self, text: str) -> list[str]:
        raise NotImplementedError

    def heading(self, text: str) -> list[str]:
        raise NotImplementedError

    def para(self, text: str) -> list[str]:
        return [one_line(text)]

    def item(self, text: str, depth: int = 0) -> list[str]:
        return ["  " * depth + "- " + one_line(text)]

    def pre(self, lines: list[str]) -> list[str]:
        raise NotImplementedError

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        raise NotImplementedError

    def board(self, picture: BoardPicture) -> list[str]:
        """A board diagram; by default its text drawing as a preformatted block."""
        return self.pre(picture.lines())

    def turn_open(self, title: str, compact: bool) -> list[str]:
        """Opens a turn: a heading in the full log, a list item in the compact one."""
        return self.item(title, 0) if compact else self.heading(title)

    def turn_close(self) -> list[str]:
        """Closes a turn (a BBCode spoiler's end tag); nothing by default."""
        return []


class TextMarkup(Markup):
    """Plain text for a forum post or a terminal: underlined headings,
    indented preformatted blocks, tables aligned by display width."""

    def title(self, text: str) -> list[str]:
        text = one_line(text)
        return [text, "=" * text_width(text)]

    def heading(self, text: str) -> list[str]:
        text = one_line(text)
        return [text, "-" * text_width(text)]

    def pre(self, lines: list[str]) -> list[str]:
        return [("    " + one_line(line)).rstrip() for line in lines]

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        header = [one_line(c) for c in header]
        rows = [[one_line(c) for c in r] for r in rows]
        widths = [max(text_width(r[i]) for r in [header, *rows]) for i in range(len(header))]
        out = ["  ".join(_pad(c, w) for c, w in zip(header, widths)).rstrip()]
        out.append("  ".join("-" * w for w in widths))
        out.extend("  ".join(_pad(c, w) for c, w in zip(r, widths)).rstrip() for r in rows)
        return out


class MarkdownMarkup(Markup):
    """GitHub-flavoured Markdown: ``#`` headings, fenced blocks, pipe tables."""

    def title(self, text: str) -> list[str]:
        return ["# " + markdown_escape(text)]

    def heading(self, text: str) -> list[str]:
        return ["## " + markdown_escape(text)]

    def para(self, text: str) -> list[str]:
        return [markdown_escape(text, line_start=True)]

    def item(self, text: str, depth: int = 0) -> list[str]:
        return ["  " * depth + "- " + markdown_escape(text)]

    def pre(self, lines: list[str]) -> list[str]:
        lines = [one_line(line).rstrip() for line in lines]
        fence = fence_for(lines)
        return [fence + "text", *lines, fence]

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        def row(cells: list[str]) -> str:
            return "| " + " | ".join(markdown_escape(c) for c in cells) + " |"

        return [row(header), "|" + "|".join("---" for _ in header) + "|", *(row(r) for r in rows)]


#: Characters Markdown (and Discord) may read as markup anywhere in a line.
_MD_INLINE = re.compile(r"([\\`*_<>\[\]~|&#])")
#: What makes a line start a list, a quote or a heading underline ...
_MD_LINE_START = re.compile(r"^(\s*)([-+=>])")
#: ... or a numbered item (the ``.``/``)`` is escaped: ``\1`` is not an escape).
_MD_NUMBERED = re.compile(r"^(\s*\d+)([.)])")


def markdown_escape(text: str, *, line_start: bool = False) -> str:
    """``text`` with every Markdown markup character backslash-escaped
    (CommonMark allows a backslash before any ASCII punctuation), and with
    ``line_start`` also what would open a list or a quote at a line's start."""
    text = _MD_INLINE.sub(r"\\\1", one_line(text))
    if line_start:
        text = _MD_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
        text = _MD_NUMBERED.sub(lambda m: m.group(1) + "\\" + m.group(2), text)
    return text


def fence_for(lines: list[str]) -> str:
    """A code fence longer than any run of backticks inside ``lines``, so a
    name full of backticks cannot close the block early (CommonMark)."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)
