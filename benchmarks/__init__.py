"""Benchmarks of the fxlog language core against hand-written clingo and networkx.

Run each one from the repository root, e.g. ``python -m benchmarks.tc`` or
``python -m benchmarks.load --quick``; see ``benchmarks/README.md``. Every
sample runs in a fresh child process (:mod:`benchmarks.worker`) so that
caches, the lark grammar and the allocator start cold each time, as they do
for a user running one program.
"""

__all__: list[str] = []
