"""Request fields + environment → ``Settings`` for one ``_llm`` call.

A request may override a few things the operator configured (model,
provider, mode, sampling, turn cap); everything else comes from ``FXLOG_*``
environment variables. Bad values fail here with type ``invalid_request``,
before any provider is touched.

>>> s = load_settings({"prompt": "hi", "max_turns": "3"}, {"FXLOG_MODEL": "m"})
>>> (s.model, s.max_turns, s.mode, s.tool_protocol)
('m', 3, None, 'native')
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from fxlog.models.answers import resolve_schema
from fxlog.models.errors import ModelCallError
from fxlog.models.provider import JsonObject

__all__ = ["MODES", "Settings", "load_settings"]

MODES = ("live", "record", "replay", "auto")
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_RETRIES = 1
DEFAULT_STORE = ".fxlog/models.sqlite"


@dataclass(frozen=True)
class Settings:
    """Everything one ``_llm`` call needs to know, already validated.

    ``mode`` is ``None`` when neither request nor environment chose one; the
    provider then decides (the scripted model defaults to "live", the rest to
    "auto").
    """

    prompt: str
    system: str | None
    provider: str
    model: str | None
    mode: str | None
    schema: JsonObject | None
    max_turns: int
    tool_protocol: str
    temperature: float | None
    seed: int | None
    timeout_s: float
    retries: int
    store_path: Path
    without_tools: tuple[str, ...]

    def model_lacks_tools(self, model: str) -> bool:
        """Whether the operator listed ``model`` as unable to call tools natively."""
        return any(fnmatch.fnmatchcase(model, pattern) for pattern in self.without_tools)


def load_settings(fields: Mapping[str, object], env: Mapping[str, str]) -> Settings:
    """Validate the request fields and merge them over the environment."""
    prompt = fields.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise ModelCallError("invalid_request", "_llm needs a non-empty prompt field")
    return Settings(
        prompt=prompt,
        system=_opt_text(fields, "system"),
        provider=_text(fields, env, "provider", "FXLOG_MODEL_PROVIDER") or "ollama",
        model=_text(fields, env, "model", "FXLOG_MODEL"),
        mode=_mode(_text(fields, env, "mode", "FXLOG_MODEL_MODE")),
        schema=resolve_schema(fields.get("schema")),
        max_turns=_int(fields.get("max_turns", 10), "max_turns", minimum=1),
        tool_protocol=_protocol(_text(fields, env, "tool_protocol", "FXLOG_TOOL_PROTOCOL")),
        temperature=_opt_float(fields.get("temperature"), "temperature"),
        seed=_opt_int(fields.get("seed"), "seed"),
        timeout_s=_float(
            fields.get("timeout_s", env.get("FXLOG_MODEL_TIMEOUT_S", DEFAULT_TIMEOUT_S)),
            "timeout_s",
        ),
        retries=_int(env.get("FXLOG_MODEL_RETRIES", DEFAULT_RETRIES), "FXLOG_MODEL_RETRIES"),
        store_path=Path(env.get("FXLOG_MODEL_STORE") or DEFAULT_STORE),
        without_tools=tuple(
            p.strip() for p in env.get("FXLOG_MODELS_WITHOUT_TOOLS", "").split(",") if p.strip()
        ),
    )


def _text(fields: Mapping[str, object], env: Mapping[str, str], key: str, var: str) -> str | None:
    value = _opt_text(fields, key)
    return value if value is not None else (env.get(var) or None)


def _opt_text(fields: Mapping[str, object], key: str) -> str | None:
    value = fields.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ModelCallError("invalid_request", f"field {key} must be a string")
    return value


def _mode(value: str | None) -> str | None:
    if value is not None and value not in MODES:
        raise ModelCallError("invalid_request", f"mode {value!r} is not one of {', '.join(MODES)}")
    return value


def _protocol(value: str | None) -> str:
    value = value or "native"
    if value not in ("native", "xml"):
        raise ModelCallError(
            "invalid_request", f'tool_protocol must be "native" or "xml", not {value!r}'
        )
    return value


def _number(value: object, name: str) -> Decimal:
    # Programs write exact decimals; hosts may hand them over as Decimal, str or float.
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise ModelCallError("invalid_request", f"{name} must be a number, not {value!r}")
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation as exc:
        raise ModelCallError("invalid_request", f"{name} must be a number, not {value!r}") from exc
    if not number.is_finite():
        raise ModelCallError("invalid_request", f"{name} must be finite")
    return number


def _int(value: object, name: str, minimum: int = 0) -> int:
    number = _number(value, name)
    if number != number.to_integral_value() or number < minimum:
        raise ModelCallError("invalid_request", f"{name} must be an integer >= {minimum}")
    return int(number)


def _float(value: object, name: str) -> float:
    number = float(_number(value, name))
    if number <= 0:
        raise ModelCallError("invalid_request", f"{name} must be positive")
    return number


def _opt_float(value: object, name: str) -> float | None:
    return None if value is None else float(_number(value, name))


def _opt_int(value: object, name: str) -> int | None:
    return None if value is None else _int(value, name, minimum=-(2**63))
