"""Tool names → functions: the built-ins and what the operator registered.

A program can only *name* a tool; the operator decides at startup which
Python code stands behind each name (``--adapter``). Loading an adapter is the
single place where fxlog imports code it was not shipped with.

>>> reg = ToolRegistry()
>>> sorted(reg.names())
['_llm', '_query']
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fxlog.errors import UsageError

__all__ = ["BUILTINS", "ToolEntry", "ToolFunction", "ToolRegistry"]

ToolFunction = Callable[..., Any]
BUILTINS = ("_query", "_llm")


@dataclass(frozen=True)
class ToolEntry:
    """A registered tool: its name, the callable, and where it came from."""

    name: str
    function: ToolFunction | None
    source: str
    builtin: bool = False


class ToolRegistry:
    """Which tools this host may run."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolEntry] = {
            name: ToolEntry(name, None, "built-in", builtin=True) for name in BUILTINS
        }

    def names(self) -> Iterable[str]:
        return self._tools.keys()

    def register(self, name: str, function: ToolFunction, source: str = "python") -> None:
        """Register one tool; built-in names and duplicates are refused."""
        if not isinstance(name, str) or not name:
            raise UsageError(f"{source}: tool names must be non-empty strings, got {name!r}")
        if name.startswith("_"):
            raise UsageError(f"{source}: `{name}`: names starting with `_` are reserved for "
                             "built-in tools")
        if name in self._tools:
            raise UsageError(f"{source}: tool `{name}` is already registered by "
                             f"{self._tools[name].source}")
        if not callable(function) and not _is_tool_record(function):
            raise UsageError(f"{source}: TOOLS[{name!r}] is not callable")
        self._tools[name] = ToolEntry(name, function, source)

    def register_all(self, tools: Mapping[str, ToolFunction], source: str) -> None:
        for name, function in tools.items():
            self.register(name, function, source)

    def load_adapter(self, spec: str) -> None:
        """Load ``TOOLS`` from a module name (``fxlog.adapters.sqlite``) or a ``.py`` path."""
        module = _import_adapter(spec)
        tools = getattr(module, "TOOLS", None)
        if not isinstance(tools, Mapping):
            raise UsageError(f"adapter {spec}: it must define TOOLS = {{name: function}}")
        self.register_all(tools, f"adapter {spec}")

    def get(self, name: str) -> ToolEntry:
        entry = self._tools.get(name)
        if entry is None:
            raise UsageError(unknown_tool_message(name, self._tools))
        return entry

    def __contains__(self, name: object) -> bool:
        return name in self._tools


def unknown_tool_message(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean `{close[0]}`?" if close else ""
    return (f"tool `{name}` is not registered{hint} (register application tools with "
            "--adapter MODULE_OR_PATH)")


def _is_tool_record(value: object) -> bool:
    return callable(getattr(value, "to_dict", None))


def _import_adapter(spec: str) -> Any:
    path = Path(spec)
    if spec.endswith(".py") or path.exists():
        if not path.is_file():
            raise UsageError(f"adapter {spec}: no such file")
        name = "fxlog_adapter_" + "".join(c if c.isalnum() else "_" for c in path.stem)
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise UsageError(f"adapter {spec}: cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[name]
            raise UsageError(f"adapter {spec}: importing it failed: "
                             f"{type(exc).__name__}: {exc}") from exc
        return module
    try:
        return importlib.import_module(spec)
    except ImportError as exc:
        raise UsageError(f"adapter {spec}: no such module or file ({exc})") from exc
    except Exception as exc:
        raise UsageError(f"adapter {spec}: importing it failed: "
                         f"{type(exc).__name__}: {exc}") from exc
