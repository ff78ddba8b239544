"""A/B analysis of two retrieval variants (``analyzeABTest`` of the specification), with statistics.

Input: one result per query and variant (``ABTestResult`` of the JSON input format)::

    {"variant": "control" | "treatment", "queryId": "q1",
     "qualityScore": 0.72 | {"overall": 0.72, ...}, "latencyMs": 41.0, "timestamp": 1700000000}

Output (:class:`ABTestAnalysis`): the specification's fields (sample sizes, mean quality and latency
per arm, relative quality improvement and latency change) and

* Welch's t-test and the Mann–Whitney U test (two-sided, scipy) on the quality scores;
* the Wilcoxon signed-rank test on per-query differences when the arms share query ids;
* a reproducible percentile-bootstrap confidence interval of ``mean(treatment) - mean(control)``
  (when the Wilcoxon test decides: of the mean per-query difference, resampling queries);
* effect sizes: Hedges' g (unpaired) or d_z = mean / sd of the differences (when the Wilcoxon
  test decides), and the
  probability of superiority ``U / (n_t * n_c)`` from the Mann–Whitney test;
* ``is_significant = p < alpha`` for the primary test (Wilcoxon when every query is paired,
  otherwise Welch; or the test named by ``primary``), with warnings when an arm has fewer than
  ``min_samples`` results, when the variance is zero, or when the control mean is 0.

numpy and scipy are imported when an analysis runs, not when this module loads.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

import assay
from assay_crag.checks import config_number, finite_input, show

__all__ = [
    "ABTestAnalysis",
    "ABTestResult",
    "StatTest",
    "analyze_ab_test",
    "parse_ab_results",
]

Variant = Literal["control", "treatment"]
Primary = Literal["auto", "welch", "mann-whitney", "wilcoxon"]


def _str_tuple(value: Iterable[str]) -> tuple[str, ...]:
    """Typed tuple converter (keeps mypy aware of the element type)."""
    return tuple(value)


@attrs.frozen
class ABTestResult:
    """One query answered by one variant (``ABTestResult`` of the JSON input format).

    Attributes:
        variant: ``"control"`` or ``"treatment"``.
        query_id: the query's id; results of the two arms with the same id are paired.
        quality: the composite quality score (``qualityScore.overall``).
        latency_ms: the retrieval's latency in milliseconds.
        timestamp: when it ran (any number the caller uses; carried, not read).
    """

    variant: Variant
    query_id: str
    quality: float
    latency_ms: float
    timestamp: float | None = None


@attrs.frozen
class StatTest:
    """One hypothesis test.

    Attributes:
        name: ``"welch"``, ``"mann-whitney"`` or ``"wilcoxon"``.
        statistic: t, U (of the treatment arm) or W.
        p_value: two-sided p-value (``None`` when undefined, e.g. zero variance).
        n: observations used (pairs for Wilcoxon, all results otherwise).
    """

    name: str
    statistic: float | None
    p_value: float | None
    n: int

    def to_wire(self) -> dict[str, Any]:
        """``{name, statistic, pValue, n}``."""
        return {"name": self.name, "statistic": self.statistic, "pValue": self.p_value, "n": self.n}


@attrs.frozen
class ABTestAnalysis:
    """The analysis of one A/B test (``ABTestAnalysis`` of the JSON input format, plus statistics).

    Attributes:
        control_sample_size: results in the control arm.
        treatment_sample_size: results in the treatment arm.
        control_avg_quality: mean quality of control.
        treatment_avg_quality: mean quality of treatment.
        quality_improvement: ``(treatment - control) / control`` of the means; ``None`` when the
            control mean is 0.
        control_avg_latency: mean latency of control (ms).
        treatment_avg_latency: mean latency of treatment (ms).
        latency_change: ``(treatment - control) / control`` of the mean latencies; ``None`` when
            the control mean is 0.
        is_significant: ``p_value < alpha`` (False when the p-value is undefined).
        alpha: the significance level used.
        primary_test: the test whose p-value decides.
        p_value: that test's p-value.
        difference: ``mean(treatment) - mean(control)`` (paired: mean per-query difference).
        ci_low: lower bound of the bootstrap interval of ``difference``.
        ci_high: upper bound.
        confidence: the interval's level (e.g. 0.95).
        bootstrap_resamples: resamples drawn.
        seed: the integer the bootstrap's random generator starts from.
        effect_size: Hedges' g (unpaired) or d_z (paired); ``None`` when the spread is 0.
        effect_size_kind: ``"hedges_g"`` or ``"d_z"``.
        probability_of_superiority: ``U / (n_t * n_c)``: the chance a random treatment score
            beats a random control score (ties count half).
        welch: Welch's t-test.
        mann_whitney: Mann–Whitney U test.
        wilcoxon: Wilcoxon signed-rank on paired queries, or ``None`` without pairs.
        paired_count: queries present once in each arm.
        warnings: reasons to distrust the result, in words.
    """

    control_sample_size: int
    treatment_sample_size: int
    control_avg_quality: float
    treatment_avg_quality: float
    quality_improvement: float | None
    control_avg_latency: float
    treatment_avg_latency: float
    latency_change: float | None
    is_significant: bool
    alpha: float
    primary_test: str
    p_value: float | None
    difference: float
    ci_low: float
    ci_high: float
    confidence: float
    bootstrap_resamples: int
    seed: int
    effect_size: float | None
    effect_size_kind: str
    probability_of_superiority: float
    welch: StatTest
    mann_whitney: StatTest
    wilcoxon: StatTest | None
    paired_count: int
    warnings: tuple[str, ...] = attrs.field(converter=_str_tuple)

    def to_wire(self) -> dict[str, Any]:
        """The specification's camelCase fields first, then the statistics (camelCase)."""
        return {
            "controlSampleSize": self.control_sample_size,
            "treatmentSampleSize": self.treatment_sample_size,
            "controlAvgQuality": self.control_avg_quality,
            "treatmentAvgQuality": self.treatment_avg_quality,
            "qualityImprovement": self.quality_improvement,
            "controlAvgLatency": self.control_avg_latency,
            "treatmentAvgLatency": self.treatment_avg_latency,
            "latencyChange": self.latency_change,
            "isSignificant": self.is_significant,
            "alpha": self.alpha,
            "primaryTest": self.primary_test,
            "pValue": self.p_value,
            "difference": self.difference,
            "confidenceInterval": {
                "low": self.ci_low,
                "high": self.ci_high,
                "level": self.confidence,
                "resamples": self.bootstrap_resamples,
                "seed": self.seed,
            },
            "effectSize": {"value": self.effect_size, "kind": self.effect_size_kind},
            "probabilityOfSuperiority": self.probability_of_superiority,
            "tests": {
                "welch": self.welch.to_wire(),
                "mannWhitney": self.mann_whitney.to_wire(),
                "wilcoxon": None if self.wilcoxon is None else self.wilcoxon.to_wire(),
            },
            "pairedCount": self.paired_count,
            "warnings": list(self.warnings),
        }


