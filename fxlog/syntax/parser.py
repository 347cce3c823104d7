"""Source text → :class:`~fxlog.syntax.ast.Program` (the front end's only entry).

The scanner splits the file; plain facts come back ready-made and every other
statement is parsed by the LALR grammar in ``grammar.lark`` with a builder that
creates AST nodes as the parser reduces (no intermediate parse tree, no
recursion, so deeply nested input cannot overflow the Python stack here).
Errors are collected per statement and raised together as one
:class:`~fxlog.errors.ProgramError`.

>>> prog = parse_program('p(a). q(?X) :- p(?X).', "demo.fx")
>>> len(prog.statements)
2
"""

from __future__ import annotations

import bisect
import os
import re
import threading
from decimal import Decimal, InvalidOperation
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from fxlog.errors import MAX_REPORTED, DiagnosticSink, ProgramError, Span
from fxlog.numbers import parse_int
from fxlog.syntax import ast
from fxlog.syntax.lexical import EscapeError, unquote
from fxlog.syntax.scanner import MAX_NESTING, Piece, nesting_depth, scan

__all__ = ["parse_program", "parse_statement", "parse_query_text", "SourceMap"]

_TRUTH_NAMES = {"\\true": "true", "\\false": "false"}


class SourceMap:
    """Offsets → 1-based line/column for one source text (line table built lazily)."""

    def __init__(self, file: str, source: str) -> None:
        self.file = file
        self.source = source
        self._line_starts: list[int] | None = None

    def _starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.source.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        return self._line_starts

    def span(self, start: int, end: int | None = None) -> Span:
        starts = self._starts()
        line = bisect.bisect_right(starts, start)
        column = start - starts[line - 1] + 1
        return Span(self.file, start, start if end is None else end, line, column)


