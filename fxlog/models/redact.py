"""Secrets in the environment → a ``Redactor`` that scrubs them from anything fxlog writes.

Evidence, stored answers, error messages and outputs all end up in files a
person may share. A server can echo a request header back in an error body
(or a model can be tricked into repeating it), so every string leaving this
layer is scrubbed of the credential values the environment holds.

>>> r = Redactor.from_env({"FXLOG_OPENAI_API_KEY": "sk-secret-123", "HOME": "/root"})
>>> r.value({"message": "bad key sk-secret-123", "n": 1})
{'message': 'bad key [redacted]', 'n': 1}
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["Redactor"]

_SECRET_NAME = re.compile(r"(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.I)
#: Shorter values would scrub ordinary words out of answers.
_MIN_SECRET_LEN = 8
MASK = "[redacted]"


class Redactor:
    """Replaces every known secret value with ``[redacted]``."""

    def __init__(self, secrets: set[str]) -> None:
        self._secrets = sorted((s for s in secrets if len(s) >= _MIN_SECRET_LEN),
                               key=len, reverse=True)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Redactor:
        """Treat the value of every variable named like a credential as secret."""
        return cls({v.strip() for k, v in env.items() if _SECRET_NAME.search(k) and v.strip()})

    def text(self, text: str) -> str:
        """``text`` with every secret masked."""
        for secret in self._secrets:
            if secret in text:
                # A secret inside the mask itself would reappear; mask it plainly then.
                text = text.replace(secret, "***" if secret in MASK else MASK)
        return text

    def value(self, value: object) -> object:
        """Mask secrets in every string inside a JSON-like value (keys included)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.text(str(k)): self.value(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.value(v) for v in value]
        return value

    def mapping(self, value: Mapping[str, object]) -> dict[str, object]:
        """:meth:`value` for a mapping, typed as one."""
        return {self.text(str(k)): self.value(v) for k, v in value.items()}
