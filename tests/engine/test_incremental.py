"""The incremental step solver agrees with solving from scratch, stale negation included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fxlog.engine.incremental import IncrementalSolver
from fxlog.reasoner import KnowledgeBase, pending_requests, workflow_statuses
from fxlog.syntax.parser import parse_program
from fxlog.translators.pipeline import translate, translate_facts

STALE = """
item(a). item(b).
external fetch(?I) using t[tool#order -> 1] <- item(?I).
pending_item(?I) :- item(?I), NOT done(?I).
done(?I) :- ?C[tool#name -> "t"; tool#arg1 -> ?I; tool#completed -> true].
workflow[status -> "finished"] :- NOT pending_item(?_).
"""


def receipt(item: str) -> str:
    return (f'fetch({item})[tool#completed -> true; tool#status -> "succeeded"; '
            f'tool#name -> "t"].\n')


def test_a_conclusion_drawn_with_not_is_withdrawn_when_the_receipt_arrives() -> None:
    asp = translate(parse_program(STALE, "stale.fx"))
    solver = IncrementalSolver(asp)
    first = solver.step("")
    assert sorted(r.text for r in pending_requests(first.internal)) == ["fetch(a)", "fetch(b)"]
    assert workflow_statuses(first.internal) == []
    second = solver.step(translate_facts(parse_program(receipt("a"), "r1.fx")))
    assert [r.text for r in pending_requests(second.internal)] == ["fetch(b)"]
    assert workflow_statuses(second.internal) == []  # pending_item(b) still holds
    third = solver.step(translate_facts(parse_program(receipt("b"), "r2.fx")))
    assert pending_requests(third.internal) == []
    assert workflow_statuses(third.internal) == ['"finished"']


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), unique=True, max_size=4),
       st.permutations(["a", "b", "c", "d"]))
def test_each_step_matches_a_fresh_solve(items: list[str], order: list[str]) -> None:
    program = "".join(f"item({i}). " for i in ["a", "b", "c", "d"]) + STALE.split("\n", 2)[2]
    asp = translate(parse_program(program, "p.fx"))
    solver = IncrementalSolver(asp)
    kb = KnowledgeBase()
    kb.add_program(parse_program(program, "p.fx"))
    solver.step("")
    for item in [i for i in order if i in items]:
        facts = parse_program(receipt(item), f"{item}.fx")
        kb.add_receipts(facts)
        step = solver.step(translate_facts(facts))
        fresh = kb.state()
        assert [r.text for r in pending_requests(step.internal)] == \
            [r.text for r in fresh.pending]
        assert workflow_statuses(step.internal) == fresh.workflow
