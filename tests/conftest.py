"""Configuration of the cross-package tests.

* ``assay.testing`` is an opt-in pytest plugin (installing assay registers nothing with pytest);
  these tests opt in here, so its fixtures (``assay_registry``, ``assay_empty_registry``) are
  available to every module under ``tests/``.
* Tests that read ``../shared`` skip, naming the path, when it is absent: see
  :mod:`shared_data` (importable here: the root pyproject puts ``tests/`` on the path) and the
  ``shared`` fixture below.
* The packaging tests' subprocess work (wheels, each plugin installed alone) starts in the
  background as soon as they are collected, and ends with the session: see
  :mod:`packaging_work`.
"""

from __future__ import annotations

from pathlib import Path

import packaging_work
import pytest
from shared_data import shared_path

pytest_plugins = ["assay.testing"]


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ``../shared`` folder; the test is skipped, naming it, when it is absent."""
    return shared_path()


def pytest_collection_finish(session: pytest.Session) -> None:
    packaging = [item for item in session.items if "test_packaging.py::" in item.nodeid]
    if packaging and not session.config.option.collectonly:
        # beside the rest of the suite, one check at a time (the suite keeps a core busy)
        packaging_work.start_early(alone_at_once=2 if packaging == session.items else 1)


def pytest_sessionfinish(session: pytest.Session) -> None:
    packaging_work.stop()
