"""Module → answers: the stratified, closed-world subset evaluated by pyDatalog.

A second engine, independent of the ASP emitter and of clingo. It starts from
the core IR (:class:`~fxlog.translators.core.Module`), adds the closure axioms
of ``::`` and ``:`` itself and has pyDatalog evaluate every rule body: joins,
default negation, builtins. The fixpoint is driven from here, bottom-up, one
strongly connected component at a time and semi-naively inside recursion,
because pyDatalog's own tabled recursion does not terminate on some small
programs. Answers are the clingo engine's own
:class:`~fxlog.engine.answers.Answer` objects, bindings holding the same clingo
symbols, so the two engines can be compared binding by binding.

Only programs with one obvious model are accepted: default negation must be
stratified and the world closed (``world open`` only while no request is
pending). Builtins run as exact Python functions inside pyDatalog operations,
with fxlog's rules (numbers by value, strings by text, an undefined operation
fails). Whatever lies outside the subset (class-level frames, signatures,
aggregates, variable methods in heads, division, cycles through NOT) is
refused with ``E-ENGINE`` at the place it was written.

>>> from fxlog.reasoner import KnowledgeBase
>>> kb = KnowledgeBase()
>>> _ = kb.add_text("e(a, b). e(b, c). t(?X, ?Y) :- e(?X, ?Y). "
...                 "t(?X, ?Z) :- t(?X, ?Y), e(?Y, ?Z). ?- t(a, ?Y).")
>>> [b.text("Y") for b in answer_with_pydatalog(kb, None)[0].bindings]
['b', 'c']
"""

from __future__ import annotations

import itertools
import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation, localcontext
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Union

import networkx as nx
from clingo.symbol import Symbol, parse_term

from fxlog.engine.answers import Answer, Binding, Truth
from fxlog.errors import Diagnostic, DiagnosticSink, FxlogError, ProgramError, Span
from fxlog.numbers import normalize
from fxlog.syntax import ast
from fxlog.syntax.printer import term_text
from fxlog.translators.body import is_arith
from fxlog.translators.core import (
    BUILTINS,
    RECEIPT_METHODS,
    Builtin,
    Cmp,
    CoreQuery,
    CoreRule,
    Lit,
    Module,
    Pred,
)
from fxlog.translators.encode import term_asp
from fxlog.translators.flatten import flatten, term_vars

if TYPE_CHECKING:
    from fxlog.reasoner import KnowledgeBase

with warnings.catch_warnings():  # pyDatalog predates the warnings of Python 3.11
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.simplefilter("ignore", SyntaxWarning)
    from pyDatalog import Logic, pyEngine

__all__ = ["DatalogEngineError", "answer_with_pydatalog", "answers_for_module"]

Value = Any  # a term as pyDatalog holds it: str, int, Decimal, _Symbol, _Qualified or tuple


class DatalogEngineError(FxlogError):
    """pyDatalog failed on a program inside the subset: a bug, reported with its cause."""


# ------------------------------------------------------------------ values


@dataclass(frozen=True, slots=True)
class _Symbol:
    """A symbol: a class of its own, so it never equals (or orders with) a string."""

    name: str


@dataclass(frozen=True, slots=True)
class _Qualified:
    ns: str
    local: str


class _Marker:
    """A value no term equals: an undefined operation's result, or a test's outcome."""

    __slots__ = ("label",)

    def __init__(self, label: str) -> None:
        self.label = label

    def __repr__(self) -> str:
        return self.label


UNDEFINED, YES, NO = _Marker("undefined"), _Marker("yes"), _Marker("no")


def _value(term: ast.Term) -> Value:
    """The pyDatalog value of a ground term; a function term is a tuple led by its functor."""
    if isinstance(term, ast.Sym):
        return _Symbol(term.name)
    if isinstance(term, ast.Str):
        return term.value
    if isinstance(term, ast.Num):
        return normalize(term.value)
    if isinstance(term, ast.QName):
        return _Qualified(term.ns, term.local)
    if isinstance(term, ast.Compound):
        return (_value(term.functor), *(_value(a) for a in term.args))
    raise TypeError(f"no pyDatalog value for {type(term).__name__}")


def _term(value: Value) -> ast.Term:
    """Inverse of :func:`_value`."""
    if isinstance(value, _Symbol):
        return ast.Sym(value.name)
    if isinstance(value, _Qualified):
        return ast.QName(value.ns, value.local)
    if isinstance(value, str):
        return ast.Str(value)
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        return ast.Num(value)
    if isinstance(value, tuple) and len(value) > 1:
        functor = _term(value[0])
        if isinstance(functor, (ast.Sym, ast.QName)):
            return ast.Compound(functor, tuple(_term(v) for v in value[1:]))
    raise DatalogEngineError(f"pyDatalog returned a value fxlog cannot read: {value!r}")


