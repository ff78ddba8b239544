"""Throughput of assay-calibration: drift detectors, probability measures, score-band analysis.

Run by hand (numbers are for reading, never for assertions):
    uv run --all-packages python benchmarks/calibration_bench.py

Prints one line per measurement: what, size, best-of-5 wall time, and items per second.
Inputs come from a fixed random state (numpy default_rng(0)), so every run measures the same work.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from assay_calibration.drift import Cusum, PageHinkley
from assay_calibration.probability import brier_score, reliability_table
from assay_calibration.score_bands import analyze_calibration


def best_of(fn: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def report(what: str, size: int, seconds: float) -> None:
    print(f"{what:<44} n={size:>9,}  {seconds * 1e3:9.2f} ms  {size / seconds:>14,.0f} /s")


def main() -> None:
    rng = np.random.default_rng(0)
    stream = np.concatenate([rng.normal(0, 0.5, 50_000), rng.normal(1, 0.5, 50_000)])
    values = stream.tolist()

    def one_by_one(make: Callable[[], PageHinkley | Cusum]) -> None:
        detector = make()
        for x in values:
            detector.update(x)

    for name, make in (
        ("PageHinkley", lambda: PageHinkley(delta=0.1, threshold=20, min_samples=30)),
        ("Cusum", lambda: Cusum(delta=0.25, threshold=5, min_samples=100)),
    ):
        report(
            f"{name}.update (one value at a time)",
            stream.size,
            best_of(lambda m=make: one_by_one(m)),
        )
        report(
            f"{name}.update_many (vectorised)",
            stream.size,
            best_of(lambda m=make: m().update_many(stream)),
        )

    probs = rng.uniform(size=200_000)
    outcomes = (rng.uniform(size=200_000) < probs).astype(np.int64)
    report("brier_score (numpy arrays)", probs.size, best_of(lambda: brier_score(probs, outcomes)))
    report(
        "reliability_table bins=10 (numpy arrays)",
        probs.size,
        best_of(lambda: reliability_table(probs, outcomes)),
    )

    labels = ["correct", "incorrect", "accepted", "rejected", "escalated"]
    samples = [
        {
            "total": float(t),
            "outcome": labels[int(k)],
            "recommendedAction": ["answer", "review", "abstain"][int(k) % 3],
        }
        for t, k in zip(rng.uniform(0, 100, 100_000), rng.integers(0, 5, 100_000), strict=True)
    ]
    report(
        "analyze_calibration (wire dicts)",
        len(samples),
        best_of(lambda: analyze_calibration(samples, {"targetRecallForAbstain": 0.8})),
    )


if __name__ == "__main__":
    main()
