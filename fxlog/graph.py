"""Knowledge base → networkx DiGraph: which requests' receipts each request was derived from.

* **Episode graph** (program + receipts): one node per request identity
  (``lookup(1002)``) with its tool, ``tool#order``, ``tool#seq`` and status
  (``succeeded``, ``failed``, ``pending``, ``not derived``), plus a
  ``workflow`` node when a status is derived. Edge A → B when the proof of B
  (the explain prover on B's ``fx_req`` atom) reads a receipt fact of A.
* **Static graph** (program only): one node per ``external`` declaration and
  per ``workflow`` status; edge X → Y when a rule on Y's derivation path reads
  receipt methods of requests that may be X's (see :mod:`fxlog.reads`).
  Declarations that can never be derived and statuses that can never be
  reached are marked (see :mod:`fxlog.analysis`).

Nodes and edges on a cycle carry ``cycle=True``. Nodes are added in sorted
order so every rendering is deterministic.

>>> from fxlog.reasoner import KnowledgeBase
>>> kb = KnowledgeBase(); _ = kb.add_text('go. external a(1) using t[tool#order -> 1] <- go. '
...     'external b(1) using t[tool#order -> 2] <- a(1)[tool#status -> "succeeded"].', "x.fx")
>>> sorted(static_graph(kb).edges)
[('a(1)', 'b(1)')]
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from typing import Any

import networkx as nx
from clingo.symbol import Symbol

from fxlog.engine.decode import decode, decode_text
from fxlog.engine.solver import FullModel, full_model
from fxlog.explain.prover import FactIndex, Node, Prover
from fxlog.explain.render_atoms import AtomNamer
from fxlog.reads import Declarations, declaration_edges
from fxlog.reasoner import KnowledgeBase
from fxlog.syntax import ast
from fxlog.syntax.printer import term_text
from fxlog.translators.core import RECEIPT_METHODS, Atom, BodyItem, Lit, Module, Pred
from fxlog.translators.flatten import flatten

__all__ = ["Graph", "build_graph", "episode_graph", "mark_cycles", "receipt_sources",
           "static_graph"]

Graph = nx.DiGraph  # type alias for readers; nodes are str ids
_RECEIPT_NAMES = frozenset(name for name, _ in RECEIPT_METHODS)
WORKFLOW = "workflow"


def build_graph(kb: KnowledgeBase) -> nx.DiGraph[str]:
    """The episode graph when receipts are loaded, else the static graph."""
    return episode_graph(kb) if kb.receipts else static_graph(kb)


# ------------------------------------------------------------------ episode
def receipt_sources(node: Node) -> dict[str, set[str]]:
    """Request text → receipt methods read, over the receipt leaves of a proof tree."""
    found: dict[str, set[str]] = {}
    stack = [node]
    while stack:
        current = stack.pop()
        stack.extend(current.children)
        request = current.detail.get("request") if current.kind == "receipt" else None
        if not isinstance(request, str) or not current.text.startswith(request + "["):
            continue
        method = current.text[len(request) + 1:].split(" -> ")[0].rstrip("]")
        if method.split("(")[0] in _RECEIPT_NAMES:
            found.setdefault(request, set()).add(method)
    return found


class _Episode:
    def __init__(self, kb: KnowledgeBase) -> None:
        translation = kb.translation(queries=False)
        assert translation.module is not None
        self.module = translation.module
        self.model: FullModel = full_model(translation.asp, "".join(kb.receipt_asp))
        namer = AtomNamer(self.module, self.model)
        facts = FactIndex(self.module, [flatten(p) for p in kb.receipts], kb.sources)
        self.prover = _Prover(_name_anonymous(self.module), self.model, namer, facts)
        self.plan = self.prover.plan

    def values(self, method: str) -> dict[Symbol, Symbol]:
        name = self.plan.closed(Pred("attr", method, 0))
        return {s.arguments[0]: s.arguments[1] for s in self.model.signature(name, 2)}

    def requests(self) -> tuple[dict[Symbol, Symbol], set[Symbol]]:
        derived: dict[Symbol, Symbol] = {}
        for atom in self.model.signature("fx_req", 2):
            derived.setdefault(atom.arguments[0], atom)
        seen = set(derived) | set(self.values("tool#seq")) | set(self.values("tool#completed"))
        return derived, seen

    def workflow(self) -> list[Symbol]:
        name = self.plan.closed(Pred("attr", "status", 0))
        return [s for s in self.model.signature(name, 2)
                if decode_text(s.arguments[0]) == WORKFLOW]


class _Prover(Prover):
    """The explain prover, taught that ``NOT p(?)`` holds when no ``p`` atom matches.

    Positive literals with anonymous variables are handled by naming those
    variables (:func:`_name_anonymous`), so the proof can show the atom used.
    """

    def _lit(self, lit: Lit, binding: dict[str, Symbol]) -> Iterator[dict[str, Symbol]]:
        if lit.naf and self.ground_lit(lit, binding) is None:
            if next(super()._lit(Lit(lit.atom), binding), None) is None:
                yield binding
            return
        yield from super()._lit(lit, binding)


def _name_anonymous(module: Module) -> Module:
    """A copy whose positive body literals name their anonymous variables (``?`` → ``?_aN``)."""
    counter = itertools.count(1)

    def rename(term: ast.Term) -> ast.Term:
        if isinstance(term, ast.Var) and term.anonymous:
            return ast.Var(f"_a{next(counter)}")
        if isinstance(term, ast.Compound):
            return ast.Compound(term.functor, tuple(rename(a) for a in term.args), term.span)
        return term

    def item(it: BodyItem) -> BodyItem:
        if isinstance(it, Lit) and not it.naf:
            return Lit(Atom(it.atom.pred, tuple(rename(a) for a in it.atom.args)))
        return it

    rules = [dataclasses.replace(r, body=tuple(item(i) for i in r.body)) for r in module.rules]
    return dataclasses.replace(module, rules=rules)


def _plain(value: Symbol | None) -> str | None:
    if value is None:
        return None
    term = decode(value)
    return term.value if isinstance(term, ast.Str) else term_text(term)


def _status(request: Symbol, derived: bool, values: dict[str, dict[Symbol, Symbol]]) -> str:
    if request in values["tool#completed"]:
        return _plain(values["tool#status"].get(request)) or "completed"
    if derived:
        return "pending"
    return "started" if request in values["tool#seq"] else "not derived"


def episode_graph(kb: KnowledgeBase) -> nx.DiGraph[str]:
    """Requests of an episode and the receipts each one's derivation read."""
    ep = _Episode(kb)
    derived, seen = ep.requests()
    values = {m: ep.values(m) for m in ("tool#name", "tool#order", "tool#seq",
                                        "tool#completed", "tool#status")}
    graph: nx.DiGraph[str] = nx.DiGraph(mode="episode", program=_program(kb),
                                        receipts=[p.file for p in kb.receipts])
    nodes: dict[str, dict[str, Any]] = {}
    for request in seen:
        seq = values["tool#seq"].get(request)
        atom = derived.get(request)
        nodes[decode_text(request)] = {
            "kind": "request", "tool": _plain(values["tool#name"].get(request)),
            "order": _plain(values["tool#order"].get(request)),
            "seq": seq.number if seq is not None and seq.type.name == "Number" else None,
            "status": _status(request, atom is not None, values),
            "derived": atom is not None,
            "external": atom.arguments[1].number if atom is not None else None}
    edges: dict[tuple[str, str], set[str]] = {}
    for request, atom in derived.items():
        _add_sources(edges, ep.prover.prove(atom), decode_text(request))
    statuses = ep.workflow()
    if statuses:
        nodes[WORKFLOW] = {"kind": "workflow",
                           "status": ", ".join(sorted(decode_text(s.arguments[1])
                                                      for s in statuses))}
        for atom in statuses:
            _add_sources(edges, ep.prover.prove(atom), WORKFLOW)
    _fill(graph, nodes, {k: {"reads": sorted(v), "precise": True} for k, v in edges.items()})
    return graph


