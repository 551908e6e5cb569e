"""The written battle report (``text``, ``md``, ``bbcode``, ``discord``): what a game master posts.

A visitor over the event list (style lesson 7): one ``on_<type>`` method per
event type, each turning one event into one sentence of the message table
(:mod:`referee.report.messages`) in the chosen language.  The layout, story
first (issue 15):

1. title, referee version, ruleset and digest, seed;
2. the summary, which can be posted alone: the result and the rule that
   ended it, the highlights (:mod:`referee.report.story`), the final table
   and the board at the end;
3. the armies (abilities, HP, patterns, skills, plans) and the house rules;
4. starting positions, initiative and the action order, the board at the start;
5. each turn: each action in order with its uses, damage and HP after,
   knockbacks, movement, KOs; the narrowing with its pushes and a board;
6. the result again, closing the log.

By default the log is *compact*: one line per action that did something
(the same sentences, joined), the dice of chance rolls and the panels spent
by obstruction left out, and repeated turns folded into one line
(:data:`referee.report.story.MIN_FOLD`).  ``full=True`` (``--full``) writes
every sentence of every turn, as json always keeps every event.

Decision events (``skill_order``, ``skill_passed``, ``targets_chosen``,
``stayed``, ``pattern_selected``, ``panels_reset``) are only written with
``explain=True`` (``--explain``), which implies the full log.
"""

from __future__ import annotations

from typing import Any

from referee.engine.events import DECISION_TYPES, EXTEND_MAX, PatternSelected
from referee.report.boardview import BoardView, board_picture, square_text
from referee.report.markup import Markup
from referee.report.messages import MESSAGES, message, skill_label, team_label, word
from referee.report.record import Report
from referee.report.story import Story, read_story
from referee.report.visitor import EventVisitor

__all__ = ["WrittenReport", "render_written", "DETAIL_TYPES", "EXPLAIN_ONLY_TYPES", "result_sentence"]

#: Events the compact log leaves out (still in ``--full`` and json): the
#: dice of a chance roll (its outcome is the next sentence, or nothing) and
#: the panel an obstruction spent.
DETAIL_TYPES = frozenset({"chance_roll", "panel_used"})

#: Decision events whose sentence is only written with ``explain`` (their
#: handlers return at once otherwise); the render loop skips them in one set
#: lookup, with no call -- most of a battle's events (issue 18, item 4).
#: Every decision event but ``pattern_selected``, whose switch is always
#: written: the engine's list (``events.DECISION_TYPES``) is the one copy.
EXPLAIN_ONLY_TYPES: frozenset[str] = DECISION_TYPES - {PatternSelected.TYPE}


