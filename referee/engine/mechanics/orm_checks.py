"""ORM's opposed checks and its damage (variant-orm.md, ``hit: opposed_nd6``
and ``damage: power_plus_dice``).

One action check per use (R-ORM-CHK-3: 「アクション側は一回だけ達成値を算出」)
is rolled by :meth:`OpposedNd6.declare`; each target then reacts in
:meth:`OpposedNd6.check`, and the use hits it iff the action value is higher
or the reaction fumbled (the reaction wins ties).  Support (R-ORM-SUP-1) adds
to both.  :class:`PowerPlusDice` turns a hit into power + 2D6 (+10 on a
critical action check) - the target's element defence (R-ORM-DMG-1), and a
heal into heal + 2D6 (R-ORM-DMG-2).

Both are stateless; what one use remembers (its action check, whether it is a
follow-up) lives on ``Fighter.mechanic_state`` as an :class:`OrmFighter`.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.catalog import Skill
from referee.elements import Element
from referee.engine import events as E
from referee.engine.core import Resolution
from referee.engine.mechanics.orm import CriticalRule, Nd6Check, roll_nd6_check
from referee.engine.mechanics.protocols import HIT, Check, Outcome
from referee.engine.mechanics.tcgt import NoArmour, QuietHitHooks
from referee.engine.state import Fighter
from referee.engine.uses import Use
from referee.mechanicspec import OpposedNd6Spec, PowerPlusDiceSpec, SimpleMainSpec

__all__ = ["NORMAL_ATTACK_ID", "OrmFighter", "orm_of", "supporter_of", "OpposedNd6", "PowerPlusDice"]

#: R-ORM-ACT-5: the innate normal attack's skill id (通常攻撃).
NORMAL_ATTACK_ID = "normal-attack"

_MISS = Check(Outcome.MISS)


@dataclass(slots=True)
class OrmFighter:
    """What the orm mechanics remember of one character during a battle."""

    #: The action check of the use under way (R-ORM-CHK-3).
    action: Nd6Check | None = None
    #: ``skill`` or ``follow_up``: the cause a damage roll of this use names.
    cause: str = "skill"


def orm_of(f: Fighter) -> OrmFighter:
    """``f``'s orm memory, made on first use."""
    state = f.mechanic_state
    if not isinstance(state, OrmFighter):
        state = f.mechanic_state = OrmFighter()
    return state


def supporter_of(ctx: Resolution, roller: Fighter) -> Fighter | None:
    """R-ORM-SUP-1: the first ally in roster order standing in ``roller``'s
    area that has not acted this turn (「行動済みではないことが援護をする条件」)."""
    square, team = roller.square, roller.team
    for g in ctx.state.fighters:
        if g is not roller and g.team == team and not g.down and not g.acted and g.square == square:
            return g
    return None


def _normal_attack_check(ctx: Resolution) -> str:
    action = ctx.ruleset.mechanics.action
    return action.normal_attack.check if isinstance(action, SimpleMainSpec) else "body"


