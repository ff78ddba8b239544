"""Score several RAG answers with the default scorecard and print each scorecard.

Reads examples/data/answers.jsonl (five answers: a well-supported policy lookup, an answer with
no conflict signal, a weak multi-hop answer, a question the documents do not address, and an
answer from conflicting sources) and prints, for each, its id, total, label, recommended action
with the deciding rule, and the per-dimension points. Finally a one-line summary of actions:

    answer: 2, review: 1, abstain: 2

Run: uv run --all-packages --all-extras python examples/score_answers.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import assay_scorecard
from assay_scorecard import render_text

DATA = Path(__file__).parent / "data" / "answers.jsonl"


def main() -> None:
    scorer = assay_scorecard.create_scorer()  # the default composition, validated once
    actions: Counter[str] = Counter()
    for line in DATA.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        scorecard = scorer.compute(record["inputs"])
        actions[scorecard.recommended_action] += 1
        print(f"=== {record['id']}")
        print(render_text(scorecard))
        print()
    print(", ".join(f"{action}: {actions[action]}" for action in ("answer", "review", "abstain")))


if __name__ == "__main__":
    main()
