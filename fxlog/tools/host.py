"""Program + receipts → episode: the host loop that executes derived requests.

solve → pending requests (derived, no completion receipt) → the step with the
lowest ``tool#order`` → run each request once → append its receipt to disk →
solve again, until exactly one ``workflow[status -> S]`` holds, nothing is
pending, or the action limit is reached. The rules decide; the host only acts
and records.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "p.fx").write_text('socrates:Human. external check(?P) using _query'
...     '[query -> "?- socrates:Human."] <- ?P:Human.')
>>> run_episode(d / "p.fx").end_reason
'quiescence'
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fxlog.engine.answers import Answer
from fxlog.engine.incremental import IncrementalSolver
from fxlog.engine.solver import NoModelError
from fxlog.errors import Diagnostic, FxlogError, UsageError
from fxlog.reasoner import KnowledgeBase, Request, pending_requests, workflow_statuses
from fxlog.syntax.printer import term_text
from fxlog.tools.execute import ToolError, execute
from fxlog.tools.receipts import (
    Failure,
    ReceiptLog,
    interrupted_receipt,
    receipt_facts,
    start_marker,
)
from fxlog.tools.registry import ToolRegistry, unknown_tool_message
from fxlog.tools.values import input_fields, input_texts

__all__ = ["EpisodeError", "EpisodeResult", "Hooks", "default_receipts_path", "recorded_end",
           "replay", "run_episode"]

DEFAULT_MAX_ACTIONS = 32
DEFAULT_TOOL_TIMEOUT = 60.0


class EpisodeError(FxlogError):
    """The rules put the episode in a state the host must not guess about."""


@dataclass
class Hooks:
    """Callbacks for programs that embed the host (all optional)."""

    on_request_start: Callable[[Request], None] | None = None
    on_request_end: Callable[[Request, str], None] | None = None
    on_tool_call_start: Callable[..., None] | None = None
    on_tool_call_end: Callable[..., None] | None = None


@dataclass
class EpisodeResult:
    """How an episode (or its replay) ended."""

    end_reason: str  # "workflow" | "quiescence" | "action_limit" | "pending"
    status: str | None
    actions: int
    receipts_written: list[str]
    answers: list[Answer]
    pending: list[str]
    receipts_path: str | None = None
    executed: list[str] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """The documented JSON shape of ``fxlog run/replay --format json`` (docs/tools.md)."""
        return {
            "end_reason": self.end_reason,
            "status": self.status,
            "actions": self.actions,
            "executed": list(self.executed),
            "receipts_written": len(self.receipts_written),
            "receipts_path": self.receipts_path,
            "pending": list(self.pending),
            "answers": [a.as_json() for a in self.answers],
            "diagnostics": [d.as_json() for d in self.warnings],
        }


def default_receipts_path(program: Path) -> Path:
    """``NAME.receipts.fx`` beside the program."""
    name = program.name[:-3] if program.name.endswith(".fx") else program.name
    return program.with_name(name + ".receipts.fx")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


@dataclass
class _Step:
    request: Request
    seq: int
    started: str = ""
    line: str = ""


class _Episode:
    def __init__(self, kb: KnowledgeBase, registry: ToolRegistry, log: ReceiptLog | None,
                 max_actions: int, parallel: int, tool_timeout: float, hooks: Hooks,
                 next_seq: int, incremental: bool = True) -> None:
        self.kb = kb
        self.solver = IncrementalSolver(kb.translation(queries=False).asp) \
            if incremental else None
        self.unsent = list(kb.receipt_asp)
        self.registry = registry
        self.log = log
        self.max_actions = max_actions
        self.parallel = max(1, parallel)
        self.tool_timeout = tool_timeout
        self.hooks = hooks
        self.seq = next_seq
        self.actions = 0
        self.written: list[str] = []
        self.executed: list[str] = []
        self.performed: set[str] = set()

    def record(self, lines: Sequence[str], file: str) -> None:
        """Append to disk first (durability), then add to the knowledge base."""
        if not lines:
            return
        if self.log is not None:
            self.log.extend(lines)
        self.kb.add_receipt_text("".join(lines), file)
        self.unsent.append(self.kb.receipt_asp[-1])
        self.written.extend(lines)

    def state(self) -> tuple[list[str], list[Request]]:
        """Workflow statuses and pending requests now (incrementally when possible)."""
        if self.solver is None:
            result = self.kb.state()
            return result.workflow, result.pending
        try:
            captured = self.solver.step("".join(self.unsent))
        except NoModelError:
            self.kb.state()  # raises the explained E-NOMODEL error
            raise
        self.unsent.clear()
        return workflow_statuses(captured.internal), pending_requests(captured.internal)

    def run(self) -> tuple[str, str | None, list[Request]]:
        while True:
            workflow, pending = self.state()
            status = _workflow_status(workflow)
            if status is not None:
                return "workflow", status, pending
            if not pending:
                return "quiescence", None, []
            if self.actions >= self.max_actions:
                return "action_limit", None, pending
            step = self.choose_step(pending)
            step = step[: self.max_actions - self.actions]
            self.execute_step(step)

    def choose_step(self, pending: list[Request]) -> list[Request]:
        _check_orders(pending, self.kb)
        lowest = min(pending, key=_order_key)
        group = [r for r in pending if _order_key(r) == _order_key(lowest)
                 and _request_name(r) == _request_name(lowest)]
        for r in group:
            if r.text in self.performed:  # pragma: no cover - a receipt always follows a run
                raise EpisodeError(f"{r.text} would run twice in one episode")
        return sorted(group, key=lambda r: r.text)

    def execute_step(self, group: list[Request]) -> None:
        steps = []
        for request in group:
            steps.append(_Step(request, self.seq, _now()))
            self.seq += 1
        markers = [start_marker(s.request.text, tool_name=s.request.tool, seq=s.seq,
                                started=s.started) for s in steps]
        if self.log is not None:
            self.log.extend(markers)
        with ThreadPoolExecutor(max_workers=min(self.parallel, len(steps))) as pool:
            futures = [pool.submit(self.call, s) for s in steps]
            for s, future in zip(steps, futures, strict=True):
                s.line = future.result()
                self.record([s.line], f"<receipt {s.seq}>")
                self.performed.add(s.request.text)
                self.executed.append(s.request.text)
                self.actions += 1
                if self.hooks.on_request_end:
                    self.hooks.on_request_end(s.request, s.line)

    def call(self, step: _Step) -> str:
        request = step.request
        if self.hooks.on_request_start:
            self.hooks.on_request_start(request)
        fields = input_fields(request.inputs)
        began = time.perf_counter()
        outcome: list[Any] = []

        def target() -> None:
            try:
                outcome.append(("ok", execute(request.tool, fields, registry=self.registry,
                                              kb=self.kb, tool_hooks=self.hooks)))
            except ToolError as exc:
                outcome.append(("error", exc))
            except BaseException as exc:  # noqa: BLE001 - even SystemExit becomes a receipt
                outcome.append(("error", ToolError("tool_error", f"{type(exc).__name__}: {exc}")))

        worker = threading.Thread(target=target, daemon=True, name=f"fxlog-tool-{step.seq}")
        worker.start()
        worker.join(self.tool_timeout)
        duration = round((time.perf_counter() - began) * 1000, 3)
        if not outcome:
            error = Failure("timeout", f"the tool ran longer than {self.tool_timeout:g} s "
                            "(--tool-timeout)")
            return self.receipt(step, None, {}, duration, error)
        kind, value = outcome[0]
        if kind == "error":
            return self.receipt(step, None, value.evidence, duration,
                                Failure(value.type, _message(value)))
        output, evidence = value
        return self.receipt(step, output, evidence, duration, None)

    def receipt(self, step: _Step, output: object, evidence: dict[str, object],
                duration: float, error: Failure | None) -> str:
        return receipt_facts(
            step.request.text, status="failed" if error else "succeeded", output=output,
            evidence=evidence, inputs=input_texts(step.request.inputs),
            tool_name=step.request.tool, seq=step.seq, started=step.started, finished=_now(),
            duration_ms=duration, error=error)


_END = re.compile(r"^// episode end: reason=(\w+) status=(.*) actions=(\d+)$", re.M)


def end_marker(reason: str, status: str | None, actions: int) -> str:
    """A comment line closing a run: replay ``--check`` compares against the last one."""
    return f"// episode end: reason={reason} status={status or '-'} actions={actions}\n"


def recorded_end(path: Path | str) -> tuple[str, str | None] | None:
    """The end reason and status of the last run recorded in a receipts file."""
    try:
        text = Path(path).read_text("utf-8", errors="replace")
    except OSError:
        return None
    found = _END.findall(text)
    if not found:
        return None
    reason, status, _ = found[-1]
    return reason, (None if status == "-" else status)


def _message(error: ToolError) -> str:
    prefix = f"{error.type}: "
    return error.message[len(prefix):] if error.message.startswith(prefix) else error.message


def _workflow_status(statuses: list[str]) -> str | None:
    if len(statuses) > 1:
        raise EpisodeError("the rules derive more than one workflow status: "
                           + ", ".join(statuses)
                           + "; a workflow must end in exactly one status")
    return statuses[0] if statuses else None


def _request_name(r: Request) -> str:
    term = r.term
    functor = getattr(term, "functor", term)
    return term_text(functor)


def _order_key(r: Request) -> tuple[int, object]:
    from fxlog.syntax import ast

    if r.order is None:
        return (1, 0)
    if isinstance(r.order, ast.Num):
        return (0, r.order.value)
    return (2, term_text(r.order))


def _check_orders(pending: list[Request], kb: KnowledgeBase) -> None:
    """Different request names enabled together need distinct numeric orders."""
    from fxlog.syntax import ast

    by_name: dict[str, Request] = {}
    for r in pending:
        by_name.setdefault(_request_name(r), r)
    if len(by_name) < 2:
        return
    seen: dict[object, Request] = {}
    externals = kb.translation(queries=False).asp.externals
    for name, r in sorted(by_name.items()):
        if r.order is not None and not isinstance(r.order, ast.Num):
            raise EpisodeError(f"{r.text}: tool#order must be a number, got "
                               f"{term_text(r.order)}")
        key = None if r.order is None else r.order.value
        other = seen.get(key)
        if other is not None or (key is None and len(by_name) > 1):
            other = other or next(x for n, x in sorted(by_name.items()) if n != name)
            raise EpisodeError(_order_conflict(r, other, externals))
        seen[key] = r


def _order_conflict(a: Request, b: Request, externals: Sequence[Any]) -> str:
    def where(r: Request) -> str:
        ext = externals[r.external] if 0 <= r.external < len(externals) else None
        return f"{r.text} (derived by {ext.span}: {ext.text})" if ext else r.text

    order = "no tool#order" if a.order is None or b.order is None else \
        f"the same tool#order {term_text(a.order)}"
    return (f"requests with different names are enabled together with {order}: "
            f"{where(a)} and {where(b)}; give each external declaration a distinct "
            "numeric `tool#order -> N` (the lowest runs first)")


def _check_tools(kb: KnowledgeBase, registry: ToolRegistry) -> None:
    for ext in kb.translation(queries=False).asp.externals:
        if ext.tool not in registry:
            raise UsageError(f"{ext.span}: {unknown_tool_message(ext.tool, registry.names())}")


def _load_inputs(kb: KnowledgeBase, receipts: Sequence[Path]) -> tuple[int, list[Any],
                                                                       list[Diagnostic]]:
    from fxlog.tools.receipt_log import load_receipts

    max_seq = 0
    started: list[Any] = []
    warnings: list[Diagnostic] = []
    for path in receipts:
        loaded = load_receipts(path)
        kb.add_receipts(loaded.program)
        max_seq = max(max_seq, loaded.max_seq)
        warnings.extend(loaded.warnings)
        started.extend(loaded.markers[t] for t in loaded.started_only)
    return max_seq, started, warnings


def _check_output_path(out: Path) -> None:
    """Fail before any tool runs if the receipts cannot be written."""
    if out.is_dir():
        raise UsageError(f"--receipts-out {out}: is a directory; name a file such as "
                         f"{out / 'run.receipts.fx'}")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"--receipts-out {out}: the folder {parent} does not exist; "
                         "create it first")
    if out.exists() and not os.access(out, os.W_OK):
        raise UsageError(f"--receipts-out {out}: the file is not writable")


def open_knowledge_base(program: Path | str, receipts: Sequence[Path] = ()) -> KnowledgeBase:
    from fxlog.client import read_source
    from fxlog.syntax.parser import parse_program

    kb = KnowledgeBase()
    kb.add_program(parse_program(read_source(program), str(program)))
    return kb


def run_episode(
    program: Path | str,
    receipts: Sequence[Path | str] = (),
    *,
    receipts_out: Path | str | None = None,
    registry: ToolRegistry | None = None,
    adapters: Sequence[str] = (),
    max_actions: int = DEFAULT_MAX_ACTIONS,
    parallel: int = 1,
    tool_timeout: float = DEFAULT_TOOL_TIMEOUT,
    hooks: Hooks | None = None,
    incremental: bool = True,
) -> EpisodeResult:
    """Run an episode of ``program`` and append its receipts to ``receipts_out``.

    ``incremental=False`` re-grounds the whole program at every step (slower on
    large knowledge bases; kept to cross-check the incremental solver).
    """
    program = Path(program)
    registry = registry or ToolRegistry()
    for spec in adapters:
        registry.load_adapter(spec)
    out = Path(receipts_out) if receipts_out is not None else default_receipts_path(program)
    _check_output_path(out)
    inputs = [Path(p) for p in receipts]
    if out.exists() and all(out.resolve() != p.resolve() for p in inputs):
        inputs.append(out)  # the episode's own log: resume where it stopped
    kb = open_knowledge_base(program)
    _check_tools(kb, registry)
    max_seq, started, warnings = _load_inputs(kb, inputs)
    with ReceiptLog(out) as log:
        episode = _Episode(kb, registry, log, max_actions, parallel, tool_timeout,
                           hooks or Hooks(), max_seq + 1, incremental)
        lines = [interrupted_receipt(m.text, tool_name=m.tool_name or "", seq=m.seq or 0,
                                     started=m.started or _now()) for m in started]
        episode.record(lines, "<interrupted>")
        reason, status, pending = episode.run()
        log.append(end_marker(reason, status, episode.actions))
        result = kb.answer()
    return EpisodeResult(reason, status, episode.actions, episode.written, result.answers,
                         [r.text for r in pending], str(out), episode.executed,
                         warnings + result.warnings)


def replay(program: Path | str, receipts: Sequence[Path | str] = ()) -> EpisodeResult:
    """Recompute an episode from its receipts; no tool runs."""
    kb = open_knowledge_base(Path(program))
    _, _, warnings = _load_inputs(kb, [Path(p) for p in receipts])
    result = kb.answer()  # one solve gives the answers, the status and what is pending
    status = _workflow_status(result.workflow)
    if status is not None:
        reason = "workflow"
    elif result.pending:
        reason = "pending"
    else:
        reason = "quiescence"
    return EpisodeResult(reason, status, 0, [], result.answers,
                         [r.text for r in result.pending], None, [],
                         warnings + result.warnings)
