"""Static checks on the core IR: safety, recursion that cannot terminate, receipts.

clingo would reject an unsafe rule with its own message and loop forever on a
recursive rule that builds ever larger terms; both are reported here instead,
with the fxlog source location and a fix.

>>> from fxlog.syntax.parser import parse_program
>>> from fxlog.translators.flatten import flatten
>>> sink = DiagnosticSink()
>>> check_module(flatten(parse_program("p(?X) :- NOT q(?X).")), sink)
>>> [d.code for d in sink.diagnostics]
['E-UNSAFE']
"""

from __future__ import annotations

import networkx as nx

from fxlog.errors import DiagnosticSink, Span
from fxlog.syntax import ast
from fxlog.syntax.printer import term_text
from fxlog.translators.core import (
    BUILTINS,
    RECEIPT_METHODS,
    Agg,
    Builtin,
    Cmp,
    CoreRule,
    Lit,
    Module,
    Pred,
)
from fxlog.translators.flatten import term_vars

__all__ = ["bound_variables", "check_module", "check_singletons", "negative_loops"]


def _names(term: object) -> set[str]:
    return {v.name for v in term_vars(term) if not v.anonymous}


def bound_variables(rule: CoreRule) -> set[str]:
    """Variables bound by positive literals, then by ``=`` assignments, to a fixpoint."""
    bound: set[str] = set()
    for item in rule.body:
        if isinstance(item, Lit) and not item.naf:
            bound |= _names(item.atom.args)
    pending: list[Cmp | Agg | Builtin] = [
        i for i in rule.body
        if (isinstance(i, Cmp) and i.op == "=") or isinstance(i, Agg)
        or (isinstance(i, Builtin) and BUILTINS[i.name][1] < len(i.args))
    ]
    changed = True
    while changed and pending:
        changed = False
        for cmp in list(pending):
            if isinstance(cmp, Agg):
                if set(cmp.keys) <= bound | set(_group_names(rule, cmp)):
                    bound |= _names(cmp.result)
                    pending.remove(cmp)
                    changed = True
                continue
            if isinstance(cmp, Builtin):
                if _names(cmp.args[:-1]) <= bound:
                    bound |= _names(cmp.args[-1])
                    pending.remove(cmp)
                    changed = True
                continue
            for target, source in ((cmp.left, cmp.right), (cmp.right, cmp.left)):
                if isinstance(target, ast.Var) and _names(source) <= bound:
                    bound |= _names(target)
                    pending.remove(cmp)
                    changed = True
                    break
                if not isinstance(target, ast.Var) and _names(source) <= bound and \
                        _is_pattern(target):
                    bound |= _names(target)  # f(?X) = term binds ?X by unification
                    pending.remove(cmp)
                    changed = True
                    break
    return bound


def _group_names(rule: CoreRule, agg: Agg) -> list[str]:
    """Keys bound by the aggregate's own domain literal (grouping variables)."""
    return [n for n in agg.keys if any(
        isinstance(i, Lit) and not i.naf and i.atom.pred.kind == "aux"
        and n in _names(i.atom.args) for i in rule.body)]


def _is_pattern(term: ast.Term) -> bool:
    return isinstance(term, ast.Compound) and not any(
        isinstance(a, (ast.BinOp, ast.UnaryMinus)) for a in term.args)


