"""The CLI frame's helpers, shared by every ``assay`` subcommand, the core's and the plugins'.

One convention for every command:

* exit codes from the one table :class:`assay.ExitCode` (0 success, 1 a quality check failed,
  2 usage, input or configuration error, the few job codes listed there);
* an :class:`~assay.AssayError` is printed as ``error [CODE] path: message`` on standard error,
  with no traceback, and the process exits 2 (the root group does it for every subcommand);
* ``-`` as a file argument reads standard input (:func:`read_json_file`, :func:`open_input`);
* ``--json`` prints machine-readable output (:func:`echo_json`);
* ``--workers N`` (:data:`workers_option`) means N worker processes, ``0`` in-process (the
  default), ``auto`` one per CPU;
* output files are written atomically, readable by others, checked first (:class:`OutputPath`).
"""

from __future__ import annotations

import errno
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from assay._errors import AssayError, ErrorCode, ExitCode

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "WORKERS_HELP",
    "AssayGroup",
    "OutputPath",
    "atomic_write",
    "echo_json",
    "format_error",
    "read_json_file",
    "read_text_input",
    "resolve_workers",
    "workers_option",
]

EXIT_OK = ExitCode.OK
EXIT_FAILED = ExitCode.FAILED
EXIT_USAGE = ExitCode.USAGE


def format_error(error: AssayError) -> str:
    """``error [CODE] path: message`` (the path part only when known)."""
    where = f"{error.path}: " if error.path else ""
    return f"error [{error.code}] {where}{error.message}"


def _is_closed_pipe(error: OSError) -> bool:
    return isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE


def _flush_stdout() -> None:
    """Flush standard output now, so that a reader that closed it early shows up here, as an
    EPIPE the root group handles, and not at interpreter exit (a message and exit 120)."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _stdout_closed(ctx: click.Context) -> None:
    """The reader of standard output has gone (``assay ... | head -c1``): point file descriptor
    1 at the null device so that the final flush of what is still buffered succeeds, and exit
    :attr:`ExitCode.BROKEN_PIPE` without a message."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError, AttributeError):  # no real descriptor (a test runner's buffer)
        pass
    ctx.exit(ExitCode.BROKEN_PIPE)


class AssayGroup(click.Group):
    """A click group that turns :class:`AssayError` into a one-line message and exit code 2, an
    interruption (Ctrl-C) into exit code 130, and a standard output closed by its reader
    (EPIPE, ``assay ... | head -c1``) into a quiet exit 141 (:attr:`ExitCode.BROKEN_PIPE`), the
    same for every subcommand."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:  # --help and --version print while the context is made
            return super().make_context(info_name, args, parent, **extra)
        except OSError as error:
            if not _is_closed_pipe(error):
                raise
            _stdout_closed(click.Context(self, info_name=info_name, parent=parent))
            raise  # unreachable: _stdout_closed exits

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return self._invoke_and_flush(ctx)
        except AssayError as error:
            click.echo(format_error(error), err=True)
            ctx.exit(EXIT_USAGE)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(ExitCode.INTERRUPTED)
        except OSError as error:
            if _is_closed_pipe(error):
                _stdout_closed(ctx)
            where = os.fsdecode(error.filename) if error.filename is not None else None
            message = error.strerror or str(error)  # an OSError no command caught
            click.echo(format_error(AssayError(ErrorCode.IO_ERROR, message, where)), err=True)
            ctx.exit(EXIT_USAGE)

    def _invoke_and_flush(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
        except (click.exceptions.Exit, SystemExit):  # a command's own exit code: flush first
            _flush_stdout()
            raise
        _flush_stdout()
        return result


def echo_json(value: Any, *, pretty: bool = True) -> None:
    """Print ``value`` as JSON on standard output (non-finite numbers written as null)."""
    indent = 2 if pretty else None
    try:
        text = json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)
    except ValueError:  # a NaN or an infinity, which JSON cannot carry
        from assay.wire import to_json_safe

        safe = to_json_safe(value, nonfinite="null")
        text = json.dumps(safe, indent=indent, ensure_ascii=False, allow_nan=False)
    click.echo(text)


def read_text_input(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of ``path``, or of standard input when ``path`` is ``-``.

    :raises AssayError: ``IO_ERROR`` (path: the file) when it cannot be read, ``MALFORMED_INPUT``
        when it is not UTF-8 text.
    """
    name = "standard input" if str(path) == "-" else str(path)
    try:
        if str(path) == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise AssayError(ErrorCode.IO_ERROR, f"cannot read the file: {exc.strerror}", name) from exc
    except UnicodeDecodeError as exc:
        raise AssayError(
            ErrorCode.MALFORMED_INPUT, f"{name} is not UTF-8 text (byte {exc.start})"
        ) from exc


