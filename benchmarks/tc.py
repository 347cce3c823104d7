"""Graph (chain or random) → transitive-closure timings of fxlog vs clingo vs networkx.

Transitive closure is the smallest program whose cost is all in recursion:
grounding a linear recursive rule over ~N² derived pairs. fxlog runs it in four
spellings (predicates or frames, left- or right-linear), each against the same
rules written by hand as flat ASP and run through the clingo API, and against
``networkx.transitive_closure``. All engines must derive the same number of
pairs, every round.

Run ``python -m benchmarks.tc`` (about 4 minutes) or ``--quick`` (seconds);
``--profile 'fxlog pred left' --graphs random --sizes 1000`` prints a cProfile
report of one fxlog run instead.

>>> chain_edges(4)
[(1, 2), (2, 3), (3, 4)]
>>> print(fxlog_program([(1, 2)], "frame", "right"))
n1[e -> n2].
?X[tc -> ?Y] :- ?X[e -> ?Y].
?X[tc -> ?Z] :- ?X[e -> ?Y], ?Y[tc -> ?Z].
<BLANKLINE>
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from benchmarks.harness import (
    CHILD_TIMEOUT,
    ROOT,
    Case,
    Engine,
    Row,
    Sample,
    add_common_arguments,
    format_ratio,
    machine_note,
    print_table,
    progress,
    ratio,
    rounds_of,
    run_case,
    run_main,
    summarise,
    write_json,
)

__all__ = ["chain_edges", "clingo_program", "fxlog_program", "main", "make_case",
           "random_edges"]

Edge = tuple[int, int]

SIZES = (300, 1000)
QUICK_SIZES = (100,)
GRAPHS = ("chain", "random")
SEED = 20240601
#: Targets: fxlog/clingo time (at N = 1000) and peak memory, fxlog/networkx time.
TARGET_CLINGO, TARGET_MEMORY, TARGET_NETWORKX, TARGET_N = 1.3, 1.3, 0.5, 1000

FORMS = ("pred", "frame")
#: The one spelling, and the graphs, for which the time to decode every binding as text is
#: also reported. Decoding costs the same per binding whatever the spelling or the graph (the
#: answers are the same kind of symbols), and on the random graphs it would add ~25 s of
#: default runtime for no new information; ``--decode-all-everywhere`` adds it anyway.
DECODE_ALL = ("pred", "left")
DECODE_ALL_GRAPHS = ("chain",)
LINEAR = ("left", "right")
QUERIES = {"pred": "?- tc(?X, ?Y).", "frame": "?- ?X[tc -> ?Y]."}
# How each form writes an edge and a tc atom; {a} and {b} are filled in per rule.
_FX_ATOMS = {"pred": ("e({a}, {b})", "tc({a}, {b})"), "frame": ("{a}[e -> {b}]", "{a}[tc -> {b}]")}
_ASP_RULES = {
    "left": "tc(X,Y) :- e(X,Y).\ntc(X,Z) :- tc(X,Y), e(Y,Z).\n",
    "right": "tc(X,Y) :- e(X,Y).\ntc(X,Z) :- e(X,Y), tc(Y,Z).\n",
}


def chain_edges(n: int) -> list[Edge]:
    """``n1 → n2 → … → nN``: a closure of N(N-1)/2 pairs, recursion N-1 deep."""
    return [(i, i + 1) for i in range(1, n)]


def random_edges(n: int, seed: int = SEED) -> list[Edge]:
    """4N distinct edges between distinct random nodes; fixed seed so every run sees one graph."""
    if n < 5:
        raise ValueError("a random graph needs at least 5 nodes to have 4N distinct edges")
    rng = random.Random(seed)
    edges: set[Edge] = set()
    while len(edges) < 4 * n:
        a, b = rng.randint(1, n), rng.randint(1, n)
        if a != b:
            edges.add((a, b))
    return sorted(edges)


def fxlog_program(edges: Sequence[Edge], form: str, linear: str) -> str:
    """The fxlog source: edge facts, then the base and the recursive tc rule."""
    e, tc = _FX_ATOMS[form]
    facts = "".join(e.format(a=f"n{a}", b=f"n{b}") + ".\n" for a, b in edges)
    base = f"{tc.format(a='?X', b='?Y')} :- {e.format(a='?X', b='?Y')}.\n"
    if linear == "left":
        body = f"{tc.format(a='?X', b='?Y')}, {e.format(a='?Y', b='?Z')}"
    else:
        body = f"{e.format(a='?X', b='?Y')}, {tc.format(a='?Y', b='?Z')}"
    return facts + base + f"{tc.format(a='?X', b='?Z')} :- {body}.\n"


def clingo_program(edges: Sequence[Edge], linear: str) -> str:
    """The same rules as a person writes them in ASP, showing only ``tc/2``."""
    facts = "".join(f"e(n{a},n{b}).\n" for a, b in edges)
    return facts + _ASP_RULES[linear] + "#show tc/2.\n"


def make_case(graph: str, n: int, folder: Path, decode_all: bool = False) -> Case:
    """Write every engine's input for one graph into ``folder``; return the case.

    ``decode_all`` adds the decode-all variant to the ``DECODE_ALL`` spelling.
    """
    edges = chain_edges(n) if graph == "chain" else random_edges(n)
    stem = folder / f"{graph}-{n}"
    engines: list[Engine] = []
    for form in FORMS:
        for linear in LINEAR:
            path = stem.with_name(f"{stem.name}-{form}-{linear}.fx")
            path.write_text(fxlog_program(edges, form, linear), encoding="utf-8")
            argv: tuple[str, ...] = ("fxlog", str(path), QUERIES[form])
            if decode_all and (form, linear) == DECODE_ALL:
                argv += ("--decode-all",)
            engines.append(Engine(f"fxlog {form} {linear}", argv))
    for linear in LINEAR:
        path = stem.with_name(f"{stem.name}-{linear}.lp")
        path.write_text(clingo_program(edges, linear), encoding="utf-8")
        engines.append(Engine(f"clingo {linear}", ("clingo", str(path))))
    path = stem.with_name(f"{stem.name}.edges")
    path.write_text("".join(f"n{a} n{b}\n" for a, b in edges), encoding="utf-8")
    engines.append(Engine("networkx", ("networkx", str(path))))
    expected = n * (n - 1) // 2 if graph == "chain" else None
    return Case(f"{graph} N={n}", tuple(engines), expected)


def _ratio_lines(rows: Sequence[Row], n: int) -> list[tuple[str, str, bool | None]]:
    """(fxlog row, ratios text, all targets met) for every fxlog row of one case."""
    out: list[tuple[str, str, bool | None]] = []
    for row in rows:
        if not row.label.startswith("fxlog"):
            continue
        linear = row.label.split()[2]
        base = f"clingo {linear}"
        t, m = ratio(rows, row.label, base), ratio(rows, row.label, base, "peak_kib")
        x = ratio(rows, row.label, "networkx")
        cpu = ratio(rows, row.label, base, "cpu_seconds")
        at_target = n == TARGET_N
        text = (f"time/clingo {format_ratio(t, TARGET_CLINGO if at_target else None)} "
                f"[cpu {cpu:.2f}]; "
                f"peak/clingo {format_ratio(m, TARGET_MEMORY if at_target else None)}; "
                f"time/networkx {format_ratio(x, TARGET_NETWORKX if at_target else None)}")
        met = t <= TARGET_CLINGO and m <= TARGET_MEMORY and x <= TARGET_NETWORKX
        out.append((row.label, text, met if at_target else None))
    return out


def _print_ratios(title: str, rows: Sequence[Row], n: int) -> None:
    print(f"  ratios ({title}; each fxlog form against clingo of the same linearity):")
    width = max(len(r.label) for r in rows)
    for label, text, _ in _ratio_lines(rows, n):
        print(f"    {label:<{width}}  {text}")


def _print_verdicts(cases: Sequence[tuple[str, int, list[Row]]]) -> None:
    lines = [(name, label, met) for name, n, rows in cases
             for label, _, met in _ratio_lines(rows, n) if met is not None]
    if not lines:
        print(f"\nNo case at N = {TARGET_N}: no target verdicts (ratios above are indicative).")
        return
    print(f"\nTargets at N = {TARGET_N} (time/clingo ≤ {TARGET_CLINGO}, peak/clingo ≤ "
          f"{TARGET_MEMORY}, time/networkx ≤ {TARGET_NETWORKX}; rows without [decode-all] "
          "are the ones judged):")
    for name, label, met in lines:
        print(f"  {name:<14} {label:<36} {'PASS' if met else 'FAIL'}")


def _profile(ns: argparse.Namespace, folder: Path) -> None:
    case = make_case(ns.graphs[0], ns.sizes[0], folder, decode_all=True)
    engine = next((e for e in case.engines if e.label == ns.profile), None)
    if engine is None:
        raise SystemExit(f"--profile: no engine {ns.profile!r}; one of "
                         + ", ".join(repr(e.label) for e in case.engines))
    print(f"cProfile of {engine.label} on {case.name}:", flush=True)
    subprocess.run([sys.executable, "-m", "benchmarks.worker", *engine.argv, "--profile", "35"],
                   cwd=ROOT, check=True, timeout=CHILD_TIMEOUT)


def _benchmark(ns: argparse.Namespace, folder: Path) -> None:
    rounds = rounds_of(ns)
    results: dict[str, tuple[list[Sample], list[Row]]] = {}
    judged: list[tuple[str, int, list[Row]]] = []
    print(f"transitive closure: graphs {', '.join(ns.graphs)}; N = "
          f"{', '.join(map(str, ns.sizes))}; {rounds} rounds; one fresh process per sample; "
          f"{machine_note()}")
    for graph in ns.graphs:
        for n in ns.sizes:
            decode_all = ns.decode_all_everywhere or graph in DECODE_ALL_GRAPHS
            case = make_case(graph, n, folder, decode_all)
            samples = run_case(case, rounds, log=progress)
            rows = summarise(case, samples)
            results[case.name] = (samples, rows)
            judged.append((case.name, n, rows))
            print_table(f"{case.name} ({4 * n if graph == 'random' else n - 1} edges)", rows)
            _print_ratios("medians", rows, n)
    _print_verdicts(judged)
    if ns.json is not None:
        write_json(ns.json, results)


def main(argv: list[str] | None = None) -> int:
    """Command line: run the benchmark (or one profile) and print tables and ratios."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tc", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--sizes", type=int, nargs="+", default=None, metavar="N")
    parser.add_argument("--graphs", nargs="+", choices=GRAPHS, default=list(GRAPHS))
    parser.add_argument("--decode-all-everywhere", action="store_true",
                        help="time decoding every binding on the random graphs too "
                             "(by default only on the chains)")
    parser.add_argument("--profile", metavar="ENGINE", default=None,
                        help="cProfile one run of ENGINE (e.g. 'fxlog pred left') on the first "
                             "graph and size instead of benchmarking")
    ns = parser.parse_args(argv)
    ns.sizes = ns.sizes or list(QUICK_SIZES if ns.quick else SIZES)
    with tempfile.TemporaryDirectory(prefix="fxlog-bench-tc-") as tmp:
        if ns.profile is not None:
            return run_main(lambda: _profile(ns, Path(tmp)))
        return run_main(lambda: _benchmark(ns, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
