"""Core IR terms ↔ clingo symbols, for matching rules against a solved model.

An explanation re-traces a derivation in Python: it matches rule heads and
body literals (core IR terms with variables) against the atoms of a model
(clingo symbols), and re-evaluates comparisons, arithmetic and builtins with
the very functions the solver used, so a proof can never disagree with it.

>>> from fxlog.syntax import ast
>>> from clingo.symbol import Function
>>> match(pattern(ast.Compound(ast.Sym("f"), (ast.Var("X"),))), Function("f", [Function("a")]), {})
{'X': Function('a', [], True)}
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from clingo.symbol import Function, Number, String, Symbol, SymbolType

from fxlog.engine.arith import BuiltinContext
from fxlog.syntax import ast
from fxlog.translators.encode import term_asp

__all__ = ["Pattern", "evaluate", "ground", "match", "pattern"]

_CTX = BuiltinContext()
_ARITH = {"+": _CTX.fx_add, "-": _CTX.fx_sub, "*": _CTX.fx_mul, "/": _CTX.fx_div,
          "mod": _CTX.fx_mod}


@dataclass(frozen=True, slots=True)
class PVar:
    name: str  # "" for anonymous


@dataclass(frozen=True, slots=True)
class PFun:
    name: str
    args: tuple[Pattern, ...]


Pattern = Symbol | PVar | PFun


@lru_cache(maxsize=8192)
def _ground_symbol(text: str) -> Symbol:
    from clingo.symbol import parse_term

    return parse_term(text)


def pattern(term: ast.Term) -> Pattern:
    """A matchable form of a core term (variables kept, everything else encoded)."""
    if isinstance(term, ast.Var):
        return PVar(term.name)
    if isinstance(term, ast.Compound):
        args = tuple(pattern(a) for a in term.args)
        if not any(isinstance(a, (PVar, PFun)) for a in args):
            return _ground_symbol(term_asp(term))
        f = term.functor
        if isinstance(f, ast.QName):
            return PFun("fx_q", (String(f.ns), String(f.local), *args))
        from fxlog.translators.encode import safe_name

        if safe_name(f.name):
            return PFun(f.name, args)
        return PFun("fx_f", (String(f.name), *args))
    return _ground_symbol(term_asp(term))


def match(p: Pattern, sym: Symbol, binding: dict[str, Symbol]) -> dict[str, Symbol] | None:
    """Extend ``binding`` so that ``p`` equals ``sym``, or None."""
    if isinstance(p, PVar):
        if not p.name:
            return binding
        bound = binding.get(p.name)
        if bound is None:
            out = dict(binding)
            out[p.name] = sym
            return out
        return binding if bound == sym else None
    if isinstance(p, PFun):
        if sym.type != SymbolType.Function or sym.name != p.name or \
                len(sym.arguments) != len(p.args):
            return None
        current: dict[str, Symbol] | None = binding
        for sub, arg in zip(p.args, sym.arguments, strict=True):
            current = match(sub, arg, current)  # type: ignore[arg-type]
            if current is None:
                return None
        return current
    return binding if p == sym else None


def ground(p: Pattern, binding: dict[str, Symbol]) -> Symbol | None:
    """The symbol ``p`` stands for under ``binding``; None if a variable is unbound."""
    if isinstance(p, PVar):
        return binding.get(p.name) if p.name else None
    if isinstance(p, PFun):
        args = []
        for sub in p.args:
            value = ground(sub, binding)
            if value is None:
                return None
            args.append(value)
        return Function(p.name, args)
    return p


def _one(result: object) -> Symbol | None:
    if isinstance(result, list):
        return result[0] if result else None
    return result  # type: ignore[return-value]


def evaluate(term: ast.Term, binding: dict[str, Symbol]) -> Symbol | None:
    """The value of an arithmetic expression or plain term under ``binding``."""
    if isinstance(term, ast.BinOp):
        left, right = evaluate(term.left, binding), evaluate(term.right, binding)
        if left is None or right is None:
            return None
        return _one(_ARITH[term.op](left, right))
    if isinstance(term, ast.UnaryMinus):
        value = evaluate(term.operand, binding)
        return None if value is None else _one(_CTX.fx_neg(value))
    if isinstance(term, ast.Compound) and isinstance(term.functor, ast.Sym) and \
            (term.functor.name, len(term.args)) in (("abs", 1), ("min", 2), ("max", 2)):
        values = [evaluate(a, binding) for a in term.args]
        if any(v is None for v in values):
            return None
        func = getattr(_CTX, "fx_" + term.functor.name)
        return _one(func(*values))
    return ground(pattern(term), binding)


def compare(op: str, left: Symbol, right: Symbol) -> bool:
    """The solver's comparison: identity for = and !=, exact order otherwise."""
    if op == "=":
        return left == right
    if op == "!=":
        return left != right
    result = _one(_CTX.fx_cmp(left, right))
    if result is None:
        return False
    sign = result.number
    return {"<": sign < 0, "<=": sign <= 0, ">": sign > 0, ">=": sign >= 0}[op]


def builtin(name: str, inputs: list[Symbol], negated: bool) -> tuple[bool, Symbol | None]:
    """(holds, computed value) of a string builtin given its input arguments only."""
    func = getattr(_CTX, "fx_" + name)
    if name in ("contains", "starts_with"):
        value = _one(func(*inputs))
        holds = value is not None and value == Number(1)
        return (not holds if negated else holds), None
    value = _one(func(*inputs))
    return value is not None, value
