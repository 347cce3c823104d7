"""Module → Plan: which predicates a rule head writes and which a body reads.

Most predicates are read exactly as they are written. Where a value can also
come from elsewhere — class membership closed over ``::``, a method with
inheritable class defaults, a signature inherited from superclasses — heads
write a *stored* predicate and bodies read the *closed* one, which the
inheritance axioms define as stored plus inherited.

>>> from fxlog.syntax.parser import parse_program
>>> from fxlog.translators.flatten import flatten
>>> plan = Plan.of(flatten(parse_program("C[|m -> 1|]. o:C.")))
>>> plan.stored(Pred("attr", "m", 0)), plan.closed(Pred("attr", "m", 0))
('fx_as_m', 'fx_a_m')
"""

from __future__ import annotations

from dataclasses import dataclass

from fxlog.translators.core import Module, Pred
from fxlog.translators.encode import mangle, pred_asp

__all__ = ["Plan", "defined_preds"]

_STORED_PREFIX = {
    "attr": "fx_as_", "cattr": "fx_cas_", "bool": "fx_bs_", "cbool": "fx_cbs_",
    "sig": "fx_sgs_", "csig": "fx_csgs_",
}
#: class-level kind → the object-level kind it is inherited into
INHERITED = {"cattr": "attr", "cbool": "bool", "csig": "sig"}


def defined_preds(module: Module) -> set[Pred]:
    """Every predicate some rule head or fact defines.

    Knowledge bases hold ~10^5 plain facts of a handful of predicates: their
    keys are collected as plain tuples first, and a ``Pred`` is built per key.
    """
    preds = {r.head.pred for r in module.rules}
    keys: set[tuple[str, str, int]] = set()
    for _file, facts in module.plain:
        keys.update((kind, parts[0], len(parts) - 1) if kind == "pred" else
                    (kind, parts[1] if kind == "attr" else "", 0)
                    for kind, parts, _offset in facts)
    for kind, name, n in keys:
        preds.add(Pred("user", name, n) if kind == "pred" else Pred(kind, name, 0))
    return preds


@dataclass(frozen=True)
class Plan:
    """The stored/closed split; ``inheritance`` is flogic, monotonic or none."""

    split: frozenset[Pred]
    inheritance: str = "flogic"

    @classmethod
    def of(cls, module: Module, defined: set[Pred] | None = None) -> Plan:
        split: set[Pred] = set()
        for p in defined if defined is not None else defined_preds(module):
            if p.negated or p.kind not in INHERITED:
                continue
            if p.kind == "csig" or module.inheritance != "none":
                split.add(p)
                split.add(Pred(INHERITED[p.kind], p.name, p.args))
        return cls(frozenset(split), module.inheritance)

    def stored(self, pred: Pred) -> str:
        if pred.kind in ("isa", "sub") and not pred.negated:
            return pred_asp(pred) + "_"
        if pred in self.split:
            return _STORED_PREFIX[pred.kind] + mangle(pred.name)
        return pred_asp(pred)

    def closed(self, pred: Pred) -> str:
        return pred_asp(pred)


#: The plan of a program without class defaults (receipts, plain facts).
FLAT = Plan(frozenset())
