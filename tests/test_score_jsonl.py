"""score_jsonl and `assay score --jsonl` end to end: the same bytes on every execution path.

About a thousand request lines made from the computeConfidence inputs of
../shared/conformance/scorecard/cases.jsonl (read in place), in every request form, with bad,
blank and CRLF lines among them, are scored in this process, by the forked worker ring writing
straight to a file, by a process pool (a sink without a file descriptor) and on a thread
executor: the output must be the same bytes, one line per request, errors in place with their
1-based input line. Bad arguments fail before anything is read; a sink nobody reads fails with
IO_ERROR instead of hanging.
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import os
import select
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from shared_data import shared_path

import assay
import assay.wire
import assay_scorecard

# some requests carry an ill-typed field on purpose: the FieldWarning it gives is tested where
# it is the subject (assay-scorecard's test_field_checks.py) and noise here
pytestmark = pytest.mark.filterwarnings("ignore::assay_scorecard.field_checks.FieldWarning")

ROOT = Path(__file__).resolve().parents[1]
VECTORS = shared_path("conformance", "scorecard")


def _plain_vectors() -> list[dict[str, Any]]:
    records = []
    for line in (VECTORS / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "fn" not in record and record["config"] == {}:
            records.append(record)
    return records


PLAIN = _plain_vectors()
STRICT = {"validation": "strict"}


def _request(n: int, record: dict[str, Any]) -> bytes:
    inputs = record["inputs"]
    form = n % 6
    if form == 0:
        value: Any = inputs
    elif form == 1:
        value = {"inputs": inputs}
    elif form == 2:
        value = {"inputs": inputs, "id": f"row-{n}"}
    elif form == 3:
        value = {"inputs": inputs, "config": {}}
    elif form == 4:  # NaN / Infinity literals where the vector has tagged numbers
        value = assay.wire.from_json_safe(inputs)
    else:
        return json.dumps(inputs).encode() + b"\r"  # a CRLF line
    return json.dumps(value).encode()


# 0-based input line -> a line that is not a request (blank) or fails (bad)
BLANK = {0: b"", 5: b"   ", 6: b"\r", 400: b"\t", 401: b""}
BAD = {
    17: b"{broken",
    230: b'{"supportLevel": "high", "query": "caf\xe9"}',
    500: json.dumps({"inputs": PLAIN[1]["inputs"], "config": STRICT}).encode(),
    640: b'{"inputs": {}, "extra": 1}',
    777: b"[1]",
    998: b"NaN",
}
SIZE = 1000


def _build() -> tuple[list[bytes], list[dict[str, Any] | None]]:
    """The input lines and, for each, the vector it asks to score (None: blank or bad)."""
    out: list[bytes] = []
    vectors: list[dict[str, Any] | None] = []
    n = 0
    for index in range(SIZE):
        special = BLANK.get(index, BAD.get(index))
        if special is not None:
            out.append(special)
            vectors.append(None)
            continue
        record = PLAIN[n % len(PLAIN)]
        out.append(_request(n, record))
        vectors.append(record)
        n += 1
    return out, vectors


LINES, LINE_VECTORS = _build()
INPUT = b"\n".join(LINES)  # the last line has no newline
ROWS = SIZE - len(BLANK)
# the bad lines and the requests whose inputs the vectors say are refused
FAILING_LINES = sorted(
    [index + 1 for index in BAD]
    + [i + 1 for i, r in enumerate(LINE_VECTORS) if r is not None and "error" in r["expected"]]
)
PATHS = ["in process", "worker ring", "process pool", "thread executor"]


def run(
    path: str,
    tmp_path: Path,
    source: bytes = INPUT,
    config: Any = None,
    block_size: int = 1 << 16,
) -> tuple[bytes, assay_scorecard.JsonlSummary]:
    """Score ``source`` on one execution path; the output bytes and the summary."""
    if path == "worker ring":
        target = tmp_path / f"out-{block_size}.jsonl"
        with open(target, "wb") as sink:
            summary = assay_scorecard.score_jsonl(
                io.BytesIO(source),
                sink,
                config,
                workers=2,
                block_size=block_size,
                count_actions=True,
            )
        return target.read_bytes(), summary
    memory = io.BytesIO()
    if path == "thread executor":
        with ThreadPoolExecutor(2) as pool:
            summary = assay_scorecard.score_jsonl(
                io.BytesIO(source),
                memory,
                config,
                block_size=block_size,
                executor=pool,
                count_actions=True,
            )
    else:
        workers = 1 if path == "in process" else 2
        summary = assay_scorecard.score_jsonl(
            io.BytesIO(source),
            memory,
            config,
            workers=workers,
            block_size=block_size,
            count_actions=True,
        )
    return memory.getvalue(), summary


@pytest.fixture(scope="module")
def serial() -> tuple[bytes, assay_scorecard.JsonlSummary]:
    sink = io.BytesIO()
    summary = assay_scorecard.score_jsonl(io.BytesIO(INPUT), sink)
    return sink.getvalue(), summary


def _output_lines(text: bytes) -> list[dict[str, Any]]:
    assert text.endswith(b"\n")
    return [json.loads(line) for line in text[:-1].split(b"\n")]


def test_one_output_line_per_request_in_input_order(
    serial: tuple[bytes, assay_scorecard.JsonlSummary],
) -> None:
    text, summary = serial
    assert (summary.rows, summary.failed, summary.workers) == (ROWS, len(FAILING_LINES), 0)
    assert summary.first_error is not None and summary.first_error["line"] == FAILING_LINES[0]
    assert summary.actions == {}  # counted only when asked
    counted = assay_scorecard.score_jsonl(io.BytesIO(INPUT), io.BytesIO(), count_actions=True)
    assert sum(counted.actions.values()) == ROWS - len(FAILING_LINES)  # one per scorecard
    assert ROWS > 990 and 6 < len(FAILING_LINES) < 30
    out = _output_lines(text)
    assert len(out) == ROWS
    scorer = assay_scorecard.create_scorer({})
    requests = [i for i, line in enumerate(LINES) if line.strip()]
    errors = []
    for record, index in zip(out, requests, strict=True):
        if "error" in record:
            errors.append(record["error"]["line"])
            assert record["error"]["line"] == index + 1
            continue
        vector = LINE_VECTORS[index]
        assert vector is not None
        card = scorer.compute(assay.wire.from_json_safe(vector["inputs"]))
        assert record == assay.wire.to_json_safe(assay_scorecard.scorecard_to_wire(card)), index + 1
    assert errors == FAILING_LINES


def test_error_records_name_code_message_path_and_1_based_line(
    serial: tuple[bytes, assay_scorecard.JsonlSummary],
) -> None:
    out = _output_lines(serial[0])
    requests = [i + 1 for i, line in enumerate(LINES) if line.strip()]
    by_line = {line: record for line, record in zip(requests, out, strict=True)}
    errors = {line: by_line[line]["error"] for line in FAILING_LINES}
    assert all(list(error) == ["code", "message", "path", "line"] for error in errors.values())
    assert all(list(by_line[line]) == ["error"] for line in FAILING_LINES)
    broken = errors[18]
    assert (broken["code"], broken["path"], broken["line"]) == ("MALFORMED_INPUT", None, 18)
    assert broken["message"].startswith("line 18: not valid JSON: ")
    assert errors[231]["message"].startswith("line 231: not valid UTF-8: ")
    assert errors[501] == {
        "code": "INVALID_CONFIG",
        "message": "every line of a stream is scored with one config; pass it once for the "
        "stream (this line's config differs)",
        "path": "config",
        "line": 501,
    }
    assert errors[641] == {
        "code": "MALFORMED_INPUT",
        "message": "unknown key(s) extra; expected inputs, config and optional id",
        "path": "extra",
        "line": 641,
    }
    assert errors[778] == {
        "code": "MALFORMED_INPUT",
        "message": "line 778: a line must be a JSON object",
        "path": None,
        "line": 778,
    }
    refused = [line for line in FAILING_LINES if line - 1 not in BAD]
    assert refused and all(errors[line]["code"] == "MALFORMED_INPUT" for line in refused)
    assert all(errors[line]["path"] is not None for line in refused)  # the field at fault
    assert all(not errors[line]["message"].startswith("line ") for line in refused)


@pytest.mark.parametrize("block_size", [1 << 16, 300], ids=["64 KiB blocks", "300 B blocks"])
@pytest.mark.parametrize("path", PATHS)
def test_every_execution_path_writes_the_same_bytes(
    path: str, block_size: int, tmp_path: Path, serial: tuple[bytes, assay_scorecard.JsonlSummary]
) -> None:
    text, summary = run(path, tmp_path, block_size=block_size)
    assert text == serial[0]
    assert (summary.rows, summary.failed) == (ROWS, len(FAILING_LINES))
    # the first failure and the action counts do not depend on how the work was split
    assert summary.first_error == serial[1].first_error
    actions = [card.get("recommendedAction") for card in _output_lines(serial[0])]
    assert summary.actions == {a: actions.count(a) for a in set(actions) - {None}}
    if path in ("worker ring", "process pool"):
        assert summary.workers == 2


def test_ring_flushes_what_the_sink_held_and_leaves_it_usable(
    tmp_path: Path, serial: tuple[bytes, assay_scorecard.JsonlSummary]
) -> None:
    target = tmp_path / "out.jsonl"
    with open(target, "wb") as sink:
        sink.write(b"header\n")  # still in the sink's buffer when the workers start writing
        summary = assay_scorecard.score_jsonl(io.BytesIO(INPUT), sink, workers=2, block_size=4096)
        sink.write(b"trailer\n")
    assert summary.workers == 2
    assert target.read_bytes() == b"header\n" + serial[0] + b"trailer\n"


@pytest.mark.parametrize("path", PATHS)
def test_empty_and_blank_input_write_nothing(path: str, tmp_path: Path) -> None:
    for source in (b"", b"\n\n  \r\n\t"):
        text, summary = run(path, tmp_path, source=source)
        assert text == b""
        assert (summary.rows, summary.failed) == (0, 0)


@pytest.mark.parametrize("path", ["in process", "worker ring", "process pool"])
def test_stream_config_is_the_one_lines_may_repeat(path: str, tmp_path: Path) -> None:
    good = PLAIN[0]["inputs"]
    refused = next(r for r in PLAIN if r["inputs"].get("documentsSilent") is True)["inputs"]
    source = b"\n".join(
        json.dumps(value).encode()
        for value in [
            good,
            {"inputs": good, "config": STRICT},
            {"inputs": good, "config": {}},
            {"inputs": good},
            refused,
        ]
    )
    config = assay_scorecard.scoring_config_from_wire(
        STRICT
    )  # a typed config: its wire shape is the key
    text, summary = run(path, tmp_path, source=source, config=config)
    assert (summary.rows, summary.failed) == (5, 2)
    out = _output_lines(text)
    card = assay_scorecard.create_scorer(STRICT).compute(assay.wire.from_json_safe(good))
    wire = assay.wire.to_json_safe(assay_scorecard.scorecard_to_wire(card))
    assert out[0] == out[1] == out[3] == wire
    assert (out[2]["error"]["code"], out[2]["error"]["line"]) == ("INVALID_CONFIG", 3)
    assert (out[4]["error"]["code"], out[4]["error"]["path"]) == (
        "INVALID_INPUT",
        "documentsSilent",
    )


class Unread(io.RawIOBase):
    """A source that must not be read."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise AssertionError("the source was read")


