"""Tool descriptions: Python function or plain dict → ``Tool`` → OpenAI function-tool JSON.

A model can only call what it has been described. The description comes from
one of three places, all normalised into a :class:`Tool` record: a ``Tool``
written by hand, a plain OpenAI-style dict, or a Python function whose
signature and Google-style docstring already say everything needed.

>>> def lookup(key: str, limit: int = 5) -> str:
...     '''Find a record by key.
...
...     Args:
...         key: The record key.
...         limit: At most this many matches.
...     '''
...     return key
>>> spec = Tool.from_function(lookup).to_dict()["function"]
>>> spec["description"], spec["parameters"]["required"]
('Find a record by key.', ['key'])
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from fxlog.models.errors import ModelCallError

__all__ = ["Tool", "annotation_schema", "parse_docstring"]

_SCALARS: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Returns|Return|Raises|Yields|Examples?|Notes?|Attributes):$"
)


@dataclass(frozen=True)
class Tool:
    """A tool as the model sees it, optionally with the code that runs it.

    Attributes:
        name: Name the model calls it by (sanitised later for the wire).
        description: What the tool does, for the model to decide when to call it.
        parameters: Parameter name → JSON-Schema property (``{"type": "string", ...}``).
        required: Names the model must always pass; ``None`` means all of them.
        implementation: The callable run for a call; without one a call is
            answered with an error the model can read.
        read_only: Marks tools without side effects (e.g. ``_query``); recorded per call.
        closed: Reject argument names not in ``parameters`` (true unless the
            function takes ``**kwargs`` or the source schema allowed extras).
    """

    name: str
    description: str = ""
    parameters: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    required: Sequence[str] | None = None
    implementation: Callable[..., object] | None = None
    read_only: bool = False
    closed: bool = True

    def required_names(self) -> list[str]:
        """The required parameter names, in declaration order."""
        if self.required is None:
            return list(self.parameters)
        return [n for n in self.parameters if n in self.required] + [
            n for n in self.required if n not in self.parameters
        ]

    def parameters_schema(self) -> dict[str, object]:
        """The JSON Schema of the arguments object; also what calls are validated against."""
        schema: dict[str, object] = {
            "type": "object",
            "properties": {k: dict(v) for k, v in self.parameters.items()},
            "required": self.required_names(),
        }
        if self.closed:
            schema["additionalProperties"] = False
        return schema

    def to_dict(self, name: str | None = None) -> dict[str, object]:
        """OpenAI function-tool JSON, optionally under another (wire) name."""
        function: dict[str, object] = {
            "name": name or self.name,
            "description": self.description,
            "parameters": self.parameters_schema(),
        }
        return {"type": "function", "function": function}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Tool:
        """Read an OpenAI-style dict (with or without the ``function`` wrapper)."""
        inner = data.get("function", data)
        if not isinstance(inner, Mapping) or not isinstance(inner.get("name"), str):
            raise ModelCallError("tool_definition", "a tool dict needs function.name")
        params = inner.get("parameters") or {}
        if not isinstance(params, Mapping):
            raise ModelCallError("tool_definition", f"tool {inner['name']}: bad parameters")
        props = params.get("properties") or {}
        required = params.get("required")
        return cls(
            name=str(inner["name"]),
            description=str(inner.get("description") or ""),
            parameters={str(k): dict(v) for k, v in dict(props).items()},
            required=[str(r) for r in required] if isinstance(required, list) else [],
            closed=params.get("additionalProperties") is False,
        )

    @classmethod
    def from_function(cls, fn: Callable[..., object], name: str | None = None) -> Tool:
        """Derive the description from ``fn``'s signature and Google-style docstring.

        Parameters with defaults are optional; ``*args`` is not offered;
        ``**kwargs`` lets the model pass extra names. An annotation that has
        no JSON counterpart is an error here, before any model sees the tool.
        """
        tool_name = name or getattr(fn, "__name__", "") or ""
        summary, arg_docs = parse_docstring(inspect.getdoc(fn) or "")
        hints = _type_hints(fn)
        params: dict[str, dict[str, object]] = {}
        required: list[str] = []
        closed = True
        for p in inspect.signature(fn).parameters.values():
            if p.kind is p.VAR_KEYWORD:
                closed = False
                continue
            if p.kind is p.VAR_POSITIONAL or p.kind is p.POSITIONAL_ONLY:
                continue
            prop = _param_schema(tool_name, p.name, hints.get(p.name, inspect.Parameter.empty))
            if p.name in arg_docs:
                prop["description"] = arg_docs[p.name]
            params[p.name] = prop
            if p.default is inspect.Parameter.empty:
                required.append(p.name)
        read_only = bool(getattr(fn, "read_only", False))
        return cls(tool_name, summary, params, required, fn, read_only, closed)


def parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its summary and ``Args:`` descriptions.

    Continuation lines (indented deeper than the entry) join their entry, so a
    long parameter description survives intact.
    """
    lines = doc.expandtabs().splitlines()
    summary_lines: list[str] = []
    for line in lines:
        if not line.strip() or _SECTION.match(line.strip()):
            break
        summary_lines.append(line.strip())
    args: dict[str, str] = {}
    section = ""
    current: str | None = None
    entry_indent = 0
    for line in lines:
        stripped = line.strip()
        indent = len(line) - len(stripped)
        header = _SECTION.match(stripped)
        if header:
            section, current = header.group(1), None
            continue
        if section not in ("Args", "Arguments", "Parameters") or not stripped:
            continue
        match = _ARG_LINE.match(stripped)
        if match and (current is None or indent <= entry_indent):
            current, entry_indent = match.group(1).lstrip("*"), indent
            args[current] = match.group(2).strip()
        elif current is not None:
            args[current] = f"{args[current]} {stripped}".strip()
    return " ".join(summary_lines), args


