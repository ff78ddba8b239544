"""Answer-first scoring with a toy signal reader: the composition, the rendering of the text
evidence, JSON Lines streams and ``assay score`` on answer records."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
import assay.testing
import assay_scorecard
import assay_scorecard.plugin
from assay_scorecard.field_checks import FieldWarning

sys.path.insert(0, str(Path(__file__).parent))
from answer_toys import SUPPORTED, UNSUPPORTED, register_toys, toy_registry


@pytest.fixture
def toy_default_registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The default registry holds this plugin and the toys only; reset after the test."""
    monkeypatch.setenv("ASSAY_PLUGINS", "scorecard")
    assay.reset_default_registry()
    register_toys()
    yield
    assay.reset_default_registry()


def answer_scorer(config: Any = None, reader: Any = "sentences") -> assay_scorecard.AnswerScorer:
    return assay_scorecard.create_answer_scorer(config, reader=reader, registry=toy_registry())


def test_a_supported_answer_is_answered_with_its_evidence() -> None:
    result = answer_scorer().score(SUPPORTED)
    card = result.scorecard
    assert (card.total, card.recommended_action, card.action_rule) == (100, "answer", "answer-at")
    assert result.inputs == {
        "supportLevel": "high",
        "hasConflict": False,
        "claimSupport": {"totalClaims": 1, "supportedClaims": 1},
        "candidates": [
            {"retrievalScores": {"retrieval": 0.9}, "combinedScore": 0.9, "documentId": "oberoi"}
        ],
    }
    (claim,) = result.evidence.claims
    assert (claim.supported, claim.span, claim.source) == (
        True,
        "The head office is in Delhi",
        "oberoi",
    )


def test_an_unsupported_answer_is_not_answered_and_says_what_is_missing() -> None:
    result = answer_scorer().score(UNSUPPORTED)
    card = result.scorecard
    # the preset is grounded-v1: one of two claims supported -> effective support 0.5 -> review
    assert (card.recommended_action, card.action_rule) == ("review", "review-on-warning")
    assert card.action_reason == "Warning 'low-support' matched reviewOnWarnings policy."
    assert [c.text for c in result.evidence.unsupported_claims] == ["The head office is in Mumbai"]
    assert result.evidence.notes == (
        "No context carries a retrieval score (retrievalScores or score): the scorecard has no "
        "retrieval candidates, so the retrieval dimensions have nothing to score (missing "
        "signal: candidates).",
    )


def test_the_config_picks_preset_and_reader_and_record_signals_win() -> None:
    scorer = answer_scorer({"preset": "balanced-v0.3", "reader": "sentences"}, reader=None)
    assert scorer.reader.name == "sentences"
    result = scorer.score({**UNSUPPORTED, "signals": {"supportLevel": "high"}})
    assert result.inputs["supportLevel"] == "high"
    assert result.scorecard.recommended_action == "answer"  # balanced: no support floor


def test_a_misspelled_preset_scores_answer_records_with_grounded_not_balanced() -> None:
    record = {**UNSUPPORTED, "signals": {"supportLevel": "high"}}
    with pytest.warns(FieldWarning, match="'grounded-v1' applies to answer"):
        scorer = answer_scorer({"preset": "balanced-v03"})  # a typo of balanced-v0.3
    # balanced-v0.3 would answer (see above); grounded-v1 reviews one of two claims supported
    card = scorer.score(record).scorecard
    assert (card.recommended_action, card.action_rule) == ("review", "review-on-warning")
    with pytest.raises(assay.AssayError) as caught:
        answer_scorer({"preset": "balanced-v03", "validation": "strict"})
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "preset")
    assert "did you mean 'balanced-v0.3'?" in caught.value.message


def test_to_wire_holds_scorecard_signals_and_evidence() -> None:
    result = answer_scorer().score(UNSUPPORTED)
    wire = result.to_wire()
    assert set(wire) == {"scorecard", "signals", "evidence"}
    assert wire["scorecard"] == assay_scorecard.scorecard_to_wire(result.scorecard)
    assert json.loads(result.to_json()) == json.loads(result.to_json(indent=2))
    claims = wire["evidence"]["claims"]
    assert claims[0]["unsupported"] == [
        {"kind": "term", "text": "The", "reason": "no context says 'The head office is in Mumbai'"}
    ]
    assert claims[1] == {
        "text": "It runs hotels",
        "supported": True,
        "support": 1.0,
        "span": "It runs hotels",
        "source": "context 1",
        "unsupported": [],
    }


