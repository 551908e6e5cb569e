"""Reading the players' text files: UTF-8, or a diagnostic that says what it is.

Every file a player or organiser writes (sheets, plans, battles, rulesets) is
UTF-8 (interfaces.md).  Forum players on Japanese Windows save Shift_JIS
(cp932), Notepad may save UTF-16; "not UTF-8 (byte 2)" helps none of them.
:func:`decode_text` names the encoding it recognises and the fix, or points at
the first byte that is not UTF-8 by line and column (docs/decisions.md,
"Organiser's day").  A UTF-8 byte-order mark is accepted and dropped.
Files are read only through :func:`referee.confine.read_untrusted` (confined,
size-limited, never blocking), which decodes with :func:`decode_text`.
"""

from __future__ import annotations

from referee.diagnostics import Diagnostic

__all__ = ["ENCODING_HINT", "decode_text"]

#: How to fix any of these files, in one sentence.
ENCODING_HINT = ("save the file as UTF-8 (Notepad: File > Save As > Encoding: UTF-8; "
                 "or `iconv -f SHIFT_JIS -t UTF-8 old > new`)")

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decode_text(raw: bytes, name: str) -> tuple[str | None, list[Diagnostic]]:
    """``raw`` decoded as UTF-8 (BOM dropped), else ``None`` and one ``encoding`` error.

    >>> decode_text("名前".encode("shift_jis"), "a.yaml")[1][0].message
    'a.yaml is Shift_JIS (Japanese Windows) text, not UTF-8'
    """
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as err:
        bad = err.start
    what = _recognise(raw)
    if what is not None:
        return None, [Diagnostic(name, 0, 0, "encoding", f"{name} is {what} text, not UTF-8", hint=ENCODING_HINT)]
    line_start = raw.rfind(b"\n", 0, bad) + 1
    line = raw.count(b"\n", 0, bad) + 1
    column = len(raw[line_start:bad].decode("utf-8", errors="replace")) + 1
    line_end = raw.find(b"\n", bad)
    source = raw[line_start: line_end if line_end >= 0 else len(raw)].decode("utf-8", errors="replace").rstrip("\r")
    return None, [Diagnostic(name, line, column, "encoding",
                             f"byte 0x{raw[bad]:02X} is not UTF-8; the file must be UTF-8 text",
                             hint=ENCODING_HINT, source_line=source)]


def _recognise(raw: bytes) -> str | None:
    """The name of the encoding ``raw`` is evidently in, or ``None``.

    UTF-16 shows by its byte-order mark or by NUL bytes between ASCII letters;
    Shift_JIS by decoding cleanly as cp932 with some Japanese in it."""
    if raw.startswith(_UTF16_BOMS):
        return "UTF-16"
    sample = raw[:400]
    if len(sample) >= 4 and sample.count(b"\x00") * 3 >= len(sample):
        return "UTF-16"
    try:
        text = raw.decode("cp932")
    except UnicodeDecodeError:
        return None
    if any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in text):
        return "Shift_JIS (Japanese Windows)"
    return None
