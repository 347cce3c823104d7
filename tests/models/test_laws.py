"""Properties that hold for every input: answers, fences and redaction."""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from fxlog.models.answers import to_output
from fxlog.models.redact import Redactor

scalars = st.none() | st.booleans() | st.integers() | st.text() | st.floats(
    allow_nan=False, allow_infinity=False
)
flat_objects = st.dictionaries(st.text(max_size=10).filter(lambda k: k != "rows"), scalars,
                               min_size=1, max_size=8)


@settings(database=None, max_examples=80, deadline=None)
@given(flat_objects, st.booleans())
def test_flat_json_answers_are_the_output(obj, fenced):
    text = json.dumps(obj)
    if fenced:
        text = f"```json\n{text}\n```"
    assert to_output(text) == obj


@settings(database=None, max_examples=80, deadline=None)
@given(st.text().filter(lambda t: not t.strip().startswith(("{", "[", '"', "`"))))
def test_non_json_answers_become_text(text):
    try:
        json.loads(text)
    except ValueError:
        assert to_output(text) == {"text": text}


@settings(database=None, max_examples=80, deadline=None)
@given(st.text(min_size=8, max_size=30).filter(lambda s: s.strip() == s and s),
       st.lists(st.text(max_size=10), max_size=4))
@example("redacted", ["[", "]"])  # a secret that is part of the mask itself
def test_a_secret_never_survives_redaction(secret, parts):
    value = {"a": secret.join(parts) + secret, "calls": [{"x": f"<{secret}>"}], secret: 1}
    cleaned = Redactor.from_env({"FXLOG_OPENAI_API_KEY": secret}).value(value)
    assert secret not in json.dumps(cleaned, ensure_ascii=False)
