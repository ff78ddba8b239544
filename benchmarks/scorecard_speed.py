"""Time compute_confidence over the scorecard conformance inputs.

For every non-error computeConfidence vector in ../shared/conformance/scorecard/cases.jsonl and
examples.jsonl, a scorer is built once for its config (as `create_scorer` users do) and
`scorer.compute(inputs)` is timed; reported: the median over cases of the per-call time, for the
core-only cases (no extension dimension active) and for all cases, plus calls per second.

Run: uv run --all-packages --all-extras python benchmarks/scorecard_speed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import assay
import assay.wire
import assay_scorecard

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "scorecard"
CORE = {"grounding", "retrieval", "consistency"}


def load_cases() -> list[tuple[dict, dict, bool]]:
    cases = []
    for name in ("cases.jsonl", "examples.jsonl"):
        for line in (VECTORS / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "fn" in record or "error" in record["expected"]:
                continue
            core_only = set(record["expected"]["dimensions"]) <= CORE
            cases.append(
                (
                    assay.wire.from_json_safe(record["inputs"]),
                    assay.wire.from_json_safe(record["config"]),
                    core_only,
                )
            )
    return cases


def per_call_seconds(scorer: assay_scorecard.Scorer, inputs: dict, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        scorer.compute(inputs)
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    cases = load_cases()
    timings: list[tuple[float, bool]] = []
    for inputs, config, core_only in cases:
        scorer = assay_scorecard.create_scorer(config)
        scorer.compute(inputs)  # warm up
        timings.append((per_call_seconds(scorer, inputs, args.repeat), core_only))
    core = [t for t, c in timings if c]
    everything = [t for t, _ in timings]
    for label, values in (("core-only", core), ("all", everything)):
        median = statistics.median(values)
        print(
            f"{label:>9}: {len(values)} cases, median {median * 1e6:.1f} µs/call "
            f"({1 / median:,.0f} calls/s), p90 {statistics.quantiles(values, n=10)[-1] * 1e6:.1f} µs"
        )


if __name__ == "__main__":
    main()
