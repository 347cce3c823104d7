"""The ``fxlog`` commands through ``typer.testing.CliRunner``: exit codes, text and JSON.

Exit codes: 0 answered, 1 the program (or receipts) has errors, 2 the command
was used wrongly. JSON follows the documented schema
``{"answers": [{"query", "truth", "bindings": [{"vars", "truth"}], "pending"}],
"diagnostics": [{"code", "severity", "file", "line", "column", "message"}]}``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from fxlog.cli import app
from fxlog.client import Client

DATA = Path(__file__).parent / "data"
SEED_OPEN = (DATA / "answers" / "seed_open.fx").read_text(encoding="utf-8")
SEED_CLOSED = (DATA / "answers" / "seed_closed.fx").read_text(encoding="utf-8")
# The seed's receipt, without the file header (tests add it where they need it).
RECEIPT = "".join(
    line for line in (DATA / "answers" / "seed_receipt.receipts.fx")
    .read_text(encoding="utf-8").splitlines(keepends=True) if not line.startswith("//")
)

DIAGNOSTIC = {
    "type": "object",
    "required": ["code", "severity", "file", "line", "column", "message"],
    "properties": {
        "code": {"type": "string", "pattern": "^[EW]-[A-Z-]+$"},
        "severity": {"enum": ["error", "warning", "info"]},
        "file": {"type": "string"},
        "line": {"type": "integer", "minimum": 1},
        "column": {"type": "integer", "minimum": 1},
        "message": {"type": "string", "minLength": 1},
        "hint": {"type": "string"},
    },
    "additionalProperties": False,
}
QUERY_SCHEMA = {
    "type": "object",
    "required": ["answers", "diagnostics"],
    "additionalProperties": False,
    "properties": {
        "answers": {"type": "array", "items": {
            "type": "object",
            "required": ["query", "truth", "bindings", "pending"],
            "additionalProperties": False,
            "properties": {
                "query": {"type": "string", "pattern": r"^\?- .*\.$"},
                "truth": {"enum": ["true", "false", "unknown"]},
                "bindings": {"type": "array", "items": {
                    "type": "object",
                    "required": ["vars", "truth"],
                    "additionalProperties": False,
                    "properties": {
                        "vars": {"type": "object", "additionalProperties": {"type": "string"}},
                        "truth": {"enum": ["true", "unknown"]},
                    },
                }},
                "pending": {"type": "array", "items": {"type": "string"}},
            },
        }},
        "diagnostics": {"type": "array", "items": DIAGNOSTIC},
    },
}


def invoke(*args: str | Path) -> object:
    result = CliRunner().invoke(app, [str(a) for a in args])
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"traceback: {exc!r}\n{result.output}"
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    path = tmp_path / "tool-query.fx"
    path.write_text(SEED_OPEN, encoding="utf-8")
    return path


@pytest.fixture
def receipts(tmp_path: Path) -> Path:
    path = tmp_path / "tool-query.receipts.fx"
    path.write_text("// fxlog receipts v1\n" + RECEIPT, encoding="utf-8")
    return path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ query


def test_query_seed_open_world_is_unknown_and_names_the_request(seed: Path) -> None:
    result = invoke("query", seed)
    assert result.exit_code == 0
    assert "unknown" in result.stdout
    assert "checkHuman(socrates)" in result.stdout


def test_query_seed_closed_world_is_false(tmp_path: Path) -> None:
    result = invoke("query", write(tmp_path, "closed.fx", SEED_CLOSED))
    assert result.exit_code == 0
    assert "false" in result.stdout and "unknown" not in result.stdout


def test_query_seed_with_receipts_argument_is_true(seed: Path, receipts: Path) -> None:
    result = invoke("query", seed, receipts)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("?- "))
    assert line.split()[-1] == "true"
    assert "pending" not in result.stdout


def test_query_json_matches_the_schema(seed: Path) -> None:
    result = invoke("query", seed, "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    jsonschema.validate(data, QUERY_SCHEMA)
    assert data["answers"] == [{"query": '?- socrates[answer -> "true"].', "truth": "unknown",
                                "bindings": [], "pending": ["checkHuman(socrates)"]}]


def test_query_json_with_receipts(seed: Path, receipts: Path) -> None:
    result = invoke("query", seed, receipts, "-f", "json")
    data = json.loads(result.stdout)
    jsonschema.validate(data, QUERY_SCHEMA)
    assert [(a["truth"], a["pending"]) for a in data["answers"]] == [("true", [])]


def test_query_json_strings_keep_their_quotes_symbols_have_none(tmp_path: Path) -> None:
    path = write(tmp_path, "values.fx",
                 'v("abc"). v(abc). v(Human). v(\'any text\'). v(1.50). v("say \\"hi\\"").\n'
                 "?- v(?X).\n")
    data = json.loads(invoke("query", path, "--format", "json").stdout)
    jsonschema.validate(data, QUERY_SCHEMA)
    values = sorted(b["vars"]["X"] for b in data["answers"][0]["bindings"])
    assert values == sorted(['"abc"', "abc", "Human", "'any text'", "1.5", '"say \\"hi\\""'])


def test_query_json_bindings_hide_dont_care_variables(tmp_path: Path) -> None:
    path = write(tmp_path, "vars.fx", "p(a, b).\n?- p(?X, ?_Y).\n")
    data = json.loads(invoke("query", path, "--format", "json").stdout)
    assert data["answers"][0]["bindings"] == [{"vars": {"X": "a"}, "truth": "true"}]


def test_query_json_three_valued_bindings(tmp_path: Path) -> None:
    path = write(tmp_path, "loop.fx",
                 "p :- NOT q.\nq :- NOT p.\nc(1) :- p.\nc(2).\n?- p.\n?- c(?X).\n")
    data = json.loads(invoke("query", path, "--format", "json").stdout)
    jsonschema.validate(data, QUERY_SCHEMA)
    first, second = data["answers"]
    assert first["truth"] == "unknown"
    assert sorted((b["vars"]["X"], b["truth"]) for b in second["bindings"]) == [
        ("1", "unknown"), ("2", "true")]


def test_query_json_reports_warnings_as_diagnostics(tmp_path: Path) -> None:
    path = write(tmp_path, "warn.fx", "q(a, b).\np(?X) :- q(?X, ?Y).\n?- p(?X).\n")
    data = json.loads(invoke("query", path, "--format", "json").stdout)
    jsonschema.validate(data, QUERY_SCHEMA)
    assert [(d["code"], d["file"], d["line"]) for d in data["diagnostics"]] == [
        ("W-SINGLETON", str(path), 2)]


def test_query_text_lists_every_query_in_file_order(tmp_path: Path) -> None:
    path = write(tmp_path, "order.fx", "p(a).\n?- p(b).\n?- p(a).\n?- p(?X).\n")
    result = invoke("query", path)
    lines = [x for x in result.stdout.splitlines() if x.startswith("?- ")]
    assert [(x.split()[1], x.split()[-1]) for x in lines] == [
        ("p(b).", "false"), ("p(a).", "true"), ("p(?X).", "true")]
    assert "a" in result.stdout.split("?- p(?X).")[1]


def test_query_goal_option(tmp_path: Path) -> None:
    path = write(tmp_path, "goal.fx", "p(a). p(b).\n?- p(zzz).\n")
    result = invoke("query", path, "--goal", "p(?X)", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert len(data["answers"]) == 1
    assert sorted(b["vars"]["X"] for b in data["answers"][0]["bindings"]) == ["a", "b"]
    result = invoke("query", path, "-g", "?- p(c).")
    assert result.exit_code == 0 and "false" in result.stdout


def test_query_without_queries_says_so(tmp_path: Path) -> None:
    result = invoke("query", write(tmp_path, "none.fx", "p(a).\n"))
    assert result.exit_code == 0
    assert "no queries" in result.stdout


def test_query_program_error_exit_1_with_location_and_hint(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.fx", "p(a).\nq(?X) :- p(?X); r(?X).\n")
    result = invoke("query", path)
    assert result.exit_code == 1
    assert f"{path}:2:15: error[E-SEMI]" in result.stderr
    assert "hint:" in result.stderr and "^" in result.stderr


def test_query_json_program_error_is_json(tmp_path: Path) -> None:
    """A JSON consumer gets the errors in the documented diagnostics list, too."""
    path = write(tmp_path, "bad.fx", "p(a) q(b).\n")
    result = invoke("query", path, "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    jsonschema.validate(data, QUERY_SCHEMA)
    assert [(d["code"], d["line"], d["column"]) for d in data["diagnostics"]] == [
        ("E-PARSE", 1, 6)]


def test_query_goal_with_error_exit_1(tmp_path: Path) -> None:
    path = write(tmp_path, "goal.fx", "p(a).\n")
    result = invoke("query", path, "--goal", "p(")
    assert result.exit_code == 1
    assert "E-PARSE" in result.stderr


def test_query_no_answer_set_is_an_error(tmp_path: Path) -> None:
    result = invoke("query", write(tmp_path, "nomodel.fx", "p :- NOT p.\n?- p.\n"))
    assert result.exit_code == 1
    assert "E-NOMODEL" in result.stderr


@pytest.mark.parametrize("command", ["query", "check", "translate"])
def test_missing_program_is_a_usage_error(command: str, tmp_path: Path) -> None:
    result = invoke(command, tmp_path / "nope.fx")
    assert result.exit_code == 2
    assert "nope.fx" in result.stderr


@pytest.mark.parametrize("command", ["query", "check", "translate"])
def test_directory_as_program_is_a_usage_error(command: str, tmp_path: Path) -> None:
    result = invoke(command, tmp_path)
    assert result.exit_code == 2


def test_missing_receipts_file_is_a_usage_error(seed: Path, tmp_path: Path) -> None:
    result = invoke("query", seed, tmp_path / "nope.receipts.fx")
    assert result.exit_code == 2
    assert "nope.receipts.fx" in result.stderr


def test_receipts_file_with_a_rule_is_refused(seed: Path, tmp_path: Path) -> None:
    path = write(tmp_path, "evil.receipts.fx", RECEIPT + "p(?X) :- q(?X).\n")
    result = invoke("query", seed, path)
    assert result.exit_code == 1
    assert str(path) in result.stderr


def test_unknown_format_is_a_usage_error(seed: Path) -> None:
    assert invoke("query", seed, "--format", "xml").exit_code == 2


def test_unknown_option_is_a_usage_error(seed: Path) -> None:
    assert invoke("query", seed, "--frobnicate").exit_code == 2


def test_unknown_command_is_a_usage_error() -> None:
    assert invoke("frobnicate").exit_code == 2


def test_help() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("query", "check", "translate"):
        assert command in result.stdout


# ------------------------------------------------------------------ check


def test_check_ok(seed: Path) -> None:
    result = invoke("check", seed)
    assert result.exit_code == 0
    assert "ok" in result.stdout and "1 external" in result.stdout


def test_check_reports_warnings_but_succeeds(tmp_path: Path) -> None:
    path = write(tmp_path, "warn.fx", "q(a, b).\np(?X) :- q(?X, ?Y).\n")
    result = invoke("check", path)
    assert result.exit_code == 0
    assert f"{path}:2:16: warning[W-SINGLETON]" in result.stderr


def test_check_errors_exit_1_all_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.fx", "p(a.\nq(b)).\n% nope\n")
    result = invoke("check", path)
    assert result.exit_code == 1
    for place in (":1:4: error[E-PARSE]", ":2:5: error[E-PARSE]", ":3:1: error[E-PERCENT]"):
        assert place in result.stderr


def test_check_json_ok_and_errors(seed: Path, tmp_path: Path) -> None:
    ok = json.loads(invoke("check", seed, "--format", "json").stdout)
    assert ok["ok"] is True
    jsonschema.validate(ok["diagnostics"], {"type": "array", "items": DIAGNOSTIC})
    path = write(tmp_path, "bad.fx", "p(?X).\n")
    result = invoke("check", path, "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False
    jsonschema.validate(data["diagnostics"], {"type": "array", "items": DIAGNOSTIC})
    assert ("E-NONGROUND-FACT", str(path), 1, 1) in [
        (d["code"], d["file"], d["line"], d["column"]) for d in data["diagnostics"]]


def test_check_reports_class_cycle(tmp_path: Path) -> None:
    path = write(tmp_path, "cycle.fx", "a::b.\nb::a.\n")
    result = invoke("check", path)
    assert result.exit_code == 0
    assert "W-CYCLE" in result.stderr
    assert f"{path}:" in result.stderr


# -------------------------------------------------------------- translate


def test_translate_matches_the_library_and_is_byte_stable(seed: Path) -> None:
    first = invoke("translate", seed)
    second = invoke("translate", seed)
    assert first.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes
    client = Client()
    client.load(SEED_OPEN, file=str(seed))
    assert first.stdout == client.translate()


def test_translate_with_receipts(seed: Path, receipts: Path) -> None:
    result = invoke("translate", seed, receipts)
    assert result.exit_code == 0
    assert "checkHuman(socrates)" in result.stdout
    assert result.stdout != invoke("translate", seed).stdout


def test_translate_program_error_exit_1(tmp_path: Path) -> None:
    result = invoke("translate", write(tmp_path, "bad.fx", "p(?X).\n"))
    assert result.exit_code == 1
    assert "E-NONGROUND-FACT" in result.stderr


def test_translate_is_identical_across_processes_and_hash_seeds(tmp_path: Path) -> None:
    """Set and dict order must not leak into the ASP text (PYTHONHASHSEED varies)."""
    path = write(tmp_path, "mix.fx", (DATA / "asp" / "frames_sets.fx").read_text() + SEED_OPEN)
    outputs = set()
    for seed_value in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed_value}
        proc = subprocess.run([sys.executable, "-m", "fxlog", "translate", str(path)],
                              capture_output=True, env=env, timeout=60, check=False)
        assert proc.returncode == 0, proc.stderr.decode()
        outputs.add(proc.stdout)
    assert len(outputs) == 1
