"""Lexical conventions shared by the parser, the printer and the receipt writer.

Text ↔ value for strings and quoted symbols. Keeping escaping in one place is a
security property: receipts written with :func:`quote_string` can never close
the string early, so tool output cannot become program text.

>>> quote_string('say "hi"\\n')
'"say \\\\"hi\\\\"\\\\n"'
>>> unquote('"a\\\\tb"')
'a\\tb'
>>> symbol_text("Human"), symbol_text("any text")
('Human', "'any text'")
"""

from __future__ import annotations

import re

__all__ = [
    "KEYWORDS",
    "BARE_SYMBOL",
    "quote_string",
    "quote_symbol",
    "symbol_text",
    "unquote",
]

#: Words the grammar treats specially somewhere; the printer quotes them as symbols.
KEYWORDS = frozenset({"AND", "OR", "NOT", "mod", "world", "external", "using"})

BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


class EscapeError(ValueError):
    """An unknown or malformed backslash escape; ``offset`` is within the literal."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def unquote(literal: str) -> str:
    """Decode a ``"..."`` or ``'...'`` literal (quotes included) into its text."""
    body = literal[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= n:
            raise EscapeError("a backslash ends the literal", i + 1)
        nxt = body[i + 1]
        if nxt == "u":
            digits = body[i + 2 : i + 6]
            if len(digits) != 4 or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise EscapeError("\\u needs exactly four hex digits", i + 1)
            out.append(chr(int(digits, 16)))
            i += 6
            continue
        if nxt not in _ESCAPES:
            raise EscapeError(f"unknown escape \\{nxt}", i + 1)
        out.append(_ESCAPES[nxt])
        i += 2
    return "".join(out)


def _escape(text: str, quote: str) -> str:
    out: list[str] = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == quote:
            out.append("\\" + quote)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029" or \
                0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def quote_string(text: str) -> str:
    """The ``.fx`` string literal for ``text``; every control character escaped."""
    return '"' + _escape(text, '"') + '"'


def quote_symbol(name: str) -> str:
    """The quoted-symbol literal ``'...'`` for ``name``."""
    return "'" + _escape(name, "'") + "'"


def symbol_text(name: str) -> str:
    """How a symbol is written: bare when the lexer reads it back as the same symbol."""
    if BARE_SYMBOL.match(name) and name not in KEYWORDS:
        return name
    return quote_symbol(name)
