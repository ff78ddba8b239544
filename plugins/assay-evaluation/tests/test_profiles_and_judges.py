"""Profiles and the default metric list; judge failures and unparsable replies are errors that
fail the run (the judge-backed metrics of assay-judges, with judges that fail on purpose)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import COMPATIBLE_METRICS, DEFAULT_METRICS, evaluate_batch, status_of

SAMPLES = [
    {
        "id": f"s{i}",
        "question": "Who wrote Frankenstein?",
        "answer": "Mary Shelley wrote Frankenstein.",
        "contexts": ["Frankenstein is an 1818 novel written by English author Mary Shelley."],
        "groundTruth": "Mary Shelley.",
    }
    for i in range(3)
]


@pytest.fixture(scope="module")
def registry():
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    pytest.importorskip("assay_judges", reason="needs the assay-judges plugin")
    return assay.build_registry(env={"ASSAY_PLUGINS": "faithfulness,judges"})


def test_the_compatible_profile_is_the_default_for_now(registry):
    assert DEFAULT_METRICS == COMPATIBLE_METRICS and len(COMPATIBLE_METRICS) == 7
    default = evaluate_batch(SAMPLES, registry=registry)
    profile = evaluate_batch(SAMPLES, options={"profile": "compatible"}, registry=registry)
    assert list(default.aggregates) == list(profile.aggregates) == list(COMPATIBLE_METRICS)
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(SAMPLES, options={"profile": "compatibel"}, registry=registry)
    assert caught.value.code == "UNKNOWN_PROFILE"
    assert "did you mean 'compatible'?" in caught.value.message
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(SAMPLES, ["faithfulness"], {"profile": "compatible"}, registry=registry)
    assert (caught.value.code, caught.value.path) == ("INVALID_OPTION", "options.profile")


def _unreachable(prompt: str) -> str:
    raise ConnectionError("connection refused")


def test_an_unreachable_judge_never_passes(registry):
    from assay_judges import judge_from_callable

    judge = judge_from_callable(_unreachable, name="down")
    options = {"mode": "llm", "judge": judge, "compositeThreshold": 0}
    lenient = {m: 0 for m in COMPATIBLE_METRICS}
    batch = evaluate_batch(SAMPLES, None, {**options, "thresholds": lenient}, registry=registry)
    faithfulness = batch.results[0].metrics["faithfulness"]
    assert status_of(faithfulness) == "error"
    assert batch.aggregates["faithfulness"].errors == 3
    assert not any(r.passed for r in batch.results)
    verdict = batch.check()
    assert verdict.exit_code == 1  # the heuristic metrics scored; the judged ones errored
    assert verdict.reasons[0].startswith("faithfulness: 3 of 3 results are errors")
    judged_only = evaluate_batch(SAMPLES, ["faithfulness"], options, registry=registry)
    assert judged_only.check().exit_code == 2  # nothing could be scored


def test_an_unparsable_reply_is_an_error(registry):
    from assay_judges import judge_from_callable

    judge = judge_from_callable(lambda prompt: "I would rather not say.", name="vague")
    batch = evaluate_batch(
        SAMPLES, ["answer_relevance"], {"mode": "llm", "judge": judge}, registry=registry
    )
    result = batch.results[0].metrics["answer_relevance"]
    assert status_of(result) == "error" and batch.total_cost.parse_failures == 3


@pytest.mark.usefixtures("registry")
def test_cli_profile_and_the_hallucination_label(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSAY_PLUGINS", "evaluation,faithfulness")
    assay.reset_default_registry()
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in SAMPLES), encoding="utf-8")
    try:
        result = CliRunner().invoke(build_cli(), ["eval", str(data), "--profile", "compatible"])
    finally:
        assay.reset_default_registry()
    rows = [line.split()[0] for line in result.stdout.splitlines()[2:10]]
    assert rows == [*COMPATIBLE_METRICS[:-1], "hallucination_rate", "composite"]
    assert "hallucination_rate (1 - rate)" in result.stdout
