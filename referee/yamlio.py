"""Loading untrusted YAML with positions, and JSON Schema checks that point at fields.

Every file the referee reads (skills, rulesets, sheets, battles) goes through
:func:`load_yaml`: it parses with a ``yaml.SafeLoader`` subclass (never executes
code) and keeps, for every value and every mapping key, the line and column it
came from, so a diagnostic can say ``kagura.yaml:3:14`` rather than "somewhere
in abilities". :func:`schema_diagnostics` then validates the plain data against
a schema shipped in ``referee/schemas/`` and turns *every* violation into a
:class:`~referee.diagnostics.Diagnostic` at the offending field (style lessons
4, 10, 11).

Three deliberate departures from plain ``yaml.safe_load``:

- timestamps are not resolved (``2007-12-13`` stays a string), so no input can
  produce a non-JSON value or crash the constructor with an impossible date;
- duplicate mapping keys are reported (PyYAML silently keeps the last one);
- the limits of :mod:`referee.limits` hold while composing, before anything
  is built: aliases, nodes once aliases are expanded (no "billion laughs", no
  merge-key bomb, no alias that contains itself), nesting depth and digits of
  a whole number -- each refused with a ``yaml-too-complex`` or
  ``number-too-large`` diagnostic at the offending line (docs/security.md).
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import fastjsonschema
import yaml
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from referee.confine import read_untrusted_text
from referee.diagnostics import Diagnostic, Severity
from referee.limits import MAX_INPUT_BYTES, MAX_NUMBER_DIGITS, MAX_YAML_ALIASES, MAX_YAML_DEPTH, MAX_YAML_NODES

#: A path into a YAML document: mapping keys and sequence indices.
FieldPath = tuple[Any, ...]

_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_STR_TAG = "tag:yaml.org,2002:str"


class _LimitError(Exception):
    """A document over one of the limits of :mod:`referee.limits`."""

    def __init__(self, mark: Any, code: str, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.code = code
        self.message = message


class _PositionLoader(yaml.SafeLoader):
    """SafeLoader without the timestamp resolver, refusing deep nesting while
    composing (before Python's recursion limit); see the module docstring.
    Used where libyaml is not installed (:data:`_Loader`)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def _mark(self) -> Any:
        """Where the next event starts."""
        return self.peek_event().start_mark  # type: ignore[no-untyped-call]

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise _LimitError(self._mark(), "yaml-too-complex",
                                  f"lists and mappings nested more than {MAX_YAML_DEPTH} deep")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    """A whole number, refused past :data:`MAX_NUMBER_DIGITS` digits (Python
    cannot even print integers of more than 4,300 digits)."""
    text = str(node.value)
    if sum(ch.isalnum() for ch in text) > MAX_NUMBER_DIGITS:
        raise _LimitError(node.start_mark, "number-too-large",
                          f"a number of {len(text)} characters; numbers have at most {MAX_NUMBER_DIGITS} digits")
    return yaml.SafeLoader.construct_yaml_int(loader, node)


_RESOLVERS = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_PositionLoader.yaml_implicit_resolvers = _RESOLVERS
_PositionLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)

#: The loader :func:`load_yaml` composes with: libyaml's when installed.
_Loader: Any = _PositionLoader
if getattr(yaml, "__with_libyaml__", False):
    class _LibyamlLoader(yaml.CSafeLoader):
        """libyaml's scanner and composer with :class:`_PositionLoader`'s
        resolvers and constructors: a file at the input size limit
        (:mod:`referee.limits`) loads in well under a second."""

    _LibyamlLoader.yaml_implicit_resolvers = _RESOLVERS
    _LibyamlLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
    _Loader = _LibyamlLoader

