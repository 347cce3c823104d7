"""fxlog terms ↔ the Python values tools receive and return.

A request's input fields are fxlog terms; a tool function wants plain Python
arguments. Strings stay strings, numbers stay exact (``int`` or ``Decimal``),
``true``/``false`` become booleans, other symbols their name, anything else
its fxlog source text. A field with several values (``tools -> {a, b}``)
arrives as a list.

>>> from fxlog.syntax import ast
>>> to_python(ast.Str("x")), to_python(ast.Sym("true")), to_python(ast.Num(3))
('x', True, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from fxlog.syntax import ast
from fxlog.syntax.printer import term_text

__all__ = ["input_fields", "input_texts", "to_python", "to_row_value"]


def to_python(term: ast.Term) -> object:
    if isinstance(term, ast.Str):
        return term.value
    if isinstance(term, ast.Num):
        return term.value
    if isinstance(term, ast.Sym):
        if term.name == "true":
            return True
        if term.name == "false":
            return False
        return term.name
    return term_text(term)


def input_fields(inputs: Mapping[str, Sequence[ast.Term]]) -> dict[str, object]:
    """Keyword arguments for a tool: one value per field, a sorted list for several."""
    out: dict[str, object] = {}
    for key, values in sorted(inputs.items()):
        if len(values) == 1:
            out[key] = to_python(values[0])
        else:
            out[key] = [to_python(v) for v in sorted(values, key=term_text)]
    return out


def input_texts(inputs: Mapping[str, Sequence[ast.Term]]) -> dict[str, str]:
    """Inputs as fxlog text for the receipt (several values: the first in text order)."""
    out: dict[str, str] = {}
    for key, values in sorted(inputs.items()):
        texts = sorted(term_text(v) for v in values)
        out[key] = texts[0] if len(texts) == 1 else "{" + ", ".join(texts) + "}"
    return out


def to_row_value(term: ast.Term) -> object:
    """A JSON scalar for a ``_query`` binding: strings and numbers as such, else source text."""
    if isinstance(term, ast.Str):
        return term.value
    if isinstance(term, ast.Num):
        value = term.value
        return value if isinstance(value, int) else Decimal(value)
    if isinstance(term, ast.Sym) and term.name in ("true", "false"):
        return term.name == "true"
    return term_text(term)
