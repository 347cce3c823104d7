"""Golden explanations: ``data/NAME.fx`` → ``NAME.expected.txt`` (and ``NAME.expected.json``).

``NAME.expected.txt`` is what ``fxlog explain`` prints for each ``// explain:``
goal of the case (``explanation_text``), the goals separated by a blank line.
``NAME.expected.json``, when present, is the list of ``Explanation.as_json()``
of the goals (the ``--format json`` schema of docs/explain.md).

``FXLOG_UPDATE_GOLDEN=1 pytest tests/explain`` rewrites the expected files from
the current implementation (a JSON file only where one exists already). The
expected files are the specification: review every rewritten file by hand
against docs/explain.md and LANGUAGE.md before keeping it. Values that are
absent are written ``-`` in text, as everywhere else in the CLI's text output.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from fxlog.explain import explain
from fxlog.explain.render import explanation_text

from .conftest import case_paths, load_case

UPDATE = os.environ.get("FXLOG_UPDATE_GOLDEN") == "1"
CASES = case_paths()


def _explain_all(path: Path) -> tuple[str, list[dict[str, Any]]]:
    case = load_case(path)
    results = [explain(case.kb, goal, case.depth) for goal in case.goals]
    text = "\n\n".join(explanation_text(e) for e in results) + "\n"
    return text, [e.as_json() for e in results]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_explanation_text(path: Path) -> None:
    text, _ = _explain_all(path)
    expected = path.with_name(path.stem + ".expected.txt")
    if UPDATE:
        expected.write_text(text, encoding="utf-8")
    assert expected.exists(), f"no {expected.name}; run with FXLOG_UPDATE_GOLDEN=1 and review"
    assert text == expected.read_text(encoding="utf-8")


JSON_CASES = [p for p in CASES if p.with_name(p.stem + ".expected.json").exists()]


@pytest.mark.parametrize("path", JSON_CASES, ids=[p.stem for p in JSON_CASES])
def test_explanation_json(path: Path) -> None:
    _, data = _explain_all(path)
    expected = path.with_name(path.stem + ".expected.json")
    if UPDATE:
        expected.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    assert data == json.loads(expected.read_text(encoding="utf-8"))


def test_every_case_has_expected_text() -> None:
    missing = [p.name for p in CASES if not p.with_name(p.stem + ".expected.txt").exists()]
    assert not missing
