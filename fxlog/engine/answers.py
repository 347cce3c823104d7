"""Solution → Answer: three-valued truth per query, bindings decoded on demand.

A ground query is *true* when it holds in every answer set (cautious), *false*
when it holds in none (brave), and *unknown* otherwise. A query with variables
lists each binding as true or unknown. Bindings are decoded from clingo
symbols only when read, so counting a million answers costs nothing extra.

>>> from fxlog import Client
>>> with Client() as c:
...     c.load("p(a). p(b).")
...     answer = c.query("?- p(?X).")
>>> answer.truth, [b.text("X") for b in answer.bindings]
('true', ['a', 'b'])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, overload

from clingo.symbol import Function, Symbol

from fxlog.engine.decode import decode, decode_text
from fxlog.engine.solver import Captured, Solution
from fxlog.syntax import ast
from fxlog.translators.emit import QueryShow

__all__ = ["Answer", "Binding", "Truth", "answers_from_solution"]

Truth = Literal["true", "false", "unknown"]


@dataclass(frozen=True)
class Binding:
    """One solution of a query: a value per variable, and whether it is certain."""

    symbols: tuple[Symbol, ...]
    positions: tuple[str | None, ...]
    truth: Truth

    @property
    def values(self) -> dict[str, ast.Term]:
        pairs = zip(self.positions, self.symbols, strict=True)
        return {n: decode(s) for n, s in pairs if n is not None}

    def text(self, name: str) -> str:
        """fxlog source text of the value of ``?name``."""
        for n, s in zip(self.positions, self.symbols, strict=True):
            if n == name:
                return decode_text(s)
        raise KeyError(name)

    def as_json(self) -> dict[str, object]:
        vars_ = {n: decode_text(s) for n, s in zip(self.positions, self.symbols, strict=True)
                 if n is not None}
        return {"vars": vars_, "truth": self.truth}


class _LazyBindings(Sequence[Binding]):
    """Bindings materialised per access from the shown atoms of the answer predicate."""

    def __init__(self, certain: list[Symbol], possible: list[Symbol],
                 positions: tuple[str | None, ...]) -> None:
        self._certain = certain
        self._possible = possible
        self._positions = positions

    def __len__(self) -> int:
        return len(self._certain) + len(self._possible)

    @overload
    def __getitem__(self, i: int) -> Binding: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Binding]: ...

    def __getitem__(self, i: int | slice) -> Binding | Sequence[Binding]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i < len(self._certain):
            sym, truth = self._certain[i], "true"
        else:
            sym, truth = self._possible[i - len(self._certain)], "unknown"
        return Binding(tuple(sym.arguments), self._positions, truth)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Binding]:
        for i in range(len(self)):
            yield self[i]


@dataclass(frozen=True)
class Answer:
    """The answer to one query."""

    query: str
    truth: Truth
    variables: tuple[str, ...]
    bindings: Sequence[Binding]
    pending: tuple[str, ...] = ()
    index: int = 0
    file: str = field(default="", compare=False)

    def as_json(self) -> dict[str, object]:
        """The documented JSON shape (docs/cli.md)."""
        return {
            "query": self.query,
            "truth": self.truth,
            "bindings": [b.as_json() for b in self.bindings],
            "pending": list(self.pending),
        }


def _split(captured: Captured, shows: Sequence[QueryShow]) -> dict[int, list[Symbol]]:
    """Shown atoms per query; no per-atom work when every query shows one predicate."""
    signatures = {(q.name, q.arity) for q in shows}
    if len(signatures) == 1:
        return {q.index: captured.shown for q in shows}
    by_sig: dict[tuple[str, int], list[Symbol]] = {}
    for sym in captured.shown:
        by_sig.setdefault((sym.name, len(sym.arguments)), []).append(sym)
    return {q.index: by_sig.get((q.name, q.arity), []) for q in shows}


def _mentions_other(sym: Symbol) -> bool:
    """A binding to the open world's fresh value stands for 'some other value': not listed."""
    return OTHER in sym.arguments


OTHER = Function("fx_other")


def answers_from_solution(solution: Solution, shows: Sequence[QueryShow],
                          pending: Sequence[str] = ()) -> list[Answer]:
    """One :class:`Answer` per query, in the order of ``shows``."""
    cautious = _split(solution.cautious, shows)
    brave = cautious if solution.unique else _split(solution.brave, shows)
    out: list[Answer] = []
    for q in shows:
        certain = cautious[q.index]
        if solution.unique:
            possible: list[Symbol] = []
        else:
            sure = set(certain)
            possible = [s for s in brave[q.index] if s not in sure and not _mentions_other(s)]
        maybe = bool(possible) or (not solution.unique and bool(brave[q.index]))
        truth: Truth = "true" if certain else ("unknown" if maybe else "false")
        bindings = _LazyBindings(certain, possible, q.positions) if q.variables else ()
        out.append(Answer(q.text, truth, q.variables, bindings,
                          tuple(pending) if truth == "unknown" else (), q.index,
                          q.span.file))
    return out
