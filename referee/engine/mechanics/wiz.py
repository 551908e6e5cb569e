"""Gase-Wiz's mechanics (variant-wiz.md): IN initiative (R-WIZ-IN-1/2) and
the percentile hit roll with facing and missile modifiers (R-WIZ-HIT-1/2,
R-WIZ-MELEE-1/2, R-WIZ-MIS-1) and the optional aim module (R-WIZ-AIM-1,
``engine/mechanics/wiz_aim.py``).

Both are stateless like every mechanic; what a wiz battle remembers (whom a
character faces, R-WIZ-MELEE-1) lives in ``BattleState.faces``.

Sheet levels (the ``wiz:`` block of R-WIZ-SHEET-1) and battle-file sizes
(R-WIZ-BATTLE-1) are not read by this version: every level is its absent
value 0 and every size its default M, which is what the spec gives a sheet
or battle without them.  The formulas take the levels as arguments, so the
block only has to be plumbed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.catalog import Skill
from referee.engine import events as E
from referee.engine.core import Resolution
from referee.engine.mechanics.protocols import HIT, Check, Outcome
from referee.engine.mechanics.tcgt import DecimalDice, NoInnateSkills, QuietHitHooks, announce_targets
from referee.engine.action import WalkPolicy, act
from referee.engine.targeting import pick, preference_for
from referee.engine.mechanics.wiz_targets import area_extension, area_of, area_use, is_weapon_skill, level
from referee.engine.mechanics.wiz_turn import play_by_value, try_cast
from referee.engine.state import BattleState, Fighter
from referee.engine.uses import Choice, Use
from referee.engine.mechanics.wiz_aim import aim_of, lose_aim, take_aim
from referee.mechanicspec import AimPercentileSpec, PercentileSpec

__all__ = ["InValue", "Percentile", "in_value", "opponents", "facing_allowance", "facing_of",
           "missile_penalty", "size_term", "is_weapon_skill", "reflex_of"]

#: Every wiz level of a character without a ``wiz:`` block (R-WIZ-SHEET-1: absent = 0).
_NO_LEVEL = 0
#: The size of a character without ``setup.NAME.size`` (R-WIZ-BATTLE-1).
_DEFAULT_SIZE = "M"
#: Missile penalty when the target has no enemy in its area (R-WIZ-MIS-1).
_NO_PENALTY = 0


def size_of(f: Fighter) -> str:
    """R-WIZ-BATTLE-1: the battle file's ``size``, default M."""
    return f.size or _DEFAULT_SIZE


def reflex_of(f: Fighter) -> int:
    """【敏捷度】 is the sheet's reflex, which R-CHAR-3 fixes as the number of
    panels of every pattern, so the fighter need not carry it twice."""
    return len(f.patterns[0].elements) if f.patterns else 0


def in_value(reflex: int, move: int, flexible: int) -> int:
    """R-WIZ-IN-1: IN = reflex + move + floor(flexible / 2)."""
    return reflex + move + flexible // 2


def in_of(f: Fighter) -> int:
    """R-WIZ-IN-1 for ``f``, from its reflex and its ``wiz:`` levels."""
    return in_value(reflex_of(f), level(f, "move"), level(f, "flexible"))


