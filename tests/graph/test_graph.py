"""``fxlog graph``: request graphs of episodes (receipts) and programs (static), and renderings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fxlog.cli import app
from fxlog.graph import build_graph, episode_graph, static_graph
from fxlog.graph_render import render_text, to_dot, to_mermaid

from .conftest import DATA, ORDERS, ROOT, load

GOLDEN = [
    ("examples/graph/three_step.fx", "examples/graph/three_step.receipts.fx",
     "three_step.episode.dot"),
    ("examples/graph/three_step.fx", None, "three_step.static.dot"),
    ("tests/graph/data/unbounded.fx", None, "unbounded.static.dot"),
    ("tests/graph/data/conflict.fx", None, "conflict.static.dot"),
    ("tests/graph/data/typo.fx", None, "typo.static.dot"),
]


@pytest.mark.parametrize(("program", "receipts", "golden"), GOLDEN)
def test_dot_is_golden(program: str, receipts: str | None, golden: str) -> None:
    kb = load(ROOT / program, *([ROOT / receipts] if receipts else []))
    assert to_dot(build_graph(kb)) == (DATA / golden).read_text("utf-8")


def test_three_step_episode_structure(three_step: Path, three_step_receipts: Path) -> None:
    g = episode_graph(load(three_step, three_step_receipts))
    assert g.graph["mode"] == "episode"
    assert sorted(g.nodes) == ["classify(d1)", "fetch(d1)", 'file(d1, "invoice")', "workflow"]
    assert sorted(g.edges) == [("classify(d1)", 'file(d1, "invoice")'),
                               ("fetch(d1)", "classify(d1)"), ('file(d1, "invoice")', "workflow")]
    fetch = g.nodes["fetch(d1)"]
    assert (fetch["tool"], fetch["order"], fetch["seq"], fetch["status"]) == \
        ("fetch_doc", "1", 1, "succeeded")
    assert g.nodes["workflow"]["status"] == '"filed"'
    assert g.edges["fetch(d1)", "classify(d1)"]["reads"] == ['result("text")', "tool#status"]
    assert not any(g.nodes[n]["cycle"] for n in g.nodes)


def test_pending_request_has_no_receipt_yet(three_step: Path, tmp_path: Path) -> None:
    partial = tmp_path / "first.receipts.fx"
    lines = (ROOT / "examples/graph/three_step.receipts.fx").read_text().splitlines()
    partial.write_text("\n".join(lines[:3]) + "\n")
    g = episode_graph(load(three_step, partial))
    assert g.nodes["classify(d1)"]["status"] == "pending"
    assert g.nodes["classify(d1)"]["seq"] is None
    assert list(g.predecessors("classify(d1)")) == ["fetch(d1)"]


def test_three_step_static_structure(three_step: Path) -> None:
    g = static_graph(load(three_step))
    assert sorted(g.edges) == [
        ("classify(?D)", "file(?D, ?Label)"), ("fetch(?D)", "classify(?D)"),
        ("fetch(?D)", 'workflow[status -> "failed"]'),
        ("file(?D, ?Label)", 'workflow[status -> "filed"]')]
    assert all(g.nodes[n].get("derivable", True) for n in g.nodes)
    assert all(g.edges[e]["precise"] for e in g.edges)  # tool#name / request terms fix them


def test_static_marks_cycles_and_dead_declarations() -> None:
    g = static_graph(load(DATA / "unbounded.fx"))
    assert g.has_edge("step(?M)", "step(?M)") and g.edges["step(?M)", "step(?M)"]["cycle"]
    assert g.nodes["step(?M)"]["cycle"] and not g.nodes["step(1)"]["cycle"]
    typo = static_graph(load(DATA / "typo.fx"))
    assert typo.nodes['workflow[status -> "never"]']["reachable"] is False
    assert 'never reached' in to_dot(typo)


def test_unconstrained_read_is_conservative() -> None:
    kb = load(DATA / "conflict.fx")
    kb.add_text('seen(?R) <- ?R[tool#status -> "failed"].\n'
                'workflow[status -> "stuck"] <- seen(?).', "extra.fx")
    g = static_graph(kb)
    into = sorted(a for a, _ in g.in_edges('workflow[status -> "stuck"]'))
    assert into == ["alpha(1)", "beta(1)", "check(1)", "notify(1)", "review(1)"]
    assert not any(g.edges[a, 'workflow[status -> "stuck"]']["precise"] for a in into)


@pytest.fixture
def orders_receipts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    assert (ORDERS / "orders.fx").exists() and (ORDERS / "orders.sqlite").exists(), \
        "examples/orders is part of the repository"
    from fxlog.tools.host import run_episode

    monkeypatch.setenv("FXLOG_SQLITE_DB", str(ORDERS / "orders.sqlite"))
    out = tmp_path / "orders.receipts.fx"
    result = run_episode(ORDERS / "orders.fx", receipts_out=out,
                         adapters=["fxlog.adapters.sqlite"])
    assert result.status == '"done"'
    return out


def test_orders_episode_graph(orders_receipts: Path) -> None:
    g = episode_graph(load(ORDERS / "orders.fx", orders_receipts))
    history = sorted(n for n in g.nodes if n.startswith("history("))
    assert history == ['history("Ada Lovelace")', 'history("Alan Turing")',
                       'history("Katherine Johnson")']
    assert sorted(g.in_edges(history)) == [
        ("lookup(1002)", 'history("Ada Lovelace")'), ("lookup(1004)", 'history("Alan Turing")'),
        ("lookup(1006)", 'history("Katherine Johnson")')]
    assert 'row(1, "customer")' in g.edges["lookup(1002)", 'history("Ada Lovelace")']["reads"]
    assert {g.nodes[n]["seq"] for n in g.nodes if n != "workflow"} == set(range(1, 11))
    assert {g.nodes[n]["status"] for n in g.nodes if n != "workflow"} == {"succeeded"}
    assert g.nodes["workflow"]["status"] == '"done"'


def test_orders_static_graph() -> None:
    assert (ORDERS / "orders.fx").exists(), "examples/orders is part of the repository"
    g = static_graph(load(ORDERS / "orders.fx"))
    assert g.has_edge("lookup(?Id)", "history(?Customer)")
    assert not g.has_edge("history(?Customer)", "lookup(?Id)")


def test_text_formats_are_deterministic(three_step: Path, three_step_receipts: Path) -> None:
    first = build_graph(load(three_step, three_step_receipts))
    again = build_graph(load(three_step, three_step_receipts))
    for fmt in ("dot", "mermaid", "json"):
        assert render_text(first, fmt) == render_text(again, fmt)
    data = json.loads(render_text(first, "json"))
    assert {e["source"] for e in data["edges"]} == {"fetch(d1)", "classify(d1)",
                                                    'file(d1, "invoice")'}
    mermaid = to_mermaid(first)
    assert mermaid.startswith("flowchart LR\n") and "#quot;invoice#quot;" in mermaid


# ----------------------------------------------------------------------- CLI
def test_cli_graph_formats(three_step: Path, three_step_receipts: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["graph", str(three_step), str(three_step_receipts)])
    assert res.exit_code == 0 and res.output.startswith("digraph fxlog {")
    out = tmp_path / "g.json"
    res = runner.invoke(app, ["graph", str(three_step), "-f", "json", "-o", str(out)])
    assert res.exit_code == 0 and json.loads(out.read_text())["graph"]["mode"] == "static"
    res = runner.invoke(app, ["graph", str(tmp_path / "missing.fx")])
    assert res.exit_code == 2


def test_cli_graph_svg_without_graphviz(three_step: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    res = CliRunner().invoke(app, ["graph", str(three_step), "-f", "svg"])
    assert res.exit_code == 2
    assert "apt-get install graphviz" in res.output


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_cli_graph_svg_and_png(three_step: Path, three_step_receipts: Path,
                               tmp_path: Path) -> None:
    runner = CliRunner()
    svg = tmp_path / "g.svg"
    res = runner.invoke(app, ["graph", str(three_step), str(three_step_receipts), "-f", "svg",
                              "-o", str(svg)])
    assert res.exit_code == 0 and "<svg" in svg.read_text()
    png = tmp_path / "g.png"
    res = runner.invoke(app, ["graph", str(three_step), "-f", "png", "-o", str(png)])
    assert res.exit_code == 0 and png.read_bytes().startswith(b"\x89PNG")
