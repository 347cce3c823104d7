"""Resuming and appending, the JSON schemas, ``replay --check``, hooks and ``execute``."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from fxlog import Client
from fxlog.reasoner import Request
from fxlog.tools import Hooks, ToolError, execute, replay, run_episode
from fxlog.tools.host import recorded_end
from fxlog.tools.receipt_log import HEADER

Cli = Callable[..., Result]

RUN_KEYS = {"end_reason", "status", "actions", "executed", "receipts_written",
            "receipts_path", "pending", "answers", "diagnostics"}
END_REASONS = {"workflow", "quiescence", "action_limit", "pending"}


# ------------------------------------------------------------------------ appending
def test_existing_receipts_are_resumed_never_overwritten(
        copy_data: Callable[[str], Path], side: Path, calls: Callable[[], list[str]],
        adapter: Callable[[str], str], timing_free: Callable[[str], str]) -> None:
    program = copy_data("countdown.fx")
    out = program.with_name("log.fx")
    run_episode(program, receipts_out=out, adapters=[adapter("counting")], max_actions=3)
    before = out.read_bytes()
    result = run_episode(program, receipts_out=out, adapters=[adapter("counting")])
    after = out.read_bytes()
    assert after.startswith(before)
    assert result.executed == ["step(4)", "step(5)"]
    assert (result.end_reason, result.status) == ("workflow", "done")
    assert calls() == [f"step {n}" for n in range(1, 6)]
    assert after.decode().count(HEADER) == 1
    seqs = [line.split("tool#seq -> ")[1].split(";")[0] for line in after.decode().splitlines()
            if "tool#completed" in line]
    assert seqs == ["1", "2", "3", "4", "5"]  # numbering continues across runs


def test_a_second_run_of_a_finished_episode_runs_nothing(
        copy_data: Callable[[str], Path], side: Path, calls: Callable[[], list[str]],
        adapter: Callable[[str], str], cli: Cli) -> None:
    program = copy_data("countdown.fx")
    first = cli("run", program, "--adapter", adapter("counting"), "--format", "json")
    assert first.exit_code == 0, first.output
    receipts = program.with_name("countdown.receipts.fx")
    facts_before = [line for line in receipts.read_text().splitlines()
                    if not line.startswith("//")]
    second = cli("run", program, "--adapter", adapter("counting"), "--format", "json")
    assert second.exit_code == 0, second.output
    out = json.loads(second.stdout)
    assert (out["actions"], out["executed"], out["receipts_written"]) == (0, [], 0)
    assert (out["end_reason"], out["status"]) == ("workflow", "done")
    facts_after = [line for line in receipts.read_text().splitlines()
                   if not line.startswith("//")]
    assert facts_after == facts_before
    assert len(calls()) == 5


def test_explicit_receipts_argument_and_separate_output(
        copy_data: Callable[[str], Path], side: Path, adapter: Callable[[str], str]) -> None:
    program = copy_data("countdown.fx")
    part = program.with_name("part1.fx")
    run_episode(program, receipts_out=part, adapters=[adapter("counting")], max_actions=2)
    rest = program.with_name("part2.fx")
    result = run_episode(program, [part], receipts_out=rest, adapters=[adapter("counting")])
    assert result.executed == ["step(3)", "step(4)", "step(5)"]
    assert "step(1)[tool#completed" not in rest.read_text()
    again = replay(program, [part, rest])
    assert (again.end_reason, again.status, again.pending) == ("workflow", "done", [])


def test_missing_receipts_file_is_a_usage_error(copy_data: Callable[[str], Path],
                                                cli: Cli) -> None:
    program = copy_data("tool-query.fx")
    result = cli("replay", program, program.with_name("nope.receipts.fx"))
    assert result.exit_code == 2 and "nope.receipts.fx" in result.stderr


# ---------------------------------------------------------------------- JSON schemas
def check_episode_json(out: dict[str, object]) -> None:
    assert set(out) == RUN_KEYS
    assert out["end_reason"] in END_REASONS
    assert out["status"] is None or isinstance(out["status"], str)
    assert isinstance(out["actions"], int) and isinstance(out["receipts_written"], int)
    assert out["receipts_path"] is None or isinstance(out["receipts_path"], str)
    for key in ("executed", "pending"):
        value = out[key]
        assert isinstance(value, list) and all(isinstance(x, str) for x in value)
    answers = out["answers"]
    assert isinstance(answers, list)
    for answer in answers:
        assert set(answer) == {"query", "truth", "bindings", "pending"}
        assert answer["truth"] in {"true", "false", "unknown"}
        for binding in answer["bindings"]:
            assert set(binding) == {"vars", "truth"}
            assert all(isinstance(v, str) for v in binding["vars"].values())
    diagnostics = out["diagnostics"]
    assert isinstance(diagnostics, list)
    for d in diagnostics:
        assert {"code", "severity", "file", "line", "column", "message"} <= set(d)


def test_run_and_replay_json_schema(copy_data: Callable[[str], Path], side: Path,
                                    adapter: Callable[[str], str], cli: Cli) -> None:
    program = copy_data("countdown.fx")
    receipts = program.with_name("countdown.receipts.fx")
    run = cli("run", program, "--adapter", adapter("counting"), "--max-actions", "3",
              "--format", "json")
    assert run.exit_code == 0, run.output
    out = json.loads(run.stdout)
    check_episode_json(out)
    assert out == {**out, "end_reason": "action_limit", "status": None, "actions": 3,
                   "executed": ["step(1)", "step(2)", "step(3)"], "receipts_written": 3,
                   "receipts_path": str(receipts), "pending": ["step(4)", "step(5)"]}
    [answer] = out["answers"]
    assert answer["query"] == "?- step(?N)[tool#status -> ?S]."
    assert {"vars": {"N": "1", "S": '"succeeded"'}, "truth": "true"} in answer["bindings"]

    rep = cli("replay", program, receipts, "--format", "json")
    assert rep.exit_code == 0, rep.output
    back = json.loads(rep.stdout)
    check_episode_json(back)
    assert back == {**back, "end_reason": "pending", "status": None, "actions": 0,
                    "executed": [], "receipts_written": 0, "receipts_path": None,
                    "pending": ["step(4)", "step(5)"]}
    assert back["answers"] == out["answers"]


# ------------------------------------------------------------------- replay --check
def test_replay_check(copy_data: Callable[[str], Path], side: Path,
                      adapter: Callable[[str], str], cli: Cli) -> None:
    program = copy_data("countdown.fx")
    receipts = program.with_name("countdown.receipts.fx")
    cli("run", program, "--adapter", adapter("counting"), "--max-actions", "2")
    pending = cli("replay", program, receipts, "--check")
    assert pending.exit_code == 1
    assert "still pending: step(3), step(4), step(5)" in pending.stderr

    cli("run", program, "--adapter", adapter("counting"))
    assert recorded_end(receipts) == ("workflow", "done")
    ok = cli("replay", program, receipts, "--check")
    assert ok.exit_code == 0, ok.output
    ok_json = cli("replay", program, receipts, "--check", "--format", "json")
    assert ok_json.exit_code == 0 and json.loads(ok_json.stdout)["end_reason"] == "workflow"

    changed = program.with_name("changed.fx")  # same requests, no workflow rule
    changed.write_text("\n".join(line for line in program.read_text().splitlines()
                                 if not line.startswith("workflow")) + "\n")
    differs = cli("replay", changed, receipts, "--check")
    assert differs.exit_code == 1
    assert "workflow" in differs.stderr and "quiescence" in differs.stderr


def test_replay_check_without_a_recorded_end(copy_data: Callable[[str], Path],
                                             cli: Cli) -> None:
    program = copy_data("tool-query.fx")
    receipts = Path(run_episode(program).receipts_path or "")
    receipts.write_text("".join(line for line in receipts.read_text().splitlines(True)
                                if "episode end" not in line))
    result = cli("replay", program, receipts, "--check")
    assert result.exit_code == 1 and "no finished run" in result.stderr


# ----------------------------------------------------------------------------- hooks
def test_hooks_are_called_once_per_executed_request(copy_data: Callable[[str], Path],
                                                    side: Path,
                                                    adapter: Callable[[str], str]) -> None:
    program = copy_data("countdown.fx")
    starts: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    lines: dict[str, str] = {}
    lock = threading.Lock()

    def on_start(request: Request) -> None:
        with lock:
            starts[request.text] += 1

    def on_end(request: Request, line: str) -> None:
        ends[request.text] += 1
        lines[request.text] = line

    hooks = Hooks(on_request_start=on_start, on_request_end=on_end)
    first = run_episode(program, adapters=[adapter("counting")], hooks=hooks, max_actions=4,
                        parallel=4)
    second = run_episode(program, adapters=[adapter("counting")], hooks=hooks)
    executed = first.executed + second.executed
    assert starts == Counter(executed) == ends
    assert set(starts.values()) == {1} and len(executed) == 5
    receipts = Path(first.receipts_path or "").read_text()
    for text, line in lines.items():
        assert line.startswith(text + "[tool#completed -> true") and line in receipts


def test_hooks_see_fan_out_requests_in_parallel(tmp_path: Path) -> None:
    from fxlog.tools import ToolRegistry

    program = tmp_path / "fan.fx"
    program.write_text("".join(f"n({i}).\n" for i in range(6))
                       + "external f(?N) using t[x -> ?N; tool#order -> 1] <- n(?N).\n")
    barrier = threading.Barrier(3, timeout=20)
    registry = ToolRegistry()

    def tool(x: int) -> tuple[dict[str, object], dict[str, object]]:
        if x < 3:
            barrier.wait()  # only returns if three calls run at the same time
        return {"x": x}, {}

    registry.register("t", tool)
    started: list[str] = []
    hooks = Hooks(on_request_start=lambda r: started.append(r.text))
    result = run_episode(program, registry=registry, parallel=3, hooks=hooks)
    assert sorted(started) == sorted(result.executed) == [f"f({i})" for i in range(6)]
    assert 'tool#status -> "failed"' not in Path(result.receipts_path or "").read_text()


# --------------------------------------------------------------------------- execute
def test_execute_query_directly() -> None:
    with Client() as client:
        client.load("world open. socrates:Human. plato:Human.")
        output, evidence = execute("_query", {"query": "?- socrates:Human."}, client=client)
        assert output == {"status": "true"}
        assert evidence["query"] == "?- socrates:Human." and "elapsed_ms" in evidence
        output, _ = execute("_query", {"query": "?- zeus:Human."}, client=client)
        assert output == {"status": "false"}
        output, _ = execute("_query", {"query": "?- ?X:Human."}, client=client)
        assert output["status"] == "true"
        assert sorted(r["X"] for r in output["rows"]) == ["plato", "socrates"]  # type: ignore[attr-defined]
        assert output["count"] == 2 and output["truncated"] is False


@pytest.mark.parametrize(("query", "error_type"), [
    ("?- socrates:.", "invalid_query"),
    ("?- p(?X) ; q(?X).", "invalid_query"),
    ("", "invalid_input"),
    (None, "invalid_input"),
])
def test_execute_bad_query_raises_tool_error(query: object, error_type: str) -> None:
    with Client() as client:
        client.load("socrates:Human.")
        with pytest.raises(ToolError) as info:
            execute("_query", {"query": query}, client=client)
    assert info.value.type == error_type


def test_execute_needs_a_knowledge_base_and_a_registered_tool() -> None:
    from fxlog.errors import UsageError

    with pytest.raises(UsageError, match="knowledge base"):
        execute("_query", {"query": "?- p."})
    with pytest.raises(UsageError, match="not registered"):
        execute("no_such_tool", {})


def test_execute_runs_registered_functions_without_receipts(tmp_path: Path) -> None:
    from fxlog.tools import ToolRegistry

    registry = ToolRegistry()
    registry.register("add", lambda a, b: ({"sum": a + b}, {"how": "python"}))
    registry.register("bad", lambda: [1])
    assert execute("add", {"a": 2, "b": 3}, registry=registry) == ({"sum": 5}, {"how": "python"})
    with pytest.raises(ToolError) as info:
        execute("bad", {}, registry=registry)
    assert info.value.type == "invalid_output"
    assert list(tmp_path.iterdir()) == []


def test_query_rows_in_an_episode(tmp_path: Path) -> None:
    program = tmp_path / "rows.fx"
    program.write_text('socrates:Human. plato:Human.\n'
                       'external who(1) using _query[query -> "?- ?P:Human."; '
                       'tool#order -> 1].\n'
                       '?- who(1)[row(?N, "P") -> ?P].\n'
                       '?- who(1)[result("count") -> ?C].\n')
    result = run_episode(program)
    rows, count = result.answers
    assert sorted(b.text("P") for b in rows.bindings) == ['"plato"', '"socrates"']
    assert [b.text("C") for b in count.bindings] == ["2"]


# --------------------------------------------------------------- where receipts go
@pytest.mark.parametrize("where", ["missing-folder", "a-folder"])
def test_unusable_receipts_out_is_a_usage_error(copy_data: Callable[[str], Path], cli: Cli,
                                                where: str) -> None:
    """A bad --receipts-out is the caller's mistake: exit 2 and a message, no traceback."""
    program = copy_data("tool-query.fx")
    out = program.parent / "no" / "such" / "r.fx" if where == "missing-folder" \
        else program.parent
    result = cli("run", program, "--receipts-out", out)
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert str(out) in result.stderr


