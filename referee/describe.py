"""Words for the skill catalogue and the rulesets (``referee skills``, ``referee rulesets``).

An organiser must be able to answer "what does Kusanagi do?" without reading
YAML, and a player must see the catalogue of the ruleset the battle is played
by, in English or Japanese.  Every sentence here is built from the catalogue's
and the ruleset's *data* (R-SK-4), never written per skill, so a house
catalogue or a new ruleset is described as faithfully as the built-in ones.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from typing import Any, Iterable

from referee.catalog import Chance, Effect, Reaction, Skill, SkillCatalog
from referee.diagnostics import display_width
from referee.elements import Element
from referee.mechanicspec import Goal, MechanicSpec, NarrowingStage
from referee.plan.transformer import CLASS_WORDS
from referee.ruleset import Ruleset

__all__ = ["describe_catalog", "describe_effect", "describe_ruleset", "skill_facts"]

#: R-SK-2 class -> its 漢字 name, from the plan language's own class words
#: (one table says both which words a plan may write and how they print).
_CLASS_JA = {cls: word for word, cls in CLASS_WORDS.items() if not word.isascii()}
_ELEMENT_JA = {e.value: e.kanji for e in Element}
_STATUS = {"en": {"bind": "Bind", "poison": "Poison", "freeze": "Freeze", "change": "a panel change"},
           "ja": {"bind": "束縛", "poison": "毒", "freeze": "凍結", "change": "パネル変化"}}
_OBJECT = {"en": {"character": "the character", "skill": "a skill entry", "clause": "a plan clause", "panel": "a panel"},
           "ja": {"character": "キャラクター", "skill": "スキル", "clause": "作戦の節", "panel": "パネル"}}
_OBJECTS = {"en": {"skill": "skill entries", "clause": "plan clauses", "panel": "panels"},
            "ja": _OBJECT["ja"]}

_WORDS = {
    "en": {
        "damage": "{n} {element} damage", "heal": "heal {n}", "chance": "chance {p}: {what}",
        "status": "{status} on {object}", "for": " for {n} actions", "until": " until cleansed",
        "use_panel": "the target's leftmost unused panel becomes used",
        "cleanse.one": "remove one status ({statuses}) from the target's {objects}",
        "cleanse.all": "remove every status ({statuses}) from the target's {objects}",
        "cleanse.all_patterns": ", on every pattern",
        "drain": "the user heals the HP the target lost",
        "knockback": "knockback", "sep": "; ",
        "when.hit": "when hit", "when.hit_by": "when hit by {element}",
        "when.skill_used_on_owner": "when an enemy in range uses a skill on the owner",
        "while.maintained": "while maintained", "maintained_after": "then maintained",
        "reduce": "reduce the damage by {n}", "heal_owner": "the owner heals {n}",
        "counter": "counter {n} {element} damage", "counter.printed": "counter {element} damage equal to the attack's",
        "counter.hits": " ({n} hits, each checking range)",
        "knockback_owner": "the owner is knocked back", "cancel": "that use does nothing to the owner",
        "sink": "the user's area is sunk",
        "cost": "cost", "level": "level", "range": "range", "targets": "targets",
        "enemies": "enemies", "allies": "allies", "header": "Skills of the {ruleset} ruleset ({count})",
        "column.skill": "skill", "column.classes": "classes", "column.effect": "effect",
    },
    "ja": {
        "damage": "{element}属性 {n} ダメージ", "heal": "{n} 回復", "chance": "{p} の確率で{what}",
        "status": "{object}に{status}", "for": "（{n} 行動）", "until": "（解除されるまで）",
        "use_panel": "対象の最も左の未使用パネルを使用済みにする",
        "cleanse.one": "対象の{objects}から異常（{statuses}）を一つ解除",
        "cleanse.all": "対象の{objects}から異常（{statuses}）をすべて解除",
        "cleanse.all_patterns": "（全パターン）",
        "drain": "対象が失った HP だけ使用者が回復", "knockback": "ノックバック", "sep": "。",
        "when.hit": "被弾時", "when.hit_by": "{element}属性の被弾時",
        "when.skill_used_on_owner": "射程内の敵が自分にスキルを使ったとき",
        "while.maintained": "維持中", "maintained_after": "以後維持",
        "reduce": "ダメージを {n} 軽減", "heal_owner": "自分が {n} 回復",
        "counter": "{element}属性 {n} ダメージで反撃", "counter.printed": "攻撃と同じ値の{element}属性ダメージで反撃",
        "counter.hits": "（{n} 回、それぞれ射程を確認）",
        "knockback_owner": "自分がノックバックする", "cancel": "そのスキルは自分に効果がない",
        "sink": "使用者のエリアが陥没する",
        "cost": "コスト", "level": "レベル", "range": "射程", "targets": "対象",
        "enemies": "敵", "allies": "味方", "header": "ルールセット {ruleset} のスキル（{count} 種）",
        "column.skill": "スキル", "column.classes": "分類", "column.effect": "効果",
    },
}


def _element(lang: str, element: Element | str | None) -> str:
    value = element.value if isinstance(element, Element) else element or ""
    return _ELEMENT_JA.get(value, value) if lang == "ja" else value


def _chance(lang: str, chance: Chance, what: str) -> str:
    return what if chance.is_certain else _WORDS[lang]["chance"].format(p=str(chance), what=what)


def _effect(lang: str, effect: Effect) -> str:
    w = _WORDS[lang]
    if effect.kind == "status" and effect.status is not None:
        text = w["status"].format(status=_STATUS[lang][effect.status], object=_OBJECT[lang][effect.object or "character"])
        if effect.status != "freeze":
            text += w["for"].format(n=effect.duration) if effect.duration is not None else w["until"]
    elif effect.kind == "use_panel":
        text = w["use_panel"]
    elif effect.kind == "cleanse":
        sep = "、" if lang == "ja" else ", "
        text = w[f"cleanse.{effect.scope or 'one'}"].format(
            statuses=sep.join(_STATUS[lang][s] for s in effect.statuses),
            objects=sep.join(_OBJECTS[lang][o] for o in effect.objects))
        if effect.patterns == "all":
            text += w["cleanse.all_patterns"]
    else:
        text = w["drain"]
    return _chance(lang, effect.chance, text)


def _reaction(lang: str, reaction: Reaction) -> list[str]:
    w = _WORDS[lang]
    if reaction.trigger == "skill_used_on_owner":
        when = w["when.skill_used_on_owner"]
    elif reaction.element is not None:
        when = w["when.hit_by"].format(element=_element(lang, reaction.element))
    else:
        when = w["when.hit"]
    if reaction.active_when == "maintained":
        when = w["while.maintained"] + ("、" if lang == "ja" else ", ") + when
    parts = []
    if reaction.reduce:
        parts.append(w["reduce"].format(n=reaction.reduce))
    if reaction.heal_owner:
        parts.append(w["heal_owner"].format(n=reaction.heal_owner))
    if reaction.counter is not None:
        c = reaction.counter
        text = (w["counter.printed"].format(element=_element(lang, c.element)) if c.printed
                else w["counter"].format(n=c.damage, element=_element(lang, c.element)))
        if c.hits > 1:
            text += w["counter.hits"].format(n=c.hits)
        parts.append(text)
    if reaction.knockback_owner is not None:
        parts.append(_chance(lang, reaction.knockback_owner.chance, w["knockback_owner"]))
    if reaction.cancel:
        parts.append(w["cancel"])
    if reaction.sink_area:
        parts.append(w["sink"])
    if reaction.becomes_maintained:
        parts.append(w["maintained_after"])
    joiner = "、" if lang == "ja" else ", "
    return [f"{when}: {joiner.join(parts)}" if lang == "en" else f"{when}：{joiner.join(parts)}"]


def describe_effect(skill: Skill, lang: str = "en") -> str:
    """What the skill does, in one line of ``lang`` (``en`` or ``ja``).

    >>> from referee.catalog import load_catalog
    >>> describe_effect(load_catalog().get("eruption"))
    '4 fire damage'
    """
    w = _WORDS[lang]
    parts = []
    if skill.damage:
        parts.append(w["damage"].format(n=skill.damage, element=_element(lang, skill.element)))
    if skill.heal:
        parts.append(w["heal"].format(n=skill.heal))
    parts += [_effect(lang, e) for e in skill.effects]
    if skill.knockback is not None:
        parts.append(_chance(lang, skill.knockback.chance, w["knockback"]))
    if skill.reaction is not None:
        parts += _reaction(lang, skill.reaction)
    return w["sep"].join(parts)


def skill_facts(skill: Skill, lang: str = "en") -> dict[str, str]:
    """The catalogue row of one skill as display strings (both names, cost,
    level, classes, range, targets, effect)."""
    w = _WORDS[lang]
    japanese = f"{skill.name_ja}〔{skill.reading}〕"
    name = f"{japanese} ({skill.name_en})" if lang == "ja" else f"{skill.name_en} ({japanese})"
    classes = ("、".join(_CLASS_JA[c] for c in skill.classes) if lang == "ja"
               else ", ".join(f"{c} {_CLASS_JA[c]}" for c in skill.classes))
    return {"id": skill.id, "name": name, "cost": skill.cost_kanji, "level": str(skill.level),
            "classes": classes, "range": str(skill.range), "targets": w[skill.targets],
            "effect": describe_effect(skill, lang)}


def describe_catalog(catalog: SkillCatalog, ruleset_name: str, lang: str = "en", fmt: str = "text") -> str:
    """The whole catalogue: a block per skill (``text``) or a table (``md``)."""
    w = _WORDS[lang]
    rows = [skill_facts(s, lang) for s in catalog.skills]
    title = w["header"].format(ruleset=ruleset_name, count=len(rows))
    if fmt == "md":
        head = [w["column.skill"], "id", w["cost"], w["level"], w["column.classes"], w["range"], w["targets"],
                w["column.effect"]]
        lines = [f"# {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in rows:
            cells = [r["name"], f"`{r['id']}`", r["cost"], r["level"], r["classes"], r["range"], r["targets"], r["effect"]]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        return "\n".join(lines) + "\n"
    lines = [title, ""]
    dot = " ・ " if lang == "ja" else " · "
    for r in rows:
        lines.append(f"{r['name']}  [{r['id']}]")
        lines.append("  " + dot.join([f"{w['cost']} {r['cost']}", f"{w['level']} {r['level']}", r["classes"],
                                      f"{w['range']} {r['range']}", f"{w['targets']} {r['targets']}"]))
        lines.append(f"  {r['effect']}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _flat(value: Any, prefix: str = "") -> Iterable[tuple[str, str]]:
    """``{"a": {"b": 1}}`` -> ``("a.b", "1")``: any nested data as key/value lines."""
    if isinstance(value, dict):
        for key in value:
            yield from _flat(value[key], f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        for i, item in enumerate(value):
            yield from _flat(item, f"{prefix}[{i}]")
    else:
        shown = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        yield prefix, f"[{shown}]" if isinstance(value, list) else shown


def _spec_words(spec: MechanicSpec) -> str:
    """One mechanic as ``kind (param value, ...)``, read from the typed spec the
    engine is built from (R-VAR-1), so the listing cannot name rules the
    battle does not run."""
    params = []
    for f in dataclass_fields(spec):
        if f.name == "kind":
            continue
        value = getattr(spec, f.name)
        if isinstance(value, tuple):
            shown = "; ".join(_value_words(v) for v in value) or "none"
        else:
            shown = _value_words(value)
        params.append(f"{f.name.replace('_', ' ')} {shown}")
    return spec.kind + (f" ({', '.join(params)})" if params else "")


def _value_words(value: object) -> str:
    """A parameter value in words: a narrowing stage, a goal fraction, or as is."""
    if isinstance(value, NarrowingStage):
        return f"after turn {value.after_turn}: {'one square of ' if value.keep_one_of else ''}{value.keep}"
    if isinstance(value, Goal):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, bool):  # as the ruleset file writes it (R-ORM-MOVE-1's flags)
        return "true" if value else "false"
    return str(value)


def describe_ruleset(ruleset: Ruleset, base: Ruleset | None = None) -> str:
    """A ruleset in words: its description, map, limits and its mechanics
    (R-VAR-1, every slot with its parameters); with ``base``, what it changes."""
    m = ruleset.map
    blocked = f", blocked {' '.join(m.blocked)}" if m.blocked else ""
    lines = [
        f"{ruleset.name}: {ruleset.description}",
        f"  digest      {ruleset.digest[:16]}",
        f"  map         {m.width}x{m.height}{blocked}  (R-FIELD-1)",
        f"  characters  abilities sum to {ruleset.abilities.budget}, each at least {ruleset.abilities.minimum}; "
        f"HP {ruleset.hp_per_body} x body  (R-CHAR-1, R-CHAR-2)",
        f"  sheets      up to {ruleset.max_patterns_per_intellect} x intellect patterns, intellect + "
        f"{ruleset.extra_skill_entries} skill entries, {ruleset.max_clauses_per_intellect} x intellect plan clauses"
        "  (R-CHAR-3, R-CHAR-4)",
        f"  turn limit  {ruleset.turn_limit}  (R-TURN-9)",
        f"  skills      {len(ruleset.catalog.skills)} (referee skills --ruleset {ruleset.name})",
        "  mechanics   (R-VAR-1)",
    ]
    slots = ruleset.mechanics.slots()
    width = max(display_width(slot) for slot, _ in slots)
    lines += [f"    {slot}{' ' * (width - display_width(slot))}  {_spec_words(spec)}" for slot, spec in slots]
    if base is not None and base.name != ruleset.name and isinstance(base.data, dict):
        data = ruleset.data if isinstance(ruleset.data, dict) else {}
        others = {k: v for k, v in data.items() if k != "mechanics"}
        ours, theirs = dict(_flat(others)), dict(_flat({k: v for k, v in base.data.items() if k != "mechanics"}))
        changed = [k for k in ours if ours[k] != theirs.get(k) and k not in ("name", "description", "extends")]
        changed += [k for k in theirs if k not in ours]
        base_slots = dict(base.mechanics.slots())
        changed += [f"mechanics.{slot}" for slot, spec in ruleset.mechanics.slots() if spec != base_slots[slot]]
        lines.append(f"  changes from {base.name}: " + (", ".join(changed) if changed else "none"))
    return "\n".join(lines) + "\n"
