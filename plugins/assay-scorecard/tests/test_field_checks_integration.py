"""Unknown and misspelled fields through the public API (compute_confidence, create_scorer,
`assay score`): strict validation raises, warn mode warns and leaves the scorecard unchanged.

These need the scorer to call assay_scorecard.field_checks (Scorer.__init__, Scorer._compute and
create_scorer in engine.py)."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
import assay.testing
import assay_scorecard
import assay_scorecard.plugin
from assay_scorecard import compute_confidence, create_scorer, scorecard_to_wire
from assay_scorecard.field_checks import FieldWarning
from assay_scorecard.presets import DEFAULT_DIMENSIONS

CANDIDATE = {"retrievalScores": {"a": 0.9, "b": 0.8}, "combinedScore": 0.9}
INPUTS = {"supportLevel": "high", "hasConflict": False, "candidates": [CANDIDATE]}
STRICT = {"validation": "strict"}
needs_dimensions = pytest.mark.skipif(
    not all(assay.default_registry().has("dimension", name) for name in DEFAULT_DIMENSIONS),
    reason="needs every dimension of the default preset (uv run --all-packages installs them)",
)
ERRORS_DOC = Path(__file__).resolve().parents[3] / "docs" / "errors.md"
FIELD_ROW = re.compile(
    r"^\| (INVALID_INPUT|INVALID_CONFIG) \| (unknown-field|invalid-value) \| ([^|]+?) \| "
    r"`(\{.*\})` \| .* \|$"
)


def quietly(inputs: Any, config: Any = None) -> assay_scorecard.Scorecard:
    """compute_confidence, failing on any FieldWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", FieldWarning)
        return compute_confidence(inputs, config)


def field_warnings(record: list[warnings.WarningMessage]) -> list[tuple[str, str]]:
    found = [w.message for w in record if isinstance(w.message, FieldWarning)]
    return [(w.warning.code, w.warning.path) for w in found]


# ------------------------------------------------------------------ warn mode
@needs_dimensions
def test_a_typo_warns_and_the_scorecard_is_the_references() -> None:
    typo = {"support_level": "high", "hasConflict": False, "candidates": [CANDIDATE]}
    with pytest.warns(
        FieldWarning, match=r"^support_level: unknown input field; did you mean 'supportLevel'\?$"
    ) as caught:
        card = compute_confidence(typo)
    assert field_warnings(caught.list) == [("unknown-field", "support_level")]
    # scored as transparent-confidence 0.3 scores it: as if the key were absent
    absent = {key: value for key, value in typo.items() if key != "support_level"}
    assert scorecard_to_wire(card) == scorecard_to_wire(quietly(absent))
    assert not {"unknown-field", "invalid-value"} & {w.code for w in card.meta.warnings}
    # which is what the warning is for: the intended input is answered, the typo is not
    assert (card.recommended_action, quietly(INPUTS).recommended_action) == ("review", "answer")


@needs_dimensions
def test_clean_inputs_and_typed_inputs_do_not_warn() -> None:
    quietly(INPUTS)
    typed = assay_scorecard.ScoringInputs(
        support_level="high",
        has_conflict=False,
        candidates=[assay_scorecard.Candidate({"a": 0.9, "b": 0.8}, 0.9, document_id="d")],
        claim_support=assay_scorecard.ClaimSupport(2, 2),
        index_integrity=assay_scorecard.IndexIntegrityInputs(acl_filter_confirmed=True),
    )
    quietly(typed, STRICT)


@needs_dimensions
def test_a_config_typo_warns_once_per_config() -> None:
    config = {"retrival": {"topK": 7}, "weights": {"grounding": 30}}
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        compute_confidence(INPUTS, config)
        compute_confidence(INPUTS, config)  # the scorer built for this config is kept
    assert field_warnings(seen) == [("unknown-field", "retrival")]
    assert [w.filename for w in seen if isinstance(w.message, FieldWarning)] == ["scoring config"]


# ------------------------------------------------------------------ strict validation
@pytest.mark.parametrize(
    ("inputs", "path", "message"),
    [
        (
            {"support_level": "high", "hasConflict": False, "candidates": [CANDIDATE]},
            "support_level",
            "unknown input field; did you mean 'supportLevel'?",
        ),
        (
            {**INPUTS, "supportLevel": "High"},
            "supportLevel",
            "'High' is not one of 'high', 'medium', 'low'; did you mean 'high'?",
        ),
        (
            {**INPUTS, "candidates": [CANDIDATE, {**CANDIDATE, "documnetId": "d"}]},
            "candidates[1].documnetId",
            "unknown input field; did you mean 'documentId'?",
        ),
        (
            {**INPUTS, "claimSupport": {"totalClaims": 2, "supportedClaims": 2, "contradicted": 0}},
            "claimSupport.contradicted",
            "unknown input field; did you mean 'contradictedClaims'?",
        ),
        (
            {**INPUTS, "indexIntegrity": {"acl_filter_confirmed": True}},
            "indexIntegrity.acl_filter_confirmed",
            "unknown input field; did you mean 'aclFilterConfirmed'?",
        ),
        (
            {**INPUTS, "hasConflict": "false"},
            "hasConflict",
            "expected a boolean, got the string 'false'",
        ),
        (
            {**INPUTS, "faithfulness_score": 0.95},
            "faithfulness_score",
            "unknown input field; did you mean 'faithfulnessScore'?",
        ),
    ],
)
@needs_dimensions
def test_strict_raises_invalid_input(inputs: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        compute_confidence(inputs, STRICT)
    assert (caught.value.code, caught.value.path, caught.value.message) == (
        "INVALID_INPUT",
        path,
        message,
    )


@needs_dimensions
def test_strict_raises_the_references_own_input_problem_first() -> None:
    inputs = {**INPUTS, "documentsSilent": True, "support_level": "high"}
    with pytest.raises(assay.AssayError) as caught:
        compute_confidence(inputs, STRICT)
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "documentsSilent")


