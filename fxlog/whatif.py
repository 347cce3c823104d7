"""Program + receipts + overrides → WhatIfResult: the replay as it would be with other outcomes.

An override rewrites the receipts in memory, never on disk, and nothing runs:

* ``REQUEST=failed``: the request's receipt says it failed (its results and
  rows are dropped; ``error("type") -> "what_if"``);
* ``REQUEST=succeeded``: it succeeded (error facts dropped, results kept);
* ``REQUEST.result("k")=VALUE`` (also ``row(N, "k")``, ``error("k")``): that
  field has VALUE; the request counts as succeeded (failed for ``error``)
  unless another override sets its status.

A request without a receipt (still pending) gets one. The answers, derived
requests, pending requests and workflow status are computed before and after;
:meth:`WhatIfResult.diff` lists what changes.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "p.fx").write_text('go. external a(1) using t <- go. '
...     'external b(1) using t <- a(1)[tool#status -> "failed"].')
>>> _ = (d / "r.fx").write_text('a(1)[tool#completed -> true; tool#status -> "succeeded"].\\n')
>>> what_if(d / "p.fx", [d / "r.fx"], ["a(1)=failed"]).diff().appeared
['b(1)']
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from clingo.symbol import Symbol, parse_term

from fxlog.engine.answers import Answer
from fxlog.errors import UsageError
from fxlog.reasoner import KnowledgeBase
from fxlog.syntax import ast
from fxlog.syntax.printer import term_text
from fxlog.tools.receipt_log import parse_term as parse_fx_term
from fxlog.translators.core import Pred
from fxlog.translators.encode import term_asp
from fxlog.translators.plan import FLAT

__all__ = ["Override", "Snapshot", "WhatIfDiff", "WhatIfResult", "parse_override", "what_if"]

_OUTCOME = {"succeeded", "failed"}
_FIELDS = {"result": 1, "row": 2, "error": 1}
_SUCCESS_ONLY = (("result", 1), ("row", 2), ("tool#ignored", 1))


@dataclass(frozen=True)
class Override:
    """One change to a receipt: a status, or one field's value."""

    request: ast.Term
    status: str | None = None
    method: str | None = None
    keys: tuple[ast.Term, ...] = ()
    value: ast.Term | None = None
    text: str = ""


def _split_top(text: str) -> tuple[int, int]:
    """Offsets of the first top-level ``.`` (method) and ``=`` outside strings and brackets."""
    depth, quoted, dot, eq = 0, False, -1, -1
    i = 0
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch == "=" and eq < 0:
            eq = i
        elif depth == 0 and ch == "." and dot < 0 and eq < 0 and \
                text[i + 1:i + 2].isalpha():
            dot = i
        i += 1
    return dot, eq


def parse_override(text: str) -> Override:
    """``REQUEST=failed|succeeded`` or ``REQUEST.result("k")=VALUE``."""
    dot, eq = _split_top(text)
    if eq < 0:
        raise UsageError(f"--override {text!r}: write REQUEST=failed, REQUEST=succeeded or "
                         'REQUEST.result("k")=VALUE')
    left, right = text[:eq].strip(), text[eq + 1:].strip()
    request_text = left[:dot].strip() if dot >= 0 else left
    request = _term(request_text, text, "request")
    if dot < 0:
        if right not in _OUTCOME:
            raise UsageError(f"--override {text!r}: a request can be set to `failed` or "
                             f"`succeeded`, not {right!r}")
        return Override(request, status=right, text=text)
    method = _term(left[dot + 1:].strip(), text, "field")
    name = term_text(method.functor) if isinstance(method, ast.Compound) else term_text(method)
    margs = method.args if isinstance(method, ast.Compound) else ()
    if _FIELDS.get(name) != len(margs):
        raise UsageError(f"--override {text!r}: the field must be result(\"k\"), "
                         'row(N, "k") or error("k")')
    return Override(request, method=name, keys=margs, value=_term(right, text, "value"),
                    text=text)


def _term(part: str, whole: str, what: str) -> ast.Term:
    try:
        return parse_fx_term(part, "<override>")
    except ValueError:
        raise UsageError(f"--override {whole!r}: the {what} {part!r} is not a ground fxlog "
                         'term (strings need double quotes: result("k")="text")') from None


# --------------------------------------------------------------- receipts
def _pred(method: str, nargs: int) -> str:
    return FLAT.stored(Pred("attr", method, nargs))


def _fact(method: str, request: ast.Term, *args: ast.Term) -> str:
    return f"{_pred(method, len(args) - 1)}({','.join(term_asp(a) for a in (request, *args))})."


def _rewrite(receipt_asp: Sequence[str], overrides: Sequence[Override]) -> str:
    """The receipts' ASP facts with the overridden requests' outcome facts replaced."""
    drop: dict[Symbol, set[str]] = {}
    added: list[str] = []
    for request, group in _by_request(overrides).items():
        req_sym = parse_term(term_asp(request))
        status = next((o.status for o in group if o.status), None) or \
            ("failed" if any(o.method == "error" for o in group) else "succeeded")
        names = {_pred("tool#completed", 0), _pred("tool#status", 0)}
        names |= {_pred(m, n) for m, n in _SUCCESS_ONLY} if status == "failed" else \
            {_pred("error", 1)}
        added += [_fact("tool#completed", request, ast.Sym("true")),
                  _fact("tool#status", request, ast.Str(status))]
        if status == "failed" and not any(o.method == "error" for o in group):
            added += [_fact("error", request, ast.Str("type"), ast.Str("what_if")),
                      _fact("error", request, ast.Str("message"), ast.Str("set by --override"))]
        for o in group:
            if o.method is not None and o.value is not None:
                added.append(_fact(o.method, request, *o.keys, o.value))
        drop[req_sym] = names
    keyed = {(parse_term(term_asp(o.request)), _pred(o.method, len(o.keys)),
              tuple(parse_term(term_asp(k)) for k in o.keys))
             for o in overrides if o.method is not None}
    kept = [line for chunk in receipt_asp for line in chunk.splitlines()
            if not _dropped(line, drop, keyed)]
    return "\n".join(kept + added) + "\n"


