"""The provider boundary: ``ChatRequest`` → ``ModelReply``, whatever the server.

Every backend (Ollama, an OpenAI-compatible server, the scripted test model)
speaks this one neutral shape, so the tool-use loop, the answer store and the
fingerprints never learn which wire protocol answered. Messages use the
OpenAI chat layout (roles ``system``/``user``/``assistant``/``tool``) because
it is the most widely understood; backends translate at their edge.

>>> reply = ModelReply(text='{"message": "hi"}')
>>> ModelReply.from_json(reply.to_json()) == reply
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from fxlog.models.errors import ModelCallError

__all__ = [
    "ChatProvider",
    "ChatRequest",
    "JsonObject",
    "ModelReply",
    "ToolCall",
    "classify_status",
    "with_retries",
]

JsonObject = dict[str, object]
T = TypeVar("T")


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model asked for, arguments kept as the JSON text it sent.

    Keeping the raw text (rather than a parsed dict) lets malformed arguments
    travel to the validator, which turns them into feedback for the model.
    """

    id: str
    name: str
    arguments: str

    def to_json(self) -> JsonObject:
        """Plain-JSON form for the answer store."""
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class ModelReply:
    """What one provider turn produced: answer text and/or tool calls, plus usage."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    model: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def to_json(self) -> JsonObject:
        """Plain-JSON form for the answer store (the inverse of :meth:`from_json`)."""
        return {
            "text": self.text,
            "tool_calls": [c.to_json() for c in self.tool_calls],
            "model": self.model,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> ModelReply:
        """Rebuild a reply read back from the answer store."""
        calls = data.get("tool_calls")
        tool_calls = tuple(
            ToolCall(str(c["id"]), str(c["name"]), str(c["arguments"]))
            for c in (calls if isinstance(calls, list) else [])
            if isinstance(c, dict)
        )
        return cls(
            text=str(data.get("text") or ""),
            tool_calls=tool_calls,
            model=_opt_str(data.get("model")),
            prompt_tokens=_opt_int(data.get("prompt_tokens")),
            completion_tokens=_opt_int(data.get("completion_tokens")),
        )


@dataclass(frozen=True)
class ChatRequest:
    """One provider turn: the whole transcript so far plus the offer of tools.

    ``tools`` is ``None`` when no tool is offered natively (none requested, or
    the XML protocol carries them inside the system message instead).
    """

    model: str
    messages: tuple[JsonObject, ...]
    tools: tuple[JsonObject, ...] | None = None
    temperature: float | None = None
    seed: int | None = None
    timeout_s: float = 60.0

    def identity(self) -> JsonObject:
        """The parts of the request that decide the answer (timeouts excluded)."""
        return {
            "model": self.model,
            "messages": list(self.messages),
            "tools": list(self.tools) if self.tools is not None else None,
            "options": {"temperature": self.temperature, "seed": self.seed},
        }


@runtime_checkable
class ChatProvider(Protocol):
    """A backend that answers one chat turn.

    Attributes:
        name: Short provider family ("ollama", "openai", "script"); part of every
            fingerprint, so answers of different backends never mix.
        supports_tools: Whether the backend accepts native tool definitions.
        default_model: Model used when neither the request nor the environment
            names one; ``None`` when the backend needs to be told.
        default_mode: Store mode used when none is configured; ``None`` = "auto".
    """

    name: str
    supports_tools: bool
    default_model: str | None
    default_mode: str | None

    def chat(self, request: ChatRequest) -> ModelReply:
        """Answer one turn or raise :class:`ModelCallError`."""
        ...


def classify_status(status: int, body: str, provider: str) -> ModelCallError:
    """Map an HTTP error status from a model server to a typed failure.

    A 400 that mentions tools is how Ollama (and several OpenAI-compatible
    servers) say "this model cannot call tools"; it gets its own type so a
    fallback group can route around the model.
    """
    snippet = " ".join(body.split())[:300]
    lowered = snippet.lower()
    if status == 400 and "tool" in lowered and ("support" in lowered or "unsupported" in lowered):
        return ModelCallError(
            "tools_unsupported",
            f"{provider}: the model does not support native tool calls ({snippet}); "
            'try tool_protocol -> "xml"',
        )
    if status in (401, 403, 404):
        return ModelCallError("refused", f"{provider}: HTTP {status}: {snippet}")
    retry = status == 429 or status >= 500
    return ModelCallError("http_error", f"{provider}: HTTP {status}: {snippet}", retryable=retry)


def with_retries(call: Callable[[], T], retries: int, *, delay_s: float = 0.1) -> T:
    """Run ``call``, repeating it up to ``retries`` times on retryable failures.

    The backoff doubles from ``delay_s`` and is capped at one second, so a
    misconfigured server costs seconds, not minutes.
    """
    attempt = 0
    while True:
        try:
            return call()
        except ModelCallError as err:
            if not err.retryable or attempt >= retries:
                raise
        time.sleep(min(delay_s * (2**attempt), 1.0))
        attempt += 1


def _opt_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) else None
