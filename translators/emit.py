"""Module (core IR) → AspProgram: deterministic ASP text plus what the engine needs.

Same module in, same text out: rules keep program order, generated axioms come
in a fixed order, and sets of generated facts are sorted. Each frame method
gets its own predicate (``o[tc -> v]`` becomes ``fx_a_tc(o, v)``), so linear
recursion over frames stays linear; the generic ``(object, method, value)``
view exists only when some rule uses a variable method.

>>> from fxlog.syntax.parser import parse_program
>>> from fxlog.translators.flatten import flatten
>>> print(emit(flatten(parse_program("?X[tc -> ?Y] :- ?X[e -> ?Y]."))).base.splitlines()[-1])
fx_a_tc(VX,VY) :- fx_a_e(VX,VY).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fxlog.errors import Span
from fxlog.syntax import ast
from fxlog.translators.core import (
    RECEIPT_METHODS,
    Atom,
    BodyItem,
    Cmp,
    CoreExternal,
    CoreRule,
    Lit,
    Module,
    Pred,
)
from fxlog.translators.encode import pred_asp, term_asp, token_asp

__all__ = ["AspProgram", "QueryShow", "emit", "emit_facts"]

_ARITH = {"+": "fx_add", "-": "fx_sub", "*": "fx_mul", "/": "fx_div", "mod": "fx_mod"}
_ARITH_FUNCS = {("abs", 1): "fx_abs", ("min", 2): "fx_min", ("max", 2): "fx_max"}
_FRAME_KINDS = ("attr", "cattr", "sig", "csig", "bool", "cbool")


@dataclass(frozen=True, slots=True)
class QueryShow:
    """How the engine finds a query's answers among the shown atoms."""

    index: int
    text: str
    variables: tuple[str, ...]
    name: str
    arity: int
    #: variable name at each argument position (None where the argument is fixed)
    positions: tuple[str | None, ...]
    span: Span


@dataclass(frozen=True)
class AspProgram:
    """The translation of a program: ASP text for the solver and its reading key."""

    base: str
    open: str
    queries: tuple[QueryShow, ...]
    externals: tuple[CoreExternal, ...]
    world: str
    origins: tuple[tuple[Span, str], ...] = field(default=(), compare=False)

    @property
    def text(self) -> str:
        """Everything, as ``fxlog translate`` prints it."""
        if not self.open:
            return self.base
        return self.base + "#program open.\n" + self.open


def _stored(pred: Pred) -> str:
    if pred.kind in ("isa", "sub") and not pred.negated:
        return pred_asp(pred) + "_"
    return pred_asp(pred)


def _closed(pred: Pred) -> str:
    return pred_asp(pred)


def _is_arith(term: ast.Term) -> bool:
    if isinstance(term, (ast.BinOp, ast.UnaryMinus)):
        return True
    return isinstance(term, ast.Compound) and isinstance(term.functor, ast.Sym) and (
        term.functor.name, len(term.args)) in _ARITH_FUNCS


def expr_asp(term: ast.Term) -> str:
    """ASP text of an arithmetic expression: exact script functions, never clingo's ints."""
    if isinstance(term, ast.BinOp):
        return f"@{_ARITH[term.op]}({expr_asp(term.left)},{expr_asp(term.right)})"
    if isinstance(term, ast.UnaryMinus):
        return f"@fx_neg({expr_asp(term.operand)})"
    if isinstance(term, ast.Compound) and _is_arith(term):
        assert isinstance(term.functor, ast.Sym)
        func = _ARITH_FUNCS[(term.functor.name, len(term.args))]
        return f"@{func}({','.join(expr_asp(a) for a in term.args)})"
    return term_asp(term)


def _atom_text(name: str, args: tuple[ast.Term, ...]) -> str:
    if not args:
        return name
    return f"{name}({','.join(term_asp(a) for a in args)})"


def cmp_asp(c: Cmp) -> str:
    left, right = c.left, c.right
    if c.op in ("=", "!="):
        if _is_arith(left) and isinstance(right, ast.Var):
            left, right = right, left
        return f"{expr_asp(left)}{c.op}{expr_asp(right)}"
    if isinstance(left, ast.Num) and isinstance(right, ast.Num) and \
            isinstance(left.value, int) and isinstance(right.value, int):
        return f"{left.value}{c.op}{right.value}"
    return f"@fx_cmp({expr_asp(left)},{expr_asp(right)}){c.op}0"


