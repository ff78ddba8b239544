"""The optional compiled twin of this plugin's kernels, and whether it is in use.

``_speedups`` is built from ``_speedups.pyx`` by Cython when the package is installed on a
machine with a C compiler. It mirrors a few pure-Python functions of :mod:`.text`,
:mod:`.ngrams`, :mod:`.tfidf` and :mod:`.jsnumbers`, which stay the reference, and gives
identical results, only faster. Those modules use it when :data:`COMPILED` is true: it was
built, and ``ASSAY_PURE_PYTHON`` is not set (:func:`assay.load_speedups`, asked once, when the
plugin is imported).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import assay

if TYPE_CHECKING:  # the stub, _speedups.pyi; callers use it only when COMPILED is true
    from assay_faithfulness import _speedups
else:  # None when not built (no C compiler at install time) or ASSAY_PURE_PYTHON is set
    _speedups = assay.load_speedups("assay_faithfulness._speedups")

__all__ = ["COMPILED", "_speedups"]

COMPILED = _speedups is not None
"""Whether the compiled twins are in use (built, and ``ASSAY_PURE_PYTHON`` not set)."""
