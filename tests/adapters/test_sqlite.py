"""The read-only SQLite adapter and the orders example that uses it."""

from __future__ import annotations

import inspect
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from fxlog.adapters import sqlite as adapter
from fxlog.syntax import ast
from fxlog.syntax.parser import parse_program
from fxlog.tools.receipts import OutputFacts, check_output

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "examples" / "orders"
Query = Callable[..., tuple[dict[str, object], dict[str, object]]]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "shop.sqlite"
    conn = sqlite3.connect(path)
    try:
        conn.executescript("""
            CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, price REAL, data BLOB);
            CREATE TABLE audit(note TEXT);
        """)
        conn.executemany("INSERT INTO items(name, price, data) VALUES (?, ?, ?)",
                         [(f"item{i}", i * 1.5, b"\x00\xff") for i in range(1, 101)])
        conn.commit()
    finally:
        conn.close()
    return path


@pytest.fixture
def query(db: Path) -> Query:
    return adapter.make_tools(db)["sql_query"]


def table_size(db: Path, table: str) -> int:
    conn = sqlite3.connect(db)
    try:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


# ----------------------------------------------------------------------- reading


def test_select_with_a_parameter_list(query: Query) -> None:
    output, evidence = query("SELECT id, name, price FROM items WHERE id IN (?, ?)", [2, 3])
    assert output == {"count": 2, "truncated": False, "rows": [
        {"id": 2, "name": "item2", "price": 3.0}, {"id": 3, "name": "item3", "price": 4.5}]}
    assert evidence["database"] == "shop.sqlite" and evidence["params"] == "[2, 3]"
    assert str(evidence["sql"]).startswith("SELECT") and isinstance(evidence["elapsed_ms"], float)


@pytest.mark.parametrize("params", ['[5, "item5"]', ' [5, "item5"] '])
def test_params_as_json_array_text(query: Query, params: str) -> None:
    output, _ = query("SELECT id FROM items WHERE id = ? AND name = ?", params)
    assert output["rows"] == [{"id": 5}]


@pytest.mark.parametrize(
    ("sql", "param"),
    [("SELECT id FROM items WHERE id = ?", 7), ("SELECT id FROM items WHERE name = ?", "item7")],
)
def test_a_single_scalar_param_fills_one_placeholder(query: Query, sql: str, param: object) -> None:
    assert query(sql, param)[0]["rows"] == [{"id": 7}]


def test_limit_and_truncation(query: Query) -> None:
    output, _ = query("SELECT id FROM items ORDER BY id", None, 10)
    assert output["count"] == 10 and output["truncated"] is True
    everything, _ = query("SELECT id FROM items WHERE id <= 64")
    assert everything["count"] == 64 and everything["truncated"] is False
    more, _ = query("SELECT id FROM items")
    assert more["count"] == 64 and more["truncated"] is True


@pytest.mark.parametrize("limit", [0, 65, -1, True, 2.5, "10"])
def test_a_limit_outside_1_to_64_is_refused(query: Query, limit: object) -> None:
    with pytest.raises(ValueError, match="from 1 to 64"):
        query("SELECT id FROM items", None, limit)


def test_output_maps_to_a_receipt(query: Query) -> None:
    output, _ = query("SELECT id, data, NULL AS empty FROM items WHERE id = 1")
    assert output["rows"] == [{"id": 1, "data": "00ff", "empty": None}]
    assert isinstance(check_output(output), OutputFacts)


def test_recursive_cte_and_comments_are_fine(query: Query) -> None:
    sql = ("-- numbers\n/* up to 3 */ WITH RECURSIVE n(x) AS "
           "(SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT x FROM n;")
    assert query(sql)[0]["rows"] == [{"x": 1}, {"x": 2}, {"x": 3}]


