"""Running the pipeline once on one variant, and keeping the invocation in the run directory.

The variant reaches the pipeline as JSON on standard input and as a file whose path is in the
environment variable ``ASSAY_PERTURB_INPUT``; the command is an argument vector run without a
shell, so case text never reaches a command line. Each invocation lives in its own folder of
the run directory (``input.json``, ``stdout.txt``, ``stderr.txt``, ``result.json``), every file
written atomically and ``result.json`` last: a folder with a ``result.json`` is a finished
invocation, so an interrupted run keeps everything that finished.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from assay.cli import atomic_write

__all__ = [
    "INPUT_ENV",
    "Invocation",
    "InvocationResult",
    "cache_key",
    "command_fingerprint",
    "load_cached",
    "run_invocation",
]

INPUT_ENV = "ASSAY_PERTURB_INPUT"
"""Environment variable holding the path of the variant's JSON input file."""

STDERR_TAIL_CHARS = 2000


@attrs.frozen
class Invocation:
    """One planned pipeline call.

    Attributes:
        case: the case name.
        variant: ``"baseline"``, ``"baseline-2"``, ... or a variant name such as ``"reorder-1"``.
        perturbation: the perturbation's name, or ``None`` for a baseline run.
        payload: the JSON object the pipeline receives (case, variant, perturbation, query,
            chunks).
        key: the content hash of the command, the files it names, the payload and the repeat
            index; equal keys mean the cached result can be reused.
        folder: the invocation's folder, relative to the run directory.
    """

    case: str
    variant: str
    perturbation: str | None
    payload: Mapping[str, Any]
    key: str
    folder: str


@attrs.frozen
class InvocationResult:
    """What one pipeline call did.

    Attributes:
        exit_code: the process's exit status (negative: killed by that signal), or ``None``
            when it could not start.
        timed_out: whether it was killed for exceeding the timeout.
        duration: wall-clock seconds it took (0 for a cache hit's original duration is kept).
        stdout: its standard output, decoded as UTF-8 (undecodable bytes replaced).
        stderr: its standard error, decoded likewise.
        error: why it could not run (``None`` when it ran).
        cached: whether this result was reused from the run directory.
    """

    exit_code: int | None
    timed_out: bool
    duration: float
    stdout: str
    stderr: str
    error: str | None = None
    cached: bool = False

    @property
    def completed(self) -> bool:
        """Ran to a zero exit within the timeout (the condition for reuse from the cache)."""
        return self.exit_code == 0 and not self.timed_out and self.error is None

    @property
    def stderr_tail(self) -> str:
        """The last 2,000 characters of standard error."""
        return self.stderr[-STDERR_TAIL_CHARS:]


def _file_digest(arg: str, workdir: Path) -> str | None:
    path = workdir / arg
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    except OSError:
        return None


def command_fingerprint(command: Sequence[str], workdir: Path) -> str:
    """SHA-256 of the command and of the content of every argument that names a file in
    ``workdir`` (so editing the pipeline script changes it). Computed once per run."""
    files = {arg: _file_digest(arg, workdir) for arg in command}
    blob = json.dumps({"command": list(command), "files": files}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def cache_key(fingerprint: str, payload: Mapping[str, Any], repeat: int) -> str:
    """SHA-256 of the command fingerprint (:func:`command_fingerprint`), the payload and the
    baseline repeat index: equal keys mean a stored result can be reused."""
    blob = json.dumps(
        {"command": fingerprint, "payload": payload, "repeat": repeat},
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def load_cached(
    run_dir: Path,
    invocation: Invocation,
    accept: Callable[[InvocationResult], bool] | None = None,
) -> InvocationResult | None:
    """The finished, successful result stored for ``invocation`` (same key), or ``None``.

    :param accept: a further condition on the stored result (the run passes "its output holds
        the decision field"), so an invocation that exited 0 but printed no usable decision
        runs again like any failed one.
    """
    folder = run_dir / invocation.folder
    try:
        record = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        if record.get("key") != invocation.key:
            return None
        stdout = (folder / "stdout.txt").read_text(encoding="utf-8")
        stderr = (folder / "stderr.txt").read_text(encoding="utf-8")
    except (OSError, ValueError, AttributeError):
        return None
    result = InvocationResult(
        exit_code=record.get("exit_code"),
        timed_out=bool(record.get("timed_out")),
        duration=float(record.get("duration", 0.0)),
        stdout=stdout,
        stderr=stderr,
        error=record.get("error"),
        cached=True,
    )
    if not result.completed or (accept is not None and not accept(result)):
        return None
    return result


def _spawn(
    command: Sequence[str], data: bytes, env: Mapping[str, str], workdir: Path, timeout: float
) -> tuple[int | None, bool, bytes, bytes, str | None]:
    try:
        process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            env=dict(env),
            start_new_session=True,  # its own process group, so a timeout kills its children too
        )
    except OSError as exc:
        return None, False, b"", b"", f"cannot start {command[0]!r}: {exc.strerror or exc}"
    try:
        out, err = process.communicate(data, timeout=timeout)
        return process.returncode, False, out, err, None
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return process.returncode, True, out, err, f"timed out after {timeout:g} s"


def run_invocation(
    invocation: Invocation,
    command: Sequence[str],
    *,
    run_dir: Path,
    workdir: Path,
    timeout: float,
) -> InvocationResult:
    """Run the pipeline on ``invocation`` and store everything in its folder.

    Writes ``input.json`` first (its absolute path is passed in ``ASSAY_PERTURB_INPUT``), then
    ``stdout.txt``, ``stderr.txt`` and finally ``result.json`` (key, case, variant, exit code,
    timed out, duration, error), each atomically.
    """
    folder = (run_dir / invocation.folder).resolve()
    data = json.dumps(invocation.payload, ensure_ascii=False, indent=2).encode("utf-8")
    with atomic_write(folder / "input.json", "wb") as handle:
        handle.write(data)
    env = {**os.environ, INPUT_ENV: str(folder / "input.json")}
    started = time.perf_counter()
    exit_code, timed_out, out, err, error = _spawn(command, data, env, workdir, timeout)
    result = InvocationResult(
        exit_code=exit_code,
        timed_out=timed_out,
        duration=round(time.perf_counter() - started, 4),
        stdout=out.decode("utf-8", errors="replace"),
        stderr=err.decode("utf-8", errors="replace"),
        error=error,
    )
    for name, text in (("stdout.txt", result.stdout), ("stderr.txt", result.stderr)):
        with atomic_write(folder / name) as handle:
            handle.write(text)
    record = {
        "key": invocation.key,
        "case": invocation.case,
        "variant": invocation.variant,
        "perturbation": invocation.perturbation,
        "command": list(command),
        "exit_code": result.exit_code,
        "timed_out": result.timed_out,
        "duration": result.duration,
        "error": result.error,
    }
    with atomic_write(folder / "result.json") as handle:
        json.dump(record, handle, indent=2, ensure_ascii=False)
    return result
