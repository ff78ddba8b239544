"""CPU time per call of the retrieval and consistency ``score()`` methods (pure vs compiled).

Takes every computeConfidence vector of shared/conformance/scorecard/{cases,examples}.jsonl that
is core-only (its expected scorecard holds no dimension beyond grounding, retrieval and
consistency) and not an error line, times ``score(inputs, config)`` of each method ``--repeat``
times per case with ``time.process_time`` and prints the median over cases of the per-call
time (and the 90th percentile). Rows: the pure-Python reference methods (``PURE_SCORE``), the
compiled twins (``assay_retrieval._speedups``, when built) and, as a floor that no dimension can
go below on the same machine at the same moment, ``assay.dimension_score`` alone.

Run (from the repository root):
    uv run --no-sync python plugins/assay-retrieval/benchmarks/score_speed.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import assay
import assay.wire
from assay_retrieval import EvidenceConsistency, RetrievalConfidence, consistency, retrieval

VECTORS = Path(__file__).resolve().parents[3].parent / "shared" / "conformance" / "scorecard"
CORE = {"grounding", "retrieval", "consistency"}
Pairs = list[tuple[dict[str, Any], dict[str, Any]]]


def load_core_only() -> Pairs:
    """(inputs, config) of every core-only, non-error computeConfidence vector."""
    pairs = []
    for name in ("cases.jsonl", "examples.jsonl"):
        for line in (VECTORS / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "fn" in record or "error" in record["expected"]:
                continue
            if set(record["expected"]["dimensions"]) <= CORE:
                pairs.append(
                    (
                        assay.wire.from_json_safe(record["inputs"]),
                        assay.wire.from_json_safe(record["config"]),
                    )
                )
    return pairs


def per_call(call: Callable[[Any, Any], Any], pairs: Pairs, repeat: int) -> list[float]:
    """CPU seconds per call, one figure per case (each case called ``repeat`` times)."""
    times = []
    for inputs, config in pairs:
        call(inputs, config)  # warm up (settings cache)
        start = time.process_time()
        for _ in range(repeat):
            call(inputs, config)
        times.append((time.process_time() - start) / repeat)
    return times


def floor_call(_inputs: Any, _config: Any) -> Any:
    return assay.dimension_score(
        raw=1.0, max_points=10.0, explanation="", components={"base": 1}, warnings=[]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    pairs = load_core_only()
    r, k = RetrievalConfidence(), EvidenceConsistency()
    rows: list[tuple[str, Callable[[Any, Any], Any]]] = []
    for label, dim, module in (("retrieval", r, retrieval), ("consistency", k, consistency)):
        pure = getattr(module, "PURE_SCORE", None)
        if pure is not None:
            rows.append((f"{label} pure", pure.__get__(dim)))
        speedups = getattr(module, "_speedups", None)
        if speedups is not None:
            compiled = getattr(speedups, f"{label}_score")
            rows.append((f"{label} compiled", compiled.__get__(dim)))
        rows.append((f"{label} active", dim.score))
    rows.append(("dimension_score", floor_call))
    print(f"{len(pairs)} core-only cases, {args.repeat} calls each, CPU time (process_time)")
    print(f"{'method':<22} {'median us':>10} {'p90 us':>8}")
    for label, call in rows:
        times = per_call(call, pairs, args.repeat)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"{label:<22} {statistics.median(times) * 1e6:>10.2f} {p90 * 1e6:>8.2f}")


if __name__ == "__main__":
    main()
