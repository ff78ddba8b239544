"""Hostile input to the bridges: only AssayError escapes; junk TruLens input is an error, a
list of FeedbackResults is read, a mapping that matches nothing is a warning; ``assay bridge``
refuses NaN in ``--inputs``, deep nesting and 5,000-digit integers with exit 2. Includes a
bounded, seeded fuzz test over the public entry points."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
import assay_bridges as B
from assay import ExitCode
from assay.testing import mutated_json, only_assay_errors, plugin_cli
from assay_bridges import plugin
from assay_bridges.catalog import BUILTIN_BRIDGES

# the shape of TruLens 2.16's FeedbackResult (wait_for_feedback_results(), legacy mode)
FEEDBACK = [
    {
        "feedback_result_id": "fr1",
        "record_id": "rec1",
        "status": "done",
        "name": "token_overlap",
        "result": 0.66,
        "error": None,
    },
    {
        "feedback_result_id": "fr2",
        "record_id": "rec1",
        "status": "done",
        "name": "answer_in_context",
        "result": 0.5,
        "error": None,
    },
]
ROW = {"record_id": "rec1", "groundedness": 0.8, "groundedness_calls": [], "other": 1}


def test_huge_int_metric_is_a_warning_not_an_overflow():
    result = B.from_ragas_row({"user_input": "q", "faithfulness": 10**400})
    assert result.signals.faithfulness_score is None
    assert [w.code for w in result.warnings] == [B.WarningCode.OUT_OF_RANGE]


@pytest.mark.parametrize("junk", [{"junk": 1, "x": [1, 2]}, [{"a": 1}], [1]])
def test_trulens_junk_is_a_coded_error(junk):
    with pytest.raises(assay.AssayError) as caught:
        B.from_trulens(junk)
    assert (caught.value.code, caught.value.path) == ("MALFORMED_INPUT", "[0]")


def test_trulens_reads_a_list_of_feedback_results():
    (result,) = B.from_trulens(FEEDBACK, metrics={"token_overlap": "faithfulnessScore"})
    assert result.sample_id == "rec1"
    assert result.signals.faithfulness_score == 0.66


def test_trulens_mapping_that_matches_nothing_is_a_warning():
    (result,) = B.from_trulens([ROW], metrics={"nosuch": "answerRelevanceScore"})
    assert result.signals.faithfulness_score == 0.8
    unmatched = [w for w in result.warnings if w.code == B.WarningCode.MAPPING_UNMATCHED]
    assert [(w.severity, w.path) for w in unmatched] == [("warn", "nosuch")]


@pytest.fixture
def cli() -> click.Group:
    return plugin_cli(plugin)


def test_bridge_cli_refuses_nan_in_inputs(cli, tmp_path):
    (tmp_path / "r.json").write_text('[{"user_input": "q", "faithfulness": 0.9}]')
    (tmp_path / "i.json").write_text(
        '{"supportLevel": "high", "candidates": [{"retrievalScores": {"a": NaN}}]}'
    )
    result = CliRunner().invoke(
        cli, ["bridge", "ragas", str(tmp_path / "r.json"), "--inputs", str(tmp_path / "i.json")]
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output.startswith("error [MALFORMED_INPUT] ")
    assert "NaN" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('[{"faithfulness": ' + "1" * 5000 + "}]", "too many digits"),
        ('{"junk": 1}', "not a TruLens records-and-feedback record"),
    ],
)
def test_bridge_cli_bad_file_is_a_coded_usage_error(cli, tmp_path, content, message):
    (tmp_path / "r.json").write_text(content)
    evaluator = "trulens" if "junk" in content else "ragas"
    result = CliRunner().invoke(cli, ["bridge", evaluator, str(tmp_path / "r.json")])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output.startswith("error [")
    assert message in result.output


# --------------------------------------------------------------------------- fuzz


RAGAS = [{"user_input": "q", "faithfulness": 0.9, "answer_relevancy": 0.7}]
INPUTS = {"supportLevel": "high", "hasConflict": False, "candidates": []}


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    st.sampled_from(["ragas", "trulens", "deepeval", "custom-judge"]),
    mutated_json({"ragas": RAGAS, "trulens": [ROW], "feedback": FEEDBACK}),
    st.one_of(st.none(), mutated_json({"faithfulness": "faithfulnessScore"})),
    mutated_json(INPUTS),
)
def test_fuzz_bridges_raise_only_assay_error(evaluator, documents, metrics, inputs):
    bridge = {b.name: b for b in BUILTIN_BRIDGES}[evaluator]
    for document in documents.values() if isinstance(documents, dict) else [documents]:
        only_assay_errors(lambda d=document: bridge.extract(d, metrics=metrics))
    only_assay_errors(lambda: B.from_trulens_feedback(documents))
    results = B.from_ragas(RAGAS)
    only_assay_errors(lambda: B.merge_evaluation_signals(inputs, results[0]))
