"""Replay: re-resolve a JSON report from its embedded inputs and seed, and
compare event by event (style lesson 8).

The first difference is described in words -- the turn, the actor, the
expected and the resolved sentence -- so a player can see *where* a battle
diverged (a changed ruleset, a changed engine, an edited report).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from referee.diagnostics import Diagnostic, ReferError
from referee.app.inputs import resolve_inputs
from referee.report.record import Report, report_from_json, report_to_json
from referee.ruleset import Ruleset, is_builtin_name, load_ruleset, ruleset_from_embedded

__all__ = ["ReplayOutcome", "load_report", "replay_report", "describe_event"]


@dataclass(frozen=True)
class ReplayOutcome:
    """``identical`` or the first difference, described."""

    identical: bool
    events: int
    message: str


def load_report(path: str | Path) -> tuple[Report, dict[str, Any]]:
    """Read a JSON report; a file that is not one is a diagnostic, not a traceback."""
    shown = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ReferError([Diagnostic(shown, 0, 0, "file-not-found", f"cannot read {shown}: {err}")]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReferError([Diagnostic(shown, err.lineno, err.colno, "not-json",
                                     f"not a JSON report: {err.msg}")]) from None
    try:
        return report_from_json(data), data
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ReferError([Diagnostic(shown, 0, 0, "not-a-report",
                                     f"{shown} is not a referee JSON report (missing or bad field: {err})",
                                     hint="write one with: referee resolve BATTLE --format json -o REPORT.json")]) from None


def _ruleset_for(report: Report, path: Path, override: str | None) -> Ruleset:
    """``--ruleset`` if given; else the ruleset embedded in the report (one
    that came from a file); else the built-in named by the report."""
    embedded = report.inputs.get("ruleset_embedded")
    if override is not None:
        ruleset = load_ruleset(override if is_builtin_name(override) else Path(override))
    elif embedded is not None:
        loaded, diags = ruleset_from_embedded(embedded, f"{path} (inputs.ruleset_embedded)")
        if loaded is None:
            raise ReferError(diags)
        ruleset = loaded
    else:
        ref = str(report.inputs.get("ruleset") or report.ruleset["name"])
        # Reports written before rulesets were embedded name a file next to the battle.
        ruleset = load_ruleset(ref if is_builtin_name(ref) else path.parent / ref)
    if ruleset.digest != report.ruleset["digest"]:
        raise ReferError([Diagnostic(str(path), 0, 0, "ruleset-changed",
                                     f"ruleset {ruleset.name!r} has changed since the report was written "
                                     f"(digest {ruleset.digest[:12]}, report says {report.ruleset['digest'][:12]})",
                                     hint="replay with the ruleset the battle was resolved under (--ruleset PATH)")])
    return ruleset


def _words(event: Mapping[str, Any] | None) -> str:
    if event is None:
        return "nothing (the event list ends here)"
    skip = {"type", "turn", "rule"}
    fields = ", ".join(f"{k} {json.dumps(v, ensure_ascii=False)}" for k, v in event.items() if k not in skip)
    return f"{event['type'].replace('_', ' ')} ({fields})" if fields else event["type"].replace("_", " ")


def describe_event(event: Mapping[str, Any] | None) -> str:
    """An event in words for a difference message."""
    return _words(event)


def replay_report(path: str | Path, ruleset_override: str | None = None) -> ReplayOutcome:
    """Re-resolve the report at ``path``; compare its events and result."""
    report, data = load_report(path)
    ruleset = _ruleset_for(report, Path(path), ruleset_override)
    again = report_to_json(resolve_inputs(report.inputs, ruleset, report.seed, report.seed_source))
    expected, got = data["events"], again["events"]
    for i in range(max(len(expected), len(got))):
        e = expected[i] if i < len(expected) else None
        g = got[i] if i < len(got) else None
        if e != g:
            ref = e or g or {}
            actor = ref.get("actor") or ref.get("target") or "-"
            return ReplayOutcome(False, i, (
                f"differs at event {i + 1} (turn {ref.get('turn', '?')}, {actor}): "
                f"expected {_words(e)}; got {_words(g)}"))
    if data.get("result") != again["result"]:
        return ReplayOutcome(False, len(got), (
            f"events agree but the result differs: expected {json.dumps(data.get('result'), ensure_ascii=False)}; "
            f"got {json.dumps(again['result'], ensure_ascii=False)}"))
    result = again["result"]
    return ReplayOutcome(True, len(got), (
        f"identical: {len(got)} events, {result['winner']} ({result['reason']}) at turn {result['turns']}, "
        f"seed {report.seed}"))
