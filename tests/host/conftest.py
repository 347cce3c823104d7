"""Shared fixtures for the episode-host tests (issue "episodes").

Tools that must leave a trace outside the receipts (how often they ran, when
to stop blocking) use the folder named by ``$FXLOG_HOST_TEST_DIR``: the
``side`` fixture points it at a fresh temporary folder and, at teardown,
opens the ``gate`` so that no tool thread is left waiting.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fxlog.cli import app

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
ADAPTERS = HERE / "adapters"

# Specs whose values depend on the clock: the only differences allowed between
# two runs of the same deterministic episode.
_TIMING = re.compile(
    r'(?:tool#started|tool#finished) -> "[^"]*"'
    r'|(?:tool#duration_ms|evidence\("elapsed_ms"\)) -> -?[0-9.eE+-]+'
)


def strip_timing(text: str) -> str:
    return _TIMING.sub("<time>", text)


@pytest.fixture
def timing_free() -> Callable[[str], str]:
    """Receipts text with clock-dependent values replaced by ``<time>``."""
    return strip_timing


@pytest.fixture
def side(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "side"
    folder.mkdir()
    monkeypatch.setenv("FXLOG_HOST_TEST_DIR", str(folder))
    yield folder
    (folder / "gate").touch()


@pytest.fixture
def calls(side: Path) -> Callable[[], list[str]]:
    """The executions the counting/failing adapters logged so far."""

    def read() -> list[str]:
        log = side / "calls.log"
        return log.read_text().splitlines() if log.exists() else []

    return read


@pytest.fixture
def copy_data(tmp_path: Path) -> Callable[[str], Path]:
    """Copy ``tests/host/data/NAME`` into the test's folder and return the copy."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copyfile(DATA / name, target)
        return target

    return copy


@pytest.fixture
def cli() -> Callable[..., Result]:
    """Invoke the ``fxlog`` CLI in-process (typer's CliRunner)."""
    runner = CliRunner()

    def invoke(*args: object) -> Result:
        return runner.invoke(app, [str(a) for a in args])

    return invoke


@pytest.fixture
def adapter() -> Callable[[str], str]:
    """The path of ``tests/host/adapters/NAME.py`` as an ``--adapter`` argument."""
    return lambda name: str(ADAPTERS / f"{name}.py")
