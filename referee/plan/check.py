"""The semantic pass: resolve names, check limits, one diagnostic per problem.

Separate from parsing (style lesson 9): the parser knows the language, this
module knows the catalogue and the sheet. Decisions (docs/decisions.md, "Plan
language"):

* an unknown skill is an error (``unknown-skill``) with a did-you-mean hint;
* a skill the sheet does not list is a *warning* (``skill-not-on-sheet``): the
  clause can never apply, but the battle is still well defined;
* ``extend`` on a skill not classed extend (``not-extendable``), ``maintain`` /
  ``release`` on a skill not classed maintain (``not-maintainable``) and
  ``stack`` on a skill that is not passive (``not-stackable``) are errors;
* ``target ...`` in a clause that concerns no skill target
  (``target-without-skill``) is an error;
* more than ``max_clauses_per_intellect`` x intellect clauses
  (``too-many-clauses``, R-CHAR-4) is an error, at the first clause too many --
  checked only when ``intellect`` is given (a plan checked alone has no sheet);
* a character name not in ``known_characters`` (``unknown-character``) is an
  error, checked only when the names are known (with a battle).
"""

from __future__ import annotations

import dataclasses
import difflib
from typing import Any, Protocol, Sequence, TypeVar

from referee.diagnostics import Diagnostic
from referee.plan import ast as A
from referee.plan.parser import iter_conditions

N = TypeVar("N")

#: Clauses in which ``target`` has a meaning (a skill considers candidates).
TARGET_CLAUSES: tuple[type[A.Clause], ...] = (
    A.UseFirst, A.UseOnlyWhen, A.NeverUse, A.TargetPreference, A.NeverTarget, A.OnlyTarget, A.Extend,
)


class _Skill(Protocol):
    id: str
    classes: tuple[str, ...]

    def label(self) -> str: ...


class CatalogLike(Protocol):
    """What the pass needs of :class:`referee.catalog.SkillCatalog`."""

    def resolve(self, name: str) -> Any: ...

    def did_you_mean(self, name: str) -> str | None: ...


def resolve_plan(plan: A.Plan, catalog: CatalogLike) -> tuple[A.Plan, list[Diagnostic]]:
    """The plan with every :class:`SkillRef` id filled in, and an
    ``unknown-skill`` error for each name the catalogue does not know."""
    diags: list[Diagnostic] = []

    def fix(ref: A.SkillRef) -> A.SkillRef:
        skill = catalog.resolve(ref.text)
        if skill is None:
            diags.append(Diagnostic(plan.file, ref.line, ref.column, "unknown-skill",
                                    f"unknown skill '{ref.text}'", hint=catalog.did_you_mean(ref.text)))
            return ref
        return dataclasses.replace(ref, id=skill.id)

    return _map_skills(plan, fix), diags


def _map_skills(node: N, fix: Any) -> N:
    """Rebuild ``node`` with ``fix`` applied to every SkillRef inside it."""
    if isinstance(node, A.SkillRef):
        out: N = fix(node)
        return out
    if isinstance(node, tuple):
        return tuple(_map_skills(x, fix) for x in node)  # type: ignore[return-value]
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        new = _map_skills(value, fix)
        if new is not value:
            changes[f.name] = new
    return dataclasses.replace(node, **changes) if changes else node


