"""Tools that log every execution to ``$FXLOG_HOST_TEST_DIR/calls.log``.

``count`` returns at once; ``block`` waits until the file ``gate`` exists in
the same folder, so a test can kill the host while the tool runs. Both log
before they return, so a line in ``calls.log`` means "the tool body ran".
"""

from __future__ import annotations

import os
import time
from pathlib import Path

GATE_WAIT_S = 60.0


def _side() -> Path:
    return Path(os.environ["FXLOG_HOST_TEST_DIR"])


def _log(entry: str) -> None:
    fd = os.open(_side() / "calls.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (entry + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def count(name: str, attempt: int = 1) -> tuple[dict[str, object], dict[str, object]]:
    _log(f"{name} {attempt}")
    return {"name": name, "attempt": attempt}, {"adapter": "counting"}


def block(name: str, attempt: int = 1) -> tuple[dict[str, object], dict[str, object]]:
    _log(f"{name} {attempt}")
    deadline = time.monotonic() + GATE_WAIT_S
    while not (_side() / "gate").exists():
        if time.monotonic() > deadline:
            raise TimeoutError("the test never opened the gate")
        time.sleep(0.01)
    return {"name": name, "attempt": attempt, "released": True}, {"adapter": "counting"}


TOOLS = {"count": count, "block": block}
