"""Batch throughput of assay.evaluation with the seven heuristic metrics.

Reads the 300 distinct samples of ../shared/conformance/metrics/samples.jsonl (in place),
repeats them to --copies x 300 samples with unique ids, and times evaluate_batch:
  * in one process (no executor);
  * on a ProcessPoolExecutor with --workers processes (default 2), chunk size --chunk;
and checks that both give identical results. Prints samples per second (median of --runs).

Run: ASSAY_PLUGINS=faithfulness uv run --all-packages python benchmarks/evaluation_batch.py
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from assay.evaluation import batch_to_wire, evaluate_batch

SAMPLES = Path(__file__).resolve().parents[1].parent / "shared/conformance/metrics/samples.jsonl"


def load(copies: int) -> list[dict]:
    distinct: dict[str, dict] = {}
    for line in SAMPLES.read_text("utf-8").split("\n"):
        if not line:
            continue
        vector = json.loads(line)
        sample_id = vector["id"].split("/")[0]
        if sample_id not in distinct and isinstance(vector["args"][0], dict):
            distinct[sample_id] = vector["args"][0]
    samples = []
    for copy in range(copies):
        for sample_id, sample in distinct.items():
            fields = {
                k: v
                for k, v in sample.items()
                if k in ("question", "answer", "contexts", "groundTruth", "metadata")
            }
            samples.append({**fields, "id": f"{sample_id}-{copy}"})
    return samples


def timed(samples: list[dict], options: dict) -> tuple[float, dict]:
    start = time.perf_counter()
    batch = evaluate_batch(samples, options=options)
    return time.perf_counter() - start, batch_to_wire(batch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=64)
    args = parser.parse_args()
    samples = load(args.copies)
    timed(samples[:50], {})  # warm-up: plugin discovery and imports
    serial = [timed(samples, {}) for _ in range(args.runs)]
    with ProcessPoolExecutor(args.workers) as pool:
        options = {"executor": pool, "chunkSize": args.chunk, "concurrency": 2 * args.workers}
        timed(samples[:200], options)  # warm-up: start the workers
        parallel = [timed(samples, options) for _ in range(args.runs)]
    reference = serial[0][1]
    identical = all(w == reference for _, w in serial + parallel)
    n = len(samples)
    for label, runs in (("1 process", serial), (f"{args.workers} processes", parallel)):
        times = [t for t, _ in runs]
        median = statistics.median(times)
        print(
            f"{label:<12} {n} samples: median {median:.3f} s = {n / median:,.0f} samples/s "
            f"({1000 * median / n:.3f} ms/sample; best {n / min(times):,.0f} samples/s)"
        )
    print(f"identical results: {identical}")


if __name__ == "__main__":
    main()
