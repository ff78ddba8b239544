"""Batch scoring: order, laziness, errors in place, worker processes equal to in-process."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import pytest

import assay
import assay.wire
import assay_scorecard


def answer(n: int) -> dict:
    score = 0.5 + (n % 5) / 10
    return {
        "supportLevel": "high" if n % 2 else "medium",
        "hasConflict": False,
        "candidates": [
            {
                "retrievalScores": {"a": score, "b": score - 0.1},
                "combinedScore": score,
                "documentId": f"d{n % 3}",
            },
            {"retrievalScores": {"a": 0.4}, "combinedScore": 0.4, "documentId": "x"},
        ],
    }


ROWS = [answer(n) for n in range(300)]
EXPECTED = [
    assay_scorecard.scorecard_to_wire(assay_scorecard.compute_confidence(row)) for row in ROWS
]


def test_serial_matches_one_at_a_time() -> None:
    cards = list(assay_scorecard.score_many(ROWS))
    assert [assay_scorecard.scorecard_to_wire(c) for c in cards] == EXPECTED


def test_processes_match_in_order() -> None:
    assert (
        list(assay_scorecard.score_many(ROWS, workers=2, chunk_size=16, as_wire=True)) == EXPECTED
    )


def test_thread_executor_matches() -> None:
    with ThreadPoolExecutor(2) as pool:
        got = list(assay_scorecard.score_many(ROWS, as_wire=True, chunk_size=7, executor=pool))
    assert got == EXPECTED


def test_lazy_over_an_endless_stream() -> None:
    endless = (answer(n) for n in itertools.count())
    first = list(
        itertools.islice(
            assay_scorecard.score_many(endless, workers=2, chunk_size=8, as_wire=True), 20
        )
    )
    assert first == EXPECTED[:20]


def test_errors_keep_their_place_or_raise() -> None:
    rows = [ROWS[0], {"supportLevel": "high"}, ROWS[1]]
    got = list(assay_scorecard.score_many(rows, keep_errors=True, as_wire=True))
    assert got[0] == EXPECTED[0] and got[2] == EXPECTED[1]
    assert isinstance(got[1], assay.AssayError) and got[1].code == "MALFORMED_INPUT"
    with pytest.raises(assay.AssayError):
        list(assay_scorecard.score_many(rows))


def test_config_is_validated_before_any_row_is_read() -> None:
    def never():  # pragma: no cover - must not be consumed
        raise AssertionError("rows were read")
        yield

    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.score_many(never(), {"weights": {"grounding": -1}})
    assert caught.value.path == "weights.grounding"
    with pytest.raises(assay.AssayError):
        assay_scorecard.score_many([], chunk_size=0)


def test_json_lines_in_and_out_match_the_wire_shape() -> None:
    import json

    lines = [json.dumps(row) for row in ROWS[:50]]
    lines[3] = json.dumps({"inputs": ROWS[3], "config": {}})
    lines[4] = json.dumps({"inputs": ROWS[4], "config": {"weights": {"grounding": 60}}})
    lines[5] = "{broken"
    got = list(
        assay_scorecard.score_many(
            lines, {}, workers=2, chunk_size=8, as_json=True, keep_errors=True
        )
    )
    assert json.loads(got[0]) == assay.wire.to_json_safe(EXPECTED[0])
    assert json.loads(got[3]) == assay.wire.to_json_safe(EXPECTED[3])
    assert (got[4].code, got[4].path) == ("INVALID_CONFIG", "config")
    assert got[5].code == "MALFORMED_INPUT"
    nan_line = json.dumps({**ROWS[6], "faithfulnessScore": {"$float": "NaN"}})
    (scored,) = assay_scorecard.score_many([nan_line], as_json=True)
    assert json.loads(scored)["dimensions"]["grounding"]["breakdown"]["diagnostics"][
        "faithfulnessScore"
    ] == {"$float": "NaN"}


def test_json_rows_a_block_cannot_carry_are_scored_as_rows_with_the_same_results() -> None:
    """Rows with a newline (pretty-printed JSON) or a lone surrogate cannot travel in a block
    of lines; their chunk goes row by row and gives what one process gives."""
    import json

    pretty = json.dumps(ROWS[0], indent=2)
    surrogate = json.dumps({**ROWS[1], "documentsSilent": "\ud800"}, ensure_ascii=False)
    lines = [json.dumps(row) for row in ROWS[:20]]
    lines[3], lines[12] = pretty, surrogate

    def results(workers: int) -> list:
        got = assay_scorecard.score_many(
            lines, {}, workers=workers, chunk_size=8, as_json=True, keep_errors=True
        )
        return [r.to_dict() if isinstance(r, assay.AssayError) else r for r in got]

    serial = results(1)
    assert json.loads(serial[3]) == assay.wire.to_json_safe(EXPECTED[0])
    assert results(2) == serial


def test_a_bad_json_row_raises_after_the_rows_before_it_without_keep_errors() -> None:
    import json

    lines = [json.dumps(row) for row in ROWS[:10]]
    lines[6] = "{broken"
    got: list = []
    with pytest.raises(assay.AssayError) as caught:
        for result in assay_scorecard.score_many(lines, workers=2, chunk_size=4, as_json=True):
            got.append(result)
    assert caught.value.code == "MALFORMED_INPUT"
    assert [json.loads(line) for line in got] == [
        assay.wire.to_json_safe(wire) for wire in EXPECTED[:6]
    ]
