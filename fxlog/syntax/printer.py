"""Program → ``.fx`` text, such that parsing the text gives the same Program.

The printer is the inverse of the parser up to layout: one statement per line,
canonical spellings (``:-`` and ``<-`` are kept as written, ``\\naf`` prints as
``NOT``, ``=<`` as ``<=``), parentheses only where precedence needs them.
Receipt writers and answer output use :func:`term_text` for values.

>>> from fxlog.syntax.parser import parse_program
>>> print(print_program(parse_program("p(?X) :- q(?X) ,NOT r(?X).")), end="")
p(?X) :- q(?X), NOT r(?X).
"""

from __future__ import annotations

from decimal import Decimal
from functools import singledispatch

from fxlog.numbers import int_text
from fxlog.syntax import ast
from fxlog.syntax.lexical import quote_string, symbol_text

__all__ = ["formula_text", "number_text", "print_program", "statement_text", "term_text"]

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "mod": 2}


def number_text(value: int | Decimal) -> str:
    """Exact text of a number that the lexer reads back as the same value."""
    if isinstance(value, int):
        return int_text(value)
    text = format(value, "f") if abs(value.adjusted()) < 20 else str(value)
    if "." not in text and "E" not in text and "e" not in text:
        text += ".0"
    return text.replace("E", "e")


@singledispatch
def term_text(term: object) -> str:
    """The source text of a term (a symbol bare or quoted, a string with quotes)."""
    raise TypeError(f"not a term: {term!r}")


@term_text.register
def _(t: ast.Var) -> str:
    return "?" if t.anonymous else "?" + t.name


@term_text.register
def _(t: ast.Sym) -> str:
    return symbol_text(t.name)


@term_text.register
def _(t: ast.Str) -> str:
    return quote_string(t.value)


@term_text.register
def _(t: ast.Num) -> str:
    return number_text(t.value)


@term_text.register
def _(t: ast.QName) -> str:
    return f"{t.ns}#{t.local}"


@term_text.register
def _(t: ast.Compound) -> str:
    return f"{term_text(t.functor)}({', '.join(_arg_text(a) for a in t.args)})"


def _arg_text(t: ast.Term) -> str:
    if isinstance(t, (ast.BinOp, ast.UnaryMinus)):
        return f"({term_text(t)})"
    return term_text(t)


@term_text.register
def _(t: ast.SetTerm) -> str:
    return "{" + ", ".join(term_text(i) for i in t.items) + "}"


@term_text.register
def _(t: ast.Path) -> str:
    return f"{term_text(t.obj)}.{term_text(t.method)}"


@term_text.register
def _(t: ast.BinOp) -> str:
    prec = _PREC[t.op]
    left = term_text(t.left)
    if isinstance(t.left, ast.BinOp) and _PREC[t.left.op] < prec:
        left = f"({left})"
    right = term_text(t.right)
    if isinstance(t.right, ast.BinOp) and _PREC[t.right.op] <= prec:
        right = f"({right})"
    return f"{left} {t.op} {right}"


@term_text.register
def _(t: ast.UnaryMinus) -> str:
    inner = term_text(t.operand)
    if isinstance(t.operand, (ast.BinOp, ast.UnaryMinus)):
        inner = f"({inner})"
    return f"-{inner}"


@term_text.register
def _(t: ast.Aggregate) -> str:
    group = ""
    if t.group:
        group = "[" + ", ".join(term_text(g) for g in t.group) + "]"
    return f"{t.func}{{{term_text(t.var)}{group} | {formula_text(t.body)}}}"


@term_text.register
def _(t: ast.Molecule) -> str:
    text = term_text(t.subject)
    if t.rel is not None and t.cls is not None:
        text += f"{t.rel}{term_text(t.cls)}"
    for block in t.frames:
        text += _frame_text(block)
    return text


@term_text.register
def _(t: ast.Comparison) -> str:
    return f"{term_text(t.left)} {t.op} {term_text(t.right)}"


