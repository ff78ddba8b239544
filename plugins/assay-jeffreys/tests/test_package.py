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


def _imports_between_modules() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, at top level or inside functions."""
    import ast
    from pathlib import Path

    root = Path(assay_jeffreys.__file__).parent
    modules = {f"assay_jeffreys.{p.stem}": p for p in root.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def test_no_module_imports_another_that_imports_it_back():
    graph = _imports_between_modules()
    cycles = []

    def visit(name: str, path: list[str]) -> None:
        for target in sorted(graph[name]):
            if target in path:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in done:
                visit(target, [*path, target])
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    assert cycles == []