class _BuildError(Exception):
    """Raised inside builder callbacks for a construct the grammar accepts but fxlog refuses."""

    def __init__(self, code: str, message: str, offset: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.offset = offset
        self.hint = hint


class _Builder(Transformer[Any, Any]):
    """Creates AST nodes while the LALR parser reduces; one method per grammar rule."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
        self.base = 0
        self.smap: SourceMap = SourceMap("<string>", "")
        self.soft_errors: list[_BuildError] = []

    # ------------------------------------------------------------------ helpers
    def sp(self, item: Any) -> Span:
        if isinstance(item, Token):
            start = self.base + (item.start_pos or 0)
            return self.smap.span(start, self.base + (item.end_pos or 0))
        span = getattr(item, "span", None)
        if isinstance(span, Span):
            return span
        if isinstance(item, (list, tuple)) and item:
            return self.sp(item[0])
        return self.smap.span(self.base)

    def _offset(self, tok: Token) -> int:
        return self.base + (tok.start_pos or 0)

    # ---------------------------------------------------------------- statements
    def start(self, c: list[Any]) -> Any:
        return c[0]

    def fact(self, c: list[Any]) -> ast.Rule:
        head = c[0]
        return ast.Rule(head, None, ":-", self.sp(head))

    def rule(self, c: list[Any]) -> ast.Rule:
        head, arrow, body = c[0], c[1], c[2]
        return ast.Rule(head, body, str(arrow), self.sp(head))

    def query(self, c: list[Any]) -> ast.Query:
        return ast.Query(c[1], self.sp(c[0]))

    def world(self, c: list[Any]) -> ast.World:
        mode = c[1]
        if str(mode) not in ("open", "closed"):  # pragma: no cover - the WORLD lookahead ensures it
            raise _BuildError("E-PARSE", "world must be open or closed", self._offset(mode))
        return ast.World(str(mode), self.sp(c[0]))

    def external(self, c: list[Any]) -> ast.External:
        request, mol, arrow, body = c[1], c[3], c[4], c[5]
        return self._external(c[0], request, mol, body, str(arrow))

    def external_always(self, c: list[Any]) -> ast.External:
        return self._external(c[0], c[1], c[3], None, "<-")

    def _external(self, kw: Token, request: Any, mol: Any, body: Any, arrow: str) -> ast.External:
        if not isinstance(mol, ast.Molecule) or mol.rel is not None or len(mol.frames) > 1:
            raise _BuildError(
                "E-EXTERNAL", "expected `using _tool[field -> value; ...]`", self.sp(mol).start,
                "name the tool, then its input fields in one pair of brackets",
            )
        fields: tuple[ast.Spec, ...] = mol.frames[0].specs if mol.frames else ()
        if mol.frames and mol.frames[0].class_level:
            raise _BuildError("E-EXTERNAL", "tool inputs use `[...]`, not `[|...|]`",
                              self.sp(mol).start, "write `using _tool[field -> value]`")
        return ast.External(request, mol.subject, fields, body, arrow, self.sp(kw))

    def directive(self, c: list[Any]) -> ast.Directive:
        name = c[1]
        args = tuple(a for a in c[2:] if a is not None and not isinstance(a, Token))
        return ast.Directive(str(name), args, self.sp(c[0]))

    def dir_arg(self, c: list[Any]) -> tuple[str, ast.Term]:
        if str(c[1]) != "=":
            raise _BuildError("E-PARSE", "directive arguments are written `key = value`",
                              self._offset(c[1]), "e.g. `:- setsemantics{inheritance = "
                              "monotonic}.`")
        return (str(c[0]), c[2])

    # --------------------------------------------------------------------- heads
    def head(self, c: list[Any]) -> tuple[ast.HeadLiteral, ...]:
        return tuple(x for x in c if isinstance(x, ast.HeadLiteral))

    def head_literal(self, c: list[Any]) -> ast.HeadLiteral:
        return ast.HeadLiteral(c[0], False, self.sp(c[0]))

    def neg_head_literal(self, c: list[Any]) -> ast.HeadLiteral:
        return ast.HeadLiteral(c[1], True, self.sp(c[0]))

    def head_sep(self, c: list[Any]) -> Token:
        return c[0]  # type: ignore[no-any-return]

    # -------------------------------------------------------------------- bodies
    def body(self, c: list[Any]) -> ast.Formula:
        return self._formula(c[0])

    def disj(self, c: list[Any]) -> ast.Or:
        items = tuple(self._formula(x) for x in c if not isinstance(x, Token))
        return ast.Or(items, self.sp(items[0]))

    def conj(self, c: list[Any]) -> ast.And:
        items: list[ast.Formula] = []
        for x in c:
            if isinstance(x, Token):
                if str(x) == ";":
                    self.soft_errors.append(_BuildError(
                        "E-SEMI", "`;` between body literals is ambiguous", self._offset(x),
                        "write AND (or `,`) for conjunction, OR for disjunction; "
                        "inside `[...]` a `;` separates method specifications",
                    ))
                continue
            items.append(self._formula(x))
        return ast.And(tuple(items), self.sp(items[0]))

    def and_sep(self, c: list[Any]) -> Token:
        return c[0]  # type: ignore[no-any-return]

    def naf(self, c: list[Any]) -> ast.Not:
        return ast.Not(self._formula(c[1]), self.sp(c[0]))

    def neg(self, c: list[Any]) -> ast.Neg:
        return ast.Neg(c[1], self.sp(c[0]))

    def literal(self, c: list[Any]) -> Any:
        if len(c) == 3:
            left, right = self._expr(c[0]), self._expr(c[2])
            return ast.Comparison(_cmp_op(c[1]), left, right, self.sp(left))
        x = c[0]
        if isinstance(x, (_Paren, ast.Molecule)):
            return self._as_formula(x)
        if isinstance(x, ast.Compound) and not any(
                isinstance(a, (ast.BinOp, ast.UnaryMinus, ast.Compound)) for a in x.args):
            return ast.Molecule(x, None, None, (), x.span)  # a predicate named abs/min/max
        return _Arith(x)  # only valid inside parentheses within arithmetic

    def is_(self, c: list[Any]) -> ast.Is:
        var, expr = self._expr(c[0]), self._expr(c[2])
        return ast.Is(var, expr, self.sp(var))

    def _formula(self, x: Any) -> ast.Formula:
        """Check that a body part is a formula, not bare arithmetic."""
        if isinstance(x, _Arith):
            raise _BuildError("E-PARSE", "an arithmetic expression is not a formula",
                              self.sp(x.expr).start, "compare it: `?X = ...`, `?X > ...`")
        return x  # type: ignore[no-any-return]

    def _as_formula(self, x: Any) -> ast.Formula:
        if isinstance(x, _Paren):
            return self._formula(x.formula)
        if isinstance(x, ast.Molecule):
            subj = x.subject
            if x.rel is None and not x.frames and isinstance(subj, ast.Sym) and subj.name in (
                "true", "false"
            ):
                return ast.Truth(subj.name == "true", x.span)
            if isinstance(subj, ast.Var) and x.rel is None and not x.frames:
                raise _BuildError("E-PARSE", "a variable alone is not a formula", x.span.start,
                                  "variables may stand for objects, classes or methods, "
                                  "not for whole atoms")
            return x
        raise _BuildError("E-PARSE", "an arithmetic expression is not a formula",
                          self.sp(x).start, "compare it: `?X = ...`, `?X > ...`")

    # ---------------------------------------------------------------- expressions
    def binop(self, c: list[Any]) -> ast.BinOp:
        left, op, right = self._expr(c[0]), str(c[1]), self._expr(c[2])
        return ast.BinOp(op, left, right, self.sp(left))

    def minus(self, c: list[Any]) -> ast.Term:
        operand = self._expr(c[0])
        if isinstance(operand, ast.Num):
            return ast.Num(-operand.value, operand.span)
        return ast.UnaryMinus(operand, self.sp(operand))

    def arith_call(self, c: list[Any]) -> ast.Compound:
        """``abs(e)``, ``min(a, b)``, ``max(a, b)``: arithmetic, or a plain term when used so."""
        name = c[0]
        args = tuple(self._expr(x) for x in c[1:])
        return ast.Compound(ast.Sym(str(name), self.sp(name)), args, self.sp(name))

    def paren(self, c: list[Any]) -> _Paren:
        return _Paren(c[0])  # a formula, or _Arith when the parentheses hold arithmetic

    def _expr(self, x: Any) -> ast.Term:
        """Operands of arithmetic: plain terms (unwrapped from molecules) or nested ops."""
        if isinstance(x, _Paren):
            f = x.formula
            if isinstance(f, _Arith):
                return f.expr
            if isinstance(f, ast.Molecule) and f.rel is None and not f.frames:
                return f.subject
            raise _BuildError("E-PARSE", "a formula cannot be used in arithmetic",
                              self.sp(f).start, "compute each value in its own literal, "
                              "e.g. `p(?A), ?B \\is ?A + 1`")
        if isinstance(x, ast.Molecule):
            if x.rel is None and not x.frames:
                return x.subject
            raise _BuildError("E-PARSE", "a molecule cannot be used in arithmetic", x.span.start,
                              "bind its value to a variable first")
        return x  # type: ignore[no-any-return]

    def aggregate(self, c: list[Any]) -> ast.Aggregate:
        func, var = c[0], c[1]
        group: tuple[ast.Var, ...] = ()
        body = self._formula(c[-1])
        if len(c) == 4:
            group = c[2]
        return ast.Aggregate(str(func), self.var([var]), group, body, self.sp(func))

    def agg_group(self, c: list[Any]) -> tuple[ast.Var, ...]:
        return tuple(self.var([t]) for t in c)

    # ------------------------------------------------------------------ molecules
    def molecule(self, c: list[Any]) -> ast.Molecule:
        subject = c[0]
        frames = c[1] if len(c) > 1 else ()
        return ast.Molecule(subject, None, None, frames, self.sp(subject))

    def molecule_rel(self, c: list[Any]) -> ast.Molecule:
        subject, rel, cls = c[0], str(c[1]), c[2]
        frames = c[3] if len(c) > 3 else ()
        return ast.Molecule(subject, rel, cls, frames, self.sp(subject))

    def frames(self, c: list[Any]) -> tuple[ast.FrameBlock, ...]:
        return tuple(c)

    def frame(self, c: list[Any]) -> ast.FrameBlock:
        specs = c[0] if c and c[0] is not None else ()
        return ast.FrameBlock(specs, False)

    def class_frame(self, c: list[Any]) -> ast.FrameBlock:
        specs = c[1] if len(c) > 2 and c[1] is not None else ()
        return ast.FrameBlock(specs, True, self.sp(c[0]))

    def specs(self, c: list[Any]) -> tuple[ast.Spec, ...]:
        return tuple(x for x in c if isinstance(x, ast.Spec))

    def spec_sep(self, c: list[Any]) -> Token:
        return c[0]  # type: ignore[no-any-return]

    def spec_mod(self, c: list[Any]) -> str:
        return "neg" if str(c[0]) == "\\neg" else "naf"

    def spec(self, c: list[Any]) -> ast.Spec:
        modifier = c[0] if isinstance(c[0], str) and not isinstance(c[0], Token) else None
        rest = c[1:] if modifier is not None else c
        method, arrow, value = rest[0], _arrow(rest[1]), rest[2]
        values = _set_items(value)
        return ast.Spec(method, arrow, values, modifier, self.sp(method))

    def bool_spec(self, c: list[Any]) -> ast.Spec:
        modifier = c[0] if isinstance(c[0], str) and not isinstance(c[0], Token) else None
        method = c[-1]
        return ast.Spec(method, None, (), modifier, self.sp(method))

    def inline_cmp(self, c: list[Any]) -> ast.Comparison:
        left = c[0].subject if isinstance(c[0], ast.Molecule) and not c[0].frames and \
            c[0].rel is None else c[0]
        return ast.Comparison(_cmp_op(c[1]), left, self._expr(c[2]), self.sp(c[0]))

    # ---------------------------------------------------------------------- terms
    def path(self, c: list[Any]) -> ast.Path:
        return ast.Path(c[0], c[2], self.sp(c[0]))

    def var(self, c: list[Any]) -> ast.Var:
        tok = c[0]
        name = str(tok)[1:]
        if name == "_":
            name = ""
        return ast.Var(name, self.sp(tok))

    def symbol(self, c: list[Any]) -> ast.Sym:
        return ast.Sym(str(c[0]), self.sp(c[0]))

    def qsymbol(self, c: list[Any]) -> ast.Sym:
        return ast.Sym(self._unquote(c[0]), self.sp(c[0]))

    def string(self, c: list[Any]) -> ast.Str:
        return ast.Str(self._unquote(c[0]), self.sp(c[0]))

    def _unquote(self, tok: Token) -> str:
        try:
            return unquote(str(tok))
        except EscapeError as exc:
            raise _BuildError("E-ESCAPE", str(exc), self._offset(tok) + exc.offset,
                              'known escapes: \\" \\\\ \\n \\t \\r \\uXXXX') from None

    def number(self, c: list[Any]) -> ast.Num:
        tok = c[0]
        return ast.Num(_number(str(tok)), self.sp(tok))

    def neg_number(self, c: list[Any]) -> ast.Num:
        tok = c[0]
        return ast.Num(-_number(str(tok)), self.sp(tok))

    def qname(self, c: list[Any]) -> ast.QName:
        ns, local = str(c[0]).split("#", 1)
        return ast.QName(ns, local, self.sp(c[0]))

    def truth_term(self, c: list[Any]) -> ast.Sym:
        return ast.Sym(_TRUTH_NAMES[str(c[0])], self.sp(c[0]))

    def functor(self, c: list[Any]) -> ast.Sym | ast.QName:
        tok = c[0]
        if tok.type == "QNAME":
            return self.qname([tok])
        if tok.type == "QSYMBOL":
            return self.qsymbol([tok])
        return self.symbol([tok])

    def compound(self, c: list[Any]) -> ast.Term:
        functor, args = c[0], c[1]
        if args is None:
            # `f()` is the symbol itself; Flora treats them alike.
            return functor  # type: ignore[no-any-return]
        return ast.Compound(functor, tuple(args), functor.span)

    def args(self, c: list[Any]) -> list[ast.Term]:
        return list(c)

    def set_term(self, c: list[Any]) -> ast.SetTerm:
        return ast.SetTerm(tuple(c), self.sp(c[0]))


class _Arith:
    """An expression standing where a formula might; legal only inside arithmetic."""

    __slots__ = ("expr",)

    def __init__(self, expr: ast.Term) -> None:
        self.expr = expr

    @property
    def span(self) -> Span:
        span = getattr(self.expr, "span", None)
        assert isinstance(span, Span)
        return span


class _Paren:
    """A parenthesised formula whose role (formula or arithmetic) is known one level up."""

    __slots__ = ("formula",)

    def __init__(self, formula: Any) -> None:
        self.formula = formula

    @property
    def span(self) -> Span:
        span = getattr(self.formula, "span", None)
        assert isinstance(span, Span)
        return span


def _plain(value: Any) -> Any:
    """A molecule with no class and no frames is just its term."""
    if isinstance(value, ast.Molecule) and value.rel is None and not value.frames:
        return value.subject
    return value


def _set_items(value: Any) -> tuple[ast.Term, ...]:
    value = _plain(value)
    if isinstance(value, ast.SetTerm):
        return value.items
    return (value,)


def _arrow(tok: Token) -> str:
    """``*->`` / ``*=>`` are kept: they make a class default even inside ``[...]``."""
    return str(tok)


def _cmp_op(tok: Token) -> str:
    return {"=<": "<=", "\\=": "!="}.get(str(tok), str(tok))


def _number(text: str) -> int | Decimal:
    if "." not in text and "e" not in text and "E" not in text:
        return parse_int(text)
    try:
        value = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the NUMBER token only admits valid text
        raise ValueError(text) from None
    from fxlog.numbers import normalize

    if abs(value.adjusted()) < 4000:
        return normalize(value)
    return value


_lock = threading.Lock()
_builder = _Builder()
_parser: Lark | None = None


def _cache_file() -> str | bool:
    """Where lark keeps the analysed grammar between processes (a private folder).

    Building the LALR tables takes about 0.2 s, more than parsing most programs;
    lark re-validates the cache against the grammar and its own version. The
    cache lives in the user's own cache folder, never a shared temporary one,
    because it is a pickle.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "fxlog")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return False
    if not os.access(folder, os.W_OK):
        return False
    return os.path.join(folder, "grammar.lark-cache")


