"""Batch evaluation at scale: thread, process and dask executors give the in-process results;
results stream to JSON Lines; an interrupted run resumes without losing or redoing work."""

from __future__ import annotations

import json
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest

import assay
from assay_evaluation import batch_to_wire, evaluate_batch, read_results

sys.path.insert(0, str(Path(__file__).parent))
from test_evaluation_toys import (
    CountingMetric,
    TruthOverlap,
    WordCount,
    toy_registry,
    toy_samples,
)

SAMPLES = toy_samples(40)


@pytest.fixture(scope="module")
def registry():
    return toy_registry()


@pytest.fixture(scope="module")
def in_process(registry):
    return batch_to_wire(evaluate_batch(SAMPLES, registry=registry))


def test_threads_match_in_process(registry, in_process):
    with ThreadPoolExecutor(3) as pool:
        batch = evaluate_batch(
            SAMPLES,
            options={"executor": pool, "chunkSize": 3, "concurrency": 2},
            registry=registry,
        )
    assert batch_to_wire(batch) == in_process


def test_processes_match_in_process(registry, in_process):
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        batch = evaluate_batch(
            SAMPLES, options={"executor": pool, "chunk_size": 7}, registry=registry
        )
    assert batch_to_wire(batch) == in_process


def test_dask_local_cluster_matches_in_process(registry, in_process):
    distributed = pytest.importorskip(
        "distributed", reason="needs the assay[dask] extra (uv run --all-extras installs it)"
    )
    with (
        distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=2,
            processes=False,
            protocol="tcp",
            host="127.0.0.1",
            scheduler_port=0,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        batch = evaluate_batch(
            SAMPLES,
            options={"executor": client.get_executor(), "chunkSize": 5},
            registry=registry,
        )
    assert batch_to_wire(batch) == in_process


def test_progress_in_process_is_reported_as_each_sample_finishes():
    counting = CountingMetric(WordCount())
    registry = assay.build_registry(load_entry_points=False)
    registry.register(counting)
    seen = []
    evaluate_batch(
        SAMPLES[:5],
        options={"on_progress": lambda d, t: seen.append((d, t, len(counting.calls)))},
        registry=registry,
    )
    assert seen == [(i, 5, i) for i in range(1, 6)]  # not in bursts of a chunk


def test_progress_is_reported_after_each_sample(registry):
    seen = []
    with ThreadPoolExecutor(2) as pool:
        evaluate_batch(
            SAMPLES[:10],
            options={
                "executor": pool,
                "chunk_size": 4,
                "on_progress": lambda d, t: seen.append((d, t)),
            },
            registry=registry,
        )
    assert seen == [(i, 10) for i in range(1, 11)]


def test_results_stream_to_json_lines(tmp_path, registry, in_process):
    out = tmp_path / "run" / "results.jsonl"
    batch = evaluate_batch(SAMPLES, options={"output": str(out), "chunkSize": 6}, registry=registry)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(SAMPLES)
    assert [json.loads(line)["key"] for line in lines] == [s["id"] for s in SAMPLES]
    assert read_results(out) == list(batch.results)
    assert batch_to_wire(batch) == in_process


@attrs.frozen
class Interrupting:
    """Stops the run (like a crash) when it reaches a given sample id."""

    stop_at: str
    id: str = "word_count"
    default_threshold: float = 0.5
    higher_is_better: bool = True
    requires: frozenset = frozenset()

    def compute(self, sample, context, threshold):
        if sample.id == self.stop_at:
            raise KeyboardInterrupt
        return WordCount().compute(sample, context, threshold)


def test_interrupted_run_resumes_and_skips_finished_ids(tmp_path, registry, in_process):
    out = tmp_path / "results.jsonl"
    broken = assay.build_registry(load_entry_points=False)
    broken.register(Interrupting(stop_at="s23"))
    broken.register(TruthOverlap())
    broken.register(registry.get("metric", "context_count"))
    with pytest.raises(KeyboardInterrupt):
        evaluate_batch(SAMPLES, options={"output": str(out), "chunk_size": 5}, registry=broken)
    finished = [json.loads(x)["key"] for x in out.read_text().splitlines()]
    # every sample finished before the interruption was written, not only whole chunks
    assert finished == [f"s{i}" for i in range(23)]
    with out.open("a", encoding="utf-8") as handle:  # and a line cut off mid-write
        handle.write('{"key": "s23", "result": {"id"')
    counting = CountingMetric(WordCount())
    resumed_registry = assay.build_registry(load_entry_points=False)
    for metric in (counting, TruthOverlap(), registry.get("metric", "context_count")):
        resumed_registry.register(metric)
    batch = evaluate_batch(
        SAMPLES,
        options={"output": str(out), "resume": True, "chunkSize": 5},
        registry=resumed_registry,
    )
    assert counting.calls == [f"s{i}" for i in range(23, 40)]
    assert batch_to_wire(batch) == in_process
    keys = [json.loads(x)["key"] for x in out.read_text().splitlines()]
    assert keys == [s["id"] for s in SAMPLES]


def test_samples_without_ids_resume_by_position(tmp_path, registry):
    samples = [{k: v for k, v in s.items() if k != "id"} for s in SAMPLES[:6]]
    out = tmp_path / "results.jsonl"
    first = evaluate_batch(samples, options={"output": str(out)}, registry=registry)
    counting = CountingMetric(WordCount())
    again = assay.build_registry(load_entry_points=False)
    again.register(counting)
    again.register(TruthOverlap())
    again.register(registry.get("metric", "context_count"))
    second = evaluate_batch(samples, options={"output": str(out), "resume": True}, registry=again)
    assert counting.calls == []
    assert batch_to_wire(second) == batch_to_wire(first)


def test_a_file_that_is_not_a_results_stream_is_refused(tmp_path, registry):
    out = tmp_path / "results.jsonl"
    out.write_text("not json\n{}\n", encoding="utf-8")
    with pytest.raises(assay.AssayError) as excinfo:
        evaluate_batch(SAMPLES[:2], options={"output": str(out), "resume": True}, registry=registry)
    assert excinfo.value.code == "MALFORMED_INPUT"
    assert out.read_text(encoding="utf-8") == "not json\n{}\n"


def test_executor_runs_stream_every_result_too(tmp_path, registry, in_process):
    out = tmp_path / "results.jsonl"
    with ThreadPoolExecutor(2) as pool:
        batch = evaluate_batch(
            SAMPLES,
            options={"executor": pool, "chunkSize": 4, "output": str(out)},
            registry=registry,
        )
    keys = [json.loads(line)["key"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(keys) == sorted(s["id"] for s in SAMPLES)  # in completion order
    assert sorted(read_results(out), key=lambda r: int(r.sample.id[1:])) == list(batch.results)
    assert batch_to_wire(batch) == in_process


def test_resume_rejudges_stored_results_at_the_new_thresholds(tmp_path, registry):
    out = tmp_path / "results.jsonl"
    evaluate_batch(SAMPLES[:20], options={"output": str(out)}, registry=registry)
    counting = CountingMetric(WordCount())
    again = assay.build_registry(load_entry_points=False)
    for metric in (counting, TruthOverlap(), registry.get("metric", "context_count")):
        again.register(metric)
    options = {
        "thresholds": {"word_count": 0.9},
        "compositeWeights": {"truth_overlap": 3},
        "compositeThreshold": 0.2,
    }
    resumed = evaluate_batch(
        SAMPLES, options={**options, "output": str(out), "resume": True}, registry=again
    )
    assert counting.calls == [s["id"] for s in SAMPLES[20:]]
    fresh = evaluate_batch(SAMPLES, options=options, registry=registry)
    assert batch_to_wire(resumed) == batch_to_wire(fresh)


def test_resume_recomputes_results_made_for_other_metrics_or_other_content(tmp_path, registry):
    out = tmp_path / "results.jsonl"
    evaluate_batch(SAMPLES[:10], ["word_count"], options={"output": str(out)}, registry=registry)
    changed = [{**s, "answer": "changed"} if s["id"] == "s3" else s for s in SAMPLES[:10]]
    counting = CountingMetric(WordCount())
    again = assay.build_registry(load_entry_points=False)
    again.register(counting)
    again.register(TruthOverlap())
    evaluate_batch(
        changed, ["word_count"], options={"output": str(out), "resume": True}, registry=again
    )
    assert counting.calls == ["s3"]
    counting.calls.clear()
    evaluate_batch(
        changed,
        ["word_count", "truth_overlap"],
        options={"output": str(out), "resume": True},
        registry=again,
    )
    assert counting.calls == [s["id"] for s in changed]


def test_on_progress_true_shows_a_progress_line_on_standard_error(registry, capsys):
    # a notebook or script user had to write a callback to see how far a long run was
    batch = evaluate_batch(toy_samples(20), options={"on_progress": True}, registry=registry)
    captured = capsys.readouterr()
    assert captured.out == ""
    last = captured.err.splitlines()[-1]
    assert last.startswith("evaluating 20/20 (100%) ") and last.endswith(" samples/s")
    assert batch.sample_count == 20
    evaluate_batch(toy_samples(3), options={"onProgress": False}, registry=registry)
    assert capsys.readouterr().err == ""
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(toy_samples(3), options={"on_progress": "yes"}, registry=registry)
    assert (caught.value.code, caught.value.path) == ("INVALID_OPTION", "options.onProgress")
