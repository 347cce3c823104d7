"""Knowledge base + goal → Explanation: why an answer (or a request) holds, or why not.

* true: a proof tree, rule by rule, down to facts and receipts;
* false: for each rule that could derive the goal, the first body literal that fails;
* unknown: the pending requests it depends on, and the answer each outcome would give;
* a request: why it was derived and where it ran among the others.

>>> from fxlog.reasoner import KnowledgeBase, Request
>>> kb = KnowledgeBase(); kb.add_text("p(a). q(?X) :- p(?X).", "demo.fx")
>>> e = explain(kb, "?- q(a).")
>>> e.truth, e.proof.rule
('true', 'q(?X) :- p(?X).')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from clingo.symbol import Function, String, Symbol

from fxlog.engine.decode import decode_text
from fxlog.engine.solver import FullModel, full_model
from fxlog.explain.patterns import match, pattern
from fxlog.explain.prover import FactIndex, Node, Prover, pattern_of_head
from fxlog.explain.render_atoms import AtomNamer
from fxlog.reasoner import KnowledgeBase, Request
from fxlog.syntax import ast
from fxlog.syntax.parser import parse_query_text
from fxlog.translators.core import BodyItem, Lit, Pred
from fxlog.translators.flatten import flatten

__all__ = ["Explanation", "Node", "explain"]


@dataclass
class Explanation:
    """The answer to "why?" for one goal."""

    goal: str
    truth: str
    proof: Node | None = None
    why_not: list[Node] = field(default_factory=list)
    pending: list[dict[str, object]] = field(default_factory=list)
    request: dict[str, object] | None = None

    def as_json(self) -> dict[str, object]:
        """The documented JSON shape of ``fxlog explain --format json`` (docs/explain.md)."""
        return {
            "goal": self.goal,
            "truth": self.truth,
            "proof": self.proof.as_json() if self.proof else None,
            "why_not": [n.as_json() for n in self.why_not],
            "pending": self.pending,
            "request": self.request,
        }


class _Session:
    def __init__(self, kb: KnowledgeBase, goal: ast.Query, why_not_depth: int) -> None:
        self.kb = kb
        self.translation = kb.translation(goal)
        self.module = self.translation.module
        assert self.module is not None
        self.asp = self.translation.asp
        self.model = full_model(self.asp, "".join(kb.receipt_asp))
        self.namer = AtomNamer(self.module, self.model)
        receipts = [flatten(p) for p in kb.receipts]
        self.prover = Prover(self.module, self.model, self.namer,
                             FactIndex(self.module, receipts, kb.sources))
        self.why_not_depth = why_not_depth

    # -------------------------------------------------------------- why not
    def why_not(self, name: str, arity: int, args: tuple[Symbol | None, ...] | None,
                depth: int) -> Node:
        text = self._pattern_text(name, arity, args)
        node = Node("fails", text)
        rules = self.prover.rules.get((name, arity), [])
        if not rules:
            node.detail["reason"] = "no rule or fact can derive it"
            return node
        for rule in rules:
            binding: dict[str, Symbol] | None = {}
            if args is not None:
                head = pattern_of_head(rule)
                probe = Function("", [a if a is not None else Function("fx_any")
                                      for a in args])
                binding = _match_partial(head, probe, args)
            if binding is None:
                continue
            node.children.append(self._rule_failure(rule, binding, depth))
        if not node.children:
            node.detail["reason"] = "no rule has a matching head"
        return node

    def _rule_failure(self, rule: object, binding: dict[str, Symbol], depth: int) -> Node:
        from fxlog.translators.core import CoreRule

        assert isinstance(rule, CoreRule)
        source, text = self.prover.origin(rule)
        reached, best, failing = _deepest(self.prover, rule.body, binding)
        head = self.namer.item_text(Lit(rule.head), best)
        node = Node("rule", head, source, text or "(generated rule)")
        for item in rule.body[:reached]:
            if isinstance(item, Lit) and item.atom.pred.kind == "aux":
                continue  # lowering detail: its own literals are shown instead
            node.children.append(Node("holds", self.namer.item_text(item, best)))
        if failing is None:
            return node
        if isinstance(failing, Lit) and not failing.naf and failing.atom.pred.kind == "aux":
            pred = failing.atom.pred
            args = tuple(_ground_or_none(a, best) for a in failing.atom.args)
            inner = self.why_not(self.prover.plan.stored(pred), pred.arity, args, depth)
            for child in inner.children:
                node.children.extend(child.children)  # the carrier's body, in place
            return node
        fail = Node("fails", self.namer.item_text(failing, best))
        node.children.append(fail)
        if isinstance(failing, Lit) and depth > 0:
            sym = self.prover.ground_lit(failing, best)
            pred = failing.atom.pred
            if failing.naf and sym is not None:
                proof = self.prover.prove(sym)
                if proof is not None:
                    fail.detail["reason"] = "it holds"
                    fail.children.append(proof)
            elif not failing.naf:
                args = tuple(_ground_or_none(a, best) for a in failing.atom.args)
                name = self.prover.plan.stored(pred) if not _closure(pred) else \
                    self.prover.plan.closed(pred)
                inner = self.why_not(name, pred.arity, args, depth - 1)
                fail.children.extend(inner.children)
                fail.detail.update(inner.detail)
        return node

    def _pattern_text(self, name: str, arity: int, args: tuple[Symbol | None, ...] | None
                      ) -> str:
        pred = self.namer.by_name.get((name, arity))
        texts = [decode_text(a) if a is not None else "?" for a in (args or ())]
        if pred is None:
            return name
        if args is None:
            texts = ["?"] * arity
        return self.namer.atom_text(pred, texts)


def _closure(pred: Pred) -> bool:
    return pred.kind in ("isa", "sub")


def _ground_or_none(term: ast.Term, binding: dict[str, Symbol]) -> Symbol | None:
    from fxlog.explain.patterns import ground

    return ground(pattern(term), binding)


def _match_partial(head: object, probe: Symbol, args: tuple[Symbol | None, ...]
                   ) -> dict[str, Symbol] | None:
    from fxlog.explain.patterns import PFun

    assert isinstance(head, PFun)
    binding: dict[str, Symbol] | None = {}
    for sub, value in zip(head.args, args, strict=True):
        if value is None:
            continue
        binding = match(sub, value, binding)  # type: ignore[arg-type]
        if binding is None:
            return None
    _ = probe
    return binding


def _deepest(prover: Prover, body: tuple[BodyItem, ...], binding: dict[str, Symbol]
             ) -> tuple[int, dict[str, Symbol], BodyItem | None]:
    """How far the body gets: literals satisfied, their binding, the first failing one."""
    best = (0, binding)
    budget = [2000]

    def walk(index: int, current: dict[str, Symbol]) -> bool:
        nonlocal best
        budget[0] -= 1
        if index > best[0]:
            best = (index, current)
        if index == len(body):
            return True
        if budget[0] <= 0:
            return False
        return any(walk(index + 1, nxt) for nxt in prover.satisfy(body[index], current))

    if walk(0, binding):
        return len(body), best[1], None
    return best[0], best[1], body[best[0]]


def _answer_atoms(session: _Session, index: int) -> list[Symbol]:
    show = session.asp.queries[index]
    return session.model.signature(show.name, show.arity)


def _outcomes(kb: KnowledgeBase, session: _Session,
              pending: Sequence[Request]) -> list[dict[str, object]]:
    show = session.asp.queries[0]
    requests = [r.symbol for r in pending]
    model: FullModel = full_model(session.asp, "".join(kb.receipt_asp), True, requests)
    out = []
    for r in pending:
        sym = r.symbol
        row: dict[str, object] = {"request": r.text, "tool": r.tool}
        scenarios = {
            "if_not_run": [(Function("fx_oc", [sym]), False)],
            "if_succeeded": [(Function("fx_oc", [sym]), True),
                             (Function("fx_os", [sym, String("succeeded")]), True)],
            "if_failed": [(Function("fx_oc", [sym]), True),
                          (Function("fx_os", [sym, String("failed")]), True)],
        }
        for key, assumptions in scenarios.items():
            brave, cautious = model.truth_under((show.name, show.arity), assumptions)
            row[key] = "true" if cautious else ("unknown" if brave else "false")
        out.append(row)
    return out


def _request_mode(session: _Session, goal: ast.Query) -> Symbol | None:
    body = goal.body
    if not isinstance(body, ast.Molecule) or body.rel or body.frames:
        return None
    term = body.subject
    assert session.module is not None
    for ext in session.module.externals:
        req = ext.request
        if isinstance(term, ast.Compound) and isinstance(req, ast.Compound) and \
                term.functor == req.functor and len(term.args) == len(req.args):
            from fxlog.explain.patterns import ground

            return ground(pattern(term), {})
    return None


def _explain_request(session: _Session, request: Symbol, text: str) -> Explanation:
    prover = session.prover
    derived = [s for s in session.model.signature("fx_req", 2) if s.arguments[0] == request]
    exp = Explanation(text, "true" if derived else "false")
    if derived:
        exp.proof = prover.prove(derived[0])
    else:
        exp.why_not = [session.why_not("fx_req", 2, (request, None), session.why_not_depth)]
    exp.request = _position(session, request)
    return exp


def _position(session: _Session, request: Symbol) -> dict[str, object]:
    """Where the request ran: its order and sequence number among all requests."""
    plan = session.prover.plan
    seq = {s.arguments[0]: s.arguments[1] for s in session.model.signature(
        plan.closed(Pred("attr", "tool#seq", 0)), 2)}
    order = {s.arguments[0]: s.arguments[1] for s in session.model.signature(
        plan.closed(Pred("attr", "tool#order", 0)), 2)}
    runs = sorted((v.number, k) for k, v in seq.items() if v.type.name == "Number")
    info: dict[str, object] = {
        "request": decode_text(request),
        "order": decode_text(order[request]) if request in order else None,
        "seq": seq[request].number if request in seq else None,
        "ran": [{"seq": n, "request": decode_text(k),
                 "order": decode_text(order[k]) if k in order else None} for n, k in runs],
    }
    pending = [decode_text(s.arguments[0]) for s in session.model.signature("fx_pend", 1)]
    info["still_pending"] = pending
    return info


def _lift(node: Node | None) -> Node | None:
    """The query's own rule adds nothing when its body is one literal: show that literal."""
    if node is not None and node.source and node.source.startswith("<goal>") and \
            len(node.children) == 1:
        return node.children[0]
    return node


