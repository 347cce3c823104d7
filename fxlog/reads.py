"""Module (core IR) → Declarations: which requests' receipts each rule body reads.

A receipt is facts on a request object, so a rule reads a receipt when a body
literal asks a receipt method (``tool#status``, ``result("k")``, ...) of some
object. This module decides, without solving, *which* ``external``
declarations that object may come from:

* a request term in the literal (``lookup(?Id)[tool#status -> ...]``): the
  declarations whose request term can match it (same functor, arity and
  matching constants);
* a variable (``?C[tool#status -> ...]``): narrowed by the other literals on
  the same variable in that body: ``tool#name -> "t"`` keeps the declarations
  using tool ``t``, ``tool#argN -> v`` those with an N-th argument matching
  ``v``, ``input("k") -> v`` those with a matching input field;
* anything else: every declaration (the read is marked imprecise).

Matching treats each variable as a wildcard (repeated variables are not
checked against each other), so the answer is an over-approximation.

>>> from fxlog.syntax.parser import parse_program
>>> from fxlog.translators.flatten import flatten
>>> d = Declarations(flatten(parse_program('go. external a(1) using t <- go. '
...     'external b(1) using t <- a(1)[tool#status -> "succeeded"].')))
>>> [(r.method, r.targets) for r in d.closure_reads(d.carriers[1])]
[('tool#status', (0,))]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from fxlog.syntax import ast
from fxlog.syntax.printer import term_text
from fxlog.translators.core import RECEIPT_METHODS, Agg, CoreRule, Lit, Module, Pred

__all__ = ["Declaration", "Declarations", "ReceiptRead", "body_lits", "declaration_edges",
           "may_match", "request_name"]

_FRAMES = ("attr", "bool", "sig")


@dataclass(frozen=True)
class ReceiptRead:
    """One body literal reading a receipt method, and the declarations it may be about."""

    rule: int
    lit: Lit
    method: str
    targets: tuple[int, ...]
    precise: bool

    @property
    def key(self) -> ast.Term | None:
        """The first method argument (``"k"`` of ``result("k")``), if any."""
        pred, args = self.lit.atom.pred, self.lit.atom.args
        return args[1] if pred.kind == "attr" and pred.args >= 1 else None


@dataclass
class Declaration:
    """What the host will know about the requests of one ``external``."""

    index: int
    request: ast.Term
    tool: str
    text: str
    inputs: dict[str, ast.Term] = field(default_factory=dict)
    order: ast.Term | None = None

    @property
    def name(self) -> str:
        """The request name the host compares for ``tool#order`` (the functor)."""
        return request_name(self.request)


def request_name(term: ast.Term) -> str:
    """Functor text of a request term (``lookup`` for ``lookup(?Id)``)."""
    return term_text(term.functor) if isinstance(term, ast.Compound) else term_text(term)


def body_lits(rule: CoreRule) -> Iterator[Lit]:
    """Every literal of a body, including those inside aggregates."""
    for item in rule.body:
        if isinstance(item, Lit):
            yield item
        elif isinstance(item, Agg):
            yield from (i for i in item.body if isinstance(i, Lit))


def may_match(a: ast.Term, b: ast.Term) -> bool:
    """Can two terms stand for the same value? Variables and arithmetic match anything."""
    if isinstance(a, (ast.Var, ast.BinOp, ast.UnaryMinus)) or \
            isinstance(b, (ast.Var, ast.BinOp, ast.UnaryMinus)):
        return True
    if isinstance(a, ast.Compound) and isinstance(b, ast.Compound):
        return term_text(a.functor) == term_text(b.functor) and len(a.args) == len(b.args) \
            and all(may_match(x, y) for x, y in zip(a.args, b.args, strict=True))
    if isinstance(a, ast.Num) and isinstance(b, ast.Num):
        return a.value == b.value
    if type(a) is not type(b):
        return False
    return term_text(a) == term_text(b)


