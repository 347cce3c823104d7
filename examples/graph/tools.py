"""Tools of the three-step example (``--adapter examples/graph/tools.py``).

Deterministic stand-ins for a document store, a classifier and a filing
system; their return annotations declare the receipt fields, which
``fxlog check --adapter`` compares with what the rules read.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["TOOLS", "classify_text", "fetch_doc", "file_doc"]


class Fetched(TypedDict):
    text: str
    length: int


class Classified(TypedDict):
    label: str
    confidence: float


class Filed(TypedDict):
    path: str


_DOCS = {"d1": "Invoice 2024-117: 3 items, total due 420.00 EUR"}


def fetch_doc(id: str) -> tuple[Fetched, dict[str, object]]:
    text = _DOCS[id]
    return {"text": text, "length": len(text)}, {"store": "memory"}


def classify_text(text: str) -> tuple[Classified, dict[str, object]]:
    label = "invoice" if "invoice" in text.lower() else "other"
    return {"label": label, "confidence": 0.97}, {"model": "keywords"}


def file_doc(id: str, label: str) -> tuple[Filed, dict[str, object]]:
    return {"path": f"/archive/{label}/{id}.txt"}, {}


TOOLS = {"fetch_doc": fetch_doc, "classify_text": classify_text, "file_doc": file_doc}
