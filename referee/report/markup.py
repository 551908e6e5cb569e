"""Block markup for the written reports: plain text or GitHub-flavoured Markdown.

The report renderer says *what* a block is (title, heading, paragraph, list
item, preformatted block, table) and a :class:`Markup` says how it looks.
Both produce a fixed width, no colour and no timestamps (style lesson 13).
"""

from __future__ import annotations

from referee.diagnostics import display_width

__all__ = ["Markup", "TextMarkup", "MarkdownMarkup"]


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - display_width(text))


class Markup:
    """Interface: each method returns the lines of one block."""

    def title(self, text: str) -> list[str]:
        raise NotImplementedError

    def heading(self, text: str) -> list[str]:
        raise NotImplementedError

    def para(self, text: str) -> list[str]:
        return [text]

    def item(self, text: str, depth: int = 0) -> list[str]:
        return ["  " * depth + "- " + text]

    def pre(self, lines: list[str]) -> list[str]:
        raise NotImplementedError

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        raise NotImplementedError


class TextMarkup(Markup):
    """Plain text for a forum post or a terminal: underlined headings,
    indented preformatted blocks, tables aligned by display width."""

    def title(self, text: str) -> list[str]:
        return [text, "=" * display_width(text)]

    def heading(self, text: str) -> list[str]:
        return [text, "-" * display_width(text)]

    def pre(self, lines: list[str]) -> list[str]:
        return [("    " + line).rstrip() for line in lines]

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        widths = [max(display_width(r[i]) for r in [header, *rows]) for i in range(len(header))]
        out = ["  ".join(_pad(c, w) for c, w in zip(header, widths)).rstrip()]
        out.append("  ".join("-" * w for w in widths))
        out.extend("  ".join(_pad(c, w) for c, w in zip(r, widths)).rstrip() for r in rows)
        return out


class MarkdownMarkup(Markup):
    """GitHub-flavoured Markdown: ``#`` headings, fenced blocks, pipe tables."""

    def title(self, text: str) -> list[str]:
        return ["# " + _escape(text)]

    def heading(self, text: str) -> list[str]:
        return ["## " + _escape(text)]

    def para(self, text: str) -> list[str]:
        return [_escape(text)]

    def item(self, text: str, depth: int = 0) -> list[str]:
        return ["  " * depth + "- " + _escape(text)]

    def pre(self, lines: list[str]) -> list[str]:
        return ["```text", *[line.rstrip() for line in lines], "```"]

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        def row(cells: list[str]) -> str:
            return "| " + " | ".join(_escape(c).replace("|", "\\|") for c in cells) + " |"

        return [row(header), "|" + "|".join("---" for _ in header) + "|", *(row(r) for r in rows)]


def _escape(text: str) -> str:
    """Escape the Markdown characters that could turn names into markup."""
    for ch in ("\\", "*", "_", "`", "<", ">", "[", "]"):
        text = text.replace(ch, "\\" + ch)
    return text
