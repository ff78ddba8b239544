"""``assay mcp`` over pipes in a subprocess: every request is answered (-32700 parse error,
-32600 invalid request for malformed ones), tool errors are ``isError`` results with code,
message and path, and the server stops cleanly on EOF and on Ctrl-C (SIGINT)."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from assay import ExitCode
from assay_mcp.server import check_message

pytest.importorskip("assay_jeffreys", reason="the gate plugin registers a tool")


# SIGINT's default disposition, as a terminal gives it: a process started in the background of a
# non-interactive shell (a CI runner may be one) inherits SIGINT ignored, and Python keeps it so,
# which would make Ctrl-C a no-op in the process under test. Set to SIG_DFL, it survives the exec.
DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


class Server:
    def __init__(self) -> None:
        script = Path(sys.executable).parent / "assay"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", DEFAULT_SIGINT, str(script), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, raw: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def request(self, raw: bytes, timeout: float = 20) -> dict:
        self.send(raw)
        line = self.lines.get(timeout=timeout)
        assert line is not None, "the server exited"
        return json.loads(line)

    def initialize(self) -> None:
        reply = self.request(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {},
                        "clientInfo": {"name": "t", "version": "0"},
                    },
                }
            ).encode()
        )
        assert "result" in reply
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


@pytest.fixture
def server():
    running = Server()
    try:
        running.initialize()
        yield running
    finally:
        running.close()


MALFORMED = [
    (b"{not json", -32700),
    (b'{"jsonrpc":"2.0","id":7,"method":"tools/list","x":"\xff\xfe"}', -32700),
    (b'{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"x":NaN}}', -32700),
    (b"[" * 100_000 + b"]" * 100_000, -32700),
    (b'{"jsonrpc":"2.0","id":5,"method":"tools/list","x":' + b"9" * 5000 + b"}", -32700),
    (b"[1,2,3]", -32600),
    (b"42", -32600),
    (b"{}", -32600),
    (b'{"jsonrpc":"1.0","id":3,"method":"tools/list"}', -32600),
    (b'{"jsonrpc":"2.0","id":4,"method":7}', -32600),
]


def test_every_malformed_message_is_answered_and_the_server_keeps_serving(server):
    for raw, code in MALFORMED:
        reply = server.request(raw, timeout=10)
        assert reply["jsonrpc"] == "2.0"
        assert reply["error"]["code"] == code, (raw[:60], reply)
    listed = server.request(b'{"jsonrpc":"2.0","id":99,"method":"tools/list"}')
    assert listed["id"] == 99 and listed["result"]["tools"]


def test_invalid_request_echoes_its_id():
    reply = check_message(b'{"jsonrpc":"1.0","id":3,"method":"tools/list"}')
    assert reply == {
        "jsonrpc": "2.0",
        "id": 3,
        "error": {"code": -32600, "message": 'Invalid Request: jsonrpc must be "2.0"'},
    }
    assert check_message(b'{"jsonrpc":"2.0","id":3,"method":"tools/list"}') is None


def test_tool_errors_are_coded_is_error_results(server):
    for arguments in (
        {"scores": {"f": 0.5}, "models": [], "policy": {"kind": []}},
        {"scores": {"f": 10**400}, "models": []},
    ):
        reply = server.request(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 20,
                    "method": "tools/call",
                    "params": {"name": "bayes_output_gate", "arguments": arguments},
                }
            ).encode()
        )
        result = reply["result"]
        assert result["isError"] is True
        error = result["structuredContent"]["error"]
        assert set(error) == {"code", "message", "path"}
        assert error["code"] in {"INVALID_CONFIG", "INVALID_SCORE"}


def test_server_stops_cleanly_at_eof(server):
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    assert server.proc.wait(15) == ExitCode.OK
    assert b"Traceback" not in server.proc.stderr.read()


def test_server_stops_cleanly_on_sigint(server):
    time.sleep(0.2)  # idle, blocked reading standard input
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(15) == ExitCode.INTERRUPTED
    assert b"Traceback" not in server.proc.stderr.read()
