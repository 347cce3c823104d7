"""Episode costs: host step overhead, steps over a large knowledge base, replay.

Run from the repository root: ``python -m benchmarks.episode`` (``--quick`` for
a smoke run). Everything is measured side by side in one process, rounds
interleaved, medians of at least five rounds, and printed as ratios:

* **step overhead** — one host step (append a receipt and fsync it, add it to
  the knowledge base, ground and solve, decode the pending requests) against a
  fresh clingo control grounding the same program with the same receipts as
  plain facts, at K = 0, 100 and 1,000 receipts; plus the marginal cost per
  added receipt. Target: ratio ≤ 5, marginal ≤ 10 µs.
* **large knowledge base** — a 32-action episode whose rules join receipts
  with N facts, incremental steps against re-solving everything from scratch
  each step (``run_episode(incremental=False)``). Target: ≤ 0.5 at N = 100,000;
  per-step time at 100,000 and at 1,000 facts printed.
* **replay** — 1,000 and 10,000 receipts replayed in one shot against clingo
  solving the program with the receipts as plain facts. Target: ≤ 3; replayed
  answers must equal the live episode's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import clingo

from fxlog.engine.arith import BuiltinContext
from fxlog.engine.incremental import IncrementalSolver
from fxlog.reasoner import KnowledgeBase, pending_requests
from fxlog.syntax.parser import parse_program
from fxlog.tools.host import replay, run_episode
from fxlog.tools.receipt_log import load_receipts
from fxlog.tools.receipts import ReceiptLog, receipt_facts
from fxlog.tools.registry import ToolRegistry

__all__ = ["main"]

STEP_PROGRAM = """
{items}
external r(?I) using bench[n -> ?I; tool#order -> 1] <- item(?I).
done(?I) :- ?C[tool#name -> "bench"; tool#arg1 -> ?I; tool#status -> "succeeded"].
workflow[status -> "finished"] :- ?N = count{{?I | done(?I)}}, ?N >= {total}.
"""

CHAIN_PROGRAM = """
start(0).
external work(?I) using bench[n -> ?I; tool#order -> 1] <- start(?I).
external work(?J) using bench[n -> ?J; tool#order -> 1]
    <- ?C[tool#name -> "bench"; tool#arg1 -> ?I; tool#status -> "succeeded";
          result("next") -> ?J], kb(?J, ?_).
score(?I, ?S) :- ?C[tool#arg1 -> ?I; result("v") -> ?V], kb(?V, ?S).
workflow[status -> "done"] :- ?C[tool#arg1 -> {last}; tool#completed -> true].
?- score(?I, ?S).
"""


def bench_tool(n: int) -> tuple[dict[str, object], dict[str, object]]:
    """A tool that costs nothing, so only the host is measured."""
    return {"next": n + 1, "v": n}, {}


def registry() -> ToolRegistry:
    reg = ToolRegistry()
    reg.register("bench", bench_tool, "benchmark")
    return reg


def receipt_line(i: int, seq: int) -> str:
    return receipt_facts(f"r({i})", status="succeeded", output={"next": i + 1, "v": i},
                         evidence={}, inputs={"n": str(i)}, tool_name="bench", seq=seq,
                         started="2026-01-01T00:00:00Z", finished="2026-01-01T00:00:00Z",
                         duration_ms=0)


def median(samples: list[float]) -> float:
    return statistics.median(samples)


# ------------------------------------------------------------------ step cost
def fxlog_step_time(k: int, folder: Path) -> float:
    """One host step after k receipts: write + fsync, add, ground, solve, decode."""
    items = "".join(f"item({i}). " for i in range(k + 2))
    text = STEP_PROGRAM.format(items=items, total=k + 2)
    kb = KnowledgeBase()
    kb.add_program(parse_program(text, "step.fx"))
    solver = IncrementalSolver(kb.translation(queries=False).asp)
    previous = "".join(receipt_line(i, i + 1) for i in range(k))
    if previous:
        kb.add_receipt_text(previous, "previous.fx")
    solver.step("".join(kb.receipt_asp))
    line = receipt_line(k, k + 1)
    path = folder / f"step-{k}-{time.monotonic_ns()}.receipts.fx"
    with ReceiptLog(path) as log:
        start = time.perf_counter()
        log.append(line)
        kb.add_receipt_text(line, "new.fx")
        captured = solver.step(kb.receipt_asp[-1])
        pending_requests(captured.internal)
        return time.perf_counter() - start


def translated(program_text: str, receipts_text: str) -> str:
    """The program as fxlog hands it to clingo, with the receipts as plain ASP facts."""
    kb = KnowledgeBase()
    kb.add_program(parse_program(program_text, "raw.fx"))
    if receipts_text:
        kb.add_receipt_text(receipts_text, "raw.receipts.fx")
    return kb.translation().asp.base + "".join(kb.receipt_asp)


def clingo_time(asp_text: str) -> tuple[float, int]:
    """A fresh clingo control on ASP text: ground, solve, copy the shown atoms out."""
    start = time.perf_counter()
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], asp_text)
    ctl.ground([("base", [])], context=BuiltinContext())
    count = 0
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            count = len(model.symbols(shown=True))
    return time.perf_counter() - start, count


def clingo_step_time(k: int) -> float:
    """A fresh control grounding the same program with k+1 receipts as plain facts."""
    items = "".join(f"item({i}). " for i in range(k + 2))
    text = translated(STEP_PROGRAM.format(items=items, total=k + 2),
                      "".join(receipt_line(i, i + 1) for i in range(k + 1)))
    return clingo_time(text)[0]


def step_overhead(rounds: int, folder: Path) -> None:
    print("\n== step overhead (one host step vs a fresh clingo step) ==")
    results: dict[int, tuple[float, float]] = {}
    for k in (0, 100, 1000):
        ours: list[float] = []
        raw: list[float] = []
        for _ in range(rounds):
            ours.append(fxlog_step_time(k, folder))
            raw.append(clingo_step_time(k))
        results[k] = (median(ours), median(raw))
        ratio = results[k][0] / results[k][1]
        print(f"K={k:5d}  fxlog {results[k][0] * 1000:7.3f} ms  clingo fresh "
              f"{results[k][1] * 1000:7.3f} ms  ratio {ratio:5.2f}  (target <= 5)")
    marginal = (results[1000][0] - results[0][0]) / 1000 * 1e6
    print(f"marginal cost per added receipt: {marginal:.2f} us (target <= 10)")


# ------------------------------------------------------------ large knowledge base
def chain_program(n_facts: int, actions: int) -> str:
    kb = "".join(f"kb({i}, {i * 7 % 1000}).\n" for i in range(n_facts))
    return kb + CHAIN_PROGRAM.format(last=actions - 1)


def episode_step_time(program: Path, incremental: bool, actions: int) -> tuple[float, int]:
    out = program.with_name(f"{program.stem}-{incremental}-{time.monotonic_ns()}.receipts.fx")
    start = time.perf_counter()
    result = run_episode(program, receipts_out=out, registry=registry(),
                         max_actions=actions, incremental=incremental)
    elapsed = time.perf_counter() - start
    assert result.end_reason == "workflow", result.end_reason
    return elapsed / max(result.actions, 1), result.actions


def large_kb(rounds: int, folder: Path, sizes: tuple[int, ...], actions: int) -> None:
    print(f"\n== episode of {actions} actions over a large knowledge base ==")
    per_step: dict[int, float] = {}
    for n in sizes:
        program = folder / f"chain-{n}.fx"
        program.write_text(chain_program(n, actions))
        inc: list[float] = []
        scratch: list[float] = []
        for _ in range(rounds):
            inc.append(episode_step_time(program, True, actions)[0])
            scratch.append(episode_step_time(program, False, actions)[0])
        per_step[n] = median(inc)
        ratio = median(inc) / median(scratch)
        print(f"N={n:7d}  incremental {median(inc) * 1000:8.2f} ms/step  from scratch "
              f"{median(scratch) * 1000:8.2f} ms/step  ratio {ratio:5.2f}  (target <= 0.5)")
    if len(sizes) > 1:
        print(f"per-step time at {sizes[-1]} facts / at {sizes[0]} facts: "
              f"{per_step[sizes[-1]] / per_step[sizes[0]]:.2f}")


# ----------------------------------------------------------------------- replay
def replay_case(n: int, folder: Path) -> tuple[Path, Path]:
    items = "".join(f"item({i}). " for i in range(n))
    program = folder / f"replay-{n}.fx"
    program.write_text(STEP_PROGRAM.format(items=items, total=n) + "?- done(?I).\n")
    receipts = folder / f"replay-{n}.receipts.fx"
    if not receipts.exists():
        with ReceiptLog(receipts) as log:
            log.extend([receipt_line(i, i + 1) for i in range(n)])
    return program, receipts


def fxlog_replay_time(program: Path, receipts: Path) -> tuple[float, int]:
    start = time.perf_counter()
    result = replay(program, [receipts])
    elapsed = time.perf_counter() - start
    return elapsed, len(result.answers[0].bindings)


def clingo_replay_time(program: Path, receipts: Path) -> tuple[float, int]:
    """clingo alone on the same program and receipts, already in ASP (text made untimed)."""
    return clingo_time(translated(program.read_text(), receipts.read_text()))


def replay_bench(rounds: int, folder: Path, sizes: tuple[int, ...]) -> None:
    print("\n== replay (one shot) vs clingo with the receipts as plain facts ==")
    for n in sizes:
        program, receipts = replay_case(n, folder)
        ours: list[float] = []
        raw: list[float] = []
        for _ in range(rounds):
            t, got = fxlog_replay_time(program, receipts)
            r, expected = clingo_replay_time(program, receipts)
            if got != expected:
                raise SystemExit(f"replay derived {got} answers, clingo {expected}")
            ours.append(t)
            raw.append(r)
        ratio = median(ours) / median(raw)
        print(f"receipts={n:6d}  fxlog {median(ours) * 1000:8.1f} ms  clingo "
              f"{median(raw) * 1000:8.1f} ms  ratio {ratio:5.2f}  (target <= 3)")
    live_equals_replay(folder)


def live_equals_replay(folder: Path) -> None:
    program = folder / "live.fx"
    program.write_text(chain_program(1000, 8))
    out = folder / "live.receipts.fx"
    live = run_episode(program, receipts_out=out, registry=registry(), max_actions=8)
    again = replay(program, [out])
    same = [a.as_json() for a in live.answers] == [a.as_json() for a in again.answers]
    print(f"replayed answers equal the live episode's: {same}")
    if not same:
        raise SystemExit("replay differs from the live episode")
    load_receipts(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 rounds")
    parser.add_argument("--rounds", type=int, default=5)
    ns = parser.parse_args(argv)
    rounds = 3 if ns.quick else max(ns.rounds, 5)
    with tempfile.TemporaryDirectory(prefix="fxlog-bench-") as tmp:
        folder = Path(tmp)
        sections: list[Callable[[], None]] = [
            lambda: step_overhead(rounds, folder),
            lambda: large_kb(rounds, folder, (1000, 10_000) if ns.quick else (1000, 100_000),
                             8 if ns.quick else 32),
            lambda: replay_bench(rounds, folder, (100, 1000) if ns.quick else (1000, 10_000)),
        ]
        for section in sections:
            section()
    return 0


if __name__ == "__main__":
    sys.exit(main())
