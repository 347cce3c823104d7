"""The embedding API: load programs and receipts, ask queries, translate.

``Client`` is the object Python programs hold when they use fxlog as a solver
backend. It does no I/O beyond reading the files it is asked to load and never
runs a tool; the episode host (:mod:`fxlog.tools`) does that.

>>> with Client() as c:
...     c.load("world open. socrates:Human.")
...     c.query("?- socrates:Human.").truth
'true'
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from fxlog.engine.answers import Answer

if TYPE_CHECKING:
    from fxlog.explain import Explanation
from fxlog.errors import Diagnostic, UsageError
from fxlog.reasoner import KnowledgeBase, Result
from fxlog.syntax import ast
from fxlog.syntax.parser import parse_program, parse_query_text

__all__ = ["Client", "read_source"]

#: Largest program file read without complaint; bigger inputs are usually a mistake.
MAX_SOURCE_BYTES = 256 * 1024 * 1024


def read_source(path: str | os.PathLike[str]) -> str:
    """Read a ``.fx`` file as UTF-8 text, with errors a person can act on."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise UsageError(f"{p}: no such file") from None
    except OSError as exc:
        raise UsageError(f"{p}: cannot read it ({exc.strerror})") from None
    if p.is_dir():
        raise UsageError(f"{p}: is a directory, expected a .fx file")
    if size > MAX_SOURCE_BYTES:
        raise UsageError(f"{p}: {size} bytes is more than the {MAX_SOURCE_BYTES} bytes fxlog "
                         "reads from one file; split the knowledge base into several files")
    data = p.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{p}: byte {exc.start} is not UTF-8 text; is this a .fx file?") \
            from None


class Client:
    """A knowledge base you can load into and query."""

    def __init__(self) -> None:
        self.kb = KnowledgeBase()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Forget everything loaded (the client holds no other resources)."""
        self.kb = KnowledgeBase()

    def load(self, source: str | os.PathLike[str], *, file: str | None = None) -> ast.Program:
        """Load program text, or a file when given a path (``Path`` or a ``*.fx`` name)."""
        if isinstance(source, os.PathLike) or (
            isinstance(source, str) and "\n" not in source and source.endswith(".fx")
            and Path(source).is_file()
        ):
            text = read_source(source)
            program = parse_program(text, file or str(source))
        else:
            program = parse_program(str(source), file or "<string>")
        self.kb.add_program(program)
        return program

    def load_receipts(self, source: str | os.PathLike[str]) -> None:
        """Load a receipts file (facts only) written by an episode."""
        from fxlog.tools.receipt_log import load_receipts

        loaded = load_receipts(Path(source))
        self.kb.add_receipts(loaded.program)

    def query(self, goal: str) -> Answer:
        """Answer one goal (``?- ...``) without running any tool."""
        parsed = parse_query_text(goal)
        return self.kb.answer(parsed).answers[0]

    def answers(self) -> list[Answer]:
        """Answers to the loaded program's own ``?-`` queries, in file order."""
        return self.kb.answer().answers

    def solve(self) -> Result:
        """Answers plus pending requests and workflow status."""
        return self.kb.answer()

    def check(self) -> list[Diagnostic]:
        """Warnings of the loaded program; errors raise :class:`~fxlog.errors.ProgramError`."""
        return list(self.kb.translation().warnings)

    def explain(self, goal: str, depth: int = 3) -> Explanation:
        """Why ``goal`` holds (a proof), why not, or which pending requests decide it."""
        from fxlog.explain import explain

        return explain(self.kb, goal, depth)

    def translate(self) -> str:
        """The ASP text clingo receives."""
        return self.kb.translation().asp.text
