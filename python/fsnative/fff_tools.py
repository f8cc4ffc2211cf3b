"""Deprecated: the former name of :mod:`fsnative.fff` (the FFF drop-in), kept so that imports of
0.1.0 keep working; importing it warns. ``python -m fsnative.fff_tools`` still serves the tools."""

import warnings

from fsnative.fff import (
    FIND_LIMIT,
    GREP_LIMIT,
    MATCHES_PER_FILE,
    MAX_FILESIZE,
    MAX_LINE_BYTES,
    FffTools,
    main,
)

__all__ = ["FIND_LIMIT", "GREP_LIMIT", "MATCHES_PER_FILE", "MAX_FILESIZE", "MAX_LINE_BYTES", "FffTools", "main"]

warnings.warn(
    "fsnative.fff_tools is deprecated: import fsnative.fff, its name beside Node's fsnative/fff",
    DeprecationWarning,
    stacklevel=2,
)

if __name__ == "__main__":
    main()