def _receipt_method(lit: Lit) -> str | None:
    pred = lit.atom.pred
    if pred.negated:
        return None
    if pred.kind == "gen" and pred.name in ("attr", "bool"):
        return "?" + term_text(lit.atom.args[1])  # a variable method may read any of them
    if pred.kind not in ("attr", "bool") or (pred.name, pred.args) not in RECEIPT_METHODS:
        return None
    margs = lit.atom.args[1:1 + pred.args]
    if not margs:
        return pred.name
    return f"{pred.name}({', '.join(term_text(a) for a in margs)})"


class Declarations:
    """The ``external`` declarations of a module and the receipts each rule reads."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.rules = module.rules
        self.externals = [Declaration(e.index, e.request, e.tool, e.text)
                          for e in module.externals]
        #: rule indices of each external's carrier rules (its body, one rule per disjunct)
        self.carriers: dict[int, list[int]] = {e.index: [] for e in self.externals}
        self.by_pred: dict[Pred, list[int]] = {}
        for i, rule in enumerate(self.rules):
            self.by_pred.setdefault(rule.head.pred, []).append(i)
            self._note_external_rule(i, rule)
        self.heads = set(self.by_pred)
        self._reads: dict[int, list[ReceiptRead]] = {}

    def _note_external_rule(self, i: int, rule: CoreRule) -> None:
        head = rule.head.pred
        if head.kind == "aux" and head.name.startswith("x") and head.name[1:].isdigit():
            self.carriers.setdefault(int(head.name[1:]), []).append(i)
            return
        if len(rule.body) != 1 or not isinstance(rule.body[0], Lit):
            return
        carrier = rule.body[0].atom.pred
        if carrier.kind != "aux" or not carrier.name.startswith("x") or \
                not carrier.name[1:].isdigit() or head.kind != "attr":
            return
        decl = self.externals[int(carrier.name[1:])]
        args = rule.head.args
        if (head.name, head.args) == ("input", 1) and isinstance(args[1], ast.Str):
            decl.inputs[args[1].value] = args[2]
        elif (head.name, head.args) == ("tool#order", 0):
            decl.order = args[1]

    # ------------------------------------------------------------ receipt reads
    def reads(self, rule_index: int) -> list[ReceiptRead]:
        """Receipt reads written in one rule's body (cached)."""
        found = self._reads.get(rule_index)
        if found is None:
            rule = self.rules[rule_index]
            found = []
            for lit in body_lits(rule):
                method = _receipt_method(lit)
                if method is not None:
                    targets, precise = self.targets(rule, lit.atom.args[0])
                    found.append(ReceiptRead(rule_index, lit, method, targets, precise))
            self._reads[rule_index] = found
        return found

    def targets(self, rule: CoreRule, subject: ast.Term) -> tuple[tuple[int, ...], bool]:
        """Declarations an object in ``rule`` may be a request of; False when unconstrained."""
        every = tuple(range(len(self.externals)))
        if not isinstance(subject, ast.Var):
            return tuple(d.index for d in self.externals if may_match(d.request, subject)), True
        if subject.anonymous:
            return every, False
        keep = set(every)
        constrained = False
        for lit in body_lits(rule):
            pred, args = lit.atom.pred, lit.atom.args
            if lit.naf or pred.kind != "attr" or pred.negated or args[0] != subject:
                continue
            narrowed = self._narrow(pred, args, keep)
            if narrowed is not None:
                keep, constrained = narrowed, True
        return tuple(sorted(keep)), constrained

    def _narrow(self, pred: Pred, args: tuple[ast.Term, ...], keep: set[int]) -> set[int] | None:
        value = args[-1]
        if (pred.name, pred.args) == ("tool#name", 0):
            if not isinstance(value, ast.Str):
                return None
            return {i for i in keep if self.externals[i].tool == value.value}
        if pred.args == 0 and pred.name.startswith("tool#arg") and pred.name[8:].isdigit():
            n = int(pred.name[8:])
            return {i for i in keep if _nth_arg_matches(self.externals[i].request, n, value)}
        if (pred.name, pred.args) == ("input", 1):
            return {i for i in keep if any(
                may_match(args[1], ast.Str(k)) and may_match(v, value)
                for k, v in self.externals[i].inputs.items())}
        return None

    # ------------------------------------------------------------ dependencies
    def definers(self, lit: Lit) -> Iterator[int]:
        """Rules whose head may define an atom the literal reads (over-approximation)."""
        pred = lit.atom.pred
        for related in self._related(pred):
            for i in self.by_pred.get(related, []):
                head = self.rules[i].head.args
                if related == pred and not all(
                        may_match(h, a) for h, a in zip(head, lit.atom.args, strict=True)):
                    continue
                yield i

    def _related(self, p: Pred) -> list[Pred]:
        neg = p.negated
        membership = [Pred("isa", "", 0, neg), Pred("sub", "", 0, neg)]
        if p.kind in _FRAMES:
            cls = "c" + p.kind
            out = [p, Pred(cls, p.name, p.args, neg), Pred("genh", p.kind, 0, neg),
                   Pred("genh", cls, 0, neg)]
            inherits = any(q.kind == cls and q.name == p.name for q in self.heads) or \
                Pred("genh", cls, 0, neg) in self.heads
            return out + membership if inherits else out
        if p.kind in ("cattr", "cbool", "csig"):
            return [p, Pred("genh", p.kind, 0, neg)]
        if p.kind == "isa":
            return membership
        if p.kind == "gen":
            kinds = (p.name, "c" + p.name) if p.name in _FRAMES else (p.name,)
            return [q for q in sorted(self.heads) if q.kind in kinds] + \
                [Pred("genh", k, 0, neg) for k in kinds] + membership
        if p.kind == "exists":
            return sorted(self.heads)
        return [p]

    def closure(self, start: Iterable[int]) -> list[int]:
        """Every rule on the derivation paths of ``start`` (themselves included), sorted."""
        seen = set(start)
        todo = deque(sorted(seen))
        while todo:
            rule = self.rules[todo.popleft()]
            for lit in body_lits(rule):
                if _receipt_method(lit) is not None and lit.atom.pred.kind != "gen":
                    continue  # receipt methods are written by the host only
                for i in self.definers(lit):
                    if i not in seen:
                        seen.add(i)
                        todo.append(i)
        return sorted(seen)

    def closure_reads(self, start: Iterable[int]) -> list[ReceiptRead]:
        """Receipt reads of every rule on the derivation paths of ``start``."""
        return [r for i in self.closure(start) for r in self.reads(i)]

    def status_rules(self) -> dict[str, list[int]]:
        """``workflow[status -> S]`` rules by the text of S (``?S`` when it is a variable)."""
        out: dict[str, list[int]] = {}
        for i in self.by_pred.get(Pred("attr", "status", 0), []):
            args = self.rules[i].head.args
            if isinstance(args[0], ast.Sym) and args[0].name == "workflow":
                out.setdefault(term_text(args[1]), []).append(i)
        return out


def _nth_arg_matches(request: ast.Term, n: int, value: ast.Term) -> bool:
    if not isinstance(request, ast.Compound) or len(request.args) < n or n < 1:
        return False
    return may_match(request.args[n - 1], value)


def declaration_edges(decls: Declarations) -> dict[tuple[int, int], list[ReceiptRead]]:
    """``(X, Y) → reads``: a rule on Y's derivation path reads receipts of X's requests."""
    edges: dict[tuple[int, int], list[ReceiptRead]] = {}
    for y, carriers in sorted(decls.carriers.items()):
        for read in decls.closure_reads(carriers):
            for x in read.targets:
                edges.setdefault((x, y), []).append(read)
    return edges
