"""A JSON Lines file cut into byte ranges that workers read and number themselves: the ranges
hold exactly the lines that reading the file line by line gives, with their numbers, whatever
the chunk size, and a run writes the same bytes and errors whatever the workers and chunks."""

from __future__ import annotations

import json
import pickle
from multiprocessing.reduction import ForkingPickler
from pathlib import Path

import pytest
from test_evaluation_toys import TruthOverlap, WordCount

import assay
from assay_evaluation import batch_to_wire, evaluate_batch
from assay_evaluation._shard import chunk_jobs
from assay_evaluation._spans import BOM, line_spans, numbered

METRICS = [WordCount(), TruthOverlap()]


def _sample(index: int, **extra) -> bytes:
    row = {"question": f"q{index}", "answer": f"answer {index} " * (index % 4 + 1), **extra}
    row.setdefault("contexts", [f"answer {index}"])
    row.setdefault("groundTruth", f"answer {index}")
    if index % 5:
        row["id"] = f"s{index}"  # every fifth sample is keyed by its position
    return json.dumps(row).encode()


HUGE = _sample(99, contexts=["x" * 300_000])
"""A line longer than any first guess of a range's size (and than the 64 KiB sniffed)."""

CONTENTS = {
    "empty": b"",
    "only blank lines": b"\n \n\t\r\n\x0b\x0c\n",
    "lf": b"\n".join(_sample(i) for i in range(12)) + b"\n",
    "no trailing newline": b"\n".join(_sample(i) for i in range(7)),
    "crlf and blank lines": b"\r\n".join(
        [_sample(0), b"", _sample(1), b"  ", _sample(2), b"\r", b"", _sample(3), _sample(4)]
    )
    + b"\r\n",
    "bom": BOM + b"\n".join(_sample(i) for i in range(5)) + b"\n",
    "bom alone on line 1": BOM + b"\n" + _sample(0) + b"\n\n" + _sample(1) + b"\n",
    "blank last line without newline": _sample(0) + b"\n" + _sample(1) + b"\n \t ",
    "one huge line": HUGE,
    "a huge line among others": b"\n".join(
        [_sample(0), b"", HUGE, _sample(1), b" ", _sample(2), HUGE, _sample(3)]
    ),
}


def _write(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "samples.jsonl"
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("name", CONTENTS)
@pytest.mark.parametrize("rows", [1, 2, 3, 1000])
@pytest.mark.parametrize("line_bytes", [1, 64, 1 << 20], ids=["1B", "64B", "1MiB"])
def test_ranges_hold_the_numbered_lines_of_the_file(tmp_path, name, rows, line_bytes):
    path = _write(tmp_path, CONTENTS[name])
    with path.open("rb") as handle:
        expected = list(numbered(handle))  # line by line, as a file iterates
    with path.open("rb") as handle:
        spans = list(line_spans(handle, str(path), rows, line_bytes))
    found = [pair for span, _ in spans for pair in span.numbered()]
    assert found == expected
    assert [len(list(span.numbered())) for span, _ in spans] == [count for _, count in spans]
    assert all(count == rows for _, count in spans[:-1])
    assert all(span.data.endswith(b"\n") for span, _ in spans[:-1])
    assert all(span.data == CONTENTS[name][span.begin : span.end] for span, _ in spans)


@pytest.mark.parametrize("name", ["crlf and blank lines", "a huge line among others"])
def test_a_local_process_reads_its_range_from_the_file(tmp_path, name):
    path = _write(tmp_path, CONTENTS[name])
    with path.open("rb") as handle:
        spans = [span for span, _ in line_spans(handle, str(path), 2, 10)]
    for span in spans:
        local = pickle.loads(ForkingPickler.dumps(span))  # how a process pool sends it
        assert local.data is None and local == span
        assert list(local.numbered()) == list(span.numbered())
        assert pickle.loads(pickle.dumps(span)).data == span.data  # dask, other executors


def test_a_file_changed_under_the_workers_is_an_io_error(tmp_path):
    path = _write(tmp_path, CONTENTS["lf"])
    with path.open("rb") as handle:
        span, _ = next(line_spans(handle, str(path), 3, 64))
    local = pickle.loads(ForkingPickler.dumps(span))
    with path.open("ab") as handle:
        handle.write(_sample(50) + b"\n")
    with pytest.raises(assay.AssayError) as caught:
        list(local.numbered())
    assert caught.value.code == "IO_ERROR" and caught.value.path == str(path)
    assert "changed while it was being evaluated" in caught.value.message


@pytest.mark.parametrize("size", [1, 4, 128])
def test_chunks_number_their_rows_from_the_start_of_the_file(tmp_path, size):
    path = _write(tmp_path, CONTENTS["a huge line among others"])
    jobs, total = chunk_jobs(str(path), None, size)
    starts = [job.start for job in jobs]
    assert total == 6
    assert starts == list(range(0, 6, size))


def _outcome(path: Path, tmp_path: Path, **options) -> tuple[str, bytes] | tuple[str, str]:
    """What a run leaves: the summary and the output file, or the error it raised."""
    out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}.jsonl"
    try:
        batch = evaluate_batch(
            str(path), METRICS, {"output": str(out), "keep_results": False, **options}
        )
    except assay.AssayError as error:
        return "error", f"{error.code} {error.path}: {error.message}"
    wire = batch_to_wire(batch, with_results=False)
    return json.dumps(wire, sort_keys=True), out.read_bytes()


