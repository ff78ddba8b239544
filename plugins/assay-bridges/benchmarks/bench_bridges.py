"""Per-answer cost of the bridges (run by hand; prints microseconds per call, median of 7 runs).

Measures, on the real evaluator outputs in ../shared/data/evaluator-outputs/:
  * from_ragas_like on the specification's RAGAS-like dict,
  * merge_evaluation_signals of those signals into the specification example's inputs,
  * from_ragas_row on one real to_pandas() record (17 columns, 10 metrics, one mapped),
  * from_deepeval_test_result on one real TestResult dict (3 MetricData),
  * from_trulens_row on one real OpenTelemetry record (34 columns, 2 feedbacks).

Run: uv run --package assay-bridges python plugins/assay-bridges/benchmarks/bench_bridges.py
"""

from __future__ import annotations

import json
import statistics
import timeit
from pathlib import Path

from assay_bridges import (
    from_deepeval_test_result,
    from_ragas_like,
    from_ragas_row,
    from_trulens_row,
    merge_evaluation_signals,
)

DATA = Path(__file__).resolve().parents[3].parent / "shared/data/evaluator-outputs"
INPUTS = {
    "supportLevel": "high",
    "hasConflict": False,
    "citationCount": 3,
    "candidates": [{"retrievalScores": {"semantic": 0.91}, "combinedScore": 0.91}],
}


def per_call_us(function, number: int = 2000) -> float:
    runs = timeit.repeat(function, number=number, repeat=7)
    return statistics.median(runs) / number * 1e6


def main() -> None:
    ragas = json.loads((DATA / "ragas_outputs.json").read_text())
    deepeval = json.loads((DATA / "deepeval_outputs.json").read_text())
    trulens = json.loads((DATA / "trulens_outputs.json").read_text())
    spec_result = {"faithfulness": 0.93, "answer_relevancy": 0.9, "context_precision": 0.82}
    signals = from_ragas_like(spec_result)
    record = ragas["evaluate"]["to_pandas"]["records"][0]
    test_result = deepeval["evaluate"]["test_results"][0]
    row = trulens["otel"]["get_records_and_feedback"]["row_for_sample1"]
    cases = {
        "from_ragas_like (specification dict)": lambda: from_ragas_like(spec_result),
        "merge_evaluation_signals": lambda: merge_evaluation_signals(INPUTS, signals),
        "from_ragas_row (real record)": lambda: from_ragas_row(
            record, metrics={"exact_match": "answerRelevanceScore"}
        ),
        "from_deepeval_test_result (real)": lambda: from_deepeval_test_result(
            test_result, metrics={"Token Recall (assay)": "faithfulnessScore"}
        ),
        "from_trulens_row (real OTel record)": lambda: from_trulens_row(
            row, metrics={"answer_in_context": "faithfulnessScore"}
        ),
    }
    for name, function in cases.items():
        print(f"{name:<38} {per_call_us(function):7.2f} µs/call")


if __name__ == "__main__":
    main()
