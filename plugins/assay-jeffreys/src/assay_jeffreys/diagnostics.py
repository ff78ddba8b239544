"""Trust in the model: goodness of fit of the Beta assumption, dependence between dimensions,
and the assumption report the gate's guards read."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from assay_jeffreys.errors import INVALID_CONFIG, INVALID_OBSERVATION, fail
from assay_jeffreys.scores import observation_from_wire, to_score_map
from assay_jeffreys.types import (
    HYPOTHESES,
    AssumptionReport,
    BetaParams,
    DependenceDiagnostic,
    DimensionCorrelation,
    DimensionModel,
    GoodnessOfFit,
    LabeledObservation,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_DEPENDENCE_THRESHOLD",
    "MIN_FIT_SAMPLES",
    "FitCheck",
    "assess_assumptions",
    "dependence_by_hypothesis",
    "dependence_diagnostic",
    "fit_checks",
    "goodness_of_fit",
    "ks_critical_value",
    "sorted_samples",
    "wrong_direction_dimensions",
]

DEFAULT_ALPHA = 0.05
"""Significance level of the goodness-of-fit test."""
DEFAULT_DEPENDENCE_THRESHOLD = 0.5
"""Absolute Pearson correlation at or above which a pair of dimensions is flagged."""
MIN_FIT_SAMPLES = 5
"""Fewest samples :func:`goodness_of_fit` accepts."""
MIN_PAIR_ROWS = 3
"""Fewest shared rows for a pair's correlation to be reported."""


def ks_critical_value(samples: int, alpha: float = DEFAULT_ALPHA) -> float:
    """The asymptotic one-sample Kolmogorov–Smirnov critical value
    ``sqrt(-ln(alpha / 2) / 2) / sqrt(n)`` (1.3581 / sqrt(n) at alpha 0.05).

    :raises AssayError: ``INVALID_CONFIG`` unless ``0 < alpha < 1``.
    """
    if not 0.0 < alpha < 1.0:
        fail(INVALID_CONFIG, f"alpha must be in (0, 1), got {alpha!r}", "alpha")
    return math.sqrt(-math.log(alpha / 2.0) / 2.0) / math.sqrt(samples)


def sorted_samples(samples: Any) -> np.ndarray:
    """``samples`` as a sorted float64 array, checked for a goodness-of-fit test.

    :raises AssayError: ``INVALID_OBSERVATION`` for fewer than :data:`MIN_FIT_SAMPLES` samples
        or a sample outside [0, 1] (NaN included).
    """
    import numpy as np

    x = np.sort(np.asarray(samples, dtype=np.float64))
    if x.size < MIN_FIT_SAMPLES:
        fail(
            INVALID_OBSERVATION,
            f"goodness of fit needs >= {MIN_FIT_SAMPLES} samples, got {x.size}",
            "samples",
        )
    if not (np.all(x >= 0.0) and np.all(x <= 1.0)):
        fail(INVALID_OBSERVATION, "every sample must be finite and in [0, 1]", "samples")
    return x


def goodness_of_fit(
    samples: Sequence[float], params: BetaParams, alpha: float = DEFAULT_ALPHA
) -> GoodnessOfFit:
    """Kolmogorov–Smirnov test of ``samples`` against Beta(``params``).

    The statistic is ``max_i max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n)`` over the sorted samples
    (the same as ``scipy.stats.kstest``). With parameters fitted on the same samples the test
    is conservative (it rejects less often than ``alpha``); an inadequate fit is therefore a
    strong signal.

    :raises AssayError: ``INVALID_OBSERVATION`` for fewer than :data:`MIN_FIT_SAMPLES` samples
        or a sample outside [0, 1]; ``INVALID_CONFIG`` for a bad ``alpha``.
    """
    import numpy as np
    from scipy.special import betainc

    x = sorted_samples(samples)
    n = int(x.size)
    cdf = betainc(params.a, params.b, x)
    ranks = np.arange(1, n + 1)
    statistic = float(max(np.max(ranks / n - cdf), np.max(cdf - (ranks - 1) / n)))
    critical = ks_critical_value(n, alpha)
    return GoodnessOfFit(statistic, critical, statistic <= critical, n)


def _pearson(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0.0 or syy <= 0.0:
        return 0.0
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def dependence_diagnostic(
    history: Iterable[Any], threshold: float = DEFAULT_DEPENDENCE_THRESHOLD
) -> DependenceDiagnostic:
    """Pairwise Pearson correlation between dimensions over a history of score vectors.

    Each pair is measured over the rows that score both dimensions; pairs with fewer than 3
    such rows are left out. A dimension constant over those rows correlates 0 (no linear
    dependence can be measured). Pairs with ``|r| >= threshold`` are flagged: the combined Bayes
    factor assumes conditional independence, and correlated dimensions double-count evidence.

    :raises AssayError: ``INVALID_SCORE`` for a bad vector; ``INVALID_CONFIG`` unless
        ``0 <= threshold <= 1``.
    """
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float)
        or not 0 <= threshold <= 1
    ):
        fail(INVALID_CONFIG, f"threshold must be in [0, 1], got {threshold!r}", "threshold")
    rows = [to_score_map(v, f"history[{i}]") for i, v in enumerate(history)]
    dimensions = sorted({d for row in rows for d in row})
    pairs = []
    for a, b in itertools.combinations(dimensions, 2):
        shared = [(row[a], row[b]) for row in rows if a in row and b in row]
        if len(shared) >= MIN_PAIR_ROWS:
            xs, ys = [s[0] for s in shared], [s[1] for s in shared]
            pairs.append(DimensionCorrelation(a, b, _pearson(xs, ys), len(shared)))
    pairs.sort(key=lambda p: (-abs(p.correlation), p.a, p.b))
    flagged = [p for p in pairs if abs(p.correlation) >= threshold]
    max_abs = abs(pairs[0].correlation) if pairs else 0.0
    return DependenceDiagnostic(dimensions, pairs, flagged, max_abs, not flagged, float(threshold))


