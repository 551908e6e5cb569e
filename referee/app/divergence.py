"""Where two battles part ways, and why, in words (``referee diff``, ``whatif``).

Two battles resolved from the same seed draw from the same streams
(R-RNG-1), so their event lists agree until the first *decision* that comes
out differently -- a clause that now applies, a condition that now fails, a
target chosen from a different list -- or until a draw whose stream was used a
different number of times before.  :func:`first_divergence` finds that event
pair; :func:`divergence_text` says which clause (its text, from the reports'
inputs), which condition and which draw; :func:`outcomes_side_by_side` puts
the two results next to each other.  Everything here reads reports only
(events and normalised inputs), like a renderer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.app.replay import describe_event, first_difference
from referee.board import square_name
from referee.report.record import Report

__all__ = ["Divergence", "first_divergence", "divergence_text", "input_differences", "outcomes_side_by_side"]

#: Events that record a choice the rules or a plan made (docs/events.md "a decision").
DECISIONS = frozenset({"skill_order", "skill_passed", "targets_chosen", "stayed", "moved", "pattern_selected",
                       "maintain_released", "skill_used", "maintain_started"})
#: Events that record luck (R-RNG-1).
DRAWS = frozenset({"chance_roll", "initiative_roll", "placed", "action_order"})

_PASS_REASONS = {
    "passive": "it is a passive skill (it fires on its own, never in the walk)",
    "already_maintained": "it is already maintained",
    "bound": "it is bound (R-ST-BIND)",
    "frozen": "it is frozen",
    "condition_false": "the clause's condition did not hold",
    "cost_unpayable": "its cost could not be paid from the free panels",
    "no_target": "no target was in range",
    "heal_guard": "nobody in range was hurt (R-PLAN-1)",
    "held_back": "a clause held it back",
}


@dataclass(frozen=True)
class Divergence:
    """The first differing event pair (``None`` on the side that ran out)."""

    index: int
    turn: int
    actor: str
    a: Mapping[str, Any] | None
    b: Mapping[str, Any] | None

    @property
    def kind(self) -> str:
        """``draw`` (luck), ``decision`` (a choice) or ``consequence``."""
        types = {e["type"] for e in (self.a, self.b) if e is not None}
        if types & DRAWS:
            return "draw"
        if types & DECISIONS:
            return "decision"
        return "consequence"


def _events(report: Report) -> list[dict[str, Any]]:
    """The events as JSON, less ``battle_start``'s seed: a different seed is an
    input difference (:func:`input_differences`), not the first decision."""
    out = [e.to_json() for e in report.events]
    if out and out[0]["type"] == "battle_start":
        out[0] = {k: v for k, v in out[0].items() if k != "seed"}
    return out


def first_divergence(a: Report, b: Report) -> Divergence | None:
    """The first event where ``a`` and ``b`` differ, or ``None`` if they agree."""
    ea, eb = _events(a), _events(b)
    i = first_difference(ea, eb)
    if i is None:
        return None
    x = ea[i] if i < len(ea) else None
    y = eb[i] if i < len(eb) else None
    ref = x or y or {}
    # the action in progress: the last action_start before the parting (both agree up to it)
    actor = next((str(e["actor"]) for e in reversed(ea[:i]) if e["type"] == "action_start"), "")
    who = str(ref.get("actor") or actor or ref.get("target") or "")
    return Divergence(i, int(ref.get("turn", 0)), who, x, y)


def _character(report: Report, name: str) -> Mapping[str, Any]:
    for c in report.characters():
        if c["name"] == name:
            return c
    return {}


def clause_text(report: Report, actor: str, line: int | None) -> str:
    """``line 3 of Kagura's plan: "use rest first when ally hp lost >= 5"``."""
    if not line:
        return ""
    plan = _character(report, actor).get("plan") or {}
    for clause in plan.get("parsed", ()):
        if clause.get("line") == line:
            return f'line {line} of {actor}\'s plan: "{clause["clause"]}"'
    return f"line {line} of {actor}'s plan"


def _skill(report: Report, skill_id: Any) -> str:
    names = report.inputs.get("skill_names", {}).get(str(skill_id))
    return f"{names['en']} ({names['ja']})" if names else str(skill_id)


def _names(items: Sequence[Any]) -> str:
    return ", ".join(str(x) for x in items) or "nobody"


