"""The surface syntax tree of an ``.fx`` program (Source → Program, as data).

Nodes are frozen dataclasses; each carries a :class:`~fxlog.errors.Span` that
is excluded from equality, so ``parse(print(tree)) == tree`` compares meaning,
not layout. The tree is faithful to what was written (molecules keep their
nesting, sets stay sets); the translator flattens it later.

>>> from fxlog.syntax.parser import parse_program
>>> prog = parse_program("socrates:Human.", "demo.fx")
>>> type(prog.statements[0]).__name__
'Rule'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple, Union

from fxlog.errors import NO_SPAN, Span

__all__ = [
    "Aggregate",
    "And",
    "BinOp",
    "Comparison",
    "Compound",
    "Directive",
    "External",
    "Formula",
    "FrameBlock",
    "HeadLiteral",
    "Is",
    "Molecule",
    "Neg",
    "Not",
    "Num",
    "Or",
    "Path",
    "PlainFact",
    "Program",
    "QName",
    "Query",
    "Rule",
    "SetTerm",
    "Spec",
    "Statement",
    "Str",
    "Sym",
    "Term",
    "Truth",
    "UnaryMinus",
    "Var",
    "World",
]


def _span() -> Span:
    return field(default=NO_SPAN, compare=False, repr=False)


# --------------------------------------------------------------------------- terms


@dataclass(frozen=True, slots=True)
class Var:
    """``?X``; an empty name is the anonymous variable (``?`` or ``?_``)."""

    name: str
    span: Span = _span()

    @property
    def anonymous(self) -> bool:
        return self.name == ""

    @property
    def dont_care(self) -> bool:
        """``?_Name``: named, but never reported as a singleton nor shown in answers."""
        return self.name.startswith("_")


@dataclass(frozen=True, slots=True)
class Sym:
    """A symbol: ``socrates``, ``Human``, ``'any text'``, ``_query``, ``true``."""

    name: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Str:
    """A string ``"..."``; distinct from the symbol with the same text."""

    value: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Num:
    """An exact number: a Python ``int`` or a ``Decimal`` (never a float)."""

    value: int | Decimal
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class QName:
    """A qualified name ``ns#local`` (``tool#status``): one atomic symbol."""

    ns: str
    local: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Compound:
    """A function term or predicate atom ``f(t1, ..., tn)`` (n >= 1)."""

    functor: Sym | QName
    args: tuple[Term, ...]
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class SetTerm:
    """``{a, b}``: in a head or a frame value it means one fact per element."""

    items: tuple[Term, ...]
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Path:
    """``obj.method``: some value ``v`` with ``obj[method -> v]`` (bodies only)."""

    obj: Term
    method: Term
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class BinOp:
    """Arithmetic ``left op right`` with op in ``+ - * / mod``."""

    op: str
    left: Term
    right: Term
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class UnaryMinus:
    """Arithmetic negation ``-expr`` of something that is not a literal number."""

    operand: Term
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Aggregate:
    """``func{?X[?G1, ?G2] | body}``; only on the right of ``=``."""

    func: str
    var: Var
    group: tuple[Var, ...]
    body: Formula
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Spec:
    """One method specification inside ``[...]`` or ``[|...|]``.

    ``arrow`` is ``"->"`` (value), ``"=>"`` (signature) or ``None`` for a
    boolean method ``o[tall]``. ``modifier`` is ``"neg"`` for ``\\neg m -> v``
    and ``"naf"`` for ``NOT m -> v`` (bodies only).
    """

    method: Term
    arrow: str | None
    values: tuple[Term, ...]
    modifier: str | None = None
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class FrameBlock:
    """``[specs]`` (object level) or ``[|specs|]`` (class level, inheritable)."""

    specs: tuple[Spec, ...]
    class_level: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Molecule:
    """An atom in F-logic: ``subject``, optionally ``: cls`` / ``:: cls``, then frames.

    A molecule without relation and frames is a predicate atom (``p(a)``, ``p``).
    Molecules nest: a frame value or a subject may itself be a molecule.
    """

    subject: Term
    rel: str | None = None
    cls: Term | None = None
    frames: tuple[FrameBlock, ...] = ()
    span: Span = _span()


Term = Union[  # noqa: UP007 - a forward reference needs Union
    Var, Sym, Str, Num, QName, Compound, SetTerm, Path, BinOp, UnaryMinus, Aggregate, Molecule,
    "Comparison",
]

# ------------------------------------------------------------------------ formulas


@dataclass(frozen=True, slots=True)
class Comparison:
    """``left op right`` with op in ``= != < <= > >=`` (``=<`` is read as ``<=``)."""

    op: str
    left: Term
    right: Term
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Is:
    """``?X \\is expr``: evaluate arithmetic and bind (or compare) ``?X``."""

    var: Term
    expr: Term
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Truth:
    """``\\true`` or ``\\false`` as a formula."""

    value: bool
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Not:
    """Default negation ``NOT f`` / ``\\naf f``."""

    body: Formula
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Neg:
    """Explicit negation ``\\neg atom``: a separate fact, not the absence of one."""

    atom: Molecule
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[Formula, ...]
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[Formula, ...]
    span: Span = _span()


Formula = Union[Molecule, Comparison, Is, Truth, Not, Neg, And, Or]  # noqa: UP007

# ---------------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class HeadLiteral:
    atom: Molecule
    negated: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Rule:
    """A fact (``body is None``) or a rule ``head :- body`` / ``head <- body``."""

    head: tuple[HeadLiteral, ...]
    body: Formula | None = None
    arrow: str = ":-"
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Query:
    body: Formula
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class World:
    """``world open.`` / ``world closed.``"""

    mode: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class External:
    """``external request using _tool[field -> value; ...] <- body.``"""

    request: Term
    tool: Term
    fields: tuple[Spec, ...]
    body: Formula | None
    arrow: str = "<-"
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Directive:
    """``:- name{key = value, ...}.`` e.g. ``:- setsemantics{inheritance = monotonic}.``"""

    name: str
    args: tuple[tuple[str, Term], ...]
    span: Span = _span()


class PlainFact(NamedTuple):
    """A fact the scanner recognised without the full parser.

    Large knowledge bases are mostly facts like ``edge(1, 2).``, ``o[m -> v].``
    or ``o:c.``; building full trees for each would dominate load time. ``kind``
    is ``"pred"``, ``"attr"``, ``"isa"`` or ``"sub"``; ``parts`` are token texts
    (names, integers, simple strings) in source order; ``offset`` locates it.
    ``file`` is shared by all facts of one program, see :class:`Program`.
    """

    kind: str
    parts: tuple[str, ...]
    offset: int

    def __eq__(self, other: object) -> bool:  # positions never count, as for nodes
        if not isinstance(other, PlainFact):
            return NotImplemented
        return self.kind == other.kind and self.parts == other.parts

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.kind, self.parts))


Statement = Union[Rule, Query, World, External, Directive, PlainFact]  # noqa: UP007


@dataclass(frozen=True, slots=True)
class Program:
    """A parsed ``.fx`` file: statements in source order."""

    statements: tuple[Statement, ...]
    file: str = "<string>"
    source: str = field(default="", compare=False, repr=False)
