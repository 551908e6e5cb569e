"""The conformance suite covers every rule of the tcgt ruleset (sections A and B)
and the rules common to every ruleset (section C, R-VAR-*).

Issue 4: "a test fails if a rule ID in rules.md has no test naming it".  A
rule counts as covered when some test function is *named* after it
(``test_r_move_5_...`` for R-MOVE-5), as the DATC names its cases; a rule
merely mentioned in a comment or docstring does not count.  The IDs are read
from the rulebook the project ships, ``docs/rules.md`` (issue 14: no
``../shared`` needed), which ``tests/test_docs_rules.py`` keeps in step with
the spec.

A variant's rules (sections D onwards: R-ORM-*, R-WIZ-*, R-SOUL-*, R-D20-*)
are checked as soon as its ruleset is built in (``referee/data/rulesets/
<name>.yaml`` exists): from then on every one of its IDs needs a test named
after it, just like tcgt's.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
RULES = TESTS.parent / "docs" / "rules.md"
RULE_ID = re.compile(r"\*\*(R-[A-Za-z0-9-]+)\*\*")
RULESETS = TESTS.parent / "referee" / "data" / "rulesets"
#: Built-in variant ruleset -> the prefix of its rule IDs (variant-*.md).
VARIANT_PREFIXES = {"orm": "R-ORM-", "wiz": "R-WIZ-", "soulwired": "R-SOUL-", "d20pool": "R-D20-"}


def rule_ids_of_sections_a_to_c(text: str) -> list[str]:
    """Every bold rule ID from '## A.' up to '## D.' (tcgt's sections A and B
    and section C's R-VAR-*, common to every ruleset), in the order written."""
    start = text.index("\n## A.")
    end = text.index("\n## D.")
    return RULE_ID.findall(text[start:end])


def collect_test_names() -> set[str]:
    """Names of every ``test_*`` function under tests/ (parsed, not imported)."""
    names: set[str] = set()
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names.update(node.name for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))
    return names


def name_prefix(rule_id: str) -> str:
    """R-ST-BIND -> test_r_st_bind (the prefix a test named after it starts with)."""
    return "test_" + rule_id.lower().replace("-", "_")


def is_named_after(name: str, rule_id: str) -> bool:
    """``test_r_turn_3_x`` names R-TURN-3; ``test_r_turn_3a_x`` does not."""
    prefix = name_prefix(rule_id)
    return name == prefix or name.startswith(prefix + "_")


def test_prefixes_do_not_confuse_neighbouring_rules() -> None:
    assert is_named_after("test_r_turn_3_order_of_steps", "R-TURN-3")
    assert not is_named_after("test_r_turn_3a_effects_land", "R-TURN-3")
    assert is_named_after("test_r_turn_3a_effects_land", "R-TURN-3a")
    assert not is_named_after("test_r_move_10_x", "R-MOVE-1")


def missing_tests(ids: list[str], names: set[str]) -> list[str]:
    """The IDs no test is named after."""
    return [rid for rid in ids if not any(is_named_after(n, rid) for n in names)]


def test_every_rule_of_sections_a_to_c_has_a_scenario_test() -> None:
    ids = rule_ids_of_sections_a_to_c(RULES.read_text(encoding="utf-8"))
    assert len(ids) > 50, "docs/rules.md sections A to C were not found where expected"
    assert {"R-VAR-1", "R-VAR-2", "R-VAR-3"} <= set(ids)
    names = collect_test_names()
    missing = missing_tests(ids, names)
    assert not missing, ("rule IDs with no test named after them (name one test_"
                         "r_<id>_...): " + ", ".join(missing))


def built_in_variants() -> list[str]:
    """The variant rulesets shipped in the package (their YAML exists)."""
    return [name for name in VARIANT_PREFIXES if (RULESETS / f"{name}.yaml").exists()]


def test_every_rule_of_each_built_in_variant_has_a_scenario_test() -> None:
    text = RULES.read_text(encoding="utf-8")
    names = collect_test_names()
    problems = []
    for name in built_in_variants():
        prefix = VARIANT_PREFIXES[name]
        ids = list(dict.fromkeys(rid for rid in RULE_ID.findall(text) if rid.startswith(prefix)))
        if not ids:
            problems.append(f"{name}: docs/rules.md has no {prefix}* rule")
        missing = missing_tests(ids, names)
        if missing:
            problems.append(f"{name}: " + ", ".join(missing))
    assert not problems, "variant rule IDs with no test named after them: " + "; ".join(problems)


def test_the_variant_prefixes_are_those_of_the_rulebook() -> None:
    """Each prefix the variant check uses has rules in docs/rules.md, so a
    renamed prefix cannot make the check above pass vacuously."""
    text = RULES.read_text(encoding="utf-8")
    for prefix in VARIANT_PREFIXES.values():
        assert any(rid.startswith(prefix) for rid in RULE_ID.findall(text)), prefix
