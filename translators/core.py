"""The core IR: flat rules over predicates, between the AST and ASP text.

Molecules, sets, paths, disjunction and complex negation are gone by the time
a program reaches this form; what is left is what an ASP rule can say. Each
atom names a :class:`Pred` (what kind of fact it is and, for frames, which
method), so later passes decide how each kind is stored without re-reading the
surface syntax.

>>> Pred("attr", "age", 0).arity
2
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Union

from fxlog.errors import NO_SPAN, Span
from fxlog.syntax import ast

__all__ = [
    "Agg",
    "BUILTINS",
    "Builtin",
    "Atom",
    "Cmp",
    "CoreExternal",
    "CoreQuery",
    "CoreRule",
    "Lit",
    "Module",
    "Pred",
    "RECEIPT_METHODS",
]


@dataclass(frozen=True, slots=True, order=True)
class Pred:
    """A predicate of the core IR.

    ``kind`` is one of ``user`` (a predicate the program names), ``isa``,
    ``sub``, ``attr`` / ``cattr`` (object / class-level method values),
    ``sig`` / ``csig`` (signatures), ``bool`` / ``cbool`` (boolean methods),
    ``exists`` (``o[]``), ``gen`` / ``genh`` (the generic ``(object, method,
    value)`` view read / written by rules with a variable method; ``name`` is
    the frame kind it stands for), ``req`` (requests derived by ``external``),
    ``aux`` (made up by lowering) or ``query``.
    ``name`` is the user's predicate name or the method's name (``tool#status``
    for qualified names); ``args`` is the number of method arguments for frame
    kinds and the arity for ``user``/``aux``/``query``. ``negated`` marks the
    explicit-negation twin (``\\neg``).
    """

    kind: str
    name: str
    args: int
    negated: bool = False

    @property
    def arity(self) -> int:
        """Arity of the ASP predicate that stores it."""
        if self.kind in ("attr", "cattr", "sig", "csig"):
            return self.args + 2
        if self.kind in ("bool", "cbool"):
            return self.args + 1
        if self.kind in ("isa", "sub"):
            return 2
        if self.kind == "exists":
            return 1
        if self.kind in ("gen", "genh"):
            return 2 if self.name in ("bool", "cbool") else 3
        return self.args


@dataclass(frozen=True, slots=True)
class Atom:
    pred: Pred
    args: tuple[ast.Term, ...]


@dataclass(frozen=True, slots=True)
class Lit:
    """A body literal: an atom, default-negated when ``naf``."""

    atom: Atom
    naf: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Cmp:
    """A builtin: comparison, or ``=`` binding a variable to an arithmetic value."""

    op: str
    left: ast.Term
    right: ast.Term
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Builtin:
    """A string builtin for acceptance rules: ``contains``, ``starts_with``, ``lower``,
    ``length``, ``concat``, ``to_string``. ``negated`` only for the two tests."""

    name: str
    args: tuple[ast.Term, ...]
    negated: bool = False
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Agg:
    """``result = func{value : body}`` over distinct tuples ``(value, *local)``.

    ``keys`` are the aggregate's global variables (grouping variables and those
    shared with the rest of the rule); ``domain`` is an atom that binds the
    grouping variables, so a group exists only when its body has a solution.
    """

    index: int
    func: str
    result: ast.Term
    value: ast.Term
    local: tuple[str, ...]
    keys: tuple[str, ...]
    body: tuple[Lit | Cmp | Builtin, ...]
    span: Span = field(default=NO_SPAN, compare=False)


BodyItem = Union[Lit, Cmp, Builtin, Agg]  # noqa: UP007 - a runtime alias on 3.10

#: String builtins: name → (arity, number of leading input arguments).
BUILTINS: dict[str, tuple[int, int]] = {
    "contains": (2, 2), "starts_with": (2, 2), "lower": (2, 1), "length": (2, 1),
    "concat": (3, 2), "to_string": (2, 1),
}


@dataclass(frozen=True, slots=True)
class CoreRule:
    """``head :- body``; a fact when the body is empty. ``origin`` indexes the source statement."""

    head: Atom
    body: tuple[BodyItem, ...]
    span: Span = field(default=NO_SPAN, compare=False)
    origin: int = -1


@dataclass(frozen=True, slots=True)
class CoreQuery:
    """A query: its answer predicate, the variables it shows and its text."""

    index: int
    pred: Pred
    variables: tuple[str, ...]
    text: str
    span: Span = field(default=NO_SPAN, compare=False)
    direct: Atom | None = None  # answered straight from this atom (no copy rule)


@dataclass(frozen=True, slots=True)
class CoreExternal:
    """An ``external`` declaration after lowering: the request term and its tool."""

    index: int
    request: ast.Term
    tool: str
    text: str
    span: Span = field(default=NO_SPAN, compare=False)


#: Methods the host writes on request objects; rules may read them, never define them.
RECEIPT_METHODS = frozenset({
    ("tool#completed", 0), ("tool#status", 0), ("tool#started", 0), ("tool#finished", 0),
    ("tool#duration_ms", 0), ("tool#seq", 0), ("tool#ignored", 1), ("result", 1), ("row", 2),
    ("error", 1), ("evidence", 1), ("call", 2),
})


class Origin:
    """Where a rule came from: the statement's span and, printed on demand, its text.

    Printing every statement up front costs more than lowering it, and only
    explanations and error messages ever read the text.
    """

    __slots__ = ("span", "statement", "_text")

    def __init__(self, span: Span, statement: object) -> None:
        self.span = span
        self.statement = statement
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            from fxlog.syntax.printer import statement_text

            self._text = statement_text(self.statement)
        return self._text

    def __iter__(self) -> Iterator[Any]:
        yield self.span
        yield self.text

    def __getitem__(self, index: int) -> Any:
        return (self.span, self.text)[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Origin) and (self.span, self.text) == (other.span, other.text)

    def __hash__(self) -> int:
        return hash((self.span, self.text))


@dataclass
class Module:
    """A lowered program: rules plus what the engine and the host need to know."""

    file: str
    rules: list[CoreRule] = field(default_factory=list)
    queries: list[CoreQuery] = field(default_factory=list)
    externals: list[CoreExternal] = field(default_factory=list)
    world: str = "closed"
    inheritance: str = "flogic"
    #: Rules that exist only under the open world (choice over pending outcomes).
    open_text: list[str] = field(default_factory=list)
    #: Source text of each statement that produced rules, by ``origin`` index.
    origins: list[Origin] = field(default_factory=list)
    #: ``origin`` indexes of ``external`` statements (their rules may set ``tool#`` methods).
    external_origins: set[int] = field(default_factory=set)
    #: Plain facts, untouched by lowering, with the file they came from.
    plain: list[tuple[str, list[ast.PlainFact]]] = field(default_factory=list)
