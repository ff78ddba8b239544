"""assay-audit: a tamper-evident, append-only audit chain for sealing decisions.

Any :class:`~assay.Policy`'s decisions can be sealed here: each entry carries its ``index``, a
JSON ``payload``, an optional caller-supplied ``timestamp``, the ``previousHash`` of the entry
before it and its own ``hash``, the SHA-256 of the canonical JSON of the other four fields.
Changing, deleting, inserting or reordering any entry breaks the chain at that entry, and
:func:`verify_chain` reports the first broken index.

The seal proves integrity, not authorship: it is not a signature. Time is never read here; the
caller passes timestamps, so hashing is deterministic. Standard library only.

Wire shape of one entry (the audit-chain JSON of bayesoutputgate, camelCase)::

    {"index": 0, "payload": {...}, "timestamp": "2026-01-01T00:00:00Z",
     "previousHash": "000...0", "hash": "<64 hex>"}

``timestamp`` is omitted when not given. A chain file is either a JSON array of entries or JSON
Lines (one entry per line, what :class:`AuditChain` writes when it has a ``path``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from assay import AssayError, ErrorCode

__all__ = [
    "GENESIS_HASH",
    "AuditChain",
    "AuditEntry",
    "ChainVerification",
    "canonical_json",
    "entry_hash",
    "read_chain_file",
    "sha256_hex",
    "verify_chain",
]

GENESIS_HASH = "0" * 64
"""The ``previousHash`` of the first entry of every chain."""

INVALID_SNAPSHOT = "INVALID_SNAPSHOT"
"""Error code for a malformed chain (an entry of the wrong shape, a file that is not a chain)."""

_ENTRY_KEYS = frozenset({"index", "payload", "timestamp", "previousHash", "hash"})


def sha256_hex(text: str | bytes) -> str:
    """The lowercase hex SHA-256 digest of ``text`` (UTF-8 encoded when a string)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON: keys sorted, no insignificant whitespace, UTF-8 text kept.

    The same value gives the same text on every machine, so its hash is reproducible.

    :raises AssayError: ``INVALID_SNAPSHOT`` when ``value`` holds a non-finite number or
        something JSON cannot represent.
    """
    try:
        return json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError) as exc:
        raise AssayError(
            INVALID_SNAPSHOT, f"payload is not canonical JSON: {exc}", "payload"
        ) from exc


def entry_hash(index: int, payload: Any, previous_hash: str, timestamp: str | None = None) -> str:
    """The hash an entry with these fields must carry: SHA-256 over the canonical JSON of
    ``{"index", "payload", "previousHash"}`` plus ``"timestamp"`` when one is given."""
    body: dict[str, Any] = {"index": index, "payload": payload, "previousHash": previous_hash}
    if timestamp is not None:
        body["timestamp"] = timestamp
    return sha256_hex(canonical_json(body))


def _check_payload(payload: Any, path: str) -> None:
    """Reject values that would not survive a JSON round trip unchanged."""
    if isinstance(payload, float) and not math.isfinite(payload):
        raise AssayError(INVALID_SNAPSHOT, "payload holds a non-finite number", path)
    if isinstance(payload, Mapping):
        for key, value in payload.items():
            if not isinstance(key, str):
                raise AssayError(INVALID_SNAPSHOT, f"payload key {key!r} is not a string", path)
            _check_payload(value, f"{path}.{key}")
    elif isinstance(payload, list | tuple):
        for i, value in enumerate(payload):
            _check_payload(value, f"{path}[{i}]")


@attrs.frozen
class AuditEntry:
    """One sealed entry of an audit chain.

    Attributes:
        index: position in the chain, from 0.
        payload: the sealed JSON value (typically a decision record).
        previous_hash: ``hash`` of the entry before, or :data:`GENESIS_HASH` for index 0.
        hash: :func:`entry_hash` of this entry's other fields.
        timestamp: the caller-supplied time of the entry, or ``None``.
    """

    index: int
    payload: Any
    previous_hash: str
    hash: str
    timestamp: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """The entry's JSON wire shape (camelCase; ``timestamp`` omitted when ``None``)."""
        wire: dict[str, Any] = {"index": self.index, "payload": self.payload}
        if self.timestamp is not None:
            wire["timestamp"] = self.timestamp
        wire["previousHash"] = self.previous_hash
        wire["hash"] = self.hash
        return wire

    @classmethod
    def from_wire(cls, data: Any, path: str = "entry") -> AuditEntry:
        """Read one entry from its wire shape, checking field types (not the hash).

        :raises AssayError: ``INVALID_SNAPSHOT`` when a field is missing, unknown or mistyped.
        """
        if not isinstance(data, Mapping):
            raise AssayError(INVALID_SNAPSHOT, "an audit entry must be a JSON object", path)
        unknown = sorted(set(data) - _ENTRY_KEYS)
        if unknown:
            raise AssayError(INVALID_SNAPSHOT, f"unknown field(s) {', '.join(unknown)}", path)
        for key in ("index", "payload", "previousHash", "hash"):
            if key not in data:
                raise AssayError(INVALID_SNAPSHOT, f"missing field {key}", f"{path}.{key}")
        index = data["index"]
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise AssayError(
                INVALID_SNAPSHOT, "index must be a non-negative integer", f"{path}.index"
            )
        for key in ("previousHash", "hash"):
            if not isinstance(data[key], str):
                raise AssayError(INVALID_SNAPSHOT, f"{key} must be a string", f"{path}.{key}")
        timestamp = data.get("timestamp")
        if timestamp is not None and not isinstance(timestamp, str):
            raise AssayError(INVALID_SNAPSHOT, "timestamp must be a string", f"{path}.timestamp")
        return cls(index, data["payload"], data["previousHash"], data["hash"], timestamp)