def _get_parser() -> Lark:
    global _parser
    if _parser is None:
        grammar = resources.files("fxlog.syntax").joinpath("grammar.lark").read_text("utf-8")
        cache = _cache_file() if os.environ.get("FXLOG_NO_GRAMMAR_CACHE") is None else False
        try:
            _parser = Lark(grammar, parser="lalr", lexer="contextual", transformer=_builder,
                           maybe_placeholders=True, cache=cache)
        except OSError:  # an unreadable or unwritable cache: build without it
            _parser = Lark(grammar, parser="lalr", lexer="contextual", transformer=_builder,
                           maybe_placeholders=True, cache=False)
    return _parser


def parse_statement(text: str, smap: SourceMap, base: int, sink: DiagnosticSink) -> Any | None:
    """Parse one statement's text at offset ``base``; diagnostics go to ``sink``."""
    if len(text) > 2000 and nesting_depth(text) > MAX_NESTING:
        sink.error("E-NESTING", f"brackets nested deeper than {MAX_NESTING} levels",
                   smap.span(base), "flatten the term: introduce intermediate facts")
        return None
    with _lock:
        parser = _get_parser()
        _builder.base = base
        _builder.smap = smap
        _builder.soft_errors = []
        try:
            node = parser.parse(text)
        except _BuildError as exc:
            sink.error(exc.code, exc.message, smap.span(exc.offset), exc.hint)
            return None
        except UnexpectedInput as exc:
            _report_syntax_error(exc, text, smap, base, sink)
            return None
        except Exception as exc:  # lark wraps builder errors in VisitError
            inner = getattr(exc, "orig_exc", None)
            if isinstance(inner, _BuildError):
                sink.error(inner.code, inner.message, smap.span(inner.offset), inner.hint)
                return None
            raise
        for soft in _builder.soft_errors:
            sink.error(soft.code, soft.message, smap.span(soft.offset), soft.hint)
    if len(text) > 400 and tree_depth(node) > MAX_TREE_DEPTH:
        sink.error("E-NESTING", f"the statement nests deeper than {MAX_TREE_DEPTH} levels",
                   smap.span(base), "split long chains of operators, NOT or paths into "
                   "intermediate rules")
        return None
    return node


