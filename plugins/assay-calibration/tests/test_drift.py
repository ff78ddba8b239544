"""Behaviour of the Page–Hinkley and CUSUM detectors on seeded synthetic streams."""

from __future__ import annotations

import json

import numpy as np
import pytest

import assay
from assay_calibration.drift import Cusum, DriftEvent, PageHinkley


def shifted_stream(seed: int, before: int = 300, after: int = 300, shift: float = 1.0):
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.normal(0.0, 0.5, before), rng.normal(shift, 0.5, after)])


def stationary_stream(seed: int, size: int = 2000):
    return np.random.default_rng(seed).normal(0.0, 0.5, size)


def feed(detector, values):
    return [event for x in values if (event := detector.update(float(x))) is not None]


DETECTORS = {
    "page_hinkley": lambda **kw: PageHinkley(delta=0.1, threshold=20.0, min_samples=30, **kw),
    "cusum": lambda **kw: Cusum(delta=0.25, threshold=5.0, min_samples=100, **kw),
}


@pytest.mark.parametrize("name", sorted(DETECTORS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fires_soon_after_an_upward_shift(name: str, seed: int) -> None:
    events = feed(DETECTORS[name](), shifted_stream(seed))
    assert events, "no drift reported on a one-sigma-x2 shift"
    first = events[0]
    assert first.detector == name and first.direction == "increase"
    assert 300 <= first.index < 360
    assert first.statistic > first.threshold
    assert abs(first.mean_before) < 0.3  # the level before the change was about 0


@pytest.mark.parametrize("name", sorted(DETECTORS))
def test_reports_a_downward_shift_as_decrease(name: str) -> None:
    events = feed(DETECTORS[name](), shifted_stream(4, shift=-1.0))
    assert events and events[0].direction == "decrease" and 300 <= events[0].index < 360


@pytest.mark.parametrize("name", sorted(DETECTORS))
@pytest.mark.parametrize("seed", [5, 6, 7])
def test_stays_quiet_on_a_stationary_stream(name: str, seed: int) -> None:
    assert feed(DETECTORS[name](), stationary_stream(seed)) == []


@pytest.mark.parametrize("name", sorted(DETECTORS))
def test_one_sided_detector_ignores_the_other_direction(name: str) -> None:
    stream = shifted_stream(8, shift=-1.0)
    assert feed(DETECTORS[name](direction="increase"), stream) == []
    assert feed(DETECTORS[name](direction="decrease"), stream)


def test_min_samples_holds_back_an_early_alarm() -> None:
    stream = [0.0] * 5 + [10.0] * 5
    early = feed(PageHinkley(delta=0.0, threshold=1.0, min_samples=1), stream)
    late = feed(PageHinkley(delta=0.0, threshold=1.0, min_samples=8), stream)
    assert early[0].index == 5
    assert late[0].index == 7


def test_page_hinkley_statistic_by_hand() -> None:
    # values 0, 0, 3: means 0, 0, 1; deviations 0, 0, 2; up = 0, 0, 2 (delta 0); min 0 -> U=2.
    detector = PageHinkley(delta=0.0, threshold=1.5, min_samples=1)
    assert detector.update(0) is None and detector.update(0) is None
    event = detector.update(3)
    assert event == DriftEvent("page_hinkley", 2, 2.0, 1.5, "increase", 0.0)


def test_cusum_matches_the_tabular_recursion() -> None:
    # target 0, k=0.5: S+ = max(0, S+ + x - 0.5) over 1, 1, 1 -> 0.5, 1.0, 1.5
    detector = Cusum(delta=0.5, threshold=1.2, min_samples=1, target=0.0)
    assert detector.update(1) is None and detector.update(1) is None
    event = detector.update(1)
    assert event == DriftEvent("cusum", 2, 1.5, 1.2, "increase", 0.0)


def test_cusum_learns_its_target_during_warm_up() -> None:
    detector = Cusum(delta=0.0, threshold=0.5, min_samples=3)
    assert [detector.update(x) for x in (2.0, 2.0, 2.0, 2.0)] == [None] * 4
    event = detector.update(3.0)
    assert event is not None and event.mean_before == 2.0 and event.statistic == 1.0


def test_restarts_after_firing_and_keeps_counting() -> None:
    detector = PageHinkley(delta=0.0, threshold=1.0, min_samples=2)
    events = feed(detector, [0, 0, 0, 5, 5, 5, 5, 0, 0, 0, 0])
    assert [e.direction for e in events] == ["increase", "decrease"]
    assert [e.index for e in events] == [3, 7]
    assert events[1].mean_before == 5.0


def test_reset_forgets_the_index() -> None:
    detector = PageHinkley(delta=0.0, threshold=1.0, min_samples=2)
    feed(detector, [0, 0, 0, 5])
    detector.reset()
    assert feed(detector, [0, 0, 0, 5])[0].index == 3


@pytest.mark.parametrize("name", sorted(DETECTORS))
@pytest.mark.parametrize("seed", [11, 12])
def test_update_many_equals_update_one_by_one(name: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    stream = np.concatenate([rng.normal(level, 0.5, 200) for level in (0, 1.5, -1, -1, 2)])
    one_by_one, vectorised = DETECTORS[name](), DETECTORS[name]()
    expected = feed(one_by_one, stream)
    got = vectorised.update_many(stream[:333]) + vectorised.update_many(stream[333:])
    assert len(expected) >= 3
    assert got == expected
    assert vectorised.snapshot() == one_by_one.snapshot()


@pytest.mark.parametrize("name", sorted(DETECTORS))
def test_snapshot_round_trip_continues_identically(name: str) -> None:
    stream = shifted_stream(21)
    original = DETECTORS[name]()
    feed(original, stream[:250])
    snapshot = json.loads(json.dumps(original.snapshot()))
    restored = type(original).from_snapshot(snapshot)
    assert feed(restored, stream[250:]) == feed(original, stream[250:])
    assert restored.snapshot() == original.snapshot()


def test_event_to_dict_is_camel_case_json() -> None:
    event = DriftEvent("cusum", 4, 6.5, 5.0, "decrease", 0.25)
    assert event.to_dict() == {
        "detector": "cusum",
        "index": 4,
        "statistic": 6.5,
        "threshold": 5.0,
        "direction": "decrease",
        "meanBefore": 0.25,
    }


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"delta": -1.0}, "delta"),
        ({"threshold": 0}, "threshold"),
        ({"threshold": float("nan")}, "threshold"),
        ({"min_samples": 0}, "minSamples"),
        ({"min_samples": 2.5}, "minSamples"),
        ({"direction": "up"}, "direction"),
    ],
)
def test_bad_parameters_raise_invalid_config(kwargs: dict, path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        PageHinkley(**kwargs)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)


def test_bad_target_raises_invalid_config() -> None:
    with pytest.raises(assay.AssayError) as caught:
        Cusum(target=float("inf"))
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "target")


def test_non_finite_values_raise_invalid_input_and_change_nothing() -> None:
    detector = PageHinkley()
    with pytest.raises(assay.AssayError) as caught:
        detector.update(float("nan"))
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "x")
    before = detector.snapshot()
    with pytest.raises(assay.AssayError) as caught:
        detector.update_many([1.0, 2.0, float("inf")])
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "values[2]")
    assert detector.snapshot() == before


def test_snapshot_of_another_detector_is_rejected() -> None:
    with pytest.raises(assay.AssayError) as caught:
        Cusum.from_snapshot(PageHinkley().snapshot())
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "snapshot.detector")


def test_snapshot_with_missing_state_is_rejected() -> None:
    snapshot = PageHinkley().snapshot()
    del snapshot["state"]["up"]
    with pytest.raises(assay.AssayError) as caught:
        PageHinkley.from_snapshot(snapshot)
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "snapshot.state")