def _add_sources(edges: dict[tuple[str, str], set[str]], proof: Node | None,
                 target: str) -> None:
    if proof is None:
        return
    for source, methods in receipt_sources(proof).items():
        edges.setdefault((source, target), set()).update(methods)


def _program(kb: KnowledgeBase) -> str:
    return kb.programs[0].file if kb.programs else "<empty>"


def _fill(graph: nx.DiGraph[str], nodes: dict[str, dict[str, Any]],
          edges: dict[tuple[str, str], dict[str, Any]]) -> None:
    for node in sorted(nodes):
        graph.add_node(node, **nodes[node])
    for (a, b) in sorted(edges):
        if a not in graph:
            graph.add_node(a, kind="request", tool=None, order=None, seq=None,
                           status="not derived", derived=False, external=None)
        graph.add_edge(a, b, **edges[(a, b)])
    mark_cycles(graph)


# ------------------------------------------------------------------- static
def static_graph(kb: KnowledgeBase, reach: Any = None) -> nx.DiGraph[str]:
    """Declarations and workflow statuses; ``reach`` (a Reachability) marks what is dead.

    When ``reach`` is None it is computed with :func:`fxlog.analysis.reachability`.
    """
    from fxlog.analysis import reachability

    module = kb.translation(queries=False).module
    assert module is not None
    decls = Declarations(module)
    reach = reach if reach is not None else reachability(kb)
    ids = _declaration_ids(decls)
    nodes: dict[str, dict[str, Any]] = {}
    for d in decls.externals:
        span = module.externals[d.index].span
        nodes[ids[d.index]] = {
            "kind": "external", "tool": d.tool, "external": d.index,
            "order": term_text(d.order) if d.order is not None else None,
            "location": f"{span.file}:{span.line}", "derivable": d.index in reach.derivable,
            "requests": len(reach.requests.get(d.index, ()))}
    edges: dict[tuple[str, str], dict[str, Any]] = {}
    for (x, y), reads in declaration_edges(decls).items():
        _static_edge(edges, ids[x], ids[y], reads)
    for status, rules in decls.status_rules().items():
        node = f"{WORKFLOW}[status -> {status}]"
        nodes[node] = {"kind": "status", "status": status,
                       "reachable": status.startswith("?") or status in reach.statuses}
        for read in decls.closure_reads(rules):
            for x in read.targets:
                _static_edge(edges, ids[x], node, [read])
    graph: nx.DiGraph[str] = nx.DiGraph(mode="static", program=_program(kb), receipts=[],
                                        analysis=reach.method)
    _fill(graph, nodes, edges)
    return graph


