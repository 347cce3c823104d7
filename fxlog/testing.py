"""Test doubles for fxlog programs that call models: a script of turns → a fake model.

Use a :class:`ScriptedModel` wherever a real model would answer, so tests of
programs and adapters run offline and fail the same way every time:

>>> from fxlog.models import call_llm
>>> model = ScriptedModel([tool_calls([{"name": "double", "args": {"n": 2}}]), {"n": 4}])
>>> with use_model(model):
...     output, evidence = call_llm(
...         {"prompt": "Double 2."}, tools={"double": lambda n: ({"n": 2 * n}, {})}, env={}
...     )
>>> output, evidence["calls"][0]["result"]
({'n': 4}, '{"n": 4}')
>>> model.received[1][-1]["content"]
'{"n": 4}'

From the command line, point ``FXLOG_MODEL_PROVIDER`` at a script file:
``FXLOG_MODEL_PROVIDER=script:turns.json`` with
``{"turns": [{"tool_calls": [{"name": "double", "args": {"n": 2}}]}, {"answer": {"n": 4}}]}``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from fxlog.models.provider import ChatProvider
from fxlog.models.registry import use_provider
from fxlog.models.scripted import ScriptedModel, ToolTurn, load_script, tool_calls

__all__ = ["ScriptedModel", "ToolTurn", "load_script", "tool_calls", "use_model"]

P = TypeVar("P", bound=ChatProvider)


@contextmanager
def use_model(model: P) -> Iterator[P]:
    """Answer every ``_llm`` call made inside the block from ``model``.

    Usually a :class:`ScriptedModel`, but any ``ChatProvider`` works.
    Process-wide (not per thread), so it also reaches an episode host that
    runs tools on worker threads. Yields the model for assertions.
    """
    with use_provider(model):
        yield model
