"""From labeled history to a sealed decision, with assay-jeffreys and assay_audit.

1. Labeled history: 200 outputs known to be good and 200 known to be bad, each scored on
   "factuality" and "relevance" (drawn with a seeded generator, so every run is identical).
2. A monitored gate fits one Beta per dimension and hypothesis (the Beta passes its
   goodness-of-fit test here, so it is the score model that decides), learns each dimension's
   weight on cross-fitted history, checks its assumptions, and seals every decision in a JSON
   Lines audit chain. 200 labeled outputs per hypothesis vouch for a Bayes factor of 200 / 3 at
   most, so no decision is stronger than that.
3. Three new outputs are decided; the chain is verified, then tampered with and verified again.

Run:  uv run --all-packages --all-extras python examples/gate/sealed_decision.py

Prints (exactly):
    fitted factuality  high Beta(8.27, 1.86)  low Beta(1.97, 5.67)  weight 1.17
    fitted relevance   high Beta(5.92, 2.96)  low Beta(2.93, 4.82)  weight 1.16
    history: 200 high, 200 low; largest Bayes factor it vouches for: 66.7
    assumptions: goodness of fit adequate=True, independence safe=True
    output 1: pass      BF=66.7       strong-high       (bayes-factor)
    output 2: escalate  BF=0.363      inconclusive      (bayes-factor)
    output 3: fail      BF=0.015      strong-low        (bayes-factor)
    chain: 3 entries, valid=True
    after editing entry 1: valid=False, broken at 1 (hash)
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from assay_audit import AuditChain, read_chain_file, verify_chain
from assay_jeffreys import (
    BayesFactorPolicy,
    BetaParams,
    DimensionModel,
    OutputGateMonitor,
    sample_score_matrix,
)

DIMENSIONS = ["factuality", "relevance"]
# The processes the history is drawn from (unknown to the gate, which only sees scores).
TRUTH = [
    DimensionModel("factuality", BetaParams(8, 2), BetaParams(2, 6)),
    DimensionModel("relevance", BetaParams(6, 3), BetaParams(3, 5)),
]


def labeled_history() -> list[dict]:
    history = []
    for label, seed in (("high", 1), ("low", 2)):
        for row in sample_score_matrix(TRUTH, label, 200, seed=seed).tolist():
            history.append({"scores": dict(zip(DIMENSIONS, row, strict=True)), "label": label})
    return history


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "decisions.jsonl"
        monitor = OutputGateMonitor(
            policy=BayesFactorPolicy(pass_above=10, fail_below=0.1),
            chain=AuditChain(path),
            require_goodness_of_fit=True,
            require_independence=True,
        )
        monitor.fit(labeled_history())
        gate = monitor.gate
        for m, fit in zip(monitor.models(), gate.dimensions, strict=True):
            print(
                f"fitted {m.dimension:<10s}  high Beta({m.high.a:.2f}, {m.high.b:.2f})  "
                f"low Beta({m.low.a:.2f}, {m.low.b:.2f})  weight {fit.weight:.2f}"
            )
        counts = gate.history_counts
        print(
            f"history: {counts['high']} high, {counts['low']} low; "
            f"largest Bayes factor it vouches for: {math.exp(gate.cap):.1f}"
        )
        report = monitor.assumptions
        print(
            f"assumptions: goodness of fit adequate={report.goodness_of_fit_adequate}, "
            f"independence safe={report.independence_assumption_safe}"
        )
        outputs = [
            {"factuality": 0.91, "relevance": 0.80},
            {"factuality": 0.55, "relevance": 0.50},
            {"factuality": 0.12, "relevance": 0.35},
        ]
        for i, scores in enumerate(outputs, start=1):
            d = monitor.record(scores, timestamp=f"2026-01-01T00:00:0{i}Z", context={"output": i})
            print(
                f"output {i}: {d.action:<9s} BF={d.bayes_factor:<10.3g} {d.strength:<17s} "
                f"({d.rationale})"
            )

        entries = read_chain_file(path)
        print(f"chain: {len(entries)} entries, valid={verify_chain(entries).valid}")
        lines = path.read_text(encoding="utf-8").splitlines()
        entry = json.loads(lines[1])
        entry["payload"]["decision"]["action"] = "pass"  # someone rewrites history
        lines[1] = json.dumps(entry)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        result = verify_chain(read_chain_file(path))
        print(
            f"after editing entry 1: valid={result.valid}, broken at {result.broken_at} ({result.reason})"
        )


if __name__ == "__main__":
    main()
