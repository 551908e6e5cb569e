"""Battle files (``*.battle.yaml``): validate, load the sheets, normalise.

A battle file (interfaces.md, "Battle file") names a title, a ruleset, an
optional seed, the two teams as paths to character sheets, and optionally a
fixed ``setup`` (square and starting HP per character) and a fixed action
``order``.  This module turns one into a :class:`Battle`: the ruleset and every
sheet loaded and validated, every plan parsed, and a ready
:class:`~referee.engine.battle.BattleSetup` for the engine.

Every problem is reported at once (style lessons 10, 11) with the file, line
and column of the offending field: shape errors from
``referee/schemas/battle.schema.json``, then the meaning checks the schema
cannot express -- a path leaving the battle's folder tree (refused *before*
anything is read), a missing sheet, duplicate names, ``setup`` or ``order``
naming nobody, ``order`` not listing everyone exactly once, a square off the
map, a starting HP above the character's maximum (R-CHAR-2).
"""

from __future__ import annotations

import difflib
import functools
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.board import InvalidSquareError, Square, parse_square, square_name
from referee.confine import UnsafePathError, confine, read_resolved, read_untrusted_text, resolve_below
from referee.diagnostics import Diagnostic, ReferError, has_errors, position_key
from referee.limits import MAX_SEED_CHARS
from referee.mechanicspec import ORM_TERRAIN, SOUL_TERRAIN, WIZ_SIZE, feature_providers, terrain_fields
from referee.plan.parser import parse_plan_remembered
from referee.plan.ast import AttackObjectAt
from referee.plan.check import plan_character_names
from referee.ormfiles import check_pcs
from referee.ruleset import Ruleset, load_ruleset
from referee.sheet import CharacterSheet, parse_sheet, sheet_name
from referee.textfile import decode_text
from referee.terrain import Terrain, TerrainObject
from referee.textcheck import name_problem
from referee.yamlio import YamlDocument, read_yaml_file, schema_diagnostics

__all__ = [
    "TEAMS",
    "DEFAULT_RULESET",
    "BattleEntry",
    "Battle",
    "load_battle",
    "read_battle",
    "check_battle_file",
    "parse_plan_of",
    "square_on_map",
]

#: The two armies, in roster order (White first, R-GOAL-1).
TEAMS: tuple[str, ...] = ("white", "black")

#: The ruleset used when a battle file names none (docs/decisions.md).
DEFAULT_RULESET = "tcgt"

_SQUARE = re.compile(r"^([a-z]{1,2})([1-9][0-9]?)$")


@dataclass(frozen=True)
class BattleEntry:
    """One character of the battle, as the battle file placed it.

    :param team: ``white`` or ``black``.
    :param path: the sheet path as written in the battle file (relative to it).
    :param sheet: the validated sheet.
    :param plan: the parsed plan (``referee.plan`` AST) or ``None`` (the rules' defaults).
    :param square: fixed starting square (``"c3"``) from ``setup``, else ``None`` (drawn, R-SETUP-1).
    :param hp: fixed starting HP from ``setup``, else ``None`` (maximum HP).
    """

    team: str
    path: str
    sheet: CharacterSheet
    plan: Any
    square: str | None = None
    hp: int | None = None
    #: variant-wiz.md R-WIZ-BATTLE-1: ``setup.NAME.size``, else None (M).
    size: str | None = None

    @property
    def name(self) -> str:
        return self.sheet.name


@dataclass(frozen=True)
class Battle:
    """A loaded, validated battle: everything the engine and the reports need.

    :param file: the battle file's path as shown in diagnostics.
    :param ruleset_ref: the ruleset as written (``tcgt`` or a relative path).
    :param seed: from the file, or ``None`` (the command line decides).
    :param entries: White's characters then Black's, each in the file's order.
    :param order: a fixed action order (names), or ``None`` (R-TURN-1 dice).
    """

    file: str
    title: str
    ruleset: Ruleset
    ruleset_ref: str
    seed: int | str | None
    entries: tuple[BattleEntry, ...]
    order: tuple[str, ...] | None = None
    #: orm (R-ORM-BATTLE-1): the PC side of initiative ties.
    pcs: str | None = None
    #: The battle's terrain, or None: blocked areas (R-ORM-BATTLE-1, R-SOUL-FILE-2),
    #: barriers and objects (R-SOUL-FILE-2 only).
    terrain: Terrain | None = None

    def team(self, team: str) -> tuple[BattleEntry, ...]:
        """The entries of one army in roster order."""
        return tuple(e for e in self.entries if e.team == team)


