"""The pyDatalog engine: hand-written programs, agreement with clingo, and each refusal.

Each golden case is a program, then the expected answer per query as
``truth`` plus the sorted binding rows (fxlog text per variable). Every case
is also answered by clingo, and both engines must agree.
"""

from __future__ import annotations

import threading

import pytest

from fxlog.engine.answers import Answer, Binding
from fxlog.engine.datalog import answer_with_pydatalog, answers_for_module
from fxlog.errors import ProgramError
from fxlog.reasoner import KnowledgeBase
from fxlog.syntax import ast
from fxlog.syntax.parser import parse_query_text

Expected = list[tuple[str, list[tuple[str, ...]]]]

GOLDEN: dict[str, tuple[str, Expected]] = {
    "recursion": ("""
        parent(ann, bob). parent(bob, cy). parent(cy, dee).
        anc(?X, ?Y) :- parent(?X, ?Y).
        anc(?X, ?Z) :- anc(?X, ?Y), parent(?Y, ?Z).
        ?- anc(ann, ?Who).
        ?- anc(dee, ?Who).
        ?- anc(bob, dee).
    """, [("true", [("bob",), ("cy",), ("dee",)]), ("false", []), ("true", [])]),
    "stratified negation": ("""
        person(al). person(bo). person(cy). married(al).
        single(?P) :- person(?P), NOT married(?P).
        lonely :- single(?_P), NOT friend(?_P, ?).
        friend(bo, cy).
        ?- single(?P).
        ?- lonely.
        ?- person(?P), NOT single(?P).
    """, [("true", [("bo",), ("cy",)]), ("true", []), ("true", [("al",)])]),
    "classes and frames": ("""
        Student::Person. Person::Agent.
        mary:Student. joe:Person.
        mary[age -> 20]. joe[age -> 17]. mary[enrolled].
        adult(?P) :- ?P:Person[age -> ?A], ?A >= 18.
        ?P[status -> "adult"] :- adult(?P).
        ?- mary:Agent.
        ?- ?X:Person.
        ?- Student::?C.
        ?- adult(?P).
        ?- ?P[status -> ?S].
        ?- ?P[enrolled].
        ?- Agent::Person.
    """, [("true", []), ("true", [("joe",), ("mary",)]), ("true", [("Agent",), ("Person",)]),
          ("true", [("mary",)]), ("true", [("mary", '"adult"')]), ("true", [("mary",)]),
          ("false", [])]),
    "function terms": ("""
        owns(mary, book(42)). owns(joe, pen("blue")). owns(ann, book(f(x))).
        title(?B, ?T) :- owns(?_, ?B), ?B = book(?T).
        ?- owns(?P, book(?N)).
        ?- title(?B, ?T).
        ?- owns(?P, ?X), ?X != book(42).
    """, [("true", [("ann", "f(x)"), ("mary", "42")]),
          ("true", [("book(42)", "42"), ("book(f(x))", "f(x)")]),
          ("true", [("ann", "book(f(x))"), ("joe", 'pen("blue")')])]),
    "comparisons over mixed values": ("""
        v(1). v(5). v("apple"). v("pear"). v(kiwi). v(f(1)). v(-3). v(Zed). v(tool#x).
        ?- v(?X), ?X < 2.
        ?- v(?X), ?X >= "b".
        ?- v(?X), ?X <= kiwi.
        ?- v(?X), ?X > kiwi.
        ?- v(?X), ?X != 5, ?X > 0.
        ?- v(?X), v(?Y), ?X < ?Y, ?Y < 2.
    """, [("true", [("-3",), ("1",)]), ("true", [('"pear"',)]), ("true", [("kiwi",)]),
          ("true", [("Zed",), ("f(1)",), ("tool#x",)]),
          ("true", [("1",)]), ("true", [("-3", "1")])]),
    "arithmetic": ("""
        n(3). n(-4). n(2000000000). n(x).
        ?- n(?X), ?Y = ?X * 1000000000000 + 1.
        ?- n(?X), ?Y \\is ?X - 1, ?Y > 1.
        ?- n(?X), ?Y = abs(?X) mod 3.
        ?- n(?X), n(?Z), ?X != ?Z, ?W = max(?X, ?Z) - min(?X, ?Z), ?W < 10.
        ?- 2 + 2 = 4.
        ?- n(?X), -?X = 4.
        ?- ?X = 1.0000000000000000000000000000001 + 0.
        ?- 1.50 = 1.5, 2.0 = 2, 0.1 + 0.2 = 0.3.
    """, [("true", [("-4", "-3999999999999"), ("2000000000", "2000000000000000000001"),
                    ("3", "3000000000001")]),
          ("true", [("2000000000", "1999999999"), ("3", "2")]),
          ("true", [("-4", "1"), ("2000000000", "2"), ("3", "0")]),
          ("true", [("-4", "3", "7"), ("3", "-4", "7")]),
          ("true", []), ("true", [("-4",)]),
          ("true", [("1.0000000000000000000000000000001",)]), ("true", [])]),
    "explicit negation and odd names": ("""
        \\neg flies(tweety). flies(polly).
        'hello world'[says -> "a \\"quote\\""]. Human(socrates).
        x[tool#order -> 3]. fx_internal(1).
        ?- \\neg flies(?X).
        ?- ?O[says -> ?S].
        ?- Human(?X).
        ?- ?O[tool#order -> ?N].
        ?- fx_internal(?N).
    """, [("true", [("tweety",)]), ("true", [("'hello world'", '"a \\"quote\\""')]),
          ("true", [("socrates",)]), ("true", [("x", "3")]), ("true", [("1",)])]),
    "string builtins": ("""
        w("Hello"). w("abc"). w(abc). w(42). w(f("x")).
        ?- w(?S), contains(?S, "ll").
        ?- w(?S), NOT contains(?S, "b").
        ?- w(?S), lower(?S, ?L).
        ?- w(?S), length(?S, ?N), ?N > 3.
        ?- w(?S), concat(?S, "!", ?T).
        ?- w(?S), to_string(?S, ?T).
        ?- starts_with("abc", "ab"), lower("ABC", "abc").
    """, [("true", [('"Hello"',)]), ("true", [('"Hello"',), ("42",), ("abc",), ('f("x")',)]),
          ("true", [('"Hello"', '"hello"'), ('"abc"', '"abc"')]), ("true", [('"Hello"', "5")]),
          ("true", [('"Hello"', '"Hello!"'), ('"abc"', '"abc!"')]),
          ("true", [('"Hello"', '"Hello"'), ('"abc"', '"abc"'), ("42", '"42"'),
                    ("abc", '"abc"'), ('f("x")', '"f(\\"x\\")"')]), ("true", [])]),
    "variable methods and arity 0": ("""
        a[k -> b]. a[j(1) -> c]. a[tool#seq -> 4]. ready. go :- ready.
        p(b, k, d). p(b, j(2), e). p(b, new, f). p(b, flag, x).
        ?X[?M -> ?V] :- p(?X, ?M, ?V), ?M != flag.
        ?X[?M] :- p(?X, ?M, x).
        ?- a[?M -> ?V].
        ?- go.
        ?- stop.
        ?- ?O[k -> ?V].
        ?- b[?M -> ?V].
        ?- b[j(?N) -> ?V].
        ?- b[flag].
    """, [("true", [("j(1)", "c"), ("k", "b"), ("tool#seq", "4")]), ("true", []),
          ("false", []), ("true", [("a", "b"), ("b", "d")]),
          ("true", [("j(2)", "e"), ("k", "d"), ("new", "f")]), ("true", [("2", "e")]),
          ("true", [])]),
}


