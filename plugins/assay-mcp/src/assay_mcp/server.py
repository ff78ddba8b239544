"""The MCP server: a low-level :class:`mcp.server.Server` over the registered tools, on stdio.

Each call returns the result both as structured content and as JSON text. Bad input is a tool
error (``isError`` with ``{"error": {"code", "message", "path"}}``), not a protocol error.
"""

from __future__ import annotations

import json
from typing import Any

from assay_mcp.tools import ToolSet, call_tool, collect_tools

__all__ = ["SERVER_NAME", "build_server", "serve_stdio"]

SERVER_NAME = "assay"


def build_server(tools: ToolSet | None = None) -> Any:
    """A :class:`mcp.server.Server` serving ``tools`` (default: every registered tool)."""
    import mcp_types as types
    from mcp.server import Server

    toolset = collect_tools() if tools is None else tools
    exposed = dict(toolset.tools)

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=name, description=tool.description, input_schema=dict(tool.input_schema)
                )
                for name, tool in exposed.items()
            ]
        )

    async def call(ctx: Any, params: Any) -> Any:
        result, is_error = call_tool(exposed.get(params.name), params.name, params.arguments or {})
        text = json.dumps(result, allow_nan=False, sort_keys=True)
        return types.CallToolResult(
            content=[types.TextContent(text=text)], structured_content=result, is_error=is_error
        )

    return Server(SERVER_NAME, version=_version(), on_list_tools=list_tools, on_call_tool=call)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("assay-mcp")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


async def serve_stdio(tools: ToolSet | None = None) -> None:
    """Serve :func:`build_server` on standard input and output until the client disconnects."""
    from mcp.server.stdio import stdio_server

    server = build_server(tools)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
