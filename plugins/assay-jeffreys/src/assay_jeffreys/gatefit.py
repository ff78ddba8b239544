"""A gate fitted on labeled history: :func:`fit_gate` and :class:`FittedGate`.

Fitting, in order (each step documented where it lives):

1. **Score models** per dimension and hypothesis, of the family the config names or, with
   ``"auto"``, the Beta unless its Kolmogorov–Smirnov test rejects it for either hypothesis,
   then the empirical model (:mod:`assay_jeffreys.scoremodel`).
2. **Direction**: scores are "higher is better", so a dimension whose high-quality model has a
   lower mean than its low-quality model points the wrong way. It is reported, and with
   ``wrong_direction="exclude"`` (the default) it adds no evidence.
3. **Combination**: with ``"calibrated"`` the dimensions' weights and an offset are learned on
   cross-fitted history (:mod:`assay_jeffreys.combination`): observation ``i`` is held back in
   fold ``i mod folds``, its log likelihood ratios come from models fit on the other folds
   (same families, atoms and bandwidth scales as the full fit), and the weights are fit on
   those held-back ratios. The models that decide are then fit on the whole history. With
   ``"independent"`` each dimension counts at its configured weight.
4. **Cap and minimum**: with ``n`` labeled outputs of the smaller hypothesis, ``|ln BF|`` is
   capped at ``ln(n / 3)`` and, below ``min_history``, every decision escalates with rationale
   ``"insufficient-history"`` (see :data:`~assay_jeffreys.gateconfig.MIN_HISTORY`).

:meth:`GateConfig.compatible` skips all of that and gives BayesOutputGate's numbers exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from assay_jeffreys.bayesfactor import bayes_factor, favored_hypothesis, jeffreys_strength, safe_exp
from assay_jeffreys.combination import fit_weights, fold_of
from assay_jeffreys.diagnostics import (
    DEFAULT_DEPENDENCE_THRESHOLD,
    MIN_FIT_SAMPLES,
    dependence_by_hypothesis,
)
from assay_jeffreys.errors import INVALID_DIMENSION, fail
from assay_jeffreys.gate import decide_on_evidence
from assay_jeffreys.gateconfig import GateConfig, gate_config_from_wire
from assay_jeffreys.hypothesis import HypothesisManager
from assay_jeffreys.policies import BayesFactorPolicy, resolve_policy
from assay_jeffreys.scoremodel import (
    BetaScoreModel,
    EmpiricalScoreModel,
    ScoreModel,
    fit_empirical_pair,
    model_goodness_of_fit,
)
from assay_jeffreys.scores import observations_from_wire, to_score_map
from assay_jeffreys.types import (
    AssumptionReport,
    BayesFactorResult,
    DimensionContribution,
    DimensionModel,
    EvidenceCalibration,
    GateDecision,
    GateGuards,
    GoodnessOfFit,
    LabeledObservation,
    as_dict,
)
from assay_jeffreys.wire import to_wire

if TYPE_CHECKING:
    import numpy as np

    from assay_jeffreys.vectorized import BatchDecisions

__all__ = ["DimensionFit", "FittedGate", "fit_gate"]


@attrs.frozen
class DimensionFit:
    """What fitting found for one dimension.

    Attributes:
        dimension: the dimension.
        family: the score model family used, ``"beta"`` or ``"empirical"``.
        high: the high-quality model's summary (family, parameters, mean).
        low: the low-quality model's summary.
        samples_high: labeled high scores of this dimension in the history.
        samples_low: labeled low scores.
        fit_high: the Kolmogorov–Smirnov test of the high model on its scores (``None`` with
            fewer than 5).
        fit_low: the same for the low model.
        wrong_direction: the high model's mean is below the low model's.
        weight: the weight of its log likelihood ratio in the Bayes factor (0 when excluded).
        excluded: why it adds no evidence, ``"wrong-direction"`` or ``"zero-weight"`` (its
            configured weight is 0), else ``None``.
    """

    dimension: str
    family: str
    high: Mapping[str, Any] = attrs.field(converter=as_dict)
    low: Mapping[str, Any] = attrs.field(converter=as_dict)
    samples_high: int
    samples_low: int
    fit_high: GoodnessOfFit | None
    fit_low: GoodnessOfFit | None
    wrong_direction: bool
    weight: float
    excluded: str | None = None

    @property
    def adequate(self) -> bool:
        """Both fits were tested and neither was rejected."""
        fits = (self.fit_high, self.fit_low)
        return all(f is not None and f.adequate for f in fits)


def _test(samples: list[float], model: ScoreModel, alpha: float) -> GoodnessOfFit | None:
    return model_goodness_of_fit(samples, model, alpha) if len(samples) >= MIN_FIT_SAMPLES else None


def _columns(observations: Sequence[LabeledObservation], dimension: str) -> dict[str, list[float]]:
    by_label: dict[str, list[float]] = {"high": [], "low": []}
    for obs in observations:
        for score in obs.scores:
            if score.dimension == dimension:
                by_label[obs.label].append(score.value)
    return by_label


class _Models:
    """The two score models of a dimension and how to refit them on part of the history."""

    def __init__(self, high: ScoreModel, low: ScoreModel) -> None:
        self.high, self.low = high, low

    def log_ratio(self, x: np.ndarray) -> np.ndarray:
        result: np.ndarray = self.high.log_density(x) - self.low.log_density(x)
        return result


def _choose_models(
    samples: dict[str, list[float]], beta: DimensionModel, config: GateConfig
) -> _Models:
    beta_pair = _Models(BetaScoreModel(beta.high), BetaScoreModel(beta.low))
    if config.score_model == "beta":
        return beta_pair
    if config.score_model == "auto":
        fits = [
            _test(samples[kind], model, config.alpha)
            for kind, model in (("high", beta_pair.high), ("low", beta_pair.low))
        ]
        if all(f is None or f.adequate for f in fits):
            return beta_pair
    return _Models(*fit_empirical_pair(samples["high"], samples["low"]))


def _refit(models: _Models, samples: dict[str, list[float]], beta: DimensionModel) -> _Models:
    """The same family (and, for the empirical model, the same atoms and bandwidth scales)
    fit on other scores; ``beta`` is the Beta fit of those scores."""
    if isinstance(models.high, EmpiricalScoreModel) and isinstance(models.low, EmpiricalScoreModel):
        pair = fit_empirical_pair(
            samples["high"],
            samples["low"],
            atoms=models.high.atoms,
            scales=(models.high.bandwidth_scale, models.low.bandwidth_scale),
        )
        return _Models(*pair)
    return _Models(BetaScoreModel(beta.high), BetaScoreModel(beta.low))


def _score_column(observations: Sequence[LabeledObservation], dimension: str) -> np.ndarray:
    """Each observation's score of ``dimension``, NaN where it has none."""
    import numpy as np

    column = np.full(len(observations), np.nan)
    for i, obs in enumerate(observations):
        for score in obs.scores:
            if score.dimension == dimension:
                column[i] = score.value
    return column