@pytest.mark.parametrize(
    "name",
    ["empty", "crlf and blank lines", "bom alone on line 1", "a huge line among others"],
)
def test_workers_and_chunks_write_the_bytes_one_process_writes(tmp_path, name):
    path = _write(tmp_path, CONTENTS[name])
    expected = _outcome(path, tmp_path)
    for workers, size in [(1, 1), (2, 1), (2, 3), (2, 128)]:
        assert _outcome(path, tmp_path, workers=workers, chunk_size=size) == expected


@pytest.mark.parametrize("size", [1, 2, 5])
def test_a_bad_line_is_named_by_its_number(tmp_path, size):
    lines = [BOM + _sample(0), b"", _sample(1), b"  ", _sample(2), b"{not json}", _sample(3)]
    broken = _write(tmp_path, b"\r\n".join(lines) + b"\r\n")
    assert _outcome(broken, tmp_path, workers=2, chunk_size=size) == (
        "error",
        "MALFORMED_INPUT line 6: not valid JSON: Expecting property name enclosed in double quotes",
    )
    lines[5] = b'{"question": "q", "contexts": []}'
    missing = _write(tmp_path, b"\r\n".join(lines))
    expected = _outcome(missing, tmp_path)
    assert expected[1].startswith("MISSING_ANSWER line 6.answer: ")
    assert _outcome(missing, tmp_path, workers=2, chunk_size=size) == expected


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("\u00a0\u00a0".encode(), "not valid JSON: Expecting value"),  # no JSON white space
        (b'{"question": "q', "not valid JSON: Unterminated string starting at"),
        (b"\x0c\t ", None),  # blank: what bytes.isspace() accepts
    ],
    ids=["unicode spaces", "unterminated string", "ascii spaces"],
)
def test_one_process_and_workers_read_every_line_alike(tmp_path, line, message):
    path = _write(tmp_path, b"\n".join([_sample(0), line, _sample(1)]) + b"\n")
    expected = _outcome(path, tmp_path)
    if message is None:
        assert expected[0] != "error"
    else:
        assert expected[0] == "error"
        assert expected[1].startswith(f"MALFORMED_INPUT line 2: {message}")
    for size in (1, 3):
        assert _outcome(path, tmp_path, workers=2, chunk_size=size) == expected
