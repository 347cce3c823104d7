"""The built-in ``_llm`` tool: request fields → model call (with tools) → (output, evidence).

The host calls :func:`call_llm` for every ``_llm`` request a program derives
(and ``fxlog.tools.execute("_llm", ...)`` calls it directly). One call may take
several provider turns: tool calls the model makes are checked and run here,
answers are parsed into flat output, and every live turn can be stored and
replayed offline. Failures raise :class:`ModelCallError`, which the host turns
into a failed receipt.

>>> from fxlog.testing import ScriptedModel
>>> model = ScriptedModel([{"message": "hello"}])
>>> output, evidence = call_llm({"prompt": "Say hello."}, provider=model, env={})
>>> output["message"], evidence["model"], evidence["source"]
('hello', 'scripted', 'live')
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from fxlog.models.answers import register_schema, to_output
from fxlog.models.config import Settings, load_settings
from fxlog.models.errors import ModelCallError
from fxlog.models.evidence import build_evidence
from fxlog.models.exchange import Exchange
from fxlog.models.loop import Dialogue
from fxlog.models.provider import ChatProvider, ChatRequest, ModelReply, ToolCall
from fxlog.models.redact import Redactor
from fxlog.models.registry import Route, resolve_route, use_provider
from fxlog.models.store import AnswerStore, fingerprint
from fxlog.models.tools import Tool
from fxlog.models.toolset import ModelHooks, ToolSet, ToolSpec

__all__ = [
    "AnswerStore",
    "ChatProvider",
    "ChatRequest",
    "ModelCallError",
    "ModelHooks",
    "ModelReply",
    "Tool",
    "ToolCall",
    "ToolSpec",
    "call_llm",
    "fingerprint",
    "register_schema",
    "use_provider",
]


def call_llm(
    fields: Mapping[str, object],
    *,
    tools: Mapping[str, ToolSpec] | None = None,
    env: Mapping[str, str] | None = None,
    hooks: ModelHooks | None = None,
    provider: ChatProvider | None = None,
) -> tuple[dict[str, object], dict[str, object]]:
    """Run one ``_llm`` request and return ``(output, evidence)``.

    Args:
        fields: The request's input fields (``prompt`` required; ``system``,
            ``model``, ``provider``, ``schema``, ``max_turns``, ``tool_protocol``,
            ``temperature``, ``seed``, ``timeout_s``, ``mode`` optional).
        tools: Tool name → callable (adapter convention), ``Tool`` or OpenAI dict.
        env: Configuration variables; ``os.environ`` when omitted.
        hooks: Callbacks fired around each tool call the model makes.
        provider: A backend object to use instead of ``FXLOG_MODEL_PROVIDER``
            (tests pass a ``ScriptedModel`` here).

    Raises:
        ModelCallError: On any failure; its evidence is scrubbed like the output.
    """
    started = time.monotonic()
    env = os.environ if env is None else env
    redactor = Redactor.from_env(env)
    settings: Settings | None = None
    route: Route | None = None
    dialogue: Dialogue | None = None
    try:
        settings = load_settings(fields, env)
        toolset = ToolSet.build(tools)
        route = resolve_route(settings, env, has_tools=bool(toolset), provider=provider)
        store = AnswerStore(settings.store_path)
        dialogue = Dialogue(settings, toolset, Exchange(route, store, settings.retries, redactor),
                            hooks)
        answer = dialogue.run()
    except ModelCallError as err:
        evidence = {**build_evidence(started, settings, route, dialogue, failed=True),
                    **err.evidence}
        err.rewrite(redactor.text(err.message), redactor.mapping(evidence))
        raise
    output = redactor.mapping(to_output(answer))
    evidence = redactor.mapping(build_evidence(started, settings, route, dialogue, failed=False))
    return output, evidence
