"""The bundled gauntlets (issue 33): eight armies or more per built-in
ruleset, each described in English and Japanese, every sheet clean under
``referee check --lint``, and each army beating the armies it names under
``beats`` more often than not -- a range, not a set of dummies.

The win matrix here is the declared pairs only, over ``SEEDS`` seeds each
(``benchmarks/practice_matrix.py`` prints every pair); a pair holds when the
lower end of its 95 % interval is above one half, not by luck of the mean.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.app.lint import lint_battle, lint_files
from referee.app.odds import derive_seeds
from referee.app.practice import army_as_player, builtin_gauntlets, gauntlet_matrix, load_gauntlet, practice_battle
from referee.commands.check import check_files
from referee.ruleset import builtin_rulesets

#: Seeds per declared pair: enough for a 70 % share to clear one half at the
#: interval's lower end (56/80 gives 0.59).
SEEDS = 80

GAUNTLETS = Path(__file__).resolve().parents[1] / "referee" / "data" / "gauntlets"


def test_every_builtin_ruleset_has_a_gauntlet() -> None:
    assert builtin_gauntlets() == builtin_rulesets()


@pytest.mark.parametrize("ruleset", builtin_rulesets())
def test_eight_armies_each_described_in_both_languages(ruleset: str) -> None:
    gauntlet = load_gauntlet(ruleset)
    assert gauntlet.ruleset.name == ruleset
    assert len(gauntlet.armies) >= 8
    for army in gauntlet.armies:
        for lang in ("en", "ja"):
            line = army.description.get(lang, "")
            assert line.strip() and "\n" not in line, (army.id, lang)
        assert army.beats, f"{army.id} names no army it is built to beat"


@pytest.mark.parametrize("ruleset", builtin_rulesets())
def test_every_sheet_passes_check_lint_without_a_warning(ruleset: str) -> None:
    """What ``referee check --lint --ruleset R SHEET...`` says, sheet by sheet
    and in every practice battle the armies fight among themselves (lint
    knows more with the armies: their sizes and HP)."""
    sheets = sorted(str(p) for p in (GAUNTLETS / ruleset).glob("*/*.yaml"))
    assert len(sheets) >= 24
    assert check_files(sheets, ruleset) == []
    assert lint_files(sheets, ruleset) == []
    gauntlet = load_gauntlet(ruleset)
    for a in gauntlet.armies:
        player = army_as_player(gauntlet, a)
        for b in gauntlet.armies:
            if b.id != a.id:
                battle, diags = practice_battle(player, gauntlet, b)
                assert battle is not None and diags == [], (a.id, b.id, diags)
                assert lint_battle(battle) == [], (a.id, b.id)


@pytest.mark.parametrize("ruleset", builtin_rulesets())
def test_each_army_beats_the_armies_it_names(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    gauntlet = load_gauntlet(ruleset)
    pairs = [(a.id, b) for a in gauntlet.armies for b in a.beats]
    matrix = gauntlet_matrix(gauntlet, derive_seeds("gauntlet", SEEDS), "gauntlet", pairs=pairs, jobs=2)
    with capsys.disabled():
        print(f"\n{ruleset}: win share over {SEEDS} seeds (95% interval), army in the player's seat")
        for (a, b), summary in matrix.items():
            rate = summary.rates["white"]
            print(f"  {a:>14} beats {b:<14} {100 * rate.share:5.1f}%  [{100 * rate.low:5.1f}%, {100 * rate.high:5.1f}%]")
    weak = {pair: round(s.rates["white"].low, 3) for pair, s in matrix.items() if s.rates["white"].low <= 0.5}
    assert not weak, f"declared wins not shown: {weak}"


#: Each ruleset's guide for players, whose "Practising" section names its armies.
GUIDES = {"tcgt": "plan-language.md", "orm": "orm.md", "wiz": "wiz.md", "soulwired": "soulwired.md",
          "d20pool": "d20pool.md"}


@pytest.mark.parametrize("ruleset", builtin_rulesets())
def test_each_guide_names_its_armies(ruleset: str) -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / GUIDES[ruleset]).read_text(encoding="utf-8")
    section = text.split("## Practising", 1)[1].split("\n## ", 1)[0]
    assert f"--ruleset {ruleset}" in section or ruleset == "tcgt"
    for army in load_gauntlet(ruleset).armies:
        assert f"`{army.id}`" in section, (ruleset, army.id)
