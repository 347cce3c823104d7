"""A finished (or failed) dialogue → the flat evidence object the host records.

Evidence is what lets rules (and people) check a model call afterwards: who
answered, whether it came from the store, under which fingerprint, what it
cost, and every tool call made on the way. It must be flat scalars plus the
reserved ``calls`` list, so the host can turn it into facts.

>>> ev = build_evidence(time.monotonic(), None, None, None, failed=False)
>>> sorted(ev)
['duration_ms']
"""

from __future__ import annotations

import time

from fxlog.models.config import Settings
from fxlog.models.loop import Dialogue
from fxlog.models.provider import JsonObject
from fxlog.models.registry import Route

__all__ = ["build_evidence"]


def build_evidence(started: float, settings: Settings | None, route: Route | None,
                   dialogue: Dialogue | None, *, failed: bool) -> JsonObject:
    """Everything known about the call; ``transcript`` is added only on failure."""
    evidence: JsonObject = {}
    if settings is not None:
        evidence.update(model=settings.model, tool_protocol=settings.tool_protocol,
                        max_turns=settings.max_turns)
    if route is not None:
        evidence.update(provider=route.label, mode=route.mode)
        if route.members:
            evidence["model"] = route.members[0].model
    if dialogue is not None:
        evidence.update(_dialogue(dialogue))
        if failed:
            evidence["transcript"] = dialogue.transcript()
    evidence["duration_ms"] = int((time.monotonic() - started) * 1000)
    return {k: v for k, v in evidence.items() if v is not None}


def _dialogue(dialogue: Dialogue) -> JsonObject:
    results = dialogue.results
    out: JsonObject = {
        "turns": dialogue.turns,
        "tool_calls": len(dialogue.calls),
        "corrected": dialogue.corrected,
        "calls": [dict(c) for c in dialogue.calls],
    }
    if not results:
        return out
    last = results[-1]
    stored = sum(1 for r in results if r.source == "stored")
    out.update(
        provider=last.provider,
        model=last.model,
        source="stored" if stored == len(results) else "live",
        stored_turns=stored,
        fingerprint=last.fingerprint,
        prompt_tokens=_total([r.reply.prompt_tokens for r in results]),
        completion_tokens=_total([r.reply.completion_tokens for r in results]),
    )
    reported = last.reply.model
    if reported and reported != last.model:
        out["model_reported"] = reported
    fallbacks = [f for r in results for f in r.fallbacks]
    if fallbacks:
        out["fallbacks"] = "; ".join(dict.fromkeys(fallbacks))
    return out


def _total(counts: list[int | None]) -> int | None:
    known = [c for c in counts if c is not None]
    return sum(known) if known else None
