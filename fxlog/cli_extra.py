"""Typer commands → library: request graph, static analysis and what-if (on ``fxlog.cli.app``).

``fxlog graph`` lives here; ``fxlog check`` and ``fxlog replay --override`` call
:func:`check_analysis` and :func:`replay_what_if`. Running Graphviz for SVG
and PNG is the one side effect, kept at this edge.

>>> from typer.testing import CliRunner
>>> CliRunner().invoke(app, ["graph", "--help"]).exit_code
0
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from fxlog.cli import ProgramArg, ReceiptsArg, app, fail, load_kb
from fxlog.errors import Diagnostic, FxlogError, UsageError, render_all
from fxlog.reasoner import KnowledgeBase

__all__ = ["GraphFormat", "check_analysis", "graph", "graph_output", "replay_what_if"]

GRAPHVIZ_HINT = ("Graphviz's `dot` program is needed for --format svg/png: install it with "
                 "`apt-get install graphviz` (or `brew install graphviz`), or use --format dot "
                 "or mermaid")


class GraphFormat(StrEnum):
    dot = "dot"
    mermaid = "mermaid"
    json = "json"
    svg = "svg"
    png = "png"


def graph_output(kb: KnowledgeBase, fmt: str) -> bytes:
    """The graph of ``kb`` in ``fmt``; raises UsageError when svg/png lack Graphviz."""
    from fxlog.graph import build_graph
    from fxlog.graph_render import render_text, to_dot

    graph = build_graph(kb)
    if fmt in ("dot", "mermaid", "json"):
        return render_text(graph, fmt).encode("utf-8")
    dot = shutil.which("dot")
    if dot is None:
        raise UsageError(GRAPHVIZ_HINT)
    done = subprocess.run([dot, f"-T{fmt}"], input=to_dot(graph).encode("utf-8"),
                          capture_output=True, check=False, timeout=120)
    if done.returncode != 0:
        raise UsageError(f"Graphviz `dot -T{fmt}` failed: "
                         f"{done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout


@app.command()
def graph(
    program: ProgramArg,
    receipts: ReceiptsArg = None,
    fmt: Annotated[GraphFormat, typer.Option("--format", "-f", help="dot, mermaid, json "
                                             "(node-link), or svg/png via Graphviz.")
                   ] = GraphFormat.dot,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead "
                                                "of standard output.")] = None,
) -> None:
    """Draw which requests' receipts each request was derived from (static without receipts)."""
    try:
        kb = load_kb(program, receipts)
        data = graph_output(kb, fmt.value)
    except FxlogError as exc:
        fail(exc)
    if output is not None:
        output.write_bytes(data)
        return
    if fmt in (GraphFormat.png,):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    sys.stdout.write(data.decode("utf-8"))


def check_analysis(kb: KnowledgeBase, warnings: list[Diagnostic], adapters: list[str],
                   max_actions: int, fmt: str) -> list[Diagnostic]:
    """Run :func:`fxlog.analysis.analyze` for ``fxlog check``; exit 1 when it finds errors.

    Returns ``warnings`` plus the analysis findings when none of them is an error.
    """
    from fxlog.analysis import analyze
    from fxlog.tools.registry import ToolRegistry

    try:
        registry = None
        if adapters:
            registry = ToolRegistry()
            for spec in adapters:
                registry.load_adapter(spec)
        found = list(warnings) + analyze(kb, registry, max_actions)
    except FxlogError as exc:
        fail(exc)
    if not any(d.severity == "error" for d in found):
        return found
    if fmt == "json":
        typer.echo(json.dumps({"ok": False, "diagnostics": [d.as_json() for d in found]},
                              indent=2))
    else:
        typer.echo(render_all(found, kb.sources), err=True)
    raise typer.Exit(1)


def replay_what_if(program: Path, receipts: list[Path], overrides: list[str],
                   fmt: str) -> None:
    """``fxlog replay --override ...``: print what would change; nothing runs."""
    from fxlog.whatif import what_if

    try:
        result = what_if(program, receipts, overrides)
    except FxlogError as exc:
        fail(exc)
    diff = result.diff()
    if fmt == "json":
        typer.echo(json.dumps({"overrides": [o.text for o in result.overrides],
                               **diff.as_json()}, indent=2, ensure_ascii=False))
        return
    typer.echo("what if " + "; ".join(o.text for o in result.overrides) + ":")
    typer.echo(diff.text())
