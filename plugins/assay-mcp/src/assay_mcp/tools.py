"""The ``mcp-tool`` registry kind: the tool contract, collecting the registered tools, calling one.

Nothing here imports the MCP SDK, so listing and calling tools works (and is tested) without a
server.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import attrs

import assay

__all__ = [
    "TOOL_ERROR",
    "TOOL_KIND",
    "McpTool",
    "ToolSet",
    "call_tool",
    "collect_tools",
    "describe",
]

TOOL_KIND = "mcp-tool"
"""The registry kind under which plugins register tools."""

TOOL_ERROR = "TOOL_ERROR"
"""Error code of a tool call that raised something other than :class:`assay.AssayError`."""


@runtime_checkable
class McpTool(Protocol):
    """A tool the MCP server exposes. Any object with these members qualifies.

    Attributes:
        name: the tool's name, unique among the registered tools (letters, digits, ``_``,
            ``-`` and ``.``; e.g. ``"bayes_output_gate"``).
        description: what it does, written for the model choosing among tools.
        input_schema: the JSON Schema (an object schema) of its arguments.

    Contract of :meth:`call`:
        * Input: the arguments as the client sent them (parsed JSON). They come from a model:
          validate them defensively rather than trusting the schema.
        * Output: a JSON-safe dict (no NaN or infinities; ``null`` instead), returned to the
          client both as structured content and as JSON text.
        * Errors: bad arguments raise :class:`assay.AssayError` naming the field at fault; the
          server returns it as a tool error ``{"error": {"code", "message", "path"}}`` so the
          model can read it and correct itself. Any other exception is reported the same way
          with code ``TOOL_ERROR``.
        * Synchronous, and safe to call repeatedly; the server calls it once per request.
    """

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def input_schema(self) -> Mapping[str, Any]: ...

    def call(self, arguments: Any) -> dict[str, Any]:
        """Run the tool on ``arguments``; see the class docstring."""
        ...


@attrs.frozen
class ToolSet:
    """The tools the server exposes, by the name it lists them under.

    Attributes:
        tools: exposed name -> tool. A name registered by a single plugin is exposed as is; one
            registered by several plugins is exposed as ``plugin.name`` for each.
        problems: registered objects that are not usable tools, one sentence each (the server
            skips them and says so on standard error).
    """

    tools: dict[str, McpTool]
    problems: tuple[str, ...] = ()


def _missing_members(obj: Any) -> list[str]:
    missing = []
    for attribute, kind in (("name", str), ("description", str), ("input_schema", Mapping)):
        if not isinstance(getattr(obj, attribute, None), kind):
            missing.append(attribute)
    if not callable(getattr(obj, "call", None)):
        missing.append("call")
    return missing


def collect_tools(registry: assay.Registry | None = None) -> ToolSet:
    """Every tool registered as ``mcp-tool`` in ``registry`` (the default registry if None)."""
    registry = assay.default_registry() if registry is None else registry
    registrations = registry.items(TOOL_KIND)
    counts: dict[str, int] = {}
    for reg in registrations:
        counts[reg.name] = counts.get(reg.name, 0) + 1
    tools: dict[str, McpTool] = {}
    problems: list[str] = []
    for reg in registrations:
        missing = _missing_members(reg.obj)
        if missing:
            problems.append(
                f"mcp-tool {reg.qualified_name!r} from {reg.provider.describe()} is skipped: "
                f"it lacks {', '.join(missing)}"
            )
            continue
        exposed = reg.name if counts[reg.name] == 1 else f"{reg.provider.plugin}.{reg.name}"
        tools[exposed] = reg.obj
    return ToolSet(tools=tools, problems=tuple(problems))


def describe(name: str, tool: McpTool) -> dict[str, Any]:
    """``{"name", "description", "inputSchema"}``: the tool as MCP lists it."""
    return {"name": name, "description": tool.description, "inputSchema": dict(tool.input_schema)}


def _json_safe(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def call_tool(tool: McpTool | None, name: str, arguments: Any) -> tuple[dict[str, Any], bool]:
    """Call ``tool`` (``None`` when no tool is called ``name``) on ``arguments``.

    :return: ``(result, is_error)``: the tool's JSON-safe result, or ``{"error": {"code",
        "message", "path"}}`` with ``is_error`` true (``UNKNOWN_NAME`` for no such tool, the
        tool's :class:`assay.AssayError`, ``TOOL_ERROR`` for any other exception). Never raises
        for what a tool does.
    """
    try:
        if tool is None:
            raise assay.AssayError(assay.ErrorCode.UNKNOWN_NAME, f"no tool named {name!r}", "name")
        result = tool.call(arguments)
        if not isinstance(result, Mapping):
            raise TypeError(f"returned {type(result).__name__}, not an object")
        return _json_safe(result), False
    except assay.AssayError as error:
        return {"error": error.to_dict()}, True
    except Exception as exc:  # a broken tool must not take the server down
        message = f"tool {name!r} failed: {type(exc).__name__}: {exc}"
        return {"error": {"code": TOOL_ERROR, "message": message, "path": None}}, True