def _invalid(message: str, path: str) -> assay.AssayError:
    return assay.AssayError(assay.ErrorCode.INVALID_INPUT, message, path)


def parse_ab_results(records: Iterable[Any]) -> list[ABTestResult]:
    """Read results from their wire mappings (see the module docs); :class:`ABTestResult`
    objects pass through.

    :raises assay.AssayError: ``MALFORMED_INPUT`` when a record is not an object;
        ``INVALID_INPUT`` for an unknown variant, a missing query id or a quality or latency that
        is not a finite number, a quality outside [0, 1] or a negative latency. Paths are
        ``[i].field``.
    """
    results = []
    for i, raw in enumerate(records):
        if isinstance(raw, ABTestResult):
            results.append(raw)
            continue
        if not isinstance(raw, Mapping):
            raise assay.AssayError(
                assay.ErrorCode.MALFORMED_INPUT,
                f"expected an object, got {type(raw).__name__}",
                f"[{i}]",
            )
        variant = raw.get("variant")
        if variant not in ("control", "treatment"):
            raise _invalid(f"must be 'control' or 'treatment', got {variant!r}", f"[{i}].variant")
        query_id = raw.get("queryId")
        if query_id is None or query_id == "":
            raise _invalid("missing queryId", f"[{i}].queryId")
        quality_raw = raw.get("qualityScore")
        if isinstance(quality_raw, Mapping):
            quality = finite_input(quality_raw.get("overall"), f"[{i}].qualityScore.overall")
        else:
            quality = finite_input(quality_raw, f"[{i}].qualityScore")
        if not 0 <= quality <= 1:
            raise _invalid(f"must be in [0, 1], got {quality:g}", f"[{i}].qualityScore")
        latency = finite_input(raw.get("latencyMs"), f"[{i}].latencyMs")
        if latency < 0:
            raise _invalid(f"must be >= 0, got {latency:g}", f"[{i}].latencyMs")
        timestamp = raw.get("timestamp")
        results.append(
            ABTestResult(
                variant=variant,
                query_id=str(query_id),
                quality=quality,
                latency_ms=latency,
                timestamp=None
                if timestamp is None
                else finite_input(timestamp, f"[{i}].timestamp"),
            )
        )
    return results


