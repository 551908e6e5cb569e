"""The bad-input corpus: what organisers and players really send (issue 14).

Each case writes a small round folder, runs one command the way an organiser
would (``check``, ``resolve``, ``batch``), and asserts the *exact* set of
diagnostics printed -- severity, code, file, line and column -- and the exit
code; no case may print a traceback.  The cases of issue 14 come first, then
the everyday mistakes of sheets, battle files, plans, rulesets and encodings.
Error or warning, case by case, is decided in docs/decisions.md
("Organiser's day").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from referee.cli import main

#: file:line:col: severity[code] (line and column optional).
DIAG = re.compile(r"^(?P<file>\S[^\n]*?)(?::(?P<line>\d+)(?::(?P<col>\d+))?)?: (?P<sev>error|warning)\[(?P<code>[a-z0-9-]+)\]",
                  re.M)


def sheet(name: str, plan: str = "", skills: str = "firecracker, rest, eruption", abilities: str = "3, 3, 3",
          patterns: str = "  - 火火水\n") -> str:
    """A sheet whose inline plan starts on line 7, column 3."""
    body, reflex, intellect = (a.strip() for a in abilities.split(","))
    text = (f"name: {name}\nabilities: {{body: {body}, reflex: {reflex}, intellect: {intellect}}}\n"
            f"patterns:\n{patterns}skills: [{skills}]\n")
    if plan:
        text += "plan: |\n" + "".join(f"  {line}\n" for line in plan.splitlines())
    return text


BATTLE = """title: Round 1, table 1
seed: 7
teams:
  white: [sheets/akane.yaml, sheets/bo.yaml]
  black: [sheets/cy.yaml, sheets/dee.yaml]
