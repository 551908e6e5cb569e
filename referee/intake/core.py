"""The intake core: one function decides what a submission is, what it checks,
what it stores and what receipt it yields.

Mail (:mod:`referee.intake.mail`) and the web page only carry a
:class:`Submission` here and a :class:`~referee.intake.receipt.Receipt` back.
:func:`submit`, under the round's intake lock:

1. finds the player -- by the id a web sign-in gives, else by the sender's
   registered address -- and requires their token (compared in constant
   time); anyone else gets no effect, and at most one polite reply per
   player per :data:`~referee.limits.REFUSAL_REPLY_INTERVAL_SECONDS`, sent
   to the roster's address;
2. maps each file to one of the player's roster files (the name it came
   with is a hint, never a path) and decodes it to UTF-8 text;
3. checks it as ``referee check --lint`` does, against every battle of the
   round that uses it (the round's files as the round will use them, with
   this submission's files in place, in a private copy); only diagnostics in
   the player's own files are reported -- other players' plans stay private;
4. stores every version (content-addressed), decides which is current -- a
   valid one; one with errors only when the player says ``use: this`` --
   and writes one ledger line, the moment it counts; then brings the
   round's files in line with the current versions.

After the lock (``referee lock``: the seed commitment exists) files are kept
as late and never used.
"""

from __future__ import annotations

import codecs
import os
import re
import shutil
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any, Iterable

from referee.app.batch import find_battles
from referee.app.inputs import parsed_clauses
from referee.app.seeds import COMMITMENT_FILE
from referee.confine import UnsafePathError, read_untrusted, without_place
from referee.diagnostics import Diagnostic, ReferError, position_key
from referee.intake.receipt import Clause, FileReceipt, Notice, Receipt
from referee.intake.roster import (ROSTER_FILE, Player, Roster, file_kind, load_roster, normal_address,
                                   token_matches)
from referee.intake.store import Inbox, LedgerState, sha256_hex, sync_round_files
from referee.limits import MAX_ATTACHMENT_BYTES, MAX_FILES_PER_MESSAGE, REFUSAL_REPLY_INTERVAL_SECONDS
from referee.textcheck import printable
from referee.textfile import decode_text

__all__ = [
    "IncomingFile",
    "Submission",
    "Round",
    "open_round",
    "current_round",
    "sign_in",
    "submit",
    "check_submission",
    "is_locked",
    "lock_round",
    "pending_receipts",
    "mark_replied",
    "decode_file",
    "battle_teams",
    "round_ruleset",
]

#: Charsets a file or body may be declared in; anything else is refused with
#: a reply that says so.  Japanese mail clients send ISO-2022-JP and Shift_JIS.
ACCEPTED_CHARSETS = frozenset({"utf-8", "ascii", "iso2022_jp", "shift_jis", "cp932", "euc_jp", "latin-1"})

_USE = re.compile(r"^(this|[0-9a-f]{8,64})$")


@dataclass(frozen=True)
class IncomingFile:
    """One file as it arrived.

    :param name: the name it came with (an attachment's file name, a fence's
        label), used only to tell which of the player's files it is.
    :param data: its bytes, transfer encoding (base64...) already undone.
    :param charset: the declared charset, ``None`` when none was declared (UTF-8 expected).
    """

    name: str | None
    data: bytes
    charset: str | None = None


@dataclass(frozen=True)
class Submission:
    """One submission, whatever carried it.

    :param key: what makes it unique: the same key is filed once (mail: the
        Message-ID and the body's digest; web: a request id).
    :param received: when it arrived (aware datetime).
    :param channel: ``mail`` or ``web`` (recorded, never decides anything else).
    :param sender: mail: the From address, which must be the player's; web: ``None``.
    :param player: web: the signed-in player id; mail: ``None`` (found by address).
    :param use: ``this`` (this submission's files become current even with
        errors) or a sha256 prefix of an earlier version to make current.
    :param notices: what the carrier refused before the core (an HTML-only
        mail, an archive, an unknown charset...).
    """

    key: str
    received: datetime
    channel: str
    token: str | None
    sender: str | None = None
    player: str | None = None
    files: tuple[IncomingFile, ...] = ()
    use: str | None = None
    notices: tuple[Notice, ...] = ()


@dataclass
class Round:
    """A round folder opened for intake: its roster and its inbox.

    :param roster_stamp: the roster file's identity when it was read (see
        :func:`current_round`)."""

    folder: Path
    roster: Roster
    inbox: Inbox
    roster_stamp: tuple[int, ...] = ()