def _declaration_ids(decls: Declarations) -> dict[int, str]:
    texts = [term_text(d.request) for d in decls.externals]
    return {d.index: texts[d.index] if texts.count(texts[d.index]) == 1
            else f"{texts[d.index]} #{d.index}" for d in decls.externals}


def _static_edge(edges: dict[tuple[str, str], dict[str, Any]], a: str, b: str,
                 reads: list[Any]) -> None:
    entry = edges.setdefault((a, b), {"reads": [], "precise": False})
    entry["reads"] = sorted(set(entry["reads"]) | {r.method for r in reads})
    entry["precise"] = entry["precise"] or any(r.precise for r in reads)


# ------------------------------------------------------------------- cycles
def mark_cycles(graph: nx.DiGraph[str]) -> None:
    """Set ``cycle`` on every node and edge: True inside a strongly connected component."""
    component: dict[str, int] = {}
    for n, members in enumerate(_cyclic_components(graph)):
        for member in members:
            component[member] = n
    for node in graph.nodes:
        graph.nodes[node]["cycle"] = node in component
    for a, b in graph.edges:
        graph.edges[a, b]["cycle"] = a in component and component.get(b) == component[a]


def _cyclic_components(graph: nx.DiGraph[str]) -> Iterator[set[str]]:
    for members in nx.strongly_connected_components(graph):
        if len(members) > 1 or any(graph.has_edge(m, m) for m in members):
            yield set(members)
