"""Where the cross-package tests find ``../shared`` (the specifications, reference outputs and
data sets that sit beside the repository, read in place), and what they do without it.

A test module that needs a file from there asks for it by path::

    from shared_data import shared_path

    VECTORS = shared_path("conformance", "scorecard")  # at import: skips the whole module

and a test or fixture does the same inside its body to skip only itself. When the path is absent
the test is skipped with a message naming it, instead of failing at collection.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def shared_path(*parts: str) -> Path:
    """``../shared/<parts>``; skips the calling test (or, at import, its module) when absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"needs {path}: the shared specifications and data beside the repository "
            "(a checkout at <dir>/main with <dir>/shared, as CI has)",
            allow_module_level=True,
        )
    return path
