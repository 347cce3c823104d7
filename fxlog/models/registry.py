"""Provider spec + environment → ``Route``: which backends to ask, with which model, in which mode.

``FXLOG_MODEL_PROVIDER`` names one backend (``ollama``, ``openai``,
``script:PATH.json``), a comma-separated fallback group (``ollama,openai``), or
``replay`` (stored answers only). Python callers may bypass the spec with an
explicit provider object or :func:`use_provider`, which is how tests plug in
the scripted model.

>>> from fxlog.models.config import load_settings
>>> settings = load_settings({"prompt": "p"}, {"FXLOG_MODEL": "m"})
>>> route = resolve_route(settings, {}, has_tools=False)
>>> [(m.provider.name, m.model) for m in route.members], route.mode
([('ollama', 'm')], 'auto')
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fxlog.models.config import Settings
from fxlog.models.errors import ModelCallError
from fxlog.models.ollama_provider import OllamaProvider
from fxlog.models.openai_provider import OpenAIProvider
from fxlog.models.provider import ChatProvider
from fxlog.models.scripted import ScriptedModel, load_script

__all__ = ["Member", "Route", "build_provider", "resolve_route", "use_provider"]

_OVERRIDES: list[ChatProvider] = []
_SCRIPTS: dict[tuple[str, int], ScriptedModel] = {}
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Member:
    """One backend of a route and the model name it is asked for."""

    provider: ChatProvider
    model: str


@dataclass(frozen=True)
class Route:
    """The backends to try in order (empty for ``replay``) and the store mode."""

    members: tuple[Member, ...]
    mode: str
    replay_model: str | None = None
    skipped: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """Provider name(s) for evidence when no turn has answered yet."""
        return ",".join(m.provider.name for m in self.members) or "replay"


@contextmanager
def use_provider(provider: ChatProvider) -> Iterator[ChatProvider]:
    """Answer every ``_llm`` call in this process from ``provider`` while the block runs.

    Process-wide on purpose: the host may run tools on worker threads, which a
    context variable would not reach. Meant for tests and demos, not for
    concurrent production use.
    """
    with _LOCK:
        _OVERRIDES.append(provider)
    try:
        yield provider
    finally:
        with _LOCK:
            _OVERRIDES.remove(provider)


def build_provider(name: str, env: Mapping[str, str]) -> ChatProvider:
    """One backend from its spec item (``ollama``, ``openai``, ``script:PATH``)."""
    if not name.startswith("script:"):
        name = name.lower()
    if name == "ollama":
        return OllamaProvider(env.get("OLLAMA_HOST") or None, env.get("OLLAMA_API_KEY") or None)
    if name == "openai":
        return OpenAIProvider(
            env.get("FXLOG_OPENAI_BASE_URL") or None, env.get("FXLOG_OPENAI_API_KEY") or None
        )
    if name.startswith("script:"):
        return _script(name.removeprefix("script:"))
    if name == "replay":
        raise ModelCallError(
            "invalid_request",
            "replay cannot be a member of a group; keep the group and set FXLOG_MODEL_MODE=replay",
        )
    raise ModelCallError(
        "invalid_request",
        f"unknown model provider {name!r}; use ollama, openai, replay or script:PATH.json",
    )


def resolve_route(settings: Settings, env: Mapping[str, str], *, has_tools: bool,
                  provider: ChatProvider | None = None) -> Route:
    """Pick the backends for one call and drop those that cannot take its tools."""
    chosen = provider if provider is not None else _current_override()
    if chosen is None and settings.provider.strip().lower() == "replay":
        if not settings.model:
            raise ModelCallError("invalid_request",
                                 "the replay provider needs FXLOG_MODEL (the recorded model)")
        return Route((), "replay", replay_model=settings.model)
    providers = [chosen] if chosen is not None else [
        build_provider(item.strip(), env) for item in settings.provider.split(",") if item.strip()
    ]
    if not providers:
        raise ModelCallError("invalid_request", "FXLOG_MODEL_PROVIDER names no provider")
    members = tuple(Member(p, _model_for(p, settings, env)) for p in providers)
    mode = settings.mode or members[0].provider.default_mode or "auto"
    if not has_tools or settings.tool_protocol == "xml":
        return Route(members, mode)
    able = tuple(m for m in members if _takes_tools(m, settings))
    if not able:
        names = ", ".join(f"{m.model} ({m.provider.name})" for m in members)
        raise ModelCallError(
            "tools_unsupported",
            f"{names} cannot call tools natively; use tool_protocol -> \"xml\" or another model",
        )
    skipped = tuple(f"{m.provider.name}: no tool support" for m in members if m not in able)
    return Route(able, mode, skipped=skipped)


def _current_override() -> ChatProvider | None:
    with _LOCK:
        return _OVERRIDES[-1] if _OVERRIDES else None


def _model_for(provider: ChatProvider, settings: Settings, env: Mapping[str, str]) -> str:
    own = env.get(f"FXLOG_{provider.name.upper()}_MODEL")
    model = own or settings.model or provider.default_model
    if not model:
        raise ModelCallError(
            "invalid_request",
            f"no model configured for {provider.name}: set FXLOG_MODEL or the model field",
        )
    return model


def _takes_tools(member: Member, settings: Settings) -> bool:
    return member.provider.supports_tools and not settings.model_lacks_tools(member.model)


def _script(path: str) -> ScriptedModel:
    # One ScriptedModel per file version, so a run's successive _llm calls
    # consume the script in order instead of restarting it.
    resolved = Path(path).resolve()
    try:
        key = (str(resolved), resolved.stat().st_mtime_ns)
    except OSError as exc:
        raise ModelCallError("invalid_request", f"cannot read script {path}: {exc}") from exc
    with _LOCK:
        if key not in _SCRIPTS:
            _SCRIPTS[key] = load_script(resolved)
        return _SCRIPTS[key]
