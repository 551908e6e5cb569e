"""Parse plan text into the AST, reporting every syntax error of a file.

The grammar (``grammar/plan.lark``) is built once per process, LALR with
``strict=True`` so that any conflict or terminal collision fails at build
time, never on a player's file.

Recovery: a clause is one line. A file is first parsed whole (the fast path
for the common, correct file); if that fails, each line is parsed on its own
so that one bad line never hides the next (style lesson 11) and the correct
lines still reach the semantic pass. Lark's exceptions are translated here, at
the boundary, into :class:`~referee.diagnostics.Diagnostic` with stable codes
and words a player understands; nothing else in the package sees a lark type.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any, Collection, Iterable

from lark import Lark, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from referee.diagnostics import Diagnostic
from referee.limits import MAX_PLAN_LINE_CHARS, MAX_PLAN_LINES
from referee.plan import ast as A
from referee.plan.format import KEYWORDS
from referee.plan.parsercache import cache_dir, cached_parser
from referee.plan.transformer import PlanTransformer
from referee.textcheck import text_problems

#: The grammar's path in a source checkout (``referee/grammar/plan.lark`` in
#: the package is a symlink to it, copied into wheels).
SOURCE_GRAMMAR = Path(__file__).resolve().parent.parent.parent / "grammar" / "plan.lark"
#: Deepest nesting of parentheses and ``not`` a line may have (keeps every
#: recursive walk of the AST far from Python's recursion limit).
MAX_NESTING = 40

#: Words that start a clause, for "did you mean" on an unknown first word.
CLAUSE_STARTS: tuple[str, ...] = (
    "use", "never", "with", "for", "target", "only", "extend", "friendly", "counter",
    "heal", "stack", "maintain", "release", "move", "hold", "keep",
)
_SKILL_BEFORE = frozenset({"use", "stack", "maintain", "release", "extend", "with", "for", "readies"})
_CONDITION_START = frozenset({"HP", "TURN", "ENEMIES", "ACTING", "ENGAGED"})
_CLAUSE_START = frozenset({"USE", "EXTEND", "MOVE", "HOLD"})
_RANK_START = frozenset({"NEAREST", "LOWEST", "MOST"})
_NOT_IN_WORD = frozenset('()#"「')
_NOT_WORD = re.compile(r"(?<![\w'’=＝・-])not(?![\w'’=＝・-])", re.IGNORECASE)
_COMMENT = re.compile(r"#.*$")


def _grammar_text() -> str:
    """The grammar from the installed package, else from the source tree."""
    try:
        return resources.files("referee").joinpath("grammar/plan.lark").read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, OSError):
        return SOURCE_GRAMMAR.read_text(encoding="utf-8")


#: The options the parser is built with (also part of the cache key).
PARSER_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "strict": True,
    "propagate_positions": True,
    "maybe_placeholders": False,
    "start": ["plan", "clause_line", "condition_text"],
}


@functools.lru_cache(maxsize=1)
def plan_parser() -> Lark:
    """The plan parser, built once per process (LALR, contextual lexer,
    strict), its tables kept in the per-user cache of
    :mod:`referee.plan.parsercache` so the next process loads them in a
    tenth of the time."""
    grammar = _grammar_text()
    parser, _ = cached_parser(grammar, PARSER_OPTIONS, lambda: Lark(grammar, **PARSER_OPTIONS), cache_dir())
    return parser


# --------------------------------------------------------------------- public


def parse_plan(text: str, file: str = "<string>", line_offset: int = 0) -> tuple[A.Plan, list[Diagnostic]]:
    """Parse a whole plan.

    :param text: the plan's text (a ``.plan`` file or a sheet's inline block).
    :param file: the name diagnostics and :attr:`Plan.file` carry.
    :param line_offset: added to every line number (a plan embedded in another file).
    :returns: the plan -- every clause that parsed, in file order, even when
        other lines have errors -- and every syntax diagnostic. Never raises on
        any input.
    """
    text = _normalise(text)
    lines = text.split("\n")
    if len(lines) > MAX_PLAN_LINES:
        # Refused before any parsing: the cost of a huge plan is the attack.
        return A.Plan((), file, line=1 + line_offset, column=1), [Diagnostic(
            file, MAX_PLAN_LINES + 1 + line_offset, 1, "plan-too-long",
            f"a plan has at most {MAX_PLAN_LINES} lines (comments and blank lines included); this one has {len(lines)}")]
    diags: list[Diagnostic] = []
    refused = _refused_lines(lines, file, line_offset)
    diags += refused.values()
    deep = [i for i, line in enumerate(lines) if i not in refused and _nesting(line) > MAX_NESTING]
    if not deep and not refused:
        try:
            tree = plan_parser().parse(text, start="plan")
        except UnexpectedInput:
            pass
        else:
            tr = PlanTransformer(file, line_shift=line_offset)
            clauses = tr.transform(tree)
            return A.Plan(tuple(clauses), file, line=1 + line_offset, column=1), _with_sources(tr.diagnostics, lines, line_offset)
    clauses = []
    for index, line in enumerate(lines):
        if not _has_content(line):
            continue
        lineno = index + 1 + line_offset
        if index in refused:
            continue
        if index in deep:
            diags.append(_too_deep(file, lineno, line))
            continue
        try:
            tree = plan_parser().parse(line, start="clause_line")
        except UnexpectedInput as err:
            diags.append(_translate(err, file, lineno, 0, line, mode="clause"))
            continue
        tr = PlanTransformer(file, line_shift=index + line_offset)
        clauses.append(tr.transform(tree))
        diags.extend(tr.diagnostics)
    return A.Plan(tuple(clauses), file, line=1 + line_offset, column=1), _with_sources(diags, lines, line_offset)


def parse_condition(text: str, file: str = "<string>", line: int = 1, column: int = 1) -> tuple[A.Condition | None, list[Diagnostic]]:
    """Parse a condition on its own: a pattern's condition on a sheet (R-PAT-2).

    :param line: the line of the condition's first character in ``file``.
    :param column: its column there.
    :returns: the condition (``None`` when it has errors) and the diagnostics.
        A condition about ``target`` is an error here: a pattern is chosen
        before any skill considers a target (R-PAT-3).
    """
    text = _normalise(text)
    source = text.split("\n")[0]
    if "\n" in text.strip():
        return None, [Diagnostic(file, line, column, "condition-lines", "a pattern's condition must fit on one line", source_line=None)]
    refused = _refused_lines([text], file, line - 1)
    if refused:
        return None, [replace(d, column=d.column + column - 1) for d in refused.values()]
    if _nesting(text) > MAX_NESTING:
        return None, [_too_deep(file, line, source, column - 1)]
    try:
        tree = plan_parser().parse(text, start="condition_text")
    except UnexpectedInput as err:
        return None, [_translate(err, file, line, column - 1, source, mode="condition")]
    tr = PlanTransformer(file, line_shift=line - 1, column_shift=column - 1)
    cond: A.Condition = tr.transform(tree)
    diags = list(tr.diagnostics)
    for node in iter_conditions(cond):
        if getattr(node, "subject", None) == "target":
            diags.append(Diagnostic(file, node.line, node.column, "target-without-skill",
                                    "'target' means the target a skill is considering; a pattern's condition has none",
                                    hint="use 'ally ...', 'enemies in range ...' or your own 'hp ...'"))
    return (None if diags else cond), diags


def iter_conditions(cond: A.Condition) -> Iterable[A.Condition]:
    """Every condition node of ``cond``, itself first (pre-order)."""
    stack: list[A.Condition] = [cond]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (A.And, A.Or)):
            stack.extend(reversed(node.parts))
        elif isinstance(node, A.Not):
            stack.append(node.operand)


# ------------------------------------------------------------------ internals


def _normalise(text: str) -> str:
    """Drop a BOM and carriage returns (columns are unchanged)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _refused_lines(lines: list[str], file: str, line_offset: int) -> dict[int, Diagnostic]:
    """Lines never handed to the parser, by index: longer than
    :data:`MAX_PLAN_LINE_CHARS` (a 40 KB line took 30 s to diagnose), or
    holding a control character, an escape code or a lone surrogate (they
    would reach reports and terminals)."""
    out: dict[int, Diagnostic] = {}
    for index, line in enumerate(lines):
        if len(line) > MAX_PLAN_LINE_CHARS:
            out[index] = Diagnostic(file, index + 1 + line_offset, MAX_PLAN_LINE_CHARS + 1, "line-too-long",
                                    f"a plan line has at most {MAX_PLAN_LINE_CHARS} characters; this one has {len(line)}",
                                    source_line=line[:MAX_PLAN_LINE_CHARS])
    for number, column, words in text_problems("\n".join(lines)):
        if number - 1 not in out:
            out[number - 1] = Diagnostic(file, number + line_offset, column, "bad-character", words,
                                         source_line=lines[number - 1].encode("utf-8", "replace").decode("utf-8"))
    return out


