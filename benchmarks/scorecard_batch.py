"""One-at-a-time vs batch scoring throughput on the scorecard conformance inputs.

The non-error computeConfidence inputs of ../shared/conformance/scorecard/cases.jsonl that use the
default config are repeated to N rows (default 100,000) and scored
  1. one at a time: `scorer.compute(row)` in a loop, one process;
  2. in batch: `assay.score_many(rows, workers=W, as_wire=True)` over W processes (default 2),
     which also converts each scorecard to its wire dict (as `assay score --jsonl` does);
  3. one at a time with the same wire conversion, for a like-for-like single-process number;
  4. JSON text lines in, JSON text lines out (what `assay score --jsonl` does), one process
     and through `score_many(lines, workers=W, as_json=True)`.
Prints calls per second for each.

Run: uv run --all-packages --all-extras python benchmarks/scorecard_batch.py [--rows N] [--workers W]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import assay

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "scorecard"


def default_config_inputs() -> list[dict]:
    rows = []
    for line in (VECTORS / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "fn" in record or "error" in record["expected"] or record["config"]:
            continue
        rows.append(assay.from_json_safe(record["inputs"]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    base = default_config_inputs()
    rows = list(itertools.islice(itertools.cycle(base), args.rows))
    scorer = assay.create_scorer()

    start = time.perf_counter()
    for row in rows:
        scorer.compute(row)
    single = time.perf_counter() - start

    start = time.perf_counter()
    for row in rows:
        assay.scorecard_to_wire(scorer.compute(row))
    single_wire = time.perf_counter() - start

    start = time.perf_counter()
    count = sum(
        1 for _ in assay.score_many(rows, workers=args.workers, chunk_size=1024, as_wire=True)
    )
    batch = time.perf_counter() - start
    assert count == len(rows)

    lines = [json.dumps(row) for row in rows]
    start = time.perf_counter()
    for line in lines:
        assay.scorecard_to_json(scorer.compute(json.loads(line)))
    single_lines = time.perf_counter() - start

    start = time.perf_counter()
    results = assay.score_many(lines, workers=args.workers, chunk_size=1024, as_json=True)
    count = sum(1 for _ in results)
    batch_lines = time.perf_counter() - start
    assert count == len(rows)

    print(f"rows: {len(rows)} ({len(base)} distinct default-config inputs)")
    print(
        f"one at a time:            {len(rows) / single:>10,.0f} calls/s ({single / len(rows) * 1e6:.1f} us/call)"
    )
    print(f"one at a time + wire:     {len(rows) / single_wire:>10,.0f} calls/s")
    print(
        f"score_many, {args.workers} processes: {len(rows) / batch:>10,.0f} calls/s (with wire dicts)"
    )
    print(
        f"JSON lines, one process:  {len(rows) / single_lines:>10,.0f} calls/s (parse, score, dump)"
    )
    print(
        f"JSON lines, score_many {args.workers} processes: {len(rows) / batch_lines:>10,.0f} calls/s"
    )


if __name__ == "__main__":
    main()
