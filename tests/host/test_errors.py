"""States the host must refuse, limits, and output that tries to become program text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

from fxlog.errors import FxlogError, ProgramError, UsageError
from fxlog.tools import ToolRegistry, replay, run_episode
from fxlog.tools.host import EpisodeError
from fxlog.tools.receipt_log import load_receipts

Cli = Callable[..., Result]


# ------------------------------------------------------------------ order conflicts
@pytest.mark.parametrize(("name", "why"), [
    ("order_conflict.fx", "no tool#order"),
    ("order_same.fx", "the same tool#order 5"),
])
def test_order_conflict_names_both_requests_and_declarations(
        copy_data: Callable[[str], Path], side: Path, calls: Callable[[], list[str]],
        adapter: Callable[[str], str], cli: Cli, name: str, why: str) -> None:
    program = copy_data(name)
    with pytest.raises(EpisodeError) as info:
        run_episode(program, adapters=[adapter("counting")])
    message = info.value.message
    assert why in message
    for request, line in (("alpha(1)", 2), ("beta(1)", 3)):
        assert request in message
        assert f"{program}:{line}:1" in message  # the declaration that derived it
        assert f"external {request} using count" in message
    assert "tool#order" in message
    assert calls() == []  # refused before anything ran

    result = cli("run", program, "--adapter", adapter("counting"))
    assert result.exit_code == 1
    assert "alpha(1)" in result.stderr and "beta(1)" in result.stderr
    assert "Traceback" not in result.output


def test_same_name_same_order_is_one_step(tmp_path: Path) -> None:
    """Requests with one name share a step: no conflict, run in text order."""
    program = tmp_path / "fan.fx"
    program.write_text("n(3). n(1). n(2).\n"
                       "external f(?N) using t[x -> ?N; tool#order -> 1] <- n(?N).\n")
    registry = ToolRegistry()
    registry.register("t", lambda x: ({"x": x}, {}))
    result = run_episode(program, registry=registry)
    assert result.executed == ["f(1)", "f(2)", "f(3)"]


def test_lowest_order_runs_first(tmp_path: Path) -> None:
    program = tmp_path / "ord.fx"
    program.write_text("go.\n"
                       "external late(1) using t[x -> 1; tool#order -> 10] <- go.\n"
                       "external early(1) using t[x -> 2; tool#order -> 2.5] <- go.\n"
                       "external middle(1) using t[x -> 3; tool#order -> 7] <- go.\n")
    registry = ToolRegistry()
    registry.register("t", lambda x: ({"x": x}, {}))
    result = run_episode(program, registry=registry)
    assert result.executed == ["early(1)", "middle(1)", "late(1)"]


# ------------------------------------------------------------------- action limit
def test_action_limit_stops_and_resume_continues(
        copy_data: Callable[[str], Path], side: Path, calls: Callable[[], list[str]],
        adapter: Callable[[str], str]) -> None:
    program = copy_data("countdown.fx")
    first = run_episode(program, adapters=[adapter("counting")], max_actions=2)
    assert (first.end_reason, first.actions) == ("action_limit", 2)
    assert first.executed == ["step(1)", "step(2)"]
    assert first.pending == ["step(3)", "step(4)", "step(5)"]
    second = run_episode(program, adapters=[adapter("counting")], max_actions=2)
    assert second.executed == ["step(3)", "step(4)"]
    third = run_episode(program, adapters=[adapter("counting")], max_actions=2)
    assert (third.end_reason, third.status, third.executed) == ("workflow", "done", ["step(5)"])
    assert calls() == [f"step {n}" for n in range(1, 6)]


def test_default_action_limit_is_32(tmp_path: Path) -> None:
    program = tmp_path / "many.fx"
    program.write_text("".join(f"n({i}).\n" for i in range(40))
                       + "external f(?N) using t[x -> ?N; tool#order -> 1] <- n(?N).\n")
    registry = ToolRegistry()
    registry.register("t", lambda x: ({"x": x}, {}))
    result = run_episode(program, registry=registry)
    assert (result.end_reason, result.actions, len(result.pending)) == ("action_limit", 32, 8)


def test_max_actions_zero_runs_nothing(cli: Cli, copy_data: Callable[[str], Path], side: Path,
                                       calls: Callable[[], list[str]],
                                       adapter: Callable[[str], str]) -> None:
    program = copy_data("countdown.fx")
    result = cli("run", program, "--adapter", adapter("counting"), "--max-actions", "0",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["end_reason"], out["actions"], out["executed"]) == ("action_limit", 0, [])
    assert calls() == []


# --------------------------------------------------------------- two workflow statuses
def test_two_workflow_statuses_are_an_error(copy_data: Callable[[str], Path], side: Path,
                                            adapter: Callable[[str], str], cli: Cli) -> None:
    program = copy_data("two_statuses.fx")
    with pytest.raises(EpisodeError, match="more than one workflow status: done, failed"):
        run_episode(program, adapters=[adapter("counting")])
    receipts = program.with_name("two_statuses.receipts.fx")
    assert 'ping(1)[tool#completed -> true' in receipts.read_text()  # the receipt is kept
    result = cli("replay", program, receipts)
    assert result.exit_code == 1
    assert "more than one workflow status" in result.stderr
    assert "Traceback" not in result.output


# ------------------------------------------------------------- unknown tools, adapters
def test_unknown_tool_is_refused_before_any_tool_runs(
        copy_data: Callable[[str], Path], side: Path, calls: Callable[[], list[str]],
        adapter: Callable[[str], str], cli: Cli) -> None:
    program = copy_data("unknown_tool.fx")
    with pytest.raises(UsageError) as info:
        run_episode(program, adapters=[adapter("counting")])
    assert "tool `cuont` is not registered" in info.value.message
    assert "did you mean `count`?" in info.value.message
    assert f"{program}:3:1" in info.value.message
    assert calls() == []  # `first` is runnable but nothing ran
    assert not program.with_name("unknown_tool.receipts.fx").exists()
    result = cli("run", program, "--adapter", adapter("counting"))
    assert result.exit_code == 2
    assert "cuont" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(("spec", "fragment"), [
    ("missing_adapter.py", "no such file"),
    ("no_tools", "TOOLS"),
    ("fxlog_host_tests_no_such_module", "no such module"),
])
def test_bad_adapters_are_usage_errors(cli: Cli, copy_data: Callable[[str], Path],
                                       adapter: Callable[[str], str], spec: str,
                                       fragment: str) -> None:
    program = copy_data("countdown.fx")
    if spec == "no_tools":
        spec = adapter("no_tools")
    elif spec.endswith(".py"):
        spec = str(program.with_name(spec))
    with pytest.raises(UsageError, match=fragment):
        run_episode(program, adapters=[spec])
    result = cli("run", program, "--adapter", spec)
    assert result.exit_code == 2
    assert f"adapter {spec}" in result.stderr and fragment in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("source", "fragment"), [
    ("raise RuntimeError('no credentials')\n", "importing it failed: RuntimeError"),
    ("TOOLS = {'t': 42}\n", "is not callable"),
    ("TOOLS = [print]\n", "TOOLS"),
    ("TOOLS = {'': print}\n", "non-empty"),
])
def test_broken_adapter_files(tmp_path: Path, cli: Cli, copy_data: Callable[[str], Path],
                              source: str, fragment: str) -> None:
    bad = tmp_path / "broken_adapter.py"
    bad.write_text(source)
    with pytest.raises(UsageError, match=fragment):
        ToolRegistry().load_adapter(str(bad))
    result = cli("run", copy_data("countdown.fx"), "--adapter", bad)
    assert result.exit_code == 2 and fragment in result.stderr


def test_two_adapters_cannot_register_one_name(adapter: Callable[[str], str]) -> None:
    registry = ToolRegistry()
    registry.load_adapter(adapter("counting"))
    with pytest.raises(UsageError, match="already registered"):
        registry.load_adapter(adapter("counting"))


def test_adapter_cannot_shadow_builtins(tmp_path: Path) -> None:
    bad = tmp_path / "shadow.py"
    bad.write_text("TOOLS = {'_query': lambda query: ({}, {})}\n")
    with pytest.raises(UsageError, match="reserved"):
        ToolRegistry().load_adapter(str(bad))


# ---------------------------------------------------------------- receipts injection
@pytest.mark.parametrize("injected", [
    "evil(x) :- true.",
    "evil(x) <- p(1).",
    "?- evil(x).",
    'external evil(x) using _query[query -> "?- p."] <- p(1).',
    "world open.",
    "p(?X).",
])
def test_receipts_with_program_text_are_refused(copy_data: Callable[[str], Path], cli: Cli,
                                                injected: str) -> None:
    program = copy_data("tool-query.fx")
    live = run_episode(program)
    receipts = Path(live.receipts_path or "")
    with receipts.open("a") as handle:
        handle.write(injected + "\n")
    with pytest.raises(ProgramError) as info:
        load_receipts(receipts)
    assert [d.code for d in info.value.diagnostics if d.severity == "error"] == ["E-RECEIPT"]
    with pytest.raises(ProgramError):
        replay(program, [receipts])
    result = cli("replay", program, receipts)
    assert result.exit_code == 1
    assert "E-RECEIPT" in result.stderr and "Traceback" not in result.output
    with pytest.raises(FxlogError):  # resuming refuses the file too
        run_episode(program)


def test_injected_rule_in_the_middle_is_refused(copy_data: Callable[[str], Path]) -> None:
    program = copy_data("tool-query.fx")
    receipts = Path(run_episode(program).receipts_path or "")
    lines = receipts.read_text().splitlines(keepends=True)
    lines.insert(1, "evil(x) :- true.\n")
    receipts.write_text("".join(lines))
    with pytest.raises(ProgramError, match="a rule in a receipts file"):
        load_receipts(receipts)


def test_tool_output_cannot_become_program_text(copy_data: Callable[[str], Path], side: Path,
                                                adapter: Callable[[str], str]) -> None:
    program = copy_data("evil.fx")
    result = run_episode(program, adapters=[adapter("failing")])
    receipts = Path(result.receipts_path or "")
    loaded = load_receipts(receipts)  # the receipt is plain facts
    assert loaded.warnings == ()
    evil_x, evil_y, text = result.answers
    assert evil_x.truth == "false" and evil_y.truth == "false"
    assert [b.values["T"].value for b in text.bindings] == ['"]. evil(x) :- true.']  # type: ignore[attr-defined]
    again = replay(program, [receipts])
    assert [a.truth for a in again.answers] == ["false", "false", "true"]
    body = receipts.read_text()
    assert "\nevil(" not in body and body.count("\n") == 4  # header, marker, receipt, end
