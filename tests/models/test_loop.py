"""The tool-use loop, answers and schemas, driven by the scripted model."""

from __future__ import annotations

import json
from typing import Literal

import pytest

from fxlog.models import ModelCallError, ModelHooks, Tool, call_llm, register_schema
from fxlog.testing import ScriptedModel, tool_calls, use_model

ENV: dict[str, str] = {}


def lookup(key: str, limit: int = 3) -> tuple[dict[str, object], dict[str, object]]:
    """Look a key up.

    Args:
        key: The key.
        limit: Most results.
    """
    return {"key": key, "limit": limit}, {}


def test_answer_only_turn_gives_flat_output_and_evidence():
    model = ScriptedModel([{"message": "hi", "n": 2, "ok": True, "none": None}])
    output, evidence = call_llm({"prompt": "greet"}, provider=model, env=ENV)
    assert output == {"message": "hi", "n": 2, "ok": True, "none": None}
    assert evidence["turns"] == 1 and evidence["calls"] == [] and evidence["provider"] == "script"
    assert model.received[0] == [
        {"role": "user", "content": "greet\n\nAnswer with one JSON object and nothing else."}
    ]


@pytest.mark.parametrize(("answer", "expected"), [
    ("plain text", {"text": "plain text"}),
    ('```json\n{"a": 1}\n```', {"a": 1}),
    ('{"a": {"b": [1]}}', {"a": '{"b": [1]}'}),
    ('{"rows": [{"x": 1}, {"x": 2, "y": {"z": 0}}]}',
     {"rows": [{"x": 1}, {"x": 2, "y": '{"z": 0}'}]}),
    ('[{"x": 1}, {"x": 2}]', {"rows": [{"x": 1}, {"x": 2}]}),
    ('"just a string"', {"text": '"just a string"'}),
])
def test_answers_become_flat_output(answer, expected):
    output, _ = call_llm({"prompt": "p"}, provider=ScriptedModel([answer]), env=ENV)
    assert output == expected


def test_fxlog_syntax_in_answer_is_returned_verbatim():
    evil = '"]. evil(x) :- true.'
    output, _ = call_llm({"prompt": "p"}, provider=ScriptedModel([{"message": evil}]), env=ENV)
    assert output["message"] == evil
    output, _ = call_llm({"prompt": "p"}, provider=ScriptedModel([evil]), env=ENV)
    assert output == {"text": evil}


def test_calls_of_one_turn_run_in_order_and_return_together():
    order: list[str] = []
    model = ScriptedModel([
        tool_calls([{"name": "lookup", "args": {"key": "b"}},
                    {"name": "lookup", "args": {"key": "a"}}]),
        {"done": True},
    ])

    def traced(key: str) -> tuple[dict[str, object], dict[str, object]]:
        order.append(key)
        return {"key": key}, {}

    call_llm({"prompt": "p"}, tools={"lookup": traced}, provider=model, env=ENV)
    assert order == ["b", "a"]
    second = model.received[1]
    assert [m["role"] for m in second[-3:]] == ["assistant", "tool", "tool"]
    assert [json.loads(m["content"])["key"] for m in second[-2:]] == ["b", "a"]
    assert [m["tool_call_id"] for m in second[-2:]] == ["script_1_1", "script_1_2"]


@pytest.mark.parametrize(("args", "needle"), [
    ({"key": 1}, "1 is not of type 'string'"),
    ({}, "'key' is a required property"),
    ({"key": "a", "extra": 1}, "Additional properties"),
    ('{"key": ', "not valid JSON"),
    ("[1]", "must be a JSON object"),
])
def test_invalid_arguments_go_back_to_the_model(args, needle):
    ran: list[object] = []

    def typed(key: str) -> str:
        ran.append(key)
        return "ran"

    model = ScriptedModel([tool_calls([{"name": "lookup", "args": args}]), {"ok": 1}])
    _, evidence = call_llm({"prompt": "p"}, tools={"lookup": typed}, provider=model, env=ENV)
    assert ran == []
    assert needle in evidence["calls"][0]["error"]
    assert needle in model.received[1][-1]["content"]


