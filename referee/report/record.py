"""The battle record: normalised inputs + events + result, and its JSON form.

Style lesson 8, "the input record *is* the replay": a :class:`Report` holds
the referee version, the ruleset's name and digest, the seed, the normalised
inputs (sheets, plans as their text, setup, order, and the few ruleset facts a
reader needs: house rules and skill names) and the engine's event list.  The
JSON rendering of a report is enough to resolve the battle again exactly:
:func:`referee.app.inputs.setup_from_inputs` rebuilds the engine's
``BattleSetup`` from the inputs alone, and ``referee resolve`` itself goes
through it, so a resolve and a replay cannot differ in what they feed the
engine.

Renderers read only a :class:`Report` (events + inputs), never the engine,
the ruleset object or the files.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Mapping

from referee.engine.events import Event, is_decision

__all__ = [
    "Report",
    "report_to_json",
    "report_from_json",
    "inputs_digest",
    "dumps_report",
]

#: Version of the JSON report layout (bumped when a field changes meaning).
REPORT_FORMAT = 1


@dataclass(frozen=True)
class Report:
    """One resolved battle, everything a renderer may read.

    :param referee: the referee version that resolved it.
    :param ruleset: ``{"name", "digest"}``.
    :param seed: the seed used (from the file, the command line, or drawn).
    :param seed_source: ``file``, ``option`` or ``drawn`` (os.urandom).
    :param inputs: the normalised inputs (see :func:`referee.app.inputs.battle_inputs`).
    :param events: the engine's events (``referee.engine.events``).
    :param result: the engine's ``BattleResult``.
    :param commitment: ``{"commitment", "scheme"}`` when the seed came from a
        round's committed secret (``referee.app.seeds``), else ``None``.
    """

    referee: str
    ruleset: Mapping[str, str]
    seed: int | str
    seed_source: str
    inputs: Mapping[str, Any]
    events: tuple[Any, ...]
    result: Any
    commitment: Mapping[str, str] | None = None
    #: Whether the report keeps its decision events (``events.is_decision``):
    #: a lean report (``False``, a round's default json) writes its json
    #: without them and says so as ``"decisions": false``, so ``replay``
    #: compares a resolution written the same way.
    decisions: bool = True

    @property
    def title(self) -> str:
        return str(self.inputs.get("title", ""))

    def characters(self) -> list[Mapping[str, Any]]:
        """Normalised characters in roster order (White, then Black)."""
        return list(self.inputs["characters"])


# ----------------------------------------------------------------------- JSON


def report_to_json(report: Report, *, with_events: bool = True) -> dict[str, Any]:
    """The JSON report of interfaces.md, keys in a fixed order.

    :param with_events: ``False`` leaves ``events`` as ``None`` (its place
        kept) for :func:`dumps_report`, which writes them itself."""
    return {
        "referee": report.referee,
        "format": REPORT_FORMAT,
        "ruleset": {"name": report.ruleset["name"], "digest": report.ruleset["digest"]},
        "seed": report.seed,
        "seed_source": report.seed_source,
        # Only rounds with a seed commitment carry the key (older reports unchanged).
        **({"seed_commitment": dict(report.commitment)} if report.commitment else {}),
        # Only lean reports carry the key (every complete report is unchanged).
        **({"decisions": False} if not report.decisions else {}),
        "inputs": report.inputs,
        "inputs_digest": inputs_digest(report.inputs),
        "events": [e.to_json() for e in written_events(report)] if with_events else None,
        "result": report.result.to_json(),
    }


def inputs_digest(inputs: Mapping[str, Any]) -> dict[str, str]:
    """A short sha256 of each embedded input, key by key, so ``replay`` can
    name an input edited by hand (``inputs.title``): the title and file
    names change no event, so re-resolving cannot see them.  Each input is
    hashed as canonical JSON (sorted keys, no spaces, UTF-8).

    The files the battle read (``inputs.sources``) are listed each under
    ``source:PATH`` with its full sha256 -- the digest the round's receipt
    gave the player (``docs/intake.md``) -- so a report proves which version
    of a player's file it used.

    >>> inputs_digest({"title": "Round 3"})
    {'title': 'b260e314b2717b4a'}
    >>> inputs_digest({"sources": {"a.yaml": "ab" * 32}})["source:a.yaml"] == "ab" * 32
    True
    """
    out: dict[str, str] = {}
    for key, value in inputs.items():
        if key == "sources" and isinstance(value, Mapping):
            out.update({f"source:{path}": str(sha) for path, sha in value.items()})
            continue
        out[str(key)] = _digest(json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
    return out


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def report_from_json(data: Mapping[str, Any]) -> Report:
    """Rebuild a :class:`Report` from :func:`report_to_json` output.

    :raises KeyError, TypeError, ValueError: on a malformed document (the
        caller turns these into a diagnostic).
    """
    from referee.engine.events import BattleResult, event_from_json

    return Report(
        referee=str(data["referee"]),
        ruleset={"name": str(data["ruleset"]["name"]), "digest": str(data["ruleset"]["digest"])},
        seed=data["seed"],
        seed_source=str(data.get("seed_source", "file")),
        inputs=data["inputs"],
        events=tuple(event_from_json(e) for e in data["events"]),
        result=BattleResult.from_json(data["result"]),
        commitment=data.get("seed_commitment"),
        decisions=_decisions_flag(data.get("decisions", True)),
    )


def _decisions_flag(value: Any) -> bool:
    """The report's ``decisions`` key: absent (true) or a JSON boolean.

    :raises TypeError: on anything else (a hand-edited report)."""
    if not isinstance(value, bool):
        raise TypeError(f"'decisions' must be true or false, not {value!r}")
    return value


#: An event line's encoder: ``json.dumps(value, ensure_ascii=False)``,
#: configured once.  An event's JSON is a tree built afresh by ``to_json``,
#: so there is no cycle to look for.
_EVENT_ENCODER = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def dumps_report(report: Report) -> str:
    """Deterministic JSON text: two-space indentation for the header and the
    inputs, one compact event per line (a diff of two reports shows the
    events that differ), a final newline."""
    members = []
    for key, value in report_to_json(report, with_events=False).items():
        if key == "events":
            text = _events_text(written_events(report))
        else:
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        members.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(members) + "\n}\n"


def written_events(report: Report) -> tuple[Event, ...]:
    """The events the report's json holds: every one, or for a lean report
    all but the decision events."""
    return report.events if report.decisions else tuple([e for e in report.events if not is_decision(e)])


def _events_text(events: tuple[Event, ...]) -> str:
    """The ``events`` list, one event per line."""
    if not events:
        return "[]"
    lines = map(_EVENT_ENCODER.encode, (e.to_json() for e in events))
    return "[\n    " + ",\n    ".join(lines) + "\n  ]"
