"""Answer text → flat output object, and the schema that may constrain it.

Receipts hold flat facts, so whatever the model says must become a flat JSON
object: a JSON object answer is used as is (nested values kept as JSON text,
a ``rows`` list of flat objects kept as rows), anything else becomes
``{"text": answer}``. A schema, when the request names one, is checked here;
the loop owns the one correction turn.

>>> to_output('```json\\n{"message": "hi", "meta": {"n": 1}}\\n```')
{'message': 'hi', 'meta': '{"n": 1}'}
>>> to_output("just words")
{'text': 'just words'}
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping

from fxlog.models.errors import ModelCallError
from fxlog.models.provider import JsonObject
from fxlog.models.schemas import problem, schema_error

__all__ = [
    "correction_prompt",
    "decode_answer",
    "json_instruction",
    "register_schema",
    "resolve_schema",
    "schema_problem",
    "to_output",
]

_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n?(?P<body>.*?)\n?\s*```\s*$", re.DOTALL)
_SCALAR = (str, int, float, bool, type(None))
_REGISTRY: dict[str, JsonObject] = {}
_REGISTRY_LOCK = threading.Lock()
_NOT_JSON = object()


def register_schema(name: str, schema: Mapping[str, object]) -> None:
    """Make ``schema`` available to programs as ``schema -> "name"``.

    Programs cannot pass code, but an operator can name schemas at startup; the
    schema itself is checked now so a typo fails at registration, not mid-run.
    """
    error = schema_error(schema)
    if error is not None:
        raise ModelCallError("invalid_request", f"schema {name!r} is invalid: {error}")
    with _REGISTRY_LOCK:
        _REGISTRY[name] = dict(schema)


def resolve_schema(value: object) -> JsonObject | None:
    """The schema a request's ``schema`` field means: a registered name or JSON text."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ModelCallError("invalid_request", "schema must be JSON text or a registered name")
    with _REGISTRY_LOCK:
        if value in _REGISTRY:
            return dict(_REGISTRY[value])
    try:
        schema = json.loads(value)
    except json.JSONDecodeError as exc:
        raise ModelCallError(
            "invalid_request", f"schema {value[:60]!r} is neither registered nor JSON text"
        ) from exc
    if not isinstance(schema, dict):
        raise ModelCallError("invalid_request", "schema must be a JSON object")
    error = schema_error(schema)
    if error is not None:
        raise ModelCallError("invalid_request", f"schema is invalid: {error}")
    return schema


def json_instruction(schema: Mapping[str, object] | None) -> str:
    """The line appended to every prompt so the answer can become receipt facts."""
    if schema is None:
        return "Answer with one JSON object and nothing else."
    text = json.dumps(dict(schema), ensure_ascii=False, sort_keys=True)
    return (
        "Answer with one JSON object and nothing else. "
        f"It must validate against this JSON Schema: {text}"
    )


def correction_prompt(problem: str) -> str:
    """The single correction turn's message: what was wrong, and what to do."""
    return (
        f"Your answer did not validate: {problem}. "
        "Reply again with one corrected JSON object and nothing else."
    )


def decode_answer(text: str) -> object:
    """Parse the answer as JSON (tolerating a fenced block); the sentinel if it is not JSON."""
    fenced = _FENCE.match(text)
    body = fenced.group("body") if fenced else text
    try:
        return json.loads(body)
    except (json.JSONDecodeError, RecursionError):
        return _NOT_JSON


def schema_problem(text: str, schema: Mapping[str, object]) -> str | None:
    """Why ``text`` fails ``schema`` (``None`` when it passes), in words for the model."""
    value = decode_answer(text)
    if value is _NOT_JSON:
        return "the answer is not JSON"
    return problem(schema, value)


def to_output(text: str) -> JsonObject:
    """Flatten an answer into the receipt's output object."""
    value = decode_answer(text)
    if isinstance(value, dict):
        return {str(k): _flat_value(str(k), v) for k, v in value.items()}
    if isinstance(value, list) and value and all(_is_flat_object(v) for v in value):
        return {"rows": value}
    return {"text": text}


def _flat_value(key: str, value: object) -> object:
    if isinstance(value, _SCALAR):
        return value
    if key == "rows" and isinstance(value, list):
        if all(isinstance(r, dict) for r in value):
            return [{str(k): _scalar(v) for k, v in r.items()} for r in value]
    return json.dumps(value, ensure_ascii=False)


def _scalar(value: object) -> object:
    return value if isinstance(value, _SCALAR) else json.dumps(value, ensure_ascii=False)


def _is_flat_object(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(v, _SCALAR) for v in value.values())
