"""clingo symbols → fxlog terms: the inverse of :mod:`fxlog.translators.encode`.

Answers can hold hundreds of thousands of bindings, and every property access
on a clingo symbol crosses the C boundary, so decoding is memoised per symbol
and done only when a binding is actually read.

>>> from clingo.symbol import Function, String
>>> decode(Function("fx_s", [String("Human")]))
Sym(name='Human')
>>> term_to_text(decode(Function("fx_q", [String("tool"), String("status")])))
'tool#status'
"""

from __future__ import annotations

from functools import lru_cache

from clingo.symbol import Symbol, SymbolType

from fxlog.numbers import NUMBER_FUNCTION, parse
from fxlog.syntax import ast
from fxlog.syntax.printer import term_text

__all__ = ["decode", "decode_text", "term_to_text"]

term_to_text = term_text


def _text(sym: Symbol) -> str:
    if sym.type == SymbolType.String:
        return sym.string
    if sym.type == SymbolType.Function and sym.name == "fx_z" and len(sym.arguments) == 1:
        return bytes.fromhex(sym.arguments[0].string).decode("utf-8", "surrogatepass")
    raise ValueError(f"expected a string inside an fxlog term, got {sym}")


@lru_cache(maxsize=200_000)
def decode(sym: Symbol) -> ast.Term:
    """The fxlog term a clingo symbol stands for."""
    kind = sym.type
    if kind == SymbolType.Number:
        return ast.Num(sym.number)
    if kind == SymbolType.String:
        return ast.Str(sym.string)
    if kind != SymbolType.Function:
        raise ValueError(f"no fxlog term for {sym}")
    name, args = sym.name, sym.arguments
    if name == "fx_s" and len(args) == 1:
        return ast.Sym(_text(args[0]))
    if name == "fx_z" and len(args) == 1:
        return ast.Str(_text(sym))
    if name == NUMBER_FUNCTION and len(args) == 1:
        return ast.Num(parse(args[0].string))
    if name == "fx_q" and len(args) >= 2:
        q = ast.QName(_text(args[0]), _text(args[1]))
        if len(args) == 2:
            return q
        return ast.Compound(q, tuple(decode(a) for a in args[2:]))
    if name == "fx_f" and len(args) >= 2:
        return ast.Compound(ast.Sym(_text(args[0])), tuple(decode(a) for a in args[1:]))
    if not args:
        return ast.Sym(name)
    if not name:
        raise ValueError(f"no fxlog term for the tuple {sym}")
    return ast.Compound(ast.Sym(name), tuple(decode(a) for a in args))


@lru_cache(maxsize=200_000)
def decode_text(sym: Symbol) -> str:
    """fxlog source text of the term a symbol stands for."""
    return term_text(decode(sym))
