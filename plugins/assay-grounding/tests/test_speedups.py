"""The compiled twins of ``Grounding.score`` and ``AnswerRelevance.score``
(``assay_grounding._speedups``) against the pure-Python reference.

* The extension is built in this environment: CI's guarantee that the fast path is what ships
  (a build that silently fell back to pure Python fails here).
* Pure and compiled give the same outcome — the DimensionScore record and its whole wire dict,
  including the explanation, key order and the Python type of every number (21 vs 21.0; the
  wire converter turns integral floats into ints, so the record is compared too), or the same
  exception — on every computeConfidence line of the scorecard conformance vectors and on
  hand-made inputs covering every branch of the methods with odd values.
* ``ASSAY_PURE_PYTHON=1`` keeps the pure-Python methods on the classes.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

import assay
from assay.testing import typed_fields
from assay_grounding import AnswerRelevance, Grounding, _speedups  # no importorskip: must be built
from assay_grounding import grounding as grounding_module
from assay_grounding import relevance as relevance_module

VECTORS = Path(__file__).resolve().parents[3].parent / "shared" / "conformance" / "scorecard"
PURE = grounding_module.PURE_SCORE
COMPILED = _speedups.grounding_score
DIMENSION = Grounding()
RELEVANCE = AnswerRelevance()
PURE_RELEVANCE = relevance_module.PURE_SCORE
COMPILED_RELEVANCE = _speedups.relevance_score
NAN = float("nan")
INF = float("inf")


class IntLike(int):
    """An int subclass whose ``float()`` is not its value."""

    def __float__(self) -> float:
        return 0.75


class FloatLike(float):
    def __float__(self) -> float:
        return 0.1


class Text(str):
    pass


class ClaimCounts(dict[str, Any]):
    def get(self, key: str, default: Any = None) -> Any:
        return 1 if key == "contradictedClaims" else super().get(key, default)


# ------------------------------------------------------------------ comparison helpers
def outcome(score: Any, dimension: Any, inputs: Any, config: Any) -> Any:
    try:
        result = score(dimension, inputs, config)
    except Exception as exc:  # the same exception, with the same message, is part of the contract
        return ("raises", type(exc).__name__, str(exc))
    # the record itself (its int-vs-float types) and its wire dict (what JSON output shows)
    return ("returns", typed_fields(result), typed_fields(assay.to_wire(result)))


def assert_same(inputs: Any, config: Any = None) -> None:
    """Grounding: pure and compiled agree."""
    config = {} if config is None else config
    pure = outcome(PURE, DIMENSION, inputs, config)
    compiled = outcome(COMPILED, DIMENSION, inputs, config)
    assert compiled == pure, f"inputs {inputs!r}:\npure     {pure}\ncompiled {compiled}"


def assert_same_relevance(inputs: Any, config: Any = None) -> None:
    """Answer relevance: pure and compiled agree."""
    config = {} if config is None else config
    pure = outcome(PURE_RELEVANCE, RELEVANCE, inputs, config)
    compiled = outcome(COMPILED_RELEVANCE, RELEVANCE, inputs, config)
    assert compiled == pure, (
        f"inputs {inputs!r}, config {config!r}:\npure     {pure}\ncompiled {compiled}"
    )


# ------------------------------------------------------------------ the build
def test_compiled_module_is_built_and_installed() -> None:
    assert _speedups.__file__ is not None
    assert not _speedups.__file__.endswith((".py", ".pyx")), _speedups.__file__
    registry = assay.default_registry()
    if assay.speedups_allowed():
        assert Grounding.score is COMPILED
        assert AnswerRelevance.score is COMPILED_RELEVANCE
        assert type(registry.get("dimension", "grounding")).score is COMPILED
        assert type(registry.get("dimension", "relevance")).score is COMPILED_RELEVANCE
    else:
        assert Grounding.score is PURE
        assert AnswerRelevance.score is PURE_RELEVANCE


def test_compiled_method_binds_like_the_pure_one() -> None:
    inputs = {"supportLevel": "high", "faithfulnessScore": 0.95}
    bound = COMPILED.__get__(DIMENSION, Grounding)
    assert typed_fields(bound(inputs, {})) == typed_fields(PURE(DIMENSION, inputs, {}))


@pytest.mark.parametrize(
    ("env", "pure"), [({"ASSAY_PURE_PYTHON": "1"}, True), ({"ASSAY_PURE_PYTHON": ""}, False)]
)
def test_assay_pure_python_keeps_the_reference(env: dict[str, str], pure: bool) -> None:
    code = (
        "import assay_grounding.grounding as g, assay_grounding.relevance as r\n"
        "import assay_grounding._speedups as s\n"
        "print(g.Grounding.score is g.PURE_SCORE, g.Grounding.score is s.grounding_score)\n"
        "print(r.AnswerRelevance.score is r.PURE_SCORE,"
        " r.AnswerRelevance.score is s.relevance_score)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == [str(pure), str(not pure)] * 2


# ------------------------------------------------------------------ conformance vectors
def _vector_lines() -> Iterator[dict[str, Any]]:
    for name in ("cases.jsonl", "examples.jsonl"):
        with (VECTORS / name).open(encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if "fn" not in record:
                    yield record


VECTOR_LINES = list(_vector_lines())


def test_vectors_are_read() -> None:
    assert len(VECTOR_LINES) == 622
    assert sum("error" in r["expected"] for r in VECTOR_LINES) == 52


@pytest.mark.parametrize("record", VECTOR_LINES, ids=[r["id"] for r in VECTOR_LINES])
def test_vector(record: dict[str, Any]) -> None:
    inputs = assay.from_json_safe(record["inputs"])
    config = assay.from_json_safe(record["config"])
    assert_same(inputs, config)
    assert_same_relevance(inputs, config)


# ------------------------------------------------------------------ hand-made edge cases
NUMBERS: list[Any] = [
    *(-1, -0.5, -0.0, 0, 0.0, 0.3, 0.49, 0.5, 0.6, 0.69, 0.7, 0.75, 0.79, 0.8, 0.85, 0.899),
    *(0.9, 0.95, 0.96875, 1, 1.0, 1.5, 2, 2.0, 2.5, 3, 3.0, 4, 10**30, 1e21, 1e300),
    # rounding to 4 and 2 decimals: ties, subnormals, doubles past 2**52
    *(0.00005, -0.00005, 0.12345, 0.99995, 0.005, 0.015, 0.115, 0.125, 1e-320, 5e-324),
    *(4503599627370497.0, 9007199254740993, 2.0**60 + 0.0, 1e20, 2.0**63, 2**63),
]
ODD: list[Any] = [
    *(None, NAN, INF, -INF, True, False, "", "0.9", "2", "x", [], [1], {}, {"a": 1}),
    *(10**400, IntLike(1), IntLike(2), FloatLike(0.95), FloatLike(2.0)),
]
SIGNALS = NUMBERS + ODD
TRUTHY_PROBES: list[Any] = [
    *(None, "", "x", Text(""), Text("y"), 0, 0.0, -0.0, NAN, 1, 0.5, True, False),
    *([], [0], {}, 10**400, IntLike(0), FloatLike(0.0)),
]
CLAIMS: list[Any] = [
    {"totalClaims": 4, "supportedClaims": 4},
    {"totalClaims": 4, "supportedClaims": 3},
    {"totalClaims": 4, "supportedClaims": 2, "contradictedClaims": 1},
    {"totalClaims": 10, "supportedClaims": 6, "unsupportedClaims": 2, "contradictedClaims": 2},
    {"totalClaims": 5, "supportedClaims": 1, "unsupportedClaims": 4},
    {"totalClaims": 3, "supportedClaims": 2},
    {"totalClaims": 3.0, "supportedClaims": 2.0, "contradictedClaims": 0.0},
    {"totalClaims": 10**30, "supportedClaims": 10**30 - 1},
    {"totalClaims": IntLike(4), "supportedClaims": IntLike(3)},
    MappingProxyType({"totalClaims": 2, "supportedClaims": 1}),
    {"totalClaims": 0, "supportedClaims": 0},
    {"totalClaims": 2, "supportedClaims": 3},
    {"totalClaims": 2, "supportedClaims": 1, "contradictedClaims": 2},
    {"totalClaims": 2, "supportedClaims": 1, "unsupportedClaims": 2},
    {"totalClaims": 2, "supportedClaims": 1.5},
    {"totalClaims": "4", "supportedClaims": 3},
    {"totalClaims": 4, "supportedClaims": NAN},
    {"totalClaims": 4},
    # the bounds of the inline check (plain ints up to 2**53) and what it leaves to the helper
    {"totalClaims": 2**53, "supportedClaims": 2**53},
    {"totalClaims": 2**53, "supportedClaims": 2**52, "unsupportedClaims": 2**52},
    {
        "totalClaims": 2**53,
        "supportedClaims": 2**52,
        "unsupportedClaims": 2**52,
        "contradictedClaims": 1,
    },
    {"totalClaims": 2**53 + 1, "supportedClaims": 1},
    {"totalClaims": 4, "supportedClaims": -1},
    {"totalClaims": -(10**400), "supportedClaims": 10**400},
    {"totalClaims": 4, "supportedClaims": 10**400},
    {"totalClaims": True, "supportedClaims": True},
    {"totalClaims": 4, "supportedClaims": 3, "unsupportedClaims": None},
    {"totalClaims": 4, "supportedClaims": 3, "contradictedClaims": None},
    {"totalClaims": 4, "supportedClaims": 3, "contradictedClaims": 1, "unsupportedClaims": 1},
    {"totalClaims": 4, "supportedClaims": 3, "contradictedClaims": 1, "unsupportedClaims": 0},
    ClaimCounts({"totalClaims": 4, "supportedClaims": 3}),
    {},
    *(None, "x", 3, [], True),
]
SUPPORT: list[Any] = ["high", "medium", "low", "none", "HIGH", Text("high"), None, 1, True]


def test_documents_silent() -> None:
    values: list[Any] = [True, False, 1, "true", None, [], NAN]
    for value in values:
        assert_same({"documentsSilent": value, "supportLevel": "high"})
    assert_same({"documentsSilent": True})
    assert_same({})


def test_support_level_and_ambiguity() -> None:
    for support, notes in itertools.product(SUPPORT, TRUTHY_PROBES):
        assert_same({"supportLevel": support, "ambiguityNotes": notes})
        assert_same({"supportLevel": support, "ambiguityNotes": notes, "faithfulnessScore": 1})
    for support in SUPPORT:
        assert_same({"supportLevel": support})  # ambiguityNotes absent
    assert_same({"ambiguityNotes": "x"})  # supportLevel absent
    assert_same({"supportLevel": ["high"]})  # unhashable: TypeError from the base lookup
    assert_same({"supportLevel": ["high"], "ambiguityNotes": "x"})


def test_penalties_and_complexity_ceilings() -> None:
    flags = [True, False, 1]
    notes = ["note", "", Text("n"), Text(""), None, ["x"]]
    complexities: list[Any] = [
        *("direct", "inferential", "multi-hop", "comparative", "unknown", "Inferential"),
        *(Text("multi-hop"), Text("direct"), *TRUTHY_PROBES),
    ]
    for support, ambiguity, expert, note, conflict, complexity in itertools.product(
        ["high", "medium", "low"], [None, "x"], flags, notes, flags, complexities
    ):
        assert_same(
            {
                "supportLevel": support,
                "ambiguityNotes": ambiguity,
                "requiresExpertReview": expert,
                "externalConstraintNote": note,
                "hasConflict": conflict,
                "queryComplexity": complexity,
                "faithfulnessScore": 0.95,
            }
        )
    assert_same({"supportLevel": "high", "queryComplexity": ["multi-hop"]})  # unhashable, truthy


def test_faithfulness_and_claim_support() -> None:
    for faithfulness, claims in itertools.product([*SIGNALS, "absent"], [*CLAIMS, "absent"]):
        inputs: dict[str, Any] = {"supportLevel": "high"}
        if faithfulness != "absent":
            inputs["faithfulnessScore"] = faithfulness
        if claims != "absent":
            inputs["claimSupport"] = claims
        assert_same(inputs)
        assert_same({**inputs, "supportLevel": "low", "citationCount": 3})


def test_support_scores_round_and_format_alike() -> None:
    rng = random.Random(7)
    scores = [rng.random() for _ in range(1500)]
    scores += [round(rng.random(), rng.randint(1, 6)) for _ in range(1500)]
    scores += [rng.uniform(-2, 2) for _ in range(300)]
    for score in scores:
        assert_same({"supportLevel": "high", "faithfulnessScore": score})
    for total in range(1, 40):
        for supported in range(total + 1):
            claims = {"totalClaims": total, "supportedClaims": supported}
            assert_same({"supportLevel": "high", "claimSupport": claims})
            assert_same({"supportLevel": "high", "claimSupport": claims, "faithfulnessScore": 0.8})


def test_citations() -> None:
    absent = object()
    invalid_pool: list[Any] = [0, 1, 1.0, 2, 1.5, 0.5, True, None, NAN, "1", 10**400, IntLike(1)]
    coverage_pool: list[Any] = [0.49, 0.5, 0.79, 0.8, 1, None, NAN, "x", True, FloatLike(0.9)]
    count_pool: list[Any] = [0, 1, 2, 2.0, 2.5, 3, 1e21, 10**30, INF, True, None, "3", NAN]
    count_pool += [IntLike(2), FloatLike(2.0), 10**400]
    combinations = itertools.chain(
        itertools.product([*invalid_pool, absent], [*coverage_pool, absent], [*count_pool, absent]),
        ((value, absent, absent) for value in SIGNALS),
        ((absent, value, absent) for value in SIGNALS),
        ((absent, absent, value) for value in SIGNALS),
    )
    for invalid, coverage, count in combinations:
        inputs: dict[str, Any] = {"supportLevel": "high", "faithfulnessScore": 0.95}
        for key, value in (
            ("invalidCitationCount", invalid),
            ("citationCoverageScore", coverage),
            ("citationCount", count),
        ):
            if value is not absent:
                inputs[key] = value
        assert_same(inputs)
        assert_same({**inputs, "supportLevel": "medium", "faithfulnessScore": 0.6})


def test_clamps_at_both_ends() -> None:
    top = {"supportLevel": "high", "faithfulnessScore": 1, "citationCount": 3}
    assert_same(top)  # 30 + 2 -> 30.0, clamp -2.0
    assert_same({**top, "citationCount": 2})  # 31 -> 30.0
    assert_same({**top, "citationCount": 1})  # exactly 30 -> 30.0, no clamp
    bottom = {
        "supportLevel": "low",
        "requiresExpertReview": True,
        "externalConstraintNote": "n",
        "hasConflict": True,
        "faithfulnessScore": 0.1,
        "invalidCitationCount": 3,
        "citationCoverageScore": 0.1,
    }
    assert_same(bottom)  # negative -> 0.0
    assert_same({"supportLevel": "low", "requiresExpertReview": True, "hasConflict": True})  # -3
    assert_same(
        {
            "supportLevel": "low",
            "faithfulnessScore": 0.95,
            "externalConstraintNote": "n",
            "requiresExpertReview": True,
        }
    )  # exactly 0 -> 0.0, no clamp


def test_random_combinations() -> None:
    rng = random.Random(20240607)
    fields: dict[str, list[Any]] = {
        "documentsSilent": [True, False, None],
        "supportLevel": SUPPORT,
        "ambiguityNotes": TRUTHY_PROBES,
        "requiresExpertReview": [True, False, 1],
        "externalConstraintNote": ["n", "", None, 2],
        "hasConflict": [True, False, None],
        "queryComplexity": ["direct", "inferential", "multi-hop", "comparative", "odd", None, 0],
        "faithfulnessScore": SIGNALS,
        "claimSupport": CLAIMS,
        "invalidCitationCount": SIGNALS,
        "citationCoverageScore": SIGNALS,
        "citationCount": SIGNALS,
    }
    for _ in range(4000):
        inputs = {key: rng.choice(pool) for key, pool in fields.items() if rng.random() < 0.6}
        assert_same(inputs)


def test_inputs_that_are_not_a_plain_dict() -> None:
    inputs = {"supportLevel": "medium", "faithfulnessScore": 0.6, "citationCount": 2}
    assert_same(MappingProxyType(inputs))

    class Inputs(dict[str, Any]):
        def get(self, key: str, default: Any = None) -> Any:
            return "high" if key == "supportLevel" else super().get(key, default)

    assert_same(Inputs(inputs))
    assert_same(None)
    assert_same([("supportLevel", "high")])
    assert isinstance(MappingProxyType(inputs), Mapping)


BAND_CONFIGS: list[Any] = [
    {},
    {"relevance": None},
    {"relevance": {"required": True}},
    {"relevance": {"scoreBands": None}},
    {"relevance": {"scoreBands": {}}},
    {"relevance": {"scoreBands": {"full": 0.95, "low": 0.2}}},
    {"relevance": {"scoreBands": {"full": 1, "high": 1, "medium": 0, "low": 0}}},
    {"relevance": {"scoreBands": {"high": 0.8, "extra": 3}}},
    {"relevance": {"scoreBands": {"full": 10**30, "high": 10**20}}},
    {"relevance": {"scoreBands": {"full": 0.5}}},  # full < high: INVALID_CONFIG
    {"relevance": {"scoreBands": {"low": NAN}}},
    {"relevance": {"scoreBands": {"low": "0.1"}}},
    {"relevance": {"scoreBands": [0.9]}},
    {"relevance": {"scoreBands": MappingProxyType({"full": 0.92})}},
    {"relevance": MappingProxyType({"scoreBands": {"full": 0.92}})},
    {"relevance": "not an object"},
    {"relevance": []},
    MappingProxyType({"relevance": {"scoreBands": {"full": 0.92}}}),
]


def test_relevance() -> None:
    absent = object()
    for value, config in itertools.product([*SIGNALS, absent], BAND_CONFIGS):
        inputs: dict[str, Any] = {"supportLevel": "high"}
        if value is not absent:
            inputs["answerRelevanceScore"] = value
        assert_same_relevance(inputs, config)
    rng = random.Random(11)
    for _ in range(2000):
        assert_same_relevance({"answerRelevanceScore": rng.random()})
    assert_same_relevance(MappingProxyType({"answerRelevanceScore": 0.8}))
    assert_same_relevance(None)


def test_the_comparison_sees_types_order_and_nan() -> None:
    assert typed_fields(21) != typed_fields(21.0)
    assert typed_fields({"a": 1, "b": 2}) != typed_fields({"b": 2, "a": 1})
    assert typed_fields(NAN) == typed_fields(NAN)
    assert typed_fields(0.0) != typed_fields(-0.0)
