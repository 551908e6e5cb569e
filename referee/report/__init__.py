"""Battle reports: every format is a rendering of the engine's event list.

``render(report, fmt, lang, explain)`` is the one entry point the commands
use; formats are ``text``, ``md``, ``bbcode``, ``discord``, ``html`` and
``json`` (interfaces.md, "Report"; bbcode and discord are the forums'),
languages ``en`` and ``ja``.  Renderers read only the
:class:`~referee.report.record.Report` (events + normalised inputs).
"""

from __future__ import annotations

from referee.report.record import Report, dumps_report

__all__ = ["FORMATS", "LANGS", "SUFFIXES", "render", "Report"]

FORMATS: tuple[str, ...] = ("text", "md", "bbcode", "discord", "html", "json")
LANGS: tuple[str, ...] = ("en", "ja")
#: File suffix per format (batch output, goldens).
SUFFIXES: dict[str, str] = {"text": "txt", "md": "md", "bbcode": "bbcode", "discord": "discord.txt",
                            "html": "html", "json": "json"}


def render(report: Report, fmt: str = "text", lang: str = "en", *, explain: bool = False,
           full: bool = False) -> str:
    """``report`` in format ``fmt`` and language ``lang`` (json ignores both).

    ``full`` writes every sentence of every turn; by default the written
    formats fold repeated turns and keep the log compact (json is always
    complete).

    :raises ValueError: for an unknown format or language, or ``explain``
        of a report kept without its decision events (a round's lean json).
    """
    if explain and not report.decisions:
        raise ValueError("this report was kept without its decision events, which --explain writes; "
                         "resolve the battle again with --explain")
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    if fmt == "json":
        return dumps_report(report)
    if fmt in ("text", "md", "bbcode"):
        from referee.report.forum import BBCodeMarkup
        from referee.report.markup import Markup, MarkdownMarkup, TextMarkup
        from referee.report.written import render_written

        markups: dict[str, type[Markup]] = {"text": TextMarkup, "md": MarkdownMarkup, "bbcode": BBCodeMarkup}
        return render_written(report, lang, markups[fmt](), explain=explain, full=full)
    if fmt == "discord":
        from referee.report.discord import render_discord

        return render_discord(report, lang, explain=explain, full=full)
    if fmt == "html":
        from referee.report.html import render_html

        return render_html(report, lang, explain=explain, full=full)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
