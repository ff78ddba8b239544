"""The public facade: every name in ``assay.__all__`` resolves, lazily, to its private home."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import assay


def test_every_public_name_resolves_and_is_listed_by_dir() -> None:
    for name in assay.__all__:
        value = getattr(assay, name)
        assert value is not None, name
        assert name in dir(assay), name
    assert assay.Dimension.__module__ == "assay._protocols"
    from assay import _hookspecs

    assert assay.hookimpl is _hookspecs.hookimpl


def test_public_submodules_are_reachable_as_attributes() -> None:
    assert assay.wire.to_camel("uncapped_raw") == "uncappedRaw"
    assert assay.jsmath.js_round(2.5) == 3.0
    assert assay.cli.EXIT_USAGE == 2


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        assay.Nope  # type: ignore[attr-defined]  # noqa: B018


def test_a_name_loads_its_module_on_first_use_only() -> None:
    code = (
        "import sys, assay\n"
        "before = 'assay._records' in sys.modules\n"
        "from assay import Decision\n"
        "print(before, 'assay._records' in sys.modules, 'pluggy' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == ["False", "True", "False"]


def test_the_three_lists_of_public_names_agree() -> None:
    """``__all__``, the lazy table and the imports type checkers read name the same things."""
    tree = ast.parse(Path(assay.__file__).read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("assay."):
            imported |= {alias.asname or alias.name for alias in node.names}
    eager = {"AssayError", "ErrorCode", "ExitCode", "PluginLoadWarning"}
    assert set(assay.__all__) == imported == set(assay._LAZY) | eager
