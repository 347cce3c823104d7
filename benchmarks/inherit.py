"""Non-monotonic inheritance at scale against the same closure written by hand in ASP.

``python -m benchmarks.inherit`` (``--quick``: 10 classes x 5 attributes x 1,000
objects). 50 classes in a hierarchy (each class a subclass of the one before,
every fifth class overriding), 20 inherited attributes per class, 10,000
objects spread over the classes. fxlog answers ``?- ?O[?M -> ?V].``-style
queries per attribute; the hand-written ASP computes the same inherited values
(most specific class wins) with plain clingo. Both count the derived
object-attribute values, which must agree. Medians of at least five
interleaved rounds. Target: fxlog / hand-written ASP <= 3.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import clingo

from fxlog import Client

__all__ = ["main"]


def fxlog_program(classes: int, attrs: int, objects: int) -> str:
    lines = [f"c{k + 1}::c{k}." for k in range(classes - 1)]
    for k in range(classes):
        if k % 5 == 0:
            lines += [f"c{k}[|a{j} -> v{k}_{j}|]." for j in range(attrs)]
    lines += [f"o{i}:c{i % classes}." for i in range(objects)]
    return "\n".join(lines) + "\n"


def asp_program(classes: int, attrs: int, objects: int) -> str:
    """The same facts and an inheritance closure written directly in ASP."""
    lines = [f"sub(c{k + 1},c{k})." for k in range(classes - 1)]
    for k in range(classes):
        if k % 5 == 0:
            lines += [f"def(c{k},a{j},v{k}_{j})." for j in range(attrs)]
    lines += [f"isa(o{i},c{i % classes})." for i in range(objects)]
    lines += [
        "subt(C,D) :- sub(C,D). subt(C,E) :- subt(C,D), sub(D,E).",
        "member(O,C) :- isa(O,C). member(O,D) :- isa(O,C), subt(C,D).",
        "defines(C,M) :- def(C,M,_).",
        "overridden(C,M,O) :- member(O,X), subt(X,C), defines(X,M), defines(C,M).",
        "val(O,M,V) :- member(O,C), def(C,M,V), not overridden(C,M,O).",
        "#show val/3.",
    ]
    return "\n".join(lines) + "\n"


def run_fxlog(text: str, attrs: int) -> tuple[float, int]:
    start = time.perf_counter()
    with Client() as client:
        client.load(text, file="inherit.fx")
        count = sum(len(client.query(f"?- ?O[a{j} -> ?V].").bindings) for j in range(attrs))
    return time.perf_counter() - start, count


def run_fxlog_one_query(text: str) -> tuple[float, int]:
    start = time.perf_counter()
    with Client() as client:
        client.load(text + "?- ?O[?M -> ?V].\n", file="inherit.fx")
        count = len(client.answers()[0].bindings)
    return time.perf_counter() - start, count


def run_asp(text: str) -> tuple[float, int]:
    start = time.perf_counter()
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    count = 0
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            count = len(model.symbols(shown=True))
    return time.perf_counter() - start, count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    ns = parser.parse_args(argv)
    classes, attrs, objects, rounds = (10, 5, 1000, 3) if ns.quick else (50, 20, 10_000, 5)
    fx, asp = fxlog_program(classes, attrs, objects), asp_program(classes, attrs, objects)
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(rounds):
        t, ours_count = run_fxlog_one_query(fx)
        ours.append(t)
        t, asp_count = run_asp(asp)
        theirs.append(t)
        if ours_count != asp_count:
            raise SystemExit(f"fxlog derived {ours_count} values, hand-written ASP {asp_count}")
    o, h = statistics.median(ours), statistics.median(theirs)
    print(f"== inheritance: {classes} classes x {attrs} attributes x {objects} objects ==")
    print(f"inherited values: {ours_count}")
    print(f"fxlog {o * 1000:8.1f} ms  hand-written ASP {h * 1000:8.1f} ms  ratio {o / h:5.2f} "
          "(target <= 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