def annotation_schema(annotation: object) -> dict[str, object] | None:
    """JSON Schema for a Python annotation, or ``None`` when there is no counterpart."""
    if annotation is inspect.Parameter.empty or annotation is typing.Any:
        return {}
    if isinstance(annotation, type) and annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation in (list, tuple) or origin in (list, tuple, Sequence):
        items = annotation_schema(args[0]) if args else {}
        return None if items is None else {"type": "array", "items": items}
    if annotation is dict or origin in (dict, Mapping):
        return {"type": "object"}
    if origin is typing.Literal:
        return _literal_schema(args)
    if origin in (typing.Union, types.UnionType):
        return _optional_schema(args)
    return None


def _literal_schema(values: tuple[object, ...]) -> dict[str, object]:
    kinds = sorted({_SCALARS.get(type(v), "string") for v in values})
    schema: dict[str, object] = {"enum": list(values)}
    if len(kinds) == 1:
        schema["type"] = kinds[0]
    return schema


def _optional_schema(args: tuple[object, ...]) -> dict[str, object] | None:
    members = [a for a in args if a is not type(None)]
    if len(members) != 1:
        return None
    inner = annotation_schema(members[0])
    if inner is None:
        return None
    kind = inner.get("type")
    if isinstance(kind, str) and len(members) < len(args):
        return {**inner, "type": [kind, "null"]}
    return inner


def _param_schema(tool: str, param: str, annotation: object) -> dict[str, object]:
    schema = annotation_schema(annotation)
    if schema is None:
        raise ModelCallError(
            "tool_definition",
            f"tool {tool}: parameter {param} has type {annotation!r}, which has no JSON "
            "counterpart; use str, int, float, bool, list, dict, Literal or Optional",
        )
    return dict(schema)


def _type_hints(fn: Callable[..., object]) -> dict[str, object]:
    try:
        return dict(typing.get_type_hints(fn))
    except (NameError, TypeError):
        # Unresolvable forward references: fall back to the raw annotations.
        return dict(getattr(fn, "__annotations__", {}))
