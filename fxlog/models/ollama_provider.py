"""Ollama backend: ``ChatRequest`` → ``/api/chat`` via the official client → ``ModelReply``.

Ollama takes tool definitions in the OpenAI function format but differs in
the transcript: tool-call arguments are objects, not JSON text, and a tool
result names its tool instead of a call id. Both are translated here.

>>> _to_ollama({"role": "assistant", "content": "", "tool_calls": [
...     {"id": "c1", "function": {"name": "f", "arguments": '{"x": 1}'}}]})["tool_calls"]
[{'function': {'name': 'f', 'arguments': {'x': 1}}}]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import httpx
import ollama

from fxlog.models.errors import ModelCallError
from fxlog.models.provider import ChatRequest, JsonObject, ModelReply, ToolCall, classify_status

__all__ = ["OllamaProvider"]


class OllamaProvider:
    """Talks to one Ollama server (``OLLAMA_HOST``; ``OLLAMA_API_KEY`` becomes a bearer token)."""

    name = "ollama"
    default_model: str | None = None
    default_mode: str | None = None

    def __init__(self, host: str | None = None, api_key: str | None = None,
                 supports_tools: bool = True) -> None:
        self.host = host
        self._headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self.supports_tools = supports_tools

    def chat(self, request: ChatRequest) -> ModelReply:
        """One ``/api/chat`` round trip, errors mapped to typed failures."""
        kwargs: dict[str, Any] = {
            "model": request.model,
            "messages": [_to_ollama(m) for m in request.messages],
            "stream": False,
        }
        if request.tools:
            kwargs["tools"] = list(request.tools)
        options = {k: v for k, v in (("temperature", request.temperature),
                                     ("seed", request.seed)) if v is not None}
        if options:
            kwargs["options"] = options
        try:
            with ollama.Client(host=self.host, timeout=request.timeout_s,
                               headers=self._headers) as client:
                response = client.chat(**kwargs)
        except Exception as exc:
            raise _classify(exc, request.timeout_s) from exc
        return _from_ollama(response, len(request.messages))


def _to_ollama(message: Mapping[str, object]) -> JsonObject:
    role = message.get("role")
    out: JsonObject = {"role": role, "content": message.get("content") or ""}
    if role == "tool":
        out["tool_name"] = message.get("name")
    calls = message.get("tool_calls")
    if role == "assistant" and isinstance(calls, list) and calls:
        out["tool_calls"] = [
            {"function": {"name": c["function"]["name"],
                          "arguments": _as_object(c["function"]["arguments"])}}
            for c in calls
        ]
    return out


def _as_object(text: object) -> object:
    try:
        value = json.loads(str(text))
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _from_ollama(response: Any, position: int) -> ModelReply:
    message = response.message
    calls = tuple(
        ToolCall(
            id=f"call_{position}_{index}",
            name=str(call.function.name),
            arguments=json.dumps(dict(call.function.arguments or {}), ensure_ascii=False),
        )
        for index, call in enumerate(message.tool_calls or (), start=1)
    )
    return ModelReply(
        text=message.content or "",
        tool_calls=calls,
        model=response.model,
        prompt_tokens=response.prompt_eval_count,
        completion_tokens=response.eval_count,
    )


def _classify(exc: Exception, timeout_s: float) -> ModelCallError:
    if isinstance(exc, ollama.ResponseError):
        return classify_status(exc.status_code, str(exc.error), "ollama")
    if isinstance(exc, httpx.TimeoutException):
        return ModelCallError("timeout", f"ollama: no answer within {timeout_s:g} s")
    if isinstance(exc, (ConnectionError, httpx.TransportError)):
        kind = type(exc).__name__
        return ModelCallError("unreachable", f"ollama: cannot reach the server ({kind})")
    if isinstance(exc, ollama.RequestError):
        return ModelCallError("invalid_request", f"ollama: {exc.error}")
    if isinstance(exc, ValueError):  # JSON decoding and pydantic validation both land here
        return ModelCallError("bad_response", f"ollama: malformed response ({type(exc).__name__})")
    return ModelCallError("unreachable", f"ollama: {type(exc).__name__}: {exc}")
