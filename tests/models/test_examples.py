"""The shipped offline example and the seed's direct call, end to end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fxlog.models import ModelCallError, call_llm

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "models"


def example_prompt() -> str:
    source = (EXAMPLE / "hello.fx").read_text(encoding="utf-8")
    match = re.search(r'prompt -> "((?:[^"\\]|\\.)*)"', source)
    assert match is not None
    return match.group(1).replace('\\"', '"').replace("\\\\", "\\")


@pytest.fixture
def replay_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    env = {"FXLOG_MODEL_PROVIDER": "replay", "FXLOG_MODEL": "demo",
           "FXLOG_MODEL_STORE": str(EXAMPLE / "models.sqlite")}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


def test_shipped_store_answers_the_example_prompt_offline(replay_env):
    output, evidence = call_llm({"prompt": example_prompt()}, env=replay_env)
    assert output == {"message": "Hello from a stored answer!"}
    assert evidence["source"] == "stored" and evidence["model"] == "demo"
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": example_prompt() + " "}, env=replay_env)
    assert info.value.type == "replay_miss"


def test_direct_execute_of_llm(replay_env):
    from fxlog.tools import execute

    output, evidence = execute("_llm", {"prompt": example_prompt()}, client=None)
    assert output["message"] == "Hello from a stored answer!"
    assert evidence["model"] == "demo"


def test_example_program_runs_offline_through_the_host(replay_env, tmp_path):
    from typer.testing import CliRunner

    from fxlog.cli import app

    receipts = tmp_path / "hello.receipts.fx"
    result = CliRunner().invoke(app, ["run", str(EXAMPLE / "hello.fx"), "-o", str(receipts)])
    assert result.exit_code == 0, result.output
    assert "Hello from a stored answer!" in result.output
    text = receipts.read_text(encoding="utf-8")
    assert 'result("message") -> "Hello from a stored answer!"' in text
    assert 'evidence("source") -> "stored"' in text
