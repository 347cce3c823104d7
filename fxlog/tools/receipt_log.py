"""Receipts file → :class:`LoadedReceipts` (facts, completed and started requests).

The host reloads the receipts file at every start and replay reads nothing
else, so loading must be fast and strict. Lines the writer produced are read by
a small dedicated reader (the general parser costs ~0.6 ms per receipt line,
which would make a 10,000-call file take seconds); anything else, such as a
hand-edited line, goes through the real parser and must turn out to be plain
ground facts. A torn last line, left by a crash during a write, is a warning,
not a reason to lose the rest of the file.

>>> loaded = load_receipts_text(
...     '// fxlog receipts v1\\np(1)[tool#started -> "t0"; tool#seq -> 1].\\n', "r.fx")
>>> [term_text(t) for t in loaded.started_only], loaded.max_seq
(['p(1)'], 1)
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from operator import itemgetter
from typing import Final

from fxlog.errors import Diagnostic, DiagnosticSink, ProgramError, Span, UsageError
from fxlog.syntax import ast
from fxlog.syntax.lexical import KEYWORDS, quote_string, symbol_text, unquote
from fxlog.syntax.parser import SourceMap, parse_program, parse_statement
from fxlog.syntax.scanner import scan

__all__ = [
    "HEADER",
    "TORN_MARKER",
    "LoadedReceipts",
    "StartMarker",
    "escape_surrogates",
    "line_parses",
    "number_text",
    "load_receipts",
    "load_receipts_text",
    "parse_term",
    "quote_text",
    "term_text",
]

#: First line of every receipts file the writer creates.
HEADER: Final = "// fxlog receipts v1"
#: Appended after a line a crash cut short, so the line stays ignored once more lines follow.
TORN_MARKER: Final = "// fxlog: the line above was cut short by an interrupted write; ignored"
_HEADER_RE = re.compile(r"//\s*fxlog receipts v(\d+)\s*\Z")
_HINT = "receipts files hold facts only; was it edited by hand?"
_SURROGATE = re.compile("[\ud800-\udfff]")
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_STR = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
_NUM = r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"
_TOKEN = re.compile(
    rf"[ \t]*(?:(?P<s>{_STR})|(?P<q>'[^'\\\n]*(?:\\.[^'\\\n]*)*')|(?P<n>{_NUM})"
    rf"|(?P<qn>{_NAME}#{_NAME})|(?P<id>{_NAME})|(?P<t>\\(?:true|false)(?![A-Za-z0-9_]))"
    r"|(?P<p>->|[][(){},;]))"
)


def _spec_pattern(group: str) -> str:
    """One `method -> value` spec as the writer prints it: the hot path of loading."""
    return (rf"[ \t]*({group}{_NAME}(?:#{_NAME})?(?:\((?:\d+, ?)?{_STR}\))?)[ \t]*->[ \t]*"
            rf"(?:({group}{_STR})|({group}{_NUM})|({group}{_NAME}))[ \t]*")


# Any character no spec starts at lands in the last group, so one findall both
# splits a frame into specs and proves that nothing lies between them.
_SPECS = re.compile(_spec_pattern("") + r"([;,\]])|([^\n])")
_SUBJECT = re.compile(rf"[ \t]*({_NAME}(?:\((?:[^\n()\[\]\"']|{_STR})*\))?)[ \t]*\[")
_LINE_END = re.compile(r"[ \t]*\.[ \t\r]*(?://.*)?\Z")


class _NotPlain(Exception):
    """The text is not in the plain ground form the fast reader handles."""


def quote_text(text: str) -> str:
    """:func:`quote_string`, plus ``\\uXXXX`` for lone surrogates UTF-8 cannot encode."""
    return escape_surrogates(quote_string(text))


def escape_surrogates(literal_text: str) -> str:
    """Escape lone surrogates in printed terms; they can only stand inside quotes."""
    if _SURROGATE.search(literal_text) is None:
        return literal_text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", literal_text)


def number_text(value: int | Decimal) -> str:
    """An exact number as ``.fx`` text; ints of any size (past Python's str() cap too)."""
    if isinstance(value, Decimal):
        return str(value)
    try:
        return int.__repr__(value)
    except ValueError:  # beyond sys.get_int_max_str_digits(); Decimal has no such cap
        return str(Decimal(value))


def _number(text: str) -> int | Decimal:
    """Literal → value exactly as the parser reads it (integral decimals become ints)."""
    if "." not in text and "e" not in text and "E" not in text:
        return int(text) if len(text) < 4000 else int(Decimal(text))
    value = Decimal(text)
    if value == value.to_integral_value() and abs(value.adjusted()) < 40:
        return int(value)
    return value


class _Reader:
    """Recursive descent over ground terms: symbols, strings, numbers, f(...), {...}."""

    __slots__ = ("text", "pos", "end", "span")

    def __init__(self, text: str, pos: int, end: int, span: Span) -> None:
        self.text, self.pos, self.end, self.span = text, pos, end, span

    def token(self) -> tuple[str, str]:
        m = _TOKEN.match(self.text, self.pos, self.end)
        if m is None or m.lastgroup is None:
            raise _NotPlain(self.pos)
        self.pos = m.end()
        return m.lastgroup, m.group(m.lastgroup)

    def punct(self, allowed: str) -> str:
        kind, text = self.token()
        if kind != "p" or text not in allowed.split():
            raise _NotPlain(self.pos)
        return text

    def at(self, text: str) -> bool:
        saved = self.pos
        try:
            return self.token() == ("p", text)
        except _NotPlain:
            return False
        finally:
            self.pos = saved

    def term(self) -> ast.Term:
        kind, text = self.token()
        span = self.span
        if kind == "s":
            return ast.Str(unquote(text), span)
        if kind == "n":
            return ast.Num(_number(text), span)
        if kind == "t":
            return ast.Sym(text[1:], span)
        if kind == "p" and text == "{":
            return ast.SetTerm(self.items("}"), span)
        if kind == "qn":
            ns, local = text.split("#", 1)
            functor: ast.Sym | ast.QName = ast.QName(ns, local, span)
        elif kind == "q" or (kind == "id" and text not in KEYWORDS):
            functor = ast.Sym(unquote(text) if kind == "q" else text, span)
        else:
            raise _NotPlain(self.pos)
        if not self.at("("):
            return functor
        self.token()
        if self.at(")"):
            self.token()
            return functor  # `f()` is the symbol itself, as in the parser
        return ast.Compound(functor, self.items(")"), span)

    def items(self, close: str) -> tuple[ast.Term, ...]:
        out = [self.term()]
        while self.punct(f", {close}") == ",":
            out.append(self.term())
        return tuple(out)

    def whole(self) -> ast.Term:
        term = self.term()
        if self.text[self.pos:self.end].strip(" \t"):
            raise _NotPlain(self.pos)
        return term


def parse_term(text: str, file: str = "<term>") -> ast.Term:
    """Read one ground term (``checkHuman(socrates)``, ``"x"``, ``-2.5``).

    Raises:
        ValueError: if ``text`` is anything else (a variable, two terms, a molecule).
    """
    span = Span(file, 0, len(text), 1, 1)
    try:
        return _Reader(text, 0, len(text), span).whole()
    except _NotPlain as exc:
        raise ValueError(f"not a ground term (stopped at offset {exc.args[0]})") from None
    except ValueError as exc:  # a bad escape in a literal
        raise ValueError(f"not a ground term: {exc}") from None


def term_text(term: ast.Term) -> str:
    """Print a ground term so that :func:`parse_term` reads the same term back."""
    if isinstance(term, ast.Sym):
        return symbol_text(term.name)
    if isinstance(term, ast.Str):
        return quote_text(term.value)
    if isinstance(term, ast.Num):
        return number_text(term.value)
    if isinstance(term, ast.QName):
        return f"{term.ns}#{term.local}"
    if isinstance(term, ast.Compound):
        return f"{term_text(term.functor)}({', '.join(term_text(a) for a in term.args)})"
    if isinstance(term, ast.SetTerm):
        return "{" + ", ".join(term_text(t) for t in term.items) + "}"
    raise ValueError(f"not a ground data term: {type(term).__name__}")


class _Cache:
    """Nodes already built, by their text: receipt lines repeat most of their specs."""

    __slots__ = ("terms", "specs")

    def __init__(self) -> None:
        self.terms: dict[str, ast.Term] = {}
        self.specs: dict[tuple[str, ...], ast.Spec] = {}

    def new_spec(self, found: tuple[str, ...], span: Span) -> ast.Spec:
        method = self.term(found[0], span)
        spec = ast.Spec(method, "->", (self.value(found, span),), None, span)
        self.specs[found] = spec
        return spec

    def term(self, text: str, span: Span) -> ast.Term:
        node = self.terms.get(text)
        if node is None:
            node = self.terms[text] = _Reader(text, 0, len(text), span).whole()
        return node

    def value(self, found: tuple[str, ...], span: Span) -> ast.Term:
        string, number, name = found[1:4]
        if string:
            return ast.Str(unquote(string), span)
        if number:
            return ast.Num(_number(number), span)
        if name in KEYWORDS:
            raise _NotPlain(0)
        return ast.Sym(name, span)


_SEP = itemgetter(4)


def _fast_specs(text: str, pos: int, end: int, span: Span, cache: _Cache) -> list[ast.Spec] | None:
    """All specs of a line ending in ``].`` with one C-level regex pass, if it has the
    writer's shape; ``None`` sends the line to the general reader."""
    while end > pos and text[end - 1] in " \t\r":
        end -= 1
    if text[end - 2:end] != "].":
        return None
    found = _SPECS.findall(text, pos, end - 1)
    seps = list(map(_SEP, found))
    # Exactly one "]" and it comes last; an empty separator means a stray character.
    if not seps or seps[-1] != "]" or seps.count("]") != 1 or "" in seps:
        return None
    get, new = cache.specs.get, cache.new_spec
    return [get(f) or new(f, span) for f in found]


def _fast_fact(text: str, start: int, end: int, span: Span, cache: _Cache) -> ast.Rule:
    """``term[m -> v; ...].`` on one line → the same Rule the parser would build.

    Specs and terms that repeat across lines are shared: each keeps the span of
    the line where it first occurred.
    """
    simple = _SUBJECT.match(text, start, end)
    if simple is not None:
        subject, pos = cache.term(simple.group(1), span), simple.end()
        specs = _fast_specs(text, pos, end, span, cache)
    else:
        specs = None
    if specs is None:
        reader = _Reader(text, start, end, span)
        subject = reader.term()
        reader.punct("[")
        specs = _general_specs(reader)
        if _LINE_END.match(text, reader.pos, end) is None:
            raise _NotPlain(reader.pos)
    mol = ast.Molecule(subject, None, None, (ast.FrameBlock(tuple(specs), False, span),), span)
    return ast.Rule((ast.HeadLiteral(mol, False, span),), None, ":-", span)


def _general_specs(reader: _Reader) -> list[ast.Spec]:
    specs: list[ast.Spec] = []
    sep = ""
    while sep != "]":
        method = reader.term()
        reader.punct("->")
        value = reader.term()
        values = value.items if isinstance(value, ast.SetTerm) else (value,)
        specs.append(ast.Spec(method, "->", values, None, reader.span))
        sep = reader.punct("; , ]")
    return specs


_MAYBE_BLANK = frozenset(("", " ", "\t", "\r", "/", "\f", "\v"))


def _blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("//")


def line_parses(line: str) -> bool:
    """Whether one line reads as complete statements (the writer's torn-tail check)."""
    if _blank(line):
        return True
    try:
        _fast_fact(line, 0, len(line), Span("<line>", 0, 0, 1, 1), _Cache())
        return True
    except (_NotPlain, ValueError):
        pass
    try:
        parse_program(line + "\n", "<line>")
    except ProgramError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class StartMarker:
    """A request that began running: enough to write its ``interrupted`` receipt."""

    request: ast.Term
    tool_name: str | None
    seq: int | None
    started: str | None
    line: int

    @property
    def text(self) -> str:
        """The identity as fxlog text, for :func:`~fxlog.tools.receipts.interrupted_receipt`."""
        return term_text(self.request)


@dataclass(frozen=True)
class LoadedReceipts:
    """What a receipts file says: its facts and which requests ran.

    Attributes:
        program: the facts, in file order (only facts).
        completed: identities with ``tool#completed -> true``: never run again.
        started_only: identities with a start marker and no completion, by
            ``tool#seq``: the process died while they ran.
        markers: the start marker of every started identity.
        max_seq: the highest ``tool#seq`` seen (0 for none), so numbering continues.
        warnings: torn lines, duplicate receipts.
    """

    program: ast.Program
    completed: frozenset[ast.Term]
    started_only: tuple[ast.Term, ...]
    markers: Mapping[ast.Term, StartMarker]
    max_seq: int
    warnings: tuple[Diagnostic, ...]


def load_receipts(path: str | os.PathLike[str]) -> LoadedReceipts:
    """Load a receipts file (see :func:`load_receipts_text`).

    Raises:
        UsageError: the file does not exist.
        ProgramError: the file holds anything but facts, or a line other than
            the last cannot be parsed.
    """
    file = os.fspath(path)
    try:
        with open(file, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise UsageError(f"receipts file {file} does not exist") from None
    try:
        text, bad = data.decode("utf-8"), frozenset[int]()
    except UnicodeDecodeError:
        text, bad = data.decode("utf-8", "replace"), _bad_lines(data)
    with _gc_paused():
        return _Loader(text, file, bad).run()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Loading creates ~10 acyclic objects per fact; letting the cyclic collector
    rescan them again and again made 10,000 receipts load twice as slowly."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _bad_lines(data: bytes) -> frozenset[int]:
    bad: set[int] = set()
    for index, raw in enumerate(data.split(b"\n")):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            bad.add(index)
    return frozenset(bad)


def load_receipts_text(text: str, file: str = "<receipts>") -> LoadedReceipts:
    """Load receipts from memory; ``file`` names them in diagnostics."""
    with _gc_paused():
        return _Loader(text, file, frozenset()).run()


class _Loader:
    """One pass over the lines; slow (hand-edited) runs of lines go to the real parser."""

    def __init__(self, text: str, file: str, bad_lines: frozenset[int]) -> None:
        self.text = " " + text[1:] if text.startswith("\ufeff") else text
        self.file = file
        self.bad_lines = bad_lines
        self.smap = SourceMap(file, self.text)
        self.sink = DiagnosticSink()
        self.statements: list[ast.Statement] = []
        self.cache = _Cache()
        self.region: tuple[int, int] | None = None  # text offsets of refused lines

    def run(self) -> LoadedReceipts:
        lines = self.text.split("\n")
        torn = self._torn(lines)
        offset = 0
        for index, line in enumerate(lines):
            start, end = offset, offset + len(line)
            offset = end + 1
            if index in torn:
                self._flush()
                self._warn_torn(index, start, end)
            elif line[:1] in _MAYBE_BLANK and _blank(line):  # most lines start with a name
                self._check_header(index, line, start)
            else:
                self._line(index, line, start, end)
        self._flush()
        if self.sink.has_errors:
            raise ProgramError(self.sink.diagnostics, {self.file: self.text})
        program = ast.Program(tuple(self.statements), self.file, self.text)
        return _index(program, self.sink)

    def _torn(self, lines: list[str]) -> set[int]:
        """Lines a crash cut short: an unterminated last line, or one the writer marked."""
        torn: set[int] = set()
        if TORN_MARKER in self.text:
            torn = {i - 1 for i, line in enumerate(lines) if i and line.strip() == TORN_MARKER}
        if not _blank(lines[-1]):
            torn.add(len(lines) - 1)  # no newline after it: the write never finished
        elif len(lines) >= 2:
            last = len(lines) - 2  # the line the final newline ends
            if last in self.bad_lines or not line_parses(lines[last]):
                torn.add(last)
        return {i for i in torn if not _blank(lines[i]) or i in self.bad_lines}

    def _span(self, index: int, start: int, end: int) -> Span:
        return Span(self.file, start, end, index + 1, 1)

    def _warn_torn(self, index: int, start: int, end: int) -> None:
        self.sink.warning(
            "W-RECEIPT-PARTIAL", f"line {index + 1} of {self.file} is incomplete (a write was "
            "interrupted); it is ignored", self._span(index, start, end),
            "the rest of the file was loaded; a call recorded only on this line counts as "
            "not completed")

    def _check_header(self, index: int, line: str, start: int) -> None:
        m = _HEADER_RE.match(line.strip())
        if m is not None and m.group(1) != "1":
            self.sink.error("E-RECEIPT", f"receipts format v{m.group(1)} is not supported "
                            "(this fxlog reads v1)", self._span(index, start, start),
                            "load it with the fxlog version that wrote it")

    def _line(self, index: int, line: str, start: int, end: int) -> None:
        if index in self.bad_lines:
            self.sink.error("E-RECEIPT", "this line is not valid UTF-8",
                            self._span(index, start, end), _HINT)
            return
        col = len(line) - len(line.lstrip()) if line[0] in " \t" else 0
        span = Span(self.file, start + col, end, index + 1, col + 1)
        try:
            rule = _fast_fact(self.text, start, end, span, self.cache)
        except (_NotPlain, ValueError):
            first = self.region[0] if self.region else start
            self.region = (first, end)
            return
        self._flush()
        self.statements.append(rule)

    def _flush(self) -> None:
        """Parse a run of lines the fast reader refused with the real parser."""
        if self.region is None:
            return
        start, end = self.region
        self.region = None
        text = self.text[start:end]
        for item in scan(text):
            if isinstance(item, ast.PlainFact):
                self.statements.append(item._replace(offset=item.offset + start))
                continue
            node = parse_statement(text[item.start:item.end], self.smap, start + item.start,
                                   self.sink)
            if node is not None and _facts_only(node, self.sink):
                self.statements.append(node)


_KIND = {ast.Query: "a query", ast.External: "an `external` declaration",
         ast.World: "a `world` statement", ast.Directive: "a directive"}


def _facts_only(node: ast.Statement, sink: DiagnosticSink) -> bool:
    """Report anything but a ground fact (E-RECEIPT); True when ``node`` may be kept."""
    if isinstance(node, ast.PlainFact):
        return True
    what = _KIND.get(type(node)) if not isinstance(node, ast.Rule) else (
        "a rule" if node.body is not None else None)
    if what is not None:
        sink.error("E-RECEIPT", f"{what} in a receipts file", node.span, _HINT)
        return False
    assert isinstance(node, ast.Rule)
    bad = _first_non_data([lit.atom for lit in node.head])
    if bad is None:
        return True
    kind = "a variable" if isinstance(bad, ast.Var) else "an expression"
    sink.error("E-RECEIPT", f"a receipt fact with {kind}: receipts hold ground values only",
               getattr(bad, "span", node.span), _HINT)
    return False


def _first_non_data(todo: list[object]) -> object | None:
    """Some node that is not plain ground data, or None (iterative: no deep recursion)."""
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Sym, ast.Str, ast.Num, ast.QName)):
            continue
        if isinstance(node, ast.Compound):
            todo.extend(node.args)
        elif isinstance(node, ast.SetTerm):
            todo.extend(node.items)
        elif isinstance(node, ast.Molecule):
            todo.append(node.subject)
            todo.extend(() if node.cls is None else (node.cls,))
            todo.extend(node.frames)
        elif isinstance(node, ast.FrameBlock):
            for spec in node.specs:
                todo.append(spec.method)
                todo.extend(spec.values)
        else:
            return node
    return None


