"""The scripted model: a list of turns → a ``ChatProvider`` that plays them back in order.

Tests (and offline demos) need a model whose every turn is known in advance.
Each element of the script is one turn: a :func:`tool_calls` value makes a
tool turn, an exception is raised as that turn's failure, a dict is answered
as JSON text and anything else as its string. Every request is kept, so a test
can check exactly what the model was shown.

>>> model = ScriptedModel([tool_calls([{"name": "lookup", "args": {"k": 1}}]), {"ok": True}])
>>> model.chat(ChatRequest("scripted", (), tools=())).tool_calls[0].name
'lookup'
>>> model.chat(ChatRequest("scripted", ())).text
'{"ok": true}'
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from fxlog.models.errors import ModelCallError
from fxlog.models.provider import ChatRequest, JsonObject, ModelReply, ToolCall
from fxlog.models.xml_protocol import render_invoke

__all__ = ["ScriptedModel", "ToolTurn", "load_script", "tool_calls"]


@dataclass(frozen=True)
class ToolTurn:
    """A scripted turn in which the model calls tools instead of answering.

    Each call is ``{"name": ..., "args": {...}}``; ``args`` may also be a string,
    sent as-is, to script malformed arguments.
    """

    calls: tuple[Mapping[str, object], ...]


def tool_calls(calls: Sequence[Mapping[str, object]]) -> ToolTurn:
    """Script one tool turn: the model calls these tools, in this order."""
    return ToolTurn(tuple(dict(c) for c in calls))


class ScriptedModel:
    """A ``ChatProvider`` that answers from a script and remembers what it was sent.

    It defaults to store mode "live" so a test is never answered from a store
    left behind by an earlier run; set the mode to "record" to build a store
    from a script (as ``examples/models/`` does).
    """

    name = "script"
    default_mode: str | None = "live"

    def __init__(self, turns: Sequence[object], *, model: str = "scripted",
                 supports_tools: bool = True) -> None:
        self.turns = list(turns)
        self.default_model: str | None = model
        self.supports_tools = supports_tools
        self.requests: list[ChatRequest] = []
        self._lock = threading.Lock()

    @property
    def received(self) -> list[list[JsonObject]]:
        """The messages of every request so far, one list per turn."""
        with self._lock:
            return [[dict(m) for m in r.messages] for r in self.requests]

    @property
    def remaining(self) -> int:
        """How many scripted turns have not been played yet."""
        with self._lock:
            return len(self.turns) - len(self.requests)

    def chat(self, request: ChatRequest) -> ModelReply:
        """Play the next turn; fail with type "script_exhausted" when none is left."""
        with self._lock:
            index = len(self.requests)
            self.requests.append(request)
        if index >= len(self.turns):
            raise ModelCallError(
                "script_exhausted",
                f"the scripted model was asked for turn {index + 1} "
                f"but its script has only {len(self.turns)} turn(s)",
            )
        turn = self.turns[index]
        if isinstance(turn, BaseException):
            raise turn
        if isinstance(turn, ToolTurn):
            return _tool_reply(turn, request, index + 1)
        text = turn if isinstance(turn, str) else json.dumps(turn, ensure_ascii=False)
        return ModelReply(text=text, model=request.model)


def _tool_reply(turn: ToolTurn, request: ChatRequest, number: int) -> ModelReply:
    calls = [
        (str(c.get("name", "")), c.get("args", {}), str(c.get("id") or f"script_{number}_{i}"))
        for i, c in enumerate(turn.calls, start=1)
    ]
    if request.tools is None:
        # No native tools offered: speak the XML protocol, as a text-only model would.
        blocks = [render_invoke(n, a if isinstance(a, dict) else {}) for n, a, _ in calls]
        return ModelReply(text="\n".join(blocks), model=request.model)
    return ModelReply(
        tool_calls=tuple(
            ToolCall(i, n, a if isinstance(a, str) else json.dumps(a, ensure_ascii=False))
            for n, a, i in calls
        ),
        model=request.model,
    )


def load_script(path: str | Path) -> ScriptedModel:
    """Read ``{"model": ..., "tools": true, "turns": [...]}`` from a JSON file.

    A turn is ``{"tool_calls": [...]}``, ``{"answer": <object or text>}`` or
    ``{"error": {"type": ..., "message": ...}}``.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelCallError("invalid_request", f"cannot read script {path}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("turns"), list):
        raise ModelCallError("invalid_request", f"script {path} needs a \"turns\" list")
    turns = [_turn(t, path) for t in data["turns"]]
    return ScriptedModel(turns, model=str(data.get("model") or "scripted"),
                         supports_tools=bool(data.get("tools", True)))


def _turn(entry: object, path: str | Path) -> object:
    if isinstance(entry, dict) and isinstance(entry.get("tool_calls"), list):
        return tool_calls(entry["tool_calls"])
    if isinstance(entry, dict) and "answer" in entry:
        return entry["answer"]
    if isinstance(entry, dict) and isinstance(entry.get("error"), dict):
        err = entry["error"]
        return ModelCallError(str(err.get("type", "unreachable")), str(err.get("message", "")))
    raise ModelCallError("invalid_request", f"script {path}: cannot read turn {entry!r}")
