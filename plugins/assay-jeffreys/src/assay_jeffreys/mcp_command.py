"""``assay mcp``: an MCP server over stdio exposing the gate and the scorecard as tools.

Tools:

* ``bayes_output_gate``: :data:`assay_jeffreys.adapter.BAYES_OUTPUT_GATE_TOOL`.
* ``assay_scorecard``: :func:`assay_scorecard.compute_confidence` on ``{"inputs", "config"?}`` (seed
  000 wire shapes), returning the scorecard's wire shape.

Each call returns the result both as structured content and as JSON text. Bad input is a tool
error (``isError`` with ``{"code", "message", "path"}``), not a protocol error, so a model can
read it and correct itself. Needs the optional extra ``assay-jeffreys[mcp]``.
"""

from __future__ import annotations

from typing import Any

import click

from assay_jeffreys.errors import INVALID_CONFIG

SERVER_NAME = "assay"

SCORECARD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "inputs": {
            "type": "object",
            "description": "ScoringInputs (seed 000 wire shape, camelCase).",
        },
        "config": {"type": "object", "description": "ScoringConfig (optional)."},
    },
    "required": ["inputs"],
    "additionalProperties": False,
}

SCORECARD_DESCRIPTION = (
    "Score how far to trust one RAG answer from its pipeline signals (retrieval, grounding, "
    "sources, freshness, ...): a 0-100 scorecard with tiers, label, per-dimension breakdowns, "
    "warnings and a recommended action. Deterministic; calls no model."
)


def _scorecard(arguments: Any) -> dict[str, Any]:
    import assay
    from assay_jeffreys.wire import json_safe

    if not isinstance(arguments, dict) or "inputs" not in arguments:
        raise assay.AssayError(INVALID_CONFIG, "input needs an 'inputs' object", "inputs")
    unknown = sorted(set(arguments) - {"inputs", "config"})
    if unknown:
        raise assay.AssayError(INVALID_CONFIG, f"unknown field(s) {', '.join(unknown)}", "input")
    card = assay_scorecard.compute_confidence(arguments["inputs"], arguments.get("config"))
    wire: dict[str, Any] = json_safe(assay_scorecard.scorecard_to_wire(card))
    return wire


def build_tools() -> list[Any]:
    """The tools the server exposes, as :class:`assay_jeffreys.adapter.Tool`."""
    from assay_jeffreys.adapter import BAYES_OUTPUT_GATE_TOOL, Tool

    return [
        BAYES_OUTPUT_GATE_TOOL,
        Tool("assay_scorecard", SCORECARD_DESCRIPTION, SCORECARD_SCHEMA, _scorecard),
    ]


def build_server() -> Any:
    """A low-level :class:`mcp.server.Server` serving :func:`build_tools`."""
    import json

    import mcp_types as types
    from mcp.server import Server

    import assay

    tools = {tool.name: tool for tool in build_tools()}

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=t.name, description=t.description, input_schema=dict(t.input_schema)
                )
                for t in tools.values()
            ]
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        tool = tools.get(params.name)
        try:
            if tool is None:
                raise assay.AssayError(INVALID_CONFIG, f"unknown tool {params.name!r}", "name")
            result = tool.handler(params.arguments or {})
            is_error = False
        except assay.AssayError as error:
            result, is_error = {"error": error.to_dict()}, True
        text = json.dumps(result, allow_nan=False, sort_keys=True)
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=result, is_error=is_error
        )

    version = _version()
    return Server(SERVER_NAME, version=version, on_list_tools=list_tools, on_call_tool=call_tool)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("assay-jeffreys")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


async def serve_stdio() -> None:
    """Serve :func:`build_server` on standard input and output until the client disconnects."""
    from mcp.server.stdio import stdio_server

    server = build_server()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


@click.command(name="mcp")
def mcp_command() -> None:
    """Serve the gate (bayes_output_gate) and the scorecard (assay_scorecard) as MCP tools
    over stdio. Needs the extra assay-jeffreys[mcp]."""
    import assay

    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError as exc:
        raise assay.AssayError(
            INVALID_CONFIG,
            "the MCP server needs the optional extra: pip install 'assay-jeffreys[mcp]'",
        ) from exc
    anyio.run(serve_stdio)
