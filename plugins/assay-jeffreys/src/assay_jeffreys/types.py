"""The gate's records (the core types of bayesoutputgate), as frozen attrs classes.

Validation happens at construction, so a record that exists is well formed. JSON wire shapes
(camelCase) come from :func:`assay_jeffreys.wire.to_wire`, never from these classes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, Literal

import attrs

from assay_jeffreys.errors import INVALID_CONFIG, INVALID_DIMENSION, INVALID_HYPOTHESIS, fail

__all__ = [
    "ACTIONS",
    "HYPOTHESES",
    "AssumptionReport",
    "BayesFactorResult",
    "BetaParams",
    "DependenceDiagnostic",
    "DimensionContribution",
    "DimensionCorrelation",
    "DimensionModel",
    "EvidenceCalibration",
    "ExpectedLoss",
    "GateAction",
    "GateDecision",
    "GateGuards",
    "GoodnessOfFit",
    "HypothesisKind",
    "LabeledObservation",
    "QualityScore",
    "check_hypothesis",
]

HypothesisKind = Literal["high", "low"]
GateAction = Literal["pass", "fail", "escalate"]
HYPOTHESES: tuple[str, str] = ("high", "low")
ACTIONS: tuple[str, str, str] = ("pass", "fail", "escalate")


def as_tuple(values: Iterable[Any]) -> tuple[Any, ...]:
    """``tuple(values)``, typed for the attrs converters of the records below."""
    return tuple(values)


def as_dict(values: Mapping[str, Any]) -> dict[str, Any]:
    """``dict(values)``, typed for the attrs converters of the records below."""
    return dict(values)


def check_hypothesis(label: Any, path: str = "label") -> str:
    """Return ``label`` when it is ``"high"`` or ``"low"``; else raise ``INVALID_HYPOTHESIS``."""
    if label not in HYPOTHESES:
        fail(INVALID_HYPOTHESIS, f"hypothesis must be 'high' or 'low', got {label!r}", path)
    return str(label)


def finite(value: int | float) -> bool:
    """``math.isfinite`` that is False (not OverflowError) for an int beyond float range."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _positive_finite(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        fail(INVALID_CONFIG, f"must be a number, got {value!r}", attribute.name)
    if not (finite(value) and value > 0):
        fail(INVALID_CONFIG, f"must be a positive finite number, got {value!r}", attribute.name)


def _dimension_name(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, str) or not value:
        fail(INVALID_DIMENSION, f"a dimension must be a non-empty string, got {value!r}")


@attrs.frozen
class QualityScore:
    """One score of an output on one dimension.

    Attributes:
        dimension: the axis this score measures, e.g. ``"factuality"``.
        value: the score in [0, 1], higher is better (checked where scores are read).
    """

    dimension: str
    value: float


@attrs.frozen
class BetaParams:
    """The parameters of a Beta distribution.

    Attributes:
        a: the first shape parameter, positive and finite.
        b: the second shape parameter, positive and finite.

    :raises AssayError: ``INVALID_CONFIG`` (path ``a`` or ``b``) otherwise.
    """

    a: float = attrs.field(validator=_positive_finite)
    b: float = attrs.field(validator=_positive_finite)

    @property
    def mean(self) -> float:
        """``a / (a + b)``."""
        return self.a / (self.a + self.b)