@attrs.frozen
class ChainVerification:
    """The outcome of :func:`verify_chain`.

    Attributes:
        valid: ``True`` when every entry is intact and linked to the one before.
        broken_at: the index (position) of the first entry that fails, or ``None`` when valid.
        reason: why that entry fails (``"index"``, ``"previous-hash"`` or ``"hash"``), or
            ``None`` when valid.
        length: the number of entries checked.
    """

    valid: bool
    broken_at: int | None = None
    reason: str | None = None
    length: int = 0

    def to_wire(self) -> dict[str, Any]:
        """``{"valid", "brokenAt"?, "reason"?, "length"}`` as JSON."""
        wire: dict[str, Any] = {"valid": self.valid, "length": self.length}
        if not self.valid:
            wire["brokenAt"] = self.broken_at
            wire["reason"] = self.reason
        return wire


def verify_chain(entries: Sequence[AuditEntry]) -> ChainVerification:
    """Recompute the chain and report the first entry that does not hold.

    Entry ``i`` holds when its ``index`` is ``i``, its ``previous_hash`` is the ``hash`` of entry
    ``i - 1`` (or :data:`GENESIS_HASH` for ``i == 0``) and its ``hash`` equals
    :func:`entry_hash` of its fields. An empty chain is valid. Never raises for a well-typed
    sequence: a payload that cannot be canonicalized counts as a broken hash.
    """
    previous = GENESIS_HASH
    for position, entry in enumerate(entries):
        reason = None
        if entry.index != position:
            reason = "index"
        elif entry.previous_hash != previous:
            reason = "previous-hash"
        else:
            try:
                expected = entry_hash(
                    entry.index, entry.payload, entry.previous_hash, entry.timestamp
                )
            except AssayError:
                expected = None
            if entry.hash != expected:
                reason = "hash"
        if reason is not None:
            return ChainVerification(False, position, reason, len(entries))
        previous = entry.hash
    return ChainVerification(True, None, None, len(entries))


