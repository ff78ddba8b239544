"""Evaluation that scales: workers read, validate, evaluate and serialize their own rows; the
output file and the summary are the same bytes whatever runs them (in-process, worker
processes, a caller's executor, a dask cluster) and however the input is chunked; the calling
process keeps only the tally; progress and speed come from an injectable clock."""

from __future__ import annotations

import io
import json
import pickle
import threading
from array import array
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli
from assay_evaluation import (
    BatchEvalResult,
    Clock,
    Gate,
    ProgressLine,
    RunStats,
    SampleFieldWarning,
    batch_to_wire,
    evaluate_batch,
    render_html,
    summarize,
)
from assay_evaluation._summary import summary_text

EXAMPLE = Path(__file__).resolve().parents[3] / "examples/evaluation/data/rag_answers.jsonl"
COPIES = 8


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """The six example answers repeated with unique ids (48 samples), some without an id and
    with blank lines between, so positions (``#i``) and line numbers both matter. Most tests
    run the default metric list on them, which needs a metric plugin installed."""
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    rows = [json.loads(line) for line in EXAMPLE.read_text("utf-8").splitlines()]
    path = tmp_path_factory.mktemp("scaling") / "answers.jsonl"
    lines = []
    for copy in range(COPIES):
        for row in rows:
            sample = {**row, "id": f"{row['id']}-{copy}"}
            if copy == 3:
                del sample["id"]  # keyed by position
            lines.append(json.dumps(sample))
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(data: Path, out: Path, **options) -> tuple[BatchEvalResult, bytes]:
    batch = evaluate_batch(str(data), options={"output": str(out), **options})
    return batch, out.read_bytes()


@pytest.fixture(scope="module")
def in_process(data, tmp_path_factory):
    return _run(data, tmp_path_factory.mktemp("one") / "out.jsonl", keep_results=False)


def _summary(batch: BatchEvalResult) -> str:
    wire = batch_to_wire(batch, with_results=False)
    return summary_text(batch, Gate().check(batch)) + json.dumps(wire)


@pytest.mark.parametrize(
    "options",
    [
        {"workers": 1, "chunk_size": 1},
        {"workers": 2, "chunk_size": 7},
        {"workers": 2, "chunk_size": 128, "keep_results": True},
        {"workers": 2, "chunk_size": 5, "concurrency": 1},
    ],
    ids=["1 worker, chunks of 1", "2 workers, chunks of 7", "kept results", "one in flight"],
)
def test_worker_processes_write_the_same_bytes_and_summary(data, tmp_path, in_process, options):
    batch, output = _run(data, tmp_path / "out.jsonl", **{"keep_results": False, **options})
    reference, expected = in_process
    assert output == expected
    assert _summary(batch) == _summary(reference)
    assert batch.sample_count == 6 * COPIES and reference.results == ()
    assert len(batch.results) == (6 * COPIES if options.get("keep_results") else 0)
    assert batch.stats is not None and batch.stats.workers == options["workers"]


def test_results_kept_from_workers_equal_the_in_process_ones(data):
    serial = evaluate_batch(str(data))
    parallel = evaluate_batch(str(data), options={"workers": 2, "chunk_size": 4})
    assert parallel.results == serial.results and parallel == serial


def test_a_callers_executor_writes_the_same_bytes(data, tmp_path, in_process):
    with ThreadPoolExecutor(3) as pool:
        batch, output = _run(
            data, tmp_path / "out.jsonl", executor=pool, chunk_size=3, keep_results=False
        )
    assert output == in_process[1] and _summary(batch) == _summary(in_process[0])
    assert batch.stats is not None and batch.stats.workers is None


def test_rows_given_as_objects_travel_to_the_workers(data, in_process):
    rows = [json.loads(line) for line in data.read_text("utf-8").splitlines() if line]
    batch = evaluate_batch(rows, options={"workers": 2, "chunk_size": 10})
    assert _summary(batch) == _summary(in_process[0])


def test_a_bad_row_names_its_line_and_keeps_the_chunks_before_it(data, tmp_path):
    lines = data.read_text("utf-8").splitlines()
    lines[20] = '{"question": "q", "contexts": []}'
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(str(broken), options={"workers": 2, "chunk_size": 4, "output": str(out)})
    assert caught.value.code == "MISSING_ANSWER" and caught.value.path == "line 21.answer"
    written = [json.loads(line)["key"] for line in out.read_text("utf-8").splitlines()]
    assert written[:16] == [f"rag-{i % 6 + 1}-{i // 6}" for i in range(16)]


def test_not_json_names_its_line(tmp_path):
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b'{"answer": "a", "contexts": []}\n\n{"answer": \xff}\n')
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(str(broken), options={"workers": 1})
    assert caught.value.code == "MALFORMED_INPUT" and caught.value.path == "line 3"