def _rows(answer: Answer) -> list[tuple[str, ...]]:
    return sorted(tuple(b.text(v) for v in answer.variables) for b in answer.bindings)


def _kb(text: str, file: str = "golden.fx") -> KnowledgeBase:
    kb = KnowledgeBase()
    kb.add_text(text, file)
    return kb


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden(name: str) -> None:
    text, expected = GOLDEN[name]
    kb = _kb(text)
    got = answer_with_pydatalog(kb, None)
    assert [(a.truth, _rows(a)) for a in got] == expected
    clingo = kb.answer().answers
    assert [(a.query, a.truth, _rows(a)) for a in got] == \
        [(a.query, a.truth, _rows(a)) for a in clingo]
    for mine, theirs in zip(got, clingo, strict=True):
        assert (mine.variables, mine.index, mine.file, mine.pending) == \
            (theirs.variables, theirs.index, theirs.file, theirs.pending)
        assert {b.symbols for b in mine.bindings} == {b.symbols for b in theirs.bindings}


def test_answers_are_the_clingo_engines_types() -> None:
    answer = answer_with_pydatalog(_kb("p(a, 1). ?- p(?X, ?N)."), None)[0]
    assert isinstance(answer.bindings[0], Binding)
    assert answer.bindings[0].values == {"X": ast.Sym("a"), "N": ast.Num(1)}
    assert answer.as_json() == {"query": "?- p(?X, ?N).", "truth": "true", "pending": [],
                                "bindings": [{"vars": {"X": "a", "N": "1"}, "truth": "true"}]}


def test_goal_replaces_the_programs_queries() -> None:
    kb = _kb("e(1, 2). e(2, 3). ?- e(?X, ?Y).")
    goal = parse_query_text("e(?A, 3)")
    got = answer_with_pydatalog(kb, goal)
    assert [(a.query, _rows(a)) for a in got] == [("?- e(?A, 3).", [("2",)])]
    assert _rows(kb.answer(goal).answers[0]) == _rows(got[0])