def read_chain_file(path: str | os.PathLike[str]) -> list[AuditEntry]:
    """Read a chain file (``-``: standard input): a JSON array of entries, or JSON Lines (one
    entry per line).

    In JSON Lines, a last line without its newline is a torn append (a crash mid-write) and is
    ignored, so everything sealed before it still verifies.

    :raises AssayError: ``IO_ERROR`` when unreadable; ``INVALID_SNAPSHOT`` when the text is not
        a chain (bad JSON, an entry of the wrong shape), with the entry's path.
    """
    from assay.cli import read_text_input

    text = read_text_input(path)
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise AssayError(INVALID_SNAPSHOT, f"{path} is not valid JSON: {exc.msg}") from exc
        return [AuditEntry.from_wire(item, f"[{i}]") for i, item in enumerate(data)]
    lines = text.split("\n")
    complete = lines[:-1]  # the part after the last newline is empty or a torn append
    entries = []
    for number, line in enumerate(complete, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AssayError(
                INVALID_SNAPSHOT, f"line {number} is not valid JSON: {exc.msg}", f"line {number}"
            ) from exc
        entries.append(AuditEntry.from_wire(data, f"line {number}"))
    return entries


class AuditChain:
    """An append-only hash chain of decisions, in memory or backed by a JSON Lines file.

    With a ``path``, the existing file (if any) is read and verified on opening, and every
    :meth:`append` writes the entry's line, flushes and fsyncs before returning. A crash can
    leave at most a torn last line, which :func:`read_chain_file` ignores, so the entries
    sealed before it keep verifying.

    :param path: the chain file, or ``None`` for an in-memory chain.
    :raises AssayError: ``INVALID_SNAPSHOT`` when an existing file is malformed or does not
        verify (the message names the first broken index).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self._entries: list[AuditEntry] = []
        self._path = Path(path) if path is not None else None
        if self._path is not None and self._path.exists():
            if self._path.read_text(encoding="utf-8").lstrip().startswith("["):
                raise AssayError(
                    INVALID_SNAPSHOT,
                    "a JSON-array chain file cannot be appended to; use a JSON Lines file",
                    str(self._path),
                )
            entries = read_chain_file(self._path)
            result = verify_chain(entries)
            if not result.valid:
                raise AssayError(
                    INVALID_SNAPSHOT,
                    f"existing chain is broken at index {result.broken_at} ({result.reason})",
                    str(self._path),
                )
            self._entries = entries
            self._drop_torn_tail()

    @classmethod
    def from_entries(cls, entries: Iterable[AuditEntry]) -> AuditChain:
        """An in-memory chain continuing ``entries``.

        :raises AssayError: ``INVALID_SNAPSHOT`` when they do not verify.
        """
        chain = cls()
        listed = list(entries)
        result = verify_chain(listed)
        if not result.valid:
            raise AssayError(
                INVALID_SNAPSHOT,
                f"chain is broken at index {result.broken_at} ({result.reason})",
            )
        chain._entries = listed
        return chain

    @property
    def path(self) -> Path | None:
        """The backing file, or ``None``."""
        return self._path

    @property
    def head(self) -> str:
        """The hash of the last entry (:data:`GENESIS_HASH` when empty)."""
        return self._entries[-1].hash if self._entries else GENESIS_HASH

    def append(self, payload: Any, timestamp: str | None = None) -> AuditEntry:
        """Seal ``payload`` as the next entry and return it.

        :param payload: a JSON value (objects with string keys, arrays, strings, finite
            numbers, booleans, null); it is stored as its JSON round trip.
        :param timestamp: the caller's time for this entry (never read from a clock here).
        :raises AssayError: ``INVALID_SNAPSHOT`` when the payload is not JSON-representable;
            ``IO_ERROR`` when the file cannot be written (the chain is then unchanged).
        """
        _check_payload(payload, "payload")
        if timestamp is not None and not isinstance(timestamp, str):
            raise AssayError(INVALID_SNAPSHOT, "timestamp must be a string", "timestamp")
        stored = json.loads(canonical_json(payload))
        index = len(self._entries)
        digest = entry_hash(index, stored, self.head, timestamp)
        entry = AuditEntry(index, stored, self.head, digest, timestamp)
        if self._path is not None:
            self._write_line(entry)
        self._entries.append(entry)
        return entry

    def _write_line(self, entry: AuditEntry) -> None:
        path = self._path
        assert path is not None
        line = canonical_json(entry.to_wire()) + "\n"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise AssayError(
                ErrorCode.IO_ERROR, f"cannot append to {path}: {exc.strerror}"
            ) from exc

    def _drop_torn_tail(self) -> None:
        """Cut a torn last line (no newline) off the file so the next append starts clean."""
        assert self._path is not None
        data = self._path.read_bytes()
        if data and not data.endswith(b"\n"):
            keep = data.rfind(b"\n") + 1
            with open(self._path, "r+b") as handle:
                handle.truncate(keep)
                handle.flush()
                os.fsync(handle.fileno())

    def entries(self) -> list[AuditEntry]:
        """A copy of the entries, oldest first."""
        return list(self._entries)

    def verify(self) -> ChainVerification:
        """:func:`verify_chain` over this chain's entries."""
        return verify_chain(self._entries)

    def to_wire(self) -> list[dict[str, Any]]:
        """The chain as a JSON array of entry wire shapes."""
        return [entry.to_wire() for entry in self._entries]

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Any:
        return iter(list(self._entries))
