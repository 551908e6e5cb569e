"""The skill catalogue as typed, validated data (R-SK-4, style lessons 3 and 4).

``referee/data/skills.yaml`` holds one declarative record per skill; its shape
is checked by ``referee/schemas/skills.schema.json`` and its meaning (level =
number of cost panels, reactions only on passive or maintained skills, every
spelling naming exactly one skill, ...) by :func:`catalog_diagnostics`. The
engine reads the fields of :class:`Skill` and never compares skill ids: a new
skill is a new record, not new code.

Names: a skill may be written as its id (``flame-bind``), English name
(``Flame Bind``, any case, spaces/hyphens/underscores ignored), Japanese name
(``火炎縛``) or reading (``フレイムバインド``). :meth:`SkillCatalog.resolve`
accepts all of them; :meth:`SkillCatalog.did_you_mean` builds the hint for a
typo.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import math
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterator, Literal, cast

from referee.diagnostics import Diagnostic, ReferError, has_errors
from referee.elements import Element
from referee.textcheck import name_problem
from referee.yamlio import YamlDocument, load_yaml, read_yaml_file, schema_diagnostics

SkillClass = Literal["attack", "heal", "obstruct", "passive", "defence", "counter", "maintain", "change", "extend"]
#: Every class of R-SK-2, in the rules' order.
SKILL_CLASSES: tuple[SkillClass, ...] = (
    "attack", "heal", "obstruct", "passive", "defence", "counter", "maintain", "change", "extend",
)
EffectKind = Literal["status", "use_panel", "cleanse", "drain"]
StatusKind = Literal["bind", "poison", "freeze", "change"]
StatusObject = Literal["character", "skill", "clause", "panel"]
Trigger = Literal["hit", "skill_used_on_owner"]
ActiveWhen = Literal["readied", "maintained"]
Targets = Literal["enemies", "allies"]

#: Path of the built-in catalogue (inside the package).
BUILTIN = "builtin"


@dataclass(frozen=True)
class Chance:
    """A probability ``numerator/denominator``; drawn as ``rng.random() < p`` (R-RNG-1)."""

    numerator: int = 1
    denominator: int = 1

    @property
    def probability(self) -> float:
        return self.numerator / self.denominator

    @property
    def is_certain(self) -> bool:
        """No draw is made for a certain chance (R-RNG-1)."""
        return self.numerator >= self.denominator

    def __str__(self) -> str:
        return f"{self.numerator}/{self.denominator}"


CERTAIN = Chance(1, 1)

#: What may carry each status (R-ST-BIND, R-ST-FREEZE, R-ST-POISON,
#: R-ST-CHANGE): any other pair would be accepted and then mean nothing.
STATUS_OBJECTS: dict[str, tuple[str, ...]] = {
    "bind": ("character", "skill", "clause"),
    "freeze": ("character",),
    "poison": ("panel",),
    "change": ("panel",),
}


@dataclass(frozen=True)
class Effect:
    """One effect on each target hit; see the schema's ``effect`` descriptions.

    :param kind: ``status`` | ``use_panel`` | ``cleanse`` | ``drain``.
    :param status: for ``status``: bind, poison, freeze or change.
    :param object: what carries the status (character, skill, clause, panel) or
        what ``use_panel`` acts on.
    :param duration: bearer's actions (R-ST-1); ``None`` = until cleansed.
    :param chance: drawn once per target; :data:`CERTAIN` = no draw.
    :param scope: for ``cleanse``: ``one`` (first found) or ``all``.
    :param objects: for ``cleanse``: objects searched, in order.
    :param statuses: for ``cleanse``: statuses removed.
    :param patterns: for ``cleanse``: ``active`` pattern only or ``all``.
    """

    kind: EffectKind
    status: StatusKind | None = None
    object: StatusObject | None = None
    duration: int | None = None
    chance: Chance = CERTAIN
    scope: Literal["one", "all"] | None = None
    objects: tuple[Literal["skill", "clause", "panel"], ...] = ()
    statuses: tuple[Literal["bind", "poison", "change"], ...] = ()
    patterns: Literal["active", "all"] | None = None


@dataclass(frozen=True)
class KnockbackChance:
    """A knockback and its chance (R-KNOCK-1..3)."""

    chance: Chance = CERTAIN


@dataclass(frozen=True)
class Counter:
    """Counter hits against the attacker (R-TURN-3 step 5).

    :param damage: damage per hit (0 when ``printed``).
    :param printed: damage = the triggering attack's printed damage (Kusanagi).
    :param hits: number of hits, each checking range (R-KNOCK-5).
    :param element: element of the counter damage.
    """

    damage: int
    printed: bool
    hits: int
    element: Element

    def damage_against(self, printed_damage: int) -> int:
        """Damage of one counter hit answering an attack of ``printed_damage``."""
        return printed_damage if self.printed else self.damage


@dataclass(frozen=True)
class Reaction:
    """How a passive or maintained skill responds (R-SK-1a, R-TURN-3).

    :param trigger: ``hit`` or ``skill_used_on_owner``.
    :param element: only hits of this element trigger it (``None`` = any).
    :param active_when: ``readied`` (pays its cost when it fires) or
        ``maintained`` (applies without payment while maintained).
    :param becomes_maintained: fires from readied, then is maintained.
    :param reduce: damage reduction on the owner (R-SK-3).
    :param heal_owner: the owner heals this much at the damage step.
    :param counter: counter hits, or ``None``.
    :param knockback_owner: the owner is pushed away from the attacker.
    :param cancel: the triggering use does nothing to the owner.
    :param sink_area: the user's area is sunk (R-ST-SINK).
    """

    trigger: Trigger
    active_when: ActiveWhen
    element: Element | None = None
    becomes_maintained: bool = False
    reduce: int = 0
    heal_owner: int = 0
    counter: Counter | None = None
    knockback_owner: KnockbackChance | None = None
    cancel: bool = False
    sink_area: bool = False

    def applies_to(self, element: Element | None) -> bool:
        """Whether a hit of ``element`` (``None`` = typeless) triggers it."""
        return self.element is None or self.element == element


@dataclass(frozen=True)
class Skill:
    """One catalogue record. Fields mirror ``skills.schema.json``."""

    id: str
    name_ja: str
    reading: str
    name_en: str
    cost: tuple[Element, ...]
    level: int
    classes: tuple[SkillClass, ...]
    range: int
    targets: Targets
    element: Element
    damage: int = 0
    heal: int = 0
    effects: tuple[Effect, ...] = ()
    knockback: KnockbackChance | None = None
    reaction: Reaction | None = None
    note: str | None = None
    #: variant-wiz.md R-WIZ-AREA-1: every use is an area use of A x B (A, B).
    area: tuple[int, int] | None = None
    #: variant-wiz.md R-WIZ-KIND-1: ``weapon`` or ``spell``; None: by the cost.
    kind: str | None = None

    def has(self, cls: SkillClass) -> bool:
        """Whether the skill carries class ``cls`` (R-SK-2)."""
        return cls in self.classes

    # The class tests are asked on every entry of every walk: computed once
    # per skill (the record is frozen, so they never change).
    @functools.cached_property
    def is_attack(self) -> bool:
        return "attack" in self.classes

    @functools.cached_property
    def is_heal(self) -> bool:
        return "heal" in self.classes

    @functools.cached_property
    def is_obstruct(self) -> bool:
        return "obstruct" in self.classes

    @functools.cached_property
    def is_passive(self) -> bool:
        """Fires only when triggered, never used actively (R-SK-2)."""
        return "passive" in self.classes

    @functools.cached_property
    def is_defence(self) -> bool:
        return "defence" in self.classes

    @functools.cached_property
    def is_counter(self) -> bool:
        return "counter" in self.classes

    @functools.cached_property
    def is_maintain(self) -> bool:
        return "maintain" in self.classes

    @functools.cached_property
    def is_change(self) -> bool:
        return "change" in self.classes

    @functools.cached_property
    def targets_allies(self) -> bool:
        """R-RANGE-4: a heal-only skill takes the user or allies; every other
        skill takes enemies (``only target allies`` aside, R-EXT-9)."""
        return self.targets == "allies"

    @functools.cached_property
    def can_extend(self) -> bool:
        return "extend" in self.classes

    @functools.cached_property
    def is_used_actively(self) -> bool:
        """Used from the skill list in its owner's action (not passive, R-PLAN-3)."""
        return not self.is_passive

    @functools.cached_property
    def extension_cost(self) -> int:
        """Panels per extra target: ceil(level / 2) (R-EXT-1)."""
        return math.ceil(self.level / 2)

    @property
    def cost_kanji(self) -> str:
        """The cost as written in the rules: ``火水``."""
        return "".join(e.kanji for e in self.cost)

    @property
    def spellings(self) -> tuple[str, str, str, str]:
        """Every accepted spelling: id, English name, Japanese name, reading."""
        return (self.id, self.name_en, self.name_ja, self.reading)

    def label(self) -> str:
        """``'firecracker' (炸撃)``: how diagnostics name a skill."""
        return f"{self.id!r} ({self.name_ja})"


