"""Input file → one JSON line of measurements: the child side of every benchmark.

The harness starts ``python -m benchmarks.worker ENGINE FILE [QUERY]`` once per
sample, so every sample pays the cold costs a user pays (first use of the lark
grammar, empty ``lru_cache``\\ s, a fresh allocator) and no engine inherits
another's heap. The clock starts after the engine's imports (their time is
reported apart as ``import_seconds``) and stops once the answer has been
counted and touched; peak memory is the child's own ``ru_maxrss``.

Engines:

* ``fxlog PROGRAM QUERY [--decode-all]``: ``Client.load`` + ``Client.query``
  (parse, check, lower, ground, solve), then count the bindings and decode the
  first and last as text. With ``--decode-all`` it goes on to decode *every*
  binding as text and reports that cumulative time (and the peak after it) as
  the variant ``decode-all``; the main measurement is taken before, so the
  flag does not change it.
* ``clingo PROGRAM``: hand-written ASP through the clingo Python API: ground,
  solve, count ``model.symbols(shown=True)``.
* ``networkx EDGES``: an edge list (``a b`` per line) → ``DiGraph`` →
  ``transitive_closure`` → number of edges.

>>> import json, subprocess, sys, tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     p = pathlib.Path(d, "t.lp")
...     _ = p.write_text("e(a,b). e(b,c). tc(X,Y) :- e(X,Y). tc(X,Z) :- tc(X,Y), e(Y,Z)."
...                      " #show tc/2.")
...     out = subprocess.run([sys.executable, "-m", "benchmarks.worker", "clingo", str(p)],
...                          capture_output=True, text=True, check=True).stdout
>>> json.loads(out.splitlines()[-1])["count"]
3
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["ENGINES", "main", "peak_kib", "run_clingo", "run_fxlog", "run_networkx"]

Result = dict[str, Any]


def peak_kib() -> int:
    """Peak resident set of this process so far, in KiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


class _Clock:
    """Wall and CPU time since the clock was made: CPU time shows what a loaded machine hides."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.cpu = time.process_time()

    def measure(self, phases: dict[str, float]) -> dict[str, Any]:
        return {"seconds": time.perf_counter() - self.start,
                "cpu_seconds": time.process_time() - self.cpu,
                "peak_kib": peak_kib(), "phases": phases}


def run_fxlog(program: Path, query: str, decode_all: bool = False) -> Result:
    """Time fxlog from program text to a touched answer, optionally to every binding decoded."""
    t = time.perf_counter()
    from fxlog import Client

    import_seconds = time.perf_counter() - t
    clock = _Clock()
    start = clock.start
    with Client() as client:
        client.load(program.read_text(encoding="utf-8"), file=program.name)
        t_load = time.perf_counter()
        answer = client.query(query)
        t_query = time.perf_counter()
        bindings, names = answer.bindings, answer.variables
        count = len(bindings)
        ends = (bindings[0], bindings[-1]) if count else ()
        touched = [b.text(v) for b in ends for v in names]
        t_touch = time.perf_counter()
        phases = {"parse": t_load - start, "query": t_query - t_load, "decode": t_touch - t_query}
        measures = {"": clock.measure(phases)}
        if decode_all:
            decoded = [b.text(v) for b in bindings for v in names]
            measures["decode-all"] = clock.measure(
                {**phases, "decode": time.perf_counter() - t_query})
            if count and (touched[0] != decoded[0] or touched[-1] != decoded[-1]):
                raise SystemExit("fxlog worker: the first or last binding decoded differently")
    return {"count": count, "import_seconds": import_seconds, "measures": measures}


def run_clingo(program: Path) -> Result:
    """Time hand-written ASP through the clingo API: ground, solve, count shown atoms."""
    t = time.perf_counter()
    import clingo

    import_seconds = time.perf_counter() - t
    clock = _Clock()
    # The baseline must drive clingo directly; fxlog's own solver module is what it measures.
    ctl = clingo.Control(["--warn=none"])  # noqa: TID251
    ctl.add("base", [], program.read_text(encoding="utf-8"))
    ctl.ground([("base", [])])
    t_ground = time.perf_counter()
    counts: list[int] = []
    ctl.solve(on_model=lambda model: counts.append(len(model.symbols(shown=True))))
    if len(counts) != 1:
        raise SystemExit(f"clingo worker: expected exactly one model, got {len(counts)}")
    phases = {"ground": t_ground - clock.start, "solve": time.perf_counter() - t_ground}
    return {"count": counts[0], "import_seconds": import_seconds,
            "measures": {"": clock.measure(phases)}}


def run_networkx(edges: Path) -> Result:
    """Time networkx: read an edge list, build a DiGraph, close it transitively, count edges."""
    t = time.perf_counter()
    import networkx as nx

    import_seconds = time.perf_counter() - t
    clock = _Clock()
    with edges.open(encoding="utf-8") as f:
        graph: nx.DiGraph[str] = nx.DiGraph(tuple(line.split()) for line in f if line.strip())
    t_build = time.perf_counter()
    # reflexive=False adds (v, v) only for v on a cycle: exactly the pairs tc/2 derives.
    count = nx.transitive_closure(graph, reflexive=False).number_of_edges()
    phases = {"build": t_build - clock.start, "closure": time.perf_counter() - t_build}
    return {"count": count, "import_seconds": import_seconds,
            "measures": {"": clock.measure(phases)}}


ENGINES: dict[str, Callable[..., Result]] = {
    "fxlog": run_fxlog,
    "clingo": run_clingo,
    "networkx": run_networkx,
}


def _profiled(run: Callable[..., Result], args: list[Any], top: int) -> Result:
    """Run once under cProfile and print the ``top`` functions by own and cumulative time."""
    import cProfile  # only here: a plain sample should not pay for the profiler's imports
    import pstats

    profile = cProfile.Profile()
    result = profile.runcall(run, *args)
    stats = pstats.Stats(profile, stream=sys.stderr)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return result


def main(argv: list[str] | None = None) -> int:
    """Parse the child's command line, run one sample, print its JSON on the last line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.worker")
    parser.add_argument("engine", choices=sorted(ENGINES))
    parser.add_argument("input", type=Path, help="program (.fx / .lp) or edge list")
    parser.add_argument("query", nargs="?", help="fxlog only: the goal to answer")
    parser.add_argument("--decode-all", action="store_true",
                        help="fxlog only: also time decoding every binding as text")
    parser.add_argument("--profile", type=int, metavar="TOP", default=0,
                        help="print a cProfile report of the TOP functions to stderr")
    ns = parser.parse_args(argv)
    if (ns.engine == "fxlog") != (ns.query is not None) or (ns.decode_all and not ns.query):
        parser.error("QUERY (and --decode-all) are for fxlog only, and fxlog needs a QUERY")
    args: list[Any] = [ns.input] + ([ns.query, ns.decode_all] if ns.query is not None else [])
    run = ENGINES[ns.engine]
    result = _profiled(run, args, ns.profile) if ns.profile else run(*args)
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