def _lift_failure(node: Node) -> list[Node]:
    if len(node.children) == 1 and node.children[0].source and \
            node.children[0].source.startswith("<goal>"):
        query_rule = node.children[0]
        if len(query_rule.children) == 1 and query_rule.children[0].kind == "fails":
            return [query_rule.children[0]]
        return [query_rule]
    return [node]


def explain(kb: KnowledgeBase, goal_text: str, why_not_depth: int = 3) -> Explanation:
    """Explain one goal (``?- ...``) or one request term against the knowledge base."""
    goal = parse_query_text(goal_text)
    session = _Session(kb, goal, why_not_depth)
    request = _request_mode(session, goal)
    if request is not None:
        return _explain_request(session, request, goal_text.strip())
    if session.model.unique and session.asp.world == "closed":
        # One answer set, closed world: the model already decides the goal, so the
        # query is not solved a second time.
        show = session.asp.queries[0]
        truth = "true" if _answer_atoms(session, 0) else "false"
        exp = Explanation(show.text, truth)
        answer = None
    else:
        result = kb.answer(goal)
        answer = result.answers[0]
        exp = Explanation(answer.query, answer.truth)
    if exp.truth == "true":
        atoms = _answer_atoms(session, 0)
        if atoms:
            exp.proof = _lift(session.prover.prove(atoms[0]))
    elif exp.truth == "false":
        show = session.asp.queries[0]
        hidden_rule = 0 if show.name != f"fx_query_{show.index}" else 1  # the query's own rule
        failed = session.why_not(show.name, show.arity, None, why_not_depth + hidden_rule)
        exp.why_not = _lift_failure(failed)
    else:
        assert answer is not None
        relevant = set(answer.pending)
        exp.pending = _outcomes(kb, session, [r for r in result.pending
                                              if r.text in relevant])
    return exp
