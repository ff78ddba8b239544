"""The HTTP judges against a hostile loopback server: cross-origin redirects, trickling bodies,
truncation, garbage status lines, deep nesting, odd ``usage`` and huge bodies. Each is a coded
judge failure (or a harmless reply), never a leak, a hang or a crash of the evaluation."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import assay
from assay_evaluation import evaluate
from assay_judges import OpenAIJudge, openai_judge

OK = {
    "model": "fake",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": '{"score": 0.8}'}}],
    "usage": {"prompt_tokens": 10, "completion_tokens": 3},
}


class Hostile(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), HostileHandler)
        self.seen: list[tuple[str, str | None]] = []  # (path, authorization)
        self.redirect_to = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class HostileHandler(BaseHTTPRequestHandler):
    server: Hostile
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def send(self, code: int, body: bytes | str, extra: tuple = ()) -> None:
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in extra:
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.server.seen.append((self.path, self.headers.get("Authorization")))
        mode = self.path.strip("/").split("/")[0]
        try:
            if mode in ("ok", "capture"):
                return self.send(200, json.dumps(OK))
            if mode.startswith("redirect"):  # redirect302, redirect307: to the other origin
                target = f"{self.server.redirect_to}/capture/v1/chat/completions"
                return self.send(int(mode[-3:]), "", extra=[("Location", target)])
            if mode == "sameorigin":
                return self.send(307, "", extra=[("Location", "/ok/v1/chat/completions")])
            if mode == "trickle":
                self.send_response(200)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                end = time.monotonic() + 20
                while time.monotonic() < end:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.1)
                return None
            if mode == "partial":
                self.send_response(200)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b'{"choices": [')
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                return None
            if mode == "garbage":
                self.wfile.write(b"HELLO THERE\r\n\r\n")
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                return None
            if mode == "deep":
                return self.send(200, "[" * 100_000 + "]" * 100_000)
            if mode == "usagelist":
                return self.send(200, json.dumps({**OK, "usage": [1, 2]}))
            if mode == "usagestr":
                usage = {"prompt_tokens": "ten", "completion_tokens": -4}
                return self.send(200, json.dumps({**OK, "usage": usage, "model": 5}))
            if mode == "huge":  # announces 300 MB, sends 16 MiB at most
                self.send_response(200)
                self.send_header("Content-Length", str(300_000_000))
                self.end_headers()
                for _ in range(16):
                    self.wfile.write(b"a" * (1 << 20))
                return None
            if mode == "hugechunked":  # no length: the cap must stop the reading
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for _ in range(16):
                    self.wfile.write(b"a" * (1 << 20))
                return None
            return self.send(404, "unknown mode")
        except (BrokenPipeError, ConnectionResetError):
            return None


@pytest.fixture
def hostile():
    servers = [Hostile(), Hostile()]
    for server in servers:
        threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    servers[0].redirect_to = servers[1].url
    yield servers
    for server in servers:
        server.shutdown()
        server.server_close()


def judge_for(server: Hostile, mode: str, **settings: object) -> OpenAIJudge:
    base = {"model": "m", "baseUrl": f"{server.url}/{mode}/v1", "apiKey": "sk-SECRET-123"}
    return openai_judge({**base, "timeout": 2, "retries": 0, **settings}, env={})


def failure(judge: OpenAIJudge) -> assay.AssayError:
    with pytest.raises(assay.AssayError) as excinfo:
        judge.complete("Rate this.")
    assert excinfo.value.code == "JUDGE_ERROR"
    return excinfo.value


@pytest.mark.parametrize("status", [302, 307])
def test_a_redirect_to_another_origin_is_refused_and_the_key_not_sent(hostile, status):
    main, other = hostile
    error = failure(judge_for(main, f"redirect{status}", retries=2))
    assert error.details["reason"] == "redirect" and other.url in error.message
    assert other.seen == []  # the other origin never saw a request, let alone the key
    assert len(main.seen) == 1  # a refused redirect is not retried


def test_a_same_origin_307_is_followed(hostile):
    main, _ = hostile
    assert judge_for(main, "sameorigin").complete("p").text == '{"score": 0.8}'
    assert [auth for _, auth in main.seen] == ["Bearer sk-SECRET-123"] * 2


def test_the_timeout_is_a_deadline_not_a_per_read_timeout(hostile):
    main, _ = hostile
    start = time.monotonic()
    error = failure(judge_for(main, "trickle", timeout=1))
    assert time.monotonic() - start < 5
    assert error.details["reason"] == "deadline"


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("partial", "truncated"),
        ("garbage", "bad-status-line"),
        ("deep", "not-json"),
    ],
)
def test_malformed_transport_is_a_coded_failure(hostile, mode, reason):
    main, _ = hostile
    assert failure(judge_for(main, mode)).details["reason"] == reason


@pytest.mark.parametrize("mode", ["usagelist", "usagestr"])
def test_odd_usage_is_ignored_not_a_crash(hostile, mode):
    main, _ = hostile
    reply = judge_for(main, mode).complete("p")
    assert reply.text == '{"score": 0.8}'
    assert (reply.prompt_tokens, reply.completion_tokens) == (None, None)


@pytest.mark.parametrize("mode", ["huge", "hugechunked"])
def test_the_response_size_is_capped(hostile, mode):
    from assay_judges.http import DEFAULT_MAX_RESPONSE_BYTES

    main, _ = hostile
    assert DEFAULT_MAX_RESPONSE_BYTES == 8 * 1024 * 1024
    error = failure(judge_for(main, mode, maxResponseBytes=1 << 20))
    assert error.details["reason"] == "too-large"


def test_max_response_bytes_is_bounded():
    with pytest.raises(assay.AssayError) as excinfo:
        openai_judge({"model": "m", "maxResponseBytes": 10**12}, env={})
    assert (excinfo.value.code, excinfo.value.path) == (
        "JUDGE_MISCONFIGURED",
        "judge.maxResponseBytes",
    )


SAMPLE = {
    "question": "What is RAG?",
    "answer": "RAG combines retrieval and generation.",
    "contexts": ["RAG combines retrieval with generation."],
}


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("redirect302", "redirect"),
        ("partial", "truncated"),
        ("garbage", "bad-status-line"),
        ("deep", "not-json"),
    ],
)
def test_a_hostile_judge_makes_the_metric_undetermined_not_the_run_crash(hostile, mode, reason):
    main, _ = hostile
    judge = {"type": "openai", "model": "m", "baseUrl": f"{main.url}/{mode}/v1"}
    result = evaluate(
        SAMPLE, ["answer_relevance"], {"mode": "llm", "judge": {**judge, "retries": 0}}
    )
    metric = result.metrics["answer_relevance"]
    assert metric.score is None and metric.passed is None
    signal = metric.signals[0]
    assert (signal.severity, signal.id, signal.evidence) == ("error", "JUDGE_ERROR", reason)
    assert metric.details["judgeFailures"][0]["code"] == "JUDGE_ERROR"
    assert metric.details["judgeFailures"][0]["reason"] == reason


def test_odd_usage_through_an_evaluation_scores(hostile):
    main, _ = hostile
    judge = {"type": "openai", "model": "m", "baseUrl": f"{main.url}/usagelist/v1"}
    result = evaluate(SAMPLE, ["answer_relevance"], {"mode": "llm", "judge": judge})
    assert result.metrics["answer_relevance"].score == pytest.approx(0.8)
