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
import selectors
import signal
import subprocess
import sys
import threading
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
    "Supervisor",
    "cache_key",
    "command_fingerprint",
    "load_cached",
    "run_invocation",
]

INPUT_ENV = "ASSAY_PERTURB_INPUT"
"""Environment variable holding the path of the variant's JSON input file."""

STDERR_TAIL_CHARS = 2000

MAX_STDOUT_BYTES = 16 * 1024 * 1024
"""Standard output read from one invocation; more stops the pipeline (``output-too-large``)."""

MAX_STDERR_BYTES = 1024 * 1024
"""Standard error kept from one invocation: its last bytes."""


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
        reason: a stable code for ``error``: ``start-failed``, ``timeout``,
            ``output-too-large`` or ``interrupted`` (``None`` when it ran).
        interrupted: stopped by Ctrl-C or SIGTERM before it finished (not recorded).
    """

    exit_code: int | None
    timed_out: bool
    duration: float
    stdout: str
    stderr: str
    error: str | None = None
    cached: bool = False
    reason: str | None = None
    interrupted: bool = False

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
        reason=record.get("reason"),
    )
    if not result.completed or (accept is not None and not accept(result)):
        return None
    return result


_WATCHDOG = """
import os, signal, sys, time
live = set()
for line in sys.stdin.buffer:
    try:
        group = int(line[1:])
    except ValueError:
        continue
    if line[:1] == b"+":
        live.add(group)
    else:
        live.discard(group)
for sig in (signal.SIGTERM, signal.SIGKILL):
    for group in live:
        try:
            os.killpg(group, sig)
        except OSError:
            pass
    if live and sig == signal.SIGTERM:
        time.sleep(0.5)
