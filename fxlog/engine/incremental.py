"""AspProgram + receipts arriving step by step → the host's state at each step.

Re-grounding the whole knowledge base after every receipt costs time in
proportion to the knowledge base. Here the program is split once: rules whose
predicates cannot depend on receipts (the *static* part, usually almost all of
a large knowledge base) are grounded a single time; the *dynamic* rules are
grounded again at every step in a program part ``step(t)``, with every dynamic
predicate carrying the step number ``t`` as an extra last argument.

Why stamping: clingo never revisits a rule grounded earlier, so a rule such as
``pend(C) :- req(C), not done(C)`` grounded before ``done(c)`` arrives would
keep ``pend(c)`` true forever. With stamps, step ``t`` reads only atoms of step
``t`` (``done(C,t)``, bridged from all receipt facts added so far), so a
conclusion drawn with ``not`` is drawn afresh at every step.

>>> from fxlog.syntax.parser import parse_program
>>> from fxlog.translators.pipeline import translate
>>> asp = translate(parse_program('p(a). external go(?X) using t[] <- p(?X).'))
>>> inc = IncrementalSolver(asp)
>>> [str(s) for s in inc.step("").internal["fx_pend"]]
['fx_pend(go(a))']
"""

from __future__ import annotations

from collections.abc import Iterable

import clingo
import networkx as nx
from clingo import ast
from clingo.symbol import Function, Number, Symbol

from fxlog.engine.arith import BuiltinContext
from fxlog.engine.solver import INTERNAL, Captured, NoModelError, SolverError
from fxlog.translators.core import Pred
from fxlog.translators.emit import AspProgram
from fxlog.translators.encode import pred_asp

__all__ = ["IncrementalSolver", "RECEIPT_SIGNATURES"]

#: Predicates a receipt line writes (see fxlog.tools.receipts): the roots of "dynamic".
_RECEIPT_METHODS = (
    ("tool#completed", 0), ("tool#status", 0), ("tool#name", 0), ("tool#seq", 0),
    ("tool#started", 0), ("tool#finished", 0), ("tool#duration_ms", 0), ("input", 1),
    ("result", 1), ("row", 2), ("tool#ignored", 1), ("error", 1), ("evidence", 1),
    ("call", 2),
)
RECEIPT_SIGNATURES = frozenset(
    (pred_asp(Pred("attr", name, n)), n + 2) for name, n in _RECEIPT_METHODS
)
_STEP = "fx_step_t"
#: Answer sets the host is willing to intersect when a step is not deterministic.
MAX_MODELS = 256


class _Atoms(ast.Transformer):
    """Collects the signatures of symbolic atoms (heads and bodies separately)."""

    def __init__(self) -> None:
        self.found: set[tuple[str, int]] = set()

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:  # noqa: N802 - clingo's naming
        term = node.symbol
        if term.ast_type == ast.ASTType.Function:
            self.found.add((term.name, len(term.arguments)))
        elif term.ast_type == ast.ASTType.SymbolicTerm and \
                term.symbol.type == clingo.SymbolType.Function:
            self.found.add((term.symbol.name, len(term.symbol.arguments)))
        return node


def _signatures(node: ast.AST) -> set[tuple[str, int]]:
    collector = _Atoms()
    collector(node)
    return collector.found


class _Stamp(ast.Transformer):
    """Adds the step constant as a last argument to every dynamic atom."""

    def __init__(self, dynamic: set[tuple[str, int]]) -> None:
        self.dynamic = dynamic

    def visit_SymbolicAtom(self, node: ast.AST) -> ast.AST:  # noqa: N802
        term = node.symbol
        loc = term.location
        step = ast.Function(loc, _STEP, [], False)
        if term.ast_type == ast.ASTType.Function and \
                (term.name, len(term.arguments)) in self.dynamic:
            return node.update(symbol=term.update(arguments=[*term.arguments, step]))
        if term.ast_type == ast.ASTType.SymbolicTerm and \
                term.symbol.type == clingo.SymbolType.Function and \
                (term.symbol.name, len(term.symbol.arguments)) in self.dynamic:
            name = term.symbol.name
            args = [ast.SymbolicTerm(loc, a) for a in term.symbol.arguments]
            return node.update(symbol=ast.Function(loc, name, [*args, step], False))
        return node


