"""Profiles and the default metric list; judge failures and unparsable replies are errors that
fail the run (the judge-backed metrics of assay-judges, with judges that fail on purpose)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import (
    COMPATIBLE_METRICS,
    DEFAULT_METRICS,
    PROFILES,
    Gate,
    evaluate_batch,
    status_of,
)

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


def test_the_default_list_is_claim_support_and_grounded_adds_answer_support(registry):
    assert DEFAULT_METRICS == PROFILES["default"] == ("claim_support",)
    assert PROFILES["grounded"] == ("answer_support", "claim_support")
    default = evaluate_batch(SAMPLES, registry=registry)
    named = evaluate_batch(SAMPLES, options={"profile": "default"}, registry=registry)
    assert list(default.aggregates) == list(named.aggregates) == list(DEFAULT_METRICS)
    grounded = evaluate_batch(SAMPLES, options={"profile": "grounded"}, registry=registry)
    assert list(grounded.aggregates) == ["answer_support", "claim_support"]
    compatible = evaluate_batch(SAMPLES, options={"profile": "compatible"}, registry=registry)
    assert list(compatible.aggregates) == list(COMPATIBLE_METRICS) and len(COMPATIBLE_METRICS) == 7


def test_without_a_question_answer_support_is_undetermined(registry):
    """answer_support judges the answer against what the question asks: with no question it is
    left undetermined (a bare "Yes" would otherwise fail), and claim_support still decides."""
    samples = [
        {"answer": "Yes", "contexts": ["Both films are American."]},
        {"answer": "Mary Shelley.", "contexts": SAMPLES[0]["contexts"]},
        {"answer": "Jane Austen.", "contexts": SAMPLES[0]["contexts"]},
    ]
    batch = evaluate_batch(samples, options={"profile": "grounded"}, registry=registry)
    support = [r.metrics["answer_support"] for r in batch.results]
    assert [status_of(m) for m in support] == ["undetermined"] * 3
    assert all("question" in m.explanation for m in support)
    assert [r.passed for r in batch.results] == [True, True, False]
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(SAMPLES, options={"profile": "compatibel"}, registry=registry)
    assert caught.value.code == "UNKNOWN_PROFILE"
    assert "did you mean 'compatible'?" in caught.value.message
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(SAMPLES, ["faithfulness"], {"profile": "compatible"}, registry=registry)
    assert (caught.value.code, caught.value.path) == ("INVALID_OPTION", "options.profile")


def test_a_baseline_of_another_profile_decides_nothing(registry):
    """A baseline saved from the seven compared with a run of the default list compares no
    metric: the gate says so (exit 2) instead of passing on nothing."""
    seven = evaluate_batch(SAMPLES, options={"profile": "compatible"}, registry=registry)
    run = evaluate_batch(SAMPLES, options={"baselineResult": seven}, registry=registry)
    for gate in (Gate(fail_on="regression"), Gate(min_pass_rate=0)):
        verdict = gate.check(run)
        assert (verdict.passed, verdict.exit_code) == (False, 2)
        assert verdict.reasons[0].startswith(
            "the baseline holds none of the metrics evaluated (claim_support)"
        )
    same = evaluate_batch(
        SAMPLES, options={"profile": "compatible", "baselineResult": seven}, registry=registry
    )
    assert Gate(fail_on="regression").check(same).exit_code == 0


def _unreachable(prompt: str) -> str:
    raise ConnectionError("connection refused")


def test_an_unreachable_judge_never_passes(registry):
    from assay_judges import judge_from_callable

    judge = judge_from_callable(_unreachable, name="down")
    options = {"mode": "llm", "judge": judge, "compositeThreshold": 0}
    compatible = {**options, "profile": "compatible"}
    lenient = {m: 0 for m in COMPATIBLE_METRICS}
    batch = evaluate_batch(SAMPLES, None, {**compatible, "thresholds": lenient}, registry=registry)
    faithfulness = batch.results[0].metrics["faithfulness"]
    assert status_of(faithfulness) == "error"
    assert batch.aggregates["faithfulness"].errors == 3
    assert not any(r.passed for r in batch.results)
    verdict = batch.check()
    assert verdict.exit_code == 1  # the heuristic metrics scored; the judged ones errored
    assert verdict.reasons[0].startswith("faithfulness: 3 of 3 results are errors")
    judged_only = evaluate_batch(SAMPLES, ["faithfulness"], options, registry=registry)
    assert judged_only.check().exit_code == 2  # nothing could be scored


def test_llm_mode_with_the_default_list_is_refused_rather_than_judging_nothing(registry):
    from assay_judges import judge_from_callable

    judge = judge_from_callable(lambda prompt: '{"score": 0.9}', name="steady")
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(SAMPLES, options={"mode": "llm", "judge": judge}, registry=registry)
    assert (caught.value.code, caught.value.path) == ("JUDGE_MISCONFIGURED", "options.mode")
    assert "(claim_support)" in caught.value.message
    options = {"mode": "llm", "judge": judge, "profile": "compatible"}
    judged = evaluate_batch(SAMPLES, options=options, registry=registry)
    assert judged.results[0].metrics["answer_relevance"].score == 0.9


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