def normalize_name(name: str) -> str:
    """The key used to match skill spellings: NFKC, case-folded, without spaces,
    hyphens, underscores, middle dots, apostrophes or ``=``.

    >>> normalize_name(" Flame-Bind "), normalize_name("イア＝テムの呪いの剣")
    ('flamebind', 'イアテムの呪いの剣')
    """
    key = _NORMALIZED.get(name)
    if key is None:
        text = unicodedata.normalize("NFKC", name).casefold()
        key = "".join(ch for ch in text if not (ch.isspace() or ch in "-_・='’"))
        if len(name) <= 64:  # remembered (issue 18): every sheet of a round spells the same few skills
            if len(_NORMALIZED) >= 4096:
                _NORMALIZED.clear()
            _NORMALIZED[name] = key
    return key


#: normalize_name's memo: short names only, bounded, cleared when full.
_NORMALIZED: dict[str, str] = {}


@dataclass(frozen=True)
class SkillCatalog:
    """The skills of a ruleset in catalogue order, with name lookup.

    :param skills: catalogue order (listings; "catalogue order" of R-RNG-1).
    :param source: where it was loaded from (for messages).
    :param data: the validated plain data, for the ruleset digest.
    """

    skills: tuple[Skill, ...]
    source: str = BUILTIN
    data: Any = field(default=None, compare=False, repr=False)
    _by_id: dict[str, Skill] = field(default_factory=dict, compare=False, repr=False)
    _by_spelling: dict[str, Skill] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for skill in self.skills:
            self._by_id.setdefault(skill.id, skill)
            for spelling in skill.spellings:
                self._by_spelling.setdefault(normalize_name(spelling), skill)

    def __iter__(self) -> Iterator[Skill]:
        return iter(self.skills)

    def __len__(self) -> int:
        return len(self.skills)

    def __contains__(self, skill_id: object) -> bool:
        return skill_id in self._by_id

    def get(self, skill_id: str) -> Skill:
        """The skill with this exact id.

        :raises KeyError: for an unknown id (ids come from validated input).
        """
        return self._by_id[skill_id]

    def resolve(self, name: str) -> Skill | None:
        """The skill written as id, English name, Japanese name or reading, else ``None``.

        >>> cat = load_catalog()
        >>> [cat.resolve(n).id for n in ("爆撃", "イラプション", "eruption", "Eruption")]
        ['eruption', 'eruption', 'eruption', 'eruption']
        """
        return self._by_spelling.get(normalize_name(name))

    def suggest(self, name: str, n: int = 3) -> list[Skill]:
        """Up to ``n`` skills whose spellings are close to ``name`` (best first)."""
        key = normalize_name(name)
        spellings = list(self._by_spelling)
        close = difflib.get_close_matches(key, spellings, n=max(n * 4, 8), cutoff=0.5)
        out: list[Skill] = []
        for spelling in close:
            skill = self._by_spelling[spelling]
            if skill not in out:
                out.append(skill)
        return out[:n]

    def did_you_mean(self, name: str) -> str | None:
        """``did you mean 'firecracker' (炸撃)?`` for a misspelt name, else ``None``."""
        found = self.suggest(name, n=2)
        if not found:
            return None
        return "did you mean " + " or ".join(s.label() for s in found) + "?"

    @property
    def digest(self) -> str:
        """sha256 of the canonical JSON of the catalogue data."""
        return canonical_digest(self.data)


