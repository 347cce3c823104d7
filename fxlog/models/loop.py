"""The tool-use loop: prompt + tools → turns of (tool calls → results) → one checked answer.

Each provider call is a turn. On a turn the model either answers or asks for
tool calls; calls run in the order the model listed them and their results
go back together on the next turn. The loop ends at an answer, at the turn
cap (``turn_cap``, definitive, transcript kept), or when a tool raises
(``tool_raised``). An answer that fails the request's schema gets exactly one
correction turn, which does not count against the cap.

>>> from fxlog.models.config import load_settings
>>> from fxlog.models.exchange import Exchange
>>> from fxlog.models.redact import Redactor
>>> from fxlog.models.registry import Member, Route
>>> from fxlog.models.scripted import ScriptedModel, tool_calls
>>> from fxlog.models.store import AnswerStore
>>> model = ScriptedModel([tool_calls([{"name": "up", "args": {"s": "a"}}]), {"s": "A"}])
>>> exchange = Exchange(Route((Member(model, "m"),), "live"), AnswerStore("unused"), 0,
...                     Redactor(set()))
>>> tools = ToolSet.build({"up": lambda s: s.upper()})
>>> dialogue = Dialogue(load_settings({"prompt": "p"}, {}), tools, exchange)
>>> dialogue.run(), dialogue.turns, dialogue.calls[0]["result"]
('{"s": "A"}', 2, 'A')
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from fxlog.models.answers import correction_prompt, json_instruction, schema_problem
from fxlog.models.config import Settings
from fxlog.models.errors import ModelCallError
from fxlog.models.exchange import Exchange, TurnResult
from fxlog.models.provider import ChatRequest, JsonObject, ModelReply, ToolCall
from fxlog.models.toolset import CallOutcome, ModelHooks, ToolSet
from fxlog.models.xml_protocol import instruction_block, parse_invocations, render_results

__all__ = ["Dialogue"]


class Dialogue:
    """The state of one ``_llm`` call's conversation, turn by turn."""

    def __init__(self, settings: Settings, tools: ToolSet, exchange: Exchange,
                 hooks: ModelHooks | None = None) -> None:
        self.settings = settings
        self.tools = tools
        self.exchange = exchange
        self.hooks = hooks
        self.xml = settings.tool_protocol == "xml" and bool(tools)
        self.messages: list[JsonObject] = _opening(settings, tools, self.xml)
        self.calls: list[JsonObject] = []
        self.results: list[TurnResult] = []
        self.budget = settings.max_turns
        self.corrected = False

    @property
    def turns(self) -> int:
        """Provider turns taken so far (the correction turn included)."""
        return len(self.results)

    def run(self) -> str:
        """Converse until the model gives an acceptable answer; return its text."""
        while True:
            reply = self._ask().reply
            calls, text = self._split(reply)
            if calls:
                self._tool_turn(reply, calls)
                continue
            problem = schema_problem(text, self.settings.schema) if self.settings.schema else None
            if problem is None:
                return text
            self._correct(text, problem)

    def _ask(self) -> TurnResult:
        request = ChatRequest(
            model=self.settings.model or "",
            messages=tuple(dict(m) for m in self.messages),
            tools=self.tools.definitions() if self.tools and not self.xml else None,
            temperature=self.settings.temperature,
            seed=self.settings.seed,
            timeout_s=self.settings.timeout_s,
        )
        result = self.exchange.turn(request)
        self.results.append(result)
        return result

    def _split(self, reply: ModelReply) -> tuple[list[ToolCall], str]:
        if reply.tool_calls:
            return list(reply.tool_calls), reply.text
        if self.xml:
            return parse_invocations(reply.text, self.turns)
        return [], reply.text

    def _tool_turn(self, reply: ModelReply, calls: Sequence[ToolCall]) -> None:
        self.messages.append(_assistant(reply, calls, self.xml))
        if self.turns >= self.budget:
            raise ModelCallError(
                "turn_cap",
                f"no answer after {self.turns} turn(s): the model still wanted tools "
                f"(max_turns is {self.settings.max_turns})",
            )
        outcomes: list[CallOutcome] = []
        for call in calls:
            try:
                outcome = self.tools.run(call, self.turns, self.hooks)
            except ModelCallError as err:
                failed = err.evidence.pop("failed_call", None)
                if isinstance(failed, dict):
                    self.calls.append(failed)
                raise
            self.calls.append(outcome.record)
            outcomes.append(outcome)
        self.messages.extend(_feedback(outcomes, self.xml))

    def _correct(self, text: str, problem: str) -> None:
        if self.corrected:
            raise ModelCallError(
                "invalid_answer", f"the answer still fails the schema after a correction: {problem}"
            )
        self.corrected = True
        self.budget += 1  # the correction turn is free
        self.messages.append({"role": "assistant", "content": text})
        self.messages.append({"role": "user", "content": correction_prompt(problem)})

    def transcript(self) -> str:
        """The conversation so far as JSON text, for failure evidence."""
        return json.dumps(self.messages, ensure_ascii=False)


def _opening(settings: Settings, tools: ToolSet, xml: bool) -> list[JsonObject]:
    system = settings.system or ""
    if xml:
        block = instruction_block(tools.definitions())
        system = f"{system}\n\n{block}" if system else block
    messages: list[JsonObject] = [{"role": "system", "content": system}] if system else []
    prompt = f"{settings.prompt}\n\n{json_instruction(settings.schema)}"
    messages.append({"role": "user", "content": prompt})
    return messages


def _assistant(reply: ModelReply, calls: Sequence[ToolCall], xml: bool) -> JsonObject:
    if xml:
        return {"role": "assistant", "content": reply.text}
    return {
        "role": "assistant",
        "content": reply.text,
        "tool_calls": [
            {"id": c.id, "type": "function",
             "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ],
    }


def _feedback(outcomes: Sequence[CallOutcome], xml: bool) -> list[JsonObject]:
    if xml:
        text = render_results([(o.call.name, o.feedback) for o in outcomes])
        return [{"role": "user", "content": text}]
    return [
        {"role": "tool", "tool_call_id": o.call.id, "name": o.call.name, "content": o.feedback}
        for o in outcomes
    ]