def square_on_map(text: str, width: int, height: int) -> bool:
    """True when ``text`` (``"c3"``) names a square of a ``width`` x ``height`` map.

    >>> square_on_map("h8", 8, 8), square_on_map("i1", 8, 8), square_on_map("a9", 8, 8)
    (True, False, False)
    """
    try:
        square = parse_square(text)
    except InvalidSquareError:
        return False
    return square.file < width and square.rank < height


def parse_plan_of(sheet: CharacterSheet) -> tuple[Any, list[Diagnostic]]:
    """Parse a sheet's plan with :mod:`referee.plan` (``None`` when it has none).

    The sheet loader has already reported the plan's errors; this returns the
    AST the engine compiles.  Without the plan module (early in development)
    the plan is ``None``: the rules' defaults.
    """
    if sheet.plan_text is None:
        return None, []
    plan, diags = _parse_plan_cached(sheet.plan_text, sheet.plan_file or sheet.file)
    return plan, list(diags)


@functools.lru_cache(maxsize=1024)
def _parse_plan_cached(text: str, file: str) -> tuple[Any, tuple[Diagnostic, ...]]:
    """Plans are parsed once per text and file: the AST is frozen, and a
    round (or a batch worker) meets the same plan in many battles."""
    plan, diags = parse_plan_remembered(text, file)
    return plan, tuple(diags)


def read_battle(path: str | Path) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """Parse a battle file and check its shape against the shipped schema.

    :returns: the document (``None`` when it is not YAML or not a mapping) and
        every diagnostic.
    """
    if str(path).lower().endswith(".plan"):
        return None, [Diagnostic(str(path), 0, 0, "not-a-battle", "this is a plan, not a battle file",
                                 hint="resolve the battle file whose sheets name this plan")]
    # A battle file that is a symlink must not lead out of the folder it sits
    # in: its folder is what confines every sheet and ruleset it names, and a
    # round's organiser reads its contents back in check and standings.
    doc, diags = read_yaml_file(path, root=Path(path).parent)
    if doc is None:
        return None, diags
    if not isinstance(doc.data, dict):
        diags.append(doc.diagnostic((), "wrong-type", "a battle file is a mapping with title, ruleset, seed and teams"))
        return None, diags
    mistake = _other_kind_of_file(doc)
    if mistake is not None:
        return None, diags + [mistake]
    diags += schema_diagnostics(doc, "battle")
    return doc, diags


#: Sheet diagnostics that hold under any ruleset (YAML, shape, plan syntax,
#: files): reported even when the battle's ruleset cannot be loaded.
_RULESET_FREE_CODES = frozenset({
    "yaml-syntax", "duplicate-key", "encoding", "file-not-found", "wrong-type", "unknown-field", "missing-field",
    "invalid-value", "out-of-range", "wrong-size", "unknown-element", "pattern-length", "duplicate-ability",
    "missing-ability", "plan-not-found", "plan-outside", "plan-unreadable", "plan-folded", "unknown-clause",
    "unexpected-token", "unexpected-end", "unexpected-character", "too-deeply-nested", "number-too-large",
    "empty-name", "not-a-square", "target-without-skill",
})

#: Keys that show a YAML file is a character sheet or a ruleset, not a battle.
_SHEET_KEYS = frozenset({"abilities", "patterns", "skills", "plan", "能力", "スキル", "パターン", "作戦"})
_RULESET_KEYS = frozenset({"extends", "map", "turn_limit", "narrowing", "initiative", "hp_per_body", "mechanics"})


def _other_kind_of_file(doc: YamlDocument) -> Diagnostic | None:
    """One clear error for a sheet or ruleset given where a battle file is
    expected (``referee resolve kagura.yaml``), instead of a schema error for
    every battle field it lacks."""
    keys = {k for k in doc.data if isinstance(k, str)}
    if "teams" in keys:
        return None
    if keys & _SHEET_KEYS:
        return doc.diagnostic((), "not-a-battle", "this is a character sheet, not a battle file",
                              hint="resolve the battle file that names it under teams (or `referee check` the sheet)")
    if keys & _RULESET_KEYS:
        return doc.diagnostic((), "not-a-battle", "this is a ruleset, not a battle file",
                              hint="a battle file names it with `ruleset: PATH`")
    return None


