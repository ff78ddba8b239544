"""The compiled twins of the retrieval and consistency ``score`` methods
(``assay_retrieval._speedups``) against the pure-Python reference.

* The extension is built in this environment: CI's guarantee that the fast path is what ships
  (a build that silently fell back to pure Python fails here), and the conformance inputs take
  the compiled path rather than its hand-over to the reference.
* Pure and compiled give the same outcome — the DimensionScore record and its whole wire dict,
  including the explanation, key order and the Python type of every number (25 vs 25.0; the
  wire converter turns integral floats into ints, so the record is compared too), or the same
  exception (type, code, path, message) — on every computeConfidence line of the scorecard
  conformance vectors, on hand-made edge cases and on seeded random inputs full of odd values;
  with the C sums (CPython 3.11) and with the sums left to ``population_std`` (3.12+).
* ``ASSAY_PURE_PYTHON=1`` keeps the pure-Python methods on the classes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

import assay
from assay.jsmath import round_to, to_fixed
from assay.testing import typed_fields
from assay_retrieval import (  # no importorskip: the build must exist
    EvidenceConsistency,
    RetrievalConfidence,
    _speedups,
    consistency,
    retrieval,
)

VECTORS = Path(__file__).resolve().parents[3].parent / "shared" / "conformance" / "scorecard"
CORE = {"grounding", "retrieval", "consistency"}
NAN = float("nan")
INF = float("inf")
Method = Callable[[Any, Mapping[str, Any], Mapping[str, Any]], assay.DimensionScore]
PAIRS: list[tuple[str, Method, Method]] = [
    ("retrieval", retrieval.PURE_SCORE, _speedups.retrieval_score),
    ("consistency", consistency.PURE_SCORE, _speedups.consistency_score),
]


@pytest.fixture(params=[True, False], ids=["c-sum", "population_std-sum"])
def c_sum(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Both ways of summing the standard deviation (see ``_speedups._set_c_sum``)."""
    previous = _speedups._set_c_sum(request.param)
    yield request.param
    _speedups._set_c_sum(previous)


def outcome(method: Method, dimension: Any, inputs: Any, config: Any) -> Any:
    """What ``method`` gives: the typed record and wire dict, or the exception it raises."""
    try:
        result = method(dimension, inputs, config)
    except Exception as error:
        return (
            "raises",
            type(error).__name__,
            getattr(error, "code", None),
            getattr(error, "path", None),
            str(error),
        )
    return ("returns", typed_fields(result), typed_fields(assay.to_wire(result)))


def assert_same(inputs: Any, config: Any, dimensions: tuple[Any, Any] | None = None) -> None:
    retrieval_dim, consistency_dim = dimensions or (RetrievalConfidence(), EvidenceConsistency())
    for (name, pure, compiled), dim in zip(PAIRS, (retrieval_dim, consistency_dim), strict=True):
        expected = outcome(pure, dim, inputs, config)
        got = outcome(compiled, dim, inputs, config)
        assert got == expected, f"{name}: {inputs!r} {config!r}"
        again = outcome(compiled, dim, inputs, config)  # the settings and plan caches are hit
        assert again == expected, f"{name} (second call): {inputs!r} {config!r}"


