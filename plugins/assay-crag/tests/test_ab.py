"""A/B analysis against scipy, hand formulas and distributions with known differences."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import assay
from assay_crag.ab import analyze_ab_test, parse_ab_results


def _records(
    control: list[float],
    treatment: list[float],
    paired: bool = False,
    latency: tuple[float, float] = (40.0, 50.0),
) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for i, q in enumerate(control):
        out.append(
            {
                "variant": "control",
                "queryId": f"q{i}",
                "qualityScore": q,
                "latencyMs": latency[0],
                "timestamp": i,
            }
        )
    for i, q in enumerate(treatment):
        qid = f"q{i}" if paired else f"t{i}"
        out.append(
            {
                "variant": "treatment",
                "queryId": qid,
                "qualityScore": {"overall": q},
                "latencyMs": latency[1],
            }
        )
    return out


def _normal(rng: np.random.Generator, mean: float, n: int) -> list[float]:
    return rng.normal(mean, 0.1, n).clip(0, 1).tolist()


def test_specification_fields_by_hand() -> None:
    a = analyze_ab_test(_records([0.4, 0.6], [0.6, 0.8], latency=(40.0, 30.0)), min_samples=1)
    assert (a.control_sample_size, a.treatment_sample_size) == (2, 2)
    assert a.control_avg_quality == pytest.approx(0.5) and a.treatment_avg_quality == pytest.approx(
        0.7
    )
    assert a.quality_improvement == pytest.approx(0.4)
    assert a.latency_change == pytest.approx(-0.25)
    assert a.to_wire()["qualityImprovement"] == a.quality_improvement


def test_tests_match_scipy_and_the_welch_formula() -> None:
    rng = np.random.default_rng(11)
    c, t = _normal(rng, 0.5, 40), _normal(rng, 0.56, 55)
    a = analyze_ab_test(_records(c, t))
    ref = stats.ttest_ind(t, c, equal_var=False)
    assert (a.welch.statistic, a.welch.p_value) == pytest.approx((ref.statistic, ref.pvalue))
    # Welch by hand: t = (mt - mc) / sqrt(vt/nt + vc/nc), Welch-Satterthwaite degrees of freedom
    vt, vc = np.var(t, ddof=1) / len(t), np.var(c, ddof=1) / len(c)
    t_hand = (np.mean(t) - np.mean(c)) / math.sqrt(vt + vc)
    df = (vt + vc) ** 2 / (vt**2 / (len(t) - 1) + vc**2 / (len(c) - 1))
    assert a.welch.statistic == pytest.approx(t_hand, rel=1e-12)
    assert a.welch.p_value == pytest.approx(2 * stats.t.sf(abs(t_hand), df), rel=1e-9)
    mw = stats.mannwhitneyu(t, c, alternative="two-sided")
    assert (a.mann_whitney.statistic, a.mann_whitney.p_value) == pytest.approx(
        (mw.statistic, mw.pvalue)
    )
    assert a.probability_of_superiority == pytest.approx(mw.statistic / (40 * 55))
    assert a.wilcoxon is None and a.primary_test == "welch" and a.paired_count == 0
    pooled = math.sqrt((39 * np.var(c, ddof=1) + 54 * np.var(t, ddof=1)) / 93)
    assert a.effect_size == pytest.approx(
        (np.mean(t) - np.mean(c)) / pooled * (1 - 3 / (4 * 95 - 9))
    )


def test_known_difference_is_found_and_bracketed() -> None:
    rng = np.random.default_rng(5)
    a = analyze_ab_test(_records(_normal(rng, 0.5, 300), _normal(rng, 0.55, 300)), seed=3)
    assert a.is_significant and a.p_value is not None and a.p_value < 1e-6
    assert a.ci_low < 0.05 < a.ci_high and a.ci_low > 0
    assert 0.3 < (a.effect_size or 0) < 0.7  # true d = 0.5
    assert a.warnings == ()


def test_no_difference_is_not_significant() -> None:
    rng = np.random.default_rng(8)
    a = analyze_ab_test(_records(_normal(rng, 0.6, 200), _normal(rng, 0.6, 200)))
    assert not a.is_significant and a.ci_low < 0 < a.ci_high


def test_paired_queries_use_wilcoxon_and_paired_bootstrap() -> None:
    rng = np.random.default_rng(2)
    base = rng.uniform(0.2, 0.8, 60)
    c, t = base.tolist(), (base + rng.normal(0.02, 0.01, 60)).clip(0, 1).tolist()
    a = analyze_ab_test(_records(c, t, paired=True))
    diffs = np.array(t) - np.array(c)
    ref = stats.wilcoxon(diffs)
    assert a.primary_test == "wilcoxon" and a.paired_count == 60
    assert a.wilcoxon is not None
    assert (a.wilcoxon.statistic, a.wilcoxon.p_value) == pytest.approx((ref.statistic, ref.pvalue))
    assert a.effect_size_kind == "d_z"
    assert a.effect_size == pytest.approx(diffs.mean() / diffs.std(ddof=1))
    # the pairing removes the between-query spread: Wilcoxon sees it, Welch does not
    assert a.is_significant and (a.welch.p_value or 1) > 0.05


def test_bootstrap_is_seeded() -> None:
    rng = np.random.default_rng(4)
    records = _records(_normal(rng, 0.5, 50), _normal(rng, 0.52, 50))
    first, again = analyze_ab_test(records, seed=9), analyze_ab_test(records, seed=9)
    other = analyze_ab_test(records, seed=10)
    assert (first.ci_low, first.ci_high) == (again.ci_low, again.ci_high)
    assert (first.ci_low, first.ci_high) != (other.ci_low, other.ci_high)


def test_alpha_decides_significance() -> None:
    rng = np.random.default_rng(6)
    records = _records(_normal(rng, 0.5, 40), _normal(rng, 0.54, 40))
    p = analyze_ab_test(records).p_value
    assert p is not None
    assert analyze_ab_test(records, alpha=min(0.99, p * 1.01)).is_significant
    assert not analyze_ab_test(records, alpha=p).is_significant  # strict: p < alpha


def test_small_samples_warn() -> None:
    a = analyze_ab_test(_records([0.5, 0.6, 0.7], [0.6, 0.7, 0.8]))
    assert len(a.warnings) == 2 and "too few" in a.warnings[0]


def test_zero_variance_and_zero_control_mean() -> None:
    a = analyze_ab_test(_records([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]), min_samples=1)
    assert a.p_value is None and not a.is_significant and a.quality_improvement is None
    assert a.effect_size is None
    assert any("undefined" in w for w in a.warnings) and any(
        "mean quality is 0" in w for w in a.warnings
    )
    paired = analyze_ab_test(_records([0.5, 0.6], [0.5, 0.6], paired=True), min_samples=1)
    assert paired.wilcoxon is not None and paired.wilcoxon.p_value is None
    assert any("every paired difference is 0" in w for w in paired.warnings)


@pytest.mark.parametrize(
    ("record", "path"),
    [
        ({"variant": "x", "queryId": "q", "qualityScore": 0.5, "latencyMs": 1}, "[0].variant"),
        ({"variant": "control", "qualityScore": 0.5, "latencyMs": 1}, "[0].queryId"),
        (
            {"variant": "control", "queryId": "q", "qualityScore": 1.5, "latencyMs": 1},
            "[0].qualityScore",
        ),
        (
            {
                "variant": "control",
                "queryId": "q",
                "qualityScore": {"overall": "hi"},
                "latencyMs": 1,
            },
            "[0].qualityScore.overall",
        ),
        ({"variant": "control", "queryId": "q", "qualityScore": 0.5}, "[0].latencyMs"),
        (
            {"variant": "control", "queryId": "q", "qualityScore": 0.5, "latencyMs": -3},
            "[0].latencyMs",
        ),
    ],
)
def test_bad_records(record: dict[str, object], path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        parse_ab_results([record])
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", path)


def test_bad_parameters_and_tiny_arms() -> None:
    records = _records([0.5, 0.6], [0.6, 0.7])
    for kwargs, path in [
        ({"alpha": 0}, "alpha"),
        ({"confidence": 1}, "confidence"),
        ({"bootstrap_resamples": 10}, "bootstrapResamples"),
        ({"primary": "wilcoxon"}, "primary"),
        ({"primary": "z"}, "primary"),
    ]:
        with pytest.raises(assay.AssayError) as caught:
            analyze_ab_test(records, **kwargs)  # type: ignore[arg-type]
        assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)
    with pytest.raises(assay.AssayError) as caught:
        analyze_ab_test(_records([0.5], [0.6, 0.7]))
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "control")