def _has_content(line: str) -> bool:
    stripped = line.strip(" \t\u3000")
    return bool(stripped) and not stripped.startswith("#")


def _nesting(line: str) -> int:
    """A cheap upper bound of how deep a line's condition nests."""
    depth = best = 0
    for ch in line:
        if ch == "(":
            depth += 1
            best = max(best, depth)
        elif ch == ")":
            depth = max(0, depth - 1)
    return best + len(_NOT_WORD.findall(line))


def _too_deep(file: str, line: int, source: str, column_shift: int = 0) -> Diagnostic:
    return Diagnostic(file, line, 1 + column_shift, "too-deeply-nested",
                      f"this line nests parentheses and 'not' more than {MAX_NESTING} deep; write it more simply",
                      source_line=source)


def _with_sources(diags: list[Diagnostic], lines: list[str], line_offset: int) -> list[Diagnostic]:
    out = []
    for d in diags:
        index = d.line - 1 - line_offset
        src = lines[index] if 0 <= index < len(lines) and d.source_line is None else d.source_line
        out.append(Diagnostic(d.file, d.line, d.column, d.code, d.message, d.hint, d.severity, src))
    return out


def _describe_terminal(name: str) -> str | None:
    """A terminal as a player would call it (None: not worth listing)."""
    if name in ("NAME", "STRING"):
        return "a name"
    if name == "INT":
        return "a number"
    if name == "OP":
        return "a comparison such as >=, <= or ="
    if name in ("_NL", "$END"):
        return None
    if name == "LPAR":
        return "'('"
    if name == "RPAR":
        return "')'"
    if name == "_WHEN":
        return "'when'"
    return "'" + name.lower().lstrip("_") + "'"


