"""Quality alerts at the specification's thresholds, and the streaming monitor with change points."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay_calibration.drift import Cusum
from assay_crag.alerts import AlertConfig, QualityMonitor, check_quality_alerts


def test_degradation_is_strictly_more_than_15_percent_below_baseline() -> None:
    # baseline 0.8: limit 0.8 * 0.85 = 0.68
    limit = 0.8 * (1 - 0.15)
    assert check_quality_alerts([limit], 0.8) == ()
    (alert,) = check_quality_alerts([np.nextafter(limit, 0)], 0.8)
    assert (alert.type, alert.severity, alert.threshold) == ("degradation", "warning", limit)
    assert alert.metric == "quality_score_avg"


def test_critical_is_strictly_below_0_4() -> None:
    assert [a.type for a in check_quality_alerts([0.4], 0.4)] == []
    alerts = check_quality_alerts([0.3, 0.5, np.nextafter(0.4, 0)], 0.4)
    assert [a.type for a in alerts] == ["threshold"]
    both = check_quality_alerts([0.2, 0.3], 0.9)
    assert [(a.type, a.severity) for a in both] == [
        ("degradation", "warning"),
        ("threshold", "critical"),
    ]
    assert both[0].current_value == pytest.approx(0.25)


def test_thresholds_are_configurable() -> None:
    config = AlertConfig(degradation=0.05, critical_below=0.6)
    assert [a.type for a in check_quality_alerts([0.55], 0.6, config)] == [
        "degradation",
        "threshold",
    ]
    with pytest.raises(assay.AssayError) as caught:
        AlertConfig(critical_below=2)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "criticalBelow")


def test_bad_inputs() -> None:
    with pytest.raises(assay.AssayError) as caught:
        check_quality_alerts([], 0.5)
    assert caught.value.path == "recentScores"
    with pytest.raises(assay.AssayError) as caught:
        check_quality_alerts([0.5, float("nan")], 0.5)
    assert caught.value.path == "recentScores[1]"
    with pytest.raises(assay.AssayError) as caught:
        check_quality_alerts([0.5], -1)
    assert caught.value.path == "baseline"


def test_alert_record_is_log_ready() -> None:
    (alert,) = check_quality_alerts([0.5], 0.8)
    record = alert.to_dict()
    assert record["event"] == "quality_alert" and record["currentValue"] == 0.5
    assert record["details"] == {"baseline": 0.8, "count": 1}
    assert "mean 0.5000 < 0.6800" in record["message"]


def _stream(seed: int, before: float, after: float, n_before: int, n_after: int) -> list[float]:
    rng = np.random.default_rng(seed)
    values = np.concatenate([rng.normal(before, 0.05, n_before), rng.normal(after, 0.05, n_after)])
    return values.clip(0, 1).tolist()


def test_monitor_is_quiet_on_a_stationary_stream() -> None:
    monitor = QualityMonitor(0.75, window=50)
    assert monitor.observe_many(_stream(1, 0.75, 0.75, 1000, 1000)) == []
    assert monitor.count == 2000


def test_monitor_finds_the_drop_once() -> None:
    monitor = QualityMonitor(0.75, window=50)
    alerts = monitor.observe_many(_stream(3, 0.75, 0.55, 200, 100))
    kinds = [(a.type, a.index) for a in alerts]
    anomaly = [i for t, i in kinds if t == "anomaly"]
    degradation = [i for t, i in kinds if t == "degradation"]
    assert len(anomaly) == 1 and 200 <= anomaly[0] < 215  # change point shortly after the shift
    assert len(degradation) == 1 and anomaly[0] < degradation[0] < 250
    assert alerts[0].details["detector"]["detector"] == "page_hinkley"


def test_window_alerts_fire_again_after_recovery() -> None:
    monitor = QualityMonitor(0.8, window=2, detector=Cusum(target=0.8, threshold=100.0))
    raised = [[a.type for a in monitor.observe(s)] for s in (0.8, 0.5, 0.5, 0.8, 0.8, 0.5, 0.5)]
    assert raised == [[], ["degradation"], [], [], [], ["degradation"], []]


def test_min_scores_waits_for_enough_scores() -> None:
    monitor = QualityMonitor(0.8, window=10, min_scores=3)
    assert monitor.observe(0.1) == () and monitor.observe(0.1) == ()
    assert [a.type for a in monitor.observe(0.1)] == ["degradation", "threshold"]
    assert monitor.window_mean == pytest.approx(0.1)


def test_monitor_rejects_bad_settings_and_scores() -> None:
    with pytest.raises(assay.AssayError):
        QualityMonitor(0.8, window=0)
    with pytest.raises(assay.AssayError):
        QualityMonitor(0.8, window=5, min_scores=6)
    with pytest.raises(assay.AssayError) as caught:
        QualityMonitor(0.8).observe(float("inf"))
    assert caught.value.path == "scores[0]"
