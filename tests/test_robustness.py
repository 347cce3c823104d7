"""Bad input never yields a Python traceback: it loads, or fails with located diagnostics.

Every input goes through the whole pipeline (parse, translate, solve) via the
library and, for a selection, through the CLI (``CliRunner`` and a real
subprocess). An exception other than :class:`~fxlog.errors.FxlogError` is a
bug in fxlog, and so is a CLI run that ends in a traceback.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fxlog.cli import app
from fxlog.client import Client
from fxlog.errors import FxlogError, ProgramError

DATA = Path(__file__).parent / "data"
SEED = (DATA / "answers" / "seed_open.fx").read_text(encoding="utf-8")


def _survives(text: str, file: str = "bad.fx") -> FxlogError | None:
    """Load, check and answer ``text``; return the FxlogError, if any."""
    client = Client()
    try:
        client.load(text, file=file)
        client.check()
        client.answers()
    except FxlogError as exc:
        if isinstance(exc, ProgramError):
            assert exc.diagnostics
            for d in exc.diagnostics:
                assert d.span.line >= 1 and d.span.column >= 1, d
                assert d.message
        return exc
    return None


def _clean_cli(result: object) -> None:
    """The CLI finished on purpose (exit code set by fxlog), not by an exception."""
    exc = getattr(result, "exception", None)
    assert exc is None or isinstance(exc, SystemExit), repr(exc)
    assert "Traceback" not in getattr(result, "output", "")


BAD_INPUTS = {
    "truncated_rule": "p(?X) :- q(",
    "truncated_external": "external c(?X) using _q[",
    "truncated_frame": "o[m -> ",
    "truncated_query": "?- p(?X), ",
    "truncated_after_arrow": "p(a) :- ",
    "unbalanced_close_paren": "p(a)).",
    "unbalanced_brackets": "p(a]].",
    "unclosed_frame": "o[m -> a.",
    "unclosed_set": "{a, b:C.",
    "unclosed_class_frame": "C[|m -> v].",
    "unterminated_string": 'p("abc).\nq(b).',
    "unterminated_quoted_symbol": "p('abc).",
    "unterminated_block_comment": "p(a). /* abc",
    "nul_byte_between_statements": "p(a).\x00q(b).",
    "nul_byte_in_term": "p(\x00).",
    "lone_dot": ".",
    "only_dots": "....",
    "percent_comment": "% comment",
    "unknown_escape": 'p("\\q").',
    "short_unicode_escape": 'p("\\u12").',
    "surrogate_unicode_escape": 'p("\\ud800").\n?- p(?X).',
    "surrogate_in_quoted_symbol": "p('\\udfff').\n?- p(?X).",
    "bare_variable_formula": "?- ?X.",
    "arithmetic_formula": "?- 1 + 2.",
    "non_ascii_identifier": "p(é).",
    "keyword_alone": "AND.",
    "external_without_tool": "external c(a) using .",
    "world_sideways": "world sideways.",
    "query_without_body": "?- .",
    "directive_unknown": ":- nonsense{a = b}.",
    "head_with_path": "o.m[n -> v] :- \\true.",
    "byte_order_mark_midway": "p(a).\ufeffq(b).",
    "only_whitespace": " \t\r\n\f\v",
    "empty": "",
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_fails_cleanly(name: str) -> None:
    _survives(BAD_INPUTS[name])


@pytest.mark.parametrize("name", ["unterminated_block_comment", "nul_byte_in_term",
                                  "truncated_external", "unbalanced_brackets"])
def test_bad_input_through_the_cli(name: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.fx"
    path.write_text(BAD_INPUTS[name], encoding="utf-8")
    for command in ("check", "query", "translate"):
        result = CliRunner().invoke(app, [command, str(path)])
        _clean_cli(result)
        assert result.exit_code == 1, (command, result.output)


def test_every_prefix_of_the_seed_example_fails_cleanly() -> None:
    for i in range(len(SEED) + 1):
        _survives(SEED[:i])


def test_random_bytes_fail_cleanly() -> None:
    rng = random.Random(20240611)
    for _ in range(20):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        _survives(data.decode("latin-1"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="pqC(),.?-:[]{}|>=<;\"'/*\\ \n%#_XAND0123456789", max_size=120))
def test_token_soup_fails_cleanly(text: str) -> None:
    _survives(text)


# --------------------------------------------------------------------- nesting

N = 10_000
DEEP = {
    "parentheses_in_arguments": "p(" + "f(" * N + "a" + ")" * N + ").\n?- p(?X).",
    "parentheses_in_body": "q. p :- " + "(" * N + "q" + ")" * N + ".\n?- p.",
    "nested_frames": "o[m -> " + "x[m -> " * N + "a" + "]" * N + "].\n?- o[m -> ?V].",
    "nested_sets": "p(" + "{" * N + "a" + "}" * N + ").",
    "truncated_deep_term": "p(" * N + "a",
    "not_chain": "q. p :- " + "NOT " * N + "q.\n?- p.",
    "naf_chain": "q. p :- " + "\\naf " * N + "q.\n?- p.",
    "addition_chain": "n(1). p(?Y) :- n(?X), ?Y \\is ?X" + " + 1" * N + ".\n?- p(?Y).",
    "unary_minus_chain": "n(1). p(?Y) :- n(?X), ?Y \\is " + "- " * N + "?X.\n?- p(?Y).",
    "path_chain": "o[m -> o]. p(?V) :- ?V = o" + ".m" * N + ".\n?- p(?V).",
}


@pytest.mark.parametrize("name", sorted(DEEP))
def test_deep_nesting_fails_cleanly_or_answers(name: str) -> None:
    started = time.monotonic()
    _survives(DEEP[name])
    assert time.monotonic() - started < 20


def test_moderately_long_arithmetic_is_answered() -> None:
    """500 additions are an ordinary generated rule, not an attack."""
    text = "n(1). p(?Y) :- n(?X), ?Y \\is ?X" + " + 1" * 500 + ".\n?- p(?Y)."
    client = Client()
    client.load(text, file="sum.fx")
    assert [b.text("Y") for b in client.answers()[0].bindings] == ["501"]


def test_nesting_just_inside_the_limit_is_answered() -> None:
    text = "p(" + "f(" * 98 + "a" + ")" * 98 + ").\n?- p(?X)."
    client = Client()
    client.load(text, file="deep.fx")
    assert client.answers()[0].truth == "true"


# ------------------------------------------------------------------ long lines


def test_very_long_line_of_facts() -> None:
    text = " ".join(f"p({i})." for i in range(30_000)) + "\n?- p(29999).\n"
    client = Client()
    client.load(text, file="line.fx")
    assert client.answers()[0].truth == "true"


def test_very_long_symbol_and_string() -> None:
    name = "a" * 1_000_000
    text = f'p({name}).\ns("{"x" * 1_000_000}").\n?- p(?X).\n?- s(?S).\n'
    client = Client()
    client.load(text, file="long.fx")
    p, s = client.answers()
    assert p.bindings[0].text("X") == name
    assert len(s.bindings[0].text("S")) == 1_000_002


def test_very_long_rule_body() -> None:
    text = "q(1).\np :- " + ", ".join("q(1)" for _ in range(2_000)) + ".\n?- p.\n"
    client = Client()
    client.load(text, file="body.fx")
    assert client.answers()[0].truth == "true"


# ---------------------------------------------------------- files via the CLI


def test_non_utf8_file_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.fx"
    path.write_bytes("p(a).\n?- p(caf\xe9).\n".encode("latin-1"))
    for command in ("check", "query", "translate"):
        result = CliRunner().invoke(app, [command, str(path)])
        _clean_cli(result)
        assert result.exit_code in (1, 2)
        assert "UTF-8" in result.stderr and str(path) in result.stderr


def test_utf8_file_with_byte_order_mark_loads(tmp_path: Path) -> None:
    """Editors on Windows write a BOM; the receipts loader already accepts one."""
    path = tmp_path / "bom.fx"
    path.write_bytes("\ufeffp(a).\n?- p(a).\n".encode())
    result = CliRunner().invoke(app, ["query", str(path)])
    _clean_cli(result)
    assert result.exit_code == 0, result.output
    assert "true" in result.stdout


def _run_limited(args: list[str], timeout: float = 60) -> tuple[subprocess.CompletedProcess[str],
                                                                 float]:
    """``python -m fxlog ARGS`` with 2 GiB of address space, so a blow-up cannot take the
    machine (or this test run) down with it."""
    code = ("import resource, runpy, sys; "
            "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
            "sys.argv = ['fxlog'] + sys.argv[1:]; "
            "runpy.run_module('fxlog', run_name='__main__')")
    env = {**os.environ, "COLUMNS": "200"}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, env=env, check=False)
    return proc, time.monotonic() - started


def test_subprocess_end_to_end_garbage(tmp_path: Path) -> None:
    path = tmp_path / "garbage.fx"
    path.write_text("p(a) :- q(b\n]]] \"oops", encoding="utf-8")
    proc, _ = _run_limited(["check", str(path)])
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "error[E-" in proc.stderr


def test_subprocess_end_to_end_seed_example(tmp_path: Path) -> None:
    path = tmp_path / "tool-query.fx"
    path.write_text(SEED, encoding="utf-8")
    proc, _ = _run_limited(["query", str(path)])
    assert proc.returncode == 0, proc.stderr
    assert "unknown" in proc.stdout and "checkHuman(socrates)" in proc.stdout


FIFTY_MB = 50 * 2**20


def test_50mb_knowledge_base_loads_in_bounded_time(tmp_path: Path) -> None:
    """50 MB of facts holding 1 KB strings (a document store): check in under 60 s."""
    path = tmp_path / "big.fx"
    body = "x" * 1000
    with path.open("w", encoding="utf-8") as out:
        i = size = 0
        while size < FIFTY_MB:
            line = f'doc({i}, "{body}").\n'
            out.write(line)
            size += len(line)
            i += 1
        out.write("?- doc(7, ?T).\n")
    proc, elapsed = _run_limited(["check", str(path)], timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ok" in proc.stdout
    assert elapsed < 60


@pytest.mark.parametrize("opener", ['p(a).\nq("', "p(a).\n/* "],
                         ids=["unterminated_string", "unterminated_comment"])
def test_50mb_unterminated_literal_fails_with_a_clear_error(opener: str, tmp_path: Path) -> None:
    path = tmp_path / "big.fx"
    path.write_text(opener + "x" * FIFTY_MB, encoding="utf-8")
    proc, elapsed = _run_limited(["check", str(path)], timeout=120)
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr, \
        proc.stderr[-1500:]
    assert proc.returncode == 1
    assert "unterminated" in proc.stderr
    assert elapsed < 60


def test_50mb_of_binary_garbage_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.fx"
    rng = random.Random(7)
    path.write_bytes(rng.randbytes(FIFTY_MB))
    proc, elapsed = _run_limited(["check", str(path)], timeout=120)
    assert proc.returncode == 2, proc.stderr[-1500:]
    assert "UTF-8" in proc.stderr and "Traceback" not in proc.stderr
    assert elapsed < 30
