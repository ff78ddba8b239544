"""Watching a quality stream for drift: Page–Hinkley and CUSUM on HaluEval support scores.

Builds a stream of per-answer support scores (share of answer tokens found in the knowledge
passage) from ../shared/data/halueval_qa_dev.jsonl, read in place: answers 0-599 are the
dataset's right answers (a healthy pipeline), answers 600-1199 its hallucinated answers (a
pipeline that started to make things up at position 600). Both detectors watch for a decrease.

Prints:
  - "stream: 1200 scores, mean before 0.xxx, mean after 0.xxx";
  - for each detector, "<name>: 1 event(s)" and the event as JSON: a "decrease" fewer than
    30 values after position 600 (index 623 for Page–Hinkley, 626 for CUSUM), with the level
    before the change (about 0.94) in meanBefore;
  - "update_many agrees with update: True" (the vectorised path gives the same events).
Run: uv run --all-packages python examples/calibration/drift_stream.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from assay_calibration.drift import Cusum, PageHinkley

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "halueval_qa_dev.jsonl"
TOKEN = re.compile(r"\w+")
HEALTHY, BROKEN = 600, 600


def support(answer: str, knowledge: str) -> float:
    words = set(TOKEN.findall(answer.lower()))
    if not words:
        return 0.0
    return len(words & set(TOKEN.findall(knowledge.lower()))) / len(words)


def stream() -> list[float]:
    with DATA.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for _, line in zip(range(HEALTHY + BROKEN), handle, strict=False)]
    good = [support(r["right_answer"], r["knowledge"]) for r in rows[:HEALTHY]]
    bad = [support(r["hallucinated_answer"], r["knowledge"]) for r in rows[HEALTHY:]]
    return good + bad


def main() -> None:
    values = stream()
    before = sum(values[:HEALTHY]) / HEALTHY
    after = sum(values[HEALTHY:]) / BROKEN
    print(f"stream: {len(values)} scores, mean before {before:.3f}, mean after {after:.3f}")
    detectors = {
        "page_hinkley": lambda: PageHinkley(
            delta=0.05, threshold=5.0, min_samples=50, direction="decrease"
        ),
        "cusum": lambda: Cusum(delta=0.1, threshold=5.0, min_samples=100, direction="decrease"),
    }
    agree = True
    for name, make in detectors.items():
        detector = make()
        events = [e for x in values if (e := detector.update(x)) is not None]
        print(f"{name}: {len(events)} event(s)")
        for event in events:
            print("  " + json.dumps(event.to_dict()))
        agree = agree and make().update_many(values) == events
    print(f"update_many agrees with update: {agree}")


if __name__ == "__main__":
    main()
