"""One turn of a model call: ``ChatRequest`` → stored or live ``ModelReply`` (+ where it came from).

This is where the store mode takes effect. ``live`` never touches the store;
``record`` asks a backend and always stores; ``replay`` only reads and never
calls out; ``auto`` reads and falls back to a live call that it stores. Live
calls go through the route's members in order, each with bounded retries;
the next member is asked only when one is unreachable or refuses.

>>> from fxlog.models.redact import Redactor
>>> from fxlog.models.scripted import ScriptedModel
>>> route = Route((Member(ScriptedModel([{"a": 1}]), "m"),), "live")
>>> turn = Exchange(route, AnswerStore("unused.sqlite"), 0, Redactor(set())).turn(
...     ChatRequest("m", ({"role": "user", "content": "hi"},)))
>>> turn.reply.text, turn.source, turn.provider
('{"a": 1}', 'live', 'script')
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from fxlog.models.errors import FALLBACK_TYPES, ModelCallError
from fxlog.models.provider import ChatRequest, JsonObject, ModelReply, with_retries
from fxlog.models.redact import Redactor
from fxlog.models.registry import Member, Route
from fxlog.models.store import AnswerStore, fingerprint, request_key

__all__ = ["Exchange", "TurnResult"]


@dataclass(frozen=True)
class TurnResult:
    """A turn's reply, whether it was ``live`` or ``stored``, and who gave it."""

    reply: ModelReply
    source: str
    provider: str
    model: str
    fingerprint: str
    fallbacks: tuple[str, ...] = ()


class Exchange:
    """Answers turns for one ``_llm`` call according to its route and store mode."""

    def __init__(self, route: Route, store: AnswerStore, retries: int, redactor: Redactor) -> None:
        self.route = route
        self.store = store
        self.retries = retries
        self.redactor = redactor

    def turn(self, request: ChatRequest) -> TurnResult:
        """Answer one turn: from the store if the mode allows and it is there, else live."""
        if not self.route.members:
            return self._replay_any(request)
        candidates = [(m, dataclasses.replace(request, model=m.model)) for m in self.route.members]
        if self.route.mode in ("auto", "replay"):
            for member, req in candidates:
                fp = fingerprint(member.provider.name, req.identity())
                hit = self.store.get(fp)
                if hit is not None:
                    return TurnResult(hit.reply, "stored", hit.provider, hit.model, fp)
        if self.route.mode == "replay":
            first = candidates[0]
            fp = fingerprint(first[0].provider.name, first[1].identity())
            raise self._miss(fp, first[1].model)
        return self._live(candidates)

    def _replay_any(self, request: ChatRequest) -> TurnResult:
        req = dataclasses.replace(request, model=self.route.replay_model or request.model)
        key = request_key(req.identity())
        hit = self.store.get_any_provider(key)
        if hit is None:
            raise self._miss(key, req.model)
        return TurnResult(hit.reply, "stored", hit.provider, hit.model, hit.fingerprint)

    def _miss(self, fp: str, model: str) -> ModelCallError:
        return ModelCallError(
            "replay_miss",
            f"no stored answer with fingerprint {fp} (model {model}) in {self.store.path}; "
            "record it first (FXLOG_MODEL_MODE=record) or allow live calls (auto)",
            {"fingerprint": fp},
        )

    def _live(self, candidates: list[tuple[Member, ChatRequest]]) -> TurnResult:
        failures: list[str] = list(self.route.skipped)
        for position, (member, req) in enumerate(candidates):
            try:
                reply = with_retries(functools.partial(member.provider.chat, req), self.retries)
            except ModelCallError as err:
                if err.type not in FALLBACK_TYPES or position == len(candidates) - 1:
                    if failures:
                        err.rewrite(f"{err.message} (tried before: {'; '.join(failures)})",
                                    {**err.evidence, "fallbacks": "; ".join(failures)})
                    raise
                failures.append(f"{member.provider.name}: {err.type}")
                continue
            return self._keep(member, req, reply, tuple(failures))
        raise AssertionError("a route always has at least one member")

    def _keep(self, member: Member, req: ChatRequest, reply: ModelReply,
              fallbacks: tuple[str, ...]) -> TurnResult:
        # Scrub before storing *and* before the loop sees it, so a replayed
        # transcript is byte-identical to the recorded one.
        clean = ModelReply.from_json(_as_obj(self.redactor.value(reply.to_json())))
        identity = req.identity()
        fp = fingerprint(member.provider.name, identity)
        if self.route.mode in ("record", "auto"):
            self.store.put(fp, request_key(identity), member.provider.name,
                           _as_obj(self.redactor.value(identity)), clean)
        return TurnResult(clean, "live", member.provider.name, member.model, fp, fallbacks)


def _as_obj(value: object) -> JsonObject:
    assert isinstance(value, dict)
    return value
