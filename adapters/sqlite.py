"""SQL text + parameters → rows: read-only SQLite queries as an fxlog tool.

The operator chooses the database (``FXLOG_SQLITE_DB``, or :func:`make_tools`
in an embedding program); a ``.fx`` program only supplies the query. A program
must never be able to read an arbitrary file or change data, so three locks
are used at once: the file is opened read-only (``mode=ro``), an authorizer
allows nothing but reading (no writes, ``ATTACH``, writing pragmas or
``load_extension``), and only a single ``SELECT``/``WITH ... SELECT`` statement
is accepted. A progress handler stops runaway queries.

>>> import sqlite3, tempfile, os
>>> db = os.path.join(tempfile.mkdtemp(), "t.sqlite")
>>> with sqlite3.connect(db) as c:
...     _ = c.execute("CREATE TABLE t(id INTEGER, name TEXT)")
...     _ = c.execute("INSERT INTO t VALUES (1, 'ada')")
>>> c.close()
>>> output, evidence = make_tools(db)["sql_query"]("SELECT name FROM t WHERE id = ?", [1])
>>> output
{'count': 1, 'truncated': False, 'rows': [{'name': 'ada'}]}
"""

from __future__ import annotations

import functools
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

__all__ = ["DB_ENV", "MAX_ROWS", "MAX_VALUE_BYTES", "TIMEOUT_S", "TOOLS", "make_tools",
           "sql_query"]

#: Environment variable naming the database file; set by the operator, never by a program.
DB_ENV = "FXLOG_SQLITE_DB"
#: A receipt holds at most 64 rows (LANGUAGE.md §5), so no query may return more.
MAX_ROWS = 64
#: Wall-clock budget of one query, in seconds.
TIMEOUT_S = 10.0
#: Largest string or BLOB a query may produce (SQLite's SQLITE_LIMIT_LENGTH).
MAX_VALUE_BYTES = 1_000_000

Params = list[object] | str | int | float | Decimal | None
ToolResult = tuple[dict[str, object], dict[str, object]]

# Authorizer action codes that only read. Everything else (INSERT, UPDATE,
# DELETE, CREATE, DROP, ATTACH, DETACH, PRAGMA, TRANSACTION, ...) is denied.
_READ_ACTIONS = frozenset({sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE})
_DENIED_FUNCTIONS = frozenset({"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"})
_ACTION_NAMES = {getattr(sqlite3, f"SQLITE_{n}"): n for n in (
    "INSERT", "UPDATE", "DELETE", "CREATE_TABLE", "CREATE_INDEX", "CREATE_VIEW",
    "CREATE_TRIGGER", "CREATE_TEMP_TABLE", "DROP_TABLE", "DROP_INDEX", "DROP_VIEW",
    "DROP_TRIGGER", "ATTACH", "DETACH", "PRAGMA", "TRANSACTION", "ALTER_TABLE", "REINDEX",
    "ANALYZE", "SAVEPOINT", "CREATE_VTABLE", "DROP_VTABLE")}
_LEADING_NOISE = re.compile(r"(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*", re.S)
_FIRST_WORD = re.compile(r"[A-Za-z]+")


def sql_query(sql: str, params: Params = None, limit: int = MAX_ROWS) -> ToolResult:
    """Run one read-only SQL query against the operator's SQLite database.

    Args:
        sql: a single ``SELECT`` (or ``WITH ... SELECT``) statement; use ``?``
            placeholders for values instead of pasting them into the text.
        params: values for the ``?`` placeholders: a list, a JSON array as text
            (``"[1, \\"ada\\"]"``), or one scalar for a single placeholder.
        limit: most rows to return, 1 to 64; ``truncated`` says whether more matched.

    Returns:
        ``({"count": N, "truncated": bool, "rows": [...]}, evidence)``; evidence
        names the database file, the SQL, the parameters and the elapsed time.

    Raises:
        PermissionError: no database is configured, or the SQL tries to write.
        ValueError: the SQL is not a single SELECT, or params/limit are malformed.
    """
    configured = os.environ.get(DB_ENV, "").strip()
    if not configured:
        raise PermissionError(
            f"no database is configured for sql_query: the operator must set {DB_ENV} "
            "to the path of a SQLite file (a program cannot choose the database)")
    return _run(configured, sql, params, limit, TIMEOUT_S)


def make_tools(db_path: str | os.PathLike[str], *, timeout_s: float = TIMEOUT_S
               ) -> dict[str, Callable[..., ToolResult]]:
    """``TOOLS`` bound to one database, for programs that embed the host.

    Args:
        db_path: the SQLite file every query reads (opened read-only).
        timeout_s: wall-clock budget of one query, in seconds.
    """
    path = os.fspath(db_path)

    @functools.wraps(sql_query)
    def bound(sql: str, params: Params = None, limit: int = MAX_ROWS) -> ToolResult:
        return _run(path, sql, params, limit, timeout_s)

    return {"sql_query": bound}


