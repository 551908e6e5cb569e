"""Practice: a player's army against a gauntlet of ready opponents.

A player who has written sheets and plans wants to know how they fare
against the range of armies they may meet, not against one opponent they
built themselves.  A *gauntlet* is a folder holding ``gauntlet.yaml`` (shape:
``referee/schemas/gauntlet.schema.json``): a ruleset and a list of armies,
each with an id, a one-line description in English and Japanese, the sheets
of its characters and the ids of the armies it is built to beat.  Every
built-in ruleset bundles one (``referee/data/gauntlets/<ruleset>/``).

Three promises shape this module:

* **A practice battle is a battle file without ``setup``.**  The player's
  sheets are White, the opponent's Black (R-GOAL-1's roster order), nothing
  is fixed: the engine draws squares and the order as it does for such a file
  (R-SETUP-1, R-TURN-1), and the plans are checked against the battle's names
  as ``referee check`` checks a battle (:func:`practice_battle`).  It is built
  in memory; nothing is written into the player's folders.
* **Every number is the odds machinery's.**  Each opponent's battle runs over
  the same derived seeds (:func:`referee.app.odds.derive_seeds`), on any
  executor (:func:`referee.app.executors.run_battles`), and is summarised by
  :func:`referee.app.odds.summarise`, so ``--jobs`` and Dask give the same table.
* **Every loss can be replayed.**  A practice battle has a name,
  ``practice:GAUNTLET:ARMY`` (:func:`practice_ref`), which ``referee resolve``
  accepts with the player's sheets: the command printed for the worst loss
  rebuilds the very battle and seed (:func:`replay_command`).
"""

from __future__ import annotations

import difflib
import os
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from referee.app.executors import BattleJob, ExecutorSpec, run_battles
from referee.app.inputs import battle_inputs
from referee.app.odds import OddsSummary, SeedOutcome, chunk_seeds, summarise
from referee.battlefile import Battle, BattleEntry, parse_plan_of
from referee.confine import UnsafePathError, confine, working_root
from referee.diagnostics import Diagnostic, ReferError, has_errors
from referee.plan.check import plan_character_names
from referee.ruleset import Ruleset, builtin_rulesets, is_builtin_name, load_ruleset
from referee.sheet import CharacterSheet, load_sheet
from referee.yamlio import read_yaml_file, schema_diagnostics

__all__ = [
    "GAUNTLET_FILE",
    "PRACTICE_PREFIX",
    "DEFAULT_BASE",
    "Army",
    "Gauntlet",
    "OpponentResult",
    "builtin_gauntlets",
    "load_gauntlet",
    "load_player",
    "practice_battle",
    "practice_ref",
    "parse_practice_ref",
    "load_practice_battle",
    "replay_command",
    "worst_loss",
    "build_practice",
    "run_practice",
    "army_as_player",
    "gauntlet_matrix",
]

#: The index file of a gauntlet folder.
GAUNTLET_FILE = "gauntlet.yaml"

#: What a practice battle's name starts with (``referee resolve practice:tcgt:rush ...``).
PRACTICE_PREFIX = "practice:"

#: The base seed of a practice run without ``--seed``: seed k is ``practice-k``,
#: so two runs of the same army give the same table.
DEFAULT_BASE = "practice"

#: Seeds per task, as ``referee odds`` (see its ``CHUNK``).
CHUNK = 25


@dataclass(frozen=True)
class Army:
    """One opposing army of a gauntlet.

    :param description: one line per language (``en``, ``ja``; at least one).
    :param sheets: the sheet paths, relative to the gauntlet's folder, in roster order.
    :param beats: ids of the armies of the same gauntlet it is built to beat.
    """

    id: str
    description: Mapping[str, str]
    sheets: tuple[str, ...]
    beats: tuple[str, ...] = ()

    def describe(self, lang: str = "en") -> str:
        """The description in ``lang``, else in the language it has."""
        return self.description.get(lang) or next(iter(self.description.values()), "")


