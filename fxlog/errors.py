"""Source spans, diagnostics and the single exception root of fxlog.

Every message a user can act on carries a :class:`Span`, so the CLI can print
``file:line:col: message``, the offending source line and a caret under the
column, followed by a hint. Errors in one file are collected (capped) rather
than raised one at a time, because fixing a file one error per run is slow.

>>> span = Span("demo.fx", 0, 3, 1, 1)
>>> d = Diagnostic("E-PARSE", "error", "unexpected `)`", span, hint="remove it")
>>> print(render(d, "p(a)).\\n"))
demo.fx:1:1: error[E-PARSE]: unexpected `)`
  p(a)).
  ^
  hint: remove it
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "MAX_REPORTED",
    "Diagnostic",
    "FxlogError",
    "ProgramError",
    "Severity",
    "Span",
    "UsageError",
    "render",
    "render_all",
]

Severity = Literal["error", "warning", "info"]

#: Errors shown per file before the rest are summarised as "... and N more".
MAX_REPORTED = 20


@dataclass(frozen=True, slots=True)
class Span:
    """Where a construct stands in its source: file name, offsets, 1-based line/col."""

    file: str
    start: int
    end: int
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


#: A span for constructs fxlog makes up itself (closure axioms, generated rules).
NO_SPAN = Span("<fxlog>", 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding about a program: a stable code, a severity, a place and a fix."""

    code: str
    severity: Severity
    message: str
    span: Span
    hint: str | None = None

    def as_json(self) -> dict[str, object]:
        """The documented JSON shape (see docs/cli.md)."""
        out: dict[str, object] = {
            "code": self.code,
            "severity": self.severity,
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "message": self.message,
        }
        if self.hint:
            out["hint"] = self.hint
        return out


class FxlogError(Exception):
    """Root of every error fxlog raises on purpose.

    Anything else escaping to the CLI is a bug in fxlog, not in the user's input.
    """

    exit_code = 1

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)


class ProgramError(FxlogError):
    """The user's program (or receipts file) is wrong; carries the diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic], sources: dict[str, str] | None = None):
        errors = [d for d in diagnostics if d.severity == "error"]
        first = errors[0] if errors else diagnostics[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        super().__init__(f"{first.span}: {first.message}{more}", diagnostics)
        self.sources = sources or {}

    def render(self) -> str:
        """Human-readable text of every diagnostic, with source excerpts."""
        return render_all(self.diagnostics, self.sources)


class UsageError(FxlogError):
    """The caller used fxlog wrongly (bad option, missing file); CLI exit code 2."""

    exit_code = 2


def _source_line(source: str, span: Span) -> str | None:
    if span.line <= 0 or not source:
        return None
    start = span.start
    if start > len(source):
        return None
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", start)
    if line_end < 0:
        line_end = len(source)
    text = source[line_start:line_end]
    if len(text) > 200:  # do not flood the terminal with a minified or binary line
        text = text[:200] + " ..."
    return text


def render(diagnostic: Diagnostic, source: str | None = None) -> str:
    """``file:line:col: severity[CODE]: message``, then source line, caret and hint."""
    d = diagnostic
    lines = [f"{d.span}: {d.severity}[{d.code}]: {d.message}"]
    text = _source_line(source or "", d.span) if source is not None else None
    if text is not None:
        printable = "".join(ch if ch.isprintable() or ch == "\t" else "?" for ch in text)
        lines.append("  " + printable)
        caret_col = max(d.span.column - 1, 0)
        pad = "".join("\t" if ch == "\t" else " " for ch in printable[:caret_col])
        lines.append("  " + pad + "^")
    if d.hint:
        lines.append(f"  hint: {d.hint}")
    return "\n".join(lines)


def render_all(diagnostics: Iterable[Diagnostic], sources: dict[str, str] | None = None) -> str:
    """Render diagnostics in order, capping the errors shown at :data:`MAX_REPORTED`."""
    sources = sources or {}
    out: list[str] = []
    shown = 0
    hidden = 0
    for d in diagnostics:
        if shown >= MAX_REPORTED:
            hidden += 1
            continue
        shown += 1
        out.append(render(d, sources.get(d.span.file)))
    if hidden:
        out.append(f"... and {hidden} more")
    return "\n".join(out)


@dataclass
class DiagnosticSink:
    """Collects diagnostics while a stage runs; raises once at the end if any is an error."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def error(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.add(Diagnostic(code, "error", message, span, hint))

    def warning(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.add(Diagnostic(code, "warning", message, span, hint))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)
