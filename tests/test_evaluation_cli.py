"""``assay eval`` end to end with the real metrics: --json over the example data, llm mode with
an OpenAI-compatible judge served on loopback, and the progress bar on a real terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.main import build_cli

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "examples" / "evaluation" / "data" / "rag_answers.jsonl"

pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin installed")


@pytest.fixture
def plugins(monkeypatch):
    def use(names: str) -> None:
        monkeypatch.setenv("ASSAY_PLUGINS", names)
        assay.reset_default_registry()

    yield use
    assay.reset_default_registry()


def invoke(*args: str):
    result = CliRunner().invoke(build_cli(), ["eval", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_output_with_the_seven_metrics(plugins):
    plugins("evaluation,faithfulness")
    code, out, _ = invoke(str(DATA), "--profile", "compatible", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [line["id"] for line in lines[:-1]] == [f"rag-{i}" for i in range(1, 7)]
    assert list(lines[0]["metrics"]) == [
        "faithfulness",
        "answer_relevance",
        "context_precision",
        "context_recall",
        "context_relevance",
        "answer_correctness",
        "hallucination_rate",
    ]
    no_truth = lines[2]["metrics"]["context_recall"]
    assert (no_truth["score"], no_truth["passed"]) == (None, None)
    assert lines[1]["metrics"]["hallucination_rate"]["signals"][0]["evidence"] == (
        "It was painted red in 2020."
    )
    assert lines[-1]["aggregate"]["aggregates"]["context_recall"]["nullRate"] == pytest.approx(
        1 / 6
    )


class OpenAIStyle(BaseHTTPRequestHandler):
    """Answers chat-completions requests: every rating 0.8, every claim supported."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        prompt = body["messages"][0]["content"]
        if prompt.startswith("Break the ANSWER"):
            text = json.dumps(["claim one", "claim two"])
        elif prompt.startswith("For each numbered CLAIM"):
            text = "[true, true]"
        elif prompt.startswith("Is the CONTEXT useful"):
            text = '{"verdict": 1}'
        elif prompt.startswith("For each numbered SENTENCE"):
            count = int(re.search(r"array of (\d+) objects", prompt).group(1))
            text = json.dumps([True] * count)
        else:
            text = '{"score": 0.8}'
        data = json.dumps(
            {
                "model": body["model"],
                "choices": [{"message": {"role": "assistant", "content": text}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 2},
            }
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def test_timestamp_is_stamped_on_every_stored_result(plugins, tmp_path):
    plugins("evaluation,faithfulness")
    out = tmp_path / "out.jsonl"
    stamp = "2024-05-01T12:00:00+00:00"
    code, _, err = invoke(str(DATA), "--output", str(out), "--timestamp", stamp)
    assert code == 1, err  # the example data fails some thresholds
    stored = [json.loads(line)["result"] for line in out.read_text().splitlines()]
    assert [r["timestamp"] for r in stored] == [stamp] * 6
    code, _, _ = invoke(str(DATA), "--output", str(tmp_path / "plain.jsonl"))
    plain = (tmp_path / "plain.jsonl").read_text()
    assert code == 1 and '"timestamp"' not in plain  # absent unless given


@pytest.mark.parametrize("bad", ["now", "2024-02-30T00:00:00", "12:00"])
def test_timestamp_that_is_not_iso_8601_exits_2(plugins, bad):
    plugins("evaluation,faithfulness")
    code, out, err = invoke(str(DATA), "--timestamp", bad)
    assert code == 2
    assert "INVALID_OPTION" in err and "--timestamp" in err
    assert out == ""


def test_llm_mode_with_an_openai_compatible_server(plugins, monkeypatch, tmp_path):
    pytest.importorskip("assay_judges", reason="needs the assay-judges plugin installed")
    plugins("evaluation,faithfulness,judges")
    server = ThreadingHTTPServer(("127.0.0.1", 0), OpenAIStyle)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    try:
        args = (
            str(DATA),
            "--mode",
            "llm",
            "--judge",
            "openai",
            "--judge-model",
            "local",
            "--judge-cache",
            str(tmp_path / "cache"),
            "--metrics",
            "faithfulness,answer_relevance,hallucination_rate",
            "--threshold",
            "hallucination_rate=0",
            "--output",
            str(tmp_path / "out.jsonl"),
        )
        code, out, err = invoke(*args)
        again_code, again, _ = invoke(*args[:-2], "--output", str(tmp_path / "again.jsonl"))
    finally:
        server.shutdown()
        server.server_close()
    assert code == 0, err  # the judge supports every claim and rates relevance 0.8
    assert "judge: 18 calls, 180 input / 36 output tokens, 0 cache hits" in out
    assert "judge: 0 calls, 0 input / 0 output tokens, 18 cache hits" in again
    assert again_code == 0
    stored = [json.loads(x)["result"] for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    first = stored[0]["metrics"]
    assert first["faithfulness"]["details"]["mode"] == "llm"
    assert first["faithfulness"]["score"] == 1.0
    assert first["hallucination_rate"]["details"]["mode"] == "heuristic"  # no llm-metric


def test_progress_bar_on_a_terminal_only(tmp_path):
    script = Path(sys.executable).parent / "assay"
    if not script.exists():
        pytest.skip(
            f"the assay console script is not installed next to {sys.executable}: "
            "install the core into this interpreter (uv run --all-packages does; CI does)"
        )
    env = {**os.environ, "ASSAY_PLUGINS": "evaluation,faithfulness", "COLUMNS": "80"}
    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            [str(script), "eval", str(DATA)],
            stdout=subprocess.PIPE,
            stderr=slave,
            env=env,
            timeout=120,
        )
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(master)
    bar = b"".join(chunks).decode("utf-8", "replace")
    assert done.returncode == 1
    assert "evaluating" in bar and "100%" in bar
    piped = subprocess.run(
        [str(script), "eval", str(DATA)], capture_output=True, env=env, timeout=120
    )
    assert piped.stderr == b""
    assert piped.stdout == done.stdout


def _assay_script() -> Path:
    script = Path(sys.executable).parent / "assay"
    if not script.exists():
        pytest.skip(f"the assay console script is not installed next to {sys.executable}")
    return script


def _children(parent: int) -> set[int]:
    """Live (not zombie) processes whose parent is ``parent``, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[1]) == parent:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# SIGINT's default disposition, as a terminal gives it: a process started in the background of a
# non-interactive shell (a CI runner may be one) inherits SIGINT ignored, and Python keeps it so,
# which would make Ctrl-C a no-op in the process under test. Set to SIG_DFL, it survives the exec.
DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
WORKERS = ("--workers", "2", "--json")


def _start_eval_with_workers(tmp_path: Path) -> tuple[subprocess.Popen, set[int]]:
    """``assay eval --workers 2`` on a large-ish input, in its own session, once its two workers
    are running."""
    lines = DATA.read_text(encoding="utf-8").splitlines()
    big = tmp_path / "big.jsonl"
    big.write_text("\n".join(lines * (20_000 // len(lines) + 1)) + "\n", encoding="utf-8")
    env = {**os.environ, "ASSAY_PLUGINS": "evaluation,faithfulness"}
    process = subprocess.Popen(
        [sys.executable, "-c", DEFAULT_SIGINT, str(_assay_script()), "eval", str(big), *WORKERS],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
        workers = _children(process.pid)
    if len(workers) < 2:
        process.kill()
        process.wait()
        pytest.fail(f"the workers never started (exit {process.returncode})")
    time.sleep(0.5)  # let them take work
    return process, workers


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_kill_9_of_eval_leaves_no_worker_running(tmp_path):
    process, workers = _start_eval_with_workers(tmp_path)
    try:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        survivors = [pid for pid in workers if _alive(pid)]
        assert survivors == [], f"workers outlived their killed parent: {survivors}"
    finally:
        for pid in workers:  # clean up what this test started, should the assertion fail
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        process.stderr.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_of_eval_with_workers_exits_130(tmp_path):
    process, workers = _start_eval_with_workers(tmp_path)
    try:
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole group
        _, stderr = process.communicate(timeout=30)
        assert process.returncode == 130
        assert b"Traceback" not in stderr
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if _alive(pid)] == []
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
