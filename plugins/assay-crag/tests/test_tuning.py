"""Choosing thresholds on labelled retrievals, with the router's own comparisons."""

from __future__ import annotations

import pytest

import assay
from assay_crag import CragRouter, QualityInput, route_counts, tune_thresholds

SCORES = [0.9, 0.8, 0.5, 0.45, 0.1, 0.3, 0.4, 0.45]
RELEVANT = [True, True, True, True, False, False, False, False]


def test_counts_follow_the_router_comparisons() -> None:
    paper = route_counts(SCORES, RELEVANT, low=0.4, high=0.45)
    assert (paper.relevant, paper.irrelevant) == ((3, 1, 0), (0, 1, 3))  # 0.45 is not > 0.45
    composite = route_counts(SCORES, RELEVANT, low=0.4, high=0.45, mode="composite")
    assert (composite.relevant, composite.irrelevant) == ((4, 0, 0), (1, 0, 3))  # >= 0.45
    assert composite.accuracy == 7 / 8 and paper.ambiguous_rate == 2 / 8
    assert paper.router_options() == {"lower": 0.4, "upper": 0.45}


def test_tuning_respects_the_ambiguous_ceiling_and_the_wrong_cost() -> None:
    free = tune_thresholds(SCORES, RELEVANT, max_ambiguous=1.0, wrong_cost=2.0)
    assert free.counts.wrong == 0 and free.counts.ambiguous == 2
    strict = tune_thresholds(SCORES, RELEVANT, max_ambiguous=0.0)
    assert strict.counts.ambiguous == 0 and strict.counts.low == strict.counts.high


def test_tuned_thresholds_route_as_measured() -> None:
    choice = tune_thresholds(SCORES, RELEVANT, max_ambiguous=0.25)
    router = CragRouter(**choice.router_options())
    assert router.thresholds == {"upper": choice.counts.high, "lower": choice.counts.low}
    retrieval = QualityInput.from_texts("Where is the Oberoi Group based?", ["Oberoi Group"])
    assert router.classify(retrieval).score == 0.8  # names weigh 2: 4 of 5, "based" missing
    assert router.classify(retrieval).classification == "correct"


@pytest.mark.parametrize(
    ("call", "code", "path"),
    [
        (lambda: tune_thresholds([0.5, 2.0], [True, False]), "INVALID_INPUT", "scores[1]"),
        (lambda: tune_thresholds([0.5], [True, False]), "INVALID_INPUT", "relevant"),
        (lambda: tune_thresholds([], []), "INVALID_INPUT", "scores"),
        (lambda: tune_thresholds([0.5], [True], mode="magic"), "INVALID_CONFIG", "mode"),  # type: ignore[arg-type]
        (lambda: tune_thresholds([0.5], [True], max_ambiguous=2), "INVALID_CONFIG", "maxAmbiguous"),
        (lambda: route_counts([0.5], [True], low=0.6, high=0.5), "INVALID_CONFIG", "low"),
    ],
)
def test_bad_input_is_refused(call: object, code: str, path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        call()  # type: ignore[operator]
    assert (caught.value.code, caught.value.path) == (code, path)
