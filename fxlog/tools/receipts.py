"""Tool output (JSON) → receipt line → appended to the receipts file.

A receipt is a single fact statement on the request object, so rules read tool
results exactly as they read any frame, and replay needs nothing but the file.
This module is the writing side: the pure mapping of a JSON object onto facts
(LANGUAGE.md §5, :func:`check_output`, :func:`receipt_facts`), start markers,
and :class:`ReceiptLog`, which appends lines durably. Reading a file back is
:mod:`fxlog.tools.receipt_log`; the format is described in ``docs/receipts.md``.

Every string goes through :func:`~fxlog.syntax.lexical.quote_string`, so tool or
model output can never close a literal and become program text.

>>> print(receipt_facts("checkHuman(socrates)", status="succeeded",
...     output={"status": "true", "score": 0.93}, evidence={}, inputs={},
...     tool_name="_query", seq=1, started="t0", finished="t1", duration_ms=4), end="")
checkHuman(socrates)[tool#completed -> true; tool#status -> "succeeded"; \
tool#name -> "_query"; tool#seq -> 1; tool#started -> "t0"; tool#finished -> "t1"; \
tool#duration_ms -> 4; result("status") -> "true"; result("score") -> 0.93].
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal, NamedTuple

from fxlog.errors import UsageError
from fxlog.tools.receipt_log import (
    HEADER,
    TORN_MARKER,
    escape_surrogates,
    line_parses,
    number_text,
    parse_term,
    quote_text,
)

__all__ = [
    "MAX_FIELDS",
    "MAX_ROWS",
    "MAX_ROW_FIELDS",
    "Failure",
    "OutputFacts",
    "ReceiptLog",
    "Status",
    "check_output",
    "failure_from_exception",
    "interrupted_receipt",
    "receipt_facts",
    "start_marker",
    "value_text",
]

#: Limits from LANGUAGE.md §5; exceeding one fails the call (``limit_exceeded``).
MAX_FIELDS = 64
MAX_ROWS = 64
MAX_ROW_FIELDS = 64

Status = Literal["succeeded", "failed"]


class Failure(NamedTuple):
    """Why a call failed: ``error("type")`` and ``error("message")`` of its receipt.

    Types written by fxlog itself: ``invalid_output``, ``limit_exceeded``,
    ``tool_error`` (the tool raised) and ``interrupted`` (see :func:`interrupted_receipt`).
    """

    type: str
    message: str


@dataclass(frozen=True, slots=True)
class OutputFacts:
    """A tool output that passed every check, as ready-to-write frame specs."""

    results: tuple[tuple[str, str], ...]
    rows: tuple[tuple[tuple[str, str], ...], ...]
    ignored: tuple[str, ...]

    def specs(self) -> list[str]:
        """``result``, ``row`` and ``tool#ignored`` specs in output order."""
        out = [f"result({quote_text(k)}) -> {v}" for k, v in self.results]
        for n, row in enumerate(self.rows, start=1):
            out.extend(f"row({n}, {quote_text(k)}) -> {v}" for k, v in row)
        out.extend(f"tool#ignored({quote_text(k)}) -> true" for k in self.ignored)
        return out


