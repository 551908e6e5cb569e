"""Data-integrity tests of the shipped skill catalogue (R-SK-4, style lesson 4).

The schema checks shape; these tests check meaning, and compare every record
with the contract table of ``../shared/spec/skills.md`` when it is present.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.catalog import (
    SKILL_CLASSES,
    SkillCatalog,
    load_catalog,
    normalize_name,
    parse_catalog,
)
from referee.elements import Element, parse_element
from specfiles import spec_file

SPEC_SKILLS = spec_file("skills.md")
SKILLS_YAML = Path(__file__).resolve().parents[1] / "referee" / "data" / "skills.yaml"

#: The 20 ids of skills.md, in its order.
SPEC_IDS = (
    "firecracker", "rest", "pressurize", "avenger", "slash", "eruption", "flame-bind",
    "heat-wave", "fiery-cloak", "kusanagi", "aqua-form", "shield-mist", "restore",
    "poison-fang", "whirlwind", "skill-ensnare", "night-shrieker", "drain-life",
    "ia-temu-curse", "sala-twin-trees",
)


@pytest.fixture(scope="module")
def catalog() -> SkillCatalog:
    return load_catalog()


def test_r_sk_4_catalogue_has_the_twenty_skills_in_order(catalog: SkillCatalog) -> None:
    """R-SK-4: the skill catalogue is skills.md; the referee ships it as YAML."""
    assert tuple(s.id for s in catalog.skills) == SPEC_IDS


def test_ids_are_unique_kebab_case(catalog: SkillCatalog) -> None:
    ids = [s.id for s in catalog]
    assert len(ids) == len(set(ids))
    for sid in ids:
        assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", sid), sid


def test_id_is_the_english_name_in_kebab_case(catalog: SkillCatalog) -> None:
    for s in catalog:
        assert normalize_name(s.id) == normalize_name(s.name_en), s.id


def test_spellings_are_a_bijection(catalog: SkillCatalog) -> None:
    """Every spelling (id, English, Japanese, reading) names exactly one skill."""
    owner: dict[str, str] = {}
    for s in catalog:
        for spelling in s.spellings:
            key = normalize_name(spelling)
            assert owner.setdefault(key, s.id) == s.id, f"{spelling!r} names {owner[key]} and {s.id}"
            assert catalog.resolve(spelling) is s


def test_r_pan_1_level_is_number_of_cost_panels(catalog: SkillCatalog) -> None:
    """R-PAN-1: a skill's cost is a multiset of elements; its level is the number of panels."""
    for s in catalog:
        assert s.level == len(s.cost), s.id
        assert all(isinstance(e, Element) for e in s.cost)


def test_r_range_1_ranges_are_0_to_2(catalog: SkillCatalog) -> None:
    for s in catalog:
        assert 0 <= s.range <= 2, s.id


def test_r_sk_2_classes_are_valid_and_consistent(catalog: SkillCatalog) -> None:
    """R-SK-2: attack deals damage, passive never used actively, maintain keeps its
    panels; reactions only on passive/maintain skills; damage only on attacks."""
    for s in catalog:
        assert s.classes and set(s.classes) <= set(SKILL_CLASSES), s.id
        assert len(set(s.classes)) == len(s.classes)
        assert (s.reaction is not None) == (s.is_passive or s.is_maintain), s.id
        assert (s.damage > 0) == s.is_attack, s.id
        if s.reaction is not None:
            assert (s.reaction.reduce > 0) == s.is_defence, s.id
            assert (s.reaction.counter is not None) == s.is_counter, s.id
            assert not s.is_attack, s.id
        if s.is_change:
            assert any(e.kind == "status" for e in s.effects), s.id
        for e in s.effects:
            if e.kind == "status":
                assert s.is_change or s.is_obstruct, s.id
                assert e.status is not None and e.object is not None
            assert e.chance.numerator <= e.chance.denominator


def test_r_range_4_only_heal_extend_skills_target_allies(catalog: SkillCatalog) -> None:
    """R-RANGE-4: skills whose classes are only 回復 and 拡大 target the user or allies."""
    allies = {s.id for s in catalog if s.targets == "allies"}
    assert allies == {"rest", "restore"}
    for s in catalog:
        assert (s.targets == "allies") == (set(s.classes) <= {"heal", "extend"})


def test_r_ext_1_extension_cost_is_half_level_rounded_up(catalog: SkillCatalog) -> None:
    assert catalog.get("firecracker").extension_cost == 1
    assert catalog.get("eruption").extension_cost == 1


