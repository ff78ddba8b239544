"""Scores spilled to a temporary file give the statistics of the scores held in memory, to the
bit, and leave nothing behind."""

import json
import os
import pickle
import random
import statistics
import struct
import tempfile
from array import array
from pathlib import Path

import pytest

from assay_evaluation import evaluate_batch
from assay_evaluation._aggregate import BatchTally, summarize
from assay_evaluation._running import RunningTally
from assay_evaluation._spill import ScoreColumn, order_statistics

EXAMPLE = Path(__file__).resolve().parents[3] / "examples/evaluation/data/rag_answers.jsonl"


def bits(values):
    return [struct.pack("<d", value) for value in values]


def scores(rng, count):
    """Uniform values, duplicates, negatives, both zeros, infinities and subnormals."""
    pool = [0.0, -0.0, 1.0, -1.0, 0.5, 0.5, 5e-324, -5e-324, float("inf"), -float("inf")]
    return [rng.choice(pool) if rng.random() < 0.4 else rng.uniform(-2, 2) for _ in range(count)]


def column(values, spill_at, step=7):
    filled = ScoreColumn(spill_at)
    for start in range(0, len(values), step):
        filled.extend(array("d", values[start : start + step]))
    return filled


@pytest.fixture
def temp_folder(tmp_path, monkeypatch):
    """Temporary files go to an empty folder of the test's own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("count", [1, 2, 3, 40, 41, 64, 65, 257, 1000, 1001])
@pytest.mark.parametrize("spill_at", [1, 8, 64, 10_000])
def test_the_spilled_statistics_equal_the_in_memory_ones(count, spill_at, temp_folder):
    values = scores(random.Random(count * 31 + spill_at), count)
    spilled = column(values, spill_at)
    assert spilled.spilled == (count > spill_at)
    assert list(spilled) == values and len(spilled) == count
    assert bits(spilled.order_statistics()) == bits(order_statistics(values))
    finite = [value for value in values if abs(value) != float("inf")]
    if finite:
        assert statistics.median(finite) == summarize("m", column(finite, spill_at), 0, 0, 1).median
    assert repr(summarize("m", spilled, 1, 0, count)) == repr(summarize("m", values, 1, 0, count))
    assert os.listdir(temp_folder) == []  # the file never has a name
    spilled.close()
    assert len(spilled) == 0


def test_groups_larger_than_a_block_are_narrowed_digit_by_digit(temp_folder):
    """Scores in one narrow range (one exponent: the first digit cannot separate them) and
    long runs of equal values, zeros of both signs among them."""
    rng = random.Random(7)
    values = [0.5 + rng.random() / 64 for _ in range(140_000)]
    values += [rng.choice([0.0, -0.0]) for _ in range(140_001)]
    rng.shuffle(values)
    spilled = column(values, 1 << 16, step=512)
    assert spilled.spilled
    assert bits(spilled.order_statistics()) == bits(order_statistics(array("d", values)))


def test_a_column_reads_back_by_index_slice_and_pickle(temp_folder):
    values = scores(random.Random(3), 100)
    spilled = column(values, 10)
    assert spilled[0] == values[0] and spilled[-1] == values[-1] and spilled[55] == values[55]
    assert list(spilled[10:20]) == values[10:20]
    with pytest.raises(IndexError):
        spilled[100]
    assert pickle.loads(pickle.dumps(spilled)) == array("d", values)  # travels as an array


def test_a_running_tally_that_spilled_equals_the_tally_of_every_result(temp_folder):
    """The chunks of a run joined with a tiny spill limit give what one tally of every
    result gives, and closing it leaves nothing behind."""
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    rows = [json.loads(line) for line in EXAMPLE.read_text("utf-8").splitlines()] * 10
    batch = evaluate_batch(rows)
    ids = list(batch.aggregates)
    whole = BatchTally.of(batch.results, ids)
    running = RunningTally(ids, worst=3, spill_at=5)
    for start in range(0, len(batch.results), 13):
        running.extend(BatchTally.of(batch.results[start : start + 13], ids))
    assert running.size == whole.size
    for metric_id in ids:
        assert repr(running.aggregate(metric_id)) == repr(whole.aggregate(metric_id))
    assert repr(running.composite()) == repr(whole.composite())
    assert running.counts() == whole.counts()
    assert running.total_cost() == whole.total_cost()
    running.close()
    assert os.listdir(temp_folder) == []
