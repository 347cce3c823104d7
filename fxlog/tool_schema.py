"""Tool functions → ToolSchema, and receipt reads checked against it (``fxlog check --adapter``).

A tool's inputs are its keyword parameters; its outputs are the keys of the
``TypedDict`` its return annotation names (directly, or as the first element
of ``tuple[Output, Evidence]``). An ``input("k")`` the function does not take,
or a ``result("k")`` / ``row(N, "k")`` no tool the read may refer to returns,
is reported at the literal with a "did you mean" hint. A tool whose
annotation says less (``dict[str, Any]``) is not checked.

>>> from typing import TypedDict
>>> class Out(TypedDict):
...     status: str
>>> def probe(host: str, port: int = 80) -> tuple[Out, dict[str, object]]: ...
>>> s = schema_of(probe)
>>> sorted(s.inputs or ()), sorted(s.results or ())
(['host', 'port'], ['status'])
"""

from __future__ import annotations

import difflib
import inspect
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fxlog.errors import Diagnostic, Span
from fxlog.reads import Declarations, ReceiptRead
from fxlog.reasoner import KnowledgeBase
from fxlog.syntax import ast
from fxlog.syntax.printer import term_text
from fxlog.tools.registry import ToolRegistry
from fxlog.translators.flatten import method_key

__all__ = ["BUILTIN_SCHEMAS", "ToolSchema", "schema_diagnostics", "schema_of"]


@dataclass(frozen=True)
class ToolSchema:
    """What a tool accepts and returns; None where its code does not say."""

    inputs: frozenset[str] | None
    required: frozenset[str]
    results: frozenset[str] | None
    rows: frozenset[str] | None = None


#: The built-in tools' documented shapes (docs/tools.md).
BUILTIN_SCHEMAS = {
    "_query": ToolSchema(frozenset({"query"}), frozenset({"query"}),
                         frozenset({"status", "count", "truncated"})),
}
ERROR_KEYS = frozenset({"type", "message"})


