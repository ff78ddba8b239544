"""Resuming a finished run recomputes nothing and, without ``keep_results``, holds the tally of
scores and pass flags, not one full result per sample: the stored file is read one line at a
time."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import attrs
import pytest

import assay
from assay_evaluation import batch_to_wire, evaluate_batch

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import (
    CountingMetric,
    TruthOverlap,
    WordCount,
    WrappedMetric,
    toy_samples,
)

N = 3000
SAMPLES = toy_samples(N)


@attrs.frozen
class Verbose(WrappedMetric):
    """Wraps a metric and gives its result the bulk of a real one: a long explanation and
    signals with evidence (what a resumed run must not keep per sample)."""

    def compute(self, sample, context, threshold):
        result = self.inner.compute(sample, context, threshold)
        signals = tuple(
            assay.MetricSignal("info", f"finding {i} of {sample.id}", "evidence " * 40)
            for i in range(4)
        )
        return attrs.evolve(
            result, explanation=f"{sample.id}: " + "because " * 150, signals=signals
        )


def _registry(*metrics) -> assay.Registry:
    registry = assay.build_registry(load_entry_points=False)
    for metric in metrics:
        registry.register(metric)
    return registry


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A complete run streamed to a file, and its batch."""
    out = tmp_path_factory.mktemp("resume") / "out.jsonl"
    registry = _registry(Verbose(WordCount()), Verbose(TruthOverlap()))
    fresh = evaluate_batch(SAMPLES, options={"output": str(out)}, registry=registry)
    return out, fresh


def _resume(out: Path, keep: bool, counting: CountingMetric):
    registry = _registry(counting, Verbose(TruthOverlap()))
    return evaluate_batch(
        SAMPLES,
        ["word_count", "truth_overlap"],
        options={"output": str(out), "resume": True, "keepResults": keep},
        registry=registry,
    )


def test_resuming_a_complete_run_recomputes_nothing_and_keeps_no_results(finished):
    out, fresh = finished
    before = out.read_bytes()
    counting = CountingMetric(Verbose(WordCount()))
    resumed = _resume(out, keep=False, counting=counting)
    assert counting.calls == []  # nothing recomputed
    assert out.read_bytes() == before  # nothing appended
    assert resumed.results == ()
    assert not resumed.results_kept
    assert resumed.sample_count == N
    assert resumed.failed_count == sum(not r.passed for r in fresh.results)
    assert resumed.aggregates == fresh.aggregates
    assert resumed.composite_aggregate == fresh.composite_aggregate
    assert (resumed.passed, resumed.total_cost) == (fresh.passed, fresh.total_cost)
    assert resumed.counts == fresh.counts
    assert resumed.failed_thresholds() == fresh.failed_thresholds()
    assert batch_to_wire(resumed) == batch_to_wire(fresh, with_results=False)
    kept = _resume(out, keep=True, counting=counting)
    assert counting.calls == []
    assert batch_to_wire(kept) == batch_to_wire(fresh)


def _peak(call) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_resume_without_keep_results_holds_no_full_results(finished):
    """Deterministic (traced allocations, not time or RSS): resuming 3000 samples peaks far
    below what holding their results takes."""
    out, _ = finished
    counting = CountingMetric(Verbose(WordCount()))
    lean = _peak(lambda: _resume(out, keep=False, counting=counting))
    full = _peak(lambda: _resume(out, keep=True, counting=counting))
    assert counting.calls == []
    per_sample = out.stat().st_size / N  # what one stored result takes as text (~5 KB)
    assert full > N * per_sample  # holding the results costs more than the file
    # the samples themselves (the caller's, copied when validated) and a tally of scores
    assert lean < N * 1200, (lean, full)
    assert lean * 5 < full, (lean, full)
