"""fxlog.testing: scripted models from Python, from files and from the environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fxlog.models import ModelCallError, call_llm
from fxlog.testing import ScriptedModel, load_script, tool_calls, use_model


def test_scripted_model_runs_out_clearly():
    model = ScriptedModel([{"a": 1}])
    call_llm({"prompt": "p"}, provider=model, env={})
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, provider=model, env={})
    assert info.value.type == "script_exhausted"
    assert "turn 2" in info.value.message and "only 1 turn" in info.value.message


def test_scripted_error_turn_is_raised_and_retried():
    model = ScriptedModel([ModelCallError("unreachable", "scripted outage")])
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, provider=model, env={"FXLOG_MODEL_RETRIES": "0"})
    assert info.value.type == "unreachable" and info.value.message == "scripted outage"
    flaky = ScriptedModel([ModelCallError("unreachable", "blip"), {"a": 1}])
    assert call_llm({"prompt": "p"}, provider=flaky, env={})[0] == {"a": 1}  # one retry default


def write_script(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "turns.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_script_file_from_environment(tmp_path: Path):
    path = write_script(tmp_path, {"model": "tiny", "turns": [
        {"tool_calls": [{"name": "double", "args": {"n": 21}}]},
        {"answer": {"n": 42}},
        {"answer": "second call, plain text"},
        {"error": {"type": "refused", "message": "no more"}},
    ]})
    env = {"FXLOG_MODEL_PROVIDER": f"script:{path}", "FXLOG_MODEL_STORE": str(tmp_path / "s.db")}
    tools = {"double": lambda n: ({"n": 2 * n}, {})}
    output, evidence = call_llm({"prompt": "p"}, tools=tools, env=env)
    assert output == {"n": 42} and evidence["model"] == "tiny" and evidence["mode"] == "live"
    assert evidence["calls"][0]["result"] == '{"n": 42}'
    # The next call continues the same script instead of restarting it.
    assert call_llm({"prompt": "q"}, env=env)[0] == {"text": "second call, plain text"}
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "r"}, env=env)
    assert info.value.type == "refused"
    assert not (tmp_path / "s.db").exists()


@pytest.mark.parametrize("data", [{"turns": "nope"}, [1], {"turns": [{"what": 1}]}])
def test_bad_script_files_are_invalid_requests(tmp_path: Path, data: object):
    with pytest.raises(ModelCallError) as info:
        load_script(write_script(tmp_path, data))
    assert info.value.type == "invalid_request"


def test_missing_script_and_unknown_provider(tmp_path: Path):
    for provider in (f"script:{tmp_path / 'missing.json'}", "gpt-magic", " , ", "ollama,replay"):
        with pytest.raises(ModelCallError) as info:
            call_llm({"prompt": "p"}, env={"FXLOG_MODEL_PROVIDER": provider, "FXLOG_MODEL": "m"})
        assert info.value.type == "invalid_request"


def test_received_messages_and_use_model_nesting():
    outer = ScriptedModel([{"who": "outer"}])
    inner = ScriptedModel([tool_calls([{"name": "f", "args": {}}]), {"who": "inner"}])
    with use_model(outer):
        with use_model(inner):
            output, _ = call_llm({"prompt": "x"}, tools={"f": lambda: "r"}, env={})
            assert output == {"who": "inner"}
        assert call_llm({"prompt": "y"}, env={})[0] == {"who": "outer"}
    assert inner.received[1][-1] == {"role": "tool", "tool_call_id": "script_1_1", "name": "f",
                                     "content": "r"}
    assert outer.received[0][0]["content"].startswith("y")


def test_direct_call_example_reads_os_environ(monkeypatch, make_server, tmp_path):
    server = make_server("ollama").add({"content": '{"message": "Hello!"}'})
    monkeypatch.setenv("FXLOG_MODEL_PROVIDER", "ollama")
    monkeypatch.setenv("FXLOG_MODEL", "gpt-oss:20b")
    monkeypatch.setenv("OLLAMA_HOST", server.url)
    monkeypatch.setenv("FXLOG_MODEL_STORE", str(tmp_path / "m.sqlite"))
    output, evidence = call_llm({"prompt": 'Say hello. Return JSON: {"message": "..."}.'})
    assert output["message"] == "Hello!" and evidence["model"] == "gpt-oss:20b"
