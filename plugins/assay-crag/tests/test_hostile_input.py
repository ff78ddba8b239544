"""Hostile input to the CRAG router, quality scorer, A/B analysis and alerts: only
AssayError escapes, with a stable code and path; the CLI exits 2 with ``error [CODE] ...``.
Includes a bounded, seeded fuzz test over the public entry points."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay import ExitCode
from assay.testing import hostile_json, mutated_json, only_assay_errors, plugin_cli
from assay_crag import QualityScorer, parse_quality_input, plugin
from assay_crag import ab as ab_module
from assay_crag.alerts import QualityMonitor, check_quality_alerts
from assay_crag.router import CragRouter

AB_RESULTS = Path(__file__).resolve().parents[3] / "examples" / "route" / "ab_results.jsonl"
QUALITY = {
    "query": "q",
    "chunks": [
        {"content": "c", "documentId": "d", "score": 0.5, "metadata": {"sectionTitle": "s"}},
        {"content": "c", "documentId": "e", "score": 0.4},
    ],
    "context": {"text": "c"},
}


def _ab_records() -> list[dict]:
    return [json.loads(line) for line in AB_RESULTS.read_text().splitlines() if line.strip()]


def _with_chunk(**fields):
    data = copy.deepcopy(QUALITY)
    data["chunks"][0].update(fields)
    return data


@pytest.mark.parametrize(
    ("call", "code", "path"),
    [
        (
            lambda: QualityScorer().score(_with_chunk(metadata={"sectionTitle": ["s"]})),
            "MALFORMED_INPUT",
            "chunks[0].metadata.sectionTitle",
        ),
        (
            lambda: parse_quality_input(_with_chunk(score=10**400)),
            "MALFORMED_INPUT",
            "chunks[0].score",
        ),
        (
            lambda: ab_module.analyze_ab_test(ab_module.parse_ab_results(_ab_records()), seed=-1),
            "INVALID_CONFIG",
            "seed",
        ),
        (
            lambda: ab_module.analyze_ab_test(_ab_records(), bootstrap_resamples="many"),
            "INVALID_CONFIG",
            "bootstrapResamples",
        ),
        (
            lambda: ab_module.analyze_ab_test(_ab_records(), primary=[1]),
            "INVALID_CONFIG",
            "primary",
        ),
        (lambda: check_quality_alerts([42], 0.8), "INVALID_INPUT", "recentScores[0]"),
        (lambda: check_quality_alerts([10**400], 0.8), "INVALID_INPUT", "recentScores[0]"),
        (lambda: check_quality_alerts(0.5, 0.8), "INVALID_INPUT", "recentScores"),
        (lambda: check_quality_alerts([0.5], 42), "INVALID_CONFIG", "baseline"),
        (lambda: QualityMonitor(0.8).observe(-0.1), "INVALID_INPUT", "scores[0]"),
    ],
)
def test_bad_input_raises_assay_error_with_code_and_path(call, code, path):
    with pytest.raises(assay.AssayError) as caught:
        call()
    assert (caught.value.code, caught.value.path) == (code, path)


@pytest.fixture
def cli() -> click.Group:
    return plugin_cli(plugin)


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["alerts", "--baseline", "0.8"], "0.5\n42\n", "line 2: a quality score must be in [0, 1]"),
        (["alerts", "--baseline", "0.8"], "1" * 5000 + "\n", "too many digits"),
        (["alerts", "--baseline", "0.8"], "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (["ab"], "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (["decide"], "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (["decide"], '{"query": ' + "1" * 5000 + "}", "too many digits"),
    ],
)
def test_route_cli_bad_file_is_a_coded_usage_error(cli, tmp_path, args, content, message):
    path = tmp_path / "input.json"
    path.write_text(content)
    result = CliRunner().invoke(cli, ["route", args[0], str(path), *args[1:]])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output.startswith("error [")
    assert message in result.output


# --------------------------------------------------------------------------- fuzz

NASTY = hostile_json()


@settings(max_examples=150, derandomize=True, deadline=None)
@given(mutated_json(QUALITY), st.sampled_from(["composite", "paper"]))
def test_fuzz_router_and_scorer_raise_only_assay_error(data, mode):
    only_assay_errors(lambda: QualityScorer().score(data))
    only_assay_errors(lambda: CragRouter(mode).decide(parse_quality_input(data)))


AB_SMALL = [
    {"variant": v, "queryId": f"q{i}", "qualityScore": 0.5 + 0.01 * i + d, "latencyMs": 10.0 + i}
    for i in range(6)
    for v, d in (("control", 0.0), ("treatment", 0.05))
]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(mutated_json(AB_SMALL), NASTY)
def test_fuzz_ab_raises_only_assay_error(records, seed):
    only_assay_errors(
        lambda: ab_module.analyze_ab_test(records, seed=seed, bootstrap_resamples=100)
    )


@settings(max_examples=150, derandomize=True, deadline=None)
@given(mutated_json([0.9, 0.8, 0.7]), NASTY)
def test_fuzz_alerts_raise_only_assay_error(scores, baseline):
    only_assay_errors(lambda: check_quality_alerts(scores, baseline))
    only_assay_errors(lambda: QualityMonitor(baseline, window=2).observe_many(scores))
