"""The gate end to end on real data: HaluEval QA, scored by assay's own heuristic metrics.

Every row of ../shared/data/halueval_qa_dev.jsonl (read in place) has a knowledge passage, a
question, a right answer and a hallucinated answer. Each answer becomes an assay.EvalSample with
the passage as its context and is scored by three metrics of assay-faithfulness (faithfulness,
answer_relevance, claim_support). Right answers are labeled high quality, hallucinated ones
low. The hypotheses are fit on the first half of the rows and every answer of the second half
is decided by the Bayes-factor policy (pass at BF >= 10, fail at BF <= 0.1).

Rows 1-1,000 were used to design claim_support, so this example starts at row 1,001.

Run:  uv run --all-packages --all-extras python examples/gate/halueval_gate.py [--rows N]
      (default 400 rows: 400 answers to fit on, 400 to decide)

Prints (numbers from a run with the default 400 rows):
    halueval rows 1001-1400: fit on 400 answers, decided 400
    decisions: pass 214, fail 177, escalate 9
    accuracy of decided answers: 0.964; escalated: 0.022; posterior accuracy: 0.955
    posterior calibration: Brier 0.0398, ECE 0.0461
    goodness of fit (KS at alpha 0.05):
      faithfulness      high INADEQUATE  low INADEQUATE
      answer_relevance  high INADEQUATE  low adequate
      claim_support     high INADEQUATE  low adequate
    dependence within high: max |r| 0.40, independence safe
    dependence within low: max |r| 0.52, dependent: answer_relevance~faithfulness

The "INADEQUATE" fits are the diagnostics doing their job: these heuristic scores pile up at
exactly 0 or 1 for right answers, which no Beta density describes; see docs/gate.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import assay
import assay_faithfulness
from assay_jeffreys import BayesFactorPolicy, run_gate_experiment

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
FIRST_ROW = 1001  # rows 1-1,000 were used to design claim_support
METRICS = ("faithfulness", "answer_relevance", "claim_support")


def read_rows(first: int, count: int) -> list[dict]:
    """``count`` rows from 1-based row ``first`` of the HaluEval file."""
    with DATA.open(encoding="utf-8") as handle:
        lines = [line for i, line in enumerate(handle, start=1) if first <= i < first + count]
    return [json.loads(line) for line in lines]


def labeled_scores(rows: list[dict]) -> list[dict]:
    """Two labeled observations per row: the right answer (high) and the hallucinated (low)."""
    observations = []
    for row in rows:
        for key, label in (("right_answer", "high"), ("hallucinated_answer", "low")):
            sample = assay.EvalSample(
                question=row["question"].strip(), answer=row[key], contexts=(row["knowledge"],)
            )
            results = assay_faithfulness.score_sample(sample, METRICS)
            scores = {m: r.score for m, r in results.items() if r.score is not None}
            observations.append({"scores": scores, "label": label})
    return observations


def report(rows: int, first: int = FIRST_ROW) -> list[str]:
    """Run the experiment on ``rows`` rows from ``first`` and return the printed lines."""
    observations = labeled_scores(read_rows(first, rows))
    half = (rows // 2) * 2
    result = run_gate_experiment(
        observations[:half], observations[half:], BayesFactorPolicy(10, 0.1)
    )
    counts = result.counts
    lines = [
        f"halueval rows {first}-{first + rows - 1}: fit on {result.fitted} answers, "
        f"decided {result.tested}",
        f"decisions: pass {counts['pass']}, fail {counts['fail']}, escalate {counts['escalate']}",
        f"accuracy of decided answers: {result.decided_accuracy:.3f}; "
        f"escalated: {result.escalated_share:.3f}; "
        f"posterior accuracy: {result.posterior_accuracy:.3f}",
        f"posterior calibration: Brier {result.calibration.brier_score:.4f}, "
        f"ECE {result.calibration.expected_calibration_error:.4f}",
        "goodness of fit (KS at alpha 0.05):",
    ]
    by_dimension: dict[str, dict[str, str]] = {}
    for check in result.fits:
        verdict = (
            "too few" if check.fit is None else ("adequate" if check.fit.adequate else "INADEQUATE")
        )
        by_dimension.setdefault(check.dimension, {})[check.hypothesis] = verdict
    for dimension, verdicts in by_dimension.items():
        lines.append(f"  {dimension:<17s} high {verdicts['high']:<10s}  low {verdicts['low']}")
    for kind, diagnostic in result.dependence.items():
        flagged = ", ".join(f"{p.a}~{p.b}" for p in diagnostic.flagged)
        verdict = "independence safe" if not flagged else f"dependent: {flagged}"
        lines.append(
            f"dependence within {kind}: max |r| {diagnostic.max_abs_correlation:.2f}, {verdict}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rows", type=int, default=400, help="rows to use (half fit, half decided)"
    )
    args = parser.parse_args()
    for line in report(args.rows):
        print(line)


if __name__ == "__main__":
    main()