RECEIPTS_PROGRAM = """
    human(socrates). human(plato).
    external check(?P) using _query[query -> "mortal?"; tool#order -> 1] <- human(?P).
    mortal(?P) :- check(?P)[tool#status -> "succeeded"; result("mortal") -> true].
    waiting(?P) :- human(?P), NOT check(?P)[tool#completed -> true].
    ?- mortal(?P).
    ?- waiting(?P).
    ?- check(?P)[tool#name -> ?T].
"""
RECEIPT = ('check(socrates)[tool#completed -> true; tool#status -> "succeeded"; '
           'result("mortal") -> true].\n')


@pytest.mark.parametrize("world", ["", "world open.\n"])
def test_requests_and_receipts(world: str) -> None:
    kb = _kb(world + RECEIPTS_PROGRAM, "requests.fx")
    kb.add_receipt_text(RECEIPT, "requests.receipts.fx")
    if world:  # plato's request is pending: its outcome would be open
        kb.add_receipt_text(RECEIPT.replace("socrates", "plato"), "more.receipts.fx")
    got = answer_with_pydatalog(kb, None)
    assert [(a.truth, _rows(a)) for a in got] == [(a.truth, _rows(a))
                                                  for a in kb.answer().answers]
    assert ("socrates",) in _rows(got[0])


REFUSALS = {
    "world open with pending requests": (
        "world open.\nitem(a).\nexternal fetch(?I) using t[] <- item(?I).\n?- item(?X).\n",
        1, "`world open` while requests are pending (fetch(a))"),
    "cycle through NOT": (
        "q(a).\np(?X) :- q(?X), NOT r(?X).\nr(?X) :- q(?X), NOT p(?X).\n?- p(?X).\n",
        2, "negation inside recursion (a cycle through NOT) in `p(?X) :- q(?X), NOT r(?X).`"),
    "cycle through NOT via membership": (
        "a:C.\n?X:D :- ?X:C, NOT ?X:E.\n?X:E :- ?X:C, NOT ?X:D.\n",
        2, "cycle through NOT"),
    "division": ("n(4).\n?- n(?X), ?Y = ?X / 2.\n", 2, "the operator `/`"),
    "class-level frame": ("Person[|legs -> 2|].\nbob:Person.\n?- bob[legs -> ?N].\n",
                          1, "class-level frames"),
    "explicit negation with a variable method": ("a[m -> b].\n?- \\neg a[?M -> ?V].\n",
                                                  2, "`\\neg` on a frame with a variable"),
    "aggregates": ("p(1).\n?- ?N = count{?X | p(?X)}.\n", 2, "aggregates"),
    "signatures": ("a[m => integer].\n?- a[m => ?T].\n", 1, "signatures"),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_refusals_name_the_construct_and_its_line(name: str) -> None:
    text, line, words = REFUSALS[name]
    with pytest.raises(ProgramError) as caught:
        answer_with_pydatalog(_kb(text, "refused.fx"), None)
    first = caught.value.diagnostics[0]
    assert first.code == "E-ENGINE"
    assert (first.span.file, first.span.line) == ("refused.fx", line)
    assert words in first.message
    assert "refused.fx" in caught.value.render()


def test_runs_are_isolated_from_each_other_and_from_the_callers_pydatalog() -> None:
    from pyDatalog import pyDatalog

    pyDatalog.assert_fact("mine", 1)
    first = answer_with_pydatalog(_kb("p(a). ?- p(?X)."), None)
    second = answer_with_pydatalog(_kb("p(b). ?- p(?X)."), None)
    assert [_rows(a) for a in first + second] == [[("a",)], [("b",)]]
    assert pyDatalog.ask("mine(X)").answers == [(1,)]  # the caller's logic is untouched
    pyDatalog.clear()


def test_concurrent_calls_do_not_mix() -> None:
    results: dict[int, list[tuple[str, ...]]] = {}

    def run(i: int) -> None:
        kb = _kb(f"p({i}). q(?X) :- p(?X). ?- q(?X).")
        results[i] = _rows(answer_with_pydatalog(kb, None)[0])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: [(str(i),)] for i in range(8)}


def test_module_level_entry_point() -> None:
    from fxlog.syntax.parser import parse_program
    from fxlog.translators.flatten import flatten

    module = flatten(parse_program("p(a). ?- p(?X).", "m.fx"))
    assert _rows(answers_for_module(module)[0]) == [("a",)]


# Both engines say an object with any frame exists (LANGUAGE.md: `o[]`, "o is mentioned").


def test_clingo_agrees_that_an_object_with_a_frame_exists() -> None:
    kb = _kb("o[m -> v].\n?- o[].\n")
    assert answer_with_pydatalog(kb, None)[0].truth == "true"
    assert kb.answer().answers[0].truth == "true"


def test_clingo_answers_o_exists_next_to_a_boolean_method() -> None:
    kb = _kb("a:C. o[tall].\n?- o[].\n")
    assert answer_with_pydatalog(kb, None)[0].truth == "true"
    assert kb.answer().answers[0].truth == "true"