def canonical_digest(data: Any) -> str:
    """sha256 hex of ``data`` as canonical JSON (sorted keys, no spaces, UTF-8):
    identical on every machine and Python version."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# Loading


def parse_catalog(text: str, file: str) -> tuple[SkillCatalog | None, list[Diagnostic]]:
    """Parse and validate a catalogue; every problem is a diagnostic."""
    doc, diags = load_yaml(text, file)
    if doc is None:
        return None, diags
    return catalog_from_document(doc, diags)


def catalog_from_document(
    doc: YamlDocument, diags: list[Diagnostic] | None = None
) -> tuple[SkillCatalog | None, list[Diagnostic]]:
    """Validate a parsed catalogue (schema, then meaning) and build it."""
    diags = list(diags or [])
    diags += schema_diagnostics(doc, "skills")
    if has_errors(diags):
        return None, diags
    skills = tuple(_build_skill(record) for record in doc.data["skills"])
    diags += catalog_diagnostics(doc, skills)
    if has_errors(diags):
        return None, diags
    return SkillCatalog(skills, source=doc.file, data=doc.data), diags


def catalog_diagnostics(doc: YamlDocument, skills: tuple[Skill, ...]) -> list[Diagnostic]:
    """Meaning checks beyond the schema (style lesson 4), every one reported.

    ``skills[i]`` must be built from ``doc.data["skills"][i]``.
    """
    diags: list[Diagnostic] = []
    owner_of: dict[str, str] = {}
    seen_ids: set[str] = set()

    def bad(i: int, sub: tuple[Any, ...], code: str, message: str) -> None:
        diags.append(doc.diagnostic(("skills", i) + sub, code, f"{skills[i].id}: {message}"))

    for i, skill in enumerate(skills):
        for field_name in ("name_en", "name_ja", "reading"):  # printed in every report (issue 17)
            problem = name_problem(getattr(skill, field_name), f"a skill's {field_name}")
            if problem is not None:
                bad(i, (field_name,), "bad-name", problem)
        if skill.id in seen_ids:
            bad(i, ("id",), "duplicate-skill", "id used by an earlier skill")
        seen_ids.add(skill.id)
        for spelling in skill.spellings:
            key = normalize_name(spelling)
            other = owner_of.setdefault(key, skill.id)
            if other != skill.id:
                bad(i, (), "ambiguous-name", f"spelling {spelling!r} also names {other!r}")
        if skill.level != len(skill.cost):
            bad(i, ("level",), "level-mismatch", f"level {skill.level} but the cost has {len(skill.cost)} panels (R-PAN-1)")
        only_heal_extend = set(skill.classes) <= {"heal", "extend"}
        if (skill.targets == "allies") != only_heal_extend:
            bad(i, ("targets",), "bad-targets", "targets allies exactly when the classes are only heal and extend (R-RANGE-4)")
        if skill.damage and not skill.is_attack:
            bad(i, ("damage",), "class-mismatch", "deals damage but is not classed attack")
        if skill.is_attack and not skill.damage:
            bad(i, ("classes",), "class-mismatch", "classed attack but deals no damage")
        heals = skill.heal or any(e.kind == "drain" for e in skill.effects) or (skill.reaction and skill.reaction.heal_owner)
        if bool(heals) != skill.is_heal:
            bad(i, ("classes",), "class-mismatch", "heals exactly when classed heal")
        statuses = any(e.kind in ("status", "use_panel") for e in skill.effects)
        if statuses and not (skill.is_change or skill.is_obstruct):
            bad(i, ("effects",), "class-mismatch", "inflicts a status but is neither change nor obstruct")
        if skill.is_change and not any(e.kind == "status" for e in skill.effects):
            bad(i, ("classes",), "class-mismatch", "classed change but inflicts no status")
        if skill.is_passive and skill.is_attack:
            bad(i, ("classes",), "class-mismatch", "a passive skill cannot be an attack (passives are never used actively)")
        for j, effect in enumerate(skill.effects):
            diags.extend(_effect_diagnostics(doc, ("skills", i, "effects", j), skill.id, effect))
        if skill.knockback is not None:
            diags.extend(_chance_diagnostics(doc, ("skills", i, "knockback", "chance"), skill.id, skill.knockback.chance))
        if "hook" in doc.data["skills"][i]:
            bad(i, ("hook",), "hook-not-implemented",
                "no skill hooks exist in this version: write the behaviour with the catalogue's fields "
                "(effects, reaction, knockback), or it would be accepted and ignored")
        reaction = skill.reaction
        reactive = skill.is_passive or skill.is_maintain
        if (reaction is not None) != reactive:
            bad(i, ("classes",), "class-mismatch", "has a reaction exactly when classed passive or maintain")
        if reaction is not None:
            diags.extend(_reaction_diagnostics(doc, i, skill, reaction))
    return diags


def _effect_diagnostics(doc: YamlDocument, path: tuple[Any, ...], sid: str, e: Effect) -> list[Diagnostic]:
    out = _chance_diagnostics(doc, path + ("chance",), sid, e.chance)
    need: dict[str, tuple[str, ...]] = {
        "status": ("status", "object"),
        "use_panel": ("object",),
        "cleanse": ("scope", "objects", "statuses", "patterns"),
        "drain": (),
    }
    # A chance is drawn only where the engine draws one: a status per target,
    # a cleansing that finds something (R-RNG-1).  Pressurize's panel and
    # Drain Life's heal always happen, so a chance there would be ignored.
    drawn = {"chance"} if e.kind in ("status", "cleanse") else set()
    allowed = set(need[e.kind]) | {"kind"} | drawn | ({"duration"} if e.kind == "status" else set())
    raw = doc.data
    for part in path:
        raw = raw[part]
    for key in need[e.kind]:
        if key not in raw:
            out.append(doc.diagnostic(path, "missing-field", f"{sid}: a {e.kind} effect needs {key!r}"))
    for key in raw:
        if key not in allowed:
            out.append(doc.diagnostic(path + (key,), "unknown-field", f"{sid}: {key!r} means nothing for a {e.kind} effect", at_key=True))
    if e.kind == "status" and e.status is not None and e.object is not None \
            and e.object not in STATUS_OBJECTS.get(e.status, ()):
        carriers = ", ".join(STATUS_OBJECTS.get(e.status, ()))
        out.append(doc.diagnostic(path + ("object",), "invalid-value",
                                  f"{sid}: a {e.status} status sits on {carriers}, not on a {e.object}"))
    if e.kind == "status" and "duration" not in raw:
        out.append(doc.diagnostic(path, "missing-field", f"{sid}: a status effect needs 'duration' (null = until cleansed)"))
    return out


def _chance_diagnostics(doc: YamlDocument, path: tuple[Any, ...], sid: str, chance: Chance) -> list[Diagnostic]:
    if chance.numerator > chance.denominator:
        return [doc.diagnostic(path, "invalid-value", f"{sid}: chance {chance} is more than certain")]
    return []


def _reaction_diagnostics(doc: YamlDocument, i: int, skill: Skill, r: Reaction) -> list[Diagnostic]:
    path: tuple[Any, ...] = ("skills", i, "reaction")
    out: list[Diagnostic] = []

    def bad(sub: tuple[Any, ...], message: str) -> None:
        out.append(doc.diagnostic(path + sub, "class-mismatch", f"{skill.id}: {message}"))

    if skill.is_passive and skill.is_maintain:
        if not (r.active_when == "readied" and r.becomes_maintained):
            bad(("active_when",), "a passive maintain skill fires when readied and becomes maintained (R-SK-2)")
    elif skill.is_passive and r.active_when != "readied":
        bad(("active_when",), "a passive skill reacts when readied")
    elif skill.is_maintain and r.active_when != "maintained":
        bad(("active_when",), "a maintain skill reacts while maintained")
    if r.becomes_maintained and not skill.is_maintain:
        bad(("becomes_maintained",), "becomes maintained but is not classed maintain")
    if bool(r.reduce) != skill.is_defence:
        bad(("reduce",), "reduces damage exactly when classed defence")
    if (r.counter is not None) != skill.is_counter:
        bad(("counter",), "has counter hits exactly when classed counter")
    if (r.cancel or r.sink_area) and not skill.is_obstruct:
        bad(("cancel",), "cancels or sinks only when classed obstruct")
    if r.knockback_owner is not None:
        out.extend(_chance_diagnostics(doc, path + ("knockback_owner", "chance"), skill.id, r.knockback_owner.chance))
    return out


def _chance(raw: Any) -> Chance:
    if raw is None:
        return CERTAIN
    return Chance(int(raw[0]), int(raw[1]))


def _build_effect(raw: dict[str, Any]) -> Effect:
    return Effect(
        kind=cast(EffectKind, raw["kind"]),
        status=cast("StatusKind | None", raw.get("status")),
        object=cast("StatusObject | None", raw.get("object")),
        duration=raw.get("duration"),
        chance=_chance(raw.get("chance")),
        scope=raw.get("scope"),
        objects=tuple(raw.get("objects", ())),
        statuses=tuple(raw.get("statuses", ())),
        patterns=raw.get("patterns"),
    )


def _build_reaction(raw: dict[str, Any], skill_element: Element) -> Reaction:
    counter = None
    if "counter" in raw:
        c = raw["counter"]
        printed = c["damage"] == "printed"
        counter = Counter(
            damage=0 if printed else int(c["damage"]),
            printed=printed,
            hits=int(c.get("hits", 1)),
            element=Element(c["element"]) if "element" in c else skill_element,
        )
    kb = raw.get("knockback_owner")
    return Reaction(
        trigger=cast(Trigger, raw["trigger"]),
        active_when=cast(ActiveWhen, raw["active_when"]),
        element=Element(raw["element"]) if "element" in raw else None,
        becomes_maintained=bool(raw.get("becomes_maintained", False)),
        reduce=int(raw.get("reduce", 0)),
        heal_owner=int(raw.get("heal_owner", 0)),
        counter=counter,
        knockback_owner=KnockbackChance(_chance(kb.get("chance"))) if kb is not None else None,
        cancel=bool(raw.get("cancel", False)),
        sink_area=bool(raw.get("sink_area", False)),
    )


def _build_skill(raw: dict[str, Any]) -> Skill:
    cost = tuple(Element(e) for e in raw["cost"])
    element = Element(raw["element"]) if "element" in raw else cost[0]
    kb = raw.get("knockback")
    return Skill(
        id=raw["id"],
        name_ja=raw["name_ja"],
        reading=raw["reading"],
        name_en=raw["name_en"],
        cost=cost,
        level=int(raw["level"]),
        classes=tuple(cast(SkillClass, c) for c in raw["classes"]),
        range=int(raw["range"]),
        targets=cast(Targets, raw["targets"]),
        element=element,
        damage=int(raw.get("damage", 0)),
        heal=int(raw.get("heal", 0)),
        effects=tuple(_build_effect(e) for e in raw.get("effects", ())),
        knockback=KnockbackChance(_chance(kb.get("chance"))) if kb is not None else None,
        reaction=_build_reaction(raw["reaction"], element) if "reaction" in raw else None,
        note=raw.get("note"),
        area=_area(raw["area"]) if "area" in raw else None,
        kind=raw.get("kind"),
    )


def _area(text: str) -> tuple[int, int]:
    """``"5x5"`` -> (5, 5) (the schema checked the shape, R-WIZ-CHECK-1)."""
    a, b = text.split("x")
    return int(a), int(b)


def builtin_catalog_path() -> Path:
    """Filesystem path of the shipped ``skills.yaml``."""
    return Path(str(resources.files("referee").joinpath("data", "skills.yaml")))


@functools.lru_cache(maxsize=16)
def _load_catalog_cached(path: str) -> SkillCatalog:
    display = "referee/data/skills.yaml" if path == BUILTIN else path
    real = builtin_catalog_path() if path == BUILTIN else Path(path)
    doc, diags = read_yaml_file(real, display)
    catalog = None
    if doc is not None:
        catalog, diags = catalog_from_document(doc, diags)
    if catalog is None:
        raise ReferError(diags)
    return catalog


def load_catalog(path: str | Path | None = None) -> SkillCatalog:
    """The built-in catalogue (``path`` None or ``"builtin"``) or one from a file; cached.

    :raises ReferError: with every diagnostic if the file is missing or invalid.
    """
    key = BUILTIN if path is None or str(path) == BUILTIN else str(Path(path).resolve())
    return _load_catalog_cached(key)
