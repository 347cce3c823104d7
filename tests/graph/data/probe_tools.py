"""A tool whose return annotation declares its receipt fields (for `fxlog check --adapter`)."""

from __future__ import annotations

from typing import TypedDict


class ProbeOutput(TypedDict):
    status: str
    latency_ms: float


def probe(host: str, timeout: float = 1.0) -> tuple[ProbeOutput, dict[str, object]]:
    return {"status": "up", "latency_ms": 1.5}, {"host": host}


TOOLS = {"probe": probe}
