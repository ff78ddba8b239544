"""How often a drift detector fires on stationary real scores, and how fast on a real shift.

The scores: HaluEval QA rows 1,001-1,400 (../shared/data, read in place), each right answer
(label high) and hallucinated answer (label low) scored by assay-faithfulness, as in
halueval_gate.py. For each dimension:

* false alarms: per label, 50 random orderings of its 400 scores (exchangeable: nothing to
  detect); how many orderings get at least one alert;
* detection: 50 times, 200 right-answer scores in random order followed by the 400
  hallucinated-answer scores; alerts before the switch (false) and the delay from the switch to
  the first alert after it (median, and how many runs never alert).

It compares a Page-Hinkley test with an absolute allowance 0.05 and threshold 2.0 with the
monitor's default detector (``default_drift_detector``). Run from the repository root:
``uv run --all-packages --all-extras python examples/gate/drift_check.py``.
"""

from __future__ import annotations

import importlib.util
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from assay_calibration.drift import PageHinkley
from assay_jeffreys.monitor import default_drift_detector

HERE = Path(__file__).resolve().parent
ORDERINGS = 50
SWITCH = 200
SEED = 7  # the orderings are drawn from this seed: same seed, same numbers


def _halueval() -> Any:
    spec = importlib.util.spec_from_file_location("halueval_gate", HERE / "halueval_gate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def real_scores() -> dict[tuple[str, str], np.ndarray]:
    """``{(dimension, label): scores}`` for HaluEval rows 1,001-1,400."""
    example = _halueval()
    observations = example.labeled_scores(example.read_rows(1001, 400))
    columns: dict[tuple[str, str], list[float]] = {}
    for obs in observations:
        for dimension, value in obs["scores"].items():
            columns.setdefault((dimension, obs["label"]), []).append(value)
    return {key: np.array(values) for key, values in columns.items()}


def absolute_page_hinkley() -> PageHinkley:
    """A Page-Hinkley test with an absolute allowance and threshold, in score units."""
    return PageHinkley(delta=0.05, threshold=2.0, min_samples=30)


def false_alarms(make: Callable[[], Any], scores: np.ndarray, rng: np.random.Generator) -> int:
    """Random orderings (of ``ORDERINGS``) with at least one alert."""
    return sum(bool(make().update_many(rng.permutation(scores))) for _ in range(ORDERINGS))


def detection(
    make: Callable[[], Any], before: np.ndarray, after: np.ndarray, rng: np.random.Generator
) -> tuple[int, float | None, int]:
    """Runs alerting before the switch, the median delay to the first alert after it (over
    the runs that alert after it), and the runs that never alert after it."""
    early, delays = 0, []
    for _ in range(ORDERINGS):
        stream = np.concatenate([rng.permutation(before)[:SWITCH], rng.permutation(after)])
        indexes = [event.index for event in make().update_many(stream)]
        early += any(i < SWITCH for i in indexes)
        late = [i - SWITCH for i in indexes if i >= SWITCH]
        if late:
            delays.append(late[0])
    median = statistics.median(delays) if delays else None
    return early, median, ORDERINGS - len(delays)


def main() -> None:
    scores = real_scores()
    dimensions = sorted({dimension for dimension, _ in scores})
    detectors = {"absolute": absolute_page_hinkley, "default": default_drift_detector}
    for name, make in detectors.items():
        rng = np.random.default_rng(SEED)
        for dimension in dimensions:
            high, low = scores[(dimension, "high")], scores[(dimension, "low")]
            alarms = {
                label: false_alarms(make, scores[(dimension, label)], rng)
                for label in ("high", "low")
            }
            early, delay, missed = detection(make, high, low, rng)
            print(
                f"{name:8} {dimension:16} sd high {high.std():.3f} low {low.std():.3f}  "
                f"false alarms: high {alarms['high']}/{ORDERINGS} low {alarms['low']}/{ORDERINGS}"
                f"  shift: early {early}/{ORDERINGS}, median delay {delay}, missed {missed}"
            )


if __name__ == "__main__":
    main()