@lru_cache(maxsize=65536)
def value_symbol(value: Value) -> Symbol:
    """The clingo symbol of a value: exactly what the clingo engine shows for that term."""
    return parse_term(term_asp(_term(value)))


def _text(value: Value) -> str:
    return term_text(_term(value))


# ---------------------------------------------------------------- builtins
# fxlog.engine.arith over pyDatalog values. pyDatalog turns an exception
# raised inside an operation into a value, so none of these raises.


def _number(v: Value) -> int | Decimal | None:
    if isinstance(v, (int, Decimal)) and not isinstance(v, bool):
        return v
    return None


def _binary(op: str, a: Value, b: Value) -> Value:
    x, y = _number(a), _number(b)
    if x is None or y is None:
        return UNDEFINED
    try:
        with localcontext() as ctx:
            ctx.prec = 200  # as ArithContext
            if op == "+":
                r = x + y
            elif op == "-":
                r = x - y
            elif op == "*":
                r = x * y
            elif isinstance(x, int) and isinstance(y, int) and y != 0:  # mod
                r = x % y
            else:
                return UNDEFINED
        return normalize(r)
    except (InvalidOperation, OverflowError, ValueError):
        return UNDEFINED


def _unary(fn: Callable[[Any], Any]) -> Callable[[Value], Value]:
    def apply(a: Value) -> Value:
        x = _number(a)
        return UNDEFINED if x is None else normalize(fn(x))
    return apply


def _pick(smaller: bool) -> Callable[[Value, Value], Value]:
    def pick(a: Value, b: Value) -> Value:
        x, y = _number(a), _number(b)
        if x is None or y is None:
            return UNDEFINED
        return a if (x <= y) == smaller else b
    return pick


def _compare(a: Value, b: Value) -> int | None:
    """As ``fx_cmp``: numbers by value, strings by text, other terms in clingo's term order.

    A number, a string and any other term do not compare with each other.
    """
    if a is UNDEFINED or b is UNDEFINED:
        return None
    x, y = _number(a), _number(b)
    if x is not None and y is not None:
        return (x > y) - (x < y)
    if isinstance(a, str) and isinstance(b, str):
        return (a > b) - (a < b)
    if x is None and y is None and not isinstance(a, str) and not isinstance(b, str):
        sa, sb = value_symbol(a), value_symbol(b)
        return (sa > sb) - (sa < sb)
    return None


def _test(holds: Callable[[int], bool]) -> Callable[[Value, Value], _Marker]:
    def test(a: Value, b: Value) -> _Marker:
        c = _compare(a, b)
        return YES if c is not None and holds(c) else NO
    return test


def _identity(equal: bool) -> Callable[[Value, Value], _Marker]:
    def test(a: Value, b: Value) -> _Marker:
        if a is UNDEFINED or b is UNDEFINED:
            return NO
        return YES if (a == b) == equal else NO
    return test


def _strings(fn: Callable[..., Any], test: bool = False) -> Callable[..., Value]:
    """A string builtin: undefined (or false, for a test) unless every input is a string."""
    def apply(*args: Value) -> Value:
        if not all(isinstance(a, str) for a in args):
            return NO if test else UNDEFINED
        result = fn(*args)
        return (YES if result else NO) if test else result
    return apply


def _to_string(t: Value) -> Value:
    return t if isinstance(t, str) else _text(t)


_ARITH: dict[str, Callable[..., Value]] = {
    "+": lambda a, b: _binary("+", a, b), "-": lambda a, b: _binary("-", a, b),
    "*": lambda a, b: _binary("*", a, b), "mod": lambda a, b: _binary("mod", a, b)}
_NEG = _unary(lambda x: -x)
_ARITH_FUNCS: dict[tuple[str, int], Callable[..., Value]] = {
    ("abs", 1): _unary(abs), ("min", 2): _pick(True), ("max", 2): _pick(False)}
_TESTS: dict[str, Callable[[Value, Value], _Marker]] = {
    "=": _identity(True), "!=": _identity(False), "<": _test(lambda c: c < 0),
    "<=": _test(lambda c: c <= 0), ">": _test(lambda c: c > 0), ">=": _test(lambda c: c >= 0)}
_STRING_BUILTINS: dict[str, Callable[..., Value]] = {
    "contains": _strings(lambda s, sub: sub in s, test=True),
    "starts_with": _strings(lambda s, p: s.startswith(p), test=True),
    "lower": _strings(str.lower), "length": _strings(len),
    "concat": _strings(lambda a, b: a + b), "to_string": _to_string}


