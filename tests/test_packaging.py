"""Each plugin installs and passes its own tests with only the core (and the workspace packages
it declares as dependencies) beside it, in a fresh virtual environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = sorted(
    p.name for p in (ROOT / "plugins").iterdir() if p.is_dir() and not p.name.startswith("_")
)


def _meta(path: Path) -> dict:
    return tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))


def _workspace_closure(plugin: str) -> list[Path]:
    """The plugin, the core and every workspace package it depends on (transitively)."""
    wanted, seen = [ROOT / "plugins" / plugin], {}
    while wanted:
        path = wanted.pop()
        meta = _meta(path)
        name = meta["project"]["name"]
        if name in seen:
            continue
        seen[name] = path
        sources = meta.get("tool", {}).get("uv", {}).get("sources", {})
        for dep, source in sources.items():
            if isinstance(source, dict) and source.get("workspace"):
                wanted.append(ROOT / "core" if dep == "assay" else ROOT / "plugins" / dep)
    return list(seen.values())


def _requirement(path: Path) -> str:
    extras = list(_meta(path)["project"].get("optional-dependencies", {}))
    return f"{path}[{','.join(extras)}]" if extras else str(path)


@pytest.mark.parametrize("plugin", PLUGINS)
def test_plugin_passes_its_tests_alone(plugin: str, tmp_path: Path) -> None:
    uv = shutil.which("uv")
    assert uv, "uv is on PATH in the workspace set-up (python3 -m pip install uv)"
    venv = tmp_path / "venv"
    subprocess.run(
        [uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, timeout=300
    )
    python = venv / "bin" / "python"
    packages = []
    for path in _workspace_closure(plugin):
        # regular installs, not editable ones: an editable build of a package with compiled
        # speedups writes the extension module into the source tree, under the feet of this
        # very test run, which has it loaded
        packages.append(_requirement(path))
    subprocess.run(
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            *packages,
            "pytest",
            "pytest-benchmark",
        ],
        check=True,
        timeout=600,
        cwd=ROOT,
    )
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    result = subprocess.run(
        [
            str(python),
            "-m",
            "pytest",
            f"plugins/{plugin}/tests",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


def test_template_scaffold_installs_and_passes_its_tests(tmp_path: Path) -> None:
    """plugins/_template, copied as a new plugin would be, installs and its tests pass.

    Outside the workspace the ``assay = { workspace = true }`` source cannot apply, so the copy
    drops that table and installs the core from the checkout instead.
    """
    uv = shutil.which("uv")
    assert uv, "uv is on PATH in the workspace set-up (python3 -m pip install uv)"
    plugin = tmp_path / "assay-example"
    shutil.copytree(ROOT / "plugins" / "_template", plugin)
    pyproject = plugin / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace("[tool.uv.sources]\nassay = { workspace = true }\n", ""))
    venv = tmp_path / "venv"
    subprocess.run(
        [uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, timeout=300
    )
    python = venv / "bin" / "python"
    subprocess.run(
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            str(ROOT / "core"),
            str(plugin),
            "pytest",
            "pytest-benchmark",
        ],
        check=True,
        timeout=600,
    )
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    result = subprocess.run(
        [str(python), "-m", "pytest", str(plugin / "tests"), "-q", "-p", "no:cacheprovider"],
        cwd=plugin,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "2 passed" in result.stdout


def test_core_installs_and_scores_without_a_c_compiler(tmp_path: Path) -> None:
    """The compiled twin is optional: with no working C compiler the core still installs and
    runs its pure-Python reference."""
    uv = shutil.which("uv")
    assert uv, "uv is on PATH in the workspace set-up (python3 -m pip install uv)"
    source = tmp_path / "core"
    shutil.copytree(
        ROOT / "core",
        source,
        ignore=shutil.ignore_patterns("build", "*.so", "_speedups.c", "*.egg-info", "__pycache__"),
    )
    venv = tmp_path / "venv"
    subprocess.run(
        [uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, timeout=300
    )
    python = venv / "bin" / "python"
    no_compiler = {**os.environ, "CC": "/nonexistent/cc", "LDSHARED": "/nonexistent/cc -shared"}
    subprocess.run(
        [uv, "pip", "install", "--quiet", "--no-cache", "--python", str(python), str(source)],
        check=True,
        timeout=600,
        env=no_compiler,
    )
    script = (
        "import assay, assay_scorecard.engine as e\n"
        "class Points(assay.Dimension):\n"
        "    name, tier, default_weight, max_points = 'points', 1, 10, 10\n"
        "    def score(self, inputs, config):\n"
        "        return assay.dimension_score(raw=7, max_points=10, explanation='seven')\n"
        "scorer = assay_scorecard.create_scorer(dimensions=[Points()])\n"
        "print(assay_scorecard.Scorer.compute is e.PURE_COMPUTE, scorer.compute({'candidates': []}).total)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    result = subprocess.run(
        [str(python), "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "70.0"]
