"""Explanation → indented text tree (rich), as ``fxlog explain`` prints it.

>>> from fxlog.explain.prover import Node
>>> print(tree_text(Node("fact", "p(a)", "demo.fx:1")))
p(a)  fact demo.fx:1
"""

from __future__ import annotations

from io import StringIO
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.tree import Tree

from fxlog.explain import Explanation
from fxlog.explain.prover import Node

__all__ = ["explanation_text", "tree_text"]

_LABEL = {
    "rule": "by", "fact": "fact", "receipt": "receipt", "closure": "by axiom",
    "inherited": "inherited", "builtin": "builtin", "aggregate": "aggregate",
    "absent": "absent", "holds": "holds", "fails": "FAILS", "truncated": "…",
}


def _label(node: Node) -> str:
    parts = [f"[bold]{escape(node.text)}[/]", f"[dim]{_LABEL.get(node.kind, node.kind)}[/]"]
    if node.kind == "rule" and node.rule:
        parts.append(escape(node.rule))
    if node.source:
        parts.append(f"[cyan]{escape(node.source)}[/]")
    for key, value in node.detail.items():
        parts.append(f"[dim]{escape(key)}:[/] {escape(str(value))}")
    return "  ".join(parts)


def _tree(node: Node, into: Tree) -> None:
    for child in node.children:
        _tree(child, into.add(_label(child)))


def _render(tree: Tree) -> str:
    buffer = StringIO()
    Console(file=buffer, width=200, color_system=None, highlight=False).print(tree)
    return buffer.getvalue().rstrip("\n")


def tree_text(node: Node) -> str:
    root = Tree(_label(node))
    _tree(node, root)
    return _render(root)


def explanation_text(e: Explanation) -> str:
    lines = [f"{e.goal}  {e.truth}"]
    if e.proof is not None:
        lines.append(tree_text(e.proof))
    for node in e.why_not:
        lines.append(tree_text(node))
    for row in e.pending:
        lines.append(f"depends on pending {row['request']} ({row['tool']}): "
                     f"if it succeeds → {row['if_succeeded']}, if it fails → "
                     f"{row['if_failed']}, if it does not run → {row['if_not_run']}")
    if e.request is not None:
        r: dict[str, Any] = e.request
        def shown(value: object) -> str:
            return "-" if value is None else str(value)

        ran = ", ".join(f"#{x['seq']} {x['request']} (order {shown(x['order'])})"
                        for x in r["ran"])
        lines.append(f"request {r['request']}: tool#order {shown(r['order'])}, ran as "
                     f"#{shown(r['seq'])}")
        if ran:
            lines.append(f"  requests run, in order: {ran}")
        if r["still_pending"]:
            lines.append("  still pending: " + ", ".join(r["still_pending"]))
    return "\n".join(lines)
