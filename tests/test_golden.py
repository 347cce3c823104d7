"""Golden tests: `tests/data/<stage>/*.fx` with the expected output beside each file.

Stages:

* ``answers``: ``name.fx`` (+ optional ``name.receipts.fx``, loaded as a receipts
  file) → ``name.expected.json``, the CLI's JSON answer schema
  ``{"answers": [{"query", "truth", "bindings": [{"vars", "truth"}], "pending"}]}``.
  Binding and pending order carries no meaning and is compared sorted; query
  texts are compared after a parse/print round, so they pin meaning and order.
* ``diagnostics``: ``name.fx`` → ``name.expected.json``:
  ``{"diagnostics": [{"code", "severity", "line", "column"[, "message_contains"]
  [, "hint_contains"]}]}``. The list must match exactly (as a set, sorted by
  place); every diagnostic must carry a hint.
* ``asp``: ``name.fx`` → ``name.lp``, the exact text ``fxlog translate`` prints.

``FXLOG_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` rewrites the expected files
from the current implementation. The expected files are the specification
(docs/language.md, LANGUAGE.md): review every rewritten file by hand before
keeping it, never bless a wrong answer.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from fxlog.client import Client
from fxlog.errors import ProgramError
from fxlog.syntax.parser import parse_query_text
from fxlog.syntax.printer import formula_text

DATA = Path(__file__).parent / "data"
UPDATE = os.environ.get("FXLOG_UPDATE_GOLDEN") == "1"


def _cases(stage: str) -> list[Path]:
    return sorted(p for p in (DATA / stage).glob("*.fx") if not p.name.endswith(".receipts.fx"))


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def _write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------- answers


def _key(item: object) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False)


def _canonical_query(text: str) -> str:
    """The query as the printer writes it today, so layout changes do not break goldens."""
    return "?- " + formula_text(parse_query_text(text).body) + "."


def _normalise_answer(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "query": _canonical_query(answer["query"]),
        "truth": answer["truth"],
        "bindings": sorted(answer["bindings"], key=_key),
        "pending": sorted(answer["pending"]),
    }


def _answers(path: Path) -> dict[str, Any]:
    client = Client()
    client.load(path.read_text(encoding="utf-8"), file=path.name)
    receipts = path.with_name(path.stem + ".receipts.fx")
    if receipts.exists():
        client.load_receipts(receipts)
    return {"answers": [_normalise_answer(a.as_json()) for a in client.answers()]}


@pytest.mark.parametrize("path", _cases("answers"), ids=_ids(_cases("answers")))
def test_answers(path: Path) -> None:
    actual = _answers(path)
    expected_path = path.with_suffix(".expected.json")
    if UPDATE:
        _write_json(expected_path, actual)
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    expected = {"answers": [_normalise_answer(a) for a in expected["answers"]]}
    # Compare query by query first, so a failure names the query that differs.
    for got, want in zip(actual["answers"], expected["answers"], strict=False):
        assert got == want, f"{path.name}: {want['query']}"
    assert actual == expected


# ------------------------------------------------------------------- diagnostics


def _diagnostics(path: Path) -> list[dict[str, Any]]:
    client = Client()
    try:
        client.load(path.read_text(encoding="utf-8"), file=path.name)
        found = client.check()
    except ProgramError as exc:
        found = list(exc.diagnostics)
    out = []
    for d in found:
        assert d.span.file == path.name, f"{d.code} points into {d.span.file}"
        assert d.hint, f"{d.code} at {d.span} has no hint"
        assert d.message
        out.append({"code": d.code, "severity": d.severity, "line": d.span.line,
                    "column": d.span.column, "_message": d.message, "_hint": d.hint})
    return sorted(out, key=lambda d: (d["line"], d["column"], d["code"]))


def _place(d: dict[str, Any]) -> tuple[str, str, int, int]:
    return (d["code"], d["severity"], d["line"], d["column"])


@pytest.mark.parametrize("path", _cases("diagnostics"), ids=_ids(_cases("diagnostics")))
def test_diagnostics(path: Path) -> None:
    actual = _diagnostics(path)
    expected_path = path.with_suffix(".expected.json")
    if UPDATE:
        old = {}
        if expected_path.exists():
            old = {_place(d): d for d in json.loads(expected_path.read_text())["diagnostics"]}
        fresh = []
        for d in actual:
            entry = {k: v for k, v in d.items() if not k.startswith("_")}
            entry.update({k: v for k, v in old.get(_place(d), {}).items()
                          if k.endswith("_contains")})
            fresh.append(entry)
        _write_json(expected_path, {"diagnostics": fresh})
    expected = json.loads(expected_path.read_text(encoding="utf-8"))["diagnostics"]
    assert sorted(map(_place, actual)) == sorted(map(_place, expected)), [
        f"{d['code']} {d['line']}:{d['column']} {d['_message']} (hint: {d['_hint']})"
        for d in actual
    ]
    by_place = {_place(d): d for d in actual}
    for want in expected:
        got = by_place[_place(want)]
        if "message_contains" in want:
            assert want["message_contains"] in got["_message"], got["_message"]
        if "hint_contains" in want:
            assert want["hint_contains"] in got["_hint"], got["_hint"]


# --------------------------------------------------------------------------- asp


@pytest.mark.parametrize("path", _cases("asp"), ids=_ids(_cases("asp")))
def test_asp(path: Path) -> None:
    client = Client()
    client.load(path.read_text(encoding="utf-8"), file=path.name)
    actual = client.translate()
    expected_path = path.with_suffix(".lp")
    if UPDATE:
        expected_path.write_text(actual, encoding="utf-8")
    assert actual == expected_path.read_text(encoding="utf-8")


def test_every_golden_input_has_its_expected_file() -> None:
    missing = [p.name for p in _cases("answers") + _cases("diagnostics")
               if not p.with_suffix(".expected.json").exists()]
    missing += [p.name for p in _cases("asp") if not p.with_suffix(".lp").exists()]
    assert not missing
