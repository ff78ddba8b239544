"""Stopping `assay perturb check`: no pipeline (nor its children) outlives it, however it ends."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from assay import ExitCode

ASSAY = Path(sys.executable).parent / "assay"

# Baselines answer at once; every other variant starts a child of its own and both sleep an
# hour. The marker on both command lines finds them in /proc.
HANG = """\
import json, subprocess, sys, time
variant = json.load(sys.stdin)
marker = sys.argv[1]
if variant["variant"] != "baseline":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", marker])
    if "IGNORE_TERM" in variant["query"]:
        import signal
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(3600)
print(json.dumps({"answer": {"label": "approve"}}))
"""

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds processes in /proc")


def marked(marker: str) -> list[int]:
    """Pids of live processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if marker.encode() in (entry / "cmdline").read_bytes():
                status = (entry / "status").read_text()
                if "\nState:\tZ" not in status:  # a zombie is dead already
                    found.append(int(entry.name))
    return found


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def hanging(workdir: Path):  # type: ignore[no-untyped-def]
    """(workdir, marker): a pipeline that hangs on every variant; kills leftovers afterwards."""
    marker = f"assay-test-marker-{uuid.uuid4().hex}"
    (workdir / "hang.py").write_text(HANG)
    config = workdir / "assay-perturb.yaml"
    config.write_text(
        config.read_text()
        .replace("pipeline.py]", f"hang.py, {marker}]")
        .replace("timeout: 10", "timeout: 3600")
    )
    yield workdir, marker
    for pid in marked(marker):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def start(workdir: Path, marker: str, *, new_session: bool = False) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [str(ASSAY), "perturb", "check", "--quiet"],
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=new_session,
    )
    # jobs: 2, so two hanging pipelines with a child each
    assert wait_for(lambda: len(marked(marker)) >= 4, 30), "the pipelines did not start"
    return process


def test_sigterm_terminates_every_pipeline_tree(hanging) -> None:  # type: ignore[no-untyped-def]
    workdir, marker = hanging
    process = start(workdir, marker)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=15)
    assert process.returncode == ExitCode.INTERRUPTED, stderr
    assert "terminated (SIGTERM): starting no new invocations, stopping 2 running" in stderr
    assert "terminated: 1 finished invocation(s) kept" in stderr  # the first baseline
    assert wait_for(lambda: not marked(marker), 10), marked(marker)


def test_killing_the_process_group_leaves_no_pipeline(hanging) -> None:  # type: ignore[no-untyped-def]
    workdir, marker = hanging
    process = start(workdir, marker, new_session=True)
    os.killpg(process.pid, signal.SIGKILL)  # no handler runs: the watchdog must clean up
    process.communicate(timeout=15)
    assert wait_for(lambda: not marked(marker), 10), marked(marker)


def test_ctrl_c_stops_at_once_keeps_finished_and_exits_130(hanging) -> None:  # type: ignore[no-untyped-def]
    workdir, marker = hanging
    process = start(workdir, marker)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=15)
    assert time.monotonic() - started < 5, "waited for the running invocations"
    assert process.returncode == ExitCode.INTERRUPTED, stderr
    assert "interrupted (SIGINT): starting no new invocations, stopping 2 running" in stderr
    kept = len(list((workdir / "assay-perturb/invocations").glob("*/*/result.json")))
    assert kept == 1 and f"interrupted: {kept} finished invocation(s) kept" in stderr
    assert wait_for(lambda: not marked(marker), 10), marked(marker)


def test_second_ctrl_c_exits_at_once(hanging, make_case) -> None:  # type: ignore[no-untyped-def]
    workdir, marker = hanging
    # pipelines that ignore SIGTERM: the first Ctrl-C waits its grace period before killing
    make_case(workdir / "cases", "alpha", query="IGNORE_TERM which label?")
    make_case(workdir / "cases", "beta", query="IGNORE_TERM which label?")
    process = start(workdir, marker)
    assert process.stderr is not None
    process.send_signal(signal.SIGINT)
    assert "Ctrl-C again to exit at once" in process.stderr.readline()
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=15)
    assert process.returncode == ExitCode.INTERRUPTED
    assert "interrupted again: exiting at once" in stderr
    assert wait_for(lambda: not marked(marker), 10), marked(marker)