# -------------------------------------------------------------------- plan
# Module → plan: plain data. pyDatalog objects belong to the thread that asks.


@dataclass(frozen=True, slots=True)
class _Apply:
    """A Python function applied to terms: arithmetic, a test or a string builtin."""

    fn: Callable[..., Value]
    args: tuple[Expr, ...]


Expr = Union[ast.Term, _Apply]  # noqa: UP007 - a runtime alias on 3.10


@dataclass(frozen=True, slots=True)
class _Goal:
    """A body literal over a pyDatalog predicate, default-negated when ``naf``."""

    name: str
    args: tuple[ast.Term, ...]
    naf: bool = False


@dataclass(frozen=True, slots=True)
class _Cmp:
    """A comparison before ordering decides whether it binds (``unify``) or tests."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class _Unify:
    """pyDatalog's ``==``; ``guard`` names a variable that must not become undefined."""

    left: Expr
    right: Expr
    guard: str | None = None


@dataclass(frozen=True, slots=True)
class _Test:
    call: _Apply
    expect: _Marker = YES


Item = Union[_Goal, _Cmp, _Unify, _Test]  # noqa: UP007


@dataclass(frozen=True, slots=True)
class _Rule:
    head: str
    args: tuple[ast.Term, ...]
    body: tuple[Item, ...] = ()
    source: CoreRule | None = None  # None for the axioms added here


@dataclass(frozen=True, slots=True)
class _Ask:
    """What to ask pyDatalog for one query, and how to read the rows."""

    query: CoreQuery
    name: str
    positions: tuple[str | None, ...]


@dataclass
class _Plan:
    rules: list[_Rule] = field(default_factory=list)
    arity: dict[str, int] = field(default_factory=dict)
    asks: list[_Ask] = field(default_factory=list)
    pending: str | None = None  # requests without a receipt, asked under `world open`


class _Refused(Exception):
    def __init__(self, construct: str, span: Span, hint: str | None = None) -> None:
        super().__init__(construct)
        self.construct, self.span, self.hint = construct, span, hint


_KINDS = frozenset({"user", "isa", "sub", "attr", "bool", "exists", "gen", "genh", "req",
                    "aux", "query"})
_OUTSIDE = {
    "cattr": ("class-level frames `C[|...|]` (inherited defaults)",
              "state the value on the object: `o[m -> v]`"),
    "cbool": ("class-level frames `C[|...|]` (inherited defaults)",
              "state the value on the object: `o[m]`"),
    "csig": ("signatures `=>` (they are inherited and checked)", None),
    "sig": ("signatures `=>` (they are inherited and checked)", None),
}


def _names(node: object) -> set[str]:
    return {v.name for v in term_vars(node) if not v.anonymous}


def _span_of(node: object, default: Span) -> Span:
    span = getattr(node, "span", None)
    return span if isinstance(span, Span) and span.line > 0 else default


def _check_term(term: ast.Term, span: Span) -> None:
    """A term pyDatalog holds as a value: constants, variables and function terms."""
    if isinstance(term, (ast.Var, ast.Sym, ast.Str, ast.Num, ast.QName)):
        return
    if isinstance(term, ast.Compound):
        for arg in term.args:
            _check_term(arg, span)
        return
    if isinstance(term, (ast.BinOp, ast.UnaryMinus)):
        raise _Refused("arithmetic inside a term", _span_of(term, span),
                       "compute it first: `?Y = ?X + 1, p(?Y)`")
    raise _Refused(f"`{type(term).__name__}` terms", _span_of(term, span))


def _expr(term: ast.Term, span: Span) -> Expr:
    """A comparison side: arithmetic becomes Python functions, the rest stays a term."""
    if isinstance(term, ast.BinOp):
        if term.op not in _ARITH:
            raise _Refused(f"the operator `{term.op}` (its result is rounded)",
                           _span_of(term, span), "use the clingo engine for division")
        return _Apply(_ARITH[term.op], (_expr(term.left, span), _expr(term.right, span)))
    if isinstance(term, ast.UnaryMinus):
        return _Apply(_NEG, (_expr(term.operand, span),))
    if isinstance(term, ast.Compound) and is_arith(term):
        assert isinstance(term.functor, ast.Sym)
        fn = _ARITH_FUNCS[(term.functor.name, len(term.args))]
        return _Apply(fn, tuple(_expr(a, span) for a in term.args))
    _check_term(term, span)
    return term


