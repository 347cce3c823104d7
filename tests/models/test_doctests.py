"""Every module's ``>>>`` example still runs (the examples are documentation)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import fxlog.models

MODULES = ["fxlog.models", "fxlog.testing"] + [
    f"fxlog.models.{info.name}" for info in pkgutil.iter_modules(fxlog.models.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples may mention store paths; keep them out of the tree
    module = importlib.import_module(name)
    assert module.__doc__ and ">>>" in module.__doc__, f"{name} has no runnable example"
    assert getattr(module, "__all__", None) is not None, f"{name} has no __all__"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