def test_unknown_tool_lists_available_ones():
    model = ScriptedModel([tool_calls([{"name": "lokup", "args": {}}]), {"ok": 1}])
    _, evidence = call_llm({"prompt": "p"}, tools={"lookup": lookup}, provider=model, env=ENV)
    assert evidence["calls"][0]["error"] == "error: unknown tool 'lokup'; available: lookup"


def test_turn_cap_fails_definitively_with_transcript():
    ran: list[str] = []
    turns = [tool_calls([{"name": "lookup", "args": {"key": str(i)}}]) for i in range(5)]
    model = ScriptedModel(turns)
    tool = {"lookup": lambda key: (ran.append(key), {})}
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p", "max_turns": 2}, tools=tool, provider=model, env=ENV)
    err = info.value
    assert err.type == "turn_cap" and err.evidence["turns"] == 2
    assert ran == ["0"]  # the capped turn's calls never run
    transcript = json.loads(str(err.evidence["transcript"]))
    assert transcript[-1]["role"] == "assistant" and transcript[-1]["tool_calls"]
    assert len(model.requests) == 2


def test_default_turn_cap_is_ten():
    model = ScriptedModel([tool_calls([{"name": "lookup", "args": {"key": "k"}}])] * 12)
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"lookup": lookup}, provider=model, env=ENV)
    assert info.value.type == "turn_cap" and len(model.requests) == 10


def test_raising_tool_fails_the_call_with_cause_chained():
    boom = RuntimeError("disk on fire")

    def broken(key: str) -> tuple[dict[str, object], dict[str, object]]:
        raise boom

    model = ScriptedModel([tool_calls([{"name": "lookup", "args": {"key": "k"}}]), {"never": 1}])
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"lookup": broken}, provider=model, env=ENV)
    err = info.value
    assert err.type == "tool_raised" and err.__cause__ is boom
    assert "disk on fire" in err.message
    assert err.evidence["calls"][0]["error"] == "RuntimeError: disk on fire"
    assert "transcript" in err.evidence and len(model.requests) == 1


def test_tool_returning_error_value_lets_model_recover():
    model = ScriptedModel([tool_calls([{"name": "lookup", "args": {"key": "k"}}]), {"ok": 1}])
    _, evidence = call_llm({"prompt": "p"}, tools={"lookup": lambda key: "not found"},
                           provider=model, env=ENV)
    assert evidence["calls"][0]["result"] == "not found"
    assert model.received[1][-1]["content"] == "not found"


def test_hooks_fire_around_every_call():
    events: list[tuple[object, ...]] = []
    hooks = ModelHooks(
        on_tool_call_start=lambda name, args: events.append(("start", name, dict(args))),
        on_tool_call_end=lambda name, args, out, ms: events.append(("end", name, out, ms >= 0)),
    )
    model = ScriptedModel([
        tool_calls([{"name": "lookup", "args": {"key": "k"}}, {"name": "zap", "args": {}}]),
        {"ok": 1},
    ])
    call_llm({"prompt": "p"}, tools={"lookup": lookup}, hooks=hooks, provider=model, env=ENV)
    assert events == [
        ("start", "lookup", {"key": "k"}),
        ("end", "lookup", '{"key": "k", "limit": 3}', True),
        ("start", "zap", {}),
        ("end", "zap", "error: unknown tool 'zap'; available: lookup", True),
    ]


SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_schema_correction_turn_is_free_and_tells_the_error():
    model = ScriptedModel([{"n": "three"}, {"n": 3}])
    output, evidence = call_llm({"prompt": "count", "schema": json.dumps(SCHEMA), "max_turns": 1},
                                provider=model, env=ENV)
    assert output == {"n": 3} and evidence["corrected"] is True and evidence["turns"] == 2
    assert '"required": ["n"]' in model.received[0][-1]["content"]
    correction = model.received[1][-1]["content"]
    assert "'three' is not of type 'integer'" in correction and "at n" in correction


def test_schema_fails_after_one_correction():
    model = ScriptedModel(["not json", {"n": "x"}, {"n": 1}])
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p", "schema": json.dumps(SCHEMA)}, provider=model, env=ENV)
    assert info.value.type == "invalid_answer" and len(model.requests) == 2
    assert "the answer is not JSON" in model.received[1][-1]["content"]


