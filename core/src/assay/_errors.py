"""The one exception type of assay, carrying a stable machine-readable code, and the one table of
exit codes shared by every ``assay`` command."""

from __future__ import annotations

import enum

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing with ``import assay``
if TYPE_CHECKING:
    from typing import Any

__all__ = ["AssayError", "ErrorCode", "ExitCode", "PluginLoadWarning"]


class ExitCode(enum.IntEnum):
    """Exit codes of every ``assay`` command: one table, the same meaning everywhere.

    Codes 3, 20, 30 and 40 belong to one job each, fixed by the formats those jobs are compatible
    with; no command uses a code for anything else.
    """

    OK = 0
    """Success (a report may still show concerning numbers)."""
    FAILED = 1
    """A quality gate failed: a threshold, a regression, a pass-rate or robustness floor."""
    USAGE = 2
    """Usage, input or configuration error: nothing was decided."""
    NO_DECISION = 3
    """Robustness testing: the pipeline under test gave no decision (the decision field was
    missing, or every baseline run failed)."""
    BROKEN_CHAIN = 20
    """An audit chain of sealed decisions does not verify."""
    GATE_FAIL = 30
    """A calibrated gate decided fail at least once."""
    GATE_ESCALATE = 40
    """A calibrated gate decided escalate at least once, and never fail."""
    INTERRUPTED = 130
    """Interrupted (Ctrl-C or SIGTERM); what was finished is kept."""
    BROKEN_PIPE = 141
    """Standard output was closed by its reader before everything was written (``assay ... |
    head -c1``): the command stopped quietly, with no message. 141 is 128 + SIGPIPE, the status
    a shell reports for a program stopped by a closed pipe."""


class ErrorCode:
    """Stable error codes shared by the core and plugins.

    The string values are part of the public API: they appear in JSON error records and CLI
    output, and are never renamed. Plugins may raise :class:`AssayError` with codes of their own
    (documented in their README); the codes below are the ones the core uses.
    """

    INVALID_CONFIG = "INVALID_CONFIG"
    """A configuration value is out of range, of the wrong type or inconsistent."""
    INVALID_INPUT = "INVALID_INPUT"
    """An input value is out of range or inconsistent (raised in ``validation="strict"``)."""
    MALFORMED_INPUT = "MALFORMED_INPUT"
    """An input is structurally broken (not an object, a required array missing, bad JSON)."""
    UNKNOWN_NAME = "UNKNOWN_NAME"
    """A registry lookup named nothing registered."""
    AMBIGUOUS_NAME = "AMBIGUOUS_NAME"
    """A bare registry name matched objects from several providers; qualify it as plugin/name."""
    DUPLICATE_NAME = "DUPLICATE_NAME"
    """Two providers registered the same qualified name."""
    PLUGIN_ERROR = "PLUGIN_ERROR"
    """A plugin failed to load or to register (raised only in strict plugin mode)."""
    INVALID_PLUGIN_OBJECT = "INVALID_PLUGIN_OBJECT"
    """An object registered as a Dimension, Metric, ... lacks what its protocol requires."""
    IO_ERROR = "IO_ERROR"
    """A file could not be read or written."""


class AssayError(Exception):
    """An error with a stable ``code``, a human ``message`` and the ``path`` of the field at fault.

    Attributes:
        code: a stable identifier such as ``"INVALID_CONFIG"`` (see :class:`ErrorCode`).
        message: what was wrong, in words, without the path.
        path: the field path at fault in wire (camelCase) notation, e.g.
            ``"items[2].value"``; ``None`` when the error concerns no single field.
        details: optional machine-readable extras (JSON-safe).

    ``str(error)`` is ``"<path>: <message>"`` when a path is known, else the message.
    """

    def __init__(
        self,
        code: str,
        message: str,
        path: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.path = path
        self.details = dict(details or {})
        super().__init__(f"{path}: {message}" if path else message)

    def __reduce__(self) -> tuple[Any, ...]:
        # picklable, so errors cross process boundaries (worker pools, distributed executors)
        return (type(self), (self.code, self.message, self.path, self.details))

    def to_dict(self) -> dict[str, Any]:
        """The JSON error record ``{"code", "message", "path"}`` used by CLIs and JSONL streams."""
        return {"code": self.code, "message": self.message, "path": self.path}

    def __repr__(self) -> str:
        return f"AssayError(code={self.code!r}, message={self.message!r}, path={self.path!r})"


class PluginLoadWarning(UserWarning):
    """Emitted when a plugin cannot be loaded or fails to register; the others keep working."""
