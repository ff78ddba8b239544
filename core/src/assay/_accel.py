"""The one switch for compiled kernels.

Some plugins ship an optional compiled module (built with Cython when the package is installed on
a machine with a C compiler): a rule-free kernel such as a tokeniser, or a module compiled from
the plugin's own Python source. The Python code stays the one source of every rule; the compiled
module only gives the same results faster. When ``ASSAY_PURE_PYTHON`` is ``1``, ``true`` or
``yes`` (any case), :func:`load_speedups` returns ``None`` everywhere and the Python code runs:
for debugging, profiling, or checking that the two agree (docs/speedups.md).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["load_speedups", "speedups_allowed"]

_TRUTHY = {"1", "true", "yes"}


def speedups_allowed() -> bool:
    """Whether a package may use its compiled speedups (``ASSAY_PURE_PYTHON`` is not set to
    ``1``/``true``/``yes``). Packages ask once, when their module is imported."""
    return os.environ.get("ASSAY_PURE_PYTHON", "").strip().lower() not in _TRUTHY


def load_speedups(module: str) -> ModuleType | None:
    """The compiled module ``module`` when it is built and :func:`speedups_allowed`, else
    ``None`` (the caller then keeps its pure-Python implementation).

    :param module: absolute module name, e.g. ``"my_package._speedups"``.
    """
    if not speedups_allowed():
        return None
    try:
        return importlib.import_module(module)
    except ImportError:  # not built (no C compiler at install time)
        return None
