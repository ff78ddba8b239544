"""Where the cross-package tests find ``../shared`` (the specifications, reference outputs and
data sets that sit beside the repository, read in place), and what they do without it.

A test module that needs a file from there asks for it by path::

    from shared_data import shared_path

    VECTORS = shared_path("conformance", "scorecard")  # at import: skips the whole module

a test or fixture does the same inside its body to skip only itself, and a test that runs an
example reading the folder is marked ``@needs_shared("data", "halueval_qa_dev.jsonl")``. When
the path is absent the test is skipped with a message naming it, instead of failing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def _missing(parts: tuple[str, ...]) -> str | None:
    """The skip message when ``../shared/<parts>`` is absent, else None."""
    if SHARED.joinpath(*parts).exists():
        return None
    name = "/".join(("..", "shared", *parts))
    return f"needs {name} (the shared data folder beside the repo; CI has it)"


def shared_path(*parts: str) -> Path:
    """``../shared/<parts>``; skips the calling test (or, at import, its module) when absent."""
    __tracebackhide__ = True  # the skip is reported at the caller's line, in the test module
    reason = _missing(parts)
    if reason:
        pytest.skip(reason, allow_module_level=True)
    return SHARED.joinpath(*parts)


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """A mark that skips the test, with the same message, when ``../shared/<parts>`` is absent."""
    reason = _missing(parts)
    return pytest.mark.skipif(reason is not None, reason=reason or "")