def test_reader_errors_are_coded() -> None:
    class Broken:
        name = "broken"

        def read(self, record: Any) -> Any:
            raise ZeroDivisionError("oops")

    class Wrong:
        name = "wrong"

        def read(self, record: Any) -> Any:
            return {"supportLevel": "high"}

    for reader, words in (
        (Broken(), "failed (ZeroDivisionError: oops)"),
        (Wrong(), "returned dict"),
    ):
        with pytest.raises(assay.AssayError) as caught:
            answer_scorer(reader=reader).score(SUPPORTED)
        assert caught.value.code == assay_scorecard.READER_FAILED
        assert words in caught.value.message
    with pytest.raises(assay.AssayError) as caught:
        answer_scorer(reader="nope")
    assert (caught.value.code, caught.value.path) == ("UNKNOWN_NAME", "reader")
    assert "registered: sentences" in caught.value.message
    with pytest.raises(assay.AssayError) as caught:
        answer_scorer(reader=object())
    assert caught.value.code == "INVALID_PLUGIN_OBJECT"
    with pytest.raises(assay.AssayError) as caught:
        answer_scorer({"reader": 3}, reader=None)
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "reader")


def test_without_any_reader_installed_the_error_says_what_to_install() -> None:
    registry = assay.build_registry(
        load_entry_points=False, extra_plugins={"scorecard": assay_scorecard.plugin}
    )
    with pytest.raises(assay.AssayError) as caught:
        assay_scorecard.create_answer_scorer(registry=registry)
    assert caught.value.code == "UNKNOWN_NAME"
    assert "install assay-answer" in caught.value.message


def test_the_text_report_lists_unsupported_claims_with_their_spans() -> None:
    result = answer_scorer().score(UNSUPPORTED)
    text = result.render_text()
    assert text.startswith(assay_scorecard.render_text(result.scorecard))
    tail = text[len(assay_scorecard.render_text(result.scorecard)) :].splitlines()
    assert tail[:7] == [
        "",
        "",
        "Text evidence (sentences): 1 of 2 claims supported; answer score 0.5",
        "  1 of 2 sentences found",
        '  UNSUPPORTED: "The head office is in Mumbai"',
        "      term: \"The\" - no context says 'The head office is in Mumbai'",
        '      closest span (context 1): "The head office is in Delhi. It runs hotels."',
    ]
    assert '  supported: "It runs hotels"' in tail
    assert "Notes:" in text and "missing signal: candidates" in text


def test_the_html_and_markdown_reports_show_the_evidence_escaped() -> None:
    hostile = {**UNSUPPORTED, "answer": "<script>alert(1)</script> is the office."}
    result = answer_scorer().score(hostile)
    html = result.render_html()
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; is the office" in html
    assert 'class="assay-text-evidence"' in html and ">unsupported</strong>" in html
    markdown = result.render_markdown()
    assert "- **unsupported**: <script>" in markdown or "**unsupported**" in markdown
    assert "Text evidence (sentences)" in markdown


def _stream(
    config: Any, lines: list[Any], workers: int = 0, **kwargs: Any
) -> tuple[Any, list[Any]]:
    source = io.BytesIO("".join(json.dumps(line) + "\n" for line in lines).encode())
    sink = io.BytesIO()
    summary = assay_scorecard.score_jsonl(source, sink, config, workers=workers, **kwargs)
    return summary, [json.loads(line) for line in sink.getvalue().splitlines()]


def test_a_stream_mixes_answer_records_and_scoring_inputs(toy_default_registry: Any) -> None:
    inputs = {"supportLevel": "high", "hasConflict": False, "candidates": []}
    lines = [SUPPORTED, {"inputs": inputs}, UNSUPPORTED, {**SUPPORTED, "contexts": [7]}]
    summary, out = _stream({"reader": "sentences"}, lines)
    assert (summary.rows, summary.failed) == (4, 1)
    assert out[0]["scorecard"]["recommendedAction"] == "answer"
    assert out[1]["recommendedAction"] == "answer"  # a scoring request: its scorecard, as before
    assert out[2]["scorecard"]["recommendedAction"] == "review"
    assert out[3] == {
        "error": {
            "code": "INVALID_CONTEXT",
            "message": "a context must be a string or an object with text, not the number 7",
            "path": "contexts[0]",
            "line": 4,
        }
    }


def test_a_stream_gives_the_same_bytes_with_two_workers(toy_default_registry: Any) -> None:
    lines = [SUPPORTED, UNSUPPORTED] * 50
    outputs = []
    for workers in (0, 2):
        source = io.BytesIO("".join(json.dumps(line) + "\n" for line in lines).encode())
        sink = io.BytesIO()
        assay_scorecard.score_jsonl(
            source, sink, {}, workers=workers, reader="sentences", block_size=512
        )
        outputs.append(sink.getvalue())
    assert outputs[0] == outputs[1]
    assert outputs[0].count(b"\n") == 100