def check_battle_file(path: str | Path) -> list[Diagnostic]:
    """Every diagnostic of a battle file and the sheets it names (``referee check``)."""
    _, diags = load_battle(path)
    return diags


def load_battle(path: str | Path) -> tuple[Battle | None, list[Diagnostic]]:
    """Load and validate a battle file with its ruleset, sheets and plans.

    Never raises on bad input.  :returns: the battle (``None`` if any error)
    and every diagnostic, sorted by file and position.
    """
    doc, diags = read_battle(path)
    if doc is None:
        return None, diags
    loader = _BattleLoader(doc, Path(path))
    battle = loader.load()
    diags += loader.diags
    diags = sorted(set(diags), key=position_key)
    if has_errors(diags):
        return None, diags
    return battle, diags


def _load_sheet_cached(path: Path, ruleset: Ruleset, root: Path, names: tuple[str, ...] | None = None,
                       real: str | None = None) -> tuple[CharacterSheet | None, list[Diagnostic]]:
    """:func:`load_sheet`, its check remembered per process by the sheet's
    *content* (:func:`referee.sheet.parse_sheet`, ``remember=True``): the file is
    read every time, never trusted by its modification time.

    ``names``: the battle's names, to check the plan's.  ``real``: the path
    already resolved inside ``root`` (:func:`referee.confine.resolve_below`),
    read without confining it again; should reading it fail, the confined
    reader reads it afresh and words the problem.
    """
    shown = str(path)
    text: str | None = None
    if real is not None:
        try:
            text, diags = decode_text(read_resolved(real, shown), shown)
        except UnsafePathError:
            real = None
    if real is None:
        text, diags = read_untrusted_text(path, root, shown=shown)
    if text is None:
        return None, diags
    return parse_sheet(text, shown, ruleset, path.parent, root=root, known_characters=names, remember=True)


_PLAN_NAMES: dict[int, tuple[Any, frozenset[str]]] = {}


def _names_in_plan(plan: Any) -> frozenset[str]:
    """:func:`plan_character_names`, remembered per plan object: plans are
    parsed once per text (``_parse_plan_cached``) and a batch worker meets the
    same plans in many battles (the entry keeps the object, so ids are stable)."""
    hit = _PLAN_NAMES.get(id(plan))
    if hit is None or hit[0] is not plan:
        if len(_PLAN_NAMES) >= 1024:
            _PLAN_NAMES.clear()
        hit = (plan, frozenset(plan_character_names(plan)))
        _PLAN_NAMES[id(plan)] = hit
    return hit[1]


