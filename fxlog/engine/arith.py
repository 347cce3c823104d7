"""Exact arithmetic and ordering for the solver's ``@fx_*`` script functions.

The translator routes every arithmetic expression and every ordering
comparison through these functions, because clingo's own integers are 32-bit
and wrap around silently. A function returns ``[]`` when the operation is
undefined (a non-number operand, division by zero); clingo then drops that
rule instance, exactly as it does for its own undefined arithmetic.

>>> ctx = ArithContext()
>>> ctx.fx_add(Number(2147483647), Number(1))
Function('fx_n', [String('2147483648')], True)
"""

from __future__ import annotations

from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

from clingo.symbol import Function, Number, String, Symbol, SymbolType

from fxlog.numbers import DIVISION_DIGITS, NUMBER_FUNCTION, canonical, parse

__all__ = ["ArithContext", "number_symbol", "symbol_number"]

Result = Symbol | list[Symbol]
Exact = int | Decimal


def symbol_number(sym: Symbol) -> int | Decimal | None:
    """The exact value of a number term, or None for any other term."""
    if sym.type == SymbolType.Number:
        return sym.number
    if sym.type == SymbolType.Function and sym.name == NUMBER_FUNCTION and \
            len(sym.arguments) == 1 and sym.arguments[0].type == SymbolType.String:
        return parse(sym.arguments[0].string)
    return None


def number_symbol(value: int | Decimal) -> Symbol:
    c = canonical(value)
    if isinstance(c, int):
        return Number(c)
    return Function(NUMBER_FUNCTION, [String(c)])


def _order_key(sym: Symbol) -> tuple[int, object] | None:
    num = symbol_number(sym)
    if num is not None:
        return (0, num)
    if sym.type == SymbolType.String:
        return (1, sym.string)
    return None


class ArithContext:
    """The object passed to ``Control.ground`` as ``context``: one method per function."""

    def _binary(self, a: Symbol, b: Symbol, op: str) -> Result:
        x, y = symbol_number(a), symbol_number(b)
        if x is None or y is None:
            return []
        try:
            with localcontext() as ctx:
                ctx.prec = max(DIVISION_DIGITS, 200)
                ctx.traps[DivisionByZero] = True
                if op == "+":
                    r: int | Decimal = x + y
                elif op == "-":
                    r = x - y
                elif op == "*":
                    r = x * y
                elif op == "/":
                    if y == 0:
                        return []
                    if isinstance(x, int) and isinstance(y, int) and x % y == 0:
                        r = x // y
                    else:
                        ctx.prec = DIVISION_DIGITS
                        r = Decimal(x) / Decimal(y)
                else:
                    if not (isinstance(x, int) and isinstance(y, int)) or y == 0:
                        return []
                    r = x % y
        except (InvalidOperation, DivisionByZero, OverflowError):
            return []
        return number_symbol(r)

    def fx_add(self, a: Symbol, b: Symbol) -> Result:
        return self._binary(a, b, "+")

    def fx_sub(self, a: Symbol, b: Symbol) -> Result:
        return self._binary(a, b, "-")

    def fx_mul(self, a: Symbol, b: Symbol) -> Result:
        return self._binary(a, b, "*")

    def fx_div(self, a: Symbol, b: Symbol) -> Result:
        return self._binary(a, b, "/")

    def fx_mod(self, a: Symbol, b: Symbol) -> Result:
        return self._binary(a, b, "mod")

    def fx_neg(self, a: Symbol) -> Result:
        x = symbol_number(a)
        return [] if x is None else number_symbol(-x)

    def fx_abs(self, a: Symbol) -> Result:
        x = symbol_number(a)
        return [] if x is None else number_symbol(abs(x) if isinstance(x, int) else abs(x))

    def fx_min(self, a: Symbol, b: Symbol) -> Result:
        x, y = symbol_number(a), symbol_number(b)
        if x is None or y is None:
            return []
        return a if x <= y else b

    def fx_max(self, a: Symbol, b: Symbol) -> Result:
        x, y = symbol_number(a), symbol_number(b)
        if x is None or y is None:
            return []
        return a if x >= y else b

    def fx_cmp(self, a: Symbol, b: Symbol) -> Result:
        """-1, 0 or 1: numbers by exact value, strings by text, symbols by clingo's order.

        Values of different kinds (a number and a string, say) do not compare:
        the comparison is false, as clingo's own undefined operations are.

        Numbers compare by value even where clingo's own order would put a big
        integer or a decimal (an ``fx_n`` term) after every other number.
        """
        ka, kb = _order_key(a), _order_key(b)
        if ka is None and kb is None:
            # Two symbols or compound terms: clingo's total order on terms.
            return Number((a > b) - (a < b))
        if ka is None or kb is None or ka[0] != kb[0]:
            return []  # a number, a string and a symbol do not compare with each other
        va, vb = ka[1], kb[1]
        return Number((va > vb) - (va < vb))  # type: ignore[operator]


def _text(sym: Symbol) -> str | None:
    return sym.string if sym.type == SymbolType.String else None


class BuiltinContext(ArithContext):
    """Adds the string builtins and type tests; total on any input (never raises)."""

    def fx_contains(self, s: Symbol, sub: Symbol) -> Symbol:
        a, b = _text(s), _text(sub)
        return Number(1 if a is not None and b is not None and b in a else 0)

    def fx_starts_with(self, s: Symbol, prefix: Symbol) -> Symbol:
        a, b = _text(s), _text(prefix)
        return Number(1 if a is not None and b is not None and a.startswith(b) else 0)

    def fx_lower(self, s: Symbol) -> Result:
        a = _text(s)
        return [] if a is None else String(a.lower())

    def fx_length(self, s: Symbol) -> Result:
        a = _text(s)
        return [] if a is None else number_symbol(len(a))

    def fx_concat(self, a: Symbol, b: Symbol) -> Result:
        x, y = _text(a), _text(b)
        return [] if x is None or y is None else String(x + y)

    def fx_to_string(self, t: Symbol) -> Result:
        from fxlog.engine.decode import decode_text

        if t.type == SymbolType.String:
            return t
        try:
            return String(decode_text(t))
        except ValueError:
            return []

    def fx_hi(self, x: Symbol) -> Result:
        """High bits of a clingo integer: ``x == hi * 65536 + lo`` exactly."""
        return Number(x.number >> 16) if x.type == SymbolType.Number else []

    def fx_lo(self, x: Symbol) -> Result:
        return Number(x.number & 0xFFFF) if x.type == SymbolType.Number else []

    def fx_isint(self, x: Symbol) -> Symbol:
        return Number(1 if x.type == SymbolType.Number else 0)

    def fx_type(self, value: Symbol, type_: Symbol) -> Symbol:
        """1 when ``value`` has the built-in type named by ``type_``, else 0."""
        name = type_.name if type_.type == SymbolType.Function and not type_.arguments else ""
        num = symbol_number(value)
        checks = {
            "string": value.type == SymbolType.String,
            "integer": isinstance(num, int),
            "decimal": num is not None,
            "number": num is not None,
            "boolean": value.type == SymbolType.Function and value.name in ("true", "false")
            and not value.arguments,
            "symbol": value.type == SymbolType.Function and num is None and not (
                value.name == "fx_q" or (value.arguments and value.name != "fx_s")),
        }
        return Number(1 if checks.get(name, False) else 0)
