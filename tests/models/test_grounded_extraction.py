"""Grounded extraction (issue 5): ``examples/extraction/`` end to end, offline.

The program asks ``_llm`` for an invoice total and the words that support it
(``quote``); its acceptance rule accepts the value only when the quote occurs in
the source text (ignoring case) and the value in the quote. Two stored answers
ship with the example: a truthful one (model ``demo-extractor``) and a lying one
(``demo-liar``, a quote that is not in the invoice). They run through the
episode host from the shipped store (``FXLOG_MODEL_PROVIDER=replay``) or from the
scripts (``script:answers.json``), and replay from the receipts runs nothing.
Model output is data: an answer written as fxlog syntax never becomes a rule.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fxlog.cli import app
from fxlog.client import Client
from fxlog.models import ModelCallError
from fxlog.syntax import ast
from fxlog.testing import ScriptedModel, load_script, use_model
from fxlog.tools.host import replay, run_episode
from fxlog.tools.receipt_log import load_receipts

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "extraction"
PROGRAM = EXAMPLE / "extraction.fx"
STORE = EXAMPLE / "models.sqlite"
INVOICE = (EXAMPLE / "invoice.txt").read_text(encoding="utf-8")
REQUEST = "extract(inv1, total)"

# (model recorded in the shipped store, script, workflow status, accepted total)
STORED = [
    ("demo-extractor", "answers.json", "accepted", "54.50"),
    ("demo-liar", "answers_lying.json", "rejected", None),
]


@pytest.fixture(autouse=True)
def hermetic(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No model settings leak in from the environment; no store is written in the repo."""
    for key in ("FXLOG_MODEL_PROVIDER", "FXLOG_MODEL", "FXLOG_MODEL_MODE", "FXLOG_SCRIPT_MODEL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("FXLOG_MODEL_STORE", str(tmp_path / "unused-store.sqlite"))
    monkeypatch.setenv("FXLOG_MODEL_RETRIES", "0")


def replay_store(monkeypatch: pytest.MonkeyPatch, model: str) -> None:
    monkeypatch.setenv("FXLOG_MODEL_PROVIDER", "replay")
    monkeypatch.setenv("FXLOG_MODEL", model)
    monkeypatch.setenv("FXLOG_MODEL_STORE", str(STORE))


def receipt_fields(receipts: Path, program: Path = PROGRAM) -> dict[str, Any]:
    """The `_llm` receipt as fxlog reads it back: one value per method."""
    with Client() as client:
        client.load(program)
        client.load_receipts(receipts)
        methods = ['tool#name', 'tool#status', 'result("value")', 'result("quote")',
                   'evidence("provider")', 'evidence("model")', 'evidence("source")',
                   'input("source")']
        out: dict[str, Any] = {}
        for method in methods:
            answer = client.query(f"?- {REQUEST}[{method} -> ?V].")
            values = [b.values["V"] for b in answer.bindings]
            assert len(values) <= 1, (method, values)
            if values:
                value = values[0]
                out[method] = value.value if isinstance(value, ast.Str) else value
        return out


def total(result: Any) -> str | None:
    [answer] = [a for a in result.answers if a.query.startswith("?- inv1[total")]
    if answer.truth != "true":
        return None
    [binding] = answer.bindings
    value = binding.values["Total"]
    assert isinstance(value, ast.Str)
    return value.value


# ------------------------------------------------------------ the example itself


def test_program_holds_the_shipped_source_text() -> None:
    with Client() as client:
        client.load(PROGRAM)
        [binding] = client.query("?- inv1[source -> ?T].").bindings
    assert binding.values["T"] == ast.Str(INVOICE, binding.values["T"].span)


@pytest.mark.parametrize(("model", "script", "status", "value"), STORED,
                         ids=[s[0] for s in STORED])
def test_stored_answer_runs_offline_and_rules_decide(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, model: str, script: str, status: str,
        value: str | None) -> None:
    replay_store(monkeypatch, model)
    out = tmp_path / "run.receipts.fx"
    result = run_episode(PROGRAM, receipts_out=out)
    assert (result.end_reason, result.status, result.actions) == ("workflow", status, 1)
    assert result.executed == [REQUEST]
    assert total(result) == value
    answer = json.loads((EXAMPLE / script).read_text(encoding="utf-8"))["turns"][0]["answer"]
    fields = receipt_fields(out)
    assert fields == {
        "tool#name": "_llm", "tool#status": "succeeded",
        'result("value")': answer["value"], 'result("quote")': answer["quote"],
        'evidence("provider")': "script", 'evidence("model")': model,
        'evidence("source")': "stored", 'input("source")': INVOICE,
    }
    # The lying quote really is absent from the invoice, the truthful one present.
    assert (answer["quote"].lower() in INVOICE.lower()) == (status == "accepted")


@pytest.mark.parametrize(("model", "script", "status", "value"), STORED,
                         ids=[s[0] for s in STORED])
def test_replay_of_the_receipts_gives_the_same_answers_and_runs_nothing(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, model: str, script: str, status: str,
        value: str | None) -> None:
    replay_store(monkeypatch, model)
    out = tmp_path / "run.receipts.fx"
    ran = run_episode(PROGRAM, receipts_out=out)
    before = out.read_bytes()
    # Any model call from here on would fail loudly (empty script).
    monkeypatch.setenv("FXLOG_MODEL_STORE", str(tmp_path / "empty.sqlite"))
    with use_model(ScriptedModel([])) as model_double:
        again = replay(PROGRAM, [out])
        cli = CliRunner().invoke(app, ["replay", str(PROGRAM), str(out), "--check"])
    assert model_double.requests == []
    assert (again.end_reason, again.status, again.actions) == ("workflow", status, 0)
    assert again.executed == [] and again.pending == []
    assert [a.as_json() for a in again.answers] == [a.as_json() for a in ran.answers]
    assert total(again) == value
    assert cli.exit_code == 0, cli.output
    assert out.read_bytes() == before
    assert not (tmp_path / "empty.sqlite").exists()


@pytest.mark.parametrize(("model", "script", "status", "value"), STORED,
                         ids=[s[0] for s in STORED])
def test_scripts_run_through_the_cli(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                     model: str, script: str, status: str,
                                     value: str | None) -> None:
    # A copy per test: the process keeps one scripted model per script file.
    copy = tmp_path / script
    shutil.copy(EXAMPLE / script, copy)
    monkeypatch.setenv("FXLOG_MODEL_PROVIDER", f"script:{copy}")
    out = tmp_path / "run.receipts.fx"
    result = CliRunner().invoke(app, ["run", str(PROGRAM), "-o", str(out), "-f", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["end_reason"], data["status"], data["actions"]) == ("workflow", status, 1)
    fields = receipt_fields(out)
    assert (fields['evidence("provider")'], fields['evidence("model")'],
            fields['evidence("source")']) == ("script", model, "live")
    assert not load_receipts(out).warnings


def _walk(node: Any) -> list[Any]:
    return [node, *(n for c in node.children for n in _walk(c))]


def test_acceptance_and_rejection_are_explained(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    """``fxlog explain`` shows the quote check: proved for the truthful answer,
    the first failing literal for the lying one."""
    for model, _script, status, _value in STORED:
        replay_store(monkeypatch, model)
        out = tmp_path / f"{model}.receipts.fx"
        run_episode(PROGRAM, receipts_out=out)
        with Client() as client:
            client.load(PROGRAM)
            client.load_receipts(out)
            e = client.explain("?- workflow[status -> accepted].", depth=4)
        if status == "accepted":
            assert e.truth == "true" and e.proof is not None
            nodes = {(n.kind, n.text) for n in _walk(e.proof)}
            assert ("receipt", f'{REQUEST}[result("quote") -> "Total due: 54.50 EUR"]') in nodes
            assert ("builtin", 'contains("Total due: 54.50 EUR", "54.50")') in nodes
        else:
            assert e.truth == "false"
            fails = [n for tree in e.why_not for n in _walk(tree)
                     if n.kind == "fails" and n.text.startswith("contains(")]
            assert [n.text.endswith('"total due: 45.50 eur")') for n in fails] == [True]


# ------------------------------------------------------- the acceptance rule


def run_with(answer: object, tmp_path: Path) -> tuple[Any, Path]:
    out = tmp_path / "run.receipts.fx"
    with use_model(ScriptedModel([answer], model="unit")) as model:
        result = run_episode(PROGRAM, receipts_out=out)
    assert model.remaining == 0
    # The model was shown the source text (the rules put it into the prompt).
    assert INVOICE in model.received[0][-1]["content"]
    return result, out


@pytest.mark.parametrize(("answer", "status", "value"), [
    ({"value": "54.50", "quote": "Total due: 54.50 EUR"}, "accepted", "54.50"),
    ({"value": "54.50", "quote": "TOTAL DUE: 54.50 eur"}, "accepted", "54.50"),
    ({"value": "54.50", "quote": "54.50"}, "accepted", "54.50"),
    ({"value": "45.50", "quote": "Total due: 45.50 EUR"}, "rejected", None),
    ({"value": "99.00", "quote": "Total due: 54.50 EUR"}, "rejected", None),
    ({"value": "54.50", "quote": "Total due:  54.50 EUR"}, "rejected", None),
    ({"value": "", "quote": ""}, "rejected", None),
    ({"value": "54.50"}, "rejected", None),
    ("The total is 54.50 EUR.", "rejected", None),
    (ModelCallError("unreachable", "scripted outage"), "failed", None),
], ids=["verbatim", "other-case", "bare-number", "quote-not-in-text", "value-not-in-quote",
        "extra-space", "empty-quote", "no-quote", "not-json", "model-down"])
def test_acceptance_rule(tmp_path: Path, answer: object, status: str,
                         value: str | None) -> None:
    result, _ = run_with(answer, tmp_path)
    assert (result.end_reason, result.status) == ("workflow", status)
    assert total(result) == value


# ------------------------------------------------------ model output is data


PAYLOADS = [
    'x"]. evil(y) :- true. //',
    'x\\"]. evil(y). /* ',
    "?- evil(y). % not a comment",
    "'quoted' symbol ]]. evil(y).\n// a new line",
    "tab\there \u00e9 \u4e2d \U0001f600 \\u0041 \\n",
    "nul\x00byte and del\x7f",
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_model_output_in_fxlog_syntax_is_stored_as_data(tmp_path: Path, payload: str) -> None:
    quote = 'Total due: 54.50 EUR"]. has_accepted(inv1, total). evil(y) :- true. //'
    result, out = run_with({"value": payload, "quote": quote}, tmp_path)
    # The forged "fact" in the quote is not a fact: the quote is not in the text.
    assert (result.end_reason, result.status) == ("workflow", "rejected")
    loaded = load_receipts(out)
    assert not loaded.warnings
    fields = receipt_fields(out)
    assert fields['result("value")'] == payload
    assert fields['result("quote")'] == quote
    with Client() as client:
        client.load(PROGRAM)
        client.load_receipts(out)
        assert client.query("?- evil(?X).").truth == "false"
        assert client.query("?- has_accepted(inv1, total).").truth == "false"
        rules = client.kb.translation().asp.text
    assert "evil" not in rules.split("% receipts")[0]


def test_shipped_store_holds_one_answer_per_script() -> None:
    """``models.sqlite`` is what ``record_store.py`` makes of the two scripts; the stored
    answers themselves are checked against the scripts by the offline runs above."""
    from fxlog.models.store import AnswerStore

    assert AnswerStore(STORE).count() == len(STORED)
    for _model, script, _status, _value in STORED:
        assert len(load_script(EXAMPLE / script).turns) == 1
