"""Benchmark: vectorised gate decisions per second (target: >= 1,000,000 / s for 4 dimensions).

Run by hand:  uv run --all-packages --all-extras python benchmarks/gate_vectorized.py
Prints, per policy and batch size, the best of 5 timed runs and the decisions per second; also
the scalar path (one evaluate() call per output) for comparison.
"""

from __future__ import annotations

import time

import numpy as np

from assay_jeffreys import (
    BayesFactorPolicy,
    BetaParams,
    DecisionTheoreticPolicy,
    DimensionModel,
    decide_batch,
    evaluate,
    sample_score_matrix,
)

DIMENSIONS = ["factuality", "relevance", "completeness", "tone"]
MODELS = [
    DimensionModel("factuality", BetaParams(8, 2), BetaParams(2, 6), 1.0),
    DimensionModel("relevance", BetaParams(6, 3), BetaParams(3, 5), 0.8),
    DimensionModel("completeness", BetaParams(5, 2), BetaParams(2, 4), 0.6),
    DimensionModel("tone", BetaParams(3, 2), BetaParams(2, 3), 0.3),
]


def best_of(repeats: int, call) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    half = 500_000
    scores = np.vstack(
        [
            sample_score_matrix(MODELS, "high", half, seed=1),
            sample_score_matrix(MODELS, "low", half, seed=2),
        ]
    )
    for policy in (BayesFactorPolicy(), DecisionTheoreticPolicy()):
        for n in (10_000, 100_000, 1_000_000):
            batch = scores[:n]
            seconds = best_of(5, lambda b=batch, p=policy: decide_batch(b, DIMENSIONS, MODELS, p))
            print(
                f"vectorised {policy.name:18s} n={n:>9,d} d=4: {seconds * 1e3:8.2f} ms  {n / seconds:14,.0f} decisions/s"
            )
    rows = [dict(zip(DIMENSIONS, row, strict=True)) for row in scores[:2000].tolist()]
    policy = BayesFactorPolicy()
    seconds = best_of(3, lambda: [evaluate(r, MODELS, policy) for r in rows])
    print(
        f"scalar     evaluate()         n={len(rows):>9,d} d=4: {seconds * 1e3:8.2f} ms  {len(rows) / seconds:14,.0f} decisions/s"
    )


if __name__ == "__main__":
    main()
