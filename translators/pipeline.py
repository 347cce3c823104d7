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

from collections.abc import Sequence

from fxlog.errors import Diagnostic, DiagnosticSink, ProgramError, Span
from fxlog.syntax import ast
from fxlog.translators.checks import (
    check_module,
    check_plain_facts,
    check_singletons,
    negative_loops,
)
from fxlog.translators.core import Module
from fxlog.translators.emit import AspProgram, emit, emit_facts
from fxlog.translators.flatten import flatten

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
    loops = [module.origins[r.origin] for r in negative_loops(module) if r.origin >= 0]
    unique_loops = list(dict.fromkeys(loops))
    return Translation(emit(module), [d for d in sink.diagnostics if d.severity != "error"],
                       unique_loops, module)


def translate_facts(program: ast.Program) -> str:
    """ASP text of a facts-only program (receipts), independent of any other program."""
    sink = DiagnosticSink()
    module = flatten(program, sink=sink)
    check_module(module, sink)
    if sink.has_errors:
        raise ProgramError(sink.diagnostics, {program.file: program.source})
    return emit_facts(module)


def translate(program: ast.Program, receipts: Sequence[ast.Program] = ()) -> AspProgram:
    """Lower a program (and its receipts) to ASP; warnings are dropped."""
    return translate_with_warnings(program, receipts).asp
