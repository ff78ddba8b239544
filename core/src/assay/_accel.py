"""Whether compiled speedups may be used.

Some packages ship an optional compiled twin (``_speedups``, built from Cython when the package
is installed on a machine with a C compiler) of their hot path next to the pure-Python
reference implementation. Both give identical results; the compiled one is only faster. When
``ASSAY_PURE_PYTHON`` is ``1``, ``true`` or ``yes`` (any case), every package uses its
pure-Python implementation instead — for debugging, profiling Python code, or checking that the
two agree.
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
