"""Your own metric: the @metric decorator, and loading a file of them with --plugin or
ASSAY_EVAL_PLUGINS, in-process and in worker processes."""

from __future__ import annotations

import json
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import (
    FunctionMetric,
    batch_to_wire,
    evaluate,
    evaluate_batch,
    load_plugins,
    metric,
)

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import toy_samples

SAMPLE = {"question": "q?", "answer": "Paris [1].", "contexts": ["Paris is in France."]}

MY_METRICS = """
import re

from assay_evaluation import metric


@metric(name="has_citation", threshold=0.5, requires={"answer"})
def has_citation(sample):
    found = re.search(r"\\[\\d+\\]", sample.answer)
    return (1.0, "cites a source") if found else (0.0, "no [n] citation")


@metric
def short_answer(sample, context):
    return len(sample.answer.split()) <= 5
"""


@pytest.fixture
def registry():
    return assay.build_registry(load_entry_points=False)


def test_a_function_becomes_a_registered_metric(registry):
    @metric(name="mentions_context", threshold=0.5, requires={"contexts"}, registry=registry)
    def mentions(sample):
        words = set(" ".join(sample.contexts).lower().split())
        hits = [w for w in sample.answer.lower().split() if w in words]
        return len(hits) / len(sample.answer.split()), f"{len(hits)} words from the contexts"

    assert isinstance(mentions, FunctionMetric)
    assert registry.metric("mentions_context") is mentions
    assert registry.lookup("metric", "mentions_context").provider.plugin == "runtime"
    result = evaluate(SAMPLE, ["mentions_context"], registry=registry).metrics["mentions_context"]
    assert (result.score, result.passed, result.explanation) == (
        0.5,
        True,
        "1 words from the contexts",
    )
    empty = evaluate({**SAMPLE, "contexts": []}, ["mentions_context"], registry=registry)
    assert empty.metrics["mentions_context"].explanation == (
        "mentions_context needs the sample's contexts, and this sample has none."
    )
    assert mentions(assay.EvalSample("q", "Paris is", ("Paris",))) == (
        0.5,
        "1 words from the contexts",
    )


@pytest.mark.parametrize(
    ("returned", "score", "status"),
    [
        (True, 1.0, "pass"),
        (0.25, 0.25, "fail"),
        ((0.75, "why"), 0.75, "pass"),
        (None, None, "undetermined"),
        ("high", None, "error"),
        (3.0, None, "error"),
        (-0.5, None, "error"),
    ],
)
def test_what_a_metric_function_may_return(registry, returned, score, status):
    from assay_evaluation import status_of

    metric(lambda sample: returned, name="m", registry=registry)
    result = evaluate(SAMPLE, ["m"], registry=registry).metrics["m"]
    assert (result.score, status_of(result)) == (score, status)


def test_lower_is_better_and_bad_settings(registry):
    metric(lambda s: 0.2, name="noise", threshold=0.3, higher_is_better=False, registry=registry)
    assert evaluate(SAMPLE, ["noise"], registry=registry).metrics["noise"].passed is True
    with pytest.raises(assay.AssayError) as caught:
        metric(lambda s: 1, name="x", requires={"groundtruth"}, registry=registry)
    assert caught.value.code == "INVALID_OPTION" and "did you mean 'ground_truth'?" in (
        caught.value.message
    )
    with pytest.raises(assay.AssayError) as caught:
        metric(lambda s: 1, name="y", threshold=2, registry=registry)
    assert caught.value.code == "INVALID_THRESHOLD"
    with pytest.raises(assay.AssayError) as caught:
        metric(lambda s: 1, name="noise", registry=registry)
    assert caught.value.code == "DUPLICATE_NAME"


@pytest.fixture
def plugin_file(tmp_path, toy_default_registry):
    path = tmp_path / "team_metrics.py"
    path.write_text(MY_METRICS, encoding="utf-8")
    yield path
    sys.modules.pop("team_metrics", None)


def test_a_plugin_file_runs_in_worker_processes_too(plugin_file):
    (module,) = load_plugins([str(plugin_file)], env={})
    assert load_plugins([str(plugin_file)], env={}) == [module]  # loaded once
    samples = [
        {**s, "answer": s["answer"] + (" [2]" if i % 2 else "")}
        for i, s in enumerate(toy_samples(8))
    ]
    metrics = ["has_citation", "short_answer"]
    serial = evaluate_batch(samples, metrics)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        parallel = evaluate_batch(samples, metrics, {"executor": pool, "chunkSize": 3})
    assert batch_to_wire(parallel) == batch_to_wire(serial)
    assert [r.metrics["has_citation"].score for r in serial.results][:2] == [0.0, 1.0]


