"""The seed walkthrough (shared/seeds/000), exactly as a user types it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from fxlog.tools import replay
from fxlog.tools.receipt_log import load_receipts

WAIT_S = 60


def fxlog(cwd: Path, *args: str, module: str = "fxlog") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FXLOG_")}
    return subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=WAIT_S, check=False)


@pytest.fixture
def seed(copy_data: Callable[[str], Path]) -> Path:
    return copy_data("tool-query.fx")


def test_walkthrough_run_replay_query(seed: Path) -> None:
    cwd = seed.parent
    run = fxlog(cwd, "tool-query.fx", "--receipts-out", "tool-query.receipts.fx",
                module="fxlog.tools")
    assert run.returncode == 0, run.stderr
    assert '?- socrates[answer -> "true"].  true' in run.stdout
    assert "ran checkHuman(socrates)" in run.stdout
    receipts = cwd / "tool-query.receipts.fx"
    loaded = load_receipts(receipts)
    assert [str(t) for t in loaded.completed] != []
    text = receipts.read_text()
    assert 'result("status") -> "true"' in text
    assert 'tool#status -> "succeeded"' in text

    before = receipts.read_bytes()
    again = fxlog(cwd, "replay", "tool-query.fx", "tool-query.receipts.fx", "--format", "json")
    assert again.returncode == 0, again.stderr
    out = json.loads(again.stdout)
    assert [a["truth"] for a in out["answers"]] == ["true"]
    assert out["executed"] == [] and out["actions"] == 0 and out["pending"] == []
    assert receipts.read_bytes() == before  # replay writes nothing: nothing ran

    alone = fxlog(cwd, "query", "tool-query.fx")
    assert alone.returncode == 0, alone.stderr
    assert '?- socrates[answer -> "true"].  unknown' in alone.stdout
    assert "depends on pending requests: checkHuman(socrates)" in alone.stdout


def test_seed_replay_text_and_check(seed: Path, cli: Callable[..., object]) -> None:
    cwd = seed.parent
    assert fxlog(cwd, "run", "tool-query.fx").returncode == 0
    receipts = cwd / "tool-query.receipts.fx"  # the default NAME.receipts.fx
    assert receipts.exists()
    result = fxlog(cwd, "replay", "tool-query.fx", "tool-query.receipts.fx", "--check")
    assert result.returncode == 0, result.stderr
    assert "episode ended: quiescence; 0 actions" in result.stdout
    assert "ran " not in result.stdout
    assert '?- socrates[answer -> "true"].  true' in result.stdout


def test_seed_in_process(seed: Path) -> None:
    from fxlog.tools import run_episode

    live = run_episode(seed)
    assert live.end_reason == "quiescence" and live.executed == ["checkHuman(socrates)"]
    assert [a.truth for a in live.answers] == ["true"]
    again = replay(seed, [live.receipts_path or ""])
    assert [a.as_json() for a in again.answers] == [a.as_json() for a in live.answers]
    assert again.executed == [] and again.pending == []
    # Without the receipt the request is pending and the answer open.
    bare = replay(seed, [])
    assert bare.end_reason == "pending" and bare.pending == ["checkHuman(socrates)"]
    assert [a.truth for a in bare.answers] == ["unknown"]