class _Compiler:
    """Core rules, plain facts and queries → a plan, plus the axioms emit adds for ASP."""

    def __init__(self, module: Module, sink: DiagnosticSink) -> None:
        self.module = module
        self.sink = sink
        self.plan = _Plan()
        self.names: dict[tuple[Pred, bool], str] = {}

    def name(self, pred: Pred, stored: bool = False) -> str:
        """pyDatalog predicate of ``pred``; heads of ``:``/``::`` write a stored one."""
        key = (pred, stored and pred.kind in ("isa", "sub") and not pred.negated)
        found = self.names.get(key)
        if found is None:
            found = self.names[key] = f"fx{len(self.names)}"
            self.plan.arity[found] = pred.arity
        return found

    def compile(self) -> _Plan:
        for _file, facts in self.module.plain:
            for pf in facts:
                pred, args = _plain_atom(pf)
                self.plan.rules.append(_Rule(self.name(pred, stored=True), args))
        for rule in self.module.rules:
            self.guarded(self.rule, rule, rule.span)
        self.axioms()
        for query in self.module.queries:
            self.guarded(self.ask, query, query.span)
        if self.module.world == "open" and self.module.externals:
            self.pending_requests()
        return self.plan

    def guarded(self, step: Callable[[Any], None], arg: object, span: Span) -> None:
        try:
            step(arg)
        except _Refused as exc:
            self.sink.error("E-ENGINE", f"the pyDatalog engine does not handle {exc.construct}",
                            exc.span, exc.hint or "use the clingo engine (the default) "
                            "for this program")

    # ------------------------------------------------------------------ rules
    def check_pred(self, pred: Pred, span: Span, head: bool) -> None:
        kind = pred.name if pred.kind in ("gen", "genh") else pred.kind
        if kind in _OUTSIDE:
            construct, hint = _OUTSIDE[kind]
            raise _Refused(construct, span, hint)
        if pred.kind in ("gen", "genh") and pred.negated:
            raise _Refused("`\\neg` on a frame with a variable method", span,
                           "name the method, e.g. `\\neg ?X[m -> ?V]`")
        if pred.kind not in _KINDS:
            raise _Refused(f"predicates of kind `{pred.kind}`", span)

    def rule(self, rule: CoreRule) -> None:
        self.check_pred(rule.head.pred, rule.span, head=True)
        for arg in rule.head.args:
            _check_term(arg, rule.span)
        body = _order([self.item(i, rule.span) for i in rule.body], rule.span)
        self.plan.rules.append(_Rule(self.name(rule.head.pred, stored=True), rule.head.args,
                                     body, rule))

    def item(self, item: object, span: Span) -> Item:
        if isinstance(item, Lit):
            self.check_pred(item.atom.pred, span, head=False)
            for arg in item.atom.args:
                _check_term(arg, span)
            return _Goal(self.name(item.atom.pred), item.atom.args, item.naf)
        where = _span_of(item, span)
        if any(v.anonymous for v in term_vars(item)):
            raise _Refused("an anonymous variable in a builtin", where)
        if isinstance(item, Cmp):
            return _Cmp(item.op, _expr(item.left, where), _expr(item.right, where))
        if isinstance(item, Builtin) and item.name in _STRING_BUILTINS:
            for arg in item.args:
                _check_term(arg, where)
            call = _Apply(_STRING_BUILTINS[item.name], item.args[:BUILTINS[item.name][1]])
            if BUILTINS[item.name][1] == len(item.args):  # a test
                return _Test(call, NO if item.negated else YES)
            return _Cmp("=", item.args[-1], call)
        what = "aggregates" if type(item).__name__ == "Agg" else f"`{type(item).__name__}`"
        raise _Refused(what, where, "use the clingo engine (the default) for this program")

    # ----------------------------------------------------------------- axioms
    def axioms(self) -> None:
        """Closure of ``::`` and ``:``, ``o[]`` and the frame views, as emit writes them."""
        rules = self.plan.rules
        o, c, d, e, anon = (ast.Var(n) for n in ("O", "C", "D", "E", ""))
        sub_c, sub_s = self.name(Pred("sub", "", 0)), self.name(Pred("sub", "", 0), True)
        isa_c, isa_s = self.name(Pred("isa", "", 0)), self.name(Pred("isa", "", 0), True)
        rules += [
            _Rule(sub_c, (c, d), (_Goal(sub_s, (c, d)),)),
            _Rule(sub_c, (c, e), (_Goal(sub_c, (c, d)), _Goal(sub_s, (d, e)))),
            _Rule(isa_c, (o, c), (_Goal(isa_s, (o, c)),)),
            _Rule(isa_c, (o, d), (_Goal(isa_s, (o, c)), _Goal(sub_c, (c, d)))),
        ]
        used = {item.atom.pred for r in self.module.rules for item in r.body
                if isinstance(item, Lit)}
        used |= {q.direct.pred for q in self.module.queries if q.direct is not None}
        frames = sorted(self.known_frames())
        if Pred("exists", "", 0) in used:
            exists = self.name(Pred("exists", "", 0))
            rules.append(_Rule(exists, (o,), (_Goal(isa_c, (o, anon)),)))
            rules.append(_Rule(exists, (c,), (_Goal(sub_c, (c, anon)),)))
            for p in frames:
                rest = tuple(anon for _ in range(p.arity - 1))
                rules.append(_Rule(exists, (o,), (_Goal(self.name(p), (o, *rest)),)))
        written = {r.head.pred for r in self.module.rules}
        for kind in ("attr", "bool"):
            reads, writes = Pred("gen", kind, 0) in used, Pred("genh", kind, 0) in written
            for p in (p for p in frames if p.kind == kind and not p.negated):
                rules += [self.view(p, "gen")] if reads else []
                rules += [self.view(p, "genh")] if writes else []
            if reads and writes:
                args = (o, ast.Var("M"), ast.Var("V"))[:3 if kind == "attr" else 2]
                rules.append(_Rule(self.name(Pred("gen", kind, 0)), args,
                                   (_Goal(self.name(Pred("genh", kind, 0)), args),)))

    def known_frames(self) -> set[Pred]:
        preds = {Pred("attr", name, nargs) for name, nargs in RECEIPT_METHODS}
        for rule in self.module.rules:
            preds.add(rule.head.pred)
            preds.update(i.atom.pred for i in rule.body if isinstance(i, Lit))
        for _file, facts in self.module.plain:
            preds.update(_plain_atom(pf)[0] for pf in facts)
        return {p for p in preds if p.kind in ("attr", "bool")}

    def view(self, p: Pred, kind: str) -> _Rule:
        """Frames read (``gen``) or written (``genh``) with a variable method.

        ``gen_attr(O, m(A0), V) :- attr_m(O, A0, V)`` and
        ``attr_m(O, A0, V) :- genh_attr(O, m(A0), V)``.
        """
        margs = tuple(ast.Var(f"A{i}") for i in range(p.args))
        o, v = ast.Var("O"), ast.Var("V")
        functor: ast.Sym | ast.QName = ast.Sym(p.name)
        if "#" in p.name:
            ns, local = p.name.split("#", 1)
            functor = ast.QName(ns, local)
        method: ast.Term = ast.Compound(functor, margs) if margs else functor
        tail = (v,) if p.kind == "attr" else ()
        generic = (self.name(Pred(kind, p.kind, 0)), (o, method, *tail))
        named = (self.name(p, stored=kind == "genh"), (o, *margs, *tail))
        if kind == "genh":
            generic, named = named, generic
        return _Rule(generic[0], generic[1], (_Goal(*named),))

    def pending_requests(self) -> None:
        """Requests without a completion receipt: what `world open` would leave open."""
        r = ast.Var("R")
        name = self.plan.pending = self.name(Pred("aux", "pending", 1))
        completed = self.name(Pred("attr", "tool#completed", 0))
        self.plan.rules.append(_Rule(name, (r,), (
            _Goal(self.name(Pred("req", "", 2)), (r, ast.Var(""))),
            _Goal(completed, (r, ast.Sym("true")), naf=True))))

    # ---------------------------------------------------------------- queries
    def ask(self, query: CoreQuery) -> None:
        if query.direct is None:
            self.plan.asks.append(_Ask(query, self.name(query.pred), query.variables))
            return
        atom = query.direct
        self.check_pred(atom.pred, query.span, head=False)
        positions = tuple(a.name if isinstance(a, ast.Var) else None for a in atom.args)
        self.plan.asks.append(_Ask(query, self.name(atom.pred), positions))