@dataclass(frozen=True)
class Gauntlet:
    """A loaded gauntlet: its ruleset and armies.

    :param ref: how a command names it: a built-in ruleset's name, or the
        folder as the user typed it.
    :param label: ``ref`` without any folder, for titles and battle names.
    """

    ref: str
    label: str
    folder: Path
    ruleset: Ruleset
    ruleset_ref: str
    armies: tuple[Army, ...]
    builtin: bool = False

    def army(self, army_id: str) -> Army:
        """The army with that id.

        :raises ReferError: ``unknown-army``, with the ids to choose from."""
        for army in self.armies:
            if army.id == army_id:
                return army
        ids = [a.id for a in self.armies]
        close = difflib.get_close_matches(army_id, ids, n=1)
        raise ReferError([Diagnostic(self.ref, 0, 0, "unknown-army",
                                     f"the gauntlet {self.ref!r} has no army {army_id!r}",
                                     hint=f"did you mean {close[0]!r}?" if close else f"armies: {', '.join(ids)}")])


def _builtin_folder() -> Path:
    return Path(str(resources.files("referee").joinpath("data", "gauntlets")))


def builtin_gauntlets() -> tuple[str, ...]:
    """The built-in rulesets that bundle a gauntlet, sorted."""
    folder = _builtin_folder()
    return tuple(name for name in builtin_rulesets() if (folder / name / GAUNTLET_FILE).is_file())


def _is_builtin_gauntlet(ref: str) -> bool:
    return ref in builtin_gauntlets()


def load_gauntlet(ref: str, *, folder_only: bool = False) -> Gauntlet:
    """The gauntlet a command names: a built-in ruleset's name (its bundled
    gauntlet) or a folder holding ``gauntlet.yaml``.

    :param folder_only: ``ref`` is a folder even when it reads like a
        built-in name (``--against DIR``).
    :raises ReferError: with every diagnostic of the index (shape, ids,
        ``beats``, the ruleset, sheet paths leaving the folder).
    """
    builtin = not folder_only and _is_builtin_gauntlet(ref)
    folder = _builtin_folder() / ref if builtin else Path(ref)
    index = folder / GAUNTLET_FILE
    if not builtin and not index.is_file():
        hint = ("a gauntlet is a folder holding gauntlet.yaml (docs/plan-language.md, \"Practising\"); "
                f"built-in gauntlets: {', '.join(builtin_gauntlets())}")
        what = "no such folder" if not folder.is_dir() else f"no {GAUNTLET_FILE} in it"
        raise ReferError([Diagnostic(ref, 0, 0, "not-a-gauntlet", f"{ref!r} is not a gauntlet: {what}", hint=hint)])
    doc, diags = read_yaml_file(index, root=folder)
    if doc is None:
        raise ReferError(diags)
    diags += schema_diagnostics(doc, "gauntlet")
    if has_errors(diags):
        raise ReferError(diags)
    data: dict[str, Any] = doc.data
    armies = tuple(Army(a["id"], dict(a["description"]), tuple(a["sheets"]), tuple(a.get("beats", ())))
                   for a in data["armies"])
    seen: dict[str, int] = {}
    for i, army in enumerate(armies):
        if army.id in seen:
            diags.append(doc.diagnostic(("armies", i, "id"), "duplicate-army",
                                        f"two armies are named {army.id!r} (also armies[{seen[army.id]}])"))
        seen.setdefault(army.id, i)
    for i, army in enumerate(armies):
        for j, other in enumerate(army.beats):
            if other not in seen or other == army.id:
                diags.append(doc.diagnostic(("armies", i, "beats", j), "unknown-army",
                                            f"beats: {other!r} is not another army of this gauntlet"))
        for j, rel in enumerate(army.sheets):
            try:
                confine(folder / rel, folder, rel)
            except UnsafePathError as err:
                diags.append(doc.diagnostic(("armies", i, "sheets", j), err.problem.code, err.problem.message))
    ruleset_ref = str(data["ruleset"])
    ruleset = _gauntlet_ruleset(ruleset_ref, folder, doc, diags)
    if ruleset is None or has_errors(diags):
        raise ReferError(diags)
    label = ref if builtin else (folder.resolve().name or ref)
    return Gauntlet(ref, label, folder, ruleset, ruleset_ref if is_builtin_name(ruleset_ref) else str(folder / ruleset_ref),
                    armies, builtin)