def _why(report: Report, e: Mapping[str, Any] | None) -> str:
    """One event in words, naming the clause that decided it when there is one."""
    if e is None:
        return "the battle was already over"
    kind, actor = e["type"], str(e.get("actor", ""))
    clause = clause_text(report, actor, e.get("line"))
    by = f", decided by {clause}" if clause else ""
    if kind == "skill_order":
        moved = [clause_text(report, actor, line) for line in e.get("moved_by", ())]
        up = f"; moved up by {'; '.join(moved)}" if moved else ""
        return f"{actor}'s skills were tried in the order {_names([_skill(report, s) for s in e['skills']])}{up}"
    if kind == "skill_passed":
        reason = _PASS_REASONS.get(str(e["reason"]), str(e["reason"]))
        detail = f" ({e['detail']})" if e.get("detail") else ""
        return f"{actor} passed over {_skill(report, e['skill'])}: {reason}{detail}{by}"
    if kind == "targets_chosen":
        extra = f", {e['extended']} extra target(s) by extension" if e.get("extended") else ""
        return (f"{actor} aimed {_skill(report, e['skill'])} at {_names(e['targets'])} (candidates in order: "
                f"{_names(e['candidates'])}; preference {e['preference']}{extra})")
    if kind == "skill_used":
        return f"{actor} used {_skill(report, e['skill'])} on {_names(e['targets'])}"
    if kind == "chance_roll":
        outcome = "succeeded" if e["success"] else "failed"
        return (f"the draw for {e['effect']} of {_skill(report, e['skill'])} on {e['target']} "
                f"({e['numerator']}/{e['denominator']}) {outcome}")
    if kind == "moved":
        return f"{actor} moved {e['from']} -> {e['to']} toward {e['toward']}{by}"
    if kind == "stayed":
        return f"{actor} stayed on {e['square']} ({e['reason']}){by}"
    if kind == "pattern_selected":
        return f"{actor} took pattern {e['pattern'] + 1} ({e['elements']}, reason: {e['reason']})"
    if kind == "placed":
        how = "the setup draw placed" if e.get("drawn") else "the battle file placed"
        return f"{how} {actor} on {e['square']} (R-SETUP-1)"
    if kind == "initiative_roll":
        return f"{actor} rolled {e['value']} for initiative (R-TURN-1)"
    if kind == "maintain_released":
        return f"{actor} released {_skill(report, e['skill'])} ({e['cause']}){by}"
    return describe_event(e)


def divergence_text(a: Report, b: Report, labels: tuple[str, str] = ("A", "B")) -> str:
    """The first decision where the battles part ways, in words."""
    div = first_divergence(a, b)
    if div is None:
        return "The two battles are identical, event for event.\n"
    la, lb = labels
    lines = [f"The battles part ways at event {div.index + 1}, turn {div.turn}"
             + (f", {'in' if div.turn else 'concerning'} {div.actor}'s {'action' if div.turn else 'setup'}"
                if div.actor else "") + f" (a {div.kind}):",
             f"  {la}: {_why(a, div.a)}",
             f"  {lb}: {_why(b, div.b)}"]
    if div.kind == "draw" and div.a is not None and div.b is not None and div.a["type"] == div.b["type"] == "chance_roll":
        lines.append("  The same stream gave a different result: it had been drawn from a different number of times before.")
    if a.seed != b.seed:
        lines.append(f"  Note: the seeds differ ({a.seed} and {b.seed}), so every draw may differ.")
    return "\n".join(lines) + "\n"


def input_differences(a: Report, b: Report, labels: tuple[str, str] = ("A", "B")) -> list[str]:
    """What differs in the inputs: seed, ruleset, and per character the sheet
    or the plan (clauses only in one side, ``-`` for A and ``+`` for B)."""
    la, lb = labels
    out = []
    if a.seed != b.seed:
        out.append(f"seed: {a.seed} in {la}, {b.seed} in {lb}")
    if a.ruleset["digest"] != b.ruleset["digest"]:
        out.append(f"ruleset: {a.ruleset['name']} in {la}, {b.ruleset['name']} in {lb} (digests differ)")
    names_a = [c["name"] for c in a.characters()]
    names_b = [c["name"] for c in b.characters()]
    for name in dict.fromkeys(names_a + names_b):
        ca, cb = _character(a, name), _character(b, name)
        if not ca or not cb:
            out.append(f"{name}: only in {la if ca else lb}")
            continue
        plan_a = [c["clause"] for c in (ca.get("plan") or {}).get("parsed", [])]
        plan_b = [c["clause"] for c in (cb.get("plan") or {}).get("parsed", [])]
        if plan_a != plan_b:
            out.append(f"{name}'s plan:")
            out += [f"  - {c}   (only in {la})" for c in plan_a if c not in plan_b]
            out += [f"  + {c}   (only in {lb})" for c in plan_b if c not in plan_a]
            if set(plan_a) == set(plan_b):
                out.append("  the same clauses in another order")
        sheet_keys = ("body", "reflex", "intellect", "max_hp", "patterns", "skills")
        changed = [k for k in sheet_keys if ca.get(k) != cb.get(k)]
        if changed:
            out.append(f"{name}'s sheet: {', '.join(changed)} differ")
    return out


def _standing(report: Report, team: str) -> int:
    return sum(1 for c in report.result.final if c.team == team and not c.down)


def outcomes_side_by_side(a: Report, b: Report, labels: tuple[str, str] = ("A", "B")) -> str:
    """Winner, reason, turns, survivors and each character's end, in two columns."""
    ra, rb = a.result, b.result
    rows = [("", labels[0], labels[1]),
            ("winner", f"{ra.winner} ({ra.reason})", f"{rb.winner} ({rb.reason})"),
            ("turns", str(ra.turns), str(rb.turns)),
            ("White standing", str(_standing(a, "white")), str(_standing(b, "white"))),
            ("Black standing", str(_standing(a, "black")), str(_standing(b, "black")))]
    finals_b = {c.name: c for c in rb.final}
    for c in ra.final:
        other = finals_b.get(c.name)
        end_b = "-" if other is None else ("down" if other.down else f"HP {other.hp} on {square_name(other.square)}")
        rows.append((c.name, "down" if c.down else f"HP {c.hp} on {square_name(c.square)}", end_b))
    width = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join(f"{r[0]:<{width[0]}}  {r[1]:<{width[1]}}  {r[2]}".rstrip() for r in rows) + "\n"
