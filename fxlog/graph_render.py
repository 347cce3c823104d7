"""Request graph (networkx DiGraph) → DOT, Mermaid or node-link JSON text.

All three are byte-stable: nodes and edges are written in sorted order, so
the DOT of an example can be a golden file. SVG and PNG come from Graphviz's
``dot`` program run on the DOT text (see :mod:`fxlog.cli_extra`).

>>> import networkx as nx
>>> g = nx.DiGraph(mode="static")
>>> g.add_node("a(1)", kind="external", tool="t", order="1", derivable=True, cycle=False)
>>> print(to_mermaid(g))
flowchart LR
  n0["a(1)<br/>t · order 1"]
"""

from __future__ import annotations

import json
from typing import Any

import networkx as nx

__all__ = ["FORMATS", "to_dot", "to_json", "to_mermaid", "render_text"]

#: Text formats; ``svg`` and ``png`` are rendered from DOT by Graphviz.
FORMATS = ("dot", "mermaid", "json")
_GREEN, _RED, _ORANGE, _GREY = "#2e7d32", "#c62828", "#ef6c00", "#9e9e9e"
_MAX_READS = 3


def _lines(node: str, data: dict[str, Any]) -> list[str]:
    kind = data.get("kind")
    if kind == "workflow":
        return [node, f"status {data.get('status')}"]
    if kind == "status":
        return [node] + ([] if data.get("reachable", True) else ["never reached"])
    facts = [str(data["tool"])] if data.get("tool") else []
    if data.get("order") is not None:
        facts.append(f"order {data['order']}")
    if data.get("seq") is not None:
        facts.append(f"#{data['seq']}")
    lines = [node] + ([" · ".join(facts)] if facts else [])
    if kind == "request":
        lines.append(str(data.get("status")))
    elif not data.get("derivable", True):
        lines.append("never derived")
    return lines


def _state(data: dict[str, Any]) -> str:
    """One of ok, failed, pending, dead, plain: drives colours in both renderers."""
    status = data.get("status")
    if data.get("kind") == "request":
        return {"succeeded": "ok", "failed": "failed", "pending": "pending"}.get(
            str(status), "dead")
    if data.get("derivable") is False or data.get("reachable") is False:
        return "dead"
    return "plain"


def _edge_label(data: dict[str, Any]) -> str:
    reads = list(data.get("reads", []))
    more = f" +{len(reads) - _MAX_READS}" if len(reads) > _MAX_READS else ""
    return ", ".join(reads[:_MAX_READS]) + more


# ---------------------------------------------------------------------- DOT
def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_DOT_STATE = {
    "ok": f'color="{_GREEN}"', "failed": f'color="{_RED}"',
    "pending": f'color="{_ORANGE}", style="dashed"',
    "dead": f'color="{_GREY}", fontcolor="{_GREY}", style="dashed"', "plain": "",
}


def to_dot(graph: nx.DiGraph[str]) -> str:
    """Graphviz DOT text of the graph (deterministic)."""
    title = f"{graph.graph.get('program', '')} ({graph.graph.get('mode', '')})"
    out = ["digraph fxlog {", f"  graph [rankdir=LR, label={_dot_quote(title)}, labelloc=t, "
           'fontname="Helvetica"];', '  node [shape=box, fontname="Helvetica"];',
           '  edge [fontname="Helvetica", fontsize=10];']
    for node in sorted(graph.nodes):
        data = graph.nodes[node]
        attrs = [f"label={_dot_quote(chr(10).join(_lines(node, data)))}"]
        if data.get("kind") in ("workflow", "status"):
            attrs.append("shape=doubleoctagon")
        if _DOT_STATE[_state(data)]:
            attrs.append(_DOT_STATE[_state(data)])
        if data.get("cycle"):
            attrs.append("penwidth=2")
        out.append(f"  {_dot_quote(node)} [{', '.join(attrs)}];")
    for a, b in sorted(graph.edges):
        data = graph.edges[a, b]
        attrs = [f"label={_dot_quote(_edge_label(data))}"]
        if data.get("cycle"):
            attrs.append(f'color="{_RED}", penwidth=2')
        if not data.get("precise", True):
            attrs.append('style="dashed"')
        out.append(f"  {_dot_quote(a)} -> {_dot_quote(b)} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ Mermaid
def _mermaid_text(text: str) -> str:
    return text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;") \
        .replace(">", "#gt;")


_MERMAID_CLASS = {
    "ok": f"stroke:{_GREEN}", "failed": f"stroke:{_RED}",
    "pending": f"stroke:{_ORANGE},stroke-dasharray:4", "dead": f"stroke:{_GREY},color:{_GREY}"
    ",stroke-dasharray:4",
}


def to_mermaid(graph: nx.DiGraph[str]) -> str:
    """Mermaid ``flowchart`` text of the graph (deterministic)."""
    ids = {node: f"n{i}" for i, node in enumerate(sorted(graph.nodes))}
    out = ["flowchart LR"]
    classes: dict[str, list[str]] = {}
    for node, nid in ids.items():
        data = graph.nodes[node]
        label = "<br/>".join(_mermaid_text(line) for line in _lines(node, data))
        shape = ('{{"', '"}}') if data.get("kind") in ("workflow", "status") else ('["', '"]')
        out.append(f"  {nid}{shape[0]}{label}{shape[1]}")
        state = _state(data)
        if state in _MERMAID_CLASS:
            classes.setdefault(state, []).append(nid)
    for a, b in sorted(graph.edges):
        data = graph.edges[a, b]
        arrow = "-->" if data.get("precise", True) else "-.->"
        label = _mermaid_text(_edge_label(data))
        out.append(f"  {ids[a]} {arrow}" + (f'|"{label}"|' if label else "") + f" {ids[b]}")
    for state in sorted(classes):
        out.append(f"  classDef {state} {_MERMAID_CLASS[state]}")
        out.append(f"  class {','.join(classes[state])} {state}")
    return "\n".join(out)


# --------------------------------------------------------------------- JSON
def to_json(graph: nx.DiGraph[str]) -> str:
    """networkx node-link JSON (``nodes``, ``edges``), keys sorted."""
    data = nx.node_link_data(graph, edges="edges")
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_text(graph: nx.DiGraph[str], fmt: str) -> str:
    """``dot``, ``mermaid`` or ``json`` text."""
    if fmt == "dot":
        return to_dot(graph)
    if fmt == "mermaid":
        return to_mermaid(graph) + "\n"
    if fmt == "json":
        return to_json(graph)
    raise ValueError(f"unknown text format {fmt!r}; expected one of {', '.join(FORMATS)}")
