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


def _typed_sources() -> list[str]:
    """The core, every plugin (new ones included, and the template a new plugin is copied
    from) and the example plugin package; not the deliberately broken test package."""
    plugins = sorted(p for p in (ROOT / "plugins").glob("*/src") if p.is_dir())
    paths = [
        ROOT / "core" / "src" / "assay",
        *plugins,
        ROOT / "examples" / "plugin-package" / "src",
    ]
    return [str(p.relative_to(ROOT)) for p in paths]


def test_mypy_covers_every_plugin() -> None:
    sources = _typed_sources()
    for plugin in (ROOT / "plugins").iterdir():
        if (plugin / "pyproject.toml").is_file():
            assert f"plugins/{plugin.name}/src" in sources, plugin.name


def test_mypy_strict_on_the_core_and_plugins() -> None:
    result = _run("mypy", *_typed_sources())
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
