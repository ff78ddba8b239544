"""Evaluator outputs merged into scoring inputs and scored (the specification's evaluator-bridge scenario).

Three parts, each printed under a heading:

1. ``specification scenario``: a RAGAS-like result ``{faithfulness 0.93, answer_relevancy 0.9,
   context_precision 0.82}`` fills the gaps of scoring inputs that already say ``hasConflict:
   false`` and ``citationCount: 3``; scored with the production-v0.3 preset it prints

       filled: faithfulnessScore, answerRelevanceScore
       total 100  Strong  -> answer

2. ``TruLens records``: the five records-and-feedback rows of a real TruLens 2.16 run
   (../shared/data/evaluator-outputs/trulens_outputs.json, legacy mode), with the custom feedback
   ``answer_in_context`` mapped to ``faithfulnessScore``. One line per record: its input, the
   faithfulness taken (``-`` when the feedback is still NaN, i.e. not provided, never 0), the
   total and action under production-v0.3, and the warning codes (the bridge's and the
   scorecard's). The first record's feedback is NaN, so it gets no faithfulness and the
   evaluator-metric-undetermined warning, and the production preset turns the missing evaluator
   signal into ``review`` (required-signal-missing) instead of scoring a zero:

       Cadmium Chloride is slightly soluble in this che  faithfulness    -  total 100  review ...
       The Oberoi family is part of a hotel company tha  faithfulness 0.67  total  94  answer ...

   (A faithfulness score only modifies the grounding points; a 0.00 still ends at 88 here,
   because the other signals of these inputs are strong. That is the scorecard's rule, and a
   reason to gate on the evaluator signal through the signal policy.)

3. ``DeepEval hallucination direction``: the same hallucination score 0.2 read from two records
   whose pass/fail verdicts point opposite ways; printed as

       passed at threshold 0.5 -> faithfulnessScore 0.8 (lower is better)
       passed at threshold 0.1 -> faithfulnessScore 0.2 (higher is better)

Run: uv run --all-packages --all-extras python examples/bridges/evaluator_bridge.py
"""

from __future__ import annotations

import json
from pathlib import Path

import assay_scorecard
from assay_bridges import (
    from_deepeval_metrics,
    from_ragas_like,
    from_trulens,
    merge_evaluation_signals,
)
from assay_bridges.deepeval import stated_direction

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
PRODUCTION = {"preset": "production-v0.3"}

INPUTS = {
    "supportLevel": "high",
    "hasConflict": False,
    "citationCount": 3,
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.91, "keyword": 0.8},
            "combinedScore": 0.91,
            "documentId": "doc-1",
        },
        {
            "retrievalScores": {"semantic": 0.87, "keyword": 0.74},
            "combinedScore": 0.87,
            "documentId": "doc-2",
        },
        {
            "retrievalScores": {"semantic": 0.84, "keyword": 0.7},
            "combinedScore": 0.84,
            "documentId": "doc-3",
        },
    ],
}


def specification_scenario() -> None:
    print("== specification scenario")
    signals = from_ragas_like(
        {"faithfulness": 0.93, "answer_relevancy": 0.9, "context_precision": 0.82}
    )
    merged = merge_evaluation_signals(INPUTS, signals)
    scorecard = assay_scorecard.compute_confidence(merged.inputs, PRODUCTION)
    print("filled:", ", ".join(merged.filled))
    print(f"total {scorecard.total:g}  {scorecard.label}  -> {scorecard.recommended_action}")


def trulens_records() -> None:
    print("== TruLens records")
    outputs = json.loads((SHARED_DATA / "evaluator-outputs" / "trulens_outputs.json").read_text())
    frame = outputs["legacy"]["get_records_and_feedback"]
    inputs = {**INPUTS, "answerRelevanceScore": 0.9}  # relevance judged elsewhere
    results = from_trulens(
        (frame["scores"], frame["feedback_names"]),
        metrics={"answer_in_context": "faithfulnessScore"},
    )
    for row, bridged in zip(frame["scores"], results, strict=True):
        merged = merge_evaluation_signals(inputs, bridged)
        scorecard = assay_scorecard.compute_confidence(merged.inputs, PRODUCTION)
        faithfulness = bridged.signals.faithfulness_score
        taken = "-" if faithfulness is None else f"{faithfulness:.2f}"
        codes = sorted(
            {w.code for w in merged.warnings} | {w.code for w in scorecard.meta.warnings}
        )
        print(
            f"{row['input'].strip()[:48]:<48}  faithfulness {taken:>4}  "
            f"total {scorecard.total:>3g}  {scorecard.recommended_action:<7}  {', '.join(codes)}"
        )


def deepeval_direction() -> None:
    print("== DeepEval hallucination direction")
    for threshold in (0.5, 0.1):
        record = {"name": "Hallucination", "score": 0.2, "threshold": threshold, "success": True}
        bridged = from_deepeval_metrics([record])
        direction = "higher" if stated_direction(0.2, threshold, True) else "lower"
        print(
            f"passed at threshold {threshold} -> faithfulnessScore "
            f"{bridged.signals.faithfulness_score:g} ({direction} is better)"
        )


if __name__ == "__main__":
    specification_scenario()
    trulens_records()
    deepeval_direction()
