"""Stored answers: fingerprints, modes and concurrent use."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fxlog.models import AnswerStore, ModelCallError, ModelReply, call_llm, fingerprint
from fxlog.models.store import request_key
from fxlog.testing import ScriptedModel, tool_calls

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


def shuffled(value: Any, rng: random.Random) -> Any:
    """The same JSON value with every object's keys in a different insertion order."""
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [shuffled(v, rng) for v in value]
    return value


@settings(database=None, max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=5), json_values, max_size=5), st.integers())
def test_fingerprint_is_stable_under_key_order(identity, seed):
    rng = random.Random(seed)
    assert fingerprint("ollama", identity) == fingerprint("ollama", shuffled(identity, rng))
    assert request_key(identity) == request_key(shuffled(identity, rng))


@settings(database=None, max_examples=40, deadline=None)
@given(st.text(max_size=20), st.text(max_size=20))
def test_fingerprint_separates_providers_and_messages(a, b):
    identity = {"model": "m", "messages": [{"role": "user", "content": a}]}
    other = {"model": "m", "messages": [{"role": "user", "content": b}]}
    assert (fingerprint("ollama", identity) == fingerprint("ollama", other)) == (a == b)
    assert fingerprint("ollama", identity) != fingerprint("openai", identity)


class Exploding:
    """A provider that must never be asked (replay and stored answers)."""

    name = "script"
    supports_tools = True
    default_model = "scripted"
    default_mode = None

    def chat(self, request: object) -> ModelReply:
        raise AssertionError("the network must not be used")


def test_modes(store_path: Path):
    env = {"FXLOG_MODEL_STORE": str(store_path)}
    fields = {"prompt": "p"}

    call_llm({**fields, "mode": "live"}, provider=ScriptedModel([{"v": 1}]), env=env)
    assert not store_path.exists()  # live never touches the store

    call_llm({**fields, "mode": "record"}, provider=ScriptedModel([{"v": 2}]), env=env)
    assert AnswerStore(store_path).count() == 1

    out, ev = call_llm({**fields, "mode": "auto"}, provider=Exploding(), env=env)
    assert out == {"v": 2} and ev["source"] == "stored"

    out, ev = call_llm({**fields, "mode": "replay"}, provider=Exploding(), env=env)
    assert out == {"v": 2} and ev["source"] == "stored"

    call_llm({**fields, "mode": "record"}, provider=ScriptedModel([{"v": 3}]), env=env)
    assert AnswerStore(store_path).count() == 1  # record overwrites
    assert call_llm({**fields, "mode": "auto"}, provider=Exploding(), env=env)[0] == {"v": 3}

    out, _ = call_llm({**fields, "mode": "live"}, provider=ScriptedModel([{"v": 4}]), env=env)
    assert out == {"v": 4}  # live ignores what is stored


def test_replay_miss_names_fingerprint_and_never_calls_out(store_path: Path):
    env = {"FXLOG_MODEL_STORE": str(store_path), "FXLOG_MODEL_MODE": "replay"}
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "never recorded"}, provider=Exploding(), env=env)
    err = info.value
    assert err.type == "replay_miss"
    assert len(str(err.evidence["fingerprint"])) == 64
    assert str(err.evidence["fingerprint"]) in err.message
    assert not store_path.exists()


def test_replay_provider_uses_answers_of_any_provider(store_path: Path):
    env = {"FXLOG_MODEL_STORE": str(store_path), "FXLOG_MODEL": "demo"}
    model = ScriptedModel([tool_calls([{"name": "t", "args": {}}]), {"done": "yes"}])
    tools = {"t": lambda: "tool result"}
    call_llm({"prompt": "p", "mode": "record"}, tools=tools, provider=model, env=env)
    replay_env = {**env, "FXLOG_MODEL_PROVIDER": "replay"}
    out, ev = call_llm({"prompt": "p"}, tools=tools, env=replay_env)
    assert out == {"done": "yes"} and ev["source"] == "stored" and ev["provider"] == "script"
    assert ev["turns"] == 2 and ev["calls"][0]["result"] == "tool result"
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "other"}, env=replay_env)
    assert info.value.type == "replay_miss"
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p"}, env={"FXLOG_MODEL_PROVIDER": "replay"})
    assert info.value.type == "invalid_request" and "FXLOG_MODEL" in info.value.message


def test_store_is_safe_from_many_threads(tmp_path: Path):
    store = AnswerStore(tmp_path / "deep" / "s.sqlite")
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(15):
                fp = f"{n:02d}-{i:02d}"
                store.put(fp, fp, "p", {"model": "m", "n": n}, ModelReply(text=json.dumps([n, i])))
                got = store.get(fp)
                assert got is not None and json.loads(got.reply.text) == [n, i]
        except BaseException as exc:  # collected for the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert errors == [] and store.count() == 8 * 15


def test_store_file_holds_requests_and_replies(store_path: Path):
    model = ScriptedModel([{"message": "hi"}])
    call_llm({"prompt": "p", "mode": "record"}, provider=model,
             env={"FXLOG_MODEL_STORE": str(store_path)})
    with sqlite3.connect(store_path) as conn:
        provider, model_name, request, reply = conn.execute(
            "SELECT provider, model, request, reply FROM answers").fetchone()
    conn.close()
    assert (provider, model_name) == ("script", "scripted")
    assert json.loads(request)["messages"][0]["content"].startswith("p\n\n")
    assert json.loads(reply)["text"] == '{"message": "hi"}'


def test_unusable_store_is_a_typed_error(tmp_path: Path):
    bad = tmp_path / "not-a-db.sqlite"
    bad.write_bytes(b"this is not sqlite at all, just bytes" * 10)
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p", "mode": "auto"}, provider=Exploding(),
                 env={"FXLOG_MODEL_STORE": str(bad)})
    assert info.value.type == "store_error" and isinstance(info.value.__cause__, sqlite3.Error)
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()  # an SQLite file without our table: nothing stored
    with pytest.raises(ModelCallError) as info:
        call_llm({"prompt": "p", "mode": "replay"}, provider=Exploding(),
                 env={"FXLOG_MODEL_STORE": str(empty)})
    assert info.value.type == "replay_miss"
