"""Tool descriptions derived from signatures and docstrings, records and dicts."""

from __future__ import annotations

from typing import Any, Literal, Optional

import pytest

from fxlog.models import ModelCallError, Tool
from fxlog.models.tools import parse_docstring
from fxlog.models.toolset import ToolSet, wire_name


def search(
    query: str,
    limit: int = 10,
    ratio: float = 0.5,
    exact: bool = False,
    tags: list[str] | None = None,
    mode: Literal["fast", "slow"] = "fast",
    extra: dict[str, Any] | None = None,
    note: Optional[str] = None,  # noqa: UP045 (the old spelling must work too)
) -> str:
    """Search the catalogue for matching entries.

    Longer explanation that is not part of the summary.

    Args:
        query: Words to look for; continues
            on the next line.
        limit (int): At most this many.
        ratio: Fuzziness.
        exact: Only exact matches.
        tags: Keep entries with all these tags.
        mode: Speed/quality trade-off.
        extra: Anything else.
        note: Free text.

    Returns:
        The entries as text.
    """
    return query


def test_schema_from_signature_and_docstring():
    fn = Tool.from_function(search).to_dict()["function"]
    assert isinstance(fn, dict)
    assert fn["name"] == "search"
    assert fn["description"] == "Search the catalogue for matching entries."
    params = fn["parameters"]
    assert params["required"] == ["query"] and params["additionalProperties"] is False
    props = params["properties"]
    assert props["query"] == {"type": "string",
                              "description": "Words to look for; continues on the next line."}
    assert props["limit"] == {"type": "integer", "description": "At most this many."}
    assert props["ratio"]["type"] == "number" and props["exact"]["type"] == "boolean"
    assert props["tags"] == {"type": ["array", "null"], "items": {"type": "string"},
                             "description": "Keep entries with all these tags."}
    assert props["mode"]["enum"] == ["fast", "slow"] and props["mode"]["type"] == "string"
    assert props["extra"]["type"] == ["object", "null"]
    assert props["note"]["type"] == ["string", "null"]


def test_kwargs_open_the_schema_and_args_are_skipped():
    def loose(a: int, *rest: int, **more: Any) -> None:
        """Loose."""

    schema = Tool.from_function(loose).parameters_schema()
    assert list(schema["properties"]) == ["a"] and "additionalProperties" not in schema


def test_unsupported_annotation_is_an_error_before_any_call():
    class Custom:
        pass

    def odd(x: Custom) -> None:
        """Odd."""

    with pytest.raises(ModelCallError) as info:
        ToolSet.build({"odd": odd})
    assert info.value.type == "tool_definition" and "parameter x" in info.value.message


def test_tool_record_defaults_and_round_trip_through_dict():
    record = Tool("get_weather", "Weather for a city.",
                  {"city": {"type": "string"}, "unit": {"type": "string"}}, required=["city"])
    data = record.to_dict()
    assert data["type"] == "function"
    again = Tool.from_dict(data)
    assert again.to_dict() == data
    assert Tool("t", parameters={"a": {}, "b": {}}).required_names() == ["a", "b"]
    flat = Tool.from_dict({"name": "x", "parameters": {"type": "object", "properties": {}}})
    assert flat.name == "x" and flat.closed is False


def test_docstring_parser_keeps_summary_and_args():
    summary, args = parse_docstring("One line.\nTwo line.\n\nArgs:\n    a: first\n    *b: second\n")
    assert summary == "One line. Two line." and args == {"a": "first", "b": "second"}


@pytest.mark.parametrize(("name", "wire"), [
    ("_query", "_query"), ("my.tool", "my_tool"), ("a b/c", "a_b_c"), ("ok-1", "ok-1"),
])
def test_wire_names(name, wire):
    assert wire_name(name) == wire


def test_query_style_tool_is_read_only():
    def _query(query: str) -> tuple[dict[str, object], dict[str, object]]:
        """Ask the knowledge base."""
        return {"status": "true", "rows": []}, {}

    _query.read_only = True  # type: ignore[attr-defined]
    assert Tool.from_function(_query, "_query").read_only is True
