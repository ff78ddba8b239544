"""assay-mcp: an MCP server (``assay mcp``) serving the tools that installed plugins register.

Any plugin contributes a tool from its ``assay_register`` hook, without depending on this
package (a tool is a plain object)::

    registrar.add("mcp-tool", tool, name=tool.name)

and user code can add one at runtime with ``assay.register(tool, kind="mcp-tool",
name=tool.name)``. The server lists every registered tool and dispatches calls to it; see
:class:`McpTool` for the contract.
"""

from __future__ import annotations

from assay_mcp.tools import (
    TOOL_ERROR,
    TOOL_KIND,
    McpTool,
    ToolSet,
    call_tool,
    collect_tools,
    describe,
)

__all__ = [
    "TOOL_ERROR",
    "TOOL_KIND",
    "McpTool",
    "ToolSet",
    "call_tool",
    "collect_tools",
    "describe",
]
