"""soulwired's mechanics (``../shared/spec/variant-soulwired.md``): the
implementations ``referee/data/rulesets/soulwired.yaml`` will name.

Built so far: the ability initiative (R-SOUL-INIT-1), the d6-pool attack
check with evasion dice (R-SOUL-CHECK-*, R-SOUL-HIT-1..6) and the hard-mode
stall breaker (R-SOUL-HARD-*).  Like tcgt's, each is stateless; what a battle
remembers lives on ``BattleState``/``Fighter``.  Every die comes from the
``checks`` stream (R-SOUL-RNG-1), never from a tcgt stream.

Events read ``ctx.state.turn`` (what ``ctx.turn`` returns) directly: the
property costs a call per event, and a soulwired battle emits four times
tcgt's events (issue 12's speed goal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.catalog import Skill
from referee.engine import events as E
from referee.engine.clauses import EvadeClause
from referee.engine.conditions import CondContext
from referee.engine.core import Resolution
from referee.engine.mechanics.protocols import HIT, Check, Outcome
from referee.engine.mechanics.tcgt import QuietHitHooks, play_in_order
from referee.engine.state import Fighter
from referee.engine.uses import Use
from referee.mechanicspec import Ability, D6PoolSpec, Goal, HardModeSpec

__all__ = ["AbilityInitiative", "D6Pool", "HardMode", "HEAD_COUNT_GOAL", "roll_pool", "evasion_difficulty"]

MISS = Check(Outcome.MISS)


@dataclass(slots=True)
class SoulFighter:
    """What the soul action remembers of one character during its action
    (issue 12; on ``Fighter.mechanic_state``): its stance, movement points
    left, whether it has stepped (the minimum move, R-SOUL-MOVE-2) or
    attacked (R-SOUL-MOVE-4), and whether the last approach decision found
    only unaffordable first steps (R-SOUL-MOVE-3's ``no_points``)."""

    stance: str = "none"
    points_left: int = 0
    stepped: bool = False
    attacked: bool = False
    unaffordable: bool = False


def soul_of(f: Fighter) -> SoulFighter:
    """``f``'s soul memory, made on first use."""
    state = f.mechanic_state
    if not isinstance(state, SoulFighter):
        state = f.mechanic_state = SoulFighter()
    return state

#: ``end: {kind: head_count}``: "R-GOAL-1/2 unchanged" -- beaten at
#: floor(start x 1/3) standing, the head count and HP deciding at the limit.
HEAD_COUNT_GOAL = Goal(1, 3)


@dataclass(frozen=True, slots=True)
class AbilityInitiative:
    """R-SOUL-INIT-1: descending ``ability`` (reflex), the same order every
    turn.  Characters sharing a score roll one ``tie_die`` each in roster
    order; then, round by round, those whose rolls still equal another's of
    the same score roll once more, in roster order; rolls compare element by
    element, higher first.  Rolled once per battle (「ミッション終了まで維持」)."""

    ability: Ability = "reflex"
    tie_die: int = 100

    @property
    def each_turn(self) -> bool:
        return False

    def play_turn(self, ctx: Resolution, fixed: bool) -> None:
        play_in_order(self, ctx, fixed)

    def order(self, ctx: Resolution, fighters: Sequence[Fighter]) -> list[Fighter]:
        score = {f.name: f.abilities[self.ability] for f in fighters}
        rolls: dict[str, list[int]] = {f.name: [] for f in fighters}
        tied = [f for f in fighters if sum(1 for g in fighters if score[g.name] == score[f.name]) > 1]
        while tied:
            for f in tied:
                rolls[f.name].append(ctx.rng.die("initiative", self.tie_die))
            keys = [(score[f.name], tuple(rolls[f.name])) for f in fighters]
            tied = [f for f, key in zip(fighters, keys) if keys.count(key) > 1]
        ranked = sorted(fighters, key=lambda f: (-score[f.name], tuple(-r for r in rolls[f.name]), f.index))
        for f in ranked:
            ctx.emit(E.InitiativeRanked(turn=ctx.state.turn, actor=f.name, ability=self.ability,
                                        score=score[f.name], tie_rolls=tuple(rolls[f.name]),
                                        rule="R-SOUL-INIT-1"))
        return ranked


def roll_pool(ctx: Resolution, dice: int, difficulty: int) -> tuple[tuple[int, ...], int]:
    """R-SOUL-CHECK-1: one d6 per point, drawn die by die on ``checks``; a
    die showing ``difficulty`` or more is a success.  0 dice: no draw."""
    die = ctx.rng.die
    faces = tuple([die("checks", 6) for _ in range(dice)])
    return faces, sum([face >= difficulty for face in faces])


def evasion_difficulty(spec: D6PoolSpec, melee: bool, level: int) -> int:
    """R-SOUL-HIT-5 / R-SOUL-HARD-3: NORMAL, plus the hard-mode level against
    a melee use only, clamped to the ladder (R-SOUL-CHECK-2)."""
    return max(spec.min, min(spec.max, spec.normal + (level if melee else 0)))


@dataclass(frozen=True, slots=True)
class D6Pool(QuietHitHooks):
    """R-SOUL-HIT-1..6: one attack check per offensive use, then each target
    not obstructed may spend evasion dice; counters, walls and poison never
    reach a check (R-SOUL-HIT-6: they do not pass through the ``hit`` slot)."""

    spec: D6PoolSpec

    def full_dice(self, f: Fighter) -> int:
        """R-SOUL-HIT-2 [decision]: the highest of body, reflex, intellect,
        +``evasive_dice`` with garb ``evasive``, 0 with ``evasion_type: none``
        (R-SOUL-FILE-1)."""
        if f.evasion_type == "none":
            return 0
        return max(f.abilities.values()) + (self.spec.evasive_dice if f.garb == "evasive" else 0)

    def stance_steps(self, f: Fighter) -> tuple[dict[str, object], ...]:
        """R-SOUL-STANCE-1/2: focus one step easier, manoeuvre one harder."""
        state = f.mechanic_state
        stance = state.stance if isinstance(state, SoulFighter) else "none"
        if stance == "focus":
            return ({"cause": "focus", "steps": self.spec.focus},)
        if stance == "maneuver":
            return ({"cause": "maneuver", "steps": self.spec.maneuver},)
        return ()

    def clamp(self, difficulty: int) -> int:
        """R-SOUL-CHECK-2: the ladder's bounds (data)."""
        return max(self.spec.min, min(self.spec.max, difficulty))

    def attack_check(self, ctx: Resolution, user: Fighter, skill: Skill, targets: tuple[str, ...]) -> bool:
        """R-SOUL-HIT-1: the skill's ability at NORMAL moved by the stance;
        one ``d6_check``; whether it succeeded."""
        ability = self.attack_ability(skill)
        steps = self.stance_steps(user)
        moved = 0
        for s in steps:
            step = s["steps"]
            moved += step if isinstance(step, int) else int(str(step))
        difficulty = self.clamp(self.spec.normal + moved)
        faces, successes = roll_pool(ctx, user.abilities.get(ability, 0), difficulty)
        ctx.state.turn_attack_checked = True  # R-SOUL-HARD-1's fact, kept as the turn goes
        ctx.emit(E.D6Check(turn=ctx.state.turn, actor=user.name, check="attack", skill=skill.id, targets=targets,
                           ability=ability, dice=faces, difficulty=difficulty, steps=steps,
                           successes=successes, success=successes > 0, rule="R-SOUL-HIT-1"))
        return successes > 0

    def dice_left(self, f: Fighter) -> int:
        return self.full_dice(f) if f.evasion_dice is None else f.evasion_dice

    def is_physical(self, skill: Skill) -> bool:
        """R-SOUL-CHECK-3: physical if the damage element is sword (data)."""
        return skill.element is not None and skill.element.value in self.spec.physical_elements

    def is_melee(self, skill: Skill) -> bool:
        return skill.range <= self.spec.melee_max_range

    def attack_ability(self, skill: Skill) -> Ability:
        """R-SOUL-CHECK-3: body melee physical, reflex ranged physical,
        intellect spiritual."""
        which = self.spec.ability
        if not self.is_physical(skill):
            return which.spiritual
        return which.melee_physical if self.is_melee(skill) else which.ranged_physical

    def start_action(self, ctx: Resolution, fighter: Fighter) -> None:
        """R-SOUL-HIT-2: evasion dice set to full at step 1 of each action."""
        fighter.evasion_dice = self.full_dice(fighter)
        ctx.emit(E.EvasionDice(turn=ctx.state.turn, actor=fighter.name, dice=fighter.evasion_dice, cause="refill",
                               rule="R-SOUL-HIT-2"))

    def declare(self, ctx: Resolution, use: Use) -> Check:
        """R-SOUL-HIT-1: the skill's ability at NORMAL (R-SOUL-CHECK-2), a
        step easier under focus, harder under manoeuvre."""
        ok = self.attack_check(ctx, use.user, use.skill, tuple(t.name for t in use.targets))
        return HIT if ok else MISS

    def check(self, ctx: Resolution, use: Use, target: Fighter) -> Check:
        """R-SOUL-HIT-3..5: commit k dice (R-SOUL-HIT-4's default: every die
        against a lethal printed damage, else ``default_commit``), spent
        whatever the roll; one success evades."""
        if target.evasion_type == "none":
            return HIT  # R-SOUL-FILE-1: never evades, no evasion event (clarification)
        before = self.dice_left(target)
        clause = evasion_clause(ctx, use, target)
        line: int | None = None
        if clause is not None:
            line = clause.line
            commit, reason = (before if clause.dice is None else min(clause.dice, before)), "clause"
        elif before == 0:
            commit, reason = 0, "no_dice"
        elif use.skill.damage >= target.hp:
            commit, reason = before, "lethal"
        else:
            commit, reason = min(self.spec.default_commit, before), "default"
        melee = self.is_melee(use.skill)
        level = ctx.state.hard_mode_level
        difficulty = evasion_difficulty(self.spec, melee, level)
        faces, successes = roll_pool(ctx, commit, difficulty)
        target.evasion_dice = before - commit
        evaded = successes > 0
        ctx.emit(E.Evasion(turn=ctx.state.turn, actor=target.name, attacker=use.user.name, skill=use.skill.id,
                           melee=melee, level=level, difficulty=difficulty, dice_before=before,
                           committed=commit, reason=reason, line=line, dice=faces, successes=successes,
                           evaded=evaded, dice_left=target.evasion_dice, rule="R-SOUL-HIT-3"))
        return MISS if evaded else HIT


def evasion_clause(ctx: Resolution, use: Use, target: Fighter) -> EvadeClause | None:
    """R-SOUL-HIT-4 / R-SOUL-PLAN-2: the first evasion clause of the
    target's plan whose condition holds, reading the attacker as ``target``
    and ``use`` as the incoming use."""
    for c in target.plan.evasions:
        if target.clause_active(c.line) and c.when(CondContext(ctx.state, target, None, use.user, use.skill)):
            return c
    return None


@dataclass(frozen=True, slots=True)
class HardMode:
    """R-SOUL-HARD-1..3: a turn with an attack check and no HP lost is
    stalled; ``to_level_1`` stalled turns raise the level to 1, then a run of
    ``to_level_2`` stalled turns at level 1 (reset by an HP loss) to 2."""

    spec: HardModeSpec

    def start_turn(self, ctx: Resolution) -> None:
        """R-SOUL-HARD-2: a risen level is announced at the next turn's start.
        R-SOUL-HARD-1's facts start the turn false (``turn_start`` was just
        emitted: nothing of this turn has happened yet)."""
        st = ctx.state
        st.turn_attack_checked = st.turn_hp_lost = False
        if st.hard_mode_level > st.hard_mode_announced:
            st.hard_mode_announced = st.hard_mode_level
            hit = ctx.ruleset.mechanics.hit
            normal = evasion_difficulty(hit, True, st.hard_mode_level) if isinstance(hit, D6PoolSpec) \
                else st.hard_mode_level
            ctx.emit(E.HardMode(turn=ctx.state.turn, level=st.hard_mode_level, melee_evasion_difficulty=normal,
                                rule="R-SOUL-HARD-2"))

    def after_turn(self, ctx: Resolution) -> None:
        """R-SOUL-HARD-1: a turn with an attack check and no HP lost is
        stalled.  Why the facts are kept on the state as the turn goes
        (``turn_attack_checked`` by the d6 pool's attack check,
        ``turn_hp_lost`` by every loss of HP, poison and walls included)
        rather than read back from the turn's events: no scan of ~180
        events a turn (issue 12's speed goal), and the answer never depends
        on what the event list holds."""
        st = ctx.state
        checked, lost = st.turn_attack_checked, st.turn_hp_lost
        if lost and st.hard_mode_level >= 1:
            st.stalled_run = 0
        if not checked or lost:
            return
        level = st.hard_mode_level
        st.stalled_turns += 1
        if level >= 1:
            st.stalled_run += 1
        ctx.emit(E.TurnStalled(turn=ctx.state.turn, stalled=st.stalled_turns, run=st.stalled_run, level=level,
                               rule="R-SOUL-HARD-1"))
        if level == 0 and st.stalled_turns >= self.spec.to_level_1:
            st.hard_mode_level = 1
        elif level == 1 and st.stalled_run >= self.spec.to_level_2:
            st.hard_mode_level = 2  # R-SOUL-HARD-3: the highest level

