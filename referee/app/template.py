"""``referee template SHEET``: a plan skeleton written for one sheet.

A player who has built a sheet faces an empty plan file.  The skeleton says,
as comments, what the referee does with each skill when the plan says
nothing (its cost, range and classes from the catalogue, its default from the
rules: R-PLAN-1..4, R-EXT-7, R-PAN-4, R-SK-1a, R-TURN-4), and offers the
common clauses for this sheet commented out, ready to uncomment.

Every offered clause is checked before it is offered, the way the sheet's
own plan would be: parsed, checked against the sheet and the ruleset
(:func:`referee.plan.check_plan`: a variant's clause appears only under a
ruleset whose mechanics give it, R-VAR-3), and linted
(:func:`referee.app.lint.lint_sheet_plan`): a clause that could never apply
or that shadows nothing useful is left out.  So the skeleton is a valid plan
as written, and stays one whichever lines are uncommented.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from referee.app.inputs import innate_skill_names
from referee.app.lint import lint_sheet_plan
from referee.catalog import Skill
from referee.describe import describe_effect, skill_facts
from referee.diagnostics import display_width
from referee.engine.mechanics.registry import build_mechanics
from referee.plan import check_plan
from referee.plan.parser import parse_plan
from referee.ruleset import Ruleset
from referee.sheet import CharacterSheet

__all__ = ["TemplateLine", "template_lines", "render_template", "GENERAL_CLAUSES"]

#: Clauses offered to every sheet, each with what it does (en, ja).  ``{half}``
#: and ``{quarter}`` are half and a quarter of the character's maximum HP.
#: A variant's clause is offered only where the ruleset's mechanics give it
#: (checked, not listed per ruleset).
GENERAL_CLAUSES: tuple[tuple[str, str, str], ...] = (
    ("target lowest hp", "every skill: the enemy with the fewest HP first (R-PLAN-4)",
     "全スキル: HP の最も少ない敵を優先 (R-PLAN-4)"),
    ("move toward nearest enemy", "close in even after attacking (R-MOVE-7)",
     "攻撃した後も近づく (R-MOVE-7)"),
    ("keep away from enemies when hp <= {quarter}", "step away from the nearest enemy when hurt (R-MOVE-8)",
     "傷ついたら最も近い敵から離れる (R-MOVE-8)"),
    ("hold position when engaged", "stay where you are while an enemy shares your area (R-MOVE-7)",
     "敵と同じエリアにいる間は動かない (R-MOVE-7)"),
    ("focus when engaged", "attack focus: no first move, attacks one step easier (R-SOUL-STANCE-1)",
     "攻撃集中: 第一移動なし、攻撃判定が一段階易しい (R-SOUL-STANCE-1)"),
    ("maneuver when not engaged", "a manoeuvre: one more move and evasion die, attacks one step harder "
                                  "(R-SOUL-STANCE-2)",
     "戦術機動: 移動と回避ダイスが一つ増え、攻撃判定が一段階難しい (R-SOUL-STANCE-2)"),
    ("evade with all when incoming damage >= {quarter}", "every evasion die against a big blow (R-SOUL-PLAN-2)",
     "大きな一撃には回避ダイスをすべて使う (R-SOUL-PLAN-2)"),
    ("drop 1 die on attack when target hp <= {quarter}", "one die fewer for +2 to finish a wounded enemy "
                                                          "(R-D20-CHECK-3)",
     "弱った敵にはダイスを一つ減らして+2 (R-D20-CHECK-3)"),
    ("boost defence by 1 when hp >= {half}", "pay 1 HP for +1 on defence while healthy (R-D20-CHECK-4)",
     "元気なうちは HP を1払って防御に+1 (R-D20-CHECK-4)"),
    ("recover when hp <= {quarter}", "self-recovery as the support rather than a shift (R-D20-TURN-3)",
     "シフトの代わりに自己回復をサポートにする (R-D20-TURN-3)"),
    ("grapple when not target grappled", "pin an enemy in your area so it cannot shift (R-D20-PUSH-2)",
     "同じエリアの敵に組みついてシフトを封じる (R-D20-PUSH-2)"),
    ("push target lowest hp when engaged", "ride an enemy in your area one area away (R-D20-PUSH-1)",
     "同じエリアの敵を一マス押し出す (R-D20-PUSH-1)"),
    ("spare allies", "area uses leave allies out, a change level each (R-WIZ-PLAN-1)",
     "範囲攻撃から味方を外す (魔法変化1レベルずつ, R-WIZ-PLAN-1)"),
    ("never follow up when hp <= {quarter}", "no follow-up attacks while badly hurt (R-ORM-SUP-2)",
     "深手の間は追撃しない (R-ORM-SUP-2)"),
)

_WORDS = {
    "en": {
        "title": "Plan skeleton for {name} ({file}), ruleset {ruleset}: referee template",
        "intro": "Clauses are read top-down; an earlier clause wins a conflict (R-PLAN-5).\n"
                 "At most {limit} clauses (2 x intellect {intellect}, R-CHAR-4). Uncomment a clause by deleting\n"
                 "its leading '# '; with no clause at all the referee plays each skill's default below.",
        "has_plan": "This sheet already has a plan ({count} clause(s)); this skeleton does not repeat it.",
        "patterns": "Patterns: {patterns}.",
        "skills": "Skills, in the order each action tries them (R-PLAN-3):",
        "innate": "{n}. {name} [{id}], every character's: {facts}",
        "skill": "{n}. {name} [{id}]: cost {cost}, level {level}, range {range}, {classes}; targets {targets}",
        "effect": "   effect: {effect}",
        "default": "   by default: {text}",
        "general": "Targets and movement:",
        "none": "   (no clause to offer for this skill on this sheet)",
        "cost_innate": "no cost",
    },
    "ja": {
        "title": "{name} ({file}) の作戦の雛形、ルールセット {ruleset}: referee template",
        "intro": "節は上から読まれ、食い違えば上の節が勝つ (R-PLAN-5)。\n"
                 "節は最大 {limit} 個 (知性 {intellect} の2倍, R-CHAR-4)。使う節は先頭の '# ' を消す。\n"
                 "節がひとつもなければ、各スキルは下の「既定」のとおりに使われる。",
        "has_plan": "このシートにはすでに作戦がある ({count} 節)。この雛形には含めていない。",
        "patterns": "パターン: {patterns}。",
        "skills": "スキル (各行動で試す順, R-PLAN-3):",
        "innate": "{n}. {name} [{id}] (全員が持つ): {facts}",
        "skill": "{n}. {name} [{id}]: コスト {cost}、レベル {level}、射程 {range}、{classes}、対象 {targets}",
        "effect": "   効果: {effect}",
        "default": "   既定: {text}",
        "general": "対象と移動:",
        "none": "   (このシートでこのスキルに勧める節はない)",
        "cost_innate": "コストなし",
    },
}

#: What the rules do with a skill no clause names, by what the skill is.
_DEFAULTS = {
    "en": {
        "passive": "never used actively; it fires {trigger} while its cost is among your unused panels "
                   "and pays it (R-PAN-4, R-SK-1a){stack}",
        "maintained_passive": "fires when you are hit while its cost is unused, then stays maintained (R-SK-2)",
        "maintain": "started as soon as the walk reaches it and its cost can be paid, enemy in range or not "
                    "(R-PLAN-3); kept until a pattern switch or a release clause (R-TURN-4)",
        "heal": "used on the nearest ally in range who has lost HP (you included), never on an unhurt one "
                "(R-PLAN-1, R-PLAN-4)",
        "enemy": "used on the nearest enemy in range whenever its cost can be paid (R-PLAN-3, R-PLAN-4)",
        "extend": "; one target: extra targets only when the plan says extend (R-EXT-7)",
        "own_area": " -- range 0: an enemy in your own area",
        "allies": "; counters answer enemies only, unless counter allies (R-PLAN-2)",
        "stack": "; listed twice, only the first usable entry fires per hit, unless stack (R-SK-1a)",
        "hit": "when you are hit", "skill_used_on_owner": "when an enemy in range uses a skill on you",
    },
    "ja": {
        "passive": "能動的には使わない。{trigger}、未使用パネルでコストを払えれば発動する (R-PAN-4, R-SK-1a){stack}",
        "maintained_passive": "被弾時にコストが未使用なら発動し、以後維持される (R-SK-2)",
        "maintain": "手順で届き、コストを払えればすぐ開始 (射程内に敵がいなくても, R-PLAN-3)。パターン切替か "
                    "release 節まで維持 (R-TURN-4)",
        "heal": "射程内で HP の減った最も近い味方 (自分も含む) に使う。無傷の者には使わない (R-PLAN-1, R-PLAN-4)",
        "enemy": "コストを払えれば射程内の最も近い敵に使う (R-PLAN-3, R-PLAN-4)",
        "extend": "。対象は一人: extend の節がなければ拡大しない (R-EXT-7)",
        "own_area": " (射程0: 自分のエリアの敵)",
        "allies": "。反撃は counter allies がなければ敵にだけ (R-PLAN-2)",
        "stack": "。複数並べても一回の被弾で発動するのは最初の一つ、stack があれば全部 (R-SK-1a)",
        "hit": "被弾時", "skill_used_on_owner": "射程内の敵が自分にスキルを使ったとき",
    },
}


@dataclass(frozen=True)
class TemplateLine:
    """One line of the skeleton: ``text`` (a note), or a ``clause`` offered
    commented out (``text`` is then what it does, or empty)."""

    text: str
    clause: str | None = None


def _default(skill: Skill, sheet: CharacterSheet, lang: str) -> str:
    """What the referee does with ``skill`` when no clause names it."""
    w = _DEFAULTS[lang]
    reaction = skill.reaction
    if reaction is not None and reaction.becomes_maintained:
        return w["maintained_passive"]
    if skill.has("passive"):
        assert reaction is not None
        text = w["passive"].format(trigger=w[reaction.trigger],
                                   stack=w["stack"] if sheet.skills.count(skill.id) > 1 else "")
        return text + (w["allies"] if skill.has("counter") or skill.has("obstruct") else "")
    if skill.has("maintain"):
        return w["maintain"] + (w["allies"] if skill.has("counter") else "")
    text = w["heal"] if skill.targets == "allies" else w["enemy"]
    if skill.range == 0 and skill.targets == "enemies":
        text += w["own_area"]
    return text + (w["extend"] if skill.has("extend") else "")


def _skill_clauses(skill: Skill, sheet: CharacterSheet) -> list[str]:
    """The clauses commonly written about ``skill``, by its classes."""
    half, quarter = max(1, sheet.max_hp // 2), max(1, sheet.max_hp // 4)
    sid = skill.id
    if skill.has("passive"):
        return [f"stack {sid} when hp <= {half}"] if sheet.skills.count(sid) > 1 else []
    if skill.has("maintain"):
        return [f"maintain {sid} when engaged", f"release {sid} when hp <= {quarter}"]
    if skill.targets == "allies":
        return [f"use {sid} first when ally hp lost >= {quarter}", f"extend {sid} max",
                f"move toward ally with hp lost >= {quarter} then use {sid}"]
    out = [f"with {sid} target lowest hp"]
    if skill.damage:
        out.insert(0, f"use {sid} first when target hp <= {skill.damage}")
    if skill.has("extend"):
        out.append(f"extend {sid} max when enemies in range >= 2")
    if skill.has("obstruct") and not skill.has("attack"):
        out.insert(0, f"use {sid} first when target readies passive")
    return out


def _sound(clause: str, sheet: CharacterSheet, ruleset: Ruleset, baseline: set[tuple[str, int, str]]) -> bool:
    """Whether ``clause``, alone in this sheet's plan, draws no error and no
    lint warning (beyond those the sheet has without a plan)."""
    plan, diags = parse_plan(clause, sheet.file)
    if plan is None or diags:
        return False
    if check_plan(plan, None, ruleset.catalog, skills=sheet.skills, intellect=sheet.intellect,
                  max_clauses_per_intellect=ruleset.max_clauses_per_intellect, board=ruleset.map,
                  features=ruleset.features):
        return False
    alone = dataclasses.replace(sheet, plan_text=clause, plan_file=sheet.file, plan_line_offset=0,
                                plan_column_offset=0)
    return all((d.code, d.line, d.message) in baseline for d in lint_sheet_plan(alone, ruleset))


def template_lines(sheet: CharacterSheet, ruleset: Ruleset, lang: str = "en") -> list[TemplateLine]:
    """The skeleton of ``sheet``'s plan under ``ruleset``, line by line."""
    w = _WORDS[lang]
    bare = dataclasses.replace(sheet, plan_text=None, plan_file=None)
    baseline = {(d.code, d.line, d.message) for d in lint_sheet_plan(bare, ruleset)}
    half, quarter = max(1, sheet.max_hp // 2), max(1, sheet.max_hp // 4)
    lines = [TemplateLine(w["title"].format(name=sheet.name, file=sheet.file, ruleset=ruleset.name)),
             TemplateLine(ruleset.description), TemplateLine("")]
    intro = w["intro"].format(limit=ruleset.max_clauses(sheet.intellect), intellect=sheet.intellect)
    lines += [TemplateLine(t) for t in intro.split("\n")]
    if sheet.plan_text is not None:
        count = sum(1 for ln in sheet.plan_text.splitlines() if ln.strip() and not ln.strip().startswith("#"))
        lines.append(TemplateLine(w["has_plan"].format(count=count)))
    patterns = ", ".join(p.text + (f" (when {p.condition_text})" if p.condition_text else "") for p in sheet.patterns)
    lines += [TemplateLine(w["patterns"].format(patterns=patterns)), TemplateLine(""), TemplateLine(w["skills"])]
    catalog = ruleset.catalog
    seen: set[str] = set()
    entries: list[tuple[Skill, bool]] = [(catalog.get(s), False) for s in sheet.skills]
    entries += [(s, True) for s in build_mechanics(ruleset.mechanics).action.innate_skills()]
    for n, (skill, innate) in enumerate(entries, start=1):
        lines.append(TemplateLine(""))
        facts = skill_facts(skill, lang)
        if innate:
            lines.append(TemplateLine(w["innate"].format(n=n, name=innate_skill_names(ruleset)[skill.id][lang],
                                                         id=skill.id, facts=describe_effect(skill, lang))))
        else:
            lines.append(TemplateLine(w["skill"].format(n=n, **facts)))
            lines.append(TemplateLine(w["effect"].format(effect=facts["effect"])))
            lines.append(TemplateLine(w["default"].format(text=_default(skill, sheet, lang))))
        if skill.id in seen:
            continue
        seen.add(skill.id)
        offered = [c for c in _skill_clauses(skill, sheet) if _sound(c, sheet, ruleset, baseline)]
        lines += [TemplateLine("", c) for c in offered] or [TemplateLine(w["none"])]
    lines += [TemplateLine(""), TemplateLine(w["general"])]
    for clause, en, ja in GENERAL_CLAUSES:
        text = clause.format(half=half, quarter=quarter)
        if _sound(text, sheet, ruleset, baseline):
            lines.append(TemplateLine(en if lang == "en" else ja, text))
    return lines


#: Notes longer than this are wrapped (a clause line never is).
WIDTH = 100


def _note(text: str) -> list[str]:
    """A note as comment lines of at most :data:`WIDTH` terminal cells (a
    Japanese character takes two), broken at spaces, its continuation lines
    indented under its first word."""
    indent = " " * (len(text) - len(text.lstrip(" ")))
    lines: list[str] = []
    line = ""
    for word in text.strip(" ").split(" "):
        candidate = f"{line} {word}" if line else (indent if not lines else indent + "  ") + word
        if line and display_width(candidate) > WIDTH - 2:
            lines.append(line)
            candidate = indent + "  " + word
        line = candidate
    lines.append(line)
    return [f"# {part}".rstrip() for part in lines]


def render_template(lines: Sequence[TemplateLine]) -> str:
    """The skeleton as a plan file: every line a comment, each offered
    clause as ``# CLAUSE`` (with what it does, if anything, above it)."""
    out = []
    for line in lines:
        if line.clause is None:
            out += _note(line.text)
            continue
        if line.text:
            out += _note(f"  ({line.text})")
        out.append(f"# {line.clause}")
    return "\n".join(out) + "\n"
