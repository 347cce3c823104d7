"""``fxlog explain`` through typer's CliRunner: text, ``--format json``, ``--depth``, errors.

Run inside ``data/`` so ``file:line`` is printed with bare file names, as in
the golden files.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from fxlog.cli import app

from .conftest import DATA

TOP_KEYS = {"goal", "truth", "proof", "why_not", "pending", "request"}
NODE_KEYS = {"kind", "text", "source", "rule", "detail", "children"}
KINDS = {"rule", "fact", "receipt", "closure", "inherited", "builtin", "aggregate", "absent",
         "holds", "fails", "truncated"}


@pytest.fixture(autouse=True)
def in_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA)


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["explain", *args])


def golden_block(name: str, index: int) -> str:
    """The expected text of the index-th goal of a golden case."""
    text = (DATA / f"{name}.expected.txt").read_text(encoding="utf-8")
    return text.rstrip("\n").split("\n\n")[index] + "\n"


def check_node(node: dict[str, Any]) -> None:
    assert {"kind", "text", "children"} <= set(node) <= NODE_KEYS, node.keys()
    assert node["kind"] in KINDS
    assert isinstance(node["text"], str) and node["text"]
    for key in ("source", "rule"):
        assert key not in node or (isinstance(node[key], str) and node[key])
    assert "detail" not in node or (isinstance(node["detail"], dict) and node["detail"])
    for child in node["children"]:
        check_node(child)


@pytest.mark.parametrize(("name", "index", "goal"), [
    ("subclass_membership", 0, "?- x:c."),
    ("negation", 1, "?- q(b)."),
    ("inheritance_override", 0, "?- tweety[legs -> ?L]."),
    ("request_order", 0, "classify(d1)"),
])
def test_text_output_is_the_golden_tree(name: str, index: int, goal: str) -> None:
    receipts = [f"{name}.receipts.fx"] if (DATA / f"{name}.receipts.fx").exists() else []
    result = run(f"{name}.fx", *receipts, goal)
    assert result.exit_code == 0, result.output
    assert result.stdout == golden_block(name, index)


def test_seed_receipt_proof_in_text() -> None:
    result = run("seed.fx", "seed.receipts.fx", '?- socrates[answer -> "true"].')
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == '?- socrates[answer -> "true"].  true'
    assert ('checkHuman(socrates)[tool#status -> "succeeded"]  receipt  seed.receipts.fx:3  '
            "request: checkHuman(socrates)  tool: _query  status: succeeded") in result.stdout


@pytest.mark.parametrize(("args", "truth"), [
    (["seed.fx", "seed.receipts.fx", '?- socrates[answer -> "true"].'], "true"),
    (["negation.fx", "?- q(b)."], "false"),
    (["seed_pending.fx", '?- socrates[answer -> "true"].'], "unknown"),
    (["request_order.fx", "request_order.receipts.fx", "file(d1, \"invoice\")"], "true"),
])
def test_json_output_follows_the_documented_schema(args: list[str], truth: str) -> None:
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == TOP_KEYS
    assert data["goal"] == args[-1] and data["truth"] == truth
    assert (data["proof"] is not None) == (truth == "true")
    assert bool(data["why_not"]) == (truth == "false")
    assert bool(data["pending"]) == (truth == "unknown")
    for node in ([data["proof"]] if data["proof"] else []) + data["why_not"]:
        check_node(node)
    for row in data["pending"]:
        assert set(row) == {"request", "tool", "if_not_run", "if_succeeded", "if_failed"}
        assert {row[k] for k in ("if_not_run", "if_succeeded", "if_failed")} <= {
            "true", "false", "unknown"}
    if data["request"] is not None:
        assert set(data["request"]) == {"request", "order", "seq", "ran", "still_pending"}
        for ran in data["request"]["ran"]:
            assert set(ran) == {"seq", "request", "order"}


def test_json_request_explanation_gives_order_and_sequence() -> None:
    result = run("request_order.fx", "request_order.receipts.fx", "classify(d1)", "-f", "json")
    assert result.exit_code == 0, result.output
    request = json.loads(result.stdout)["request"]
    assert request == {
        "request": "classify(d1)", "order": "2", "seq": 2,
        "ran": [{"seq": 1, "request": "fetch(d1)", "order": "1"},
                {"seq": 2, "request": "classify(d1)", "order": "2"},
                {"seq": 3, "request": 'file(d1, "invoice")', "order": "3"}],
        "still_pending": [],
    }


def test_depth_option_bounds_the_why_not_tree() -> None:
    deep = run("why_not_chain.fx", "?- ready(?X).", "--depth", "3", "-f", "json")
    shallow = run("why_not_chain.fx", "?- ready(?X).", "--depth", "1", "-f", "json")
    assert deep.exit_code == shallow.exit_code == 0

    def height(node: dict[str, Any]) -> int:
        return 1 + max((height(c) for c in node["children"]), default=0)

    deep_tree = json.loads(deep.stdout)["why_not"][0]
    shallow_tree = json.loads(shallow.stdout)["why_not"][0]
    assert height(shallow_tree) < height(deep_tree)
    assert "signature(i1, ?_Who)" in deep.stdout
    assert "signature(i1, ?_Who)" not in shallow.stdout


@pytest.mark.parametrize(("args", "code", "message"), [
    (["missing.fx", "?- p."], 2, "missing.fx: no such file"),
    (["negation.fx", "missing.receipts.fx", "?- q(a)."], 2, "no such receipts file"),
    (["negation.fx", "?- q(a"], 1, "<goal>:1:"),
    (["negation.fx", "--depth", "-1", "?- q(a)."], 2, ""),
    (["negation.fx"], 2, "Missing argument"),
])
def test_errors_exit_with_documented_codes(args: list[str], code: int, message: str) -> None:
    result = run(*args)
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output
