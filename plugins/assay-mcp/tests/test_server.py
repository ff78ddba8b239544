"""``assay mcp``: a real MCP server over stdio, called with the official ``mcp`` client, serving
the tools the gate and the scorecard plugins register."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

import assay

assay_jeffreys = pytest.importorskip("assay_jeffreys", reason="the gate plugin registers a tool")
assay_scorecard = pytest.importorskip("assay_scorecard", reason="the scorecard registers a tool")

REPO_ROOT = Path(__file__).resolve().parents[3]
SCORECARD_EXAMPLES = REPO_ROOT.parent / "shared" / "conformance" / "scorecard" / "examples.jsonl"


@pytest.fixture
def models() -> list[dict]:
    from assay_jeffreys import BetaParams, DimensionModel, to_wire

    return [
        to_wire(DimensionModel("factuality", BetaParams(8.0, 2.0), BetaParams(2.0, 6.0), 1.0)),
        to_wire(DimensionModel("relevance", BetaParams(6.0, 3.0), BetaParams(3.0, 5.0), 0.5)),
    ]


def _assay_command() -> str:
    script = Path(sys.executable).parent / ("assay.exe" if sys.platform == "win32" else "assay")
    assert script.exists(), f"the assay console script is not installed next to {sys.executable}"
    return str(script)


async def _session_calls(models: list[dict], scorecard_case: dict) -> dict:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=_assay_command(), args=["mcp"])
    async with Client(params) as client:
        tools = await client.list_tools()
        gate = await client.call_tool(
            "bayes_output_gate",
            {"scores": {"factuality": 0.93, "relevance": 0.8}, "models": models},
        )
        bad = await client.call_tool(
            "bayes_output_gate", {"scores": {"factuality": 3}, "models": models}
        )
        card = await client.call_tool(
            "assay_scorecard",
            {"inputs": scorecard_case["inputs"], "config": scorecard_case["config"]},
        )
    return {"tools": tools, "gate": gate, "bad": bad, "card": card}


@pytest.mark.skipif(
    not SCORECARD_EXAMPLES.exists(),
    reason="needs ../shared/conformance/scorecard/examples.jsonl "
    "(the shared data folder beside the repo; CI has it)",
)
def test_mcp_server_serves_the_gate_and_the_scorecard(models):
    case = json.loads(SCORECARD_EXAMPLES.read_text(encoding="utf-8").splitlines()[0])
    out = anyio.run(_session_calls, models, case)
    names = {t.name: t for t in out["tools"].tools}
    # the server lists every registered tool, and the gate and the scorecard register theirs
    assert set(names) == set(assay.build_registry().names("mcp-tool"))
    assert {"bayes_output_gate", "assay_scorecard"} <= set(names)
    assert names["bayes_output_gate"].input_schema["required"] == ["scores", "models"]
    assert names["assay_scorecard"].input_schema["required"] == ["inputs"]

    gate = out["gate"]
    assert not gate.is_error
    assert gate.structured_content["action"] == "pass"
    assert json.loads(gate.content[0].text) == gate.structured_content

    bad = out["bad"]
    assert bad.is_error
    assert bad.structured_content["error"]["code"] == "INVALID_SCORE"
    assert bad.structured_content["error"]["path"] == "scores.factuality"

    # The server returns what the library computes in this environment: which dimensions take
    # part depends on the plugins installed beside the core, and with none the library refuses.
    card = out["card"]
    try:
        expected = assay_scorecard.scorecard_to_wire(
            assay_scorecard.compute_confidence(case["inputs"], case["config"])
        )
    except assay.AssayError as error:
        assert card.is_error
        assert card.structured_content["error"] == error.to_dict()
    else:
        assert not card.is_error
        assert card.structured_content == json.loads(json.dumps(expected))
