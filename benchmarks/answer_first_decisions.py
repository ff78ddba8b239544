"""Answer-first decisions on HaluEval QA, with and without retrieval scores on the context.

Reads ../shared/data/halueval_qa_dev.jsonl in place (a question, its knowledge passage, a right
and a hallucinated answer). On the held-out rows (2,000-4,999 by default: the rows the detector
was not tuned on) every right and every hallucinated answer is scored with
``assay_answer.score_answer`` and the default preset grounded-v1, the passage as the one
context, in two ways:

* ``plain``: the passage as a string, so no retrieval score and no retrieval candidate;
* ``scored``: the passage as ``{"id": "knowledge", "text": ..., "retrievalScores": {"dense":
  0.9, "bm25": 0.8}}``, the same scores for every row (what a retriever that found the passage
  with confidence would give), so that only the text decides between answers.

It prints, per way and per kind of answer, how many were answered, reviewed and abstained on,
and for the hallucinated answers that were answered, what the text detector concluded (their
``supportLevel`` and ``faithfulnessScore``): a hallucinated answer is answered only when the
detector judged every claim of it supported. ``--show N`` prints the first N such answers.

Run: uv run --all-packages --all-extras python benchmarks/answer_first_decisions.py
     [--first 2000] [--last 5000] [--show 5]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from assay_answer import score_answer

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
SCORES = {"dense": 0.9, "bm25": 0.8}
KINDS = ("right_answer", "hallucinated_answer")
ACTIONS = ("answer", "review", "abstain")


def contexts(way: str, passage: str) -> list[Any]:
    if way == "plain":
        return [passage]
    return [{"id": "knowledge", "text": passage, "retrievalScores": SCORES}]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--first", type=int, default=2000)
    parser.add_argument("--last", type=int, default=5000, help="first row not read")
    parser.add_argument("--show", type=int, default=5, help="answered hallucinations to print")
    args = parser.parse_args()

    rows = []
    with DATA.open(encoding="utf-8") as file:
        for index, line in enumerate(file):
            if args.first <= index < args.last:
                rows.append((index, json.loads(line)))
    for way in ("plain", "scored"):
        counts = {kind: Counter[str]() for kind in KINDS}
        answered: list[tuple[int, str, Any]] = []
        for index, row in rows:
            for kind in KINDS:
                result = score_answer(row["question"], row[kind], contexts(way, row["knowledge"]))
                action = result.scorecard.recommended_action
                counts[kind][action] += 1
                if kind == "hallucinated_answer" and action == "answer":
                    answered.append((index, row[kind], result))
        for kind, counter in counts.items():
            total = sum(counter.values())
            shares = ", ".join(
                f"{action} {counter[action]} ({counter[action] / total:.1%})" for action in ACTIONS
            )
            print(f"{way}, rows {args.first}-{args.last - 1}, {kind} ({total}): {shares}")
        judged = Counter(
            (result.inputs.get("supportLevel"), result.inputs.get("faithfulnessScore"))
            for _, _, result in answered
        )
        print(
            f"{way}: answered hallucinated answers by (supportLevel, faithfulnessScore): "
            f"{dict(judged)}"
        )
        for index, text, result in answered[: args.show]:
            card = result.scorecard
            print(
                f"  row {index}: {text!r} -> {card.total:g} {card.recommended_action}; "
                f"{result.evidence.summary}"
            )


if __name__ == "__main__":
    main()