class WrittenReport(EventVisitor):
    """Renders one :class:`Report` as lines of ``markup`` in ``lang``."""

    def __init__(self, report: Report, lang: str, markup: Markup, *, explain: bool = False,
                 full: bool = False) -> None:
        self.report = report
        self.lang = lang
        self._messages = MESSAGES[lang]
        self.markup = markup
        #: d20pool: criticals per character, in roster order (R-D20-CHECK-2's
        #: tuning tally, shown after the result); None until a d20 check is seen.
        self._tuning: dict[str, int] | None = None
        self.explain = explain
        self.full = full or explain
        self.names = report.inputs.get("skill_names", {})
        #: skill id -> its label in ``lang``: a battle names the same few
        #: skills hundreds of times (issue 18)
        self._skill_labels: dict[str, str] = {}
        self._sep = self._messages["compact.sep"]
        self._list_sep = self._messages["list.sep"]
        self._none = self._messages["none"]
        #: a tuple of panel indexes -> its text (``1, 3``), once per report
        self._panel_texts: dict[tuple[int, ...], str] = {}
        self.max_hp = {c["name"]: int(c["max_hp"]) for c in report.characters()}
        #: The board before any event; the boards of the log are the story
        #: pass's copies (:meth:`Story.view_before`), this one only stands in
        #: for them when a subclass drives the handlers without :meth:`render`.
        self.view = BoardView(report.inputs)
        self._story: Story | None = None
        self.lines: list[str] = []
        self._last_kind = ""
        self._depth = 0
        self._section = ""
        self._start_board_done = False
        self._narrowed_turn: int | None = None
        self._turn_open = False
        #: compact log: the turn's title, written in front of its first line
        self._turn_label: str | None = None
        #: compact log: the action being written (its ``action_start``; the
        #: heading is only formatted when the action has something to say)
        #: and its sentences so far
        self._action: Any = None
        self._sentences: list[str] = []
        self._only_moves = True
        #: compact log: move-only actions waiting to be written as one line
        self._moves: list[str] = []
        self._kind = ""

    # -- blocks -------------------------------------------------------------

    def _block(self, kind: str, lines: list[str]) -> None:
        """Append a block; blocks are separated by one blank line, except
        consecutive list items, which stay together."""
        if self.lines and not (kind == "item" and self._last_kind == "item"):
            self.lines.append("")
        self.lines.extend(lines)
        self._last_kind = kind

    def _m(self, key: str, **fields: Any) -> str:
        """:func:`~referee.report.messages.message` in this report's language,
        its table looked up once (issue 18: thousands of sentences a report)."""
        return self._messages[key].format_map(fields)

    def _item(self, text: str, depth: int | None = None) -> None:
        if self._action is not None and not self.full:
            self._sentences.append(text)
            self._only_moves = self._only_moves and self._kind == "moved"
            return
        depth = self._depth if depth is None else depth
        if self._turn_label is not None and depth > 0:
            # the compact log: "Turn 4 · Cole (d5, HP 8): ..." saves a line per turn
            label, self._turn_label = self._turn_label, None
            self._block("item", self.markup.item(self._m("compact.turn", turn=label, text=text), depth - 1))
            return
        self._block("item", self.markup.item(text, depth))

    def _why(self, text: str) -> None:
        if self.explain:
            self._item(word(self.lang, "explain") + text)

    def _heading(self, text: str) -> None:
        self._block("heading", self.markup.heading(text))

    def _para(self, text: str) -> None:
        self._block("para", self.markup.para(text))

    def _section_once(self, key: str) -> None:
        if self._section != key:
            self._section = key
            self._heading(word(self.lang, key))

    def _board(self, heading: str, view: BoardView) -> None:
        self._heading(heading)
        # the compact log's boards after the start name each piece on one line
        legend: bool | str = True if self.full or not self._start_board_done else "short"
        self._block("pre", self.markup.board(board_picture(view, self.lang, legend=legend)))

    def _view_before(self, turn: int | None) -> BoardView:
        """The board as turn ``turn`` begins (None: as the battle ends), from
        the story pass, which has already walked every event (issue 18)."""
        return self.view if self._story is None else self._story.view_before(turn)

    def _open_turn(self, title: str) -> None:
        self._close_turn()
        if not self.full and self.markup.inline_turns:
            self._turn_label = title
        else:
            self._block("turn", self.markup.turn_open(title, compact=not self.full))
        self._turn_open = True

    def _close_turn(self) -> None:
        self._end_action()
        self._flush_moves()
        if self._turn_label is not None:  # a turn in which nothing was written
            label, self._turn_label = self._turn_label, None
            self._block("item", self.markup.item(label, 0))
        if self._turn_open:
            self._turn_open = False
            closing = self.markup.turn_close()
            if closing:
                self._block("turn_end", closing)

    def _skill(self, skill_id: str | None) -> str:
        if not skill_id:
            return "-"
        label = self._skill_labels.get(skill_id)
        if label is None:
            label = self._skill_labels[skill_id] = skill_label(self.lang, skill_id, self.names)
        return label

    def _list(self, names: Any) -> str:
        items = list(map(str, names))
        return self._list_sep.join(items) if items else self._none

    # -- the whole report -----------------------------------------------------

    def render(self) -> str:
        story = self._story = read_story(self.report)
        self._header()
        self._summary(story)
        self._armies()
        if self.full:
            self._full_log()
        else:
            self._compact_log(story)
        return "\n".join(self.lines).rstrip("\n") + "\n"

    def _full_log(self) -> None:
        """Every event to its handler (``--full``, ``--explain``); without
        ``--explain`` the decision events, which say nothing, skipped before
        any call (issue 18, item 4)."""
        handlers = self.bound_handlers()
        fallback = self.on_unhandled
        silent = frozenset() if self.explain else EXPLAIN_ONLY_TYPES
        for event in self.report.events:
            kind = event.TYPE
            if kind in silent:
                continue
            self._kind = kind
            handlers.get(kind, fallback)(event)

    def _compact_log(self, story: Story) -> None:
        """The compact log: the same handlers, with three shortcuts taken in
        the loop (issue 18), none of which changes a line:

        - the dice and spent panels (:data:`DETAIL_TYPES`) and the decision
          events are skipped before any call;
        - the events of a folded turn are not read at all: the fold's line
          stands for them and the boards come from the story pass;
        - an action is only opened (``on_action_start``) when an event inside
          it reaches a handler: most actions of a battle say nothing, and one
          that does not ends as it began, with ``_depth`` back at 0."""
        handlers = self.bound_handlers()
        fallback = self.on_unhandled
        silent = DETAIL_TYPES | EXPLAIN_ONLY_TYPES
        folded = story.folded_turns
        pending: Any = None  # the action_start of an action that has said nothing yet
        for event in self.report.events:
            kind = event.TYPE
            if kind in silent:
                continue
            if folded and event.turn in folded and kind != "battle_end":
                if kind == "turn_start":
                    fold = story.fold_starting(event.turn)
                    if fold is not None:
                        self._fold(fold)
                continue
            if kind == "action_start" and self._action is None:
                pending = event
                continue
            if pending is not None:
                if kind == "action_end":
                    pending = None
                    self._depth = 0
                    continue
                self._action, self._sentences, self._depth = pending, [], 1
                pending = None
            self._kind = kind
            handlers.get(kind, fallback)(event)

    def _header(self) -> None:
        r = self.report
        self._block("title", self.markup.title(r.title))
        self._para(self._m("report.referee", version=r.referee, ruleset=r.ruleset["name"],
                           digest=r.ruleset["digest"][:12], seed=r.seed,
                           drawn=word(self.lang, "report.seed_drawn") if r.seed_source == "drawn" else ""))
        if r.commitment:  # a committed round (referee.app.seeds): how to check the seed
            self._para(self._m("report.seed_commitment", commitment=r.commitment["commitment"]))
        for ruling in r.inputs.get("nmr", ()):  # the round's missing-plan rule (referee.intake.nmr)
            self._para(self._m(f"nmr.{ruling['policy']}", player=ruling["player"], detail=ruling["detail"],
                               character=self._list(ruling["characters"])))

    # -- the summary (issue 15: the story first) ---------------------------------

    def _summary(self, story: Story) -> None:
        """Result, highlights, final table and end board: a post on its own."""
        result = self.report.result
        self._heading(word(self.lang, "section.summary"))
        self._para(result_sentence(self.lang, result, self.report.inputs.get("rules", {}).get("goal")))
        for line in self._highlights(story):
            self._item(line, 0)
        pieces = story.final_view.pieces
        header = word(self.lang, "final.header").split("|")
        rows = [
            [pieces[c.name].symbol if c.name in pieces else "-", c.name, team_label(self.lang, c.team),
             f"{c.hp}/{self.max_hp.get(c.name, c.hp)}", square_text(c.square),
             word(self.lang, "final.down" if c.down else "final.standing")]
            for c in result.final
        ]
        self._block("table", self.markup.table(header, rows))
        self._block("pre", self.markup.board(board_picture(story.final_view, self.lang, legend=False)))

    def _highlights(self, story: Story) -> list[str]:
        out = []
        shown = story.knockouts[:MAX_KNOCKOUTS]
        for ko in shown:
            if ko.by is not None and ko.skill is not None:
                out.append(self._m("summary.ko", turn=ko.turn, by=ko.by, skill=self._skill(ko.skill),
                                   target=ko.target, square=ko.square))
            else:
                out.append(self._m("summary.ko.cause", turn=ko.turn, target=ko.target, square=ko.square,
                                   cause=self._cause(ko.cause)))
        if len(story.knockouts) > len(shown):
            out.append(self._m("summary.more", count=len(story.knockouts) - len(shown)))
        for hit in story.biggest_hits:
            if hit.actor is not None and hit.skill is not None:
                out.append(self._m("summary.hit", when=self._when(hit.turns), actor=hit.actor,
                                   skill=self._skill(hit.skill), amount=hit.amount, target=hit.target))
            else:
                out.append(self._m("summary.hit.cause", when=self._when(hit.turns), target=hit.target,
                                   amount=hit.amount, cause=self._cause(hit.cause)))
        for stage in story.narrowings:
            out.append(self._m("summary.narrowing", turn=stage.turn, kept=_area_text(stage.kept),
                               pushed=stage.pushed, damage=stage.damage))
        winner = self.report.result.winner
        if winner in ("white", "black"):
            decisive = [c for c in story.lead_changes if c.leader == winner]
            later = [c for c in story.lead_changes if decisive and c.turn > decisive[-1].turn]
            if decisive and not later and decisive[-1].turn == self.report.result.turns:
                out.append(self._m("summary.lead.last", turn=decisive[-1].turn, team=team_label(self.lang, winner)))
            elif decisive and not later:
                c = decisive[-1]
                out.append(self._m("summary.lead", turn=c.turn, team=team_label(self.lang, winner),
                                   heads_w=c.heads[0], heads_b=c.heads[1], hp_w=c.hp[0], hp_b=c.hp[1]))
            elif not story.lead_changes:
                out.append(self._m("summary.lead.start", team=team_label(self.lang, winner)))
        for fold in story.folds:
            out.append(self._m("summary.fold", first=fold.first, last=fold.last))
        return out

    def _when(self, turns: tuple[int, ...]) -> str:
        """``turn 12`` or ``turns 12, 13, 17``."""
        key = "summary.turns" if len(turns) > 1 else "summary.turn"
        return self._m(key, turns=self._list(str(t) for t in sorted(turns)))

    def _cause(self, cause: str) -> str:
        return self.report_word(f"cause.{cause}", cause)

    def _fold(self, fold: Any) -> None:
        """One line for a run of repeated turns (:mod:`referee.report.story`)."""
        self._close_turn()
        self._flush_boards(fold.first)
        self._section_once("section.turns")
        key = "fold.quiet" if fold.quiet else "fold.repeat"
        self._item(self._m(key, first=fold.first, last=fold.last, turns=fold.turns, skills=fold.skills_used,
                           hits=fold.hits, damage=fold.damage, healed=fold.healed, before=fold.first - 1), 0)

    # -- the armies and the house rules ------------------------------------------

    def _armies(self) -> None:
        r = self.report
        self._heading(word(self.lang, "section.armies"))
        chars = r.characters()
        for team in ("white", "black"):
            self._item(self._m("army", team=team_label(self.lang, team),
                               names=self._list(c["name"] for c in chars if c["team"] == team)), 0)
        for c in chars:
            self._character(c)
        self._rules()

    def _character(self, c: Any) -> None:
        self._item(self._m("character", name=c["name"], body=c["body"], reflex=c["reflex"],
                           intellect=c["intellect"], max_hp=c["max_hp"]), 0)
        patterns = [
            self._m("character.pattern_when", elements=p["elements"], condition=p["condition"])
            if p["condition"] else p["elements"]
            for p in c["patterns"]
        ]
        self._item(self._m("character.patterns", patterns=self._list(patterns)), 1)
        self._item(self._m("character.skills", skills=self._list(self._skill(s) for s in c["skills"])), 1)
        plan = c.get("plan")
        if plan is None:
            self._item(word(self.lang, "character.no_plan"), 1)
            return
        self._item(self._m("character.plan", file=plan["file"]), 1)
        text_lines = plan["text"].splitlines()
        while text_lines and not text_lines[-1].strip():
            text_lines.pop()
        # Numbered, so "plan line 3" in the turns (and --explain) can be found.
        width = len(str(len(text_lines)))
        self._block("pre", self.markup.pre([f"{n:>{width}} | {line}".rstrip() for n, line in enumerate(text_lines, 1)]))

    def _rules(self) -> None:
        rules = self.report.inputs.get("rules", {})
        if not rules:
            return
        self._heading(word(self.lang, "section.rules"))
        if rules.get("description"):
            self._item(self._m("rules.description", description=rules["description"]), 0)
        m = rules["map"]
        blocked = self._m("rules.blocked", squares=self._list(m["blocked"])) if m["blocked"] else ""
        self._item(self._m("rules.map", width=m["width"], height=m["height"], adjacency=self.report_word(f"adjacency.{m['adjacency']}", m["adjacency"]),
                           blocked=blocked), 0)
        self._item(self._m("rules.turn_limit", turns=rules["turn_limit"]), 0)
        if rules["narrowing"]:
            turns = self._list(str(n["after_turn"]) for n in rules["narrowing"])
            self._item(self._m("rules.narrowing", turns=turns), 0)
        else:
            self._item(word(self.lang, "rules.narrowing_none"), 0)
        ini = rules.get("initiative")
        if ini:
            self._item(self._m("rules.initiative", dice=ini["dice"], sides=ini["sides"],
                               reroll=word(self.lang, f"rules.reroll.{ini['reroll']}")), 0)
        if rules.get("goal"):
            num, den = rules["goal"]
            self._item(self._m("rules.goal", num=num, den=den), 0)
        mechanics = rules.get("mechanics") or {}
        self._item(self._m("rules.mechanics", mechanics=self._list(f"{slot} {kind}" for slot, kind in mechanics.items())), 0)

    def _flush_boards(self, turn: int | None) -> None:
        """The start board, and the board after a narrowing, as turn ``turn``
        begins (None: as the battle ends)."""
        if not self._start_board_done:
            self._start_board_done = True
            self._board(word(self.lang, "section.start_board"), self._view_before(turn))
        if self._narrowed_turn is not None:
            narrowed, self._narrowed_turn = self._narrowed_turn, None
            self._board(self._m("narrowing.board", turn=narrowed), self._view_before(turn))
            self._section = ""  # the compact log's "Turn by turn" heading again after the board

    # -- setup -----------------------------------------------------------------

    def on_battle_start(self, e: Any) -> None:
        pass

    def on_placed(self, e: Any) -> None:
        self._section_once("section.setup")
        key = "placed.drawn" if e.drawn else "placed.fixed"
        self._item(self._m(key, actor=e.actor, team=team_label(self.lang, e.team), square=square_text(e.square),
                           hp=e.hp, max_hp=e.max_hp), 0)

    def on_initiative_roll(self, e: Any) -> None:
        if e.turn == 0:
            self._section_once("section.initiative")
            depth = 0
        else:
            depth = 1
        dice = "+".join(str(d) for d in e.dice[:3]) + ("".join(f" ({d})" for d in e.dice[3:]))
        self._item(self._m("initiative", actor=e.actor, dice=dice, value=e.value), depth)

    def on_action_order(self, e: Any) -> None:
        order = " → ".join(e.order)
        if e.turn == 0:
            self._para(self._m("order.fixed" if e.fixed else "order.rolled", order=order))
        else:
            self._item(self._m("order.turn", order=order), 0)

    # -- turns and actions -----------------------------------------------------

    def on_turn_start(self, e: Any) -> None:
        self._close_turn()
        self._flush_boards(e.turn)
        if self.full:
            self._section = ""
        else:
            self._section_once("section.turns")
        self._open_turn(self._m("turn", turn=e.turn))
        self._depth = 0

    def on_action_start(self, e: Any) -> None:
        if self.full:
            self._item(self._action_heading(e), 0)
        else:  # the heading waits: most actions say nothing in the compact log (issue 18)
            self._action, self._sentences = e, []
        self._depth = 1

    def _action_heading(self, e: Any) -> str:
        """``Cole (d5, HP 8)``: who acts, from where, with what HP (``action_start``)."""
        return self._m("action", actor=e.actor, square=square_text(e.square), hp=e.hp)

    def on_action_end(self, e: Any) -> None:
        self._end_action()

    def _end_action(self) -> None:
        """Writes the compact log's line for the action (also when the battle
        ends in the middle of it, before its ``action_end``)."""
        self._depth = 0
        if self._action is None:
            return
        start, sentences, only_moves = self._action, self._sentences, self._only_moves
        self._action, self._sentences, self._only_moves = None, [], True
        if sentences and only_moves:
            self._moves.extend(sentences)  # "Goro moves e4 → f5" names its actor already
        elif sentences:
            self._flush_moves()
            self._item(self._m("compact.action", action=self._action_heading(start),
                               sentences=self._sep.join(sentences)), 1)

    def _flush_moves(self) -> None:
        """Consecutive actions that only moved, as one line of the compact log."""
        if self._moves:
            moves, self._moves = self._moves, []
            self._item(self._sep.join(moves), 1)

    def on_pattern_selected(self, e: Any) -> None:
        if e.switched and e.reason != "first":
            self._item(self._m("pattern.switched", elements=e.elements))
        if not self.explain:
            return
        self._why(self._m("pattern.explain", elements=e.elements,
                          reason=word(self.lang, f"pattern.reason.{e.reason}")))

    def on_panels_reset(self, e: Any) -> None:
        if not self.explain:
            return
        if e.kept:
            self._why(self._m("panels.kept", panels=self._list(str(i + 1) for i in e.kept)))

    def on_skill_order(self, e: Any) -> None:
        if not self.explain:
            return
        skills = self._list(self._skill(s) for s in e.skills)
        if e.moved_by:
            self._why(self._m("skill_order.moved", skills=skills, lines=self._list(str(n) for n in e.moved_by)))
        else:
            self._why(self._m("skill_order", skills=skills))

    def on_skill_passed(self, e: Any) -> None:
        if not self.explain:
            return
        reason = self.report_word(f"passed.reason.{e.reason}", e.reason)
        if e.detail:
            reason += f" ({e.detail})"
        if e.line:
            self._why(self._m("passed.line", skill=self._skill(e.skill), reason=reason, line=e.line))
        else:
            self._why(self._m("passed", skill=self._skill(e.skill), reason=reason))

    def report_word(self, key: str, fallback: str) -> str:
        """A table word, or ``fallback`` when the engine used a new reason."""
        try:
            return word(self.lang, key)
        except KeyError:
            return fallback

    def on_targets_chosen(self, e: Any) -> None:
        if not self.explain:
            return
        fields = dict(skill=self._skill(e.skill), candidates=self._list(e.candidates),
                      preference=self._preference(e.preference),
                      targets=self._list(e.targets))
        if e.extend_requested or e.extended:
            asked = word(self.lang, "extend.max") if e.extend_requested == EXTEND_MAX else e.extend_requested
            self._why(self._m("targets.extend", requested=asked, extended=e.extended, **fields))
        else:
            self._why(self._m("targets", **fields))

    def _preference(self, text: str) -> str:
        if text.startswith("named "):
            return self._m("pref.named", name=text[len("named "):])
        return self.report_word(f"pref.{text}", text)

    def on_skill_used(self, e: Any) -> None:
        used = e.panels
        panels = self._panel_texts.get(used) if used.__class__ is tuple else None
        if panels is None:
            panels = self._list([i + 1 for i in used])
            if used.__class__ is tuple:
                self._panel_texts[used] = panels
        key = ("used.panels" if len(used) > 1 else "used.panel") if used else "used"
        self._item(self._m(key, skill=self._skill(e.skill), targets=self._list(e.targets), panels=panels))

    def on_maintain_started(self, e: Any) -> None:
        self._item(self._m("maintain.started", actor=e.actor, skill=self._skill(e.skill)))

    def on_maintain_released(self, e: Any) -> None:
        cause = self.report_word(f"maintain.cause.{e.cause}", e.cause)
        self._item(self._m("maintain.released", actor=e.actor, skill=self._skill(e.skill), cause=cause))

    def on_chance_roll(self, e: Any) -> None:
        kind, _, status = e.effect.partition(":")
        effect = (self.report_word(f"status.noun.{status}", status) if status
                  else self.report_word(f"effect.{kind}", kind))
        key = "chance.success" if e.success else "chance.failure"
        self._item(self._m(key, effect=effect, skill=self._skill(e.skill), target=e.target,
                           numerator=e.numerator, denominator=e.denominator))

    # -- responses ---------------------------------------------------------------

    def on_obstructed(self, e: Any) -> None:
        self._item(self._m("obstructed", actor=e.actor, skill=self._skill(e.skill), by=e.by,
                           against=self._skill(e.against_skill)))

    def on_reaction(self, e: Any) -> None:
        if e.kind == "defence":
            self._item(self._m("reaction.defence", actor=e.actor, skill=self._skill(e.skill), reduce=e.reduce))
        else:
            self._item(self._m("reaction.counter", actor=e.actor, skill=self._skill(e.skill), attacker=e.attacker))

    def on_counter_missed(self, e: Any) -> None:
        reason = self.report_word(f"counter_missed.{e.reason}", e.reason)
        self._item(self._m("counter_missed", actor=e.actor, skill=self._skill(e.skill), target=e.target,
                           reason=reason))

    def on_damage(self, e: Any) -> None:
        element = (self._m("damage.element", element=self.report_word(f"element.{e.element}", e.element))
                   if e.element else "")
        reduced = self._m("damage.reduced", printed=e.printed, reduced=e.reduced) if e.reduced else ""
        key = f"damage.{e.cause}" if e.cause in ("skill", "counter", "wall", "poison", "narrowing", "boost") else "damage.other"
        if e.amount == 0 and e.reduced and e.cause in ("skill", "counter"):
            key += ".blocked"  # not "takes 0 damage (2 less 2)": the defence stopped it all
        self._item(self._m(key, target=e.target, amount=e.amount, hp_after=e.hp_after, element=element,
                           reduced=reduced, cause=e.cause, printed=e.printed))

    def on_heal(self, e: Any) -> None:
        key = "heal"
        if e.amount == 0:  # not "recovers 0 HP"
            key = "heal.full" if e.hp_after >= self.max_hp.get(e.target, e.hp_after + 1) else "heal.none"
        self._item(self._m(key, target=e.target, amount=e.amount, hp_after=e.hp_after))

    def on_panel_used(self, e: Any) -> None:
        if e.panel is None:
            self._item(self._m("panel_used.none", target=e.target, skill=self._skill(e.skill)))
        else:
            self._item(self._m("panel_used", target=e.target, panel=e.panel + 1, skill=self._skill(e.skill)))

    def _status_fields(self, e: Any) -> dict[str, Any]:
        status = self.report_word(f"status.{e.status}", e.status)
        index = getattr(e, "index", None)
        pattern = getattr(e, "pattern", None)
        shown_index = index if e.object == "clause" or index is None else index + 1
        try:
            obj = self._m(f"status.object.{e.object}", index=shown_index,
                          pattern=(pattern + 1) if isinstance(pattern, int) else pattern)
        except KeyError:
            obj = f" ({e.object})"
        return {"status": status, "object": obj}

    def _status_part(self, e: Any) -> str | None:
        """``plan line 1`` when the status lands on a part of the character
        (a clause, a skill entry, a panel), None when on the character: the
        sentence then says *that part* is bound, not the character."""
        if e.object == "character" or getattr(e, "index", None) is None:
            return None
        index = e.index if e.object == "clause" else e.index + 1
        pattern = getattr(e, "pattern", None)
        try:
            return self._m(f"status.part.{e.object}", index=index,
                           pattern=(pattern + 1) if isinstance(pattern, int) else pattern)
        except KeyError:
            return None

    def on_status_applied(self, e: Any) -> None:
        duration = self._m("status.duration", duration=e.duration) if e.duration else ""
        part = self._status_part(e)
        if part is not None:
            status = self.report_word(f"status.{e.status}", e.status)
            self._item(self._m("status.applied.part", target=e.target, object=part, status=status,
                               duration=duration))
            return
        self._item(self._m("status.applied", target=e.target, duration=duration, **self._status_fields(e)))

    def on_status_no_effect(self, e: Any) -> None:
        status = self.report_word(f"status.noun.{e.status}", e.status)
        self._item(self._m("status.no_effect", skill=self._skill(e.skill), target=e.target, status=status,
                           reason=self.report_word(f"noeffect.{e.reason}", e.reason)))

    def on_status_expired(self, e: Any) -> None:
        part = self._status_part(e)
        if part is not None:
            self._item(self._m("status.expired.part", target=e.target, object=part,
                               status=self.report_word(f"status.{e.status}", e.status)))
            return
        self._item(self._m("status.expired", target=e.target, **self._status_fields(e)))

    def on_status_cleansed(self, e: Any) -> None:
        part = self._status_part(e)
        if part is not None:
            self._item(self._m("status.cleansed.part", target=e.target, object=part, skill=self._skill(e.skill),
                               status=self.report_word(f"status.noun.{e.status}", e.status)))
            return
        self._item(self._m("status.cleansed", target=e.target, skill=self._skill(e.skill), **self._status_fields(e)))

    def on_knockback(self, e: Any) -> None:
        key = "knockback.wall" if e.wall else "knockback"
        self._item(self._m(key, target=e.target, from_=square_text(e.from_square), to=square_text(e.to_square)))

    def on_sink_started(self, e: Any) -> None:
        self._item(self._m("sink.started", actor=e.actor, skill=self._skill(e.skill), square=square_text(e.square)))

    def on_sink_ended(self, e: Any) -> None:
        self._item(self._m("sink.ended", square=square_text(e.square), cause=e.cause))

    # -- movement, narrowing, KO -------------------------------------------------

    def on_moved(self, e: Any) -> None:
        fields = dict(actor=e.actor, from_=square_text(e.from_square), to=square_text(e.to_square))
        if e.toward:
            self._item(self._m("moved.toward", toward=self.report_word(f"toward.{e.toward}", e.toward), **fields))
        else:
            self._item(self._m("moved", **fields))

    def on_stayed(self, e: Any) -> None:
        if not self.explain:
            return
        reason = self.report_word(f"stayed.reason.{e.reason}", e.reason)
        self._why(self._m("stayed", actor=e.actor, square=square_text(e.square), reason=reason))

    def on_narrowing(self, e: Any) -> None:
        self._flush_moves()
        self._item(self._m("narrowing", turn=e.turn, stage=e.stage, kept=_area_text(e.kept)),
                   0 if self.full else 1)
        self._depth = 1 if self.full else 2
        self._narrowed_turn = e.turn

    def on_pushed(self, e: Any) -> None:
        self._item(self._m("pushed", target=e.target, from_=square_text(e.from_square), to=square_text(e.to_square)))

    def on_down(self, e: Any) -> None:
        self._item(self._m("down", target=e.target, square=square_text(e.square)))

    # -- the end ---------------------------------------------------------------------

    def on_battle_end(self, e: Any) -> None:
        self._close_turn()
        self._flush_boards(None)
        self._heading(word(self.lang, "section.result"))
        self._para(result_sentence(self.lang, e.result, self.report.inputs.get("rules", {}).get("goal")))
        if self._tuning is not None:  # d20pool (variant-d20.md)
            tally = word(self.lang, "list.sep").join(
                self._m("d20.tuning.one", name=name, count=count) for name, count in self._tuning.items())
            self._para(self._m("d20.tuning", tally=tally))

    # --- d20pool (variant-d20.md) ---------------------------------------------------

    def on_turn_roll(self, e: Any) -> None:
        self._item(self._m("d20.turn_roll", actor=e.actor, number=e.number, roll=e.roll,
                           rolls=self._list(e.key)))

    def on_turn_selected(self, e: Any) -> None:
        self._why(self._m("d20.turn_selected", actor=e.actor, square=square_text(e.square), number=e.number,
                          contenders=self._list(e.contenders)))

    def on_d20_check(self, e: Any) -> None:
        if self._tuning is None:
            self._tuning = {c.name: 0 for c in self.report.result.final}
        if e.critical:
            self._tuning[e.actor] = self._tuning.get(e.actor, 0) + 1
        ability = word(self.lang, f"d20.ability.{e.ability}")
        dropped = self._m("d20.dropped", dropped=e.dropped, kept=len(e.dice)) if e.dropped else ""
        mods = "".join(f" + {v}" for v in e.modifiers.values() if v)
        total = (word(self.lang, "d20.fumble") if e.fumble
                 else f"{e.highest}{mods} = {e.achievement}" if mods else str(e.achievement))
        critical = word(self.lang, "d20.critical") if e.critical else ""
        self._item(self._m(f"d20.check.{e.check}", actor=e.actor, skill=self._skill(e.skill), ability=ability,
                           pool=e.pool, dropped=dropped, dice=" ".join(str(d) for d in e.dice), total=total,
                           critical=critical))

    def on_hit_test(self, e: Any) -> None:
        key = "d20.hit" if e.hit else "d20.miss"
        self._item(self._m(key, target=e.target, achievement=e.achievement, sensitivity=e.sensitivity))

    def on_margin(self, e: Any) -> None:
        self._item(self._m("d20.margin", attack=e.attack, defence=e.defence, margin=e.margin))

    def on_support(self, e: Any) -> None:
        stuck = self._m("d20.support.stuck", stuck=self.report_word(f"d20.stuck.{e.stuck}", e.stuck)) if e.stuck else ""
        when = word(self.lang, "d20.support.first" if e.first else "d20.support.after")
        self._why(self._m(f"d20.support.{e.kind}", actor=e.actor, when=when, stuck=stuck))

    def on_move_end(self, e: Any) -> None:
        reason = self.report_word(f"stayed.reason.{e.reason}", e.reason)
        if e.phase in ("first", "second"):  # soulwired's two moves (R-SOUL-ACT-1)
            self._why(self._m("soul.move_end", actor=e.actor, phase=self._m(f"soul.phase.{e.phase}"), steps=e.steps,
                              points_left=e.points_left, reason=reason))
            return
        self._why(self._m("d20.move_end", actor=e.actor, steps=e.steps, points_left=e.points_left, reason=reason))

    def on_ridden(self, e: Any) -> None:
        key = "d20.ridden.blocked" if e.blocked else "d20.ridden"
        self._item(self._m(key, actor=e.actor, target=e.target, from_=square_text(e.from_square),
                           to=square_text(e.to_square)))

    def on_revived(self, e: Any) -> None:
        self._item(self._m(f"d20.revived.{e.cause}", target=e.target, square=square_text(e.square), hp=e.hp))

    # --- soulwired (variant-soulwired.md) ---

    def on_initiative_ranked(self, e: Any) -> None:
        """R-SOUL-INIT-1: the ability order, with the tie dice when rolled."""
        self._section_once("section.initiative")
        ties = self._m("soul.initiative.ties", rolls=" ".join(str(r) for r in e.tie_rolls)) if e.tie_rolls else ""
        self._item(self._m("soul.initiative", actor=e.actor, score=e.score, ties=ties), 0)

    def _soul_dice(self, faces: Any) -> str:
        return " ".join(str(f) for f in faces) if faces else self._m("soul.no_dice")

    def on_d6_check(self, e: Any) -> None:
        """R-SOUL-CHECK-1/2: the pool as rolled, as a GM says it."""
        causes = [self._m(f"soul.step.{s['cause']}") for s in e.steps]
        fields = dict(actor=e.actor, ability=self._m(f"soul.ability.{e.ability}"), n=len(e.dice),
                      difficulty=e.difficulty, steps=f" ({', '.join(causes)})" if causes else "",
                      dice=self._soul_dice(e.dice), outcome=self._m("soul.success" if e.success else "soul.failure"))
        if e.check == "attack":
            self._item(self._m("soul.check.attack", skill=self._skill(e.skill), **fields))
        else:
            self._item(self._m("soul.check.maneuver", **fields))

    def on_evasion(self, e: Any) -> None:
        """R-SOUL-HIT-3..5: dice committed, faces, and the dice left."""
        self._why(self._m(f"soul.evasion.why.{e.reason}", n=e.committed, before=e.dice_before, line=e.line))
        if e.committed == 0:
            key = "soul.evasion.never" if e.reason == "clause" and e.dice_before else "soul.evasion.none"
            self._item(self._m(key, actor=e.actor, line=e.line))
            return
        level = self._m("soul.evasion.level", level=e.level) if e.melee and e.level else ""
        self._item(self._m("soul.evasion", actor=e.actor, n=e.committed, difficulty=e.difficulty, level=level,
                           dice=self._soul_dice(e.dice), left=e.dice_left,
                           outcome=self._m("soul.evaded" if e.evaded else "soul.hit")))

    def on_evasion_dice(self, e: Any) -> None:
        """R-SOUL-HIT-2: the refill is said in the full log only."""
        if self.full:
            self._item(self._m(f"soul.evasion_dice.{e.cause}", actor=e.actor, dice=e.dice))

    def on_turn_stalled(self, e: Any) -> None:
        run = self._m("soul.stalled.run", run=e.run) if e.level else ""
        self._item(self._m("soul.stalled", stalled=e.stalled, run=run), 0)

    def on_hard_mode(self, e: Any) -> None:
        self._item(self._m("soul.hard_mode", level=e.level, difficulty=e.melee_evasion_difficulty), 0)

    # --- wiz (variant-wiz.md) ---
    def on_initiative_value(self, e: Any) -> None:
        """R-WIZ-IN-1: the IN and its parts, under the initiative heading."""
        if e.turn == 0:
            self._section_once("section.initiative")
        self._item(self._m("wiz.initiative_value", actor=e.actor, value=e.value, reflex=e.reflex,
                           move=e.move, flexible_bonus=e.flexible_bonus), 0 if e.turn == 0 else 1)

    def on_d100_check(self, e: Any) -> None:
        """R-WIZ-HIT-1/2: the die, the chance and its parts (facing or missile)."""
        outcome = self._m("wiz.hit" if e.hit else "wiz.miss")
        common = dict(actor=e.actor, target=e.target, skill=self._skill(e.skill), die=e.die, chance=e.chance,
                      base=e.base, reflex_mod=e.reflex_mod, outcome=outcome)
        if e.facing is None and e.aimed:  # R-WIZ-AIM-1: no missile penalty
            self._item(self._m("wiz.d100.aimed", **common))
        elif e.facing is None:
            self._item(self._m("wiz.d100.missile", missile_penalty=e.missile_penalty, **common))
        else:
            self._item(self._m("wiz.d100.melee", facing=self._m(f"wiz.facing.{e.facing}"),
                               facing_bonus=e.facing_bonus, **common))

    # --- orm (variant-orm.md) ---
    def on_initiative_score(self, e: Any) -> None:
        """R-ORM-INIT-1: 行動値 + the die, every turn."""
        self._item(self._m("orm.initiative", actor=e.actor, base=e.base, die=e.die, value=e.value))

    def on_initiative_tie(self, e: Any) -> None:
        """R-ORM-INIT-2: who shared a 先制値 and how it was settled."""
        how = (self._m("orm.initiative_tie.drawn", draws=self._list(e.draws)) if e.draws
               else word(self.lang, "orm.initiative_tie.settled"))
        self._item(self._m("orm.initiative_tie", value=e.value, tied=self._list(e.tied), order=self._list(e.order),
                           how=how))

    def on_phase_start(self, e: Any) -> None:
        self._why(self._m(f"orm.phase.{e.phase}", actor=e.actor, uses=e.uses))

    def on_simple_use(self, e: Any) -> None:
        """R-ORM-ACT-2/3: what each simple use was spent on (``--explain``)."""
        self._why(self._m(f"orm.simple_use.{e.kind}", n=e.n, skill=self._skill(e.skill),
                          from_=square_text(e.from_square), to=square_text(e.to_square), steps=e.steps))

    def on_nd6_check(self, e: Any) -> None:
        """R-ORM-CHK-1: every face, the value, support, critical and fumble,
        as a GM posts it: ``3d6+3 [5,4,2]+3 +2 (Lu) = 14``."""
        bonus = e.value - sum(e.dice) - e.ability_value - e.support
        fields = dict(actor=e.actor, skill=self._skill(e.skill), against=e.against or "",
                      ability=word(self.lang, f"orm.ability.{e.ability}"), count=len(e.dice), x=e.ability_value,
                      dice="[" + ",".join(str(d) for d in e.dice) + "]",
                      support=self._m("orm.support", support=e.support, supporter=e.supporter) if e.support else "",
                      critical=self._m("orm.critical", bonus=bonus) if e.critical else "",
                      fumble=word(self.lang, "orm.fumble") if e.fumble else "", value=e.value)
        self._item(self._m(f"orm.check.{e.role}", **fields))

    def on_opposed_result(self, e: Any) -> None:
        """R-ORM-CHK-3: the comparison and who won (the reaction wins ties)."""
        self._item(self._m(f"orm.opposed.{e.reason}", actor=e.actor, target=e.target, action=e.action_value,
                           reaction=e.reaction_value))

    def on_damage_roll(self, e: Any) -> None:
        """R-ORM-DMG-1: power + dice (+ critical) − element defence."""
        element = self.report_word(f"element.{e.element}", e.element)
        self._item(self._m("orm.damage_roll", power=e.power, dice="[" + ",".join(str(d) for d in e.dice) + "]",
                           critical=self._m("orm.damage_roll.critical", bonus=e.critical_bonus) if e.critical_bonus else "",
                           defence=self._m("orm.damage_roll.defence", defence=e.defence, element=element)
                           if e.defence else "", total=e.total))

    def on_heal_roll(self, e: Any) -> None:
        self._item(self._m("orm.heal_roll", base=e.base, dice="[" + ",".join(str(d) for d in e.dice) + "]",
                           total=e.total))

    def on_follow_up(self, e: Any) -> None:
        """R-ORM-SUP-2: the follower, whom it supports, and the target."""
        self._item(self._m("orm.follow_up", actor=e.actor, supporting=e.supporting, target=e.target))
    # --- wiz: casts and area uses (variant-wiz.md R-WIZ-EV-1) ---
    def on_cast(self, e: Any) -> None:
        """R-WIZ-CAST-1: the cast, its payment and when it goes off."""
        extend = self._m("wiz.cast.extend", extend=e.extend) if e.extend else ""
        self._item(self._m("wiz.cast", actor=e.actor, skill=self._skill(e.skill), value=e.value, extend=extend,
                           panels=self._list(str(i + 1) for i in e.panels), resolves_at=e.resolves_at))

    def on_cast_resolves(self, e: Any) -> None:
        self._item(self._m("wiz.cast_resolves", actor=e.actor, skill=self._skill(e.skill), value=e.value,
                           square=square_text(e.square)))

    def on_cast_lost(self, e: Any) -> None:
        self._item(self._m(f"wiz.cast_lost.{e.reason}", actor=e.actor, skill=self._skill(e.skill)))

    # --- wiz: the aim module (R-WIZ-AIM-1) ---
    def on_aimed(self, e: Any) -> None:
        """R-WIZ-AIM-1: who took aim at whom, and by which plan line."""
        self._item(self._m("wiz.aimed", actor=e.actor, target=e.target, line=e.line))

    def on_aim_lost(self, e: Any) -> None:
        """R-WIZ-AIM-1: an aim ends (moved, pushed, a missile use on another)."""
        self._item(self._m(f"wiz.aim_lost.{e.reason}", actor=e.actor, target=e.target))

    def on_area_roll(self, e: Any) -> None:
        """R-WIZ-AREA-2: kept for the tally line, which opens with the roll."""
        self._wiz_roll = e

    def on_area_groups(self, e: Any) -> None:
        """R-WIZ-AREA-3/4: the groups with their numbered members."""
        self._wiz_groups = {g["label"]: len(g["members"]) for g in e.groups}
        groups = []
        for g in e.groups:
            members = [self._m("wiz.member", number=m["number"], name=m["name"]) if m["role"] == "wanted" else
                       self._m("wiz.member.role", number=m["number"], name=m["name"],
                               role=self._m(f"wiz.role.{m['role']}"))
                       for m in g["members"]]
            groups.append(self._m("wiz.group", label=g["label"], members=self._list(members)))
        self._item(self._m("wiz.groups", groups="; ".join(groups)))

    def on_area_selection(self, e: Any) -> None:
        """R-WIZ-AREA-5..7: the seed's walk-through as one line (roll, each
        group with its penalty and run, change and amplify), then --explain's why."""
        roll = getattr(self, "_wiz_roll", None)
        sizes: dict[str, int] = getattr(self, "_wiz_groups", {})
        parts = []
        if roll is not None:
            a, b = roll.area.split("x")
            parts.append(self._m("wiz.tally.roll", skill=self._skill(e.skill), dice_name=f"{a}d{b}",
                                 dice=",".join(str(d) for d in roll.dice), total=roll.total))
        if e.fizzled:
            parts.append(self._m("wiz.tally.fizzled"))
        entered: dict[str, Any] | None = None
        for step in e.tally:
            kind = step["kind"]
            if kind == "enter":
                entered = step
            elif kind == "take":
                label = step["group"]
                if e.partial is not None and e.partial["label"] == label:
                    run = f"{e.partial['from']}-{e.partial['to']}"
                else:
                    run = f"1-{sizes.get(label, step['amount'])}"
                excluded = (self._m("wiz.tally.excluded", numbers=", ".join(str(n) for n in step["excluded"]))
                            if step["excluded"] else "")
                if entered is None:
                    parts.append(self._m("wiz.tally.first", label=label, run=run, excluded=excluded,
                                         total=step["total"]))
                else:
                    parts.append(self._m("wiz.tally.next", label=label, penalty=-entered["amount"],
                                         max=entered["max"], run=run, excluded=excluded, total=step["total"]))
                entered = None
            elif kind in ("change", "amplify"):
                if entered is not None:  # the group entered already: its penalty, then the change
                    parts.append(self._m("wiz.tally.enter", label=entered["group"], penalty=-entered["amount"],
                                         max=entered["max"]))
                    entered = None
                parts.append(self._m(f"wiz.tally.{kind}", amount=step["amount"], max=step["max"]))
        self._item(" | ".join(parts))
        targets = self._list(e.targets) if e.targets else self._m("wiz.selection.none")
        self._why(self._m("wiz.selection.explain", count=e.count, roll=roll.total if roll is not None else 0,
                          change=e.change, amplify=e.amplify, penalty=e.penalty, slots=e.slots, levels=e.levels,
                          targets=targets))
    # --- soulwired, issue 12: terrain, stances, moves, armour, objects ---
    def on_terrain(self, e: Any) -> None:
        """R-SOUL-TERR-1: the terrain, under the setup heading."""
        self._section_once("section.setup")
        parts = []
        if e.blocked:
            parts.append(self._m("soul.terrain.blocked", squares=self._list(square_text(s) for s in e.blocked)))
        if e.barriers:
            parts.append(self._m("soul.terrain.barriers", squares=self._list(square_text(s) for s in e.barriers)))
        for o in e.objects:
            parts.append(self._m("soul.terrain.object", square=o["square"], strength=o["strength"],
                                 armour=o["armour"]))
        self._item(self._m("soul.terrain", parts=word(self.lang, "list.sep").join(parts)), 0)

    def on_stance(self, e: Any) -> None:
        """R-SOUL-STANCE-*: the stance; ``--explain`` says why."""
        if e.reason == "clause":
            self._why(self._m("soul.stance.why.clause", line=e.line))
        else:
            self._why(self._m(f"soul.stance.why.default.{e.stance}"))
        if e.stance != "none" or self.full:
            self._item(self._m(f"soul.stance.{e.stance}", actor=e.actor))

    def on_move_phase(self, e: Any) -> None:
        if self.full:
            self._item(self._m(f"soul.move_phase.{e.phase}", actor=e.actor, points=e.points))

    def on_armour(self, e: Any) -> None:
        self._item(self._m("soul.armour", target=e.target, armour=e.armour))

    def on_object_hit(self, e: Any) -> None:
        self._item(self._m("soul.object_hit", actor=e.actor, skill=self._skill(e.skill), square=square_text(e.square),
                           amount=e.amount, armour=e.armour, strength_after=e.strength_after))

    def on_object_destroyed(self, e: Any) -> None:
        self._item(self._m("soul.object_destroyed", square=square_text(e.square)))

    def on_unhandled(self, e: Any) -> None:
        raise TypeError(f"the written report has no sentence for event type {e.TYPE!r}")


