import json
import sys
from pathlib import Path

import pytest

from assay_perturb.invoke import (
    INPUT_ENV,
    Invocation,
    cache_key,
    command_fingerprint,
    load_cached,
    run_invocation,
)

HOSTILE = "$(touch pwned-dollar) `touch pwned-backtick` ; touch pwned-semicolon"


def invocation(payload: dict[str, object], key: str = "k1") -> Invocation:
    return Invocation("case", "baseline", None, payload, key, "invocations/case/baseline")


def run(tmp_path: Path, script: str, payload: dict[str, object], timeout: float = 10):
    (tmp_path / "p.py").write_text(script)
    return run_invocation(
        invocation(payload),
        [sys.executable, "p.py"],
        run_dir=tmp_path / "run",
        workdir=tmp_path,
        timeout=timeout,
    )


def test_variant_on_stdin_and_in_env_file_never_on_a_shell(tmp_path: Path) -> None:
    script = (
        "import json, os, sys\n"
        "a = json.load(sys.stdin)\n"
        f"b = json.load(open(os.environ[{INPUT_ENV!r}]))\n"
        "print(json.dumps({'same': a == b, 'query': a['query'], 'argv': sys.argv[1:]}))\n"
    )
    result = run(tmp_path, script, {"query": HOSTILE, "chunks": []})
    out = json.loads(result.stdout)
    assert out == {"same": True, "query": HOSTILE, "argv": []}
    assert not list(tmp_path.glob("pwned-*"))
    folder = tmp_path / "run/invocations/case/baseline"
    assert json.loads((folder / "input.json").read_text())["query"] == HOSTILE
    record = json.loads((folder / "result.json").read_text())
    assert record["exit_code"] == 0 and record["key"] == "k1" and record["duration"] >= 0
    assert (folder / "stdout.txt").read_text() == result.stdout


def test_nonzero_exit_keeps_stderr(tmp_path: Path) -> None:
    result = run(tmp_path, "import sys\nprint('bad thing', file=sys.stderr)\nsys.exit(4)\n", {})
    assert result.exit_code == 4 and not result.completed
    assert "bad thing" in result.stderr_tail
    assert "bad thing" in (tmp_path / "run/invocations/case/baseline/stderr.txt").read_text()


def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    script = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "time.sleep(60)\n"
    )
    result = run(tmp_path, script, {}, timeout=0.5)
    assert result.timed_out and not result.completed
    assert result.error == "timed out after 0.5 s"
    assert result.duration < 30


def test_command_that_cannot_start(tmp_path: Path) -> None:
    result = run_invocation(
        invocation({}), [str(tmp_path / "missing")], run_dir=tmp_path, workdir=tmp_path, timeout=5
    )
    assert result.exit_code is None and result.error.startswith("cannot start")


def test_cache_key_follows_command_payload_repeat_and_script_content(tmp_path: Path) -> None:
    (tmp_path / "p.py").write_text("print(1)")
    command = command_fingerprint(["python3", "p.py"], tmp_path)
    base = cache_key(command, {"q": 1}, 0)
    assert base == cache_key(command_fingerprint(["python3", "p.py"], tmp_path), {"q": 1}, 0)
    assert base != cache_key(command, {"q": 2}, 0)
    assert base != cache_key(command, {"q": 1}, 1)
    assert base != cache_key(command_fingerprint(["python3", "p.py", "-x"], tmp_path), {"q": 1}, 0)
    (tmp_path / "p.py").write_text("print(2)")
    assert command != command_fingerprint(["python3", "p.py"], tmp_path)


def test_load_cached_only_reuses_successful_runs_with_the_same_key(tmp_path: Path) -> None:
    ok = run(tmp_path, "print('{}')\n", {})
    assert ok.completed
    cached = load_cached(tmp_path / "run", invocation({}))
    assert cached is not None and cached.cached and cached.stdout == ok.stdout
    assert load_cached(tmp_path / "run", invocation({}, key="other")) is None
    run(tmp_path, "import sys\nsys.exit(1)\n", {})
    assert load_cached(tmp_path / "run", invocation({})) is None


@pytest.mark.parametrize("missing", ["result.json", "stdout.txt"])
def test_unfinished_invocation_is_not_cached(tmp_path: Path, missing: str) -> None:
    run(tmp_path, "print('{}')\n", {})
    (tmp_path / "run/invocations/case/baseline" / missing).unlink()
    assert load_cached(tmp_path / "run", invocation({})) is None
