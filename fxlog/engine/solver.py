"""AspProgram → Solution: the only module that talks to ``clingo.Control``.

It grounds the translated program, finds out whether it has exactly one
answer set (the common case: a stratified program under the closed world),
and otherwise computes brave and cautious consequences, the basis of
three-valued answers. Everything read from a model is copied out inside the
callback, because a clingo ``Model`` is only valid there.

>>> from fxlog.syntax.parser import parse_program
>>> from fxlog.translators.pipeline import translate
>>> sol = Solver(translate(parse_program("p(a). ?- p(?X)."))).solve()
>>> sol.unique, [str(s) for s in sol.cautious.shown]
(True, ['p(a)'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import clingo
from clingo.symbol import Symbol

from fxlog.engine.arith import BuiltinContext
from fxlog.errors import FxlogError
from fxlog.translators.emit import AspProgram

__all__ = ["Captured", "FullModel", "INTERNAL", "NoModelError", "Solution", "Solver",
           "SolverError", "full_model"]

#: Internal predicates the host reads, found via the symbol table rather than ``#show``
#: so that the shown atoms are exactly the query answers (no per-atom sorting in Python).
INTERNAL: tuple[tuple[str, int], ...] = (
    ("fx_req", 2), ("fx_pend", 1), ("fx_ri", 3), ("fx_in", 3), ("fx_wf", 1), ("fx_cycle", 1),
    ("fx_aggbad", 2), ("fx_incons", 2),
)


_INTERNAL_SET = frozenset(INTERNAL)


class SolverError(FxlogError):
    """clingo refused the translated program: a bug in fxlog, reported with clingo's words."""


class NoModelError(FxlogError):
    """The program has no answer set (a contradiction or an odd loop through NOT)."""


@dataclass
class Captured:
    """A model, or a set of consequences, copied out of clingo."""

    shown: list[Symbol]
    internal: dict[str, list[Symbol]] = field(default_factory=dict)


@dataclass
class Solution:
    """What the solver found: cautious ⊆ brave; both the same object when ``unique``."""

    unique: bool
    brave: Captured
    cautious: Captured
    messages: list[str] = field(default_factory=list)


class Solver:
    """Grounds and solves one AspProgram; a new instance per solve keeps them independent."""

    def __init__(self, asp: AspProgram, extra: str = "", threads: int = 1) -> None:
        self.asp = asp
        self.extra = extra
        self.messages: list[str] = []
        self.threads = threads

    def _logger(self, code: clingo.MessageCode, message: str) -> None:
        if code in (clingo.MessageCode.AtomUndefined, clingo.MessageCode.GlobalVariable,
                    clingo.MessageCode.OperationUndefined):
            return
        self.messages.append(message.strip())

    def _control(self) -> clingo.Control:
        return clingo.Control(["--warn=none", f"--parallel-mode={self.threads}"],
                              logger=self._logger, message_limit=20)

    def ground(self, open_world: bool, pending: Iterable[Symbol] = (),
               show_internal: bool = False) -> clingo.Control:
        pending = tuple(pending)
        self._grounded = (open_world, pending)
        ctl = self._control()
        try:
            ctl.add("base", [], self.asp.base + self.extra)
            if show_internal:
                ctl.add("base", [], "".join(f"#show {n}/{a}." for n, a in INTERNAL))
            parts: list[tuple[str, list[Symbol]]] = [("base", [])]
            if open_world and self.asp.open:
                ctl.add("open", [], self.asp.open)
                pend = "".join(f"fx_cpend({s})." for s in pending)
                ctl.add("open", [], pend)
                parts.append(("open", []))
            ctl.ground(parts, context=BuiltinContext())
        except RuntimeError as exc:
            detail = "; ".join(self.messages) or str(exc)
            raise SolverError(f"clingo rejected the translated program: {detail}") from exc
        return ctl

    def solve(self, open_world: bool = False, pending: Sequence[Symbol] = ()) -> Solution:
        ctl = self.ground(open_world, pending)
        return self.solve_ground(ctl, unique=self.asp.deterministic and not open_world)

    def solve_ground(self, ctl: clingo.Control, unique: bool = False) -> Solution:
        """Solve; ``unique`` promises one answer set, so no second one is searched for."""
        internal = _internal_atoms(ctl)
        ctl.configuration.solve.models = "1" if unique else "2"  # type: ignore[union-attr]
        found = self._run(ctl, internal)
        if not found:
            raise NoModelError("the program has no answer set")
        if len(found) == 1:
            return Solution(True, found[0], found[0], self.messages)
        # Consequences are computed over shown atoms only, and clingo fixes what
        # is shown once it has solved: ground again with the internal atoms shown.
        ctl = self.ground(*self._grounded, show_internal=True)
        ctl.configuration.solve.models = "0"  # type: ignore[union-attr]
        ctl.configuration.solve.enum_mode = "brave"  # type: ignore[union-attr]
        brave = self._consequences(ctl)
        ctl.configuration.solve.enum_mode = "cautious"  # type: ignore[union-attr]
        cautious = self._consequences(ctl)
        return Solution(False, brave, cautious, self.messages)

    def _run(self, ctl: clingo.Control,
             internal: list[tuple[str, Symbol, int]]) -> list[Captured]:
        found: list[Captured] = []
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                captured = Captured(model.symbols(shown=True), {})
                for name, sym, lit in internal:
                    if model.is_true(lit):
                        captured.internal.setdefault(name, []).append(sym)
                found.append(captured)
        return found

    def _consequences(self, ctl: clingo.Control) -> Captured:
        last: list[Symbol] = []
        with ctl.solve(yield_=True) as handle:
            for model in handle:
                last = model.symbols(shown=True)
        captured = Captured([], {})
        for sym in last:
            if (sym.name, len(sym.arguments)) in _INTERNAL_SET:
                captured.internal.setdefault(sym.name, []).append(sym)
            else:
                captured.shown.append(sym)
        return captured