_OPENING = re.compile(r"[\[{]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_flow_depth(text: str) -> None:
    """Refuse brackets (``[[[...`` or ``{{{...``) nested past the limit, at
    the first one too deep, before any composer runs.

    Why before: libyaml composes recursively in C, where no recursion limit
    guards it.  Brackets inside quotes or comments count too -- nothing
    honest nests 32 of them.  Block collections nest by indentation, bounded
    by the file-size limit, and are checked after composing."""
    if len(_OPENING.findall(text)) <= MAX_YAML_DEPTH:
        return
    depth = 0
    line = column = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise _LimitError(_Mark(line, column), "yaml-too-complex",
                                  f"brackets nested more than {MAX_YAML_DEPTH} deep")
        elif ch in "]}":
            depth = max(0, depth - 1)
        if ch == "\n":
            line, column = line + 1, 0
        else:
            column += 1


@dataclass(frozen=True)
class _Mark:
    """A 0-based position, like PyYAML's marks."""

    line: int
    column: int


def _make_loader(text: str) -> Any:
    """A loader of ``text``, once its brackets are known not to nest too deep."""
    _check_flow_depth(text)
    return _Loader(text)


def _check_limits(root: yaml.Node) -> None:
    """The composed document within the limits, checked in linear time (each
    distinct node once, memoised): aliases (a node reached again), nesting
    depth, and nodes once every alias is expanded.

    :raises _LimitError: past a limit, or for a list or mapping that contains
        itself through an alias."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    aliases = 0

    def size(node: yaml.Node, depth: int) -> int:
        nonlocal aliases
        known = sizes.get(id(node))
        if known is not None:
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                raise _LimitError(node.start_mark, "yaml-too-complex",
                                  f"more than {MAX_YAML_ALIASES} aliases (*name) in one file")
            return known
        if id(node) in open_nodes:
            raise _LimitError(node.start_mark, "yaml-too-complex", "an alias refers to a list or mapping that contains it")
        if depth > MAX_YAML_DEPTH:
            raise _LimitError(node.start_mark, "yaml-too-complex",
                              f"lists and mappings nested more than {MAX_YAML_DEPTH} deep")
        open_nodes.add(id(node))
        total = 1
        if isinstance(node, yaml.SequenceNode):
            children: list[yaml.Node] = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        else:
            children = []
        for child in children:
            total += size(child, depth + 1)
            if total > MAX_YAML_NODES:
                raise _LimitError(node.start_mark, "yaml-too-complex",
                                  f"more than {MAX_YAML_NODES:,} values once its aliases are expanded")
        open_nodes.discard(id(node))
        sizes[id(node)] = total
        return total

    size(root, 1)


@dataclass(frozen=True)
class Position:
    """Where a YAML node starts. ``line``/``column`` are 1-based.

    ``content_column`` is where the scalar's text starts (one past the opening
    quote of a quoted scalar); ``style`` is PyYAML's scalar style (``None``, or
    ``''`` from libyaml, for plain; ``'"'``, ``"'"``, ``'|'``, ``'>'``) or
    ``"mapping"``/``"sequence"``.
    ``end_line`` is the 1-based line where the node ends.
    """

    line: int
    column: int
    content_column: int = 0
    style: str | None = None
    end_line: int = 0


@dataclass(frozen=True)
class YamlDocument:
    """Parsed YAML plus the position of every value and key.

    :param file: the path as it will appear in diagnostics.
    :param text: the source text (for caret lines).
    :param data: the plain Python value (dicts, lists, str, int, float, bool, None).
    :param values: position of the node at each path (``()`` is the root).
    :param keys: position of the mapping key that names each path.
    """

    file: str
    text: str
    data: Any
    values: Mapping[FieldPath, Position] = field(default_factory=dict)
    keys: Mapping[FieldPath, Position] = field(default_factory=dict)

    def position(self, path: Sequence[Any]) -> Position:
        """The value's position, else the nearest ancestor's, else line 0."""
        p = tuple(path)
        while True:
            if p in self.values:
                return self.values[p]
            if not p:
                return Position(1, 1)  # an empty document: its first line
            p = p[:-1]

    def key_position(self, path: Sequence[Any]) -> Position:
        """Where the key naming ``path`` is written, else :meth:`position`."""
        p = tuple(path)
        if p in self.keys:
            return self.keys[p]
        return self.position(p)

    @functools.cached_property
    def lines(self) -> list[str]:
        """The text's lines, split once (a diagnostic per line stays linear)."""
        return self.text.splitlines()

    def source_line(self, line: int) -> str | None:
        """The text of a 1-based line, or ``None`` if out of range."""
        lines = self.lines
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return None

    def diagnostic(
        self,
        path: Sequence[Any],
        code: str,
        message: str,
        *,
        hint: str | None = None,
        at_key: bool = False,
        column_offset: int | None = None,
        severity: Severity = "error",
    ) -> Diagnostic:
        """A diagnostic pointing at the value (or the key) at ``path``.

        ``column_offset`` points inside a scalar: the caret goes to its
        ``offset``-th character (single-line scalars only).
        """
        pos = self.key_position(path) if at_key else self.position(path)
        column = pos.column
        if column_offset is not None and pos.content_column:
            column = pos.content_column + column_offset
        return Diagnostic(
            file=self.file,
            line=pos.line,
            column=column,
            code=code,
            message=message,
            hint=hint,
            severity=severity,
            source_line=self.source_line(pos.line),
        )