"""


def round_files(**sheets: str) -> dict[str, str | bytes]:
    """A battle of Akane, Bo (White) and Cy, Dee (Black); ``sheets`` replace any."""
    files: dict[str, str | bytes] = {"r1.battle.yaml": BATTLE}
    for name in ("akane", "bo", "cy", "dee"):
        files[f"sheets/{name}.yaml"] = sheets.get(name, sheet(name.capitalize()))
    return files


@dataclass(frozen=True)
class Case:
    """One bad input: files to write, a command, and what it must print.

    :param expected: ``(severity, code, file, line, column)`` of every diagnostic.
    :param exit_code: the command's exit code.
    :param hints: text that must appear in the output (did-you-mean ...).
    """

    name: str
    files: dict[str, str | bytes]
    argv: tuple[str, ...]
    expected: tuple[tuple[str, str, str, int, int], ...]
    exit_code: int = 1
    hints: tuple[str, ...] = field(default=())


def E(code: str, file: str, line: int = 0, col: int = 0) -> tuple[str, str, str, int, int]:
    return ("error", code, file, line, col)


def W(code: str, file: str, line: int = 0, col: int = 0) -> tuple[str, str, str, int, int]:
    return ("warning", code, file, line, col)


AKANE = "sheets/akane.yaml"
CHECK = ("check", "r1.battle.yaml")
RESOLVE = ("resolve", "r1.battle.yaml")

CASES: list[Case] = [
    # ---- issue 14, item 1: plans checked against their battle ---------------------------
    Case("plan word taken for a name: target weakest", round_files(akane=sheet("Akane", "target weakest")), CHECK,
         (E("unknown-character", AKANE, 7, 10),), hints=("did you mean 'lowest hp'?",)),
    Case("a phrase for a plan word: with firecracker target the nearest enemy",
         round_files(akane=sheet("Akane", "with firecracker target the nearest enemy")), CHECK,
         (E("unknown-character", AKANE, 7, 27),), hints=("did you mean 'nearest'?",)),
    Case("a misspelt name: never target Akanee", round_files(bo=sheet("Bo", "never target Akanee")), CHECK,
         (E("unknown-character", "sheets/bo.yaml", 7, 16),), hints=("did you mean 'Akane'?",)),
    Case("a name in the wrong case: never target cy", round_files(akane=sheet("Akane", "never target cy")), CHECK,
         (E("unknown-character", AKANE, 7, 16),), hints=("did you mean 'Cy'? (names are matched exactly)",)),
    Case("someone met at another table: move toward Brand (a warning)",
         round_files(akane=sheet("Akane", "move toward Brand")), CHECK,
         (W("unknown-character", AKANE, 7, 15),), exit_code=0,
         hints=("characters in this battle: Akane, Bo, Cy, Dee",)),
    Case("a filter word taken for a name: only target enemy",
         round_files(akane=sheet("Akane", "only target enemy")), CHECK,
         (E("unknown-character", AKANE, 7, 15),), hints=("did you mean 'enemies'?",)),
    Case("a destination phrase: move toward enemy", round_files(akane=sheet("Akane", "move toward enemy")), CHECK,
         (E("unknown-character", AKANE, 7, 15),), hints=("did you mean 'nearest enemy'?",)),
    Case("a square off the 8x8 map: move to z9", round_files(akane=sheet("Akane", "move to z9")), CHECK,
         (E("off-map", AKANE, 7, 11),), hints=("squares run from a1 to h8",)),
    Case("a destination square off the map: move toward i1", round_files(akane=sheet("Akane", "move toward i1")), CHECK,
         (E("off-map", AKANE, 7, 15),)),
    Case("a missing character, an off-map square and a misspelt keyword, all at once",
         round_files(akane=sheet("Akane", "never target Bryn\nmove to a9\nuse rest frist", abilities="2, 2, 5",
                                 patterns="  - 火水\n")), CHECK,
         (W("unknown-character", AKANE, 7, 16), E("off-map", AKANE, 8, 11), E("unexpected-end", AKANE, 9, 17)),
         hints=("did you mean 'first'?", "characters in this battle")),
    Case("done-when: a misspelt character, an off-map square and a misspelt keyword, each with did-you-mean",
         round_files(bo=sheet("Bo", "never target Akanee\nmove to z9\nuse rest frist", abilities="2, 2, 5",
                              patterns="  - 火水\n")), CHECK,
         (E("unknown-character", "sheets/bo.yaml", 7, 16), E("off-map", "sheets/bo.yaml", 8, 11),
          E("unexpected-end", "sheets/bo.yaml", 9, 17)),
         hints=("did you mean 'Akane'?", "squares run from a1 to h8", "did you mean 'first'?")),
    Case("a skill not on the sheet: resolve warns on stderr and still resolves",
         round_files(akane=sheet("Akane", "use slash first")), RESOLVE,
         (W("skill-not-on-sheet", AKANE, 7, 7),), exit_code=0),
    Case("a plan file's names are checked too",
         {**round_files(akane=sheet("Akane") + "plan: akane.plan\n"), "sheets/akane.plan": "# mine\ntarget Akanne\n"},
         CHECK, (E("unknown-character", "sheets/akane.plan", 2, 8),), hints=("did you mean 'Akane'?",)),
    # ---- issue 14, item 3: encodings, folders, file kinds --------------------------------
    Case("a Shift_JIS sheet", round_files(akane=sheet("あかね").encode("shift_jis")), CHECK,  # type: ignore[arg-type]
         (E("encoding", AKANE),), hints=("Shift_JIS (Japanese Windows)", "save the file as UTF-8")),
    Case("a UTF-16 plan file", {**round_files(akane=sheet("Akane") + "plan: akane.plan\n"),
                                "sheets/akane.plan": "use rest first\n".encode("utf-16")},
         CHECK, (E("encoding", "sheets/akane.plan"), E("plan-unreadable", AKANE, 6, 7)), hints=("UTF-16",)),
    Case("a stray Latin-1 byte, located", {"p.plan": "use rest first\nnever target Jos\xe9\n".encode("latin-1")},
         ("check", "p.plan"), (E("encoding", "p.plan", 2, 17),), hints=("byte 0xE9",)),
    Case("batch on a folder with no battle file", {"round/sheets/a.yaml": sheet("A"), "round/notes.txt": "hi"},
         ("batch", "round"), (E("no-battles", "round"),), hints=("found 1 .txt (notes.txt); 1 .yaml (sheets/a.yaml)",)),
    Case("check on a folder with no battle file", {"round/a.plan": "hold position\n"},
         ("check", "round"), (E("no-battles", "round"),)),
    Case("check on a round folder checks its battles", {f"round/{k}": v for k, v in
                                                        round_files(akane=sheet("Akane", "move to z9")).items()},
         ("check", "round"), (E("off-map", "round/sheets/akane.yaml", 7, 11),)),
    Case("a character sheet given to resolve", round_files(), ("resolve", AKANE), (E("not-a-battle", AKANE, 1, 1),),
         hints=("this is a character sheet",)),
    Case("a plan given to resolve", {"a.plan": "hold position\n"}, ("resolve", "a.plan"), (E("not-a-battle", "a.plan"),)),
    Case("a ruleset given to resolve", {"house.ruleset.yaml": "extends: tcgt\nturn_limit: 50\n"},
         ("resolve", "house.ruleset.yaml"), (E("not-a-battle", "house.ruleset.yaml", 1, 1),)),
    Case("an unknown ruleset no longer hides the sheets' errors",
         {**round_files(akane=sheet("Akane", "use rest frist")), "r1.battle.yaml": BATTLE + "ruleset: tcgtt\n"}, CHECK,
         (E("unknown-ruleset", "r1.battle.yaml", 6, 10), E("unexpected-end", AKANE, 7, 17)),
         hints=("did you mean 'tcgt'?",)),
    Case("Japanese top-level sheet keys", {"s.yaml": "名前: 神楽\n能力: {体力: 3, 神経反射: 3, 知性: 3}\n"
                                                    "パターン: [火火水]\nスキル: [安らぎ]\n"},
         ("check", "s.yaml"), (E("unknown-field", "s.yaml", 1, 1), E("unknown-field", "s.yaml", 2, 1),
                               E("unknown-field", "s.yaml", 3, 1), E("unknown-field", "s.yaml", 4, 1)),
         hints=("write 'name'", "write 'abilities'", "write 'patterns'", "write 'skills'")),
    # ---- natural phrasings ------------------------------------------------------------------
    Case("attack X", {"p.plan": "attack Ash\n"}, ("check", "p.plan"), (E("unknown-clause", "p.plan", 1, 1),),
         hints=("write 'target NAME'",)),
    Case("a leading if", {"p.plan": "if hp <= 4 use rest first\n"}, ("check", "p.plan"),
         (E("unknown-clause", "p.plan", 1, 1),), hints=("the condition comes last",)),
    Case("while for when", {"p.plan": "use rest first while hp < 5\n"}, ("check", "p.plan"),
         (E("unexpected-token", "p.plan", 1, 16),), hints=("write 'when'",)),
    Case("unless", {"p.plan": "hold position unless engaged\n"}, ("check", "p.plan"),
         (E("unexpected-token", "p.plan", 1, 15),), hints=("write 'when not ...'",)),
    Case("heal NAME", {"p.plan": "heal Ash\n"}, ("check", "p.plan"), (E("unexpected-token", "p.plan", 1, 6),),
         hints=("with rest target NAME",)),
    Case("retreat", {"p.plan": "retreat when hp < 3\n"}, ("check", "p.plan"), (E("unknown-clause", "p.plan", 1, 1),),
         hints=("keep away from enemies",)),
    Case("a plan word read as a name, checked alone (warning)", {"p.plan": "target the weakest\n"},
         ("check", "p.plan"), (W("name-like-keyword", "p.plan", 1, 8),), exit_code=0, hints=("'lowest hp'",)),
    # ---- sheets ---------------------------------------------------------------------------------
    Case("abilities over the budget", {"s.yaml": sheet("A", abilities="4, 3, 3")}, ("check", "s.yaml"),
         (E("ability-budget", "s.yaml", 2, 1),)),
    Case("an ability of 0", {"s.yaml": sheet("A", abilities="0, 4, 5", patterns="  - 火火火火\n")},
         ("check", "s.yaml"), (E("ability-minimum", "s.yaml", 2, 19),)),
    Case("a pattern of the wrong length", {"s.yaml": sheet("A", patterns="  - 火水\n")}, ("check", "s.yaml"),
         (E("pattern-length", "s.yaml", 4, 5),)),
    Case("an element that is not one", {"s.yaml": sheet("A", patterns="  - 火木水\n")}, ("check", "s.yaml"),
         (E("unknown-element", "s.yaml", 4, 6),)),
    Case("too many patterns", {"s.yaml": sheet("A", abilities="3, 3, 3", patterns="  - 火火水\n" * 4)},
         ("check", "s.yaml"), (E("pattern-count", "s.yaml", 7, 5),)),
    Case("an unknown skill", {"s.yaml": sheet("A", skills="firecraker, rest")}, ("check", "s.yaml"),
         (E("unknown-skill", "s.yaml", 5, 10),), hints=("firecracker",)),
    Case("too many skill entries", {"s.yaml": sheet("A", abilities="5, 3, 1", skills="rest, rest, rest, rest")},
         ("check", "s.yaml"), (E("skill-count", "s.yaml", 5, 28),)),
    Case("a duplicate key", {"s.yaml": sheet("A") + "name: B\n"}, ("check", "s.yaml"),
         (E("duplicate-key", "s.yaml", 6, 1),)),
    Case("a plan file that does not exist", {"s.yaml": sheet("A") + "plan: a.plan\n"}, ("check", "s.yaml"),
         (E("plan-not-found", "s.yaml", 6, 7),)),
    Case("too many clauses", {"s.yaml": sheet("A", "hold position\n" * 3, abilities="7, 1, 1",
                                                patterns="  - 火\n", skills="rest")},
         ("check", "s.yaml"), (E("too-many-clauses", "s.yaml", 9, 3),)),
    Case("a folded plan (a warning)", {"s.yaml": sheet("A") + "plan: >\n  hold position\n"}, ("check", "s.yaml"),
         (W("plan-folded", "s.yaml", 6, 7),), exit_code=0),
    Case("a second pattern without a condition can never be active (a warning)",
         {"s.yaml": sheet("A", patterns="  - 火火水\n  - 水水地: when hp <= 4\n  - 剣地風\n")}, ("check", "s.yaml"),
         (W("pattern-never-active", "s.yaml", 6, 5),), exit_code=0, hints=("R-PAT-3",)),
    Case("a tab in YAML", {"s.yaml": "name: A\n\tabilities: {}\n"}, ("check", "s.yaml"),
         (E("yaml-syntax", "s.yaml", 2, 1),)),
    # ---- battle files -----------------------------------------------------------------------------
    Case("a sheet path leaving the folder", {**round_files(), "r1.battle.yaml": BATTLE.replace("sheets/dee", "../dee")},
         CHECK, (E("path-outside", "r1.battle.yaml", 5, 27),)),
    Case("a sheet that does not exist", {**round_files(), "r1.battle.yaml": BATTLE.replace("sheets/dee", "sheets/dea")},
         CHECK, (E("file-not-found", "r1.battle.yaml", 5, 27),)),
    Case("two characters of one name", round_files(dee=sheet("Cy")), CHECK,
         (E("duplicate-name", "r1.battle.yaml", 5, 27),)),
    Case("setup naming nobody", {**round_files(), "r1.battle.yaml": BATTLE + "setup:\n  Akanee: {square: c3}\n"},
         CHECK, (E("unknown-character", "r1.battle.yaml", 7, 3),), hints=("did you mean 'Akane'?",)),
    Case("a setup square off the map", {**round_files(), "r1.battle.yaml": BATTLE + "setup:\n  Akane: {square: i9}\n"},
         CHECK, (E("off-map", "r1.battle.yaml", 7, 19),)),
    Case("a starting HP above the maximum", {**round_files(), "r1.battle.yaml": BATTLE + "setup:\n  Akane: {hp: 13}\n"},
         CHECK, (E("out-of-range", "r1.battle.yaml", 7, 15),)),
    Case("an order missing someone", {**round_files(), "r1.battle.yaml": BATTLE + "order: [Akane, Bo, Cy]\n"},
         CHECK, (E("order-incomplete", "r1.battle.yaml", 6, 8),)),
    Case("an order naming someone twice", {**round_files(),
                                          "r1.battle.yaml": BATTLE + "order: [Akane, Bo, Cy, Dee, Bo]\n"},
         CHECK, (E("duplicate-name", "r1.battle.yaml", 6, 29),)),
    Case("a misspelt battle field", {**round_files(), "r1.battle.yaml": BATTLE.replace("seed:", "sead:")}, CHECK,
         (E("unknown-field", "r1.battle.yaml", 2, 1),), hints=("did you mean 'seed'?",)),
    Case("a battle file without a title", {**round_files(), "r1.battle.yaml": BATTLE.replace("title: Round 1, table 1\n", "")},
         CHECK, (E("missing-field", "r1.battle.yaml", 1, 1),)),
    Case("a battle file that is a list", {"r1.battle.yaml": "- a\n- b\n"}, CHECK, (E("wrong-type", "r1.battle.yaml", 1, 1),)),
    Case("a .battle.yml is a battle everywhere", {f"round/{k.replace('.yaml', '.yml') if k.endswith('battle.yaml') else k}": v
                                                 for k, v in round_files(akane=sheet("Akane", "move to z9")).items()},
         ("batch", "round", "-o", "out"), (E("off-map", "sheets/akane.yaml", 7, 11),)),
    # ---- plans ------------------------------------------------------------------------------------
    Case("an unclosed parenthesis", {"p.plan": "use rest first when (hp < 3\n"}, ("check", "p.plan"),
         (E("unexpected-end", "p.plan", 1, 28),)),
    Case("a number too large", {"p.plan": "use rest first when hp < 99999\n"}, ("check", "p.plan"),
         (E("number-too-large", "p.plan", 1, 26),)),
    Case("move to something that is not a square", {"p.plan": "move to 44\n"}, ("check", "p.plan"),
         (E("unexpected-token", "p.plan", 1, 9),)),
    Case("extend a skill that cannot be extended", {"p.plan": "extend avenger\n"}, ("check", "p.plan"),
         (E("not-extendable", "p.plan", 1, 8),)),
    Case("maintain a skill that is not maintained", {"p.plan": "maintain rest\n"}, ("check", "p.plan"),
         (E("not-maintainable", "p.plan", 1, 10),)),
    Case("target where no skill considers one", {"p.plan": "hold position when target hp < 3\n"}, ("check", "p.plan"),
         (E("target-without-skill", "p.plan", 1, 20),)),
    Case("a blocked square on a house map",
         {**round_files(akane=sheet("Akane", "move to c3")), "house.ruleset.yaml": "extends: tcgt\nmap: {blocked: [c3]}\n",
          "r1.battle.yaml": BATTLE + "ruleset: house.ruleset.yaml\n"}, CHECK, (E("blocked-square", AKANE, 7, 11),)),
    # ---- rulesets and files -------------------------------------------------------------------------
    Case("a misspelt ruleset field", {"house.ruleset.yaml": "extends: tcgt\nturn_limt: 50\n"},
         ("check", "house.ruleset.yaml"), (E("unknown-field", "house.ruleset.yaml", 2, 1),), hints=("turn_limit",)),
    Case("a file that does not exist", {}, ("check", "nope.plan"), (E("file-not-found", "nope.plan"),)),
    Case("a file of no known kind", {"notes.txt": "hi"}, ("check", "notes.txt"), (E("unknown-file-kind", "notes.txt"),)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                   capsys: pytest.CaptureFixture[str]) -> None:
    for rel, content in case.files.items():
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(list(case.argv))
    out, err = capsys.readouterr()
    text = out + err
    assert "Traceback" not in text
    found = sorted((m["sev"], m["code"], m["file"], int(m["line"] or 0), int(m["col"] or 0))
                   for m in DIAG.finditer(err))
    assert found == sorted(case.expected), text
    assert code == case.exit_code, text
    for hint in case.hints:
        assert hint in text


def test_the_corpus_is_large_enough() -> None:
    """Issue 14: each case of the issue and at least 30 more."""
    assert len(CASES) >= 50
    assert len({c.name for c in CASES}) == len(CASES)


def test_only_target_naming_someone_absent_says_what_it_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for rel, content in round_files(akane=sheet("Akane", "with firecracker only target Brand")).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(str(content), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(list(CHECK)) == 0
    assert "warning[unknown-character]: no character called 'Brand' in this battle; " \
           "'only target' leaves no one to target here" in capsys.readouterr().err