def _describe_expected(expected: Collection[str], prev: str | None) -> str:
    """What the parser wanted, in words."""
    exp = set(expected)
    if _CONDITION_START <= exp:
        return "a condition such as 'hp <= 4', 'ally hp lost >= 5' or 'enemies in range >= 2'"
    if _RANK_START <= exp:
        return ("a target: nearest, farthest, lowest hp, highest hp, most hp lost, least hp lost, "
                "'ally with ...' or a character's name")
    prev_l = (prev or "").lower()
    if prev_l in ("toward", "towards") and "NAME" in exp:
        return "where to go: 'nearest enemy', 'nearest ally', 'ally with ...', a character's name or a square like d4"
    if prev_l == "to" and "NAME" in exp:
        return "a square such as d4"
    if prev_l in _SKILL_BEFORE and "NAME" in exp:
        return "a skill name" if prev_l != "readies" else "a skill name or a class such as counter"
    if prev_l == "target" and "NAME" in exp:
        return "a character's name"
    named = exp - {"_NL", "$END"}
    if prev is not None and not prev_l.startswith(('"', "「")) and named - {"NAME", "STRING"}:
        # after a bare word the name may go on; that is never the useful hint
        named -= {"NAME", "STRING"}
    words = sorted({w for w in (_describe_terminal(n) for n in named) if w})
    if not words:
        return "the end of the line"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _previous_word(line: str, column: int) -> str | None:
    """The word just before 1-based ``column`` of ``line``: a quoted name, a
    parenthesis or a run of word characters, trailing spaces skipped.

    Scans backwards once (linear); the regular expression it replaces was
    tried at every start position, quadratic on a long line (issue 17, point 6).

    >>> _previous_word('use "Big Bang" first', 15), _previous_word("hold (", 7), _previous_word("  ", 3)
    ('"Big Bang"', '(', None)
    """
    head = line[: max(column - 1, 0)]
    end = len(head)
    while end and head[end - 1].isspace():
        end -= 1
    if not end:
        return None
    last = head[end - 1]
    if last in "()":
        return last
    if last == '"':
        start = head.rfind('"', 0, end - 1)
        return head[start:end] if start >= 0 else None
    if last == "」":
        start = head.find("「", head.rfind("」", 0, end - 1) + 1, end - 1)
        if start >= 0:
            return head[start:end]
    start = end
    while start and not (head[start - 1].isspace() or head[start - 1] in _NOT_IN_WORD):
        start -= 1
    return head[start:end] if start < end else None


