"""What every heuristic metric of this plugin shares: threshold checks, the tri-state result,
and signals that carry the reference's ids.

A metric subclass implements :meth:`HeuristicMetric.measure`, which returns a :class:`Measured`
(score or ``None``, explanation, signals); :meth:`HeuristicMetric.compute` validates the
threshold, fetches the shared analysis and options, and builds the
:class:`assay.MetricResult`.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, NamedTuple

import assay
from assay_faithfulness.analysis import SampleAnalysis, shared_analysis
from assay_faithfulness.codes import INVALID_THRESHOLD
from assay_faithfulness.options import HeuristicOptions, heuristic_options

__all__ = ["HeuristicMetric", "Measured", "Signal", "check_threshold"]


SEVERITY_TO_CORE = {"info": "info", "warning": "warn", "critical": "error"}
"""The reference's signal severities and the core's names for them."""


class Signal(NamedTuple):
    """A signal as the reference names it, before it becomes an :class:`assay.MetricSignal`.

    (A named tuple rather than an attrs class: metrics build many of these per sample, and a
    tuple costs a fraction of a frozen attrs instance to create.)

    Attributes:
        id: the reference's stable signal id, e.g. ``"faithfulness-low-support-2"``.
        severity: ``"info"``, ``"warning"`` or ``"critical"`` (the reference's words).
        message: what was observed.
        evidence: the sentence concerned, when there is one.
    """

    id: str
    severity: str
    message: str
    evidence: str | None = None


class Measured(NamedTuple):
    """What a metric measured on one sample (a named tuple for the same reason as
    :class:`Signal`).

    Attributes:
        score: in [0, 1] (the reference's formulas; unusual negative weights can leave it), or
            ``None`` when undetermined.
        explanation: one sentence saying what drove the score.
        signals: observations, in the reference's order.
        details: JSON-safe numbers behind the score.
    """

    score: float | None
    explanation: str
    signals: tuple[Signal, ...] = ()
    details: dict[str, Any] | None = None


def check_threshold(metric_id: str, threshold: Any) -> float:
    """``threshold`` as a float.

    :raises assay.AssayError: ``INVALID_THRESHOLD`` at ``thresholds.<metric_id>`` when it is not
        a number in [0, 1].
    """
    if type(threshold) is float and 0.0 <= threshold <= 1.0:
        return threshold
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float)
        or not math.isfinite(threshold)
        or not 0.0 <= threshold <= 1.0
    ):
        raise assay.AssayError(
            INVALID_THRESHOLD,
            f"a threshold must be a number in [0, 1], got {threshold!r}",
            f"thresholds.{metric_id}",
        )
    return float(threshold)


def build_result(metric_id: str, measured: Measured, threshold: float) -> assay.MetricResult:
    """The :class:`assay.MetricResult` of a measurement judged at ``threshold``: details start
    with ``mode``, ``llm_calls`` and the reference's ``signal_ids``, then the metric's own."""
    score, explanation, signals, details = measured
    if signals:
        signal_ids = [s.id for s in signals]
        core_signals: tuple[assay.MetricSignal, ...] = tuple(
            [
                assay.MetricSignal(SEVERITY_TO_CORE[s.severity], s.message, s.evidence)  # type: ignore[arg-type]
                for s in signals
            ]
        )
    else:
        signal_ids = []
        core_signals = ()
    all_details: dict[str, Any] = {"mode": "heuristic", "llm_calls": 0, "signal_ids": signal_ids}
    if details:
        all_details.update(details)
    return assay.MetricResult(
        metric_id,
        score,
        None if score is None else score >= threshold,
        threshold,
        explanation,
        core_signals,
        all_details,
    )


class HeuristicMetric:
    """Base of the heuristic metrics; satisfies the :class:`assay.Metric` protocol.

    Attributes:
        id: the metric id (snake_case), e.g. ``"answer_relevance"``.
        wire_id: the id in the JSON input format, e.g. ``"answerRelevance"``.
        default_threshold: the pass threshold used when the caller gives none.
        higher_is_better: always ``True`` here (hallucination rate is reported as
            ``1 - rate``, as in the reference).
        requires: sample fields without which the result is undetermined (``"ground_truth"``);
            an empty ``contexts`` list is not "missing": context metrics score it 0.
    """

    id: ClassVar[str]
    wire_id: ClassVar[str]
    default_threshold: ClassVar[float]
    higher_is_better: ClassVar[bool] = True
    requires: ClassVar[frozenset[str]] = frozenset()

    def compute(
        self, sample: assay.EvalSample, context: assay.MetricContext, threshold: float
    ) -> assay.MetricResult:
        """Score ``sample`` and judge it at ``threshold`` (``score >= threshold`` passes).

        :raises assay.AssayError: ``INVALID_THRESHOLD`` for a threshold outside [0, 1];
            ``INVALID_OPTION`` for bad heuristic options; ``MISSING_ANSWER``,
            ``INVALID_CONTEXTS`` or ``INVALID_SAMPLE`` for a sample without answer, with
            non-string contexts, or with other wrongly typed fields.
        """
        threshold = check_threshold(self.id, threshold)
        measured = self.measure(shared_analysis(sample, context), heuristic_options(context))
        return build_result(self.id, measured, threshold)

    def measure(self, analysis: SampleAnalysis, options: HeuristicOptions) -> Measured:
        """The score, explanation and signals of one analysed sample."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} id={self.id!r} threshold={self.default_threshold}>"