@dataclass(frozen=True, slots=True)
class OpposedNd6(QuietHitHooks):
    """R-ORM-CHK-1..3 with R-ORM-ABIL-1 and R-ORM-SUP-1."""

    spec: OpposedNd6Spec

    def _roll(self, ctx: Resolution, roller: Fighter, ability: str, role: str, skill: str,
              against: Fighter | None) -> Nd6Check:
        """R-ORM-CHK-1: one check on ``checks``, support added, its event emitted."""
        helper = supporter_of(ctx, roller)
        support = self.spec.support_bonus if helper is not None else 0
        value = roller.abilities.get(ability, 0)
        check = roll_nd6_check(ctx.rng, value, self.spec.dice_by_ability, support=support,
                               critical=CriticalRule(self.spec.critical_sixes, self.spec.critical_bonus))
        ctx.emit(E.Nd6Check(turn=ctx.turn, actor=roller.name, role=role, skill=skill,
                            against=against.name if against is not None else None, ability=ability,
                            ability_value=value, dice=check.dice, support=support,
                            supporter=helper.name if helper is not None else None,
                            critical=check.critical, fumble=check.fumble, value=check.value))
        return check

    def declare(self, ctx: Resolution, use: Use) -> Check:
        """R-ORM-CHK-2/3: the user's one action check for the whole use, with
        the skill's ability (剣 in its cost: reflex; else intellect; the
        normal attack: its own).  A fumble ends the use: no target is reached."""
        skill = use.skill
        if skill.id == NORMAL_ATTACK_ID:
            ability = _normal_attack_check(ctx)
        else:
            ability = "reflex" if Element.SWORD in skill.cost else "intellect"
        check = self._roll(ctx, use.user, ability, "action", skill.id, None)
        orm_of(use.user).action = check
        if not check.fumble:
            return HIT
        for t in use.targets:
            ctx.emit(E.OpposedResult(turn=ctx.turn, actor=use.user.name, target=t.name, skill=skill.id,
                                     action_value=check.value, reaction_value=None, hit=False,
                                     reason="action_fumble"))
        return _MISS

    def check(self, ctx: Resolution, use: Use, target: Fighter) -> Check:
        """R-ORM-CHK-2/3: the target reacts with reflex against sword damage,
        intellect against anything else; the reaction wins ties."""
        user, skill = use.user, use.skill
        action = orm_of(user).action
        assert action is not None, "declare rolls the action check first"
        ability = "reflex" if skill.element is Element.SWORD and skill.damage > 0 else "intellect"
        reaction = self._roll(ctx, target, ability, "reaction", skill.id, user)
        return self._oppose(ctx, user, target, skill.id, action, reaction)

    def _oppose(self, ctx: Resolution, actor: Fighter, target: Fighter, skill: str, action: Nd6Check,
                reaction: Nd6Check) -> Check:
        """R-ORM-CHK-3: a hit iff the action value is higher or the reaction
        fumbled (「同値の場合は…リアクション側が勝利」)."""
        if reaction.fumble:
            hit, reason = True, "reaction_fumble"
        elif action.value > reaction.value:
            hit, reason = True, "higher"
        else:
            hit, reason = False, "tie" if action.value == reaction.value else "lower"
        ctx.emit(E.OpposedResult(turn=ctx.turn, actor=actor.name, target=target.name, skill=skill,
                                 action_value=action.value, reaction_value=reaction.value, hit=hit, reason=reason))
        return HIT if hit else _MISS

    def counter_check(self, ctx: Resolution, owner: Fighter, skill: Skill, attacker: Fighter,
                      element: Element) -> Check:
        """R-ORM-CHK-4: "A counter hit in range ... is its own opposed check.
        The owner acts, with the counter skill's ability, and the attacker
        reacts"; an action fumble misses."""
        ability = "reflex" if Element.SWORD in skill.cost else "intellect"
        action = self._roll(ctx, owner, ability, "action", skill.id, None)
        orm_of(owner).action = action
        if action.fumble:
            ctx.emit(E.OpposedResult(turn=ctx.turn, actor=owner.name, target=attacker.name, skill=skill.id,
                                     action_value=action.value, reaction_value=None, hit=False,
                                     reason="action_fumble"))
            return _MISS
        react = "reflex" if element is Element.SWORD else "intellect"
        reaction = self._roll(ctx, attacker, react, "reaction", skill.id, owner)
        return self._oppose(ctx, owner, attacker, skill.id, action, reaction)


@dataclass(frozen=True, slots=True)
class PowerPlusDice(NoArmour):
    """R-ORM-DMG-1/2: power + dice (+ critical bonus) - element defence; heal + dice."""

    spec: PowerPlusDiceSpec

    def _dice(self, ctx: Resolution, count: int) -> tuple[int, ...]:
        return tuple(ctx.rng.die("damage", self.spec.sides) for _ in range(count))

    def damage(self, ctx: Resolution, use: Use, target: Fighter, check: Check) -> int:
        """max(0, power + 2d6 + 10 if the action check was critical - the
        target's defence for the damage element); a hit without damage
        rolls nothing (「武器の攻撃力+2D6」「[ダメージ]-[その属性の防御力]」)."""
        skill, user = use.skill, use.user
        if skill.damage <= 0:
            return 0
        memory = orm_of(user)
        dice = self._dice(ctx, self.spec.dice)
        bonus = self.spec.critical_bonus if memory.action is not None and memory.action.critical else 0
        defence = target.defence.get(skill.element.value, 0)
        total = max(0, skill.damage + sum(dice) + bonus - defence)
        ctx.emit(E.DamageRoll(turn=ctx.turn, actor=user.name, target=target.name, skill=skill.id,
                              cause=memory.cause, element=skill.element.value, power=skill.damage, dice=dice,
                              critical_bonus=bonus, defence=defence, total=total))
        return total

    def counter_damage(self, ctx: Resolution, owner: Fighter, skill: Skill, victim: Fighter, amount: int,
                       element: Element, check: Check) -> int:
        """R-ORM-CHK-4 / R-ORM-DMG-1: the counter's damage as power, + dice
        (+ the critical bonus of the owner's counter check) - element defence."""
        memory = orm_of(owner)
        dice = self._dice(ctx, self.spec.dice)
        bonus = self.spec.critical_bonus if memory.action is not None and memory.action.critical else 0
        defence = victim.defence.get(element.value, 0)
        total = max(0, amount + sum(dice) + bonus - defence)
        ctx.emit(E.DamageRoll(turn=ctx.turn, actor=owner.name, target=victim.name, skill=skill.id, cause="counter",
                              element=element.value, power=amount, dice=dice, critical_bonus=bonus, defence=defence,
                              total=total))
        return total

    def heal(self, ctx: Resolution, use: Use, target: Fighter) -> int:
        """R-ORM-DMG-2: heal + 2d6, rolled even when capped."""
        dice = self._dice(ctx, self.spec.heal_dice)
        total = use.skill.heal + sum(dice)
        ctx.emit(E.HealRoll(turn=ctx.turn, actor=use.user.name, target=target.name, skill=use.skill.id,
                            base=use.skill.heal, dice=dice, total=total))
        return total
