"""Replay: re-resolve a JSON report from its embedded inputs and seed, and
compare event by event (style lesson 8).

The first difference is described in words -- the turn, the actor, the
expected and the resolved sentence -- so a player can see *where* a battle
diverged (a changed ruleset, a changed engine, an edited report).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from referee import __version__
from referee.app.inputcheck import check_report_inputs
from referee.app.inputs import resolve_inputs
from referee.confine import read_untrusted_text
from referee.diagnostics import Diagnostic, ReferError
from referee.limits import MAX_REPORT_BYTES, MAX_SEED_CHARS
from referee.textcheck import printable
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
    """Read a JSON report; a file that is not one is a diagnostic, not a traceback.

    Read through :func:`referee.confine.read_untrusted` (regular files up to
    :data:`referee.limits.MAX_REPORT_BYTES`)."""
    shown = str(path)
    text, diags = read_untrusted_text(path, shown=shown, limit=MAX_REPORT_BYTES)
    if text is None:
        raise ReferError(diags)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReferError([Diagnostic(shown, err.lineno, err.colno, "not-json",
                                     f"not a JSON report: {err.msg}")]) from None
    except (ValueError, RecursionError) as err:  # a number too long to read, nesting too deep
        raise ReferError([Diagnostic(shown, 0, 0, "not-json", f"not a JSON report: {err}")]) from None
    try:
        if not isinstance(data, dict) or not isinstance(data.get("events"), list) \
                or not isinstance(data.get("ruleset"), dict) or not isinstance(data.get("inputs"), dict):
            raise TypeError("it has no ruleset, inputs and events")
        seed = data.get("seed")
        if not isinstance(seed, (int, str)) or isinstance(seed, bool) or len(str(seed)) > MAX_SEED_CHARS:
            raise TypeError("seed")
        return report_from_json(data), data
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as err:
        raise ReferError([Diagnostic(shown, 0, 0, "not-a-report",
                                     f"{shown} is not a referee JSON report (missing or bad field: {err})",
                                     hint="write one with: referee resolve BATTLE --format json -o REPORT.json")]) from None


def _ruleset_for(report: Report, path: Path, override: str | None) -> Ruleset:
    """``--ruleset`` if given; else the ruleset embedded in the report (one
    that came from a file); else the built-in named by the report.

    A report written before rulesets were embedded names a file: it is read
    only inside the report's own folder, and only if it is a regular file
    (docs/security.md)."""
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
        ruleset = load_ruleset(ref) if is_builtin_name(ref) else load_ruleset(path.parent / ref, root=path.parent)
    if ruleset.digest != report.ruleset["digest"]:
        if ruleset.name != report.ruleset["name"]:
            message = (f"the report was resolved under a different ruleset, {report.ruleset['name']!r} "
                       f"(digest {report.ruleset['digest'][:12]}), not {ruleset.name!r} (digest {ruleset.digest[:12]})")
            hint = f"replay with the ruleset {report.ruleset['name']!r} the battle was resolved under"
        else:
            message = (f"ruleset {ruleset.name!r} has changed since the report was written "
                       f"(digest {ruleset.digest[:12]}, report says {report.ruleset['digest'][:12]})")
            hint = "replay with the ruleset the battle was resolved under (--ruleset PATH)"
        code = "different-ruleset" if ruleset.name != report.ruleset["name"] else "ruleset-changed"
        raise ReferError([Diagnostic(str(path), 0, 0, code, message, hint=hint)])
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


def first_difference(expected: Sequence[Mapping[str, Any]],
                     got: Sequence[Mapping[str, Any]]) -> int | None:
    """The index of the first event where two event lists (as JSON) differ,
    one list running out counting as a difference; ``None`` if they agree.
    ``replay`` (a report against its re-resolution) and ``diff``/``whatif``
    (two battles) both ask this."""
    for i in range(max(len(expected), len(got))):
        if (expected[i] if i < len(expected) else None) != (got[i] if i < len(got) else None):
            return i
    return None


def replay_report(path: str | Path, ruleset_override: str | None = None) -> ReplayOutcome:
    """Re-resolve the report at ``path``; compare its events and result.

    The message quotes the report's own (untrusted) events: control
    characters in it show as U+FFFD."""
    outcome = _replay(path, ruleset_override)
    return ReplayOutcome(outcome.identical, outcome.events, printable(outcome.message))


def _replay(path: str | Path, ruleset_override: str | None) -> ReplayOutcome:
    report, data = load_report(path)
    shown = str(path)
    if report.referee != __version__:
        raise ReferError([Diagnostic(shown, 0, 0, "report-version",
                                     f"the report says it was written by referee {report.referee!r}; this is "
                                     f"{__version__}: events may differ between versions",
                                     hint=f"replay it with referee {report.referee}")])
    ruleset = _ruleset_for(report, Path(path), ruleset_override)
    problems = check_report_inputs(report.inputs, ruleset, shown, data.get("inputs_digest"))
    if problems:
        raise ReferError(problems)
    # A lean report (a round's json without ``--decisions``) is compared with
    # the resolution written the same way: without its decision events.
    again = report_to_json(replace(resolve_inputs(report.inputs, ruleset, report.seed, report.seed_source),
                                   decisions=report.decisions))
    expected, got = data["events"], again["events"]
    i = first_difference(expected, got)
    if i is not None:
        e = expected[i] if i < len(expected) else None
        g = got[i] if i < len(got) else None
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