class FullModel:
    """One answer set kept whole, for explanations: atoms looked up by signature.

    Built only on request (``fxlog explain``); ordinary queries never copy the
    full model out of clingo.
    """

    def __init__(self, ctl: clingo.Control, atoms: set[Symbol], unique: bool) -> None:
        self._ctl = ctl
        self.atoms = atoms
        self.unique = unique
        self._by_sig: dict[tuple[str, int], list[Symbol]] = {}

    def holds(self, atom: Symbol) -> bool:
        return atom in self.atoms

    def signature(self, name: str, arity: int) -> list[Symbol]:
        """True atoms of one predicate, in clingo's order (cached)."""
        found = self._by_sig.get((name, arity))
        if found is None:
            found = [sa.symbol for sa in self._ctl.symbolic_atoms.by_signature(name, arity)
                     if sa.symbol in self.atoms]
            self._by_sig[(name, arity)] = found
        return found

    def truth_under(self, query: tuple[str, int],
                    assumptions: list[tuple[Symbol, bool]]) -> tuple[bool, bool]:
        """(brave, cautious) of any atom of ``query`` under assumptions (open world)."""
        lits = []
        for sym, value in assumptions:
            sa = self._ctl.symbolic_atoms[sym]
            if sa is None:
                if value:
                    return False, False  # the assumed atom cannot hold at all
                continue
            lits.append(sa.literal if value else -sa.literal)
        results: list[bool] = []
        for mode in ("brave", "cautious"):
            self._ctl.configuration.solve.enum_mode = mode  # type: ignore[union-attr]
            self._ctl.configuration.solve.models = "0"  # type: ignore[union-attr]
            last: list[Symbol] | None = None
            with self._ctl.solve(yield_=True, assumptions=lits) as handle:
                for model in handle:
                    last = model.symbols(shown=True)
            if last is None:
                return False, False
            results.append(any(s.name == query[0] and len(s.arguments) == query[1]
                               for s in last))
        return results[0], results[1]


def full_model(asp: AspProgram, extra: str = "", open_world: bool = False,
               pending: Sequence[Symbol] = ()) -> FullModel:
    """Ground and solve, keeping the whole first answer set (and the control)."""
    solver = Solver(asp, extra)
    ctl = solver.ground(open_world, pending)
    ctl.configuration.solve.models = "2"  # type: ignore[union-attr]
    models: list[set[Symbol]] = []
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            models.append(set(model.symbols(atoms=True)))
    if not models:
        raise NoModelError("the program has no answer set")
    return FullModel(ctl, models[0], len(models) == 1)


def _internal_atoms(ctl: clingo.Control) -> list[tuple[str, Symbol, int]]:
    atoms: list[tuple[str, Symbol, int]] = []
    for name, arity in INTERNAL:
        for sa in ctl.symbolic_atoms.by_signature(name, arity):
            atoms.append((name, sa.symbol, sa.literal))
    return atoms