UNREAD: Any = Unread()


@pytest.mark.parametrize("path", PATHS)
def test_a_bad_config_fails_before_anything_is_read_or_written(path: str, tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    with open(target, "wb") as file_sink, ThreadPoolExecutor(2) as pool:
        sink: Any = file_sink if path == "worker ring" else io.BytesIO()
        options: dict[str, Any] = {"workers": 1 if path == "in process" else 2}
        if path == "thread executor":
            options = {"executor": pool}
        with pytest.raises(assay.AssayError) as caught:
            assay_scorecard.score_jsonl(UNREAD, sink, {"weights": {"grounding": 0}}, **options)
        if sink is not file_sink:
            assert sink.getvalue() == b""
    assert target.read_bytes() == b""
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "weights.grounding")


@pytest.mark.parametrize(
    "options", [{"workers": -1}, {"block_size": 0}, {"block_size": -5, "workers": 2}]
)
def test_workers_and_block_size_out_of_range_are_invalid_config(options: dict[str, Any]) -> None:
    sink = io.BytesIO()
    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.score_jsonl(UNREAD, sink, **options)
    assert caught.value.code == "INVALID_CONFIG"
    assert sink.getvalue() == b""


# ------------------------------------------------------------------------------------- CLI


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "assay._cli.main_module", "score", "--jsonl", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def test_cli_workers_print_the_same_bytes_and_exit_2_when_a_line_failed(
    tmp_path: Path, serial: tuple[bytes, assay_scorecard.JsonlSummary]
) -> None:
    source = tmp_path / "requests.jsonl"
    source.write_bytes(INPUT)
    parallel = cli("--workers", "2", str(source))
    one = cli("--workers", "1", str(source))
    assert parallel.returncode == one.returncode == 2, parallel.stderr
    assert parallel.stdout == one.stdout == serial[0]


