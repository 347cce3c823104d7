"""Plan → inheritance, signature and consistency axioms (ASP text).

Flora-2's default behavioural inheritance is non-monotonic: an object takes a
class default ``C[|m -> v|]`` unless the object itself, or a more specific
class it belongs to, defines ``m`` (same name and arity); two unrelated
classes that both define ``m`` cancel each other out; the same class reached
along two paths is one source, not a conflict. Class defaults flow down to
subclasses the same way. Signatures are inherited monotonically and never
overridden; a value that breaks its signature is a derived violation fact.

>>> lines = inheritance_axioms(Plan(frozenset({Pred("cattr", "m", 0), Pred("attr", "m", 0)})))
>>> lines[-1]
'fx_a_m(O,V) :- fx_icand_m(C,O), fx_cas_m(C,V), not fx_iloc_m(O), not fx_iconf_m(C,O).'
"""

from __future__ import annotations

from fxlog.translators.core import Pred
from fxlog.translators.encode import mangle, pred_asp
from fxlog.translators.plan import INHERITED, Plan

__all__ = ["VIOLATION", "inheritance_axioms", "incons_axioms", "signature_axioms"]

#: ``fxlog#violation(Object, Method, Value, Type)``: the predicate users query.
VIOLATION = pred_asp(Pred("user", "fxlog#violation", 4))


def _args(n: int, value: bool) -> tuple[str, str]:
    """``A0,..,An-1`` method arguments, plus the value position when there is one."""
    margs = [f"A{i}" for i in range(n)]
    blanks = ["_"] * n
    if value:
        margs.append("V")
        blanks.append("_")
    return ",".join(margs), ",".join(blanks)


def _join(*parts: str) -> str:
    return ",".join(p for p in parts if p)


def _flogic(plan: Plan, cls_pred: Pred, obj_pred: Pred, value: bool) -> list[str]:
    """Non-monotonic inheritance of one method, class → member and class → subclass."""
    key = mangle(cls_pred.name) if not cls_pred.args else \
        f"{mangle(cls_pred.name)}_{cls_pred.args}"
    args, blanks = _args(cls_pred.args, value)
    c_stored, c_closed = plan.stored(cls_pred), plan.closed(cls_pred)
    o_stored, o_closed = plan.stored(obj_pred), plan.closed(obj_pred)
    d = f"fx_idef_{key}"
    lines = [
        f"{d}(C) :- {c_stored}({_join('C', blanks)}).",
        # members
        f"fx_iloc_{key}(O) :- {o_stored}({_join('O', blanks)}).",
        f"fx_iovr_{key}(C,O) :- fx_sub(X,C), fx_isa(O,X), {d}(X), {d}(C).",
        f"fx_icand_{key}(C,O) :- fx_isa(O,C), {d}(C), not fx_iovr_{key}(C,O).",
        f"fx_iconf_{key}(C,O) :- fx_icand_{key}(C,O), fx_icand_{key}(X,O), X!=C.",
        # subclasses
        f"fx_isovr_{key}(C,S) :- fx_sub(X,C), fx_sub(S,X), {d}(X), {d}(C).",
        f"fx_iscand_{key}(C,S) :- fx_sub(S,C), {d}(C), not fx_isovr_{key}(C,S), not {d}(S).",
        f"fx_isconf_{key}(C,S) :- fx_iscand_{key}(C,S), fx_iscand_{key}(X,S), X!=C.",
        f"{c_closed}({_join('C', args)}) :- {c_stored}({_join('C', args)}).",
        f"{c_closed}({_join('S', args)}) :- fx_iscand_{key}(C,S), "
        f"{c_stored}({_join('C', args)}), not fx_isconf_{key}(C,S).",
        f"{o_closed}({_join('O', args)}) :- {o_stored}({_join('O', args)}).",
        f"{o_closed}({_join('O', args)}) :- fx_icand_{key}(C,O), {c_stored}({_join('C', args)}),"
        f" not fx_iloc_{key}(O), not fx_iconf_{key}(C,O).",
    ]
    return lines


