"""OpenAI-compatible backend: ``ChatRequest`` → ``/v1/chat/completions`` → ``ModelReply``.

Works with any server speaking the chat-completions protocol (OpenAI, vLLM,
llama.cpp, LM Studio, ...). The client library's own retries are switched
off: retries are bounded in one place for every backend.

>>> _messages(ChatRequest("m", ({"role": "tool", "tool_call_id": "c1", "name": "f",
...                              "content": "42"},)))
[{'role': 'tool', 'tool_call_id': 'c1', 'content': '42'}]
"""

from __future__ import annotations

from typing import Any

import openai

from fxlog.models.errors import ModelCallError
from fxlog.models.provider import ChatRequest, ModelReply, ToolCall, classify_status

__all__ = ["OpenAIProvider"]

#: Local servers usually ignore the key, but the client library insists on one.
_PLACEHOLDER_KEY = "not-needed"


class OpenAIProvider:
    """Talks to one OpenAI-compatible server (``FXLOG_OPENAI_BASE_URL``/``_API_KEY``)."""

    name = "openai"
    default_model: str | None = None
    default_mode: str | None = None

    def __init__(self, base_url: str | None = None, api_key: str | None = None,
                 supports_tools: bool = True) -> None:
        self.base_url = base_url
        self._api_key = api_key or _PLACEHOLDER_KEY
        self.supports_tools = supports_tools

    def chat(self, request: ChatRequest) -> ModelReply:
        """One chat-completions round trip, errors mapped to typed failures."""
        kwargs: dict[str, Any] = {"model": request.model, "messages": _messages(request)}
        if request.tools:
            kwargs["tools"] = list(request.tools)
        if request.temperature is not None:
            kwargs["temperature"] = request.temperature
        if request.seed is not None:
            kwargs["seed"] = request.seed
        try:
            with openai.OpenAI(api_key=self._api_key, base_url=self.base_url,
                               timeout=request.timeout_s, max_retries=0) as client:
                completion = client.chat.completions.create(**kwargs)
        except Exception as exc:
            raise _classify(exc, request.timeout_s) from exc
        return _reply(completion)


def _messages(request: ChatRequest) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for message in request.messages:
        item = dict(message)
        if item.get("role") == "tool":
            item.pop("name", None)
        elif item.get("tool_calls") and not item.get("content"):
            item["content"] = None
        out.append(item)
    return out


def _reply(completion: Any) -> ModelReply:
    if not getattr(completion, "choices", None):
        raise ModelCallError("bad_response", "openai: the response has no choices")
    message = completion.choices[0].message
    if getattr(message, "refusal", None):
        raise ModelCallError("refused", f"openai: the model refused: {message.refusal}")
    calls = tuple(
        ToolCall(id=str(c.id), name=str(c.function.name), arguments=c.function.arguments or "")
        for c in (message.tool_calls or ())
        if getattr(c, "function", None) is not None
    )
    usage = getattr(completion, "usage", None)
    return ModelReply(
        text=message.content or "",
        tool_calls=calls,
        model=getattr(completion, "model", None),
        prompt_tokens=getattr(usage, "prompt_tokens", None),
        completion_tokens=getattr(usage, "completion_tokens", None),
    )


def _classify(exc: Exception, timeout_s: float) -> ModelCallError:
    if isinstance(exc, ModelCallError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return ModelCallError("timeout", f"openai: no answer within {timeout_s:g} s")
    if isinstance(exc, openai.APIConnectionError):
        kind = type(exc).__name__
        return ModelCallError("unreachable", f"openai: cannot reach the server ({kind})")
    if isinstance(exc, openai.APIStatusError):
        return classify_status(exc.status_code, _body_text(exc), "openai")
    if isinstance(exc, (openai.APIResponseValidationError, ValueError)):
        return ModelCallError("bad_response", f"openai: malformed response ({type(exc).__name__})")
    return ModelCallError("unreachable", f"openai: {type(exc).__name__}: {exc}")


def _body_text(exc: Any) -> str:
    try:
        return str(exc.response.text)
    except Exception:  # a streamed or already-closed body: the message will do
        return str(exc.message)