def _content_end(line: str) -> int:
    """1-based column just after the last character before any comment."""
    return len(_COMMENT.sub("", line).rstrip(" \t\u3000")) + 1


def _translate(err: UnexpectedInput, file: str, line: int, column_shift: int, source: str, *, mode: str) -> Diagnostic:
    """One lark error -> one diagnostic (code, words, position)."""
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        column = _content_end(source)
        prev = _previous_word(source, column)
        what = _describe_expected(err.expected, prev)
        if prev is None:
            return Diagnostic(file, line, column + column_shift, "unexpected-end", f"expected {what}", source_line=source)
        return Diagnostic(file, line, column + column_shift, "unexpected-end",
                          f"expected {what} after '{prev}', but the line ends there",
                          hint=_name_hint(err.expected, prev), source_line=source)
    column = int(getattr(err, "column", 0) or 1)
    prev = _previous_word(source, column)
    if isinstance(err, UnexpectedToken):
        found = str(err.token)
        expected: Collection[str] = err.expected
    else:
        assert isinstance(err, UnexpectedCharacters)
        found = source[column - 1] if 0 < column <= len(source) else "?"
        expected = err.allowed or set()
    shown = found if len(found) <= 24 else found[:21] + "..."
    if prev is None and mode == "clause":
        word = found.split()[0].lower() if found.split() else found
        close = difflib.get_close_matches(word, CLAUSE_STARTS, n=1, cutoff=0.6)
        start_hint = PHRASE_HINTS.get(word) or (f"did you mean '{close[0]}'?" if close else (
            "a clause starts with use, never, with, target, only, extend, friendly fire, "
            "counter allies, heal even when unhurt, stack, maintain, release, move, hold position or keep away"))
        return Diagnostic(file, line, column + column_shift, "unknown-clause",
                          f"'{shown}' does not start a clause", hint=start_hint, source_line=source)
    if mode == "clause" and prev is not None and prev.lower() == "attack" and \
            source[: column - 1].strip().lower() == "attack":
        # soulwired's `attack object at SQ` made `attack` a clause word; any
        # other `attack X` is still the natural phrasing the hint answers.
        first = len(source) - len(source.lstrip(" \t\u3000")) + 1
        return Diagnostic(file, line, first + column_shift, "unknown-clause", "'attack' does not start a clause",
                          hint=PHRASE_HINTS["attack"] + " (soulwired: 'attack object at SQ')", source_line=source)
    what = _describe_expected(expected, prev)
    code = "unexpected-character" if isinstance(err, UnexpectedCharacters) else "unexpected-token"
    after = f" after '{prev}'" if prev is not None else ""
    hint = PHRASE_HINTS.get(found.lower()) or PHRASE_HINTS.get(f"{(prev or '').lower()} _") or _name_hint(expected, prev)
    return Diagnostic(file, line, column + column_shift, code, f"expected {what}{after}, found '{shown}'",
                      hint=hint, source_line=source)


