"""Battle reports: every format is a rendering of the engine's event list.

``render(report, fmt, lang, explain)`` is the one entry point the commands
use; formats are ``text``, ``md``, ``html`` and ``json`` (interfaces.md,
"Report"), languages ``en`` and ``ja``.  Renderers read only the
:class:`~referee.report.record.Report` (events + normalised inputs).
"""

from __future__ import annotations

from referee.report.record import Report, dumps_report

__all__ = ["FORMATS", "LANGS", "SUFFIXES", "render", "Report"]

FORMATS: tuple[str, ...] = ("text", "md", "html", "json")
LANGS: tuple[str, ...] = ("en", "ja")
#: File suffix per format (batch output, goldens).
SUFFIXES: dict[str, str] = {"text": "txt", "md": "md", "html": "html", "json": "json"}


def render(report: Report, fmt: str = "text", lang: str = "en", *, explain: bool = False) -> str:
    """``report`` in format ``fmt`` and language ``lang`` (json ignores both).

    :raises ValueError: for an unknown format or language.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    if fmt == "json":
        return dumps_report(report)
    if fmt in ("text", "md"):
        from referee.report.markup import MarkdownMarkup, TextMarkup
        from referee.report.written import render_written

        markup = TextMarkup() if fmt == "text" else MarkdownMarkup()
        return render_written(report, lang, markup, explain=explain)
    if fmt == "html":
        from referee.report.html import render_html

        return render_html(report, lang, explain=explain)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