def open_round(round_dir: str | Path) -> Round:
    """The round's roster (checked) and inbox.

    :raises ReferError: the folder or its roster has a problem (every diagnostic).
    """
    folder = Path(round_dir)
    if not folder.is_dir():
        raise ReferError([Diagnostic(str(folder), 0, 0, "not-a-folder", f"{folder} is not a folder")])
    stamp = _roster_stamp(folder)
    roster, diags = load_roster(folder)
    if roster is None:
        raise ReferError(diags)
    inbox = Inbox(folder)
    with inbox.locked():
        inbox.tidy(roster.files)
    return Round(folder, roster, inbox, stamp)


def _roster_stamp(folder: Path) -> tuple[int, ...]:
    try:
        info = (folder / ROSTER_FILE).stat()
    except OSError:
        return ()
    return info.st_ino, info.st_size, info.st_mtime_ns


def current_round(rnd: Round) -> Round:
    """``rnd``, or the round opened again when its roster file changed since
    it was read: a server that runs for days must honour a token the
    organiser renewed (``referee roster token``) or a player added.

    :raises ReferError: the changed roster has errors."""
    return rnd if _roster_stamp(rnd.folder) == rnd.roster_stamp else open_round(rnd.folder)


def is_locked(folder: Path) -> bool:
    """The round is locked once its seed commitment exists: the commitment is the deadline."""
    return (folder / COMMITMENT_FILE).exists()


def _now() -> datetime:
    return datetime.now(timezone.utc)


def lock_round(rnd: Round, now: datetime | None = None) -> Any:
    """Freeze the inbox and commit to the seeds (``referee seeds commit``),
    under the intake lock so no submission is filed half before and half after.

    :returns: the :class:`~referee.app.seeds.RoundCommitment`.
    :raises ReferError: already committed.
    """
    from referee.app.seeds import commit_round

    with rnd.inbox.locked():
        sync_round_files(rnd.inbox, rnd.roster.files)
        sealed = commit_round(rnd.folder)
        rnd.inbox.append({"type": "lock", "at": (now or _now()).isoformat(), "commitment": sealed.commitment})
    return sealed


# -- decoding ------------------------------------------------------------------


def decode_file(data: bytes, charset: str | None, shown: str) -> tuple[str | None, Notice | None]:
    """A file's text: UTF-8 (or a declared Japanese charset) with line ends
    made ``\\n``, or a notice saying why it was refused."""
    if len(data) > MAX_ATTACHMENT_BYTES:
        return None, Notice("file-too-large", shown, str(len(data)))
    text: str | None
    codec = _codec(charset)
    if codec is None:
        return None, Notice("encoding-refused", shown, printable(str(charset))[:40])
    if codec in ("utf-8", "ascii"):
        text, _ = decode_text(data, shown)
        if text is None:
            return None, Notice("encoding-refused", shown, codec)
    else:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            return None, Notice("encoding-refused", shown, codec)
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n"), None


def _codec(charset: str | None) -> str | None:
    if charset is None:
        return "utf-8"
    try:
        name = codecs.lookup(charset.strip().strip('"')).name
    except (LookupError, ValueError):
        return None
    name = {"iso8859-1": "latin-1", "us-ascii": "ascii"}.get(name, name)
    return name if name in ACCEPTED_CHARSETS else None


def _match_file(player: Player, name: str | None, taken: set[str]) -> tuple[str | None, Notice | None]:
    """Which of the player's files ``name`` is: by kind (``.yaml``/``.plan``),
    then the roster path itself (the web page names it so), the only one of
    that kind, else the one with that file name."""
    shown = printable(name or "")[:80] or "(unnamed)"
    kind = file_kind(name or "")
    if kind is None:
        return None, Notice("not-a-file-kind", shown)
    owned = player.sheets if kind == "sheet" else player.plans
    base = PurePosixPath((name or "").replace("\\", "/")).name.lower()
    match = [f for f in owned if f == name] or [f for f in owned if PurePosixPath(f).name.lower() == base]
    if not match and len(owned) == 1:
        match = list(owned)
    if not match:
        return None, Notice("unknown-file", shown)
    if match[0] in taken:
        return None, Notice("duplicate-file", shown)
    return match[0], None


# -- checking ------------------------------------------------------------------


