"""A use's effect on one target, in the order of R-TURN-3.

(1) readied obstruct passives that apply cancel the use against their owner;
(2) defences reduce (a defence that is also a counter pays once, here);
(3) damage and effects apply, Aqua Form heals; (4) knockback; (5) counters,
in skill-list order, each only against the attacker and within its range.
Counter damage is a hit for the attacker's defences but never triggers a
counter or an obstruct (R-SK-1a).  Behaviour comes from the catalogue's
fields; effect kinds dispatch through :data:`referee.engine.hooks.EFFECTS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.catalog import Reaction, Skill
from referee.elements import Element
from referee.engine import events as E
from referee.engine.core import Resolution
from referee.engine.draws import draw_chance
from referee.engine.hooks import EFFECTS
from referee.engine.mechanics.protocols import HIT, Check, Outcome
from referee.engine.panels import mark_used, plan_payment
from referee.engine.planquery import gate_blocking, has_flag, is_stacked
from referee.engine.clauses import PlanFlag
from referee.engine.state import Fighter, Sink
from referee.engine.uses import Use


@dataclass(slots=True)
class Fired:
    """A reaction that fired on one hit, and whether it paid."""

    owner: Fighter
    entry: int
    skill: Skill
    reaction: Reaction
    paid: bool
    maintained: bool


@dataclass(slots=True)
class HitRecord:
    paid_entries: set[int] = field(default_factory=set)
    fired: list[Fired] = field(default_factory=list)


def pay_passive(b: Resolution, owner: Fighter, skill: Skill) -> tuple[int, ...] | None:
    """Pay a passive's cost from the unused panels (R-PAN-4); poison hurts."""
    if owner.active is None:
        return None
    panels = plan_payment(owner.active_panels(), skill.cost)
    if panels is None:
        return None
    poisoned = mark_used(owner, panels)
    for _ in range(poisoned):
        b.lose_hp(owner, 1, "poison", actor=owner.name, skill=skill.id, rule="R-ST-POISON")
    return panels


def _answers(b: Resolution, owner: Fighter, other: Fighter) -> bool:
    """R-PLAN-2: obstructs and counters answer enemies, or allies on order."""
    return other.team != owner.team or has_flag(b.state, owner, PlanFlag.COUNTER_ALLIES)


def _reaction_entries(owner: Fighter, trigger: str) -> list[tuple[int, Skill, Reaction]]:
    """``owner``'s entries reacting to ``trigger``, in skill-list order, less
    those under Bind (R-ST-BIND)."""
    return [(i, s, s.reaction) for i, s in enumerate(owner.skills)
            if s.reaction is not None and s.reaction.trigger == trigger and not owner.entry_bound(i)]


# ----------------------------------------------------------------- (1) obstruct


def obstruct(b: Resolution, use: Use, target: Fighter) -> bool:
    """R-TURN-3 (1): a readied obstruct passive of ``target`` cancels the use
    against it.  Returns True when cancelled."""
    user = use.user
    for i, s, r in _reaction_entries(target, "skill_used_on_owner"):
        if not r.cancel and not r.sink_area:
            continue
        if not b.state.metric.in_range(target.square, user.square, s.range) or not _answers(b, target, user):
            continue
        if target.plan.gates and gate_blocking(b.state, target, s, user) is not None:  # (no gate: no call)
            continue
        panels = pay_passive(b, target, s)
        if panels is None:
            continue
        b.emit(E.Obstructed(turn=b.turn, actor=target.name, skill=s.id, by=user.name, against_skill=use.skill.id,
                            panels=panels))
        # R-ST-SINK: sunk "until ... the user is down, whichever comes first": a
        # user already down (felled earlier in this use, R-CHAR-2a) sinks nothing.
        if r.sink_area and not user.down:
            b.state.sinks.append(Sink(user.square, user.name, target.name))
            b.emit(E.SinkStarted(turn=b.turn, actor=target.name, skill=s.id, square=user.square))
        return r.cancel
    return False


# ----------------------------------------------------------------- (2) defences