def _relative(new: float, old: float) -> float | None:
    return None if old == 0 else (new - old) / old


def _number_or_none(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _pairs(
    control: Sequence[ABTestResult], treatment: Sequence[ABTestResult]
) -> list[tuple[float, float]]:
    """(control, treatment) quality of queries present exactly once in each arm, by id order of
    the control arm."""

    def once(arm: Sequence[ABTestResult]) -> dict[str, float]:
        counts: dict[str, int] = {}
        for r in arm:
            counts[r.query_id] = counts.get(r.query_id, 0) + 1
        return {r.query_id: r.quality for r in arm if counts[r.query_id] == 1}

    c, t = once(control), once(treatment)
    return [(c[q], t[q]) for q in c if q in t]


def analyze_ab_test(
    results: Iterable[ABTestResult | Mapping[str, Any]],
    *,
    alpha: float = 0.05,
    confidence: float = 0.95,
    bootstrap_resamples: int = 2000,
    seed: int = 0,
    min_samples: int = 30,
    primary: Primary = "auto",
) -> ABTestAnalysis:
    """Analyse an A/B test; see the module docs for every output.

    :param alpha: significance level in (0, 1).
    :param confidence: bootstrap interval level in (0, 1).
    :param bootstrap_resamples: resamples (>= 100).
    :param seed: the integer the bootstrap generator (numpy ``default_rng``) starts from: same
        value, same interval.
    :param min_samples: below this many results in an arm, a warning says the test may be unable
        to tell.
    :param primary: the deciding test; ``"auto"`` is Wilcoxon when every result is paired,
        otherwise Welch.
    :raises assay.AssayError: ``INVALID_CONFIG`` for a parameter out of range (or ``primary=
        "wilcoxon"`` without paired queries); ``INVALID_INPUT`` for bad records or an arm with
        fewer than 2 results.
    """
    import numpy as np
    from scipy import stats  # type: ignore[import-untyped]

    _check_params(alpha, confidence, bootstrap_resamples, primary, seed)
    parsed = parse_ab_results(results)
    control = [r for r in parsed if r.variant == "control"]
    treatment = [r for r in parsed if r.variant == "treatment"]
    for arm, name in ((control, "control"), (treatment, "treatment")):
        if len(arm) < 2:
            raise _invalid(f"the {name} arm has {len(arm)} result(s); at least 2 are needed", name)
    c = np.array([r.quality for r in control])
    t = np.array([r.quality for r in treatment])
    warnings: list[str] = []
    for arm_values, name in ((c, "control"), (t, "treatment")):
        if len(arm_values) < min_samples:
            warnings.append(
                f"the {name} arm has {len(arm_values)} results (< {min_samples}): too few to "
                "tell a small difference; treat the result as indicative"
            )
    pairs = _pairs(control, treatment)
    fully_paired = len(pairs) == len(control) == len(treatment)

    welch_res = stats.ttest_ind(t, c, equal_var=False)
    welch = StatTest(
        "welch",
        _number_or_none(welch_res.statistic),
        _number_or_none(welch_res.pvalue),
        len(c) + len(t),
    )
    mw_res = stats.mannwhitneyu(t, c, alternative="two-sided")
    mann_whitney = StatTest(
        "mann-whitney", float(mw_res.statistic), _number_or_none(mw_res.pvalue), len(c) + len(t)
    )
    wilcoxon = None
    diffs = np.array([tq - cq for cq, tq in pairs])
    if len(pairs) >= 2:
        if np.all(diffs == 0):
            wilcoxon = StatTest("wilcoxon", None, None, len(pairs))
            warnings.append("every paired difference is 0: the Wilcoxon test is undefined")
        else:
            w_res = stats.wilcoxon(diffs)
            wilcoxon = StatTest(
                "wilcoxon", float(w_res.statistic), _number_or_none(w_res.pvalue), len(pairs)
            )

    chosen = primary if primary != "auto" else ("wilcoxon" if fully_paired else "welch")
    if chosen == "wilcoxon" and wilcoxon is None:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            "the Wilcoxon test needs at least 2 queries present once in each arm",
            "primary",
        )
    deciding = {"welch": welch, "mann-whitney": mann_whitney, "wilcoxon": wilcoxon}[chosen]
    assert deciding is not None
    p_value = deciding.p_value
    if p_value is None and not (chosen == "wilcoxon" and np.all(diffs == 0)):
        warnings.append(f"the {chosen} p-value is undefined (no variance in the scores)")

    rng = np.random.default_rng(seed)
    tail = (1 - confidence) / 2
    if chosen == "wilcoxon":
        difference = float(diffs.mean())
        boot = diffs[rng.integers(0, len(diffs), (bootstrap_resamples, len(diffs)))].mean(axis=1)
        sd = float(diffs.std(ddof=1))
        effect, kind = (difference / sd if sd > 0 else None), "d_z"
    else:
        difference = float(t.mean() - c.mean())
        boot_t = t[rng.integers(0, len(t), (bootstrap_resamples, len(t)))].mean(axis=1)
        boot_c = c[rng.integers(0, len(c), (bootstrap_resamples, len(c)))].mean(axis=1)
        boot = boot_t - boot_c
        effect, kind = _hedges_g(c, t), "hedges_g"
    ci_low, ci_high = (float(v) for v in np.quantile(boot, [tail, 1 - tail]))
    control_quality, treatment_quality = float(c.mean()), float(t.mean())
    control_latency = float(np.mean([r.latency_ms for r in control]))
    treatment_latency = float(np.mean([r.latency_ms for r in treatment]))
    if control_quality == 0:
        warnings.append("the control mean quality is 0: no relative improvement")
    return ABTestAnalysis(
        control_sample_size=len(c),
        treatment_sample_size=len(t),
        control_avg_quality=control_quality,
        treatment_avg_quality=treatment_quality,
        quality_improvement=_relative(treatment_quality, control_quality),
        control_avg_latency=control_latency,
        treatment_avg_latency=treatment_latency,
        latency_change=_relative(treatment_latency, control_latency),
        is_significant=p_value is not None and p_value < alpha,
        alpha=alpha,
        primary_test=chosen,
        p_value=p_value,
        difference=difference,
        ci_low=ci_low,
        ci_high=ci_high,
        confidence=confidence,
        bootstrap_resamples=bootstrap_resamples,
        seed=seed,
        effect_size=effect,
        effect_size_kind=kind,
        probability_of_superiority=float(mw_res.statistic) / (len(c) * len(t)),
        welch=welch,
        mann_whitney=mann_whitney,
        wilcoxon=wilcoxon,
        paired_count=len(pairs),
        warnings=tuple(warnings),
    )


