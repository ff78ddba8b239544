"""Signal readers: the replaceable step from an answer's text to the scorecard's signals.

A signal reader is any object with a ``name`` and a ``read(record)`` method, registered as kind
``"signal-reader"`` (``registrar.add("signal-reader", reader, name=reader.name)`` in a plugin's
``assay_register`` hook, or :func:`register_reader` at run time). The
scorecard picks one by name (config ``reader``, ``assay score --reader NAME``); the default,
``answer-support``, is provided by the assay-answer plugin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import attrs

from assay import AssayError, ErrorCode, Registry, default_registry
from assay_scorecard.answer_records import AnswerRecord
from assay_scorecard.text_evidence import TextEvidence

__all__ = [
    "DEFAULT_READER",
    "READER_FAILED",
    "READER_KIND",
    "SignalReader",
    "SignalReading",
    "find_reader",
    "read_signals",
    "register_reader",
]

READER_KIND = "signal-reader"
"""The registry kind of signal readers."""
DEFAULT_READER = "answer-support"
"""The reader answer records are read with when none is named (from the assay-answer plugin)."""
READER_FAILED = "READER_FAILED"
"""Error code: a signal reader raised something other than :class:`assay.AssayError`, or
returned something other than a :class:`SignalReading` (a bug in the reader; the message names
it)."""


@attrs.frozen
class SignalReading:
    """What a signal reader derived from one answer record.

    Attributes:
        inputs: scoring inputs in the JSON input format (camelCase), e.g. ``supportLevel``,
            ``faithfulnessScore``, ``claimSupport``, ``hasConflict``. ``candidates`` may be left
            out: the scorecard makes them from the contexts' retrieval metadata.
        evidence: what the signals were derived from, for people to check.
    """

    inputs: Mapping[str, Any]
    evidence: TextEvidence


@runtime_checkable
class SignalReader(Protocol):
    """Derives scoring signals from an answer's text.

    Attributes:
        name: the name it is registered and picked under, e.g. ``"answer-support"``.

    Contract of :meth:`read`:
        * Input: an :class:`~assay_scorecard.AnswerRecord` (already checked: strings, contexts
          with their metadata).
        * Output: a :class:`SignalReading`. Deterministic: the same record gives the same
          reading. The evidence must agree with the signals (a claim shown as supported is
          counted as supported).
        * Errors: a record it cannot read raises :class:`assay.AssayError` with a code and the
          path at fault; anything else it raises is reported as ``READER_FAILED``.
    """

    @property
    def name(self) -> str: ...

    def read(self, record: AnswerRecord) -> SignalReading:
        """Derive the signals of ``record``; see the class docstring."""
        ...


def find_reader(
    reader: str | SignalReader | None = None, registry: Registry | None = None
) -> SignalReader:
    """The signal reader named ``reader`` (bare or ``plugin/name``; default
    :data:`DEFAULT_READER`), or ``reader`` itself when it is a reader object.

    :raises AssayError: ``UNKNOWN_NAME`` (path ``reader``) when no reader of that name is
        registered (the message says what is, and how to get the default);
        ``AMBIGUOUS_NAME`` when several plugins give the name; ``INVALID_PLUGIN_OBJECT`` when
        the object lacks ``name`` or ``read``.
    """
    found: Any = DEFAULT_READER if reader is None else reader
    if isinstance(found, str):
        registry = default_registry() if registry is None else registry
        if not registry.names(READER_KIND):
            raise AssayError(
                ErrorCode.UNKNOWN_NAME,
                f"no signal reader is installed to read answer records (asked for {found!r}): "
                f"install assay-answer, whose reader is {DEFAULT_READER!r}, or register your own "
                f"as kind {READER_KIND!r}",
                "reader",
            )
        try:
            found = registry.get(READER_KIND, found)
        except AssayError as error:
            raise AssayError(error.code, error.message, "reader", error.details) from error
    if isinstance(found, type) or not isinstance(getattr(found, "name", None), str):
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"{found!r} is not a signal reader: it needs a name (a string) and read(record)",
        )
    if not callable(getattr(found, "read", None)):
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"signal reader {found.name!r} is not usable: it lacks read(record)",
        )
    return found  # type: ignore[no-any-return]


def register_reader(reader: SignalReader, registry: Registry | None = None) -> SignalReader:
    """Register ``reader`` under its ``name`` at run time (provider ``runtime``), in
    ``registry`` or the default registry, and return it; pick it afterwards by that name.

    :raises AssayError: ``INVALID_PLUGIN_OBJECT`` when it lacks ``name`` or ``read``;
        ``DUPLICATE_NAME`` when a reader of that name was registered at run time before.
    """
    checked = find_reader(reader)
    target = default_registry() if registry is None else registry
    target.register(checked, kind=READER_KIND, name=checked.name)
    return reader


def read_signals(reader: SignalReader, record: AnswerRecord) -> SignalReading:
    """``reader.read(record)``, checked.

    :raises AssayError: the reader's own; :data:`READER_FAILED` for any other exception it
        raises or a result that is not a :class:`SignalReading` with a mapping of inputs.
    """
    try:
        reading = reader.read(record)
    except AssayError:
        raise
    except Exception as exc:
        raise AssayError(
            READER_FAILED,
            f"signal reader {reader.name!r} failed ({type(exc).__name__}: {exc})",
            "reader",
        ) from exc
    if not (
        isinstance(reading, SignalReading)
        and isinstance(reading.inputs, Mapping)
        and isinstance(reading.evidence, TextEvidence)
    ):
        raise AssayError(
            READER_FAILED,
            f"signal reader {reader.name!r} returned {type(reading).__name__}, not a "
            "SignalReading(inputs, evidence)",
            "reader",
        )
    return reading
