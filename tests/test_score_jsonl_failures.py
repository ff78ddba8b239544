"""score_jsonl when a line makes scoring raise something unexpected, or a worker dies.

Every line must get its scorecard or its error record, in input order, whatever the number of
workers; a worker that dies is reported as WORKER_DIED instead of being waited on forever. The
harness bounds every run with a subprocess timeout (a hang fails the test as TimeoutExpired).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD = (ROOT / "examples" / "data" / "answers.jsonl").read_bytes().splitlines()
# a list where a string belongs (used as a dict key inside the scorer), and an integer of
# 5,000 digits (beyond what Python converts from text)
TYPE_LINE = b'{"inputs":{"supportLevel":["high"],"hasConflict":false,"candidates":[]}}'
HUGE_LINE = (
    b'{"inputs":{"supportLevel":"high","citationCount":' + b"1" * 5000 + b',"candidates":[]}}'
)


def _input(bad: bytes, rows: int = 3000, at: int = 1500) -> bytes:
    lines = [GOOD[i % len(GOOD)] for i in range(rows)]
    lines.insert(at, bad)
    return b"\n".join(lines) + b"\n"


def _cli(source: Path, workers: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "assay._cli.main_module", "score", "--jsonl", "--workers"]
    return subprocess.run(
        [*command, workers, str(source)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.parametrize("bad", [TYPE_LINE, HUGE_LINE], ids=["list-for-string", "5000-digits"])
@pytest.mark.parametrize("workers", ["0", "2"])
def test_one_bad_line_is_an_error_record_and_every_other_line_is_scored(
    tmp_path: Path, bad: bytes, workers: str
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(_input(bad))
    done = _cli(source, workers)
    assert done.returncode == 2, done.stderr
    assert b"Traceback" not in done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 3001
    errors = [(n, row["error"]) for n, row in enumerate(out, start=1) if "error" in row]
    assert len(errors) == 1
    line, error = errors[0]
    assert line == error["line"] == 1501
    assert error["code"] == "MALFORMED_INPUT"
    assert all("total" in row for row in out[:1500] + out[1501:])


_KILLER = """
import io, os, signal, sys
import assay, assay_scorecard, assay_scorecard.jsonl as jsonl
real = jsonl.score_block
def score_block(scorer, block, key):
    if b"DIE" in block:
        os.kill(os.getpid(), getattr(signal, sys.argv[2]))  # this worker process dies here
    return real(scorer, block, key)
jsonl.score_block = score_block
good = open(sys.argv[1], "rb").read().splitlines()
lines = [good[i % len(good)] for i in range(4000)]
lines[2500] = b'{"id": "DIE", "inputs": {}}'
sink = open(os.devnull, "wb") if sys.argv[3] == "fd" else io.BytesIO()
try:
    assay_scorecard.score_jsonl(io.BytesIO(b"\\n".join(lines) + b"\\n"), sink, workers=2,
                                block_size=4096)
except assay.AssayError as exc:
    print(exc.code, exc.message)
    sys.exit(2)
print("no error")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the forked worker ring")
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("sink", ["fd", "bytesio"])
def test_a_worker_that_dies_is_reported_not_waited_on(how: str, sink: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _KILLER, str(ROOT / "examples/data/answers.jsonl"), how, sink],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout.startswith("WORKER_DIED scoring worker"), done.stdout
    assert f"killed by {how}" in done.stdout


def test_an_unexpected_exception_in_scoring_is_that_rows_internal_error_record() -> None:
    from assay_scorecard.engine import create_scorer
    from assay_scorecard.lines import INTERNAL_ERROR, score_block

    class Exploding:
        def compute(self, inputs: object) -> object:
            if isinstance(inputs, dict) and inputs.get("boom"):
                raise ZeroDivisionError("a bug")
            return create_scorer().compute(inputs)

    block = b'{"supportLevel":"high","candidates":[]}\n{"boom":1}\n{"supportLevel":"low","candidates":[]}\n'
    result = score_block(Exploding(), block, "null")  # type: ignore[arg-type]
    assert len(result.text.split(b"\n")) == 4  # three rows, each with its line
    [(row, line, error)] = result.errors
    assert (row, line, error.code) == (1, 1, INTERNAL_ERROR)
    assert "ZeroDivisionError: a bug" in error.message