def _monotonic(plan: Plan, cls_pred: Pred, obj_pred: Pred, value: bool) -> list[str]:
    args, _ = _args(cls_pred.args, value)
    c_stored, c_closed = plan.stored(cls_pred), plan.closed(cls_pred)
    o_stored, o_closed = plan.stored(obj_pred), plan.closed(obj_pred)
    return [
        f"{c_closed}({_join('C', args)}) :- {c_stored}({_join('C', args)}).",
        f"{c_closed}({_join('S', args)}) :- fx_sub(S,C), {c_stored}({_join('C', args)}).",
        f"{o_closed}({_join('O', args)}) :- {o_stored}({_join('O', args)}).",
        f"{o_closed}({_join('O', args)}) :- fx_isa(O,C), {c_closed}({_join('C', args)}).",
    ]


def inheritance_axioms(plan: Plan) -> list[str]:
    """Axioms for every method with class-level values or booleans."""
    lines: list[str] = []
    for cls_pred in sorted(p for p in plan.split if p.kind in ("cattr", "cbool")):
        obj_pred = Pred(INHERITED[cls_pred.kind], cls_pred.name, cls_pred.args)
        value = cls_pred.kind == "cattr"
        lines.append(f"% inheritance of {cls_pred.name}/{cls_pred.args} ({plan.inheritance})")
        if plan.inheritance == "monotonic":
            lines += _monotonic(plan, cls_pred, obj_pred, value)
        else:
            lines += _flogic(plan, cls_pred, obj_pred, value)
    return lines


def signature_axioms(plan: Plan, object_sigs: set[Pred]) -> list[str]:
    """Monotonic inheritance of signatures and the violations users can query.

    A value ``v`` of ``o[m -> v]`` breaks ``o[m => T]`` when it is neither a
    member of class ``T`` nor of the built-in type ``T`` (``string``,
    ``integer``, ``decimal``, ``number``, ``symbol``, ``boolean``).
    """
    lines: list[str] = []
    sigs = {p for p in plan.split if p.kind == "csig"}
    for cls_pred in sorted(sigs):
        lines += _monotonic(plan, cls_pred, Pred("sig", cls_pred.name, cls_pred.args), True)
    seen = {Pred("sig", p.name, p.args) for p in sigs} | object_sigs
    for sig in sorted(seen):
        args, _ = _args(sig.args, False)
        attr = plan.closed(Pred("attr", sig.name, sig.args))
        method = _method_term(sig.name, sig.args)
        lines.append(
            f"{VIOLATION}(O,{method},V,T) :- {plan.closed(sig)}({_join('O', args, 'T')}), "
            f"{attr}({_join('O', args, 'V')}), not fx_isa(V,T), @fx_type(V,T)=0.")
    if lines:
        lines.insert(0, "% signatures: inherited monotonically; violations are facts")
    return lines


def _method_term(name: str, nargs: int) -> str:
    from fxlog.translators.encode import method_asp

    return method_asp(name, [f"A{i}" for i in range(nargs)])


def incons_axioms(plan: Plan, negated: list[Pred]) -> tuple[list[str], list[str]]:
    """``fx_incons(K, args)`` when a fact and its explicit negation both hold.

    Returns the axioms and, by K, a readable name of each predicate.
    """
    lines: list[str] = []
    names: list[str] = []
    for k, neg in enumerate(sorted(negated)):
        pos = Pred(neg.kind, neg.name, neg.args)
        arity = pos.arity
        vs = ",".join(f"X{i}" for i in range(arity))
        tuple_term = f"({vs},)" if arity == 1 else f"({vs})"
        call = f"({vs})" if arity else ""
        lines.append(f"fx_incons({k},{tuple_term}) :- {plan.closed(pos)}{call}, "
                     f"{plan.closed(neg)}{call}.")
        names.append(_describe(pos))
    if lines:
        lines.insert(0, "% explicit negation: a fact and its negation both holding is reported")
    return lines, names


def _describe(pred: Pred) -> str:
    kinds = {"user": "predicate", "attr": "method", "bool": "boolean method",
             "isa": "membership", "sub": "subclass", "cattr": "class default"}
    return f"{kinds.get(pred.kind, pred.kind)} {pred.name or pred.kind}"
