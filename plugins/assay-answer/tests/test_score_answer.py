"""score_answer end to end, with the real text detector: the example, the command line, and
real HaluEval answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_data import needs_shared, shared_path

import assay
import assay.testing
import assay_scorecard.plugin
from assay_answer import score_answer
from assay_scorecard import score_answer_record
from assay_scorecard.field_checks import FieldWarning

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "answer_first.py"
DATA = ROOT / "examples" / "data" / "answer_first.jsonl"
QUESTION = "How many unused vacation days can I carry over into next year?"
HANDBOOK = (
    "Employees may carry over up to 5 unused vacation days into the next calendar year. "
    "Days above that limit expire on December 31."
)


def test_one_call_from_text_to_a_decision() -> None:
    contexts = [
        {"id": "handbook-7", "text": HANDBOOK, "retrievalScores": {"dense": 0.9, "bm25": 0.8}}
    ]
    right = score_answer(
        QUESTION, "Employees may carry over up to 5 unused vacation days.", contexts
    )
    wrong = score_answer(
        QUESTION, "Employees may carry over up to 12 unused vacation days.", contexts
    )
    assert right.scorecard.recommended_action == "answer"
    assert right.inputs["claimSupport"]["supportedClaims"] == 1
    assert (wrong.scorecard.recommended_action, wrong.scorecard.action_rule) == (
        "abstain",
        "abstain-on-warning",
    )
    (claim,) = wrong.evidence.unsupported_claims
    assert ("number", "12") in {(item.kind, item.text) for item in claim.unsupported}
    assert claim.source == "handbook-7"
    assert "12" in wrong.render_text() and "handbook-7" in wrong.render_html()


def test_plain_string_contexts_are_checked_but_give_no_retrieval_confidence() -> None:
    result = score_answer(
        QUESTION, "Employees may carry over up to 5 unused vacation days.", [HANDBOOK]
    )
    assert result.inputs["candidates"] == []
    assert result.scorecard.recommended_action == "review"  # supported, but no retrieval signal
    assert "candidates" in result.scorecard.meta.missing_signals
    assert "missing signal: candidates" in result.evidence.notes[0]
    # the grounded-v1 floor docs/answer-first.md states: 20, where the default policy has 40
    card = result.scorecard
    assert (card.total, card.action_rule) == (46, "review-at")
    assert card.action_reason == "Score 46 meets reviewAt threshold (20)."
    doc = (ROOT / "docs" / "answer-first.md").read_text(encoding="utf-8")
    assert "(`Score 46 meets reviewAt threshold (20).`)" in doc


def test_the_pipelines_own_signals_and_a_config_are_honoured() -> None:
    result = score_answer(
        QUESTION,
        "Employees may carry over up to 5 unused vacation days.",
        [HANDBOOK],
        {"preset": "balanced-v0.3", "relevance": {"required": True}},
        signals={"answerRelevanceScore": 0.9},
    )
    assert result.inputs["answerRelevanceScore"] == 0.9
    assert "relevance" in result.scorecard.dimensions


SCORED = [{"id": "handbook-7", "text": HANDBOOK, "retrievalScores": {"dense": 0.9, "bm25": 0.8}}]
RIGHT = "Employees may carry over up to 5 unused vacation days."


@pytest.mark.parametrize(
    ("signals", "path", "words"),
    [
        ({"support_level": "low"}, "signals.support_level", "did you mean 'supportLevel'?"),
        ({"supportLevel": "High"}, "signals.supportLevel", "did you mean 'high'?"),
        ({"hasConflict": "false"}, "signals.hasConflict", "expected"),
    ],
)
def test_a_misspelled_signal_warns_and_the_derived_one_stands(
    signals: dict[str, str], path: str, words: str
) -> None:
    plain = score_answer(QUESTION, RIGHT, SCORED)
    with pytest.warns(FieldWarning) as caught:
        result = score_answer(QUESTION, RIGHT, SCORED, signals=signals)
    (warning,) = [w.message.warning for w in caught]  # type: ignore[union-attr]
    assert warning.path == path
    assert warning.code in ("unknown-field", "invalid-value")
    assert words in warning.message
    # the report and the score agree: the supported answer is still answered
    assert result.scorecard.recommended_action == plain.scorecard.recommended_action == "answer"
    assert result.scorecard.total == plain.scorecard.total
    assert result.inputs == plain.inputs
    assert any(note.startswith(f"{path} was ignored") for note in result.evidence.notes)


def test_the_note_on_a_misspelled_signal_says_which_derived_signal_stands() -> None:
    with pytest.warns(FieldWarning):
        result = score_answer(
            QUESTION,
            RIGHT,
            SCORED,
            signals={"supportlevel": "low", "supportLevel": "High", "answerRelevance": 0.9},
        )
    assert result.evidence.notes == (
        "signals.supportlevel was ignored (unknown input field; did you mean 'supportLevel'?); "
        "the supportLevel derived from the text stands.",
        "signals.answerRelevance was ignored (unknown input field; did you mean "
        "'answerRelevanceScore'?); nothing replaces it.",  # no relevance is derived
        "signals.supportLevel was ignored ('High' is not one of 'high', 'medium', 'low'; did "
        "you mean 'high'?); the derived value stands.",
    )
    assert result.inputs["supportLevel"] == "high"
    assert "answerRelevanceScore" not in result.inputs


@pytest.mark.parametrize(
    "signals", [{"support_level": "low"}, {"supportLevel": "High"}, {"hasConflict": "false"}]
)
def test_a_misspelled_signal_is_an_error_in_strict_validation(signals: dict[str, str]) -> None:
    with pytest.raises(assay.AssayError) as caught:
        score_answer(QUESTION, RIGHT, SCORED, {"validation": "strict"}, signals=signals)
    assert caught.value.code == "INVALID_ANSWER_RECORD"
    assert caught.value.path == f"signals.{next(iter(signals))}"


WRONG = "Employees may carry over up to 10 unused vacation days into the next calendar year."
STRONG = [  # five chunks found by three methods: balanced-v0.3 reviews WRONG on retrieval alone
    {"id": f"handbook-{i}", "text": HANDBOOK, "retrievalScores": {"a": 0.91, "b": 0.84, "c": 0.88}}
    for i in range(5)
]


@pytest.mark.parametrize("preset", ["grounded-v2", "Grounded-v1", "grounded", 1])
def test_a_preset_that_is_not_registered_falls_back_to_grounded_not_balanced(
    preset: object,
) -> None:
    grounded = score_answer(QUESTION, WRONG, STRONG).scorecard
    balanced = score_answer(QUESTION, WRONG, STRONG, {"preset": "balanced-v0.3"}).scorecard
    assert (grounded.recommended_action, balanced.recommended_action) == ("abstain", "review")
    with pytest.warns(FieldWarning) as caught:
        card = score_answer(QUESTION, WRONG, STRONG, {"preset": preset}).scorecard
    assert (card.recommended_action, card.action_rule) == ("abstain", "abstain-on-warning")
    (warning,) = [w.message.warning for w in caught]  # type: ignore[union-attr]
    assert warning.path == "preset"
    assert "so 'grounded-v1' applies to answer records" in warning.message
    with pytest.raises(assay.AssayError) as refused:
        score_answer(QUESTION, WRONG, STRONG, {"preset": preset, "validation": "strict"})
    assert (refused.value.code, refused.value.path) == ("INVALID_CONFIG", "preset")


def test_the_report_gives_one_meaning_to_support_score() -> None:
    # the detector scores the wrong number high (most words match), yet no claim is supported:
    # its score is the answer score, the support score is the grounding's share of claims
    result = score_answer(QUESTION, WRONG, SCORED)
    assert result.evidence.score > 0.7
    assert (
        result.scorecard.dimensions["grounding"].breakdown.diagnostics["effectiveSupportScore"] == 0
    )
    for report in (result.render_text(), result.render_markdown(), result.render_html()):
        assert f"0 of 1 claim supported; answer score {round(result.evidence.score, 2):g}" in report
        assert report.count("support score") == report.count("ffective support score")


def test_a_valid_signal_of_the_pipeline_overrides_the_derived_one_and_the_report_says_so() -> None:
    result = score_answer(QUESTION, RIGHT, SCORED, signals={"supportLevel": "low"})
    assert result.inputs["supportLevel"] == "low"
    assert result.scorecard.recommended_action != "answer"
    assert (
        'signals.supportLevel given with the record ("low") overrides the value derived from '
        'the text ("high").'
    ) in result.evidence.notes
    assert "overrides the value derived" in result.render_text()


def test_a_raw_bm25_score_sends_a_supported_answer_to_review_and_says_why() -> None:
    raw = [{"id": "handbook-7", "text": HANDBOOK, "retrievalScores": {"dense": 0.82, "bm25": 14.7}}]
    result = score_answer(QUESTION, RIGHT, raw)
    card = result.scorecard
    assert (card.recommended_action, card.action_rule) == ("review", "review-on-warning")
    header = result.render_text().splitlines()[:4]
    assert header[3].startswith("  ! out of range, scored as given: candidates[0].combinedScore")
    assert "candidates[0].retrievalScores.bm25" in header[3]


def test_markdown_and_html_name_the_rule_and_the_inputs_out_of_range_as_the_text_does() -> None:
    raw = [{"id": "handbook-7", "text": HANDBOOK, "retrievalScores": {"dense": 0.82, "bm25": 14.7}}]
    result = score_answer(QUESTION, RIGHT, raw)
    paths = "candidates[0].combinedScore, candidates[0].retrievalScores.bm25"
    markdown = result.render_markdown().splitlines()
    assert markdown[2] == (
        "> rule `review-on-warning`: Warning 'input-out-of-range' matched reviewOnWarnings policy."
    )
    assert markdown[4].startswith(f"> **out of range, scored as given: {paths} (scores are")
    html = result.render_html()
    assert "rule review-on-warning: Warning &#x27;input-out-of-range&#x27; matched" in html
    assert f"<strong>out of range, scored as given: {paths} (scores" in html
    in_range = score_answer(QUESTION, RIGHT, SCORED)
    assert "out of range" not in in_range.render_markdown() + in_range.render_html()
    assert "> rule `answer-at`: Score" in in_range.render_markdown()


def test_numpy_numbers_from_a_vector_store_are_read_as_the_numbers_they_are() -> None:
    np = pytest.importorskip("numpy")
    # FAISS and sentence-transformers give float32 similarities, argsort int64 ranks and ids
    as_numpy = [
        {
            "id": np.int64(7),
            "text": HANDBOOK,
            "retrievalScores": {"dense": np.float32(0.9), "bm25": np.float32(0.8)},
            "rank": np.int64(1),
        }
    ]
    plain = [{"id": 7, "text": HANDBOOK, "retrievalScores": {"dense": 0.9, "bm25": 0.8}, "rank": 1}]
    signals = {"answerRelevanceScore": np.float32(0.9)}
    result = score_answer(QUESTION, RIGHT, as_numpy, signals=signals)
    expected = score_answer(QUESTION, RIGHT, plain, signals={"answerRelevanceScore": 0.9})
    assert result.to_json() == expected.to_json()  # float32(0.9) scores as 0.9, not 0.8999...
    assert result.scorecard.dimensions["relevance"].raw == 15
    assert type(result.inputs["candidates"][0]["rank"]) is int
    for bad, path in (
        ({"text": HANDBOOK, "rank": np.float64(1.0)}, "contexts[0].rank"),
        ({"text": HANDBOOK, "score": np.bool_(True)}, "contexts[0].score"),
        ({"text": HANDBOOK, "rank": np.int64(0)}, "contexts[0].rank"),
    ):
        with pytest.raises(assay.AssayError) as caught:
            score_answer(QUESTION, RIGHT, [bad])
        assert (caught.value.code, caught.value.path) == ("INVALID_CONTEXT", path)
    assert caught.value.message == "rank must be an integer >= 1, got 0"


def test_contexts_as_a_numpy_array_or_pandas_series_are_read_in_order() -> None:
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    other = "Vacation requests need approval two weeks in advance."
    expected = score_answer(QUESTION, RIGHT, [other, HANDBOOK]).to_json()
    # a ragas dataset read back from Parquet holds retrieved_contexts as numpy arrays
    frame = pd.DataFrame(
        {"user_input": [QUESTION], "response": [RIGHT], "retrieved_contexts": [[other, HANDBOOK]]}
    )
    row = frame.to_dict("records")[0]
    row["retrieved_contexts"] = np.array(row["retrieved_contexts"])
    for contexts in (np.array([other, HANDBOOK]), pd.Series([other, HANDBOOK])):
        assert score_answer(QUESTION, RIGHT, contexts).to_json() == expected
    assert score_answer_record(row).to_json() == expected
    for bad, kind in (({other}, "set"), (np.array([[other]]), "ndarray"), (other, "the string")):
        with pytest.raises(assay.AssayError) as caught:
            score_answer(QUESTION, RIGHT, bad)
        assert (caught.value.code, caught.value.path) == ("INVALID_ANSWER_RECORD", "contexts")
        assert f", not {kind}" in caught.value.message


def test_a_supported_answer_is_reviewed_when_the_retrieved_chunks_disagree() -> None:
    agree = [
        {"id": "handbook-7", "text": HANDBOOK, "score": 0.9},
        {"id": "faq-3", "text": "Unused vacation days: up to 5 carry over.", "score": 0.85},
    ]
    disagree = [
        {"id": "handbook-7", "text": HANDBOOK, "score": 0.9},
        {
            "id": "handbook-2019",
            "text": "Employees may carry over up to 10 unused vacation days into the next "
            "calendar year.",
            "score": 0.85,
        },
    ]
    calm = score_answer(QUESTION, RIGHT, agree)
    assert calm.inputs["hasConflict"] is False
    result = score_answer(QUESTION, RIGHT, disagree)
    assert result.evidence.claims[0].supported  # the answer does follow handbook-7 ...
    assert result.inputs["hasConflict"] is True  # ... which handbook-2019 contradicts
    card = result.scorecard
    assert (card.recommended_action, card.action_rule) == ("review", "review-on-warning")
    assert "conflicting-sources" in card.action_reason
    report = result.render_text()
    assert "[warn] conflicting-sources at hasConflict: The sources contradict each other" in report
    assert "Conflicts between contexts:" in report


def test_bad_contexts_are_refused_with_a_code_and_path() -> None:
    with pytest.raises(assay.AssayError) as caught:
        score_answer(QUESTION, "5 days.", [{"text": HANDBOOK, "score": "high"}])
    assert (caught.value.code, caught.value.path) == ("INVALID_CONTEXT", "contexts[0].score")


def test_the_example_prints_what_its_header_says() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("carry-over: ") and lines[0].endswith("-> answer (answer-at)")
    assert "unsupported number '10'" in done.stdout
    assert "nothing-retrieved: 0 -> abstain (documents-silent)" in lines
    assert (
        '  UNSUPPORTED: "Employees may carry over up to 10 unused vacation days into the next'
        in done.stdout
    )
    assert lines[-1] == "answer: 1, review: 1, abstain: 3"


def test_assay_score_streams_answer_records_the_same_with_two_workers() -> None:
    root = assay.testing.plugin_cli(assay_scorecard.plugin)
    outputs = []
    for workers in ("0", "2"):
        done = CliRunner().invoke(root, ["score", "--jsonl", "--workers", workers, str(DATA)])
        assert done.exit_code == 0, done.output
        outputs.append(done.output)
    assert outputs[0] == outputs[1]
    rows = [json.loads(line) for line in outputs[0].splitlines()]
    assert [row["scorecard"]["recommendedAction"] for row in rows] == [
        "answer",
        "abstain",
        "abstain",
        "review",
        "abstain",
    ]
    assert rows[1]["evidence"]["claims"][0]["unsupported"][0]["kind"] == "number"


@needs_shared("data", "halueval_qa_dev.jsonl")
def test_on_halueval_a_hallucinated_answer_is_answered_less_often_than_the_right_one() -> None:
    """Rows 2,000-2,199 of HaluEval QA, each answer scored against its knowledge passage given
    as the retriever's one chunk (no retrieval scores: no answer is answered unreviewed)."""
    path = shared_path("data", "halueval_qa_dev.jsonl")
    with path.open(encoding="utf-8") as file:
        rows = [json.loads(line) for line in file][2000:2200]
    counts = {"right": 0, "hallucinated": 0}
    for row in rows:
        for kind, answer in (
            ("right", row["right_answer"]),
            ("hallucinated", row["hallucinated_answer"]),
        ):
            card = score_answer(row["question"], answer, [row["knowledge"]]).scorecard
            assert card.recommended_action in ("review", "abstain")
            counts[kind] += card.recommended_action == "abstain"
    assert counts["hallucinated"] > counts["right"]


