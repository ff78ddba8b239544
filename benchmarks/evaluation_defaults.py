"""Right and hallucinated answers under the default metric list and the other profiles.

Reads ../shared/data/halueval_qa_dev.jsonl in place (5,000 rows: knowledge passage, question,
right answer, hallucinated answer). Every row gives two samples, its right answer and its
hallucinated one, each with the row's question and the passage as its only context. Both are
evaluated through the public ``evaluate_batch``, so the numbers are what users get:

* with no metrics named: the default list (what ``assay eval``, the pytest gate and the Python
  API run when none are named);
* with ``profile="grounded"``: answer_support and claim_support;
* with ``profile="compatible"``: the seven metrics of rag-eval-node-ts 0.3.

A sample passes when no metric fails or errs and its composite reaches the composite threshold
(0.6); an undetermined metric is not a failure. Reported for all rows and for rows 2,000-4,999
(0-based lines; ``answer_support``'s constants were chosen on rows 0-1,999): the share of right
answers that pass and of hallucinated answers that fail; the same for the default list and the
grounded profile when the samples carry no question; and, per metric at its own default threshold, the share of right
answers it passes, of hallucinated answers it fails, and of samples it leaves undetermined.

Run: uv run --all-packages python benchmarks/evaluation_defaults.py [--limit N]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assay_evaluation import DEFAULT_METRICS, BatchEvalResult, evaluate_batch

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
HELD_OUT = 2000
"""The first row not looked at while designing answer_support."""
SIDES = ("right_answer", "hallucinated_answer")
RUNS = {"default": None, "grounded": "grounded", "compatible": "compatible"}
"""Run name -> ``options.profile`` (``None``: no metrics named, the default list)."""


def load_rows(limit: int | None = None) -> list[dict[str, str]]:
    """The data set's rows in file order (the first ``limit`` when given)."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[:limit] if line]


def samples(
    rows: Sequence[dict[str, str]], side: str, question: bool = True
) -> list[dict[str, Any]]:
    """One sample per row: answer ``side``, the passage as context, the question or none."""
    return [
        {
            "question": row["question"] if question else None,
            "answer": row[side],
            "contexts": [row["knowledge"]],
        }
        for row in rows
    ]


def run(
    rows: Sequence[dict[str, str]], profile: str | None, question: bool = True
) -> dict[str, BatchEvalResult]:
    """Side -> the batch of that side's samples under ``profile`` (``None``: the default)."""
    options: dict[str, Any] = {"profile": profile}
    return {side: evaluate_batch(samples(rows, side, question), None, options) for side in SIDES}


def pass_rate(batch: BatchEvalResult, start: int = 0) -> float:
    """Share of the samples from index ``start`` on that pass."""
    results = batch.results[start:]
    return sum(1 for r in results if r.passed) / len(results)


def metric_rates(batch: BatchEvalResult, metric_id: str, start: int = 0) -> dict[str, float]:
    """Shares of the samples from ``start`` on that metric ``metric_id`` passes, fails and
    leaves undetermined (an error counts as neither pass nor fail)."""
    flags = [r.metrics[metric_id].passed for r in batch.results[start:]]
    return {
        "pass": sum(1 for f in flags if f is True) / len(flags),
        "fail": sum(1 for f in flags if f is False) / len(flags),
        "undetermined": sum(1 for f in flags if f is None) / len(flags),
    }


def _line(label: str, batches: dict[str, BatchEvalResult], start: int) -> str:
    right = pass_rate(batches["right_answer"], start)
    wrong = 1 - pass_rate(batches["hallucinated_answer"], start)
    return f"  {label:<38} right pass {right:7.2%}   hallucinated fail {wrong:7.2%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="read only the first N rows")
    args = parser.parse_args()
    rows = load_rows(args.limit)
    runs = {name: run(rows, profile) for name, profile in RUNS.items()}
    no_question = {name: run(rows, RUNS[name], question=False) for name in ("default", "grounded")}
    splits = {f"all {len(rows)} rows": 0}
    if len(rows) > HELD_OUT:
        splits[f"held-out rows {HELD_OUT}-{len(rows) - 1}"] = HELD_OUT
    print(f"HaluEval QA dev; default list: {', '.join(DEFAULT_METRICS)}")
    for split, start in splits.items():
        print(f"\n{split} ({len(rows) - start} right and {len(rows) - start} hallucinated)")
        for name, batches in runs.items():
            print(_line(f"{name}", batches, start))
        for name, batches in no_question.items():
            print(_line(f"{name}, samples without a question", batches, start))
        print("  per metric at its default threshold:")
        for name, batches in runs.items():
            for metric_id in batches["right_answer"].aggregates:
                right = metric_rates(batches["right_answer"], metric_id, start)
                wrong = metric_rates(batches["hallucinated_answer"], metric_id, start)
                print(
                    f"    {metric_id:<22} ({name:<10}) right pass {right['pass']:7.2%}   "
                    f"hallucinated fail {wrong['fail']:7.2%}   "
                    f"undetermined {right['undetermined']:7.2%} / {wrong['undetermined']:7.2%}"
                )


if __name__ == "__main__":
    main()
