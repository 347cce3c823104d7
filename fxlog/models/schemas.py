"""JSON-Schema checks behind a typed face: schema → validator → first error in words.

jsonschema ships no type information, so this is the only module that
imports it; the rest of the package sees three small typed functions.

>>> problem({"type": "object", "required": ["a"]}, {})
"at the top level: 'a' is a required property"
>>> problem({"type": "integer"}, 3) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jsonschema import (  # type: ignore[import-untyped, unused-ignore]
    Draft202012Validator,
)
from jsonschema.exceptions import (  # type: ignore[import-untyped, unused-ignore]
    SchemaError,
    best_match,
)

__all__ = ["Validator", "problem", "schema_error"]


class Validator:
    """A compiled schema; compile once per tool, check every call against it."""

    def __init__(self, schema: Mapping[str, object]) -> None:
        self._impl: Any = Draft202012Validator(dict(schema))

    def problem(self, instance: object, top: str = "the top level") -> str | None:
        """Why ``instance`` fails (``"at path: message"``), or ``None`` when it passes."""
        error: Any = best_match(self._impl.iter_errors(instance))
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path) or top
        return f"at {where}: {error.message}"


def schema_error(schema: Mapping[str, object]) -> str | None:
    """Why ``schema`` is not a valid JSON Schema (draft 2020-12), or ``None``."""
    try:
        Draft202012Validator.check_schema(dict(schema))
    except SchemaError as exc:
        return str(exc.message)
    return None


def problem(schema: Mapping[str, object], instance: object) -> str | None:
    """One-shot check of ``instance`` against ``schema``."""
    return Validator(schema).problem(instance)
