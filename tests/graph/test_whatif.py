"""``fxlog replay --override``: answers and requests recomputed from changed receipts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fxlog.cli_extra import replay_what_if
from fxlog.errors import UsageError
from fxlog.syntax import ast
from fxlog.whatif import parse_override, what_if


def test_parse_override_forms() -> None:
    o = parse_override("fetch(d1)=failed")
    assert o.status == "failed" and o.method is None
    o = parse_override('history("a = b").row(1, "paid")=7')
    assert o.request == ast.Compound(ast.Sym("history"), (ast.Str("a = b"),))
    assert (o.method, o.keys, o.value) == ("row", (ast.Num(1), ast.Str("paid")), ast.Num(7))
    for bad in ("fetch(d1)", "fetch(d1)=maybe", "fetch(d1).result(k, j)=1", "f(?X)=failed",
                'fetch(d1).result("k")=some value'):
        with pytest.raises(UsageError):
            parse_override(bad)


def test_failed_fetch_removes_the_chain(three_step: Path, three_step_receipts: Path) -> None:
    diff = what_if(three_step, [three_step_receipts], ["fetch(d1)=failed"]).diff()
    assert diff.disappeared == ["classify(d1)"]
    assert diff.appeared == []
    assert diff.workflow_after == ['"failed"', '"filed"']
    assert "more than one" in diff.text()


def test_other_label_derives_another_request(three_step: Path,
                                              three_step_receipts: Path) -> None:
    result = what_if(three_step, [three_step_receipts],
                     ['classify(d1).result("label")="receipt"'])
    diff = result.diff()
    assert diff.appeared == ['file(d1, "receipt")']
    assert diff.disappeared == ['file(d1, "invoice")']
    assert diff.pending_after == ['file(d1, "receipt")']
    assert [(r["binding"], r["before"], r["after"]) for r in diff.answers] == [
        ('?D = d1, ?Label = "invoice"', "true", "false"),
        ('?D = d1, ?Label = "receipt"', "false", "true")]
    assert result.before.pending == []


def test_pending_request_can_be_assumed(three_step: Path, tmp_path: Path,
                                        three_step_receipts: Path) -> None:
    partial = tmp_path / "first.receipts.fx"
    partial.write_text("\n".join(three_step_receipts.read_text().splitlines()[:3]) + "\n")
    diff = what_if(three_step, [partial], ['classify(d1).result("label")="memo"']).diff()
    assert diff.appeared == ['file(d1, "memo")']
    assert diff.pending_before == ["classify(d1)"]
    assert diff.pending_after == ['file(d1, "memo")']


def test_no_change_and_unknown_request(three_step: Path, three_step_receipts: Path) -> None:
    same = what_if(three_step, [three_step_receipts], ["fetch(d1)=succeeded"]).diff()
    assert same.text() == "no change"
    with pytest.raises(UsageError, match="did you mean `fetch\\(d1\\)`"):
        what_if(three_step, [three_step_receipts], ["fetch(d2)=failed"])


def test_receipts_on_disk_are_untouched(three_step: Path, three_step_receipts: Path) -> None:
    before = three_step_receipts.read_bytes()
    what_if(three_step, [three_step_receipts], ["fetch(d1)=failed"])
    assert three_step_receipts.read_bytes() == before


def test_replay_what_if_output(three_step: Path, three_step_receipts: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    replay_what_if(three_step, [three_step_receipts], ["fetch(d1)=failed"], "text")
    out = capsys.readouterr().out
    assert out.startswith("what if fetch(d1)=failed:\n")
    assert "request disappears: classify(d1)" in out
    replay_what_if(three_step, [three_step_receipts], ["fetch(d1)=failed"], "json")
    data = json.loads(capsys.readouterr().out)
    assert data["requests_disappear"] == ["classify(d1)"]
    assert data["overrides"] == ["fetch(d1)=failed"]