def test_unknown_columns_seen_by_workers_are_warned_once(tmp_path):
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    rows = [{"answer": "a", "contexts": ["a"], "questoin": "q"} for _ in range(5)]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.warns(SampleFieldWarning) as caught:
        evaluate_batch(str(path), options={"workers": 2, "chunk_size": 2})
    messages = [str(w.message) for w in caught if isinstance(w.message, SampleFieldWarning)]
    assert len(messages) == 1 and messages[0].startswith("line 1.questoin: unknown field")


def test_resume_with_workers_finishes_what_is_missing(data, tmp_path, in_process):
    out = tmp_path / "out.jsonl"
    _run(data, out, workers=2)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:10]))
    batch = evaluate_batch(
        str(data), options={"output": str(out), "resume": True, "workers": 2, "chunk_size": 4}
    )
    assert _summary(batch) == _summary(in_process[0])
    assert sorted(out.read_bytes().splitlines()) == sorted(in_process[1].splitlines())


def test_one_place_to_run(data):
    with ThreadPoolExecutor(1) as pool, pytest.raises(assay.AssayError) as caught:
        evaluate_batch(str(data), options={"workers": 2, "executor": pool})
    assert caught.value.code == "INVALID_OPTION" and caught.value.path == "options.workers"
    with pytest.raises(assay.AssayError) as caught:
        evaluate_batch(str(data), options={"workers": -1})
    assert caught.value.path == "options.workers"