def _plain_atom(pf: ast.PlainFact) -> tuple[Pred, tuple[ast.Term, ...]]:
    """A plain fact as a stored atom, tokens read as ``translators.encode.token_asp`` does."""
    args = tuple(_token(t) for t in pf.parts)
    if pf.kind == "pred":
        return Pred("user", pf.parts[0], len(pf.parts) - 1), args[1:]
    if pf.kind == "attr":
        return Pred("attr", pf.parts[1], 0), (args[0], args[2])
    return Pred(pf.kind, "", 0), args


def _token(token: str) -> ast.Term:
    if token.startswith('"'):
        return ast.Str(token[1:-1])  # the scanner admits only strings without escapes
    if token.lstrip("-").isdigit():
        return ast.Num(int(token))
    return ast.Sym(token)


def _order(items: list[Item], span: Span) -> tuple[Item, ...]:
    """Positive literals first (they bind), then builtins and NOT once their inputs are bound.

    pyDatalog reads a body left to right: a test needs its values, and
    ``~p(X)`` with ``X`` unbound would mean "no p at all".
    """
    ordered: list[Item] = [i for i in items if isinstance(i, _Goal) and not i.naf]
    bound = _names([g.args for g in ordered if isinstance(g, _Goal)])
    rest = [i for i in items if not (isinstance(i, _Goal) and not i.naf)]
    while rest:
        for index, item in enumerate(rest):
            placed = _place(item, bound)
            if placed is not None:
                ordered.append(placed)
                bound |= _names(item)
                del rest[index]
                break
        else:  # check_module reports unsafe rules before this can happen
            raise _Refused("a rule whose builtins cannot be ordered", span)
    return tuple(ordered)


