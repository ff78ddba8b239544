"""Per-call CPU time of ``Grounding.score`` (and ``AnswerRelevance.score``) on conformance inputs.

Grounding: every non-error computeConfidence vector of shared/conformance/scorecard/{cases,
examples}.jsonl whose expected scorecard holds only core dimensions (grounding, retrieval,
consistency). Relevance: every non-error vector whose expected scorecard scores relevance.
Each case is timed ``--repeat`` times with ``time.process_time``; printed: the median over cases
of the per-call time (and the 90th percentile), for the pure-Python reference (``PURE_SCORE`` of
grounding.py / relevance.py) and, when it is built, the compiled twin (``_speedups``). The last
row times ``assay.dimension_score`` alone with the arguments a typical grounding case passes: a
floor for any dimension on the same machine at the same moment (every implementation calls it
once), which helps to read numbers taken on a busy machine.

Run (from the repository root):
    uv run --no-sync python plugins/assay-grounding/benchmarks/grounding_speed.py [--repeat N]
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
from assay_grounding import AnswerRelevance, Grounding, grounding, relevance

VECTORS = Path(__file__).resolve().parents[3].parent / "shared" / "conformance" / "scorecard"
CORE = {"grounding", "retrieval", "consistency"}
Cases = list[tuple[dict[str, Any], dict[str, Any]]]


def load() -> tuple[Cases, Cases]:
    """(core-only cases, cases that score relevance): (inputs, config) pairs."""
    core_only: Cases = []
    with_relevance: Cases = []
    for name in ("cases.jsonl", "examples.jsonl"):
        for line in (VECTORS / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "fn" in record or "error" in record["expected"]:
                continue
            case = (
                assay.wire.from_json_safe(record["inputs"]),
                assay.wire.from_json_safe(record["config"]),
            )
            dimensions = set(record["expected"]["dimensions"])
            if dimensions <= CORE:
                core_only.append(case)
            if "relevance" in dimensions:
                with_relevance.append(case)
    return core_only, with_relevance


def per_call(score: Callable[..., Any], args: tuple[Any, ...], repeat: int) -> float:
    start = time.process_time()
    for _ in range(repeat):
        score(*args)
    return (time.process_time() - start) / repeat


def dimension_score_floor() -> Any:
    return assay.dimension_score(
        raw=30,
        max_points=30.0,
        explanation="Source text directly and unambiguously answers the question.",
        components={"supportBase": 30},
        adjustments={},
        diagnostics={"invalidCitationCount": 0},
        uncapped_raw=30,
        warnings=[grounding.MISSING_FAITHFULNESS],
    )


def report(label: str, times: list[float]) -> None:
    median = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else median
    print(f"  {label:<38} median {median * 1e6:6.2f} µs/call   p90 {p90 * 1e6:6.2f} µs")


def time_all(dimension: Any, score: Callable[..., Any], cases: Cases, repeat: int) -> list[float]:
    times = []
    for inputs, config in cases:
        score(dimension, inputs, config)  # warm up
        times.append(per_call(score, (dimension, inputs, config), repeat))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    core_only, with_relevance = load()
    try:
        from assay_grounding import _speedups
    except ImportError:
        _speedups = None  # type: ignore[assignment]
        print("compiled twins not built: timing the pure-Python reference only")
    runs: list[tuple[str, Any, Cases, list[tuple[str, Callable[..., Any]]]]] = [
        (
            "Grounding.score, core-only cases",
            Grounding(),
            core_only,
            [("pure Python (grounding.PURE_SCORE)", grounding.PURE_SCORE)],
        ),
        (
            "AnswerRelevance.score, cases scoring relevance",
            AnswerRelevance(),
            with_relevance,
            [("pure Python (relevance.PURE_SCORE)", relevance.PURE_SCORE)],
        ),
    ]
    if _speedups is not None:
        runs[0][3].append(("compiled (_speedups.grounding_score)", _speedups.grounding_score))
        runs[1][3].append(("compiled (_speedups.relevance_score)", _speedups.relevance_score))
    for title, dimension, cases, implementations in runs:
        print(f"{title}: {len(cases)} cases, {args.repeat} calls each")
        for label, score in implementations:
            report(label, time_all(dimension, score, cases, args.repeat))
    floor = [per_call(dimension_score_floor, (), args.repeat) for _ in range(20)]
    report("assay.dimension_score alone (+1 call)", floor)


if __name__ == "__main__":
    main()
