"""Packaging: every distribution builds a wheel, a user installs ``assay-all`` into a project of
their own and scores an answer, and each plugin passes its own tests with only its declared
dependencies installed.

The wheels are built once per run (``uv build --all-packages``). Every fresh virtual environment
lives under the test's temporary folder, outside the workspace; uv's cache is shared, so the
third-party wheels are linked from it, not downloaded again. The each-plugin-alone checks run
two at a time (this is subprocess work: venv, install, a pytest run of its own).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
META_DISTRIBUTIONS = {"assay-all"}
PLUGINS = sorted(
    p.name
    for p in (ROOT / "plugins").iterdir()
    if p.is_dir()
    and not p.name.startswith("_")
    and (p / "pyproject.toml").is_file()
    and p.name not in META_DISTRIBUTIONS
)
ALONE_WORKERS = 2
# Environment of a command run in a fresh venv: nothing of this run's own environment leaks in.
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
ANSWER = {
    "supportLevel": "high",
    "hasConflict": False,
    "citationCount": 3,
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.88, "keyword": 0.72},
            "combinedScore": 0.88,
            "documentId": f"doc-00{i}",
        }
        for i in (1, 2, 3)
    ],
}


def _uv() -> str:
    uv = shutil.which("uv")
    assert uv, "uv is on PATH in the workspace set-up (python3 -m pip install uv)"
    return uv


def _meta(path: Path) -> dict:
    return tomllib.loads((path / "pyproject.toml").read_text(encoding="utf-8"))


def _venv(path: Path) -> Path:
    """A fresh virtual environment at ``path`` (created from outside the workspace); its python."""
    subprocess.run(
        [_uv(), "venv", "--quiet", "--python", sys.executable, str(path)],
        check=True,
        timeout=300,
        cwd=path.parent,
    )
    return path / "bin" / "python"


def _install(python: Path, *requirements: str, cwd: Path, env: dict | None = None) -> None:
    result = subprocess.run(
        [_uv(), "pip", "install", "--quiet", "--python", str(python), *requirements],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]


def _without_workspace_sources(pyproject: str) -> str:
    """A package's pyproject.toml without its ``[tool.uv.sources]`` table, which names workspace
    members and so cannot apply to a copy outside the workspace."""
    kept, skipping = [], False
    for line in pyproject.splitlines(keepends=True):
        if line.startswith("["):
            skipping = line.strip() == "[tool.uv.sources]"
        if not skipping:
            kept.append(line)
    return "".join(kept)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Distribution name -> its wheel, for the core, every plugin and the meta distribution."""
    out = tmp_path_factory.mktemp("wheels")
    result = subprocess.run(
        [_uv(), "build", "--all-packages", "--wheel", "--quiet", "-o", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {path.name.split("-")[0].replace("_", "-"): path for path in out.glob("*.whl")}


def test_every_distribution_builds_a_wheel_that_ships_py_typed(wheels: dict[str, Path]) -> None:
    expected = {"assay", *PLUGINS, *META_DISTRIBUTIONS}
    assert set(wheels) == expected
    missing = []
    for wheel in sorted(wheels.values()):
        with zipfile.ZipFile(wheel) as archive:
            files = archive.namelist()
        packages = {
            f.split("/")[0] for f in files if f.endswith("/__init__.py") and f.count("/") == 1
        }
        assert packages, f"{wheel.name} holds no package"
        missing += [f"{wheel.name}: {p}/py.typed" for p in packages if f"{p}/py.typed" not in files]
    assert not missing, missing


def test_a_user_installs_assay_all_into_their_own_project_and_scores(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    """``uv pip install assay-all`` in a venv of the user's own, with the built wheels as the
    source of every assay distribution (third-party dependencies from the registry, through
    uv's cache), then the two first things the README shows: Python and the command line."""
    project = tmp_path / "my-project"
    project.mkdir()
    python = _venv(project / ".venv")
    _install(
        python,
        "--find-links",
        str(wheels["assay"].parent),
        "assay-all[pandas,parquet]",
        cwd=project,
    )

    code = (
        "from assay_scorecard import compute_confidence\n"
        f"card = compute_confidence({ANSWER!r})\n"
        "print(f'{card.total:g}', card.recommended_action)\n"
    )
    result = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, cwd=project, env=CLEAN_ENV
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["100", "answer"]

    result = subprocess.run(
        [str(project / ".venv" / "bin" / "assay"), "score", "--json", "-"],
        input=json.dumps({"inputs": ANSWER}),
        capture_output=True,
        text=True,
        cwd=project,
        env=CLEAN_ENV,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    card = json.loads(result.stdout)
    assert (card["total"], card["recommendedAction"]) == (100, "answer")
    assert card["actionReason"] == "Score 100 meets answerAt threshold (65)."

    result = subprocess.run(
        [str(project / ".venv" / "bin" / "assay"), "plugins", "--json"],
        capture_output=True,
        text=True,
        cwd=project,
        env={**CLEAN_ENV, "ASSAY_STRICT_PLUGINS": "1"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    distributions = {record["distribution"] for record in json.loads(result.stdout)}
    assert distributions >= {"assay", *PLUGINS}

    # the extras the README installs: a DataFrame in, Parquet out
    code = (
        "import pandas as pd\n"
        "from assay_evaluation import evaluate_batch\n"
        "frame = pd.DataFrame({'user_input': ['Where is the Oberoi head office?'],\n"
        "    'response': ['Delhi'],\n"
        "    'retrieved_contexts': [['The Oberoi Group has its head office in Delhi.']]})\n"
        "result = evaluate_batch(frame)\n"
        "result.to_pandas().to_parquet('results.parquet')\n"
        "print(len(pd.read_parquet('results.parquet')), result.passed)\n"
    )
    result = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, cwd=project, env=CLEAN_ENV
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["1", "True"]


# ---------------------------------------------------------------------------------------------
# each plugin alone
# ---------------------------------------------------------------------------------------------


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


def _requirement(path: Path, wheels: dict[str, Path]) -> str:
    """``name[extras] @ file:///...whl``: the built wheel, with every extra the package has."""
    meta = _meta(path)["project"]
    extras = ",".join(meta.get("optional-dependencies", {}))
    return f"{meta['name']}{f'[{extras}]' if extras else ''} @ {wheels[meta['name']].as_uri()}"


def _plugin_alone(plugin: str, wheels: dict[str, Path], folder: Path) -> tuple[int, str]:
    """Install ``plugin`` with only its workspace closure (as wheels) into a fresh venv and run
    its tests there; the exit status and the tail of the output."""
    python = _venv(folder / "venv")
    requirements = [_requirement(path, wheels) for path in _workspace_closure(plugin)]
    _install(python, *requirements, "pytest", "pytest-benchmark", "hypothesis", cwd=folder)
    result = subprocess.run(
        [str(python), "-m", "pytest", f"plugins/{plugin}/tests", "-q", "-x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env=CLEAN_ENV,
    )
    return result.returncode, result.stdout[-3000:] + result.stderr[-2000:]


@pytest.fixture(scope="module")
def alone_runs(
    wheels: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Future[tuple[int, str]]]]:
    """Every plugin's alone check, started together on a pool of two workers."""
    with ThreadPoolExecutor(max_workers=ALONE_WORKERS) as pool:
        yield {
            plugin: pool.submit(_plugin_alone, plugin, wheels, tmp_path_factory.mktemp(plugin))
            for plugin in PLUGINS
        }


@pytest.mark.parametrize("plugin", PLUGINS)
def test_plugin_passes_its_tests_alone(
    plugin: str, alone_runs: dict[str, Future[tuple[int, str]]]
) -> None:
    returncode, output = alone_runs[plugin].result(timeout=1800)
    assert returncode == 0, output
    assert " passed" in output


def test_template_scaffold_installs_and_passes_its_tests(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    """plugins/_template, copied as a new plugin would be, installs and its tests pass.

    Outside the workspace the ``assay = { workspace = true }`` source cannot apply, so the copy
    drops that table and installs the core's wheel instead.
    """
    plugin = tmp_path / "assay-example"
    shutil.copytree(ROOT / "plugins" / "_template", plugin)
    pyproject = plugin / "pyproject.toml"
    pyproject.write_text(_without_workspace_sources(pyproject.read_text(encoding="utf-8")))
    python = _venv(tmp_path / "venv")
    _install(python, str(wheels["assay"]), str(plugin), "pytest", cwd=tmp_path)
    result = subprocess.run(
        [str(python), "-m", "pytest", str(plugin / "tests"), "-q", "-p", "no:cacheprovider"],
        cwd=plugin,
        capture_output=True,
        text=True,
        timeout=600,
        env=CLEAN_ENV,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "2 passed" in result.stdout


def test_compiled_speedups_are_optional_without_a_c_compiler(
    wheels: dict[str, Path], tmp_path: Path
) -> None:
    """A plugin with compiled modules still installs where no C compiler works, and runs its
    pure-Python code, which gives the same results."""
    source = tmp_path / "assay-faithfulness"
    shutil.copytree(
        ROOT / "plugins" / "assay-faithfulness",
        source,
        ignore=shutil.ignore_patterns(
            "build", "*.so", "_speedups.c", "*.egg-info", "__pycache__", "tests"
        ),
    )
    pyproject = source / "pyproject.toml"
    pyproject.write_text(_without_workspace_sources(pyproject.read_text(encoding="utf-8")))
    python = _venv(tmp_path / "venv")
    no_compiler = {**os.environ, "CC": "/nonexistent/cc", "LDSHARED": "/nonexistent/cc -shared"}
    _install(python, str(wheels["assay"]), str(source), cwd=tmp_path, env=no_compiler)
    code = (
        "import assay_faithfulness as af, assay_faithfulness._compiled as c\n"
        "import assay_faithfulness.answer_support as detector\n"
        "print(c.COMPILED, detector.__file__.endswith('.py'),\n"
        "      af.token_f1('The cat sat on the mat.', 'A cat sat on a mat!'),\n"
        "      af.analyze_answer('Who wrote it?', 'Mary Shelley.', ['Mary Shelley wrote it.']).score)\n"
    )
    pure = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, env=CLEAN_ENV, cwd=tmp_path
    )
    assert pure.returncode == 0, pure.stderr[-2000:]
    here = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert pure.stdout.split()[:2] == ["False", "True"]  # neither Cython nor mypyc built
    assert pure.stdout.split()[2:] == here.stdout.split()[2:]