def _check_safety(rule: CoreRule, sink: DiagnosticSink, reported: set[tuple[int, str]],
                  reported_anon: set[int]) -> None:
    bound = bound_variables(rule)
    if any(v.anonymous for v in term_vars(rule.head.args)) and rule.origin not in reported_anon:
        reported_anon.add(rule.origin)
        code = "E-NONGROUND-FACT" if not rule.body else "E-UNSAFE"
        sink.error(code, "an anonymous variable `?` in the head has no value", rule.span,
                   "write a value, or a named variable bound by the body")
    needed: list[tuple[str, str]] = [(n, "head") for n in sorted(_names(rule.head.args))]
    not_spans: dict[str, Span] = {}
    for item in rule.body:
        if isinstance(item, Lit) and item.naf:
            needed += [(n, "NOT") for n in sorted(_names(item.atom.args))]
            for n in _names(item.atom.args):
                not_spans.setdefault(n, item.span)
        elif isinstance(item, Cmp):
            needed += [(n, "comparison") for n in sorted(_names((item.left, item.right)))]
        elif isinstance(item, Builtin):
            inputs = item.args[: BUILTINS[item.name][1]]
            needed += [(n, f"builtin {item.name}") for n in sorted(_names(inputs))]
        elif isinstance(item, Agg):
            needed += [(n, "aggregate") for n in item.keys]
    for name, where in needed:
        if name in bound or (rule.origin, name) in reported:
            continue
        reported.add((rule.origin, name))
        shown = "?" + name if not name.startswith("#") else "a path value"
        if not rule.body and where == "head":
            sink.error("E-NONGROUND-FACT", f"the fact has a variable {shown}", rule.span,
                       "facts must be ground: replace the variable with a value, "
                       "or add a body that binds it")
            continue
        if where == "NOT":
            span = not_spans.get(name, rule.span)
            sink.error("E-UNSAFE-NAF", f"{shown} occurs only under NOT", span if span.line
                       else rule.span, f"bind {shown} with a positive literal outside the "
                       f"negation, or write `?` / `?_{name}` to mean 'there is no such value'")
            continue
        sink.error("E-UNSAFE", f"{shown} in the {where} is not bound by the body", rule.span,
                   f"bind {shown} with a positive literal such as `{shown}:Class` or "
                   f"`p({shown})` (NOT, comparisons and heads do not bind)")


def _dependency_graph(module: Module) -> nx.DiGraph[Pred]:
    graph: nx.DiGraph[Pred] = nx.DiGraph()
    for rule in module.rules:
        graph.add_node(rule.head.pred)
        for item in rule.body:
            if isinstance(item, Lit):
                graph.add_edge(item.atom.pred, rule.head.pred)
            elif isinstance(item, Agg):
                for inner in item.body:
                    if isinstance(inner, Lit):
                        graph.add_edge(inner.atom.pred, rule.head.pred, agg=True)
    return graph


def _check_aggregate_recursion(module: Module, sink: DiagnosticSink) -> None:
    graph = _dependency_graph(module)
    for rule in module.rules:
        for item in rule.body:
            if not isinstance(item, Agg):
                continue
            for inner in item.body:
                if isinstance(inner, Lit) and nx.has_path(graph, rule.head.pred,
                                                          inner.atom.pred):
                    sink.error("E-AGG-RECURSION", "recursion through an aggregate: the "
                               "aggregate reads what this rule defines", item.span,
                               "compute the aggregate over facts or over predicates that do "
                               "not depend on this rule")
                    return


def _receipt_guarded(rule: CoreRule) -> bool:
    """Rules joined with receipt facts are bounded by the receipts the host has written."""
    for item in rule.body:
        if isinstance(item, Lit) and not item.naf:
            p = item.atom.pred
            if p.kind == "attr" and (p.name, p.args) in RECEIPT_METHODS:
                return True
    return False


