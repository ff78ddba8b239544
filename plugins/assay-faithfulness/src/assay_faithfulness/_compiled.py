"""The plugin's optional compiled modules, and the switch that keeps them out.

Two kinds are built when the package is installed on a machine with a C compiler (setup.py):

* ``_speedups``, built from ``_speedups.pyx`` by Cython, mirrors a few pure-Python functions of
  :mod:`.text`, :mod:`.ngrams`, :mod:`.tfidf` and :mod:`.jsnumbers`, which stay the reference,
  and gives identical results, only faster. Those modules use it when :data:`COMPILED` is
  true: it was built, and ``ASSAY_PURE_PYTHON`` is not set (:func:`assay.load_speedups`, asked
  once, when the plugin is imported).
* The answer detector's modules (``answer_*.py``, ``inflection.py``) compiled by mypyc from
  their own source: the ``.py`` file is both the compiled module's source and, where the build
  was skipped, the module itself. Python imports the compiled module when it is there.

With ``ASSAY_PURE_PYTHON`` set, this module installs :class:`SourceFirst`, so that every module
of the package is imported from its ``.py`` file, compiled or not; the package imports this
module before any other of its own.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import assay

if TYPE_CHECKING:  # the stub, _speedups.pyi; callers use it only when COMPILED is true
    from assay_faithfulness import _speedups
else:  # None when not built (no C compiler at install time) or ASSAY_PURE_PYTHON is set
    _speedups = assay.load_speedups("assay_faithfulness._speedups")

__all__ = ["COMPILED", "SourceFirst", "_speedups"]

COMPILED = _speedups is not None
"""Whether the compiled twins are in use (built, and ``ASSAY_PURE_PYTHON`` not set)."""

_PACKAGE = __name__.rpartition(".")[0]
_FOLDER = Path(__file__).parent


class SourceFirst(MetaPathFinder):
    """Imports each module of this package from its ``.py`` source, even where a compiled
    module of the same name stands beside it."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        source = _FOLDER / f"{name}.py"
        if package != _PACKAGE or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


if not assay.speedups_allowed() and not any(isinstance(f, SourceFirst) for f in sys.meta_path):
    sys.meta_path.insert(0, SourceFirst())
