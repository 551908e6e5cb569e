"""Rulesets: every number of the rules as validated, frozen data (style lesson 2).

A ruleset YAML (``referee/data/rulesets/tcgt.yaml`` is the built-in default)
holds the map, the turn limit (R-TURN-9), the character-creation numbers
(R-CHAR-1..4), the skill catalogue and the ``mechanics:`` block (R-VAR-1:
range, movement, initiative, action, hit, damage, area, stall breaker, end
check -- ``referee.mechanicspec``). A variant says ``extends: tcgt`` and lists
only what differs: the base is merged under it (mappings key by key, a mapping
naming another ``kind`` replaced, lists and scalars replaced), and the merged
data is validated by ``referee/schemas/ruleset.schema.json`` then by the
mechanics table.

:attr:`Ruleset.digest` is the sha256 of the canonical JSON of the merged data
with the catalogue's data in place of its path, so two machines that resolve a
battle under "the same" ruleset can prove it (style lesson 8).
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from collections.abc import Callable
from typing import Any

from referee.board import parse_square
from referee.catalog import BUILTIN, SkillCatalog, canonical_digest, load_catalog, parse_catalog
from referee.confine import UnsafePathError, confine
from referee.diagnostics import Diagnostic, ReferError, has_errors
from referee.mechanicspec import Features, MechanicsSpec, build_mechanics_spec, mechanics_diagnostics
from referee.limits import MAX_TURN_LIMIT, MIN_MAP_SIDE
from referee.textcheck import name_problem
from referee.yamlio import YamlDocument, load_yaml, read_yaml_file, schema_diagnostics

#: Name of the default ruleset.
DEFAULT_RULESET = "tcgt"



@dataclass(frozen=True)
class MapSpec:
    """The field (R-FIELD-1): ``width`` files x ``height`` ranks and squares
    that are not part of the map (written ``"c3"``).  How a character steps
    between areas is the ``movement`` mechanic's (R-VAR-1)."""

    width: int
    height: int
    blocked: tuple[str, ...] = ()


@dataclass(frozen=True)
class AbilityRules:
    """R-CHAR-1: the three abilities sum to ``budget``, each at least ``minimum``."""

    budget: int
    minimum: int


@dataclass(frozen=True)
class Ruleset:
    """A loaded, validated ruleset. Never mutated (style lesson 2).

    :param name: the ruleset's name (``tcgt``).
    :param digest: sha256 hex of the canonical merged data (see module doc).
    :param source: the file it was loaded from, as shown in diagnostics.
    :param data: the merged plain data (what the digest covers, minus skills).
    """

    name: str
    description: str
    digest: str
    map: MapSpec
    turn_limit: int
    abilities: AbilityRules
    hp_per_body: int
    max_patterns_per_intellect: int
    extra_skill_entries: int
    max_clauses_per_intellect: int
    mechanics: MechanicsSpec
    catalog: SkillCatalog = field(repr=False)
    source: str = ""
    data: Any = field(default=None, compare=False, repr=False)

    @functools.cached_property
    def features(self) -> Features:
        """What this ruleset's mechanics let plans, sheets and battles write
        (worked out once per ruleset: every sheet's check asks)."""
        return Features(self.name, self.mechanics.features())

    def max_hp(self, body: int) -> int:
        """Max HP of a character (R-CHAR-2)."""
        return self.hp_per_body * body

    def max_patterns(self, intellect: int) -> int:
        """Most patterns a sheet may list (R-CHAR-3)."""
        return self.max_patterns_per_intellect * intellect

    def max_skill_entries(self, intellect: int) -> int:
        """Most skill entries a sheet may list (R-CHAR-3)."""
        return intellect + self.extra_skill_entries

    def max_clauses(self, intellect: int) -> int:
        """Most clauses a plan may have (R-CHAR-4)."""
        return self.max_clauses_per_intellect * intellect


# ---------------------------------------------------------------------------
# Loading