def _gauntlet_ruleset(ref: str, folder: Path, doc: Any, diags: list[Diagnostic]) -> Ruleset | None:
    """A built-in ruleset by name, or a ruleset file inside the gauntlet's folder."""
    try:
        if is_builtin_name(ref):
            return load_ruleset(ref)
        confine(folder / ref, folder, ref)
        return load_ruleset(folder / ref, root=folder)
    except UnsafePathError as err:
        diags.append(doc.diagnostic(("ruleset",), err.problem.code, err.problem.message))
    except ReferError as err:
        diags += err.diagnostics
    return None


# --- the battles --------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSheet:
    """A loaded sheet of one side: the path as the battle names it, the
    sheet, and the folder its plan file may not leave (``None``: its own)."""

    path: str
    sheet: CharacterSheet
    root: Path | None


def load_player(paths: Sequence[str], ruleset: Ruleset) -> tuple[list[PlayerSheet], list[Diagnostic]]:
    """The player's sheets, checked as ``referee check`` checks a sheet (its
    plan may sit anywhere under the working folder).  :returns: every sheet
    that loaded, and every diagnostic (a missing file, a FIFO ... included)."""
    out: list[PlayerSheet] = []
    diags: list[Diagnostic] = []
    for path in paths:
        root = working_root(path)
        sheet, found = load_sheet(path, ruleset, root=root)
        diags += found
        if sheet is not None:
            out.append(PlayerSheet(path, sheet, root))
    return out, diags


def _army_sheets(gauntlet: Gauntlet, army: Army) -> tuple[list[PlayerSheet], list[Diagnostic]]:
    """An army's sheets, each read inside the gauntlet's folder (its plan file too)."""
    out: list[PlayerSheet] = []
    diags: list[Diagnostic] = []
    for rel in army.sheets:
        sheet, found = load_sheet(gauntlet.folder / rel, gauntlet.ruleset, root=gauntlet.folder)
        diags += found
        if sheet is not None:
            out.append(PlayerSheet(rel, sheet, gauntlet.folder))
    return out, diags


def _name_diagnostics(side: PlayerSheet, ruleset: Ruleset, names: Sequence[str]) -> list[Diagnostic]:
    """The plan's names checked against the battle's, as a battle file's are
    (``unknown-character``: an error for a sure slip, else a warning: the
    sheet may be meant for another table)."""
    plan, _ = parse_plan_of(side.sheet)
    if plan is None or plan_character_names(plan) <= set(names):
        return []
    _, diags = load_sheet(side.sheet.file, ruleset, root=side.root, known_characters=names)
    return [d for d in diags if d.code == "unknown-character"]


def practice_battle(player: Sequence[PlayerSheet], gauntlet: Gauntlet, army: Army) -> tuple[Battle | None, list[Diagnostic]]:
    """The battle of ``player`` (White) against ``army`` (Black), as a
    battle file naming those sheets and nothing else would be: no seed, no
    ``setup``, no ``order``, no terrain.

    :returns: the battle (``None`` on any error) and every diagnostic: the
        army's sheets, names shared by two characters, and each plan's names
        against this battle's.
    """
    theirs, diags = _army_sheets(gauntlet, army)
    names = [p.sheet.name for p in player] + [t.sheet.name for t in theirs]
    for side in player:
        first = next(p for p in player if p.sheet.name == side.sheet.name)
        if first is not side:
            diags.append(Diagnostic(side.path, 0, 0, "duplicate-name",
                                    f"two of your characters are named {side.sheet.name!r} (also {first.path}); "
                                    "names must be unique within a battle"))
    for side in theirs:
        clash = next((p for p in player if p.sheet.name == side.sheet.name), None)
        if clash is not None:
            diags.append(Diagnostic(clash.path, 0, 0, "duplicate-name",
                                    f"{side.sheet.name!r} is also the name of a character of the army {army.id!r}; "
                                    "names must be unique within a battle",
                                    hint="practise against the other armies, or rename yours"))
    for side in (*player, *theirs):
        diags += _name_diagnostics(side, gauntlet.ruleset, names)
    if has_errors(diags) or len(theirs) < len(army.sheets):
        return None, diags
    entries = [BattleEntry(team, side.path, side.sheet, parse_plan_of(side.sheet)[0])
               for team, sides in (("white", player), ("black", theirs)) for side in sides]
    battle = Battle(
        file=f"{PRACTICE_PREFIX}{gauntlet.label}:{army.id}",
        title=f"Practice: {', '.join(p.sheet.name for p in player)} vs {army.id} ({gauntlet.label})",
        ruleset=gauntlet.ruleset,
        ruleset_ref=gauntlet.ruleset_ref,
        seed=None,
        entries=tuple(entries),
    )
    return battle, diags