def load_yaml(text: str, file: str) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """Parse ``text`` safely; never raises on bad input.

    Returns the document (``None`` on a syntax error) and diagnostics: a
    ``yaml-syntax`` error with the parser's line/column, or ``duplicate-key``
    errors (the document is still returned for those, the last value kept).

    Two paths, one answer: an honest file -- plain mappings, lists, text,
    whole numbers, no anchor, no duplicate key, as nearly every sheet and
    battle file is -- is built in one pass over the composed nodes
    (:func:`_load_plain`); anything else, or anything that pass is unsure
    of, is loaded again by the general path, which alone writes
    diagnostics, so the two cannot differ in what they report.
    """
    plain = _load_plain(text, file)
    if plain is not None:
        return plain, []
    return _load_yaml_general(text, file)


def _load_yaml_general(text: str, file: str) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """:func:`load_yaml` for any text: limits, constructors and positions in
    separate passes, every problem a diagnostic."""
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:  # not text at all: no UTF-8 encoder (libyaml's included) takes it
        err = _LimitError(_Mark(text.count("\n", 0, surrogate.start()),
                                surrogate.start() - (text.rfind("\n", 0, surrogate.start()) + 1)),
                          "encoding", f"a lone surrogate (U+{ord(surrogate.group()):04X}) is not a character")
        return None, [_limit_diagnostic(err, file, text)]
    try:
        loader = _make_loader(text)
    except yaml.reader.ReaderError as err:
        return None, [_reader_diagnostic(err, file, text)]
    except _LimitError as err:
        return None, [_limit_diagnostic(err, file, text)]
    try:
        node = loader.get_single_node()
        if node is not None:
            _check_limits(node)
        data = loader.construct_document(node) if node is not None else None
    except _LimitError as err:
        return None, [_limit_diagnostic(err, file, text)]
    except yaml.MarkedYAMLError as err:
        return None, [_syntax_diagnostic(err, file, text)]
    except yaml.reader.ReaderError as err:
        return None, [_reader_diagnostic(err, file, text)]
    except yaml.YAMLError as err:
        return None, [Diagnostic(file, 0, 0, "yaml-syntax", f"not valid YAML: {err}")]
    except RecursionError:
        return None, [Diagnostic(file, 0, 0, "yaml-syntax", "YAML nested too deeply")]
    except (ValueError, TypeError, OverflowError) as err:
        return None, [Diagnostic(file, 0, 0, "yaml-syntax", f"unreadable YAML value: {err}")]
    except (KeyError, IndexError):
        # PyYAML's constructors index an empty text tagged ``!!bool`` or
        # ``!!int`` (``abilities: !!bool``) without checking it: a value it
        # cannot read, said where it is rather than as a traceback.
        return None, [_empty_tagged_diagnostic(node, file)]
    finally:
        loader.dispose()
    values: dict[FieldPath, yaml.Node] = {}
    keys: dict[FieldPath, yaml.Node] = {}
    diags: list[Diagnostic] = []
    doc = YamlDocument(file, text, data, _NodePositions(values), _NodePositions(keys))
    if node is not None:
        _walk(node, (), values, keys, diags, doc, set())
    return doc, diags


