"""Hostile input to calibration: only AssayError escapes, with a code and path; ``assay
calibrate`` exits 2 with ``error [CODE] ...`` on deep nesting and 5,000-digit integers.
Includes a bounded, seeded fuzz test over the analysis entry points."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay import ExitCode
from assay.testing import mutated_json, only_assay_errors, plugin_cli
from assay_calibration import plugin, probability, score_bands

HISTORY = [
    {"total": 52, "recommendedAction": "review", "outcome": "rejected"},
    {"total": 91, "recommendedAction": "answer", "outcome": "correct"},
    {"total": 30, "recommendedAction": "abstain", "outcome": "rejected"},
]


@pytest.mark.parametrize(
    ("call", "code", "path"),
    [
        (
            lambda: score_bands.analyze_calibration([], {"minSamplesPerBand": 10**400}),
            "INVALID_CONFIG",
            "minSamplesPerBand",
        ),
        (lambda: probability.brier_score([10**400], [1]), "INVALID_INPUT", "probabilities[0]"),
        (
            lambda: probability.brier_score([0.5, 2**60], [1, 0]),
            "INVALID_INPUT",
            "probabilities[1]",
        ),
        (
            lambda: probability.expected_calibration_error([10**400], [1]),
            "INVALID_INPUT",
            "probabilities[0]",
        ),
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
    ("content", "message"),
    [("[" * 100_000 + "]" * 100_000, "nested too deeply"), ("1" * 5000, "too many digits")],
)
@pytest.mark.parametrize("as_config", [False, True])
def test_calibrate_cli_bad_file_is_a_coded_usage_error(cli, tmp_path, content, message, as_config):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    good = tmp_path / "h.jsonl"
    good.write_text('{"total": 52, "recommendedAction": "review", "outcome": "rejected"}\n')
    args = [str(good), "--config", str(bad)] if as_config else [str(bad)]
    result = CliRunner().invoke(cli, ["calibrate", *args])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output.startswith("error [MALFORMED_INPUT] ")


@settings(max_examples=200, derandomize=True, deadline=None)
@given(mutated_json(HISTORY), st.one_of(st.none(), mutated_json({"minSamplesPerBand": 1})))
def test_fuzz_analyze_calibration_raises_only_assay_error(history, config):
    only_assay_errors(lambda: score_bands.analyze_calibration(history, config))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(mutated_json([0.2, 0.9, 0.5]), mutated_json([0, 1, 1]))
def test_fuzz_probability_scores_raise_only_assay_error(probabilities, outcomes):
    only_assay_errors(lambda: probability.brier_score(probabilities, outcomes))
    only_assay_errors(lambda: probability.expected_calibration_error(probabilities, outcomes))
