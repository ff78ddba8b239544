"""Fixtures shared by the evaluation plugin's tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import assay

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import ContextCount, TruthOverlap, WordCount


@pytest.fixture
def toy_default_registry(monkeypatch):
    """The default registry holds the toy metrics and, of the installed plugins, only
    ``evaluation`` (for ``assay eval``); reset after the test."""
    monkeypatch.setenv("ASSAY_PLUGINS", "evaluation")
    assay.reset_default_registry()
    for metric in (WordCount(), TruthOverlap(), ContextCount()):
        assay.register(metric)
    yield
    assay.reset_default_registry()