def _round_files(folder: Path) -> Iterable[str]:
    """The round's sheets, plans, battles and rulesets (round-relative), not
    the inbox or reports."""
    for dirpath, dirnames, filenames in os.walk(folder):
        rel_dir = os.path.relpath(dirpath, folder)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                             and not (rel_dir == "." and d in ("intake", "reports")))
        for name in sorted(filenames):
            if file_kind(name) is not None and not name.startswith("."):
                rel = os.path.normpath(os.path.join(rel_dir, name)).replace(os.sep, "/")
                yield rel


def _stage(rnd: Round, overlay: dict[str, bytes]) -> Path:
    """A private copy of the round's files with ``overlay`` in place: what the
    round would be if these versions were current."""
    work = rnd.inbox.folder / "work" / "round"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for rel in _round_files(rnd.folder):
        if rel in overlay:
            continue
        try:
            data = read_untrusted(rnd.folder / rel, rnd.folder, shown=rel)
        except UnsafePathError:
            continue  # the organiser's check of the round says why
        _write(work, rel, data)
    for rel, data in overlay.items():
        _write(work, rel, data)
    return work


def _write(work: Path, rel: str, data: bytes) -> None:
    target = work / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _plan_reference(data: Any) -> str | None:
    """The plan file a sheet's ``plan`` field names (``None``: inline or none)."""
    raw = data.get("plan") if isinstance(data, dict) else None
    if isinstance(raw, dict) and isinstance(raw.get("file"), str):
        return str(raw["file"])
    if isinstance(raw, str) and "\n" not in raw.strip() and raw.strip().lower().endswith(".plan"):
        return raw.strip()
    return None


def battle_teams(battle: Path, root: Path) -> tuple[dict[str, list[str]], str | None]:
    """A battle file's sheets by team (paths relative to ``root``) and the
    ruleset it names (a built-in's name, or a path relative to ``root``),
    read from the file alone -- the sheets need not exist or be valid."""
    from referee.battlefile import read_battle

    doc, _ = read_battle(battle)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    ruleset = data.get("ruleset", "tcgt")
    if isinstance(ruleset, str) and ("/" in ruleset or ruleset.endswith((".yaml", ".yml"))):
        ruleset = _norm(battle.parent, ruleset, root)
    teams = data.get("teams")
    out: dict[str, list[str]] = {}
    for team, paths in teams.items() if isinstance(teams, dict) else ():
        sheets = [_norm(battle.parent, p, root) if isinstance(p, str) else None
                  for p in (paths if isinstance(paths, list) else ())]
        out[str(team)] = [s for s in sheets if s is not None]
    return out, ruleset if isinstance(ruleset, str) else None


def round_ruleset(root: Path) -> str:
    """The ruleset to check a file against when no battle uses it: the one
    every battle of the round names (a path for a house ruleset), else tcgt."""
    named = {battle_teams(b, root)[1] for b in find_battles(root)}
    if len(named) != 1 or None in named:
        return "tcgt"
    only = str(next(iter(named)))
    return only if "/" not in only and not only.endswith((".yaml", ".yml")) else str(root / only)


def _uses(work: Path) -> dict[str, set[str]]:
    """Each battle's files (its sheets and their plan files), round-relative."""
    from referee.yamlio import read_yaml_file

    uses: dict[str, set[str]] = {}
    for battle in find_battles(work):
        files: set[str] = set()
        for sheets in battle_teams(battle, work)[0].values():
            for sheet in sheets:
                files.add(sheet)
                sheet_doc, _ = read_yaml_file(work / sheet, root=work)
                plan = _plan_reference(sheet_doc.data if sheet_doc is not None else None)
                plan_rel = _norm((work / sheet).parent, plan, work) if plan else None
                if plan_rel is not None:
                    files.add(plan_rel)
        uses[battle.relative_to(work).as_posix()] = files
    return uses


def _norm(base: Path, rel: str, work: Path) -> str | None:
    joined = os.path.normpath(os.path.join(base, rel))
    inside = os.path.relpath(joined, work)
    return None if inside.startswith("..") or os.path.isabs(rel) else inside.replace(os.sep, "/")


@dataclass(frozen=True)
class _Checked:
    diagnostics: tuple[Diagnostic, ...]
    battles: tuple[str, ...]
    clauses: tuple[Clause, ...]


