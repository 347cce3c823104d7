"""``fxlog check`` static analysis: derivability, statuses, order conflicts, limits, schemas."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from fxlog.analysis import analyze, reachability
from fxlog.cli_extra import check_analysis
from fxlog.errors import Diagnostic
from fxlog.tools.registry import ToolRegistry

from .conftest import DATA, EXAMPLE, ORDERS, load


def registry(*adapters: Path) -> ToolRegistry:
    reg = ToolRegistry()
    for path in adapters:
        reg.load_adapter(str(path))
    return reg


def where(d: Diagnostic) -> tuple[str, int, int]:
    return d.code, d.span.line, d.span.column


def test_seeded_result_typo_is_found_with_location_and_hint() -> None:
    found = analyze(load(DATA / "typo.fx"), registry(DATA / "probe_tools.py"))
    typo = next(d for d in found if d.code == "W-RESULT-UNKNOWN")
    assert (typo.span.file, typo.span.line, typo.span.column) == ("tests/graph/data/typo.fx", 4, 56)
    assert '"stauts"' in typo.message and "latency_ms, status" in typo.message
    assert typo.hint == "did you mean `status`?"
    unknown_input = next(d for d in found if d.code == "W-INPUT-UNKNOWN")
    assert where(unknown_input) == ("W-INPUT-UNKNOWN", 3, 44)
    assert "`retries`" in unknown_input.message and "host, timeout" in unknown_input.message


def test_no_schema_findings_without_registry() -> None:
    codes = {d.code for d in analyze(load(DATA / "typo.fx"))}
    assert "W-RESULT-UNKNOWN" not in codes and "W-INPUT-UNKNOWN" not in codes


def test_unknown_tool_and_missing_input(tmp_path: Path) -> None:
    program = tmp_path / "p.fx"
    program.write_text('go.\nexternal a(1) using prob[host -> "x"] <- go.\n'
                       'external b(1) using probe[timeout -> 2; tool#order -> 2] <- go.\n')
    from fxlog.reasoner import KnowledgeBase

    kb = KnowledgeBase()
    kb.add_text(program.read_text(), "p.fx")
    found = analyze(kb, registry(DATA / "probe_tools.py"))
    tool = next(d for d in found if d.code == "W-TOOL-UNKNOWN")
    assert tool.span.line == 2 and tool.hint == "did you mean `probe`?"
    missing = next(d for d in found if d.code == "W-INPUT-MISSING")
    assert missing.span.line == 3 and "`host`" in missing.message


def test_order_conflicts_error_at_start_warning_later() -> None:
    found = [d for d in analyze(load(DATA / "conflict.fx")) if "ORDER" in d.code]
    assert [where(d) for d in found] == [("E-ORDER-CONFLICT", 5, 1), ("W-ORDER-CONFLICT", 8, 1)]
    assert found[0].severity == "error"
    assert "`alpha(1)` and `beta(1)`" in found[0].message
    assert "conflict.fx:6:1" in found[0].message
    assert "`review(1)` and `notify(1)`" in found[1].message


def test_never_derived_and_unreachable_status(tmp_path: Path) -> None:
    from fxlog.reasoner import KnowledgeBase

    kb = KnowledgeBase()
    kb.add_text('go.\nexternal a(1) using t[tool#order -> 1] <- go.\n'
                'external b(1) using t[tool#order -> 2] <- a(1)[tool#status -> "done"].\n'
                'workflow[status -> ok] <- a(1)[tool#status -> "succeeded"].\n'
                'workflow[status -> late] <- b(1)[tool#completed -> true].\n', "d.fx")
    found = analyze(kb)
    assert [where(d) for d in found] == [("W-NEVER-DERIVED", 3, 1),
                                         ("W-STATUS-UNREACHABLE", 5, 20)]
    reach = reachability(kb)
    assert reach.method == "open-world" and reach.statuses == {"ok"}
    assert reach.requests == {0: ("a(1)",)}


def test_unbounded_family_exceeds_action_limit() -> None:
    found = analyze(load(DATA / "unbounded.fx"))
    limit = next(d for d in found if d.code == "W-ACTION-LIMIT")
    assert limit.span.line == 4 and "unbounded" in limit.message


def test_bounded_family_above_limit(tmp_path: Path) -> None:
    from fxlog.reasoner import KnowledgeBase

    kb = KnowledgeBase()
    facts = " ".join(f"n({i})." for i in range(1, 6))
    kb.add_text(facts + "\nexternal s(?N) using t[tool#order -> ?N] <- n(?N).\n", "s.fx")
    assert not analyze(kb, max_actions=5)
    limit = analyze(kb, max_actions=4)
    assert [d.code for d in limit] == ["W-ACTION-LIMIT"] and "up to 5" in limit[0].message


def test_three_step_example_is_clean() -> None:
    assert analyze(load(EXAMPLE / "three_step.fx"), registry(EXAMPLE / "tools.py")) == []


def test_large_open_world_falls_back_to_dependency_graph() -> None:
    assert (ORDERS / "orders.fx").exists(), "examples/orders is part of the repository"
    kb = load(ORDERS / "orders.fx")
    reach = reachability(kb)
    assert reach.method == "dependency-graph"
    assert reach.derivable == {0, 1} and reach.statuses == {'"done"'}
    assert analyze(kb) == []


def test_check_analysis_exits_1_on_errors(capsys: pytest.CaptureFixture[str]) -> None:
    kb = load(DATA / "conflict.fx")
    with pytest.raises(typer.Exit) as stop:
        check_analysis(kb, [], [], 32, "json")
    assert stop.value.exit_code == 1
    assert '"ok": false' in capsys.readouterr().out
    kept = check_analysis(load(DATA / "typo.fx"), [], [str(DATA / "probe_tools.py")], 32,
                          "text")
    assert "W-RESULT-UNKNOWN" in {d.code for d in kept}
