"""Evaluate a small RAG dataset with the seven heuristic metrics (profile ``compatible``), then
re-judge it at new thresholds without recomputing anything, and compare it with a baseline.

Prints:
  * one line per sample: id, composite score, pass/fail, and the metric that scored lowest;
  * the per-metric mean, pass rate and null rate (context_recall and answer_correctness are
    undetermined for the sample without ground truth: never counted as failures);
  * how many samples pass at the default thresholds and after a lenient threshold replay;
  * the regressions found against a baseline whose faithfulness mean was 0.1 higher.

Run: uv run --all-packages python examples/evaluation/evaluate_dataset.py
(needs the assay-faithfulness plugin installed).
"""

from __future__ import annotations

import json
from pathlib import Path

from assay_evaluation import batch_to_wire, evaluate_batch, replay_thresholds

DATA = Path(__file__).parent / "data" / "rag_answers.jsonl"


def main() -> None:
    samples = [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line]
    batch = evaluate_batch(samples, options={"profile": "compatible"})
    for result in batch.results:
        scored = {k: m.score for k, m in result.metrics.items() if m.score is not None}
        lowest = min(scored, key=lambda k: scored[k])
        verdict = "pass" if result.passed else "fail"
        print(
            f"{result.sample.id}: composite {result.composite_score:.3f} {verdict}; "
            f"lowest {lowest} {scored[lowest]:.3f}"
        )
    print()
    for metric_id, aggregate in batch.aggregates.items():
        print(
            f"{metric_id:<20} mean {aggregate.mean:.3f}  pass {aggregate.pass_rate:.0%}  "
            f"null {aggregate.null_rate:.0%}"
        )
    print()
    print(
        f"passing at default thresholds: {sum(r.passed for r in batch.results)} of "
        f"{len(batch.results)}"
    )
    lenient = replay_thresholds(
        batch, dict.fromkeys(batch.aggregates, 0.2), composite_threshold=0.4
    )
    print(
        f"passing after replay at 0.2 / composite 0.4: "
        f"{sum(r.passed for r in lenient.results)} of {len(lenient.results)}"
    )
    baseline = batch_to_wire(batch, with_results=False)
    baseline["aggregates"]["faithfulness"]["mean"] += 0.1
    compared = evaluate_batch(
        samples, options={"profile": "compatible", "baselineResult": baseline}
    )
    for regression in compared.regressed:
        print(
            f"regression: {regression.metric_id} {regression.baseline_mean:.3f} -> "
            f"{regression.current_mean:.3f}"
        )


if __name__ == "__main__":
    main()
