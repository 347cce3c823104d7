"""Properties of explanations: well-founded, minimal-depth proofs; why-not structure.

Golden files pin what is printed; these tests pin the guarantees of
docs/explain.md on the ``Node`` tree itself, over every golden case and over
random graphs (hypothesis).
"""

from __future__ import annotations

import string
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fxlog.explain import Explanation, Node, explain
from fxlog.explain.render import explanation_text
from fxlog.reasoner import KnowledgeBase

from .conftest import Case, case_paths, load_case

CASES = case_paths()
KINDS = {"rule", "fact", "receipt", "closure", "inherited", "builtin", "aggregate", "absent",
         "holds", "fails", "truncated"}


def _walk(node: Node, ancestors: tuple[Node, ...] = ()) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    yield node, ancestors
    for child in node.children:
        yield from _walk(child, (*ancestors, node))


def _proof_trees(e: Explanation) -> Iterator[Node]:
    """The proof, and the proofs of atoms that block a NOT in a why-not tree."""
    if e.proof is not None:
        yield e.proof
    for tree in e.why_not:
        for n, _ in _walk(tree):
            if n.kind == "fails" and n.detail.get("reason") == "it holds":
                yield from n.children


def assert_well_founded(node: Node) -> None:
    """No rule node is justified, further down, by a rule node for the same atom."""
    for n, ancestors in _walk(node):
        assert n.kind in KINDS, n.kind
        if n.kind == "rule":
            same = [a for a in ancestors if a.kind == "rule" and a.text == n.text]
            assert not same, f"{n.text} is justified by itself"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_golden_proof_is_well_founded(path: Path) -> None:
    case = load_case(path)
    for goal in case.goals:
        e = explain(case.kb, goal, case.depth)
        for tree in _proof_trees(e):
            assert_well_founded(tree)
            if tree is e.proof:
                for n, _ in _walk(tree):
                    # Proofs bottom out in facts, receipts, builtins and absent NOTs.
                    if not n.children:
                        assert n.kind in ("fact", "receipt", "builtin", "aggregate", "absent")
                    if n.kind in ("fact", "receipt"):
                        assert n.source and ":" in n.source


def test_proof_has_minimal_depth_when_a_deeper_one_exists(case: Callable[[str], Case]) -> None:
    c = case("minimal_depth")
    shallow = explain(c.kb, "?- reach(a, d).")
    assert shallow.proof is not None
    # reach(a, d) by the shortcut rule, from the fact shortcut(a, d).
    assert shallow.proof.depth() == 2
    assert shallow.proof.children[0].text == "shortcut(a, d)"
    # The deeper proof exists: without the shortcut, a chain of three edges.
    chain = KnowledgeBase()
    source = c.path.read_text(encoding="utf-8").replace("shortcut(a, d).", "")
    chain.add_text(source, c.path.name)
    deep = explain(chain, "?- reach(a, d).")
    assert deep.truth == "true" and deep.proof is not None
    assert deep.proof.depth() == 4


def test_cyclic_rules_give_a_well_founded_proof(case: Callable[[str], Case]) -> None:
    c = case("cycles")
    e = explain(c.kb, "?- p(a).")
    assert e.proof is not None
    assert [n.text for n, _ in _walk(e.proof)] == ["p(a)", "q(a)", "r(a)"]


def test_why_not_through_negation_proves_the_blocking_atom(case: Callable[[str], Case]) -> None:
    c = case("negation")
    e = explain(c.kb, "?- q(b).")
    assert e.truth == "false"
    [rule] = e.why_not[0].children
    assert [(n.kind, n.text) for n in rule.children] == [("holds", "p(b)"),
                                                          ("fails", "NOT r(b)")]
    blocked = rule.children[1]
    assert blocked.detail == {"reason": "it holds"}
    [proof] = blocked.children
    assert (proof.kind, proof.text, proof.rule) == ("rule", "r(b)", "r(?X) :- s(?X).")
    assert [(n.kind, n.text, n.source) for n in proof.children] == [
        ("fact", "s(b)", "negation.fx:7")]


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_why_not_depth_means_the_same_for_ground_and_open_goals(
        case: Callable[[str], Case], depth: int) -> None:
    """``--depth N`` bounds the recursion below the goal's own rules, whatever the goal.

    The hidden rule a ground query is compiled to must not use up a level: at
    depth 0 the goal's rules and their first failing literal are still shown.
    """
    c = case("why_not_chain")
    ground = explain(c.kb, "?- ready(i1).", depth)
    open_ = explain(c.kb, "?- ready(?X).", depth)
    assert ground.truth == open_.truth == "false"
    assert [n.kind for n in ground.why_not[0].children] == ["rule", "rule"]
    assert ground.why_not[0].depth() == open_.why_not[0].depth()


def test_why_not_of_a_request_shows_no_internal_atoms(case: Callable[[str], Case]) -> None:
    """A request that is not derived: the external's body, not lowering artefacts."""
    c = case("request_order")
    e = explain(c.kb, "classify(d2)")
    assert e.truth == "false" and e.proof is None
    texts = [n.text for tree in e.why_not for n, _ in _walk(tree)]
    assert 'fetch(d2)[tool#status -> "succeeded"]' in texts
    # Internal auxiliary atoms print as a bare tuple such as `(d2, ?T)`.
    assert not [t for t in texts if t.startswith("(")], texts
    rules = [n for tree in e.why_not for n, _ in _walk(tree) if n.kind == "rule"]
    assert len(rules) == 1, [r.text for r in rules]
    assert e.request is not None and e.request["seq"] is None
    assert "None" not in explanation_text(e)


# ------------------------------------------------------------ random graphs

NODES = string.ascii_lowercase[:5]
RULES = ("reach(?X, ?Y) :- edge(?X, ?Y).\n"
         "reach(?X, ?Z) :- edge(?X, ?Y), reach(?Y, ?Z).\n")


def _shortest(edges: set[tuple[str, str]], start: str, goal: str) -> int | None:
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for a, b in sorted(edges):
            if a == here and b not in seen:
                seen[b] = seen[here] + 1
                queue.append(b)
            if a == here and b == goal:
                return seen[here] + 1
    return None


@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(edges=st.sets(st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)), max_size=8),
       start=st.sampled_from(NODES), goal=st.sampled_from(NODES))
def test_random_graph_proofs_are_shortest_paths(edges: set[tuple[str, str]], start: str,
                                                goal: str) -> None:
    kb = KnowledgeBase()
    facts = "".join(f"edge({a}, {b}).\n" for a, b in sorted(edges))
    kb.add_text(RULES + facts, "graph.fx")
    e = explain(kb, f"?- reach({start}, {goal}).")
    length = _shortest(edges, start, goal)
    if length is None:
        assert e.truth == "false" and e.proof is None
        return
    assert e.truth == "true" and e.proof is not None
    assert_well_founded(e.proof)
    # One rule node per edge on the path, the last one over an edge fact.
    assert e.proof.depth() == length + 1
    leaves = [n for n, _ in _walk(e.proof) if not n.children]
    assert len(leaves) == length and all(n.kind == "fact" for n in leaves)
