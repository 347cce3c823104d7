"""The one failure type of the model-call layer: a typed, evidence-carrying error.

A failed ``_llm`` call is not an exception the host can shrug off: it becomes a
failed receipt whose ``error("type")`` lets rules decide what happens next
(retry with another model, give up, ask a person). So every failure carries a
short machine-readable ``type``, a human message and whatever evidence was
gathered before things went wrong.

>>> err = ModelCallError("turn_cap", "no answer after 3 turns", {"turns": 3})
>>> (err.type, err.message, err.evidence["turns"])
('turn_cap', 'no answer after 3 turns', 3)
"""

from __future__ import annotations

from collections.abc import Mapping

from fxlog.errors import FxlogError

__all__ = ["FALLBACK_TYPES", "RETRYABLE_TYPES", "ModelCallError"]

#: Failures of one provider that a fallback group answers by asking the next member.
FALLBACK_TYPES = frozenset(
    {"unreachable", "timeout", "refused", "tools_unsupported", "http_error", "bad_response"}
)

#: Failures worth one more identical attempt at the same provider. A timeout is
#: not among them: a model too slow once is usually too slow again, and a retry
#: would double the wait. (HTTP 429 and 5xx are retried too, see ``retryable``.)
RETRYABLE_TYPES = frozenset({"unreachable"})


class ModelCallError(FxlogError):
    """A model call failed; ``type`` says how, ``evidence`` what was seen.

    Attributes:
        type: Stable failure kind ("unreachable", "replay_miss", "turn_cap", ...),
            meant for rules to match on.
        message: What happened, in words a user can act on. Never holds a credential.
        evidence: Flat facts gathered up to the failure; the host records them on
            the failed receipt.
        retryable: Whether repeating the identical request may succeed (a 503, a
            dropped connection), as opposed to a definitive refusal.
    """

    def __init__(
        self,
        type: str,
        message: str,
        evidence: Mapping[str, object] | None = None,
        *,
        retryable: bool | None = None,
    ) -> None:
        super().__init__(message)
        self.type = type
        self.evidence: dict[str, object] = dict(evidence or {})
        self.retryable = type in RETRYABLE_TYPES if retryable is None else retryable

    def __str__(self) -> str:
        return f"{self.type}: {self.message}"

    def rewrite(self, message: str, evidence: Mapping[str, object]) -> None:
        """Replace message and evidence in place (after redaction), keeping the cause."""
        self.message = message
        self.args = (message,)
        self.evidence = dict(evidence)
