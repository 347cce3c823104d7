"""Core rules → ASP rule text: literals, exact arithmetic, builtins and aggregates.

Arithmetic and ordering comparisons go through the solver's ``@fx_*`` script
functions (exact, never wrapping); ``=`` and ``!=`` compare terms, which is
exact because every number has one canonical term. Aggregates count distinct
tuples; ``min``/``max`` compare by exact value (a pairwise encoding, since
clingo's own ``#min`` orders numbers and other terms by its term order).

>>> from fxlog.syntax import ast
>>> cmp_asp(Cmp(">", ast.Var("A"), ast.Num(30)))
'@fx_cmp(VA,30)>0'
"""

from __future__ import annotations

from fxlog.syntax import ast
from fxlog.translators.core import Agg, BodyItem, Builtin, Cmp, CoreRule, Lit
from fxlog.translators.encode import term_asp, var_asp
from fxlog.translators.plan import Plan

__all__ = ["RuleWriter", "cmp_asp", "expr_asp"]

_ARITH = {"+": "fx_add", "-": "fx_sub", "*": "fx_mul", "/": "fx_div", "mod": "fx_mod"}
_ARITH_FUNCS = {("abs", 1): "fx_abs", ("min", 2): "fx_min", ("max", 2): "fx_max"}
#: builtins whose last argument is computed from the others
_FUNCTIONAL = {"lower": "fx_lower", "length": "fx_length", "concat": "fx_concat",
               "to_string": "fx_to_string"}


def is_arith(term: ast.Term) -> bool:
    if isinstance(term, (ast.BinOp, ast.UnaryMinus)):
        return True
    return isinstance(term, ast.Compound) and isinstance(term.functor, ast.Sym) and (
        term.functor.name, len(term.args)) in _ARITH_FUNCS


def expr_asp(term: ast.Term) -> str:
    """ASP text of an arithmetic expression, through exact script functions."""
    if isinstance(term, ast.BinOp):
        return f"@{_ARITH[term.op]}({expr_asp(term.left)},{expr_asp(term.right)})"
    if isinstance(term, ast.UnaryMinus):
        return f"@fx_neg({expr_asp(term.operand)})"
    if isinstance(term, ast.Compound) and is_arith(term):
        assert isinstance(term.functor, ast.Sym)
        func = _ARITH_FUNCS[(term.functor.name, len(term.args))]
        return f"@{func}({','.join(expr_asp(a) for a in term.args)})"
    return term_asp(term)


def atom_text(name: str, args: tuple[ast.Term, ...]) -> str:
    if not args:
        return name
    return f"{name}({','.join(term_asp(a) for a in args)})"


def cmp_asp(c: Cmp) -> str:
    left, right = c.left, c.right
    if c.op in ("=", "!="):
        if is_arith(left) and isinstance(right, ast.Var):
            left, right = right, left
        return f"{expr_asp(left)}{c.op}{expr_asp(right)}"
    if isinstance(left, ast.Num) and isinstance(right, ast.Num):
        # Both sides are known: decide exactly now (clingo would wrap big integers).
        holds = {"<": left.value < right.value, "<=": left.value <= right.value,
                 ">": left.value > right.value, ">=": left.value >= right.value}[c.op]
        return "0=0" if holds else "0=1"
    return f"@fx_cmp({expr_asp(left)},{expr_asp(right)}){c.op}0"


def builtin_asp(b: Builtin) -> str:
    args = [term_asp(a) for a in b.args]
    if b.name in _FUNCTIONAL:
        return f"{args[-1]}=@{_FUNCTIONAL[b.name]}({','.join(args[:-1])})"
    return f"@fx_{b.name}({','.join(args)})={'0' if b.negated else '1'}"


class RuleWriter:
    """Writes core rules as ASP under one plan; aggregates add helper rules."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.extra: list[str] = []

    def item(self, item: BodyItem, context: list[str]) -> str:
        if isinstance(item, Cmp):
            return cmp_asp(item)
        if isinstance(item, Builtin):
            return builtin_asp(item)
        if isinstance(item, Agg):
            return self.aggregate(item, context)
        text = atom_text(self.plan.closed(item.atom.pred), item.atom.args)
        return "not " + text if item.naf else text

    def body(self, items: tuple[BodyItem, ...]) -> list[str]:
        context = [self.item(i, []) for i in items if isinstance(i, Lit) and not i.naf]
        return [self.item(i, context) for i in items]

    def rule(self, rule: CoreRule) -> str:
        head = atom_text(self.plan.stored(rule.head.pred), rule.head.args)
        if not rule.body:
            return head + "."
        return f"{head} :- {', '.join(self.body(rule.body))}."

    # ------------------------------------------------------------- aggregates
    def aggregate(self, agg: Agg, context: list[str]) -> str:
        inner = ", ".join(self.item(i, []) for i in agg.body)
        value = term_asp(agg.value)
        result = term_asp(agg.result)
        keys = [var_asp(ast.Var(k)) for k in agg.keys]
        tuple_ = ",".join([value] + [var_asp(ast.Var(n)) for n in agg.local])
        if agg.func in ("count", "countdistinct"):
            elems = value if agg.func == "countdistinct" else tuple_
            return f"{result}=#count{{{elems} : {inner}}}"
        if agg.func in ("min", "max"):
            return self._extremum(agg, inner, keys, value, result, context)
        self._guard(agg, inner, value, tuple_, context)
        k = agg.index
        # clingo sums 32-bit integers and wraps; summing the high and low 16 bits
        # separately and recombining with exact arithmetic never overflows for the
        # 32,767 tuples the guard allows.
        parts = (f"FH{k}=#sum{{@fx_hi({value}),{tuple_} : {inner}}}, "
                 f"FL{k}=#sum{{@fx_lo({value}),{tuple_} : {inner}}}")
        total = f"@fx_add(@fx_mul(FH{k},65536),FL{k})"
        if agg.func == "sum":
            return f"{parts}, {result}={total}"
        return (f"{parts}, FC{k}=#count{{{tuple_} : {inner}}}, FC{k}>0, "
                f"{result}=@fx_div({total},FC{k})")

    def _extremum(self, agg: Agg, inner: str, keys: list[str], value: str, result: str,
                  context: list[str]) -> str:
        k = agg.index
        inp = f"fx_agg{k}"
        beaten = f"fx_aggb{k}"
        ks = ",".join(keys)
        head = f"({ks}{',' if ks else ''}{value})"
        other = f"({ks}{',' if ks else ''}FY{k})"
        cmp = "<" if agg.func == "min" else ">"
        ctx = ", ".join(context + [inner])
        self.extra += [
            f"{inp}{head} :- {ctx}.",
            f"{beaten}{head} :- {inp}{head}, {inp}{other}, @fx_cmp(FY{k},{value}){cmp}0.",
        ]
        res_args = f"({ks}{',' if ks else ''}{result})"
        return f"{inp}{res_args}, not {beaten}{res_args}"

    def _guard(self, agg: Agg, inner: str, value: str, tuple_: str,
               context: list[str]) -> None:
        """Sums are exact over clingo integers only; anything else is reported, not dropped."""
        ctx = ", ".join(context + [inner])
        k = agg.index
        self.extra.append(f"fx_aggbad({k},{value}) :- {ctx}, @fx_isint({value})=0.")
        outer = ", ".join(context) + (", " if context else "")
        self.extra.append(f"fx_aggbad({k},too_many) :- {outer}"
                          f"32767 < #count{{{tuple_} : {inner}}}.")