def test_cli_exits_0_when_every_line_scored_and_reads_stdin(tmp_path: Path) -> None:
    pairs = zip(LINES, LINE_VECTORS, strict=True)
    good = [line for line, vector in pairs if vector and "error" not in vector["expected"]][:200]
    text = b"\n".join(good) + b"\n"
    source = tmp_path / "good.jsonl"
    source.write_bytes(text)
    from_file = cli("--workers", "2", str(source))
    from_stdin = cli("--workers", "2", "-", stdin=text)
    assert from_file.returncode == from_stdin.returncode == 0, from_file.stderr
    assert from_stdin.stdout == from_file.stdout
    expected, summary = run("in process", tmp_path, source=text)
    assert summary.failed == 0 and summary.rows == 200
    assert from_file.stdout == expected


@pytest.mark.parametrize("workers", ["1", "2"])
def test_cli_whose_reader_goes_away_reports_io_error(tmp_path: Path, workers: str) -> None:
    source = tmp_path / "requests.jsonl"
    source.write_bytes(INPUT * 4)
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "assay._cli.main_module"),
            *("score", "--jsonl", "--workers", workers, str(source)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdout is not None
    assert process.stdout.read(100).startswith(b"{")
    process.stdout.close()
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 2
    assert b"error [IO_ERROR] cannot write the output: the reader closed it" in stderr


# ---------------------------------------------------------------------------- broken sinks


class FdWriter(io.RawIOBase):
    """A sink that writes to a descriptor it does not expose (so the process pool path)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return os.write(self.fd, data)


def start(function: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    """Run ``function`` on a thread; the dict gets its "result" or "error"."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["result"] = function()
        except BaseException as error:  # the test inspects it
            outcome["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, outcome


def finish(thread: threading.Thread, timeout: float, what: str) -> None:
    """Fail, after ending the ring's workers so the thread ends too, if ``thread`` still runs
    after ``timeout`` seconds."""
    thread.join(timeout)
    if thread.is_alive():
        for child in multiprocessing.active_children():
            if child.name.startswith("assay-score-"):
                child.terminate()
        thread.join(10)
        pytest.fail(f"score_jsonl still running {timeout} s after {what}")


def in_thread(function: Callable[[], Any], timeout: float = 10) -> dict[str, Any]:
    """What ``function`` returned or raised; fails if it does not end in time."""
    thread, outcome = start(function)
    finish(thread, timeout, "it started")
    return outcome


def io_error(outcome: dict[str, Any]) -> assay.AssayError:
    """The IO_ERROR an :func:`in_thread` outcome must hold."""
    error = outcome.get("error")
    assert isinstance(error, assay.AssayError), outcome
    assert error.code == "IO_ERROR"
    return error


@pytest.mark.parametrize("path", PATHS)
def test_a_sink_whose_reader_is_gone_is_an_io_error(path: str) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    sink: Any = FdWriter(write_end) if path == "process pool" else os.fdopen(write_end, "wb")
    options: dict[str, Any] = {"workers": 1 if path == "in process" else 2}

    def score() -> assay_scorecard.JsonlSummary:
        if path == "thread executor":
            with ThreadPoolExecutor(2) as pool:
                return assay_scorecard.score_jsonl(
                    io.BytesIO(INPUT), sink, block_size=4096, executor=pool
                )
        return assay_scorecard.score_jsonl(io.BytesIO(INPUT), sink, block_size=4096, **options)

    try:
        outcome = in_thread(score)
    finally:
        with contextlib.suppress(OSError):
            sink.close()
        with contextlib.suppress(OSError):
            os.close(write_end)
    error = io_error(outcome)
    assert error.message == "cannot write the output: the reader closed it"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_closed_sink_is_an_io_error(workers: int) -> None:
    sink = io.BytesIO()
    sink.close()
    outcome = in_thread(
        lambda: assay_scorecard.score_jsonl(io.BytesIO(INPUT), sink, workers=workers)
    )
    io_error(outcome)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_reader_of_this_process_that_stops_part_way_is_an_io_error(workers: int) -> None:
    read_end, write_end = os.pipe()
    sink = os.fdopen(write_end, "wb")

    def score() -> assay_scorecard.JsonlSummary:
        return assay_scorecard.score_jsonl(
            io.BytesIO(INPUT * 4), sink, workers=workers, block_size=4096
        )

    def read_a_little_then_close() -> None:
        os.read(read_end, 1000)
        os.close(read_end)

    reader = threading.Thread(target=read_a_little_then_close, daemon=True)
    reader.start()
    try:
        outcome = in_thread(score)
    finally:
        reader.join(10)
        with contextlib.suppress(OSError):
            sink.close()
    io_error(outcome)


# --------------------------------------------------------------------- lines as they come


@pytest.mark.parametrize("workers", [1, 2])
def test_lines_fed_through_a_pipe_are_scored_as_they_arrive(workers: int) -> None:
    source_read, source_write = os.pipe()
    sink_read, sink_write = os.pipe()
    requests = [line for line, vector in zip(LINES, LINE_VECTORS, strict=True) if vector][:3]
    expected, _ = run("in process", Path(), source=b"\n".join(requests))
    expected_lines = expected.splitlines(keepends=True)

    def score() -> assay_scorecard.JsonlSummary:
        with os.fdopen(source_read, "rb") as source, os.fdopen(sink_write, "wb") as sink:
            return assay_scorecard.score_jsonl(source, sink, workers=workers)

    scoring, outcome = start(score)
    received = b""
    try:
        for request, want in zip(requests, expected_lines, strict=True):
            os.write(source_write, request + b"\n")
            while not received.endswith(b"\n"):
                ready, _, _ = select.select([sink_read], [], [], 10)
                assert ready, "a line was not scored before the next one came"
                received += os.read(sink_read, 1 << 16)
            assert received == want
            received = b""
    finally:
        os.close(source_write)
        try:
            finish(scoring, 5, "its source was closed")
        finally:
            os.close(sink_read)
    result = outcome.get("result")
    assert isinstance(result, assay_scorecard.JsonlSummary), outcome
    assert (result.rows, result.failed, result.workers, result.first_error) == (3, 0, workers, None)


def test_a_line_nested_too_deep_is_an_error_record_not_the_end_of_the_stream() -> None:
    good = LINES[1]
    assert LINE_VECTORS[1] is not None
    source = good + b"\n" + b"[" * 5000 + b"]" * 5000 + b"\n" + good + b"\n"
    sink = io.BytesIO()
    summary = assay_scorecard.score_jsonl(io.BytesIO(source), sink)
    out = _output_lines(sink.getvalue())
    assert (summary.rows, summary.failed, summary.workers) == (3, 1, 0)
    assert summary.first_error is not None and summary.first_error["line"] == 2
    assert (out[1]["error"]["code"], out[1]["error"]["line"]) == ("MALFORMED_INPUT", 2)
    assert out[0] == out[2] and "total" in out[0]