def defend(b: Resolution, owner: Fighter, attacker: Fighter, element: Element | None, rec: HitRecord) -> int:
    """R-TURN-3 (2), R-SK-1a: every different applicable defence fires once
    (stacked: every usable entry), in skill-list order; readied ones pay,
    maintained ones apply free.  Returns the total reduction."""
    total = 0
    seen: set[str] = set()
    for i, s, r in _reaction_entries(owner, "hit"):
        if not s.is_defence or not r.applies_to(element):
            continue
        if s.id in seen and not is_stacked(b.state, owner, s):
            continue
        if owner.plan.gates and gate_blocking(b.state, owner, s, attacker) is not None:  # (no gate: no call)
            continue
        maintained = i in owner.maintained or (r.becomes_maintained and owner.is_maintaining(s.id))
        if r.active_when == "maintained" and i not in owner.maintained:
            continue
        panels: tuple[int, ...] = ()
        if not maintained:
            paid = pay_passive(b, owner, s)
            if paid is None:
                continue
            panels = paid
            rec.paid_entries.add(i)
            if r.becomes_maintained:
                for p in panels:
                    owner.active_panels()[p].assigned = i
                owner.maintained[i] = panels
                b.emit(E.MaintainStarted(turn=b.turn, actor=owner.name, skill=s.id, entry=i, panels=panels))
        seen.add(s.id)
        total += r.reduce
        rec.fired.append(Fired(owner, i, s, r, bool(panels), maintained))
        b.emit(E.Reaction(turn=b.turn, actor=owner.name, skill=s.id, entry=i, kind="defence",
                          attacker=attacker.name, panels=panels, reduce=r.reduce, maintained=maintained))
    return total


# ----------------------------------------------------------------- (4) knockback


def push(b: Resolution, victim: Fighter, away_from: Fighter, actor: str, skill: str, rule: str) -> None:
    """R-KNOCK-1..4: one area directly away; range 0: a drawn direction;
    off the field: stay and take 1 typeless wall damage."""
    direction = b.mechanics.movement.push_direction(b, away_from.square, victim.square)
    kb = b.state.graph.knockback(away_from.square, victim.square, direction)
    start = victim.square
    dest, wall = kb.dest, kb.hit_wall
    if not wall and not b.mechanics.movement.may_stop(b.state, victim, dest):
        dest, wall = start, True  # R-ORM-MOVE-2: a full area of its side is a wall
    b.state.move(victim, dest)
    b.emit(E.Knockback(turn=b.turn, target=victim.name, from_square=start, to_square=dest, direction=direction.name,
                       wall=wall, actor=actor, skill=skill, rule=rule))
    if dest != start:
        b.mechanics.hit.relocated(b, victim, "pushed")  # R-WIZ-AIM-1: aim ends when it is pushed
    if wall:
        b.lose_hp(victim, 1, "wall", actor=actor, skill=skill, rule="R-KNOCK-3")


def owner_knockbacks(b: Resolution, rec: HitRecord, owner: Fighter, attacker: Fighter) -> None:
    """Aqua Form's own knockback: drawn after the hit's own chances (R-RNG-1)."""
    for fired in rec.fired:
        kb = fired.reaction.knockback_owner
        if kb is None or owner.down:
            continue
        if draw_chance(b, owner.name, fired.skill.id, owner.name, "knockback", kb.chance):
            push(b, owner, attacker, owner.name, fired.skill.id, "R-KNOCK-1")


def owner_heals(b: Resolution, rec: HitRecord, owner: Fighter) -> None:
    for fired in rec.fired:
        if fired.reaction.heal_owner > 0:
            b.gain_hp(owner, fired.reaction.heal_owner, owner.name, fired.skill.id, cause="defence")


# ----------------------------------------------------------------- (5) counters


def counters(b: Resolution, owner: Fighter, attacker: Fighter, element: Element | None, printed: int,
             rec: HitRecord) -> None:
    """R-TURN-3 (5): each counter of ``owner``, in skill-list order, against
    ``attacker`` only, hit by hit, each checking range (R-RANGE-3, R-KNOCK-5)."""
    if not _answers(b, owner, attacker):
        return
    seen: set[str] = set()
    for i, s, r in _reaction_entries(owner, "hit"):
        if r.counter is None or not r.applies_to(element):
            continue
        if s.id in seen and not is_stacked(b.state, owner, s):
            continue
        if owner.plan.gates and gate_blocking(b.state, owner, s, attacker) is not None:  # (no gate: no call)
            continue
        maintained = i in owner.maintained
        if r.active_when == "maintained" and not maintained:
            continue
        panels: tuple[int, ...] = ()
        if not maintained and i not in rec.paid_entries:
            if any(f.entry == i for f in rec.fired):
                pass  # a defence that is also a counter paid once, at step 2
            else:
                paid = pay_passive(b, owner, s)
                if paid is None:
                    continue
                panels = paid
        seen.add(s.id)
        b.emit(E.Reaction(turn=b.turn, actor=owner.name, skill=s.id, entry=i, kind="counter",
                          attacker=attacker.name, panels=panels, maintained=maintained))
        amount = r.counter.damage_against(printed)
        for _ in range(r.counter.hits):
            if attacker.down or attacker.hp <= 0:
                b.emit(E.CounterMissed(turn=b.turn, actor=owner.name, skill=s.id, target=attacker.name,
                                       reason="attacker_down", rule="R-CHAR-2a"))
                break
            if not b.state.metric.in_range(owner.square, attacker.square, s.range):
                b.emit(E.CounterMissed(turn=b.turn, actor=owner.name, skill=s.id, target=attacker.name,
                                       reason="out_of_range"))
                continue
            check = b.mechanics.hit.counter_check(b, owner, s, attacker, r.counter.element)
            if check.outcome is Outcome.MISS:
                continue  # R-ORM-CHK-4: a counter hit that loses its check is untouched
            counter_hit(b, owner, s, attacker, amount, r.counter.element, check)