def _index(program: ast.Program, sink: DiagnosticSink) -> LoadedReceipts:
    """Which requests completed and which only started, from the facts."""
    completed: dict[ast.Term, int] = {}
    markers: dict[ast.Term, StartMarker] = {}
    memo: dict[int, tuple[str, object] | None] = {}
    max_seq = 0
    for stmt in program.statements:
        if not isinstance(stmt, ast.Rule):
            continue
        line = stmt.span.line
        for lit in stmt.head:
            request, facts = lit.atom.subject, _tool_facts(lit.atom, memo)
            seq = facts.get("seq")
            if type(seq) is int and seq > max_seq:
                max_seq = seq
            if facts.get("completed") is True:
                first = completed.setdefault(request, line)
                if first != line:
                    sink.warning("W-RECEIPT-DUPLICATE", f"a second receipt for "
                                 f"{term_text(request)} (the first is on line {first})",
                                 stmt.span, "each request runs at most once; rules will see both")
            if "started" in facts:
                markers.setdefault(request, _marker(request, facts, line))
    started = sorted((m for r, m in markers.items() if r not in completed),
                     key=lambda m: (m.seq is None, m.seq or 0, m.line))
    warnings = tuple(d for d in sink.diagnostics if d.severity == "warning")
    return LoadedReceipts(program, frozenset(completed), tuple(m.request for m in started),
                          markers, max_seq, warnings)


