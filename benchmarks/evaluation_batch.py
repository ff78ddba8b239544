"""Batch throughput of assay_evaluation with the seven heuristic metrics (profile compatible).

Reads the 300 distinct samples of ../shared/conformance/metrics/samples.jsonl (in place),
repeats them to --copies x 300 samples with unique ids, and times evaluate_batch:
  * in one process (no executor);
  * on a ProcessPoolExecutor with --workers processes (default 2), chunk size --chunk;
and checks that both give identical results. Prints wall-clock samples per second (median of
--runs) and CPU time, since on a shared machine the wall clock mostly measures the other load.

Run: ASSAY_PLUGINS=faithfulness uv run --all-packages python benchmarks/evaluation_batch.py
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from assay_evaluation import batch_to_wire, evaluate_batch

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


def timed(samples: list[dict], options: dict) -> tuple[float, float, dict]:
    """Wall-clock seconds, this process's CPU seconds, and the result's JSON form."""
    wall, cpu = time.perf_counter(), time.process_time()
    batch = evaluate_batch(samples, options={"profile": "compatible", **options})
    return time.perf_counter() - wall, time.process_time() - cpu, batch_to_wire(batch)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def on_pool(samples: list[dict], workers: int, chunk: int) -> tuple[float, float, float, dict]:
    """One run on a fresh pool of forked workers (they inherit the warmed-up parent), so the
    workers' CPU time of this run alone is known when the pool has shut down."""
    before = children_cpu()
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        options = {"executor": pool, "chunkSize": chunk, "concurrency": 2 * workers}
        wall, cpu, wire = timed(samples, options)
    return wall, cpu, children_cpu() - before, wire


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=64)
    args = parser.parse_args()
    samples = load(args.copies)
    n = len(samples)
    timed(samples[:50], {})  # warm-up: plugin discovery, imports, the metrics' lazy tables
    serial = [timed(samples, {}) for _ in range(args.runs)]
    parallel = [on_pool(samples, args.workers, args.chunk) for _ in range(args.runs)]
    reference = serial[0][2]
    identical = all(r[2] == reference for r in serial) and all(r[3] == reference for r in parallel)
    walls = [r[0] for r in serial]
    cpu = statistics.median(r[1] for r in serial)
    print(
        f"1 process: {n} samples, median wall {statistics.median(walls):.3f} s = "
        f"{n / statistics.median(walls):,.0f} samples/s (best {n / min(walls):,.0f}); "
        f"CPU {1000 * cpu / n:.3f} ms/sample = {n / cpu:,.0f} samples per CPU-second"
    )
    walls = [r[0] for r in parallel]
    parent = statistics.median(r[1] for r in parallel)
    workers = statistics.median(r[2] for r in parallel)
    bound = max(parent, workers / args.workers)
    print(
        f"{args.workers} processes: median wall {statistics.median(walls):.3f} s = "
        f"{n / statistics.median(walls):,.0f} samples/s (best {n / min(walls):,.0f}); "
        f"CPU parent {parent:.3f} s + workers {workers:.3f} s; with {args.workers} free cores "
        f"the CPU bound is {n / bound:,.0f} samples/s"
    )
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"identical results: {identical}")


if __name__ == "__main__":
    main()
