"""Lint, format and type checks run with the suite, so CI fails on them like on any test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900
    )


def test_ruff_lint() -> None:
    result = _run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_core_and_plugins() -> None:
    plugin_sources = sorted(str(p) for p in (ROOT / "plugins").glob("assay-*/src"))
    result = _run("mypy", "core/src/assay", *plugin_sources)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