#: Deepest syntax tree a statement may have: later passes walk it recursively.
MAX_TREE_DEPTH = 1000


def tree_depth(node: object) -> int:
    """Depth of an AST, computed without recursion (the input may be hostile)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(node, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
        if isinstance(item, (tuple, list)):
            stack.extend((x, depth) for x in item)
            continue
        fields = getattr(item, "__dataclass_fields__", None)
        if fields:
            for name in fields:
                if name != "span":
                    stack.append((getattr(item, name), depth + 1))
    return deepest


def _describe(tok: Token) -> str:
    if tok.type == "$END":
        return "end of input"
    text = str(tok)
    return f"`{text[:40]}`" if text else tok.type


def _report_syntax_error(
    exc: UnexpectedInput, text: str, smap: SourceMap, base: int, sink: DiagnosticSink
) -> None:
    pos = getattr(exc, "pos_in_stream", None) or 0
    if isinstance(exc, UnexpectedEOF):
        pos = len(text.rstrip())
        sink.error("E-PARSE", "the statement is not finished", smap.span(base + pos),
                   "end every statement with `.` followed by a space or a new line; "
                   "check for an unclosed bracket or quote")
        return
    if isinstance(exc, UnexpectedCharacters):
        ch = text[pos] if pos < len(text) else ""
        code, message, hint = "E-LEX", f"unexpected character `{_printable(ch)}`", \
            "names are letters, digits and `_`; quote other text as 'symbol' or \"string\""
        if ch == "%":
            code, message, hint = "E-PERCENT", "`%` does not start a comment in fxlog", \
                "write comments as `// ...` or `/* ... */`"
        elif ch == '"':
            message, hint = "unterminated string", 'close the string with `"`'
        elif ch == "'":
            message, hint = "unterminated quoted symbol", "close the symbol with `'`"
        elif ch == "/" and text.startswith("/*", pos):
            message, hint = "unterminated block comment", "close it with `*/`"
        elif not ch.isprintable():
            message = f"unexpected byte {ord(ch):#04x}"
            hint = "is this a text file in UTF-8?"
        sink.error(code, message, smap.span(base + pos), hint)
        return
    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    pos = tok.start_pos if tok.start_pos is not None else len(text)
    if str(tok) == "/" and text.startswith("/*", pos):
        sink.error("E-LEX", "unterminated block comment", smap.span(base + pos),
                   "close it with `*/`")
        return
    if tok.type == "$END" and _balanced(text):
        end = len(text.rstrip())
        sink.error("E-PARSE", "the statement is not finished", smap.span(base + end),
                   "end the statement with `.` followed by a space or a new line")
        return
    expected = sorted(exc.expected)
    advice = _hint_for(tok, expected, text, pos)
    sink.error("E-PARSE", f"unexpected {_describe(tok)}", smap.span(base + pos), advice)


def _balanced(text: str) -> bool:
    """Are (), [] and {} balanced in ``text`` (ignoring literals)?"""
    depth = 0
    for m in _BRACKET_RE.finditer(text):
        ch = m.group()
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return depth == 0


_BRACKET_RE = re.compile(r"[][(){}]|\"(?:[^\"\\]++|\\.)*+\"|'(?:[^'\\]++|\\.)*+'", re.S)


def _printable(ch: str) -> str:
    return ch if ch.isprintable() else f"\\x{ord(ch):02x}"


_EXPECT_WORDS = {
    "END": "`.`", "RPAR": "`)`", "RSQB": "`]`", "RBRACE": "`}`", "COMMA": "`,`",
    "ARROW": "`->`", "IF": "`:-` or `<-`", "CMP": "a comparison", "VAR": "a variable",
    "SYMBOL": "a name", "AND": "AND", "OR": "OR", "USING": "`using`",
}


def _hint_for(tok: Token, expected: list[str], text: str, pos: int) -> str | None:
    if tok.type == "$END" or (tok.type == "END" and "RPAR" in expected):
        if "RPAR" in expected:
            return "a `(` is not closed"
        if "RSQB" in expected:
            return "a `[` is not closed"
    if tok.type == "IF" and str(tok) == "<-" and "CMP" in expected:
        return "for `less than minus`, write `< -` with a space"
    if tok.type == "RPAR" and "RPAR" not in expected:
        return "this `)` has no matching `(`"
    if tok.type == "RSQB" and "RSQB" not in expected:
        return "this `]` has no matching `[`"
    if tok.type in ("ADDOP", "MULOP") and "END" in expected:
        return "arithmetic is evaluated only in `?X \\is expr` or a comparison"
    words = [_EXPECT_WORDS[e] for e in expected if e in _EXPECT_WORDS]
    if words:
        return "expected " + ", ".join(words[:6])
    return None


def parse_program(source: str, file: str = "<string>") -> ast.Program:
    """Parse a whole ``.fx`` text; raises :class:`ProgramError` with every diagnostic."""
    if source.startswith("\ufeff"):
        source = " " + source[1:]  # a UTF-8 byte order mark; a space keeps every offset
    smap = SourceMap(file, source)
    sink = DiagnosticSink()
    statements: list[ast.Statement] = []
    errors = 0
    for item in scan(source):
        if not isinstance(item, Piece):
            statements.append(item)
            continue
        node = parse_statement(source[item.start:item.end], smap, item.start, sink)
        if node is not None:
            statements.append(node)
        else:
            errors += 1
            if errors >= MAX_REPORTED * 2:
                break
    if sink.has_errors:
        raise ProgramError(sink.diagnostics, {file: source})
    return ast.Program(tuple(statements), file, source)


def parse_query_text(text: str, file: str = "<goal>") -> ast.Query:
    """Parse a goal given on the command line or to ``Client.query``.

    Accepts ``?- goal.``, ``goal.`` or a bare ``goal``.
    """
    stripped = text.strip()
    if not stripped.startswith("?-"):
        stripped = "?- " + stripped
    if not stripped.endswith("."):
        stripped += "."
    prog = parse_program(stripped + "\n", file)
    if len(prog.statements) != 1 or not isinstance(prog.statements[0], ast.Query):
        raise ProgramError([_one_query_diag(file)], {file: stripped})
    return prog.statements[0]


def _one_query_diag(file: str) -> Any:
    from fxlog.errors import Diagnostic

    return Diagnostic("E-QUERY", "error", "expected exactly one query", Span(file, 0, 0, 1, 1),
                      "write a single goal such as `?- p(?X).`")
