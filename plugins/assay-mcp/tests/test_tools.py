"""The ``mcp-tool`` registry kind: any plain object with name, description, input_schema and
call is served; broken ones are skipped; errors come back as tool errors."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import anyio
import pytest
from click.testing import CliRunner

import assay
from assay.cli import AssayGroup
from assay.testing import plugin_cli
from assay_mcp import McpTool, ToolSet, call_tool, collect_tools, describe, plugin
from assay_mcp.server import build_server


class Echo:
    """A minimal tool, as a plugin or a user would write it: no base class, no assay-mcp import."""

    name = "echo"
    description = "Return the text it is given, upper-cased."
    input_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    }

    def call(self, arguments: Any) -> dict[str, Any]:
        text = arguments.get("text") if isinstance(arguments, dict) else None
        if not isinstance(text, str):
            raise assay.AssayError("INVALID_INPUT", "text must be a string", "text")
        if text == "boom":
            raise RuntimeError("kaput")
        return {"text": text.upper(), "ratio": float("inf")}


class NoCall:
    name = "nocall"
    description = "lacks call"
    input_schema: ClassVar[dict[str, Any]] = {"type": "object"}


@pytest.fixture
def registry() -> assay.Registry:
    registry = assay.build_registry(load_entry_points=False)
    registry.register(Echo(), kind="mcp-tool", name="echo")
    return registry


def test_a_plain_object_satisfies_the_protocol():
    assert isinstance(Echo(), McpTool)
    assert not isinstance(NoCall(), McpTool)


def test_collect_lists_registered_tools_and_skips_broken_ones(registry):
    registry.register(NoCall(), kind="mcp-tool", name="nocall")
    toolset = collect_tools(registry)
    assert list(toolset.tools) == ["echo"]
    assert len(toolset.problems) == 1 and "nocall" in toolset.problems[0]
    assert "call" in toolset.problems[0]
    assert describe("echo", toolset.tools["echo"])["inputSchema"]["required"] == ["text"]


def test_a_name_two_plugins_register_is_exposed_qualified(registry):
    registry.register(Echo(), kind="mcp-tool", name="echo", provider="other")
    assert sorted(collect_tools(registry).tools) == ["other.echo", "runtime.echo"]


def test_call_tool_turns_every_failure_into_a_tool_error(registry):
    tool = collect_tools(registry).tools["echo"]
    assert call_tool(tool, "echo", {"text": "hi"}) == ({"text": "HI", "ratio": None}, False)
    bad, is_error = call_tool(tool, "echo", {"text": 3})
    assert is_error and bad["error"] == {
        "code": "INVALID_INPUT",
        "message": "text must be a string",
        "path": "text",
    }
    crashed, is_error = call_tool(tool, "echo", {"text": "boom"})
    assert is_error and crashed["error"]["code"] == "TOOL_ERROR"
    assert "RuntimeError: kaput" in crashed["error"]["message"]
    missing, is_error = call_tool(None, "nope", {})
    assert is_error and missing["error"]["code"] == "UNKNOWN_NAME"


async def _in_process(toolset: ToolSet) -> dict[str, Any]:
    from mcp import Client

    async with Client(build_server(toolset)) as client:
        return {
            "tools": await client.list_tools(),
            "ok": await client.call_tool("echo", {"text": "abc"}),
            "bad": await client.call_tool("echo", {"text": 1}),
            "unknown": await client.call_tool("nope", {}),
        }


def test_the_server_serves_a_runtime_registered_tool(registry):
    pytest.importorskip("mcp", reason="needs the MCP SDK, a dependency of assay-mcp")
    out = anyio.run(_in_process, collect_tools(registry))
    assert [t.name for t in out["tools"].tools] == ["echo"]
    assert not out["ok"].is_error
    assert out["ok"].structured_content == {"text": "ABC", "ratio": None}
    assert json.loads(out["ok"].content[0].text) == out["ok"].structured_content
    assert out["bad"].is_error
    assert out["bad"].structured_content["error"]["path"] == "text"
    assert out["unknown"].is_error
    assert out["unknown"].structured_content["error"]["code"] == "UNKNOWN_NAME"


@pytest.fixture
def default_with_echo():
    assay.reset_default_registry()
    assay.register(Echo(), kind="mcp-tool", name="echo")
    yield
    assay.reset_default_registry()


def _cli() -> AssayGroup:
    return plugin_cli(plugin)


def test_mcp_list_shows_every_registered_tool(default_with_echo):
    result = CliRunner().invoke(_cli(), ["mcp", "--list", "--json"])
    assert result.exit_code == assay.ExitCode.OK, result.output
    listed = {item["name"]: item for item in json.loads(result.output)}
    assert listed["echo"]["description"] == Echo.description
    assert listed["echo"]["inputSchema"] == Echo.input_schema

    text = CliRunner().invoke(_cli(), ["mcp", "--list"])
    assert text.exit_code == assay.ExitCode.OK
    assert "echo: Return the text it is given, upper-cased" in text.output


def test_json_without_list_is_a_usage_error():
    result = CliRunner().invoke(_cli(), ["mcp", "--json"])
    assert result.exit_code == assay.ExitCode.USAGE
