"""The MCP server: a low-level :class:`mcp.server.Server` over the registered tools, on stdio.

Each call returns the result both as structured content and as JSON text. Bad input is a tool
error (``isError`` with ``{"error": {"code", "message", "path"}}``), not a protocol error.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from assay_mcp.tools import TOOL_ERROR, ToolSet, call_tool, collect_tools

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
        try:
            text = json.dumps(result, allow_nan=False, sort_keys=True)
        except (TypeError, ValueError, RecursionError) as exc:  # never a JSON-RPC code 0
            result, is_error = (
                {
                    "error": {
                        "code": TOOL_ERROR,
                        "message": f"tool {params.name!r} returned a result that is not JSON "
                        f"({type(exc).__name__})",
                        "path": None,
                    }
                },
                True,
            )
            text = json.dumps(result, sort_keys=True)
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
    out = _LineWriter(sys.stdout.buffer)
    source = _CheckedLines(sys.stdin.fileno(), out)
    async with stdio_server(source, out) as (read_stream, write_stream):  # type: ignore[arg-type]
        await server.run(read_stream, write_stream, server.create_initialization_options())


PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def check_message(line: bytes) -> dict[str, Any] | None:
    """The JSON-RPC error response for a malformed message line, or ``None`` when the line is a
    well-formed JSON-RPC 2.0 message the SDK can take.

    ``-32700`` (parse error, id null): not UTF-8, not JSON (NaN and Infinity included), nested
    too deeply, an integer over 4,300 digits. ``-32600`` (invalid request): a batch, a value
    that is not an object, a wrong ``jsonrpc``, or an object that is no request, notification
    or response; the id is echoed when it is a string or an integer.
    """
    import mcp_types as types

    def error(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}

    try:
        data = json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError:
        return error(PARSE_ERROR, "Parse error: the message is not UTF-8")
    except json.JSONDecodeError as exc:
        return error(PARSE_ERROR, f"Parse error: {exc.msg} at column {exc.colno}")
    except RecursionError:
        return error(PARSE_ERROR, "Parse error: nested too deeply")
    except ValueError as exc:
        what = str(exc) if "JSON number" in str(exc) else "a number has too many digits"
        return error(PARSE_ERROR, f"Parse error: {what}")
    if isinstance(data, list):
        return error(INVALID_REQUEST, "Invalid Request: batches are not supported")
    if not isinstance(data, dict):
        return error(INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
    raw_id = data.get("id")
    request_id = (
        raw_id if isinstance(raw_id, str) or (type(raw_id) is int and abs(raw_id) < 2**53) else None
    )
    if data.get("jsonrpc") != "2.0":
        return error(INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"', request_id)
    try:
        types.jsonrpc_message_adapter.validate_python(data, by_name=False)
    except Exception:  # a pydantic ValidationError, or anything the SDK would refuse
        return error(
            INVALID_REQUEST,
            "Invalid Request: not a JSON-RPC request, notification or response",
            request_id,
        )
    return None


class _LineWriter:
    """Standard output for the SDK's writer and for our error replies: each ``write`` is one
    whole line written and flushed synchronously, so replies never interleave."""

    def __init__(self, buffer: Any) -> None:
        self._buffer = buffer

    async def write(self, text: str) -> None:
        self._buffer.write(text.encode("utf-8"))
        self._buffer.flush()

    async def flush(self) -> None:
        return None

    async def reply(self, message: dict[str, Any]) -> None:
        await self.write(json.dumps(message, separators=(",", ":")) + "\n")


class _CheckedLines:
    """Standard input as an async iterator of well-formed message lines; a malformed line is
    answered here (:func:`check_message`) and not passed on. Ends at EOF. Lines are read by a
    daemon thread, so Ctrl-C stops the server without waiting for input (a worker thread
    blocked on ``readline`` would hold the interpreter at exit)."""

    def __init__(self, fd: int, out: _LineWriter) -> None:
        self._fd = fd
        self._out = out
        self._queue: Any = None

    def __aiter__(self) -> _CheckedLines:
        return self

    def _start(self) -> None:
        import asyncio
        import threading

        loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()

        def put(line: bytes) -> bool:
            try:
                loop.call_soon_threadsafe(self._queue.put_nowait, line)
            except RuntimeError:  # the loop is closed: the server has stopped
                return False
            return True

        def pump() -> None:
            # os.read on the descriptor, not the buffered reader: a daemon thread blocked
            # holding the reader's lock aborts the interpreter at exit
            pending = b""
            while True:
                try:
                    chunk = os.read(self._fd, 1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    if pending:
                        put(pending)
                    put(b"")
                    return
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if not put(line + b"\n"):
                        return

        threading.Thread(target=pump, name="assay-mcp-stdin", daemon=True).start()

    async def __anext__(self) -> str:
        if self._queue is None:
            self._start()
        while True:
            line = await self._queue.get()
            if not line:
                raise StopAsyncIteration
            if not line.strip():
                continue
            problem = check_message(line)
            if problem is None:
                return str(line.decode("utf-8"))
            await self._out.reply(problem)
