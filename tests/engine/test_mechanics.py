"""The mechanics layer (R-VAR-1, R-VAR-2): the seam every ruleset plugs into.

* every kind the loader builds has exactly one engine implementation;
* a house ruleset swapping one mechanic runs that mechanic and tcgt's others
  (proved with a test double, since no variant is built yet, and with the
  built ``stall: none``);
* no engine module outside ``engine/mechanics`` asks which variant it is in;
* the import graph of ``referee/engine`` has no circle and no function-local
  imports glue one together;
* the dice streams exist and a tcgt battle never draws from them.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine import events as E
from referee.engine.battle import resolve_battle
from referee.engine.core import Resolution
from referee.board import Square
from referee.engine.clauses import PlanRules
from referee.engine.mechanics.metric import Chebyshev
from referee.engine.mechanics.protocols import Check, Movement, Outcome
from referee.engine.mechanics.registry import HIT, REGISTRIES, build_mechanics
from referee.engine.rng import VARIANT_STREAMS, BattleRng, RngScriptError, ScriptedRng
from referee.engine.state import BattleState, Fighter
from referee.engine.uses import Use
from referee.mapgraph import MapGraph
from referee.mechanicspec import KINDS, SLOTS, KindInfo, PlainSpec, StepsSpec, register_kind, unregister_kind
from referee.ruleset import load_ruleset

from referee.engine.clauses import Hold

from .helpers import battle, damage_to, fighter, of, ruleset
from .randombattle import random_setup

HOLD = [Hold(line=9)]

ENGINE = Path(__file__).resolve().parents[2] / "referee" / "engine"


# ------------------------------------------------------------------ registry


def test_every_built_kind_has_one_implementation_and_no_other_exists() -> None:
    """The loader's table (referee/mechanicspec.py) and the engine's
    registries name the same built kinds, slot by slot."""
    assert tuple(REGISTRIES) == SLOTS
    for slot in SLOTS:
        built = sorted(kind for kind, info in KINDS[slot].items() if info.built)
        assert list(REGISTRIES[slot].kinds()) == built, slot


def test_tcgt_mechanics_are_built_once_and_shared() -> None:
    """Stateless strategies: one bundle serves every battle of a ruleset."""
    rs = load_ruleset()
    assert build_mechanics(rs.mechanics) is build_mechanics(rs.mechanics)


class NeverHits:
    """A test double for the ``hit`` slot: every check misses, no draw."""

    def check(self, ctx: Resolution, use: Use, target: Fighter) -> Check:
        return Check(Outcome.MISS)

    def start_action(self, ctx: Resolution, fighter: Fighter) -> None:
        return None

    def declare(self, ctx: Resolution, use: Use) -> Check:
        return Check(Outcome.HIT)

    def aiming(self, ctx: Resolution, fighter: Fighter) -> int | None:
        return None

    def relocated(self, ctx: Resolution, fighter: Fighter, cause: str) -> None:
        return None


@pytest.fixture()
def never_hits() -> Iterator[str]:
    kind = "test_never_hits"
    register_kind(KindInfo("hit", kind, "a test double", build=lambda k, _: PlainSpec(k)))
    HIT.register(kind, lambda spec: NeverHits())
    yield kind
    HIT.unregister(kind)
    unregister_kind("hit", kind)


def test_r_var_1_a_house_ruleset_swaps_the_hit_check_and_keeps_the_rest(tmp_path: Path, never_hits: str) -> None:
    """R-VAR-1: "a house ruleset may ... replace single mechanics by name":
    with its hit check swapped, Slash no longer lands (no damage, no counter),
    while everything else (placement, order, the walk) is tcgt's."""
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: tcgt\nmechanics:\n  hit: {{kind: {never_hits}}}\n", encoding="utf-8")
    house = replace(load_ruleset(path), turn_limit=1)
    setup = battle([fighter("A", "c3", "slash", "剣", plan=HOLD)],
                   [fighter("B", "c3", "avenger", "剣", plan=HOLD)])
    tcgt_rec = resolve_battle(setup, ruleset(turn_limit=1), 1, rng=ScriptedRng())
    house_rec = resolve_battle(setup, house, 1, rng=ScriptedRng())
    assert damage_to(tcgt_rec, "B") == [(3, "skill", "slash")]
    assert damage_to(house_rec, "B") == [] and of(house_rec, E.Reaction) == []
    assert [e.TYPE for e in of(house_rec, E.SkillUsed)] == [e.TYPE for e in of(tcgt_rec, E.SkillUsed)]


