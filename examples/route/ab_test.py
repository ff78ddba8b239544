"""A/B analysis of two retrieval variants, paired by query id.

Run: uv run --all-packages python examples/route/ab_test.py

Builds 60 queries answered by both variants (a fixed random state, so the numbers never change): the
treatment adds a reranker that lifts quality by about 0.03 on average and costs about 12 ms. Prints
the specification's fields ("control: ...", "treatment: ...", "quality improvement ... latency
change ..."), the three tests, the bootstrap interval, the effect size, and the verdict line
"significant at alpha 0.05 (wilcoxon, p ...)". Then it analyses only the first 12 queries and prints
the small-sample warning.
"""

from __future__ import annotations

import numpy as np

from assay_crag.ab import analyze_ab_test


def results(n: int, seed: int = 42) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.45, 0.85, n)
    lift = rng.normal(0.03, 0.03, n)
    records: list[dict[str, object]] = []
    for i in range(n):
        records.append(
            {
                "variant": "control",
                "queryId": f"q{i}",
                "qualityScore": round(base[i], 4),
                "latencyMs": round(float(rng.normal(40, 4)), 1),
            }
        )
        records.append(
            {
                "variant": "treatment",
                "queryId": f"q{i}",
                "qualityScore": {"overall": round(float(np.clip(base[i] + lift[i], 0, 1)), 4)},
                "latencyMs": round(float(rng.normal(52, 4)), 1),
            }
        )
    return records


def show(records: list[dict[str, object]]) -> None:
    a = analyze_ab_test(records, seed=7)
    print(
        f"control: n={a.control_sample_size} quality {a.control_avg_quality:.4f} "
        f"latency {a.control_avg_latency:.1f} ms"
    )
    print(
        f"treatment: n={a.treatment_sample_size} quality {a.treatment_avg_quality:.4f} "
        f"latency {a.treatment_avg_latency:.1f} ms"
    )
    print(
        f"quality improvement {a.quality_improvement:+.2%}, latency change {a.latency_change:+.2%}"
    )
    for test in (a.welch, a.mann_whitney, a.wilcoxon):
        if test is not None:
            print(f"  {test.name}: statistic {test.statistic:.4g}, p {test.p_value:.3g}")
    print(
        f"difference {a.difference:+.4f}, 95% CI [{a.ci_low:+.4f}, {a.ci_high:+.4f}], "
        f"{a.effect_size_kind} {a.effect_size:.2f}"
    )
    verdict = "significant" if a.is_significant else "not significant"
    print(f"{verdict} at alpha {a.alpha:g} ({a.primary_test}, p {a.p_value:.3g})")
    for warning in a.warnings:
        print(f"warning: {warning}")


def main() -> None:
    records = results(60)
    show(records)
    print("--- first 12 queries only ---")
    show(records[:24])


if __name__ == "__main__":
    main()