class _BattleLoader:
    """Meaning checks over the raw data; tolerant of fields the schema rejected
    (it skips them) so every other problem is still found."""

    def __init__(self, doc: YamlDocument, path: Path) -> None:
        self.doc = doc
        self.data: dict[Any, Any] = doc.data
        self.folder = path.parent
        self._folder_resolved: Path | None = None
        self.diags: list[Diagnostic] = []

    @property
    def folder_resolved(self) -> Path:
        if self._folder_resolved is None:
            self._folder_resolved = self.folder.resolve()
        return self._folder_resolved

    @functools.cached_property
    def folder_real(self) -> str:
        """:attr:`folder_resolved` as text, for :func:`resolve_below`."""
        return str(self.folder_resolved)

    def error(self, path: tuple[Any, ...], code: str, message: str, **kw: Any) -> None:
        self.diags.append(self.doc.diagnostic(path, code, message, **kw))

    # -- paths ------------------------------------------------------------

    def _inside(self, rel: str, field: tuple[Any, ...], what: str) -> Path | None:
        """``rel`` resolved against the battle's folder, or ``None`` with an
        error when it is absolute or leaves the folder tree (nothing is read)."""
        candidate = Path(rel)
        if candidate.is_absolute() or rel.startswith("~"):
            self.error(field, "path-outside",
                       f"{what} path {rel!r} must be relative to the battle file's folder",
                       hint="write it relative to the battle file, e.g. sheets/kagura.yaml")
            return None
        target = self.folder / candidate
        try:
            confine(target, self.folder_resolved, rel)
        except UnsafePathError as err:
            if err.problem.code == "path-outside":
                self.error(field, "path-outside",
                           f"{what} path {rel!r} leaves the battle file's folder; it was not read",
                           hint="keep sheets and rulesets in the battle's folder or below it")
            else:
                self.error(field, err.problem.code, f"{what} path: {err.problem.message}")
            return None
        return target

    def _is_regular_file(self, target: Path, field: tuple[Any, ...], what: str, rel: str) -> bool:
        """True for a regular file; else an error at ``field`` that says what
        is there instead (a FIFO is not "missing", issue 17 point 18)."""
        try:
            mode = target.stat().st_mode
        except FileNotFoundError:
            self.error(field, "file-not-found", f"{what} {rel!r} does not exist (looked in {self.folder})")
            return False
        except OSError as err:
            self.error(field, "unreadable", f"{what} {rel!r} cannot be read: {err.strerror or err}")
            return False
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "not a plain file"
            self.error(field, "not-a-file", f"{what} {rel!r} is {kind}, not a regular file; it was not read")
            return False
        return True

    # -- the whole file ---------------------------------------------------

    def load(self) -> Battle | None:
        title = self.data.get("title")
        seed = self.data.get("seed")
        self._printable_fields(title, seed)
        ruleset, ruleset_ref = self._ruleset()
        every_sheet_loaded = self._entries(ruleset) is not None
        if ruleset is None:
            # Still check what can be checked without the sheets.
            self._order_shape()
            return None
        # Every error at once: with a broken sheet the rest of the file is still
        # checked against the sheets that loaded and the names the broken ones
        # give; name checks only when every character's name is known.
        names = self._unique_names(self._loaded) | set(self._broken_names)
        known = names if self._all_named else None
        pcs = self._orm_fields(ruleset)
        entries = self._apply_setup(self._loaded, known, ruleset)
        order = self._order(known)
        terrain = self._terrain(ruleset, entries)
        self._object_orders(entries, terrain)
        if known is not None:
            # with the battle's names known, a name is checked for real
            # (unknown-character); the sheet's "reads like a keyword" guess goes
            self.diags = [d for d in self.diags if d.code != "name-like-keyword"]
            self._plan_names(ruleset, sorted(known))
        if not isinstance(title, str) or not every_sheet_loaded or entries is None or has_errors(self.diags):
            return None
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            seed = None
        return Battle(
            file=self.doc.file,
            title=title,
            ruleset=ruleset,
            ruleset_ref=ruleset_ref,
            seed=seed,
            entries=tuple(entries),
            order=order,
            pcs=pcs,
            terrain=terrain,
        )

    def _printable_fields(self, title: Any, seed: Any) -> None:
        """The title and a seed given as text are printed in every report: no
        line breaks, escape codes or blank titles (issue 17, point 14)."""
        problem = name_problem(title, "a title") if isinstance(title, str) else None
        if problem is not None:
            self.error(("title",), "bad-title", problem)
        if isinstance(seed, str):
            problem = name_problem(seed, "a seed", MAX_SEED_CHARS)
            if problem is not None:
                self.error(("seed",), "bad-seed", problem)

    def _ruleset(self) -> tuple[Ruleset | None, str]:
        ref = self.data.get("ruleset", DEFAULT_RULESET)
        if not isinstance(ref, str) or not ref.strip():
            return None, DEFAULT_RULESET
        ref = ref.strip()
        is_path = "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml"))
        try:
            if not is_path:
                return load_ruleset(ref), ref
            target = self._inside(ref, ("ruleset",), "ruleset")
            if target is None:
                return None, ref
            if not self._is_regular_file(target, ("ruleset",), "ruleset file", ref):
                return None, ref
            return load_ruleset(target, root=self.folder), ref
        except ReferError as err:
            for d in err.diagnostics:
                if d.code == "unknown-ruleset":
                    self.error(("ruleset",), d.code, d.message, hint=d.hint)
                else:
                    self.diags.append(d)
            return None, ref

    def _entries(self, ruleset: Ruleset | None) -> list[BattleEntry] | None:
        teams = self.data.get("teams")
        self._loaded: list[BattleEntry] = []
        self._broken_names: list[str] = []  # names read from sheets that failed
        self._sheet_paths: list[Path] = []  # every sheet file that exists, in roster order
        self._all_named = isinstance(teams, dict)  # every character's name is known
        if not isinstance(teams, dict):
            return None
        entries = self._loaded
        ok = True
        for team in TEAMS:
            paths = teams.get(team)
            if not isinstance(paths, list):
                ok = self._all_named = False
                continue
            for i, rel in enumerate(paths):
                if not isinstance(rel, str) or not rel.strip():
                    if isinstance(rel, str):  # the schema lets a blank path through (length 1)
                        self.error(("teams", team, i), "invalid-value",
                                   f"teams.{team}[{i}]: expected a sheet path such as sheets/kagura.yaml, not a blank one")
                    ok = self._all_named = False
                    continue
                field = ("teams", team, i)
                target = self.folder / rel
                below = resolve_below(self.folder_real, rel, str(target))
                real = below[0] if below is not None and stat.S_ISREG(below[1].st_mode) else None
                if real is None:  # not plainly a regular file below the folder: the full checks word it
                    inside = self._inside(rel, field, "sheet")
                    if inside is None:
                        ok = self._all_named = False
                        continue
                    target = inside
                    if not self._is_regular_file(target, field, "character sheet", rel):
                        ok = self._all_named = False
                        continue
                if ruleset is None:
                    self._sheet_checked_without_ruleset(target)
                    continue
                self._sheet_paths.append(target)
                sheet, sheet_diags = _load_sheet_cached(target, ruleset, self.folder, real=real)
                self.diags.extend(sheet_diags)
                if sheet is None:
                    ok = False
                    name = sheet_name(target)
                    if name is None:
                        self._all_named = False
                    else:
                        self._broken_names.append(name)
                    continue
                plan, plan_diags = parse_plan_of(sheet)
                if has_errors(plan_diags):
                    self.diags.extend(plan_diags)
                    ok = False
                    self._broken_names.append(sheet.name)
                    continue
                entries.append(BattleEntry(team=team, path=rel, sheet=sheet, plan=plan))
        return entries if ok and ruleset is not None else None

    def _sheet_checked_without_ruleset(self, target: Path) -> None:
        """The battle's ruleset could not be loaded: its sheets are still read
        (against the default ruleset) and every error that no ruleset could
        change is reported now, not on the next run (issue 14)."""
        _, diags = _load_sheet_cached(target, load_ruleset(DEFAULT_RULESET), self.folder)
        self.diags.extend(d for d in diags if d.code in _RULESET_FREE_CODES)

    def _plan_names(self, ruleset: Ruleset, names: list[str]) -> None:
        """Every name a plan gives must be a character of this battle (a plan
        is checked against the battle it is in: ``never target Akanee``,
        ``target weakest``), in ``check``, ``resolve`` and ``batch`` alike.

        A sheet whose plan names someone absent, or that failed (its plan may
        still have sound clauses), is read again with the names, so the errors
        point into the plan as written; only the name errors are new."""
        loaded = {e.sheet.file: e for e in self._loaded}
        for target in self._sheet_paths:
            entry = loaded.get(str(target))
            if entry is not None and (entry.plan is None or _names_in_plan(entry.plan) <= set(names)):
                continue
            _, diags = _load_sheet_cached(target, ruleset, self.folder, tuple(names))
            self.diags.extend(d for d in diags if d.code == "unknown-character")

    def _unique_names(self, entries: list[BattleEntry]) -> set[str]:
        seen: dict[str, tuple[str, int]] = {}
        counters = {t: 0 for t in TEAMS}
        for e in entries:
            index = counters[e.team]
            counters[e.team] += 1
            # Recover the index among this team's *written* paths for the position.
            idx = self._path_index(e.team, e.path, index)
            if e.name in seen:
                other_team, other_idx = seen[e.name]
                self.error(("teams", e.team, idx), "duplicate-name",
                           f"two characters are named {e.name!r} (also teams.{other_team}[{other_idx}]); names must be unique within a battle")
            else:
                seen[e.name] = (e.team, idx)
        return set(seen)

    def _path_index(self, team: str, rel: str, fallback: int) -> int:
        """Where ``rel`` is written in the team's list when it is written once;
        the per-team index is built once, so a long roster stays linear."""
        if not hasattr(self, "_path_indices"):
            self._path_indices: dict[tuple[str, str], int | None] = {}
            for t in TEAMS:
                written = self.data.get("teams", {}).get(t, [])
                for i, p in enumerate(written if isinstance(written, list) else []):
                    if isinstance(p, str):
                        key = (t, p)
                        self._path_indices[key] = None if key in self._path_indices else i
        hit = self._path_indices.get((team, rel))
        return hit if hit is not None else fallback

    def _unknown_name(self, field: tuple[Any, ...], name: str, names: set[str], what: str, *, at_key: bool = False) -> None:
        close = difflib.get_close_matches(name, sorted(names), n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"characters: {', '.join(sorted(names))}"
        self.error(field, "unknown-character", f"{what} names {name!r}, who is not in this battle", hint=hint, at_key=at_key)

    def _orm_fields(self, ruleset: Ruleset) -> str | None:
        """R-ORM-BATTLE-1: ``pcs``, refused where the ruleset lacks it
        (``referee.ormfiles``); its ``terrain`` is :meth:`_terrain`'s."""
        return check_pcs(self.data["pcs"], ruleset, self.error) if "pcs" in self.data else None

    def _capacity(self, ruleset: Ruleset, setup: dict[Any, Any]) -> None:
        """R-ORM-BATTLE-1: no more than ``capacity_per_side`` of one side in an area."""
        capacity = getattr(ruleset.mechanics.movement, "capacity_per_side", 0)
        if not capacity:
            return
        team_of = {e.name: e.team for e in self._loaded}
        count: dict[tuple[str, str], int] = {}
        for name, spec in setup.items():
            square = spec.get("square") if isinstance(spec, dict) else None
            team = team_of.get(str(name))
            if not isinstance(square, str) or team is None:
                continue
            count[(team, square)] = count.get((team, square), 0) + 1
            if count[(team, square)] == capacity + 1:
                self.error(("setup", name, "square"), "area-over-capacity",
                           f"setup.{name}.square: {square} already holds {capacity} of {team} (R-ORM-MOVE-2)")

    def _setup_squares(self, ruleset: Ruleset) -> None:
        """Every fixed square must be on the map and not blocked."""
        setup = self.data.get("setup")
        if not isinstance(setup, dict):
            return
        width, height = ruleset.map.width, ruleset.map.height
        for name, spec in setup.items():
            square = spec.get("square") if isinstance(spec, dict) else None
            if not isinstance(square, str) or not _SQUARE.match(square):
                continue
            field = ("setup", name, "square")
            if not square_on_map(square, width, height):
                self.error(field, "off-map", f"setup.{name}.square: {square} is not on the {width}x{height} map")
            elif square in ruleset.map.blocked:
                self.error(field, "blocked-square", f"setup.{name}.square: {square} is blocked on this map")
        self._capacity(ruleset, setup)

    def _apply_setup(self, entries: list[BattleEntry], names: set[str] | None, ruleset: Ruleset) -> list[BattleEntry] | None:
        """The entries with their fixed squares and HP.  ``names``: every
        character's name, or ``None`` when some are unknown (a sheet that could
        not be read): names are then not checked."""
        setup = self.data.get("setup")
        if setup is None:
            return entries
        if not isinstance(setup, dict):
            return None
        self._setup_squares(ruleset)
        by_name = {e.name: e for e in entries}
        fixed: dict[str, tuple[str | None, int | None, str | None]] = {}
        features = ruleset.features
        for name, spec in setup.items():
            if not isinstance(spec, dict):
                continue
            field = ("setup", name)
            if names is not None and str(name) not in names:
                self._unknown_name(field, str(name), names, "setup", at_key=True)
                continue
            entry = by_name.get(str(name))
            if entry is None:
                continue  # a character whose sheet failed: its errors are reported
            square = spec.get("square")
            hp = spec.get("hp")
            if isinstance(hp, int) and not isinstance(hp, bool) and hp > entry.sheet.max_hp:
                self.error(field + ("hp",), "out-of-range",
                           f"setup.{name}.hp must be 1..{entry.sheet.max_hp} (its maximum HP, R-CHAR-2), not {hp}")
            size = spec.get("size")
            if size is not None and WIZ_SIZE not in features.names:
                self.error(field + ("size",), "clause-not-in-ruleset",
                           f"{WIZ_SIZE} is not part of ruleset '{features.ruleset}'",
                           hint="it comes with the mechanics " + "; ".join(feature_providers(WIZ_SIZE)), at_key=True)
                size = None
            fixed[str(name)] = (square if isinstance(square, str) else None,
                                hp if isinstance(hp, int) and not isinstance(hp, bool) else None,
                                size if isinstance(size, str) else None)
        return [
            BattleEntry(e.team, e.path, e.sheet, e.plan, *fixed[e.name]) if e.name in fixed else e
            for e in entries
        ]

    def _order_shape(self) -> None:
        """Duplicates in ``order`` are an error even when the sheets failed."""
        order = self.data.get("order")
        if not isinstance(order, list):
            return
        seen: set[str] = set()
        for i, name in enumerate(order):
            if isinstance(name, str) and name in seen:
                self.error(("order", i), "duplicate-name", f"order lists {name!r} twice; every character acts once per turn")
            if isinstance(name, str):
                seen.add(name)

    def _order(self, names: set[str] | None) -> tuple[str, ...] | None:
        """``order`` checked: no duplicates; with every name known (``names``
        not ``None``), only battle characters and every one of them."""
        order = self.data.get("order")
        if order is None:
            return None
        if not isinstance(order, list) or not all(isinstance(n, str) for n in order):
            return None
        self._order_shape()
        if names is None:
            return tuple(order)
        for i, name in enumerate(order):
            if name not in names:
                self._unknown_name(("order", i), name, names, "order")
        missing = [n for n in sorted(names) if n not in order]
        if missing:
            self.error(("order",), "order-incomplete",
                       f"order must list every character exactly once; missing: {', '.join(missing)}")
        return tuple(order)

    # --- terrain: orm's blocked areas (R-ORM-BATTLE-1), soulwired's whole block (R-SOUL-FILE-2)

    def _terrain(self, ruleset: Ruleset, entries: list[BattleEntry] | None) -> Terrain | None:
        """``terrain:`` checked: only under a ruleset with terrain (and no
        narrowing, which knows no terrain); ``blocked`` where the mechanics
        give blocked terrain (orm, soulwired), ``barriers`` and ``objects``
        only where they give the whole block (soulwired: R-ORM-CHECK-1 refuses
        them under orm); squares on the map and listed once across the lists;
        strength >= 1 and armour >= 0, whole numbers; no ``setup.square`` on a
        blocked or object area; every army that draws squares keeps a free
        area in its R-SETUP-1 rows."""
        raw = self.data.get("terrain")
        if raw is None:
            return None
        whole = SOUL_TERRAIN in ruleset.features.names
        # Narrowing (R-NARROW-2) knows no barriers or objects: soulwired's whole
        # block is refused with it; blocked areas are the map's own kind (wiz).
        fields = terrain_fields(ruleset.mechanics)
        if not fields:
            why = ("narrowing (R-NARROW-2) knows no terrain" if whole
                   else f"providers: {', '.join(feature_providers(ORM_TERRAIN) + feature_providers(SOUL_TERRAIN))}")
            self.error(("terrain",), "clause-not-in-ruleset",
                       f"{ORM_TERRAIN} is not part of ruleset '{ruleset.name}'", hint=why, at_key=True)
            return None
        if not isinstance(raw, dict):
            self.error(("terrain",), "wrong-type", "terrain: a mapping {blocked: [..], barriers: [..], objects: [..]}")
            return None
        width, height = ruleset.map.width, ruleset.map.height
        seen: dict[str, tuple[Any, ...]] = {}
        ok = True

        def square_at(path: tuple[Any, ...], value: Any) -> Square | None:
            nonlocal ok
            if not isinstance(value, str) or not _SQUARE.match(value):
                self.error(path, "bad-square", f"{'.'.join(map(str, path))}: expected a square such as c3, not {value!r}")
                ok = False
                return None
            if not square_on_map(value, width, height):
                self.error(path, "off-map", f"{'.'.join(map(str, path))}: {value} is not on the {width}x{height} map")
                ok = False
                return None
            if value in seen:
                self.error(path, "duplicate-square",
                           f"{'.'.join(map(str, path))}: {value} is already listed at {'.'.join(map(str, seen[value]))}")
                ok = False
                return None
            seen[value] = path
            return parse_square(value)

        for key in sorted(set(raw) - set(fields), key=str):
            self.error(("terrain", key), "unknown-field",
                       f"terrain: no field {key!r} under ruleset '{ruleset.name}'; it takes {', '.join(fields)}"
                       + ("" if whole or key not in ("barriers", "objects") else " (R-ORM-CHECK-1)"), at_key=True)
            ok = False
        lists: dict[str, list[Square]] = {"blocked": [], "barriers": []}
        for key in ("blocked", "barriers"):
            value = raw.get(key, [])
            if not isinstance(value, list):
                self.error(("terrain", key), "wrong-type", f"terrain.{key}: a list of squares such as [d5]")
                ok = False
                continue
            for i, item in enumerate(value):
                sq = square_at(("terrain", key, i), item)
                if sq is not None:
                    lists[key].append(sq)
        objects: list[TerrainObject] = []
        value = raw.get("objects", [])
        if not isinstance(value, list):
            self.error(("terrain", "objects"), "wrong-type",
                       "terrain.objects: a list of {square: c1, strength: 6, armour: 1}")
            ok = False
            value = []
        for i, obj in enumerate(value):
            path = ("terrain", "objects", i)
            if not isinstance(obj, dict):
                self.error(path, "wrong-type", "an object is {square: c1, strength: 6, armour: 1}")
                ok = False
                continue
            for key in sorted(set(obj) - {"square", "strength", "armour"}, key=str):
                self.error(path + (key,), "unknown-field", f"an object takes square, strength and armour, not {key!r}",
                           at_key=True)
                ok = False
            sq = square_at(path + ("square",), obj.get("square"))
            strength, armour = obj.get("strength"), obj.get("armour", 0)
            if type(strength) is not int or strength < 1:
                self.error(path + (("strength",) if "strength" in obj else ()), "out-of-range",
                           "an object's strength is a whole number of 1 or more (R-SOUL-FILE-2)")
                ok = False
            if type(armour) is not int or armour < 0:
                self.error(path + ("armour",), "out-of-range",
                           "an object's armour is a whole number of 0 or more (R-SOUL-FILE-2)")
                ok = False
            if sq is not None and type(strength) is int and type(armour) is int:
                objects.append(TerrainObject(sq, strength, armour))
        terrain = Terrain(tuple(lists["blocked"]), tuple(lists["barriers"]), tuple(objects))
        closed = terrain.closed()
        setup = self.data.get("setup")
        if isinstance(setup, dict):
            for name, spec in setup.items():
                square = spec.get("square") if isinstance(spec, dict) else None
                if isinstance(square, str) and _SQUARE.match(square) and square_on_map(square, width, height) \
                        and parse_square(square) in closed:
                    self.error(("setup", name, "square"), "blocked-square",
                               f"setup.{name}.square: {square} is a blocked or object area (R-SOUL-FILE-2)")
                    ok = False
        for team in TEAMS:
            draws = entries is not None and any(e.team == team and e.square is None for e in entries)
            if not draws:
                continue
            rows = range(height - 2)
            free = [Square(file=f, rank=(height - 1 - r if team == "black" else r)) for f in range(width) for r in rows]
            if all(sq in closed or square_name(sq) in ruleset.map.blocked for sq in free):
                self.error(("terrain",), "no-free-area",
                           f"{team} has a character to draw and no free area in its starting rows (R-SETUP-1, R-SOUL-FILE-2)",
                           at_key=True)
                ok = False
        return terrain if ok and not terrain.empty else None

    def _object_orders(self, entries: list[BattleEntry] | None, terrain: Terrain | None) -> None:
        """R-SOUL-PLAN-5: a warning for ``attack object at SQ`` in a battle
        with no object at SQ (the clause never applies here)."""
        objects = {square_name(o.square) for o in terrain.objects} if terrain is not None else set()
        for entry in entries or ():
            plan = entry.plan
            for clause in getattr(plan, "clauses", ()):
                if isinstance(clause, AttackObjectAt) and clause.square.name not in objects:
                    sheet = entry.sheet
                    line = clause.square.line + sheet.plan_line_offset
                    column = clause.square.column + (sheet.plan_column_offset if clause.square.column else 0)
                    self.diags.append(Diagnostic(
                        sheet.plan_file or sheet.file, line, column, "no-object-there",
                        f"{entry.name}'s plan attacks an object at {clause.square.name}, but this battle has no "
                        f"object there; the clause never applies (R-SOUL-PLAN-5)", severity="warning"))
