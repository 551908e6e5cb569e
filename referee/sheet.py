"""Character sheets: load, validate against the ruleset's creation rules, normalise.

A sheet (interfaces.md, "Character sheet") is YAML checked first for shape by
``referee/schemas/character.schema.json`` and then for the creation rules of the
ruleset (R-CHAR-1..4, R-PAT-1): ability budget and minimums, pattern count and
length, known elements, number of skill entries, known skills, the plan file.
Every violation is reported at once, each naming the file, the field and its
line/column; nothing here raises on bad input (style lessons 10, 11).

Plans and pattern conditions are parsed by :mod:`referee.plan` (another
module); :func:`_plan_diagnostics` is the one seam where its diagnostics are
merged in, shifted so that an inline plan's errors point into the sheet.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from referee.confine import PathProblem, UnsafePathError, confine, read_untrusted, read_untrusted_text
from referee.mechanicspec import SOUL_SHEET
from referee.diagnostics import Diagnostic, has_errors, with_source_lines
from referee.elements import Element, split_pattern
from referee.plan import check_plan, parse_condition
from referee.plan.parser import parse_plan_remembered
from referee.plan.gate import gate_diagnostics
from referee.ormfiles import check_defence
from referee.mechanicspec import WIZ_BLOCK, feature_providers, wiz_block_rules
from referee.ruleset import Ruleset
from referee.textcheck import name_problem
from referee.textfile import decode_text
from referee.yamlio import YamlDocument, load_yaml, schema_diagnostics

#: Ability keys accepted on sheets, each mapped to its English name (R-CHAR-1).
ABILITY_KEYS: dict[str, str] = {
    "body": "body",
    "reflex": "reflex",
    "intellect": "intellect",
    "体力": "body",
    "神経反射": "reflex",
    "知性": "intellect",
}
_ABILITY_JA = {"body": "体力", "reflex": "神経反射", "intellect": "知性"}

#: variant-wiz.md R-WIZ-SHEET-1: the ``wiz:`` block's keys (English and Japanese).
WIZ_LEVEL_KEYS: dict[str, str] = {
    "magic_change": "magic_change", "magic_amplify": "magic_amplify", "move": "move", "flexible": "flexible",
    "chant": "chant", "wide_view": "wide_view", "sense": "sense",
    "魔法変化": "magic_change", "魔法増幅": "magic_amplify", "移動力": "move", "柔軟": "flexible",
    "魔法詠唱": "chant", "広視界": "wide_view", "気配感知": "sense",
}
_WIZ_KEYS_SHOWN = ("magic_change (魔法変化)", "magic_amplify (魔法増幅)", "move (移動力)", "flexible (柔軟)",
                   "chant (魔法詠唱)", "wide_view (広視界)", "sense (気配感知)")

#: Japanese top-level keys players write, and the key the sheet wants.
JAPANESE_SHEET_KEYS: dict[str, str] = {
    "名前": "name", "なまえ": "name", "能力": "abilities", "能力値": "abilities", "パターン": "patterns",
    "スキル": "skills", "作戦": "plan", "プラン": "plan",
}

_WHEN = re.compile(r"^\s*(when|if)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Pattern:
    """One skill pattern (R-PAT-1, R-PAT-2).

    :param elements: the panels, left to right.
    :param condition_text: the condition with a leading ``when``/``if`` removed,
        or ``None`` for an unconditioned pattern.
    :param line: 1-based line of the pattern in the sheet.
    :param column: 1-based column of the pattern text.
    :param condition_line: line of the condition text (0 when none).
    :param condition_column: column where ``condition_text`` starts (0 when none).
    """

    elements: tuple[Element, ...]
    condition_text: str | None
    line: int
    column: int
    condition_line: int = 0
    condition_column: int = 0

    @property
    def text(self) -> str:
        """The pattern in kanji: ``火水風``."""
        return "".join(e.kanji for e in self.elements)


@dataclass(frozen=True)
class CharacterSheet:
    """A validated character (interfaces.md).

    :param file: the sheet's path as shown in diagnostics.
    :param skills: resolved skill ids in sheet (priority) order; repeats kept.
    :param skill_lines: line of each skill entry in the sheet, parallel to ``skills``.
    :param plan_text: the plan's text, or ``None`` (the rules' defaults).
    :param plan_file: where the plan text came from: the plan file, or the
        sheet itself for an inline plan; ``None`` without a plan.
    :param plan_line_offset: plan line N is line N + offset of ``plan_file``
        (0 for a plan file).
    :param plan_column_offset: likewise for columns (indentation of an inline block).
    """

    file: str
    name: str
    body: int
    reflex: int
    intellect: int
    max_hp: int
    patterns: tuple[Pattern, ...]
    skills: tuple[str, ...]
    skill_lines: tuple[int, ...] = ()
    plan_text: str | None = None
    plan_file: str | None = None
    plan_line_offset: int = 0
    plan_column_offset: int = 0
    #: orm (R-ORM-SHEET-1): element -> defence points; empty without a block.
    defence: Mapping[str, int] = field(default_factory=dict)
    #: variant-wiz.md R-WIZ-SHEET-1: the ``wiz:`` levels by English key
    #: (absent keys are 0); empty without the block.
    wiz: tuple[tuple[str, int], ...] = ()
    #: soulwired (R-SOUL-FILE-1): the ``soulwired:`` block's garb
    #: (``evasive``/``armoured``) and evasion type (``normal``/``none``);
    #: None when absent or ignored (a ruleset without these mechanics).
    garb: str | None = None
    evasion_type: str | None = None
    #: sha256 of the sheet's text as read (UTF-8, a BOM dropped): the digest
    #: a receipt gave its player, recorded in reports (``inputs.sources``).
    source_sha256: str = ""

    @property
    def has_plan(self) -> bool:
        return self.plan_text is not None


def load_sheet(path: str | Path, ruleset: Ruleset, root: str | Path | None = None,
               known_characters: Sequence[str] | None = None) -> tuple[CharacterSheet | None, list[Diagnostic]]:
    """Read and validate the sheet at ``path`` (its plan path is relative to it).

    :param root: a folder the plan file may not leave (default: the sheet's folder).
    :returns: the sheet (``None`` if any error) and every diagnostic.
    """
    shown = str(path)
    text, diags = read_untrusted_text(path, root, shown=shown)
    if text is None:
        return None, diags
    return parse_sheet(text, shown, ruleset, Path(path).parent, root=root, known_characters=known_characters)


def sheet_name(path: str | Path) -> str | None:
    """The ``name`` a sheet gives, even when the sheet is invalid (``None``
    when it cannot be read at all).  Why: a battle whose sheet has an error
    still checks its ``setup`` and ``order`` against every name."""
    text, _ = read_untrusted_text(path)
    if text is None:
        return None
    doc, _ = load_yaml(text, str(path))
    name = doc.data.get("name") if doc is not None and isinstance(doc.data, dict) else None
    return name.strip() if isinstance(name, str) and name_problem(name) is None else None


def parse_sheet(
    data_text: str,
    file: str,
    ruleset: Ruleset,
    base_dir: str | Path = ".",
    root: str | Path | None = None,
    known_characters: Sequence[str] | None = None,
    *,
    remember: bool = False,
) -> tuple[CharacterSheet | None, list[Diagnostic]]:
    """Validate sheet text; never raises on bad input.

    :param file: name used in diagnostics.
    :param base_dir: folder a plan path is relative to.
    :param root: folder the plan file may not leave (default ``base_dir``).
    :param known_characters: the battle's names, to check the plan's (``None``: not checked).
    :param remember: answer from (and fill) a per-process memo keyed by
        *content*.  Why: a round's battles share sheets, a batch worker
        resolves many battles, and a battle's sheets are read again to check
        its plans' names.  The key is the text's sha256 and every other
        argument (the ruleset by its digest, which covers its skills), never
        a modification time.  A sheet whose check read another file (a plan
        file, or a one-word plan that might name one) is not remembered: its
        answer depends on more than its text.  Sheets and diagnostics are
        frozen; each caller gets its own list.
    """
    if not remember:
        sheet, diags, _ = _parse_sheet(data_text, file, ruleset, base_dir, root, known_characters)
        return sheet, diags
    key = (hashlib.sha256(data_text.encode("utf-8", "surrogatepass")).digest(), file, ruleset.digest,
           str(base_dir), None if root is None else str(root),
           None if known_characters is None else tuple(known_characters))
    hit = _REMEMBERED.get(key)
    if hit is not None:
        return hit[0], list(hit[1])
    sheet, diags, read_files = _parse_sheet(data_text, file, ruleset, base_dir, root, known_characters)
    if not read_files:
        if len(_REMEMBERED) >= _REMEMBERED_MAX:
            _REMEMBERED.clear()
        _REMEMBERED[key] = (sheet, tuple(diags))
    return sheet, diags


#: :func:`parse_sheet`'s memo (``remember=True``); bounded, cleared when full.
_REMEMBERED: dict[tuple[Any, ...], tuple[CharacterSheet | None, tuple[Diagnostic, ...]]] = {}
_REMEMBERED_MAX = 512


def _parse_sheet(
    data_text: str,
    file: str,
    ruleset: Ruleset,
    base_dir: str | Path,
    root: str | Path | None,
    known_characters: Sequence[str] | None,
) -> tuple[CharacterSheet | None, list[Diagnostic], bool]:
    """:func:`parse_sheet`, and whether the check read another file."""
    doc, diags = load_yaml(data_text, file)
    if doc is None:
        return None, diags, False
    if not isinstance(doc.data, dict):
        diags.append(doc.diagnostic((), "wrong-type", "a character sheet is a mapping with name, abilities, patterns and skills"))
        return None, diags, False
    diags += _with_japanese_key_hints(schema_diagnostics(doc, "character"), doc.data)
    base = base_dir if isinstance(base_dir, Path) else Path(base_dir)
    checker = _SheetChecker(doc, ruleset, base, base if root is None else root if isinstance(root, Path) else Path(root))
    sheet = checker.check()
    diags += checker.diags
    # The plan and the pattern conditions are checked whatever else is wrong
    # (every error at once): with the parts of the sheet that are sound, the
    # checks that need a broken part (the skill list, intellect) skipped.
    diags += _plan_diagnostics(checker.parts, ruleset, doc, known_characters)
    diags.sort(key=lambda d: (d.line, d.column))
    if has_errors(diags):
        return None, diags, checker.read_files
    return sheet, diags, checker.read_files


def _with_japanese_key_hints(diags: list[Diagnostic], data: dict[Any, Any]) -> list[Diagnostic]:
    """A sheet written with Japanese top-level keys (``名前``, ``能力`` ...):
    each such key gets "write 'name'" as its hint, and the "required field
    is missing" error its English twin would give is left out (it says the
    same thing twice).  Why not accept them: the sheet format's keys are
    English (interfaces.md); only the ability names have Japanese aliases."""
    aliases = {k: JAPANESE_SHEET_KEYS[k] for k in data if isinstance(k, str) and k in JAPANESE_SHEET_KEYS}
    if not aliases:
        return diags
    out = []
    for d in diags:
        key = next((k for k in aliases if d.code == "unknown-field" and d.message == f"unknown field {k!r}"), None)
        if key is not None:
            d = replace(d, hint=f"write '{aliases[key]}': a sheet's keys are English "
                                "(Japanese is accepted for the abilities 体力 神経反射 知性)")
        elif d.code == "missing-field" and any(f"field {en!r} is missing" in d.message for en in aliases.values()):
            continue
        out.append(d)
    return out


class _SheetChecker:
    """Creation-rule checks over the raw data; tolerant of fields the schema
    already rejected (it skips them) so every other problem is still found."""

    def __init__(self, doc: YamlDocument, ruleset: Ruleset, base_dir: Path, root: Path) -> None:
        self.doc = doc
        self.data: dict[Any, Any] = doc.data
        self.ruleset = ruleset
        self.base_dir = base_dir
        self.root = root
        self.diags: list[Diagnostic] = []
        #: whether the check looked at another file (a plan file, or whether
        #: a one-word plan names one): the answer then depends on it too
        self.read_files = False
        #: every pattern that could be read, even when the list as a whole is wrong
        self._conditions: list[Pattern] = []
        self.parts = _SheetParts(doc.file, [], None, None, None, None, 0, 0)

    def error(self, path: tuple[Any, ...], code: str, message: str, **kw: Any) -> None:
        self.diags.append(self.doc.diagnostic(path, code, message, **kw))

    def check(self) -> CharacterSheet | None:
        name = self.data.get("name")
        abilities = self._abilities()
        body, reflex, intellect = (abilities.get(k) for k in ("body", "reflex", "intellect"))
        patterns = self._patterns(reflex, intellect)
        skills, skill_lines = self._skills(intellect)
        plan = self._plan()
        wiz = self._wiz_block(intellect)
        text, plan_file, line_off, col_off = plan
        self.parts = _SheetParts(self.doc.file, self._conditions, skills, intellect,
                                 text, plan_file, line_off, col_off)
        problem = name_problem(name, "a character's name") if isinstance(name, str) else None
        if problem is not None:
            self.error(("name",), "bad-name", problem)
        defence: dict[str, int] | None = {}
        if "defence" in self.data:  # orm (R-ORM-SHEET-1)
            defence = check_defence(self.data["defence"], self.ruleset, self.error)
        if not isinstance(name, str) or problem is not None or body is None or reflex is None or intellect is None or patterns is None or skills is None:
            return None
        if defence is None:
            return None
        return CharacterSheet(
            file=self.doc.file,
            name=name.strip(),
            body=body,
            reflex=reflex,
            intellect=intellect,
            max_hp=self.ruleset.max_hp(body),
            patterns=patterns,
            skills=skills,
            skill_lines=skill_lines,
            plan_text=text,
            plan_file=plan_file,
            plan_line_offset=line_off,
            plan_column_offset=col_off,
            defence=defence,
            wiz=wiz,
            **self._soulwired(),
            source_sha256=hashlib.sha256(self.doc.text.encode("utf-8", "surrogatepass")).hexdigest(),
        )

    # -- variant-wiz.md R-WIZ-SHEET-1, R-WIZ-CHECK-1 ---------------------------

    def _wiz_block(self, intellect: int | None) -> tuple[tuple[str, int], ...]:
        """The ``wiz:`` levels: refused under a ruleset whose mechanics do
        not read them; each key known, each value a whole number 0..max
        (``wide_view`` 0..its own max), the sum within points x intellect."""
        raw = self.data.get("wiz")
        if raw is None:
            return ()
        features = self.ruleset.features
        if WIZ_BLOCK not in features.names:
            self.error(("wiz",), "clause-not-in-ruleset", f"{WIZ_BLOCK} is not part of ruleset '{features.ruleset}'",
                       hint="it comes with the mechanics " + "; ".join(feature_providers(WIZ_BLOCK)), at_key=True)
            return ()
        if not isinstance(raw, dict):
            self.error(("wiz",), "invalid-value", "wiz: a mapping of levels such as {magic_change: 2, chant: 1}")
            return ()
        rules = wiz_block_rules(self.ruleset.data)
        found: dict[str, int] = {}
        for key, value in raw.items():
            english = WIZ_LEVEL_KEYS.get(key) if isinstance(key, str) else None
            if english is None:
                self.error(("wiz", key), "unknown-field",
                           f"wiz: no level {key!r}; levels: {', '.join(_WIZ_KEYS_SHOWN)} (R-WIZ-SHEET-1)", at_key=True)
                continue
            if english in found:
                self.error(("wiz", key), "invalid-value", f"wiz: {english} is given twice", at_key=True)
                continue
            top = rules.max_wide_view if english == "wide_view" else rules.max_level
            if type(value) is not int or not 0 <= value <= top:
                self.error(("wiz", key), "invalid-value",
                           f"wiz {english}: expected a whole number from 0 to {top} (R-WIZ-SHEET-1)")
                continue
            found[english] = value
        if intellect is not None:
            budget = rules.points_per_intellect * intellect
            total = sum(found.values())
            if total > budget:
                self.error(("wiz",), "invalid-value",
                           f"wiz levels sum to {total}; intellect {intellect} allows at most {budget} (R-WIZ-SHEET-1)",
                           at_key=True)
        return tuple(sorted(found.items()))

    # -- soulwired (R-SOUL-FILE-1) -------------------------------------------

    def _soulwired(self) -> dict[str, str | None]:
        """The optional ``soulwired: {garb, evasion_type}`` block: other keys
        or values are errors; under a ruleset without these mechanics it is
        ignored with a warning."""
        raw = self.data.get("soulwired")
        if raw is None:
            return {}
        if SOUL_SHEET not in self.ruleset.features.names:
            self.error(("soulwired",), "block-not-in-ruleset",
                       f"{SOUL_SHEET} is not part of ruleset '{self.ruleset.name}': ignored",
                       at_key=True, severity="warning", hint="the soulwired ruleset reads it")
            return {}
        if not isinstance(raw, dict):
            self.error(("soulwired",), "wrong-type", "soulwired: a mapping {garb: evasive | armoured, "
                       "evasion_type: normal | none}")
            return {}
        allowed = {"garb": ("evasive", "armoured"), "evasion_type": ("normal", "none")}
        out: dict[str, str | None] = {}
        for key, value in raw.items():
            if key not in allowed:
                self.error(("soulwired", key), "unknown-field",
                           f"soulwired: no field {key!r}; it takes garb and evasion_type (R-SOUL-FILE-1)", at_key=True)
            elif value not in allowed[str(key)]:
                self.error(("soulwired", key), "invalid-value",
                           f"soulwired.{key}: expected one of {', '.join(allowed[str(key)])}, not {value!r}")
            else:
                out[str(key)] = str(value)
        return out

    # -- R-CHAR-1 ---------------------------------------------------------

    def _abilities(self) -> dict[str, int]:
        raw = self.data.get("abilities")
        if not isinstance(raw, dict):
            return {}
        found: dict[str, int] = {}
        key_of: dict[str, Any] = {}
        rules = self.ruleset.abilities
        for key, value in raw.items():
            english = ABILITY_KEYS.get(key)
            if english is None or type(value) is not int:
                continue  # reported by the schema
            if english in key_of:
                self.error(("abilities", key), "duplicate-ability",
                           f"{english} ({_ABILITY_JA[english]}) is given twice (also as {key_of[english]!r})", at_key=True)
                continue
            key_of[english] = key
            found[english] = value
            if value < rules.minimum:
                self.error(("abilities", key), "ability-minimum",
                           f"{english} ({_ABILITY_JA[english]}) is {value}; each ability must be at least {rules.minimum} (R-CHAR-1)")
        # A misspelt key or a non-number is already reported by the schema;
        # "missing" on top of it would say the same thing twice.
        bad_types = any(k not in ABILITY_KEYS or type(v) is not int for k, v in raw.items())
        for english in ("body", "reflex", "intellect"):
            if english not in key_of and not bad_types:
                self.error(("abilities",), "missing-ability",
                           f"abilities: {english} ({_ABILITY_JA[english]}) is missing (R-CHAR-1)", at_key=True)
        if len(found) == 3:
            total = sum(found.values())
            if total != rules.budget:
                self.error(("abilities",), "ability-budget",
                           f"abilities sum to {total}; the ruleset's budget is exactly {rules.budget} (R-CHAR-1)",
                           hint=f"body {found['body']} + reflex {found['reflex']} + intellect {found['intellect']} = {total}",
                           at_key=True)
        # Only usable values drive the dependent checks (pattern length, counts).
        return {k: v for k, v in found.items() if v >= max(rules.minimum, 1)}

    # -- R-CHAR-3, R-PAT-1 --------------------------------------------------

    def _patterns(self, reflex: int | None, intellect: int | None) -> tuple[Pattern, ...] | None:
        raw = self.data.get("patterns")
        if not isinstance(raw, list):
            return None
        ok = True
        limit = self.ruleset.max_patterns(intellect) if intellect is not None else None
        if not raw:
            self.error(("patterns",), "pattern-count", "a character needs at least one pattern (R-CHAR-3)", at_key=True)
            ok = False
        elif limit is not None and len(raw) > limit:
            self.error(("patterns", limit), "pattern-count",
                       f"{len(raw)} patterns, but intellect {intellect} allows at most {limit} (R-CHAR-3)")
            ok = False
        out: list[Pattern] = []
        for i, entry in enumerate(raw):
            pattern = self._pattern(i, entry, reflex)
            if pattern is None:
                ok = False
            else:
                out.append(pattern)
                self._conditions.append(pattern)
        return tuple(out) if ok and reflex is not None else None

    def _pattern(self, i: int, entry: Any, reflex: int | None) -> Pattern | None:
        condition: str | None = None
        cond_path: tuple[Any, ...] | None = None
        path: tuple[Any, ...]
        if isinstance(entry, str):
            text, path = entry, ("patterns", i)
        elif isinstance(entry, dict) and len(entry) == 1:
            ((text, condition),) = entry.items()
            if not isinstance(text, str) or not isinstance(condition, str):
                return None  # reported by the schema
            path = ("patterns", i, text)
            cond_path = path
        else:
            return None  # reported by the schema
        pos = self.doc.key_position(path) if cond_path is not None else self.doc.position(path)
        elements, errors = split_pattern(text)
        for err in errors:
            self.diags.append(self.doc.diagnostic(
                path, "unknown-element",
                f"{err.text!r} is not an element; a pattern is made of 火 水 風 地 剣 (fire water wind earth sword) (R-PAT-1)",
                hint=err.hint, at_key=cond_path is not None, column_offset=err.index))
        if errors:
            return None
        if reflex is not None and len(elements) != reflex:
            self.diags.append(self.doc.diagnostic(
                path, "pattern-length",
                f"pattern {text!r} has {len(elements)} panels; with reflex {reflex} every pattern has exactly {reflex} (R-CHAR-3)",
                at_key=cond_path is not None))
            return None
        cond_line = cond_col = 0
        if condition is not None and cond_path is not None:
            cpos = self.doc.position(cond_path)
            cond_line, cond_col = cpos.line, cpos.content_column
            m = _WHEN.match(condition)
            if m:
                cond_col += m.end()
                condition = condition[m.end():]
            condition = condition.strip()
        return Pattern(elements, condition, pos.line, pos.column, cond_line, cond_col)

    def _skills(self, intellect: int | None) -> tuple[tuple[str, ...] | None, tuple[int, ...]]:
        raw = self.data.get("skills")
        if not isinstance(raw, list):
            return None, ()
        ok = True
        limit = self.ruleset.max_skill_entries(intellect) if intellect is not None else None
        if not raw:
            self.error(("skills",), "skill-count", "a character needs at least one skill entry (R-CHAR-3)", at_key=True)
            ok = False
        elif limit is not None and len(raw) > limit:
            self.error(("skills", limit), "skill-count",
                       f"{len(raw)} skill entries, but intellect {intellect} allows at most {limit} (R-CHAR-3)")
            ok = False
        catalog = self.ruleset.catalog
        ids: list[str] = []
        lines: list[int] = []
        for i, name in enumerate(raw):
            if not isinstance(name, str):
                ok = False
                continue
            skill = catalog.resolve(name)
            if skill is None:
                self.error(("skills", i), "unknown-skill", f"unknown skill {name!r}", hint=catalog.did_you_mean(name))
                ok = False
                continue
            ids.append(skill.id)
            lines.append(self.doc.position(("skills", i)).line)
        return (tuple(ids) if ok else None), tuple(lines)

    # -- the plan -------------------------------------------------------------

    def _plan(self) -> tuple[str | None, str | None, int, int]:
        """(text, file, line offset, column offset) of the plan; errors recorded."""
        raw = self.data.get("plan")
        if raw is None:
            return None, None, 0, 0
        if isinstance(raw, dict):
            if isinstance(raw.get("file"), str):
                return self._plan_file(raw["file"], ("plan", "file"))
            if isinstance(raw.get("text"), str):
                return self._inline_plan(raw["text"], ("plan", "text"))
            return None, None, 0, 0
        if not isinstance(raw, str):
            return None, None, 0, 0
        single = "\n" not in raw.strip()
        stripped = raw.strip()
        if single and (stripped.lower().endswith(".plan") or (stripped and not any(c.isspace() for c in stripped)
                                                               and self._names_a_file(stripped))):
            return self._plan_file(stripped, ("plan",))
        return self._inline_plan(raw, ("plan",))

    def _names_a_file(self, rel: str) -> bool:
        """Whether a one-word plan names a regular file inside the root (it is
        then read as a plan file); never raises (a NUL, an over-long name)."""
        self.read_files = True
        try:
            return confine(self.base_dir / rel, self.root, rel).is_file()
        except (UnsafePathError, OSError):
            return False

    def _inline_plan(self, text: str, path: tuple[Any, ...]) -> tuple[str | None, str | None, int, int]:
        pos = self.doc.position(path)
        if pos.style in ("|", ">"):
            if pos.style == ">":
                self.error(path, "plan-folded",
                           "an inline plan written with '>' joins its lines; write 'plan: |' so each clause keeps its line",
                           severity="warning")
            line_offset = pos.line  # the content starts on the line after the indicator
            first = self.doc.source_line(pos.line + 1) or ""
            col_offset = len(first) - len(first.lstrip(" "))
        else:
            line_offset = pos.line - 1
            col_offset = max(pos.content_column - 1, 0)
        return text, self.doc.file, line_offset, col_offset

    def _plan_file(self, rel: str, path: tuple[Any, ...]) -> tuple[str | None, str | None, int, int]:
        self.read_files = True
        target = self.base_dir / rel
        shown = str(Path(self.doc.file).parent / rel)
        try:
            if Path(rel).is_absolute():
                raise UnsafePathError(PathProblem("path-outside", "absolute"))
            raw = read_untrusted(target, self.root, shown=shown)
        except UnsafePathError as err:
            code = err.problem.code
            if code == "path-outside":
                self.error(path, "plan-outside", f"plan path {rel!r} leaves the folder {str(self.root)!r}; give a path inside it")
            elif code == "file-not-found":
                self.error(path, "plan-not-found", f"plan file {shown!r} does not exist (paths are relative to the sheet)")
            else:
                self.error(path, code, f"plan file: {err.problem.message}")
            return None, None, 0, 0
        text, problems = decode_text(raw, shown)
        if text is None:
            # the plan file's own problem (its encoding, at its line), and where the sheet names it
            self.diags.extend(problems)
            self.error(path, "plan-unreadable", f"cannot read plan file {shown!r}: {problems[0].message}",
                       hint=problems[0].hint)
            return None, None, 0, 0
        return text, shown, 0, 0


@dataclass(frozen=True)
class _SheetParts:
    """What the plan checks need of a sheet, as far as it could be read.

    ``skills`` / ``intellect`` are ``None`` when that part of the sheet is
    wrong; the checks that need them are then skipped, never guessed."""

    file: str
    patterns: list[Pattern]
    skills: tuple[str, ...] | None
    intellect: int | None
    plan_text: str | None
    plan_file: str | None
    plan_line_offset: int
    plan_column_offset: int


def _plan_diagnostics(parts: _SheetParts, ruleset: Ruleset, doc: YamlDocument,
                      known_characters: Sequence[str] | None = None) -> list[Diagnostic]:
    """Seam to :mod:`referee.plan`: parse pattern conditions and the plan, check
    the plan against the sheet (names, R-CHAR-4 clause count) and return the
    diagnostics, an inline plan's shifted to point into the sheet.
    """
    out: list[Diagnostic] = []
    for pattern in parts.patterns:
        if pattern.condition_text is not None:
            condition, cond_diags = parse_condition(pattern.condition_text, parts.file, pattern.condition_line,
                                                    pattern.condition_column)
            if condition is not None:  # R-D20-PLAN-2, R-SOUL-PLAN-4: a variant's condition on the sheet
                cond_diags = list(cond_diags) + gate_diagnostics([condition], ruleset.features, parts.file)
            # show the sheet's line under the caret, not the condition's text alone
            out.extend(replace(d, source_line=doc.source_line(d.line)) if d.line else d for d in cond_diags)
    if parts.plan_text is None or parts.plan_file is None:
        return out
    inline = parts.plan_file == parts.file
    plan, plan_diags = parse_plan_remembered(parts.plan_text, parts.plan_file)
    plan_diags = list(plan_diags)
    if plan is not None:
        # names, sheet skills and (with a sound intellect) the R-CHAR-4 clause count
        plan_diags += _checked_plan(plan, parts, ruleset, known_characters)
    if inline:
        plan_diags = [_shift(d, parts, doc) for d in plan_diags]
    else:  # the plan file's own lines under the caret, as checking the plan alone shows them
        plan_diags = with_source_lines(plan_diags, parts.plan_text)
    return out + plan_diags


#: :func:`_checked_plan`'s memo of clean checks: key -> the clauses checked
#: (kept, so the ``id`` in the key cannot be reused by another tuple).
_CLEAN_PLANS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _checked_plan(plan: Any, parts: _SheetParts, ruleset: Ruleset,
                  known_characters: Sequence[str] | None) -> list[Diagnostic]:
    """:func:`check_plan` of the sheet's plan, a clean answer remembered.

    Why: a remembered parse (:func:`parse_plan_remembered`) hands
    sheets that copy a plan the very same clauses; with the same skills,
    intellect, ruleset (its digest covers the catalogue, map and mechanics)
    and battle names the check cannot find anything new.  Only clean answers
    are remembered: diagnostics name their file."""
    key = (id(plan.clauses), parts.skills, parts.intellect, ruleset.digest,
           None if known_characters is None else tuple(known_characters))
    if _CLEAN_PLANS.get(key) is plan.clauses:
        return []
    diags = list(check_plan(plan, None, ruleset.catalog, skills=parts.skills, intellect=parts.intellect,
                            max_clauses_per_intellect=ruleset.max_clauses_per_intellect,
                            board=ruleset.map, known_characters=known_characters,
                            features=ruleset.features))
    if not diags:
        if len(_CLEAN_PLANS) >= 1024:
            _CLEAN_PLANS.clear()
        _CLEAN_PLANS[key] = plan.clauses
    return diags


def _shift(diag: Diagnostic, parts: _SheetParts, doc: YamlDocument) -> Diagnostic:
    """Move a diagnostic from inline-plan coordinates to sheet coordinates."""
    if not diag.line:
        return Diagnostic(parts.file, 0, 0, diag.code, diag.message, diag.hint, diag.severity)
    line = diag.line + parts.plan_line_offset
    column = diag.column + (parts.plan_column_offset if diag.column else 0)
    return Diagnostic(parts.file, line, column, diag.code, diag.message, diag.hint, diag.severity, doc.source_line(line))


def never_active_patterns(sheet: CharacterSheet) -> list[Diagnostic]:
    """R-PAT-3: ``referee check`` warns about a pattern that can never be
    active -- one without a condition after another without one (conditioned
    patterns are tried first, then the first unconditioned one always holds).
    A check-time warning, not a load-time one: a battle is not changed by it."""
    unconditioned = [p for p in sheet.patterns if p.condition_text is None]
    if len(unconditioned) < 2:
        return []
    text, _ = read_untrusted_text(sheet.file)
    lines = text.splitlines() if text is not None else []
    default = unconditioned[0]
    return [Diagnostic(sheet.file, p.line, p.column, "pattern-never-active",
                       f"pattern {p.text} has no condition, and neither has {default.text} before it: "
                       "it can never be active (R-PAT-3)",
                       hint=f"give it a condition, e.g. '- {p.text}: when hp <= 4'", severity="warning",
                       source_line=lines[p.line - 1] if 0 < p.line <= len(lines) else None)
            for p in unconditioned[1:]]


def sheet_summary(sheet: CharacterSheet) -> str:
    """One line for listings: ``Kagura  体3 神3 知3  HP 12  [火火水 水水地 剣地風]``."""
    pats = " ".join(p.text for p in sheet.patterns)
    return f"{sheet.name}  体{sheet.body} 神{sheet.reflex} 知{sheet.intellect}  HP {sheet.max_hp}  [{pats}]"


__all__ = [
    "ABILITY_KEYS",
    "CharacterSheet",
    "Pattern",
    "load_sheet",
    "never_active_patterns",
    "parse_sheet",
    "sheet_summary",
]
