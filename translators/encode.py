"""fxlog terms and predicates → ASP text, injectively.

clingo reads a capitalised name as a variable and reserves a few words, while
fxlog symbols may be any text. Names that are safe clingo constants pass
through unchanged (so the ASP stays readable and plain facts cost nothing);
everything else is wrapped in an internal function term. Every internal name
starts with ``fx_``; a user name starting with ``fx_`` is wrapped too, so the
two can never meet. :mod:`fxlog.engine.decode` inverts this mapping.

>>> term_asp(ast.Sym("Human")), term_asp(ast.Sym("socrates")), term_asp(ast.QName("tool", "name"))
('fx_s("Human")', 'socrates', 'fx_q("tool","name")')
>>> pred_asp(Pred("attr", "tool#status", 0))
'fx_a_tool_023_status'
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from fxlog.numbers import NUMBER_FUNCTION, canonical
from fxlog.syntax import ast
from fxlog.translators.core import Pred

__all__ = ["asp_string", "mangle", "method_asp", "pred_asp", "term_asp", "token_asp", "var_asp"]

_SAFE = re.compile(r"[a-z][A-Za-z0-9_]*\Z")
_SURROGATE = re.compile("[\ud800-\udfff]")
_RESERVED = frozenset({"not"})


def safe_name(name: str) -> bool:
    """Can ``name`` be written as a clingo constant/function name and stay ours?"""
    return bool(_SAFE.match(name)) and not name.startswith("fx_") and name not in _RESERVED


def asp_string(text: str) -> str:
    """A clingo string term for ``text``.

    clingo's lexer understands only ``\\\\``, ``\\"`` and ``\\n`` and refuses a
    NUL byte, so a string holding NUL travels hex-encoded as ``fx_z("...")``.
    """
    if "\0" in text or _SURROGATE.search(text):
        return 'fx_z("' + text.encode("utf-8", "surrogatepass").hex() + '")'
    if "\\" in text or '"' in text or "\n" in text:
        text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + text + '"'


@lru_cache(maxsize=4096)
def mangle(name: str) -> str:
    """An identifier-safe, injective spelling of any name (for predicate names)."""
    out: list[str] = []
    for ch in name:
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            out.append(ch)
        elif ch == "_":
            out.append("__")
        elif "A" <= ch <= "Z":
            out.append("_" + ch.lower())
        else:
            out.append(f"_0{ord(ch):x}_")
    return "".join(out)


_KIND_PREFIX = {
    "attr": "fx_a_", "cattr": "fx_ca_", "sig": "fx_sg_", "csig": "fx_csg_",
    "bool": "fx_b_", "cbool": "fx_cb_",
}


@lru_cache(maxsize=4096)
def pred_asp(pred: Pred) -> str:
    """The ASP predicate name for a core predicate (arity is implied by use)."""
    neg = "fx_neg_" if pred.negated else ""
    kind = pred.kind
    if kind == "user":
        base = pred.name if safe_name(pred.name) and not neg else "fx_p_" + mangle(pred.name)
        return neg + base if neg else base
    if kind in _KIND_PREFIX:
        return neg + _KIND_PREFIX[kind] + mangle(pred.name)
    if kind in ("isa", "sub", "exists", "req"):
        return neg + "fx_" + kind
    if kind in ("gen", "genh"):
        return f"{neg}fx_{kind}_{pred.name}"
    if kind in ("aux", "query"):
        return f"fx_{kind}_{pred.name}"
    raise ValueError(f"unknown predicate kind {kind!r}")


def var_asp(var: ast.Var) -> str:
    """User variables become ``V<name>``; made-up ones (named ``#n``) become ``F<n>``."""
    if var.anonymous:
        return "_"
    if var.name.startswith("#"):
        return "F" + var.name[1:]
    return "V" + var.name


def number_asp(value: int | Decimal) -> str:
    c = canonical(value)
    if isinstance(c, int):
        return str(c)
    return f'{NUMBER_FUNCTION}("{c}")'


def symbol_asp(name: str) -> str:
    return name if safe_name(name) else "fx_s(" + asp_string(name) + ")"


def term_asp(term: ast.Term) -> str:
    """ASP text of a term (no arithmetic: see :mod:`translators.emit` for expressions)."""
    if isinstance(term, ast.Var):
        return var_asp(term)
    if isinstance(term, ast.Sym):
        return symbol_asp(term.name)
    if isinstance(term, ast.Str):
        return asp_string(term.value)
    if isinstance(term, ast.Num):
        return number_asp(term.value)
    if isinstance(term, ast.QName):
        return f"fx_q({asp_string(term.ns)},{asp_string(term.local)})"
    if isinstance(term, ast.Compound):
        args = ",".join(term_asp(a) for a in term.args)
        f = term.functor
        if isinstance(f, ast.QName):
            return f"fx_q({asp_string(f.ns)},{asp_string(f.local)},{args})"
        if safe_name(f.name):
            return f"{f.name}({args})"
        return f"fx_f({asp_string(f.name)},{args})"
    raise TypeError(f"{type(term).__name__} has no ASP term form")


_INT = re.compile(r"-?\d+\Z")


@lru_cache(maxsize=65536)
def token_asp(token: str) -> str:
    """ASP text of a plain-fact token: a name, an integer or a simple string."""
    if token[0] == '"':
        return token  # the scanner admits only strings without escapes
    if _INT.match(token):
        return number_asp(int(token))
    return symbol_asp(token)


def method_asp(name: str, margs: list[str]) -> str:
    """The ASP term of a method ``name`` applied to ASP argument texts (variables)."""
    if "#" in name:
        ns, local = name.split("#", 1)
        head = f"fx_q({asp_string(ns)},{asp_string(local)}"
        return head + ("," + ",".join(margs) if margs else "") + ")"
    sym = symbol_asp(name)
    if not margs:
        return sym
    if sym.startswith("fx_s("):
        return f"fx_f({sym[5:-1]},{','.join(margs)})"
    return f"{sym}({','.join(margs)})"
