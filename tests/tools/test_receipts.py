"""JSON → receipt facts (LANGUAGE.md §5): each mapping rule, each limit, escaping.

Every check goes through the real reader: a line is only right if
:func:`load_receipts_text` gives back exactly the facts that were meant.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fxlog.syntax import ast
from fxlog.syntax.parser import parse_program
from fxlog.tools.receipt_log import HEADER, load_receipts_text, parse_term, term_text
from fxlog.tools.receipts import (
    MAX_FIELDS,
    MAX_ROW_FIELDS,
    MAX_ROWS,
    Failure,
    OutputFacts,
    check_output,
    failure_from_exception,
    interrupted_receipt,
    receipt_facts,
    start_marker,
    value_text,
)

EVIL = '"]. evil(x) :- true.'


def write(output: object, **overrides: object) -> str:
    fields: dict[str, object] = {
        "status": "succeeded", "output": output, "evidence": {}, "inputs": {},
        "tool_name": "_query", "seq": 3, "started": "2026-05-01T10:00:00Z",
        "finished": "2026-05-01T10:00:01Z", "duration_ms": 12,
    }
    fields.update(overrides)
    return receipt_facts("checkHuman(socrates)", **fields)  # type: ignore[arg-type]


def python_value(term: ast.Term) -> object:
    if isinstance(term, ast.Sym) and term.name in ("true", "false"):
        return term.name == "true"
    if isinstance(term, (ast.Str, ast.Num)):
        return term.value
    return term_text(term)


def read_back(line: str) -> dict[str, object]:
    """The facts of one written line as {method text: value}, via the real reader."""
    assert line.endswith(".\n") and line.count("\n") == 1
    loaded = load_receipts_text(f"{HEADER}\n{line}", "r.fx")
    assert not loaded.warnings
    (stmt,) = loaded.program.statements
    assert isinstance(stmt, ast.Rule) and stmt.body is None
    (lit,) = stmt.head
    assert term_text(lit.atom.subject) == "checkHuman(socrates)"
    out: dict[str, object] = {}
    for spec in lit.atom.frames[0].specs:
        (value,) = spec.values
        key = term_text(spec.method)
        assert key not in out, f"duplicate fact {key}"
        out[key] = python_value(value)
    return out


def payload(facts: dict[str, object]) -> dict[str, object]:
    """Only the facts that come from the output (results, rows, ignored, errors)."""
    prefixes = ("result(", "row(", "tool#ignored(", "error(")
    return {k: v for k, v in facts.items() if k.startswith(prefixes)}


# ----------------------------------------------------------------- mapping rules


def test_success_line_has_bookkeeping_inputs_results_rows_ignored_evidence() -> None:
    line = write(
        {"status": "true", "rows": [{"name": "ada"}], "meta": {"a": 1}},
        evidence={"model": "x", "calls": [{"tool": "lookup"}]},
        inputs={"query": '"?- socrates:Human."'},
    )
    assert line.startswith("checkHuman(socrates)[tool#completed -> true; ")
    assert read_back(line) == {
        "tool#completed": True, "tool#status": "succeeded", "tool#name": "_query",
        "tool#seq": 3, "tool#started": "2026-05-01T10:00:00Z",
        "tool#finished": "2026-05-01T10:00:01Z", "tool#duration_ms": 12,
        'input("query")': "?- socrates:Human.", 'result("status")': "true",
        'row(1, "name")': "ada", 'tool#ignored("meta")': True,
        'evidence("model")': "x", 'call(1, "tool")': "lookup",
    }


def test_rows_are_numbered_from_one_per_field() -> None:
    facts = read_back(write({"rows": [{"a": 1, "b": "x"}, {"a": 2}]}))
    assert payload(facts) == {'row(1, "a")': 1, 'row(1, "b")': "x", 'row(2, "a")': 2}


def test_top_level_objects_and_lists_are_only_marked_ignored() -> None:
    facts = read_back(write({"meta": {"deep": [1, 2]}, "tags": ["a", "b"], "n": 1}))
    assert payload(facts) == {
        'tool#ignored("meta")': True, 'tool#ignored("tags")': True, 'result("n")': 1,
    }


def test_null_adds_no_fact_anywhere() -> None:
    facts = read_back(write({"a": None, "rows": [{"x": None, "y": 1}]}))
    assert payload(facts) == {'row(1, "y")': 1}
    assert payload(read_back(write({"rows": None}))) == {}


def test_booleans_are_true_and_false() -> None:
    line = write({"yes": True, "no": False})
    assert 'result("yes") -> true; result("no") -> false' in line
    assert payload(read_back(line)) == {'result("yes")': True, 'result("no")': False}


@pytest.mark.parametrize(
    "value", [0, -7, 2**31, -(2**63) - 1, 10**200, -(10**5000) + 1],
    ids=["0", "-7", "2^31", "-2^63-1", "10^200", "-10^5000+1"],
)
def test_integers_are_exact_at_any_size(value: int) -> None:
    assert payload(read_back(write({"n": value}))) == {'result("n")': value}


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.1, "0.1"), (0.93, "0.93"), (1e-7, "1e-07"), (-2.5e3, "-2500.0"), (1e300, "1e+300")],
)
def test_floats_are_the_exact_decimal_of_their_shortest_repr(value: float, text: str) -> None:
    line = write({"x": value})
    assert f'result("x") -> {text}].' in line
    got = payload(read_back(line))['result("x")']
    assert isinstance(got, (int, Decimal)) and got == Decimal(text)


def test_decimals_are_exact() -> None:
    value = Decimal("12345678901234567890.000000000000000000001")
    line = write({"d": value, "e": Decimal("1.50")})
    assert 'result("d") -> 12345678901234567890.000000000000000000001;' in line
    facts = payload(read_back(line))
    assert facts['result("d")'] == value and facts['result("e")'] == Decimal("1.5")


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan, Decimal("NaN"), Decimal("-Inf")])
def test_non_finite_numbers_fail_the_call(bad: object) -> None:
    result = check_output({"x": bad})
    assert isinstance(result, Failure) and result.type == "invalid_output"
    assert "finite" in result.message


@pytest.mark.parametrize("output", [[1, 2], "text", 3, None])
def test_output_must_be_an_object(output: object) -> None:
    result = check_output(output)
    assert isinstance(result, Failure) and result.type == "invalid_output"
    assert "JSON object" in result.message


@pytest.mark.parametrize(
    ("output", "needle"),
    [
        ({"rows": [{"a": [1]}]}, "row 1, field 'a'"),
        ({"rows": [{"ok": 1}, {"a": {"b": 1}}]}, "row 2, field 'a'"),
        ({"rows": "abc"}, '"rows"'),
        ({"rows": [1]}, "row 1 is a int"),
        ({"x": b"bytes"}, "field 'x' is a bytes"),
        ({1: "x"}, "not a string"),
    ],
)
def test_malformed_output_fails_the_call_and_says_where(output: object, needle: str) -> None:
    result = check_output(output)
    assert isinstance(result, Failure) and result.type == "invalid_output"
    assert needle in result.message


# ---------------------------------------------------------------------- limits


def test_exactly_64_top_level_fields_pass() -> None:
    result = check_output({f"k{i}": i for i in range(MAX_FIELDS)})
    assert isinstance(result, OutputFacts) and len(result.results) == 64


def test_65_top_level_fields_fail_naming_the_limit() -> None:
    result = check_output({f"k{i}": i for i in range(MAX_FIELDS + 1)})
    assert result == Failure(
        "limit_exceeded", "limit max_fields exceeded: 65 top-level fields, at most 64 allowed"
    )


def test_exactly_64_rows_pass_and_65_fail() -> None:
    ok = check_output({"rows": [{"i": i} for i in range(MAX_ROWS)]})
    assert isinstance(ok, OutputFacts) and len(ok.rows) == 64
    bad = check_output({"rows": [{"i": i} for i in range(MAX_ROWS + 1)]})
    assert isinstance(bad, Failure) and bad.type == "limit_exceeded"
    assert "max_rows" in bad.message and "65 rows" in bad.message


def test_exactly_64_fields_per_row_pass_and_65_fail() -> None:
    ok = check_output({"rows": [{f"c{i}": i for i in range(MAX_ROW_FIELDS)}]})
    assert isinstance(ok, OutputFacts) and len(ok.rows[0]) == 64
    bad = check_output({"rows": [{}, {f"c{i}": i for i in range(MAX_ROW_FIELDS + 1)}]})
    assert isinstance(bad, Failure) and bad.type == "limit_exceeded"
    assert "max_row_fields" in bad.message and "row 2" in bad.message


def test_a_full_64_by_64_output_round_trips() -> None:
    rows = [{f"c{c}": r * 100 + c for c in range(64)} for r in range(64)]
    facts = payload(read_back(write({"rows": rows})))
    assert len(facts) == 64 * 64 and facts['row(64, "c63")'] == 6363


# --------------------------------------------------------------------- failures


def test_a_mapping_failure_is_written_as_a_failed_receipt_without_results() -> None:
    line = write({"ok": 1, "rows": [{"a": [1]}], "meta": {}},
                 evidence={"model": "m"}, inputs={"q": "1"})
    facts = read_back(line)
    assert facts["tool#status"] == "failed" and facts["tool#completed"] is True
    assert facts['error("type")'] == "invalid_output"
    assert not any(k.startswith(("result(", "row(", "tool#ignored(")) for k in facts)
    assert facts['evidence("model")'] == "m" and facts['input("q")'] == 1
    assert facts["tool#duration_ms"] == 12 and "tool#started" in facts


def test_a_tool_error_is_written_as_failed_and_ignores_the_output() -> None:
    error = failure_from_exception(PermissionError("refused: use SELECT"))
    facts = read_back(write({"ok": 1}, status="failed", error=error))
    assert payload(facts) == {
        'error("type")': "tool_error", 'error("message")': "PermissionError: refused: use SELECT",
    }


def test_status_and_error_must_agree() -> None:
    with pytest.raises(ValueError, match="status"):
        write({}, status="failed")
    with pytest.raises(ValueError, match="status"):
        write({}, error=Failure("x", "y"))


# --------------------------------------------------------------------- evidence


def test_evidence_calls_become_call_facts_and_other_structures_json_text() -> None:
    evidence = {
        "calls": [{"tool": "lookup", "args": {"id": 1}}, {"tool": "sum", "n": None}],
        "usage": {"tokens": 12},
        "score": 0.5,
        "odd": math.nan,
    }
    facts = read_back(write({}, evidence=evidence))
    assert {k: v for k, v in facts.items() if k.startswith(("call(", "evidence("))} == {
        'call(1, "tool")': "lookup", 'call(1, "args")': '{"id": 1}', 'call(2, "tool")': "sum",
        'evidence("usage")': '{"tokens": 12}', 'evidence("score")': Decimal("0.5"),
        'evidence("odd")': "NaN",
    }


def test_calls_that_are_not_a_list_of_objects_are_kept_as_json_text() -> None:
    facts = read_back(write({}, evidence={"calls": ["a", 1]}))
    assert facts['evidence("calls")'] == '["a", 1]'


def test_evidence_never_fails_a_call() -> None:
    loop: list[object] = []
    loop.append(loop)
    facts = read_back(write({"a": 1}, evidence={"cyclic": loop, "obj": object()}))
    assert facts["tool#status"] == "succeeded"
    assert str(facts['evidence("cyclic")']).startswith("[")


# -------------------------------------------------------------------- escaping


def test_the_evil_string_stays_a_string() -> None:
    line = write({EVIL: EVIL, "rows": [{EVIL: EVIL}]}, evidence={EVIL: EVIL})
    loaded = load_receipts_text(f"{HEADER}\n{line}", "r.fx")
    assert len(loaded.program.statements) == 1
    facts = read_back(line)
    assert facts[f"result({term_text(ast.Str(EVIL))})"] == EVIL
    assert facts[f"row(1, {term_text(ast.Str(EVIL))})"] == EVIL
    assert facts[f"evidence({term_text(ast.Str(EVIL))})"] == EVIL


@pytest.mark.parametrize(
    "text",
    ['say "hi"', "back\\slash\\", "line\nbreak\r\n", "tab\there", "üñí©ødé 日本 🎉",
     "\x00\x01\x1f\x7f\x85\u2028\u2029", "lone \ud800 surrogate \udfff", "\\u0041 not an escape",
     "", "'", "//", "/* x */", "%", "?X", EVIL],
)
def test_strings_round_trip_exactly_as_keys_and_values(text: str) -> None:
    facts = read_back(write({text: text}, evidence={"e": text}))
    assert facts[f"result({term_text(ast.Str(text))})"] == text
    assert facts['evidence("e")'] == text


# ------------------------------------------------------------------ round trip

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers() | st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.decimals(allow_nan=False, allow_infinity=False),
    st.text(st.characters(codec=None, exclude_categories=())),
)
_keys = st.text(st.characters(exclude_categories=()), max_size=12)


def same_value(written: object, read: object) -> bool:
    if isinstance(written, bool) or isinstance(written, str):
        return type(read) is type(written) and read == written
    if isinstance(written, float):
        return read == Decimal(repr(written))
    return isinstance(read, (int, Decimal)) and read == written


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_keys, _scalars, max_size=MAX_FIELDS))
def test_any_flat_object_reads_back_as_written(output: dict[str, object]) -> None:
    facts = payload(read_back(write(output)))
    expected = {k: v for k, v in output.items() if v is not None}
    assert len(facts) == len(expected)
    for key, value in expected.items():
        assert same_value(value, facts[f"result({term_text(ast.Str(key))})"]), (key, value)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(_keys, _scalars, max_size=8), max_size=8))
def test_any_flat_rows_read_back_as_written(rows: list[dict[str, object]]) -> None:
    facts = payload(read_back(write({"rows": rows})))
    for n, row in enumerate(rows, start=1):
        for key, value in row.items():
            name = f"row({n}, {term_text(ast.Str(key))})"
            assert (name not in facts) if value is None else same_value(value, facts[name])


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(_keys, st.one_of(
    st.booleans(), st.integers(min_value=0), st.text(), st.decimals(min_value=0, allow_nan=False,
                                                                     allow_infinity=False)),
    max_size=6))
def test_the_fast_reader_agrees_with_the_parser(output: dict[str, object]) -> None:
    """Negative values are left out: the grammar does not accept `m -> -5` inside a frame."""
    line = write(output)
    fast = load_receipts_text(line, "r.fx").program.statements
    assert fast == parse_program(line, "r.fx").statements


# ----------------------------------------------------- markers, terms, guards


def test_start_marker_line() -> None:
    assert start_marker("lookup(7)", tool_name="sql_query", seq=3, started="t0") == (
        'lookup(7)[tool#started -> "t0"; tool#seq -> 3; tool#name -> "sql_query"].\n'
    )


def test_interrupted_receipt_is_a_failed_completion() -> None:
    line = interrupted_receipt("checkHuman(socrates)", tool_name="_query", seq=3, started="t0",
                               inputs={"query": '"q"'})
    facts = read_back(line)
    assert facts["tool#completed"] is True and facts["tool#status"] == "failed"
    assert facts['error("type")'] == "interrupted" and facts['input("query")'] == "q"
    assert "tool#finished" not in facts and "tool#duration_ms" not in facts


@pytest.mark.parametrize(
    "text",
    ["socrates", "checkHuman(socrates)", "f(g(1, -2.5), 'Any Text', \"s\", tool#x, {a, b})",
     "'AND'", "lookup(\"a\\nb\")", "ns#f(1)", "f(true, false)"],
)
def test_terms_print_and_read_back(text: str) -> None:
    term = parse_term(text)
    assert parse_term(term_text(term)) == term
    specs = (ast.Spec(ast.Sym("m"), "->", (ast.Num(1),)), ast.Spec(ast.Sym("n"), "->", (term,)))
    molecule = ast.Molecule(term, None, None, (ast.FrameBlock(specs),))
    expected = ast.Rule((ast.HeadLiteral(molecule),))
    line = f"{text}[m -> 1; n -> {text}].\n"
    assert parse_program(line, "t.fx").statements == (expected,)
    assert load_receipts_text(line, "t.fx").program.statements == (expected,)


@pytest.mark.parametrize(
    "request_text", ["checkHuman(?X)", "a b", "p(a)[m -> v]", "p(a). q", "p(\nx)", "AND", ""],
)
def test_request_and_inputs_must_be_ground_terms(request_text: str) -> None:
    with pytest.raises(ValueError, match="not a ground"):
        receipt_facts(request_text, status="succeeded", output={}, evidence=None, inputs={},
                      tool_name="t", seq=1, started="s", finished=None, duration_ms=None)
    with pytest.raises(ValueError, match="not a ground"):
        write({}, inputs={"x": request_text})


def test_value_text_for_hosts() -> None:
    assert [value_text(v) for v in (None, True, 3, 0.93, "a\"b")] == [
        None, "true", "3", "0.93", '"a\\"b"'
    ]
    with pytest.raises(ValueError, match="finite"):
        value_text(math.inf)


def test_json_text_output_is_not_special() -> None:
    """Output comes as Python objects; a JSON string stays a string."""
    text = json.dumps({"a": 1})
    assert payload(read_back(write({"raw": text}))) == {'result("raw")': text}


def test_lone_surrogates_in_printed_terms_are_escaped_not_crashing_the_file() -> None:
    """A program string may hold `\\ud800`; the printed request then holds the raw code point."""
    line = receipt_facts('f("a\ud800")', status="succeeded", output={}, evidence=None,
                         inputs={"x": "'s\udfff'"}, tool_name="t", seq=1, started="s",
                         finished=None, duration_ms=None)
    line.encode("utf-8")
    (stmt,) = load_receipts_text(line, "r.fx").program.statements
    assert isinstance(stmt, ast.Rule)
    assert stmt.head[0].atom.subject == parse_term('f("a\\ud800")')
    specs = {term_text(s.method): s.values[0] for s in stmt.head[0].atom.frames[0].specs}
    assert specs['input("x")'] == ast.Sym("s\udfff")