class IncrementalSolver:
    """One clingo control for a whole episode; ``step(receipts)`` answers the host."""

    def __init__(self, asp: AspProgram, threads: int = 1) -> None:
        self.messages: list[str] = []
        self.t = 0
        rules: list[ast.AST] = []
        ast.parse_string(asp.rules_text, rules.append)
        self.dynamic = _dynamic_signatures(rules)
        static_text, step_text = self._split(rules)
        self.ctl = clingo.Control(["--warn=none", f"--parallel-mode={threads}"],
                                  logger=self._log, message_limit=20)
        try:
            self.ctl.add("base", [], static_text)
            self.ctl.add("base", [], asp.facts_text)
            self.ctl.add("step", [_STEP], step_text)
            self.ctl.ground([("base", [])], context=BuiltinContext())
        except RuntimeError as exc:
            raise SolverError("clingo rejected the translated program: "
                              + ("; ".join(self.messages) or str(exc))) from exc
        # fx_req lists every request ever derived; a step needs only the pending ones,
        # whose external index travels in fx_ri.
        self._internal = [(n, a, (n, a) in self.dynamic) for n, a in INTERNAL if n != "fx_req"]

    def _log(self, code: clingo.MessageCode, message: str) -> None:
        if code not in (clingo.MessageCode.AtomUndefined, clingo.MessageCode.GlobalVariable,
                        clingo.MessageCode.OperationUndefined):
            self.messages.append(message.strip())

    def _split(self, rules: list[ast.AST]) -> tuple[str, str]:
        stamp = _Stamp(self.dynamic)
        static: list[str] = []
        step: list[str] = []
        for node in rules:
            kind = node.ast_type
            if kind == ast.ASTType.Program:
                continue
            if kind == ast.ASTType.Defined:
                if (node.name, node.arity) in self.dynamic:
                    step.append(f"#defined {node.name}/{node.arity + 1}.")
                static.append(str(node))
                continue
            if kind == ast.ASTType.ShowSignature or kind == ast.ASTType.ShowTerm:
                continue  # the host reads atoms through the symbol table
            if _signatures(node) & self.dynamic:
                step.append(str(stamp(node)))
            else:
                static.append(str(node))
        for name, arity in sorted(self.dynamic):
            xs = ",".join(f"X{i}" for i in range(arity))
            head_args = f"{xs}," if arity else ""
            body = f"{name}({xs})" if arity else name
            step.append(f"{name}({head_args}{_STEP}) :- {body}.")
            static.append(f"#defined {name}/{arity}.")
        return "\n".join(static) + "\n", "\n".join(step) + "\n"

    def step(self, receipts_text: str) -> Captured:
        """Add the receipts written since the last step, ground step ``t`` and solve."""
        self.t += 1
        part = f"fx_r{self.t}"
        try:
            self.ctl.add(part, [], receipts_text)
            self.ctl.ground([(part, []), ("step", [Number(self.t)])], context=BuiltinContext())
        except RuntimeError as exc:
            raise SolverError("clingo rejected a receipt: "
                              + ("; ".join(self.messages) or str(exc))) from exc
        return self._solve()

    def _solve(self) -> Captured:
        atoms = self._internal_atoms()
        found: list[Captured] = []
        self.ctl.configuration.solve.models = "2"  # type: ignore[union-attr]
        with self.ctl.solve(yield_=True) as handle:
            for model in handle:
                captured = Captured([], {})
                for name, sym, lit in atoms:
                    if model.is_true(lit):
                        captured.internal.setdefault(name, []).append(sym)
                found.append(captured)
        if not found:
            raise NoModelError("the program has no answer set")
        if len(found) > 1:
            return self._in_all_models(atoms)
        return found[0]

    def _in_all_models(self, atoms: list[tuple[str, Symbol, int]]) -> Captured:
        """Several answer sets: the host acts only on what holds in all of them.

        clingo's cautious mode reports shown atoms only, so the models are
        enumerated (up to a bound) and intersected here.
        """
        common: set[tuple[str, Symbol]] | None = None
        self.ctl.configuration.solve.models = str(MAX_MODELS + 1)  # type: ignore[union-attr]
        count = 0
        with self.ctl.solve(yield_=True) as handle:
            for model in handle:
                count += 1
                seen = {(name, sym) for name, sym, lit in atoms if model.is_true(lit)}
                common = seen if common is None else common & seen
        if count > MAX_MODELS:
            raise SolverError(f"the program has more than {MAX_MODELS} answer sets under the "
                              "closed world; the host cannot decide which requests hold in all "
                              "of them (look for loops through NOT)")
        captured = Captured([], {})
        for name, sym in sorted(common or (), key=lambda p: (p[0], str(p[1]))):
            captured.internal.setdefault(name, []).append(sym)
        return captured

    def _internal_atoms(self) -> list[tuple[str, Symbol, int]]:
        out: list[tuple[str, Symbol, int]] = []
        now = Number(self.t)
        for name, arity, dynamic in self._internal:
            if not dynamic:
                for sa in self.ctl.symbolic_atoms.by_signature(name, arity):
                    out.append((name, sa.symbol, sa.literal))
                continue
            for sa in self.ctl.symbolic_atoms.by_signature(name, arity + 1):
                args = sa.symbol.arguments
                if args[-1] == now:
                    out.append((name, Function(name, args[:-1]), sa.literal))
        return out


def _dynamic_signatures(rules: Iterable[ast.AST]) -> set[tuple[str, int]]:
    """Predicates that depend, through any rule, on a predicate receipts write."""
    graph: nx.DiGraph[tuple[str, int]] = nx.DiGraph()
    for node in rules:
        if node.ast_type != ast.ASTType.Rule:
            continue
        heads = _signatures(node.head)
        body = set()
        for lit in node.body:
            body |= _signatures(lit)
        body |= _signatures(node.head) - heads  # conditions inside choice heads
        for h in heads:
            graph.add_node(h)
            for b in body:
                graph.add_edge(b, h)
    # Receipt predicates themselves only grow (facts are added, never removed), so
    # rules may read them unstamped; only what rules derive from them is stamped.
    # A receipt predicate that rules also derive (tool#name, input) is stamped too,
    # and its facts are bridged into each step.
    dynamic: set[tuple[str, int]] = set()
    for root in RECEIPT_SIGNATURES:
        if root in graph:
            dynamic |= nx.descendants(graph, root)
    return dynamic