def check_plan(
    plan: A.Plan,
    sheet: Any = None,
    catalog: CatalogLike | None = None,
    *,
    skills: Sequence[str] | None = None,
    intellect: int | None = None,
    max_clauses_per_intellect: int = 2,
    known_characters: Sequence[str] | None = None,
) -> list[Diagnostic]:
    """Every semantic problem of a parsed plan (see the module docstring).

    :param sheet: optional character sheet; its ``skills`` (ids, sheet order)
        are used when ``skills`` is not given. (The sheet loader passes
        ``intellect`` and its ruleset's ``max_clauses_per_intellect``.)
    :param catalog: the ruleset's skill catalogue (default: the built-in one).
    :param skills: the sheet's skill ids; ``None`` skips sheet-dependent checks.
    :param intellect: the character's intellect; ``None`` skips R-CHAR-4.
    :param known_characters: every character name of the battle; ``None``
        skips the name check.
    """
    if catalog is None:
        from referee.catalog import load_catalog

        catalog = load_catalog()
    if skills is None and sheet is not None:
        skills = tuple(getattr(sheet, "skills", ()) or ())
    resolved, diags = resolve_plan(plan, catalog)
    file = plan.file

    def error(node: A.Node, code: str, message: str, hint: str | None = None, severity: str = "error") -> None:
        diags.append(Diagnostic(file, node.line, node.column, code, message, hint, severity))  # type: ignore[arg-type]

    for clause in resolved.clauses:
        for ref in _clause_skills(clause):
            if ref.id is None:
                continue
            skill: Any = catalog.resolve(ref.id)
            if skill is None:
                continue
            if skills is not None and ref.id not in skills:
                error(ref, "skill-not-on-sheet", f"{skill.label()} is not on this character's sheet; the clause never applies",
                      severity="warning")
            if isinstance(clause, A.Extend) and "extend" not in skill.classes:
                error(ref, "not-extendable", f"{skill.label()} cannot be extended: it is not classed extend (R-EXT-1)")
            if isinstance(clause, (A.Maintain, A.Release)) and "maintain" not in skill.classes:
                error(ref, "not-maintainable", f"{skill.label()} is not a maintain skill, so it cannot be maintained or released (R-TURN-4)")
            if isinstance(clause, A.Stack) and "passive" not in skill.classes:
                error(ref, "not-stackable", f"{skill.label()} is not passive; only passive skills listed several times stack (R-SK-1a)")
        if not isinstance(clause, TARGET_CLAUSES):
            for cond in _clause_conditions(clause):
                for node in iter_conditions(cond):
                    if getattr(node, "subject", None) == "target":
                        error(node, "target-without-skill",
                              "'target' means the target a skill is considering; this clause concerns no skill's target",
                              hint="use 'ally ...', 'enemies in range ...' or your own 'hp ...'")
        if known_characters is not None:
            for ref_c in _clause_characters(clause):
                if ref_c.name not in known_characters:
                    close = difflib.get_close_matches(ref_c.name, list(known_characters), n=1, cutoff=0.6)
                    error(ref_c, "unknown-character", f"no character called '{ref_c.name}' in this battle",
                          hint=f"did you mean '{close[0]}'?" if close else None)
    if intellect is not None:
        limit = max_clauses_per_intellect * intellect
        if len(plan.clauses) > limit:
            extra = plan.clauses[limit]
            error(extra, "too-many-clauses",
                  f"the plan has {len(plan.clauses)} clauses; intellect {intellect} allows at most {limit} (R-CHAR-4)")
    return sorted(diags, key=lambda d: (d.line, d.column, d.code))


def _walk(node: Any) -> list[Any]:
    """Every dataclass node and leaf inside ``node`` (pre-order)."""
    out: list[Any] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
            continue
        if not dataclasses.is_dataclass(item) or isinstance(item, type):
            continue
        out.append(item)
        stack.extend(reversed([getattr(item, f.name) for f in dataclasses.fields(item)]))
    return out


def _clause_skills(clause: A.Clause) -> list[A.SkillRef]:
    """Skills the clause itself names (not skills inside ``readies``, which
    belong to whoever is tested)."""
    return [getattr(clause, name) for name in ("skill", "then_use") if isinstance(getattr(clause, name, None), A.SkillRef)]


def _clause_conditions(clause: A.Clause) -> list[A.Condition]:
    return [n for n in [getattr(clause, "condition", None)] if n is not None]


def _clause_characters(clause: A.Clause) -> list[A.CharacterRef]:
    return [n for n in _walk(clause) if isinstance(n, A.CharacterRef)]
