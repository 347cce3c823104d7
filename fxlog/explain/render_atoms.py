"""ASP atoms and core literals → fxlog source text, for explanations.

The solver speaks in encoded predicates (``fx_a_tool_023_status``); a person
reading an explanation wants ``checkHuman(socrates)[tool#status -> "succeeded"]``.
This module keeps the reverse map from ASP predicate names to core predicates.

>>> from fxlog.translators.core import Module
>>> namer = AtomNamer(Module("x.fx"))
>>> from clingo.symbol import Function
>>> namer.text(Function("fx_isa_", [Function("socrates"), Function("fx_s", [])]))
'fx_isa_(socrates,fx_s)'
"""

from __future__ import annotations

from clingo.symbol import Function, Symbol

from fxlog.engine.decode import decode, decode_text
from fxlog.engine.solver import FullModel
from fxlog.syntax import ast
from fxlog.syntax.lexical import symbol_text
from fxlog.syntax.printer import term_text
from fxlog.translators.core import RECEIPT_METHODS, Agg, BodyItem, Builtin, Cmp, Lit, Module, Pred
from fxlog.translators.plan import Plan

__all__ = ["AtomNamer"]

Binding = dict[str, Symbol]
_RECEIPT_EXTRA = (("tool#name", 0), ("input", 1), ("tool#arg1", 0), ("tool#requested", 0),
                  ("tool#order", 0))


class AtomNamer:
    """Knows every predicate of one module and how to print its atoms."""

    def __init__(self, module: Module, model: FullModel | None = None) -> None:
        self.module = module
        self.plan = Plan.of(module)
        self.model = model
        self.by_name: dict[tuple[str, int], Pred] = {}
        preds: set[Pred] = set()
        for rule in module.rules:
            preds.add(rule.head.pred)
            for item in rule.body:
                if isinstance(item, Lit):
                    preds.add(item.atom.pred)
                elif isinstance(item, Agg):
                    preds.update(i.atom.pred for i in item.body if isinstance(i, Lit))
        from fxlog.translators.emit import plain_pred

        for _file, facts in module.plain:
            preds.update(plain_pred(pf) for pf in facts)
        for name, n in (*RECEIPT_METHODS, *_RECEIPT_EXTRA):
            preds.add(Pred("attr", name, n))
        preds |= {Pred("isa", "", 0), Pred("sub", "", 0)}
        for p in preds:
            self.by_name[(self.plan.closed(p), p.arity)] = p
            self.by_name.setdefault((self.plan.stored(p), p.arity), p)

    def pred_of(self, atom: Symbol) -> Pred | None:
        return self.by_name.get((atom.name, len(atom.arguments)))

    def hidden(self, atom: Symbol) -> bool:
        pred = self.pred_of(atom)
        return pred is not None and pred.kind == "aux"

    def text(self, atom: Symbol) -> str:
        pred = self.pred_of(atom)
        if pred is None:
            return str(atom)
        return self.atom_text(pred, [decode_text(a) for a in atom.arguments])

    def atom_text(self, pred: Pred, args: list[str]) -> str:
        neg = "\\neg " if pred.negated else ""
        kind = pred.kind
        if kind == "user":
            name = pred.name if "#" in pred.name else symbol_text(pred.name)
            return neg + (f"{name}({', '.join(args)})" if args else name)
        if kind == "isa":
            return f"{neg}{args[0]}:{args[1]}"
        if kind == "sub":
            return f"{neg}{args[0]}::{args[1]}"
        if kind == "exists":
            return f"{args[0]}[]"
        if kind in ("attr", "cattr", "sig", "csig", "bool", "cbool"):
            method = pred.name if "#" in pred.name else symbol_text(pred.name)
            margs = args[1:1 + pred.args]
            if margs:
                method = f"{method}({', '.join(margs)})"
            open_, close = ("[|", "|]") if kind.startswith("c") else ("[", "]")
            if kind in ("bool", "cbool"):
                return f"{args[0]}{open_}{neg}{method}{close}"
            arrow = "=>" if kind in ("sig", "csig") else "->"
            return f"{args[0]}{open_}{neg}{method} {arrow} {args[-1]}{close}"
        if kind in ("gen", "genh"):
            return f"{args[0]}[{args[1]} -> {args[2]}]" if len(args) == 3 else \
                f"{args[0]}[{args[1]}]"
        if kind == "req":
            return f"{args[0]} is requested"
        if kind == "query":
            return self._query_text(pred)
        return f"({', '.join(args)})"

    def _query_text(self, pred: Pred) -> str:
        for q in self.module.queries:
            if q.pred == pred:
                return q.text[3:-1] if q.text.startswith("?- ") else q.text
        return "the query"

    # --------------------------------------------------------------- literals
    def arg_text(self, term: ast.Term, binding: Binding) -> str:
        if isinstance(term, ast.Var):
            if term.anonymous:
                return "?"
            value = binding.get(term.name)
            if value is not None:
                return decode_text(value)
            return "?" + term.name if not term.name.startswith("#") else "?_"
        if isinstance(term, ast.Compound):
            inner = ", ".join(self.arg_text(a, binding) for a in term.args)
            return f"{term_text(term.functor)}({inner})"
        if isinstance(term, ast.BinOp):
            return f"{self.arg_text(term.left, binding)} {term.op} " \
                   f"{self.arg_text(term.right, binding)}"
        if isinstance(term, ast.UnaryMinus):
            return "-" + self.arg_text(term.operand, binding)
        return term_text(term)

    def item_text(self, item: BodyItem, binding: Binding) -> str:
        if isinstance(item, Lit):
            args = [self.arg_text(a, binding) for a in item.atom.args]
            text = self.atom_text(item.atom.pred, args)
            return "NOT " + text if item.naf else text
        if isinstance(item, Cmp):
            return f"{self.arg_text(item.left, binding)} {item.op} " \
                   f"{self.arg_text(item.right, binding)}"
        if isinstance(item, Builtin):
            shown = ", ".join(self.arg_text(a, binding) for a in item.args)
            return ("NOT " if item.negated else "") + f"{item.name}({shown})"
        inner = ", ".join(self.item_text(i, binding) for i in item.body)
        result = self.arg_text(item.result, binding)
        return f"{result} = {item.func}{{{term_text(item.value)} | {inner}}}"

    def receipt_detail(self, atom: Symbol) -> dict[str, object]:
        """Tool and status of the request a receipt fact is about."""
        if not atom.arguments or self.model is None:
            return {}
        request = atom.arguments[0]
        detail: dict[str, object] = {"request": decode_text(request)}
        for key, method in (("tool", "tool#name"), ("status", "tool#status")):
            name = self.plan.closed(Pred("attr", method, 0))
            holds = self.model.signature(name, 2)
            for sym in holds:
                if sym.arguments[0] == request:
                    value = decode(sym.arguments[1])
                    detail[key] = value.value if isinstance(value, ast.Str) else \
                        term_text(value)
                    break
        return detail


_ = Function  # re-exported type used in doctest
