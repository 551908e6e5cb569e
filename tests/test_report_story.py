"""The story first (issue 15, item 1): highlights, folded turns, --full."""

from __future__ import annotations

import re
from pathlib import Path

from reporthelpers import FIXTURES, resolved, standoff_text

from referee.report import render
from referee.report.story import MIN_FOLD, read_story

R2 = FIXTURES / "round" / "r2.battle.yaml"


def test_the_stalled_round_fixture_folds_its_repeated_turns() -> None:
    """r2 is a 2v2 whose last 55 turns repeat one exchange on one square."""
    rep = resolved(str(R2))
    story = read_story(rep)
    assert [(f.first, f.last) for f in story.folds] == [(47, 99)]
    fold = story.folds[0]
    damage = sum(e.amount for e in rep.events if e.TYPE == "damage" and 47 <= e.turn <= 99)
    healed = sum(e.amount for e in rep.events if e.TYPE == "heal" and 47 <= e.turn <= 99)
    assert (fold.damage, fold.healed) == (damage, healed) and not fold.quiet
    text = render(rep, "text", "en")
    assert len(text.splitlines()) < 400
    assert "- Turns 47-99 (53 turns): the same exchange over and over; nobody moved or fell" in text
    assert f"{damage} damage, {healed} HP healed; every square and HP ends as after turn 46" in text
    for turn in (*range(1, 47), 100):  # every turn outside the fold is written
        assert re.search(rf"^- Turn {turn}( · .*)?$", text, re.M), turn


def test_full_keeps_every_sentence_the_compact_log_leaves_out() -> None:
    rep = resolved(str(R2))
    full = render(rep, "text", "en", full=True)
    assert "Turns 47-99" not in full
    for turn in range(1, rep.result.turns + 1):
        assert f"\nTurn {turn}\n" in full
    # every damage and every chance roll is written in full, never folded
    assert full.count("→ HP") >= sum(e.TYPE in ("damage", "heal") for e in rep.events)
    assert full.count(" chance, ") == sum(e.TYPE == "chance_roll" for e in rep.events)
    compact = render(rep, "text", "en")
    assert " chance, " not in compact


def test_quiet_turns_fold_into_no_hp_changed(tmp_path: Path) -> None:
    text = standoff_text(tmp_path, 6)
    assert "- Turns 1-5: no HP changed; everyone held position" in text
    assert "- Turn 6" in text  # the last turn is how the battle ended: never folded
    assert MIN_FOLD <= 5


def test_battles_that_keep_changing_are_not_folded() -> None:
    for name in ("duel", "melee", "skirmish"):
        assert read_story(resolved(str(FIXTURES / f"{name}.battle.yaml"))).folds == ()


def test_highlights_name_the_knock_outs_and_the_biggest_hits() -> None:
    rep = resolved(str(FIXTURES / "melee.battle.yaml"))
    story = read_story(rep)
    downs = [e for e in rep.events if e.TYPE == "down"]
    assert [(k.turn, k.target) for k in story.knockouts] == [(e.turn, e.target) for e in downs]
    biggest = max(e.amount for e in rep.events if e.TYPE == "damage" and e.cause != "narrowing")
    assert story.biggest_hits and max(h.amount for h in story.biggest_hits) == biggest
    summary = render(rep, "text", "en").split("\nArmies\n")[0]
    for e in downs[:6]:
        assert f"turn {e.turn}: " in summary and e.target in summary
    assert "KO · 1 more in the log" in summary


def test_untold_event_types_are_real_and_read_by_no_part_of_the_story() -> None:
    """Issue 18: read_story skips its untold types at once; none may be one
    the story, the board view or the status book reads."""
    import inspect

    from referee.engine.events import EVENT_TYPES
    from referee.report import boardview, story

    assert story._UNTOLD <= set(EVENT_TYPES)
    readers = inspect.getsource(story.read_story) + inspect.getsource(story._StatusBook)
    for kind in story._UNTOLD:
        assert f'"{kind}"' not in readers and kind not in story._BREAKERS
        assert kind in boardview._QUIET or kind not in inspect.getsource(boardview.BoardView.apply)