def _non_negative_weight(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        fail(INVALID_CONFIG, f"weight must be a number, got {value!r}", "weight")
    if not (finite(value) and value >= 0):
        fail(INVALID_CONFIG, f"weight must be finite and >= 0, got {value!r}", "weight")


@attrs.frozen
class DimensionModel:
    """The two calibrated hypotheses of one dimension, and its weight.

    Attributes:
        dimension: the dimension's name (non-empty; ``INVALID_DIMENSION`` otherwise).
        high: the Beta over scores of known-high-quality outputs.
        low: the Beta over scores of known-low-quality outputs.
        weight: the non-negative weight on this dimension's log Bayes factor
            (``INVALID_CONFIG`` otherwise).
    """

    dimension: str = attrs.field(validator=_dimension_name)
    high: BetaParams
    low: BetaParams
    weight: float = attrs.field(default=1.0, validator=_non_negative_weight)


@attrs.frozen
class LabeledObservation:
    """An output's scores with its known quality.

    Attributes:
        scores: the output's scores, one per dimension.
        label: ``"high"`` or ``"low"`` (``INVALID_HYPOTHESIS`` otherwise).
    """

    scores: tuple[QualityScore, ...] = attrs.field(converter=as_tuple)
    label: str = attrs.field()

    @label.validator
    def _check_label(self, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_hypothesis(value)


@attrs.frozen
class DimensionContribution:
    """One dimension's share of a Bayes factor.

    Attributes:
        dimension: the dimension.
        score: the score used (before the inward clamp of 0 and 1).
        log_bayes_factor: the weighted log-density difference high minus low for this score.
        weight: the dimension's weight (already applied to ``log_bayes_factor``).
    """

    dimension: str
    score: float
    log_bayes_factor: float
    weight: float


@attrs.frozen
class EvidenceCalibration:
    """How the calibrated combination turned per-dimension evidence into the Bayes factor.

    Present on results and decisions of a gate fitted with the calibrated combination (see
    :func:`~assay_jeffreys.fit_gate`); absent (``None``) on the BayesOutputGate sum.

    Attributes:
        offset: the learned constant added to the weighted sum of contributions.
        uncapped_log_bayes_factor: ``offset`` plus the contributions, before the cap.
        cap: the largest ``|ln BF|`` the history supports (``ln(n / 3)`` for ``n`` labeled
            outputs of the smaller hypothesis), ``None`` when not capped.
        excluded: dimensions scored but adding no evidence (pointing the wrong way, or weight 0).
    """

    offset: float
    uncapped_log_bayes_factor: float
    cap: float | None = None
    excluded: tuple[str, ...] = attrs.field(converter=as_tuple, factory=tuple)


@attrs.frozen
class BayesFactorResult:
    """The combined Bayes factor in favour of high quality, and its reading.

    Attributes:
        log_bayes_factor: the natural-log Bayes factor (sum of contributions).
        bayes_factor: ``exp(log_bayes_factor)``; may be ``inf`` (``null`` on the wire).
        favored: ``"high"``, ``"low"`` or ``"inconclusive"`` (inconclusive below a factor of 3
            either way).
        strength: the seven-way Jeffreys category (see :func:`~assay_jeffreys.jeffreys_strength`).
        contributions: one per dimension present in both the scores and the models, in model
            order.
        calibration: how a calibrated combination produced the factor (``None`` for the
            independent sum, whose log Bayes factor is the sum of the contributions).
    """

    log_bayes_factor: float
    bayes_factor: float
    favored: str
    strength: str
    contributions: tuple[DimensionContribution, ...] = attrs.field(converter=as_tuple)
    calibration: EvidenceCalibration | None = None


@attrs.frozen
class ExpectedLoss:
    """Expected loss of each action under a decision-theoretic policy.

    Attributes:
        pass_: ``(1 - p) * loss_false_pass`` (``"pass"`` on the wire).
        fail: ``p * loss_false_fail``.
        escalate: the escalation cost.
    """

    pass_: float = attrs.field(metadata={"wire": "pass"})
    fail: float
    escalate: float


@attrs.frozen
class AssumptionReport:
    """Whether the gate's model assumptions hold on the calibration history.

    Attributes:
        goodness_of_fit_adequate: every tested (dimension, hypothesis) passes the KS test.
        independence_assumption_safe: no dimension pair is correlated at or above the threshold.
        inadequate_dimensions: dimensions whose Beta fit failed for at least one hypothesis.
        dependent_pairs: flagged pairs, each ``"a~b"`` with ``a < b``.
    """

    goodness_of_fit_adequate: bool
    independence_assumption_safe: bool
    inadequate_dimensions: tuple[str, ...] = attrs.field(converter=as_tuple, factory=tuple)
    dependent_pairs: tuple[str, ...] = attrs.field(converter=as_tuple, factory=tuple)


@attrs.frozen
class GateGuards:
    """Opt-in guards that escalate when a required assumption fails.

    Attributes:
        assumptions: a precomputed report (see :func:`~assay_jeffreys.assess_assumptions`);
            without one the guards do nothing.
        require_goodness_of_fit: escalate when ``goodness_of_fit_adequate`` is false.
        require_independence: escalate when ``independence_assumption_safe`` is false.
    """

    assumptions: AssumptionReport | None = None
    require_goodness_of_fit: bool = False
    require_independence: bool = False

    def violated(self) -> list[str]:
        """Names of the required assumptions that fail (empty when none or no report)."""
        report = self.assumptions
        if report is None:
            return []
        names = []
        if self.require_goodness_of_fit and not report.goodness_of_fit_adequate:
            names.append("goodness-of-fit")
        if self.require_independence and not report.independence_assumption_safe:
            names.append("independence")
        return names


@attrs.frozen
class GateDecision:
    """The gate's decision on one output.

    Attributes:
        action: ``"pass"``, ``"fail"`` or ``"escalate"``.
        bayes_factor: ``exp(log_bayes_factor)``, may be ``inf``.
        log_bayes_factor: the combined natural-log Bayes factor.
        strength: the Jeffreys category of the Bayes factor.
        rationale: ``"bayes-factor"``, ``"expected-loss"``, ``"assumption-violated"`` or
            ``"insufficient-history"``.
        contributions: the per-dimension breakdown (kept when a guard escalates).
        reason: a sentence naming the rule and the numbers it compared.
        posterior_high_quality: the posterior probability of high quality, under a
            decision-theoretic policy; else ``None``.
        expected_loss: the expected loss of each action, under a decision-theoretic policy.
        assumptions: the guards' report, when guards supplied one.
        calibration: how a calibrated combination produced the Bayes factor, else ``None``.
    """

    action: str
    bayes_factor: float
    log_bayes_factor: float
    strength: str
    rationale: str
    contributions: tuple[DimensionContribution, ...] = attrs.field(converter=as_tuple)
    reason: str = ""
    posterior_high_quality: float | None = None
    expected_loss: ExpectedLoss | None = None
    assumptions: AssumptionReport | None = None
    calibration: EvidenceCalibration | None = None


@attrs.frozen
class GoodnessOfFit:
    """A Kolmogorov–Smirnov test of samples against a fitted Beta.

    Attributes:
        ks_statistic: the largest distance between the empirical and the Beta CDF.
        critical_value: the asymptotic critical value ``sqrt(-ln(alpha / 2) / 2) / sqrt(n)``.
        adequate: ``ks_statistic <= critical_value`` (the Beta assumption is not rejected).
        samples: the number of samples ``n``.
    """

    ks_statistic: float
    critical_value: float
    adequate: bool
    samples: int


@attrs.frozen
class DimensionCorrelation:
    """The Pearson correlation of two dimensions over the rows that score both.

    Attributes:
        a: the first dimension (``a < b``).
        b: the second dimension.
        correlation: Pearson's r in [-1, 1]; 0 when either dimension is constant on those rows.
        samples: the number of rows scoring both.
    """

    a: str
    b: str
    correlation: float
    samples: int


@attrs.frozen
class DependenceDiagnostic:
    """Pairwise dependence between dimensions across a history of score vectors.

    Attributes:
        dimensions: every dimension seen, sorted.
        pairs: all pairs with at least 3 shared rows, by absolute correlation, descending.
        flagged: the pairs whose absolute correlation is at or above the threshold.
        max_abs_correlation: the largest absolute correlation (0 when no pair).
        independence_assumption_safe: ``True`` when no pair is flagged.
        threshold: the threshold applied.
    """

    dimensions: tuple[str, ...] = attrs.field(converter=as_tuple)
    pairs: tuple[DimensionCorrelation, ...] = attrs.field(converter=as_tuple)
    flagged: tuple[DimensionCorrelation, ...] = attrs.field(converter=as_tuple)
    max_abs_correlation: float
    independence_assumption_safe: bool
    threshold: float
