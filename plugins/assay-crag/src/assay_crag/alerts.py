"""Quality alerts (``checkQualityAlerts`` of the specification) and a change-point monitor.

:func:`check_quality_alerts` compares the mean of recent scores with a baseline mean:

* ``degradation`` (severity ``warning``): ``mean < baseline * (1 - degradation)``, i.e. more than
  15% below the baseline by default;
* ``threshold`` (severity ``critical``): ``mean < critical_below`` (0.4 by default).

Both comparisons are strict, as in the specification.

:class:`QualityMonitor` watches a stream of scores: it keeps a window of the most recent ones,
raises the two alerts above on the window's mean when a condition *starts* (not again while it
holds; again after it clears), and feeds every score to a change-point detector — by default
:class:`assay_calibration.drift.PageHinkley` watching for a decrease, the one drift detector the
project shares with the gate — raising an ``anomaly`` alert when it fires.

Alerts are :class:`QualityAlert` records; :meth:`QualityAlert.to_dict` gives a flat JSON object
for a log pipeline.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

import attrs

import assay
from assay_crag.checks import config_number, score_input

__all__ = [
    "AlertConfig",
    "QualityAlert",
    "QualityMonitor",
    "check_quality_alerts",
]

METRIC = "quality_score_avg"


def _plain_dict(value: Mapping[str, Any]) -> dict[str, Any]:
    return dict(value)


@attrs.frozen
class QualityAlert:
    """One alert (``QualityAlert`` of the JSON input format), ready for a log pipeline.

    Attributes:
        type: ``"degradation"``, ``"threshold"`` or ``"anomaly"`` (a change point).
        severity: ``"warning"`` or ``"critical"``.
        message: what happened, with the numbers.
        metric: ``"quality_score_avg"`` (window mean) or ``"quality_score"`` (a change point).
        current_value: the value that crossed: the window mean, or for an anomaly the mean of the
            window when the detector fired.
        threshold: the limit it crossed (for an anomaly, the detector's threshold).
        index: 0-based position in the stream of the score that raised it (``None`` outside a
            monitor).
        details: extra facts (baseline, window size, the detector's event).
    """

    type: Literal["degradation", "threshold", "anomaly"]
    severity: Literal["warning", "critical"]
    message: str
    metric: str
    current_value: float
    threshold: float
    index: int | None = None
    details: Mapping[str, Any] = attrs.field(factory=dict, converter=_plain_dict)

    def to_dict(self) -> dict[str, Any]:
        """``{"event": "quality_alert", "type", "severity", "message", "metric",
        "currentValue", "threshold", "index", "details"}``."""
        return {
            "event": "quality_alert",
            "type": self.type,
            "severity": self.severity,
            "message": self.message,
            "metric": self.metric,
            "currentValue": self.current_value,
            "threshold": self.threshold,
            "index": self.index,
            "details": dict(self.details),
        }


def _degradation(value: Any) -> float:
    return config_number(value, "degradation")


def _critical_below(value: Any) -> float:
    return config_number(value, "criticalBelow")


@attrs.frozen
class AlertConfig:
    """Thresholds of the alerts.

    Attributes:
        degradation: relative drop below the baseline that raises ``degradation`` (0.15).
        critical_below: mean below which ``threshold`` (critical) is raised (0.4).

    Values outside [0, 1] raise ``INVALID_CONFIG``.
    """

    degradation: float = attrs.field(default=0.15, converter=_degradation)
    critical_below: float = attrs.field(default=0.4, converter=_critical_below)


def _scores(values: Iterable[Any], path: str) -> list[float]:
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Iterable):
        raise assay.AssayError(assay.ErrorCode.INVALID_INPUT, "expected an array of scores", path)
    return [score_input(value, f"{path}[{i}]") for i, value in enumerate(values)]


def check_quality_alerts(
    recent_scores: Sequence[float], baseline_avg: float, config: AlertConfig | None = None
) -> tuple[QualityAlert, ...]:
    """Alerts for a batch of recent scores against a baseline mean (the specification's check).

    :return: ``degradation`` then ``threshold`` alerts, each only when its condition holds.
    :raises assay.AssayError: ``INVALID_INPUT`` when ``recent_scores`` is empty or holds a
        non-number; ``INVALID_CONFIG`` when ``baseline_avg`` is not a finite number >= 0.
    """
    config = config or AlertConfig()
    scores = _scores(recent_scores, "recentScores")
    if not scores:
        raise assay.AssayError(assay.ErrorCode.INVALID_INPUT, "no scores to check", "recentScores")
    baseline = config_number(baseline_avg, "baseline", 0, 1)
    mean = sum(scores) / len(scores)
    limit = baseline * (1 - config.degradation)
    facts = {"baseline": baseline, "count": len(scores)}
    alerts = []
    if mean < limit:
        alerts.append(
            QualityAlert(
                type="degradation",
                severity="warning",
                message=(
                    f"Quality score degraded from baseline: mean {mean:.4f} < {limit:.4f} "
                    f"({1 - config.degradation:g} x baseline {baseline:.4f})"
                ),
                metric=METRIC,
                current_value=mean,
                threshold=limit,
                details=facts,
            )
        )
    if mean < config.critical_below:
        alerts.append(
            QualityAlert(
                type="threshold",
                severity="critical",
                message=(
                    f"Average quality score critically low: mean {mean:.4f} < "
                    f"{config.critical_below:g}"
                ),
                metric=METRIC,
                current_value=mean,
                threshold=config.critical_below,
                details=facts,
            )
        )
    return tuple(alerts)


class ChangePointDetector(Protocol):
    """What the monitor needs from a drift detector (``assay_calibration.drift`` detectors)."""

    threshold: float

    def update(self, x: float) -> Any: ...

    def reset(self) -> None: ...


def default_detector() -> ChangePointDetector:
    """Page–Hinkley watching for a decrease: allowance 0.01, threshold 1.0 (a sustained drop of
    0.1 fires after about a dozen scores), at least 30 scores first."""
    from assay_calibration.drift import PageHinkley

    return PageHinkley(delta=0.01, threshold=1.0, min_samples=30, direction="decrease")


class QualityMonitor:
    """Watches a stream of quality scores; see the module docs.

    :param baseline: the baseline mean quality (finite, >= 0).
    :param window: how many recent scores the mean covers (>= 1).
    :param min_scores: window alerts wait for this many scores (default: a full window).
    :param config: alert thresholds.
    :param detector: a change-point detector with ``update(x) -> event | None`` and ``reset()``
        (default :func:`default_detector`); ``None`` events mean no change.
    :raises assay.AssayError: ``INVALID_CONFIG`` for a bad baseline, window or min_scores.
    """

    def __init__(
        self,
        baseline: float,
        *,
        window: int = 50,
        min_scores: int | None = None,
        config: AlertConfig | None = None,
        detector: ChangePointDetector | None = None,
    ) -> None:
        self.baseline = config_number(baseline, "baseline", 0, 1)
        if window < 1:
            raise assay.AssayError(assay.ErrorCode.INVALID_CONFIG, "must be >= 1", "window")
        self.min_scores = window if min_scores is None else min_scores
        if not 1 <= self.min_scores <= window:
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG, f"must be in [1, {window}]", "minScores"
            )
        self.config = config or AlertConfig()
        self.detector = detector if detector is not None else default_detector()
        self._window: deque[float] = deque(maxlen=window)
        self._active: set[Any] = set()
        self._index = 0

    @property
    def count(self) -> int:
        """Scores observed so far."""
        return self._index

    @property
    def window_mean(self) -> float | None:
        """Mean of the current window, ``None`` before the first score."""
        return sum(self._window) / len(self._window) if self._window else None

    def observe(self, score: float) -> tuple[QualityAlert, ...]:
        """Take one score; return the alerts it raised (possibly none).

        :raises assay.AssayError: ``INVALID_INPUT`` when ``score`` is not a finite number.
        """
        value = score_input(score, f"scores[{self._index}]")
        index = self._index
        self._index += 1
        self._window.append(value)
        raised: list[QualityAlert] = []
        event = self.detector.update(value)
        if event is not None:
            raised.append(self._anomaly(event, index))
        if len(self._window) >= self.min_scores:
            current = check_quality_alerts(list(self._window), self.baseline, self.config)
            now_active = {a.type for a in current}
            for alert in current:
                if alert.type not in self._active:
                    details = {**alert.details, "window": len(self._window)}
                    raised.append(attrs.evolve(alert, index=index, details=details))
            self._active = now_active
        return tuple(raised)

    def observe_many(self, scores: Iterable[float]) -> list[QualityAlert]:
        """:meth:`observe` each score in order; all alerts raised.

        :raises assay.AssayError: ``INVALID_INPUT`` when ``scores`` is not an array; as
            :meth:`observe` for a score.
        """
        if isinstance(scores, str | bytes | Mapping) or not isinstance(scores, Iterable):
            raise assay.AssayError(
                assay.ErrorCode.INVALID_INPUT, "expected an array of scores", "scores"
            )
        return [alert for score in scores for alert in self.observe(score)]

    def _anomaly(self, event: Any, index: int) -> QualityAlert:
        facts = event.to_dict() if hasattr(event, "to_dict") else {"event": repr(event)}
        mean = self.window_mean if self.window_mean is not None else 0.0
        before = getattr(event, "mean_before", None)
        shift = f" from a mean of {before:.4f}" if isinstance(before, float) else ""
        return QualityAlert(
            type="anomaly",
            severity="warning",
            message=(
                f"Change point in quality scores at index {index}{shift} "
                f"(window mean now {mean:.4f})"
            ),
            metric="quality_score",
            current_value=mean,
            threshold=float(getattr(event, "threshold", self.detector.threshold)),
            index=index,
            details={"detector": facts, "baseline": self.baseline},
        )
