"""Score RAG answers from their text: question, answer and retrieved chunks in, a decision out.

Reads examples/data/answer_first.jsonl (five outputs of a RAG pipeline over an employee
handbook: a supported answer, one with a wrong number, one that flips what the source says,
one whose chunks carry no retrieval scores, and one with nothing retrieved) and prints, for each,
its id, score, recommended action with the deciding rule, and every unsupported item the text
check found. Then the full report of the wrong-number answer (the scorecard, then its claims
with their spans), and a one-line summary of actions:

    answer: 1, review: 1, abstain: 3

Run: uv run --all-packages --all-extras python examples/answer_first.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from assay_answer import score_answer

DATA = Path(__file__).parent / "data" / "answer_first.jsonl"


def main() -> None:
    actions: Counter[str] = Counter()
    reports = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        result = score_answer(row["question"], row["answer"], row["contexts"])
        card = result.scorecard
        actions[card.recommended_action] += 1
        reports[row["id"]] = result
        print(f"{row['id']}: {card.total:g} -> {card.recommended_action} ({card.action_rule})")
        for claim in result.evidence.unsupported_claims:
            for item in claim.unsupported:
                print(f"    unsupported {item.kind} {item.text!r}: {item.reason}")
        for note in result.evidence.notes:
            print(f"    note: {note}")
    print()
    print(reports["wrong-number"].render_text())
    print()
    print(", ".join(f"{action}: {actions[action]}" for action in ("answer", "review", "abstain")))


if __name__ == "__main__":
    main()