def practice_ref(gauntlet: Gauntlet, army: Army) -> str:
    """The name ``referee resolve`` takes for this practice battle:
    ``practice:GAUNTLET:ARMY`` (a folder that reads like a built-in name is
    written ``./NAME``, so it is read back as the folder)."""
    where = gauntlet.ref
    if not gauntlet.builtin and _is_builtin_gauntlet(where):
        where = os.path.join(".", where)
    return f"{PRACTICE_PREFIX}{where}:{army.id}"


def parse_practice_ref(text: str) -> tuple[str, str] | None:
    """``practice:GAUNTLET:ARMY`` -> ``(GAUNTLET, ARMY)``; ``None`` when
    ``text`` is not a practice battle's name.

    >>> parse_practice_ref("practice:tcgt:melee-rush")
    ('tcgt', 'melee-rush')
    >>> parse_practice_ref("round3.battle.yaml") is None
    True
    """
    if not text.startswith(PRACTICE_PREFIX):
        return None
    where, _, army = text[len(PRACTICE_PREFIX):].rpartition(":")
    return where, army


def load_practice_battle(text: str, sheets: Sequence[str]) -> tuple[Battle | None, list[Diagnostic]]:
    """The practice battle ``practice:GAUNTLET:ARMY`` with these sheets as
    White: what ``referee resolve`` runs for a replay command.

    :raises ReferError: a malformed name, an unknown gauntlet or army."""
    parsed = parse_practice_ref(text)
    if parsed is None or not parsed[0] or not parsed[1]:
        raise ReferError([Diagnostic(text, 0, 0, "bad-practice-battle",
                                     "a practice battle is named practice:GAUNTLET:ARMY",
                                     hint="for example practice:tcgt:melee-rush (referee practice --list shows the armies)")])
    if not sheets:
        raise ReferError([Diagnostic(text, 0, 0, "no-sheets", "a practice battle needs your character sheets",
                                     hint=f"referee resolve {text} sheets/a.yaml sheets/b.yaml ...")])
    gauntlet = load_gauntlet(parsed[0])
    army = gauntlet.army(parsed[1])
    player, diags = load_player(sheets, gauntlet.ruleset)
    if has_errors(diags):
        return None, diags
    battle, more = practice_battle(player, gauntlet, army)
    return battle, diags + more


def replay_command(ref: str, sheets: Sequence[str], seed: str) -> str:
    """The shell command that replays one seed of a practice battle with the reasons."""
    return shlex.join(["referee", "resolve", ref, *sheets, "--seed", seed, "--explain"])


# --- running and summarising ---------------------------------------------------


@dataclass(frozen=True)
class OpponentResult:
    """One row of the practice table.

    :param survival: per character of the player's, the share of seeds it
        was still standing at the end.
    :param worst: the worst loss (:func:`worst_loss`), ``None`` without a loss.
    """

    army: Army
    ref: str
    summary: OddsSummary
    survival: Mapping[str, float]
    worst: SeedOutcome | None

    @property
    def median_turns(self) -> int:
        return self.summary.turn_quantile(0.5)


def worst_loss(outcomes: Sequence[SeedOutcome]) -> SeedOutcome | None:
    """The loss with the fewest of the player's characters standing, then
    the most HP left to the opponent, then the fewest turns, then the first
    seed: the defeat most worth reading."""
    losses = [o for o in outcomes if o.winner == "black"]
    return min(losses, key=lambda o: (o.white_left, -o.black_hp, o.turns, o.index), default=None)


def _resolve_all(battles: Sequence[Battle], seeds: Sequence[str], jobs: int, executor: ExecutorSpec,
                 on_done: Callable[[int], None] | None) -> list[list[SeedOutcome]]:
    """Every battle over ``seeds`` through one pool (or one Dask client),
    each battle's outcomes in seed order."""
    jobs_: list[BattleJob] = [(battle_inputs(b), b.ruleset) for b in battles]
    chunks = [(b, first, part) for b in range(len(battles)) for first, part in chunk_seeds(seeds, CHUNK)]
    outcomes = run_battles(jobs_, chunks, jobs=jobs, executor=executor, on_done=on_done)
    return [sorted(found, key=lambda o: o.index) for found in outcomes]


