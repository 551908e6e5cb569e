"""The ``mechanics:`` block of a ruleset (R-VAR-1): which implementation of each
core mechanic a ruleset runs, as validated, typed, frozen data.

A ruleset names one *kind* per *slot* (``range``, ``movement``, ``initiative``,
``action``, ``hit``, ``damage``, ``area``, ``stall``, ``end``) with that kind's
parameters, e.g. ``hit: {kind: always}`` or ``stall: {kind: narrowing,
schedule: [...]}``.  The slots and kind names follow the variant specs' YAML
(``../shared/spec/variant-*.md``), so a variant later only adds an
implementation, never a new way of writing its ruleset.

This module is the data side only: it knows every kind's name, its parameters
and whether this version builds it.  The engine side
(``referee.engine.mechanics``) maps each built kind to the object that runs it;
a test keeps the two tables in step.  Kept apart so that loading a ruleset never
imports the engine (the import arrows point one way: ruleset <- engine).

Why a table of *planned* kinds: a ruleset naming ``hit: {kind: opposed_nd6}``
(variant-orm.md) is refused with "not implemented yet in this version", and a
misspelt kind with a did-you-mean -- never a silent fall-back to tcgt's
behaviour (R-VAR-1: "an unknown mechanic is an error, never a silent default").
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Literal, cast

from referee.board import InvalidSquareError, parse_rect
from referee.diagnostics import Diagnostic
from referee.yamlio import YamlDocument

__all__ = [
    "SLOTS", "Adjacency", "Reroll", "MechanicSpec", "PlainSpec", "StepsSpec", "DecimalDiceSpec",
    "NarrowingStage", "NarrowingSpec", "Goal", "ArmyReducedSpec", "MechanicsSpec", "KindInfo",
    "KINDS", "register_kind", "unregister_kind", "mechanics_diagnostics", "build_mechanics_spec",
]

#: The slots of R-VAR-1, in the order a report lists them.
SLOTS: tuple[str, ...] = ("range", "movement", "initiative", "action", "hit", "damage", "area", "stall", "end")

Adjacency = Literal["king", "rook"]
Reroll = Literal["once_per_battle", "every_turn"]


# ---------------------------------------------------------------------------
# Typed specs: one frozen class per parameter shape


@dataclass(frozen=True)
class MechanicSpec:
    """One slot's choice.  Subclasses add the kind's parameters as typed fields;
    a kind without parameters uses :class:`PlainSpec`."""

    kind: str


@dataclass(frozen=True)
class PlainSpec(MechanicSpec):
    """A kind that takes no parameters (``range: {kind: chebyshev}``)."""


@dataclass(frozen=True)
class StepsSpec(MechanicSpec):
    """``movement: {kind: steps, adjacency: king|rook}`` (R-MOVE-1, R-MOVE-5):
    one area per step, 8-way (``king``, tcgt) or 4-way (``rook``)."""

    adjacency: Adjacency = "king"


@dataclass(frozen=True)
class DecimalDiceSpec(MechanicSpec):
    """R-TURN-1: ``dice`` dice of ``sides`` sides read as a decimal number;
    rolled once per battle or every turn."""

    dice: int = 3
    sides: int = 6
    reroll: Reroll = "once_per_battle"


@dataclass(frozen=True)
class NarrowingStage:
    """One narrowing (R-NARROW-1) after turn ``after_turn``.

    :param keep: the inclusive rectangle kept, written ``"b2-g7"``.
    :param keep_one_of: when true, one square of ``keep`` is drawn (R-RNG-1,
        ``ties`` stream) and only it is kept.
    """

    after_turn: int
    keep: str
    keep_one_of: bool = False


@dataclass(frozen=True)
class NarrowingSpec(MechanicSpec):
    """``stall: {kind: narrowing, schedule: [...]}`` (R-NARROW-1..4)."""

    schedule: tuple[NarrowingStage, ...] = ()


@dataclass(frozen=True)
class Goal:
    """R-GOAL-1: an army is beaten when standing <= floor(start x fraction)."""

    numerator: int
    denominator: int

    def threshold(self, starting_members: int) -> int:
        """Standing members at or below which the battle ends (3 -> 1, 6 -> 2, 2 -> 0)."""
        return (starting_members * self.numerator) // self.denominator


@dataclass(frozen=True)
class ArmyReducedSpec(MechanicSpec):
    """``end: {kind: army_reduced, fraction: [1, 3]}`` (R-GOAL-1; R-GOAL-2 and
    the R-TURN-9 head count decide a battle that runs out of turns)."""

    goal: Goal = Goal(1, 3)


@dataclass(frozen=True)
class MechanicsSpec:
    """The whole ``mechanics:`` block, one spec per slot of :data:`SLOTS`."""

    range: MechanicSpec
    movement: MechanicSpec
    initiative: MechanicSpec
    action: MechanicSpec
    hit: MechanicSpec
    damage: MechanicSpec
    area: MechanicSpec
    stall: MechanicSpec
    end: MechanicSpec

    def slots(self) -> tuple[tuple[str, MechanicSpec], ...]:
        """(slot, spec) in :data:`SLOTS` order (reports list them so)."""
        return tuple((f.name, cast(MechanicSpec, getattr(self, f.name))) for f in fields(self))


# ---------------------------------------------------------------------------
# The kind table

#: A parameter check: the value -> its problems, each (the path inside the
#: value, what was expected there); none when fine.
ParamCheck = Callable[[object], "list[tuple[tuple[int | str, ...], str]]"]
#: Builds the typed spec of a built kind from its (already checked) mapping.
SpecBuilder = Callable[[str, Mapping[str, object]], MechanicSpec]


@dataclass(frozen=True)
class KindInfo:
    """What the loader knows of one kind.

    :param params: the parameters the built kind takes, each with its check.
    :param required: parameters that must be written.
    :param build: makes the typed spec; ``None`` for a kind a variant spec
        names that this version does not build yet.
    :param planned_params: parameters a variant spec gives this kind that are
        not built yet (refused as "not implemented yet").
    :param source: where the kind is specified (rule IDs or a variant file).
    """

    slot: str
    kind: str
    source: str
    params: Mapping[str, ParamCheck] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    build: SpecBuilder | None = None
    planned_params: tuple[str, ...] = ()

    @property
    def built(self) -> bool:
        return self.build is not None


Problems = list[tuple[tuple[int | str, ...], str]]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(low: int, high: int) -> ParamCheck:
    def check(value: object) -> Problems:
        ok = _is_int(value) and low <= cast(int, value) <= high
        return [] if ok else [((), f"a whole number from {low} to {high}")]
    return check


def _one_of(*words: str) -> ParamCheck:
    def check(value: object) -> Problems:
        return [] if value in words else [((), "one of " + ", ".join(words))]
    return check


def _fraction(value: object) -> Problems:
    expected: Problems = [((), "a fraction [numerator, denominator] below 1, such as [1, 3]")]
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        return expected
    num, den = value
    return [] if 0 <= num < den else expected


_STAGE = "{after_turn: N, keep: b2-g7} or {after_turn: N, keep_one_of: d4-e5}"


def _schedule(value: object) -> Problems:
    """Shape, stage by stage; what the rectangles mean (on the map, each
    inside the one before) is checked by the ruleset loader, which knows the
    map's size."""
    if not isinstance(value, list):
        return [((), f"a list of {_STAGE}")]
    problems: Problems = []
    for i, stage in enumerate(value):
        if not isinstance(stage, dict):
            problems.append(((i,), _STAGE))
            continue
        for key in sorted(set(stage) - {"after_turn", "keep", "keep_one_of"}):
            problems.append(((i, key), f"no field {key!r} here: {_STAGE}"))
        if ("keep" in stage) == ("keep_one_of" in stage):
            problems.append(((i,), "exactly one of keep and keep_one_of"))
        if not (_is_int(stage.get("after_turn")) and cast(int, stage.get("after_turn")) >= 1):
            problems.append(((i, "after_turn") if "after_turn" in stage else (i,), "after_turn: a turn number from 1"))
        for key in ("keep", "keep_one_of"):
            if key in stage:
                try:
                    parse_rect(str(stage[key]))
                except (InvalidSquareError, ValueError):
                    problems.append(((i, key), "a rectangle of squares such as b2-g7"))
    return problems


