"""Run one tool by name: the built-ins ``_query`` and ``_llm``, or a registered function.

:func:`execute` is the direct call: it returns ``(output, evidence)`` and raises
:class:`ToolError` on failure, writing no receipt. The episode host calls the
same function and turns a raised error into a failed receipt.

>>> from fxlog import Client
>>> with Client() as client:
...     client.load("world open. socrates:Human.")
...     output, evidence = execute("_query", {"query": "?- socrates:Human."}, client=client)
>>> output["status"]
'true'
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from typing import Any

from fxlog.errors import FxlogError, ProgramError, UsageError
from fxlog.tools.registry import ToolEntry, ToolRegistry
from fxlog.tools.values import to_row_value

__all__ = ["MAX_QUERY_ROWS", "ToolError", "execute", "run_query"]

#: A ``_query`` output keeps at most this many rows (the receipt limit); ``count`` says all.
MAX_QUERY_ROWS = 64


class ToolError(FxlogError):
    """A tool call failed; ``type`` and ``message`` become the receipt's ``error`` fields."""

    def __init__(self, type_: str, message: str, evidence: Mapping[str, object] | None = None):
        super().__init__(f"{type_}: {message}")
        self.type = type_
        self.evidence = dict(evidence or {})


def run_query(kb: Any, query: object) -> tuple[dict[str, object], dict[str, object]]:
    """``_query``: answer a ``?- goal.`` text on the knowledge base, read-only."""
    from fxlog.syntax.parser import parse_query_text

    if not isinstance(query, str) or not query.strip():
        raise ToolError("invalid_input", "_query needs a `query` input holding `?- goal.` text")
    started = time.perf_counter()
    try:
        goal = parse_query_text(query, "<_query>")
        answer = kb.answer(goal).answers[0]
    except ProgramError as exc:
        first = exc.diagnostics[0]
        raise ToolError("invalid_query", f"{first.message} (column {first.span.column})") \
            from exc
    output: dict[str, object] = {"status": answer.truth}
    if answer.variables:
        rows = []
        for binding in answer.bindings[:MAX_QUERY_ROWS]:
            values = binding.values
            rows.append({name: to_row_value(values[name]) for name in answer.variables})
        output["rows"] = rows
        output["count"] = len(answer.bindings)
        output["truncated"] = len(answer.bindings) > MAX_QUERY_ROWS
    evidence: dict[str, object] = {
        "query": query,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 3),
    }
    return output, evidence


def _as_pair(result: object, name: str) -> tuple[dict[str, object], dict[str, object]]:
    """Adapters return ``(output, evidence)``; a bare dict is accepted as output."""
    if isinstance(result, tuple) and len(result) == 2:
        output, evidence = result
    else:
        output, evidence = result, {}
    if not isinstance(output, dict):
        raise ToolError("invalid_output", f"tool `{name}` returned {type(output).__name__}, "
                        "expected a flat JSON object (dict)")
    if not isinstance(evidence, dict):
        raise ToolError("invalid_output", f"tool `{name}` returned evidence of type "
                        f"{type(evidence).__name__}, expected a dict")
    return output, evidence


def execute(name: str, fields: Mapping[str, object], *, client: Any = None,
            registry: ToolRegistry | None = None, kb: Any = None,
            tool_hooks: Any = None) -> tuple[dict[str, object], dict[str, object]]:
    """Run tool ``name`` with input ``fields``; raise :class:`ToolError` when it fails."""
    registry = registry or ToolRegistry()
    entry = registry.get(name)
    knowledge = kb if kb is not None else getattr(client, "kb", None)
    if name == "_query":
        if knowledge is None:
            raise UsageError("_query reads a knowledge base: pass client=Client() with a "
                             "program loaded")
        return run_query(knowledge, fields.get("query"))
    if name == "_llm":
        return _run_llm(fields, registry, knowledge, tool_hooks)
    return _run_function(entry, fields)


def _run_function(entry: ToolEntry, fields: Mapping[str, object]) -> tuple[dict[str, object],
                                                                           dict[str, object]]:
    function = entry.function
    if function is None:  # pragma: no cover - built-ins are handled above
        raise ToolError("unknown_tool", f"tool `{entry.name}` has no implementation")
    implementation = getattr(function, "implementation", None) if not callable(function) \
        else function
    if implementation is None:
        raise ToolError("unknown_tool", f"tool `{entry.name}` has no implementation")
    _check_arguments(entry.name, implementation, fields)
    try:
        result = implementation(**fields)
    except ToolError:
        raise
    except Exception as exc:
        raise ToolError("tool_error", f"{type(exc).__name__}: {exc}") from exc
    return _as_pair(result, entry.name)


def _check_arguments(name: str, function: Callable[..., Any],
                     fields: Mapping[str, object]) -> None:
    """Refuse inputs the function does not accept before calling it (not a tool error)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # builtins without a signature: let the call decide
        return
    try:
        signature.bind(**fields)
    except TypeError as exc:
        accepted = ", ".join(signature.parameters) or "no inputs"
        raise ToolError("invalid_input", f"{name}: {exc} (it accepts: {accepted})") from exc


def _llm_tools(fields: Mapping[str, object], registry: ToolRegistry,
               kb: Any) -> dict[str, Callable[..., Any]]:
    wanted = fields.get("tools")
    names = wanted if isinstance(wanted, list) else ([wanted] if wanted else [])
    tools: dict[str, Callable[..., Any]] = {}
    for name in names:
        name = str(name)
        entry = registry.get(name)
        if name == "_llm":
            raise ToolError("invalid_input", "_llm cannot be offered to a model as a tool")
        if name == "_query":
            if kb is None:
                raise ToolError("invalid_input", "_query needs a knowledge base")

            def query_tool(query: str) -> tuple[dict[str, object], dict[str, object]]:
                """Answer an fxlog goal such as `?- p(?X).` on the knowledge base (read-only).

                Args:
                    query: the goal, written `?- goal.`
                """
                return run_query(kb, query)

            query_tool.read_only = True  # type: ignore[attr-defined]
            tools[name] = query_tool
        else:
            assert entry.function is not None
            tools[name] = entry.function
    return tools


def _run_llm(fields: Mapping[str, object], registry: ToolRegistry, kb: Any,
             hooks: Any) -> tuple[dict[str, object], dict[str, object]]:
    from fxlog.models import ModelCallError, call_llm

    tools = _llm_tools(fields, registry, kb)
    request = {k: v for k, v in fields.items() if k != "tools"}
    try:
        output, evidence = call_llm(request, tools=tools or None, hooks=hooks)
    except ModelCallError as exc:
        raise ToolError(exc.type, exc.message, exc.evidence) from exc
    return dict(output), dict(evidence)
