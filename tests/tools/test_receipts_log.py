"""The receipts file: append-only writer with fsync, and the facts-only reader."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from fxlog.errors import ProgramError, UsageError
from fxlog.syntax import ast
from fxlog.syntax import parser as fx_parser
from fxlog.tools import receipt_log
from fxlog.tools.receipt_log import (
    HEADER,
    TORN_MARKER,
    load_receipts,
    load_receipts_text,
    parse_term,
    term_text,
)
from fxlog.tools.receipts import ReceiptLog, interrupted_receipt, receipt_facts, start_marker


def receipt(request: str, seq: int, **output: object) -> str:
    return receipt_facts(request, status="succeeded", output=output, evidence={}, inputs={},
                         tool_name="_query", seq=seq, started="t0", finished="t1", duration_ms=1)


def marker(request: str, seq: int) -> str:
    return start_marker(request, tool_name="_query", seq=seq, started="t0")


def codes(exc: ProgramError) -> list[str]:
    return [d.code for d in exc.diagnostics if d.severity == "error"]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "run.receipts.fx"


# ----------------------------------------------------------------------- writer


def test_a_new_file_starts_with_the_header(path: Path) -> None:
    with ReceiptLog(path) as log:
        log.append(receipt("a(1)", 1, x=1))
    lines = path.read_text("utf-8").splitlines()
    assert lines[0] == HEADER and len(lines) == 2


def test_appending_never_overwrites(path: Path) -> None:
    with ReceiptLog(path) as log:
        log.append(receipt("a(1)", 1, x=1))
    before = path.read_bytes()
    with ReceiptLog(path) as log:
        log.append(receipt("a(2)", 2, x=2))
    after = path.read_bytes()
    assert after.startswith(before) and after.count(HEADER.encode()) == 1
    assert len(load_receipts(path).completed) == 2


def test_an_existing_hand_written_file_is_kept_and_gets_no_header(path: Path) -> None:
    path.write_text("p(a).\n", "utf-8")
    with ReceiptLog(path) as log:
        log.append(receipt("a(1)", 1))
    assert path.read_text("utf-8").startswith("p(a).\n" + "a(1)[")


def test_every_append_is_fsynced_before_it_returns(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    with ReceiptLog(path) as log:
        opened = len(synced)  # header (+ the directory entry of the new file)
        log.append(receipt("a(1)", 1))
        assert len(synced) == opened + 1 and synced[-1] == path.stat().st_size
        log.extend([receipt("a(2)", 2), receipt("a(3)", 3)])
        assert len(synced) == opened + 2 and synced[-1] == path.stat().st_size


@pytest.mark.parametrize("bad", ["no newline", "two\nlines\n", "cr\r\n", ""])
def test_only_single_lines_are_accepted(path: Path, bad: str) -> None:
    with ReceiptLog(path) as log, pytest.raises(ValueError, match="one line"):
        log.append(bad)


def test_a_closed_log_refuses_to_write(path: Path) -> None:
    log = ReceiptLog(path)
    log.close()
    log.close()
    with pytest.raises(ValueError, match="closed"):
        log.append(receipt("a(1)", 1))


def test_one_writer_per_file(path: Path) -> None:
    with ReceiptLog(path), pytest.raises(UsageError, match="another process"):
        ReceiptLog(path)


def test_concurrent_appends_keep_every_line_whole(path: Path) -> None:
    with ReceiptLog(path) as log:
        def work(t: int) -> None:
            for i in range(40):
                log.append(receipt(f"job({t}, {i})", t * 100 + i, text="x" * 500))

        threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    loaded = load_receipts(path)
    assert len(loaded.completed) == 240 and not loaded.warnings


# ----------------------------------------------------- start markers, sequence


def test_a_start_marker_without_completion_is_started_only(path: Path) -> None:
    with ReceiptLog(path) as log:
        log.append(marker("a(1)", 1))
        log.append(receipt("a(1)", 1))
        log.append(marker("b(2)", 3))
        log.append(marker('c("x")', 2))
    loaded = load_receipts(path)
    assert loaded.completed == frozenset({parse_term("a(1)")})
    assert loaded.started_only == (parse_term('c("x")'), parse_term("b(2)"))
    assert loaded.max_seq == 3
    info = loaded.markers[parse_term("b(2)")]
    assert (info.tool_name, info.seq, info.started, info.text) == ("_query", 3, "t0", "b(2)")


def test_an_interrupted_call_is_recorded_once_and_not_run_again(path: Path) -> None:
    with ReceiptLog(path) as log:
        log.append(marker("lookup(7)", 1))
    loaded = load_receipts(path)
    (request,) = loaded.started_only
    info = loaded.markers[request]
    with ReceiptLog(path) as log:
        log.append(interrupted_receipt(info.text, tool_name=info.tool_name or "", seq=info.seq or 0,
                                       started=info.started or ""))
    again = load_receipts(path)
    assert again.started_only == () and request in again.completed


# ------------------------------------------------------------------ facts only


@pytest.mark.parametrize(
    ("statement", "what"),
    [
        ("evil(?X) :- p(?X).", "a rule"),
        ("evil(x) <- true.", "a rule"),
        ("?- p(a).", "a query"),
        ("external f(?X) using _query[q -> 1] <- p(?X).", "an `external` declaration"),
        ("world open.", "a `world` statement"),
        (":- setsemantics{inheritance = monotonic}.", "a directive"),
        ("p(?X).", "a receipt fact with a variable"),
        ("o[m -> ?V].", "a receipt fact with a variable"),
        ("o[m -> a.b].", "a receipt fact with an expression"),
    ],
)
def test_anything_but_ground_facts_is_an_error_with_a_place(statement: str, what: str) -> None:
    text = "\n".join([HEADER, receipt("a(1)", 1).rstrip(), "  " + statement,
                      receipt("a(2)", 2).rstrip(), ""])
    with pytest.raises(ProgramError) as info:
        load_receipts_text(text, "r.fx")
    (diag,) = info.value.diagnostics
    assert diag.code == "E-RECEIPT" and diag.message.startswith(what)
    assert (diag.span.file, diag.span.line) == ("r.fx", 3) and diag.span.column >= 3
    assert diag.hint == "receipts files hold facts only; was it edited by hand?"
    assert "r.fx:3:" in info.value.render()


def test_the_injected_rule_is_not_hidden_by_the_fast_reader() -> None:
    line = receipt("a(1)", 1).rstrip()[:-1] + " :- true."
    with pytest.raises(ProgramError) as info:
        load_receipts_text(line + "\n" + receipt("a(2)", 2), "r.fx")
    assert codes(info.value) == ["E-RECEIPT"]


def test_a_parse_error_before_the_last_line_is_an_error() -> None:
    text = receipt("a(1)", 1) + "a(2)[tool#completed -> ].\n" + receipt("a(3)", 3)
    with pytest.raises(ProgramError) as info:
        load_receipts_text(text, "r.fx")
    assert codes(info.value) == ["E-PARSE"] and info.value.diagnostics[0].span.line == 2


def test_hand_written_facts_take_the_parser_and_load() -> None:
    text = "\n".join([
        HEADER, "p(a).", "x:Order.", "q(1, \"two\") [m -> f(y); n -> {1, 2}].",
        "multi[line -> 1;", "      fact -> 2].", "/* block */ r(b).", "",
    ])
    program = load_receipts_text(text, "r.fx").program
    assert program.statements == fx_parser.parse_program(text, "r.fx").statements
    assert len(program.statements) == 5


def test_writer_output_never_needs_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("the slow path was taken")

    monkeypatch.setattr(receipt_log, "parse_statement", refuse)
    lines = [HEADER + "\n"]
    for i in range(300):
        lines.append(marker(f"lookup({i}, \"k{i}\")", i))
        lines.append(receipt_facts(
            f"lookup({i}, \"k{i}\")", status="succeeded",
            output={"n": -i, "f": -0.5, "s": "a]. b", "rows": [{"a": i}], "o": {}},
            evidence={"calls": [{"t": "x"}]}, inputs={"q": "{a, f(-1)}", "p": '"x"'},
            tool_name="sql_query", seq=i, started="t", finished="u", duration_ms=1.5))
    loaded = load_receipts_text("".join(lines), "r.fx")
    assert len(loaded.program.statements) == 600 and len(loaded.completed) == 300


# ------------------------------------------------------------------ torn lines


def test_a_torn_last_line_is_a_warning_and_the_rest_loads() -> None:
    full = receipt("a(2)", 2, text="complete")
    text = HEADER + "\n" + receipt("a(1)", 1) + full[: len(full) // 2]
    loaded = load_receipts_text(text, "r.fx")
    (warning,) = loaded.warnings
    assert warning.code == "W-RECEIPT-PARTIAL" and warning.severity == "warning"
    assert "line 3 of r.fx" in warning.message and warning.span.line == 3
    assert loaded.completed == frozenset({parse_term("a(1)")})


def test_a_complete_line_without_its_newline_is_still_torn() -> None:
    """The write never returned, so the host never learnt it was recorded."""
    text = HEADER + "\n" + marker("a(1)", 1) + receipt("a(1)", 1).rstrip("\n")
    loaded = load_receipts_text(text, "r.fx")
    assert [w.code for w in loaded.warnings] == ["W-RECEIPT-PARTIAL"]
    assert loaded.started_only == (parse_term("a(1)"),)


def test_a_garbled_last_line_is_a_warning() -> None:
    text = receipt("a(1)", 1) + "a(2)[tool#status -> \x00\x00\x00\n"
    loaded = load_receipts_text(text, "r.fx")
    assert [w.code for w in loaded.warnings] == ["W-RECEIPT-PARTIAL"]
    assert loaded.warnings[0].span.line == 2


@pytest.mark.parametrize(
    "tail", [b"a(9)[tool#completed -> tr", b'a(9)[x -> "\xe2\x82', b"\0\0\0\n"]
)
def test_the_writer_closes_a_torn_tail_so_it_stays_ignored(path: Path, tail: bytes) -> None:
    path.write_bytes((HEADER + "\n" + receipt("a(1)", 1)).encode() + tail)
    assert [w.code for w in load_receipts(path).warnings] == ["W-RECEIPT-PARTIAL"]
    with ReceiptLog(path) as log:
        log.append(receipt("a(2)", 2))
    data = path.read_bytes()
    assert data.startswith((HEADER + "\n" + receipt("a(1)", 1)).encode() + tail)
    assert TORN_MARKER.encode() in data
    loaded = load_receipts(path)
    assert [w.code for w in loaded.warnings] == ["W-RECEIPT-PARTIAL"]
    assert loaded.completed == frozenset({parse_term("a(1)"), parse_term("a(2)")})
    with ReceiptLog(path) as log:  # nothing more to repair
        pass
    assert path.read_bytes() == data


def test_bad_utf8_before_the_last_line_is_an_error(path: Path) -> None:
    path.write_bytes(receipt("a(1)", 1).encode() + b"a(2)[x -> \"\xff\"].\n" + b"a(3)[x -> 1].\n")
    with pytest.raises(ProgramError) as info:
        load_receipts(path)
    assert codes(info.value) == ["E-RECEIPT"] and "UTF-8" in info.value.diagnostics[0].message


# -------------------------------------------------------------------- the rest


def test_a_second_receipt_for_one_request_is_a_warning() -> None:
    loaded = load_receipts_text(receipt("a(1)", 1) + receipt("a(1)", 2), "r.fx")
    (warning,) = loaded.warnings
    assert warning.code == "W-RECEIPT-DUPLICATE" and "line 1" in warning.message


def test_a_newer_format_is_refused() -> None:
    with pytest.raises(ProgramError, match="v2"):
        load_receipts_text("// fxlog receipts v2\n", "r.fx")


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        load_receipts(tmp_path / "nope.fx")


def test_an_empty_file_loads_as_nothing() -> None:
    loaded = load_receipts_text("", "r.fx")
    assert loaded.program.statements == () and loaded.max_seq == 0


def test_loaded_facts_are_plain_rules_on_the_request() -> None:
    (stmt,) = load_receipts_text(receipt('f("a", -1)', 1, x=1), "r.fx").program.statements
    assert isinstance(stmt, ast.Rule) and stmt.body is None
    assert term_text(stmt.head[0].atom.subject) == 'f("a", -1)'
    assert stmt.span.line == 1 and stmt.span.file == "r.fx"
