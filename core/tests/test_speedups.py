"""The core's compiled twins agree with the pure-Python reference, branch by branch.

``assay._scorecard._speedups`` mirrors ``Scorer.compute``, ``check_common_inputs`` and
``dimension_score``. Here both are run side by side on compositions of the test's own
dimensions (no plugin needed), including the odd inputs where only Python's own semantics
decide: ints against floats, NaN, a zero maximum, non-numeric points, strict mode, custom
policies. The end-to-end comparison over every conformance vector is tests/test_speedups.py.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import pytest

import assay
from assay import _wire
from assay._scorecard import engine, input_checks, types
from assay.testing import typed_fields

speedups = pytest.importorskip(
    "assay._scorecard._speedups",
    reason="the compiled twin is not built (no C compiler at install time); "
    "tests/test_speedups.py fails in that case, so CI cannot ship without it",
)


class Points(assay.Dimension):
    """A dimension whose raw, max, tier, extension flag and warnings the test chooses."""

    def __init__(
        self,
        name: str,
        raw: Any,
        max_points: Any,
        tier: int = 1,
        extension: bool = False,
        warnings: tuple[assay.ScoreWarning, ...] = (),
    ) -> None:
        self.name = name
        self.raw = raw
        self.max_points = max_points
        self.default_weight = 10
        self.tier = tier
        self.extension = extension
        self.warnings = warnings

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        return types.PURE_DIMENSION_SCORE(
            raw=self.raw, max_points=self.max_points, explanation="x", warnings=self.warnings
        )


class Inactive(Points):
    def is_active(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> bool:
        return False


class Checked(Points):
    check_order = 5

    def check_inputs(
        self, inputs: Mapping[str, Any], config: Mapping[str, Any]
    ) -> list[assay.ScoreWarning]:
        return [assay.ScoreWarning("checked", "warn", "checked by the dimension", "x")]


class Lenient:
    """A third-party policy: answers everything (the engine must call it, not the inlined one)."""

    name = "lenient"

    def decide(self, evidence: assay.ScorecardEvidence) -> assay.Decision:
        return assay.Decision("answer", "lenient", f"total {evidence.total}")


WARN = assay.ScoreWarning("missing-conflict-signal", "warn", "no conflict signal", "hasConflict")
BASE = {"supportLevel": "high", "hasConflict": False, "candidates": []}
CANDIDATE = {"retrievalScores": {"semantic": 0.8, "keyword": 0.6}, "combinedScore": 0.7}


def _outcome(function: Any, *args: Any) -> Any:
    try:
        result = function(*args)
        return ["ok", typed_fields(assay.to_wire(result)), typed_fields(result)]
    except assay.AssayError as error:
        return ["AssayError", error.code, error.path, str(error)]
    except Exception as error:  # Python's own errors must match too
        return [type(error).__name__, str(error)]


def _both(scorer: assay.Scorer, inputs: Any) -> tuple[Any, Any]:
    return _outcome(engine.PURE_COMPUTE, scorer, inputs), _outcome(speedups.compute, scorer, inputs)


def _scorer(*dims: Any, config: dict[str, Any] | None = None, policy: Any = None) -> assay.Scorer:
    registry = assay.build_registry(load_entry_points=False)
    return assay.create_scorer(
        config or {}, dimensions=list(dims), policy=policy, registry=registry
    )


COMPOSITIONS = {
    "ints": [Points("a", 15, 30), Points("b", 10, 10)],
    "floats": [Points("a", 12.5, 25.0), Points("b", 3.3, 10.0)],
    "tier 2 and extension": [
        Points("a", 20, 25),
        Points("b", 4, 10, tier=2, extension=True),
        Points("c", 1.5, 3.0, tier=2),
    ],
    "only tier 2": [Points("b", 4, 10, tier=2)],
    "nan points": [Points("a", math.nan, 25.0), Points("b", 5, 10)],
    "zero maximum": [Points("a", 0, 0)],
    "text points": [Points("a", "3", 10)],
    "bool points": [Points("a", True, 10)],
    "inactive and checked": [Inactive("a", 5, 10), Checked("b", 7, 10), Points("c", 2, 10)],
    "warnings deduplicated": [
        Points("a", 5, 10, warnings=(WARN,)),
        Points("b", 5, 10, warnings=(WARN,)),
    ],
    "top score": [Points("a", 10, 10)],
    "bottom score": [Points("a", 0, 10)],
}
CONFIGS = {
    "default": {},
    "strict": {"validation": "strict"},
    "weights": {"weights": {"a": 2.5, "b": 7}},
    "thresholds": {"actionPolicy": {"answerAt": 55.5, "reviewAt": 30, "abstainBelow": 10}},
    "tier1 floor": {"actionPolicy": {"requireTier1AtLeast": 95}},
    "abstain on warning": {"actionPolicy": {"abstainOnWarnings": ["input-out-of-range"]}},
    "no review warnings": {"actionPolicy": {"reviewOnWarnings": []}},
    "signal policy": {
        "signalPolicy": {
            "require": ["faithfulnessScore", "citationCount"],
            "reviewWhenMissing": ["citationCount"],
            "abstainWhenMissing": ["faithfulnessScore"],
        }
    },
    "review when missing": {
        "signalPolicy": {"require": ["citationCount"], "reviewWhenMissing": ["citationCount"]}
    },
    "citation floor": {"signalPolicy": {"minCitationCoverageScore": 0.9}},
}
INPUTS = {
    "empty": BASE,
    "candidates": {**BASE, "candidates": [CANDIDATE, {**CANDIDATE, "combinedScore": 0.4}]},
    "out of range": {
        **BASE,
        "faithfulnessScore": 1.5,
        "citationCoverageScore": "high",
        "claimSupport": {"totalClaims": 2, "supportedClaims": 5},
        "candidates": [{"retrievalScores": {"a": -1, "b": None}, "combinedScore": math.nan}],
    },
    "documents silent": {**BASE, "documentsSilent": True},
    "nan combined": {**BASE, "candidates": [{"retrievalScores": {}, "combinedScore": math.inf}]},
    "tuple candidates": {**BASE, "candidates": (CANDIDATE,)},
    "not an object": [1, 2],
    "no candidates": {"supportLevel": "high"},
    "candidate not an object": {**BASE, "candidates": [3]},
    "scores not an object": {**BASE, "candidates": [{"retrievalScores": [0.3]}]},
}


@pytest.mark.parametrize("composition", COMPOSITIONS)
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("inputs", INPUTS)
def test_compute_twin_matches_reference(composition: str, config: str, inputs: str) -> None:
    scorer = _scorer(*COMPOSITIONS[composition], config=CONFIGS[config])
    pure, compiled = _both(scorer, INPUTS[inputs])
    assert compiled == pure


def test_compute_twin_takes_typed_inputs() -> None:
    inputs = assay.ScoringInputs(
        support_level="medium",
        has_conflict=True,
        candidates=[assay.Candidate(retrieval_scores={"semantic": 0.9}, combined_score=0.9)],
    )
    pure, compiled = _both(_scorer(Points("a", 6, 10)), inputs)
    assert compiled == pure and compiled[0] == "ok"


@pytest.mark.parametrize("inputs", ["empty", "documents silent", "out of range"])
def test_compute_twin_calls_a_third_party_policy(inputs: str) -> None:
    scorer = _scorer(Points("a", 3, 10), policy=Lenient())
    pure, compiled = _both(scorer, INPUTS[inputs])
    assert compiled == pure
    assert speedups.compute(scorer, INPUTS[inputs]).recommended_action == "answer"


@pytest.mark.parametrize("inputs", INPUTS)
def test_input_checks_twin_matches_reference(inputs: str) -> None:
    def run(function: Any) -> Any:
        try:
            return [(w.code, w.severity, w.message, w.path) for w in function(INPUTS[inputs])]
        except assay.AssayError as error:
            return [error.code, error.path, str(error)]

    assert run(speedups.check_common_inputs) == run(input_checks.check_common_inputs)


@pytest.mark.parametrize(
    "arguments",
    [
        {"raw": 12, "max_points": 25},
        {"raw": 12.5, "max_points": 25.0, "uncapped_raw": 14.0},
        {"raw": 0, "max_points": 0},
        {"raw": math.nan, "max_points": 10.0},
        {"raw": 7, "max_points": 10, "normalized": 71},
        {"raw": 1, "max_points": 3, "warnings": None},
        {"raw": 1, "max_points": 3, "warnings": [WARN]},
        {"raw": 2, "max_points": 4, "components": {"a": 2}, "adjustments": {"cap": -1}},
        {"raw": 2, "max_points": 4, "diagnostics": {"count": 3}},
        {"raw": "2", "max_points": 4},
    ],
)
def test_dimension_score_twin_matches_reference(arguments: dict[str, Any]) -> None:
    arguments = {"explanation": "why", **arguments}
    pure = _outcome(lambda: types.PURE_DIMENSION_SCORE(**arguments))
    compiled = _outcome(lambda: speedups.dimension_score(**arguments))
    assert compiled == pure


def test_twin_records_equal_records_built_by_their_classes() -> None:
    built = speedups.dimension_score(raw=3, max_points=10, explanation="e")
    assert built == types.PURE_DIMENSION_SCORE(raw=3, max_points=10, explanation="e")
    with pytest.raises(AttributeError):
        built.raw = 4  # type: ignore[misc]  # still frozen


# the compositions that produce a scorecard (a zero maximum and text points raise, in both)
SCORING = [name for name in COMPOSITIONS if name not in ("zero maximum", "text points")]


@pytest.mark.parametrize("composition", SCORING)
@pytest.mark.parametrize("inputs", ["empty", "out of range", "documents silent"])
def test_wire_twin_matches_reference(composition: str, inputs: str) -> None:
    scorer = _scorer(*COMPOSITIONS[composition], config=CONFIGS["signal policy"])
    card = engine.PURE_COMPUTE(scorer, INPUTS[inputs])
    pure = typed_fields(_wire.PURE_SCORECARD_TO_WIRE(card))
    assert typed_fields(speedups.scorecard_to_wire(card)) == pure


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1.0, "b": [1, 2.5, {"c": "x"}], "d": None, "e": True},
        {"a": [1.0, (2.0, math.nan)]},
        {"a": {"b": {"c": math.inf}}},
        [-math.inf],
        (1, 2),
        "text",
        3,
        2.5,
        math.nan,
    ],
)
def test_all_finite_twin_matches_reference(value: Any) -> None:
    assert speedups.all_finite(value) == _wire.PURE_ALL_FINITE(value)


def _normalized(text: str) -> str:
    """JSON text re-written by the json module: same values, types and key order, one style."""
    return json.dumps(json.loads(text), ensure_ascii=False)


class Diagnosed(Points):
    """A dimension whose diagnostics and explanation the test chooses."""

    def __init__(self, diagnostics: Any, explanation: str = "x") -> None:
        super().__init__("a", 5, 10)
        self.diagnostics, self.explanation = diagnostics, explanation

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        return types.PURE_DIMENSION_SCORE(
            raw=5.5,
            max_points=10,
            explanation=self.explanation,
            diagnostics=self.diagnostics,
            components={"big": 2**40, "negative": -(2**63), "whole": 3.0},
        )


WRITABLE = {
    "plain": ({"count": 3, "ratio": 0.25}, "plain"),
    "escapes": ({"text": 'quote " backslash \\ newline \n tab \t bell \x07'}, "ctl \x01\x1f"),
    "unicode": ({"text": "café — ünïcode ✓ 𝄞"}, "em dash — and 𝄞"),
    "nested": ({"list": [1, 2.5, 3.0, None, True, False], "dict": {"a": [{"b": -0.0}]}}, "n"),
    "tuples": ({"pair": (1, "two")}, "t"),
    "tiny and huge floats": ({"tiny": 1e-7, "nested": [1.5e300, 2.0], "whole": 1e15}, "f"),
}
TAGGED = {
    "nan": {"value": math.nan},
    "nested infinity": {"list": [math.inf, -math.inf]},
    # to_json_safe writes a nested integral float below 2**53 as an int, above it as a float
    "nan beside nested integral floats": {"value": math.nan, "list": [2.0, -0.0, 1e16, 0.5]},
}
UNWRITABLE = {
    "integer beyond 64 bits": {"value": 2**70},
    "integral float beyond 2**63": {"value": 1e19},
    "a datetime": {"when": __import__("datetime").datetime(2026, 1, 1)},
    "a key that is not text": {"nested": {1: "one"}},
    "a lone surrogate": {"text": "\ud800"},
}


@pytest.mark.parametrize("case", WRITABLE)
def test_direct_json_writer_matches_the_reference_text(case: str) -> None:
    diagnostics, explanation = WRITABLE[case]
    card = engine.PURE_COMPUTE(_scorer(Diagnosed(diagnostics, explanation)), INPUTS["out of range"])
    text = speedups.scorecard_json(card)
    assert text is not None
    reference = _wire.wire_to_json(_wire.PURE_SCORECARD_TO_WIRE(card))
    assert _normalized(text) == _normalized(reference)
    # byte for byte the json module's compact text of the same values
    assert text == json.dumps(json.loads(reference), ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("case", TAGGED)
def test_direct_json_writer_tags_non_finite_numbers_as_the_reference_does(case: str) -> None:
    card = engine.PURE_COMPUTE(_scorer(Diagnosed(TAGGED[case])), INPUTS["empty"])
    text = speedups.scorecard_json(card)
    assert text is not None
    assert text == _wire.wire_to_json(_wire.PURE_SCORECARD_TO_WIRE(card))
    assert '{"$float":' in text


@pytest.mark.parametrize("case", UNWRITABLE)
def test_direct_json_writer_leaves_what_it_cannot_write_to_the_reference_path(case: str) -> None:
    card = engine.PURE_COMPUTE(_scorer(Diagnosed(UNWRITABLE[case])), INPUTS["empty"])
    assert speedups.scorecard_json(card) is None
    if case != "a lone surrogate":  # no UTF-8 text can carry it; json writes it escaped
        json.loads(assay.scorecard_to_json(card))  # the public function still writes it


def _float_sweep(count: int) -> list[float]:
    """Seeded floats of every shape the writer meets: short decimals of every magnitude (its
    fast path), the edges of that path, and arbitrary bit patterns (the dtoa fallback)."""
    import random
    import struct

    rng = random.Random(20261122)
    values = [1e-4, 9.999999999999999e-05, 1e15, 999999999999999.9, 0.1 + 0.2, 1 / 3, 25.0]
    for _ in range(count):
        values.append(round(rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-12, 9), rng.randint(0, 10)))
        values.append(rng.randint(1, 10**9) / 10 ** rng.randint(1, 9))
        values.append(struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0])
        values.append(rng.random())
    return [value for value in values if math.isfinite(value)] + [-value for value in values]


def test_float_text_is_repr_for_every_kind_of_float() -> None:
    mismatches = [
        (value, speedups.float_text(value))
        for value in _float_sweep(50_000)
        if math.isfinite(value) and speedups.float_text(value) != repr(value)
    ]
    assert mismatches == []


def test_float_text_tags_non_finite_numbers() -> None:
    assert [speedups.float_text(v) for v in (math.nan, math.inf, -math.inf)] == [
        '{"$float":"NaN"}',
        '{"$float":"Infinity"}',
        '{"$float":"-Infinity"}',
    ]


def test_direct_json_writer_escapes_strings_of_every_make_up_as_json_does() -> None:
    """Seeded strings of 0-40 characters mixing plain ASCII (the 8-byte fast scan), quotes,
    backslashes, control characters and non-ASCII text, as keys, values and explanations."""
    import random

    rng = random.Random(2026)
    alphabet = ["a", "Z", " ", "7", '"', "\\", "\n", "\x00", "\x1f", "\x7f", "é", "—", "𝄞"]
    weights = [30, 10, 10, 10, 2, 2, 2, 1, 1, 1, 2, 2, 1]

    def text() -> str:
        return "".join(rng.choices(alphabet, weights, k=rng.randint(0, 40)))

    for _ in range(300):
        diagnostics = {text(): text() for _ in range(3)}
        card = engine.PURE_COMPUTE(_scorer(Diagnosed(diagnostics, text())), INPUTS["empty"])
        written = speedups.scorecard_json(card)
        assert written == json.dumps(
            json.loads(_wire.wire_to_json(_wire.PURE_SCORECARD_TO_WIRE(card))),
            ensure_ascii=False,
            separators=(",", ":"),
        )
