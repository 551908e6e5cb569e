"""One character's action (R-TURN-2): pattern, panels, skill walk,
maintenance; movement and the status countdown are called from here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.catalog import Skill
from referee.engine import events as E
from referee.engine.conditions import CondContext, targets_where
from referee.engine.core import Resolution, release, release_all
from referee.engine.movement import move_step
from referee.engine.panels import mark_used, plan_payment
from referee.engine.planquery import gate_blocking, release_clause
from referee.engine.responses import resolve_target
from referee.engine.clauses import Condition, UseOnly
from referee.engine.state import Fighter
from referee.engine.statuses import tick
from referee.engine.targeting import candidates
from referee.engine.uses import Use
from referee.engine.mechanics.protocols import Outcome

#: A hook that may turn an active use into a cast resolved later
#: (R-WIZ-CAST-1): called with (resolution, user, entry, skill, candidates,
#: base panels) once the use is known to be possible; True when it cast.
CastHook = Callable[[Resolution, Fighter, int, Skill, list[Fighter], tuple[int, ...]], bool]

#: An action shape's own use of a walk entry before its targets are sought
#: (R-SOUL-TERR-2's object attack): given the resolution, the user, the entry
#: and its base panels, returns True when it used the entry itself.
EntryHook = Callable[[Resolution, Fighter, int, Skill, tuple[int, ...]], bool]


#: One entry the walk passes over: its entry, reason, the deciding clause's
#: line and the rule (``skill_passed``'s arguments).
Passed = tuple[int, str, int | None, str]

#: A judged walk's findings (:attr:`WalkPolicy.judged`): the entries passed
#: over, in the walk's order, then the entry used, its candidates (empty
#: for a maintain start) and the panels paying it (R-PAN-3).
Judged = tuple[list[Passed], int, list[Fighter], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class WalkPolicy:
    """What an action shape asks of the skill walk (R-PLAN-3) beyond tcgt's
    "try every entry once, top to bottom" -- one object rather than a keyword
    per variant, so an action shape states its walk as data.

    :param max_uses: stop after that many uses or maintain starts
        (R-D20-TURN-2: one action a turn; R-ORM-ACT-4's main phase); None: no limit.
    :param skip_maintain: maintain entries are not this walk's (R-ORM-ACT-4).
    :param spent: once the uses are spent, the later entries are passed with
        this reason rather than left unsaid (R-ORM-ACT-4, ``main_used``).
    :param main_use: after the first active use classed attack, heal,
        obstruct or change, later non-maintain entries are passed
        (``main_used``, R-WIZ-ACT-1).
    :param offensive_uses: after that many offensive uses, later offensive
        entries are passed as ``offensive_limit`` (R-SOUL-ACT-2).
    :param cast: may make a use a delayed cast (R-WIZ-CAST-1).
    :param entry_hook: may use an offensive entry itself (R-SOUL-TERR-2).
    :param judged: what a judge of this walk found on the state the walk
        starts from (d20pool's judged walk, R-D20-TURN-1/2; :data:`Judged`):
        the walk writes those passes and uses that entry without asking
        again.  Only with ``max_uses=1`` and no other field set.
    """

    max_uses: int | None = None
    skip_maintain: bool = False
    spent: str | None = None
    main_use: bool = False
    offensive_uses: int | None = None
    cast: CastHook | None = None
    entry_hook: EntryHook | None = None
    judged: Judged | None = None


#: tcgt's walk (R-PLAN-3): every entry once, no limit.
EVERY_ENTRY = WalkPolicy()


def act(b: Resolution, f: Fighter, policy: WalkPolicy = EVERY_ENTRY) -> None:
    """Resolve ``f``'s whole action (R-TURN-2..5): pattern and panels, the
    walk under ``policy``, maintenance, one move, the statuses' tick
    (Gase-Wiz's action is this one with one main use and delayed casts,
    R-WIZ-ACT-1, R-WIZ-CAST-1).
    :raises BattleOver: via the end rule."""
    begin_action(b, f)
    b.mechanics.hit.start_action(b, f)
    aim_line = b.mechanics.hit.aiming(b, f)  # R-WIZ-AIM-1: aiming skips the walk and the move
    attacked = walk(b, f, policy) if aim_line is None else False
    if not f.down:
        maintenance(b, f)
    if not f.down:
        if aim_line is None:
            move_step(b, f, attacked)
        else:
            b.emit(E.Stayed(turn=b.turn, actor=f.name, square=f.square, reason="aiming", line=aim_line,
                            rule="R-WIZ-AIM-1"))
    f.acted = True
    if not f.down:
        tick(b, f)
    b.emit(E.ActionEnd(turn=b.turn, actor=f.name))


def begin_action(b: Resolution, f: Fighter) -> None:
    """The start of every action shape: ``action_start``, the end of the
    sinkings ``f`` made (R-ST-SINK), then R-PAT-3 and R-PAN-2."""
    st = b.state
    b.emit(E.ActionStart(turn=b.turn, actor=f.name, square=f.square, hp=f.hp))
    for sink in [s for s in st.sinks if s.owner == f.name]:  # R-ST-SINK
        st.sinks.remove(sink)
        b.emit(E.SinkEnded(turn=b.turn, actor=f.name, square=sink.square, cause="owner_action"))
    select_pattern(b, f)


def select_pattern(b: Resolution, f: Fighter) -> None:
    """R-PAT-3 then R-PAN-2."""
    ctx = CondContext(b.state, f)
    order = [i for i, p in enumerate(f.patterns) if p.when is not None] + \
            [i for i, p in enumerate(f.patterns) if p.when is None]
    choice, reason = None, ""
    for i in order:
        cond = f.patterns[i].when
        if cond is None or cond(ctx):
            choice, reason = i, ("default" if cond is None else "condition")
            break
    if choice is None:
        choice, reason = (0, "first") if f.active is None else (f.active, "kept")
    switched = f.active is not None and choice != f.active
    if switched:
        for entry in sorted(f.maintained):
            b.emit(E.MaintainReleased(turn=b.turn, actor=f.name, skill=f.skills[entry].id, entry=entry,
                                      cause="pattern_switch", rule="R-PAT-3"))
        release_all(f)
    f.active = choice
    b.emit(E.PatternSelected(turn=b.turn, actor=f.name, pattern=choice, elements=f.patterns[choice].text,
                             reason=reason, switched=switched))
    kept = []
    for i, p in enumerate(f.panels[choice]):
        if p.assigned is None:
            p.used = False
        else:
            kept.append(i)
    b.emit(E.PanelsReset(turn=b.turn, actor=f.name, kept=tuple(kept)))


def walk_order(b: Resolution, f: Fighter) -> tuple[list[int], list[int], dict[str, list[tuple[Condition, bool]]]]:
    """R-PLAN-5: the entry order for this action, the moving clauses' lines and
    per-skill target filters from clauses whose condition spoke of ``target``."""
    st = b.state
    moved: list[int] = []
    lines: list[int] = []
    filters: dict[str, list[tuple[Condition, bool]]] = {}
    for c in f.plan.use_first:
        if not f.clause_active(c.line):
            continue
        entries = [i for i, s in enumerate(f.skills) if s.id == c.skill and i not in moved]
        if not entries:
            continue
        skill = f.skills[entries[0]]
        if c.targets_condition:
            pool = candidates(b, f, skill, ()).pool
            holds = bool(targets_where(c.when, st, f, skill, pool, first=True))
            if holds:
                filters.setdefault(c.skill, []).append((c.when, True))
        else:
            holds = c.when(CondContext(st, f, skill))
        if holds:
            moved += entries
            lines.append(c.line)
    for g in f.plan.gates:
        if g.targets_condition and f.clause_active(g.line):
            keep = isinstance(g, UseOnly)  # use X only when: keep those satisfying
            filters.setdefault(g.skill, []).append((g.when, keep))
    order = moved + [i for i in range(len(f.skills)) if i not in moved]
    return order, lines, filters


def is_offensive(skill: Skill) -> bool:
    """R-SOUL-ACT-2: an active, non-maintain skill used on enemies."""
    return not (skill.is_passive or skill.is_maintain or skill.targets_allies)


def walk(b: Resolution, f: Fighter, policy: WalkPolicy = EVERY_ENTRY, *,
         prepared: tuple[list[int], list[int], dict[str, list[tuple[Condition, bool]]]] | None = None) -> bool:
    """R-PLAN-3: try each entry once, top to bottom, as ``policy`` limits it
    (:class:`WalkPolicy`; an ``offensive_limit`` pass comes before any other
    reason but ``passive``, and the walk goes on).  Returns whether ``f``
    attacked (R-MOVE-3).  ``prepared``: :func:`walk_order`'s result, when the
    caller has just computed it on the same state (it draws nothing, so it is
    reused)."""
    order, lines, filters = walk_order(b, f) if prepared is None else prepared
    if policy.judged is not None:
        return _walk_judged(b, f, order, lines, policy.judged)
    max_uses, spent, main_use, cast = policy.max_uses, policy.spent, policy.main_use, policy.cast
    offensive_uses, entry_hook = policy.offensive_uses, policy.entry_hook
    if policy.skip_maintain:
        order = [i for i in order if not (f.skills[i].is_maintain and not f.skills[i].is_passive)]
    skill_order(b, f, order, lines)
    frozen = f.freeze > 0
    attacked = False
    main_done = False
    for entry in order:
        if f.down or f.hp <= 0:
            break
        skill = f.skills[entry]
        if main_done and not skill.is_maintain:
            skill_passed(b, f, entry, "main_used", rule="R-WIZ-ACT-1")
            continue
        if skill.is_passive:
            skill_passed(b, f, entry, "passive", rule="R-SK-2")
            continue
        if offensive_uses is not None and offensive_uses <= 0 and is_offensive(skill):
            skill_passed(b, f, entry, "offensive_limit", rule="R-SOUL-ACT-2")
            continue
        barred = entry_barred(b, f, entry, skill, frozen)
        if barred is not None:
            skill_passed(b, f, entry, *barred)
            continue
        base = plan_payment(f.active_panels(), skill.cost)
        if base is None:
            skill_passed(b, f, entry, "cost_unpayable", rule="R-PAN-3")
            continue
        if skill.is_maintain:
            start_maintain(b, f, entry, skill, base)
            if max_uses is not None:
                max_uses -= 1
                if max_uses <= 0:
                    _pass_rest(b, f, order, entry, spent)
                    break
            continue
        if entry_hook is not None and entry_hook(b, f, entry, skill, base):
            attacked = True
            if offensive_uses is not None:
                offensive_uses -= 1
            b.check_end()
            continue
        cands = candidates(b, f, skill, filters.get(skill.id, ()))
        if not cands.pool:
            skill_passed(b, f, entry, cands.reason, rule="R-PLAN-1" if cands.reason == "heal_guard" else "R-RANGE-2")
            continue
        if cast is not None and cast(b, f, entry, skill, cands.pool, base):
            pass  # R-WIZ-CAST-1: cast now, resolved later in the turn
        else:
            area = b.mechanics.area
            choice = area.choose(b, f, skill, cands.pool, base)
            area.announce(b, f, skill, cands.pool, choice)
            use_skill(b, f, entry, skill, choice.targets, choice.panels)
        if not skill.targets_allies:
            attacked = True
            if offensive_uses is not None:
                offensive_uses -= 1
        b.check_end()
        if main_use and (skill.is_attack or skill.is_heal or skill.is_obstruct or skill.is_change):
            main_done = True
        if max_uses is not None:
            max_uses -= 1
            if max_uses <= 0:
                _pass_rest(b, f, order, entry, spent)
                break
    return attacked


def _walk_judged(b: Resolution, f: Fighter, order: list[int], lines: list[int], judged: Judged) -> bool:
    """The walk of one use (R-PLAN-3, R-D20-TURN-2) whose tests a judge made
    on this same state: its order and passes, then the judged entry's use or
    maintain start; the events and draws of the walk that asks them again."""
    passes, entry, pool, base = judged
    write_walk_start(b, f, order, lines, passes)
    skill = f.skills[entry]
    if skill.is_maintain:
        start_maintain(b, f, entry, skill, base)
        return False
    area = b.mechanics.area
    choice = area.choose(b, f, skill, pool, base)
    area.announce(b, f, skill, pool, choice)
    use_skill(b, f, entry, skill, choice.targets, choice.panels)
    b.check_end()
    return not skill.targets_allies


def write_walk_start(b: Resolution, f: Fighter, order: list[int], lines: list[int], passes: list[Passed]) -> None:
    """The decision events a walk writes before its first use (R-PLAN-3):
    its order, then each entry it passed over, as :func:`skill_passed`
    writes them -- from a judge's findings on the same state (d20pool's
    judged walk, R-D20-TURN-1/2)."""
    skill_order(b, f, order, lines)
    for entry, reason, line, rule in passes:
        skill_passed(b, f, entry, reason, line, rule)


def _pass_rest(b: Resolution, f: Fighter, order: list[int], entry: int, reason: str | None) -> None:
    """The entries after ``entry`` once the walk's uses are spent, each
    passed with ``reason`` and no other test (R-ORM-ACT-4); None: unsaid."""
    if reason is None:
        return
    for later in order[order.index(entry) + 1:]:
        skill_passed(b, f, later, reason, None, "R-ORM-ACT-4")


#: Why the walk passes an entry over: (reason, the deciding clause's line, rule).
Barred = tuple[str, int | None, str]


def entry_barred(b: Resolution, f: Fighter, entry: int, skill: Skill, frozen: bool) -> Barred | None:
    """R-PLAN-3's tests of an active entry that need neither panels nor
    targets, in the walk's order: bound (R-ST-BIND), frozen (R-ST-FREEZE), a
    maintain already held (R-SK-2), a gate (R-PLAN-5), a maintain held back
    by a release clause (R-TURN-4); None: none bars it.  One place for the
    walk, d20pool's judged walk and orm's maintain phase.  ``frozen``: as
    the caller found it (the walk, at its start)."""
    if f.entry_bound(entry):
        return "bound", None, "R-ST-BIND"
    if frozen:
        return "frozen", None, "R-ST-FREEZE"
    if skill.is_maintain and f.is_maintaining(skill.id):
        return "already_maintained", None, "R-SK-2"
    gate = gate_blocking(b.state, f, skill, ignore_target_conditions=True)
    if gate is not None:
        return "condition_false", gate.line, "R-PLAN-5"
    if skill.is_maintain:
        held = release_clause(b.state, f, skill)
        if held is not None:
            return "held_back", held.line, "R-TURN-4"
    return None


def skill_order(b: Resolution, f: Fighter, order: list[int], lines: list[int]) -> None:
    """R-PLAN-5's ``skill_order``: the walk's entries in order and the lines
    of the ``use X first`` clauses that moved them; a decision event."""
    b.emit(E.SkillOrder(turn=b.turn, actor=f.name, entries=tuple(order), skills=tuple([f.skills[i].id for i in order]),
                        moved_by=tuple(lines)))


def skill_passed(b: Resolution, f: Fighter, entry: int, reason: str, line: int | None = None,
                 rule: str = "R-PLAN-3") -> None:
    """R-PLAN-3's ``skill_passed`` for ``f``'s ``entry`` (an unpayable one
    names its cost in kanji); a decision event."""
    skill = f.skills[entry]
    b.emit(E.SkillPassed(turn=b.turn, actor=f.name, skill=skill.id, entry=entry, reason=reason, line=line,
                         detail=skill.cost_kanji if reason == "cost_unpayable" else "", rule=rule))


def start_maintain(b: Resolution, f: Fighter, entry: int, skill: Skill, panels: tuple[int, ...]) -> None:
    """R-SK-2: started actively; its panels stay assigned (R-PAN-2)."""
    poisoned = mark_used(f, panels)
    for i in panels:
        f.active_panels()[i].assigned = entry
    f.maintained[entry] = panels
    b.emit(E.MaintainStarted(turn=b.turn, actor=f.name, skill=skill.id, entry=entry, panels=panels))
    for _ in range(poisoned):
        b.lose_hp(f, 1, "poison", actor=f.name, skill=skill.id, rule="R-ST-POISON")
    b.settle_downs("poison")
    b.check_end()


def use_skill(b: Resolution, f: Fighter, entry: int, skill: Skill, targets: list[Fighter],
              panels: tuple[int, ...], *, paid: bool = False) -> None:
    """Pay, declare, then resolve every target in order (R-TURN-3, R-EXT-6).
    ``paid``: the panels were paid already (a cast resolving, R-WIZ-CAST-1)."""
    poisoned = 0 if paid else mark_used(f, panels)
    names = tuple([t.name for t in targets])
    b.emit(E.SkillUsed(turn=b.turn, actor=f.name, skill=skill.id, entry=entry, targets=names, panels=panels,
                       square=f.square))
    for _ in range(poisoned):
        b.lose_hp(f, 1, "poison", actor=f.name, skill=skill.id, rule="R-ST-POISON")
    use = Use(f, skill, entry, tuple(targets))
    if not skill.targets_allies and b.mechanics.hit.declare(b, use).outcome is Outcome.MISS:
        return  # R-SOUL-HIT-1: a failed attack check reaches no target
    for t in targets:
        resolve_target(b, use, t)
        b.settle_downs("hit")


def maintenance(b: Resolution, f: Fighter) -> None:
    """R-TURN-4: keep or release each maintained skill; poison on assigned panels."""
    if not f.maintained:
        return
    st = b.state
    for entry in sorted(f.maintained):
        skill = f.skills[entry]
        released_by = release_clause(st, f, skill)
        if released_by is not None:
            b.emit(E.MaintainReleased(turn=b.turn, actor=f.name, skill=skill.id, entry=entry,
                                      cause="clause", line=released_by.line))
            release(f, entry)
            continue
        panels = f.active_panels()
        for i in f.maintained[entry]:
            if panels[i].poisoned:
                b.lose_hp(f, 1, "poison", actor=f.name, skill=skill.id, rule="R-TURN-4")
    b.settle_downs("poison")
    b.check_end()