class Ticks:
    """A clock that advances by ``step`` at each reading (picklable: it goes to workers)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_stats_come_from_the_injected_clock(data):
    clock = Clock(wall=Ticks(2.0), cpu=Ticks(0.5), worker_cpu=Ticks(1.0))
    with ThreadPoolExecutor(1) as pool:  # one thread: the chunks read the clock in turn
        batch = evaluate_batch(
            str(data), options={"executor": pool, "chunk_size": 12, "clock": clock}
        )
    assert batch.stats == RunStats(
        samples=48, wall_seconds=2.0, parent_cpu_seconds=0.5, worker_cpu_seconds=4.0, workers=None
    )
    assert batch.stats.samples_per_second == 24.0 and batch.stats.parent_overhead == 0.125
    assert batch.stats.describe() == (
        "48 samples in 2.00 s: 24 samples/s; parent CPU per sample 12.5% of the workers'"
    )


def test_the_progress_line_shows_count_rate_and_eta():
    stream = io.StringIO()
    progress = ProgressLine(stream, clock=Ticks(1.0), interval=2.5)
    for done in range(1, 11):
        progress(done * 100, 1000)
    assert stream.getvalue().splitlines() == [
        "evaluating 100/1000 (10%) 100 samples/s ETA 0:09",
        "evaluating 400/1000 (40%) 100 samples/s ETA 0:06",
        "evaluating 700/1000 (70%) 100 samples/s ETA 0:03",
        "evaluating 1000/1000 (100%) 100 samples/s",
    ]


def test_the_progress_line_in_a_log_is_written_every_ten_seconds_not_twice_a_second():
    # a CI log (not a terminal) got a line every 0.5 s: 7,200 lines for an hour's run
    stream = io.StringIO()
    progress = ProgressLine(stream, clock=Ticks(1.0))
    for done in range(1, 31):
        progress(done, 30)
    assert [line.split()[1] for line in stream.getvalue().splitlines()] == [
        "1/30",
        "11/30",
        "21/30",
        "30/30",
    ]


TOY_METRICS = ("--metrics", "word_count,truthOverlap")
"""Metrics registered by this plugin's test toys, so the CLI tests also run where the plugin is
installed alone (its default list comes from assay-faithfulness)."""


def eval_cli(*args, stdin=None):
    result = CliRunner().invoke(build_cli(), ["eval", *map(str, args)], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.usefixtures("toy_default_registry")
def test_cli_progress_goes_to_stderr_never_into_json(data):
    code, out, err = eval_cli(data, *TOY_METRICS, "--workers", "2", "--json", "--progress")
    assert code in (0, 1)
    assert "evaluating 48/48 (100%)" in err and "samples/s" in err
    assert "parent CPU per sample" in err
    assert all(json.loads(line) for line in out.splitlines())
    assert "evaluating" not in out


def test_cli_workers_and_scheduler_exclude_each_other(data):
    code, out, err = eval_cli(data, "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786")
    assert code == assay.ExitCode.USAGE and out == ""
    assert "error [INVALID_OPTION] --scheduler: --workers and --scheduler" in err


@pytest.mark.parametrize("address", ["8786", "tcp://", "tcp://host:port", ""])
def test_a_malformed_scheduler_address_is_a_usage_error(data, address):
    code, out, err = eval_cli(data, "--scheduler", address)
    assert code == assay.ExitCode.USAGE and out == "" and "Traceback" not in err
    assert "error [INVALID_OPTION] --scheduler: " in err and "HOST:PORT" in err


@pytest.fixture(scope="module")
def cluster():
    """A one-worker dask cluster on loopback TCP, in this process (quick to start)."""
    distributed = pytest.importorskip(
        "distributed", reason="needs distributed: the assay-evaluation[dask] extra"
    )
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as running:
        yield running


def test_a_dask_cluster_writes_the_same_bytes_and_summary(data, tmp_path, cluster, in_process):
    address = cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    batch, output = _run(
        data, tmp_path / "out.jsonl", scheduler=address, chunk_size=5, keep_results=False
    )
    assert output == in_process[1] and _summary(batch) == _summary(in_process[0])
    assert batch.stats is not None and batch.stats.workers == 1


@pytest.mark.usefixtures("toy_default_registry")
def test_assay_eval_scheduler_runs_on_the_cluster(data, tmp_path, cluster):
    out, serial_out = tmp_path / "out.jsonl", tmp_path / "serial.jsonl"
    code, text, _ = eval_cli(
        data, *TOY_METRICS, "--scheduler", cluster.scheduler_address, "--output", out
    )
    _, serial, _ = eval_cli(data, *TOY_METRICS, "--output", serial_out)
    assert code in (0, 1) and text == serial
    assert out.read_bytes() == serial_out.read_bytes()


def test_an_unreachable_scheduler_is_a_usage_error(data):
    dask = pytest.importorskip("dask", reason="needs the assay-evaluation[dask] extra")

    with dask.config.set({"distributed.comm.timeouts.connect": "0.5s"}):
        code, out, err = eval_cli(data, "--scheduler", "tcp://127.0.0.1:9")
    assert code == assay.ExitCode.USAGE and out == "" and "Traceback" not in err
    assert "error [IO_ERROR] options.scheduler: cannot reach the dask scheduler" in err


@pytest.mark.parametrize("where", [{}, {"workers": 2, "chunk_size": 5}], ids=["here", "workers"])
def test_the_report_from_kept_worst_equals_the_one_from_every_result(data, where):
    every = evaluate_batch(str(data))
    lean = evaluate_batch(str(data), options={"keep_results": False, "keep_worst": 10, **where})
    assert lean.results == () and len(lean.worst_results) == 10
    assert render_html(lean, title="t") == render_html(every, title="t")


@pytest.mark.usefixtures("toy_default_registry")
def test_assay_eval_html_keeps_only_the_worst_samples(data, tmp_path):
    code, out, _ = eval_cli(data, *TOY_METRICS, "--workers", "2", "--html", tmp_path / "lean.html")
    assert code in (0, 1) and "samples" in out
    html = (tmp_path / "lean.html").read_text("utf-8")
    expected = render_html(
        evaluate_batch(str(data), ["word_count", "truthOverlap"]),
        title="assay eval answers.jsonl",
        verdict=None,
    )
    assert html.count("<section") == expected.count("<section") == 10


class Locked:
    """A Metric holding a lock (as a judge holds an HTTP client): it does not pickle."""

    id = "locked_length"
    default_threshold = 0.5
    higher_is_better = True
    requires = frozenset()

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def compute(self, sample, context, threshold):
        with self.lock:
            score = min(1.0, len(sample.answer) / 100)
        return assay.MetricResult(self.id, score, score >= threshold, threshold, "length")


def test_a_thread_pool_shares_a_plan_that_does_not_pickle(data, tmp_path):
    metrics = [Locked()]
    with pytest.raises(TypeError):
        pickle.dumps(metrics[0])
    serial = evaluate_batch(str(data), metrics, {"output": str(tmp_path / "a.jsonl")})
    with ThreadPoolExecutor(2) as pool:
        threaded = evaluate_batch(
            str(data), metrics, {"executor": pool, "output": str(tmp_path / "b.jsonl")}
        )
    assert threaded == serial
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


@pytest.mark.parametrize("count", [200_001, 131_072])
def test_long_tallies_give_the_statistics_of_a_full_sort(count):
    values = [(i * 7919 % 1000) / 1000 for i in range(count)]
    values[5], values[70_000] = -0.0, -0.0  # equal to 0.0: which one a sort puts first shows
    values[9], values[100_000] = 1, 1.0
    expected = summarize("m", values, 0, 0, count)
    got = summarize("m", array("d", values), 0, 0, count)
    assert repr(got) == repr(expected)
