"""Field narrowing (R-NARROW-1..4)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.board import Rect, parse_rect, rect_name
from referee.engine import events as E
from referee.engine.core import Resolution
from referee.engine.rng import choose
from referee.mechanicspec import NarrowingStage


def narrow_if_due(b: Resolution, schedule: Sequence[NarrowingStage]) -> None:
    """After turn N (a stage of the ruleset's schedule): push everyone in a
    removed area to its clamped kept area, all together; then each pushed
    character takes its body in damage (not a hit); sinkings of removed areas
    end; the map loses the removed areas; then one R-GOAL-1 check."""
    st = b.state
    stages = [s for s in schedule if s.after_turn == st.turn]
    if not stages:
        return
    stage = stages[0]
    st.narrowing_stage += 1
    rect = parse_rect(stage.keep)
    if stage.keep_one_of:
        one = choose(b.rng, "ties", rect.squares())
        rect = Rect(one.file, one.rank, one.file, one.rank)
    b.emit(E.Narrowing(turn=st.turn, stage=st.narrowing_stage, kept=rect_name(rect)))
    pushed = []
    for f in st.fighters:
        if f.down or rect.contains(f.square):
            if f.down and st.revivable and not rect.contains(f.square):
                st.move(f, rect.clamp(f.square))  # R-D20-KO-1: the return area, clamped, no damage
            continue
        start = f.square
        st.move(f, rect.clamp(start))
        pushed.append(f)
        b.emit(E.Pushed(turn=st.turn, target=f.name, from_square=start, to_square=f.square))
        b.mechanics.hit.relocated(b, f, "pushed")  # R-WIZ-AIM-1: aim ends when it is pushed
    for sink in [s for s in st.sinks if not rect.contains(s.square)]:
        st.sinks.remove(sink)
        b.emit(E.SinkEnded(turn=st.turn, actor=sink.owner, square=sink.square, cause="narrowing",
                           rule="R-NARROW-2"))
    st.graph = st.graph.restricted_to(rect)
    st.kept = rect
    for f in pushed:
        b.lose_hp(f, f.body, "narrowing", rule="R-NARROW-2")
    b.settle_downs("narrowing")
    b.check_end()
