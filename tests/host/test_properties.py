"""Property tests: generated episodes are deterministic, replayable and order-stable.

A generated program has a fan-out request over seed facts, then a chain of
requests, each enabled by an earlier request's receipt: by its success (its
``result("y")`` becomes the next input) or by its failure, optionally guarded by
``NOT`` another request's failure. Orders are distinct; an optional ``_query``
request, a workflow status rule (a result threshold or a ``count`` aggregate),
``world open`` and the action limit vary too. Each tool's output is a pure
function of its input (some inputs make it raise), but it sleeps a few
milliseconds, varying with the input, so that parallel calls finish out of order.
"""

from __future__ import annotations

import re
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fxlog.tools import EpisodeResult, ToolRegistry, replay, run_episode
from fxlog.tools.host import recorded_end

SETTINGS = settings(max_examples=20, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

_TIMING = re.compile(
    r'(?:tool#started|tool#finished) -> "[^"]*"'
    r'|(?:tool#duration_ms|evidence\("elapsed_ms"\)) -> -?[0-9.eE+-]+'
)


@dataclass(frozen=True)
class ToolSpec:
    mul: int
    add: int
    mod: int
    fail_every: int | None  # raise when x % fail_every == 0


@dataclass(frozen=True)
class Link:
    """How chained request ``r{i}`` is enabled by an earlier request ``r{parent}``."""

    parent: int
    on_failure: bool  # enabled by the parent's failure (input: its argument), else by its result
    guard: int | None  # ... and only while request ``r{guard}`` has no failed receipt


@dataclass(frozen=True)
class Episode:
    seeds: tuple[int, ...]
    tools: tuple[ToolSpec, ...]
    links: tuple[Link, ...]  # one per request after r0
    orders: tuple[int, ...]
    query: bool
    workflow: tuple[str, int, int] | None  # ("result", request, threshold) | ("count", 0, n)
    open_world: bool
    max_actions: int

    def source(self) -> str:
        lines = ["world open." if self.open_world else "// closed world"]
        lines += [f"seed({s})." for s in self.seeds]
        lines.append(f"external r0(?X) using t0[x -> ?X; tool#order -> {self.orders[0]}] "
                     "<- seed(?X).")
        for i, link in enumerate(self.links, start=1):
            head = f"external r{i}(?V) using t{i}[x -> ?V; tool#order -> {self.orders[i]}]"
            if link.on_failure:
                body = f'r{link.parent}(?V)[tool#status -> "failed"]'
            else:
                body = (f'r{link.parent}(?_A)[tool#status -> "succeeded"; '
                        'result("y") -> ?V]')
            if link.guard is not None:
                body += f' AND NOT r{link.guard}(?)[tool#status -> "failed"]'
            lines.append(f"{head} <- {body}.")
        if self.query:
            order = max(self.orders) + 1
            lines.append(f"external q(?X) using _query[query -> \"?- r0(?A)[result(\\\"y\\\")"
                         f" -> ?Y].\"; tool#order -> {order}] <- seed(?X).")
        if self.workflow is not None:
            kind, index, bound = self.workflow
            if kind == "result":
                lines.append(f"workflow[status -> done] <- r{index}(?_A)[result(\"y\") -> ?Y] "
                             f"AND ?Y >= {bound}.")
            else:
                lines.append("workflow[status -> enough] <- ?C = count{?R | "
                             f"?R[tool#completed -> true]}} AND ?C >= {bound}.")
        for i in range(len(self.tools)):
            lines.append(f"?- r{i}(?A)[tool#status -> ?S].")
            lines.append(f"?- r{i}(?A)[result(\"y\") -> ?Y].")
        lines.append("?- workflow[status -> ?S].")
        return "\n".join(lines) + "\n"

    def registry(self, counter: Counter[str]) -> ToolRegistry:
        registry = ToolRegistry()
        lock = threading.Lock()
        for i, spec in enumerate(self.tools):
            registry.register(f"t{i}", _tool(f"t{i}", spec, counter, lock), "generated")
        return registry


def _tool(name: str, spec: ToolSpec, counter: Counter[str],
          lock: threading.Lock) -> Callable[..., object]:
    def tool(x: int) -> tuple[dict[str, object], dict[str, object]]:
        with lock:
            counter[f"{name}({x})"] += 1
        time.sleep(((x * 7 + spec.add) % 4) / 1000)
        if spec.fail_every is not None and x % spec.fail_every == 0:
            raise ValueError(f"{name} refuses {x}")
        y = (spec.mul * x + spec.add) % spec.mod
        return {"y": y, "label": f"{name}:{x}->{y}", "even": y % 2 == 0,
                "nothing": None}, {"tool": name, "x": x}

    return tool


tool_specs = st.builds(ToolSpec, mul=st.integers(1, 9), add=st.integers(0, 20),
                       mod=st.integers(5, 40),
                       fail_every=st.one_of(st.none(), st.integers(2, 7)))


@st.composite
def episodes(draw: st.DrawFn) -> Episode:
    n = draw(st.integers(2, 4))
    tools = tuple(draw(st.lists(tool_specs, min_size=n, max_size=n)))
    links = []
    for i in range(1, n):
        guard = draw(st.one_of(st.none(), st.integers(0, n - 2)))  # any request but r{i}
        links.append(Link(draw(st.integers(0, i - 1)), draw(st.booleans()),
                          None if guard is None else guard + (guard >= i)))
    orders = tuple(draw(st.lists(st.integers(1, 60), min_size=n, max_size=n, unique=True)))
    seeds = tuple(draw(st.lists(st.integers(0, 30), min_size=1, max_size=3, unique=True)))
    workflow = draw(st.one_of(
        st.none(),
        st.tuples(st.just("result"), st.integers(0, n - 1), st.integers(0, 15)),
        st.tuples(st.just("count"), st.just(0), st.integers(1, 6)),
    ))
    return Episode(seeds, tools, tuple(links), orders, draw(st.booleans()), workflow,
                   draw(st.booleans()), draw(st.sampled_from([32, 32, 1, 2, 3, 5])))


def live(ep: Episode, folder: Path, *, parallel: int = 1, incremental: bool = True,
         counter: Counter[str] | None = None) -> tuple[EpisodeResult, str]:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / "gen.fx"
    program.write_text(ep.source())
    out = folder / "gen.receipts.fx"
    result = run_episode(program, receipts_out=out, registry=ep.registry(counter or Counter()),
                         max_actions=ep.max_actions, parallel=parallel, tool_timeout=30,
                         incremental=incremental)
    return result, out.read_text()


def completed_in_file(text: str) -> list[str]:
    """Request identities in the order their completion receipts were appended."""
    return [line.split("[", 1)[0] for line in text.splitlines()
            if "tool#completed -> true" in line]


def answers(result: EpisodeResult) -> list[dict[str, object]]:
    return [a.as_json() for a in result.answers]


@SETTINGS
@given(episodes())
def test_replay_recomputes_the_live_run(ep: Episode) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        counter: Counter[str] = Counter()
        result, text = live(ep, Path(tmp), counter=counter)
        assert all(n == 1 for n in counter.values()), counter  # each identity at most once
        assert result.actions == len(result.executed) <= ep.max_actions
        assert completed_in_file(text) == result.executed
        path = Path(tmp) / "gen.receipts.fx"
        assert recorded_end(path) == (result.end_reason, result.status)

        calls_before = sum(counter.values())
        again = replay(Path(tmp) / "gen.fx", [path])
        assert sum(counter.values()) == calls_before
        assert path.read_text() == text
        assert again.executed == [] and again.actions == 0
        assert answers(again) == answers(result)
        assert again.status == result.status
        assert again.pending == result.pending
        expected_end = "pending" if result.end_reason == "action_limit" else result.end_reason
        assert again.end_reason == expected_end


@SETTINGS
@given(episodes())
def test_two_live_runs_write_the_same_receipts(ep: Episode) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        first, text1 = live(ep, Path(tmp) / "a")
        second, text2 = live(ep, Path(tmp) / "b")
        assert _TIMING.sub("<t>", text1) == _TIMING.sub("<t>", text2)
        assert first.executed == second.executed
        assert (first.end_reason, first.status) == (second.end_reason, second.status)
        assert answers(first) == answers(second)


@SETTINGS
@given(episodes())
def test_parallel_execution_writes_the_same_receipts(ep: Episode) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sequential, text1 = live(ep, Path(tmp) / "seq")
        concurrent, text4 = live(ep, Path(tmp) / "par", parallel=4)
        assert _TIMING.sub("<t>", text1) == _TIMING.sub("<t>", text4)
        assert sequential.executed == concurrent.executed
        assert (sequential.end_reason, sequential.status) == \
            (concurrent.end_reason, concurrent.status)
        assert answers(sequential) == answers(concurrent)


@SETTINGS
@given(episodes())
def test_incremental_steps_match_full_solves(ep: Episode) -> None:
    """The host's incremental solver decides exactly as re-solving from scratch."""
    with tempfile.TemporaryDirectory() as tmp:
        stepped, text1 = live(ep, Path(tmp) / "inc")
        fresh, text2 = live(ep, Path(tmp) / "full", incremental=False)
        assert _TIMING.sub("<t>", text1) == _TIMING.sub("<t>", text2)
        assert stepped.executed == fresh.executed and stepped.pending == fresh.pending
        assert (stepped.end_reason, stepped.status) == (fresh.end_reason, fresh.status)
        assert answers(stepped) == answers(fresh)


@SETTINGS
@given(episodes())
def test_resuming_after_the_action_limit(ep: Episode) -> None:
    """A second run appends to the first one's file; nothing runs twice, and the
    resumed run (incremental, on loaded receipts) matches a from-scratch resume."""
    import shutil

    with tempfile.TemporaryDirectory() as tmp:
        counter: Counter[str] = Counter()
        first, text1 = live(ep, Path(tmp) / "a", counter=counter)
        shutil.copytree(Path(tmp) / "a", Path(tmp) / "b")
        program, out = Path(tmp) / "a" / "gen.fx", Path(tmp) / "a" / "gen.receipts.fx"
        resumed = run_episode(program, registry=ep.registry(counter), tool_timeout=30)
        text2 = out.read_text()
        assert text2.startswith(text1)
        assert all(n == 1 for n in counter.values()), counter
        if first.end_reason != "action_limit":
            assert resumed.executed == []
        assert not [w for w in resumed.warnings if w.code == "W-RECEIPT-DUPLICATE"]
        fresh = run_episode(Path(tmp) / "b" / "gen.fx", registry=ep.registry(Counter()),
                            tool_timeout=30, incremental=False)
        assert _TIMING.sub("<t>", text2) == \
            _TIMING.sub("<t>", (Path(tmp) / "b" / "gen.receipts.fx").read_text())
        assert (resumed.end_reason, resumed.status, resumed.executed) == \
            (fresh.end_reason, fresh.status, fresh.executed)
        again = replay(program, [out])
        assert answers(again) == answers(resumed) == answers(fresh)
        assert again.pending == resumed.pending
