"""Engines × rounds → a table of medians: the parent side shared by every benchmark.

Each sample is one fresh ``python -m benchmarks.worker`` process (killed after
a timeout), so no engine benefits from another's warm caches or heap. Engines
are interleaved round by round (round 1: A, B, C; round 2: A, B, C; ...) so
that drift in the machine's speed (thermal, other tenants, page cache) hits
every engine alike instead of whichever ran last. Medians are reported
because a single slow outlier should not move the verdict.

After every round the harness checks that all engines derived the same number
of answers; a disagreement means some engine is wrong, and a speed ratio
between a right and a wrong answer is meaningless, so it stops at once.

>>> case = Case("demo", (Engine("a", ("clingo", "a.lp")),))
>>> rows = summarise(case, [Sample("a", 1, 3, {"": Measure(1.0, 100, {})}),
...                         Sample("a", 2, 3, {"": Measure(3.0, 300, {})})])
>>> rows[0].seconds, rows[0].peak_kib
(2.0, 200)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "CHILD_TIMEOUT", "EXIT_CHILD_FAILED", "EXIT_DISAGREEMENT", "ROOT",
    "Case", "ChildFailed", "Disagreement", "Engine", "Measure", "Row", "Sample",
    "add_common_arguments", "format_ratio", "machine_note", "print_table", "progress", "ratio",
    "rounds_of", "run_case", "run_child", "run_main", "summarise", "write_json",
]

#: Repository root: children run ``-m benchmarks.worker`` from here.
ROOT = Path(__file__).resolve().parent.parent
#: A child still running after this many seconds is killed and the benchmark fails.
CHILD_TIMEOUT = 120.0
#: The variant every worker reports; others (e.g. ``decode-all``) get their own row.
MAIN = ""


class ChildFailed(RuntimeError):
    """A worker process crashed, timed out or printed no result."""


class Disagreement(RuntimeError):
    """Engines derived different numbers of answers from the same input."""


@dataclass(frozen=True)
class Engine:
    """One contender: a row label and the worker's command line (after ``-m benchmarks.worker``)."""

    label: str
    argv: tuple[str, ...]


@dataclass(frozen=True)
class Case:
    """One input (e.g. a random graph of 1000 nodes) and the engines run on it."""

    name: str
    engines: tuple[Engine, ...]
    expected: int | None = None  # the answer count when it is known independently


@dataclass(frozen=True)
class Measure:
    """What a child reports for one variant: wall and CPU time, absolute peak RSS, phases."""

    seconds: float
    peak_kib: int
    phases: dict[str, float]
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class Sample:
    """One child run of one engine."""

    engine: str
    round: int
    count: int
    measures: dict[str, Measure]
    import_seconds: float = 0.0


@dataclass(frozen=True)
class Row:
    """Medians over the rounds for one engine variant."""

    label: str
    count: int
    seconds: float
    low: float
    high: float
    peak_kib: int
    import_seconds: float
    phases: dict[str, float] = field(default_factory=dict)
    cpu_seconds: float = 0.0


def run_child(engine: Engine, round_: int, timeout: float = CHILD_TIMEOUT) -> Sample:
    """Run one worker process and parse the JSON on its last stdout line."""
    cmd = [sys.executable, "-m", "benchmarks.worker", *engine.argv]
    try:
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        raise ChildFailed(f"{engine.label}: killed after {timeout:.0f} s") from None
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = "\n".join(done.stderr.strip().splitlines()[-8:])
        raise ChildFailed(f"{engine.label}: exit code {done.returncode}\n{tail}")
    data = json.loads(lines[-1])
    measures = {k: Measure(v["seconds"], v["peak_kib"], v.get("phases", {}),
                           v.get("cpu_seconds", 0.0))
                for k, v in data["measures"].items()}
    return Sample(engine.label, round_, data["count"], measures, data.get("import_seconds", 0.0))


def _check_round(case: Case, samples: Sequence[Sample], reference: int | None) -> int:
    """The count every engine agrees on in this round; :class:`Disagreement` otherwise."""
    counts = {s.engine: s.count for s in samples}
    distinct = set(counts.values())
    if reference is not None:
        distinct.add(reference)
    if len(distinct) != 1:
        listing = ", ".join(f"{k}={v}" for k, v in counts.items())
        known = f" (expected {reference})" if reference is not None else ""
        raise Disagreement(f"{case.name}: engines disagree on the number of derived answers"
                           f"{known}: {listing}")
    return distinct.pop()


