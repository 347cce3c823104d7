"""Application tool adapters shipped with fxlog (imported as ``fxlog.adapters``)."""

if __name__ != "fxlog.adapters":  # pragma: no cover - guards a packaging mistake
    raise ImportError("import this package as `fxlog.adapters`, not `adapters`")
