"""Blocks of JSON Lines: the compiled score_block twin gives exactly what the reference gives.

Every computeConfidence input of ../shared/conformance/scorecard/cases.jsonl (read in place) is
written as request lines in every form a stream accepts (bare, wrapped, with an id, with the
stream's config, with NaN literals, with CRLF endings) between lines that must fail (broken
JSON, invalid UTF-8, another config) and blank ones. ``assay._scorecard._speedups.score_block``
must give the same bytes and the same errors (row, line, code, message, path) as
``PURE_SCORE_BLOCK``, and a fully pure process (``ASSAY_PURE_PYTHON=1``) the same again. Each
output line is the wire shape of its row's scorecard. ``read_blocks`` cuts a stream into whole
lines without waiting for more than what is there.
"""

from __future__ import annotations

import base64
import io
import itertools
import json
import os
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import assay
from assay._scorecard import lines
from assay._scorecard.requests import canonical_json
from assay.testing import pure_python_result

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "scorecard"
COMPILED = lines.score_block is not lines.PURE_SCORE_BLOCK
needs_twin = pytest.mark.skipif(
    not COMPILED,
    reason="assay._scorecard._speedups.score_block is not in use (not built: no C compiler at "
    "install time, or ASSAY_PURE_PYTHON is set); tests/test_speedups.py fails when not built",
)


