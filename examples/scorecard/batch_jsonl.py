"""Batch scoring a JSON Lines file on both cores, as `assay score --jsonl --workers 2` does.

Writes 2,000 requests (the five answers of examples/data/answers.jsonl, 400 times each) and one
broken line to a temporary file, scores it with one process and with two worker processes, and
prints:

    scored 2001 lines with 2 workers: 1 failed
    line 2001: MALFORMED_INPUT
    identical to one process: True
    actions: abstain 800, answer 800, review 400

Run: uv run --all-packages --all-extras python examples/scorecard/batch_jsonl.py
"""

import json
import tempfile
from collections import Counter
from pathlib import Path

import assay_scorecard

ANSWERS = Path(__file__).resolve().parents[1] / "data" / "answers.jsonl"

with tempfile.TemporaryDirectory() as folder:
    requests = Path(folder) / "requests.jsonl"
    lines = ANSWERS.read_text(encoding="utf-8").splitlines() * 400
    requests.write_text("\n".join(lines) + "\n{broken\n", encoding="utf-8")

    outputs = {}
    for workers in (0, 2):
        scorecards = Path(folder) / f"scorecards-{workers}.jsonl"
        with requests.open("rb") as source, scorecards.open("wb") as sink:
            summary = assay_scorecard.score_jsonl(source, sink, workers=workers)
        outputs[workers] = scorecards.read_bytes()

    print(f"scored {summary.rows} lines with {summary.workers} workers: {summary.failed} failed")
    records = [json.loads(line) for line in outputs[2].decode("utf-8").splitlines()]
    for record in records:
        if "error" in record:
            print(f"line {record['error']['line']}: {record['error']['code']}")
    print(f"identical to one process: {outputs[0] == outputs[2]}")
    actions = Counter(r["recommendedAction"] for r in records if "error" not in r)
    print("actions: " + ", ".join(f"{action} {n}" for action, n in sorted(actions.items())))