@dataclass(frozen=True, slots=True)
class InValue:
    """R-WIZ-IN-2: highest IN first; equal IN by R-TURN-1's dice, which are
    rolled exactly as tcgt rolls them (every character, roster order) so a
    wiz battle's ``initiative`` draws match tcgt's."""

    tie: DecimalDice = DecimalDice()

    @property
    def each_turn(self) -> bool:
        return self.tie.each_turn

    def play_turn(self, ctx: Resolution, fixed: bool) -> None:
        """R-WIZ-CAST-2: the turn by value, so casts resolve in it; the order
        is redrawn first when the dice roll every turn (as tcgt's)."""
        state = ctx.state
        if self.each_turn and not fixed:
            state.order = self.order(ctx, state.living())
            ctx.emit(E.ActionOrder(turn=ctx.turn, order=tuple(f.name for f in state.order), fixed=False))
        if fixed:  # R-WIZ-IN-3: the i-th of n has value n − i + 1
            n = len(state.order)
            values = {f.name: n - i for i, f in enumerate(state.order)}
        else:
            values = {f.name: in_of(f) for f in state.order}
        area = ctx.mechanics.area
        area_use = area.area_use if isinstance(area, RolledGroups) else None
        play_by_value(ctx, values, area_use, area.announce)

    def order(self, ctx: Resolution, fighters: Sequence[Fighter]) -> list[Fighter]:
        values = {f.name: in_of(f) for f in fighters}
        if ctx.turn == 0 or (self.each_turn and ctx.turn == 1):  # IN is fixed: told once (R-WIZ-IN-1)
            for f in fighters:
                ctx.emit(E.InitiativeValue(turn=ctx.turn, actor=f.name, value=values[f.name],
                                           reflex=reflex_of(f), move=level(f, "move"),
                                           flexible_bonus=level(f, "flexible") // 2, fixed=False))
        by_dice = self.tie.order(ctx, fighters)
        # sorted() is stable: equal IN keep the dice order (R-WIZ-IN-2).
        return sorted(by_dice, key=lambda f: -values[f.name])


def opponents(state: BattleState, target: Fighter) -> list[Fighter]:
    """R-WIZ-MELEE-1: the enemies in ``target``'s area, the one it faces
    first, then the others in this turn's order."""
    here = [g for g in state.enemies_of(target) if g.square == target.square]
    rank = {f.name: i for i, f in enumerate(state.order)}
    here.sort(key=lambda g: (rank.get(g.name, len(rank) + g.index), g.index))
    faced = state.faces.get(target.name)
    for i, g in enumerate(here):
        if g.name == faced:
            return [g, *here[:i], *here[i + 1:]]
    return here


def facing_allowance(wide_view: int, sense: int) -> int:
    """R-WIZ-MELEE-2: f = 1 + 2·[wide_view ≥ 1] + [wide_view ≥ 2] + floor(sense/2)."""
    return 1 + 2 * (wide_view >= 1) + (wide_view >= 2) + sense // 2


def facing_of(place: int, allowance: int, wide_view: int) -> str:
    """R-WIZ-MELEE-2: ``front``, ``side`` or ``back`` for the ``place``-th
    opponent (from 1); no back once wide_view reaches 2."""
    if place <= allowance:
        return "front"
    if place == allowance + 1 or wide_view >= 2:
        return "side"
    return "back"


def size_term(largest: str, target: str, sizes: Sequence[str]) -> int:
    """R-WIZ-MIS-1: s = 0 for equal sizes, else sign(d)·(|d| + 1)² with d the
    rank difference (largest opponent − target)."""
    d = sizes.index(largest) - sizes.index(target)
    if d == 0:
        return 0
    return (1 if d > 0 else -1) * (abs(d) + 1) ** 2


def missile_penalty(n: int, s: int, base: int, per_extra: int) -> int:
    """R-WIZ-MIS-1: none with n = 0, else max(0, base + per_extra·(n − 1) + s)."""
    if n == 0:
        return _NO_PENALTY
    return max(0, base + per_extra * (n - 1) + s)


@dataclass(frozen=True, slots=True)
class Percentile(QuietHitHooks):
    """R-WIZ-HIT-1/2: a d100 on ``checks`` per target of a weapon use on
    enemies; a face ≤ p hits.  Spells never roll (they always hit)."""

    spec: PercentileSpec

    def check(self, ctx: Resolution, use: Use, target: Fighter) -> Check:
        user, skill = use.user, use.skill
        if not is_weapon_skill(skill) or skill.targets_allies:
            return HIT
        state = ctx.state
        p = self.spec
        reflex_mod = p.per_reflex * (reflex_of(user) - reflex_of(target))
        facing: str | None = None
        bonus = penalty = 0
        aimed = False
        if user.square == target.square:  # melee (R-WIZ-MELEE-1)
            listed = opponents(state, target)
            place = next((i + 1 for i, g in enumerate(listed) if g is user), len(listed) + 1)
            wide = level(target, "wide_view")
            facing = facing_of(place, facing_allowance(wide, level(target, "sense")), wide)
            bonus = {"front": 0, "side": p.side, "back": p.back}[facing]
            if use.targets and use.targets[0] is target:
                state.faces[user.name] = target.name
        else:  # missile (R-WIZ-MIS-1)
            if self.aim_on and aim_of(user) not in (None, target.name):
                lose_aim(ctx, user, "other_target")  # R-WIZ-AIM-1: a missile use on anyone else
            aimed = self.aim_on and aim_of(user) == target.name
            near = [g for g in state.enemies_of(target) if g.square == target.square]
            n = len(near)
            largest = max((size_of(g) for g in near), key=p.sizes.index, default=_DEFAULT_SIZE)
            s = size_term(largest, size_of(target), p.sizes) if n else 0
            # R-WIZ-AIM-1: "its missile uses on NAME take no penalty"
            penalty = _NO_PENALTY if aimed else missile_penalty(n, s, p.missile_base, p.missile_per_extra_opponent)
        chance = max(p.min, min(p.max, p.base + reflex_mod + bonus - penalty))
        die = ctx.rng.die("checks", 100)
        hit = die <= chance
        ctx.emit(E.D100Check(turn=ctx.turn, actor=user.name, target=target.name, skill=skill.id, die=die,
                             chance=chance, base=p.base, reflex_mod=reflex_mod, facing=facing,
                             facing_bonus=bonus, missile_penalty=penalty, aimed=aimed, hit=hit))
        return HIT if hit else Check(Outcome.MISS)

    @property
    def aim_on(self) -> bool:
        """R-WIZ-AIM-1: the aim module is on (``aim: true``; off in ``wiz``)."""
        return isinstance(self.spec, AimPercentileSpec)

    def aiming(self, ctx: Resolution, fighter: Fighter) -> int | None:
        """R-WIZ-AIM-1: ``take aim at`` spends the walk and the move."""
        return take_aim(ctx, fighter) if self.aim_on else None

    def relocated(self, ctx: Resolution, fighter: Fighter, cause: str) -> None:
        """R-WIZ-AIM-1: "Aim ends when the character moves or is pushed"."""
        if self.aim_on:
            lose_aim(ctx, fighter, cause)


# ------------------------------------------------------------------ the action (R-WIZ-ACT-1, CAST-1)


@dataclass(frozen=True, slots=True)
class OneMainUse(NoInnateSkills):
    """R-WIZ-ACT-1: tcgt's action with one main use; with ``cast_delay`` a
    spell of delay d ≥ 1 is cast and resolves later in the turn
    (R-WIZ-CAST-1, under ``in_value``'s turn by value)."""

    cast_delay: bool = True

    def act(self, ctx: Resolution, f: Fighter) -> None:
        area = ctx.mechanics.area
        extension = area.extension if isinstance(area, RolledGroups) else None

        def cast(b: Resolution, user: Fighter, entry: int, skill: Skill, pool: list[Fighter],
                 base: tuple[int, ...]) -> bool:
            return try_cast(b, user, entry, skill, pool, base, extension)

        act(ctx, f, WalkPolicy(main_use=True, cast=cast if self.cast_delay else None))


# ------------------------------------------------------------------ area uses (R-WIZ-AREA-*)


@dataclass(frozen=True, slots=True)
class RolledGroups:
    """R-WIZ-AREA-1..8: a 拡大 skill extended by N is an area (1+N)×(range+1)
    whose AdB targets are taken from groups (``engine/mechanics/wiz_area.py``);
    N = 0 is R-PLAN-4's single target.  R-EXT-2..6, 8, 9 never apply."""

    extra_group_penalty: int = 2
    exclusion_cost: int = 1

    def extension(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
                  base: tuple[int, ...]) -> tuple[int, tuple[int, ...], int]:
        return area_extension(ctx, user, skill, pool, base)

    def area_use(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
                 n: int) -> list[Fighter] | None:
        """The targets of an area use with N payments; None when the use is
        a single-target one (R-WIZ-AREA-1: N = 0 and no catalogue area)."""
        dims = area_of(skill, n)
        if dims is None:
            return None
        return area_use(ctx, user, skill, pool, dims, self.extra_group_penalty, self.exclusion_cost)

    def choose(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
               base: tuple[int, ...]) -> Choice:
        n, panels, requested = self.extension(ctx, user, skill, pool, base)
        targets = self.area_use(ctx, user, skill, pool, n)
        if targets is None:
            return Choice(pick(ctx, user, preference_for(ctx, user, skill), pool, 1, skill), base, requested, 0)
        return Choice(targets, panels, requested, n)

    def announce(self, ctx: Resolution, user: Fighter, skill: Skill, pool: list[Fighter],
                 choice: Choice) -> None:
        """A single-target use tells ``targets_chosen``; an area use told its
        roll, groups and selection already (R-WIZ-EV-1)."""
        if area_of(skill, choice.extended) is None:
            announce_targets(ctx, user, skill, pool, choice)