def _labeled(history: Iterable[Any]) -> list[LabeledObservation]:
    return [observation_from_wire(o, f"history[{i}]") for i, o in enumerate(history)]


@attrs.frozen
class FitCheck:
    """The goodness of fit of one dimension's model under one hypothesis.

    Attributes:
        dimension: the dimension.
        hypothesis: ``"high"`` or ``"low"``.
        params: the fitted Beta under that hypothesis.
        samples: how many labeled scores the history holds for it.
        fit: the KS test, or ``None`` with fewer than :data:`MIN_FIT_SAMPLES` samples.
    """

    dimension: str
    hypothesis: str
    params: BetaParams
    samples: int
    fit: GoodnessOfFit | None


def fit_checks(
    history: Iterable[LabeledObservation | Mapping[str, Any]],
    models: Sequence[DimensionModel],
    alpha: float = DEFAULT_ALPHA,
) -> list[FitCheck]:
    """:func:`goodness_of_fit` of every model under both hypotheses against the labeled scores
    of ``history``, in model order, high before low."""
    rows_by_label: dict[str, list[dict[str, float]]] = {kind: [] for kind in HYPOTHESES}
    for obs in _labeled(history):
        rows_by_label[obs.label].append({s.dimension: s.value for s in obs.scores})
    checks = []
    for model in models:
        for kind in HYPOTHESES:
            samples = [
                row[model.dimension] for row in rows_by_label[kind] if model.dimension in row
            ]
            params = model.high if kind == "high" else model.low
            fit = (
                goodness_of_fit(samples, params, alpha) if len(samples) >= MIN_FIT_SAMPLES else None
            )
            checks.append(FitCheck(model.dimension, kind, params, len(samples), fit))
    return checks


def dependence_by_hypothesis(
    history: Iterable[LabeledObservation | Mapping[str, Any]],
    threshold: float = DEFAULT_DEPENDENCE_THRESHOLD,
) -> dict[str, DependenceDiagnostic]:
    """:func:`dependence_diagnostic` within the rows of each hypothesis:
    ``{"high": ..., "low": ...}``."""
    observations = _labeled(history)
    return {
        kind: dependence_diagnostic(
            [{s.dimension: s.value for s in o.scores} for o in observations if o.label == kind],
            threshold,
        )
        for kind in HYPOTHESES
    }


def assess_assumptions(
    history: Iterable[LabeledObservation | Mapping[str, Any]],
    models: Sequence[DimensionModel],
    alpha: float = DEFAULT_ALPHA,
    threshold: float = DEFAULT_DEPENDENCE_THRESHOLD,
) -> AssumptionReport:
    """Check the gate's two assumptions on labeled history, for :class:`GateGuards`.

    * Goodness of fit (:func:`fit_checks`): each model under each hypothesis with at least
      :data:`MIN_FIT_SAMPLES` scores in ``history``; a dimension failing either is inadequate.
    * Independence (:func:`dependence_by_hypothesis`): within each hypothesis's rows
      separately (the assumption is independence *given* the hypothesis; pooling both classes
      would flag every pair of dimensions that each separate the classes). A pair flagged in
      either class is dependent.

    :raises AssayError: as :func:`observation_from_wire`; ``INVALID_OBSERVATION`` when the
        history is empty.
    """
    observations = _labeled(history)
    if not observations:
        fail(INVALID_OBSERVATION, "assumptions need a non-empty labeled history", "history")
    inadequate: list[str] = []
    for check in fit_checks(observations, models, alpha):
        if check.fit is not None and not check.fit.adequate and check.dimension not in inadequate:
            inadequate.append(check.dimension)
    dependent = {
        f"{pair.a}~{pair.b}"
        for diagnostic in dependence_by_hypothesis(observations, threshold).values()
        for pair in diagnostic.flagged
    }
    return AssumptionReport(not inadequate, not dependent, inadequate, sorted(dependent))


def wrong_direction_dimensions(models: Sequence[DimensionModel]) -> list[str]:
    """The dimensions that point the wrong way: scores are "higher is better", yet the high
    hypothesis's Beta mean is below the low one's, so a high score counts as evidence of low
    quality. In model order. :func:`~assay_jeffreys.fit_gate` leaves such a dimension out of
    the evidence by default; BayesOutputGate's sum counts it as it comes."""
    return [m.dimension for m in models if m.high.mean < m.low.mean]
