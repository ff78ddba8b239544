"""Helpers for ``assay`` subcommands, shared by the core and plugins.

Every subcommand gets the same error handling from the root group: an :class:`~assay.AssayError`
is printed as ``error [CODE] path: message`` on standard error, with no traceback, and the
process exits with :data:`EXIT_USAGE` (2). Commands that need other exit codes call
``ctx.exit(code)`` themselves.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from assay._errors import AssayError, ErrorCode

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "AssayGroup",
    "atomic_write",
    "echo_json",
    "format_error",
    "read_json_file",
]

EXIT_OK = 0
"""Success."""
EXIT_FAILED = 1
"""The command ran but a threshold, gate or check failed (per command docs)."""
EXIT_USAGE = 2
"""Bad input, configuration or usage."""


def format_error(error: AssayError) -> str:
    """``error [CODE] path: message`` (the path part only when known)."""
    where = f"{error.path}: " if error.path else ""
    return f"error [{error.code}] {where}{error.message}"


class AssayGroup(click.Group):
    """A click group that turns :class:`AssayError` into a one-line message and exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except AssayError as error:
            click.echo(format_error(error), err=True)
            ctx.exit(EXIT_USAGE)


def echo_json(value: Any, *, pretty: bool = True) -> None:
    """Print ``value`` as JSON on standard output (non-finite numbers written as null)."""
    text = json.dumps(value, indent=2 if pretty else None, ensure_ascii=False, allow_nan=False)
    click.echo(text)


def read_json_file(path: str) -> Any:
    """Parse JSON from ``path`` (``-`` for standard input).

    :raises AssayError: ``IO_ERROR`` when unreadable, ``MALFORMED_INPUT`` (with line and column)
        when not JSON.
    """
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise AssayError(ErrorCode.IO_ERROR, f"cannot read {path}: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssayError(
            ErrorCode.MALFORMED_INPUT,
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
        ) from exc


@contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[Any]]:
    """Write a file atomically: to a temporary file in the same folder, flushed and fsynced, then
    renamed over ``path``. A failure midway leaves any previous ``path`` untouched."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