def _run(db: str, sql: str, params: Params, limit: int, timeout_s: float) -> ToolResult:
    values = _params(params)
    limit = _limit(limit)
    _check_statement(sql)
    started = time.perf_counter()
    names, rows = _select(*_connect(db), sql, values, limit + 1, timeout_s)
    elapsed = round((time.perf_counter() - started) * 1000, 3)
    output: dict[str, object] = {
        "count": min(len(rows), limit),
        "truncated": len(rows) > limit,
        "rows": [dict(zip(names, map(_json_value, row), strict=True)) for row in rows[:limit]],
    }
    evidence: dict[str, object] = {"database": Path(db).name, "sql": sql,
                                   "params": json.dumps(values, default=str),
                                   "elapsed_ms": elapsed}
    return output, evidence


def _params(params: Params) -> list[object]:
    if params is None:
        return []
    if isinstance(params, str) and params.lstrip().startswith("["):
        try:
            params = json.loads(params)
        except json.JSONDecodeError as exc:
            raise ValueError(f"params looks like a JSON array but is not valid JSON: {exc}; "
                             'write e.g. "[1, \\"ada\\"]"') from None
    values: Sequence[object] = params if isinstance(params, (list, tuple)) else [params]
    out: list[object] = []
    for n, value in enumerate(values, start=1):
        if isinstance(value, Decimal):
            value = int(value) if value == value.to_integral_value() else str(value)
        if value is not None and not isinstance(value, (str, int, float)):
            raise ValueError(f"params[{n}] is a {type(value).__name__}; parameters must be "
                             "strings, numbers, booleans or null")
        out.append(value)
    return out


def _limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, (int, Decimal)) \
            or not 1 <= limit <= MAX_ROWS or limit != int(limit):
        raise ValueError(f"limit must be a whole number from 1 to {MAX_ROWS} "
                         f"(a receipt holds at most {MAX_ROWS} rows); got {limit!r}")
    return int(limit)


def _check_statement(sql: object) -> None:
    """A clear message for the common mistakes; the authorizer is the real guard."""
    if not isinstance(sql, str) or not sql.strip():
        raise ValueError("sql must be a non-empty SELECT statement")
    start = _LEADING_NOISE.match(sql)
    word = _FIRST_WORD.match(sql, start.end() if start else 0)
    keyword = word.group().upper() if word else ""
    if keyword not in ("SELECT", "WITH"):
        raise PermissionError(f"sql_query runs only SELECT queries (read-only); refused a "
                              f"statement starting with {keyword or sql.strip()[:20]!r}")
    if not sqlite3.complete_statement(sql.rstrip().rstrip(";") + ";"):
        raise ValueError("the SQL statement is incomplete (an unclosed quote or parenthesis?)")


def _connect(db: str) -> tuple[sqlite3.Connection, _Guard]:
    path = Path(db).expanduser()
    if not path.is_file():
        raise FileNotFoundError(f"the configured SQLite database {str(path)!r} does not exist; "
                                f"check {DB_ENV} (or the path given to make_tools)")
    uri = path.resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    guard = _Guard()
    conn.set_authorizer(guard)
    setlimit = getattr(conn, "setlimit", None)  # Python 3.11+
    if setlimit is not None:  # a query must not build a gigabyte string in memory
        setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    return conn, guard


class _Guard:
    """sqlite3 authorizer: allow reading, remember what was refused for the message."""

    def __init__(self) -> None:
        self.denied: list[str] = []

    def __call__(self, action: int, arg1: str | None, arg2: str | None, _db: str | None,
                 _trigger: str | None) -> int:
        if action in _READ_ACTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() not in _DENIED_FUNCTIONS:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION:
            self.denied.append(f"the function {arg2}()")
        else:
            name = _ACTION_NAMES.get(action, f"authorizer action {action}")
            self.denied.append(f"{name} on {arg1}" if arg1 else name)
        return sqlite3.SQLITE_DENY


def _select(conn: sqlite3.Connection, guard: _Guard, sql: str, params: list[object], fetch: int,
            timeout_s: float) -> tuple[list[str], list[tuple[Any, ...]]]:
    deadline = time.monotonic() + timeout_s
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        cursor = conn.execute(sql, params)
        rows = cursor.fetchmany(fetch)
        names = [d[0] for d in cursor.description or ()]
        cursor.close()
    except sqlite3.ProgrammingError as exc:
        raise ValueError(_explain(exc, sql)) from None
    except sqlite3.DatabaseError as exc:
        if guard.denied:
            raise PermissionError(f"sql_query is read-only: refused {guard.denied[0]} "
                                  "(only SELECT queries that read are allowed)") from None
        if "interrupted" in str(exc):
            raise TimeoutError(f"the query ran longer than {timeout_s:g} s") from None
        raise ValueError(f"SQLite rejected the query: {exc}") from None
    finally:
        conn.close()
    _check_names(names)
    return names, rows


def _explain(exc: sqlite3.ProgrammingError, sql: str) -> str:
    text = str(exc)
    if "one statement at a time" in text:
        return "sql_query runs exactly one statement; remove everything after the first `;`"
    if "bindings" in text:
        return f"{text}: give one value in params for each `?` in the SQL"
    return f"SQLite rejected the query: {text}"


def _check_names(names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"the result has two columns named {name!r}; give each column "
                             "its own name with AS (rows are keyed by column name)")
        seen.add(name)


def _json_value(value: object) -> object:
    """SQLite values as JSON scalars: BLOBs become hex text, everything else is kept."""
    if isinstance(value, bytes):
        return value.hex()
    return value


TOOLS: dict[str, Callable[..., ToolResult]] = {"sql_query": sql_query}