def test_registered_schema_by_name():
    register_schema("count", SCHEMA)
    model = ScriptedModel([{"n": 1}])
    output, _ = call_llm({"prompt": "p", "schema": "count"}, provider=model, env=ENV)
    assert output == {"n": 1}
    with pytest.raises(ModelCallError) as info:
        register_schema("bad", {"type": "nonsense"})
    assert info.value.type == "invalid_request"
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p", "schema": "unregistered"}, provider=model, env=ENV)
    assert info.value.type == "invalid_request"


def test_name_collision_fails_before_any_model_call():
    model = ScriptedModel([{"ok": 1}])
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"a.b": lookup, "a b": lookup}, provider=model, env=ENV)
    assert info.value.type == "tool_name_collision" and model.requests == []


def test_names_are_sanitised_on_the_wire_and_mapped_back():
    model = ScriptedModel([tool_calls([{"name": "my_tool", "args": {"key": "k"}}]), {"ok": 1}])
    _, evidence = call_llm({"prompt": "p"}, tools={"my.tool": lookup}, provider=model, env=ENV)
    assert model.requests[0].tools is not None
    assert model.requests[0].tools[0]["function"]["name"] == "my_tool"  # type: ignore[index]
    assert evidence["calls"][0]["tool"] == "my.tool"


def test_tool_records_and_plain_dicts_are_accepted():
    def pick(colour: Literal["red", "blue"]) -> str:
        return f"picked {colour}"

    record = Tool("pick", "Pick a colour.", {"colour": {"type": "string", "enum": ["red", "blue"]}},
                  implementation=pick, read_only=True)
    plain = {"type": "function", "function": {"name": "ext", "description": "External.",
                                              "parameters": {"type": "object", "properties": {}}}}
    model = ScriptedModel([
        tool_calls([{"name": "pick", "args": {"colour": "red"}}, {"name": "ext", "args": {}}]),
        {"ok": 1},
    ])
    _, evidence = call_llm({"prompt": "p"}, tools={"pick": record, "ext": plain},
                           provider=model, env=ENV)
    first, second = evidence["calls"]
    assert first["result"] == "picked red" and first["read_only"] is True
    assert "no implementation" in second["error"]


def test_tools_unsupported_is_refused_before_any_request():
    model = ScriptedModel([{"ok": 1}], supports_tools=False)
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"lookup": lookup}, provider=model, env=ENV)
    assert info.value.type == "tools_unsupported" and model.requests == []
    output, _ = call_llm({"prompt": "p"}, provider=model, env=ENV)  # no tools: fine
    assert output == {"ok": 1}


def test_models_without_tools_from_env_are_refused():
    model = ScriptedModel([{"ok": 1}], model="gemma:2b")
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"lookup": lookup}, provider=model,
                 env={"FXLOG_MODELS_WITHOUT_TOOLS": "phi3, gemma:*"})
    assert info.value.type == "tools_unsupported" and model.requests == []


@pytest.mark.parametrize(("fields", "needle"), [
    ({}, "prompt"),
    ({"prompt": "p", "max_turns": 0}, "max_turns"),
    ({"prompt": "p", "max_turns": "many"}, "max_turns"),
    ({"prompt": "p", "mode": "sometimes"}, "mode"),
    ({"prompt": "p", "tool_protocol": "smoke"}, "tool_protocol"),
    ({"prompt": "p", "schema": "[1, 2]"}, "schema"),
])
def test_bad_fields_are_invalid_requests(fields, needle):
    with pytest.raises(ModelCallError) as info:
        call_llm(fields, provider=ScriptedModel([]), env=ENV)
    assert info.value.type == "invalid_request" and needle in info.value.message


def test_unknown_fields_are_ignored_and_not_recorded():
    model = ScriptedModel([{"ok": 1}])
    _, evidence = call_llm({"prompt": "p", "password": "hunter2-secret"}, provider=model, env=ENV)
    assert "hunter2-secret" not in json.dumps(evidence)
    assert "hunter2-secret" not in json.dumps(model.received)


def test_use_model_reaches_calls_without_a_provider_argument():
    with use_model(ScriptedModel([{"message": "hi"}])) as model:
        output, evidence = call_llm({"prompt": "p"}, env={"FXLOG_MODEL_PROVIDER": "ollama"})
    assert output == {"message": "hi"} and evidence["provider"] == "script"
    assert model.remaining == 0
