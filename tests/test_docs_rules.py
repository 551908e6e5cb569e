"""``docs/rules.md``, the rulebook in the box, stays in step with the spec.

Every rule ID the specification defines (``rules.md`` and the four
``variant-*.md``) must be described in ``docs/rules.md``, and nothing else:
the set is compared with the real spec when it sits beside the repository,
and with the snapshot ``tests/spec/rule-ids.txt`` always (which
``test_spec_snapshot.py`` keeps equal to the real spec).
"""

from __future__ import annotations

import re
from pathlib import Path

from specfiles import REPO, SNAPSHOT, defined_rule_ids, real_spec_dir

RULEBOOK = REPO / "docs" / "rules.md"
SPEC_FILES = ("rules.md", "variant-orm.md", "variant-wiz.md", "variant-soulwired.md", "variant-d20.md")


def rulebook_ids() -> list[str]:
    return re.findall(r"\*\*(R-[A-Za-z0-9-]+)\*\*", RULEBOOK.read_text("utf-8"))


def snapshot_ids() -> set[str]:
    return {line.strip() for line in (SNAPSHOT / "rule-ids.txt").read_text("utf-8").splitlines() if line.strip()}


def test_the_rulebook_describes_every_rule_of_the_spec_once() -> None:
    ids = rulebook_ids()
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"rules described twice in docs/rules.md: {duplicates}"
    expected = snapshot_ids()
    assert len(expected) > 190
    assert set(ids) - expected == set(), "docs/rules.md has rule IDs the spec does not define"
    assert expected - set(ids) == set(), "rule IDs of the spec missing from docs/rules.md"


def test_the_rulebook_matches_the_real_spec_when_it_is_beside_the_repository() -> None:
    """With ``../shared/spec`` present, the IDs are read from it directly; a
    clone without it still checks against the snapshot (test above)."""
    spec = real_spec_dir()
    source = spec if spec is not None else None
    if source is None:
        assert (SNAPSHOT / "rule-ids.txt").is_file()
        return
    wanted: set[str] = set()
    for name in SPEC_FILES:
        wanted |= defined_rule_ids((source / name).read_text("utf-8"))
    assert set(rulebook_ids()) == wanted


def test_every_rule_has_words_after_its_id() -> None:
    """An ID alone is not a rule: each bullet says something (eight words at least)."""
    text = RULEBOOK.read_text("utf-8")
    for match in re.finditer(r"^- \*\*(R-[A-Za-z0-9-]+)\*\*(.*?)(?=^- \*\*|^#|\Z)", text, re.S | re.M):
        rule, body = match.groups()
        assert len(body.split()) >= 8, f"{rule} is not described"


def test_every_term_has_its_japanese_name() -> None:
    """The glossary gives each term in both languages (players post in both)."""
    text = RULEBOOK.read_text("utf-8")
    table = text.split("## Terms", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in table.splitlines() if r.startswith("| ") and not r.startswith("| English")]
    assert len(rows) >= 20
    for row in rows:
        english, japanese = (cell.strip() for cell in row.split("|")[1:3])
        assert english and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese), row


def test_each_variant_heading_says_whether_this_version_referees_it() -> None:
    """A variant whose ruleset is not built in is "not yet refereed"; one that
    is built in says it is refereed (fully, or "partly" with the rest listed)."""
    text = RULEBOOK.read_text("utf-8")
    rulesets = REPO / "referee" / "data" / "rulesets"
    for name in ("orm", "wiz", "soulwired", "d20pool"):
        heading = next(h for h in text.splitlines() if h.startswith("## ") and f"`{name}`" in h)
        if (rulesets / f"{name}.yaml").exists():
            assert "not yet refereed" not in heading and "refereed by this version" in heading, heading
        else:
            assert "not yet refereed by this version" in heading, heading


def test_no_document_sends_a_reader_to_a_folder_a_clone_does_not_have() -> None:
    for doc in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        assert "../shared/spec/rules.md" not in doc.read_text("utf-8"), doc.name


