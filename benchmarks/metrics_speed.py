"""Speed of the seven metrics compatible with rag-eval-node-ts 0.3, one process.

Scores every distinct sample of shared/conformance/metrics/samples.jsonl (300 samples) with all
seven metrics, ``--runs`` times, and prints samples per second (median and best run) for:

* ``shared``: one context per sample, so tokenizing and n-gram sets are shared across metrics
  (how the evaluation runner calls the metrics);
* ``unshared``: a fresh context for every metric call (each metric redoes the per-sample
  work; per-text features still come from the text cache).

The text-feature cache (tokens, counts and n-gram sets of each distinct text, see
``assay_faithfulness.features``) is cleared before every run, so a run profits only from texts
repeated within the 300 samples (1,141 context slots, 465 distinct passages).

Before timing, it checks that every score equals the reference's expected score bit for bit.
The reference (rag-eval-node-ts on Node 20) does 810 samples/s (median of 8 runs) here; the
target (issue 4, item 7) is at least three times that, 2,430 samples/s, in one process.

The plugin's compiled twins of its kernels (``assay_faithfulness._speedups``, built by Cython at
install) are used when built; ``ASSAY_PURE_PYTHON=1`` times the pure-Python reference instead.
The first line printed says which ran.
With ``--batch`` it also times ``assay_evaluation.evaluate_batch`` (the runner: composite,
pass/fail, aggregates) in-process and on a 2-process pool, over 20 copies of the samples whose
contexts are made distinct per copy, so that no text repeats across copies.

Run: uv run python benchmarks/metrics_speed.py [--runs 8] [--batch]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import attrs

import assay
import assay_faithfulness as af
from assay_faithfulness.features import clear_text_cache

SAMPLES = Path(__file__).resolve().parents[1].parent / "shared/conformance/metrics/samples.jsonl"
REFERENCE_SAMPLES_PER_SECOND = 810


def load() -> tuple[list[assay.EvalSample], dict[tuple[int, str], float | None]]:
    samples: dict[str, assay.EvalSample] = {}
    expected: dict[tuple[int, str], float | None] = {}
    for line in SAMPLES.read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        vector = json.loads(line)
        name, _, rest = vector["id"].partition("/")
        if rest.endswith("/opt") or vector["fn"] == "computeMetric":
            continue
        wire = vector["args"][0]
        if name not in samples:
            samples[name] = assay.EvalSample(
                question=wire["question"],
                answer=wire["answer"],
                contexts=wire["contexts"],
                ground_truth=wire.get("groundTruth"),
                id=name,
            )
        index = list(samples).index(name)
        expected[(index, af.metric_id_from_wire(rest))] = vector["expected"]["score"]
    return list(samples.values()), expected


def run_shared(samples: list[assay.EvalSample]) -> list[dict[str, assay.MetricResult]]:
    out = []
    for sample in samples:
        context = af.SimpleMetricContext()
        out.append(
            {m.id: m.compute(sample, context, m.default_threshold) for m in af.DEFAULT_METRICS}
        )
    return out


def run_unshared(samples: list[assay.EvalSample]) -> list[dict[str, assay.MetricResult]]:
    return [
        {
            m.id: m.compute(sample, af.SimpleMetricContext(), m.default_threshold)
            for m in af.DEFAULT_METRICS
        }
        for sample in samples
    ]


def time_runs(fn, samples, runs: int) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Samples per second of each run: by the wall clock, and by this process's CPU time (which
    other processes on a shared machine disturb less)."""
    wall, cpu = [], []
    for _ in range(runs):
        clear_text_cache()  # every run starts cold: only reuse within the 300 samples counts
        start, start_cpu = time.perf_counter(), time.process_time()
        fn(samples)
        wall.append(len(samples) / (time.perf_counter() - start))
        cpu.append(len(samples) / (time.process_time() - start_cpu))
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--batch", action="store_true", help="also time evaluate_batch, 2 procs")
    args = parser.parse_args()
    from assay_faithfulness._compiled import COMPILED

    print(
        "kernels: "
        + ("compiled (assay_faithfulness._speedups)" if COMPILED else "pure Python (reference)")
    )
    samples, expected = load()
    results = run_shared(samples)  # warm-up: builds the tokenizer's character class once
    mismatches = [key for key, score in expected.items() if results[key[0]][key[1]].score != score]
    print(
        f"samples: {len(samples)}; scores checked: {len(expected)}; mismatches: {len(mismatches)}"
    )
    if mismatches:
        raise SystemExit(1)
    for name, fn in (("shared", run_shared), ("unshared", run_unshared)):
        wall, cpu = time_runs(fn, samples, args.runs)
        for clock, rates in (("wall", wall), ("cpu", cpu)):
            median = statistics.median(rates)
            print(
                f"{name:9s} {clock:4s} median {median:6.0f} samples/s "
                f"({1e3 / median:.3f} ms/sample), best {max(rates):6.0f}; "
                f"x{median / REFERENCE_SAMPLES_PER_SECOND:.2f} the reference's median"
            )
    if args.batch:
        time_batch(samples, args.runs)


def distinct_copies(samples: list[assay.EvalSample], copies: int) -> list[assay.EvalSample]:
    """``copies`` versions of the samples whose contexts end in a copy-specific word, so that no
    text repeats across copies (a worker's text cache helps only as much as in one pass)."""
    return [
        attrs.evolve(s, contexts=tuple(f"{c} v{k}" for c in s.contexts), id=f"{s.id}-{k}")
        for k in range(copies)
        for s in samples
    ]


def time_batch(samples: list[assay.EvalSample], runs: int) -> None:
    try:
        from assay_evaluation import evaluate_batch
    except ImportError:
        print("batch: assay_evaluation.evaluate_batch is not available")
        return
    from concurrent.futures import ProcessPoolExecutor

    rates: dict[str, list[float]] = {"in-process": [], "2 processes": []}
    with ProcessPoolExecutor(max_workers=2) as executor:
        evaluate_batch(samples[:10], options={"executor": executor})  # start the workers
        for run in range(runs):
            many = distinct_copies(samples, 20)
            for label, options in (("in-process", {}), ("2 processes", {"executor": executor})):
                many = [attrs.evolve(s, id=f"{s.id}-{label}-{run}") for s in many]
                start = time.perf_counter()
                evaluate_batch(many, options=options)
                rates[label].append(len(many) / (time.perf_counter() - start))
    for label, values in rates.items():
        print(
            f"evaluate_batch {label:11s} ({20 * len(samples)} samples, all seven metrics): "
            f"median {statistics.median(values):6.0f} samples/s, best {max(values):6.0f}"
        )


if __name__ == "__main__":
    main()
