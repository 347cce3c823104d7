"""Real client code paths (ollama, openai) against loopback servers."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from fxlog.models import ModelCallError, call_llm

PROTOCOLS = ["ollama", "openai"]


def env_for(envs: Any, protocol: str, base: dict[str, str], server: Any,
            **extra: str) -> dict[str, str]:
    return getattr(envs, protocol)(base, server, **extra)


def sent_messages(server: Any, index: int) -> list[dict[str, Any]]:
    return list(server.requests[index]["body"]["messages"])


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_live_answer_then_replay_with_server_stopped(make_server, envs, base_env, protocol):
    server = make_server(protocol).add({"content": '{"message": "hello"}'})
    env = env_for(envs, protocol, base_env, server)
    fields = {"prompt": 'Say hello. Return JSON: {"message": "..."}.'}

    output, evidence = call_llm(fields, env=env)
    assert output == {"message": "hello"}
    assert evidence["source"] == "live"
    assert evidence["provider"] == protocol
    assert evidence["model"] == env["FXLOG_MODEL"]
    assert evidence["prompt_tokens"] == 11 and evidence["completion_tokens"] == 7
    assert len(evidence["fingerprint"]) == 64
    prompt = sent_messages(server, 0)[-1]["content"]
    assert prompt.startswith(fields["prompt"]) and "one JSON object" in prompt

    server.stop()
    again, replayed = call_llm(fields, env=env)
    assert again == output
    assert replayed["source"] == "stored"
    assert replayed["fingerprint"] == evidence["fingerprint"]
    assert len(server.requests) == 1


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_multi_turn_tool_loop_with_feedback_and_replay(make_server, envs, base_env, protocol):
    server = make_server(protocol).add(
        {"tool_calls": [
            {"name": "lookup", "arguments": {"key": "a"}},
            {"name": "lookup", "arguments": {"key": 7}},
            {"name": "nosuch", "arguments": {}},
        ]},
        {"tool_calls": [{"name": "lookup", "arguments": {"key": "b"}}]},
        {"content": '{"answer": "A+B"}'},
    )
    seen: list[str] = []

    def lookup(key: str) -> tuple[dict[str, object], dict[str, object]]:
        """Find a value by key.

        Args:
            key: Which value.
        """
        seen.append(key)
        return {"value": key.upper()}, {"source": "test"}

    env = env_for(envs, protocol, base_env, server)
    output, evidence = call_llm({"prompt": "combine"}, tools={"lookup": lookup}, env=env)
    assert output == {"answer": "A+B"}
    assert seen == ["a", "b"]
    assert evidence["turns"] == 3 and evidence["tool_calls"] == 4
    calls = evidence["calls"]
    assert [c["turn"] for c in calls] == [1, 1, 1, 2]
    assert calls[0]["result"] == '{"value": "A"}' and calls[0]["initiator"] == "model"
    assert "error" in calls[1] and "key" in calls[1]["error"]
    assert "unknown tool 'nosuch'" in calls[2]["error"]

    tools_sent = server.requests[0]["body"]["tools"]
    assert tools_sent[0]["function"]["name"] == "lookup"
    assert tools_sent[0]["function"]["description"] == "Find a value by key."
    second = sent_messages(server, 1)
    feedback = [m for m in second if m["role"] == "tool"]
    assert [m["content"][:6] for m in feedback] == ['{"valu', "error:", "error:"]

    server.stop()
    seen.clear()
    replay_env = {**env, "FXLOG_MODEL_MODE": "replay"}
    again, replayed = call_llm({"prompt": "combine"}, tools={"lookup": lookup}, env=replay_env)
    assert again == output and replayed["source"] == "stored" and seen == ["a", "b"]


def test_replay_misses_when_a_tool_now_returns_something_else(make_server, envs, base_env):
    server = make_server("ollama").add(
        {"tool_calls": [{"name": "lookup", "arguments": {"key": "a"}}]},
        {"content": '{"answer": 1}'},
    )
    env = envs.ollama(base_env, server)
    call_llm({"prompt": "p"}, tools={"lookup": lambda key: ({"v": 1}, {})}, env=env)
    server.stop()
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"lookup": lambda key: ({"v": 2}, {})},
                 env={**env, "FXLOG_MODEL_MODE": "replay"})
    assert info.value.type == "replay_miss"
    assert info.value.evidence["fingerprint"] in info.value.message
    assert info.value.evidence["turns"] == 1  # turn 1 replayed, turn 2 missing


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_malformed_json_body_is_bad_response(make_server, envs, base_env, protocol):
    server = make_server(protocol).add({"raw": "{not json"})
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=env_for(envs, protocol, base_env, server))
    assert info.value.type == "bad_response"
    assert info.value.__cause__ is not None


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_slow_server_times_out_within_bound(make_server, envs, base_env, protocol):
    server = make_server(protocol).add({"delay": 5, "content": "{}"})
    env = env_for(envs, protocol, base_env, server, FXLOG_MODEL_TIMEOUT_S="0.3")
    started = time.monotonic()
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=env)
    assert info.value.type == "timeout"
    assert time.monotonic() - started < 3


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_server_error_is_http_error_and_is_retried(make_server, envs, base_env, protocol):
    server = make_server(protocol).add({"status": 500, "body": "boom"})
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=env_for(envs, protocol, base_env, server))
    assert info.value.type == "http_error" and "500" in info.value.message

    server.add({"status": 503, "body": "busy"}, {"content": '{"ok": true}'})
    env = env_for(envs, protocol, base_env, server, FXLOG_MODEL_RETRIES="1")
    output, _ = call_llm({"prompt": "q"}, env=env)
    assert output == {"ok": True}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_dropped_connection_is_unreachable_and_retried(make_server, envs, base_env, protocol):
    server = make_server(protocol).add({"drop": True})
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=env_for(envs, protocol, base_env, server))
    assert info.value.type == "unreachable"

    server.add({"drop": True}, {"content": '{"ok": 1}'})
    env = env_for(envs, protocol, base_env, server, FXLOG_MODEL_RETRIES="2")
    assert call_llm({"prompt": "q"}, env=env)[0] == {"ok": 1}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_stopped_server_is_unreachable(make_server, envs, base_env, protocol):
    server = make_server(protocol)
    server.stop()
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=env_for(envs, protocol, base_env, server))
    assert info.value.type == "unreachable"
    assert info.value.evidence["provider"] == protocol


@pytest.mark.parametrize(("status", "body", "kind"), [
    (400, "registry/model does not support tools", "tools_unsupported"),
    (404, "model not found", "refused"),
    (401, "bad key", "refused"),
    (400, "bad request", "http_error"),
])
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_status_codes_map_to_types(make_server, envs, base_env, protocol, status, body, kind):
    server = make_server(protocol).add({"status": status, "body": body})
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"f": lambda: ({}, {})},
                 env=env_for(envs, protocol, base_env, server))
    assert info.value.type == kind


def test_openai_refusal_is_refused(make_server, envs, base_env):
    server = make_server("openai").add({"refusal": "I cannot help with that."})
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=envs.openai(base_env, server))
    assert info.value.type == "refused" and "cannot help" in info.value.message


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_options_reach_the_server(make_server, envs, base_env, protocol):
    server = make_server(protocol).add({"content": "{}"})
    call_llm({"prompt": "p", "temperature": "0.5", "seed": 42, "system": "Be brief."},
             env=env_for(envs, protocol, base_env, server))
    body = server.requests[0]["body"]
    options = body.get("options", body)
    assert options["temperature"] == 0.5 and options["seed"] == 42
    assert body["messages"][0] == {"role": "system", "content": "Be brief."}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_model_output_with_fxlog_syntax_is_data(make_server, envs, base_env, protocol):
    evil = '"]. evil(x) :- true.'
    server = make_server(protocol).add({"content": json.dumps({"message": evil})})
    output, _ = call_llm({"prompt": "p"}, env=env_for(envs, protocol, base_env, server))
    assert output == {"message": evil}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_schema_correction_over_http(make_server, envs, base_env, protocol):
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    server = make_server(protocol).add({"content": '{"n": "two"}'}, {"content": '{"n": 2}'})
    output, evidence = call_llm({"prompt": "p", "schema": json.dumps(schema)},
                                env=env_for(envs, protocol, base_env, server))
    assert output == {"n": 2} and evidence["corrected"] is True
    last = sent_messages(server, 1)[-1]
    assert last["role"] == "user" and "'two' is not of type 'integer'" in last["content"]
