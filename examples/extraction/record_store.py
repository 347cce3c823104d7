"""Rebuild ``models.sqlite`` from the two scripts (script → record mode → store).

Run from anywhere: ``python examples/extraction/record_store.py``. Each script
plays its answer through the episode host in record mode, so the answer is
stored under exactly the request ``extraction.fx`` sends (its prompt is built
by the rules from the invoice text). ``answers.json`` is recorded as model
``demo-extractor`` (truthful), ``answers_lying.json`` as ``demo-liar`` (its
quote is not in the invoice). Replay either one offline with
``FXLOG_MODEL_PROVIDER=replay FXLOG_MODEL=<model>``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from fxlog.tools.host import run_episode

HERE = Path(__file__).resolve().parent
SCRIPTS = ("answers.json", "answers_lying.json")


def record(script: Path, store: Path) -> str:
    """Run the program once with the scripted model in record mode; return the status."""
    env = {
        "FXLOG_MODEL_PROVIDER": f"script:{script}",
        "FXLOG_MODEL_MODE": "record",
        "FXLOG_MODEL_STORE": str(store),
    }
    saved = {k: os.environ.get(k) for k in (*env, "FXLOG_MODEL")}
    os.environ.update(env)
    os.environ.pop("FXLOG_MODEL", None)  # the script names its own model
    try:
        with tempfile.TemporaryDirectory() as tmp:
            result = run_episode(HERE / "extraction.fx",
                                 receipts_out=Path(tmp) / "run.receipts.fx")
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return f"{script.name}: {result.end_reason} {result.status}"


def main() -> None:
    store = HERE / "models.sqlite"
    store.unlink(missing_ok=True)
    for name in SCRIPTS:
        print(record(HERE / name, store))


if __name__ == "__main__":
    main()
