"""ScaledPageHinkley: quiet on stationary streams of any spread, fires on a shift, resumes."""

from __future__ import annotations

import json

import pytest

import assay
from assay_jeffreys import ScaledPageHinkley
from assay_jeffreys.sampling import make_generator


@pytest.mark.parametrize(("a", "b"), [(40, 10), (8, 2), (2, 2), (0.6, 0.6)])
def test_stationary_streams_of_any_spread_stay_quiet(a, b):
    # standard deviations from 0.06 (Beta(40, 10)) to 0.39 (Beta(0.6, 0.6), U-shaped)
    values = make_generator(31).beta(a, b, 2000).tolist()
    assert ScaledPageHinkley().update_many(values) == []


@pytest.mark.parametrize(("before", "after"), [((40, 10), (30, 20)), ((2, 2), (1, 4))])
def test_a_shift_is_detected_soon_after_it_happens(before, after):
    rng = make_generator(32)
    values = rng.beta(*before, 300).tolist() + rng.beta(*after, 100).tolist()
    events = ScaledPageHinkley().update_many(values)
    assert events and 300 <= events[0].index < 340
    assert events[0].direction == "decrease" and events[0].detector == "scaled_page_hinkley"
    # in score units: the threshold is 10 standard deviations of the stream before the shift
    assert 9.0 < events[0].threshold / float(rng.beta(*before, 5000).std()) < 11.0


def test_a_nearly_constant_stream_uses_the_minimum_scale():
    detector = ScaledPageHinkley()
    assert detector.update_many([1.0] * 29 + [0.98] * 100) == []
    assert detector.scale == pytest.approx(0.05)
    assert detector.update_many([0.6] * 20)


def test_a_snapshot_resumes_exactly_while_warming_up_and_while_watching():
    rng = make_generator(33)
    values = rng.beta(8, 2, 250).tolist() + rng.beta(3, 5, 150).tolist()
    for cut in (10, 120, 320):
        original = ScaledPageHinkley()
        first = original.update_many(values[:cut])
        copy = ScaledPageHinkley.from_snapshot(json.loads(json.dumps(original.snapshot())))
        assert copy.update_many(values[cut:]) == original.update_many(values[cut:])
        assert copy.snapshot() == original.snapshot()
        assert first or cut < 250


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"threshold": 0}, "threshold"),
        ({"allowance": -1}, "allowance"),
        ({"clip": float("nan")}, "clip"),
        ({"min_samples": 1}, "minSamples"),
        ({"min_scale": 0}, "minScale"),
        ({"direction": "up"}, "direction"),
    ],
)
def test_bad_parameters_name_the_parameter(kwargs, path):
    with pytest.raises(assay.AssayError) as info:
        ScaledPageHinkley(**kwargs)
    assert (info.value.code, info.value.path) == ("INVALID_CONFIG", path)


def test_bad_values_and_snapshots_are_refused():
    with pytest.raises(assay.AssayError) as info:
        ScaledPageHinkley().update(float("inf"))
    assert (info.value.code, info.value.path) == ("INVALID_INPUT", "x")
    for broken in ({"detector": "cusum"}, {"detector": "scaled_page_hinkley", "params": {}}):
        with pytest.raises(assay.AssayError) as info:
            ScaledPageHinkley.from_snapshot(broken)
        assert info.value.code == "INVALID_SNAPSHOT"