def _frame_text(block: ast.FrameBlock) -> str:
    inner = "; ".join(_spec_text(s) for s in block.specs)
    return f"[|{inner}|]" if block.class_level else f"[{inner}]"


def _spec_text(spec: ast.Spec) -> str:
    prefix = {"neg": "\\neg ", "naf": "NOT ", None: ""}[spec.modifier]
    method = term_text(spec.method)
    if spec.arrow is None:
        return prefix + method
    if len(spec.values) == 1:
        value = term_text(spec.values[0])
    else:
        value = "{" + ", ".join(term_text(v) for v in spec.values) + "}"
    return f"{prefix}{method} {spec.arrow} {value}"


# --------------------------------------------------------------------- formulas

_LEVEL = {ast.Or: 0, ast.And: 1}


@singledispatch
def formula_text(f: object) -> str:
    """The source text of a body formula."""
    raise TypeError(f"not a formula: {f!r}")


@formula_text.register
def _(f: ast.Molecule) -> str:
    return term_text(f)


@formula_text.register
def _(f: ast.Comparison) -> str:
    return term_text(f)


@formula_text.register
def _(f: ast.Is) -> str:
    return f"{term_text(f.var)} \\is {term_text(f.expr)}"


@formula_text.register
def _(f: ast.Truth) -> str:
    return "\\true" if f.value else "\\false"


@formula_text.register
def _(f: ast.Not) -> str:
    inner = formula_text(f.body)
    if isinstance(f.body, (ast.And, ast.Or)):
        inner = f"({inner})"
    return f"NOT {inner}"


@formula_text.register
def _(f: ast.Neg) -> str:
    return f"\\neg {term_text(f.atom)}"


@formula_text.register
def _(f: ast.And) -> str:
    parts = []
    for item in f.items:
        text = formula_text(item)
        if isinstance(item, (ast.Or, ast.And)):
            text = f"({text})"
        parts.append(text)
    return ", ".join(parts)


@formula_text.register
def _(f: ast.Or) -> str:
    parts = []
    for item in f.items:
        text = formula_text(item)
        if isinstance(item, ast.Or):
            text = f"({text})"
        parts.append(text)
    return " OR ".join(parts)


# ------------------------------------------------------------------- statements


def _head_text(head: tuple[ast.HeadLiteral, ...]) -> str:
    return ", ".join(("\\neg " if h.negated else "") + term_text(h.atom) for h in head)


@singledispatch
def statement_text(s: object) -> str:
    """One statement, terminated by ``.``."""
    raise TypeError(f"not a statement: {s!r}")


@statement_text.register
def _(s: ast.Rule) -> str:
    if s.body is None:
        return _head_text(s.head) + "."
    return f"{_head_text(s.head)} {s.arrow} {formula_text(s.body)}."


@statement_text.register
def _(s: ast.Query) -> str:
    return f"?- {formula_text(s.body)}."


@statement_text.register
def _(s: ast.World) -> str:
    return f"world {s.mode}."


@statement_text.register
def _(s: ast.External) -> str:
    fields = "; ".join(_spec_text(f) for f in s.fields)
    text = f"external {term_text(s.request)} using {term_text(s.tool)}[{fields}]"
    if s.body is not None:
        text += f" {s.arrow} {formula_text(s.body)}"
    return text + "."


@statement_text.register
def _(s: ast.Directive) -> str:
    args = ", ".join(f"{k} = {term_text(v)}" for k, v in s.args)
    return f":- {s.name}{{{args}}}."


@statement_text.register
def _(s: ast.PlainFact) -> str:
    parts = s.parts
    if s.kind == "pred":
        if len(parts) == 1:
            return parts[0] + "."
        return f"{parts[0]}({', '.join(parts[1:])})."
    if s.kind == "attr":
        return f"{parts[0]}[{parts[1]} -> {parts[2]}]."
    rel = "::" if s.kind == "sub" else ":"
    return f"{parts[0]}{rel}{parts[1]}."


def print_program(program: ast.Program) -> str:
    """The whole program, one statement per line."""
    return "".join(statement_text(s) + "\n" for s in program.statements)