def schema_of(function: Callable[..., Any]) -> ToolSchema:
    """Inputs from the signature, outputs from the return annotation."""
    try:
        params = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return ToolSchema(None, frozenset(), None)
    named = [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    takes_any = any(p.kind == p.VAR_KEYWORD for p in params)
    inputs = None if takes_any else frozenset(p.name for p in named)
    required = frozenset(p.name for p in named if p.default is p.empty)
    try:
        returned = typing.get_type_hints(function).get("return")
    except Exception:  # noqa: BLE001 - an unresolvable annotation just means "unknown"
        returned = None
    output = _output_type(returned)
    if output is None:
        return ToolSchema(inputs, required, None)
    keys = frozenset(output.__required_keys__ | output.__optional_keys__)
    return ToolSchema(inputs, required, keys - {"rows"}, _row_keys(output) if "rows" in keys
                      else None)


def _output_type(hint: Any) -> Any:
    if hint is None:
        return None
    if typing.is_typeddict(hint):
        return hint
    if typing.get_origin(hint) is tuple and typing.get_args(hint):
        return _output_type(typing.get_args(hint)[0])
    return None


def _row_keys(output: Any) -> frozenset[str] | None:
    try:
        rows = typing.get_type_hints(output).get("rows")
    except Exception:  # noqa: BLE001
        return None
    args = typing.get_args(rows)
    if typing.get_origin(rows) is list and args and typing.is_typeddict(args[0]):
        return frozenset(args[0].__required_keys__ | args[0].__optional_keys__)
    return None


def _schema(registry: ToolRegistry, tool: str) -> ToolSchema | None:
    if tool in BUILTIN_SCHEMAS:
        return BUILTIN_SCHEMAS[tool]
    if tool not in registry:
        return None
    function = registry.get(tool).function
    implementation = function if callable(function) else getattr(function, "implementation",
                                                                   None)
    return schema_of(implementation) if callable(implementation) else None


def _hint(word: str, known: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, sorted(known), n=1)
    return f"did you mean `{close[0]}`?" if close else None


def _tools_say(tools: list[str], kind: str) -> str:
    names = ", ".join(f"`{t}`" for t in tools)
    verb = "write" if kind == "error" else "return"
    return f"{names} {verb}{'s' if len(tools) == 1 else ''}"


def _listing(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "nothing"


# ------------------------------------------------------------------ diagnostics
def schema_diagnostics(kb: KnowledgeBase, decls: Declarations,
                       registry: ToolRegistry) -> list[Diagnostic]:
    """Unknown tools, inputs a tool does not take, receipt keys it never writes."""
    statements = [s for p in kb.programs for s in p.statements if isinstance(s, ast.External)]
    out: list[Diagnostic] = []
    for decl, stmt in zip(decls.externals, statements, strict=False):
        if decl.tool not in registry:
            out.append(Diagnostic("W-TOOL-UNKNOWN", "warning", f"tool `{decl.tool}` is not "
                                  "registered by any --adapter", stmt.span,
                                  _hint(decl.tool, registry.names())))
            continue
        schema = _schema(registry, decl.tool)
        if schema is not None:
            out.extend(_input_checks(decl.tool, schema, stmt))
    for rule_index in range(len(decls.rules)):
        for read in decls.reads(rule_index):
            out.extend(_read_check(decls, registry, read))
    return out


def _input_checks(tool: str, schema: ToolSchema, stmt: ast.External) -> list[Diagnostic]:
    out = []
    given: set[str] = set()
    for spec in stmt.fields:
        key = method_key(spec.method)
        if key is None or key[0].startswith("tool#"):
            continue
        given.add(key[0])
        if schema.inputs is not None and key[0] not in schema.inputs:
            span = getattr(spec.method, "span", spec.span)
            out.append(Diagnostic("W-INPUT-UNKNOWN", "warning", f"tool `{tool}` takes no input "
                                  f"`{key[0]}` (it takes: {_listing(schema.inputs)})",
                                  span if span.line else spec.span,
                                  _hint(key[0], schema.inputs)))
    missing = sorted(schema.required - given)
    if missing:
        out.append(Diagnostic("W-INPUT-MISSING", "warning", f"tool `{tool}` needs input "
                              f"{', '.join(f'`{m}`' for m in missing)}, which this request "
                              "does not give", stmt.span, "add `name -> value` to the fields"))
    return out


def _read_check(decls: Declarations, registry: ToolRegistry,
                read: ReceiptRead) -> list[Diagnostic]:
    name = read.lit.atom.pred.name
    args = read.lit.atom.args
    if name == "result" and read.lit.atom.pred.args == 1:
        key, kind = args[1], "results"
    elif name == "row" and read.lit.atom.pred.args == 2:
        key, kind = args[2], "rows"
    elif name == "error" and read.lit.atom.pred.args == 1:
        key, kind = args[1], "error"
    else:
        return []
    if not isinstance(key, ast.Str) or not read.targets:
        return []
    known: set[str] = set()
    tools = sorted({decls.externals[i].tool for i in read.targets})
    for tool in tools:
        if kind == "error":
            found: frozenset[str] | None = ERROR_KEYS
        else:
            schema = _schema(registry, tool)
            found = None if schema is None else getattr(schema, kind)
        if found is None:
            return []  # some tool it may read does not declare its output: cannot tell
        known |= found
    if key.value in known:
        return []
    what = {"results": "result", "rows": "row field", "error": "error field"}[kind]
    code = "W-RESULT-UNKNOWN" if kind != "error" else "W-ERROR-UNKNOWN"
    span: Span = key.span if key.span.line else decls.rules[read.rule].span
    return [Diagnostic(code, "warning", f"no receipt this may read has a {what} "
                       f"{term_text(key)}: {_tools_say(tools, kind)} {_listing(known)}",
                       span, _hint(key.value, known))]