def counter_hit(b: Resolution, owner: Fighter, skill: Skill, victim: Fighter, amount: int,
                element: Element, check: Check = HIT) -> None:
    """One counter hit on ``victim``: its defences apply (and Aqua Form's heal
    and knockback), never its counters or obstructs (R-TURN-3, R-SK-1a); the
    ``damage`` mechanic sets its amount (tcgt: the counter's own)."""
    rec = HitRecord()
    reduce = defend(b, victim, owner, element, rec)
    reduce += b.mechanics.damage.armour(b, victim, element, skill.id)  # R-SOUL-DMG-1; tcgt 0
    amount = b.mechanics.damage.counter_damage(b, owner, skill, victim, amount, element, check)
    b.lose_hp(victim, amount - reduce, "counter", actor=owner.name, skill=skill.id,
              element=element.value, printed=amount, reduced=min(reduce, amount), rule="R-TURN-3")
    if rec.fired:
        owner_heals(b, rec, victim)
        owner_knockbacks(b, rec, victim, owner)


# ----------------------------------------------------------------- the sequence


def resolve_target(b: Resolution, use: Use, target: Fighter) -> None:
    """Everything one use does to one of its targets (R-TURN-3, R-TURN-3a):
    (1) obstructs; then for an attack the ``hit`` mechanic's check (tcgt:
    always hits, R-SK-1a) -- a miss ends the use against this target --, (2)
    defences and (3) the ``damage`` mechanic's amount less reductions; heals,
    effects, (4) knockbacks, (5) counters."""
    user, skill = use.user, use.skill
    if target.down:
        if skill.heal > 0 and b.state.revivable:
            revive(b, use, target)
        return
    if obstruct(b, use, target):
        return
    rec = HitRecord()
    hit = skill.is_attack
    element = skill.element
    mechanics = b.mechanics
    printed = 0
    # Every use on an enemy is checked (R-D20-HIT-1: Pressurize too); tcgt's
    # check always hits without a draw or an event (R-SK-1a).
    check = mechanics.hit.check(b, use, target) if not skill.targets_allies else None
    if check is not None and check.outcome is Outcome.MISS:
        return
    if hit:
        assert check is not None
        reduce = defend(b, target, user, element, rec)
        reduce += mechanics.damage.armour(b, target, element, skill.id)  # R-SOUL-DMG-1; tcgt 0
        # the amount after the defences: a rolled amount's event comes just
        # before the hit's ``damage`` (R-ORM-EV-1), as a counter hit's does
        printed = mechanics.damage.damage(b, use, target, check)
        dealt = b.lose_hp(target, printed - reduce, "skill", actor=user.name, skill=skill.id,
                          element=element.value, printed=printed,
                          reduced=min(reduce, printed), rule="R-TURN-3")
    else:
        dealt = 0
    if skill.heal > 0:
        b.gain_hp(target, mechanics.damage.heal(b, use, target), user.name, skill.id)
    for effect in skill.effects:
        EFFECTS[effect.kind](b, use, target, effect, dealt)
    fired = bool(rec.fired)  # only a defence fires into the record
    if fired:
        owner_heals(b, rec, target)
    # (4) knockback: the skill's own chance and direction, then Aqua Form's
    if skill.knockback is not None and not target.down:
        if draw_chance(b, user.name, skill.id, target.name, "knockback", skill.knockback.chance):
            push(b, target, user, user.name, skill.id, "R-KNOCK-1")
    if fired:
        owner_knockbacks(b, rec, target, user)
    # (5) counters
    if hit:  # Kusanagi counters the printed damage (R-D20-HIT-2: not the margin)
        counters(b, target, user, element, skill.damage, rec)


def revive(b: Resolution, use: Use, target: Fighter) -> None:
    """R-D20-KO-2: an ally's heal on a KO character: it heals (from 0, its
    loss is its max HP) and, at HP 1 or more, the KO ends on its return area
    (``revived``); it then acts this round if it had not begun a turn.  No
    obstruct answers it and its effects find no status (R-D20-KO-1 removed
    them all), so it is the heal alone."""
    b.gain_hp(target, b.mechanics.damage.heal(b, use, target), use.user.name, use.skill.id)
    if target.hp >= 1:
        b.state.set_down(target, False)
        target.felled_by = None
        b.emit(E.Revived(turn=b.turn, target=target.name, square=target.square, hp=target.hp, cause="heal",
                         rule="R-D20-KO-2"))