def _empty_tagged_diagnostic(node: yaml.Node | None, file: str) -> Diagnostic:
    """The first scalar whose explicit tag wants a value its text cannot give
    (an empty ``!!bool``, ``!!int``, ``!!float``...), as a located ``yaml-syntax``."""
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.ScalarNode):
            if current.value == "" and current.tag not in (_STR_TAG, _NULL_TAG):
                mark = current.start_mark
                tag = current.tag.rsplit(":", 1)[-1]
                return Diagnostic(file, mark.line + 1, mark.column + 1, "yaml-syntax",
                                  f"unreadable YAML value: an empty value tagged !!{tag}",
                                  hint=f"write the value after !!{tag}, or drop the tag")
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(reversed(current.value))
        elif isinstance(current, yaml.MappingNode):
            for key, value in reversed(current.value):
                stack.extend((value, key))
    return Diagnostic(file, 0, 0, "yaml-syntax", "unreadable YAML value")


class _Unsure(Exception):
    """The plain path met something it leaves to the general one."""


_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_INT_TAG = "tag:yaml.org,2002:int"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NULL_TAG = "tag:yaml.org,2002:null"
#: Whole numbers ``int()`` reads exactly as YAML 1.1 does (no ``0x``, no
#: leading-zero octal, no ``_``, no ``1:30``) and within MAX_NUMBER_DIGITS.
_PLAIN_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]{0,%d})\Z" % (MAX_NUMBER_DIGITS - 2))
_BOOL_VALUES: Mapping[str, bool] = yaml.SafeLoader.bool_values


#: Longer texts go straight to the general path (see :func:`_load_plain`).
_PLAIN_MAX_CHARS = 64 * 1024


class _NodePositions(Mapping[FieldPath, Position]):
    """Positions by path, read off the composed node at each path when asked:
    a document that loads cleanly is asked for a handful (its skills' and
    patterns' lines), not one per value."""

    __slots__ = ("_nodes",)

    def __init__(self, nodes: dict[FieldPath, yaml.Node]) -> None:
        self._nodes = nodes

    def __getitem__(self, path: FieldPath) -> Position:
        return _position(self._nodes[path])

    def __contains__(self, path: object) -> bool:
        return path in self._nodes

    def __iter__(self) -> Any:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


def _plain_scalar(tag: str, text: str) -> Any:
    """A plain scalar's value from its resolved ``tag``: text, a whole number
    ``int()`` reads exactly, a null or a bool; raises :class:`_Unsure` for
    any other (floats, timestamps, odd integer forms: the general path's)."""
    if tag == _STR_TAG:
        return text
    if tag == _INT_TAG:
        if _PLAIN_INT.match(text):
            return int(text)
    elif tag == _NULL_TAG:
        return None
    elif tag == _BOOL_TAG:
        return _BOOL_VALUES[text.lower()]
    raise _Unsure


