"""Shared loading for the explain tests (issue 6).

A case is ``data/NAME.fx`` (+ ``data/NAME.receipts.fx`` when present, loaded as
a receipts file). Its goals are the ``// explain: GOAL`` comment lines, in
order; ``// depth: N`` sets the why-not depth (default 3). Files are named by
their bare file name, so ``file:line`` in the expected output does not depend
on where the repository is checked out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from fxlog.reasoner import KnowledgeBase
from fxlog.syntax.parser import parse_program
from fxlog.tools.receipt_log import load_receipts_text

DATA = Path(__file__).resolve().parent / "data"
_GOAL = re.compile(r"^// explain: (.+?)\s*$", re.MULTILINE)
_DEPTH = re.compile(r"^// depth: (\d+)\s*$", re.MULTILINE)


@dataclass
class Case:
    """One golden case: its knowledge base, goals and why-not depth."""

    path: Path
    kb: KnowledgeBase
    goals: list[str]
    depth: int


def load_case(path: Path) -> Case:
    source = path.read_text(encoding="utf-8")
    kb = KnowledgeBase()
    kb.add_program(parse_program(source, path.name))
    receipts = path.with_name(path.stem + ".receipts.fx")
    if receipts.exists():
        loaded = load_receipts_text(receipts.read_text(encoding="utf-8"), receipts.name)
        assert not loaded.warnings, loaded.warnings
        kb.add_receipts(loaded.program)
    goals = _GOAL.findall(source)
    assert goals, f"{path.name}: add at least one `// explain: GOAL` line"
    depth = _DEPTH.search(source)
    return Case(path, kb, goals, int(depth.group(1)) if depth else 3)


def case_paths() -> list[Path]:
    return sorted(p for p in DATA.glob("*.fx") if not p.name.endswith(".receipts.fx"))


@pytest.fixture
def case() -> Callable[[str], Case]:
    """``case("negation")`` loads ``data/negation.fx`` (and its receipts)."""
    return lambda name: load_case(DATA / f"{name}.fx")