class _Refused(Exception):
    """Raised inside the mapping; carries the :class:`Failure` the receipt records."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.failure = Failure(kind, message)


def value_text(value: object, where: str = "value") -> str | None:
    """The ``.fx`` literal for one JSON scalar; ``None`` for JSON null (no fact).

    Floats print as the exact decimal of Python's shortest repr (``0.93``), so
    the receipt holds what the tool meant, not binary noise.

    Raises:
        ValueError: for non-finite numbers and values that are not JSON scalars.
    """
    try:
        return _scalar(value, where)
    except _Refused as exc:
        raise ValueError(exc.failure.message) from None


def _scalar(value: object, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote_text(str(value))
    if isinstance(value, int):
        return number_text(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Refused("invalid_output", f"{where} is {value!r}, not a finite number")
        return float.__repr__(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise _Refused("invalid_output", f"{where} is {value}, not a finite number")
        return str(value)
    raise _Refused("invalid_output", f"{where} is a {type(value).__name__}, not a JSON value")


def _nested(value: object) -> bool:
    return isinstance(value, (Mapping, list, tuple))


def _limit(name: str, limit: int, count: int, what: str) -> _Refused:
    return _Refused("limit_exceeded",
                    f"limit {name} exceeded: {count} {what}, at most {limit} allowed")


def check_output(output: object) -> OutputFacts | Failure:
    """Validate a tool's output and map it to facts, or say why the call fails.

    Pure, so the host can fail a call before anything is written.
    """
    try:
        return _map_output(output)
    except _Refused as exc:
        return exc.failure


def _map_output(output: object) -> OutputFacts:
    if not isinstance(output, Mapping):
        raise _Refused("invalid_output",
                       f"the tool returned a {type(output).__name__}; expected a JSON object")
    if len(output) > MAX_FIELDS:
        raise _limit("max_fields", MAX_FIELDS, len(output), "top-level fields")
    results: list[tuple[str, str]] = []
    ignored: list[str] = []
    rows: tuple[tuple[tuple[str, str], ...], ...] = ()
    for key, value in output.items():
        if not isinstance(key, str):
            raise _Refused("invalid_output", f"field name {key!r} is not a string")
        if key == "rows":
            rows = _map_rows(value)
        elif _nested(value):
            ignored.append(key)
        else:
            text = _scalar(value, f"field {key!r}")
            if text is not None:
                results.append((key, text))
    return OutputFacts(tuple(results), rows, tuple(ignored))


def _map_rows(rows: object) -> tuple[tuple[tuple[str, str], ...], ...]:
    if rows is None:
        return ()
    if not isinstance(rows, (list, tuple)):
        raise _Refused("invalid_output",
                       f'the reserved field "rows" is a {type(rows).__name__}; '
                       "it must be a list of flat objects")
    if len(rows) > MAX_ROWS:
        raise _limit("max_rows", MAX_ROWS, len(rows), "rows")
    return tuple(_map_row(n, row) for n, row in enumerate(rows, start=1))


def _map_row(n: int, row: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(row, Mapping):
        raise _Refused("invalid_output", f"row {n} is a {type(row).__name__}, not an object")
    if len(row) > MAX_ROW_FIELDS:
        raise _limit("max_row_fields", MAX_ROW_FIELDS, len(row), f"fields in row {n}")
    out: list[tuple[str, str]] = []
    for key, value in row.items():
        if not isinstance(key, str):
            raise _Refused("invalid_output", f"row {n}: field name {key!r} is not a string")
        if _nested(value):
            raise _Refused("invalid_output",
                           f"row {n}, field {key!r} holds a nested value; rows must be flat")
        text = _scalar(value, f"row {n}, field {key!r}")
        if text is not None:
            out.append((key, text))
    return tuple(out)


def _evidence_value(value: object) -> str | None:
    """Evidence never fails a call: anything that is not a scalar is kept as JSON text."""
    if not _nested(value):
        try:
            return _scalar(value, "evidence")
        except _Refused:
            pass
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except Exception:  # cycles, or a str() that raises: provenance is best effort
        try:
            text = repr(value)
        except Exception:
            text = f"<{type(value).__name__}>"
    return quote_text(text)


def _evidence_specs(evidence: Mapping[str, object]) -> list[str]:
    out: list[str] = []
    for key, value in evidence.items():
        name = str(key)
        if name == "calls" and isinstance(value, (list, tuple)) and all(
            isinstance(call, Mapping) for call in value
        ):
            out.extend(_call_specs(value))
            continue
        text = _evidence_value(value)
        if text is not None:
            out.append(f"evidence({quote_text(name)}) -> {text}")
    return out


def _call_specs(calls: Sequence[object]) -> list[str]:
    out: list[str] = []
    for n, call in enumerate(calls, start=1):
        assert isinstance(call, Mapping)
        for key, value in call.items():
            text = _evidence_value(value)
            if text is not None:
                out.append(f"call({n}, {quote_text(str(key))}) -> {text}")
    return out


def _checked_term(text: str, what: str) -> str:
    """Printed terms are embedded verbatim, so a malformed one must never reach the file."""
    try:
        parse_term(text)
    except ValueError as exc:
        raise ValueError(f"{what} {text!r} is not a ground fxlog term: {exc}") from None
    return escape_surrogates(text.strip())


def _line(request: str, specs: list[str]) -> str:
    return f"{_checked_term(request, 'request')}[{'; '.join(specs)}].\n"


def receipt_facts(
    request: str,
    *,
    status: Status,
    output: object,
    evidence: Mapping[str, object] | None,
    inputs: Mapping[str, str],
    tool_name: str,
    seq: int,
    started: str,
    finished: str | None,
    duration_ms: int | float | None,
    error: Failure | None = None,
) -> str:
    """The receipt line for one finished call (ends with ``.\\n``).

    Args:
        request: the request identity as fxlog text, e.g. ``checkHuman(socrates)``.
        status: how the tool call itself ended; ``"failed"`` needs ``error``. A
            ``"succeeded"`` call whose output breaks a rule is still recorded as
            failed, with the reason from :func:`check_output`.
        output: the tool's JSON object (ignored when ``error`` is given).
        evidence: provenance kept on every receipt (model, tool-use log, ...).
        inputs: input field name → its value already printed as fxlog text.
        tool_name: the tool that ran (``_query``, ``sql_query``).
        seq: the host's action counter, unique within the receipts file.
        started: start timestamp text. finished: end timestamp text or ``None``.
        duration_ms: elapsed milliseconds, or ``None`` when unknown.
        error: why the call failed, when it did.

    Raises:
        ValueError: for inconsistent arguments or a request/input that is not a
            ground term (a bug in the caller, never a tool failure).
    """
    if (status == "failed") != (error is not None):
        raise ValueError("status 'failed' goes with an error, 'succeeded' without one")
    mapped: OutputFacts | Failure = error if error is not None else check_output(output)
    failed = isinstance(mapped, Failure)
    specs = ["tool#completed -> true", f'tool#status -> "{"failed" if failed else "succeeded"}"',
             f"tool#name -> {quote_text(tool_name)}", f"tool#seq -> {number_text(int(seq))}",
             f"tool#started -> {quote_text(started)}"]
    if finished is not None:
        specs.append(f"tool#finished -> {quote_text(finished)}")
    if duration_ms is not None:
        specs.append(f"tool#duration_ms -> {value_text(duration_ms, 'duration_ms')}")
    for key, text in inputs.items():
        specs.append(f"input({quote_text(key)}) -> {_checked_term(text, f'input {key!r}')}")
    if isinstance(mapped, Failure):
        specs += [f'error("type") -> {quote_text(mapped.type)}',
                  f'error("message") -> {quote_text(mapped.message)}']
    else:
        specs += mapped.specs()
    specs += _evidence_specs(evidence or {})
    return _line(request, specs)


def start_marker(request: str, *, tool_name: str, seq: int, started: str) -> str:
    """The line written *before* a tool runs, so a crash mid-call is not retried silently."""
    return _line(request, [f"tool#started -> {quote_text(started)}",
                           f"tool#seq -> {number_text(int(seq))}",
                           f"tool#name -> {quote_text(tool_name)}"])


def interrupted_receipt(
    request: str,
    *,
    tool_name: str,
    seq: int,
    started: str,
    inputs: Mapping[str, str] | None = None,
) -> str:
    """A failed receipt for a call whose start marker has no completion.

    The process stopped while the tool ran, so its effect is unknown; recording
    it as failed lets rules decide on a new attempt instead of repeating it blindly.
    """
    reason = Failure("interrupted", "the process stopped while this call was running; "
                     "its outcome is unknown, so it is recorded as failed and not run again")
    return receipt_facts(request, status="failed", output=None, evidence=None,
                         inputs=inputs or {}, tool_name=tool_name, seq=seq, started=started,
                         finished=None, duration_ms=None, error=reason)


def failure_from_exception(exc: BaseException) -> Failure:
    """How the host records a tool that raised: type ``tool_error``, class and message."""
    message = str(exc).strip() or "(no message)"
    return Failure("tool_error", f"{type(exc).__name__}: {message}")


class ReceiptLog:
    """Append-only writer of a receipts file; every line is on disk before it returns.

    Never truncates: the file is the only record of tool calls that already
    happened, and replay depends on it. A line a crash cut short is closed and
    marked (:data:`~fxlog.tools.receipt_log.TORN_MARKER`) so that it stays
    ignored once more lines follow it. Safe to share between threads; the host
    decides the order of lines. One writer per file: a second process gets an error.

    Raises:
        UsageError: another process holds the file open for writing.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.path, flags, 0o644)
        try:
            _lock_file(fd, self.path)
            self._repair(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd

    def _repair(self, fd: int) -> None:
        size = os.fstat(fd).st_size
        if size == 0:
            _write_synced(fd, f"{HEADER}\n".encode())
            _sync_dir(self.path)
            return
        tail = _last_line(fd, size)
        if not tail.endswith(b"\n"):
            _write_synced(fd, f"\n{TORN_MARKER}\n".encode())
        elif not _complete(tail):
            _write_synced(fd, f"{TORN_MARKER}\n".encode())

    def append(self, line: str) -> None:
        """Write one receipt or start-marker line (ending in ``\\n``) and fsync it."""
        self.extend((line,))

    def extend(self, lines: Sequence[str]) -> None:
        """Write several lines in the given order with one fsync (all or, on a crash, a prefix)."""
        for line in lines:
            if not line.endswith("\n") or "\n" in line[:-1] or "\r" in line:
                raise ValueError("a receipt is exactly one line ending in a newline")
        data = "".join(lines).encode("utf-8")
        with self._lock:
            if self._fd is None:
                raise ValueError(f"receipts file {self.path} is closed")
            _write_synced(self._fd, data)

    def close(self) -> None:
        """Release the file (and the writer lock). Idempotent."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> ReceiptLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _complete(line: bytes) -> bool:
    try:
        return line_parses(line.decode("utf-8"))
    except UnicodeDecodeError:
        return False


def _write_synced(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def _sync_dir(path: str) -> None:
    """fsync the directory so a new file's name survives a crash too (POSIX only)."""
    try:
        dir_fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _last_line(fd: int, size: int) -> bytes:
    """The file's final line, newline included when there is one."""
    end = size - 1  # a final newline belongs to the last line, not before it
    chunks: list[bytes] = []
    pos = end
    while pos > 0:
        start = max(0, pos - 65536)
        chunk = os.pread(fd, pos - start, start)
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            chunks.append(chunk[cut + 1:])
            break
        chunks.append(chunk)
        pos = start
    chunks.reverse()
    return b"".join(chunks) + os.pread(fd, size - end, end)


def _lock_file(fd: int, path: str) -> None:
    if sys.platform == "win32":  # pragma: no cover - advisory locks are POSIX here
        return
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise UsageError(f"receipts file {path} is being written by another process; "
                         "run one host per receipts file") from None
