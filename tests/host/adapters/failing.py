"""One tool per failure path of the episode host (LANGUAGE.md §5).

Each tool fails on ``attempt -> 1`` and succeeds on any later attempt, so a
program can show that rules react to the failed receipt with a retry. The
``slow`` tool blocks on ``$FXLOG_HOST_TEST_DIR/gate`` (at most 10 s) on its
first attempt, to run past ``--tool-timeout``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

Pair = tuple[object, dict[str, object]]
OK: dict[str, object] = {"ok": True}


def raises(attempt: int) -> Pair:
    if attempt == 1:
        raise RuntimeError("backend down (attempt 1)")
    return dict(OK, attempt=attempt), {}


def returns_list(attempt: int) -> Pair:
    return ([1, 2, 3] if attempt == 1 else dict(OK)), {}


def returns_string(attempt: int) -> Pair:
    return ("just some text" if attempt == 1 else dict(OK)), {}


def nested_row(attempt: int) -> Pair:
    if attempt == 1:
        return {"rows": [{"id": 1, "meta": {"deep": True}}]}, {}
    return {"rows": [{"id": 1, "meta": "flat"}]}, {}


def too_many_fields(attempt: int) -> Pair:
    if attempt == 1:
        return {f"f{i}": i for i in range(65)}, {}
    return {f"f{i}": i for i in range(64)}, {}


def slow(attempt: int) -> Pair:
    if attempt == 1:
        gate = Path(os.environ.get("FXLOG_HOST_TEST_DIR", ".")) / "gate"
        deadline = time.monotonic() + 10.0
        while not gate.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    return dict(OK), {}


EVIL = '"]. evil(x) :- true.'


def evil(attempt: int = 1) -> Pair:
    return {"text": EVIL, "also": "a\"] .\nevil(y).\n// " + EVIL}, {"note": EVIL}


TOOLS = {
    "raises": raises,
    "returns_list": returns_list,
    "returns_string": returns_string,
    "nested_row": nested_row,
    "too_many_fields": too_many_fields,
    "slow": slow,
    "evil": evil,
}
