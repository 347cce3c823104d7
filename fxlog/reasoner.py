"""Knowledge base (program + receipts) → answers and pending requests.

This is the stage the CLI, the :class:`~fxlog.Client` and the episode host
share: translate once, solve under the closed world to learn which requests
are pending, and, when the program says ``world open``, solve again with the
outcomes of those requests left open to get three-valued answers.

>>> kb = KnowledgeBase()
>>> kb.add_text("p(a). ?- p(a).", "demo.fx")
>>> kb.answer().answers[0].truth
'true'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from clingo.symbol import Function, Symbol

from fxlog.engine.answers import Answer, answers_from_solution
from fxlog.engine.decode import decode, decode_text
from fxlog.engine.solver import NoModelError, Solution, Solver, full_model
from fxlog.errors import Diagnostic, ProgramError, Span
from fxlog.syntax import ast
from fxlog.syntax.parser import parse_program
from fxlog.translators.emit import AspProgram
from fxlog.translators.pipeline import Translation, translate_facts, translate_with_warnings

#: Beyond this many pending requests, unknown answers list them all (no per-request solves).
MAX_DEPENDENCY_CHECKS = 16

__all__ = ["KnowledgeBase", "Request", "Result", "pending_requests", "workflow_statuses"]


@dataclass(frozen=True)
class Request:
    """A derived request without a completion receipt: what the host may execute."""

    symbol: Symbol
    text: str
    tool: str
    order: ast.Term | None
    inputs: dict[str, list[ast.Term]]
    external: int

    @property
    def term(self) -> ast.Term:
        return decode(self.symbol)


@dataclass
class Result:
    """Answers to the queries plus the state of the episode after one solve."""

    answers: list[Answer]
    pending: list[Request]
    workflow: list[str]
    warnings: list[Diagnostic] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)


class KnowledgeBase:
    """Programs and receipts loaded so far; translation is cached until something changes."""

    def __init__(self) -> None:
        self.programs: list[ast.Program] = []
        self.receipts: list[ast.Program] = []
        self.receipt_asp: list[str] = []
        self._cache: dict[object, Translation] = {}

    # --------------------------------------------------------------- loading
    def add_text(self, text: str, file: str = "<string>") -> ast.Program:
        program = parse_program(text, file)
        self.add_program(program)
        return program

    def add_program(self, program: ast.Program) -> None:
        self.programs.append(program)
        self._cache.clear()

    def add_receipts(self, program: ast.Program) -> None:
        """Add facts written by the host; the program's translation stays valid."""
        self.receipt_asp.append(translate_facts(program))
        self.receipts.append(program)

    def add_receipt_text(self, text: str, file: str) -> None:
        """Add receipt lines the host has just written (read as facts only)."""
        from fxlog.tools.receipt_log import load_receipts_text

        self.add_receipts(load_receipts_text(text, file).program)

    @property
    def sources(self) -> dict[str, str]:
        return {p.file: p.source for p in (*self.programs, *self.receipts)}

    @property
    def world(self) -> str:
        for p in self.programs:
            for s in p.statements:
                if isinstance(s, ast.World):
                    return s.mode
        return "closed"

    # ----------------------------------------------------------- translating
    def translation(self, goal: ast.Query | None = None, queries: bool = True) -> Translation:
        """The program's translation (cached); receipts are added as separate facts."""
        key = (goal, queries)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if not self.programs:
            programs = [ast.Program((), "<empty>")]
        else:
            programs = list(self.programs)
        if goal is not None or not queries:
            programs = [_without_queries(p) for p in programs]
        if goal is not None:
            programs.append(ast.Program((goal,), goal.span.file))
        translation = translate_with_warnings(programs[0], programs[1:])
        self._cache[key] = translation
        return translation

    # --------------------------------------------------------------- solving
    def answer(self, goal: ast.Query | None = None, world: str | None = None) -> Result:
        """Solve and answer the program's queries (or ``goal``); no tool runs."""
        translation = self.translation(goal)
        asp = translation.asp
        world = world or asp.world
        closed = self._solve(asp, translation, open_world=False)
        pending = _pending(closed)
        solution = closed
        if world == "open" and pending and asp.open:
            solution = self._solve(asp, translation, True, [r.symbol for r in pending])
        answers = answers_from_solution(solution, asp.queries, [r.text for r in pending])
        if world == "open" and pending and any(a.truth == "unknown" for a in answers):
            answers = self._narrow_pending(asp, answers, pending)
        _check_aggregates(solution, asp, self.sources)
        static_cycle = any(w.code == "W-CYCLE" for w in translation.warnings)
        warnings = list(translation.warnings) + \
            ([] if static_cycle else _cycle_warnings(solution, asp)) + \
            _incons_warnings(solution, asp)
        workflow = sorted({decode_text(s.arguments[0])
                           for s in closed.cautious.internal.get("fx_wf", [])})
        requested = [decode_text(s.arguments[0])
                     for s in closed.cautious.internal.get("fx_req", [])]
        return Result(answers, pending, workflow, warnings, requested)

    def state(self) -> Result:
        """Pending requests and workflow status under the closed world (the host's view)."""
        translation = self.translation(queries=False)
        closed = self._solve(translation.asp, translation, open_world=False)
        workflow = sorted({decode_text(s.arguments[0])
                           for s in closed.cautious.internal.get("fx_wf", [])})
        requested = [decode_text(s.arguments[0])
                     for s in closed.cautious.internal.get("fx_req", [])]
        return Result([], _pending(closed), workflow, list(translation.warnings), requested)

    def _narrow_pending(self, asp: AspProgram, answers: list[Answer],
                        pending: list[Request]) -> list[Answer]:
        """Keep, per unknown answer, the pending requests whose outcome it depends on.

        A request counts when fixing it as "not run" changes the answer; with
        more than :data:`MAX_DEPENDENCY_CHECKS` pending requests all are listed.
        """
        if len(pending) > MAX_DEPENDENCY_CHECKS:
            return answers
        model = full_model(asp, "".join(self.receipt_asp), True, [r.symbol for r in pending])
        out = []
        for answer, show in zip(answers, asp.queries, strict=True):
            if answer.truth != "unknown":
                out.append(answer)
                continue
            relevant = tuple(
                r.text for r in pending
                if model.truth_under((show.name, show.arity),
                                     [(Function("fx_oc", [r.symbol]), False)]) != (True, False)
            )
            out.append(dataclasses.replace(answer, pending=relevant or answer.pending))
        return out

    def _solve(self, asp: AspProgram, translation: Translation, open_world: bool,
               pending: Sequence[Symbol] = ()) -> Solution:
        try:
            return Solver(asp, "".join(self.receipt_asp)).solve(open_world, pending)
        except NoModelError:
            raise ProgramError([_no_model(asp, translation)], self.sources) from None