def _check(rnd: Round, player: Player, overlay: dict[str, bytes]) -> dict[str, _Checked]:
    """Each overlaid file checked as ``referee check --lint`` checks it,
    against every battle using it (or alone when none does yet)."""
    if not overlay:
        return {}
    from referee.app.lint import lint_files
    from referee.commands.check import check_files

    work = _stage(rnd, overlay)
    try:
        return _check_staged(work, player, overlay)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _check_staged(work: Path, player: Player, overlay: dict[str, bytes]) -> dict[str, _Checked]:
    from referee.app.lint import lint_files
    from referee.commands.check import check_files

    prefix = str(work) + "/"
    uses = _uses(work)
    ruleset = round_ruleset(work)
    by_battle: dict[str, list[Diagnostic]] = {}

    def own(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
        out = []
        for d in diags:
            rel = d.file[len(prefix):] if d.file.startswith(prefix) else d.file
            if rel in player.files:
                # a receipt names no path of the organiser's disk (the private copy's place)
                out.append(replace(d, file=rel, message=without_place(d.message, work),
                                   hint=without_place(d.hint, work) if d.hint is not None else None))
        return out

    result = {}
    for rel in overlay:
        battles = sorted(b for b, files in uses.items() if rel in files)
        found: dict[tuple[Any, ...], Diagnostic] = {}
        for battle in battles:
            if battle not in by_battle:
                path = [str(work / battle)]
                by_battle[battle] = own(check_files(path, ruleset) + lint_files(path, ruleset))
            for d in by_battle[battle]:
                found.setdefault((d.file, d.line, d.column, d.code), d)
        alone = [str(work / rel)]
        extra = own((check_files(alone, ruleset) if not battles else []) + lint_files(alone, ruleset))
        for d in extra:
            found.setdefault((d.file, d.line, d.column, d.code), d)
        result[rel] = _Checked(tuple(sorted(found.values(), key=position_key)), tuple(battles), _clauses(work, rel, ruleset))
    return result


def _redacted(checked: _Checked, token: str | None) -> _Checked:
    """``checked`` with the token blanked wherever a quoted line holds it (a
    token pasted inside a file must not come back in a receipt)."""
    if not token:
        return checked

    def blank(text: str | None) -> str | None:
        return text.replace(token, "[token]") if text is not None else None

    return _Checked(tuple(replace(d, message=str(blank(d.message)), hint=blank(d.hint),
                                  source_line=blank(d.source_line)) for d in checked.diagnostics),
                    checked.battles, tuple(Clause(c.line, str(blank(c.text))) for c in checked.clauses))


def _clauses(work: Path, rel: str, ruleset_name: str) -> tuple[Clause, ...]:
    """The plan as the referee understood it: a plan file's clauses, or a
    sheet's inline plan (lines as in the sheet)."""
    from referee.battlefile import parse_plan_of
    from referee.plan.parser import parse_plan
    from referee.ruleset import load_ruleset
    from referee.sheet import load_sheet

    path = work / rel
    if file_kind(rel) == "plan":
        text = path.read_text(encoding="utf-8")
        plan, _ = parse_plan(text, rel)
        return tuple(Clause(c["line"], c["clause"]) for c in parsed_clauses(plan))
    try:
        sheet, _ = load_sheet(path, load_ruleset(ruleset_name))
    except ReferError:
        return ()
    if sheet is None or sheet.plan_file not in (None, sheet.file):
        return ()
    plan, _ = parse_plan_of(sheet)
    return tuple(Clause(c["line"] + sheet.plan_line_offset, c["clause"]) for c in parsed_clauses(plan))


# -- the one function ------------------------------------------------------------


def submit(rnd: Round, sub: Submission) -> Receipt:
    """File one submission; the receipt to give back (``to`` is ``None`` when
    no reply is to be sent).  The same ``key`` twice is filed once: the
    second time returns the first receipt."""
    with rnd.inbox.locked() as state:
        if sub.key in state.keys:
            return Receipt.from_json(state.receipts[sub.key])
        receipt, record = _decide(rnd, sub, state)
        if receipt.player is None:
            return receipt  # a stranger's: no effect, no reply, nothing to remember
        rnd.inbox.append(record)
        sync_round_files(rnd.inbox, rnd.roster.files)
        return receipt


def check_submission(rnd: Round, sub: Submission) -> Receipt:
    """What :func:`submit` would answer, without storing or changing
    anything: the web page's *Check* (identity, the checks, the states the
    files would get).  ``to`` is always ``None``: nothing is sent."""
    with rnd.inbox.locked() as state:
        receipt, _ = _decide(rnd, sub, state, keep=False)
    return replace(receipt, to=None)


def _identify(roster: Roster, sub: Submission) -> Player | None:
    """The player this is, when the sender (if any) is theirs and the token matches."""
    player = roster.player(sub.player) if sub.player is not None else (
        roster.by_address(sub.sender) if sub.sender else None)
    if player is None:
        return None
    if sub.sender is not None and normal_address(sub.sender) not in {normal_address(a) for a in player.addresses}:
        return None
    return player if token_matches(player.token_hash, sub.token) else None


def sign_in(rnd: Round, player_id: str, token: str) -> Player | None:
    """The player whose id and token these are (the web page's sign-in), by
    the same test :func:`submit` applies to every submission; ``None`` for
    anyone else.  Stores nothing."""
    return _identify(rnd.roster, Submission("", _now(), "web", token, player=player_id))


def _reply_address(player: Player, sender: str | None) -> str:
    """The roster's own spelling of the address the mail came from (else the first)."""
    wanted = normal_address(sender or "")
    return next((a for a in player.addresses if normal_address(a) == wanted), player.addresses[0])


def _decide(rnd: Round, sub: Submission, state: LedgerState, *, keep: bool = True
            ) -> tuple[Receipt, dict[str, Any]]:
    """The receipt and the ledger line of ``sub``; ``keep=False`` stores
    nothing (a check before submitting)."""
    roster = rnd.roster
    at = sub.received.isoformat()
    locked = is_locked(rnd.folder)
    base = Receipt(key=sub.key, outcome="refused", round=roster.label, lang="en", received=at,
                   deadline=roster.deadline.isoformat() if roster.deadline else None, locked=locked)
    record: dict[str, Any] = {"type": "submission", "key": sub.key, "at": at, "channel": sub.channel}
    player = _identify(roster, sub)
    if player is None:
        claimed = roster.player(sub.player) if sub.player is not None else (
            roster.by_address(sub.sender) if sub.sender else None)
        receipt = replace(base, player=claimed.id if claimed else None, notices=tuple(sub.notices),
                          player_name=claimed.name if claimed else "", lang=claimed.lang if claimed else "en")
        if claimed is not None and sub.channel == "mail" and _may_refuse_again(state, claimed.id, sub.received):
            receipt = replace(receipt, to=_reply_address(claimed, sub.sender))
        record.update(refused=True, player=receipt.player, replied_to=receipt.to, receipt=receipt.to_json())
        return receipt, record
    base = replace(base, player=player.id, player_name=player.name, lang=player.lang,
                   to=_reply_address(player, sub.sender))
    notices = list(sub.notices)
    taken: dict[str, bytes] = {}
    for incoming in sub.files:
        if len(taken) >= MAX_FILES_PER_MESSAGE:
            notices.append(Notice("too-many-files", str(MAX_FILES_PER_MESSAGE)))
            break
        rel, problem = _match_file(player, incoming.name, set(taken))
        if problem is None and rel is not None:
            text, problem = decode_file(incoming.data, incoming.charset, printable(incoming.name or rel)[:80])
            if text is not None:
                taken[rel] = text.encode("utf-8", "surrogatepass")
        if problem is not None:
            notices.append(problem)
    made_current: dict[str, str] = {}
    if sub.use is not None and sub.use != "this" and not locked:
        found = _earlier_version(state, player, sub.use)
        if found is None:
            notices.append(Notice("unknown-version", printable(sub.use)[:64]))
        else:
            made_current[found[0]] = found[1]
    if not taken and not made_current:
        if not notices:
            notices.append(Notice("no-files"))
        receipt = replace(base, outcome="nothing", notices=tuple(notices))
        record.update(player=player.id, receipt=receipt.to_json())
        return receipt, record
    revalidated: dict[str, str] = {}
    files, promoted, items = _file_versions(rnd, player, taken, sub, state, locked, made_current, revalidated,
                                            keep=keep)
    outcome = "late" if locked else "filed"
    receipt = replace(base, outcome=outcome, files=tuple(files), promoted=tuple(promoted), notices=tuple(notices))
    record.update(player=player.id, files=items, made_current=made_current, revalidated=revalidated,
                  receipt=receipt.to_json())
    return receipt, record


def _may_refuse_again(state: LedgerState, player_id: str, now: datetime) -> bool:
    last = state.refusals.get(player_id)
    if not last:
        return True
    try:
        return (now - datetime.fromisoformat(last)).total_seconds() >= REFUSAL_REPLY_INTERVAL_SECONDS
    except (ValueError, TypeError):
        return True


def _earlier_version(state: LedgerState, player: Player, prefix: str) -> tuple[str, str] | None:
    if _USE.match(prefix) is None:
        return None
    hits = {(v.file, v.sha256) for rel in player.files for v in state.versions.get(rel, ())
            if v.sha256.startswith(prefix) and not v.late}
    return next(iter(hits)) if len(hits) == 1 else None


def _file_versions(rnd: Round, player: Player, taken: dict[str, bytes], sub: Submission, state: LedgerState,
                   locked: bool, made_current: dict[str, str], revalidated: dict[str, str], *, keep: bool = True
                   ) -> tuple[list[FileReceipt], list[FileReceipt], list[dict[str, Any]]]:
    """Store and check each taken file; decide which versions are current
    (``made_current`` and ``revalidated`` are filled in for the ledger)."""
    checked = {rel: _redacted(c, sub.token) for rel, c in _check(rnd, player, taken).items()}
    files: list[FileReceipt] = []
    items: list[dict[str, Any]] = []
    for rel, data in taken.items():
        sha = rnd.inbox.put(data) if keep else sha256_hex(data)
        result = checked[rel]
        valid = not any(d.is_error and d.file == rel for d in result.diagnostics)
        previous = made_current.get(rel, state.current.get(rel))
        if locked:
            state_word, current = "late", state.current.get(rel)
        elif valid or sub.use == "this":
            state_word, current = ("current" if valid else "current-invalid"), sha
        else:
            state_word, current = ("kept-previous" if previous else "none-valid"), previous
        items.append({"file": rel, "sha256": sha, "valid": valid, "late": locked,
                      "current": current == sha and not locked})
        files.append(FileReceipt(rel, sha, len(data), state_word, current, result.diagnostics, result.battles,
                                 result.clauses))
    chosen = [FileReceipt(rel, sha, len(rnd.inbox.get(sha)), "current" if version.valid else "current-invalid", sha)
              for rel, sha in made_current.items() for version in [state.version(rel, sha)] if version is not None]
    promoted: list[FileReceipt] = []
    if not locked and keep:
        promoted = _promote(rnd, player, {str(i["file"]): i for i in items}, state)
    for p in promoted:
        made_current[p.file] = p.sha256
        revalidated[p.file] = p.sha256
    return files, chosen + promoted, items


def _promote(rnd: Round, player: Player, items: dict[str, dict[str, Any]], state: LedgerState) -> list[FileReceipt]:
    """Earlier versions of the player's other files that were refused only for
    want of what this submission brings (a sheet whose plan file was missing):
    checked again with the new current versions, and made current if now valid."""
    waiting = {}
    for rel in player.files:
        latest = state.latest(rel)
        if rel in items or latest is None or latest.valid or latest.sha256 == state.current.get(rel):
            continue
        waiting[rel] = latest.sha256
    if not waiting or not any(i["current"] for i in items.values()):
        return []
    overlay = {rel: rnd.inbox.get(sha) for rel, sha in waiting.items()}
    overlay.update({rel: rnd.inbox.get(i["sha256"]) for rel, i in items.items() if i["current"]})
    checked = _check(rnd, player, overlay)
    out = []
    for rel, sha in waiting.items():
        result = checked[rel]
        if not any(d.is_error and d.file == rel for d in result.diagnostics):
            out.append(FileReceipt(rel, sha, len(overlay[rel]), "current", sha, result.diagnostics, result.battles,
                                   result.clauses))
    return out


# -- receipts after a crash -------------------------------------------------------


def pending_receipts(rnd: Round) -> list[Receipt]:
    """Receipts decided but not yet recorded as sent (a crash between the
    ledger and the mail): sent again by the next run, in ledger order."""
    with rnd.inbox.locked() as state:
        return [Receipt.from_json(r) for key, r in state.receipts.items()
                if key not in state.replied and r.get("to")]


def mark_replied(rnd: Round, key: str) -> None:
    """Record that the receipt of ``key`` was handed to the mail server."""
    with rnd.inbox.locked() as state:
        if key not in state.replied:
            rnd.inbox.append({"type": "replied", "key": key})
