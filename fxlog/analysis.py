"""Knowledge base (+ tool registry) → list[Diagnostic]: what any episode of a program can do.

Every receipt outcome is treated as open. The program is solved with choice
rules that let each request that can ever be derived complete or not,
succeed or fail, and give each receipt field any value the program could tell
apart (its constants, each integer constant ±1, ``true``/``false`` and a fresh
value); the brave consequences say which requests and ``workflow`` statuses
some episode can reach. Requests with a receipt stay free even when a later
receipt stops deriving them, so the set of requests grows round by round
until it is stable (or too large: then the episode may not stay under the
action limit, and derivability falls back to the predicate dependency graph,
which ignores NOT and comparisons). Both are over-approximations: a request
reported as never derived is never derived, a status reported reachable may
still be unreachable.

>>> from fxlog.reasoner import KnowledgeBase, Request
>>> kb = KnowledgeBase(); _ = kb.add_text('go. external a(1) using t <- go. '
...     'external b(1) using t <- a(1)[tool#status -> "done"].', "demo.fx")
>>> [d.code for d in analyze(kb)]
['W-NEVER-DERIVED']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from clingo.symbol import Symbol

from fxlog.engine.decode import decode_text
from fxlog.engine.solver import NoModelError, Solution, Solver
from fxlog.errors import Diagnostic, Severity, Span
from fxlog.reads import Declarations, body_lits, declaration_edges
from fxlog.reasoner import KnowledgeBase, Request
from fxlog.syntax import ast
from fxlog.syntax.printer import term_text
from fxlog.tools.registry import ToolRegistry
from fxlog.translators.core import RECEIPT_METHODS, Agg, Builtin, Cmp, Lit, Module, Pred
from fxlog.translators.emit import plain_pred
from fxlog.translators.encode import term_asp
from fxlog.translators.flatten import term_vars
from fxlog.translators.plan import Plan

__all__ = ["DEFAULT_MAX_ACTIONS", "Reachability", "analyze", "reachability"]

DEFAULT_MAX_ACTIONS = 32
#: Rounds of "receipts of every request found so far are free" before giving up.
MAX_ROUNDS = 12
#: Above this estimated number of ground rules the dependency graph is used instead.
GROUNDING_BUDGET = 100_000

# Which receipt methods exist in which outcome (LANGUAGE.md §5).
_WHEN = {"result": 'fx_os(R,"succeeded")', "row": 'fx_os(R,"succeeded")',
         "tool#ignored": 'fx_os(R,"succeeded")', "error": 'fx_os(R,"failed")',
         "evidence": "fx_oc(R)", "call": "fx_oc(R)", "tool#duration_ms": "fx_oc(R)",
         "tool#finished": "fx_oc(R)", "tool#started": "fx_cpend(R)", "tool#seq": "fx_cpend(R)"}


@dataclass(frozen=True)
class Reachability:
    """What some episode can reach, whatever the tools return."""

    requests: dict[int, tuple[str, ...]]
    derivable: frozenset[int]
    statuses: frozenset[str]
    method: str  # "open-world" | "dependency-graph"
    conflicts: frozenset[tuple[int, int]] = frozenset()
    certain_conflicts: frozenset[tuple[int, int]] = frozenset()
    #: the rounds did not settle: some request family keeps growing
    unbounded: bool = False

    @property
    def count(self) -> int:
        """How many distinct requests some episode can derive (a bound on its actions)."""
        return sum(len(v) for v in self.requests.values())


def reachability(kb: KnowledgeBase, max_requests: int = 256) -> Reachability:
    """Solve with every receipt outcome open, round by round (see the module docstring)."""
    translation = kb.translation(queries=False)
    module = translation.module
    assert module is not None
    decls = Declarations(module)
    pairs = _conflict_pairs(decls)
    static = _open_rules(module, decls, pairs)
    requests: dict[Symbol, int] = {}
    certain = _initial_conflicts(kb, decls, pairs)
    domain = len(_domain(module))
    for _round in range(MAX_ROUNDS):
        if _cost(module, domain, len(requests)) > GROUNDING_BUDGET:
            return _fallback(decls, requests, certain)
        text = static + _round_facts(requests, decls)
        asp = dataclasses.replace(translation.asp, open=text)
        try:
            solution = Solver(asp).solve(open_world=True)
        except NoModelError:
            return _fallback(decls, requests, certain)
        found = {s.arguments[0]: s.arguments[1].number for s in _brave(solution, "fx_req")}
        if found.keys() <= requests.keys():
            return _result(requests, solution, certain)
        requests.update(found)
        if len(requests) > max_requests:
            break
    fallback = _fallback(decls, requests, certain)
    return dataclasses.replace(fallback, unbounded=True)


def _cost(module: Module, domain: int, requests: int) -> int:
    """A rough count of ground rules: open receipt values joined in one body multiply."""
    total = 0
    for rule in module.rules:
        free = sum(1 for lit in body_lits(rule) if _open_value(lit))
        if free:
            total += domain ** free
    return total * max(requests, 1)


def _open_value(lit: Lit) -> bool:
    p = lit.atom.pred
    return p.kind == "attr" and (p.name, p.args) in RECEIPT_METHODS and \
        p.name not in ("tool#completed", "tool#status") and \
        any(True for _ in term_vars(lit.atom.args[-1]))


def _result(requests: dict[Symbol, int], solution: Solution,
            certain: frozenset[tuple[int, int]]) -> Reachability:
    by_ext: dict[int, list[str]] = {}
    for sym, index in requests.items():
        by_ext.setdefault(index, []).append(decode_text(sym))
    statuses = frozenset(decode_text(s.arguments[0]) for s in _brave(solution, "fx_wf"))
    return Reachability({k: tuple(sorted(v)) for k, v in sorted(by_ext.items())},
                        frozenset(by_ext), statuses, "open-world",
                        _conflicts(solution.brave.shown), certain)


def _brave(solution: Solution, name: str) -> set[Symbol]:
    """Brave atoms of an internal predicate, wherever the solver files them."""
    return {s for s in solution.brave.shown if s.name == name} | \
        set(solution.brave.internal.get(name, []))


def _conflicts(shown: Sequence[Symbol]) -> frozenset[tuple[int, int]]:
    return frozenset((s.arguments[0].number, s.arguments[1].number) for s in shown
                     if s.name == "fx_conf" and len(s.arguments) == 2)


def _initial_conflicts(kb: KnowledgeBase, decls: Declarations,
                       pairs: list[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """Pairs the host would refuse at the first step (no receipts yet): exact."""
    fresh = KnowledgeBase()
    for program in kb.programs:
        fresh.add_program(program)
    try:
        pending = fresh.state().pending
    except NoModelError:
        return frozenset()
    by_ext: dict[int, list[Request]] = {}
    for r in pending:
        by_ext.setdefault(r.external, []).append(r)
    out = set()
    for i, j in pairs:
        for a in by_ext.get(i, []):
            if any(a.order is None or b.order is None or term_text(a.order) == term_text(b.order)
                   for b in by_ext.get(j, [])):
                out.add((i, j))
    return frozenset(out)


# ------------------------------------------------------------------ open rules
def _open_rules(module: Module, decls: Declarations, pairs: list[tuple[int, int]]) -> str:
    plan = Plan.of(module)
    stored = plan.stored
    lines = [
        "% fxlog check: every outcome of every request found so far is open",
        "#defined fx_cpend/1.", "#defined fx_oname/2.",
        "{ fx_oc(R) } :- fx_cpend(R).",
        f"{stored(Pred('attr', 'tool#completed', 0))}(R,true) :- fx_oc(R).",
        '1 { fx_os(R,"succeeded"); fx_os(R,"failed") } 1 :- fx_oc(R).',
        f"{stored(Pred('attr', 'tool#status', 0))}(R,S) :- fx_os(R,S).",
        f"{stored(Pred('attr', 'tool#name', 0))}(R,T) :- fx_oc(R), fx_oname(R,T).",
    ]
    lines.extend(f"fx_odom({c})." for c in sorted(_domain(module)))
    for n, ((name, nargs), keys) in enumerate(sorted(_read_keys(module).items())):
        pred = stored(Pred("attr", name, nargs))
        when = _WHEN.get(name)
        if when is None:
            continue
        if nargs == 0:
            lines.append(f"{{ {pred}(R,V) : fx_odom(V) }} 1 :- {when}.")
            continue
        ks = ",".join(f"K{i}" for i in range(nargs))
        lines.append(f"{{ {pred}(R,{ks},V) : fx_odom(V) }} 1 :- {when}, fx_ok{n}({ks}).")
        for key in sorted(keys, key=str):
            args = [k if k is not None else f"K{i}" for i, k in enumerate(key)]
            body = [f"fx_odom(K{i})" for i, k in enumerate(key) if k is None]
            lines.append(f"fx_ok{n}({','.join(args)})" + (f" :- {', '.join(body)}." if body
                                                            else "."))
    lines.extend(_conflict_rules(plan, pairs))
    return "\n".join(lines) + "\n"


def _round_facts(requests: dict[Symbol, int], decls: Declarations) -> str:
    out = []
    for sym in sorted(requests, key=str):
        tool = decls.externals[requests[sym]].tool
        out.append(f"fx_cpend({sym}). fx_oname({sym},{term_asp(ast.Str(tool))}).")
    return "\n".join(out) + "\n"


def _read_keys(module: Module) -> dict[tuple[str, int], set[tuple[str | None, ...]]]:
    """Receipt methods the rules read, with their (ground or open) method arguments."""
    keys: dict[tuple[str, int], set[tuple[str | None, ...]]] = {}
    for rule in module.rules:
        for lit in body_lits(rule):
            p = lit.atom.pred
            if p.kind != "attr" or p.negated or (p.name, p.args) not in RECEIPT_METHODS:
                continue
            margs = lit.atom.args[1:1 + p.args]
            key = tuple(None if any(True for _ in term_vars(a)) or
                        isinstance(a, (ast.BinOp, ast.UnaryMinus)) else term_asp(a)
                        for a in margs)
            keys.setdefault((p.name, p.args), set()).add(key)
    return keys


def _domain(module: Module) -> set[str]:
    """Values a receipt field may take: what the program could tell apart, plus fresh ones."""
    found = {"fx_other", term_asp(ast.Str("fx other")), "true", "false"}
    for rule in module.rules:
        if rule.head.pred.kind == "req":
            continue
        for term in _rule_terms(rule):
            for const in _constants(term):
                found.add(term_asp(const))
                if isinstance(const, ast.Num) and isinstance(const.value, int):
                    found.update(term_asp(ast.Num(const.value + d)) for d in (-1, 1))
    return found


def _rule_terms(rule: object) -> Iterator[ast.Term]:
    head = getattr(rule, "head", None)
    if head is not None:
        yield from head.args
    for item in getattr(rule, "body", ()):
        if isinstance(item, Lit):
            yield from item.atom.args
        elif isinstance(item, Cmp):
            yield from (item.left, item.right)
        elif isinstance(item, Builtin):
            yield from item.args
        elif isinstance(item, Agg):
            yield from _rule_terms(item)


def _constants(term: ast.Term) -> Iterator[ast.Term]:
    if isinstance(term, (ast.Str, ast.Num, ast.Sym, ast.QName)):
        yield term
    elif isinstance(term, ast.Compound):
        if not any(True for _ in term_vars(term)):
            yield term
        for a in term.args:
            yield from _constants(a)
    elif isinstance(term, ast.BinOp):
        yield from _constants(term.left)
        yield from _constants(term.right)
    elif isinstance(term, ast.UnaryMinus):
        yield from _constants(term.operand)


# --------------------------------------------------------------- order conflicts
def _conflict_pairs(decls: Declarations) -> list[tuple[int, int]]:
    """Pairs of differently named declarations whose orders are not fixed and distinct."""
    out = []
    for a in decls.externals:
        for b in decls.externals[a.index + 1:]:
            if a.name == b.name:
                continue
            if isinstance(a.order, ast.Num) and isinstance(b.order, ast.Num) and \
                    a.order.value != b.order.value:
                continue
            out.append((a.index, b.index))
    return out


def _conflict_rules(plan: Plan, pairs: list[tuple[int, int]]) -> list[str]:
    order = plan.closed(Pred("attr", "tool#order", 0))
    lines = ["#defined fx_dord/4.", f"#defined {order}/2.", "#show fx_conf/2.",
             "#show fx_req/2.", "#show fx_wf/1."]
    for i, j in pairs:
        lines.append(f"fx_conf({i},{j}) :- fx_pend(R1), fx_req(R1,{i}), fx_pend(R2), "
                     f"fx_req(R2,{j}), not fx_dord({i},{j},R1,R2).")
        lines.append(f"fx_dord({i},{j},R1,R2) :- fx_req(R1,{i}), fx_req(R2,{j}), "
                     f"{order}(R1,O1), {order}(R2,O2), O1 != O2.")
    return lines


# ------------------------------------------------------------------- fallback
def _fallback(decls: Declarations, requests: dict[Symbol, int],
              certain: frozenset[tuple[int, int]]) -> Reachability:
    """Derivability on the predicate dependency graph (NOT and comparisons ignored)."""
    plain: set[Pred] = {plain_pred(pf) for _f, facts in decls.module.plain for pf in facts}
    fired: set[int] = set()
    changed = True
    while changed:
        changed = False
        for i, rule in enumerate(decls.rules):
            if i not in fired and all(_available(decls, lit, fired, plain)
                                      for lit in body_lits(rule) if not lit.naf):
                fired.add(i)
                changed = True
    derivable = frozenset(e for e, rules in decls.carriers.items() if fired & set(rules))
    statuses = frozenset(s for s, rules in decls.status_rules().items() if fired & set(rules))
    by_ext: dict[int, list[str]] = {}
    for sym, index in requests.items():
        by_ext.setdefault(index, []).append(decode_text(sym))
    conflicts = frozenset(pair for pair in _conflict_pairs(decls)
                          if set(pair) <= derivable) | certain
    return Reachability({k: tuple(sorted(v)) for k, v in sorted(by_ext.items())}, derivable,
                        statuses, "dependency-graph", conflicts, certain)


def _available(decls: Declarations, lit: Lit, fired: set[int], plain: set[Pred]) -> bool:
    pred = lit.atom.pred
    if pred.kind in ("attr", "bool") and (pred.name, pred.args) in RECEIPT_METHODS:
        return True
    if pred.kind in ("gen", "exists") or any(q in plain for q in decls._related(pred)):
        return True
    return any(i in fired for i in decls.definers(lit))


# ----------------------------------------------------------------- diagnostics
def analyze(kb: KnowledgeBase, registry: ToolRegistry | None = None,
            max_actions: int = DEFAULT_MAX_ACTIONS) -> list[Diagnostic]:
    """Static findings about ``kb``'s program; receipt-schema checks need ``registry``."""
    from fxlog.tool_schema import schema_diagnostics

    translation = kb.translation(queries=False)
    assert translation.module is not None
    decls = Declarations(translation.module)
    reach = reachability(kb, max_requests=max(4 * max_actions, 256))
    out = _never_derived(decls, reach) + _unreachable(decls, reach) + \
        _order_conflicts(decls, reach) + _action_limit(decls, reach, max_actions)
    if registry is not None:
        out += schema_diagnostics(kb, decls, registry)
    return sorted(out, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))


