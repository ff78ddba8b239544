"""Bounded, seeded fuzzing of the public entry points with JSON-like samples and options: only
:class:`assay.AssayError` may escape."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from assay_evaluation import create_evaluator, evaluate, evaluate_batch
from assay_evaluation._options import parse_options

pytest.importorskip(
    "assay_faithfulness", reason="fuzzes the faithfulness metrics (installed in CI)"
)

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
BASE_SAMPLE = {
    "question": "What is RAG?",
    "answer": "RAG retrieves then generates.",
    "contexts": ["RAG retrieves documents."],
    "groundTruth": "RAG retrieves.",
}
SAMPLE_KEYS = ["question", "answer", "contexts", "groundTruth", "ground_truth", "id", "metadata"]
OPTION_KEYS = [
    "thresholds",
    "compositeThreshold",
    "compositeWeights",
    "regressionThreshold",
    "baselineResult",
    "metricModes",
    "heuristic",
    "mode",
    "chunkSize",
    "concurrency",
    "repeats",
    "judge",
    "promptOverrides",
    "resume",
]
METRICS = [
    "faithfulness",
    "answer_relevance",
    "answerRelevance",
    "context_precision",
    "context_recall",
    "nope",
]
HEURISTIC = st.dictionaries(
    st.sampled_from(
        ["ngramSizes", "ngramWeights", "claimSupportThreshold", "chunkRelevanceThreshold", "x"]
    ),
    JSON | st.lists(st.integers(min_value=-2, max_value=40), max_size=5),
    max_size=3,
)

# fuzzed samples carry unknown fields: the SampleFieldWarning each gives is tested where it is
# the subject (test_data_in.py) and noise here
pytestmark = pytest.mark.filterwarnings("ignore::assay_evaluation.SampleFieldWarning")


@st.composite
def samples(draw):
    sample = dict(BASE_SAMPLE)
    for key in draw(st.lists(st.sampled_from(SAMPLE_KEYS), max_size=3)):
        if draw(st.booleans()):
            sample.pop(key, None)
        else:
            sample[key] = draw(JSON)
    return sample if draw(st.integers(0, 9)) else draw(JSON)


@st.composite
def options(draw):
    if not draw(st.integers(0, 5)):
        return draw(JSON)
    chosen = {}
    for key in draw(st.lists(st.sampled_from(OPTION_KEYS), max_size=4)):
        chosen[key] = draw(HEURISTIC) if key == "heuristic" else draw(JSON)
    return chosen


METRIC_LISTS = st.one_of(st.none(), st.lists(st.sampled_from(METRICS), max_size=3), JSON)
FUZZ = settings(
    max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)


def only_assay_errors(call) -> None:
    with contextlib.suppress(assay.AssayError):
        call()


@FUZZ
@given(samples(), METRIC_LISTS, options())
def test_evaluate(sample, metrics, opts):
    only_assay_errors(lambda: evaluate(sample, metrics, opts))


@FUZZ
@given(st.lists(samples(), max_size=3) | JSON, METRIC_LISTS, options())
def test_evaluate_batch(batch, metrics, opts):
    only_assay_errors(lambda: evaluate_batch(batch, metrics, opts))


@FUZZ
@given(
    JSON | st.fixed_dictionaries({}, optional={"metrics": METRIC_LISTS, "thresholds": JSON}),
    samples(),
    options(),
)
def test_create_evaluator(config, sample, opts):
    only_assay_errors(lambda: create_evaluator(config).evaluate(sample, opts))


@FUZZ
@given(options())
def test_parse_options(opts):
    only_assay_errors(lambda: parse_options(opts))