def _tool_facts(atom: ast.Molecule, memo: dict[int, tuple[str, object] | None]
                ) -> dict[str, object]:
    """``tool#...`` facts of one atom; specs are shared between lines, so memoise by id."""
    facts: dict[str, object] = {}
    for frame in atom.frames:
        for spec in frame.specs:
            key = id(spec)
            if key in memo:
                entry = memo[key]
            else:
                entry = memo[key] = _tool_fact(spec)
            if entry is not None:
                facts[entry[0]] = entry[1]
    return facts


def _tool_fact(spec: ast.Spec) -> tuple[str, object] | None:
    method = spec.method
    if not isinstance(method, ast.QName) or method.ns != "tool" or not spec.values:
        return None
    value = spec.values[0]
    if isinstance(value, ast.Sym) and value.name in ("true", "false"):
        return method.local, value.name == "true"
    if isinstance(value, (ast.Str, ast.Num)):
        return method.local, value.value
    return method.local, value


def _marker(request: ast.Term, facts: dict[str, object], line: int) -> StartMarker:
    name, seq, started = facts.get("name"), facts.get("seq"), facts.get("started")
    return StartMarker(request, name if isinstance(name, str) else None,
                       seq if type(seq) is int else None,
                       started if isinstance(started, str) else None, line)