@needs_shared("data", "evaluator-outputs", "ragas_outputs.json")
def test_ragas_samples_are_scored_as_ragas_wrote_them() -> None:
    """The samples of a real ragas 0.4.3 run, with every column ragas gives a SingleTurnSample
    (reference_contexts, retrieved_context_ids, ...), fed to assay score --jsonl as they are."""
    path = shared_path("data", "evaluator-outputs", "ragas_outputs.json")
    samples = json.loads(path.read_text(encoding="utf-8"))["samples"]
    assert {"reference_contexts", "retrieved_context_ids"} <= set(samples[0])
    root = assay.testing.plugin_cli(assay_scorecard.plugin)
    lines = "".join(json.dumps(sample) + "\n" for sample in samples)
    done = CliRunner().invoke(root, ["score", "--jsonl", "-"], input=lines)
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in done.output.splitlines()]
    actions = [row["scorecard"]["recommendedAction"] for row in rows]
    # strings carry no retrieval score: a supported answer is reviewed, the rest refused; the
    # third response is right, but its passage (d2_1) was not retrieved, so nothing supports it
    assert actions == ["review", "abstain", "abstain", "abstain", "review"]
    assert samples[2]["response"] == samples[2]["reference"]
    assert "d2_1" not in samples[2]["retrieved_context_ids"]


def test_the_mcp_tool_scores_an_answer_record_and_is_registered() -> None:
    from assay_answer import ANSWER_TOOL

    registry = assay.build_registry()
    assert registry.get("mcp-tool", "answer/assay_answer") is ANSWER_TOOL
    assert registry.get("signal-reader", "answer/answer-support").name == "answer-support"
    out = ANSWER_TOOL.call(
        {"question": QUESTION, "answer": "Up to 12 unused vacation days.", "contexts": [HANDBOOK]}
    )
    assert set(out) == {"scorecard", "signals", "evidence"}
    assert out["scorecard"]["recommendedAction"] == "abstain"
    json.dumps(out, allow_nan=False)
    for bad, code in (("text", "INVALID_ANSWER_RECORD"), ({"id": 1}, "INVALID_ANSWER_RECORD")):
        with pytest.raises(assay.AssayError) as caught:
            ANSWER_TOOL.call(bad)
        assert caught.value.code == code