def _hedges_g(control: Any, treatment: Any) -> float | None:
    """Cohen's d with the pooled standard deviation, times the small-sample correction
    ``1 - 3 / (4 (n_c + n_t) - 9)``; ``None`` when the pooled spread is 0."""
    nc, nt = len(control), len(treatment)
    pooled = math.sqrt(
        ((nc - 1) * float(control.var(ddof=1)) + (nt - 1) * float(treatment.var(ddof=1)))
        / (nc + nt - 2)
    )
    if pooled == 0:
        return None
    d = (float(treatment.mean()) - float(control.mean())) / pooled
    return d * (1 - 3 / (4 * (nc + nt) - 9))


def _check_params(alpha: float, confidence: float, resamples: int, primary: str, seed: int) -> None:
    for value, path in ((alpha, "alpha"), (confidence, "confidence")):
        if config_number(value, path) in (0.0, 1.0):
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG, f"must be in (0, 1), got {value!r}", path
            )
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 100:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"must be an integer >= 100, got {show(resamples)}",
            "bootstrapResamples",
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**128:
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"must be an integer in [0, 2**128), got {show(seed)}",
            "seed",
        )
    if not isinstance(primary, str) or primary not in ("auto", "welch", "mann-whitney", "wilcoxon"):
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"unknown test {primary!r}; use auto, welch, mann-whitney or wilcoxon",
            "primary",
        )
