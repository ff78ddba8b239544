"""The package facade: every export resolves, and plugin discovery imports nothing heavy."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

import assay_jeffreys


def test_every_export_resolves_to_an_object_not_a_submodule():
    for name in assay_jeffreys.__all__:
        importlib.import_module(f"assay_jeffreys.{assay_jeffreys._EXPORTS[name]}")
    for name in assay_jeffreys.__all__:
        value = getattr(assay_jeffreys, name)
        assert not isinstance(value, types.ModuleType), name


def test_loading_the_hook_module_imports_neither_numpy_nor_scipy():
    code = (
        "import sys, assay_jeffreys.plugin as p; "
        "print(any(m.split('.')[0] in ('numpy', 'scipy') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
