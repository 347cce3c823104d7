"""Explain against the plain query on a knowledge base of 100,000 facts.

``python -m benchmarks.explain`` (``--quick``: 10,000 facts, 3 rounds). Each
round loads the program into a fresh client and times, side by side, the
plain query and ``Client.explain`` of the same goal (load included in both),
for a goal that is true (a proof: `s190` reads 93) and one that is false (a
why-not tree).
Medians of at least five interleaved rounds. Target: explain / query < 2.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from fxlog import Client

__all__ = ["main"]


def program(n: int) -> str:
    facts = "".join(f"reading(s{i}, {i % 97}).\n" for i in range(n))
    facts += "".join(f"sensor(s{i}).\n" for i in range(0, n, 10))
    rules = """
hot(?S) :- sensor(?S), reading(?S, ?V), ?V > 90.
alarm(?S) :- hot(?S), NOT muted(?S).
muted(s20).
"""
    return facts + rules


def timed(text: str, goal: str, explain: bool) -> tuple[float, str]:
    start = time.perf_counter()
    with Client() as client:
        client.load(text, file="kb.fx")
        truth = client.explain(goal).truth if explain else client.query(goal).truth
    return time.perf_counter() - start, truth


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    ns = parser.parse_args(argv)
    n, rounds = (10_000, 3) if ns.quick else (100_000, 5)
    text = program(n)
    print(f"== explain vs plain query, {n} facts, {rounds} rounds ==")
    for goal in ("?- alarm(s190).", "?- alarm(s10)."):
        query_times: list[float] = []
        explain_times: list[float] = []
        for _ in range(rounds):
            t, truth_q = timed(text, goal, explain=False)
            query_times.append(t)
            t, truth_e = timed(text, goal, explain=True)
            explain_times.append(t)
            if truth_q != truth_e:
                raise SystemExit(f"{goal}: query says {truth_q}, explain says {truth_e}")
        q, e = statistics.median(query_times), statistics.median(explain_times)
        print(f"{goal:18s} ({truth_q:5s})  query {q * 1000:8.1f} ms  explain "
              f"{e * 1000:8.1f} ms  ratio {e / q:5.2f}  (target < 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