def item_asp(item: BodyItem) -> str:
    if isinstance(item, Cmp):
        return cmp_asp(item)
    text = _atom_text(_closed(item.atom.pred), item.atom.args)
    return "not " + text if item.naf else text


def rule_asp(rule: CoreRule) -> str:
    head = _atom_text(_stored(rule.head.pred), rule.head.args)
    if not rule.body:
        return head + "."
    return f"{head} :- {', '.join(item_asp(i) for i in rule.body)}."


class _Emitter:
    def __init__(self, module: Module) -> None:
        self.m = module
        self.lines: list[str] = []
        self.body_preds: set[Pred] = set()
        self.head_preds: set[Pred] = set()
        self.known_frames: set[Pred] = set()
        for rule in module.rules:
            self.head_preds.add(rule.head.pred)
            for item in rule.body:
                if isinstance(item, Lit):
                    self.body_preds.add(item.atom.pred)
        for _file, facts in module.plain:
            for pf in facts:
                self.head_preds.add(_plain_pred(pf))
        for pred in self.head_preds | self.body_preds:
            if pred.kind in _FRAME_KINDS:
                self.known_frames.add(pred)
        for name, nargs in RECEIPT_METHODS:
            self.known_frames.add(Pred("attr", name, nargs))

    def emit(self) -> AspProgram:
        out = self.lines
        out.append("% generated by fxlog from " + self.m.file)
        out.extend(self.defined())
        out.extend(self.closure_axioms())
        out.extend(self.generic_views())
        out.extend(self.request_axioms())
        out.extend(self.shows())
        for file, facts in self.m.plain:
            if facts:
                out.append(f"% facts of {file}")
                out.extend(_plain_asp(pf) for pf in facts)
        out.append("% rules")
        out.extend(rule_asp(r) for r in self.m.rules)
        base = "\n".join(out) + "\n"
        open_text = self.open_world() if self.m.world == "open" else ""
        return AspProgram(base, open_text, self.query_shows(), tuple(self.m.externals),
                          self.m.world, tuple(self.m.origins))

    # ---------------------------------------------------------------- sections
    def defined(self) -> list[str]:
        preds = {(_closed(p), p.arity) for p in self.body_preds}
        preds |= {("fx_req", 2), ("fx_isa_", 2), ("fx_sub_", 2)}
        for name, nargs in sorted(RECEIPT_METHODS):
            preds.add((_closed(Pred("attr", name, nargs)), nargs + 2))
        return [f"#defined {n}/{a}." for n, a in sorted(preds)]

    def uses(self, kind: str) -> bool:
        return any(p.kind == kind for p in self.body_preds | self.head_preds)

    def closure_axioms(self) -> list[str]:
        if not (self.uses("isa") or self.uses("sub")):
            return []
        return [
            "% class hierarchy: :: is transitive (not reflexive), : is closed over ::",
            "fx_sub(C,D) :- fx_sub_(C,D).",
            "fx_sub(C,E) :- fx_sub(C,D), fx_sub_(D,E).",
            "fx_isa(O,C) :- fx_isa_(O,C).",
            "fx_isa(O,D) :- fx_isa_(O,C), fx_sub(C,D).",
            "fx_cycle(C) :- fx_sub(C,C).",
        ] + self.exists_axioms()

    def exists_axioms(self) -> list[str]:
        if Pred("exists", "", 0) not in self.body_preds:
            return []
        lines = ["% o[] holds for every object that something is said about",
                 "fx_exists(O) :- fx_isa(O,_).", "fx_exists(C) :- fx_sub(C,_)."]
        for p in sorted(self.known_frames):
            rest = ",".join("_" for _ in range(p.arity - 1))
            lines.append(f"fx_exists(O) :- {_closed(p)}(O,{rest}).")
        return lines

    def generic_views(self) -> list[str]:
        lines: list[str] = []
        for kind in _FRAME_KINDS:
            reads = Pred("gen", kind, 0) in self.body_preds
            writes = Pred("genh", kind, 0) in self.head_preds
            if not (reads or writes):
                continue
            lines.append(f"% generic view of {kind} for rules with variable methods")
            has_value = kind not in ("bool", "cbool")
            for p in sorted(q for q in self.known_frames if q.kind == kind and not q.negated):
                margs = [f"A{i}" for i in range(p.args)]
                method = _method_asp(p.name, margs)
                obj_args = ",".join(["O", *margs] + (["V"] if has_value else []))
                view_args = "O," + method + (",V" if has_value else "")
                if reads:
                    lines.append(f"fx_gen_{kind}({view_args}) :- {_closed(p)}({obj_args}).")
                if writes:
                    lines.append(f"{_stored(p)}({obj_args}) :- fx_genh_{kind}({view_args}).")
            if reads and writes:
                v = "O,M,V" if has_value else "O,M"
                lines.append(f"fx_gen_{kind}({v}) :- fx_genh_{kind}({v}).")
        return lines

    def request_axioms(self) -> list[str]:
        completed = _closed(Pred("attr", "tool#completed", 0))
        return [
            "% a request is pending until a receipt says it completed",
            f"fx_pend(R) :- fx_req(R,_), not {completed}(R,true).",
        ]

    def shows(self) -> list[str]:
        """Only query answers are shown; the host reads the rest via the symbol table."""
        attr = lambda name, n=0: _closed(Pred("attr", name, n))  # noqa: E731
        lines = [
            f'fx_ri(R,"name",N) :- fx_pend(R), {attr("tool#name")}(R,N).',
            f'fx_ri(R,"order",O) :- fx_pend(R), {attr("tool#order")}(R,O).',
            f"fx_in(R,K,V) :- fx_pend(R), {attr('input', 1)}(R,K,V).",
            f"fx_wf(S) :- {attr('status')}(workflow,S).",
            f"#defined {attr('tool#order')}/2.",
            f"#defined {attr('input', 1)}/3.",
            f"#defined {attr('status')}/2.",
            "#defined fx_cycle/1.",
            "#show.",
        ]
        for q in self.query_shows():
            line = f"#show {q.name}/{q.arity}."
            if line not in lines:
                lines.append(line)
        return lines

    def query_shows(self) -> tuple[QueryShow, ...]:
        shows: list[QueryShow] = []
        for q in self.m.queries:
            if q.direct is not None:
                name = _closed(q.direct.pred)
                positions = tuple(a.name if isinstance(a, ast.Var) else None
                                  for a in q.direct.args)
                shows.append(QueryShow(q.index, q.text, q.variables, name, len(positions),
                                       positions, q.span))
            else:
                shows.append(QueryShow(q.index, q.text, q.variables, _closed(q.pred),
                                       len(q.variables), q.variables, q.span))
        return tuple(shows)

    # -------------------------------------------------------------- open world
    def open_world(self) -> str:
        """Choice rules over the outcome of each request pending in the closed world."""
        completed = _stored(Pred("attr", "tool#completed", 0))
        status = _stored(Pred("attr", "tool#status", 0))
        result = _stored(Pred("attr", "result", 1))
        row = _stored(Pred("attr", "row", 2))
        error = _stored(Pred("attr", "error", 1))
        keys, rows, errs = self.read_keys()
        lines = [
            "% world open: the outcome of each pending request is unknown",
            "#defined fx_cpend/1.",
            "{ fx_oc(R) } :- fx_cpend(R).",
            f"{completed}(R,true) :- fx_oc(R).",
            '1 { fx_os(R,"succeeded"); fx_os(R,"failed") } 1 :- fx_oc(R).',
            f"{status}(R,S) :- fx_os(R,S).",
            f'{{ {result}(R,K,V) : fx_odom(V) }} 1 :- fx_os(R,"succeeded"), fx_okey(K).',
            f'{{ {row}(R,N,K,V) : fx_odom(V) }} 1 :- fx_os(R,"succeeded"), fx_orow(N,K).',
            f'{{ {error}(R,K,V) : fx_odom(V) }} 1 :- fx_os(R,"failed"), fx_oerr(K).',
            "fx_odom(fx_other).",
        ]
        lines.extend(f"fx_odom({c})." for c in sorted(self.constants()))
        lines.extend(f"fx_okey({k})." for k in sorted(keys))
        lines.extend(f"fx_orow({n},{k})." for n, k in sorted(rows))
        lines.extend(f"fx_oerr({k})." for k in sorted(errs))
        lines.extend(["#defined fx_okey/1.", "#defined fx_orow/2.", "#defined fx_oerr/1."])
        return "\n".join(lines) + "\n"

    def read_keys(self) -> tuple[set[str], set[tuple[str, str]], set[str]]:
        keys: set[str] = set()
        rows: set[tuple[str, str]] = set()
        errs: set[str] = set()
        for rule in self.m.rules:
            for item in rule.body:
                if not isinstance(item, Lit) or item.atom.pred.kind != "attr":
                    continue
                p, args = item.atom.pred, item.atom.args
                ground = [a for a in args[1:-1] if not isinstance(a, ast.Var)]
                if len(ground) != p.args:
                    continue
                texts = [term_asp(a) for a in ground]
                if (p.name, p.args) == ("result", 1):
                    keys.add(texts[0])
                elif (p.name, p.args) == ("row", 2):
                    rows.add((texts[0], texts[1]))
                elif (p.name, p.args) == ("error", 1):
                    errs.add(texts[0])
        return keys, rows, errs

    def constants(self) -> set[str]:
        found: set[str] = set()
        for rule in self.m.rules:
            if rule.head.pred.kind == "req":
                continue  # the external's index is bookkeeping, not a program constant
            for term in _rule_terms(rule):
                _collect_constants(term, found)
        return found


