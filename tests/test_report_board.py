"""Board diagrams: grid, legend, narrowing, and full-width names kept aligned."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from referee.diagnostics import display_width
from referee.report.boardview import BoardView, draw_board, pad
from referee.report.markup import MarkdownMarkup, TextMarkup


def inputs(*chars: tuple[str, str, int]) -> dict[str, Any]:
    return {"rules": {"map": {"width": 8, "height": 8, "blocked": []}},
            "characters": [{"name": n, "team": t, "max_hp": hp} for n, t, hp in chars]}


def ev(kind: str, **fields: Any) -> SimpleNamespace:
    return SimpleNamespace(TYPE=kind, **fields)


def test_pieces_are_drawn_where_the_events_put_them() -> None:
    view = BoardView(inputs(("Kagura", "white", 12), ("Ash", "black", 12)))
    view.apply(ev("placed", actor="Kagura", square="c3", hp=12, max_hp=12))
    view.apply(ev("placed", actor="Ash", square="c6", hp=12, max_hp=12))
    view.apply(ev("moved", actor="Kagura", from_square="c3", to_square="c4"))
    view.apply(ev("damage", target="Ash", amount=3, hp_after=9))
    lines = draw_board(view, "en")
    assert lines[0].split() == list("abcdefgh")
    assert lines[1 + 8 - 4].split()[0] == "4" and lines[1 + 8 - 4].split()[3] == "W1"
    assert lines[1 + 8 - 6].split()[3] == "B1"
    assert any("Ash" in row and "HP  9/12" in row for row in lines)


def test_shared_square_down_and_narrowed_field() -> None:
    view = BoardView(inputs(("A", "white", 8), ("B", "white", 8), ("C", "black", 8)))
    for name in "ABC":
        view.apply(ev("placed", actor=name, square="d4", hp=8, max_hp=8))
    view.apply(ev("down", target="C", square="d4", cause="skill"))
    view.apply(ev("narrowing", stage=1, kept="b2-g7"))
    lines = draw_board(view, "en")
    row4 = lines[1 + 8 - 4]
    assert "W1+" in row4 and "B1" not in row4
    assert lines[1].split()[1:] == ["#"] * 8            # rank 8 removed
    assert lines[2].split()[1] == "#" and lines[2].split()[2] == "."   # a7 removed, b7 kept
    assert any("(down)" in line for line in lines)
    assert any("outside the field" in line for line in lines)


def test_full_width_names_keep_the_legend_aligned() -> None:
    view = BoardView(inputs(("かぐら", "white", 12), ("Ash", "black", 8), ("イア=テム", "black", 16)))
    for name, sq in (("かぐら", "a1"), ("Ash", "b2"), ("イア=テム", "c3")):
        view.apply(ev("placed", actor=name, square=sq, hp=8, max_hp=8))
    for lang in ("en", "ja"):
        legend = [line for line in draw_board(view, lang) if line.startswith("  W") or line.startswith("  B")]
        columns = {display_width(line[: line.index("HP")]) for line in legend}
        assert len(columns) == 1, legend


def test_pad_counts_cells() -> None:
    assert pad("かぐら", 8) == "かぐら  " and pad("Ash", 5) == "Ash  "


def test_text_table_aligns_by_display_width_and_markdown_escapes() -> None:
    rows = TextMarkup().table(["name", "hp"], [["かぐら", "12"], ["Ash", "3"]])
    assert len({display_width(r[: r.index(r.split()[-1])]) for r in (rows[0], rows[2], rows[3])}) == 1
    md = MarkdownMarkup()
    assert md.table(["a|b"], [["x*y"]]) == ["| a\\|b |", "|---|", "| x\\*y |"]
    assert md.pre(["x"]) == ["```text", "x", "```"]


def test_neighbours_never_run_together_and_every_shared_square_is_listed() -> None:
    """Issue 15, item 3: ``W1+W2`` hid who was where."""
    view = BoardView(inputs(("A", "white", 8), ("B", "white", 8), ("C", "black", 8), ("D", "black", 8)))
    for name, square in (("A", "c4"), ("B", "c4"), ("C", "d4"), ("D", "d4")):
        view.apply(ev("placed", actor=name, square=square, hp=8, max_hp=8))
    view.apply(ev("down", target="D", square="d4", cause="skill"))
    lines = draw_board(view, "en")
    row4 = lines[1 + 8 - 4]
    assert row4.split()[1:5] == [".", ".", "W1+", "B1"]
    assert "  c4  W1 A, W2 B" in lines and "  d4  B1 C, B2 D (down)" in lines
    assert lines.index("Shared squares:") < lines.index("Legend:")


def test_shared_squares_in_japanese_keep_full_width_names_aligned() -> None:
    view = BoardView(inputs(("かぐら", "white", 8), ("巴", "white", 8), ("Ash", "black", 8), ("Bo", "black", 8)))
    for name, square in (("かぐら", "c4"), ("巴", "c4"), ("Ash", "h1"), ("Bo", "h1")):
        view.apply(ev("placed", actor=name, square=square, hp=8, max_hp=8))
    lines = draw_board(view, "ja")
    start = lines.index("同じマスにいるキャラクター：")
    rows = lines[start + 1: start + 3]
    assert rows == ["  c4  W1 かぐら、W2 巴", "  h1  B1 Ash、B2 Bo"]
    legend = [line for line in lines if line.startswith("  W") or line.startswith("  B")]
    assert len({display_width(line[: line.index("HP")]) for line in legend}) == 1


def test_quiet_event_types_are_real_and_never_move_the_view() -> None:
    """Issue 18: BoardView.apply answers its quiet types first; each must be
    a real event type that its if-chain does not handle."""
    import inspect

    from referee.engine.events import EVENT_TYPES
    from referee.report import boardview

    assert boardview._QUIET <= set(EVENT_TYPES)
    source = inspect.getsource(boardview.BoardView.apply)
    for kind in boardview._QUIET:
        assert f'"{kind}"' not in source
