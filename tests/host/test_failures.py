"""Failure paths: each becomes a failed receipt the rules can react to.

A tool that raises, returns a list or a string, returns a row with a nested
value, returns 65 fields, or runs past ``tool_timeout`` gets a receipt with
``tool#status -> "failed"``, ``error("type")`` and ``error("message")`` (and no
result facts); the episode goes on, and ``data/failures.fx`` derives a second
attempt for each.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from typer.testing import Result

from fxlog.tools import EpisodeResult, ToolRegistry, replay, run_episode
from fxlog.tools.receipt_log import load_receipts

EXPECTED = {  # request kind -> (error type, a piece of the message)
    "raises": ("tool_error", "RuntimeError: backend down (attempt 1)"),
    "list": ("invalid_output", "list"),
    "string": ("invalid_output", "str"),
    "nested": ("invalid_output", "nested value"),
    "limit": ("limit_exceeded", "max_fields"),
    "slow": ("timeout", "0.5 s"),
}


def lines_of(text: str, request: str) -> list[str]:
    return [line for line in text.splitlines()
            if line.startswith(request + "[") and "tool#completed -> true" in line]


@pytest.fixture
def failures(copy_data: Callable[[str], Path], side: Path,
             adapter: Callable[[str], str]) -> tuple[EpisodeResult, Path, str]:
    program = copy_data("failures.fx")
    result = run_episode(program, adapters=[adapter("failing")], tool_timeout=0.5)
    assert result.receipts_path is not None
    (side / "gate").touch()  # release the timed-out call's thread
    return result, program, Path(result.receipts_path).read_text()


def test_every_failure_is_recorded_and_retried(
        failures: tuple[EpisodeResult, Path, str]) -> None:
    result, _, text = failures
    assert (result.end_reason, result.status) == ("workflow", "recovered")
    kinds = list(EXPECTED)
    assert result.executed == [f"call({k}, 1)" for k in kinds] + \
        [f"call({k}, 2)" for k in kinds]
    for kind, (error_type, fragment) in EXPECTED.items():
        [first] = lines_of(text, f"call({kind}, 1)")
        assert 'tool#status -> "failed"' in first, first
        assert f'error("type") -> "{error_type}"' in first, first
        message = first.split('error("message") -> ', 1)[1]
        assert fragment in message, first
        assert "result(" not in first and "row(" not in first, first
        [second] = lines_of(text, f"call({kind}, 2)")
        assert 'tool#status -> "succeeded"' in second, second


def test_failures_are_visible_to_queries(failures: tuple[EpisodeResult, Path, str]) -> None:
    result, _, _ = failures
    errors, recovered = result.answers
    seen = {b.text("K"): (b.text("T"), b.text("M")) for b in errors.bindings}
    assert set(seen) == set(EXPECTED)
    for kind, (error_type, fragment) in EXPECTED.items():
        assert seen[kind][0] == f'"{error_type}"'
        assert fragment in seen[kind][1]
    assert sorted(b.text("K") for b in recovered.bindings) == sorted(EXPECTED)


def test_failed_receipts_replay(failures: tuple[EpisodeResult, Path, str]) -> None:
    result, program, _ = failures
    again = replay(program, [result.receipts_path or ""])
    assert (again.end_reason, again.status) == ("workflow", "recovered")
    assert [a.as_json() for a in again.answers] == [a.as_json() for a in result.answers]


def test_failures_through_the_cli(copy_data: Callable[[str], Path], side: Path,
                                  adapter: Callable[[str], str],
                                  cli: Callable[..., Result]) -> None:
    program = copy_data("failures.fx")
    result = cli("run", program, "--adapter", adapter("failing"), "--tool-timeout", "0.5",
                 "--parallel", "2", "--format", "json")
    (side / "gate").touch()
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["end_reason"], out["status"], out["actions"]) == ("workflow", "recovered", 12)
    [errors, _] = out["answers"]
    types = {b["vars"]["K"]: b["vars"]["T"] for b in errors["bindings"]}
    assert types == {k: f'"{t}"' for k, (t, _) in EXPECTED.items()}


def one_call(tmp_path: Path, tool: Callable[..., object], *, query: str = "",
             timeout: float = 10.0) -> tuple[EpisodeResult, str]:
    """Run a one-request episode with ``tool`` registered as ``t``."""
    program = tmp_path / "one.fx"
    program.write_text('external call(1) using t[tool#order -> 1].\n'
                       'handled <- call(1)[tool#status -> "failed"].\n'
                       '?- call(1)[error("type") -> ?T; error("message") -> ?M].\n' + query)
    registry = ToolRegistry()
    registry.register("t", tool)
    result = run_episode(program, registry=registry, tool_timeout=timeout)
    return result, Path(result.receipts_path or "").read_text()


def error_of(result: EpisodeResult) -> tuple[str, str]:
    [binding] = result.answers[0].bindings
    return binding.values["T"].value, binding.values["M"].value  # type: ignore[attr-defined]


@pytest.mark.parametrize(("output", "error_type", "fragment"), [
    ({"rows": [{f"c{i}": i for i in range(65)}]}, "limit_exceeded", "max_row_fields"),
    ({"rows": [{"n": i} for i in range(65)]}, "limit_exceeded", "max_rows"),
    ({"rows": "not a list"}, "invalid_output", "rows"),
    ({"rows": [1, 2]}, "invalid_output", "row 1"),
    ({"rows": [{"deep": [1, 2]}]}, "invalid_output", "nested value"),
    ({"x": float("nan")}, "invalid_output", "finite"),
    ({"x": object()}, "invalid_output", "object"),
    (None, "invalid_output", "NoneType"),
    (3, "invalid_output", "int"),
])
def test_invalid_outputs_fail_the_call(tmp_path: Path, output: object, error_type: str,
                                       fragment: str) -> None:
    result, text = one_call(tmp_path, lambda: (output, {}))
    assert result.end_reason == "quiescence"
    assert error_of(result)[0] == error_type
    assert fragment in error_of(result)[1]
    assert 'tool#status -> "failed"' in text and "result(" not in text


def test_limits_are_inclusive(tmp_path: Path) -> None:
    output = {f"f{i}": i for i in range(63)}
    output["rows"] = [{f"c{j}": j for j in range(64)} for _ in range(64)]
    result, text = one_call(tmp_path, lambda: (output, {}))
    assert 'tool#status -> "succeeded"' in text
    assert 'row(64, "c63") -> 63' in text and 'result("f62") -> 62' in text


def test_tool_error_keeps_its_type_and_evidence(tmp_path: Path) -> None:
    from fxlog.tools import ToolError

    def tool() -> object:
        raise ToolError("rate_limited", "slow down", {"retry_after": 3})

    result, text = one_call(tmp_path, tool)
    assert error_of(result) == ("rate_limited", "slow down")
    assert 'evidence("retry_after") -> 3' in text


def test_wrong_arguments_are_invalid_input(tmp_path: Path) -> None:
    program = tmp_path / "args.fx"
    program.write_text('external call(1) using t[colour -> red; tool#order -> 1].\n')
    registry = ToolRegistry()
    registry.register("t", lambda size: ({"size": size}, {}))
    result = run_episode(program, registry=registry)
    text = Path(result.receipts_path or "").read_text()
    assert 'error("type") -> "invalid_input"' in text and "colour" in text


def test_a_tool_that_exits_is_a_tool_error_not_a_timeout(tmp_path: Path) -> None:
    """`sys.exit()` inside a tool must not be recorded as running past the timeout."""

    def tool() -> object:
        raise SystemExit(3)

    result, text = one_call(tmp_path, tool, timeout=30.0)
    assert result.end_reason == "quiescence"
    error_type, message = error_of(result)
    assert error_type != "timeout", text
    assert "SystemExit" in message, text


def test_a_tool_whose_own_code_raises_type_error_is_a_tool_error(tmp_path: Path) -> None:
    """Only a mismatch between request fields and parameters is `invalid_input`."""

    def tool() -> object:
        return {"n": int(None)}, {}  # type: ignore[call-overload]  # TypeError inside the tool

    result, text = one_call(tmp_path, tool)
    assert error_of(result)[0] == "tool_error", text


# ------------------------------------------------------------- output stays data
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.decimals(allow_nan=False, allow_infinity=False, places=4),
    st.text(max_size=30),
)


def expected_value(value: object) -> object:
    if isinstance(value, float):
        return Decimal(repr(value))
    return value


# No shrinking: a failure already shows its example, and test_awkward_scalars_round_trip
# below pins the minimal cases; shrinking a failing episode costs seconds.
@settings(max_examples=25, deadline=None, database=None,
          phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(st.dictionaries(st.text(min_size=1, max_size=12), scalars, max_size=6))
def test_any_flat_output_round_trips_through_the_receipt(output: dict[str, object]) -> None:
    """Whatever flat JSON a tool returns is recorded, reloaded and read back unchanged."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        result, text = one_call(Path(tmp), lambda: (dict(output), {"echo": dict(output)}),
                                query='?- call(1)[result(?K) -> ?V].\n')
        assert 'tool#status -> "succeeded"' in text, text
        load_receipts(Path(result.receipts_path or ""))
        got = {b.values["K"].value: b.values["V"] for b in result.answers[1].bindings}  # type: ignore[attr-defined]
        want = {k: v for k, v in output.items() if v is not None}
        assert set(got) == set(want)
        for key, value in want.items():
            term = got[key]
            if isinstance(value, bool):
                assert term.name == ("true" if value else "false")  # type: ignore[attr-defined]
            else:
                assert term.value == expected_value(value), (key, value, term)  # type: ignore[attr-defined]
        again = replay(Path(tmp) / "one.fx", [result.receipts_path or ""])
        assert [a.as_json() for a in again.answers] == [a.as_json() for a in result.answers]


