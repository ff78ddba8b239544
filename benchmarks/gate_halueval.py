"""Benchmark: the gate on HaluEval QA at full size, BayesOutputGate's combination beside the
default calibrated gate, in one run.

Rows 1,001-5,000 of ../shared/data/halueval_qa_dev.jsonl (rows 1-1,000 were used to design
claim_support): 8,000 answers scored with assay-faithfulness (faithfulness, answer_relevance,
claim_support), the right answer labeled high and the hallucinated one low, as in
examples/gate/halueval_gate.py.

* Split A (the one every number in docs/gate.md comes from): fit on the 4,000 answers of rows
  1,001-3,000, decide the 4,000 answers of rows 3,001-5,000. The default gate's weights are
  learned on the fit rows only (five cross-fitting folds, observation i held back in fold
  i mod 5); nothing is tuned on the decided rows.
* Split B (a check that the numbers are not a property of one split): the two halves swapped.

For each split and each gate (``compatible``: Beta models, independent sum; ``default``:
score models chosen by goodness of fit, weights learned on the history, wrong-way dimensions
left out, evidence capped at what the history supports; ``allow-wrong``: the default with the
wrong-way dimensions counted) it prints: accuracy of decided answers, share escalated,
expected calibration error (10 bins), Brier score, log-loss (natural log), the share of all
answers and of the hallucinated ones given probability above 0.999 for the wrong label, the
share of answers at a decisive Bayes factor (>= 100 or <= 1/100) and the share of those whose
favoured label is right; then the targets. Then, for split A, each dimension's deciding score model with its
Kolmogorov-Smirnov test on the scores it was fit on and on the decided part's scores, which it
never saw (critical value at alpha 0.05).

Run by hand:  uv run --all-packages --all-extras python benchmarks/gate_halueval.py
"""

from __future__ import annotations

import importlib.util
import math
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from assay_jeffreys import (
    BayesFactorPolicy,
    GateExperiment,
    model_goodness_of_fit,
    run_gate_experiment,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "gate" / "halueval_gate.py"
GATES = (
    ("compatible", "compatible"),
    ("default", None),
    ("allow-wrong", {"wrongDirection": "allow"}),
)
TARGETS = (
    "targets (default gate): accuracy >= 0.97, escalated <= 0.10, ECE <= 0.03, log-loss <= 0.20, "
)
TARGETS += "wrong at > 0.999 <= 0.005"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("halueval_gate", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


def _decisive(result: GateExperiment, test: list[dict[str, Any]]) -> tuple[float, float]:
    """The share of answers decided at a decisive Bayes factor, and how many of those are right."""
    strengths = [(result.gate.evaluate(o["scores"]).strength, o["label"]) for o in test]
    decisive = [(s, label) for s, label in strengths if s.startswith("decisive")]
    right = sum(s.endswith(label) for s, label in decisive)
    return len(decisive) / len(test), right / len(decisive) if decisive else float("nan")


def _row(name: str, result: GateExperiment, test: list[dict[str, Any]]) -> str:
    share, accuracy = _decisive(result, test)
    return (
        f"  {name:<12s} {result.decided_accuracy:8.4f} {result.escalated_share:9.4f} "
        f"{result.calibration.expected_calibration_error:7.4f} "
        f"{result.calibration.brier_score:7.4f} {result.log_loss:8.4f} "
        f"{result.confident_wrong_share:11.4f} {result.confident_wrong_low_share:8.4f} "
        f"{share:8.4f} {accuracy:8.4f}"
    )


def _split(
    title: str, fit: list[dict[str, Any]], test: list[dict[str, Any]]
) -> dict[str, GateExperiment]:
    print(f"{title}: fit on {len(fit)} answers, decided {len(test)}")
    print(
        f"  {'gate':<12s} {'accuracy':>8s} {'escalated':>9s} {'ECE':>7s} {'Brier':>7s} "
        f"{'log-loss':>8s} {'wrong>0.999':>11s} {'(halluc)':>8s} {'decisive':>8s} {'(right)':>8s}"
    )
    results = {}
    for name, config in GATES:
        results[name] = run_gate_experiment(fit, test, BayesFactorPolicy(10, 0.1), config=config)
        print(_row(name, results[name], test))
    return results


def _fits(result: GateExperiment, test: list[dict[str, Any]]) -> None:
    gate = result.gate
    print("score models of the default gate, split A (KS at alpha 0.05: D / critical):")
    for fit in gate.dimensions:
        high, low = gate.score_models(fit.dimension)
        cells = []
        for kind, model, in_sample in (("high", high, fit.fit_high), ("low", low, fit.fit_low)):
            held = model_goodness_of_fit(
                [o["scores"][fit.dimension] for o in test if o["label"] == kind], model
            )
            cells.append(
                f"{kind} fit {in_sample.ks_statistic:.4f}/{in_sample.critical_value:.4f} "
                f"decided {held.ks_statistic:.4f}/{held.critical_value:.4f} "
                f"{'pass' if in_sample.adequate and held.adequate else 'FAIL'}"
            )
        use = f"weight {fit.weight:.3f}" if fit.excluded is None else f"excluded ({fit.excluded})"
        mean_high, mean_low = fit.high["mean"], fit.low["mean"]
        print(
            f"  {fit.dimension:<17s} {fit.family:<9s} {use}; means high {mean_high:.3f}, "
            f"low {mean_low:.3f}"
        )
        for cell in cells:
            print(f"    {cell}")
    print(
        f"  offset {gate.offset:.4f}; cap on |ln BF| {gate.cap:.4f} (BF {math.exp(gate.cap):.1f})"
    )


def main() -> None:
    example = _example()
    start = time.perf_counter()
    a = example.labeled_scores(example.read_rows(1001, 2000))
    b = example.labeled_scores(example.read_rows(3001, 2000))
    scored = time.perf_counter() - start
    split_a = _split("split A: rows 1001-3000 fit, rows 3001-5000 decided", a, b)
    _split("split B: rows 3001-5000 fit, rows 1001-3000 decided", b, a)
    print(TARGETS)
    _fits(split_a["default"], b)
    print(
        f"time: {time.perf_counter() - start:.1f} s ({scored:.1f} s scoring 8,000 answers; "
        "the rest fitting and deciding two splits with three gates)"
    )


if __name__ == "__main__":
    main()
