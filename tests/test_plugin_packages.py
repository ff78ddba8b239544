"""Real plugin packages installed the way users install them, then discovered by assay.

The example package (examples/plugin-package) and a deliberately broken one
(tests/packages/assay-broken-plugin) are installed with uv into a scratch directory that is put
on the path of a fresh interpreter; the workspace's own plugins stay installed beside them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    uv = shutil.which("uv")
    assert uv, "uv is on PATH in the workspace set-up (python3 -m pip install uv)"
    for package in ("examples/plugin-package", "tests/packages/assay-broken-plugin"):
        subprocess.run(
            [uv, "pip", "install", "--quiet", "--no-deps", "--target", str(target), package],
            cwd=ROOT,
            check=True,
            timeout=300,
        )
    return target


def _run(
    site: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(site), **(env or {})}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=environment, timeout=120
    )


def test_installed_plugins_are_listed_with_status(site: Path) -> None:
    result = _run(site, "-m", "assay._cli.main_module", "plugins", "--json")
    assert result.returncode == 0, result.stderr
    records = {r["name"]: r for r in json.loads(result.stdout)}
    assert records["politeness"]["status"] == "ok"
    assert records["politeness"]["distribution"] == "assay-politeness"
    assert records["politeness"]["version"] == "0.2.0"
    assert records["politeness"]["registered"] == ["dimension:politeness"]
    assert records["broken"]["status"] == "broken"
    assert "assay_dependency_that_does_not_exist" in records["broken"]["error"]
    assert records["grounding"]["status"] == "ok"  # the others keep working
    assert "warning: assay plugin 'broken' failed to load" in result.stderr


def test_packaged_dimension_is_used_by_a_composed_scorer(site: Path) -> None:
    code = (
        "import assay, assay_scorecard, warnings; warnings.simplefilter('ignore');"
        "s = assay_scorecard.create_scorer(dimensions=['grounding','retrieval','consistency','politeness']);"
        "c = s.compute({'supportLevel':'high','hasConflict':False,'answerText':'please',"
        "'candidates':[{'retrievalScores':{'a':0.9,'b':0.8},'combinedScore':0.9}]});"
        "print(c.dimensions['politeness'].raw, assay.default_registry().dimension('politeness/politeness').name)"
    )
    result = _run(site, "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["5.0", "politeness"]


def test_strict_plugin_loading_fails_loudly(site: Path) -> None:
    result = _run(
        site, "-m", "assay._cli.main_module", "plugins", env={"ASSAY_STRICT_PLUGINS": "1"}
    )
    assert result.returncode == 2
    assert "error [PLUGIN_ERROR]" in result.stderr
    assert "broken" in result.stderr
    assert "Traceback" not in result.stderr
