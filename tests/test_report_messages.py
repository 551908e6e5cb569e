"""The message tables: every sentence exists in both languages with the same fields."""

from __future__ import annotations

import string

from referee.report.messages import EN, JA, LANGS, MESSAGES, message, skill_label, team_label


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_languages_have_every_key() -> None:
    assert set(LANGS) == set(MESSAGES)
    assert set(EN) == set(JA), sorted(set(EN) ^ set(JA))


def test_both_languages_use_the_same_placeholders() -> None:
    for key in EN:
        assert fields(EN[key]) == fields(JA[key]), key


def test_japanese_sentences_are_translated() -> None:
    """A sentence with English words in it must differ in Japanese."""
    import re

    same = []
    for key, en in EN.items():
        words = re.sub(r"\{[^}]*\}|HP|R-[A-Z]+-\d+[a-z]?", "", en)
        if re.search(r"[A-Za-z]{2,}", words) and JA[key] == en:
            same.append(key)
    assert same == []


def test_skill_names_put_the_report_language_first() -> None:
    names = {"eruption": {"en": "Eruption", "ja": "爆撃"}}
    assert skill_label("en", "eruption", names) == "Eruption (爆撃)"
    assert skill_label("ja", "eruption", names) == "爆撃 (Eruption)"
    assert skill_label("en", "unknown-id", names) == "unknown-id"


def test_team_labels_and_a_filled_sentence() -> None:
    assert team_label("en", "white") == "White" and team_label("ja", "black") == "黒軍"
    assert message("en", "damage.skill", target="Ash", amount=3, hp_after=9, element="", reduced="") == \
        "Ash takes 3 damage → HP 9"
    assert message("ja", "turn", turn=3) == "第3ターン"
