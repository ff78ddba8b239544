"""``assay route`` (``decide``, ``ab``, ``alerts``; ``assay route FILE`` as shorthand for
``decide``) through a root group built like the real one."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from assay import ExitCode
from assay.testing import plugin_cli
from assay_crag import QualityInput, plugin


@pytest.fixture
def cli() -> click.Group:
    return plugin_cli(plugin)


def _run(cli: click.Group, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_route_prints_sub_scores_classification_and_action(
    cli: click.Group, france: QualityInput, tmp_path: Path
) -> None:
    path = tmp_path / "retrieval.json"
    path.write_text(json.dumps(france.to_wire()))
    code, out, _ = _run(cli, "route", str(path), "--mode", "composite")
    assert code == 0
    assert "  retrievalConfidence    0.570" in out
    assert "classification: ambiguous (confidence 0.697, mode composite)" in out
    assert (
        "action: decompose_and_recompose" in out and "  sub-query: What is its population?" in out
    )


def test_route_json_and_paper_mode(cli: click.Group, france: QualityInput) -> None:
    code, out, _ = _run(
        cli,
        "route",
        "decide",
        "-",
        "--mode",
        "paper",
        "--json",
        "--refine",
        stdin=json.dumps(france.to_wire()),
    )
    wire = json.loads(out)
    assert (
        code == 0 and wire["classification"] == "correct" and wire["documentScores"] == [0.75, 0.0]
    )
    assert wire["thresholds"] == {"upper": 0.46, "lower": 0.37}
    assert wire["quality"]["overall"] == pytest.approx(0.697)
    assert wire["action"]["refinedContext"]["text"] == "Paris is the capital of France."


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("{not json", "error [MALFORMED_INPUT]"),
        (
            '{"query": "q", "chunks": [{"content": "a", "documentId": "d", "score": "high"}]}',
            "error [MALFORMED_INPUT] chunks[0].score: expected a number, got str",
        ),
    ],
)
def test_route_bad_input_exits_2(cli: click.Group, payload: str, message: str) -> None:
    code, _, err = _run(cli, "route", "-", stdin=payload)
    assert code == 2 and err.startswith(message)


def test_route_is_a_group_and_a_file_is_shorthand_for_decide(
    cli: click.Group, france: QualityInput, tmp_path: Path
) -> None:
    path = tmp_path / "retrieval.json"
    path.write_text(json.dumps(france.to_wire()))
    shorthand = _run(cli, "route", str(path), "--json")
    explicit = _run(cli, "route", "decide", str(path), "--json")
    options_first = _run(cli, "route", "--json", str(path))
    assert shorthand == explicit == options_first and shorthand[0] == ExitCode.OK
    code, out, _ = _run(cli, "route", "--help")
    assert code == ExitCode.OK
    assert all(name in out for name in ("decide", "ab", "alerts"))
    assert "ab" not in cli.commands and "alerts" not in cli.commands


def test_route_bad_threshold_exits_2(cli: click.Group, france: QualityInput) -> None:
    code, _, err = _run(
        cli, "route", "-", "--correct-at", "0.2", stdin=json.dumps(france.to_wire())
    )
    assert code == 2 and err.startswith("error [INVALID_CONFIG] --incorrect-at:")


def _ab_lines(n: int, shift: float) -> str:
    lines = []
    for i in range(n):
        lines.append(
            {
                "variant": "control",
                "queryId": f"q{i}",
                "qualityScore": 0.5 + (i % 7) / 100,
                "latencyMs": 40,
            }
        )
        lines.append(
            {
                "variant": "treatment",
                "queryId": f"q{i}",
                "qualityScore": {"overall": 0.5 + shift + (i % 5) / 100},
                "latencyMs": 44,
            }
        )
    return "\n".join(json.dumps(x) for x in lines) + "\n"


def test_ab_prints_the_analysis(cli: click.Group) -> None:
    code, out, _ = _run(cli, "route", "ab", "-", stdin=_ab_lines(40, 0.05))
    assert code == 0
    assert "control:   n=40" in out and "latency change +10.0%" in out
    assert "significant at alpha 0.05 (wilcoxon" in out and "not significant" not in out
    code, out, _ = _run(
        cli, "route", "ab", "-", "--json", "--primary", "welch", stdin=_ab_lines(40, 0.05)
    )
    wire = json.loads(out)
    assert wire["primaryTest"] == "welch" and wire["isSignificant"] is True


def test_ab_bad_line_names_the_line(cli: click.Group) -> None:
    text = (
        _ab_lines(3, 0.0)
        + '{"variant": "treatment", "queryId": "x", "qualityScore": 2, "latencyMs": 1}\n'
    )
    code, _, err = _run(cli, "route", "ab", "-", stdin=text)
    assert code == 2 and err.startswith(
        "error [INVALID_INPUT] line 7: qualityScore: must be in [0, 1]"
    )
    code, _, err = _run(cli, "route", "ab", "-", stdin="{}\n")
    assert code == 2 and "line 1: variant" in err
    code, _, err = _run(cli, "route", "ab", "-", stdin="\n[\n")
    assert code == 2 and err.startswith("error [MALFORMED_INPUT] line 2: not valid JSON")


def test_alerts_exit_codes_and_json_lines(cli: click.Group) -> None:
    good = "\n".join(["0.8"] * 10)
    assert _run(cli, "route", "alerts", "-", "--baseline", "0.8", stdin=good)[0] == 0
    bad = "\n".join(["0.8"] * 5 + ['{"overall": 0.3}'] * 5)
    code, out, _ = _run(
        cli, "route", "alerts", "-", "--baseline", "0.8", "--window", "5", "--json", stdin=bad
    )
    records = [json.loads(line) for line in out.splitlines()]
    assert code == ExitCode.FAILED and [r["type"] for r in records] == ["degradation", "threshold"]
    assert records[0]["index"] == 6  # window (0.8, 0.8, 0.8, 0.3, 0.3): mean 0.6 < 0.68
    code, out, _ = _run(cli, "route", "alerts", "-", "--baseline", "0.8", "--batch", stdin=bad)
    assert code == 1 and "WARNING  degradation: Quality score degraded" in out


def test_alerts_bad_input(cli: click.Group) -> None:
    code, _, err = _run(cli, "route", "alerts", "-", "--baseline", "0.8", stdin='0.5\n"high"\n')
    assert code == 2 and err.startswith("error [INVALID_INPUT] line 2:")
    code, _, err = _run(cli, "route", "alerts", "-", "--baseline", "0.8", stdin="\n")
    assert code == 2 and "no scores" in err
    code, _, err = _run(
        cli, "route", "alerts", "-", "--baseline", "0.8", "--degradation", "3", stdin="0.5"
    )
    assert code == 2 and err.startswith("error [INVALID_CONFIG] --degradation:")


def test_route_default_needs_no_retriever_scores(cli: click.Group) -> None:
    retrieval = QualityInput.from_texts(
        "Where is the head office of the Oberoi Group?",
        ["The Oberoi Group is a hotel company with its head office in Delhi."],
    )
    code, out, _ = _run(cli, "route", "-", stdin=json.dumps(retrieval.to_wire()))
    assert code == 0 and "classification: correct (confidence 1.000, mode paper)" in out
    code, out, _ = _run(
        cli, "route", "-", "--mode", "composite", stdin=json.dumps(retrieval.to_wire())
    )
    assert code == 0 and "classification: incorrect" in out
    assert "warning [missing-retrieval-score] chunks[0].score" in out
    assert "no retrieval can route correct" in out


def _gate_file(tmp_path: Path, lines: list[object]) -> str:
    path = tmp_path / "results.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return str(path)


def test_gate_exit_codes(cli: click.Group, france: QualityInput, tmp_path: Path) -> None:
    passing = _gate_file(tmp_path, [0.9, {"id": "q2", "overall": 0.7}, france.to_wire()])
    code, out, _ = _run(cli, "route", "gate", passing)
    assert code == ExitCode.OK and out.startswith("context-quality gate passed on 3 queries")
    code, out, _ = _run(cli, "route", "gate", passing, "--mean", "0.8", "--mode", "composite")
    assert code == ExitCode.FAILED and "mean 0.766 is not above 0.8" in out
    failing = _gate_file(tmp_path, [0.9, 0.9, {"queryId": "q3", "qualityScore": 0.29}])
    code, out, _ = _run(cli, "route", "gate", failing, "--json")
    wire = json.loads(out)
    assert code == ExitCode.FAILED and wire["meanPassed"] and not wire["passed"]
    assert wire["belowFloor"] == [{"name": "q3", "score": 0.29, "unscored": False}]
    code, _, err = _run(cli, "route", "gate", "-", stdin='[0.9, {"overall": 1.5}]')
    assert code == ExitCode.USAGE
    assert err.startswith("error [INVALID_INPUT] [1]: overall: a quality score must be in [0, 1]")
    code, _, err = _run(cli, "route", "gate", "-", stdin="0.9\n{}\n")
    assert code == ExitCode.USAGE and err.startswith("error [INVALID_INPUT] line 2: expected a")


def test_gate_options_are_named_in_errors(cli: click.Group) -> None:
    for option in ("--mean", "--floor"):
        code, _, err = _run(cli, "route", "gate", "-", option, "2", stdin="0.9\n")
        assert code == ExitCode.USAGE
        assert err == f"error [INVALID_CONFIG] {option}: must be a number in [0, 1], got 2.0\n"


def test_gate_scores_retrievals_as_decide_does(
    cli: click.Group, hotpot_items: list[dict[str, object]], tmp_path: Path
) -> None:
    """Twenty HotpotQA questions, each with its ten paragraphs and no retriever scores: decide
    (paper mode) routes them correct, and so the default gate passes them; the composite counts
    the missing retriever scores as 0 and fails them all."""
    retrievals = [
        QualityInput.from_texts(
            str(item["question"]),
            [" ".join(sentences) for _, sentences in item["context"]],  # type: ignore[attr-defined]
        ).to_wire()
        for item in hotpot_items[:20]
    ]
    path = _gate_file(tmp_path, retrievals)
    routes = [
        json.loads(_run(cli, "route", "-", "--json", stdin=json.dumps(r))[1])["classification"]
        for r in retrievals
    ]
    assert routes.count("incorrect") == 0
    code, out, _ = _run(cli, "route", "gate", path)
    assert code == ExitCode.OK and "none below the floor 0.37" in out
    code, out, _ = _run(cli, "route", "gate", path, "--mode", "composite")
    assert code == ExitCode.FAILED and "20 of 20 retrievals have no retriever scores" in out