def _place(item: Item, bound: set[str]) -> Item | None:
    """``item`` ready to run once ``bound`` variables have values, or None to wait."""
    if not isinstance(item, _Cmp):
        return item if _names(item) <= bound else None
    left, right = item.left, item.right
    if not (_names(item) - bound):
        if item.op == "=" and not isinstance(left, _Apply) and not isinstance(right, _Apply):
            return _Unify(left, right)
        return _Test(_Apply(_TESTS[item.op], (left, right)))
    if item.op != "=" or (isinstance(left, _Apply) and isinstance(right, _Apply)):
        return None
    if isinstance(left, _Apply) or isinstance(right, _Apply):
        expr, other = (left, right) if isinstance(left, _Apply) else (right, left)
        if _names(expr) - bound:
            return None
        return _Unify(other, expr, other.name if isinstance(other, ast.Var) else None)
    if not (_names(left) - bound) or not (_names(right) - bound):
        return _Unify(left, right)
    return None


def _check_strata(plan: _Plan, module: Module, sink: DiagnosticSink) -> None:
    """Refuse a cycle through NOT: such a program has no stratified meaning."""
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(plan.arity)
    for rule in plan.rules:
        graph.add_edges_from((g.name, rule.head) for g in _goals(rule))
    component = _components(graph)
    reported: set[int] = set()
    for rule in plan.rules:
        src = rule.source
        if src is None or src.origin in reported or not any(
                g.naf and component[g.name] == component[rule.head] for g in _goals(rule)):
            continue
        reported.add(src.origin)
        text = module.origins[src.origin].text if 0 <= src.origin < len(module.origins) \
            else "this rule"
        sink.error("E-ENGINE", "the pyDatalog engine does not handle negation inside recursion "
                   f"(a cycle through NOT) in `{text}`", src.span,
                   "let the negated condition depend on lower predicates only, or use the "
                   "clingo engine (the default)")


# ------------------------------------------------------------------ running


class _Builder:
    """Plan → pyDatalog clauses; only used inside the thread that asks."""

    def __init__(self) -> None:
        self.fresh = itertools.count()

    def term(self, term: Expr) -> Any:
        if isinstance(term, ast.Var):
            return pyEngine.Var(f"_{next(self.fresh)}" if term.anonymous else "V" + term.name)
        if isinstance(term, _Apply):
            if not _names(term):  # pyDatalog evaluates an operation only once it has bindings
                return pyEngine.Const(_fold(term))
            args = pyEngine.VarTuple([self.term(a) for a in term.args])
            return pyEngine.Operation(pyEngine.Const(None), term.fn, args)
        if isinstance(term, ast.Compound):
            return pyEngine.VarTuple([pyEngine.Const(_value(term.functor)),
                                      *(self.term(a) for a in term.args)])
        return pyEngine.Const(_value(term))

    def literals(self, item: Item) -> list[Any]:
        if isinstance(item, _Goal):
            name = ("~" if item.naf else "") + item.name
            return [pyEngine.Literal(name, [self.term(a) for a in item.args])]
        if isinstance(item, _Test):
            return [pyEngine.Literal("==", [self.term(item.call), pyEngine.Const(item.expect)])]
        assert isinstance(item, _Unify)
        out = [pyEngine.Literal("==", [self.term(item.left), self.term(item.right)])]
        if item.guard is not None:
            out.append(pyEngine.Literal("!=", [pyEngine.Var("V" + item.guard),
                                               pyEngine.Const(UNDEFINED)]))
        return out

    def clause(self, rule: _Rule, head_name: str) -> Any:
        head = pyEngine.Literal(head_name, [self.term(a) for a in rule.args])
        return pyEngine.Clause(head, [lit for i in rule.body for lit in self.literals(i)])