def _ratios(models: _Models, column: np.ndarray) -> np.ndarray:
    """Log likelihood ratios of a score column, 0 where a score is missing."""
    import numpy as np

    present = ~np.isnan(column)
    out = np.zeros(column.size)
    if present.any():
        out[present] = models.log_ratio(column[present])
    return out


class FittedGate:
    """A gate fitted on labeled history by :func:`fit_gate`; decides like
    :func:`~assay_jeffreys.evaluate`, with its own models, weights and checks.

    Attributes:
        config: the :class:`GateConfig` it was fitted with.
        models: the Beta :class:`DimensionModel` of every dimension (BayesOutputGate's
            calibration of the same history, whatever family decides).
        dimensions: one :class:`DimensionFit` per dimension, in model order.
        offset: the learned offset of the calibrated combination (0 otherwise).
        cap: the cap on ``|ln BF|`` (``None`` when not capped).
        history_counts: labeled outputs per hypothesis, ``{"high": n1, "low": n2}``.
        assumptions: goodness of fit of the models that add evidence (a model that could not
            be tested, with fewer than 5 scores, is not adequate) and dependence within each
            hypothesis between dimensions that both add evidence (a pair with an excluded
            dimension is not flagged), for :class:`GateGuards`.
    """

    def __init__(
        self,
        config: GateConfig,
        models: list[DimensionModel],
        dimensions: list[DimensionFit],
        evidence: dict[str, _Models],
        offset: float,
        history_counts: dict[str, int],
        assumptions: AssumptionReport,
    ) -> None:
        self.config = config
        self.models = models
        self.dimensions = tuple(dimensions)
        self.offset = offset
        self.history_counts = history_counts
        self.assumptions = assumptions
        self._evidence = evidence
        self._weights = {d.dimension: d.weight for d in dimensions}
        smaller = min(history_counts.values())
        self.cap: float | None = None
        self._bounds = (-math.inf, math.inf)
        if config.cap_evidence:
            # ln(3/n) and ln(n/3) computed separately, so the bounds meet the policy's
            # thresholds exactly (ln 0.1 and ln 10 at n = 30)
            if smaller > 3:
                self._bounds = (math.log(3.0 / smaller), math.log(smaller / 3.0))
            else:
                self._bounds = (0.0, 0.0)
            self.cap = self._bounds[1]

    def score_models(self, dimension: str) -> tuple[ScoreModel, ScoreModel]:
        """The high and low score models that decide for ``dimension``.

        :raises AssayError: ``INVALID_DIMENSION`` for a dimension the gate does not model.
        """
        if dimension not in self._evidence:
            fail(INVALID_DIMENSION, f"unknown dimension {dimension!r}", "dimension")
        models = self._evidence[dimension]
        return models.high, models.low

    @property
    def sufficient_history(self) -> bool:
        """Whether each hypothesis has at least ``config.min_history`` labeled outputs."""
        return min(self.history_counts.values()) >= self.config.min_history

    def insufficient_history(self) -> str | None:
        """Why the history is too small to decide on (``None`` when it is not)."""
        if self.sufficient_history:
            return None
        high, low = self.history_counts["high"], self.history_counts["low"]
        return (
            f"insufficient history: {high} labeled high and {low} labeled low outputs; the gate "
            f"decides from {self.config.min_history} of each"
        )

    def bayes_factor(self, scores: Any) -> BayesFactorResult:
        """The Bayes factor of one output's scores (empty contributions when no score matches
        a modeled dimension).

        :raises AssayError: ``INVALID_SCORE`` for bad scores.
        """
        if self.config.is_compatible:
            return bayes_factor(scores, self.models)
        import numpy as np

        values = to_score_map(scores)
        contributions, excluded, total = [], [], self.offset
        for fit in self.dimensions:
            if fit.dimension not in values:
                continue
            x = values[fit.dimension]
            weight = self._weights[fit.dimension]
            log_bf = 0.0
            if weight > 0.0:
                log_bf = weight * float(self._evidence[fit.dimension].log_ratio(np.array([x]))[0])
            else:
                excluded.append(fit.dimension)
            total += log_bf
            contributions.append(DimensionContribution(fit.dimension, x, log_bf, weight))
        capped = min(max(total, self._bounds[0]), self._bounds[1]) if contributions else 0.0
        strength = jeffreys_strength(capped)
        calibration = EvidenceCalibration(self.offset, total, self.cap, excluded)
        return BayesFactorResult(
            capped,
            safe_exp(capped),
            favored_hypothesis(strength),
            strength,
            contributions,
            calibration,
        )

    def evaluate(
        self, scores: Any, policy: Any = None, guards: GateGuards | None = None
    ) -> GateDecision:
        """Decide one output (see :func:`~assay_jeffreys.evaluate`); with too little history
        the action is ``"escalate"`` with rationale ``"insufficient-history"``, the Bayes
        factor and contributions kept for the reviewer.

        :param policy: as for :func:`~assay_jeffreys.evaluate` (default Bayes-factor 10 / 0.1).
        :raises AssayError: ``INVALID_SCORE``; ``INVALID_DIMENSION`` when no score matches a
            modeled dimension; ``INVALID_CONFIG`` for a bad policy.
        """
        result = self.bayes_factor(scores)
        if not result.contributions:
            fail(INVALID_DIMENSION, "no score matches a modeled dimension", "scores")
        resolved = resolve_policy(policy if policy is not None else BayesFactorPolicy())
        return decide_on_evidence(result, resolved, guards, self.insufficient_history())

    def log_bayes_factors(
        self, scores: Any, dimensions: Sequence[str]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Log Bayes factors of each row of an ``(n, d)`` score array (NaN: missing) and how
        many modeled dimensions each row scored; agrees with :meth:`bayes_factor` row by row.

        :raises AssayError: as :func:`~assay_jeffreys.vectorized.batch_log_bayes_factors`.
        """
        import numpy as np

        from assay_jeffreys.vectorized import batch_log_bayes_factors, checked_score_matrix

        if self.config.is_compatible:
            return batch_log_bayes_factors(scores, dimensions, self.models)
        x = checked_score_matrix(scores, dimensions)
        unknown = [d for d in dimensions if d not in self._evidence]
        if unknown:
            fail(INVALID_DIMENSION, f"no model for dimension(s) {', '.join(unknown)}", "dimensions")
        total = np.full(x.shape[0], self.offset)
        for j, dimension in enumerate(dimensions):
            weight = self._weights[dimension]
            if weight > 0.0:
                total += weight * _ratios(self._evidence[dimension], x[:, j])
        matched = (~np.isnan(x)).sum(axis=1)
        log_bf = np.clip(total, *self._bounds)
        log_bf[matched == 0] = 0.0
        return log_bf, matched

    def decide_batch(
        self,
        scores: Any,
        dimensions: Sequence[str],
        policy: Any = None,
        guards: GateGuards | None = None,
    ) -> BatchDecisions:
        """Decide every row of an ``(n, d)`` score array (see
        :func:`~assay_jeffreys.decide_batch`); too little history escalates every row with
        rationale ``"insufficient-history"``."""
        from assay_jeffreys.vectorized import decide_log_bayes_factors

        log_bf, matched = self.log_bayes_factors(scores, dimensions)
        resolved = resolve_policy(policy if policy is not None else BayesFactorPolicy())
        return decide_log_bayes_factors(
            log_bf, matched, resolved, guards, not self.sufficient_history
        )

    def report(self) -> dict[str, Any]:
        """The fit as JSON: config, history counts, whether they suffice, offset, cap, one
        entry per dimension (family, models, fits, direction, weight, exclusion) and the
        assumption report."""
        return {
            "config": self.config.to_wire(),
            "historyCounts": dict(self.history_counts),
            "sufficientHistory": self.sufficient_history,
            "offset": self.offset,
            "cap": self.cap,
            "dimensions": to_wire(list(self.dimensions)),
            "assumptions": to_wire(self.assumptions),
        }


def _cross_fitted_weights(
    observations: Sequence[LabeledObservation],
    chosen: dict[str, _Models],
    included: list[str],
    base: HypothesisManager,
    folds: int,
    counts: dict[str, int],
) -> tuple[list[float], float]:
    """Weights of the included dimensions and the offset, fit on held-back ratios."""
    import numpy as np

    columns = {d: _score_column(observations, d) for d in included}
    evidence = np.zeros((len(observations), len(included)))
    fold = np.array([fold_of(i, folds) for i in range(len(observations))])
    for k in range(folds):
        train = [o for o, f in zip(observations, fold, strict=True) if f != k]
        held = fold == k
        betas = {m.dimension: m for m in base.unfitted().fit(train).models()}
        for j, dimension in enumerate(included):
            models = _refit(chosen[dimension], _columns(train, dimension), betas[dimension])
            evidence[held, j] = _ratios(models, columns[dimension][held])
    labels = np.array([o.label == "high" for o in observations], dtype=np.float64)
    prior_log_odds = math.log(counts["high"] / counts["low"])
    weights, offset = fit_weights(evidence, labels, prior_log_odds)
    return [float(w) for w in weights], offset


def fit_gate(
    history: Iterable[LabeledObservation | Mapping[str, Any]],
    config: GateConfig | Mapping[str, Any] | str | None = None,
    manager: HypothesisManager | None = None,
    dependence_threshold: float = DEFAULT_DEPENDENCE_THRESHOLD,
) -> FittedGate:
    """Fit a gate on labeled history (see the module docstring for the steps).

    :param history: labeled observations ``{"scores", "label"}``; may be empty (every decision
        then escalates for insufficient history unless ``config.min_history`` is 0).
    :param config: a :class:`GateConfig`, its JSON object, ``"compatible"`` or ``None`` (the
        calibrated defaults).
    :param manager: dimension specs, weights and Beta priors (a manager's observations are
        not used; default: a new :class:`HypothesisManager`). With the calibrated combination a
        configured weight scales the dimension's evidence before the weights are learned, so
        only a weight of 0 (leave it out) changes the result.
    :param dependence_threshold: correlation at or above which the assumption report flags a
        pair of dimensions.
    :raises AssayError: as :func:`~assay_jeffreys.observation_from_wire` for the history;
        ``INVALID_CONFIG`` for a bad config.
    """
    cfg = gate_config_from_wire(config)
    observations = observations_from_wire(history, "history")
    base = (manager or HypothesisManager()).unfitted()
    betas = base.unfitted().fit(observations).models()
    counts = {kind: sum(o.label == kind for o in observations) for kind in ("high", "low")}
    chosen: dict[str, _Models] = {}
    fits: list[DimensionFit] = []
    for beta in betas:
        samples = _columns(observations, beta.dimension)
        models = _choose_models(samples, beta, cfg)
        chosen[beta.dimension] = models
        wrong = models.high.mean < models.low.mean
        excluded = None
        if beta.weight == 0.0:
            excluded = "zero-weight"
        elif wrong and cfg.wrong_direction == "exclude":
            excluded = "wrong-direction"
        fits.append(
            DimensionFit(
                beta.dimension,
                models.high.family,
                models.high.describe(),
                models.low.describe(),
                len(samples["high"]),
                len(samples["low"]),
                _test(samples["high"], models.high, cfg.alpha),
                _test(samples["low"], models.low, cfg.alpha),
                wrong,
                0.0 if excluded else beta.weight,
                excluded,
            )
        )
    offset = 0.0
    included = [f.dimension for f in fits if f.excluded is None]
    if cfg.combination == "calibrated" and included and min(counts.values()) >= cfg.folds:
        learned, offset = _cross_fitted_weights(
            observations, chosen, included, base, cfg.folds, counts
        )
        scale = {f.dimension: f.weight for f in fits}
        weights = dict(zip(included, learned, strict=True))
        fits = [
            attrs.evolve(f, weight=weights[f.dimension] * scale[f.dimension])
            if f.dimension in weights
            else f
            for f in fits
        ]
    evidence = {f.dimension for f in fits if f.weight > 0.0}
    inadequate = [f.dimension for f in fits if f.dimension in evidence and not f.adequate]
    # a pair with an excluded dimension double-counts nothing: only evidence pairs are flagged
    dependent = sorted(
        {
            f"{pair.a}~{pair.b}"
            for diagnostic in dependence_by_hypothesis(observations, dependence_threshold).values()
            for pair in diagnostic.flagged
            if pair.a in evidence and pair.b in evidence
        }
    )
    assumptions = AssumptionReport(not inadequate, not dependent, inadequate, dependent)
    return FittedGate(cfg, betas, fits, chosen, offset, counts, assumptions)
