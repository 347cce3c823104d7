"""Program (AST) → Module (core IR): molecules, sets, paths and connectives lowered.

This pass does what Flora-2's compiler does before its wrapper predicates:
``o:C[m -> {a, b}]`` becomes three atoms; a set in a head becomes one rule per
element; a path ``?P.author`` becomes a fresh variable plus a frame literal;
``OR`` is distributed into several rules (disjunctive normal form, with an
auxiliary predicate when that would blow up); ``NOT`` of anything but a single
atom becomes ``not aux(...)`` over an auxiliary rule (Lloyd-Topor).

>>> from fxlog.syntax.parser import parse_program
>>> m = flatten(parse_program("a:C[m -> {x, y}]."))
>>> [r.head.pred.kind for r in m.rules]
['isa', 'attr', 'attr']
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator
from typing import Any

from fxlog.errors import DiagnosticSink, ProgramError, Span
from fxlog.syntax import ast
from fxlog.syntax.printer import formula_text, statement_text, term_text
from fxlog.translators.core import (
    BUILTINS,
    Agg,
    Atom,
    BodyItem,
    Builtin,
    Cmp,
    CoreExternal,
    CoreQuery,
    CoreRule,
    Lit,
    Module,
    Origin,
    Pred,
)

__all__ = ["flatten", "method_key", "term_vars"]

Conj = list[BodyItem]
#: Beyond this many disjuncts a nested OR gets an auxiliary predicate instead.
MAX_DNF = 64
HOST_FIELDS = frozenset({"order"})


class _Unsupported(Exception):
    def __init__(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.span, self.hint = code, message, span, hint


def term_vars(term: object) -> Iterator[ast.Var]:
    """Every variable occurrence inside a term or formula, left to right."""
    if isinstance(term, ast.Var):
        yield term
        return
    if isinstance(term, (ast.Sym, ast.Str, ast.Num, ast.QName)) or term is None:
        return
    if isinstance(term, (tuple, list)):
        for item in term:
            yield from term_vars(item)
        return
    if isinstance(term, ast.PlainFact):
        return
    for name in getattr(term, "__dataclass_fields__", {}):
        if name != "span":
            yield from term_vars(getattr(term, name))


def _vars_outside_aggregates(node: object) -> Iterator[ast.Var]:
    """Variables of a formula, skipping those only inside aggregates (they are local)."""
    if isinstance(node, ast.Aggregate):
        yield from node.group  # grouping variables are bound per group, like outer ones
        return
    if isinstance(node, ast.Var):
        yield node
        return
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from _vars_outside_aggregates(item)
        return
    for name in getattr(node, "__dataclass_fields__", {}):
        if name != "span":
            yield from _vars_outside_aggregates(getattr(node, name))


def method_key(method: ast.Term) -> tuple[str, tuple[ast.Term, ...]] | None:
    """``(name, args)`` of a method term, or None for a variable method."""
    if isinstance(method, ast.Sym):
        return method.name, ()
    if isinstance(method, ast.QName):
        return f"{method.ns}#{method.local}", ()
    if isinstance(method, ast.Compound):
        return term_text(method.functor), method.args
    return None


class _Flattener:
    def __init__(self, file: str, sink: DiagnosticSink) -> None:
        self.sink = sink
        self.module = Module(file)
        self.fresh = 0
        self.aux = 0
        self.aggs = 0
        self.origin = -1
        self._statement: object = None
        self._outside: Counter[str] | None = None

    # ------------------------------------------------------------------ helpers
    def new_var(self) -> ast.Var:
        self.fresh += 1
        return ast.Var(f"#{self.fresh}")

    def new_aux(self, arity: int) -> Pred:
        self.aux += 1
        return Pred("aux", str(self.aux), arity)

    def add_rule(self, head: Atom, body: Conj, span: Span) -> None:
        self.module.rules.append(CoreRule(head, tuple(body), span, self.origin))

    def begin(self, stmt: object, span: Span) -> None:
        self.module.origins.append(Origin(span, stmt))
        self.origin = len(self.module.origins) - 1
        self._statement = stmt
        self._outside = None

    @property
    def outside(self) -> Counter[str]:
        """Variable occurrences in the current statement (counted when first needed)."""
        if self._outside is None:
            self._outside = Counter(v.name for v in term_vars(self._statement)
                                    if not v.anonymous)
        return self._outside

    # --------------------------------------------------------------- statements
    def statement(self, stmt: ast.Statement) -> None:
        if isinstance(stmt, ast.PlainFact):
            return
        span = stmt.span
        try:
            if isinstance(stmt, ast.Rule):
                self.begin(stmt, span)
                self.rule(stmt)
            elif isinstance(stmt, ast.Query):
                self.begin(stmt, span)
                self.query(stmt)
            elif isinstance(stmt, ast.External):
                self.begin(stmt, span)
                self.external(stmt)
            elif isinstance(stmt, ast.World):
                self.world(stmt)
            elif isinstance(stmt, ast.Directive):
                self.directive(stmt)
        except _Unsupported as exc:
            self.sink.error(exc.code, exc.message, exc.span, exc.hint)

    def world(self, stmt: ast.World) -> None:
        if getattr(self, "_world_seen", False):
            self.sink.error("E-WORLD", "a program says `world` at most once", stmt.span,
                            "keep one `world open.` or `world closed.`")
        self._world_seen = True
        self.module.world = stmt.mode

    def directive(self, stmt: ast.Directive) -> None:
        if stmt.name == "setsemantics":
            for key, value in stmt.args:
                choice = term_text(value)
                if key == "inheritance" and choice in ("flogic", "monotonic", "none"):
                    self.module.inheritance = choice
                    continue
                self.sink.error("E-DIRECTIVE", f"unknown setting {key} = {choice}", stmt.span,
                                "supported: inheritance = flogic | monotonic | none")
            return
        self.sink.error("E-DIRECTIVE", f"unknown directive `{stmt.name}`", stmt.span,
                        "supported: `:- setsemantics{inheritance = monotonic}.`")

    def rule(self, stmt: ast.Rule) -> None:
        heads: list[Atom] = []
        for lit in stmt.head:
            heads.extend(self.head_molecule(lit.atom, lit.negated))
        bodies = self.dnf(stmt.body) if stmt.body is not None else [[]]
        for body in bodies:
            for head in heads:
                self.add_rule(head, body, stmt.span)

    def query(self, stmt: ast.Query) -> None:
        names: list[str] = []
        for v in _vars_outside_aggregates(stmt.body):
            if not v.anonymous and not v.dont_care and v.name not in names:
                names.append(v.name)
        index = len(self.module.queries)
        pred = Pred("query", str(index), len(names))
        bodies = self.dnf(stmt.body)
        direct = _direct_atom(bodies, names)
        text = "?- " + formula_text(stmt.body) + "."
        self.module.queries.append(CoreQuery(index, pred, tuple(names), text, stmt.span, direct))
        if direct is not None:
            return
        head = Atom(pred, tuple(ast.Var(n) for n in names))
        for body in bodies:
            self.add_rule(head, body, stmt.span)

    def external(self, stmt: ast.External) -> None:
        tool = stmt.tool
        if not isinstance(tool, ast.Sym):
            raise _Unsupported("E-EXTERNAL", "the tool must be a name such as `_query`",
                               stmt.span, "the operator registers tools by name; a program "
                               "cannot choose its tool at run time")
        request = stmt.request
        if not isinstance(request, (ast.Compound, ast.Sym)):
            raise _Unsupported("E-EXTERNAL", "a request is written `name(args)`", stmt.span,
                               "e.g. `external checkHuman(?P) using _query[...] <- ?P:Human.`")
        index = len(self.module.externals)
        self.module.external_origins.add(self.origin)
        text = statement_text(stmt)
        self.module.externals.append(CoreExternal(index, request, tool.name, text, stmt.span))
        facts = self.request_facts(request, tool.name, stmt.fields)
        bodies = self.dnf(stmt.body) if stmt.body is not None else [[]]
        names: list[str] = []
        for v in term_vars((request, stmt.fields)):
            if not v.anonymous and v.name not in names:
                names.append(v.name)
        carrier = Atom(Pred("aux", f"x{index}", len(names)), tuple(ast.Var(n) for n in names))
        for body in bodies:
            self.add_rule(carrier, body, stmt.span)
        for fact in facts:
            self.add_rule(fact, [Lit(carrier)], stmt.span)

    def request_facts(self, request: ast.Term, tool: str,
                      fields: tuple[ast.Spec, ...]) -> list[Atom]:
        def attr(name: str, margs: tuple[ast.Term, ...], value: ast.Term) -> Atom:
            return Atom(Pred("attr", name, len(margs)), (request, *margs, value))

        facts = [
            Atom(Pred("req", "", 2), (request, ast.Num(len(self.module.externals) - 1))),
            attr("tool#name", (), ast.Str(tool)),
            attr("tool#requested", (), ast.Sym("true")),
        ]
        if isinstance(request, ast.Compound):
            for i, arg in enumerate(request.args, 1):
                facts.append(attr(f"tool#arg{i}", (), arg))
        for spec in fields:
            key = method_key(spec.method)
            if key is None or key[1] or spec.arrow not in ("->", "*->") or spec.modifier or \
                    len(spec.values) != 1:
                raise _Unsupported("E-EXTERNAL", "tool inputs are written `name -> value`",
                                   spec.span, "e.g. `query -> \"?- p(?X).\"`")
            name = key[0]
            value = spec.values[0]
            if isinstance(value, (ast.Molecule, ast.Comparison, ast.Path)):
                raise _Unsupported("E-EXTERNAL", "a tool input is a term, not a formula",
                                   spec.span, "bind the value in the body and pass the "
                                   "variable: `q -> ?X` with `?X:C` after `<-`")
            if name.startswith("tool#"):
                if name[5:] not in HOST_FIELDS:
                    raise _Unsupported("E-EXTERNAL", f"`{name}` is set by the host",
                                       spec.span, "the only request setting is `tool#order`")
                facts.append(attr(name, (), value))
            else:
                facts.append(attr("input", (ast.Str(name),), value))
        return facts

    # ------------------------------------------------------------------- heads
    def head_molecule(self, mol: ast.Molecule, negated: bool) -> list[Atom]:
        subjects = self.head_terms(mol.subject)
        atoms: list[Atom] = []
        if mol.rel is None and not mol.frames:
            for s in subjects:
                if _builtin(s) is not None:
                    raise _Unsupported("E-BUILTIN", f"`{term_text(s)}` is a built-in "
                                       "predicate and cannot be defined", mol.span,
                                       "choose another name for your predicate")
                atoms.append(self.pred_atom(s, negated, mol.span))
            return atoms
        if mol.rel is not None and mol.cls is not None:
            kind = "isa" if mol.rel == ":" else "sub"
            for s, c in itertools.product(subjects, self.head_terms(mol.cls)):
                atoms.append(Atom(Pred(kind, "", 0, negated), (s, c)))
        for block in mol.frames:
            if not block.specs:
                atoms.extend(Atom(Pred("exists", "", 0, negated), (s,)) for s in subjects)
            for spec in block.specs:
                if spec.modifier == "naf":
                    raise _Unsupported("E-HEAD", "NOT cannot appear in a rule head", spec.span,
                                       "move the negated condition into the body")
                neg = negated or spec.modifier == "neg"
                for s in subjects:
                    atoms.extend(self.head_spec(s, spec, block.class_level, neg))
        return atoms

    def head_spec(self, subject: ast.Term, spec: ast.Spec, class_level: bool,
                  negated: bool) -> list[Atom]:
        method = self.head_term(spec.method)
        if spec.arrow is None:
            return [self.frame_atom("bool", class_level, subject, method, None, negated, True)]
        out: list[Atom] = []
        kind = "attr" if spec.arrow in ("->", "*->") else "sig"
        class_level = class_level or spec.arrow in ("*->", "*=>")
        for value in spec.values:
            if isinstance(value, ast.Comparison):
                raise _Unsupported("E-HEAD", "a comparison cannot appear in a rule head",
                                   value.span, "move it into the body")
            if isinstance(value, ast.Molecule):
                out.extend(self.head_molecule(value, False))
                value = value.subject
            for v in self.head_terms(value):
                out.append(self.frame_atom(kind, class_level, subject, method, v, negated,
                                           True))
        return out

    def head_terms(self, term: ast.Term) -> list[ast.Term]:
        if isinstance(term, ast.SetTerm):
            return [self.head_term(t) for t in term.items]
        return [self.head_term(term)]

    def head_term(self, term: ast.Term) -> ast.Term:
        if isinstance(term, ast.Path):
            raise _Unsupported("E-HEADPATH", "a path cannot appear in a rule head", term.span,
                               "bind the value in the body: `... :- ?O[m -> ?V], ...`")
        if isinstance(term, (ast.BinOp, ast.UnaryMinus)):
            raise _Unsupported("E-HEAD", "arithmetic is not evaluated inside terms",
                               _span_of(term), "compute it in the body: `?Y \\is ?X + 1`")
        if isinstance(term, ast.Compound):
            return ast.Compound(term.functor, tuple(self.head_term(a) for a in term.args),
                                term.span)
        if isinstance(term, (ast.SetTerm, ast.Molecule, ast.Aggregate, ast.Comparison)):
            raise _Unsupported("E-HEAD", "this construct cannot appear here", _span_of(term),
                               "a set belongs in a frame value (`o[m -> {a, b}]`); "
                               "arguments take single terms")
        return term

    def pred_atom(self, subject: ast.Term, negated: bool, span: Span) -> Atom:
        if isinstance(subject, ast.Sym):
            return Atom(Pred("user", subject.name, 0, negated), ())
        if isinstance(subject, ast.Compound):
            name = term_text(subject.functor)
            return Atom(Pred("user", name, len(subject.args), negated), subject.args)
        if isinstance(subject, ast.QName):
            return Atom(Pred("user", term_text(subject), 0, negated), ())
        raise _Unsupported("E-ATOM", f"`{term_text(subject)}` is not a formula", span,
                           "a formula is a predicate `p(...)`, a membership `o:C` "
                           "or a frame `o[m -> v]`")

    def frame_atom(self, kind: str, class_level: bool, subject: ast.Term, method: ast.Term,
                   value: ast.Term | None, negated: bool, head: bool = False) -> Atom:
        if class_level:
            kind = "c" + kind
        key = method_key(method)
        tail = () if value is None else (value,)
        if key is None:
            if not isinstance(method, ast.Var):
                raise _Unsupported("E-METHOD", f"`{term_text(method)}` cannot be a method",
                                   _span_of(method), "a method is a name, `name(args)` or "
                                   "a variable")
            return Atom(Pred("genh" if head else "gen", kind, 0, negated),
                        (subject, method, *tail))
        name, margs = key
        return Atom(Pred(kind, name, len(margs), negated), (subject, *margs, *tail))

    # ------------------------------------------------------------------ bodies
    def dnf(self, f: ast.Formula) -> list[Conj]:
        """Disjunctive normal form of a body: a list of alternative conjunctions."""
        if isinstance(f, ast.And):
            result: list[Conj] = [[]]
            for item in f.items:
                alts = self.dnf(item)
                if len(result) * len(alts) > MAX_DNF:
                    alts = [[self.aux_for(item, alts, negate=False)]]
                result = [a + b for a in result for b in alts]
            return result
        if isinstance(f, ast.Or):
            out: list[Conj] = []
            for item in f.items:
                out.extend(self.dnf(item))
            return out
        if isinstance(f, ast.Truth):
            return [[]] if f.value else []
        if isinstance(f, ast.Not):
            return [[self.negation(f)]]
        if isinstance(f, ast.Neg):
            return [self.body_molecule(f.atom, negated=True)]
        if isinstance(f, ast.Comparison):
            return [self.comparison(f)]
        if isinstance(f, ast.Is):
            return [self.comparison(ast.Comparison("=", f.var, f.expr, f.span))]
        return [self.body_molecule(f, negated=False)]

    def negation(self, f: ast.Not) -> BodyItem:
        inner_names = Counter(v.name for v in term_vars(f.body) if not v.anonymous)
        local = sorted(n for n, k in inner_names.items() if self.outside[n] == k)
        for name in local:
            if not name.startswith("_"):
                raise _Unsupported(
                    "E-UNSAFE-NAF", f"?{name} occurs only under NOT", f.span,
                    f"bind ?{name} outside the negation, or write `?` / `?_{name}` "
                    "if you mean 'there is no such value'")
        alts = self.dnf(f.body)
        if len(alts) == 1 and len(alts[0]) == 1:
            only = alts[0][0]
            if isinstance(only, Lit) and not only.naf and not _has_dont_care(only.atom):
                return Lit(only.atom, naf=True, span=f.span)
            if isinstance(only, Cmp) and only.op in _CMP_NEGATION:
                return Cmp(_CMP_NEGATION[only.op], only.left, only.right, only.span)
            if isinstance(only, Builtin) and only.name in ("contains", "starts_with"):
                return Builtin(only.name, only.args, True, f.span)
        if any(isinstance(i, (Builtin, Agg)) for alt in alts for i in alt):
            bad = next(i for alt in alts for i in alt if isinstance(i, (Builtin, Agg)))
            what = bad.name if isinstance(bad, Builtin) else "an aggregate"
            raise _Unsupported("E-UNSUPPORTED", f"NOT over {what} is not supported", f.span,
                               "bind its result first, then negate a comparison on it")
        return self.aux_for(f.body, alts, negate=True)

    def aux_for(self, f: ast.Formula, alts: list[Conj], negate: bool) -> Lit:
        inner = Counter(v.name for v in term_vars(f) if not v.anonymous)
        shared = [n for n in inner if self.outside[n] > inner[n]]
        lit = self.aux_over(shared, alts, _span_of(f))
        return Lit(lit.atom, naf=negate, span=_span_of(f))

    def aux_over(self, names: list[str], alts: list[Conj], span: Span) -> Lit:
        """An auxiliary predicate over ``names`` defined by one rule per alternative."""
        head = Atom(self.new_aux(len(names)), tuple(ast.Var(n) for n in names))
        for body in alts:
            self.add_rule(head, body, span)
        return Lit(head)

    def comparison(self, f: ast.Comparison) -> Conj:
        items: Conj = []
        if isinstance(f.left, ast.Aggregate) and not isinstance(f.right, ast.Aggregate):
            f = ast.Comparison(_FLIP.get(f.op, f.op), f.right, f.left, f.span)
        if isinstance(f.right, ast.Aggregate):
            return self.aggregate(f, f.right)
        left = self.body_term(f.left, items)
        right = self.body_term(f.right, items)
        items.append(Cmp(f.op, left, right, f.span))
        return items

    def aggregate(self, cmp: ast.Comparison, agg: ast.Aggregate) -> Conj:
        """``left op func{?X[?G..] | body}``: an :class:`Agg` plus the literals it needs."""
        if agg.func not in _AGGREGATES:
            raise _Unsupported("E-AGGREGATE", f"unknown aggregate `{agg.func}`", agg.span,
                               "use one of " + ", ".join(sorted(_AGGREGATES)))
        items: Conj = []
        left = self.body_term(cmp.left, items)
        # Anonymous variables are local to the aggregate like named ones: naming
        # them makes two facts that differ only there count as two tuples.
        agg = dataclasses.replace(agg, body=self.name_anonymous(agg.body))
        alts = self.dnf(agg.body)
        inner = Counter(v.name for v in term_vars(agg) if not v.anonymous)
        value_name = agg.var.name
        group = [g.name for g in agg.group]
        shared = [n for n in inner if self.outside[n] > inner[n] and n != value_name]
        keys = list(dict.fromkeys(group + shared))
        if len(alts) != 1 or any(isinstance(i, Agg) for i in alts[0]):
            body: tuple[Lit | Cmp | Builtin, ...] = (self.aux_over(list(inner), alts,
                                                                   agg.span),)
        else:
            body = tuple(i for i in alts[0] if not isinstance(i, Agg))
        local = tuple(n for n in inner if n not in keys and n != value_name)
        if group:
            domain = Atom(self.new_aux(len(group)), tuple(ast.Var(g) for g in group))
            self.add_rule(domain, list(body), agg.span)
            items.append(Lit(domain))
        self.aggs += 1
        result: ast.Term = left
        if cmp.op != "=" or not isinstance(left, ast.Var):
            result = self.new_var()
        items.append(Agg(self.aggs, agg.func, result, agg.var, local, tuple(keys), body,
                         agg.span))
        if result is not left:
            items.append(Cmp(cmp.op, left, result, cmp.span))
        return items

    def name_anonymous(self, node: Any) -> Any:
        """A copy of ``node`` with every anonymous variable replaced by a fresh one."""
        if isinstance(node, ast.Var):
            return self.new_var() if node.anonymous else node
        if isinstance(node, tuple):
            return tuple(self.name_anonymous(x) for x in node)
        if isinstance(node, ast.Not):
            return node  # anonymous variables under NOT mean "there is none"
        fields = getattr(node, "__dataclass_fields__", None)
        if not fields or isinstance(node, (ast.Sym, ast.Str, ast.Num, ast.QName)):
            return node
        changes = {f: self.name_anonymous(getattr(node, f)) for f in fields if f != "span"}
        return dataclasses.replace(node, **changes)

    def body_term(self, term: ast.Term, items: Conj) -> ast.Term:
        """A term with its paths replaced by fresh variables bound in ``items``."""
        if isinstance(term, ast.Path):
            obj = self.body_term(term.obj, items)
            method = self.body_term(term.method, items)
            value = self.new_var()
            items.append(Lit(self.frame_atom("attr", False, obj, method, value, False)))
            return value
        if isinstance(term, ast.Compound):
            return ast.Compound(term.functor, tuple(self.body_term(a, items) for a in term.args),
                                term.span)
        if isinstance(term, ast.BinOp):
            return ast.BinOp(term.op, self.body_term(term.left, items),
                             self.body_term(term.right, items), term.span)
        if isinstance(term, ast.UnaryMinus):
            return ast.UnaryMinus(self.body_term(term.operand, items), term.span)
        if isinstance(term, ast.Molecule):
            items.extend(self.body_molecule(term, negated=False))
            return self.body_term(term.subject, items)
        if isinstance(term, (ast.SetTerm, ast.Aggregate, ast.Comparison)):
            raise _Unsupported("E-TERM", "this construct cannot appear here", _span_of(term),
                               "a set belongs in a frame value (`o[m -> {a, b}]`); "
                               "arguments take single terms")
        return term

    def body_terms(self, term: ast.Term, items: Conj) -> list[ast.Term]:
        if isinstance(term, ast.SetTerm):
            return [self.body_term(t, items) for t in term.items]
        return [self.body_term(term, items)]

    def body_molecule(self, mol: ast.Molecule, negated: bool) -> Conj:
        items: Conj = []
        subjects = self.body_terms(mol.subject, items)
        if mol.rel is None and not mol.frames:
            for s in subjects:
                builtin = _builtin(s)
                if builtin is not None and not negated:
                    items.append(builtin)
                else:
                    items.append(Lit(self.pred_atom(s, negated, mol.span)))
            return items
        if mol.rel is not None and mol.cls is not None:
            kind = "isa" if mol.rel == ":" else "sub"
            for s, c in itertools.product(subjects, self.body_terms(mol.cls, items)):
                items.append(Lit(Atom(Pred(kind, "", 0, negated), (s, c))))
        for block in mol.frames:
            for s in subjects:
                if not block.specs:
                    items.append(Lit(Atom(Pred("exists", "", 0, negated), (s,))))
                for spec in block.specs:
                    self.body_spec(s, spec, block.class_level, negated, items)
        return items

    def body_spec(self, subject: ast.Term, spec: ast.Spec, class_level: bool, negated: bool,
                  items: Conj) -> None:
        naf = spec.modifier == "naf"
        neg = negated or spec.modifier == "neg"
        method = self.body_term(spec.method, items)
        if spec.arrow is None:
            atom = self.frame_atom("bool", class_level, subject, method, None, neg)
            items.append(Lit(atom, naf=naf))
            return
        kind = "attr" if spec.arrow in ("->", "*->") else "sig"
        class_level = class_level or spec.arrow in ("*->", "*=>")
        for value in spec.values:
            guard: Cmp | None = None
            if isinstance(value, ast.Comparison):
                guard_items: Conj = []
                left = self.body_term(value.left, items)
                right = self.body_term(value.right, guard_items)
                items.extend(guard_items)
                guard = Cmp(value.op, left, right, value.span)
                value = left
            for v in self.body_terms(value, items):
                atom = self.frame_atom(kind, class_level, subject, method, v, neg)
                items.append(Lit(atom, naf=naf))
            if guard is not None:
                items.append(guard)


_CMP_NEGATION = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "!=": "="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_AGGREGATES = frozenset({"count", "countdistinct", "sum", "min", "max", "avg"})


def _builtin(term: ast.Term) -> Builtin | None:
    """A string builtin call, recognised by name and arity."""
    if isinstance(term, ast.Compound) and isinstance(term.functor, ast.Sym):
        spec = BUILTINS.get(term.functor.name)
        if spec is not None and spec[0] == len(term.args):
            return Builtin(term.functor.name, term.args, False, term.span)
    return None


def _has_dont_care(atom: Atom) -> bool:
    return any(v.dont_care for v in term_vars(atom.args))


def _span_of(term: object) -> Span:
    span = getattr(term, "span", None)
    if isinstance(span, Span):
        return span
    from fxlog.errors import NO_SPAN

    return NO_SPAN


def _direct_atom(bodies: list[Conj], names: list[str]) -> Atom | None:
    """A query that is one positive atom over distinct variables needs no copy rule."""
    if len(bodies) != 1 or len(bodies[0]) != 1:
        return None
    only = bodies[0][0]
    if not isinstance(only, Lit) or only.naf or only.atom.pred.kind in ("gen",):
        return None
    args = only.atom.args
    if not all(isinstance(a, ast.Var) and not a.anonymous for a in args):
        return None
    arg_names = [a.name for a in args if isinstance(a, ast.Var)]
    if len(set(arg_names)) != len(arg_names) or sorted(arg_names) != sorted(names):
        return None
    return only.atom


def flatten(program: ast.Program, *more: ast.Program,
            sink: DiagnosticSink | None = None) -> Module:
    """Lower every statement of ``program`` (and of ``more``, e.g. receipts files).

    Plain facts are carried over untouched in ``Module.plain``, per file.
    """
    own_sink = sink is None
    sink = sink or DiagnosticSink()
    f = _Flattener(program.file, sink)
    for prog in (program, *more):
        plain: list[ast.PlainFact] = []
        for stmt in prog.statements:
            if isinstance(stmt, ast.PlainFact):
                plain.append(stmt)
            else:
                f.statement(stmt)
        f.module.plain.append((prog.file, plain))
    if own_sink and sink.has_errors:
        raise ProgramError(sink.diagnostics, {p.file: p.source for p in (program, *more)})
    return f.module
