"""Every new module's ``>>>`` example still runs, and each declares ``__all__``."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

MODULES = ["fxlog.reads", "fxlog.analysis", "fxlog.tool_schema", "fxlog.graph",
           "fxlog.graph_render", "fxlog.whatif", "fxlog.cli_extra"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    assert module.__doc__ and ">>>" in module.__doc__
    assert getattr(module, "__all__", None) is not None
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
