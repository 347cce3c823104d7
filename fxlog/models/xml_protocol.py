"""Tool calls for models without native support: definitions → prompt text, answer text → calls.

Some models (or servers) cannot take a ``tools`` parameter. For them the tool
definitions go into the system message as an instruction block, the model
writes ``<invoke>`` blocks in its answer, and results return in a user message
as ``<tool_result>`` blocks. Everything else in the loop stays the same.

>>> text = render_invoke("lookup", {"key": "a"})
>>> calls, rest = parse_invocations("Let me check. " + text)
>>> (calls[0].name, json.loads(calls[0].arguments), rest)
('lookup', {'key': 'a'}, 'Let me check.')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from fxlog.models.provider import JsonObject, ToolCall

__all__ = ["instruction_block", "parse_invocations", "render_invoke", "render_results"]

_INVOKE = re.compile(
    r"<invoke>\s*<tool_name>(?P<name>.*?)</tool_name>\s*"
    r"(?:<parameters>(?P<params>.*?)</parameters>\s*)?</invoke>",
    re.DOTALL,
)


def instruction_block(definitions: Sequence[JsonObject]) -> str:
    """The system-message block that teaches the model the invoke syntax and its tools."""
    described = json.dumps(list(definitions), indent=2, ensure_ascii=False)
    return (
        "You can call tools. To call one, write a block exactly like this and nothing "
        "else on those lines:\n"
        "<invoke>\n  <tool_name>NAME</tool_name>\n"
        '  <parameters>{"argument": "value"}</parameters>\n</invoke>\n'
        "The parameters are one JSON object. You may write several blocks in one reply. "
        "Results come back as <tool_result> blocks in the next message. When you need no "
        "more tools, reply with your answer and no <invoke> block.\n"
        f"Available tools (OpenAI function format):\n{described}"
    )


def parse_invocations(text: str, turn: int = 1) -> tuple[list[ToolCall], str]:
    """Pull every ``<invoke>`` block out of an answer; return the calls and the rest."""
    calls = [
        ToolCall(
            id=f"xml_{turn}_{index}",
            name=match.group("name").strip(),
            arguments=(match.group("params") or "").strip(),
        )
        for index, match in enumerate(_INVOKE.finditer(text), start=1)
    ]
    return calls, _INVOKE.sub("", text).strip()


def render_invoke(name: str, arguments: Mapping[str, object]) -> str:
    """Write one invoke block as a model would (used by the scripted model and tests).

    ``<`` inside the JSON is written as ``\\u003c`` so no argument value can
    close the block early.
    """
    params = json.dumps(dict(arguments), ensure_ascii=False).replace("<", "\\u003c")
    return (
        f"<invoke>\n  <tool_name>{name}</tool_name>\n"
        f"  <parameters>{params}</parameters>\n</invoke>"
    )


def render_results(results: Sequence[tuple[str, str]]) -> str:
    """One user message carrying the results of every call of a turn, in call order."""
    return "\n".join(
        f"<tool_result>\n  <tool_name>{name}</tool_name>\n  <result>{text}</result>\n</tool_result>"
        for name, text in results
    )