def test_r_var_1_stall_none_never_narrows(tmp_path: Path) -> None:
    """``stall: {kind: none}`` (variant-orm.md's stall breaker, built): the
    turn limit alone ends a long battle; tcgt narrows after turn 30."""
    path = tmp_path / "calm.yaml"
    path.write_text("extends: tcgt\nmechanics:\n  stall: {kind: none}\n", encoding="utf-8")
    setup = battle([fighter("A", "a1", "", plan=HOLD)], [fighter("B", "h8", "", plan=HOLD)])
    calm = resolve_battle(setup, replace(load_ruleset(path), turn_limit=31), 1, rng=ScriptedRng())
    tcgt = resolve_battle(setup, ruleset(turn_limit=31), 1, rng=ScriptedRng())
    assert of(calm, E.Narrowing) == [] and len(of(tcgt, E.Narrowing)) == 1
    assert calm.result.reason == "turn_limit"


# ------------------------------------------------------------------ no branches


VARIANT_WORDS = re.compile(r"(?<!R-)\b(orm|soul|soulwired|d20|d20pool|wiz|variants?)\b|\.kind\s*[=!]=|ruleset\.name\s*[=!]=",
                           re.IGNORECASE)


#: The engine's packages kept per ruleset family: the mechanics (chosen by
#: the registry) and the events (each family's records).
FAMILY_PACKAGES = ("mechanics", "events")


def _engine_sources(outside_families: bool) -> Iterator[tuple[Path, str]]:
    for path in sorted(ENGINE.rglob("*.py")):
        if outside_families and path.relative_to(ENGINE).parts[0] in FAMILY_PACKAGES:
            continue
        yield path, path.read_text("utf-8")