def test_assay_eval_loads_plugins_from_the_option_and_the_environment(plugin_file, tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(SAMPLE) + "\n", encoding="utf-8")
    args = ["eval", str(data), "--metrics", "has_citation,short_answer", "--json"]
    result = CliRunner().invoke(build_cli(), [*args, "--plugin", str(plugin_file)])
    assert result.exit_code == 0, result.output
    line = json.loads(result.stdout.splitlines()[0])
    assert line["metrics"]["has_citation"]["explanation"] == "cites a source"
    assay.reset_default_registry()
    sys.modules.pop("team_metrics", None)
    result = CliRunner().invoke(build_cli(), args, env={"ASSAY_EVAL_PLUGINS": str(plugin_file)})
    assert result.exit_code == 0, result.output


@pytest.mark.usefixtures("toy_default_registry")
def test_a_broken_plugin_file_is_a_coded_error(tmp_path):
    broken = tmp_path / "broken_metrics.py"
    broken.write_text("import no_such_module_here\n", encoding="utf-8")
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps(SAMPLE) + "\n", encoding="utf-8")
    result = CliRunner().invoke(build_cli(), ["eval", str(data), "--plugin", str(broken)])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"error [PLUGIN_ERROR] --plugin: importing {broken} failed: ModuleNotFoundError"
    )
    missing = CliRunner().invoke(build_cli(), ["eval", str(data), "--plugin", "nowhere.py"])
    assert missing.exit_code == 2 and "error [IO_ERROR]" in missing.stderr


BAD_METRICS = """
from assay_evaluation import metric

@metric(name="big")
def big(sample):
    return 3.0 if sample.id == "s1" else 0.9

@metric(name="boom")
def boom(sample):
    raise ValueError("kaboom")
"""


@pytest.mark.usefixtures("toy_default_registry")
def test_a_bad_return_value_errors_that_sample_and_the_run_goes_on(tmp_path):
    # one rule for a metric that raises and one that returns 3.0: its own error results
    plugin = tmp_path / "bad_metrics.py"
    plugin.write_text(BAD_METRICS, encoding="utf-8")
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in toy_samples(3)), encoding="utf-8")
    try:
        args = ["eval", str(data), "--plugin", str(plugin), "--metrics", "big,boom", "--json"]
        result = CliRunner().invoke(build_cli(), args)
    finally:
        sys.modules.pop("bad_metrics", None)
    assert result.exit_code == assay.ExitCode.FAILED, result.output  # errors fail the gate
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    by_id = {line["id"]: line["metrics"] for line in lines[:-1]}
    assert by_id["s1"]["big"]["status"] == "error"
    assert (
        "INVALID_METRIC_RESULT: metric 'big' returned score 3.0"
        in (by_id["s1"]["big"]["explanation"])
    )
    assert [by_id[i]["big"]["status"] for i in ("s0", "s2")] == ["pass", "pass"]
    assert {m["boom"]["status"] for m in by_id.values()} == {"error"}
    assert "big: 1 of 3 results are errors" in " ".join(lines[-1]["aggregate"]["gate"]["reasons"])


def test_a_metric_named_like_a_plugins_is_ambiguous_not_unknown():
    """A runtime metric with a plugin metric's name: the bare name is refused as ambiguous,
    naming both providers and the plugin/name forms; each qualified name works."""
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    registry = assay.build_registry(env={"ASSAY_PLUGINS": "faithfulness"})
    metric(lambda sample: 1.0, name="claim_support", registry=registry)
    for metrics, path in ((None, None), (["claim_support"], "metrics[0]")):
        with pytest.raises(assay.AssayError) as caught:
            evaluate(SAMPLE, metrics, registry=registry)
        assert (caught.value.code, caught.value.path) == ("AMBIGUOUS_NAME", path)
        assert "faithfulness/claim_support" in caught.value.message
        assert "runtime/claim_support" in caught.value.message
    for name, score in (("runtime/claim_support", 1.0), ("faithfulness/claim_support", 1.0)):
        assert evaluate(SAMPLE, [name], registry=registry).composite_score == score