def _without_queries(program: ast.Program) -> ast.Program:
    kept = tuple(s for s in program.statements if not isinstance(s, ast.Query))
    return dataclasses.replace(program, statements=kept)


def _pending(solution: Solution) -> list[Request]:
    return pending_requests(solution.cautious.internal)


def workflow_statuses(internal: dict[str, list[Symbol]]) -> list[str]:
    """The distinct ``workflow[status -> S]`` values, as fxlog text."""
    return sorted({decode_text(s.arguments[0]) for s in internal.get("fx_wf", [])})


def pending_requests(internal: dict[str, list[Symbol]]) -> list[Request]:
    """Pending requests with their tool, order and inputs, sorted by identity text."""
    names: dict[Symbol, str] = {}
    orders: dict[Symbol, ast.Term] = {}
    externals: dict[Symbol, int] = {}
    for sym in internal.get("fx_ri", []):
        req, key, value = sym.arguments
        if key.string == "name":
            names[req] = value.string if value.type.name == "String" else decode_text(value)
        elif key.string == "ext":
            externals.setdefault(req, value.number)
        else:
            orders[req] = decode(value)
    inputs: dict[Symbol, dict[str, list[ast.Term]]] = {}
    for sym in internal.get("fx_in", []):
        req, key, value = sym.arguments
        field_name = key.string if key.type.name == "String" else decode_text(key)
        inputs.setdefault(req, {}).setdefault(field_name, []).append(decode(value))
    for sym in internal.get("fx_req", []):
        req, idx = sym.arguments
        externals.setdefault(req, idx.number)
    out = []
    for sym in internal.get("fx_pend", []):
        req = sym.arguments[0]
        out.append(Request(req, decode_text(req), names.get(req, ""), orders.get(req),
                           inputs.get(req, {}), externals.get(req, -1)))
    out.sort(key=lambda r: r.text)
    return out


def _cycle_warnings(solution: Solution, asp: AspProgram) -> list[Diagnostic]:
    """Cycles derived by rules (facts are checked statically, with their own place)."""
    classes = sorted(decode_text(s.arguments[0])
                     for s in solution.brave.internal.get("fx_cycle", []))
    if not classes:
        return []
    spans = [span for span, text in asp.origins if "::" in text] or \
        [Span("<program>", 0, 0, 1, 1)]
    return [Diagnostic("W-CYCLE", "warning", "rules derive a cycle in the class hierarchy "
                       "through " + ", ".join(classes), spans[0],
                       "`::` is meant to be acyclic; check the rules that derive `::`")]


def _check_aggregates(solution: Solution, asp: AspProgram, sources: dict[str, str]) -> None:
    bad = solution.brave.internal.get("fx_aggbad", [])
    if not bad:
        return
    value = decode_text(bad[0].arguments[1])
    span = asp.origins[0][0] if asp.origins else Span("<program>", 0, 0, 0, 0)
    raise ProgramError([Diagnostic(
        "E-AGG-EXACT", "error", f"sum/avg over {value}: the clingo engine sums only "
        "integers between -2147483648 and 2147483647 exactly", span,
        "aggregate integer values (e.g. scale decimals to integers), or use min/max, "
        "which compare exactly")], sources)


def _incons_warnings(solution: Solution, asp: AspProgram) -> list[Diagnostic]:
    out = []
    for sym in solution.brave.internal.get("fx_incons", []):
        index, args = sym.arguments
        name = asp.incons[index.number] if index.number < len(asp.incons) else "a predicate"
        values = ", ".join(decode_text(a) for a in args.arguments)
        out.append(Diagnostic(
            "W-INCONS", "warning", f"{name}: both ({values}) and its explicit negation "
            "\\neg hold", Span("<program>", 0, 0, 0, 0),
            "explicit negation is not checked against the positive fact; remove one of them"))
    return out


def _no_model(asp: AspProgram, translation: Translation) -> Diagnostic:
    loops = getattr(translation, "loops", ())
    if loops:
        first_span, _ = loops[0]
        listing = "; ".join(f"{span} `{text}`" for span, text in loops[:6])
        return Diagnostic("E-NOMODEL", "error",
                          f"the program has no answer set: these rules form a loop through "
                          f"NOT that no assignment satisfies: {listing}", first_span,
                          "break the loop, e.g. make one of the negated conditions depend "
                          "on facts only")
    span = asp.origins[0][0] if asp.origins else Span("<program>", 0, 0, 0, 0)
    return Diagnostic("E-NOMODEL", "error", "the program has no answer set", span,
                      "look for rules that contradict each other through NOT")
