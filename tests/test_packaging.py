"""Packaging: every distribution builds a wheel, a user installs ``assay-all`` into a project of
their own and scores an answer, and each plugin passes its own tests with only its declared
dependencies installed.

The wheels are built once per run (``uv build --all-packages``), and each plugin's alone check
(venv, install, a pytest run of its own) is subprocess work that tests/packaging_work.py starts
in the background as soon as the session has collected these tests; the tests here wait for it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import packaging_work
import pytest
from packaging_work import CLEAN_ENV, META_DISTRIBUTIONS, PLUGINS, ROOT, install, venv

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


@pytest.fixture
def wheels() -> dict[str, Path]:
    """Distribution name -> its wheel, for the core, every plugin and the meta distribution."""
    return packaging_work.work().wheels.result(timeout=1800)


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
    python = venv(project / ".venv")
    install(
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


@pytest.mark.parametrize("plugin", PLUGINS)
def test_plugin_passes_its_tests_alone(plugin: str) -> None:
    returncode, output = packaging_work.work().alone[plugin].result(timeout=1800)
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
    python = venv(tmp_path / "venv")
    install(python, str(wheels["assay"]), str(plugin), "pytest", cwd=tmp_path)
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
    python = venv(tmp_path / "venv")
    no_compiler = {**os.environ, "CC": "/nonexistent/cc", "LDSHARED": "/nonexistent/cc -shared"}
    install(python, str(wheels["assay"]), str(source), cwd=tmp_path, env=no_compiler)
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
