"""Lowering passes from the fxlog AST to ASP text (imported as ``fxlog.translators``).

The folder sits at the top of the repository but is installed as the
``fxlog.translators`` package: the bare name ``translators`` belongs to another
distribution on PyPI, so importing it under that name is refused.
"""

if __name__ != "fxlog.translators":  # pragma: no cover - guards a packaging mistake
    raise ImportError("import this package as `fxlog.translators`, not `translators`")
