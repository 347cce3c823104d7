"""Docs → checked examples: every example in ``docs/`` runs against fxlog.

The documentation promises behaviour; this module keeps the promise honest.
Three kinds of fenced blocks take part:

* An ```` ```fx ```` block is a program. The next fenced block after it must be
  ```` ```answers ```` and/or ```` ```diagnostics ```` (prose may stand in between).
  The program is loaded with :class:`fxlog.Client` under the file name
  ``example.fx`` and solved; ``answers`` holds one line per query,
  ``?- goal.  truth``, then ``  ?X = value, ?Y = value (truth)`` per binding and
  ``  depends on pending requests: ...`` when the answer is unknown because of
  pending requests. ``diagnostics`` holds the rendered errors (when the program
  is refused) or warnings, exactly as the CLI prints them. A program that
  produces warnings must show them.
* An ```` ```fx file=NAME ```` block is a file that later ``console`` blocks of
  the same page use; it is written to a fresh folder per page.
* A ```` ```console ```` block is a transcript: ``$ fxlog ARGS`` lines, each
  followed by the combined output of the command (trailing spaces ignored).
  A command ending in ``; echo $?`` also prints its exit code.

Bindings of one query are compared as a multiset: clingo's enumeration order
is not part of the language.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fxlog import Client
from fxlog.cli import app
from fxlog.engine.answers import Answer
from fxlog.errors import ProgramError, render_all

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("language.md", "semantics.md", "cli.md", "errors.md")
EXAMPLE_FILE = "example.fx"
_FENCE = re.compile(r"^```(\S*)(.*)$")


@dataclass(frozen=True)
class Block:
    """One fenced code block of a Markdown page."""

    lang: str
    info: str
    text: str
    line: int


@dataclass(frozen=True)
class Example:
    """An ``fx`` program and what the docs say fxlog answers."""

    page: str
    line: int
    source: str
    answers: str | None
    diagnostics: str | None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(markdown: str) -> list[Block]:
    """Fenced blocks in page order (``` fences at the start of a line)."""
    out: list[Block] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            raise AssertionError(f"unclosed code block at line {start + 1}")
        out.append(Block(m.group(1), m.group(2).strip(), "\n".join(body) + "\n", start + 1))
        i += 1
    return out


def examples(page: str, markdown: str) -> list[Example]:
    """Every plain ``fx`` block with the expected-output blocks that follow it."""
    found: list[Example] = []
    bs = blocks(markdown)
    for k, b in enumerate(bs):
        if b.lang != "fx" or b.info:
            continue
        expected: dict[str, str] = {}
        for nxt in bs[k + 1 : k + 3]:
            if nxt.lang not in ("answers", "diagnostics") or nxt.lang in expected:
                break
            expected[nxt.lang] = nxt.text
        if not expected:
            raise AssertionError(f"{page}:{b.line}: an fx block needs an answers or "
                                 "diagnostics block after it")
        found.append(Example(page, b.line, b.text, expected.get("answers"),
                             expected.get("diagnostics")))
    return found


def answer_lines(answers: list[Answer]) -> list[str]:
    """The ``answers`` block format."""
    out: list[str] = []
    for a in answers:
        out.append(f"{a.query}  {a.truth}")
        for b in a.bindings:
            values = ", ".join(f"?{n} = {b.text(n)}" for n in a.variables)
            out.append(f"  {values} ({b.truth})")
        if a.pending:
            out.append("  depends on pending requests: " + ", ".join(a.pending))
    return out


def run_example(source: str) -> tuple[list[str] | None, str]:
    """(answer lines or None when refused, rendered diagnostics)."""
    client = Client()
    try:
        client.load(source, file=EXAMPLE_FILE)
        result = client.solve()
    except ProgramError as exc:
        return None, exc.render()
    return answer_lines(result.answers), render_all(result.warnings, client.kb.sources)


def _grouped(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Each query line with its binding lines sorted (enumeration order is free)."""
    groups: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("  ") and groups:
            groups[-1][1].append(line)
        else:
            groups.append((line, []))
    return [(q, sorted(rest)) for q, rest in groups]


def _clean(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _read(page: str) -> str:
    path = DOCS / page
    return path.read_text("utf-8") if path.exists() else ""


ALL = [ex for page in PAGES for ex in examples(page, _read(page))]


def test_pages_have_examples() -> None:
    for page in PAGES:
        assert (DOCS / page).exists(), f"docs/{page} is missing"
    assert len(ALL) >= 100


@pytest.mark.parametrize("ex", ALL, ids=[ex.id for ex in ALL])
def test_example(ex: Example) -> None:
    answers, diagnostics = run_example(ex.source)
    if answers is None:
        assert ex.answers is None, f"{ex.id}: fxlog refuses the program:\n{diagnostics}"
    else:
        assert ex.answers is not None, f"{ex.id}: the program runs; show its answers"
        assert _grouped(answers) == _grouped(_clean(ex.answers))
    assert _clean(diagnostics) == _clean(ex.diagnostics or "")


# ------------------------------------------------------------------ transcripts


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    args: list[str]
    echo_status: bool
    expected: list[str]


def transcripts(page: str, markdown: str) -> tuple[list[tuple[str, str]], list[Command]]:
    """Files (name, text) and console commands of a page, in page order."""
    files: list[tuple[str, str]] = []
    commands: list[Command] = []
    for b in blocks(markdown):
        if b.lang == "fx" and b.info.startswith("file="):
            files.append((b.info[len("file="):], b.text))
        elif b.lang == "console":
            current: Command | None = None
            for offset, line in enumerate(b.text.splitlines()):
                if line.startswith("$ "):
                    cmd = line[2:].strip()
                    echo = cmd.endswith("; echo $?")
                    if echo:
                        cmd = cmd[: -len("; echo $?")].strip()
                    words = shlex.split(cmd)
                    assert words[0] == "fxlog", f"{page}:{b.line}: only fxlog commands run"
                    current = Command(page, b.line + 1 + offset, words[1:], echo, [])
                    commands.append(current)
                elif current is not None:
                    current.expected.append(line.rstrip())
    return files, commands


PAGES_WITH_CONSOLE = [p for p in PAGES if transcripts(p, _read(p))[1]]


@pytest.mark.parametrize("page", PAGES_WITH_CONSOLE)
def test_transcripts(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files, commands = transcripts(page, _read(page))
    for name, text in files:
        (tmp_path / name).write_text(text, "utf-8")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for cmd in commands:
        result = runner.invoke(app, cmd.args, env={"COLUMNS": "80"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        actual = _clean(result.output)
        if cmd.echo_status:
            actual.append(str(result.exit_code))
        expected = cmd.expected[:]
        while expected and not expected[-1]:
            expected.pop()
        assert actual == expected, f"{cmd.page}:{cmd.line}: fxlog {' '.join(cmd.args)}"