def _fold(term: Expr) -> Value:
    """The value of a ground expression."""
    if isinstance(term, _Apply):
        return term.fn(*(_fold(a) for a in term.args))
    return _value(term)


Row = tuple[Value, ...]


class _Driver:
    """Bottom-up, one strongly connected component at a time, semi-naive inside recursion.

    pyDatalog only ever evaluates rule bodies over fact tables: its own tabled
    recursion does not terminate on some small programs (right recursion over a
    cycle, or three predicates calling each other), so the fixpoint is driven
    from here. Each round asks pyDatalog for the consequences of the facts new
    in the previous round (``delta``), with negation over lower components only.
    """

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan
        self.known: dict[str, set[Row]] = {name: set() for name in plan.arity}
        self.builder = _Builder()
        self.rounds = itertools.count()
        self.rules: dict[str, list[_Rule]] = {name: [] for name in plan.arity}
        self.graph: nx.DiGraph[str] = nx.DiGraph()
        self.graph.add_nodes_from(plan.arity)
        for rule in plan.rules:
            self.rules[rule.head].append(rule)
            self.graph.add_edges_from((g.name, rule.head) for g in _goals(rule))
        self.read = self.facts_read()

    def facts_read(self) -> set[str]:
        """Predicates some rule body reads as a whole table (not only as its own delta)."""
        component = _components(self.graph)
        read: set[str] = set()
        for rule in self.plan.rules:
            inner = [g for g in _goals(rule) if component[g.name] == component[rule.head]]
            read |= {g.name for g in _goals(rule)
                     if component[g.name] != component[rule.head] or len(inner) > 1}
        return read

    def run(self) -> dict[str, set[Row]]:
        Logic()  # a new, empty logic for the current thread only
        for name, arity in self.plan.arity.items():
            pyEngine.insert(pyEngine.Pred(name, arity))  # an empty predicate is just empty
        wanted = {a.name for a in self.plan.asks} | (
            {self.plan.pending} if self.plan.pending else set())
        needed = wanted.union(*(nx.ancestors(self.graph, n) for n in wanted))
        condensed = nx.condensation(self.graph.subgraph(needed))
        for node in nx.topological_sort(condensed):
            self.component(set(condensed.nodes[node]["members"]))
        return self.known

    def component(self, preds: set[str]) -> None:
        rules = [r for p in sorted(preds) for r in self.rules[p]]
        recursive = [r for r in rules if any(g.name in preds for g in _goals(r))]
        delta = self.derive([r for r in rules if r not in recursive], "x")
        while any(delta.values()):
            k = next(self.rounds)
            names = {p: f"{p}_d{k}" for p, rows in delta.items() if rows}
            for p, name in names.items():
                self.store(name, delta[p])
            variants = [_Rule(r.head, r.args, body) for r in recursive
                        for body in _with_delta(r.body, names)]
            delta = self.derive(variants, f"n{k}")

    def derive(self, rules: list[_Rule], tag: str) -> dict[str, set[Row]]:
        """Ask pyDatalog for the heads of ``rules``; store and return the rows not known yet."""
        heads: dict[str, int] = {}
        new: dict[str, set[Row]] = {}
        for rule in rules:
            if not rule.body:  # a fact: no need to ask
                new.setdefault(rule.head, set()).add(tuple(_fold(a) for a in rule.args))
                continue
            name = f"{rule.head}_{tag}"
            heads[rule.head] = len(rule.args)
            pyEngine.assert_(self.builder.clause(rule, name))
        for head, arity in heads.items():
            new.setdefault(head, set()).update(_ask(f"{head}_{tag}", arity))
        for head, rows in new.items():
            rows -= self.known[head]
            self.known[head] |= rows
            if head in self.read:
                self.store(head, rows)
        return new

    def store(self, name: str, rows: set[Row]) -> None:
        for row in rows:
            literal = pyEngine.Literal(name, [pyEngine.Term_of(v) for v in row])
            pyEngine.assert_(pyEngine.Clause(literal, []))


def _goals(rule: _Rule) -> list[_Goal]:
    return [i for i in rule.body if isinstance(i, _Goal)]


def _components(graph: nx.DiGraph[str]) -> dict[str, int]:
    return {n: k for k, scc in enumerate(nx.strongly_connected_components(graph)) for n in scc}


