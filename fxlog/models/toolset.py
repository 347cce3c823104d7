"""The tools one ``_llm`` call offers: name mapping → wire definitions → checked, run calls.

The program names tools as it likes (``_query``, ``lookup``); providers accept
only letters, digits, ``_`` and ``-``. This module sanitises the names once,
refuses a set where two names collide, validates every call the model makes
against the tool's schema, runs the valid ones, and renders results as the
text the model reads next. A call the model got wrong never reaches the
tool: its error becomes that call's result, so the model can fix it.

>>> ts = ToolSet.build({"echo": lambda text: ({"text": text}, {})})
>>> out = ts.run(ToolCall("c1", "echo", '{"text": "hi"}'), turn=1)
>>> out.feedback
'{"text": "hi"}'
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from fxlog.models.errors import ModelCallError
from fxlog.models.provider import JsonObject, ToolCall
from fxlog.models.schemas import Validator, schema_error
from fxlog.models.tools import Tool

__all__ = ["CallOutcome", "ModelHooks", "ToolSet", "ToolSpec", "render_result", "wire_name"]

ToolSpec = Callable[..., object] | Tool | Mapping[str, object]
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class ModelHooks:
    """Telemetry callbacks around every tool call the model makes.

    Both fire for every call, including those refused for an unknown name or
    invalid arguments (then ``result_or_error`` holds the error text fed back).
    """

    on_tool_call_start: Callable[[str, Mapping[str, object]], None] | None = None
    on_tool_call_end: Callable[[str, Mapping[str, object], str, int], None] | None = None


@dataclass(frozen=True)
class CallOutcome:
    """One finished call: the text fed back to the model and its evidence entry."""

    call: ToolCall
    tool: str
    feedback: str
    record: JsonObject


@dataclass(frozen=True)
class _Bound:
    name: str
    wire: str
    tool: Tool
    validator: Validator


def wire_name(name: str) -> str:
    """The provider-safe form of a tool name: other characters become ``_``."""
    return _UNSAFE.sub("_", name)[:64]


def render_result(value: object) -> str:
    """How a tool result reads for the model: a string verbatim, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


class ToolSet:
    """The tools of one call, keyed by wire name."""

    def __init__(self, bound: Mapping[str, _Bound]) -> None:
        self._bound = dict(bound)

    @classmethod
    def build(cls, tools: Mapping[str, ToolSpec] | None) -> ToolSet:
        """Normalise every entry and refuse names that collide once sanitised."""
        bound: dict[str, _Bound] = {}
        for name, spec in (tools or {}).items():
            tool = _as_tool(name, spec)
            wire = wire_name(name)
            if not wire:
                raise ModelCallError("tool_definition", "a tool needs a non-empty name")
            if wire in bound:
                raise ModelCallError(
                    "tool_name_collision",
                    f"tools {bound[wire].name!r} and {name!r} both become {wire!r} on the wire; "
                    "rename one of them",
                )
            schema = tool.parameters_schema()
            error = schema_error(schema)
            if error is not None:
                raise ModelCallError("tool_definition", f"tool {name!r}: bad schema: {error}")
            bound[wire] = _Bound(name, wire, tool, Validator(schema))
        return cls(bound)

    def __bool__(self) -> bool:
        return bool(self._bound)

    def definitions(self) -> tuple[JsonObject, ...]:
        """OpenAI function-tool JSON for every tool, under its wire name."""
        return tuple(b.tool.to_dict(b.wire) for b in self._bound.values())

    def run(self, call: ToolCall, turn: int, hooks: object = None) -> CallOutcome:
        """Check and run one call; a tool that raises fails the whole ``_llm`` call.

        ``hooks`` is a :class:`ModelHooks` or any object with the same attributes.
        """
        started = time.monotonic()
        bound = self._bound.get(call.name) or self._bound.get(wire_name(call.name))
        name = bound.name if bound else call.name
        args, parse_problem = _parse_arguments(call.arguments)
        _fire(hooks, "on_tool_call_start", name, args)
        problem = parse_problem or self._problem(bound, call.name, args)
        record: JsonObject = {
            "turn": turn,
            "tool": name,
            "arguments": call.arguments if parse_problem else _canonical(args),
            "initiator": "model",
            "read_only": bool(bound and bound.tool.read_only),
        }
        if problem is None and bound is not None:
            feedback = record["result"] = _execute(bound, args, record, started)
        else:
            feedback = record["error"] = f"error: {problem}"
        duration = record["duration_ms"] = int((time.monotonic() - started) * 1000)
        _fire(hooks, "on_tool_call_end", name, args, feedback, duration)
        return CallOutcome(call, name, feedback, record)

    def _problem(self, bound: _Bound | None, called: str,
                 args: Mapping[str, object]) -> str | None:
        if bound is None:
            return f"unknown tool {called!r}; available: {', '.join(self._bound) or 'none'}"
        found = bound.validator.problem(dict(args), top="arguments")
        if found is not None:
            return f"invalid arguments for {bound.name} {found}"
        if bound.tool.implementation is None:
            return f"tool {bound.name} has no implementation in this host"
        return None


def _fire(hooks: object, event: str, *args: object) -> None:
    callback = getattr(hooks, event, None)
    if callable(callback):
        callback(*args)


def _as_tool(name: str, spec: ToolSpec) -> Tool:
    if isinstance(spec, Tool):
        return spec
    if isinstance(spec, Mapping):
        return Tool.from_dict(spec)
    if callable(spec):
        return Tool.from_function(spec, name)
    raise ModelCallError("tool_definition", f"tool {name!r} is neither a callable, Tool nor dict")


def _parse_arguments(text: str) -> tuple[dict[str, object], str | None]:
    if not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return {}, f"arguments are not valid JSON ({exc.msg} at position {exc.pos})"
    if not isinstance(value, dict):
        return {}, "arguments must be a JSON object"
    return value, None


def _canonical(args: Mapping[str, object]) -> str:
    return json.dumps(dict(args), ensure_ascii=False, sort_keys=True, default=str)


def _execute(bound: _Bound, args: Mapping[str, object], record: JsonObject, t0: float) -> str:
    impl = bound.tool.implementation
    assert impl is not None  # checked by the caller
    try:
        value = impl(**args)
    except Exception as exc:
        record["error"] = f"{type(exc).__name__}: {exc}"
        record["duration_ms"] = int((time.monotonic() - t0) * 1000)
        err = ModelCallError(
            "tool_raised", f"tool {bound.name} raised {type(exc).__name__}: {exc}"
        )
        err.evidence["failed_call"] = record
        raise err from exc
    # Adapter convention: (output, evidence); only the output is the model's business.
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        value = value[0]
    return render_result(value)
