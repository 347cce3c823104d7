"""Build ``orders.sqlite`` for the orders example (deterministic, a few KB).

Run from anywhere: ``python examples/orders/make_db.py``. The database is
rebuilt from the rows below, so the committed file can always be regenerated
and reviewed as text here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["CUSTOMERS", "ORDERS", "build"]

HERE = Path(__file__).resolve().parent

#: (id, name, country, customer since)
CUSTOMERS = [
    (1, "Ada Lovelace", "GB", "2019-03-02"),
    (2, "Grace Hopper", "US", "2021-07-15"),
    (3, "Alan Turing", "GB", "2024-11-30"),
    (4, "Katherine Johnson", "US", "2020-01-09"),
    (5, "Edsger Dijkstra", "NL", "2022-05-21"),
]

#: (id, customer id, amount, status, placed on)
ORDERS = [
    (990, 1, 310.00, "paid", "2025-01-10"),
    (991, 1, 1480.00, "paid", "2025-03-22"),
    (992, 1, 95.50, "paid", "2025-06-01"),
    (993, 2, 42.00, "paid", "2025-06-03"),
    (994, 4, 2210.00, "paid", "2025-08-19"),
    (995, 4, 18.75, "refunded", "2025-09-02"),
    (1001, 1, 120.50, "paid", "2026-04-28"),
    (1002, 1, 899.00, "paid", "2026-04-29"),
    (1003, 2, 45.00, "pending", "2026-04-29"),
    (1004, 3, 1250.00, "paid", "2026-04-30"),
    (1005, 5, 64.20, "refunded", "2026-04-30"),
    (1006, 4, 730.00, "paid", "2026-04-30"),
]

_SCHEMA = """
CREATE TABLE customers (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL UNIQUE,
    country TEXT NOT NULL,
    since   TEXT NOT NULL
);
CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    amount      REAL NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('paid', 'pending', 'refunded')),
    placed      TEXT NOT NULL
);
CREATE INDEX orders_by_customer ON orders(customer_id);
"""


def build(path: Path) -> None:
    """Write the database to ``path``, replacing any earlier file."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA page_size = 1024")  # small pages: the file stays a few KB
        conn.executescript(_SCHEMA)
        conn.executemany("INSERT INTO customers VALUES (?, ?, ?, ?)", CUSTOMERS)
        conn.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?)", ORDERS)
        conn.commit()
        conn.execute("VACUUM")
    finally:
        conn.close()


if __name__ == "__main__":
    build(HERE / "orders.sqlite")
    print(f"wrote {HERE / 'orders.sqlite'}")
