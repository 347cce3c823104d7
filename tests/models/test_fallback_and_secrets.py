"""Fallback groups across real servers, and credentials that never leak."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fxlog.models import ModelCallError, call_llm

KEY = "sk-test-0123456789abcdef"


def group_env(base: dict[str, str], first: Any, second: Any, **extra: str) -> dict[str, str]:
    return {**base, "FXLOG_MODEL_PROVIDER": "ollama,openai", "FXLOG_MODEL": "shared-model",
            "OLLAMA_HOST": first.url, "FXLOG_OPENAI_BASE_URL": second.url, **extra}


def test_group_falls_back_when_first_server_is_down(make_server, base_env):
    down, up = make_server("ollama"), make_server("openai")
    down.stop()
    up.add({"content": '{"message": "from openai"}'})
    output, evidence = call_llm({"prompt": "p"}, env=group_env(base_env, down, up))
    assert output == {"message": "from openai"}
    assert evidence["provider"] == "openai" and evidence["fallbacks"] == "ollama: unreachable"


def test_group_uses_first_member_when_it_answers(make_server, base_env):
    first, second = make_server("ollama"), make_server("openai")
    first.add({"content": '{"n": 1}'})
    _, evidence = call_llm({"prompt": "p"}, env=group_env(base_env, first, second))
    assert evidence["provider"] == "ollama" and second.requests == []


def test_group_falls_back_when_server_says_tools_unsupported(make_server, base_env):
    first, second = make_server("ollama"), make_server("openai")
    first.add({"status": 400, "body": "model does not support tools"})
    second.add({"content": '{"n": 2}'})
    output, evidence = call_llm({"prompt": "p"}, tools={"f": lambda: "x"},
                                env=group_env(base_env, first, second))
    assert output == {"n": 2} and "tools_unsupported" in evidence["fallbacks"]


def test_group_with_tools_skips_members_known_without_tools(make_server, base_env):
    first, second = make_server("ollama"), make_server("openai")
    second.add({"content": '{"n": 3}'})
    env = group_env(base_env, first, second, FXLOG_OLLAMA_MODEL="gemma:2b",
                    FXLOG_MODELS_WITHOUT_TOOLS="gemma:*")
    output, evidence = call_llm({"prompt": "p"}, tools={"f": lambda: "x"}, env=env)
    assert output == {"n": 3} and first.requests == []
    assert second.requests[0]["body"]["model"] == "shared-model"
    assert "ollama: no tool support" in evidence["fallbacks"]


def test_known_toolless_model_is_refused_before_any_request(make_server, base_env, envs):
    server = make_server("ollama")
    env = envs.ollama(base_env, server, FXLOG_MODELS_WITHOUT_TOOLS="llama-test")
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, tools={"f": lambda: "x"}, env=env)
    assert info.value.type == "tools_unsupported" and server.requests == []


def test_whole_group_down_reports_every_member(make_server, base_env):
    first, second = make_server("ollama"), make_server("openai")
    first.stop()
    second.stop()
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=group_env(base_env, first, second))
    assert info.value.type == "unreachable"
    assert "ollama: unreachable" in info.value.message


def assert_nowhere(secret: str, *things: object, store: Path | None = None) -> None:
    for thing in things:
        assert secret not in json.dumps(thing, default=str)
    if store is not None and store.exists():
        for path in store.parent.iterdir():
            assert secret.encode() not in path.read_bytes()


def test_openai_key_is_sent_but_never_recorded(make_server, envs, base_env, store_path):
    server = make_server("openai").add({"echo_auth": True})
    env = envs.openai(base_env, server, FXLOG_OPENAI_API_KEY=KEY, FXLOG_MODEL_MODE="record")
    output, evidence = call_llm({"prompt": "p"}, env=env)
    headers = {k.lower(): v for k, v in server.requests[0]["headers"].items()}
    assert headers["authorization"] == f"Bearer {KEY}"
    assert output == {"message": "Bearer [redacted]"}
    assert_nowhere(KEY, output, evidence, store=store_path)
    assert store_path.exists()


@pytest.mark.parametrize("protocol", ["ollama", "openai"])
def test_key_echoed_in_error_body_is_redacted(make_server, envs, base_env, protocol, store_path):
    server = make_server(protocol).add({"status": 400, "body": "rejected", "echo_auth": True})
    extra = {"FXLOG_OPENAI_API_KEY": KEY} if protocol == "openai" else {"OLLAMA_API_KEY": KEY}
    env = getattr(envs, protocol)(base_env, server, **extra)
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env=env)
    err = info.value
    assert KEY in json.dumps(server.requests[0]["headers"])
    assert "rejected" in err.message and "[redacted]" in err.message
    assert_nowhere(KEY, err.message, str(err), err.evidence, store=store_path)


def test_key_returned_by_a_tool_is_scrubbed_from_transcript(make_server, envs, base_env,
                                                            store_path):
    server = make_server("ollama").add(
        {"tool_calls": [{"name": "leak", "arguments": {}}]},
        {"tool_calls": [{"name": "leak", "arguments": {}}]},
    )
    env = envs.ollama(base_env, server, FXLOG_OPENAI_API_KEY=KEY)
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p", "max_turns": 2}, tools={"leak": lambda: f"key={KEY}"}, env=env)
    assert info.value.type == "turn_cap"
    assert_nowhere(KEY, info.value.message, info.value.evidence, store=store_path)