def vectors() -> list[tuple[str, Any, Any, bool, bool]]:
    """(id, inputs, config, is an error line, is core-only) of every computeConfidence line."""
    lines = []
    for name in ("cases.jsonl", "examples.jsonl"):
        for line in (VECTORS / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if "fn" in record:
                continue
            expected = record["expected"]
            error = "error" in expected
            core_only = not error and set(expected["dimensions"]) <= CORE
            inputs = assay.from_json_safe(record["inputs"])
            config = assay.from_json_safe(record["config"])
            lines.append((record["id"], inputs, config, error, core_only))
    return lines


VECTOR_LINES = vectors()


# ------------------------------------------------------------------------------ the build
def test_the_compiled_twins_are_built_and_installed() -> None:
    assert Path(_speedups.__file__).suffix in {".so", ".pyd"}, _speedups.__file__
    if assay.speedups_allowed():
        assert RetrievalConfidence.score is _speedups.retrieval_score
        assert EvidenceConsistency.score is _speedups.consistency_score
    assert retrieval.PURE_SCORE.__module__ == "assay_retrieval.retrieval"
    assert consistency.PURE_SCORE.__module__ == "assay_retrieval.consistency"


def test_conformance_inputs_take_the_compiled_path() -> None:
    """The speed is measured on the core-only vectors: none of them may be handed over."""
    dimension = RetrievalConfidence()
    core_only = [line for line in VECTOR_LINES if line[4]]
    assert len(core_only) > 200
    for case_id, inputs, config, _, _ in core_only:
        assert _speedups._retrieval_fast_path(dimension, inputs, config) is not None, case_id
        assert _speedups._consistency_fast_path(inputs) is not None, case_id


def test_pure_python_switch_keeps_the_reference_methods() -> None:
    code = (
        "from assay_retrieval import EvidenceConsistency as K, RetrievalConfidence as R, "
        "consistency, retrieval\n"
        "assert R.score is retrieval.PURE_SCORE, R.score\n"
        "assert K.score is consistency.PURE_SCORE, K.score\n"
        "import assay_retrieval._speedups\n"  # built, but not used
    )
    env = {**os.environ, "ASSAY_PURE_PYTHON": "1"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


# -------------------------------------------------------------------------- conformance
@pytest.mark.usefixtures("c_sum")
def test_conformance_vectors_same_outcome() -> None:
    assert len(VECTOR_LINES) > 600
    for case_id, inputs, config, error, _ in VECTOR_LINES:
        try:
            assert_same(inputs, config)
        except AssertionError as failure:
            raise AssertionError(f"{case_id} (error line: {error}): {failure}") from None


# ------------------------------------------------------------------------------ numerics
def test_numerics_match_the_reference_helpers_to_the_bit(c_sum: bool) -> None:
    """The C standard deviation, ``round_to(x, 4)`` and ``to_fixed(x, 4)`` on values picked to
    be hard: squares where libm's ``pow(x, 2)`` is not ``x * x``, halves, signed zeros,
    subnormals, huge and non-finite values."""
    rng = random.Random(7)
    hard = [0.25920979068439048, 0.00010943000404713704, 0.014636733684083374, 0.03125, 0.00005]
    special = [0.0, -0.0, 5e-324, 1e-170, 1e200, 1.7e308, NAN, INF, -INF, 2.0**33 / 1e4]
    lists = [[x, 0.0] for x in hard + special] + [[x] for x in hard + special]
    for _ in range(3000):
        n = rng.choice([1, 2, 3, 5, 8])
        pick = (rng.random, lambda: rng.uniform(-3, 3), lambda: round(rng.random(), 5))
        lists.append([rng.choice(pick)() for _ in range(n)])
    for values in lists:
        std = _speedups._std(values)
        try:
            expected = retrieval.population_std(values)
        except OverflowError:  # ``**`` overflows: the C code hands over
            assert std is None, values
            continue
        if c_sum and all(v == 0 or 1e-100 < abs(v) < 1e100 for v in values):
            assert std is not None, values  # the C sums are the ones taken here
        if std is not None:
            assert typed_fields(std) == typed_fields(expected), values
        for value in values:
            try:
                expected_fixed = to_fixed(value, 4)
            except OverflowError:  # to_fixed of a huge value raises: so does the C code
                with pytest.raises(OverflowError):
                    _speedups._rounded(value)
                continue
            got_round, got_fixed, text2, text3 = _speedups._rounded(value)
            assert typed_fields(got_round) == typed_fields(round_to(value, 4)), value
            assert typed_fields(got_fixed) == typed_fields(expected_fixed), value
            assert (text2, text3) == (f"{value:.2f}", f"{value:.3f}"), value


# ---------------------------------------------------------------------------- edge cases
def cand(score: Any, methods: int = 2, **extra: Any) -> dict[str, Any]:
    return {
        "retrievalScores": {f"m{i}": score for i in range(methods)},
        "combinedScore": score,
        **extra,
    }


PENALIZE = {
    "retrieval": {"duplicateContent": {"mode": "penalize"}, "rankPenalty": {"mode": "penalize"}}
}
EDGE_CONFIGS: list[dict[str, Any]] = [
    {},
    PENALIZE,
    {"retrieval": {"topK": 10, "minConfirmedMethods": 1}},
    {"retrieval": {"topK": 1, "minConfirmedMethods": 3, "defaultMethodThreshold": 0.5}},
    {"retrieval": {"methodThresholds": {"m0": 0.8, "m1": 1}, "defaultMethodThreshold": 1}},
    {"retrieval": {"scoreBands": {"full": 1, "high": 0.5, "medium": 0, "low": -1}}},
    {"retrieval": {"topK": 10**30, "minConfirmedMethods": 10**30}},
    {"retrieval": {"minTopScoreGapForClearWinner": 0}},
    {"retrieval": {"minTopScoreGapForClearWinner": None}},
    {"retrieval": {"minTopScoreGapForClearWinner": "wide"}},
    {"retrieval": {"minTopScoreGapForClearWinner": True}},
    {"retrieval": {"minTopScoreGapForClearWinner": 2**60 + 1}},
    {"retrieval": {"defaultMethodThreshold": 2**60 + 1}},
    {"retrieval": {"scoreBands": {"full": 2**60 + 1}}},
    {
        "retrieval": {
            "duplicateContent": {"mode": "penalize", "penaltyPerDuplicate": 2.5, "maxPenalty": 9},
            "rankPenalty": {
                "mode": "penalize",
                "afterRank": 1,
                "penaltyPerRank": 1,
                "maxPenalty": 50,
            },
        }
    },
    {
        "retrieval": {
            "duplicateContent": {"mode": "penalize", "penaltyPerDuplicate": 0},
            "rankPenalty": {"mode": "penalize", "penaltyPerRank": 0.0},
        }
    },
    {"retrieval": {"topK": 0}},  # config errors: the same exception from both
    {"retrieval": {"duplicateContent": {"mode": "sometimes"}}},
    {"retrieval": []},
]
EDGE_INPUTS: list[Any] = [
    # 0, 1, 2 candidates; topK larger than n
    {"candidates": []},
    {"candidates": [cand(0.9)]},
    {"candidates": [cand(0.9, documentId="a"), cand(0.2, documentId="b")], "hasConflict": False},
    {
        "candidates": [cand(0.5, documentId=str(i)) for i in range(7)],
        "conflictingCandidateCount": 0,
    },
    # ties in combinedScore keep input order (extraction quality tells them apart)
    {
        "candidates": [
            cand(0.7, extractionQuality=0.1),
            cand(0.7, extractionQuality=0.9),
            cand(0.7),
            cand(0.7, extractionQuality=None),
        ]
    },
    {"candidates": [cand(0.0), cand(-0.0), cand(0.0, extractionQuality=-1.0)]},
    {"candidates": [cand(-0.0), cand(0.0)], "conflictingCandidateCount": 1},
    # integer vs float scores
    {"candidates": [cand(1), cand(0), cand(1, extractionQuality=1)], "hasConflict": True},
    {"candidates": [cand(1), cand(1.0)], "conflictingCandidateCount": 2},
    {"candidates": [cand(3), cand(2), cand(-4)]},
    {"candidates": [cand(2**32), cand(2**32 + 1), cand(-(2**32))]},
    {"candidates": [cand(2**60), cand(2**60 + 1)]},
    {"candidates": [cand(10**400), cand(0.5)]},
    {"candidates": [cand(0.5, extractionQuality=2**40), cand(0.25, extractionQuality=10**400)]},
    {"candidates": [cand(3, extractionQuality=5), cand(7, extractionQuality=True)]},
    # NaN, None, strings, bools as scores
    {"candidates": [cand(NAN), cand(0.5)]},
    {"candidates": [cand(NAN)]},
    {"candidates": [cand(INF), cand(-INF), cand(0.5)]},
    {"candidates": [cand(None), cand(0.4)], "conflictingCandidateCount": "one"},
    {"candidates": [cand("0.8"), cand(0.4)]},
    {"candidates": [cand(True), cand(False), cand(0.5)]},
    {"candidates": [cand(0.5, extractionQuality="high"), cand(0.4)]},
    {"candidates": [cand(0.5, extractionQuality=NAN), cand(0.4, extractionQuality=INF)]},
    {"candidates": [cand(1e200), cand(0.5)]},  # the reference's ``**`` overflows: it raises
    {"candidates": [cand(1e-170), cand(0.0)]},  # a subnormal square
    {"candidates": [cand(5e-324), cand(0.0), cand(1e-160)]},
    {"candidates": [cand(1.7e308), cand(1.7e308)]},
    # retrievalScores: missing keys, odd values, not a dict
    {"candidates": [{"combinedScore": 0.5}]},
    {"candidates": [{"retrievalScores": {}, "combinedScore": 0.5}]},
    {
        "candidates": [
            {"retrievalScores": {"m0": None, "m1": "0.9", "m2": True}, "combinedScore": 0.9}
        ]
    },
    {"candidates": [{"retrievalScores": {"m0": NAN, "m1": 2, "m2": 2**70}, "combinedScore": 0.9}]},
    {"candidates": [{"retrievalScores": [0.5, 0.6], "combinedScore": 0.5}]},
    {"candidates": [{"retrievalScores": None, "combinedScore": 0.5}]},
    {"candidates": [cand(0.9, methods=1), cand(0.8, methods=1)]},
    {"candidates": [{"retrievalScores": {"m0": 0.9}}]},  # no combinedScore
    # documents, duplicates, ranks
    {
        "candidates": [
            cand(0.9, documentId="a", contentHash="h", rank=12),
            cand(0.8, documentId="a", contentHash="h", rank=14.0),
            cand(0.7, documentId=None, contentHash="h", rank=11.5),
            cand(0.6, documentId=1, contentHash="g", rank=True),
            cand(0.5, documentId=1.0, rank="3"),
            cand(0.4, rank=0),
            cand(0.3, rank=-2),
            cand(0.2, rank=NAN),
            cand(0.1, rank=10**400),
        ]
    },
    {"candidates": [cand(0.5, rank=r) for r in (1, 2, 11, 12.0, 2**60, 30)]},
    {"candidates": [cand(0.5, documentId=["unhashable"]), cand(0.4)]},
    {"candidates": [cand(0.5, contentHash={"unhashable": 1}), cand(0.4)]},
    # more candidates than the stack buffers hold
    {"candidates": [cand((i * 37 % 101) / 100, documentId=i % 5, rank=i) for i in range(150)]},
    {"candidates": [cand(0.5) for _ in range(65)], "hasConflict": False},
    # structurally odd input
    {"candidates": (cand(0.9), cand(0.8))},
    {"candidates": [cand(0.9), "not a candidate"]},
    {"candidates": [cand(0.9), None]},
    {"candidates": None},
    {},
    {"candidates": [cand(0.9)], "conflictingCandidateCount": None, "hasConflict": False},
    {"candidates": [cand(0.9), cand(0.1)], "hasConflict": "no"},
]


@pytest.mark.usefixtures("c_sum")
@pytest.mark.parametrize("config", EDGE_CONFIGS, ids=range(len(EDGE_CONFIGS)))
def test_edge_cases_same_outcome(config: dict[str, Any]) -> None:
    for inputs in EDGE_INPUTS:
        assert_same(inputs, config)


class Candidate(dict[str, Any]):
    """A Mapping that is not exactly a dict: handed to the reference."""


def test_mappings_that_are_not_dicts() -> None:
    assert_same({"candidates": [Candidate(cand(0.9)), Candidate(cand(0.8))]}, {})
    scores = Candidate({"m0": 0.9, "m1": 0.9})
    assert_same({"candidates": [{"retrievalScores": scores, "combinedScore": 0.9}]}, {})
    assert_same({"candidates": [cand(0.9), cand(0.4)]}, Candidate(PENALIZE))


class TunedRetrieval(RetrievalConfidence):
    """A subclass with its own settings: the compiled score must ask it."""

    def settings(self, config: Mapping[str, Any]) -> retrieval.RetrievalSettings:
        return attrs.evolve(super().settings(config), top_k=1, min_confirmed_methods=1)


def test_subclass_settings_are_used() -> None:
    inputs = {"candidates": [cand(0.9, methods=1), cand(0.1), cand(0.2)]}
    dimensions = (TunedRetrieval(), EvidenceConsistency())
    assert_same(inputs, {}, dimensions)
    result = _speedups.retrieval_score(TunedRetrieval(), inputs, {})
    assert result.breakdown.diagnostics["topK"] == 1


def test_settings_cache_turnover() -> None:
    """More config sections than the settings cache keeps (64), each a new object."""
    dimensions = (RetrievalConfidence(), EvidenceConsistency())
    inputs = {"candidates": [cand(0.9), cand(0.6), cand(0.3)]}
    for top_k in range(1, 150):
        assert_same(inputs, {"retrieval": {"topK": top_k % 5 + 1}}, dimensions)


# ------------------------------------------------------------------------ random inputs
ODD_NUMBERS = [0.0, -0.0, 1, 0, 2, -3, 2**40, 10**400, True, False, None, NAN, INF, -INF, "0.7"]


def random_number(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.6:
        return round(rng.random(), rng.choice((2, 3, 17)))
    if roll < 0.7:
        return rng.uniform(-2, 2)
    return rng.choice(ODD_NUMBERS)


def random_candidate(rng: random.Random) -> Any:
    if rng.random() < 0.01:
        return rng.choice([None, "x", (1, 2)])
    candidate: dict[str, Any] = {}
    if rng.random() < 0.98:
        methods = rng.sample(["semantic", "keyword", "graph"], rng.randint(0, 3))
        scores = {method: random_number(rng) for method in methods}
        candidate["retrievalScores"] = scores if rng.random() < 0.99 else list(scores.values())
    if rng.random() < 0.95:
        candidate["combinedScore"] = random_number(rng)
    if rng.random() < 0.6:
        candidate["documentId"] = rng.choice(["a", "b", "c", "d", None, 1])
    if rng.random() < 0.3:
        candidate["contentHash"] = rng.choice(["h1", "h2", "h3"])
    if rng.random() < 0.4:
        candidate["rank"] = rng.choice([1, 2, 5, 11, 12, 20.0, 13.5, 0, -1, True, None, "2"])
    if rng.random() < 0.3:
        candidate["extractionQuality"] = rng.choice([0.5, 1, 0, None, 0.95, True, NAN])
    return candidate


def random_config(rng: random.Random) -> dict[str, Any]:
    section: dict[str, Any] = {}
    if rng.random() < 0.3:
        section["topK"] = rng.choice([1, 2, 3, 5, 100])
    if rng.random() < 0.3:
        section["minConfirmedMethods"] = rng.choice([1, 2, 3])
    if rng.random() < 0.2:
        section["defaultMethodThreshold"] = rng.choice([0, 0.5, 1, -1])
    if rng.random() < 0.2:
        section["methodThresholds"] = {"semantic": rng.choice([0.6, 1]), "graph": 0}
    if rng.random() < 0.3:
        section["duplicateContent"] = {
            "mode": "penalize",
            "penaltyPerDuplicate": rng.choice([1, 0.5, 3]),
            "maxPenalty": rng.choice([4, 2.5, 100]),
        }
    if rng.random() < 0.3:
        section["rankPenalty"] = {
            "mode": "penalize",
            "afterRank": rng.choice([1, 10]),
            "penaltyPerRank": rng.choice([0.25, 1, 2]),
            "maxPenalty": rng.choice([3, 0.5, 40]),
        }
    if rng.random() < 0.2:
        section["minTopScoreGapForClearWinner"] = rng.choice([0, 0.05, 0.5, 1])
    return {"retrieval": section} if section else {}


@pytest.mark.usefixtures("c_sum")
def test_random_inputs_same_outcome() -> None:
    rng = random.Random(20261122)
    dimensions = (RetrievalConfidence(), EvidenceConsistency())
    for _ in range(1500):
        n = rng.choice([0, 1, 2, 2, 3, 3, 3, 4, 5, 6, 10, 70])
        inputs: dict[str, Any] = {"candidates": [random_candidate(rng) for _ in range(n)]}
        if rng.random() < 0.4:
            inputs["hasConflict"] = rng.choice([True, False, None])
        if rng.random() < 0.3:
            inputs["conflictingCandidateCount"] = rng.choice([0, 1, 2, 0.0, None, True, "2"])
        assert_same(inputs, random_config(rng), dimensions)