def render_written(report: Report, lang: str, markup: Markup, *, explain: bool = False, full: bool = False) -> str:
    """The written report as one string ending in a newline."""
    return WrittenReport(report, lang, markup, explain=explain, full=full).render()


#: Knock-outs the summary names one by one; more are counted.
MAX_KNOCKOUTS = 6


def result_sentence(lang: str, result: Any, goal: Any = None) -> str:
    """The result and the rule that ended it (R-GOAL-1/2, R-TURN-9).
    ``goal``: the ruleset's R-GOAL-1 fraction from the report's inputs; at 0
    (R-ORM-END-1) the other army has no one standing, not "a third"."""
    winner = team_label(lang, result.winner)
    if result.winner == "draw":
        key = f"result.draw.{result.reason}"
    else:
        key = f"result.{result.reason}"
        if result.reason == "army_reduced" and isinstance(goal, list) and goal and goal[0] == 0:
            key = "result.army_reduced.none"
        standing = {team: sum(1 for c in result.final if c.team == team and not c.down) for team in ("white", "black")}
        if result.reason == "turn_limit" and standing["white"] == standing["black"]:
            key = "result.turn_limit.hp"  # equal heads: total HP decided (R-GOAL-2)
    try:
        return message(lang, key, winner=winner, turns=result.turns)
    except KeyError:
        return message(lang, "result.other", winner=winner if result.winner != "draw" else word(lang, "result.draw_word"),
                       reason=result.reason, turns=result.turns, rule=result.rule)


def _area_text(rect: str) -> str:
    """``"b2-g7"`` as it is; a one-area stage ``"e4-e4"`` as ``"e4"`` (R-NARROW-1's last stage)."""
    first, _, last = rect.partition("-")
    return first if first == last else rect
