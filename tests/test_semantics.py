"""Semantics through the embedding API (``fxlog.client.Client``).

The golden files in ``tests/data/answers`` pin answers per construct; the tests
here check what a golden file cannot say well: the three ways of supplying a
receipt, laws between two runs (fast fact path versus grammar, goal spellings,
determinism) and diagnostics that only solving produces.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fxlog.client import Client
from fxlog.errors import ProgramError

DATA = Path(__file__).parent / "data"
SEED_OPEN = (DATA / "answers" / "seed_open.fx").read_text(encoding="utf-8")
SEED_CLOSED = (DATA / "answers" / "seed_closed.fx").read_text(encoding="utf-8")
# The seed's receipt, without the file header (tests add it where they need it).
RECEIPT = "".join(
    line for line in (DATA / "answers" / "seed_receipt.receipts.fx")
    .read_text(encoding="utf-8").splitlines(keepends=True) if not line.startswith("//")
)


def _client(text: str, file: str = "t.fx") -> Client:
    client = Client()
    client.load(text, file=file)
    return client


# ------------------------------------------------------------- seed example


def test_seed_open_world_without_receipts_is_unknown() -> None:
    answer = _client(SEED_OPEN, "tool-query.fx").answers()[0]
    assert answer.truth == "unknown"
    assert answer.pending == ("checkHuman(socrates)",)


def test_seed_closed_world_is_false() -> None:
    answer = _client(SEED_CLOSED, "tool-query.fx").answers()[0]
    assert (answer.truth, answer.pending) == ("false", ())


def test_seed_with_receipt_loaded_as_text_is_true() -> None:
    client = _client(SEED_OPEN, "tool-query.fx")
    client.load(RECEIPT, file="r.fx")
    answer = client.answers()[0]
    assert (answer.truth, answer.pending) == ("true", ())


def test_seed_with_receipts_file_is_true(tmp_path: Path) -> None:
    path = tmp_path / "tool-query.receipts.fx"
    path.write_text("// fxlog receipts v1\n" + RECEIPT, encoding="utf-8")
    client = _client(SEED_OPEN, "tool-query.fx")
    client.load_receipts(path)
    answer = client.answers()[0]
    assert (answer.truth, answer.pending) == ("true", ())


def test_seed_receipts_loader_from_fxlog_tools(tmp_path: Path) -> None:
    """The loader the CLI uses for RECEIPTS arguments reads the seed receipt as facts."""
    from fxlog.tools.receipt_log import load_receipts

    path = tmp_path / "r.fx"
    path.write_text(RECEIPT, encoding="utf-8")
    loaded = load_receipts(path)
    client = _client(SEED_OPEN, "tool-query.fx")
    client.kb.add_receipts(loaded.program)
    assert client.answers()[0].truth == "true"
    assert [str(t) for t in loaded.completed]  # checkHuman(socrates) counts as completed


def test_seed_failed_receipt_is_false_not_unknown() -> None:
    client = _client(SEED_OPEN, "tool-query.fx")
    client.load('checkHuman(socrates)[tool#completed -> true; tool#status -> "failed"; '
                'tool#name -> "_query"; error("type") -> "tool_error"].\n', file="r.fx")
    assert client.answers()[0].truth == "false"


def test_seed_goal_via_query() -> None:
    client = _client(SEED_OPEN, "tool-query.fx")
    answer = client.query("?- checkHuman(?P)[tool#requested -> true].")
    assert [(b.text("P"), b.truth) for b in answer.bindings] == [("socrates", "true")]


# ---------------------------------------------------------- three values


def test_even_loop_is_unknown_and_its_consequence_true() -> None:
    client = _client("p :- NOT q.\nq :- NOT p.\ns :- p.\ns :- q.\n")
    assert [client.query(g).truth for g in ("p", "q", "s", "NOT s")] == [
        "unknown", "unknown", "true", "false"]


def test_unknown_bindings_are_listed_after_certain_ones() -> None:
    client = _client("p :- NOT q.\nq :- NOT p.\nc(1) :- p.\nc(2).\n")
    answer = client.query("c(?X)")
    assert answer.truth == "true"
    assert sorted((b.text("X"), b.truth) for b in answer.bindings) == [
        ("1", "unknown"), ("2", "true")]


def test_no_answer_set_is_an_error_that_points_at_the_rule() -> None:
    client = _client("a.\np :- a, NOT p.\n?- a.\n", "nomodel.fx")
    with pytest.raises(ProgramError) as info:
        client.answers()
    (d,) = [d for d in info.value.diagnostics if d.severity == "error"]
    assert d.code == "E-NOMODEL"
    assert (d.span.file, d.span.line) == ("nomodel.fx", 2)
    assert d.hint


# ------------------------------------------------------------ diagnostics


def test_class_cycle_warning_from_check_has_a_place() -> None:
    warnings = _client("a::b.\nb::a.\nx:a.\n", "cycle.fx").check()
    cycles = [w for w in warnings if w.code == "W-CYCLE"]
    assert cycles, warnings
    assert all(w.span.file == "cycle.fx" and w.span.line in (1, 2) for w in cycles)


def test_class_cycle_warning_from_solving_has_a_place() -> None:
    client = _client("a::b.\nb::a.\nx:a.\n?- x:b.\n", "cycle.fx")
    result = client.solve()
    assert result.answers[0].truth == "true"
    cycles = [w for w in result.warnings if w.code == "W-CYCLE"]
    assert cycles
    assert all(w.span.file == "cycle.fx" and w.span.line in (1, 2) for w in cycles), cycles


def test_singleton_warning_is_implemented() -> None:
    (w,) = _client("q(a, b).\np(?X) :- q(?X, ?Y).\n", "s.fx").check()
    assert (w.code, w.severity, w.span.line, w.span.column) == ("W-SINGLETON", "warning", 2, 16)


def test_receipts_text_with_a_rule_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.fx"
    path.write_text(RECEIPT + "p(?X) :- q(?X).\n", encoding="utf-8")
    client = _client(SEED_OPEN, "tool-query.fx")
    with pytest.raises(ProgramError) as info:
        client.load_receipts(path)
    assert any(d.span.file == str(path) and d.span.line == 2 for d in info.value.diagnostics)


# ----------------------------------------------------------------- laws

# Facts the scanner recognises on its fast path; adding `:- \true` sends the same
# fact through the grammar. Both must mean the same.
FAST_FACTS = [
    "p(007)", "p(-0)", "p(-007)", "p(Human)", "p(fx_s)", "p(fx_query_0)", "p(_x)",
    'p("a b")', 'p("")', "p(e)", "p(true)", "p(2147483648)", "p(-2147483649)",
    "p(12345678901234567890)", "o[m -> 007]", "o[m -> Human]", 'o[m -> ""]',
    "o[fx_s -> v]", "o[m -> -3]", "Human:Class", "o:Human", "A::B", "x:fx_s",
    "fx_isa(a, b)", "fx_sub_(a, b)", "fx_pend(a)", "fx_a_m(o, v)", "p(a,  b)",
    "p( a )", 'fx_s("a")', 'p("#")', "p(tool#x)", "p(a#b)", "p(mod)", "p(count)",
]


@pytest.mark.parametrize("fact", FAST_FACTS)
def test_fast_fact_path_means_the_same_as_the_grammar(fact: str) -> None:
    fast = _client(f"{fact}.\n?- {fact}.\n?- p(?A).\n?- ?O[?M -> ?V].\n?- ?O:?C.\n")
    slow = _client(f"{fact} :- \\true.\n?- {fact}.\n?- p(?A).\n?- ?O[?M -> ?V].\n?- ?O:?C.\n")
    fast_answers = [(a.truth, sorted(str(b.values) for b in a.bindings))
                    for a in fast.answers()]
    slow_answers = [(a.truth, sorted(str(b.values) for b in a.bindings))
                    for a in slow.answers()]
    assert fast_answers[0][0] == "true"
    assert fast_answers == slow_answers


@pytest.mark.parametrize("goal", ["?- p(?X).", "p(?X).", "p(?X)", "  ?- p(?X) .  "])
def test_goal_spellings_are_equivalent(goal: str) -> None:
    answer = _client("p(a). p(b).\n").query(goal)
    assert sorted(b.text("X") for b in answer.bindings) == ["a", "b"]


def test_goal_query_ignores_the_files_queries() -> None:
    client = _client("p(a).\n?- p(zzz).\n")
    assert client.query("p(a)").truth == "true"
    assert [a.truth for a in client.answers()] == ["false"]


def test_translation_is_deterministic_across_clients() -> None:
    text = (DATA / "asp" / "frames_sets.fx").read_text() + SEED_OPEN
    assert _client(text).translate() == _client(text).translate()


def test_answers_do_not_depend_on_statement_order() -> None:
    lines = ["parent(ann, bob).", "parent(bob, cy).", "anc(?X, ?Y) :- parent(?X, ?Y).",
             "anc(?X, ?Z) <- parent(?X, ?Y) AND anc(?Y, ?Z).", "x:C.", "C::D."]
    goals = ["anc(ann, ?D)", "x:?K", "anc(?A, cy)"]
    forward = _client("\n".join(lines) + "\n")
    backward = _client("\n".join(reversed(lines)) + "\n")
    for goal in goals:
        assert sorted(str(b.values) for b in forward.query(goal).bindings) == \
            sorted(str(b.values) for b in backward.query(goal).bindings)


def test_queries_do_not_change_the_program() -> None:
    client = _client("p(a).\n?- p(?X).\n?- NOT p(b).\n")
    first = [(a.truth, len(a.bindings)) for a in client.answers()]
    client.query("p(b)")
    assert [(a.truth, len(a.bindings)) for a in client.answers()] == first
