"""`assay score` end to end: readable output, --json, --jsonl streaming, errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ANSWER = {
    "supportLevel": "high",
    "hasConflict": False,
    "citationCount": 3,
    "candidates": [
        {
            "retrievalScores": {"semantic": 0.88, "keyword": 0.72},
            "combinedScore": 0.88,
            "documentId": "doc-001",
        },
        {
            "retrievalScores": {"semantic": 0.85, "keyword": 0.68},
            "combinedScore": 0.85,
            "documentId": "doc-002",
        },
        {
            "retrievalScores": {"semantic": 0.82, "keyword": 0.65},
            "combinedScore": 0.82,
            "documentId": "doc-003",
        },
    ],
}


def assay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assay._cli.main_module", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_readable_scorecard(tmp_path: Path) -> None:
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({"inputs": ANSWER, "config": {}}))
    result = assay("score", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Score 100/100  Strong (green)  ->  ANSWER\n")
    assert "rule answer-at: Score 100 meets answerAt threshold (65)." in result.stdout
    assert "grounding" in result.stdout and "30/30" in result.stdout
    assert "[warn] missing-faithfulness at faithfulnessScore" in result.stdout


def test_json_is_the_wire_shape_with_integral_numbers() -> None:
    result = assay("score", "--json", "-", stdin=json.dumps({"inputs": ANSWER}))
    assert result.returncode == 0, result.stderr
    wire = json.loads(result.stdout)
    assert wire["total"] == 100 and '"total": 100,' in result.stdout
    assert wire["meta"]["algorithmVersion"] == "0.3.0"
    assert wire["meta"]["schemaVersion"] == "0.3"
    assert list(wire)[:6] == [
        "total",
        "label",
        "labelColor",
        "recommendedAction",
        "actionReason",
        "tier1",
    ]


def test_jsonl_streams_one_line_per_line_and_exits_2_on_any_error() -> None:
    lines = [
        json.dumps({"inputs": ANSWER}),
        "{not json",
        json.dumps({"inputs": ANSWER, "config": {"weights": {"grounding": 0}}}),
        json.dumps(ANSWER),
    ]
    result = assay("score", "--jsonl", "-", stdin="\n".join(lines) + "\n")
    assert result.returncode == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 4
    assert out[0]["total"] == 100 and out[3]["total"] == 100
    assert out[1]["error"]["code"] == "MALFORMED_INPUT" and out[1]["error"]["line"] == 2
    assert out[2]["error"]["code"] == "INVALID_CONFIG"
    assert (out[2]["error"]["path"], out[2]["error"]["line"]) == ("config", 3)


def test_jsonl_with_a_bad_config_file_fails_before_reading(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"weights": {"grounding": 0}}))
    result = assay("score", "--jsonl", "--config", str(config), "-", stdin=json.dumps(ANSWER))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "error [INVALID_CONFIG] weights.grounding: weight must be a finite number greater than 0, got 0"
    )
    assert result.stdout == ""


def test_jsonl_with_workers_keeps_order_and_errors_in_place() -> None:
    lines = [json.dumps({**ANSWER, "citationCount": n % 4}) for n in range(40)]
    lines[7] = json.dumps({"supportLevel": "high"})
    result = assay("score", "--jsonl", "--workers", "2", "-", stdin="\n".join(lines) + "\n")
    assert result.returncode == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 40
    assert out[7]["error"]["code"] == "MALFORMED_INPUT" and out[7]["error"]["line"] == 8
    serial = assay("score", "--jsonl", "-", stdin="\n".join(lines) + "\n")
    assert serial.stdout == result.stdout


def test_jsonl_all_good_exits_0() -> None:
    result = assay("score", "--jsonl", "-", stdin=json.dumps({"inputs": ANSWER}) + "\n")
    assert result.returncode == 0
    assert json.loads(result.stdout)["recommendedAction"] == "answer"


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (
            {"inputs": {"supportLevel": "high"}},
            "error [MALFORMED_INPUT] candidates: candidates must be an array",
        ),
        (
            {"inputs": {**ANSWER, "faithfulnessScore": 1.5}, "config": {"validation": "strict"}},
            "error [INVALID_INPUT] faithfulnessScore: faithfulnessScore should be a finite number in the 0-1 range.",
        ),
        (
            {"inputs": ANSWER, "config": {"retrieval": {"topK": 0}}},
            "error [INVALID_CONFIG] retrieval.topK: must be an integer >= 1, got 0",
        ),
        ({"inputs": ANSWER, "extra": 1}, "error [MALFORMED_INPUT] extra: unknown key(s) extra"),
    ],
)
def test_bad_input_prints_code_and_path_without_traceback(payload: dict, expected: str) -> None:
    result = assay("score", "-", stdin=json.dumps(payload))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].startswith(expected), result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "payload",
    [
        {"question": "When?", "contexts": ["x"]},
        {"question": "When?", "reply": "1889", "contexts": ["x"]},
    ],
)
def test_an_answer_record_without_answer_is_told_so(payload: dict) -> None:
    result = assay("score", "-", stdin=json.dumps(payload))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].startswith("error [INVALID_ANSWER_RECORD] "), (
        result.stderr
    )
    assert "candidates" not in result.stderr
    lines = assay("score", "--jsonl", "-", stdin=json.dumps(payload) + "\n")
    assert lines.returncode == 2
    assert json.loads(lines.stdout)["error"]["code"] == "INVALID_ANSWER_RECORD"


def test_an_answer_record_in_ragas_names_is_scored() -> None:
    ragas = {
        "user_input": "When was the tower completed?",
        "response": "1889",
        "retrieved_contexts": ["The tower was completed in 1889."],
    }
    result = assay("score", "--json", "-", stdin=json.dumps(ragas))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["evidence"]["claims"][0]["text"] == "1889"


RECORD = {
    "question": "How many unused vacation days can I carry over into next year?",
    "answer": "Employees may carry over up to 5 unused vacation days.",
    "contexts": [
        {
            "id": "handbook-7",
            "text": "Employees may carry over up to 5 unused vacation days into the next "
            "calendar year.",
            "retrievalScores": {"dense": 0.91, "bm25": 0.84},
        }
    ],
}


@pytest.mark.parametrize("payload", [{"inputs": ANSWER}, RECORD])
def test_format_prints_markdown_html_or_json(payload: dict) -> None:
    stdin = json.dumps(payload)
    markdown = assay("score", "--format", "markdown", "-", stdin=stdin)
    assert markdown.returncode == 0, markdown.stderr
    assert markdown.stdout.startswith("**Score ")
    assert "| dimension | points |" in markdown.stdout
    html = assay("score", "--format", "html", "-", stdin=stdin)
    assert html.returncode == 0, html.stderr
    assert html.stdout.startswith('<section class="assay-scorecard"')
    as_json = assay("score", "--format", "json", "-", stdin=stdin)
    assert as_json.stdout == assay("score", "--json", "-", stdin=stdin).stdout
    assert as_json.stdout == assay("score", "--json", "--format", "json", "-", stdin=stdin).stdout
    text = assay("score", "--format", "text", "-", stdin=stdin)
    assert text.stdout == assay("score", "-", stdin=stdin).stdout
    if "question" in payload:  # the evidence is in every format
        assert "Text evidence (answer-support)" in markdown.stdout
        assert "Text evidence (answer-support)" in html.stdout
        assert set(json.loads(as_json.stdout)) == {"scorecard", "signals", "evidence"}


@pytest.mark.parametrize(
    "args", [("--json", "--format", "html"), ("--jsonl", "--format", "markdown")]
)
def test_format_that_contradicts_another_option_is_a_usage_error(args: tuple[str, ...]) -> None:
    result = assay("score", *args, "-", stdin=json.dumps({"inputs": ANSWER}))
    assert result.returncode == 2
    assert "--format" in result.stderr and not result.stdout


def test_invalid_json_file_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"inputs": \n  oops}')
    result = assay("score", str(path))
    assert result.returncode == 2
    assert "is not valid JSON" in result.stderr and "line 2, column 3" in result.stderr


def test_missing_file_is_an_io_error() -> None:
    result = assay("score", "/nonexistent/answer.json")
    assert result.returncode == 2
    last = result.stderr.splitlines()[-1]
    assert last == (
        "error [IO_ERROR] /nonexistent/answer.json: cannot read the file: No such file or directory"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("{dir}",),
        ("--jsonl", "{dir}"),
        ("--config", "{dir}", "{request}"),
        ("--config", "{dir}/missing.json", "{request}"),
        ("--config", "{dir}/missing.json", "--jsonl", "{request}"),
    ],
)
def test_a_folder_or_a_missing_config_is_an_io_error_naming_it(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"inputs": ANSWER}))
    argv = [arg.format(dir=tmp_path, request=request) for arg in args]
    result = assay("score", *argv)
    assert result.returncode == 2
    culprit = next(arg for arg in argv if not arg.startswith("--") and arg != str(request))
    reason = "Is a directory" if culprit == str(tmp_path) else "No such file or directory"
    assert result.stderr.splitlines() == [
        f"error [IO_ERROR] {culprit}: cannot read the file: {reason}"
    ]
    assert result.stdout == ""


def test_a_json_array_is_told_to_use_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps([{"inputs": ANSWER}, {"inputs": ANSWER}]))
    result = assay("score", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error [MALFORMED_INPUT] {path} holds a JSON array (2 items); assay score reads one "
        'JSON object (an answer record or {"inputs", "config"}), and with --jsonl one object '
        "per line: write the array as JSON Lines (jq -c '.[]')"
    ]


@pytest.mark.parametrize(
    ("record", "line"),
    [
        (
            {"question": "q", "answer": None, "contexts": ["c"]},
            "error [INVALID_ANSWER_RECORD] answer: answer must be a string, not null",
        ),
        (
            {"question": "q", "answer": "a", "contexts": "one passage"},
            "error [INVALID_ANSWER_RECORD] contexts: contexts must be an array of strings or "
            "objects with text, not the string 'one passage'",
        ),
        (
            {"question": "q", "answer": "a", "contexts": [{"text": "t", "score": "0.9"}]},
            "error [INVALID_CONTEXT] contexts[0].score: score must be a number, not the string "
            "'0.9'",
        ),
        (
            {"user_input": "q", "response": "a", "retrieved_contexts": [{"text": "t"}, 3]},
            "error [INVALID_CONTEXT] retrieved_contexts[1]: a context must be a string or an "
            "object with text, not the number 3",
        ),
        (
            {"question": "q", "answer": "a", "contexts": [{"text": "t", "id": 1.5}]},
            "error [INVALID_CONTEXT] contexts[0].id: id must be a string or an integer, not the "
            "number 1.5",
        ),
        (
            {
                "question": "q",
                "answer": "a",
                "contexts": [{"text": "t", "retrievalScores": {"d": None}}],
            },
            "error [INVALID_CONTEXT] contexts[0].retrievalScores.d: a retrieval score must be a "
            "number, not null",
        ),
        (
            {"question": "q", "answer": "a", "contexts": ["c"], "config": []},
            "error [INVALID_CONFIG] config: config must be a ScoringConfig or a JSON object, not "
            "an array",
        ),
    ],
)
def test_a_wrong_type_in_an_answer_record_is_named_in_json_terms(record: dict, line: str) -> None:
    result = assay("score", "-", stdin=json.dumps(record))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [line]


def test_score_help_names_the_record_fields_it_reads_under_every_name() -> None:
    result = assay("score", "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for name in (
        "user_input",
        "response",
        "retrieved_contexts",
        "actual_output",
        "retrieval_context",
    ):
        assert name in text
    assert "reference_contexts, ...) are accepted and not read" in text
    assert '{"id"?, "scorecard", "signals", "evidence"}' in text


def test_plugins_lists_core_plugins() -> None:
    result = assay("plugins", "--json")
    assert result.returncode == 0, result.stderr
    records = {r["name"]: r for r in json.loads(result.stdout)}
    assert records["grounding"]["registered"] == ["dimension:grounding", "dimension:relevance"]
    assert records["retrieval"]["registered"] == ["dimension:retrieval", "dimension:consistency"]
    assert all(r["status"] == "ok" for r in records.values()), records
    # the scorecard job is a plugin of its own: it registers the action policy and presets
    # (and whatever else it contributes, an MCP tool say)
    assert records["scorecard"]["registered"][:4] == [
        "policy:threshold-action",
        "preset:legacy-v0.2",
        "preset:balanced-v0.3",
        "preset:production-v0.3",
    ]
    text = assay("plugins").stdout
    assert "grounding  [ok]  assay-grounding 0.2.0" in text
    assert "scorecard  [ok]  assay-scorecard 0.2.0" in text


def test_jsonl_failures_are_summed_up_on_stderr() -> None:
    lines = [json.dumps({"inputs": ANSWER}), "{not json", "[1]", json.dumps({"inputs": ANSWER})]
    result = assay("score", "--jsonl", "-", stdin="\n".join(lines) + "\n")
    assert result.returncode == 2
    assert result.stderr == (
        "error [MALFORMED_INPUT] 2 of 4 lines failed; first: line 2: not valid JSON: "
        "Expecting property name enclosed in double quotes\n"
    )


def test_an_eval_golden_file_is_scored_as_it_is_evaluated() -> None:
    # assay eval's sample fields (metadata, groundTruth / ground_truth / reference) are accepted
    golden = (ROOT / "examples/docs/golden.jsonl").read_text(encoding="utf-8").splitlines()
    samples = [json.loads(line) for line in golden]
    samples[0]["metadata"] = {"label": "high"}
    samples[1]["ground_truth"] = samples[1].pop("groundTruth", "expected")
    samples[2]["reference"] = "expected"
    stream = "".join(json.dumps(sample) + "\n" for sample in samples)
    result = assay("score", "--jsonl", "-", stdin=stream)
    assert result.returncode == 0, result.stdout + result.stderr
    actions = [
        json.loads(line)["scorecard"]["recommendedAction"] for line in result.stdout.splitlines()
    ]
    assert actions == ["review", "review", "review"]
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("fail_on", "code", "stderr"),
    [("abstain", 0, ""), ("review", 1, "failed: 3 review of 3 answers (--fail-on review)\n")],
)
def test_fail_on_exits_1_when_an_action_is_at_or_below_it(
    fail_on: str, code: int, stderr: str
) -> None:
    result = assay("score", "--jsonl", "examples/docs/golden.jsonl", "--fail-on", fail_on)
    assert (result.returncode, result.stderr) == (code, stderr)
    assert len(result.stdout.splitlines()) == 3  # every scorecard is still written
    one = json.loads((ROOT / "examples/docs/golden.jsonl").read_text().splitlines()[0])
    single = assay("score", "-", "--fail-on", fail_on, stdin=json.dumps(one))
    assert single.returncode == code