def _rule_terms(rule: CoreRule) -> list[ast.Term]:
    terms: list[ast.Term] = list(rule.head.args)
    for item in rule.body:
        if isinstance(item, Lit):
            terms.extend(item.atom.args)
        else:
            terms.extend((item.left, item.right))
    return terms


def _collect_constants(term: ast.Term, found: set[str]) -> None:
    if isinstance(term, (ast.Str, ast.Num, ast.Sym, ast.QName)):
        found.add(term_asp(term))
    elif isinstance(term, ast.Compound):
        if not any(True for _ in _vars(term)):
            found.add(term_asp(term))
        for a in term.args:
            _collect_constants(a, found)
    elif isinstance(term, ast.BinOp):
        _collect_constants(term.left, found)
        _collect_constants(term.right, found)


def _vars(term: ast.Term) -> list[ast.Var]:
    from fxlog.translators.flatten import term_vars

    return list(term_vars(term))


def _method_asp(name: str, margs: list[str]) -> str:
    if "#" in name:
        ns, local = name.split("#", 1)
        head = f'fx_q("{ns}","{local}"'
        return head + ("," + ",".join(margs) if margs else "") + ")"
    sym = term_asp(ast.Sym(name))
    if not margs:
        return sym
    if sym.startswith("fx_s("):
        return f"fx_f({sym[5:-1]},{','.join(margs)})"
    return f"{sym}({','.join(margs)})"


