"""assay-all installs the core and every plugin, and every job imports and loads from it."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import assay

PLUGINS = Path(__file__).resolve().parents[2]


def _requirements() -> dict[str, str]:
    requires = metadata.requires("assay-all") or []
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0]: r for r in requires if "extra ==" not in r}


def test_depends_on_the_core_and_every_plugin_of_the_project() -> None:
    plugins = {
        tomllib.loads((p / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
        for p in PLUGINS.iterdir()
        if p.is_dir() and not p.name.startswith("_") and (p / "pyproject.toml").is_file()
    }
    assert set(_requirements()) == {"assay"} | plugins - {"assay-all"}


def test_every_dependency_is_held_to_this_release_series() -> None:
    for name, requirement in _requirements().items():
        assert requirement.endswith(">=0.2,<0.3") or requirement.endswith("<0.3,>=0.2"), name
        assert metadata.version(name).startswith("0.2."), name


def test_every_job_imports() -> None:
    from assay_calibration.score_bands import analyze_calibration  # calibrate
    from assay_crag import CragRouter  # route
    from assay_evaluation import evaluate  # evaluate
    from assay_jeffreys import OutputGate  # gate
    from assay_perturb import run_check  # perturb
    from assay_scorecard import compute_confidence  # score

    jobs = (analyze_calibration, CragRouter, evaluate, OutputGate, run_check)
    assert all(callable(job) for job in jobs)
    assert compute_confidence({"candidates": []}).recommended_action in {"review", "abstain"}


def test_every_plugin_loads_and_registers_without_error() -> None:
    registry = assay.build_registry(strict=True)
    loaded = {record.distribution for record in registry.plugins if record.status == "ok"}
    assert set(_requirements()) - {"assay"} <= loaded