def test_one_writer_per_receipts_file(copy_data: Callable[[str], Path]) -> None:
    from fxlog.errors import UsageError
    from fxlog.tools.receipts import ReceiptLog

    program = copy_data("tool-query.fx")
    out = program.with_name("tool-query.receipts.fx")
    with ReceiptLog(out), pytest.raises(UsageError, match="another process"):
        run_episode(program)
    assert run_episode(program).executed == ["checkHuman(socrates)"]


def test_a_torn_last_line_is_ignored_and_the_call_recorded_as_interrupted(
        copy_data: Callable[[str], Path], side: Path, calls: Callable[[], list[str]],
        adapter: Callable[[str], str]) -> None:
    """A crash in the middle of writing step(2)'s receipt: the line is dropped with a
    warning, step(2) is not run again, and the episode finishes."""
    program = copy_data("countdown.fx")
    first = run_episode(program, adapters=[adapter("counting")], max_actions=2)
    receipts = Path(first.receipts_path or "")
    lines = [line for line in receipts.read_text().splitlines(True) if "episode end" not in line]
    lines[-1] = lines[-1][: len(lines[-1]) // 2]  # no newline: the write never finished
    receipts.write_text("".join(lines))
    result = run_episode(program, adapters=[adapter("counting")])
    assert [w.code for w in result.warnings] == ["W-RECEIPT-PARTIAL"]
    assert (result.end_reason, result.status) == ("workflow", "done")
    assert result.executed == ["step(3)", "step(4)", "step(5)"]
    assert calls() == [f"step {n}" for n in range(1, 6)]
    [step2] = [b for b in result.answers[0].bindings if b.text("N") == "2"]
    assert step2.text("S") == '"failed"'
    text = receipts.read_text()
    assert 'step(2)[tool#completed -> true; tool#status -> "failed"' in text
    assert 'error("type") -> "interrupted"' in text
    again = replay(program, [receipts])
    assert (again.end_reason, again.pending) == ("workflow", [])
