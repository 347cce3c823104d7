"""Transitive closure: pyDatalog (the cross-check engine) against fxlog on clingo.

``python -m benchmarks.datalog`` (``--quick``: N = 100, 3 rounds). Chain and
random graphs (N nodes, 4N edges, fixed seed) at N = 300 and 1000; each sample
is a fresh process (pyDatalog keeps global state), engines interleaved round
by round, medians printed. Both engines must derive the same number of pairs.
Target: pyDatalog / fxlog >= 15, and fxlog under 10 s at N = 1000 random.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261130

FXLOG = """
import sys, time
from fxlog import Client
text = open(sys.argv[1]).read()
start = time.perf_counter()
with Client() as c:
    c.load(text, file="tc.fx")
    n = len(c.query("?- tc(?X, ?Y).").bindings)
print(n, time.perf_counter() - start)
"""

PYDATALOG = """
import sys, time, warnings
warnings.simplefilter("ignore")
from pyDatalog import pyDatalog
edges = [tuple(line.split()) for line in open(sys.argv[1])]
start = time.perf_counter()
pyDatalog.create_terms("e, tc, X, Y, Z")
for a, b in edges:
    + e(a, b)
tc(X, Y) <= e(X, Y)
tc(X, Z) <= tc(X, Y) & e(Y, Z)
answer = pyDatalog.ask("tc(X, Y)")
n = len(answer.answers) if answer else 0
print(n, time.perf_counter() - start)
"""


def edges(graph: str, n: int) -> list[tuple[int, int]]:
    if graph == "chain":
        return [(i, i + 1) for i in range(n)]
    rng = random.Random(SEED + n)
    found: set[tuple[int, int]] = set()
    while len(found) < 4 * n:
        found.add((rng.randrange(n), rng.randrange(n)))
    return sorted(found)


def sample(code: str, path: Path) -> tuple[int, float]:
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=900, check=True)
    count, seconds = done.stdout.split()
    return int(count), float(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=5)
    ns = parser.parse_args(argv)
    sizes, rounds = ((100,), 3) if ns.quick else ((300, 1000), max(ns.rounds, 1))
    with tempfile.TemporaryDirectory(prefix="fxlog-datalog-") as tmp:
        for n in sizes:
            for graph in ("chain", "random"):
                es = edges(graph, n)
                fx = Path(tmp) / f"{graph}-{n}.fx"
                fx.write_text("".join(f"e(n{a}, n{b}).\n" for a, b in es)
                              + "tc(?X, ?Y) :- e(?X, ?Y).\ntc(?X, ?Z) :- tc(?X, ?Y), e(?Y, ?Z).\n")
                raw = Path(tmp) / f"{graph}-{n}.txt"
                raw.write_text("".join(f"n{a} n{b}\n" for a, b in es))
                ours: list[float] = []
                theirs: list[float] = []
                for _ in range(rounds):
                    count_fx, t = sample(FXLOG, fx)
                    ours.append(t)
                    count_pd, t = sample(PYDATALOG, raw)
                    theirs.append(t)
                    if count_fx != count_pd:
                        print(f"engines disagree: fxlog {count_fx}, pyDatalog {count_pd}")
                        return 2
                o, p = statistics.median(ours), statistics.median(theirs)
                print(f"{graph:6s} N={n:5d} pairs={count_fx:8d}  fxlog {o:7.3f} s  pyDatalog "
                      f"{p:8.3f} s  pyDatalog/fxlog {p / o:6.1f}  (target >= 15)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