def _built(pairs: Sequence[tuple[Sequence[PlayerSheet], Army]],
           gauntlet: Gauntlet) -> tuple[list[Battle], list[Diagnostic]]:
    """The battles of ``(player, army)`` pairs and their warnings, each once
    however many battles it concerns (a plan naming someone absent ...).

    :raises ReferError: every error of every battle at once."""
    battles: list[Battle] = []
    found: dict[tuple[str, int, int, str, str], Diagnostic] = {}
    for player, army in pairs:
        battle, diags = practice_battle(player, gauntlet, army)
        for d in diags:  # the same warning in every battle once (its hint names one battle's characters)
            found.setdefault((d.file, d.line, d.column, d.code, d.message), d)
        if battle is not None:
            battles.append(battle)
    ordered = [found[k] for k in sorted(found)]
    if has_errors(ordered):
        raise ReferError([d for d in ordered if d.is_error])
    return battles, ordered


PracticeBattles = list[tuple[Army, Battle]]


def build_practice(player: Sequence[PlayerSheet], gauntlet: Gauntlet,
                   armies: Sequence[Army] | None = None) -> tuple[PracticeBattles, list[Diagnostic]]:
    """The player's battle against every army (or ``armies``), and the warnings.

    :raises ReferError: a battle that cannot be built (every error at once)."""
    chosen = list(gauntlet.armies if armies is None else armies)
    battles, warnings = _built([(player, army) for army in chosen], gauntlet)
    return list(zip(chosen, battles)), warnings


def run_practice(player: Sequence[PlayerSheet], gauntlet: Gauntlet, battles: PracticeBattles,
                 seeds: Sequence[str], base: str, *, jobs: int = 1,
                 executor: ExecutorSpec = ExecutorSpec("process"),
                 on_done: Callable[[int], None] | None = None) -> list[OpponentResult]:
    """Each battle of :func:`build_practice` over ``seeds``, one row each.

    :raises ReferError: an executor problem (Dask missing or unreachable)."""
    names = [p.sheet.name for p in player]
    results = []
    outcomes = _resolve_all([b for _, b in battles], seeds, jobs, executor, on_done)
    for (army, _), ordered in zip(battles, outcomes):
        total = len(ordered) or 1
        survival = {n: sum(1 for o in ordered if n in o.standing) / total for n in names}
        results.append(OpponentResult(army, practice_ref(gauntlet, army), summarise(ordered, base), survival,
                                      worst_loss(ordered)))
    return results


def army_as_player(gauntlet: Gauntlet, army: Army) -> list[PlayerSheet]:
    """An army of the gauntlet in the player's seat (White), for the matrix.

    :raises ReferError: its sheets' errors."""
    sheets, diags = _army_sheets(gauntlet, army)
    if has_errors(diags):
        raise ReferError(diags)
    return sheets


def gauntlet_matrix(gauntlet: Gauntlet, seeds: Sequence[str], base: str, *,
                    pairs: Sequence[tuple[str, str]] | None = None, jobs: int = 1,
                    executor: ExecutorSpec = ExecutorSpec("process"),
                    on_done: Callable[[int], None] | None = None) -> dict[tuple[str, str], OddsSummary]:
    """``(a, b) -> summary`` of army ``a`` in the player's seat against army
    ``b``, over ``seeds``: every ordered pair of different armies, or ``pairs``.
    Why: a gauntlet is a range, not a set of dummies, when each army beats
    some other more often than not."""
    wanted = list(pairs) if pairs is not None else [(a.id, b.id) for a in gauntlet.armies for b in gauntlet.armies
                                                      if a.id != b.id]
    players = {a: army_as_player(gauntlet, gauntlet.army(a)) for a in dict.fromkeys(a for a, _ in wanted)}
    battles, _ = _built([(players[a], gauntlet.army(b)) for a, b in wanted], gauntlet)
    outcomes = _resolve_all(battles, seeds, jobs, executor, on_done)
    return {pair: summarise(found, base) for pair, found in zip(wanted, outcomes)}
