"""Latency of context-quality scoring and CRAG routing for one query with 20 chunks.

Run by hand:  uv run --package assay-crag python benchmarks/route_speed.py [--runs N]

The 20 chunks are the paragraphs of the first two HotpotQA distractor questions (real text, read
in place from ../shared/data), ranked with descending scores; the query is the first question.
Each case is timed call by call after a warm-up, in wall-clock time (``time.perf_counter_ns``)
and in this thread's CPU time (``time.thread_time_ns``, which leaves out time spent waiting for
a CPU on a loaded machine); the script prints percentiles in microseconds and the load average.
Target: p99 under 1 ms for composite + routing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assay_crag import CragRouter, QualityScorer, parse_quality_input

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def wire_input() -> dict[str, Any]:
    items = json.loads((DATA / "hotpotqa_distractor_100.json").read_text(encoding="utf-8"))
    paragraphs = [(title, "".join(s).strip()) for item in items[:2] for title, s in item["context"]]
    chunks = [
        {
            "content": text,
            "documentId": title,
            "score": round(0.95 - 0.03 * i, 4),
            "metadata": {"sectionTitle": title},
        }
        for i, (title, text) in enumerate(paragraphs[:20])
    ]
    context = "\n\n".join(c["content"] for c in chunks)
    return {
        "query": items[0]["question"],
        "chunks": chunks,
        "context": {"text": context, "tokenCount": len(context.split())},
    }


def _percentiles(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {
        "p50": statistics.median(samples),
        "p99": samples[int(0.99 * (len(samples) - 1))],
        "max": samples[-1],
    }


def timed(fn: Callable[[], object], runs: int) -> tuple[dict[str, float], dict[str, float]]:
    """(wall-clock, thread CPU time) percentiles in microseconds over ``runs`` calls."""
    for _ in range(min(200, runs)):
        fn()
    wall, cpu = [], []
    for _ in range(runs):
        start_cpu = time.thread_time_ns()
        start = time.perf_counter_ns()
        fn()
        wall.append((time.perf_counter_ns() - start) / 1000)
        cpu.append((time.thread_time_ns() - start_cpu) / 1000)
    return _percentiles(wall), _percentiles(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5000)
    args = parser.parse_args()
    wire = wire_input()
    parsed = parse_quality_input(wire)
    scorer = QualityScorer()
    composite = CragRouter("composite")
    paper = CragRouter("paper")
    cases: dict[str, Callable[[], object]] = {
        "parse wire input (20 chunks)": lambda: parse_quality_input(wire),
        "composite score (4 dimensions)": lambda: scorer.score(parsed),
        "composite + routing (composite mode)": lambda: composite.classify(parsed),
        "composite + routing from wire JSON": lambda: composite.classify(wire),
        "routing, paper mode (lexical scorer)": lambda: paper.classify(parsed),
    }
    words = sum(len(c.content.split()) for c in parsed.chunks)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{len(parsed.chunks)} chunks, {words} words; {args.runs} runs each; microseconds; "
        f"{os.cpu_count()} CPUs, 1-minute load average {load:.2f}"
    )
    print("| case | wall p50 | wall p99 | wall max | CPU p50 | CPU p99 |")
    print("|---|---|---|---|---|---|")
    for name, fn in cases.items():
        w, c = timed(fn, args.runs)
        print(
            f"| {name} | {w['p50']:.0f} | {w['p99']:.0f} | {w['max']:.0f} "
            f"| {c['p50']:.0f} | {c['p99']:.0f} |"
        )


if __name__ == "__main__":
    main()