def _code_only(source: str) -> str:
    """The source without comments and docstrings (they may cite variant rules)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0] = ast.Pass()
    return ast.unparse(tree)


def test_no_variant_branch_in_the_engine_outside_the_mechanics_package() -> None:
    """Issue 9: no ``if ruleset.name == ...``, no variant name and no ``kind ==``
    test anywhere in the engine's code outside ``engine/mechanics`` (and
    ``engine/events``, whose modules are named by family) -- the choice is
    made once, by the registry."""
    found = [f"{path.name}: {m.group(0)}" for path, src in _engine_sources(outside_families=True)
             for m in VARIANT_WORDS.finditer(_code_only(src))]
    assert found == []


def test_the_branch_finder_finds_a_branch() -> None:
    """The test above can fail: it sees a variant branch when there is one."""
    assert VARIANT_WORDS.search(_code_only("if ruleset.name == 'orm':\n    pass\n"))
    assert VARIANT_WORDS.search(_code_only("if spec.kind == 'd6_pool':\n    pass\n"))
    # a rule ID cites a rule (an event's ``rule`` field), it does not branch on one
    assert not VARIANT_WORDS.search(_code_only("rule: str = 'R-WIZ-IN-1'\n"))
    assert VARIANT_WORDS.search(_code_only("if name == 'wiz':\n    pass\n"))


# ------------------------------------------------------------------ import graph


def _imports(path: Path) -> tuple[set[str], list[str]]:
    """(runtime module-level imports of referee.engine modules, function-local
    imports) of one module; ``if TYPE_CHECKING:`` blocks are type-only."""
    tree = ast.parse(path.read_text("utf-8"))
    runtime: set[str] = set()
    local: list[str] = []

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = node.module or ""
        return [base] + [f"{base}.{a.name}" for a in node.names]

    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            runtime.update(names(node))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    local += names(inner)
    return runtime, local


def _module(path: Path) -> str:
    rel = path.relative_to(ENGINE.parent.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _engine_graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in ENGINE.rglob("*.py")}
    return {name: {m for m in _imports(path)[0] if m in modules and m != name}
            for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_engine_import_graph_has_no_cycle() -> None:
    assert _cycle(_engine_graph()) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_function_local_imports_in_the_engine() -> None:
    """A function-local import hides a circle instead of breaking it."""
    local = {_module(p): _imports(p)[1] for p in ENGINE.rglob("*.py")}
    assert {m: names for m, names in local.items() if names} == {}


# ------------------------------------------------------------------ dice (R-VAR-2)


def test_r_var_2_a_die_is_one_plus_a_choice_among_its_faces() -> None:
    """R-VAR-2: "A die of n faces is 1 + randrange(n); no draw when n = 1"."""
    a, b = BattleRng(5), BattleRng(5)
    assert [a.die("checks", 6) for _ in range(20)] == [1 + b.randrange("checks", 6) for _ in range(20)]
    before = dict(a.draws)
    assert a.die("damage", 1) == 1 and a.draws == before


def test_r_var_2_the_dice_streams_are_independent_of_tcgts() -> None:
    """Each stream is random.Random(f"{seed}:{name}"): drawing on ``checks``
    moves no draw of ``initiative``."""
    plain, busy = BattleRng(9), BattleRng(9)
    for _ in range(10):
        busy.die("checks", 20)
        busy.die("area", 3)
    assert [plain.die("initiative", 6) for _ in range(5)] == [busy.die("initiative", 6) for _ in range(5)]


def test_r_var_2_a_tcgt_battle_never_draws_from_the_dice_streams() -> None:
    """R-VAR-2: "A tcgt battle never draws from them, so its replays never change"."""
    for seed in range(5):
        setup = random_setup(random.Random(seed).randrange, 3)
        rng = BattleRng(seed)
        resolve_battle(setup, ruleset(), seed, rng=rng)
        assert {s: rng.draws[s] for s in VARIANT_STREAMS} == {s: 0 for s in VARIANT_STREAMS}
        assert rng.draws["initiative"] > 0 or setup.order is not None


def test_the_scripted_rng_scripts_die_faces() -> None:
    rng = ScriptedRng({"checks": [6, 6, 1], "damage": [4]}, strict=True)
    assert [rng.die("checks", 6) for _ in range(3)] == [6, 6, 1]
    assert rng.die("damage", 1) == 1 and rng.die("damage", 6) == 4  # one face: nothing consumed
    with pytest.raises(RngScriptError):
        ScriptedRng({"checks": [7]}).die("checks", 6)
    assert rng.log[-1] == ("damage", "die", 4)


# ------------------------------------------------------------------ contracts


def movement_contract(movement: Movement, state: BattleState, mover: Fighter, dst: Square,
                      tie_order: Callable[[Square], Any] | None = None) -> None:
    """What every ``Movement`` must keep, whatever its rules: steps are areas
    of the map next to the mover, in canonical order (R-RNG-1), never the
    mover's own area; a step toward ``dst`` is a legal step that shortens the
    route by one, the tied ones in the order their draw reads them
    (``tie_order``; default R-RNG-1's square order); no step when already
    there."""
    steps = movement.legal_steps(state, mover)
    assert all(state.graph.contains(s) for s in steps)
    assert list(steps) == sorted(steps) and mover.square not in steps
    assert len(set(steps)) == len(steps)
    toward = movement.toward(state, mover, dst)
    assert list(toward) == sorted(toward, key=tie_order) and set(toward) <= set(steps)
    assert len(set(toward)) == len(toward)
    length = movement.route_length(state, mover, mover.square, dst)
    if dst == mover.square:
        assert toward == () and length == 0
    elif length is not None:
        assert toward and all(movement.route_length(state, mover, s, dst) == length - 1 for s in toward)


@pytest.mark.parametrize("adjacency", ["king", "rook"])
@given(data=st.data())
def test_step_movement_keeps_the_movement_contract(adjacency: str, data: st.DataObject) -> None:
    movement = build_mechanics(replace(load_ruleset().mechanics, movement=StepsSpec("steps", adjacency))).movement  # type: ignore[arg-type]
    width, height = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))
    graph = MapGraph(width, height, movement.adjacency)
    squares = graph.squares
    me = Fighter("A", "white", 0, 3, 12, 12, data.draw(st.sampled_from(squares)), (), (), PlanRules())
    state = BattleState([me], graph, Chebyshev())
    movement_contract(movement, state, me, data.draw(st.sampled_from(squares)))
    if adjacency == "rook":
        assert all(abs(s.file - me.square.file) + abs(s.rank - me.square.rank) == 1
                   for s in movement.legal_steps(state, me))


def test_a_house_ruleset_restating_tcgts_mechanics_resolves_identically(tmp_path: Path) -> None:
    """The seam is transparent: a house file that writes every tcgt mechanic
    out again (kinds and parameters) gives the very same events as tcgt on
    random battles, draw for draw."""
    text = (Path(__file__).resolve().parents[2] / "referee" / "data" / "rulesets" / "tcgt.yaml").read_text("utf-8")
    block = text[text.index("mechanics:"):text.index("skills:")]
    path = tmp_path / "same.yaml"
    path.write_text("extends: tcgt\nname: tcgt\n" + block, encoding="utf-8")
    same = load_ruleset(path)
    assert same.mechanics == ruleset().mechanics
    for seed in range(4):
        setup = random_setup(random.Random(seed).randrange, 3)
        a = resolve_battle(setup, ruleset(), seed)
        b = resolve_battle(setup, same, seed)
        assert a.events == b.events
