"""Stored answers: (provider, request) → fingerprint → ``ModelReply`` in an SQLite file.

Model calls are slow, cost money and do not repeat themselves. Each live turn
is therefore kept under a fingerprint of everything that decides its answer
(provider, model, the whole transcript so far, the tool definitions and the
sampling options), so a later run can replay it offline and get the same
bytes. This cache is separate from episodes and receipts.

>>> fp = fingerprint("ollama", {"model": "m", "messages": [{"role": "user", "content": "x"}]})
>>> fp == fingerprint("ollama", {"messages": [{"content": "x", "role": "user"}], "model": "m"})
True
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from fxlog.models.errors import ModelCallError
from fxlog.models.provider import ModelReply

__all__ = ["AnswerStore", "StoredAnswer", "canonical_json", "fingerprint", "request_key"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    fingerprint TEXT PRIMARY KEY,
    request_key TEXT NOT NULL,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    request TEXT NOT NULL,
    reply TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_request_key ON answers (request_key, created);
"""


def canonical_json(value: object) -> str:
    """JSON with sorted keys and no spaces, so equal data always hashes equally."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def fingerprint(provider: str, identity: Mapping[str, object]) -> str:
    """sha256 of the canonical JSON of the provider and the request identity."""
    payload = canonical_json({"provider": provider, **identity})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def request_key(identity: Mapping[str, object]) -> str:
    """Like :func:`fingerprint` without the provider: what ``replay`` looks up."""
    return hashlib.sha256(canonical_json(dict(identity)).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class StoredAnswer:
    """A stored turn: which fingerprint and provider it was recorded under, and the reply."""

    fingerprint: str
    provider: str
    model: str
    reply: ModelReply


class AnswerStore:
    """One SQLite file of stored answers, safe to use from several threads at once.

    Every operation opens its own short-lived connection and SQLite's own file
    locking (with a busy timeout) serialises writers, so no connection is ever
    shared between threads. The default rollback journal is kept on purpose: a
    store is one self-contained file that can be shipped, copied or read from
    a read-only folder. The file and its folder appear on the first write only.
    """

    def __init__(self, path: str | Path, *, busy_timeout_s: float = 10.0) -> None:
        self.path = Path(path)
        self._busy_timeout_s = busy_timeout_s

    @contextmanager
    def _connect(self, *, create: bool) -> Iterator[sqlite3.Connection | None]:
        if not create and not self.path.exists():
            yield None
            return
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(self.path, timeout=self._busy_timeout_s)) as conn:
                if create:
                    # A cache, not a ledger: losing the last answer to a power cut is fine.
                    conn.execute("PRAGMA synchronous=NORMAL")
                    conn.executescript(_SCHEMA)
                yield conn
        except (sqlite3.Error, OSError) as exc:
            raise ModelCallError("store_error", f"answer store {self.path}: {exc}") from exc

    def get(self, fp: str) -> StoredAnswer | None:
        """The answer stored under exactly this fingerprint."""
        return self._select("SELECT fingerprint, provider, model, reply FROM answers "
                            "WHERE fingerprint = ?", fp)

    def get_any_provider(self, key: str) -> StoredAnswer | None:
        """The newest answer for this request from whichever provider recorded it."""
        return self._select("SELECT fingerprint, provider, model, reply FROM answers "
                            "WHERE request_key = ? ORDER BY created DESC LIMIT 1", key)

    def put(self, fp: str, key: str, provider: str, identity: Mapping[str, object],
            reply: ModelReply) -> None:
        """Store (or overwrite) one turn's answer."""
        row = (fp, key, provider, str(identity.get("model", "")), canonical_json(dict(identity)),
               canonical_json(reply.to_json()), time.time())
        with self._connect(create=True) as conn:
            assert conn is not None
            with conn:
                conn.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?)", row)

    def count(self) -> int:
        """How many answers the file holds (0 when it does not exist yet)."""
        with self._connect(create=False) as conn:
            if conn is None:
                return 0
            return int(conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def _select(self, sql: str, arg: str) -> StoredAnswer | None:
        with self._connect(create=False) as conn:
            if conn is None:
                return None
            try:
                row = conn.execute(sql, (arg,)).fetchone()
            except sqlite3.OperationalError as exc:
                if "no such table" not in str(exc):
                    raise
                return None  # a file nothing was stored in yet
        if row is None:
            return None
        return StoredAnswer(row[0], row[1], row[2], ModelReply.from_json(json.loads(row[3])))
