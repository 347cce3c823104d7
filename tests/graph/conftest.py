"""Shared helpers for the request-graph, static-analysis and what-if tests (issue 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fxlog.reasoner import KnowledgeBase
from fxlog.tools.receipt_log import load_receipts

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = HERE / "data"
EXAMPLE = ROOT / "examples" / "graph"
ORDERS = ROOT / "examples" / "orders"


def load(program: Path, *receipts: Path) -> KnowledgeBase:
    """A knowledge base whose program is named by its path relative to the repository."""
    kb = KnowledgeBase()
    kb.add_text(program.read_text("utf-8"), program.relative_to(ROOT).as_posix())
    for path in receipts:
        kb.add_receipts(load_receipts(path).program)
    return kb


@pytest.fixture
def three_step() -> Path:
    return EXAMPLE / "three_step.fx"


@pytest.fixture
def three_step_receipts() -> Path:
    return EXAMPLE / "three_step.receipts.fx"