# --------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("sql", "error", "needle"),
    [
        ("INSERT INTO audit VALUES ('x')", PermissionError, "starting with 'INSERT'"),
        ("UPDATE items SET price = 0", PermissionError, "starting with 'UPDATE'"),
        ("DELETE FROM items", PermissionError, "starting with 'DELETE'"),
        ("DROP TABLE items", PermissionError, "starting with 'DROP'"),
        ("ATTACH DATABASE '/tmp/other.db' AS other", PermissionError, "starting with 'ATTACH'"),
        ("PRAGMA user_version = 7", PermissionError, "starting with 'PRAGMA'"),
        ("  pragma journal_mode = delete", PermissionError, "starting with 'PRAGMA'"),
        ("WITH x AS (SELECT 1) DELETE FROM items", PermissionError, "refused DELETE on items"),
        ("WITH x AS (SELECT 1) INSERT INTO audit SELECT 'y' FROM x", PermissionError,
         "refused INSERT on audit"),
        ("WITH x AS (SELECT 1) UPDATE items SET price = 0", PermissionError,
         "refused UPDATE on items"),
        ("SELECT load_extension('evil')", PermissionError, "load_extension()"),
        ("SELECT * FROM pragma_table_info('items')", PermissionError, "read-only"),
        ("SELECT 1; DROP TABLE items", ValueError, "exactly one statement"),
        ("SELECT 1; SELECT 2", ValueError, "exactly one statement"),
        ("SELECT 'unclosed", ValueError, "incomplete"),
        ("", ValueError, "non-empty SELECT"),
        ("SELECT * FROM nowhere", ValueError, "no such table"),
        ("SELECT 1 AS a, 2 AS a", ValueError, "two columns named 'a'"),
        ("SELECT id FROM items WHERE id = ?", ValueError, "one value in params for each `?`"),
    ],
)
def test_anything_but_one_reading_select_is_refused_clearly(
    query: Query, db: Path, sql: str, error: type[Exception], needle: str
) -> None:
    before = (table_size(db, "items"), table_size(db, "audit"))
    with pytest.raises(error) as info:
        query(sql)
    assert needle in str(info.value)
    assert (table_size(db, "items"), table_size(db, "audit")) == before


def test_the_file_is_opened_read_only_even_without_the_authorizer(
    query: Query, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(adapter._Guard, "__call__", lambda self, *a: sqlite3.SQLITE_OK)
    with pytest.raises(ValueError, match="readonly"):
        query("WITH x AS (SELECT 1) DELETE FROM items")
    assert table_size(db, "items") == 100


@pytest.mark.parametrize("params", ["[1, ", [[1]], [{"a": 1}], '[{"a": 1}]'])
def test_malformed_params_are_refused(query: Query, params: object) -> None:
    with pytest.raises(ValueError, match="params"):
        query("SELECT ?", params)


def test_a_runaway_query_is_stopped(db: Path) -> None:
    slow = adapter.make_tools(db, timeout_s=0.2)["sql_query"]
    with pytest.raises(TimeoutError, match="0.2 s"):
        slow("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
             "SELECT count(*) AS c FROM n")


# ---------------------------------------------------------------- configuration


def test_the_tool_reads_the_database_the_operator_configured(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(adapter.DB_ENV, str(db))
    output, evidence = adapter.TOOLS["sql_query"]("SELECT count(*) AS n FROM items")
    assert output["rows"] == [{"n": 100}] and evidence["database"] == "shop.sqlite"


def test_missing_configuration_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(adapter.DB_ENV, raising=False)
    with pytest.raises(PermissionError, match="FXLOG_SQLITE_DB"):
        adapter.sql_query("SELECT 1")


def test_a_configured_file_that_does_not_exist(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(adapter.DB_ENV, str(tmp_path / "gone.sqlite"))
    with pytest.raises(FileNotFoundError, match="FXLOG_SQLITE_DB"):
        adapter.sql_query("SELECT 1")
    assert not (tmp_path / "gone.sqlite").exists()


def test_the_program_cannot_choose_the_file() -> None:
    """Only sql, params and limit reach the tool: no path, no connection string."""
    for tool in (adapter.sql_query, adapter.make_tools("x.sqlite")["sql_query"]):
        assert list(inspect.signature(tool).parameters) == ["sql", "params", "limit"]
        assert "Args:" in (tool.__doc__ or "")


# ----------------------------------------------------------------------- example


def test_the_example_database_is_real_and_small() -> None:
    db = ORDERS / "orders.sqlite"
    assert db.stat().st_size < 16_384
    query = adapter.make_tools(db)["sql_query"]
    output, _ = query("SELECT o.amount, o.status, c.name AS customer FROM orders o "
                      "JOIN customers c ON c.id = o.customer_id WHERE o.id = ?", 1002)
    assert output["rows"] == [{"amount": 899.0, "status": "paid", "customer": "Ada Lovelace"}]


def test_make_db_rebuilds_the_same_rows(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_orders_db", ORDERS / "make_db.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path / "o.sqlite")
    dump: list[list[str]] = []
    for path in (tmp_path / "o.sqlite", ORDERS / "orders.sqlite"):
        conn = sqlite3.connect(path)
        try:
            dump.append(list(conn.iterdump()))
        finally:
            conn.close()
    assert dump[0] == dump[1]


def test_the_example_program_parses_and_requests_sql_query() -> None:
    program = parse_program((ORDERS / "orders.fx").read_text("utf-8"), "orders.fx")
    externals = [s for s in program.statements if isinstance(s, ast.External)]
    assert [e.tool for e in externals] == [ast.Sym("sql_query")] * 2
