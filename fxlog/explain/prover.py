"""Model + core rules → proof trees (why) and failure trees (why not).

A proof re-derives a true atom in Python, rule by rule, against the solved
model: each node names the rule (file:line and text) and its instantiated body
literals, down to facts and receipts. Iterative deepening makes the tree
minimal in depth and well founded (no atom justified by itself). A why-not
tree follows each rule that could derive a false atom to the first body
literal that no instantiation satisfies.

>>> from fxlog.reasoner import KnowledgeBase
>>> kb = KnowledgeBase(); kb.add_text("a::b. b::c. x:a.", "demo.fx")
>>> from fxlog.explain import explain
>>> explain(kb, "?- x:c.").proof.text
'x:c'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from clingo.symbol import Function, Symbol

from fxlog.engine.decode import decode_text
from fxlog.engine.solver import FullModel
from fxlog.explain.patterns import PFun, builtin, compare, evaluate, ground, match, pattern
from fxlog.explain.render_atoms import AtomNamer
from fxlog.syntax import ast
from fxlog.translators.core import Agg, BodyItem, Builtin, Cmp, CoreRule, Lit, Module, Pred
from fxlog.translators.plan import Plan

__all__ = ["FactIndex", "Node", "Prover"]

Binding = dict[str, Symbol]


@dataclass
class Node:
    """One step of an explanation; ``kind`` says what justifies ``text``."""

    kind: str  # rule | fact | receipt | builtin | absent | inherited | closure | fails | ...
    text: str
    source: str | None = None
    rule: str | None = None
    children: list[Node] = field(default_factory=list)
    detail: dict[str, object] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.source:
            out["source"] = self.source
        if self.rule:
            out["rule"] = self.rule
        if self.detail:
            out["detail"] = self.detail
        out["children"] = [c.as_json() for c in self.children]
        return out

    def depth(self) -> int:
        return 1 + max((c.depth() for c in self.children), default=0)


class Prover:
    """Proofs against one model of one translated program."""

    def __init__(self, module: Module, model: FullModel, namer: AtomNamer,
                 facts: FactIndex) -> None:
        self.module = module
        self.model = model
        self.plan = Plan.of(module)
        self.namer = namer
        self.facts = facts
        self.rules: dict[tuple[str, int], list[CoreRule]] = {}
        for rule in module.rules:
            key = (self.plan.stored(rule.head.pred), rule.head.pred.arity)
            self.rules.setdefault(key, []).append(rule)
        self._memo: dict[tuple[Symbol, int], Node | None] = {}

    # ------------------------------------------------------------------ proofs
    def prove(self, atom: Symbol, max_depth: int = 48) -> Node | None:
        """A proof of minimal depth (iterative deepening), or None if not found."""
        if not self.model.holds(atom):
            return None
        for budget in range(1, max_depth + 1):
            node = self._prove(atom, budget, frozenset())
            if node is not None:
                return node
        return Node("truncated", self.namer.text(atom),
                    detail={"reason": f"no proof within depth {max_depth}"})

    def _prove(self, atom: Symbol, budget: int, path: frozenset[Symbol]) -> Node | None:
        key = (atom, budget)
        if key in self._memo:
            return self._memo[key]
        node = None
        if budget > 0 and atom not in path and self.model.holds(atom):
            node = self._justify(atom, budget, path | {atom})
        self._memo[key] = node
        return node

    def _justify(self, atom: Symbol, budget: int, path: frozenset[Symbol]) -> Node | None:
        fact = self.facts.find(atom, self.namer)
        if fact is not None:
            return fact
        name, arity = atom.name, len(atom.arguments)
        special = self._closure(atom, name, budget, path)
        if special is not None:
            return special
        for rule in self.rules.get((name, arity), []):
            binding = match(pattern_of_head(rule), Function("", atom.arguments), {})
            if binding is None:
                continue
            for solution in self.solutions(rule.body, binding):
                children = self._children(rule.body, solution, budget, path)
                if children is not None:
                    return Node("rule", self.namer.text(atom), *self.origin(rule), children)
        return None

    def _children(self, body: tuple[BodyItem, ...], binding: Binding, budget: int,
                  path: frozenset[Symbol]) -> list[Node] | None:
        children: list[Node] = []
        for item in body:
            if isinstance(item, Lit) and not item.naf:
                sym = self.ground_lit(item, binding)
                if sym is None:
                    return None
                child = self._prove(sym, budget - 1, path)
                if child is None:
                    return None
                if self.namer.hidden(sym):
                    children.extend(child.children)
                else:
                    children.append(child)
            else:
                children.append(self.leaf(item, binding))
        return children

    def leaf(self, item: BodyItem, binding: Binding) -> Node:
        text = self.namer.item_text(item, binding)
        if isinstance(item, Lit):
            return Node("absent", text, detail={"reason": "no rule or fact derives it"})
        if isinstance(item, Agg):
            return Node("aggregate", text)
        return Node("builtin", text)

    def origin(self, rule: CoreRule) -> tuple[str | None, str | None]:
        if 0 <= rule.origin < len(self.module.origins):
            span, text = self.module.origins[rule.origin]
            return f"{span.file}:{span.line}", text
        return None, None

    # --------------------------------------------------------- closure axioms
    def _closure(self, atom: Symbol, name: str, budget: int,
                 path: frozenset[Symbol]) -> Node | None:
        if name == "fx_isa" and len(atom.arguments) == 2:
            obj, cls = atom.arguments
            direct = self._prove(Function("fx_isa_", [obj, cls]), budget, path)
            if direct is not None:
                return direct
            for mid in self.model.signature("fx_isa_", 2):
                if mid.arguments[0] != obj:
                    continue
                sub = Function("fx_sub", [mid.arguments[1], cls])
                if self.model.holds(sub):
                    a = self._prove(mid, budget - 1, path)
                    b = self._prove(sub, budget - 1, path)
                    if a is not None and b is not None:
                        return Node("closure", self.namer.text(atom), children=[a, b],
                                    detail={"axiom": "membership is closed over ::"})
            return None
        if name == "fx_sub" and len(atom.arguments) == 2:
            low, high = atom.arguments
            direct = self._prove(Function("fx_sub_", [low, high]), budget, path)
            if direct is not None:
                return direct
            for mid in self.model.signature("fx_sub_", 2):
                if mid.arguments[1] != high:
                    continue
                first = Function("fx_sub", [low, mid.arguments[0]])
                if self.model.holds(first):
                    a = self._prove(first, budget - 1, path)
                    b = self._prove(mid, budget - 1, path)
                    if a is not None and b is not None:
                        return Node("closure", self.namer.text(atom), children=[a, b],
                                    detail={"axiom": ":: is transitive"})
            return None
        return self._inherited(atom, budget, path)

    def _inherited(self, atom: Symbol, budget: int, path: frozenset[Symbol]) -> Node | None:
        pred = self.namer.pred_of(atom)
        if pred is None or pred not in self.plan.split or pred.kind not in ("attr", "bool"):
            return None
        stored = Function(self.plan.stored(pred), atom.arguments)
        own = self._prove(stored, budget, path)
        if own is not None:
            return own
        cls_pred = Pred("c" + pred.kind, pred.name, pred.args)
        obj, rest = atom.arguments[0], atom.arguments[1:]
        for default in self.model.signature(self.plan.stored(cls_pred), cls_pred.arity):
            if list(default.arguments[1:]) != list(rest):
                continue
            member = Function("fx_isa", [obj, default.arguments[0]])
            if not self.model.holds(member):
                continue
            a = self._prove(default, budget - 1, path)
            b = self._prove(member, budget - 1, path)
            if a is not None and b is not None:
                return Node("inherited", self.namer.text(atom), children=[b, a],
                            detail={"from": decode_text(default.arguments[0])})
        return None

    # ------------------------------------------------------------ body search
    def ground_lit(self, lit: Lit, binding: Binding) -> Symbol | None:
        args = [ground(pattern(a), binding) for a in lit.atom.args]
        if any(a is None for a in args):
            return None
        return Function(self.plan.closed(lit.atom.pred), args)  # type: ignore[arg-type]

    def solutions(self, body: tuple[BodyItem, ...], binding: Binding,
                  start: int = 0) -> Iterator[Binding]:
        """Every extension of ``binding`` satisfying ``body[start:]`` in the model."""
        if start == len(body):
            yield binding
            return
        for extended in self.satisfy(body[start], binding):
            yield from self.solutions(body, extended, start + 1)

    def satisfy(self, item: BodyItem, binding: Binding) -> Iterator[Binding]:
        if isinstance(item, Lit):
            yield from self._lit(item, binding)
        elif isinstance(item, Cmp):
            yield from self._cmp(item, binding)
        elif isinstance(item, Builtin):
            args = [evaluate(a, binding) for a in item.args]
            inputs = args if item.name in ("contains", "starts_with") else args[:-1]
            if any(a is None for a in inputs):
                return
            holds, value = builtin(item.name, inputs, item.negated)  # type: ignore[arg-type]
            if not holds:
                return
            if value is None:
                yield binding
            else:
                extended = match(pattern(item.args[-1]), value, binding)
                if extended is not None:
                    yield extended
        else:
            yield from self._aggregate(item, binding)

    def _lit(self, lit: Lit, binding: Binding) -> Iterator[Binding]:
        sym = self.ground_lit(lit, binding)
        if lit.naf:
            if sym is not None and not self.model.holds(sym):
                yield binding
            return
        if sym is not None:
            if self.model.holds(sym):
                yield binding
            return
        patterns = [pattern(a) for a in lit.atom.args]
        name = self.plan.closed(lit.atom.pred)
        for candidate in self._candidates(lit, name, binding):
            extended: Binding | None = binding
            for p, arg in zip(patterns, candidate.arguments, strict=True):
                extended = match(p, arg, extended)  # type: ignore[arg-type]
                if extended is None:
                    break
            if extended is not None:
                yield extended

    def _candidates(self, lit: Lit, name: str, binding: Binding) -> list[Symbol]:
        """Atoms that may match: facts by their first argument when only facts define it."""
        arity = lit.atom.pred.arity
        if arity and (name, arity) not in self.rules and self.plan.stored(lit.atom.pred) == name:
            first = ground(pattern(lit.atom.args[0]), binding)
            if first is not None:
                found = self.facts.candidates(name, first)
                if found is not None:
                    return [s for s in found if len(s.arguments) == arity]
        return self.model.signature(name, arity)

    def _cmp(self, cmp: Cmp, binding: Binding) -> Iterator[Binding]:
        left, right = evaluate(cmp.left, binding), evaluate(cmp.right, binding)
        if cmp.op == "=" and (left is None) != (right is None):
            target, value = (cmp.left, right) if left is None else (cmp.right, left)
            extended = match(pattern(target), value, binding)  # type: ignore[arg-type]
            if extended is not None:
                yield extended
            return
        if left is not None and right is not None and compare(cmp.op, left, right):
            yield binding

    def _aggregate(self, agg: Agg, binding: Binding) -> Iterator[Binding]:
        values: dict[tuple[Symbol, ...], Symbol] = {}
        value_pattern = pattern(agg.value)
        for solution in self.solutions(agg.body, binding):
            value = ground(value_pattern, solution)
            if value is None:
                continue
            locals_ = tuple(solution.get(n, value) for n in agg.local)
            key = (value,) if agg.func == "countdistinct" else (value, *locals_)
            values[key] = value
        result = _aggregate_value(agg.func, list(values.values()))
        if result is None:
            return
        extended = match(pattern(agg.result), result, binding)
        if extended is not None:
            yield extended


def _aggregate_value(func: str, values: list[Symbol]) -> Symbol | None:
    from clingo.symbol import Number

    from fxlog.explain.patterns import _CTX, _one

    if func in ("count", "countdistinct"):
        return Number(len(values))
    if not values:
        return Number(0) if func == "sum" else None
    if func in ("min", "max"):
        best = values[0]
        for v in values[1:]:
            better = compare("<" if func == "min" else ">", v, best)
            best = v if better else best
        return best
    total: Symbol | None = Number(0)
    for v in values:
        total = _one(_CTX.fx_add(total, v)) if total is not None else None
    if func == "sum" or total is None:
        return total
    return _one(_CTX.fx_div(total, Number(len(values))))


def pattern_of_head(rule: CoreRule) -> PFun:
    return PFun("", tuple(pattern(a) for a in rule.head.args))


class FactIndex:
    """Where facts come from: program facts (with file:line) and receipts."""

    def __init__(self, module: Module, receipt_modules: list[Module], sources: dict[str, str]):
        self.module = module
        self.receipts = receipt_modules
        self.sources = sources
        self._fact_rules: dict[str, list[tuple[CoreRule, Module]]] | None = None
        self._groups: dict[str, dict[str, list[tuple[str, ast.PlainFact]]]] | None = None
        self._plan = Plan.of(module)

    def _index(self) -> dict[str, list[tuple[CoreRule, Module]]]:
        if self._fact_rules is None:
            plan = Plan.of(self.module)
            index: dict[str, list[tuple[CoreRule, Module]]] = {}
            for mod in (self.module, *self.receipts):
                for rule in mod.rules:
                    if not rule.body:
                        name = plan.stored(rule.head.pred)
                        index.setdefault(name, []).append((rule, mod))
            self._fact_rules = index
        return self._fact_rules

    def find(self, atom: Symbol, namer: AtomNamer) -> Node | None:
        name = atom.name
        for rule, mod in self._index().get(name, []):
            head = pattern_of_head(rule)
            if match(head, Function("", atom.arguments), {}) is not None:
                return self._node(atom, rule, mod, namer)
        plain = self._plain(atom)
        if plain is not None:
            return Node("fact", namer.text(atom), plain)
        return None

    def _node(self, atom: Symbol, rule: CoreRule, mod: Module, namer: AtomNamer) -> Node:
        span = rule.span
        source = f"{span.file}:{span.line}" if span.line else None
        if mod is not self.module:
            return Node("receipt", namer.text(atom), source, detail=namer.receipt_detail(atom))
        return Node("fact", namer.text(atom), source)

    def _by_first(self, name: str) -> dict[str, list[tuple[str, ast.PlainFact]]]:
        """Plain facts of one ASP predicate, by the ASP text of their first argument.

        Built once per predicate in one pass, so that a proof over a knowledge
        base of 10^5 facts looks at a handful of them, not all.
        """
        from fxlog.translators.emit import plain_pred
        from fxlog.translators.encode import token_asp

        if self._groups is None:
            groups: dict[str, dict[str, list[tuple[str, ast.PlainFact]]]] = {}
            names: dict[tuple[str, str, int], str] = {}
            firsts: dict[str, str] = {}
            for file, facts in self.module.plain:
                for pf in facts:
                    kind, parts = pf.kind, pf.parts
                    key = (kind, parts[0] if kind == "pred" else parts[1] if kind == "attr"
                           else "", len(parts))
                    pred_name = names.get(key)
                    if pred_name is None:
                        pred_name = names[key] = self._plan.stored(plain_pred(pf))
                    token = parts[1] if kind == "pred" and len(parts) > 1 else \
                        parts[0] if kind != "pred" else ""
                    first = firsts.get(token)
                    if first is None:
                        first = firsts[token] = token_asp(token) if token else ""
                    groups.setdefault(pred_name, {}).setdefault(first, []).append((file, pf))
            self._groups = groups
        return self._groups.get(name, {})

    def candidates(self, name: str, first: Symbol) -> list[Symbol] | None:
        """True plain facts of ``name`` whose first argument is ``first`` (None: no facts)."""
        from clingo.symbol import parse_term

        from fxlog.translators.emit import plain_asp

        group = self._by_first(name)
        if not group:
            return None
        return [parse_term(plain_asp(pf, self._plan)[:-1])
                for _file, pf in group.get(str(first), [])]

    def _plain(self, atom: Symbol) -> str | None:
        """Locate a plain fact among those sharing its predicate and first argument."""
        from fxlog.translators.emit import plain_asp

        if not atom.arguments:
            group = self._by_first(atom.name).get("", [])
        else:
            group = self._by_first(atom.name).get(str(atom.arguments[0]), [])
        wanted = str(atom) + "."
        for file, pf in group:
            if plain_asp(pf, self._plan) == wanted:
                return f"{file}:{_line(self.sources.get(file, ''), pf.offset)}"
        return None


def _line(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