#: Shaped hints for what players naturally write (issue 14): a clause's first
#: word, a word found where a keyword was due, or ``"PREV _"`` for a word after
#: PREV.  The plan language is small; these say which of its clauses was meant.
PHRASE_HINTS: dict[str, str] = {
    "attack": "to choose whom skills hit, write 'target NAME' (or 'target lowest hp'); "
              "to attack with a skill first, 'use SKILL first'",
    "hit": "to choose whom skills hit, write 'target NAME'; to use a skill first, 'use SKILL first'",
    "strike": "to choose whom skills hit, write 'target NAME'; to use a skill first, 'use SKILL first'",
    "cast": "write 'use SKILL first' (or 'use SKILL only when ...')",
    "if": "the condition comes last: 'use rest first when hp <= 4'",
    "when": "the condition comes last: 'use rest first when hp <= 4'",
    "while": "write 'when' (or 'if'): 'use rest first when hp <= 4'",
    "whenever": "write 'when' (or 'if')",
    "unless": "write 'when not ...': 'use rest first when not engaged'",
    "retreat": "write 'keep away from enemies [when ...]'",
    "flee": "write 'keep away from enemies [when ...]'",
    "run": "write 'keep away from enemies [when ...]'",
    "go": "write 'move toward NAME', 'move toward nearest enemy' or 'move to d4'",
    "walk": "write 'move toward NAME', 'move toward nearest enemy' or 'move to d4'",
    "approach": "write 'move toward NAME' or 'move toward nearest enemy'",
    "advance": "write 'move toward nearest enemy'",
    "charge": "write 'move toward nearest enemy'",
    "wait": "write 'hold position [when ...]'",
    "stay": "write 'hold position [when ...]'",
    "defend": "write 'hold position [when ...]'",
    "heal _": "to heal someone, put the heal first ('use rest first when ally hp lost >= 3') "
              "and name them ('with rest target NAME'); 'heal even when unhurt' allows healing the unhurt",
}


def _name_hint(expected: Collection[str], prev: str | None) -> str | None:
    """When a keyword was swallowed as (part of) a name, say so."""
    # the parser still wants the keyword it has just seen: it took it as a name
    if prev is not None and prev.lower() in KEYWORDS and prev.upper() in expected:
        return f"'{prev}' was read as a name here; is a name missing before it? (quote names that contain keywords)"
    # a misspelt keyword after a name reads as more of the name ('use rest frist')
    if prev is not None and prev.lower() not in KEYWORDS:
        wanted = sorted(k.lower() for k in expected if k.lower() in KEYWORDS)
        close = difflib.get_close_matches(prev.lower(), wanted, n=1, cutoff=0.75)
        if close:
            return f"did you mean '{close[0]}'? ('{prev}' was read as part of a name)"
    return None




# ------------------------------------------------- remembered parses (issue 18)

#: :func:`parse_plan_remembered`'s memo: (text, line offset) -> a clean parse.
_REMEMBERED: dict[tuple[str, int], A.Plan] = {}
_REMEMBERED_MAX = 1024
#: Longer plans are parsed each time (the memo's memory stays bounded).
_REMEMBERED_TEXT_MAX = 8192


def parse_plan_remembered(text: str, file: str = "<string>", line_offset: int = 0) -> tuple[A.Plan, list[Diagnostic]]:
    """:func:`parse_plan`, a clean parse remembered per process by its text.

    Why: players copy plans, so a round's distinct sheets share a few plan
    texts, and a sheet's plan is parsed when the sheet is checked and again
    for the engine.  The AST does not depend on the file it came from except
    :attr:`Plan.file` (a label, outside equality), which is set per call; the
    nodes are frozen, so sharing them between sheets and battles is safe.  A
    plan with any diagnostic is parsed each time (its diagnostics name their
    file)."""
    key = (text, line_offset)
    plan = _REMEMBERED.get(key)
    if plan is not None:
        return (plan if plan.file == file else replace(plan, file=file)), []
    plan, diags = parse_plan(text, file, line_offset)
    if not diags and len(text) <= _REMEMBERED_TEXT_MAX:
        if len(_REMEMBERED) >= _REMEMBERED_MAX:
            _REMEMBERED.clear()
        _REMEMBERED[key] = plan
    return plan, diags
