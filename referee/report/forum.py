"""Forum markups: BBCode (phpBB, vBulletin, SMF) and Discord's Markdown.

The written report (:mod:`referee.report.written`) says what each block is;
these say how a forum shows it.  BBCode puts every turn in a spoiler and
every board in a table; Discord gets bold headings, lists and code blocks
(it has no tables), and :mod:`referee.report.discord` cuts the result into
messages.

Escaping: BBCode has no escape character, so ``[`` and ``]`` in any text
become the full-width ``［`` ``］`` (a name can never open a tag); Discord
text is Markdown-escaped, ``@`` gets a zero-width joiner after it so a name
like ``@everyone`` cannot ping a server, and a backtick inside a code
block becomes ``ˋ`` (U+02CB), since Discord does not honour longer fences.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.report.markup import Markup, TextMarkup, markdown_escape, one_line

if TYPE_CHECKING:
    from referee.report.boardview import BoardPicture

__all__ = ["BBCodeMarkup", "DiscordMarkup", "bbcode_escape", "discord_escape", "discord_code"]


def bbcode_escape(text: str) -> str:
    """``text`` on one line with no character BBCode reads as a tag."""
    return one_line(text).replace("[", "［").replace("]", "］")


class BBCodeMarkup(Markup):
    """BBCode for a 2007 forum: a spoiler per turn, tables for the boards."""

    inline_turns = False

    def title(self, text: str) -> list[str]:
        return [f"[size=150][b]{bbcode_escape(text)}[/b][/size]"]

    def heading(self, text: str) -> list[str]:
        return [f"[b][u]{bbcode_escape(text)}[/u][/b]"]

    def para(self, text: str) -> list[str]:
        return [bbcode_escape(text)]

    def item(self, text: str, depth: int = 0) -> list[str]:
        # forums fold plain spaces; no-break spaces keep the indentation
        return ["\u00a0\u00a0\u00a0\u00a0" * depth + ("• " if depth == 0 else "◦ ") + bbcode_escape(text)]

    def pre(self, lines: list[str]) -> list[str]:
        return ["[code]" + "\n".join(bbcode_escape(line).rstrip() for line in lines) + "[/code]"]

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        out = ["[table]", "[tr]" + "".join(f"[th]{bbcode_escape(h)}[/th]" for h in header) + "[/tr]"]
        out.extend("[tr]" + "".join(f"[td]{bbcode_escape(c)}[/td]" for c in r) + "[/tr]" for r in rows)
        out.append("[/table]")
        return out

    def board(self, picture: BoardPicture) -> list[str]:
        out = ["[table]", "[tr][th][/th]" + "".join(f"[th]{f}[/th]" for f in picture.files) + "[/tr]"]
        for rank, cells in picture.rows:
            out.append(f"[tr][th]{rank}[/th]" + "".join(f"[td]{bbcode_escape(c)}[/td]" for c in cells) + "[/tr]")
        out.append("[/table]")
        notes = picture.notes()
        if notes:
            out.extend(self.pre(notes))
        return out

    def turn_open(self, title: str, compact: bool) -> list[str]:
        return [f"[spoiler={bbcode_escape(title)}]"]

    def turn_close(self) -> list[str]:
        return ["[/spoiler]"]


def discord_escape(text: str, *, line_start: bool = False) -> str:
    """Markdown-escaped, with mentions (``@everyone``) defused."""
    return markdown_escape(text, line_start=line_start).replace("@", "@\u2060")


def discord_code(lines: list[str]) -> list[str]:
    """A code block Discord cannot be tricked into closing early."""
    return ["```", *[one_line(line).replace("`", "ˋ").replace("@", "@\u2060").rstrip() for line in lines], "```"]


class DiscordMarkup(Markup):
    """Discord's Markdown: bold headings, ``-`` lists, code blocks for boards
    and tables (Discord draws no tables)."""

    def title(self, text: str) -> list[str]:
        return [f"**__{discord_escape(text)}__**"]

    def heading(self, text: str) -> list[str]:
        return [f"**{discord_escape(text)}**"]

    def para(self, text: str) -> list[str]:
        return [discord_escape(text, line_start=True)]

    def item(self, text: str, depth: int = 0) -> list[str]:
        return ["  " * depth + "- " + discord_escape(text)]

    def pre(self, lines: list[str]) -> list[str]:
        return discord_code(lines)

    def table(self, header: list[str], rows: list[list[str]]) -> list[str]:
        return discord_code(TextMarkup().table(header, rows))
