"""CPU per sample of the default metric list, to compare two versions of assay.

Evaluates the 300 distinct samples of ../shared/conformance/metrics/samples.jsonl (read in
place), repeated 10 times, with no metrics named, so each version runs its own default list,
and prints the minimum over --runs runs of CPU time per sample (the minimum is what the code
costs; load on a shared machine only adds to it). Works with versions where evaluation is the
``assay_evaluation`` plugin and with older ones where it was ``assay.evaluation``.

Run it with each version's Python, one after the other, in one sitting, e.g.:

    git worktree add /tmp/assay-before d253c94 && (cd /tmp/assay-before && uv sync --all-packages)
    ASSAY_PLUGINS=faithfulness /tmp/assay-before/.venv/bin/python benchmarks/evaluation_default_cost.py
    ASSAY_PLUGINS=faithfulness uv run --all-packages python benchmarks/evaluation_default_cost.py
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

try:
    from assay_evaluation import evaluate_batch
except ImportError:  # a version from before evaluation became a plugin
    from assay.evaluation import evaluate_batch  # type: ignore[no-redef]

SAMPLES = Path(__file__).resolve().parents[1].parent / "shared/conformance/metrics/samples.jsonl"
FIELDS = ("question", "answer", "contexts", "groundTruth", "metadata")


def load(copies: int) -> list[dict]:
    distinct: dict[str, dict] = {}
    for line in SAMPLES.read_text("utf-8").split("\n"):
        if line:
            vector = json.loads(line)
            sample_id = vector["id"].split("/")[0]
            if sample_id not in distinct and isinstance(vector["args"][0], dict):
                distinct[sample_id] = vector["args"][0]
    return [
        {**{k: v for k, v in sample.items() if k in FIELDS}, "id": f"{sample_id}-{copy}"}
        for copy in range(copies)
        for sample_id, sample in distinct.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args()
    samples = load(args.copies)
    evaluate_batch(samples[:50])  # warm-up: plugin discovery, imports, lazy tables
    best = float("inf")
    for _ in range(args.runs):
        start = time.process_time()
        batch = evaluate_batch(samples)
        if hasattr(batch, "check"):
            batch.check()  # the gate is part of what a run costs where it exists
        best = min(best, time.process_time() - start)
    metrics = ", ".join(batch.aggregates)
    print(f"{len(samples)} samples, default list ({metrics}): {1e6 * best / len(samples):.1f} us")


if __name__ == "__main__":
    main()
