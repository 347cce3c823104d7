"""Source text → statement pieces, with a fast path for plain facts.

Large knowledge bases are mostly facts such as ``edge(1, 2).``, ``o[m -> v].``
or ``o:c.``. Running the LALR parser on each costs about 50 µs; recognising
them with one regular expression costs about 1 µs. The scanner walks the file
statement by statement: plain facts become :class:`~fxlog.syntax.ast.PlainFact`
tuples, everything else is handed to the grammar as a separate piece, so a
parse error in one statement does not hide errors in the next.

>>> pieces = list(scan("edge(1, 2).\\np(?X) :- edge(?X, ?_).\\n"))
>>> [type(p).__name__ for p in pieces]
['PlainFact', 'Piece']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Union

from fxlog.syntax.ast import PlainFact

__all__ = ["MAX_NESTING", "Piece", "scan", "nesting_depth"]

#: Brackets nested deeper than this are refused before any recursive pass sees them.
MAX_NESTING = 100

_NAME = r"(?!(?:AND|OR|NOT)\b)[A-Za-z_][A-Za-z0-9_]*"
_ARG = r'(?:[A-Za-z_][A-Za-z0-9_]*|-?\d+(?![.\d])|"[^"\\\n,]*")'
_FACT = re.compile(
    rf"(?:(?P<pn>{_NAME})(?:\(\s*(?P<pa>{_ARG}(?:\s*,\s*{_ARG})*)\s*\))?"
    rf"|(?P<ao>{_ARG})\s*\[\s*(?P<am>{_NAME})\s*->\s*(?P<av>{_ARG})\s*\]"
    rf"|(?P<io>{_ARG})\s*(?P<ir>::?)\s*(?P<ic>{_ARG}))"
    r"\s*\.(?=\s|\Z|/[/*])"
)
_SKIP = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_TOKEN = re.compile(
    r'"(?:[^"\\]++|\\.)*+"'
    r"|'(?:[^'\\]++|\\.)*+'"
    r"|//[^\n]*|/\*.*?\*/"
    r"|\d+\.\d"
    r"|(?P<end>\.(?=\s|\Z|/[/*]|%))"
    r"|[^\"'/.\d]+|.",
    re.S,
)
_BRACKETS = re.compile(r"[][(){}]|\"(?:[^\"\\]++|\\.)*+\"|'(?:[^'\\]++|\\.)*+'", re.S)


@dataclass(frozen=True, slots=True)
class Piece:
    """One statement's text for the grammar, located by its start offset."""

    start: int
    end: int


Scanned = Union[PlainFact, Piece]  # noqa: UP007 - a runtime alias on 3.10


_ARG_SEPARATOR = re.compile(r"\s*,\s*")


def _split_args(text: str) -> tuple[str, ...]:
    """The fast path admits no commas inside arguments, so a split is exact."""
    if "," not in text:
        return (text,)
    return tuple(_ARG_SEPARATOR.split(text))


def scan(source: str) -> Iterator[Scanned]:
    """Yield plain facts and statement pieces in source order."""
    pos = 0
    n = len(source)
    fact_match = _FACT.match
    skip_match = _SKIP.match
    while True:
        skipped = skip_match(source, pos)
        pos = skipped.end() if skipped is not None else pos  # the pattern matches the empty string
        if pos >= n:
            return
        m = fact_match(source, pos)
        if m is not None:
            yield _plain_fact(m, pos)
            pos = m.end()
            continue
        end = _statement_end(source, pos)
        yield Piece(pos, end)
        pos = end


def _plain_fact(m: re.Match[str], pos: int) -> PlainFact:
    name = m.group("pn")
    if name is not None:
        args = m.group("pa")
        parts = (name, *_split_args(args)) if args is not None else (name,)
        return PlainFact("pred", parts, pos)
    if m.group("am") is not None:
        return PlainFact("attr", (m.group("ao"), m.group("am"), m.group("av")), pos)
    kind = "sub" if m.group("ir") == "::" else "isa"
    return PlainFact(kind, (m.group("io"), m.group("ic")), pos)


def _statement_end(source: str, pos: int) -> int:
    """Offset just past the ``.`` that ends the statement starting at ``pos``."""
    for tok in _TOKEN.finditer(source, pos):
        if tok.lastgroup == "end":
            return tok.end()
    return len(source)


def nesting_depth(text: str) -> int:
    """Deepest bracket nesting in ``text``, ignoring brackets inside literals."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(text):
        ch = m.group()
        if ch in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in ")]}":
            depth -= 1
    return deepest