@pytest.mark.parametrize(
    ("config", "path"),
    [
        ({"retrival": {}}, "retrival"),
        ({"weights": {"retreival": 20}}, "weights.retreival"),
        ({"actionPolicy": {"answer_at": 80}}, "actionPolicy.answer_at"),
        (
            {"signalPolicy": {"reviewWhenMissing": ["conflict_signal"]}},
            "signalPolicy.reviewWhenMissing[0]",
        ),
        ({"preset": "Production-v0.3"}, "preset"),
    ],
)
@needs_dimensions
def test_strict_raises_invalid_config(config: dict[str, Any], path: str) -> None:
    with pytest.raises(assay.AssayError) as caught:
        create_scorer({**config, **STRICT})
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", path)


@needs_dimensions
def test_strict_raises_the_references_own_config_error_first() -> None:
    config = {"retrival": {}, "retrieval": {"topK": 0}, **STRICT}
    with pytest.raises(assay.AssayError) as caught:
        create_scorer(config)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "retrieval.topK")


@needs_dimensions
def test_a_typed_config_with_a_misspelled_section() -> None:
    typed = assay_scorecard.ScoringConfig(validation="strict", sections={"freshnes": {}})
    with pytest.raises(assay.AssayError) as caught:
        create_scorer(typed)
    assert (caught.value.path, caught.value.message) == (
        "freshnes",
        "unknown config field; did you mean 'freshness'?",
    )


# ------------------------------------------------------------------ dimensions' own fields
class Reader(assay.Dimension):
    name = "reader"
    tier = 1
    max_points = 10.0
    default_weight = 10.0
    reads = frozenset({"answerText"})

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        return assay.dimension_score(raw=10, max_points=10, explanation="reads the answer")


class Blind(Reader):
    name = "blind"
    reads = frozenset()


def test_a_field_is_known_when_a_dimension_of_the_scorer_reads_it() -> None:
    registry = assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )
    inputs = {**INPUTS, "answerText": "an answer"}
    create_scorer(STRICT, dimensions=[Reader()], registry=registry).compute(inputs)
    with pytest.raises(assay.AssayError) as caught:
        create_scorer(STRICT, dimensions=[Blind()], registry=registry).compute(inputs)
    assert (caught.value.code, caught.value.path) == ("INVALID_INPUT", "answerText")
    # a section or weight of a dimension outside the composition is unknown too
    with pytest.raises(assay.AssayError) as caught:
        create_scorer({**STRICT, "weights": {"reader": 2}}, dimensions=[Blind()], registry=registry)
    assert caught.value.path == "weights.reader"


# ------------------------------------------------------------------ docs and CLI
def _field_rows() -> list[tuple[str, str, str, dict[str, Any]]]:
    rows = []
    for line in ERRORS_DOC.read_text(encoding="utf-8").splitlines():
        match = FIELD_ROW.match(line)
        if match:
            code, warning, path, payload = match.groups()
            rows.append((code, warning, path, json.loads(payload)))
    return rows


FIELD_ROWS = _field_rows()


def test_the_docs_table_has_rows() -> None:
    assert len(FIELD_ROWS) >= 10


@pytest.mark.parametrize(
    ("code", "warning", "path", "payload"), FIELD_ROWS, ids=[r[2] for r in FIELD_ROWS]
)
@needs_dimensions
def test_docs_row(code: str, warning: str, path: str, payload: dict[str, Any]) -> None:
    inputs, config = payload["inputs"], payload.get("config", {})
    with pytest.raises(assay.AssayError) as caught:
        compute_confidence(inputs, {**config, **STRICT})
    assert (caught.value.code, caught.value.path) == (code, path)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        create_scorer(config).compute(inputs)  # a scorer of its own: its config is checked
    assert (warning, path) in field_warnings(seen)


@needs_dimensions
def test_assay_score_prints_the_warning_and_the_strict_error() -> None:
    cli = assay.testing.plugin_cli(assay_scorecard.plugin)
    typo = {"inputs": {"support_level": "high", "hasConflict": False, "candidates": [CANDIDATE]}}
    with pytest.warns(FieldWarning, match="did you mean 'supportLevel'"):
        result = CliRunner().invoke(cli, ["score", "--json", "-"], input=json.dumps(typo))
    assert result.exit_code == 0
    strict = {**typo, "config": STRICT}
    result = CliRunner().invoke(cli, ["score", "-"], input=json.dumps(strict))
    assert result.exit_code == int(assay.ExitCode.USAGE)
    assert (
        "error [INVALID_INPUT] support_level: unknown input field; did you mean 'supportLevel'?"
        in result.output
    )