def test_reactions_match_skills_md(catalog: SkillCatalog) -> None:
    """The reactive fields the engine reads, as skills.md describes them."""
    avenger = catalog.get("avenger").reaction
    assert avenger is not None and avenger.active_when == "readied" and avenger.reduce == 1
    assert avenger.counter is not None and avenger.counter.damage == 2 and avenger.counter.element is Element.EARTH
    kusanagi = catalog.get("kusanagi").reaction
    assert kusanagi is not None and kusanagi.element is Element.FIRE and kusanagi.reduce == 2
    assert kusanagi.counter is not None and kusanagi.counter.printed
    assert kusanagi.counter.damage_against(4) == 4 and kusanagi.counter.damage_against(1) == 1
    assert kusanagi.applies_to(Element.FIRE) and not kusanagi.applies_to(Element.SWORD)
    cloak = catalog.get("fiery-cloak").reaction
    assert cloak is not None and cloak.active_when == "maintained" and cloak.reduce == 1
    assert cloak.counter is not None and cloak.counter.damage == 1 and cloak.counter.element is Element.FIRE
    aqua = catalog.get("aqua-form").reaction
    assert aqua is not None and aqua.reduce == 2 and aqua.heal_owner == 1
    assert aqua.knockback_owner is not None and str(aqua.knockback_owner.chance) == "2/3"
    mist = catalog.get("shield-mist").reaction
    assert mist is not None and mist.active_when == "readied" and mist.becomes_maintained and mist.reduce == 1
    ensnare = catalog.get("skill-ensnare")
    assert ensnare.reaction is not None and ensnare.reaction.trigger == "skill_used_on_owner"
    assert ensnare.reaction.cancel and ensnare.reaction.sink_area and ensnare.range == 2
    sala = catalog.get("sala-twin-trees").reaction
    assert sala is not None and sala.counter is not None
    assert (sala.counter.hits, sala.counter.damage, sala.counter.element) == (2, 1, Element.SWORD)


def test_effects_match_skills_md(catalog: SkillCatalog) -> None:
    def only(sid: str):  # type: ignore[no-untyped-def]
        (effect,) = catalog.get(sid).effects
        return effect

    e = only("flame-bind")
    assert (e.kind, e.status, e.object, e.duration, e.chance.is_certain) == ("status", "bind", "character", 2, True)
    e = only("heat-wave")
    assert (e.status, e.object, e.duration) == ("bind", "clause", 3)
    e = only("poison-fang")
    assert (e.status, e.object, e.duration) == ("poison", "panel", None)
    e = only("whirlwind")
    assert (e.status, e.object, e.duration) == ("change", "panel", 3)
    e = only("night-shrieker")
    assert (e.status, e.object, e.duration, str(e.chance)) == ("freeze", "character", 1, "1/2")
    e = only("ia-temu-curse")
    assert (e.status, e.object, e.duration, str(e.chance)) == ("bind", "skill", 3, "1/3")
    e = only("rest")
    assert (e.kind, e.scope, str(e.chance), e.patterns) == ("cleanse", "one", "2/3", "active")
    assert e.objects == ("skill", "clause", "panel") and "change" not in e.statuses
    e = only("restore")
    assert (e.kind, e.scope, e.chance.is_certain, e.patterns) == ("cleanse", "all", True, "all")
    assert set(e.statuses) == {"bind", "poison", "change"}
    assert only("drain-life").kind == "drain"
    assert only("pressurize").kind == "use_panel"
    kb = catalog.get("pressurize").knockback
    assert kb is not None and str(kb.chance) == "2/3"


def test_a_hook_is_refused_at_its_field_since_none_exists() -> None:
    """Issue 9: skill data that is accepted must be used or rejected; no hook
    is implemented, so ``hook:`` is a located error, not silently ignored."""
    text = _mutated("    damage: 3\n", "    damage: 3\n    hook: explode\n")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None
    (d,) = diags
    assert (d.code, d.line) == ("hook-not-implemented", text.splitlines().index("    hook: explode") + 1)


@pytest.mark.parametrize("effect", ["{kind: drain, chance: [1, 2]}", "{kind: use_panel, object: panel, chance: [1, 2]}"])
def test_a_chance_on_an_effect_that_never_draws_is_refused(effect: str) -> None:
    """Drain Life's heal and Pressurize's panel always happen (no draw in
    R-RNG-1), so a ``chance`` there would be ignored: refused at its key."""
    text = _mutated("    damage: 3\n", "    damage: 3\n    effects:\n      - " + effect + "\n")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None
    assert any(d.code == "unknown-field" and "chance" in d.message for d in diags)


# --- the contract table ------------------------------------------------------

_ROW = re.compile(r"^\|\s*([a-z-]+)\s*\|\s*(.+?)〔(.+?)〕\s*\|\s*(\S+)\s*\|\s*(\d)\s*\|\s*([a-z, ]+?)\s*\|\s*(\d)\s*\|\s*(.*)\|\s*$")