def run_case(case: Case, rounds: int, log: Callable[[str], None] | None = None) -> list[Sample]:
    """All engines of ``case``, interleaved, ``rounds`` times; counts checked every round."""
    samples: list[Sample] = []
    agreed = case.expected
    for r in range(1, rounds + 1):
        started = time.perf_counter()
        batch = [run_child(engine, r) for engine in case.engines]
        agreed = _check_round(case, batch, agreed)
        samples.extend(batch)
        if log is not None:
            log(f"  {case.name}: round {r}/{rounds} done in "
                f"{time.perf_counter() - started:.1f} s ({agreed} answers)")
    return samples


def progress(message: str) -> None:
    """A progress line on stderr, after flushing stdout so the two stay in order."""
    sys.stdout.flush()
    print(message, file=sys.stderr, flush=True)


def machine_note() -> str:
    """Cores and load average: timings on a shared machine mean little without them."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} cores, load average {load} at start"


def _row_label(engine: str, variant: str) -> str:
    return engine if variant == MAIN else f"{engine} [{variant}]"


def summarise(case: Case, samples: Sequence[Sample]) -> list[Row]:
    """One row per engine variant, in engine order, with median time, peak and phases."""
    rows: list[Row] = []
    for engine in case.engines:
        mine = [s for s in samples if s.engine == engine.label]
        if not mine:
            continue
        for variant in mine[0].measures:
            ms = [s.measures[variant] for s in mine]
            secs = [m.seconds for m in ms]
            phases = {p: statistics.median(m.phases[p] for m in ms) for p in ms[0].phases}
            rows.append(Row(_row_label(engine.label, variant), mine[0].count,
                            statistics.median(secs), min(secs), max(secs),
                            round(statistics.median(m.peak_kib for m in ms)),
                            statistics.median(s.import_seconds for s in mine), phases,
                            statistics.median(m.cpu_seconds for m in ms)))
    return rows


def print_table(title: str, rows: Sequence[Row]) -> None:
    """Medians per engine: answers, wall time (min–max), CPU time, absolute peak RSS, phases."""
    width = max(len(r.label) for r in rows)
    print(f"\n{title}")
    print(f"  {'engine':<{width}}  {'answers':>9}  {'median s':>9}  {'min–max s':>15}  "
          f"{'cpu s':>7}  {'peak MiB':>8}  {'import s':>8}  phases (median wall s)")
    for r in rows:
        phases = ", ".join(f"{k} {v:.3f}" for k, v in r.phases.items())
        print(f"  {r.label:<{width}}  {r.count:>9}  {r.seconds:>9.3f}  "
              f"{r.low:>7.3f}–{r.high:<7.3f}  {r.cpu_seconds:>7.3f}  {r.peak_kib / 1024:>8.1f}  "
              f"{r.import_seconds:>8.3f}  {phases}")


def ratio(rows: Sequence[Row], num: str, den: str, what: str = "seconds") -> float:
    """``num``'s median over ``den``'s, for ``seconds``, ``cpu_seconds`` or ``peak_kib``."""
    by_label = {r.label: r for r in rows}
    return float(getattr(by_label[num], what)) / float(getattr(by_label[den], what))


def format_ratio(value: float, target: float | None = None) -> str:
    """``1.23`` with a PASS/FAIL verdict when a target (an upper bound) is given."""
    if target is None:
        return f"{value:.2f}"
    verdict = "PASS" if value <= target else "FAIL"
    return f"{value:.2f} (target ≤ {target:g}: {verdict})"


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags every benchmark shares: ``--quick``, ``--rounds``, ``--json``."""
    parser.add_argument("--quick", action="store_true",
                        help="small inputs and 3 rounds: a smoke test that runs in seconds")
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds per case (default 5, or 3 with --quick; at least 1)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE",
                        help="also write every sample and median to FILE")


def rounds_of(ns: argparse.Namespace) -> int:
    """The number of rounds the flags ask for."""
    rounds: int = ns.rounds if ns.rounds is not None else (3 if ns.quick else 5)
    if rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    return rounds


def write_json(path: Path, results: dict[str, tuple[list[Sample], list[Row]]]) -> None:
    """Raw samples and medians per case, for the README table or a later comparison."""
    data: dict[str, Any] = {name: {"samples": [asdict(s) for s in samples],
                                   "rows": [asdict(r) for r in rows]}
                            for name, (samples, rows) in results.items()}
    path.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")


#: Exit codes of a benchmark script (missed targets are reported, not failed: they are goals).
EXIT_DISAGREEMENT = 2
EXIT_CHILD_FAILED = 3


def run_main(body: Callable[[], None]) -> int:
    """Run a benchmark; a disagreement or a failed child becomes a message and an exit code."""
    try:
        body()
    except Disagreement as exc:
        print(f"\nFAILED: {exc}", file=sys.stderr)
        return EXIT_DISAGREEMENT
    except ChildFailed as exc:
        print(f"\nFAILED: a benchmark child process failed: {exc}", file=sys.stderr)
        return EXIT_CHILD_FAILED
    return 0