def _load_plain(text: str, file: str) -> YamlDocument | None:
    """The document when ``text`` is plain YAML, else ``None`` (the general
    path decides, and writes every diagnostic).

    Plain: no anchor (so no alias and no merge bomb: the text has no ``&``);
    only mappings, lists, text, ``int()``-exact whole numbers, booleans and
    nulls, under the default tags; text keys, none repeated; within the node
    and depth limits; at most :data:`_PLAIN_MAX_CHARS` characters (a sheet
    is about 200: a big file is not composed twice when it turns out not
    plain).  Data and the node at each path are built in one pass, where
    the general path takes three (limits, constructor, positions).  Anything
    else, or any error, is "unsure"."""
    if len(text) > _PLAIN_MAX_CHARS or "&" in text:
        return None
    try:
        loader = _make_loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except Exception:  # noqa: BLE001 - every problem is the general path's to word
        return None
    values: dict[FieldPath, yaml.Node] = {}
    keys: dict[FieldPath, yaml.Node] = {}
    count = 0

    def build(node: yaml.Node, path: FieldPath, depth: int) -> Any:
        nonlocal count
        count += 1
        if depth > MAX_YAML_DEPTH or count > MAX_YAML_NODES:
            raise _Unsure
        values[path] = node
        tag = node.tag
        kind = type(node)
        if kind is yaml.ScalarNode:
            return _plain_scalar(tag, node.value)
        if kind is yaml.MappingNode and tag == _MAP_TAG:
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                count += 1
                key = key_node.value
                if key_node.tag != _STR_TAG or type(key_node) is not yaml.ScalarNode or key in out:
                    raise _Unsure
                here = path + (key,)
                keys[here] = key_node
                out[key] = build(value_node, here, depth + 1)
            return out
        if kind is yaml.SequenceNode and tag == _SEQ_TAG:
            return [build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        raise _Unsure

    try:
        data = build(root, (), 1) if root is not None else None
    except Exception:  # noqa: BLE001 - _Unsure, or anything unforeseen: the general path
        return None
    return YamlDocument(file, text, data, _NodePositions(values), _NodePositions(keys))


def read_yaml_file(path: str | Path, display: str | None = None, *, root: str | Path | None = None,
                   limit: int = MAX_INPUT_BYTES) -> tuple[YamlDocument | None, list[Diagnostic]]:
    """Read and parse a YAML file through :func:`referee.confine.read_untrusted`
    (confined to ``root`` when given, regular files only, at most ``limit``
    bytes); every problem reading it is a diagnostic too."""
    name = display if display is not None else str(path)
    text, diags = read_untrusted_text(path, root, shown=name, limit=limit)
    if text is None:
        return None, diags
    return load_yaml(text, name)


def _limit_diagnostic(err: _LimitError, file: str, text: str) -> Diagnostic:
    line, column = err.mark.line + 1, err.mark.column + 1
    lines = text.splitlines()
    source = lines[line - 1] if 1 <= line <= len(lines) else None
    return Diagnostic(file, line, column, err.code, err.message, source_line=source)


def _reader_diagnostic(err: yaml.reader.ReaderError, file: str, text: str) -> Diagnostic:
    """A control character or similar: point at it (the reader gives an index)."""
    before = text[: err.position]
    line = before.count("\n") + 1
    column = err.position - (before.rfind("\n") + 1) + 1
    lines = text.splitlines()
    source = lines[line - 1] if 1 <= line <= len(lines) else None
    return Diagnostic(file, line, column, "yaml-syntax",
                      f"character U+{err.character:04X} is not allowed in YAML text", source_line=source)


def _syntax_diagnostic(err: yaml.MarkedYAMLError, file: str, text: str) -> Diagnostic:
    mark = err.problem_mark or err.context_mark
    line = mark.line + 1 if mark is not None else 0
    column = mark.column + 1 if mark is not None else 0
    problem = err.problem or "invalid YAML"
    message = f"YAML syntax error: {problem}"
    hint = None
    if err.context:
        hint = f"{err.context}"
        if err.context_mark is not None and err.context_mark is not mark:
            hint += f" (line {err.context_mark.line + 1}, column {err.context_mark.column + 1})"
    lines = text.splitlines()
    source = lines[line - 1] if 1 <= line <= len(lines) else None
    return Diagnostic(file, line, column, "yaml-syntax", message, hint=hint, source_line=source)


def _position(node: yaml.Node) -> Position:
    start, end = node.start_mark, node.end_mark
    style: str | None
    if isinstance(node, yaml.MappingNode):
        style = "mapping"
    elif isinstance(node, yaml.SequenceNode):
        style = "sequence"
    else:
        style = getattr(node, "style", None)
    content = start.column + 1 + (1 if style in ('"', "'") else 0)
    return Position(start.line + 1, start.column + 1, content, style, end.line + 1)


def _walk(
    node: yaml.Node,
    path: FieldPath,
    values: dict[FieldPath, yaml.Node],
    keys: dict[FieldPath, yaml.Node],
    diags: list[Diagnostic],
    doc: YamlDocument,
    seen: set[int],
) -> None:
    """Record the node at each path under ``path`` and report duplicate keys;
    aliases are visited once (no blow-up)."""
    values.setdefault(path, node)
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, path + (i,), values, keys, diags, doc, seen)
    elif isinstance(node, yaml.MappingNode):
        first_seen: dict[Any, Position] = {}
        for key_node, value_node in node.value:
            key = _scalar_key(key_node)
            key_pos = _position(key_node)
            if key in first_seen:
                prev = first_seen[key]
                diags.append(
                    Diagnostic(
                        doc.file,
                        key_pos.line,
                        key_pos.column,
                        "duplicate-key",
                        f"key {_show(key)} is given twice (first on line {prev.line}); the last one would win",
                        source_line=doc.source_line(key_pos.line),
                    )
                )
            else:
                first_seen[key] = key_pos
            keys[path + (key,)] = key_node
            _walk(value_node, path + (key,), values, keys, diags, doc, seen)


