"""The benchmark scripts run (small sizes) and their engines agree on every answer count.

Timing targets are never asserted here (a loaded CI machine would make them
flaky); the scripts exit 2 when engines disagree, which is a real failure.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name, marker", [
    ("tc", "time/clingo"),
    ("load", "fxlog/clingo"),
    ("episode", "marginal cost per added receipt"),
    ("inherit", "inherited values"),
    ("explain", "ratio"),
    ("datalog", "pyDatalog/fxlog"),
])
def test_benchmark_runs_quick_and_engines_agree(name: str, marker: str) -> None:
    done = subprocess.run([sys.executable, "-m", f"benchmarks.{name}", "--quick"], cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert marker in done.stdout