@pytest.mark.parametrize("workers", [0, 2])
def test_an_answer_records_id_comes_first_on_its_output_line(
    toy_default_registry: Any, workers: int
) -> None:
    lines = [{**SUPPORTED, "id": "q-1"}, UNSUPPORTED, {**UNSUPPORTED, "id": 7}]
    lines.append({"inputs": {"supportLevel": "high", "candidates": []}, "id": "req"})
    _, out = _stream({"reader": "sentences"}, lines, workers=workers)
    assert [list(row)[:2] for row in out[:3]] == [
        ["id", "scorecard"],
        ["scorecard", "signals"],  # no id, nothing added
        ["id", "scorecard"],
    ]
    assert (out[0]["id"], out[2]["id"]) == ("q-1", 7)
    assert out[0]["scorecard"]["recommendedAction"] == "answer"
    assert "id" not in out[3] and "total" in out[3]  # a scoring request's line is unchanged
    # the single-record command says the same
    result = _cli(["score", "--json", "--reader", "sentences", "-"], json.dumps(lines[0]))
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.output))[:2] == ["id", "scorecard"]
    assert result.output.startswith('{\n  "id": "q-1",\n  "scorecard": {')


def test_a_named_reader_that_is_not_registered_fails_before_reading(
    toy_default_registry: Any,
) -> None:
    with pytest.raises(assay.AssayError) as caught:
        _stream({}, [SUPPORTED], reader="nope")
    assert (caught.value.code, caught.value.path) == ("UNKNOWN_NAME", "reader")


def test_score_many_refuses_an_answer_record_saying_where_it_is_scored(
    toy_default_registry: Any,
) -> None:
    (error,) = assay_scorecard.score_many([json.dumps(SUPPORTED)], keep_errors=True)
    assert isinstance(error, assay.AssayError)
    assert (error.code, error.path) == ("MALFORMED_INPUT", "answer")
    assert "score it with assay score or assay_answer.score_answer" in error.message


def _cli(args: list[str], stdin: str | None = None) -> Any:
    root = assay.testing.plugin_cli(assay_scorecard.plugin)
    return CliRunner().invoke(root, args, input=stdin)


def test_assay_score_reads_an_answer_record(toy_default_registry: Any, tmp_path: Path) -> None:
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(UNSUPPORTED))
    result = _cli(["score", "--reader", "sentences", str(path)])
    assert result.exit_code == 0, result.output
    assert "->  REVIEW" in result.output
    assert '  UNSUPPORTED: "The head office is in Mumbai"' in result.output
    result = _cli(["score", "--json", "--reader", "sentences", "-"], json.dumps(SUPPORTED))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["scorecard"]["recommendedAction"] == "answer"


def test_assay_score_exit_codes_on_bad_answer_records(toy_default_registry: Any) -> None:
    result = _cli(["score", "--reader", "sentences", "-"], json.dumps({**SUPPORTED, "contexts": 1}))
    assert result.exit_code == 2
    assert "INVALID_ANSWER_RECORD" in result.output and "Traceback" not in result.output
    result = _cli(["score", "--reader", "nope", "-"], json.dumps(SUPPORTED))
    assert result.exit_code == 2 and "UNKNOWN_NAME" in result.output
    stream = json.dumps(SUPPORTED) + "\n" + json.dumps({"answer": "x"}) + "\n"
    result = _cli(["score", "--jsonl", "--reader", "sentences", "-"], stream)
    assert result.exit_code == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["scorecard"]["recommendedAction"] == "answer"
    assert second["error"]["code"] == "INVALID_ANSWER_RECORD"
    assert result.stderr.startswith("error [INVALID_ANSWER_RECORD] 1 of 2 lines failed; first: ")


def test_a_non_finite_number_a_reader_gives_is_tagged_in_the_json() -> None:
    class NotANumber:
        name = "nan"

        def read(self, record: Any) -> Any:
            claim = assay_scorecard.ClaimFinding("c", True, float("inf"))
            evidence = assay_scorecard.TextEvidence(self.name, float("nan"), "s", [claim])
            return assay_scorecard.SignalReading({"supportLevel": "high"}, evidence)

    wire = json.loads(answer_scorer(reader=NotANumber()).score(SUPPORTED).to_json())
    assert wire["evidence"]["score"] == {"$float": "NaN"}
    assert wire["evidence"]["claims"][0]["support"] == {"$float": "Infinity"}


def test_candidates_the_caller_gives_replace_those_of_the_contexts() -> None:
    candidate = {"retrievalScores": {"dense": 0.8}, "combinedScore": 0.8, "documentId": "x"}
    result = answer_scorer().score({**UNSUPPORTED, "signals": {"candidates": [candidate]}})
    assert result.inputs["candidates"] == [candidate]
    assert result.evidence.notes == ()  # nothing was left out of the candidates