def _vector_lines() -> list[dict[str, Any]]:
    records = []
    for line in (VECTORS / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "fn" not in record:
            records.append(record)
    return records


VECTOR_LINES = _vector_lines()
PLAIN = [record for record in VECTOR_LINES if record["config"] == {}]
OTHER_CONFIG = {"weights": {"grounding": 31}}


def _valid(config: dict[str, Any]) -> bool:
    try:
        assay.create_scorer(assay.from_json_safe(config))
    except assay.AssayError:
        return False
    return True


def _by_config() -> dict[str, list[dict[str, Any]]]:
    """The vectors of every valid non-empty config, keyed by the config's canonical JSON."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in VECTOR_LINES:
        if record["config"] and _valid(record["config"]):
            groups.setdefault(canonical_json(record["config"]), []).append(record)
    return groups


CONFIG_GROUPS = _by_config()
COMMON_CONFIGS = [
    key for key, _ in Counter({k: len(v) for k, v in CONFIG_GROUPS.items()}).most_common(6)
]


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def request_line(form: str, record: dict[str, Any], n: int) -> bytes:
    """One request line for a vector's inputs (tagged non-finite numbers, as in the vectors)."""
    inputs, config = record["inputs"], record["config"]
    if form == "bare":
        return _dumps(inputs)
    if form == "wrapped":
        return _dumps({"inputs": inputs})
    if form == "with id":
        return _dumps({"id": f"row-{n}" if n % 2 else n, "inputs": inputs})
    if form == "with its config":
        return _dumps({"inputs": inputs, "config": config})
    if form == "with its config, keys reversed":
        return _dumps({"config": dict(reversed(config.items())), "inputs": inputs, "id": None})
    if form == "NaN literals":  # json.dumps writes NaN / Infinity for non-finite floats
        return _dumps(assay.from_json_safe(inputs))
    if form == "CRLF":
        return _dumps(inputs) + b"\r"
    if form == "padded":
        return b" \t" + _dumps({"inputs": inputs}) + b"  "
    if form == "another config":
        return _dumps({"inputs": inputs, "config": OTHER_CONFIG})
    raise AssertionError(form)


FORMS = [
    "bare",
    "wrapped",
    "with id",
    "with its config",
    "with its config, keys reversed",
    "NaN literals",
    "CRLF",
    "padded",
    "another config",
]
FAILING_FORMS = {"another config"}

# lines that are not requests: blank ones (not rows, or failing rows when blank lines are rows)
# and broken ones (always failing rows)
NOISE = [
    b"",
    b"{broken",
    b"   ",
    b'{"supportLevel": "high", "query": "caf\xe9"}',  # Latin-1, not UTF-8
    b"\t\r",
    b'{"inputs": }',
    b"\r",
    b"[1, 2]",
    b"\x0b\x0c",
    b'{"inputs": {}, "extra": 1}',
    b"NaN",
]
NOISE_EVERY = 7


def mixed(records: list[dict[str, Any]], forms: list[str]) -> tuple[list[bytes], list[Any]]:
    """Request lines of ``records`` (form by form in turn) with a noise line after every
    ``NOISE_EVERY``; also, per line, ``(vector, form)`` or the noise line itself."""
    out: list[bytes] = []
    sources: list[Any] = []
    noise = itertools.cycle(NOISE)
    for n, (record, form) in enumerate(zip(records, itertools.cycle(forms))):
        out.append(request_line(form, record, n))
        sources.append((record, form))
        if n % NOISE_EVERY == NOISE_EVERY - 1:
            line = next(noise)
            out.append(line)
            sources.append(line)
    return out, sources


def block_of(request_lines: list[bytes], final_newline: bool = True) -> bytes:
    return b"\n".join(request_lines) + (b"\n" if final_newline else b"")


def expected_failures(
    sources: list[Any], scorer: assay.Scorer, skip_blank: bool
) -> list[tuple[int, int]]:
    """``(row, line)`` of every line that must fail, worked out from what each line is."""
    failures = []
    row = 0
    for index, source in enumerate(sources):
        if isinstance(source, bytes):  # noise: a failing row unless a skipped blank line
            if skip_blank and not source.strip():
                continue
            fails = True
        else:
            record, form = source
            fails = form in FAILING_FORMS or _fails(scorer, record["inputs"])
        if fails:
            failures.append((row, index))
        row += 1
    return failures


def _fails(scorer: assay.Scorer, inputs: Any) -> bool:
    try:
        scorer.compute(assay.from_json_safe(inputs))
    except assay.AssayError:
        return True
    return False


def outcome(result: lines.BlockResult) -> tuple[bytes, list[tuple[Any, ...]]]:
    return result.text, [
        (row, line, error.code, error.message, error.path) for row, line, error in result.errors
    ]


def assert_twin_matches(scorer: assay.Scorer, block: bytes, key: str, skip_blank: bool) -> Any:
    twin = lines.score_block(scorer, block, key, skip_blank)
    reference = lines.PURE_SCORE_BLOCK(scorer, block, key, skip_blank)
    assert type(twin) is lines.BlockResult
    twin_text, twin_errors = outcome(twin)
    reference_text, reference_errors = outcome(reference)
    assert twin_errors == reference_errors
    if twin_text != reference_text:
        pairs = zip(twin_text.split(b"\n"), reference_text.split(b"\n"), strict=True)
        first = next(i for i, (a, b) in enumerate(pairs) if a != b)
        pytest.fail(f"output line {first} differs")
    return twin


def config_key(config: Any) -> str:
    return canonical_json(assay.scoring_config_to_wire(config))


@needs_twin
def test_the_twin_is_the_score_block_in_use() -> None:
    speedups = pytest.importorskip("assay._scorecard._speedups")
    assert lines.score_block is speedups.score_block
    assert lines.PURE_SCORE_BLOCK.__module__ == "assay._scorecard.lines"


@needs_twin
@pytest.mark.parametrize("skip_blank", [True, False], ids=["skip blank", "blank is a row"])
@pytest.mark.parametrize("form", FORMS)
def test_twin_matches_reference_on_every_conformance_input(form: str, skip_blank: bool) -> None:
    scorer = assay.create_scorer({})
    request_lines, sources = mixed(PLAIN, [form])
    result = assert_twin_matches(scorer, block_of(request_lines), "{}", skip_blank)
    failures = expected_failures(sources, scorer, skip_blank)
    assert [(row, line) for row, line, _ in result.errors] == failures
    rows = sum(1 for line in request_lines if line.strip() or not skip_blank)
    assert result.text.count(b"\n") == rows
    if form in FAILING_FORMS:
        from_vectors = [e for _, line, e in result.errors if isinstance(sources[line], tuple)]
        assert len(from_vectors) == len(PLAIN)
        assert {(error.code, error.path) for error in from_vectors} == {
            ("INVALID_CONFIG", "config")
        }
    else:
        assert len(failures) < rows // 4  # most rows score


@needs_twin
@pytest.mark.parametrize("key", COMMON_CONFIGS)
def test_twin_matches_reference_with_a_stream_config(key: str) -> None:
    records = CONFIG_GROUPS[key]
    config = assay.from_json_safe(records[0]["config"])
    scorer = assay.create_scorer(config)
    assert config_key(config) == key
    forms = [f for f in FORMS if f != "another config"]
    request_lines = [request_line(form, r, n) for n, r in enumerate(records) for form in forms]
    request_lines += [request_line("wrapped", r, 0)[:-1] + b', "config": {}}' for r in records]
    result = assert_twin_matches(scorer, block_of(request_lines), key, True)
    wrong_config = range(len(records) * len(forms), len(request_lines))
    assert [line for _, line, e in result.errors if e.code == "INVALID_CONFIG"] == list(
        wrong_config
    )


@needs_twin
def test_twin_matches_reference_for_every_config_of_the_vectors() -> None:
    checked = 0
    for key, records in CONFIG_GROUPS.items():
        scorer = assay.create_scorer(assay.from_json_safe(records[0]["config"]))
        request_lines = [request_line("with its config", r, 0) for r in records]
        request_lines += [request_line("NaN literals", r, 0) for r in records]
        assert_twin_matches(scorer, block_of(request_lines), key, True)
        checked += len(request_lines)
    assert checked > 2 * 300


GOOD = _dumps(PLAIN[0]["inputs"])
# a retrieval method named with a lone surrogate escape: the name comes back in a warning path
SURROGATE = (
    b'{"supportLevel": "high", "hasConflict": false, "candidates": [{"retrievalScores": '
    b'{"\\ud800 alone": 1.5, "b": 0.5}, "combinedScore": 0.5}]}'
)

# name: (block, skip_blank, rows, [(row, line) of every error]); rows None: only the twin's
# agreement with the reference is checked
EDGE_BLOCKS: dict[str, tuple[bytes, bool, int | None, list[tuple[int, int]]]] = {
    "empty block": (b"", True, 0, []),
    "empty block, blank lines are rows": (b"", False, None, []),
    "only a newline": (b"\n", True, 0, []),
    "only a newline, blank lines are rows": (b"\n", False, 1, [(0, 0)]),
    "whitespace lines": (b"\n  \n\t\r\n\x0b\x0c\n", True, 0, []),
    "whitespace lines are rows": (
        b"\n  \n\t\r\n\x0b\x0c\n",
        False,
        4,
        [(0, 0), (1, 1), (2, 2), (3, 3)],
    ),
    "CRLF endings": (GOOD + b"\r\n" + GOOD + b"\r\n", True, 2, []),
    "blank CRLF lines": (b"\r\n" + GOOD + b"\r\n\r\n" + GOOD + b"\r\n", True, 2, []),
    "last line without newline": (GOOD + b"\n" + GOOD, True, 2, []),
    "last line CR without newline": (GOOD + b"\n" + GOOD + b"\r", True, 2, []),
    "broken last line without newline": (GOOD + b"\n{broken", True, 2, [(1, 1)]),
    "blank last line without newline": (GOOD + b"\n   ", True, 1, []),
    "blank last line without newline is a row": (GOOD + b"\n   ", False, 2, [(1, 1)]),
    "lines counted across blanks": (
        b"\n\n{broken\n" + GOOD + b"\n\xff\xfe\n\n" + GOOD + b"\n",
        True,
        4,
        [(0, 2), (2, 4)],
    ),
    "lines counted across blanks, blank lines are rows": (
        b"\n\n{broken\n" + GOOD + b"\n\xff\xfe\n\n" + GOOD + b"\n",
        False,
        7,
        [(0, 0), (1, 1), (2, 2), (4, 4), (5, 5)],
    ),
    "invalid UTF-8 in a string": (GOOD[:-1] + b', "query": "\xc3\x28"}\n', True, 1, [(0, 0)]),
    "a NUL byte": (b"\x00\n" + GOOD + b"\n", True, 2, [(0, 0)]),
    "a lone surrogate escape": (SURROGATE + b"\n" + GOOD + b"\n", True, 2, []),
    "a tagged NaN": (GOOD[:-1] + b', "faithfulnessScore": {"$float": "NaN"}}\n', True, 1, []),
    "a NaN literal": (GOOD[:-1] + b', "faithfulnessScore": NaN}\n', True, 1, []),
    "an Infinity literal": (GOOD[:-1] + b', "faithfulnessScore": -Infinity}\n', True, 1, []),
    "a bad tag": (GOOD[:-1] + b', "faithfulnessScore": {"$float": "nan"}}\n', True, 1, []),
    "another config": (
        b'{"inputs": ' + GOOD + b', "config": {"validation": "warn"}}',
        True,
        1,
        [(0, 0)],
    ),
    "the stream config": (b'{"inputs": ' + GOOD + b', "config": {}, "id": 7}', True, 1, []),
    "a null config": (b'{"inputs": ' + GOOD + b', "config": null}', True, 1, []),
    "inputs not an object": (b'{"inputs": [1]}\n{"inputs": null}\n', True, 2, [(0, 0), (1, 1)]),
    "a JSON string line": (b'"text"\n', True, 1, [(0, 0)]),
}


@pytest.mark.parametrize("name", EDGE_BLOCKS)
def test_edge_blocks_give_their_rows_and_the_twin_matches_the_reference(name: str) -> None:
    block, skip_blank, rows, errors = EDGE_BLOCKS[name]
    scorer = assay.create_scorer({})
    if COMPILED:
        result = assert_twin_matches(scorer, block, "{}", skip_blank)
    else:  # the reference alone (the twin's agreement is skipped elsewhere, with the reason)
        result = lines.score_block(scorer, block, "{}", skip_blank)
    if rows is not None:
        assert result.text.count(b"\n") == rows
        assert [(row, line) for row, line, _ in result.errors] == errors


def test_error_messages_say_what_is_wrong_with_the_line() -> None:
    block = block_of(
        [
            b"{broken",
            b'{"query": "caf\xe9"}',
            _dumps({"inputs": PLAIN[0]["inputs"], "config": OTHER_CONFIG}),
            b'{"inputs": {}, "extra": 1, "more": 2}',
            b"[1]",
        ]
    )
    result = lines.score_block(assay.create_scorer({}), block, "{}")
    got = [(e.code, e.path, e.message) for _, _, e in result.errors]
    assert got[0][:2] == ("MALFORMED_INPUT", None) and got[0][2].startswith("not valid JSON: ")
    assert got[1][:2] == ("MALFORMED_INPUT", None) and got[1][2].startswith("not valid UTF-8: ")
    assert got[2] == (
        "INVALID_CONFIG",
        "config",
        "every line of a stream is scored with one config; pass it once for the stream "
        "(this line's config differs)",
    )
    assert got[3] == (
        "MALFORMED_INPUT",
        "extra",
        "unknown key(s) extra, more; expected inputs, config and optional id",
    )
    assert got[4] == ("MALFORMED_INPUT", None, "a line must be a JSON object")
    assert result.text == b"\n" * 5


@pytest.mark.parametrize("skip_blank", [True, False], ids=["skip blank", "blank is a row"])
def test_each_output_line_is_the_wire_shape_of_its_row(skip_blank: bool) -> None:
    scorer = assay.create_scorer({})
    request_lines, sources = mixed(PLAIN * 2, FORMS)
    result = lines.score_block(
        scorer, block_of(request_lines, final_newline=False), "{}", skip_blank
    )
    out = result.text.split(b"\n")
    assert out.pop() == b""  # every output line ends with a newline
    failed = {row for row, _, _ in result.errors}
    assert [(row, line) for row, line, _ in result.errors] == expected_failures(
        sources, scorer, skip_blank
    )
    row = 0
    scored = 0
    for line, source in zip(request_lines, sources, strict=True):
        if skip_blank and not line.strip():
            continue
        if row in failed:
            assert out[row] == b"", row
        else:
            record, _ = source
            card = scorer.compute(assay.from_json_safe(record["inputs"]))
            assert json.loads(out[row]) == assay.to_json_safe(assay.scorecard_to_wire(card)), row
            scored += 1
        row += 1
    assert row == len(out) and scored > 300


def test_a_lone_surrogate_is_written_back_as_its_escape() -> None:
    scorer = assay.create_scorer({})
    result = lines.score_block(scorer, SURROGATE + b"\n", "{}")
    assert result.errors == []
    assert b'"path":"candidates[0].retrievalScores.\\ud800 alone"' in result.text
    card = scorer.compute(json.loads(SURROGATE))
    assert json.loads(result.text) == assay.to_json_safe(assay.scorecard_to_wire(card))


def score_mixed_blocks() -> list[Any]:
    """Text (base64) and errors of mixed blocks, with and without skipping blank lines, and a
    block with a stream config; run here and in a fully pure process."""
    results = []
    scorer = assay.create_scorer({})
    request_lines, _ = mixed(PLAIN, FORMS)
    for skip_blank in (True, False):
        result = lines.score_block(scorer, block_of(request_lines), "{}", skip_blank)
        text, errors = outcome(result)
        results.append([base64.b64encode(text).decode(), errors])
    for key in COMMON_CONFIGS[:3]:
        records = CONFIG_GROUPS[key]
        scorer = assay.create_scorer(assay.from_json_safe(records[0]["config"]))
        request_lines, _ = mixed(records, FORMS)
        text, errors = outcome(lines.score_block(scorer, block_of(request_lines), key))
        results.append([base64.b64encode(text).decode(), errors])
    return results


def score_mixed_blocks_pure() -> list[Any]:
    """:func:`score_mixed_blocks` in the ASSAY_PURE_PYTHON=1 process, which must be using the
    reference."""
    assert lines.score_block is lines.PURE_SCORE_BLOCK
    return score_mixed_blocks()


@needs_twin
def test_twin_matches_a_fully_pure_process() -> None:
    expected = pure_python_result(__file__, "score_mixed_blocks_pure", timeout=120)
    actual = json.loads(json.dumps(score_mixed_blocks()))
    assert len(actual) == len(expected) == 5
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        assert got[1] == want[1], index
        assert base64.b64decode(got[0]) == base64.b64decode(want[0]), index


# ------------------------------------------------------------------------------- read_blocks

LONG = b'{"query": "' + b"x" * 5000 + b'"}\n'
STREAM = (
    b"".join(
        [
            b"{}\n",
            b"\n",
            b'{"a": 1}\r\n',
            LONG,
            *(request_line("bare", r, 0) + b"\n" for r in PLAIN[:40]),
        ]
    )
    + b'{"last": "no newline"}'
)


@pytest.mark.parametrize("size", [1, 7, 64, 300, 4096, 1 << 16])
def test_read_blocks_ends_blocks_at_newlines_and_loses_nothing(size: int) -> None:
    blocks = list(lines.read_blocks(io.BytesIO(STREAM), size))
    assert b"".join(blocks) == STREAM
    assert all(block.endswith(b"\n") for block in blocks[:-1])
    assert blocks[-1].endswith(b'{"last": "no newline"}')
    assert sum(LONG in block for block in blocks) == 1  # a line longer than size is whole
    for block in blocks:
        if max(len(line) for line in block.splitlines(keepends=True)) <= size:
            assert len(block) < 2 * size  # about size: what was read, up to its last newline
    if size == 1:
        assert blocks == STREAM.splitlines(keepends=True)
    if size == 1 << 16:  # all of it in one read: its lines, then the unended last line
        cut = STREAM.rindex(b"\n") + 1
        assert blocks == [STREAM[:cut], STREAM[cut:]]


def test_read_blocks_of_nothing_is_no_block() -> None:
    assert list(lines.read_blocks(io.BytesIO(b""), 100)) == []


def test_read_blocks_reads_a_source_without_read1() -> None:
    class Plain:
        def __init__(self, data: bytes) -> None:
            self.data = io.BytesIO(data)
            self.sizes: list[int] = []

        def read(self, size: int = -1) -> bytes:
            self.sizes.append(size)
            return self.data.read(size)

    source = Plain(STREAM)
    blocks = list(lines.read_blocks(source, 300))  # type: ignore[arg-type]
    assert b"".join(blocks) == STREAM
    assert all(block.endswith(b"\n") for block in blocks[:-1])
    assert set(source.sizes) == {300}


def test_read_blocks_yields_each_line_of_a_pipe_as_it_comes() -> None:
    read_end, write_end = os.pipe()
    first = b'{"first": 1}\n'
    long_line = b'{"second": "' + b"y" * 3000 + b'"}\n'
    may_go_on = threading.Event()
    closed = threading.Event()

    def writer() -> None:
        with os.fdopen(write_end, "wb", buffering=0) as pipe:
            pipe.write(first)
            may_go_on.wait(timeout=10)
            pipe.write(long_line[:1000])  # half a line: must not be yielded alone
            may_go_on.clear()
            may_go_on.wait(timeout=0.2)
            pipe.write(long_line[1000:])
        closed.set()

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with os.fdopen(read_end, "rb") as source:
        blocks = lines.read_blocks(source, 65536)
        assert next(blocks) == first
        assert not closed.is_set(), "the first line was only yielded once the writer closed"
        may_go_on.set()
        assert next(blocks) == long_line
        assert list(blocks) == []
    thread.join(timeout=10)
    assert closed.is_set()
