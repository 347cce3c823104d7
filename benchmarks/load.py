"""Knowledge base of N facts → load-and-ground timings of fxlog vs clingo on the same facts.

Most fxlog programs are mostly facts, so the cost that matters first is getting
100,000 of them from text into the grounder: fxlog's scanner, AST, lowering
and emitter against clingo parsing the hand-written ASP directly. The mix is
that of a typical knowledge base: predicate facts ``p(n1, n2).``, frames with
numbers ``o17[age -> 42].``, memberships ``o17:Person.``, and a few strings
``o17[name -> "Person 17"].``. A trivial query (``?- p(n1, ?X).``, in ASP
``ans(X) :- p(n1,X).``) forces grounding and gives a count both must agree on.

Run ``python -m benchmarks.load`` (under a minute) or ``--quick``.

>>> fx, lp = knowledge_base(8)
>>> print(fx.splitlines()[0], "|", lp.splitlines()[0])
knows(n10, n82). | knows(n10,n82).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

from benchmarks.harness import (
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

__all__ = ["QUERY", "knowledge_base", "main"]

FACTS = 100_000
QUICK_FACTS = 10_000
SEED = 20240602
TARGET = 3.0
QUERY = "?- p(n1, ?X)."
ASP_QUERY = "ans(X) :- p(n1,X).\n#show ans/1.\n"
#: Share of each kind of fact, out of 20 (predicates, numeric frames, memberships, strings).
MIX = (("pred", 9), ("attr", 5), ("isa", 5), ("string", 1))
CLASSES = ("Person", "Employee", "Customer", "Product", "Vendor")
PREDICATES = ("p", "knows", "works_for")
METHODS = ("age", "weight", "score")


def _fact(kind: str, rng: random.Random, n: int) -> tuple[str, str]:
    """One fact as (fxlog text, hand-written ASP text)."""
    if kind == "pred":
        name = PREDICATES[rng.randrange(len(PREDICATES))]
        # n1 is a hub (1 % of subjects) so the query below has a few hundred answers.
        a = 1 if rng.random() < 0.01 else rng.randint(2, max(n // 50, 20))
        b = rng.randint(1, max(n // 10, 100))
        return f"{name}(n{a}, n{b}).", f"{name}(n{a},n{b})."
    obj = f"o{rng.randint(1, max(n // 4, 20))}"
    if kind == "attr":
        method, value = METHODS[rng.randrange(len(METHODS))], rng.randint(0, 120)
        return f"{obj}[{method} -> {value}].", f"{method}({obj},{value})."
    if kind == "isa":
        cls = CLASSES[rng.randrange(len(CLASSES))]
        return f"{obj}:{cls}.", f"isa({obj},{cls.lower()})."
    text = f'"Person {rng.randint(1, n)}"'
    return f"{obj}[name -> {text}].", f"name({obj},{text})."


def knowledge_base(n: int, seed: int = SEED) -> tuple[str, str]:
    """``n`` distinct facts in the MIX proportions, as fxlog text and as ASP text."""
    rng = random.Random(seed)
    kinds = [kind for kind, share in MIX for _ in range(share)]
    seen: set[str] = set()
    fx: list[str] = []
    lp: list[str] = []
    while len(fx) < n:
        f, a = _fact(kinds[len(fx) % len(kinds)], rng, n)
        if f not in seen:  # distinct, so "n facts" means n atoms for both engines
            seen.add(f)
            fx.append(f)
            lp.append(a)
    return "\n".join(fx) + "\n", "\n".join(lp) + "\n"


def make_case(n: int, folder: Path) -> Case:
    """Write both inputs; ``p(n1, X)`` has about n/600 answers."""
    fx, lp = knowledge_base(n)
    fx_path, lp_path = folder / f"kb-{n}.fx", folder / f"kb-{n}.lp"
    fx_path.write_text(fx, encoding="utf-8")
    lp_path.write_text(lp + ASP_QUERY, encoding="utf-8")
    return Case(f"load {n} facts", (Engine("fxlog", ("fxlog", str(fx_path), QUERY, "--decode-all")),
                                    Engine("clingo", ("clingo", str(lp_path)))))


def _report(rows: list[Row]) -> None:
    t = ratio(rows, "fxlog", "clingo")
    print("  ratios (medians):")
    print(f"    fxlog/clingo time  {format_ratio(t, TARGET)} "
          f"[cpu {ratio(rows, 'fxlog', 'clingo', 'cpu_seconds'):.2f}]")
    print(f"    fxlog/clingo peak  {format_ratio(ratio(rows, 'fxlog', 'clingo', 'peak_kib'))}")
    print(f"    fxlog [decode-all]/clingo time  "
          f"{format_ratio(ratio(rows, 'fxlog [decode-all]', 'clingo'))}")


def _benchmark(ns: argparse.Namespace, folder: Path) -> None:
    rounds = rounds_of(ns)
    print(f"loading facts: {ns.facts} facts; {rounds} rounds; one fresh process per sample; "
          f"{machine_note()}")
    case = make_case(ns.facts, folder)
    samples = run_case(case, rounds, log=progress)
    rows = summarise(case, samples)
    print_table(f"{case.name} (query {QUERY})", rows)
    _report(rows)
    if ns.json is not None:
        results: dict[str, tuple[list[Sample], list[Row]]] = {case.name: (samples, rows)}
        write_json(ns.json, results)


def main(argv: list[str] | None = None) -> int:
    """Command line: run the benchmark and print the table and the ratio."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--facts", type=int, default=None, metavar="N",
                        help=f"number of facts (default {FACTS}, {QUICK_FACTS} with --quick)")
    ns = parser.parse_args(argv)
    ns.facts = ns.facts or (QUICK_FACTS if ns.quick else FACTS)
    with tempfile.TemporaryDirectory(prefix="fxlog-bench-load-") as tmp:
        return run_main(lambda: _benchmark(ns, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