def _growing_terms(rule: CoreRule) -> list[str]:
    """Head arguments that build a new term or number from body values."""
    arith_bound = set()
    for item in rule.body:
        if isinstance(item, Cmp) and item.op == "=":
            for target, source in ((item.left, item.right), (item.right, item.left)):
                if isinstance(target, ast.Var) and isinstance(source, (ast.BinOp,
                                                                        ast.UnaryMinus)):
                    arith_bound.add(target.name)
    # A value also bound by a positive literal ranges over a finite relation, and a
    # comparison with a constant bounds a counter: neither can grow forever.
    finite: set[str] = set()
    for item in rule.body:
        if isinstance(item, Lit) and not item.naf:
            finite |= _names(item.atom.args)
        elif isinstance(item, Cmp) and item.op in ("<", "<=", ">", ">=") and (
                isinstance(item.left, ast.Num) or isinstance(item.right, ast.Num)):
            finite |= arith_bound  # heuristic: the bound usually guards the counter
    growing = []
    for arg in rule.head.args:
        if isinstance(arg, ast.Compound) and _names(arg):
            growing.append("function term")
        elif isinstance(arg, ast.Var) and arg.name in arith_bound - finite:
            growing.append("arithmetic")
    return growing


def _check_growth(module: Module, sink: DiagnosticSink) -> None:
    graph = _dependency_graph(module)
    component: dict[Pred, int] = {}
    for i, scc in enumerate(nx.strongly_connected_components(graph)):
        for p in scc:
            component[p] = i
    reported: set[int] = set()
    # An external joined with receipts derives its request facts through a carrier
    # rule: every rule of that statement is bounded by the receipts.
    guarded = {r.origin for r in module.rules if _receipt_guarded(r)}
    for rule in module.rules:
        head = rule.head.pred
        recursive = any(
            isinstance(item, Lit) and not item.naf
            and component.get(item.atom.pred) == component.get(head)
            and graph.has_edge(item.atom.pred, head)
            for item in rule.body
        ) and (len([p for p, c in component.items() if c == component[head]]) > 1
               or graph.has_edge(head, head))
        if not recursive or rule.origin in reported or rule.origin in guarded:
            continue
        growing = _growing_terms(rule)
        if growing:
            reported.add(rule.origin)
            sink.error(
                "E-GROWTH", f"recursive rule builds a new {growing[0]} in its head: "
                "grounding would never terminate", rule.span,
                "bound the recursion with a finite domain, e.g. `..., ?N < 100` together "
                "with a fact listing the allowed values, or join it with receipts")


def _check_receipt_methods(module: Module, sink: DiagnosticSink) -> None:
    """Rules may read what the host writes on requests, never define it.

    ``tool#`` is the host's namespace: only ``external`` declarations (through
    the request facts they generate) and receipts put values there.
    """
    reported: set[int] = set()
    for rule in module.rules:
        p = rule.head.pred
        if p.kind != "attr" or rule.origin in module.external_origins or \
                rule.origin in reported:
            continue
        host_only = p.name.startswith("tool#") or (p.name, p.args) in RECEIPT_METHODS
        if host_only and rule.body:  # facts are receipts (or typed in like receipts)
            reported.add(rule.origin)
            sink.error("E-RECEIPT-METHOD", f"`{p.name}` is written by the host, not by rules",
                       rule.span, "derive your own method from it instead, "
                       "e.g. `?C[done -> true] :- ?C[tool#completed -> true].`")


def check_plain_facts(module: Module, sink: DiagnosticSink,
                      sources: dict[str, str]) -> None:
    """Facts the scanner read on its fast path get the checks rules get."""
    from fxlog.syntax.parser import SourceMap

    edges: dict[tuple[str, str], Span] = {}
    for rule in module.rules:
        if not rule.body and rule.head.pred == Pred("sub", "", 0):
            low, high = (term_text(a) for a in rule.head.args)
            edges.setdefault((low, high), rule.span)
    for file, facts in module.plain:
        smap = SourceMap(file, sources.get(file, ""))
        for pf in facts:
            if pf.kind == "sub":
                edges.setdefault((pf.parts[0], pf.parts[1]), smap.span(pf.offset))
            if pf.kind == "pred" and BUILTINS.get(pf.parts[0], (None,))[0] == len(pf.parts) - 1:
                sink.error("E-BUILTIN", f"`{pf.parts[0]}/{len(pf.parts) - 1}` is a built-in "
                           "predicate and cannot be defined", smap.span(pf.offset),
                           "choose another name for your predicate")
    _check_class_cycles(edges, sink)


