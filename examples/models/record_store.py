"""Rebuild ``models.sqlite`` from ``hello.script.json`` (script → record mode → store).

Run from anywhere: ``python examples/models/record_store.py``. The scripted
model plays the answer, and record mode stores it under the same fingerprint
a live model would get, so ``FXLOG_MODEL_PROVIDER=replay`` finds it offline.
"""

from __future__ import annotations

import re
from pathlib import Path

from fxlog.models import call_llm

HERE = Path(__file__).resolve().parent


def program_prompt() -> str:
    """The prompt exactly as ``hello.fx`` writes it (``\\"`` unescaped)."""
    source = (HERE / "hello.fx").read_text(encoding="utf-8")
    match = re.search(r'prompt -> "((?:[^"\\]|\\.)*)"', source)
    assert match is not None, "hello.fx has no prompt"
    return match.group(1).replace('\\"', '"').replace("\\\\", "\\")


def main() -> None:
    store = HERE / "models.sqlite"
    store.unlink(missing_ok=True)
    env = {
        "FXLOG_MODEL_PROVIDER": f"script:{HERE / 'hello.script.json'}",
        "FXLOG_MODEL_MODE": "record",
        "FXLOG_MODEL_STORE": str(store),
    }
    output, evidence = call_llm({"prompt": program_prompt()}, env=env)
    print(output, evidence["fingerprint"])


if __name__ == "__main__":
    main()