def _ext_span(decls: Declarations, index: int) -> Span:
    return decls.module.externals[index].span


def _never_derived(decls: Declarations, reach: Reachability) -> list[Diagnostic]:
    how = "whatever the tools return" if reach.method == "open-world" else \
        "by any chain of rules (dependency graph)"
    return [Diagnostic("W-NEVER-DERIVED", "warning", f"`{term_text(d.request)}` can never be "
                       f"requested {how}", _ext_span(decls, d.index),
                       "check its body: a condition no fact, rule or receipt outcome satisfies")
            for d in decls.externals if d.index not in reach.derivable]


def _unreachable(decls: Declarations, reach: Reachability) -> list[Diagnostic]:
    out = []
    for status, rules in sorted(decls.status_rules().items()):
        if status.startswith("?") or status in reach.statuses:
            continue
        rule = decls.rules[rules[0]]
        span = getattr(rule.head.args[1], "span", rule.span)
        out.append(Diagnostic("W-STATUS-UNREACHABLE", "warning",
                              f"workflow status {status} is never reached, whatever the tools "
                              "return", span if span.line else rule.span,
                              "check the rule's body against the receipts it reads"))
    return out


def _order_conflicts(decls: Declarations, reach: Reachability) -> list[Diagnostic]:
    out = []
    for i, j in sorted(reach.conflicts | reach.certain_conflicts):
        a, b = decls.externals[i], decls.externals[j]
        certain = (i, j) in reach.certain_conflicts
        code = "E-ORDER-CONFLICT" if certain else "W-ORDER-CONFLICT"
        sev: Severity = "error" if certain else "warning"
        when = "at the first step of every episode" if certain else "after some receipts"
        orders = "neither has a `tool#order`" if a.order is None and b.order is None else \
            "their `tool#order` values are not distinct"
        out.append(Diagnostic(
            code, sev, f"`{term_text(a.request)}` and `{term_text(b.request)}` (declared at "
            f"{_ext_span(decls, j)}) can be pending together {when}, and {orders}; the host "
            "would stop with an error", _ext_span(decls, i),
            "give each external declaration a distinct numeric `tool#order -> N`"))
    return out


