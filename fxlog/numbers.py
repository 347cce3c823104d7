"""Exact numbers shared by the translator and the solver's script functions.

clingo integers are 32-bit and wrap silently; fxlog numbers are exact. A number
that clingo can hold is a clingo integer; any other (a big integer or a
decimal) is the term ``fx_n("text")`` with one canonical text per value, so
equal values are equal terms and ``1.50 = 1.5`` holds by identity.

>>> canonical(Decimal("1.50")), canonical(Decimal("2.0")), canonical(2**40)
('1.5', 2, '1099511627776')
"""

from __future__ import annotations

from decimal import Decimal, localcontext

__all__ = ["CLINGO_MAX", "CLINGO_MIN", "NUMBER_FUNCTION", "canonical", "fits_clingo", "int_text",
           "normalize", "parse", "parse_int"]

CLINGO_MIN = -(2**31)
CLINGO_MAX = 2**31 - 1
NUMBER_FUNCTION = "fx_n"
#: Significant digits kept by division; every other operation is exact.
DIVISION_DIGITS = 34


def fits_clingo(value: int) -> bool:
    return CLINGO_MIN <= value <= CLINGO_MAX


def int_text(value: int) -> str:
    """Decimal digits of any integer (``str`` refuses more than 4300 digits)."""
    if value.bit_length() < 13_000:  # about 3,900 digits: within str's limit
        return str(value)
    return str(Decimal(value))


def parse_int(text: str) -> int:
    """Inverse of :func:`int_text`, without the 4300-digit limit of ``int(str)``."""
    return int(text) if len(text) < 4000 else int(Decimal(text))


def normalize(value: int | Decimal) -> int | Decimal:
    """The canonical Python value: an ``int`` when the value is integral.

    Every step runs with enough precision for the value at hand: Decimal's
    default context keeps 28 digits and would round longer values silently.
    """
    if isinstance(value, int):
        return value
    if value.is_nan() or value.is_infinite():
        raise ValueError(f"not a finite number: {value}")
    with localcontext() as ctx:
        ctx.prec = len(value.as_tuple().digits) + max(abs(value.adjusted()), 0) + 2
        if value == value.to_integral_value():
            return int(value)
        return value.normalize()


def canonical(value: int | Decimal) -> int | str:
    """An ``int`` clingo can hold, or the canonical text stored inside ``fx_n``."""
    value = normalize(value)
    if isinstance(value, int):
        return value if fits_clingo(value) else int_text(value)
    text = format(value, "f")
    return text


def parse(text: str) -> int | Decimal:
    """Inverse of :func:`canonical` for the text inside ``fx_n``."""
    if "." in text:
        return Decimal(text)
    return parse_int(text)
