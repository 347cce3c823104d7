"""Loopback model servers for the model-layer tests.

``FakeModelServer`` speaks either Ollama's ``/api/chat`` or the OpenAI
``/v1/chat/completions`` protocol on 127.0.0.1 (ephemeral port) and plays a
queue of behaviours: answers, tool calls, malformed bodies, HTTP errors, slow
answers and dropped connections. It records every request it receives.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest


class FakeModelServer:
    """A scripted chat server; ``add()`` behaviours, then point a client at ``url``."""

    def __init__(self, protocol: str) -> None:
        self.protocol = protocol
        self.behaviours: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        self.port = self._server.server_address[1]
        self.running = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}" + ("/v1" if self.protocol == "openai" else "")

    def add(self, *behaviours: dict[str, Any]) -> FakeModelServer:
        with self._lock:
            self.behaviours.extend(behaviours)
        return self

    def stop(self) -> None:
        if self.running:
            self.running = False
            self._release.set()
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)

    def next_behaviour(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.requests.append(request)
            if not self.behaviours:
                return {"status": 500, "body": "fake server: no behaviour left"}
            return self.behaviours.pop(0)

    def wait(self, seconds: float) -> None:
        self._release.wait(seconds)

    # -- response bodies -------------------------------------------------
    def answer_body(self, b: dict[str, Any], model: str) -> dict[str, Any]:
        if self.protocol == "ollama":
            return _ollama_body(b, model)
        return _openai_body(b, model, len(self.requests))


def _ollama_body(b: dict[str, Any], model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": b.get("content", "")}
    if b.get("tool_calls"):
        message["tool_calls"] = [
            {"function": {"name": c["name"], "arguments": c.get("arguments", {})}}
            for c in b["tool_calls"]
        ]
    return {
        "model": b.get("model", model),
        "created_at": "2024-01-01T00:00:00Z",
        "message": message,
        "done": True,
        "prompt_eval_count": 11,
        "eval_count": 7,
    }


def _openai_body(b: dict[str, Any], model: str, n: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": b.get("content")}
    finish = "stop"
    if b.get("tool_calls"):
        finish = "tool_calls"
        message["tool_calls"] = [
            {
                "id": f"call_{n}_{i}",
                "type": "function",
                "function": {
                    "name": c["name"],
                    "arguments": c["arguments"]
                    if isinstance(c.get("arguments"), str)
                    else json.dumps(c.get("arguments", {})),
                },
            }
            for i, c in enumerate(b["tool_calls"])
        ]
    if b.get("refusal"):
        message["refusal"] = b["refusal"]
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": 1700000000,
        "model": b.get("model", model),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def _handler(fake: FakeModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:  # noqa: N802 (http.server naming)
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {"_raw": raw.decode("utf-8", "replace")}
            request = {"path": self.path, "headers": dict(self.headers.items()), "body": body}
            b = fake.next_behaviour(request)
            if b.get("delay"):
                fake.wait(float(b["delay"]))
            if b.get("drop"):
                self.close_connection = True
                return
            if "status" in b:
                text = b.get("body", "error")
                if b.get("echo_auth"):
                    text += " " + str(self.headers.get("authorization"))
                self._send(int(b["status"]), json.dumps({"error": text}).encode())
                return
            if "raw" in b:
                self._send(200, str(b["raw"]).encode())
                return
            b = dict(b)
            if b.get("echo_auth"):
                b["content"] = json.dumps({"message": str(self.headers.get("authorization"))})
            self._send(200, json.dumps(fake.answer_body(b, str(body.get("model")))).encode())

        def _send(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@pytest.fixture
def make_server() -> Iterator[Callable[[str], FakeModelServer]]:
    servers: list[FakeModelServer] = []

    def make(protocol: str) -> FakeModelServer:
        server = FakeModelServer(protocol)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def ollama_server(make_server: Callable[[str], FakeModelServer]) -> FakeModelServer:
    return make_server("ollama")


@pytest.fixture
def openai_server(make_server: Callable[[str], FakeModelServer]) -> FakeModelServer:
    return make_server("openai")


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "models.sqlite"


@pytest.fixture
def base_env(store_path: Path) -> dict[str, str]:
    """Hermetic configuration: private store, no retries, short timeouts."""
    return {
        "FXLOG_MODEL_STORE": str(store_path),
        "FXLOG_MODEL_RETRIES": "0",
        "FXLOG_MODEL_TIMEOUT_S": "5",
    }


def ollama_env(base: dict[str, str], server: FakeModelServer, **extra: str) -> dict[str, str]:
    return {**base, "FXLOG_MODEL_PROVIDER": "ollama", "FXLOG_MODEL": "llama-test",
            "OLLAMA_HOST": server.url, **extra}


def openai_env(base: dict[str, str], server: FakeModelServer, **extra: str) -> dict[str, str]:
    return {**base, "FXLOG_MODEL_PROVIDER": "openai", "FXLOG_MODEL": "gpt-test",
            "FXLOG_OPENAI_BASE_URL": server.url, **extra}


@pytest.fixture
def envs() -> Any:
    """Helpers building provider environments: ``envs.ollama(base, server)``."""

    class Envs:
        ollama = staticmethod(ollama_env)
        openai = staticmethod(openai_env)

    return Envs