def _plain_pred(pf: ast.PlainFact) -> Pred:
    kind, parts = pf.kind, pf.parts
    if kind == "pred":
        return Pred("user", parts[0], len(parts) - 1)
    if kind == "attr":
        return Pred("attr", parts[1], 0)
    return Pred(kind, "", 0)


def _plain_asp(pf: ast.PlainFact) -> str:
    kind, parts = pf.kind, pf.parts
    if kind == "pred":
        name = pred_asp(Pred("user", parts[0], len(parts) - 1))
        if len(parts) == 1:
            return name + "."
        return f"{name}({','.join(token_asp(t) for t in parts[1:])})."
    if kind == "attr":
        name = _stored(Pred("attr", parts[1], 0))
        return f"{name}({token_asp(parts[0])},{token_asp(parts[2])})."
    name = _stored(Pred(kind, "", 0))
    return f"{name}({token_asp(parts[0])},{token_asp(parts[1])})."


def emit(module: Module) -> AspProgram:
    """Translate a lowered module into ASP text (deterministic)."""
    return _Emitter(module).emit()


def emit_facts(module: Module) -> str:
    """ASP text of a module that holds only facts (a receipts file).

    Facts need no plan beyond the stored name of each predicate, so receipts
    can be translated on their own and added to an already translated program.
    """
    lines: list[str] = []
    for _file, facts in module.plain:
        lines.extend(_plain_asp(pf) for pf in facts)
    for rule in module.rules:
        if rule.body:
            raise ValueError("emit_facts() takes facts only")
        lines.append(rule_asp(rule))
    return "\n".join(lines) + ("\n" if lines else "")
