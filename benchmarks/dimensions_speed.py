"""Speed of the four extension dimensions' ``score()`` on the conformance inputs.

For each dimension (authority, corpus, freshness, indexIntegrity) it takes every vector of
shared/conformance/scorecard/{cases,examples}.jsonl whose expected scorecard holds that
dimension, checks once that ``score()`` reproduces the reference's points, then times
``score(inputs, config)`` over all of them, ``--runs`` times, and prints microseconds per call
(median run and best run) and calls per second. ``--checks`` also times ``check_inputs``.

These are the per-dimension costs inside one scorecard; the composition adds its own. The last
row times ``assay.dimension_score`` alone (building the frozen result records every dimension
returns), a floor for any dimension on the same machine at the same moment, which helps to read
numbers taken on a busy machine.

Run: uv run --all-packages python benchmarks/dimensions_speed.py [--runs 20] [--checks]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import assay
import assay.wire
from assay_authority import AuthorityDimension
from assay_corpus import CorpusDimension, IndexIntegrityDimension
from assay_freshness import FreshnessDimension

VECTORS = Path(__file__).resolve().parents[1].parent / "shared/conformance/scorecard"
DIMENSIONS = (
    AuthorityDimension(),
    CorpusDimension(),
    FreshnessDimension(),
    IndexIntegrityDimension(),
)


def load(name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(inputs, config) of every non-error vector scoring dimension ``name``."""
    pairs = []
    for file in ("cases.jsonl", "examples.jsonl"):
        for line in (VECTORS / file).read_text(encoding="utf-8").splitlines():
            case = assay.wire.from_json_safe(json.loads(line))
            expected = case["expected"]
            if "fn" in case or "error" in expected or name not in expected["dimensions"]:
                continue
            raw = case["inputs"], case["config"], expected["dimensions"][name]["raw"]
            pairs.append(raw)
    for inputs, config, raw in pairs:
        got = next(d for d in DIMENSIONS if d.name == name).score(inputs, config).raw
        assert got == raw or (got != got and raw != raw), f"{name}: {got} != {raw}"
    return [(inputs, config) for inputs, config, _ in pairs]


def time_calls(
    call: Any, pairs: list[tuple[dict[str, Any], dict[str, Any]]], runs: int
) -> list[float]:
    """Seconds per call of each run over all pairs (each run repeats the set 20 times)."""
    per_call = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(20):
            for inputs, config in pairs:
                call(inputs, config)
        per_call.append((time.perf_counter() - start) / (20 * len(pairs)))
    return per_call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--checks", action="store_true", help="also time check_inputs")
    args = parser.parse_args()
    print(f"{'dimension':<15} {'vectors':>7} {'median us':>10} {'best us':>8} {'calls/s':>10}")
    for dimension in DIMENSIONS:
        pairs = load(dimension.name)
        methods = [("score", dimension.score)]
        if args.checks:
            methods.append(("check_inputs", dimension.check_inputs))
        for label, call in methods:
            runs = time_calls(call, pairs, args.runs)
            median = statistics.median(runs)
            name = dimension.name if label == "score" else f"  {label}"
            print(
                f"{name:<15} {len(pairs):>7} {median * 1e6:>10.2f} {min(runs) * 1e6:>8.2f} "
                f"{1 / median:>10,.0f}"
            )
    floor = time_calls(
        lambda _inputs, _config: assay.dimension_score(
            raw=1.0, max_points=15.0, explanation="", components={"base": 1}, warnings=[]
        ),
        [({}, {})],
        args.runs,
    )
    print(
        f"{'dimension_score':<15} {'-':>7} {statistics.median(floor) * 1e6:>10.2f} "
        f"{min(floor) * 1e6:>8.2f} {1 / statistics.median(floor):>10,.0f}"
    )


if __name__ == "__main__":
    main()
