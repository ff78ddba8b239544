"""Configuration of the cross-package tests.

* ``assay.testing`` is an opt-in pytest plugin (installing assay registers nothing with pytest);
  these tests opt in here, so its fixtures (``assay_registry``, ``assay_empty_registry``) are
  available to every module under ``tests/``.
* Tests that read ``../shared`` skip, naming the path, when it is absent: see
  :mod:`shared_data` (importable here: the root pyproject puts ``tests/`` on the path) and the
  ``shared`` fixture below.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shared_data import shared_path

pytest_plugins = ["assay.testing"]


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ``../shared`` folder; the test is skipped, naming it, when it is absent."""
    return shared_path()