def _action_limit(decls: Declarations, reach: Reachability, limit: int) -> list[Diagnostic]:
    ranked = sorted(reach.requests.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    families = ", ".join(f"{term_text(decls.externals[i].request)} ×{len(r)}"
                         for i, r in ranked[:3])
    if reach.unbounded:
        what = f"an unbounded number of requests (still growing after {reach.count}: " \
            f"{families})"
        return [_limit_diag(decls, ranked[0][0], what, limit)]
    if reach.method == "open-world":
        if reach.count <= limit:
            return []
        what = f"up to {reach.count} distinct requests ({families}), counting every value " \
            "a receipt field could take"
        return [_limit_diag(decls, ranked[0][0], what, limit)]
    return [_limit_diag(decls, i, f"requests `{term_text(decls.externals[i].request)}` "
                        "without bound (it reads receipts of its own family and computes "
                        "new arguments)", limit) for i in _growing(decls)]


def _limit_diag(decls: Declarations, index: int, what: str, limit: int) -> Diagnostic:
    return Diagnostic("W-ACTION-LIMIT", "warning", f"an episode can derive {what}, more "
                      f"than the action limit of {limit} allows", _ext_span(decls, index),
                      "bound the family (e.g. compare an attempt counter with a constant) "
                      "or raise --max-actions")


def _growing(decls: Declarations) -> list[int]:
    """Declarations on a cycle of receipt reads whose request arguments are computed."""
    import networkx as nx

    graph: nx.DiGraph[int] = nx.DiGraph()
    graph.add_edges_from(declaration_edges(decls))
    cyclic = {n for c in nx.strongly_connected_components(graph) for n in c
              if len(c) > 1 or graph.has_edge(n, n)}
    out = []
    for index in sorted(cyclic):
        request_vars = {v.name for v in term_vars(decls.externals[index].request)}
        computed = {item.left.name for i in decls.carriers.get(index, [])
                    for item in decls.rules[i].body
                    if isinstance(item, Cmp) and item.op == "=" and isinstance(item.left, ast.Var)
                    and isinstance(item.right, (ast.BinOp, ast.Compound))}
        if request_vars & computed:
            out.append(index)
    return out