def builtin_rulesets() -> tuple[str, ...]:
    """Names of the rulesets shipped in ``referee/data/rulesets/``, sorted."""
    folder = resources.files("referee").joinpath("data", "rulesets")
    return tuple(sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml")))


def _builtin_path(name: str) -> Path:
    return Path(str(resources.files("referee").joinpath("data", "rulesets", f"{name}.yaml")))


def is_builtin_name(text: str) -> bool:
    """``tcgt``: a name of a built-in ruleset, not a path (R-VAR rulesets too)."""
    return re.fullmatch(r"[A-Za-z0-9_-]+", text) is not None and not text.endswith((".yaml", ".yml"))


def load_ruleset(name_or_path: str | Path = DEFAULT_RULESET, root: Path | None = None) -> Ruleset:
    """A built-in ruleset by name (``"tcgt"``) or a ruleset YAML by path.

    Built-ins are cached; files are read afresh each call.

    :param root: a folder the files the ruleset names (the base it extends,
        its skill catalogue) may not leave -- a battle's folder tree.
    :raises ReferError: with every diagnostic (file, line, column) when the
        ruleset, a base it extends or its skill catalogue is missing or invalid.
    """
    text = str(name_or_path)
    if isinstance(name_or_path, str) and is_builtin_name(text):
        return _load_builtin(text)
    ruleset, diags = load_ruleset_file(Path(name_or_path), root=root)
    if ruleset is None:
        raise ReferError(diags)
    return ruleset


@functools.lru_cache(maxsize=None)
def _load_builtin(name: str) -> Ruleset:
    if name not in builtin_rulesets():
        close = difflib.get_close_matches(name, builtin_rulesets(), n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"built-in rulesets: {', '.join(builtin_rulesets())}"
        raise ReferError([Diagnostic(name, 0, 0, "unknown-ruleset", f"no built-in ruleset named {name!r} (and no such file)", hint=hint)])
    ruleset, diags = load_ruleset_file(_builtin_path(name), display=f"referee/data/rulesets/{name}.yaml")
    if ruleset is None:
        raise ReferError(diags)
    return ruleset


def load_ruleset_file(path: Path, display: str | None = None,
                      root: Path | None = None) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Load and validate a ruleset file; never raises on bad input.

    :param root: see :func:`load_ruleset`; ``None``: no confinement."""
    data, doc, diags = _merged_data(path, display, (), root)
    if data is None or doc is None or has_errors(diags):
        return None, diags
    return _build(doc, data, path.parent, diags, root=root)


def _path_problem(doc: YamlDocument, field_name: str, rel: str, target: Path,
                  root: Path | None) -> Diagnostic | None:
    """Why the file a ruleset names at ``field_name`` may not be read, through
    :func:`referee.confine.confine` (symlinks resolved, then confined to
    ``root`` when given; a NUL or an over-long path is a problem too)."""
    try:
        confine(target, root, rel)
    except UnsafePathError as err:
        if err.problem.code == "path-outside":
            return doc.diagnostic(
                (field_name,), "path-outside", f"{field_name} path {rel!r} leaves the battle file's folder; it was not read",
                hint="keep rulesets and skill catalogues in the battle's folder or below it")
        return doc.diagnostic((field_name,), err.problem.code, f"{field_name}: {err.problem.message}")
    return None


def _merged_data(
    path: Path, display: str | None, chain: tuple[str, ...], root: Path | None = None
) -> tuple[dict[str, Any] | None, YamlDocument | None, list[Diagnostic]]:
    """The file's data with its ``extends`` chain merged under it."""
    shown = display if display is not None else str(path)
    doc, diags = read_yaml_file(path, shown, root=root)
    if doc is None:
        return None, None, diags
    if not isinstance(doc.data, dict):
        return None, doc, diags + [doc.diagnostic((), "wrong-type", "a ruleset must be a mapping of fields (name, map, ...)")]
    own: dict[str, Any] = dict(doc.data)
    base_ref = own.pop("extends", None)
    if base_ref is None:
        return own, doc, diags
    if not isinstance(base_ref, str):
        return None, doc, diags + [doc.diagnostic(("extends",), "wrong-type", "extends must name a ruleset")]
    if is_builtin_name(base_ref):
        if base_ref not in builtin_rulesets():
            close = difflib.get_close_matches(base_ref, builtin_rulesets(), n=1)
            return None, doc, diags + [
                doc.diagnostic(("extends",), "unknown-ruleset", f"no built-in ruleset named {base_ref!r}",
                               hint=f"did you mean {close[0]!r}?" if close else None)
            ]
        base_path, base_display = _builtin_path(base_ref), f"referee/data/rulesets/{base_ref}.yaml"
    else:
        base_path = (path.parent / base_ref)
        base_display = str(Path(shown).parent / base_ref)
        problem = _path_problem(doc, "extends", base_ref, base_path, root)
        if problem is not None:
            return None, doc, diags + [problem]
    key = str(base_path.resolve())
    if key in chain or key == str(path.resolve()):
        return None, doc, diags + [doc.diagnostic(("extends",), "extends-cycle", f"{base_ref!r} extends this ruleset again (a cycle)")]
    base_root = None if is_builtin_name(base_ref) else root  # the package's own files are not confined
    base, _, base_diags = _merged_data(base_path, base_display, chain + (str(path.resolve()),), base_root)
    if base_diags:
        diags += base_diags
    if base is None:
        if not base_diags:
            diags.append(doc.diagnostic(("extends",), "unknown-ruleset", f"cannot load {base_ref!r}"))
        return None, doc, diags
    merged = deep_merge(base, own)
    if "name" not in own:
        merged["name"] = Path(shown).name.split(".")[0]
    if "description" not in own:
        merged.pop("description", None)
    # The base's `skills` path is relative to the base file: make it absolute.
    if "skills" not in own and base.get("skills") not in (None, BUILTIN):
        merged["skills"] = str((base_path.parent / str(base["skills"])).resolve())
    return merged, doc, diags


def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base``: mappings merge key by key, anything else
    replaces -- and a mapping naming a different ``kind`` replaces too, so a
    house ruleset swapping a mechanic never keeps the old kind's parameters
    (``stall: {kind: none}`` over narrowing drops its ``schedule``, R-VAR-1).

    >>> deep_merge({"map": {"width": 8, "height": 8}, "turn_limit": 100}, {"map": {"width": 6}})
    {'map': {'width': 6, 'height': 8}, 'turn_limit': 100}
    >>> deep_merge({"stall": {"kind": "narrowing", "schedule": []}}, {"stall": {"kind": "none"}})
    {'stall': {'kind': 'none'}}
    """
    out = dict(base)
    for key, value in override.items():
        same_kind = not isinstance(value, dict) or "kind" not in value \
            or not isinstance(out.get(key), dict) or out[key].get("kind") == value["kind"]
        if isinstance(value, dict) and isinstance(out.get(key), dict) and same_kind:
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def embedded_ruleset(ruleset: Ruleset) -> dict[str, Any]:
    """The ruleset as plain data a report can carry: the merged fields and the
    skill catalogue's data, so the battle can be replayed on a machine (or in a
    folder) that does not have the ruleset's files.  Read back with
    :func:`ruleset_from_embedded`; the digest is the same."""
    return {"fields": ruleset.data, "skills": ruleset.catalog.data}


def ruleset_from_embedded(embedded: Any, display: str) -> tuple[Ruleset | None, list[Diagnostic]]:
    """A ruleset rebuilt from :func:`embedded_ruleset` data, validated like a
    file (schema and meaning checks); never raises on bad data."""
    if not isinstance(embedded, dict) or not isinstance(embedded.get("fields"), dict) \
            or not isinstance(embedded.get("skills"), dict):
        return None, [Diagnostic(display, 0, 0, "bad-ruleset", "the embedded ruleset is not a ruleset")]
    catalog, diags = parse_catalog(json.dumps(embedded["skills"], ensure_ascii=False), f"{display} (skills)")
    if catalog is None:
        return None, diags
    doc, more = load_yaml(json.dumps(embedded["fields"], ensure_ascii=False), display)
    diags += more
    if doc is None or not isinstance(doc.data, dict):
        return None, diags + [Diagnostic(display, 0, 0, "bad-ruleset", "the embedded ruleset is not a ruleset")]
    return _build(doc, dict(doc.data), Path("."), diags, catalog=catalog)


def _build(doc: YamlDocument, data: dict[str, Any], folder: Path, diags: list[Diagnostic],
           catalog: SkillCatalog | None = None, root: Path | None = None) -> tuple[Ruleset | None, list[Diagnostic]]:
    # Positions come from the file being loaded; a field inherited from the base
    # points at its nearest written ancestor (or the top of the file).
    merged_doc = YamlDocument(doc.file, doc.text, data, doc.values, doc.keys)
    legacy = legacy_field_diagnostics(merged_doc)
    if legacy:  # check the rest too (every error at once), without the old fields
        rest = {k: v for k, v in data.items() if k not in _LEGACY_FIELDS}
        if isinstance(rest.get("map"), dict):
            rest["map"] = {k: v for k, v in rest["map"].items() if k != "adjacency"}
        checked = YamlDocument(doc.file, doc.text, rest, doc.values, doc.keys)
        return None, diags + legacy + schema_diagnostics(checked, "ruleset")
    diags = diags + schema_diagnostics(merged_doc, "ruleset")
    if has_errors(diags):
        return None, diags
    diags += mechanics_diagnostics(merged_doc)
    if has_errors(diags):
        return None, diags
    diags += ruleset_diagnostics(merged_doc)
    skills_ref = str(data["skills"])
    problem = (_path_problem(merged_doc, "skills", skills_ref, folder / skills_ref, root)
               if catalog is None and skills_ref != BUILTIN else None)
    if problem is not None:
        diags.append(problem)
        return None, diags
    if catalog is None:  # from the ruleset's file; an embedded ruleset brings its own
        try:
            catalog = load_catalog(None if skills_ref == BUILTIN else folder / skills_ref)
        except ReferError as err:
            diags.append(merged_doc.diagnostic(("skills",), "bad-catalog", f"the skill catalogue {skills_ref!r} cannot be loaded"))
            diags += list(err.diagnostics)
    if has_errors(diags) or catalog is None:
        return None, diags
    digest_data = dict(data)
    digest_data["skills"] = catalog.data
    m, ab = data["map"], data["abilities"]
    ruleset = Ruleset(
        name=str(data["name"]),
        description=str(data.get("description", "")),
        digest=canonical_digest(digest_data),
        map=MapSpec(int(m["width"]), int(m["height"]), tuple(m["blocked"])),
        turn_limit=int(data["turn_limit"]),
        abilities=AbilityRules(int(ab["budget"]), int(ab["minimum"])),
        hp_per_body=int(data["hp_per_body"]),
        max_patterns_per_intellect=int(data["max_patterns_per_intellect"]),
        extra_skill_entries=int(data["extra_skill_entries"]),
        max_clauses_per_intellect=int(data["max_clauses_per_intellect"]),
        mechanics=build_mechanics_spec(data["mechanics"]),
        catalog=catalog,
        source=doc.file,
        data=data,
    )
    return ruleset, diags


# ---------------------------------------------------------------------------
# Meaning checks beyond the schema



def _square_xy(text: str) -> tuple[int, int]:
    """0-based (file, rank) of a schema-valid square (files a..z, aa..af)."""
    square = parse_square(text)
    return square.file, square.rank


def _rect_xy(text: str) -> tuple[int, int, int, int]:
    a, b = text.split("-")
    (x0, y0), (x1, y1) = _square_xy(a), _square_xy(b)
    return x0, y0, x1, y1


def limit_diagnostics(doc: YamlDocument) -> list[Diagnostic]:
    """The ruleset-independent limits of :mod:`referee.limits`: a house
    ruleset may not set a turn cap that never ends a battle (R-TURN-9) nor a
    map too small for the setup and narrowing (issue 17, points 4 and 12)."""
    data = doc.data
    diags = []
    for key in ("name", "description"):  # printed in every report: one line, no escape codes
        text = data.get(key)
        problem = name_problem(text, f"a ruleset's {key}", 1000) if isinstance(text, str) and text else None
        if problem is not None:
            diags.append(doc.diagnostic((key,), "bad-name", problem))
    if data["turn_limit"] > MAX_TURN_LIMIT:
        diags.append(doc.diagnostic(("turn_limit",), "turn-limit-too-high",
                                    f"turn_limit is {data['turn_limit']}; the referee allows at most {MAX_TURN_LIMIT} turns"))
    for side in ("width", "height"):
        if data["map"][side] < MIN_MAP_SIDE:
            diags.append(doc.diagnostic(("map", side), "map-too-small",
                                        f"map {side} is {data['map'][side]}; a map is at least {MIN_MAP_SIDE} squares each way"))
    return diags


def ruleset_diagnostics(doc: YamlDocument) -> list[Diagnostic]:
    """Checks the schema cannot express: squares on the map, a narrowing
    schedule that only shrinks, abilities that can be bought, every one reported."""
    data = doc.data
    diags: list[Diagnostic] = []
    width, height = int(data["map"]["width"]), int(data["map"]["height"])

    def on_map(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height

    diags += limit_diagnostics(doc)
    for i, sq in enumerate(data["map"]["blocked"]):
        if not on_map(*_square_xy(sq)):
            diags.append(doc.diagnostic(("map", "blocked", i), "off-map", f"blocked square {sq} is not on the {width}x{height} map"))
    stall = data["mechanics"]["stall"]
    if "schedule" in stall:
        diags += _schedule_diagnostics(doc, stall["schedule"], ("mechanics", "stall", "schedule"), on_map, width, height)
    ab = data["abilities"]
    if ab["minimum"] * 3 > ab["budget"]:
        diags.append(doc.diagnostic(("abilities", "budget"), "invalid-value", f"a budget of {ab['budget']} cannot give three abilities {ab['minimum']} each"))
    return diags


def _schedule_diagnostics(doc: YamlDocument, schedule: list[dict[str, Any]], where: tuple[str, ...],
                          on_map: Callable[[int, int], bool], width: int, height: int) -> list[Diagnostic]:
    """R-NARROW-1: a schedule of rectangles on the map, each inside the one
    before, in increasing turns, with ``keep_one_of`` only last."""
    diags: list[Diagnostic] = []
    previous: tuple[int, int, int, int] | None = None
    last_turn = 0
    for i, stage in enumerate(schedule):
        key = "keep" if "keep" in stage else "keep_one_of"
        x0, y0, x1, y1 = _rect_xy(stage[key])
        path = (*where, i, key)
        if x0 > x1 or y0 > y1:
            diags.append(doc.diagnostic(path, "invalid-value", f"{stage[key]}: write the lower-left square first (e.g. b2-g7)"))
        elif not (on_map(x0, y0) and on_map(x1, y1)):
            diags.append(doc.diagnostic(path, "off-map", f"{stage[key]} is not inside the {width}x{height} map"))
        elif previous is not None and not (previous[0] <= x0 and previous[1] <= y0 and x1 <= previous[2] and y1 <= previous[3]):
            diags.append(doc.diagnostic(path, "narrowing-grows", f"{stage[key]} is not inside the previous stage's area (R-NARROW-1)"))
        previous = (x0, y0, x1, y1)
        if stage["after_turn"] <= last_turn:
            diags.append(doc.diagnostic((*where, i, "after_turn"), "narrowing-order", "narrowing stages must come in increasing after_turn"))
        last_turn = stage["after_turn"]
        if "keep_one_of" in stage and i != len(schedule) - 1:
            diags.append(doc.diagnostic(path, "invalid-value", "keep_one_of leaves one square: it can only be the last stage"))
    return diags


#: Fields of the old format and where their meaning lives now (R-VAR-1).
_LEGACY_FIELDS: dict[str, str] = {
    "variants": "the `variants:` switches are gone: a ruleset names its mechanics in a `mechanics:` block "
                "(range, movement, initiative, action, hit, damage, area, stall, end; R-VAR-1)",
    "narrowing": "the narrowing schedule moved to `mechanics: {stall: {kind: narrowing, schedule: [...]}}`",
    "initiative": "initiative moved to `mechanics: {initiative: {kind: decimal_dice, dice: 3, sides: 6, reroll: ...}}`",
    "goal": "the goal moved to `mechanics: {end: {kind: army_reduced, fraction: [1, 3]}}`",
}


def legacy_field_diagnostics(doc: YamlDocument) -> list[Diagnostic]:
    """A field of the old format, at its key, saying where it went: a house
    ruleset written before the ``mechanics:`` block gets a way forward instead
    of a bare "unknown field"."""
    data = doc.data
    diags = [doc.diagnostic((key,), "moved-field", message, at_key=True)
             for key, message in _LEGACY_FIELDS.items() if key in data]
    if isinstance(data.get("map"), dict) and "adjacency" in data["map"]:
        diags.append(doc.diagnostic(("map", "adjacency"), "moved-field",
                                    "adjacency moved to `mechanics: {movement: {kind: steps, adjacency: king|rook}}`",
                                    at_key=True))
    return diags
