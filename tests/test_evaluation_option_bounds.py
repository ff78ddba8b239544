"""Every size-like option has a documented maximum: a huge value is a coded error with the
option's path, before any memory or time is spent on it."""

from __future__ import annotations

import time

import pytest

import assay
from assay_evaluation import evaluate, evaluate_batch
from assay_evaluation._options import LIMITS
from assay_faithfulness.options import MAX_NGRAM_SIZE, MAX_NGRAM_SIZES

SAMPLE = {"question": "q", "answer": "a b", "contexts": ["a b"]}


def error_of(call) -> assay.AssayError:
    start = time.monotonic()
    with pytest.raises(assay.AssayError) as excinfo:
        call()
    assert time.monotonic() - start < 2
    return excinfo.value


@pytest.mark.parametrize(
    ("heuristic", "path"),
    [
        ({"ngramSizes": [10**7]}, "heuristic.ngramSizes"),
        ({"ngramSizes": [MAX_NGRAM_SIZE + 1]}, "heuristic.ngramSizes"),
        ({"ngramSizes": [1] * (MAX_NGRAM_SIZES + 1)}, "heuristic.ngramSizes"),
        ({"ngramWeights": [1.0] * 10**6}, "heuristic.ngramWeights"),
    ],
)
def test_heuristic_sizes_are_bounded(heuristic, path):
    error = error_of(lambda: evaluate(SAMPLE, ["faithfulness"], {"heuristic": heuristic}))
    assert (error.code, error.path) == ("INVALID_OPTION", path)


def test_the_largest_ngram_size_is_accepted():
    result = evaluate(SAMPLE, ["faithfulness"], {"heuristic": {"ngramSizes": [MAX_NGRAM_SIZE]}})
    assert result.metrics["faithfulness"].score is not None


@pytest.mark.parametrize(
    ("option", "path", "limit"),
    [
        ("repeats", "options.repeats", LIMITS["repeats"]),
        ("concurrency", "options.concurrency", LIMITS["concurrency"]),
        ("chunkSize", "options.chunkSize", LIMITS["chunk_size"]),
    ],
)
def test_batch_sizes_are_bounded(option, path, limit):
    assert evaluate_batch([SAMPLE], ["faithfulness"], {option: limit}).results
    for value in (limit + 1, 10**12):
        error = error_of(lambda v=value: evaluate_batch([SAMPLE], ["faithfulness"], {option: v}))
        assert (error.code, error.path) == ("INVALID_OPTION", path)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1.5, -0.1])
def test_the_regression_threshold_is_a_number_in_0_1(value):
    error = error_of(
        lambda: evaluate_batch([SAMPLE], ["faithfulness"], {"regressionThreshold": value})
    )
    assert (error.code, error.path) == ("INVALID_OPTION", "options.regressionThreshold")


@pytest.mark.parametrize(
    ("setting", "value", "path"),
    [
        ("timeout", 10**9, "judge.timeout"),
        ("timeout", float("nan"), "judge.timeout"),
        ("retries", 10**6, "judge.retries"),
        ("maxTokens", 10**12, "judge.maxTokens"),
        ("maxResponseBytes", 10**12, "judge.maxResponseBytes"),
    ],
)
def test_judge_settings_are_bounded(setting, value, path):
    judge = {"type": "openai", "model": "m", "baseUrl": "http://127.0.0.1:9", setting: value}
    error = error_of(lambda: evaluate(SAMPLE, ["faithfulness"], {"mode": "llm", "judge": judge}))
    assert (error.code, error.path) == ("JUDGE_MISCONFIGURED", path)
