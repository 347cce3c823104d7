"""The XML tool protocol for models without native tool calls."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fxlog.models import call_llm
from fxlog.models.xml_protocol import parse_invocations, render_invoke, render_results
from fxlog.testing import ScriptedModel, tool_calls

names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,20}", fullmatch=True)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
arguments = st.dictionaries(st.text(max_size=8), values, max_size=4)


@settings(database=None, max_examples=80, deadline=None)
@given(st.lists(st.tuples(names, arguments), min_size=1, max_size=4), st.text(max_size=30))
def test_invoke_blocks_round_trip(invocations, prose):
    prose = prose.replace("<", "")
    text = prose + "\n" + "\n".join(render_invoke(n, a) for n, a in invocations)
    calls, rest = parse_invocations(text, turn=3)
    assert [(c.name, json.loads(c.arguments)) for c in calls] == invocations
    assert [c.id for c in calls] == [f"xml_3_{i}" for i in range(1, len(invocations) + 1)]
    assert rest == prose.strip()


def test_text_without_invoke_has_no_calls():
    assert parse_invocations('{"answer": "<b>bold</b>"}') == ([], '{"answer": "<b>bold</b>"}')


def lookup(key: str) -> tuple[dict[str, object], dict[str, object]]:
    """Look a key up.

    Args:
        key: The key.
    """
    return {"value": key * 2}, {}


def test_xml_loop_with_scripted_model():
    model = ScriptedModel([
        tool_calls([{"name": "lookup", "args": {"key": "a"}},
                    {"name": "lookup", "args": {"k": 1}}]),
        {"value": "aa"},
    ])
    output, evidence = call_llm({"prompt": "p", "tool_protocol": "xml", "system": "Be exact."},
                                tools={"lookup": lookup}, provider=model, env={})
    assert output == {"value": "aa"}
    assert model.requests[0].tools is None
    system = model.received[0][0]["content"]
    assert system.startswith("Be exact.") and "<invoke>" in system and '"lookup"' in system
    feedback = model.received[1][-1]
    assert feedback["role"] == "user"
    assert feedback["content"].count("<tool_result>") == 2
    assert '<result>{"value": "aa"}</result>' in feedback["content"]
    assert "error: invalid arguments" in feedback["content"]
    assert [c["turn"] for c in evidence["calls"]] == [1, 1]


def test_xml_loop_over_ollama_http(make_server: Any, envs: Any, base_env: dict[str, str]):
    server = make_server("ollama").add(
        {"content": "Checking.\n" + render_invoke("lookup", {"key": "z"})},
        {"content": '{"value": "zz"}'},
    )
    env = envs.ollama(base_env, server, FXLOG_TOOL_PROTOCOL="xml")
    output, evidence = call_llm({"prompt": "p"}, tools={"lookup": lookup}, env=env)
    assert output == {"value": "zz"} and evidence["tool_protocol"] == "xml"
    first = server.requests[0]["body"]
    assert not first.get("tools")
    assert "<invoke>" in first["messages"][0]["content"]
    last = server.requests[1]["body"]["messages"][-1]
    assert last["role"] == "user"
    assert last["content"] == render_results([("lookup", '{"value": "zz"}')])


def test_xml_protocol_lets_a_model_without_tools_use_them():
    model = ScriptedModel([tool_calls([{"name": "lookup", "args": {"key": "q"}}]), {"ok": 1}],
                          supports_tools=False)
    output, _ = call_llm({"prompt": "p", "tool_protocol": "xml"}, tools={"lookup": lookup},
                         provider=model, env={})
    assert output == {"ok": 1}