def _plain(kind: str, _: Mapping[str, object]) -> MechanicSpec:
    return PlainSpec(kind)


def _steps(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return StepsSpec(kind, cast(Adjacency, p.get("adjacency", "king")))


def _decimal_dice(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return DecimalDiceSpec(kind, cast(int, p["dice"]), cast(int, p["sides"]), cast(Reroll, p["reroll"]))


def _narrowing(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    stages = cast(list[dict[str, object]], p["schedule"])
    return NarrowingSpec(kind, tuple(
        NarrowingStage(cast(int, s["after_turn"]), str(s.get("keep", s.get("keep_one_of"))), "keep_one_of" in s)
        for s in stages))


def _army_reduced(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    num, den = cast(list[int], p["fraction"])
    return ArmyReducedSpec(kind, Goal(num, den))


_BUILT: tuple[KindInfo, ...] = (
    KindInfo("range", "chebyshev", "R-RANGE-1", build=_plain),
    KindInfo("movement", "steps", "R-MOVE-1..8", {"adjacency": _one_of("king", "rook")}, ("adjacency",),
             _steps, ("knockback", "capacity_per_side", "enemies_block", "engagement_lock")),
    KindInfo("initiative", "decimal_dice", "R-TURN-1",
             {"dice": _int_in(1, 9), "sides": _int_in(2, 9), "reroll": _one_of("once_per_battle", "every_turn")},
             ("dice", "sides", "reroll"), _decimal_dice),
    KindInfo("action", "skill_walk", "R-TURN-2..5", build=_plain),
    KindInfo("hit", "always", "R-SK-1a", build=_plain),
    KindInfo("damage", "printed", "R-SK-3", build=_plain, planned_params=("armour",)),
    KindInfo("area", "extension", "R-EXT-1..9", build=_plain),
    KindInfo("stall", "narrowing", "R-NARROW-1..4", {"schedule": _schedule}, ("schedule",), _narrowing),
    KindInfo("stall", "none", "variant-orm.md (no stall breaker)", build=_plain),
    KindInfo("end", "army_reduced", "R-GOAL-1/2", {"fraction": _fraction}, ("fraction",), _army_reduced),
)

#: Kinds the variant specs name that this version does not build yet.
_PLANNED: tuple[tuple[str, str, str], ...] = (
    ("range", "manhattan", "variant-orm.md"),
    ("movement", "points", "variant-soulwired.md, variant-d20.md"),
    ("initiative", "value_plus_dice", "variant-orm.md"),
    ("initiative", "ability", "variant-soulwired.md"),
    ("initiative", "area_number", "variant-d20.md"),
    ("initiative", "in_value", "variant-wiz.md"),
    ("action", "simple_main", "variant-orm.md"),
    ("action", "soul", "variant-soulwired.md"),
    ("action", "one_main_use", "variant-wiz.md"),
    ("action", "support_and_action", "variant-d20.md"),
    ("hit", "opposed_nd6", "variant-orm.md"),
    ("hit", "d6_pool", "variant-soulwired.md"),
    ("hit", "d20_pool", "variant-d20.md"),
    ("hit", "percentile", "variant-wiz.md"),
    ("damage", "power_plus_dice", "variant-orm.md"),
    ("damage", "margin", "variant-d20.md"),
    ("area", "rolled_groups", "variant-wiz.md"),
    ("stall", "hard_mode", "variant-soulwired.md"),
    ("end", "head_count", "variant-soulwired.md"),
    ("end", "wipeout", "variant-d20.md"),
)

#: slot -> kind -> what the loader knows of it.  Extended only through
#: :func:`register_kind` (a house implementation, or a test double).
KINDS: dict[str, dict[str, KindInfo]] = {slot: {} for slot in SLOTS}
for _info in _BUILT + tuple(KindInfo(s, k, src) for s, k, src in _PLANNED):
    KINDS[_info.slot][_info.kind] = _info


def register_kind(info: KindInfo) -> None:
    """Make a kind known to the loader (its engine side registers apart).

    :raises ValueError: for an unknown slot or a name already taken.
    """
    if info.slot not in KINDS:
        raise ValueError(f"unknown mechanics slot {info.slot!r}; slots: {', '.join(SLOTS)}")
    if info.kind in KINDS[info.slot]:
        raise ValueError(f"{info.slot} kind {info.kind!r} is already registered")
    KINDS[info.slot][info.kind] = info


def unregister_kind(slot: str, kind: str) -> None:
    """Forget a kind registered by :func:`register_kind` (tests clean up)."""
    KINDS[slot].pop(kind, None)


# ---------------------------------------------------------------------------
# Checking and building


def _did_you_mean(word: str, choices: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(word, choices, n=1)
    return f"did you mean {close[0]!r}?" if close else None


def mechanics_diagnostics(doc: YamlDocument, path: tuple[str, ...] = ("mechanics",)) -> list[Diagnostic]:
    """Every problem of a schema-valid ``mechanics:`` block, each at its field:
    an unknown kind (did-you-mean), a kind not built yet, a parameter that
    means nothing for its kind, a missing or ill-typed parameter."""
    block = cast(Mapping[str, Mapping[str, object]], doc.data)
    for key in path:
        block = cast(Mapping[str, Mapping[str, object]], block[key])
    diags: list[Diagnostic] = []
    for slot in SLOTS:
        entry = block[slot]
        kind = str(entry["kind"])
        where = (*path, slot)
        info = KINDS[slot].get(kind)
        if info is None:
            elsewhere = [s for s in SLOTS if kind in KINDS[s]]
            hint = (f"{kind!r} is a kind of `{elsewhere[0]}`, not of `{slot}`" if elsewhere
                    else _did_you_mean(kind, sorted(KINDS[slot])))
            diags.append(doc.diagnostic((*where, "kind"), "unknown-mechanic",
                                        f"no {slot} mechanic named {kind!r}; {slot} kinds: {', '.join(sorted(KINDS[slot]))}",
                                        hint=hint))
            continue
        if not info.built:
            diags.append(doc.diagnostic((*where, "kind"), "mechanic-not-implemented",
                                        f"{slot} kind {kind!r} ({info.source}) is not implemented yet in this version",
                                        hint=f"built {slot} kinds: {', '.join(k for k, i in sorted(KINDS[slot].items()) if i.built)}"))
            continue
        for name, value in entry.items():
            if name == "kind":
                continue
            check = info.params.get(name)
            if check is None:
                if name in info.planned_params:
                    diags.append(doc.diagnostic((*where, name), "mechanic-not-implemented",
                                                f"parameter {name!r} of {slot} kind {kind!r} is not implemented yet in this version",
                                                at_key=True))
                else:
                    takes = ", ".join(info.params) if info.params else "no parameters"
                    diags.append(doc.diagnostic((*where, name), "unknown-parameter",
                                                f"{name!r} means nothing for {slot} kind {kind!r} (it takes {takes})",
                                                hint=_did_you_mean(name, list(info.params)), at_key=True))
                continue
            for inner, expected in check(value):
                diags.append(doc.diagnostic((*where, name, *inner), "invalid-value",
                                            f"{slot} {kind} {name}: expected {expected}"))
        for name in info.required:
            if name not in entry:
                diags.append(doc.diagnostic((*where, "kind"), "missing-field",
                                            f"{slot} kind {kind!r} needs {name!r}"))
    return diags


def build_mechanics_spec(block: Mapping[str, Mapping[str, object]]) -> MechanicsSpec:
    """The typed block from data :func:`mechanics_diagnostics` accepted."""
    specs: dict[str, MechanicSpec] = {}
    for slot in SLOTS:
        entry = block[slot]
        kind = str(entry["kind"])
        build = KINDS[slot][kind].build
        assert build is not None, f"{slot} kind {kind!r} passed the checks but is not built"
        specs[slot] = build(kind, {k: v for k, v in entry.items() if k != "kind"})
    return MechanicsSpec(**specs)


# --- wiz (variant-wiz.md) ---------------------------------------------------
# Built so far: initiative `in_value` (R-WIZ-IN-*) and hit `percentile`
# (R-WIZ-HIT-*, R-WIZ-MELEE-*, R-WIZ-MIS-1).  `one_main_use` and
# `rolled_groups` stay planned.

WizSize = Literal["T", "S", "M", "L", "H"]


@dataclass(frozen=True)
class InValueSpec(MechanicSpec):
    """``initiative: {kind: in_value, tie: decimal_dice}`` (R-WIZ-IN-1/2):
    order by IN, ties broken by R-TURN-1's decimal dice (rolled as in tcgt)."""

    tie: str = "decimal_dice"
    dice: int = 3
    sides: int = 6
    reroll: Reroll = "once_per_battle"


@dataclass(frozen=True)
class PercentileSpec(MechanicSpec):
    """``hit: {kind: percentile, ...}`` (R-WIZ-HIT-1/2, MELEE-2, MIS-1): a
    d100 per target of a weapon use on enemies, hitting on a face <= p."""

    base: int = 70
    per_reflex: int = 5
    min: int = 5
    max: int = 95
    side: int = 10
    back: int = 20
    missile_base: int = 5
    missile_per_extra_opponent: int = 2
    sizes: tuple[str, ...] = ("T", "S", "M", "L", "H")


def _int_map(*keys: str, low: int = 0, high: int = 100) -> ParamCheck:
    """A mapping of exactly ``keys``, each a whole number in low..high."""
    def check(value: object) -> Problems:
        shape = "{" + ", ".join(f"{k}: N" for k in keys) + "}"
        if not isinstance(value, dict):
            return [((), shape)]
        problems: Problems = [((k,), f"no field {k!r} here: {shape}") for k in sorted(set(value) - set(keys))]
        for k in keys:
            if k not in value:
                problems.append(((), f"{shape} (missing {k})"))
            elif not (_is_int(value[k]) and low <= cast(int, value[k]) <= high):
                problems.append(((k,), f"a whole number from {low} to {high}"))
        return problems
    return check


def _sizes(value: object) -> Problems:
    ok = isinstance(value, list) and value == ["T", "S", "M", "L", "H"]
    return [] if ok else [((), "the size ranks [T, S, M, L, H] (R-WIZ-MIS-1)")]


def _aim_off(value: object) -> Problems:
    return [] if value is False else [((), "false (the aim module, R-WIZ-AIM-1, is not implemented yet in this version)")]


def _in_value(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    return InValueSpec(kind, str(p.get("tie", "decimal_dice")), cast(int, p.get("dice", 3)),
                       cast(int, p.get("sides", 6)), cast(Reroll, p.get("reroll", "once_per_battle")))


def _percentile(kind: str, p: Mapping[str, object]) -> MechanicSpec:
    facing = cast(Mapping[str, int], p.get("facing", {"side": 10, "back": 20}))
    missile = cast(Mapping[str, int], p.get("missile", {"base": 5, "per_extra_opponent": 2}))
    return PercentileSpec(kind, cast(int, p.get("base", 70)), cast(int, p.get("per_reflex", 5)),
                          cast(int, p.get("min", 5)), cast(int, p.get("max", 95)),
                          facing["side"], facing["back"], missile["base"], missile["per_extra_opponent"],
                          tuple(cast(list[str], p.get("sizes", ["T", "S", "M", "L", "H"]))))


_WIZ_BUILT: tuple[KindInfo, ...] = (
    KindInfo("initiative", "in_value", "R-WIZ-IN-1/2 (variant-wiz.md)",
             {"tie": _one_of("decimal_dice"), "dice": _int_in(1, 9), "sides": _int_in(2, 9),
              "reroll": _one_of("once_per_battle", "every_turn")}, (), _in_value),
    KindInfo("hit", "percentile", "R-WIZ-HIT-1/2, MELEE-1/2, MIS-1 (variant-wiz.md)",
             {"base": _int_in(0, 100), "per_reflex": _int_in(0, 100), "min": _int_in(0, 100),
              "max": _int_in(0, 100), "facing": _int_map("side", "back"),
              "missile": _int_map("base", "per_extra_opponent"), "sizes": _sizes, "aim": _aim_off},
             (), _percentile),
)
for _info in _WIZ_BUILT:
    KINDS[_info.slot][_info.kind] = _info  # replaces the planned entry of the same name