@pytest.mark.parametrize("value", [
    -5, -2.5, -0.0, -10**40, Decimal("12345678901234567890.123456789"), 10**5000, "\udcff",
], ids=["negative-int", "negative-float", "negative-zero", "negative-bigint",
        "decimal-29-digits", "int-5001-digits", "lone-surrogate"])
def test_awkward_scalars_round_trip(tmp_path: Path, value: object) -> None:
    """Scalars a JSON parser can produce become a receipt and read back exactly."""
    result, text = one_call(tmp_path, lambda: ({"v": value}, {}),
                            query='?- call(1)[result("v") -> ?V].\n')
    assert result.end_reason == "quiescence"
    assert 'tool#status -> "succeeded"' in text
    [binding] = result.answers[1].bindings
    assert binding.values["V"].value == expected_value(value)  # type: ignore[attr-defined]


def test_query_rows_with_negative_numbers(tmp_path: Path) -> None:
    """The built-in `_query` alone hits the same path: a row value of -2."""
    program = tmp_path / "q.fx"
    program.write_text('p(1). p(-2).\n'
                       'external ask(1) using _query[query -> "?- p(?X)."; tool#order -> 1].\n'
                       '?- ask(1)[row(?N, "X") -> ?X].\n')
    result = run_episode(program)
    assert result.end_reason == "quiescence"
    assert sorted(b.text("X") for b in result.answers[0].bindings) == ["-2", "1"]