def _scalar_key(node: yaml.Node) -> Any:
    """The Python value of a mapping key as the constructor made it."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR_TAG:  # the common case, without building a loader per key
            return node.value
        loader = _PositionLoader("")
        try:
            return loader.construct_object(node)
        finally:
            loader.dispose()
    # Non-scalar keys already failed construction (unhashable); keep a marker.
    return ("<complex key>", node.start_mark.line, node.start_mark.column)


# ---------------------------------------------------------------------------
# JSON Schema


#: JSON Schema's "integer" accepts 5.0; a sheet's ``body: 5.0`` would then
#: pass ``check`` and fail later with no message.  Here a whole number is an
#: ``int`` and nothing else.
_StrictValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)),
)


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema shipped in ``referee/schemas/`` (``"skills"`` -> skills.schema.json)."""
    text = resources.files("referee").joinpath("schemas", f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return schema


def format_path(path: Iterable[Any]) -> str:
    """``("skills", 3, "cost") -> "skills[3].cost"``; the root is ``(top level)``."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


_TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "nothing",
}


def _type_of(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


@functools.cache
def _strict_validator(name: str) -> Any:
    """The jsonschema validator of a schema (one per process: schemas never change)."""
    return _StrictValidator(load_schema(name))


#: The schemas of the files a round reads by the thousand (sheets, battle
#: files).  Their keywords mean the same in draft 7, which fastjsonschema
#: reads, as in draft 2020-12 (a test checks), so a validator compiled from
#: each *as written* answers "valid" exactly when jsonschema finds nothing;
#: the ruleset and skills schemas (read once per process, with 2020-12's
#: ``prefixItems``) always go to jsonschema.
_COMPILED_SCHEMAS = frozenset({"character", "battle"})


@functools.cache
def _compiled_validator(name: str) -> Any:
    """fastjsonschema's validator of the schema as written, or None.

    Only its *valid* is trusted; on any failure jsonschema, which writes
    every message, validates again.  Data holding a float never takes this
    path: fastjsonschema counts 5.0 as an integer, which this project
    refuses (``_StrictValidator``)."""
    if name not in _COMPILED_SCHEMAS:
        return None
    return fastjsonschema.compile(load_schema(name))


def _holds_float(value: Any) -> bool:
    """Whether a float occurs anywhere in plain YAML data (keys included)."""
    if isinstance(value, dict):
        return any(_holds_float(k) or _holds_float(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_float(v) for v in value)
    return isinstance(value, float)


def schema_diagnostics(doc: YamlDocument, schema_name: str, *, base_path: FieldPath = ()) -> list[Diagnostic]:
    """Every violation of the named schema, each at its field's line/column.

    A schema node may carry ``"x-expected"`` (words for a player, e.g. "a
    pattern such as 火水風"); the message then says what was expected there.
    Unknown keys each get their own ``unknown-field`` diagnostic with a
    did-you-mean hint.
    """
    instance = doc.data
    for part in base_path:
        instance = instance[part]
    fast = _compiled_validator(schema_name)
    if fast is not None and not _holds_float(instance):
        try:
            fast(instance)
            return []  # valid: jsonschema would find nothing either (see _compiled_validator)
        except Exception:  # noqa: BLE001 - invalid or unsure: jsonschema writes the messages
            pass
    validator = _strict_validator(schema_name)
    diags: list[Diagnostic] = []
    seen: set[Diagnostic] = set()
    for err in sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path]):
        for diag in _translate(doc, base_path + tuple(err.absolute_path), err):
            if diag not in seen:  # jsonschema repeats e.g. one `required` per missing key
                seen.add(diag)
                diags.append(diag)
    return diags


def _translate(doc: YamlDocument, path: FieldPath, err: ValidationError) -> list[Diagnostic]:
    where = format_path(path)
    schema = err.schema if isinstance(err.schema, dict) else {}
    expected = schema.get("x-expected")
    kind = err.validator
    value: Any = err.validator_value
    if kind == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(str(k) for k in schema.get("properties", {}))
        extra = [k for k in err.instance if k not in schema.get("properties", {})]
        out = []
        for key in extra:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"allowed: {', '.join(allowed)}"
            inside = f" in {where}" if path else ""
            out.append(doc.diagnostic(path + (key,), "unknown-field", f"unknown field {key!r}{inside}", hint=hint, at_key=True))
        return out
    if kind == "required":
        missing = [r for r in value if isinstance(err.instance, dict) and r not in err.instance]
        return [
            doc.diagnostic(path, "missing-field", f"{where}: required field {name!r} is missing", at_key=True)
            for name in missing
        ]
    if expected:
        message = f"{where}: expected {expected}, got {_show(err.instance)}"
        return [doc.diagnostic(path, "invalid-value" if kind != "type" else "wrong-type", message, at_key=False)]
    if kind == "type":
        want = value
        wants = [want] if isinstance(want, str) else list(want)
        words = " or ".join(_TYPE_WORDS.get(w, w) for w in wants)
        return [doc.diagnostic(path, "wrong-type", f"{where} must be {words}, not {_type_of(err.instance)}")]
    if kind == "enum":
        options = ", ".join(str(v) for v in value)
        close = difflib.get_close_matches(str(err.instance), [str(v) for v in value], n=1)
        return [
            doc.diagnostic(
                path,
                "invalid-value",
                f"{where} must be one of {options}, not {_show(err.instance)}",
                hint=f"did you mean {close[0]!r}?" if close else None,
            )
        ]
    if kind == "const":
        return [doc.diagnostic(path, "invalid-value", f"{where} must be {value!r}")]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[kind]
        return [doc.diagnostic(path, "out-of-range", f"{where} must be {word} {value}, not {_show(err.instance)}")]
    if kind in ("minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"):
        word = "at least" if kind.startswith("min") else "at most"
        unit = "entries" if "Items" in kind else ("characters" if "Length" in kind else "keys")
        return [doc.diagnostic(path, "wrong-size", f"{where} must have {word} {value} {unit}")]
    if kind == "pattern":
        return [doc.diagnostic(path, "invalid-value", f"{where}: {_show(err.instance)} is not in the expected form")]
    if kind in ("oneOf", "anyOf") and err.context:
        # Report the alternative whose error is deepest (most specific).
        best = max(err.context, key=lambda e: len(e.absolute_path))
        return _translate(doc, path + tuple(best.relative_path), best)
    return [doc.diagnostic(path, "invalid-value", f"{where}: {err.message}")]


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