def _spec_rows() -> list[tuple[str, ...]]:
    rows = []
    for line in SPEC_SKILLS.read_text("utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            rows.append(m.groups())
    return rows


def test_r_sk_4_every_record_matches_the_skills_md_table(catalog: SkillCatalog) -> None:
    """Ids, names, readings, costs, levels, classes and ranges are skills.md's exactly;
    printed damage, its element and heal amounts are those of the effect column."""
    rows = _spec_rows()
    assert [r[0] for r in rows] == list(SPEC_IDS)
    for sid, name_ja, reading, cost, level, classes, rng, effect in rows:
        s = catalog.get(sid)
        assert s.name_ja == name_ja.strip() and s.reading == reading, sid
        assert s.cost == tuple(parse_element(ch) for ch in cost), sid
        assert s.level == int(level), sid
        assert s.classes == tuple(c.strip() for c in classes.split(",")), sid
        assert s.range == int(rng), sid
        dmg = re.match(r"\s*(\d+) (fire|water|wind|earth|sword) damage", effect)
        if dmg:
            assert (s.damage, s.element.value) == (int(dmg.group(1)), dmg.group(2)), sid
        else:
            assert s.damage == 0, sid
        heal = re.match(r"\s*heal (\d+)", effect)
        assert s.heal == (int(heal.group(1)) if heal else 0), sid


# --- lookup -------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["爆撃", "イラプション", "eruption", "Eruption", " ERUPTION ", "ｅｒｕｐｔｉｏｎ"])
def test_resolve_every_spelling_of_eruption(catalog: SkillCatalog, spelling: str) -> None:
    skill = catalog.resolve(spelling)
    assert skill is not None and skill.id == "eruption"


@pytest.mark.parametrize(
    "spelling, sid",
    [("Flame Bind", "flame-bind"), ("flame_bind", "flame-bind"), ("FlameBind", "flame-bind"),
     ("イア=テムの呪いの剣", "ia-temu-curse"), ("Ia-Temu Curse", "ia-temu-curse"), ("さらそうじゅ", "sala-twin-trees")],
)
def test_resolve_is_case_space_and_hyphen_insensitive(catalog: SkillCatalog, spelling: str, sid: str) -> None:
    skill = catalog.resolve(spelling)
    assert skill is not None and skill.id == sid


def test_unknown_names_resolve_to_none_with_a_hint(catalog: SkillCatalog) -> None:
    assert catalog.resolve("fireball") is None
    assert catalog.did_you_mean("fireball") == "did you mean 'firecracker' (炸撃)?"
    assert catalog.suggest("fireball")[0].id == "firecracker"
    assert catalog.suggest("炸激")[0].id == "firecracker"
    assert catalog.suggest("aquaform")[0].id == "aqua-form"
    assert catalog.did_you_mean("zzzzzzzz") is None


@given(st.text(max_size=30))
def test_lookup_never_raises(text: str) -> None:
    catalog = load_catalog()
    skill = catalog.resolve(text)
    assert skill is None or skill in catalog.skills
    assert len(catalog.suggest(text)) <= 3


def test_load_catalog_is_cached() -> None:
    assert load_catalog() is load_catalog(None) is load_catalog("builtin")


# --- the checker itself can fail ---------------------------------------------


def _mutated(old: str, new: str) -> str:
    text = SKILLS_YAML.read_text("utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_level_mismatch_is_reported_at_the_level_field() -> None:
    text = _mutated("    cost: [fire]\n    level: 1\n", "    cost: [fire]\n    level: 2\n")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None
    (d,) = diags
    line = text.splitlines().index("    level: 2") + 1
    assert (d.code, d.line, d.column) == ("level-mismatch", line, 12)


def test_shared_spelling_is_reported() -> None:
    text = _mutated("name_ja: 斬撃", "name_ja: 炸撃")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None and [d.code for d in diags] == ["ambiguous-name"]


def test_schema_errors_are_all_reported_with_positions() -> None:
    text = _mutated("    range: 2\n    targets: enemies\n    damage: 1\n", "    range: 3\n    targets: foes\n    damage: one\n")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None
    lines = text.splitlines()
    got = {(d.code, d.line) for d in diags}
    assert ("out-of-range", lines.index("    range: 3") + 1) in got
    assert ("invalid-value", lines.index("    targets: foes") + 1) in got
    assert ("wrong-type", lines.index("    damage: one") + 1) in got
    for d in diags:  # the caret is on the value
        assert d.file == "bad.yaml" and d.column == lines[d.line - 1].index(":") + 3


def test_reaction_on_an_active_skill_is_reported() -> None:
    text = _mutated("    damage: 3\n", "    damage: 3\n    reaction: {trigger: hit, active_when: readied}\n")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None and "class-mismatch" in {d.code for d in diags}


def test_unknown_field_gets_a_did_you_mean() -> None:
    text = _mutated("    damage: 3\n", "    damgae: 3\n")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None
    unknown = [d for d in diags if d.code == "unknown-field"]
    assert unknown and unknown[0].hint == "did you mean 'damage'?"


def test_a_status_on_something_that_cannot_carry_it_is_refused() -> None:
    """R-ST-*: poison sits on panels, freeze on the character...: a pair the
    engine has no rule for would be accepted and mean nothing."""
    text = _mutated("status: bind, object: character", "status: poison, object: character")
    cat, diags = parse_catalog(text, "bad.yaml")
    assert cat is None
    (d,) = diags
    assert d.code == "invalid-value" and "poison status sits on panel" in d.message


def test_the_engine_lands_exactly_the_pairs_the_catalogue_accepts() -> None:
    from referee.catalog import STATUS_OBJECTS
    from referee.engine.statuses import INFLICTIONS

    assert set(INFLICTIONS) == {(status, carrier) for status, carriers in STATUS_OBJECTS.items()
                                for carrier in carriers}
