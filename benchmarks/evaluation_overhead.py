"""Per-sample CPU time of evaluate_batch, taken as the minimum over repeated runs (the minimum
is what the code costs; load on a shared machine only adds to it).

Three workloads over the 300 distinct samples of ../shared/conformance/metrics/samples.jsonl
(read in place), repeated --copies times:
  * the default metric list (what `assay eval` runs when no metrics are named);
  * profile grounded (answer_support and claim_support);
  * the seven metrics compatible with rag-eval-node-ts 0.3 (profile compatible);
  * one trivial metric (the answer's length), so the time is the runner's own: reading and
    checking samples, running steps, the composite, the tally, the gate.

Run: ASSAY_PLUGINS=faithfulness uv run --all-packages python benchmarks/evaluation_overhead.py
To compare with another checkout of assay-evaluation, put its src first on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import time

from evaluation_batch import load

import assay
from assay_evaluation import DEFAULT_METRICS, evaluate_batch


class AnswerLength:
    """score = min(1, characters / 100): nearly free, so the runner's cost shows."""

    id = "answer_length"
    default_threshold = 0.5
    higher_is_better = True
    requires: frozenset[str] = frozenset()

    def compute(self, sample, context, threshold):  # type: ignore[no-untyped-def]
        score = min(1.0, len(sample.answer) / 100)
        return assay.MetricResult(self.id, score, score >= threshold, threshold, "length")


def per_sample_us(
    samples: list[dict], metrics: list | None, runs: int, options: dict | None = None
) -> float:
    """Minimum CPU microseconds per sample over ``runs`` runs."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        batch = evaluate_batch(samples, metrics, options)
        if hasattr(batch, "check"):
            batch.check()  # the gate is part of what a run costs where it exists
        best = min(best, time.process_time() - start)
    return 1e6 * best / len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    samples = load(args.copies)
    evaluate_batch(samples[:50])  # warm-up: plugin discovery, imports, lazy tables
    default = per_sample_us(samples, None, args.runs)
    grounded = per_sample_us(samples, None, args.runs, {"profile": "grounded"})
    seven = per_sample_us(samples, None, args.runs, {"profile": "compatible"})
    trivial = per_sample_us(samples, [AnswerLength()], args.runs)
    print(f"{len(samples)} samples, min of {args.runs} runs, CPU per sample:")
    print(f"  default list ({', '.join(DEFAULT_METRICS)}): {default:.1f} us")
    print(f"  profile grounded (answer_support, claim_support): {grounded:.1f} us")
    print(f"  seven metrics (profile compatible): {seven:.1f} us")
    print(f"  default / seven: {default / seven:.2f}; grounded / seven: {grounded / seven:.2f}")
    print(f"  runner only (one trivial metric): {trivial:.1f} us")


if __name__ == "__main__":
    main()
