"""The Perturbation protocol end to end: a plain class written from the documented contract
(``name``, ``signal``, ``variants(case, others, rng, params)``), registered at runtime, planned
and run through a pipeline that is a one-line ``python -c`` command."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
from assay_perturb import load_config, run_check
from assay_perturb.cli import perturb

# The decision is the first word of the first chunk the pipeline receives.
PIPELINE = (
    "import json, sys; v = json.load(sys.stdin); "
    "print(json.dumps({'decision': v['chunks'][0]['text'].split()[0]}))"
)


class Annotate:
    """Appends a note to every chunk: presentation only, so the decision should not move."""

    name = "annotate"
    signal = "invariance"

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def variants(
        self,
        case: assay.PerturbationCase,
        others: Sequence[assay.PerturbationCase],
        rng: random.Random,
        params: Mapping[str, Any],
    ) -> Iterable[assay.Variant]:
        self.calls.append({"case": case.name, "others": [o.name for o in others], **params})
        note = params.get("note", "(annotated)")
        for i in range(1, int(params.get("count", 1)) + 1):
            tag = rng.randrange(1000)  # the only randomness: the rng handed in
            chunks = [assay.Chunk(c.id, f"{c.text} {note} #{tag}") for c in case.chunks]
            yield assay.Variant(
                f"annotate-{i}", self.name, chunks, f"appended {note!r} #{tag}", case.query
            )


class Contradict:
    """Replaces the key evidence with the counterfactual, first: the decision should move."""

    name = "contradict"
    signal = "sensitivity"

    def variants(self, case, others, rng, params):  # type: ignore[no-untyped-def]
        if not case.counterfactual:
            raise assay.AssayError("INVALID_INPUT", "needs a counterfactual", case.source)
        replaced = assay.Chunk(case.key_evidence[0], case.counterfactual[0])
        rest = [c for c in case.chunks if c.id != case.key_evidence[0]]
        return [
            assay.Variant("contradict", self.name, [replaced, *rest], "contradicted", case.query)
        ]


@pytest.fixture
def project(workdir: Path, make_config) -> Path:  # type: ignore[no-untyped-def]
    command = json.dumps([sys.executable, "-c", PIPELINE])
    make_config(
        workdir,
        command=command,
        field="decision",
        perturbations="{annotate: {count: 2, note: '[sic]'}, contradict: {}}",
    )
    return workdir


def test_plain_classes_satisfy_the_protocol() -> None:
    assert isinstance(Annotate(), assay.Perturbation)
    assert isinstance(Contradict(), assay.Perturbation)


def test_a_runtime_registered_perturbation_runs_through_the_job(project: Path) -> None:
    annotate = Annotate()
    registry = assay.build_registry()
    assert registry.register(annotate).kind == "perturbation"  # kind inferred from the members
    registry.register(Contradict())
    config, text = load_config(project / "assay-perturb.yaml")
    run = run_check(config, workdir=project, config_text=text, registry=registry)

    alpha = run.cases[0]
    assert alpha.baseline_decision == "approve"
    assert [(o.variant, o.signal, o.decision) for o in alpha.variants] == [
        ("annotate-1", "invariance", "approve"),
        ("annotate-2", "invariance", "approve"),
        ("contradict", "sensitivity", "deny"),
    ]
    assert (run.invariance, run.sensitivity, run.failed) == (1.0, 1.0, 0)
    # the job handed each case the others and this perturbation's parameters from the config
    assert annotate.calls == [
        {"case": "alpha", "others": ["alpha", "beta"], "count": 2, "note": "[sic]"},
        {"case": "beta", "others": ["alpha", "beta"], "count": 2, "note": "[sic]"},
    ]
    sent = json.loads(
        (project / "assay-perturb/invocations/alpha/annotate-1/input.json").read_text()
    )
    assert all(chunk["text"].split(" [sic] #")[1].isdigit() for chunk in sent["chunks"])

    # same configured random state, same variants: a second run is served from the cache
    again = run_check(config, workdir=project, config_text=text, registry=registry)
    assert (again.executed, again.cached) == (0, run.invocations)


def test_the_cli_uses_perturbations_registered_with_assay_register(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    assay.reset_default_registry()
    try:
        assay.register(Annotate())
        assay.register(Contradict())
        result = CliRunner().invoke(perturb, ["check", "--quiet", "--json"])
    finally:
        assay.reset_default_registry()
    assert result.exit_code == assay.ExitCode.OK, result.output
    signals = json.loads(result.stdout)["signals"]
    assert (signals["invariance"], signals["sensitivity"]) == (1.0, 1.0)
