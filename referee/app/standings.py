"""The standings of a round: a Markdown table for people, JSON for tools.

Everything in a row comes from strangers' files -- titles, battle paths,
diagnostics quoting their lines -- and ``standings.md`` is posted where it is
rendered.  So every cell is escaped for Markdown and HTML (a title
``<script>`` or ``**White wins**`` shows as written, never as markup), and
each failed battle's error sits in a code fence longer than any run of
backticks inside it, so nothing breaks out of it (issue 17, point 15).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["BattleOutcome", "standings_markdown", "standings_json", "markdown_cell"]


@dataclass(frozen=True)
class BattleOutcome:
    """One row of the round's summary.

    :param battle: path relative to the round folder (``/`` separators).
    :param status: ``ok``, ``invalid`` (diagnostics) or ``crashed`` (a bug).
    :param error: the diagnostics or the exception, for failed battles.
    """

    battle: str
    status: str
    title: str = ""
    seed: int | str | None = None
    winner: str = ""
    reason: str = ""
    turns: int = 0
    standing: str = ""
    reports: tuple[str, ...] = ()
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


#: Characters that make markup inside a table cell (emphasis, code, links,
#: strikethrough, the cell border), escaped with a backslash; ``#``, ``+``,
#: ``-`` and friends only matter at the start of a line, which a cell never is.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def markdown_cell(value: Any) -> str:
    """``value`` as the text of one Markdown table cell: HTML's ``& < >``
    as entities, Markdown punctuation backslash-escaped, line breaks as spaces.

    >>> markdown_cell("<b>A|B</b> *x*")
    '&lt;b&gt;A\\\\|B&lt;/b&gt; \\\\*x\\\\*'
    """
    text = " ".join(str(value).splitlines())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _fence(text: str) -> list[str]:
    """``text`` in a fenced code block no line of it can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", text, fence]


def _counts(outcomes: list[BattleOutcome]) -> dict[str, int]:
    return {
        "battles": len(outcomes),
        "resolved": sum(o.ok for o in outcomes),
        "failed": sum(not o.ok for o in outcomes),
        "white_wins": sum(o.ok and o.winner == "white" for o in outcomes),
        "black_wins": sum(o.ok and o.winner == "black" for o in outcomes),
        "draws": sum(o.ok and o.winner == "draw" for o in outcomes),
    }


def standings_json(outcomes: list[BattleOutcome]) -> str:
    """The round's summary as JSON (counts, then one object per battle)."""
    rows = []
    for o in outcomes:
        row = asdict(o)
        row["reports"] = list(o.reports)
        rows.append(row)
    return json.dumps({"summary": _counts(outcomes), "battles": rows}, ensure_ascii=False, indent=2) + "\n"


def standings_markdown(outcomes: list[BattleOutcome], name: str) -> str:
    """The round's summary as a GitHub-flavoured Markdown table."""
    c = _counts(outcomes)
    lines = [
        f"# Results: {markdown_cell(name)}",
        "",
        f"{c['resolved']} of {c['battles']} battles resolved; White won {c['white_wins']}, "
        f"Black won {c['black_wins']}, {c['draws']} drawn; {c['failed']} failed.",
        "",
        "| battle | title | winner | how | turns | standing (W-B) | seed |",
        "|---|---|---|---|---|---|---|",
    ]
    for o in outcomes:
        if o.ok:
            lines.append(f"| {markdown_cell(o.battle)} | {markdown_cell(o.title)} | {o.winner} | "
                         f"{o.reason} | {o.turns} | {o.standing} | {markdown_cell(o.seed)} |")
        else:
            lines.append(f"| {markdown_cell(o.battle)} | | **failed** | {markdown_cell(o.status)} | | | |")
    failed = [o for o in outcomes if not o.ok]
    if failed:
        lines += ["", "## Failed battles", ""]
        for o in failed:
            lines += [f"### {markdown_cell(o.battle)}", "", *_fence(o.error.rstrip()), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
