"""The native result and status views, typed in ``_views.pyi``, re-exported from the compiled
module: every class it exports but the sandbox and the cancel token (typed in ``_fsnative.pyi``).
stubtest checks that each class the stub types is here."""

from fsnative import _fsnative

globals().update(
    (name, getattr(_fsnative, name))
    for name in _fsnative.__all__
    if isinstance(getattr(_fsnative, name), type) and name not in ("CancelToken", "Sandbox")
)