def _with_delta(body: tuple[Item, ...], names: dict[str, str]) -> list[tuple[Item, ...]]:
    """One body per positive literal over a predicate with new facts, reading those facts."""
    out = []
    for i, item in enumerate(body):
        if isinstance(item, _Goal) and not item.naf and item.name in names:
            out.append((*body[:i], replace(item, name=names[item.name]), *body[i + 1:]))
    return out


def _ask(name: str, arity: int) -> set[Row]:
    result = pyEngine.Literal(name, [pyEngine.Var(f"Q{i}") for i in range(arity)]).ask()
    if result is True and arity == 0:
        return {()}
    if not isinstance(result, list):
        raise DatalogEngineError(f"pyDatalog answered {result!r} for {name}/{arity}")
    return set(result)


def _evaluate(plan: _Plan) -> tuple[list[set[Row]], set[Row]]:
    """Every asked predicate's rows, and the pending requests (in this thread)."""
    known = _Driver(plan).run()
    rows = [known[a.name] for a in plan.asks]
    return rows, (known[plan.pending] if plan.pending is not None else set())


def _in_own_thread(plan: _Plan) -> tuple[list[set[Row]], set[Row]]:
    """Run pyDatalog in a thread of its own: its state is per thread, so runs never mix."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = _evaluate(plan)
        except BaseException as exc:  # handed over to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="fxlog-pydatalog", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        exc = box["error"]
        if isinstance(exc, FxlogError):
            raise exc
        raise DatalogEngineError(f"pyDatalog failed: {type(exc).__name__}: {exc}") from exc
    result: tuple[list[set[Row]], set[Row]] = box["result"]
    return result


# ------------------------------------------------------------------ answers


def _answer(ask: _Ask, rows: set[Row]) -> Answer:
    q = ask.query
    truth: Truth = "true" if rows else "false"
    bindings: Sequence[Binding] = ()
    if q.variables:
        symbols = sorted(tuple(value_symbol(v) for v in row) for row in rows)
        bindings = tuple(Binding(s, ask.positions, "true") for s in symbols)
    return Answer(q.text, truth, q.variables, bindings, (), q.index, q.span.file)


def answers_for_module(module: Module, sources: dict[str, str] | None = None,
                       world_span: Span | None = None) -> list[Answer]:
    """Answer the queries of a lowered, checked module with pyDatalog.

    Raises :class:`ProgramError` (code ``E-ENGINE``) for anything outside the
    stratified, closed-world subset; ``world_span`` locates ``world open``.
    """
    sink = DiagnosticSink()
    plan = _Compiler(module, sink).compile()
    if not sink.has_errors:
        _check_strata(plan, module, sink)
    if sink.has_errors:
        raise ProgramError(sink.diagnostics, sources)
    rows, pending = _in_own_thread(plan)
    if pending:
        names = ", ".join(sorted(_text(row[0]) for row in pending))
        span = world_span or Span(module.file, 0, 0, 1, 1)
        raise ProgramError([Diagnostic(
            "E-ENGINE", "error", "the pyDatalog engine does not handle `world open` while "
            f"requests are pending ({names}): their outcomes are left open", span,
            "add their receipts, or use the clingo engine (the default)")], sources)
    return [_answer(ask, r) for ask, r in zip(plan.asks, rows, strict=True)]


def _lower(kb: KnowledgeBase, goal: ast.Query | None) -> Module:
    """Programs + receipts → Module, after the checks the clingo engine runs (same errors)."""
    kb.translation(goal)  # raises ProgramError exactly as `kb.answer(goal)` would
    programs = list(kb.programs) or [ast.Program((), "<empty>")]
    if goal is not None:
        programs = [replace(p, statements=tuple(s for s in p.statements
                                                if not isinstance(s, ast.Query)))
                    for p in programs]
        programs.append(ast.Program((goal,), goal.span.file))
    sink = DiagnosticSink()
    module = flatten(programs[0], *programs[1:], *kb.receipts, sink=sink)
    if sink.has_errors:  # receipts passed their own checks when they were added
        raise ProgramError(sink.diagnostics, kb.sources)
    return module


def answer_with_pydatalog(kb: KnowledgeBase, goal: ast.Query | None) -> list[Answer]:
    """Answer ``goal`` (or the program's queries) with pyDatalog instead of clingo.

    The same :class:`Answer` objects as ``kb.answer(goal).answers`` for any
    program in the stratified, closed-world subset; a :class:`ProgramError`
    with code ``E-ENGINE``, naming the construct and its place, for any other.
    """
    world = next((s.span for p in kb.programs for s in p.statements
                  if isinstance(s, ast.World)), None)
    return answers_for_module(_lower(kb, goal), kb.sources, world)