def _by_request(overrides: Sequence[Override]) -> dict[ast.Term, list[Override]]:
    out: dict[ast.Term, list[Override]] = {}
    for o in overrides:
        out.setdefault(o.request, []).append(o)
    return out


def _dropped(line: str, drop: dict[Symbol, set[str]],
             keyed: set[tuple[Symbol, str, tuple[Symbol, ...]]]) -> bool:
    text = line.strip()
    if not text or text.startswith("%"):
        return False
    atom = parse_term(text.rstrip("."))
    if not atom.arguments:
        return False
    request = atom.arguments[0]
    if atom.name in drop.get(request, ()):
        return True
    return any(atom.name == name and request == req and
               tuple(atom.arguments[1:1 + len(keys)]) == keys for req, name, keys in keyed)


# ------------------------------------------------------------------ result
@dataclass
class Snapshot:
    """One side of the comparison: what the replay concludes."""

    answers: list[Answer]
    requested: list[str]
    pending: list[str]
    workflow: list[str]


def _snapshot(kb: KnowledgeBase) -> Snapshot:
    result = kb.answer()
    state = kb.state()
    return Snapshot(result.answers, sorted(set(state.requested)),
                    [r.text for r in state.pending], state.workflow)


def _answer_rows(answers: list[Answer]) -> dict[tuple[str, str], str]:
    rows: dict[tuple[str, str], str] = {}
    for a in answers:
        rows[(a.query, "")] = a.truth
        for b in a.bindings:
            text = ", ".join(f"?{n} = {b.text(n)}" for n in a.variables)
            rows[(a.query, text)] = b.truth
    return rows


@dataclass
class WhatIfDiff:
    """What the overrides change; empty lists mean no change."""

    answers: list[dict[str, str]] = field(default_factory=list)
    appeared: list[str] = field(default_factory=list)
    disappeared: list[str] = field(default_factory=list)
    pending_before: list[str] = field(default_factory=list)
    pending_after: list[str] = field(default_factory=list)
    workflow_before: list[str] = field(default_factory=list)
    workflow_after: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"answers": self.answers, "requests_appear": self.appeared,
                "requests_disappear": self.disappeared,
                "pending": {"before": self.pending_before, "after": self.pending_after},
                "workflow": {"before": self.workflow_before, "after": self.workflow_after}}

    def text(self) -> str:
        lines = []
        for row in self.answers:
            binding = f"  {row['binding']}" if row["binding"] else ""
            lines.append(f"answer {row['query']}{binding}: {row['before']} → {row['after']}")
        lines += [f"request appears: {r}" for r in self.appeared]
        lines += [f"request disappears: {r}" for r in self.disappeared]
        if self.pending_before != self.pending_after:
            lines.append("would run next: " + (", ".join(self.pending_after) or "nothing"))
        if self.workflow_before != self.workflow_after:
            clash = " (more than one: the host would stop with an error)" \
                if len(self.workflow_after) > 1 else ""
            lines.append(f"workflow status: {', '.join(self.workflow_before) or 'none'} → "
                         f"{', '.join(self.workflow_after) or 'none'}{clash}")
        return "\n".join(lines) if lines else "no change"


@dataclass
class WhatIfResult:
    """The replay before and after the overrides."""

    overrides: list[Override]
    before: Snapshot
    after: Snapshot

    def diff(self) -> WhatIfDiff:
        old, new = _answer_rows(self.before.answers), _answer_rows(self.after.answers)
        changed = []
        for key in sorted(set(old) | set(new)):
            a, b = old.get(key, "false"), new.get(key, "false")
            if a != b:
                changed.append({"query": key[0], "binding": key[1], "before": a, "after": b})
        before, after = set(self.before.requested), set(self.after.requested)
        return WhatIfDiff(changed, sorted(after - before), sorted(before - after),
                          self.before.pending, self.after.pending, self.before.workflow,
                          self.after.workflow)


def what_if(program: Path | str, receipts: Sequence[Path | str],
            overrides: Sequence[str | Override]) -> WhatIfResult:
    """Replay ``program`` on ``receipts`` with and without ``overrides``; nothing runs."""
    from fxlog.tools.host import open_knowledge_base
    from fxlog.tools.receipt_log import load_receipts

    parsed = [o if isinstance(o, Override) else parse_override(o) for o in overrides]
    kb = open_knowledge_base(Path(program))
    for path in receipts:
        kb.add_receipts(load_receipts(path).program)
    before = _snapshot(kb)
    _check_known(parsed, before, kb)
    changed = KnowledgeBase()
    for p in kb.programs:
        changed.add_program(p)
    changed.receipts = list(kb.receipts)
    changed.receipt_asp = [_rewrite(kb.receipt_asp, parsed)]
    return WhatIfResult(parsed, before, _snapshot(changed))


def _check_known(overrides: Sequence[Override], before: Snapshot, kb: KnowledgeBase) -> None:
    known = set(before.requested)
    for p in kb.receipts:
        for stmt in p.statements:
            for lit in getattr(stmt, "head", ()):
                known.add(term_text(lit.atom.subject))
    for o in overrides:
        name = term_text(o.request)
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f"; did you mean `{close[0]}`?" if close else ""
            raise UsageError(f"--override {o.text!r}: `{name}` is neither derived nor in the "
                             f"receipts{hint}")
