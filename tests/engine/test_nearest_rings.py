"""HP falls only where ``settle_downs`` hears of it."""

from __future__ import annotations


def test_hp_is_assigned_only_where_settle_downs_hears_of_it() -> None:
    """``settle_downs`` reads the characters ``lose_hp`` took to 0 (issue 18),
    so HP may fall nowhere else: every assignment to ``.hp`` in the engine is
    in ``core.py`` (``lose_hp``, ``gain_hp``) or d20pool's revival (which
    raises it)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "referee" / "engine"
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and t.attr == "hp":
                    found.append(f"{path.relative_to(root)}:{type(node).__name__}")
    allowed = {"core.py:AugAssign", "mechanics/d20pool.py:Assign", "state.py:Assign"}
    assert found and set(found) <= allowed, found
