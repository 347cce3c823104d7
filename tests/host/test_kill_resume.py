"""SIGKILL while a tool runs, then resume: nothing completed runs twice.

The host writes a start marker before each call and the receipt after it. A
marker without a receipt means the process died mid-call: on resume the host
records that call as failed with ``error("type") -> "interrupted"`` (its
effect is unknown, so it is not repeated), and the rules decide what follows.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from fxlog.tools import replay
from fxlog.tools.host import recorded_end
from fxlog.tools.receipt_log import load_receipts

WAIT_S = 60


def host(program: Path, receipts: Path, adapter: str) -> list[str]:
    return [sys.executable, "-m", "fxlog.tools", str(program), "--receipts-out",
            str(receipts), "--adapter", adapter, "--format", "json"]


def wait_for(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_sigkill_mid_call_then_resume(copy_data: Callable[[str], Path], side: Path,
                                      calls: Callable[[], list[str]],
                                      adapter: Callable[[str], str]) -> None:
    program = copy_data("kill_resume.fx")
    receipts = program.with_name("kill_resume.receipts.fx")
    command = host(program, receipts, adapter("counting"))
    proc = subprocess.Popen(command, cwd=program.parent, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        wait_for(lambda: "slow 1" in calls() or proc.poll() is not None, "`slow 1` to start")
        assert proc.poll() is None, proc.communicate()[1]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=WAIT_S)
        assert proc.stderr is not None
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    assert calls() == ["first 1", "slow 1"]
    killed = load_receipts(receipts)
    assert [str(t) for t in killed.started_only] != []
    assert recorded_end(receipts) is None  # the killed run never finished
    before = receipts.read_bytes()
    stopped = replay(program, [receipts])  # a killed run replays: the call is pending
    assert (stopped.end_reason, stopped.pending) == ("pending", ["slow(1)"])
    assert receipts.read_bytes() == before

    (side / "gate").touch()  # later calls of `block` return at once
    resumed = subprocess.run(command, cwd=program.parent, capture_output=True, text=True,
                             timeout=WAIT_S, check=False)
    assert resumed.returncode == 0, resumed.stderr
    after = receipts.read_bytes()
    assert after.startswith(before)  # resumed by appending, never rewritten

    counts = Counter(calls())
    assert counts == {"first 1": 1, "slow 1": 1, "slow 2": 1, "last 1": 1}, calls()
    text = receipts.read_text()
    completions = [line for line in text.splitlines() if "tool#completed -> true" in line]
    assert [line.split("[", 1)[0] for line in completions] == \
        ["first(1)", "slow(1)", "slow(2)", "last(1)"]
    interrupted = completions[1]
    assert 'tool#status -> "failed"' in interrupted
    assert 'error("type") -> "interrupted"' in interrupted
    assert "result(" not in interrupted
    assert recorded_end(receipts) == ("workflow", "done")

    final = replay(program, [receipts])
    assert (final.end_reason, final.status, final.pending) == ("workflow", "done", [])
    assert [b.text("T") for b in final.answers[0].bindings] == ['"interrupted"']
