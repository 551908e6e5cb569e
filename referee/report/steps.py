"""The HTML replay's steps: what the board shows and says, one action at a time.

Issue 15, item 4: a step is the start, one action, one narrowing, or the end.
Each carries the narration line -- the very line the compact text log writes
for that action (:class:`Narrator` is the written report with its layout
switched off) -- who acted and who was targeted, the HP each character
gained or lost, the moves, knockbacks and pushes as arrows, and the board
after it (rebuilt by :class:`~referee.report.boardview.BoardView`).
Everything is read from the events; nothing here formats prose of its own.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

from referee.report.boardview import QUIET_TYPES, BoardView, file_letters, square_text
from referee.report.markup import TextMarkup
from referee.report.messages import message, word
from referee.report.record import Report
from referee.report.written import DETAIL_TYPES, EXPLAIN_ONLY_TYPES, WrittenReport, result_sentence

__all__ = ["Narrator", "Step", "replay_steps"]

#: A piece as a step keeps it, and the part of it the page reads: both in C,
#: for every piece at every step (issue 18: hundreds of steps a battle).
_PIECE_ROW = operator.attrgetter("symbol", "square", "hp", "down")
_SHOWN = operator.itemgetter(1, 2, 3)


class Narrator(WrittenReport):
    """The written report's sentences without its layout: after each
    ``action_end`` :attr:`finished` holds the action's compact log line;
    sentences outside an action (the narrowing) collect in :attr:`loose`."""

    def __init__(self, report: Report, lang: str) -> None:
        super().__init__(report, lang, TextMarkup(), full=False)
        self.loose: list[str] = []
        self.finished = ""

    def _block(self, kind: str, lines: list[str]) -> None:
        """Headings, boards and tables are the page's business, not the narration's."""

    def _item(self, text: str, depth: int | None = None) -> None:
        if self._action is not None:
            self._sentences.append(text)
        else:
            self.loose.append(text)

    def _flush_moves(self) -> None:
        """Each action is its own step: nothing to merge."""

    def _end_action(self) -> None:
        self._depth = 0
        if self._action is None:
            return
        heading, sentences = self._action_heading(self._action), self._sentences
        self._action, self._sentences = None, []
        self.finished = (self._m("compact.action", action=heading,
                                 sentences=word(self.lang, "compact.sep").join(sentences))
                         if sentences else self._m("narrate.idle", action=heading))

    def take_loose(self) -> str:
        text, self.loose = word(self.lang, "compact.sep").join(self.loose), []
        return text


@dataclass
class Step:
    """One position of the replay (JSON-ready through :meth:`to_json`)."""

    label: str
    turn: int
    text: str = ""
    actor: str | None = None
    targets: list[str] = field(default_factory=list)
    hp_changes: dict[str, int] = field(default_factory=dict)
    arrows: list[tuple[str, str, str]] = field(default_factory=list)  # from, to, kind
    downs: list[str] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    pieces: list[tuple[str, str | None, int, bool]] = field(default_factory=list)  # symbol, square, hp, down
    #: The objects still standing (R-SOUL-TERR-1), on a board that has any; None: none ever.
    objects: list[str] | None = None

    def target(self, name: str) -> None:
        if name != self.actor and name not in self.targets:
            self.targets.append(name)

    def change_hp(self, name: str, delta: int) -> None:
        self.hp_changes[name] = self.hp_changes.get(name, 0) + delta

    def to_json(self, index: dict[str, int]) -> dict[str, Any]:
        return {
            "label": self.label,
            "turn": self.turn,
            "text": self.text,
            "actor": index.get(self.actor, -1) if self.actor else -1,
            "targets": [index[n] for n in self.targets if n in index],
            "fx": [[index[n], d] for n, d in self.hp_changes.items() if n in index and d != 0],
            "arrows": [list(a) for a in self.arrows],
            "downs": [index[n] for n in self.downs if n in index],
            "kept": self.kept,
            "pieces": list(map(list, map(_SHOWN, self.pieces))),  # [square, hp, down] each
            # only a board with objects carries the key (every other replay unchanged)
            **({"objects": self.objects} if self.objects is not None else {}),
        }


def replay_steps(report: Report, lang: str) -> list[Step]:
    """The start, each action, each narrowing and the end, in battle order."""
    view = BoardView(report.inputs)
    narrator = Narrator(report, lang)
    handlers = narrator.bound_handlers()
    steps: list[Step] = []
    pending: Step | None = None
    turn = 0

    has_objects = bool(view.objects)

    def snapshot(step: Step) -> Step:
        step.kept = list(view.kept)
        if has_objects:  # R-SOUL-TERR-2: an object leaves the board when destroyed
            step.objects = sorted(f"{file_letters(x)}{y + 1}" for x, y in view.objects)
        step.pieces = list(map(_PIECE_ROW, view.pieces.values()))
        steps.append(step)
        return step

    def close_narrowing() -> None:
        nonlocal pending
        if pending is not None and pending.actor is None:
            pending.text = narrator.take_loose()
            snapshot(pending)
            pending = None

    fallback = narrator.on_unhandled
    for event in report.events:
        kind = event.TYPE
        if kind in EXPLAIN_ONLY_TYPES:
            # the narrator never explains: their handlers return at once, and
            # they change neither the board nor a step (issue 18)
            continue
        if kind in ("turn_start", "narrowing"):
            close_narrowing()
            narrator.take_loose()  # (a per-turn initiative roll is not the narrowing's story)
        if kind == "turn_start":
            if not steps:
                snapshot(Step(word(lang, "html.start"), 0, message(lang, "html.start_text", title=report.title)))
            turn = event.turn
        if kind not in DETAIL_TYPES:
            handlers.get(kind, fallback)(event)
        if kind not in QUIET_TYPES:
            view.apply(event)
        if kind == "action_start":
            pending = Step(f"{message(lang, 'turn', turn=turn)} · {event.actor}", turn, actor=event.actor)
        elif kind == "narrowing":
            pending = Step(message(lang, "narrowing.board", turn=turn), turn)
        elif pending is not None:
            _collect(pending, event)
        if kind == "action_end" and pending is not None:
            pending.text = narrator.finished
            snapshot(pending)
            pending = None
        elif kind == "battle_end":
            if pending is not None and pending.actor is not None:
                pending.text = narrator.finished  # the battle ended inside this action
                snapshot(pending)
                pending = None
            close_narrowing()
            if not steps:
                snapshot(Step(word(lang, "html.start"), 0, message(lang, "html.start_text", title=report.title)))
            snapshot(Step(word(lang, "html.end"), turn, result_sentence(lang, event.result,
                                                                      report.inputs.get("rules", {}).get("goal"))))
    return steps


def _collect(step: Step, e: Any) -> None:
    """What one event inside an action or a narrowing shows on the board."""
    kind = e.TYPE
    if kind == "skill_used":
        for name in e.targets:
            step.target(name)
    elif kind == "damage":
        step.target(e.target)
        step.change_hp(e.target, -e.amount)
    elif kind == "heal":
        step.target(e.target)
        step.change_hp(e.target, e.amount)
    elif kind in ("knockback", "pushed", "moved"):
        src, dst = square_text(e.from_square), square_text(e.to_square)
        if src != dst:
            step.arrows.append((src, dst, {"knockback": "knock", "pushed": "push", "moved": "move"}[kind]))
        if kind != "moved":
            step.target(e.target)
    elif kind == "down":
        step.downs.append(e.target)
    # d20pool (variant-d20.md): a push's ride and a revival show on the board
    elif kind == "ridden":
        src, dst = square_text(e.from_square), square_text(e.to_square)
        if src != dst:
            step.arrows.append((src, dst, "knock"))
        step.target(e.target)
    elif kind == "revived":
        step.target(e.target)