def read_json_file(path: str) -> Any:
    """Parse JSON from ``path`` (``-`` for standard input).

    :raises AssayError: ``IO_ERROR`` when unreadable, ``MALFORMED_INPUT`` (with line and column)
        when not UTF-8 or not JSON, or when the JSON nests too deep or holds an integer too long
        to read (over 4,300 digits).
    """
    text = read_text_input(path)
    name = "standard input" if path == "-" else path
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssayError(
            ErrorCode.MALFORMED_INPUT,
            f"{name} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
        ) from exc
    except RecursionError as exc:
        raise AssayError(ErrorCode.MALFORMED_INPUT, f"{name} nests too deep to read") from exc
    except ValueError as exc:  # int() refuses integers over sys.get_int_max_str_digits()
        raise AssayError(
            ErrorCode.MALFORMED_INPUT, f"{name} holds an integer too long to read: {exc}"
        ) from exc


def current_umask() -> int:
    """This process's umask, read without changing it (``os.umask`` sets it, a race with
    other threads creating files): from ``/proc/self/status`` on Linux, else ``0o022``."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8) & 0o777
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def _why_unwritable(target: Path, exc: OSError | None = None) -> str | None:
    """Why no file can be made at ``target`` (seen by looking), else ``exc``'s reason, else None."""
    ancestor = target.absolute().parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if target.is_dir():
        return "it is a folder"
    if not ancestor.is_dir():
        return f"{ancestor} is a file, not a folder"
    if not os.access(ancestor, os.W_OK | os.X_OK):
        return f"the folder {ancestor} is not writable"
    return None if exc is None else str(exc.strerror or exc)


# generic only in newer click releases; subscripting it would fail at runtime on click 8.1
class OutputPath(click.ParamType):  # type: ignore[type-arg]
    """A click type for a file a command writes: made writable (its folders) or refused with
    ``IO_ERROR`` (exit 2) while the command line is read, before the work. ``-`` passes."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = os.fspath(value)
        if text != "-":
            try:
                Path(text).absolute().parent.mkdir(parents=True, exist_ok=True)
                reason = _why_unwritable(Path(text))
            except OSError as exc:
                reason = _why_unwritable(Path(text), exc)
            if reason:
                where = param.opts[0] if param is not None and param.opts else text
                raise AssayError(ErrorCode.IO_ERROR, f"cannot write {text}: {reason}", where)
        return str(text)


@contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[Any]]:
    """Write a file atomically: to a temporary file in the same folder, flushed and fsynced, then
    renamed over ``path``. A failure midway leaves any previous ``path`` untouched. The file gets
    the mode a plain ``open(path, "w")`` would give it (``0o666`` less the umask). A file that
    cannot be made (a folder, under a file) raises :class:`AssayError` ``IO_ERROR``."""
    target = Path(path)
    try:
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(target))
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        reason = _why_unwritable(target, exc)
        raise AssayError(ErrorCode.IO_ERROR, f"cannot write the file: {reason}", str(path)) from exc
    try:
        if hasattr(os, "fchmod"):  # mkstemp makes 0600; give the mode a plain open() would
            os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


WORKERS_HELP = (
    "Worker processes: 0 runs in-process (the default), N uses N processes, auto one per CPU."
)


# generic only in newer click releases; subscripting it would fail at runtime on click 8.1
class _Workers(click.ParamType):  # type: ignore[type-arg]
    name = "N|auto"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            number = value
        elif str(value).strip().lower() == "auto":
            return resolve_workers("auto")
        else:
            try:
                number = int(str(value))
            except ValueError:
                self.fail(f"{value!r} is not a whole number or 'auto'", param, ctx)
        if number < 0:
            self.fail(f"{number} is below 0 (0 runs in-process)", param, ctx)
        return number


def resolve_workers(value: int | str) -> int:
    """The number of worker processes ``--workers`` asks for: ``auto`` is one per CPU
    available to this process; ``0`` means in-process.

    :raises AssayError: ``INVALID_CONFIG`` for a negative number or another word.
    """
    if isinstance(value, str) and value.strip().lower() == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return max(1, os.cpu_count() or 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AssayError(
            ErrorCode.INVALID_CONFIG,
            f"workers must be a whole number >= 0 or 'auto', got {value!r}",
            "workers",
        )
    return value


workers_option = click.option(
    "--workers", type=_Workers(), default=0, show_default=True, help=WORKERS_HELP
)
"""The ``--workers N|auto`` option with its one meaning (see the module docstring)."""