"""


class Supervisor:
    """The process groups of running pipelines, so that a stop reaches every one of them.

    Each pipeline runs in its own session (its own process group), so a timeout kills its
    children too; but then neither Ctrl-C on the terminal nor a signal to ``assay``'s process
    group reaches it. The supervisor keeps every running group: :meth:`stop` (first Ctrl-C,
    SIGTERM) terminates them all and refuses new starts; :meth:`kill_all` (second Ctrl-C) kills
    them at once. A watchdog process in a session of its own learns every group through a pipe
    and kills the live ones when the pipe closes, which happens however ``assay`` ends, even
    by SIGKILL, so pipelines never outlive it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: set[int] = set()
        self._signalled: set[int] = set()
        self._watchdog: subprocess.Popen[bytes] | None = None
        self._pipe: int | None = None
        self.stopping = False

    @property
    def running(self) -> int:
        """Pipelines running now."""
        with self._lock:
            return len(self._groups)

    def _tell(self, message: str) -> None:
        if self._pipe is None:
            try:
                read, self._pipe = os.pipe()
                self._watchdog = subprocess.Popen(
                    [sys.executable, "-S", "-I", "-c", _WATCHDOG],
                    stdin=read,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
                os.close(read)
            except OSError:
                return
        with contextlib.suppress(OSError):
            os.write(self._pipe, message.encode("ascii"))

    def start(self, start: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes] | None:
        """Call ``start`` (which starts a pipeline in a new session) and keep its group; ``None``
        when stopping (nothing is started)."""
        with self._lock:
            if self.stopping:
                return None
            process = start()
            self._groups.add(process.pid)
            self._tell(f"+{process.pid}\n")
            return process

    def finished(self, process: subprocess.Popen[bytes]) -> bool:
        """Forget a pipeline that has exited; whether the supervisor signalled it."""
        with self._lock:
            self._groups.discard(process.pid)
            self._tell(f"-{process.pid}\n")
            return process.pid in self._signalled

    def _signal(self, sig: int) -> None:
        for group in self._groups:
            self._signalled.add(group)
            with contextlib.suppress(OSError):
                os.killpg(group, sig)

    def stop(self, grace: float = 0.5) -> None:
        """Start nothing more; terminate every running group, then kill what is left after
        ``grace`` seconds."""
        with self._lock:
            self.stopping = True
            self._signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        while self.running and time.monotonic() < deadline:
            time.sleep(0.02)
        self.kill_all()

    def kill_all(self) -> None:
        """Start nothing more and kill every running group now (safe in a signal handler: it
        does not wait for the lock)."""
        self.stopping = True
        for group in list(self._groups):
            self._signalled.add(group)
            with contextlib.suppress(OSError):
                os.killpg(group, signal.SIGKILL)

    def close(self) -> None:
        """End the watchdog (it kills any group still registered)."""
        if self._pipe is not None:
            with contextlib.suppress(OSError):
                os.close(self._pipe)
            self._pipe = None
        if self._watchdog is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._watchdog.wait(timeout=5)
            self._watchdog = None


@attrs.frozen
class _Spawned:
    exit_code: int | None
    timed_out: bool
    out: bytes
    err: bytes
    error: str | None
    reason: str | None
    interrupted: bool = False


def _pump(
    process: subprocess.Popen[bytes], data: bytes, deadline: float
) -> tuple[bytes, bytes, str | None]:
    """Feed ``data`` to the process and read its output until both pipes close, the deadline
    passes (``"timeout"``) or standard output exceeds its bound (``"output-too-large"``).
    Standard error keeps its last :data:`MAX_STDERR_BYTES`."""
    assert process.stdin and process.stdout and process.stderr
    out, err = bytearray(), bytearray()
    stdin, stdout, stderr = process.stdin.fileno(), process.stdout.fileno(), process.stderr.fileno()
    os.set_blocking(stdin, False)
    view, sent = memoryview(data), 0
    with selectors.DefaultSelector() as selector:
        if data:
            selector.register(stdin, selectors.EVENT_WRITE)
        else:
            process.stdin.close()
        selector.register(stdout, selectors.EVENT_READ)
        selector.register(stderr, selectors.EVENT_READ)
        while len(selector.get_map()) > 0:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return bytes(out), bytes(err), "timeout"
            for key, _ in selector.select(min(remaining, 0.5)):
                fd = key.fd
                if fd == stdin:
                    try:
                        sent += os.write(stdin, view[sent : sent + 65536])
                    except BlockingIOError:
                        continue
                    except OSError:  # the pipeline closed its input early: its business
                        sent = len(data)
                    if sent >= len(data):
                        selector.unregister(stdin)
                        process.stdin.close()
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    selector.unregister(fd)
                elif fd == stdout:
                    out += chunk
                    if len(out) > MAX_STDOUT_BYTES:
                        return bytes(out[:MAX_STDOUT_BYTES]), bytes(err), "output-too-large"
                else:
                    err += chunk
                    if len(err) > 2 * MAX_STDERR_BYTES:
                        del err[: len(err) - MAX_STDERR_BYTES]
    return bytes(out), bytes(err[-MAX_STDERR_BYTES:]), None


def _spawn(
    command: Sequence[str],
    data: bytes,
    env: Mapping[str, str],
    workdir: Path,
    timeout: float,
    supervisor: Supervisor,
) -> _Spawned:
    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            env=dict(env),
            start_new_session=True,  # its own process group, so a timeout kills its children too
        )

    try:
        process = supervisor.start(start)
    except OSError as exc:
        error = f"cannot start {command[0]!r}: {exc.strerror or exc}"
        return _Spawned(None, False, b"", b"", error, "start-failed")
    if process is None:
        return _Spawned(None, False, b"", b"", "interrupted", "interrupted", interrupted=True)
    deadline = time.monotonic() + timeout
    try:
        out, err, problem = _pump(process, data, deadline)
        if problem is None:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                problem = "timeout"
        if problem is not None:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    finally:
        for stream in (process.stdin, process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        signalled = supervisor.finished(process)
    if signalled:
        return _Spawned(process.returncode, False, out, err, "interrupted", "interrupted", True)
    if problem == "timeout":
        error = f"timed out after {timeout:g} s"
        return _Spawned(process.returncode, True, out, err, error, "timeout")
    if problem == "output-too-large":
        error = f"standard output exceeded {MAX_STDOUT_BYTES} bytes; the pipeline was stopped"
        return _Spawned(process.returncode, False, out, err, error, problem)
    return _Spawned(process.returncode, False, out, err, None, None)


def run_invocation(
    invocation: Invocation,
    command: Sequence[str],
    *,
    run_dir: Path,
    workdir: Path,
    timeout: float,
    supervisor: Supervisor | None = None,
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
    own = supervisor is None
    supervisor = Supervisor() if supervisor is None else supervisor
    try:
        spawned = _spawn(command, data, env, workdir, timeout, supervisor)
    finally:
        if own:
            supervisor.close()
    result = InvocationResult(
        exit_code=spawned.exit_code,
        timed_out=spawned.timed_out,
        duration=round(time.perf_counter() - started, 4),
        stdout=spawned.out.decode("utf-8", errors="replace"),
        stderr=spawned.err.decode("utf-8", errors="replace"),
        error=spawned.error,
        reason=spawned.reason,
        interrupted=spawned.interrupted,
    )
    if result.interrupted:  # stopped by Ctrl-C or SIGTERM: not finished, nothing recorded
        return result
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
        "reason": result.reason,
    }
    with atomic_write(folder / "result.json") as handle:
        json.dump(record, handle, indent=2, ensure_ascii=False)
    return result
