"""Program (+ receipts) → AspProgram: the ordered passes of the translator.

Each pass is a pure function from one representation to the next; the checks
run on the core IR, where every construct has been reduced to rules whose
safety and recursion can be judged uniformly.

>>> from fxlog.syntax.parser import parse_program
>>> asp = translate(parse_program("p(a). q(?X) :- p(?X). ?- q(?X)."))
>>> asp.queries[0].variables
('X',)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from fxlog.errors import Diagnostic, DiagnosticSink, ProgramError, Span
from fxlog.syntax import ast
from fxlog.translators.checks import (
    check_module,
    check_plain_facts,
    check_singletons,
    negative_loops,
)
from fxlog.translators.core import Module, Pred
from fxlog.translators.emit import AspProgram, emit, emit_facts
from fxlog.translators.encode import pred_asp, term_asp
from fxlog.translators.flatten import flatten, method_key

__all__ = ["Translation", "translate", "translate_facts", "translate_with_warnings"]


class Translation:
    """An AspProgram together with the warnings found on the way.

    ``loops`` lists the rules on a cycle through NOT (location and text): when
    the program turns out to have no answer set, they are what the user must see.
    """

    def __init__(self, asp: AspProgram, warnings: Sequence[Diagnostic],
                 loops: Sequence[tuple[Span, str]] = (), module: Module | None = None) -> None:
        self.asp = asp
        self.warnings = tuple(warnings)
        self.loops = tuple(loops)
        self.module = module


def translate_with_warnings(program: ast.Program,
                            receipts: Sequence[ast.Program] = ()) -> Translation:
    """Lower, check and emit; raise :class:`ProgramError` on any error."""
    sink = DiagnosticSink()
    module = flatten(program, *receipts, sink=sink)
    check_module(module, sink)
    check_plain_facts(module, sink, {p.file: p.source for p in (program, *receipts)})
    check_singletons(program, sink)
    sources = {p.file: p.source for p in (program, *receipts)}
    if sink.has_errors:
        raise ProgramError(sink.diagnostics, sources)
    loops = [(o.span, o.text) for o in (module.origins[r.origin] for r in
                                         negative_loops(module) if r.origin >= 0)]
    unique_loops = list(dict.fromkeys(loops))
    asp = emit(module)
    if loops:
        asp = dataclasses.replace(asp, deterministic=False)
    return Translation(asp, [d for d in sink.diagnostics if d.severity != "error"],
                       unique_loops, module)


def translate_facts(program: ast.Program) -> str:
    """ASP text of a facts-only program (receipts), independent of any other program.

    Receipt lines are ground frame facts of one shape; they are written straight
    to ASP, and only other statements go through the general passes.
    """
    lines: list[str] = []
    rest: list[ast.Statement] = []
    cache: dict[int, str | None] = {}  # by object identity: the reader shares sub-terms
    for stmt in program.statements:
        fast = frame_fact_asp(stmt, cache) if isinstance(stmt, ast.Rule) else None
        if fast is None:
            rest.append(stmt)
        else:
            lines.extend(fast)
    if rest:
        sink = DiagnosticSink()
        module = flatten(dataclasses.replace(program, statements=tuple(rest)), sink=sink)
        check_module(module, sink)
        if sink.has_errors:
            raise ProgramError(sink.diagnostics, {program.file: program.source})
        lines.append(emit_facts(module))
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


_PLAIN_TERMS = (ast.Sym, ast.Str, ast.Num, ast.QName, ast.Compound)


def _ground(term: object) -> bool:
    if isinstance(term, ast.Compound):
        return all(_ground(a) for a in term.args)
    return isinstance(term, (ast.Sym, ast.Str, ast.Num, ast.QName))


def _cached_term(term: ast.Term, cache: dict[int, str | None]) -> str | None:
    """ASP text of a ground plain term (None otherwise), memoised by identity."""
    key = id(term)
    if key in cache:
        return cache[key]
    text = term_asp(term) if isinstance(term, _PLAIN_TERMS) and _ground(term) else None
    cache[key] = text
    return text


def _method_prefix(method: ast.Term, cache: dict[int, str | None]) -> str | None:
    """``pred(`` plus the method's arguments, e.g. ``fx_a_result("status",``."""
    key = -id(method) - 1
    if key in cache:
        return cache[key]
    found = method_key(method)
    prefix = None
    if found is not None and all(_ground(a) for a in found[1]):
        name = pred_asp(Pred("attr", found[0], len(found[1])))
        prefix = name + "(\0," + "".join(term_asp(a) + "," for a in found[1])
    cache[key] = prefix
    return prefix


def frame_fact_asp(rule: ast.Rule, cache: dict[int, str | None] | None = None
                   ) -> list[str] | None:
    """``o[m -> v; ...].`` with ground terms, as ASP facts; None for any other shape."""
    if rule.body is not None or len(rule.head) != 1 or rule.head[0].negated:
        return None
    cache = {} if cache is None else cache
    mol = rule.head[0].atom
    if mol.rel is not None or len(mol.frames) != 1 or mol.frames[0].class_level:
        return None
    subject = _cached_term(mol.subject, cache)
    if subject is None:
        return None
    out = []
    for spec in mol.frames[0].specs:
        if spec.arrow != "->" or spec.modifier or len(spec.values) != 1:
            return None
        prefix = _method_prefix(spec.method, cache)
        value = _cached_term(spec.values[0], cache)
        if prefix is None or value is None:
            return None
        out.append(prefix.replace("\0", subject, 1) + value + ").")
    return out


def translate(program: ast.Program, receipts: Sequence[ast.Program] = ()) -> AspProgram:
    """Lower a program (and its receipts) to ASP; warnings are dropped."""
    return translate_with_warnings(program, receipts).asp