def _check_class_cycles(edges: dict[tuple[str, str], Span], sink: DiagnosticSink) -> None:
    """``::`` facts that go round in a circle (W-CYCLE), reported where the circle closes."""
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_edges_from(edges)
    for cycle in sorted(sorted(c) for c in nx.simple_cycles(graph)):
        members = set(cycle)
        closing = sorted((span.start, span.file, pair) for pair, span in edges.items()
                         if pair[0] in members and pair[1] in members)
        _, _, pair = closing[-1]
        sink.warning("W-CYCLE", "the class hierarchy has a cycle: " + " :: ".join(cycle)
                     + f" :: {cycle[0]}", edges[pair],
                     "`::` is meant to be acyclic: remove one of these subclass facts")


def check_module(module: Module, sink: DiagnosticSink) -> None:
    """Report unsafe rules, non-terminating recursion and misuse of receipt methods."""
    reported: set[tuple[int, str]] = set()
    reported_anon: set[int] = set()
    for rule in module.rules:
        _check_safety(rule, sink, reported, reported_anon)
    if not sink.has_errors:
        _check_growth(module, sink)
        _check_aggregate_recursion(module, sink)
    _check_receipt_methods(module, sink)


def check_singletons(program: ast.Program, sink: DiagnosticSink) -> None:
    """Warn about a named variable used once in a rule: usually a typo."""
    for stmt in program.statements:
        if not isinstance(stmt, (ast.Rule, ast.External)):
            continue
        counts: dict[str, list[ast.Var]] = {}
        for v in _weighted_vars(stmt):
            if not v.anonymous and not v.dont_care:
                counts.setdefault(v.name, []).append(v)
        for name, occurrences in counts.items():
            if len(occurrences) == 1:
                sink.warning("W-SINGLETON", f"?{name} occurs only once in this rule",
                             occurrences[0].span,
                             f"use ?_{name} (or ?) if that is intended; otherwise check "
                             "the spelling")


def _weighted_vars(node: object) -> list[ast.Var]:
    """Variable occurrences, counting a frame's subject once per specification.

    ``?C[tool#name -> "_query"; tool#status -> ?S]`` uses ``?C`` twice although
    it is written once; Flora-2 style programs rely on that.
    """
    if isinstance(node, ast.Molecule):
        subject = list(term_vars(node.subject))
        uses = sum(len(b.specs) for b in node.frames) + (1 if node.rel else 0)
        out = subject * max(uses, 1)
        out += list(term_vars(node.cls))
        for block in node.frames:
            out += _weighted_vars(block.specs)
        return out
    if isinstance(node, (tuple, list)):
        return [v for item in node for v in _weighted_vars(item)]
    if isinstance(node, ast.Var):
        return [node]
    fields = getattr(node, "__dataclass_fields__", None)
    if not fields:
        return []
    return [v for name in fields if name != "span" for v in _weighted_vars(getattr(node, name))]


def negative_loops(module: Module) -> list[CoreRule]:
    """Rules on a dependency cycle that passes through NOT (candidates for no answer set)."""
    graph: nx.DiGraph[Pred] = nx.DiGraph()
    for rule in module.rules:
        for item in rule.body:
            if isinstance(item, Lit):
                neg = graph.get_edge_data(item.atom.pred, rule.head.pred, {}).get("neg", False)
                graph.add_edge(item.atom.pred, rule.head.pred, neg=neg or item.naf)
    bad: set[Pred] = set()
    for scc in nx.strongly_connected_components(graph):
        sub = graph.subgraph(scc)
        if any(d.get("neg") for _, _, d in sub.edges(data=True)):
            bad |= set(scc)
    return [r for r in module.rules if r.head.pred in bad and any(
        isinstance(i, Lit) and i.naf and i.atom.pred in bad for i in r.body)]
