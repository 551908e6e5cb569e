"""The ``discord`` report: the written report cut into messages a bot or a
person can post one by one.

Discord refuses a message over :data:`LIMIT` characters.  The report is
rendered with :class:`~referee.report.forum.DiscordMarkup` and cut at block
boundaries (never inside a code block: a board too long for one message is
cut between lines and each part fenced again).  Every message opens with the
battle's title and ``part i/n``, and one that continues a section repeats
the section's heading with "(continued)", so each message reads alone.

In the output, messages are separated by a line holding only
:data:`SEPARATOR`; :func:`discord_messages` gives them as a list.
"""

from __future__ import annotations

from referee.report.forum import DiscordMarkup, discord_escape
from referee.report.messages import message
from referee.report.record import Report
from referee.report.written import render_written

__all__ = ["LIMIT", "SEPARATOR", "discord_messages", "render_discord", "split_messages"]

#: Discord's limit on one message, in characters.
LIMIT = 2000
#: The line between two messages in the ``discord`` output.
SEPARATOR = "✂ ────────"


def _chunks(lines: list[str]) -> list[list[str]]:
    """Blocks of lines split at blank lines outside code blocks."""
    chunks: list[list[str]] = []
    current: list[str] = []
    in_code = False
    for line in lines:
        if line.startswith("```"):
            in_code = not in_code
        if not line and not in_code:
            if current:
                chunks.append(current)
                current = []
            continue
        current.append(line)
    if current:
        chunks.append(current)
    return chunks


def _fits(lines: list[str], room: int) -> list[list[str]]:
    """``lines`` cut into pieces of at most ``room`` characters; a code block
    is fenced again in every piece, a line longer than ``room`` is cut at a
    space (or anywhere, as a last resort)."""
    code = len(lines) >= 2 and lines[0].startswith("```") and lines[-1] == "```"
    body = lines[1:-1] if code else lines
    fence = 8 if code else 0  # "```\n" + "\n```"
    pieces: list[list[str]] = []
    current: list[str] = []
    size = fence
    for line in body:
        while len(line) + fence > room:
            cut = line.rfind(" ", 0, room - fence)
            cut = cut if cut > 0 else room - fence
            if current:
                pieces.append(current)
                current, size = [], fence
            pieces.append([line[:cut]])
            line = line[cut:].lstrip()
            if not line:
                break
        else:
            if current and size + len(line) + 1 > room:
                pieces.append(current)
                current, size = [], fence
            current.append(line)
            size += len(line) + 1
    if current:
        pieces.append(current)
    return [["```", *p, "```"] if code else p for p in pieces]


def split_messages(text: str, title: str, lang: str, limit: int = LIMIT) -> list[str]:
    """``text`` (Discord Markdown) cut into messages of at most ``limit`` characters."""
    chunks = _chunks(text.splitlines())
    header_room = len(message(lang, "discord.part", title=discord_escape(title), index=9999, total=9999)) + 6
    room = limit - header_room
    bodies: list[list[str]] = []   # each: the chunks' lines, blank lines between
    heading = ""
    current: list[str] = []
    for chunk in chunks:
        is_heading = len(chunk) == 1 and chunk[0].startswith("**") and not chunk[0].startswith("**__")
        if is_heading:
            heading = chunk[0]
        for piece in _fits(chunk, room - len(heading) - 20):
            size = sum(len(line) + 1 for line in current) + sum(len(line) + 1 for line in piece) + 1
            if current and size > room:
                bodies.append(current)
                current = []
            if not current and heading and not is_heading:
                current = [message(lang, "discord.continued", heading=heading), ""]
            if current and current[-1] != "":
                current.append("")
            current.extend(piece)
    if current:
        bodies.append(current)
    total = len(bodies)
    out = []
    for index, body in enumerate(bodies, 1):
        head = "**" + message(lang, "discord.part", title=discord_escape(title), index=index, total=total) + "**"
        out.append("\n".join([head, "", *body]).rstrip("\n"))
    return out


def discord_messages(report: Report, lang: str, *, explain: bool = False, full: bool = False) -> list[str]:
    """The report as Discord messages, each at most :data:`LIMIT` characters."""
    text = render_written(report, lang, DiscordMarkup(), explain=explain, full=full)
    return split_messages(text, report.title, lang)


def render_discord(report: Report, lang: str, *, explain: bool = False, full: bool = False) -> str:
    """Every message, one :data:`SEPARATOR` line between two."""
    return f"\n\n{SEPARATOR}\n\n".join(discord_messages(report, lang, explain=explain, full=full)) + "\n"
