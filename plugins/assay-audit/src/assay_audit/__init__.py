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

Every byte of a JSON Lines chain counts: a last line without its newline (a torn append, or an
entry edited or forged after the fact) is never silently dropped. :func:`read_chain_file` refuses
it and :func:`verify_chain_file` reports it as a broken chain, naming its byte offset. Appends are
serialized across processes with an exclusive ``flock`` on the chain file (POSIX).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
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
    "verify_chain_file",
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
        reason: why that entry fails (``"index"``, ``"previous-hash"``, ``"hash"``, or
            ``"unterminated-line"`` for a file whose last line has no newline), or why the chain
            as a whole fails :func:`verify_chain_file`'s checks (``"head"``: it does not end at
            the expected head; ``"empty"``: it holds no entry), or ``None`` when valid.
        length: the number of entries checked.
        offset: for ``"unterminated-line"``, the byte offset in the file where that line starts.
        head: the hash of the last entry read (:data:`GENESIS_HASH` for an empty chain) when
            every entry verifies (also when only the ``"head"`` or ``"empty"`` check fails),
            else ``None``: keep it elsewhere to pin the chain.
        expected_head: the head the chain was checked against, when one was given.
    """

    valid: bool
    broken_at: int | None = None
    reason: str | None = None
    length: int = 0
    offset: int | None = None
    head: str | None = None
    expected_head: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """``{"valid", "brokenAt"?, "reason"?, "offset"?, "length", "head"?,
        "expectedHead"?}`` as JSON."""
        wire: dict[str, Any] = {"valid": self.valid, "length": self.length}
        if not self.valid:
            wire["brokenAt"] = self.broken_at
            wire["reason"] = self.reason
        if self.offset is not None:
            wire["offset"] = self.offset
        if self.head is not None:
            wire["head"] = self.head
        if self.expected_head is not None:
            wire["expectedHead"] = self.expected_head
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
    return ChainVerification(True, None, None, len(entries), head=previous)


@attrs.frozen
class _Tail:
    """A last line without its newline: its 1-based line number, byte offset and text, and
    the name of the file it is in."""

    line: int
    offset: int
    text: str
    source: str

    @property
    def where(self) -> str:
        """``file:line``, the error path of this line."""
        return f"{self.source}:{self.line}"


def _loads(text: str, name: str, path: str | None) -> Any:
    """``json.loads(text)``; JSON that is not valid, nests too deep or holds an integer too long
    to read (over 4,300 digits) is ``INVALID_SNAPSHOT`` at ``path``, not a RecursionError or a
    ValueError. ``name`` says what was read ("the line", the file's name)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise AssayError(INVALID_SNAPSHOT, f"{name} is not valid JSON: {exc.msg}", path) from exc
    except RecursionError as exc:
        raise AssayError(INVALID_SNAPSHOT, f"{name} nests too deep to read", path) from exc
    except ValueError as exc:  # int() refuses integers over sys.get_int_max_str_digits()
        raise AssayError(
            INVALID_SNAPSHOT, f"{name} holds an integer too long to read: {exc}", path
        ) from exc


def _parse_lines(
    text: str, source: str, first_line: int = 1
) -> tuple[list[AuditEntry], _Tail | None]:
    """The entries of the complete lines of JSON Lines ``text``, and its unterminated last line
    (``None`` when ``text`` is empty or ends with a newline). Blank lines are skipped. Errors
    name ``source:line``."""
    lines = text.split("\n")
    entries = []
    for number, line in enumerate(lines[:-1], start=first_line):
        if not line.strip():
            continue
        data = _loads(line, "the line", f"{source}:{number}")
        entries.append(AuditEntry.from_wire(data, f"{source}:{number}"))
    tail = None
    if lines[-1]:
        start = len(text) - len(lines[-1])
        offset = len(text[:start].encode("utf-8"))
        tail = _Tail(first_line + len(lines) - 1, offset, lines[-1], source)
    return entries, tail


def _source_name(path: str | os.PathLike[str]) -> str:
    """The name errors give a chain file: as given, ``<stdin>`` for ``-``."""
    text = os.fspath(path)
    return "<stdin>" if text == "-" else str(text)


def _read_chain_text(
    path: str | os.PathLike[str],
) -> tuple[list[AuditEntry], _Tail | None]:
    from assay.cli import read_text_input

    text = read_text_input(path)
    if text.lstrip().startswith("["):
        data = _loads(text, "the chain", _source_name(path))
        return [AuditEntry.from_wire(item, f"[{i}]") for i, item in enumerate(data)], None
    return _parse_lines(text, _source_name(path))


def _unterminated_message(tail: _Tail) -> str:
    return (
        f"the last line (byte offset {tail.offset}) has no final newline: a torn append "
        "or a last entry written by something other than AuditChain"
    )


def read_chain_file(path: str | os.PathLike[str]) -> list[AuditEntry]:
    """Read a chain file (``-``: standard input): a JSON array of entries, or JSON Lines (one
    entry per line, each ending with a newline).

    :raises AssayError: ``IO_ERROR`` when unreadable; ``INVALID_SNAPSHOT`` when the text is not
        a chain (bad JSON, an entry of the wrong shape), with the entry's path, or when its last
        line has no newline (a torn append or an altered entry: never silently dropped; the
        message names the line and its byte offset). :func:`verify_chain_file` reports the
        latter as a broken chain instead.
    """
    entries, tail = _read_chain_text(path)
    if tail is not None:
        raise AssayError(INVALID_SNAPSHOT, _unterminated_message(tail), tail.where)
    return entries


def verify_chain_file(
    path: str | os.PathLike[str],
    *,
    expected_head: str | None = None,
    allow_empty: bool = True,
) -> ChainVerification:
    """Read and verify a chain file, accounting for every byte of it.

    Like ``verify_chain(read_chain_file(path))``, except that a last line without its newline
    makes the chain not valid (rather than an error): ``reason`` ``"unterminated-line"``,
    ``broken_at`` the position that line would have, ``offset`` its byte offset. A break
    among the complete lines before it is reported first.

    A chain whose entries all verify is still not valid when ``expected_head`` is given and its
    head differs (``reason`` ``"head"``; ``broken_at``: the entry after the one whose hash is
    the expected head, or ``None`` when no entry has it: entries were removed from the end, or
    it is another chain), or when it holds no entry and ``allow_empty`` is false (``"empty"``:
    a chain file emptied, or never written).

    :raises AssayError: as :func:`read_chain_file`, except for the unterminated last line.
    """
    entries, tail = _read_chain_text(path)
    result = verify_chain(entries)
    if result.valid and tail is not None:
        return ChainVerification(
            False, len(entries), "unterminated-line", len(entries), tail.offset
        )
    if result.valid and not entries and not allow_empty:
        return ChainVerification(False, None, "empty", 0, head=result.head)
    if result.valid and expected_head is not None and result.head != expected_head:
        after = [i + 1 for i, entry in enumerate(entries) if entry.hash == expected_head]
        return ChainVerification(
            False,
            after[0] if after else None,
            "head",
            len(entries),
            head=result.head,
            expected_head=expected_head,
        )
    if expected_head is not None:
        return attrs.evolve(result, expected_head=expected_head)
    return result


try:  # POSIX
    import fcntl as _fcntl
except ImportError:  # pragma: no cover - Windows: appends are not serialized across processes
    _fcntl = None  # type: ignore[assignment]


class AuditChain:
    """An append-only hash chain of decisions, in memory or backed by a JSON Lines file.

    With a ``path``, the existing file (if any) is read and verified on opening, and every
    :meth:`append` writes the entry's line, flushes and fsyncs before returning. Opening and
    appending hold an exclusive lock on the file (``flock``), and an append first reads the
    entries other processes appended since, so several processes (or several ``AuditChain``
    objects) can append to one file and the chain stays whole.

    A last line without its newline is handled on opening (and before an append):

    * a complete entry that continues the chain (a file saved by an editor that drops the final
      newline) is kept, and the newline is added;
    * text that is not JSON (an append torn by a crash; never acknowledged, since :meth:`append`
      returns only after the whole line is on disk) is cut off, with a :class:`RuntimeWarning`
      naming its byte offset and length;
    * a JSON line that does not continue the chain (an altered or forged last entry) is refused.

    :param path: the chain file, or ``None`` for an in-memory chain.
    :raises AssayError: ``INVALID_SNAPSHOT`` when an existing file is malformed or does not
        verify (the message names the first broken index).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self._entries: list[AuditEntry] = []
        self._path = Path(path) if path is not None else None
        self._size = 0  # bytes of the file read into _entries
        if self._path is not None and self._path.exists():
            with self._locked(create=False) as fd:
                if fd is not None:
                    self._catch_up(fd)

    @contextlib.contextmanager
    def _locked(self, *, create: bool) -> Iterator[int | None]:
        """The chain file open for reading and appending, under an exclusive lock (``None``
        when it does not exist and ``create`` is false)."""
        path = self._path
        assert path is not None
        flags = os.O_RDWR | os.O_APPEND | getattr(os, "O_BINARY", 0)
        try:
            if create:
                path.parent.mkdir(parents=True, exist_ok=True)
                flags |= os.O_CREAT
            fd = os.open(path, flags, 0o666)
        except FileNotFoundError:
            if create:
                raise AssayError(ErrorCode.IO_ERROR, f"cannot open {path}: not found") from None
            yield None
            return
        except OSError as exc:
            raise AssayError(ErrorCode.IO_ERROR, f"cannot open {path}: {exc.strerror}") from exc
        try:
            if _fcntl is not None:
                _fcntl.flock(fd, _fcntl.LOCK_EX)
            yield fd
        finally:
            os.close(fd)  # releases the lock

    def _catch_up(self, fd: int) -> None:
        """Read what was appended to the file since this object last read or wrote it (all of
        it when opening), check that it continues the chain, and settle an unterminated last
        line (see the class). Called with the lock held."""
        path = self._path
        size = os.fstat(fd).st_size
        if size == self._size:
            return
        if size < self._size:
            raise AssayError(
                INVALID_SNAPSHOT,
                f"the chain file shrank from {self._size} to {size} bytes while open",
                str(path),
            )
        data = os.pread(fd, size - self._size, self._size)
        if self._size == 0 and data.lstrip().startswith(b"["):
            raise AssayError(
                INVALID_SNAPSHOT,
                "a JSON-array chain file cannot be appended to; use a JSON Lines file",
                str(path),
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AssayError(
                INVALID_SNAPSHOT,
                f"the chain file is not UTF-8 text (byte offset {self._size + exc.start})",
                str(path),
            ) from exc
        first_line = 1 + (len(self._entries) if self._size else 0)
        new, tail = _parse_lines(text, str(path), first_line)
        candidate = self._entries + new
        result = verify_chain(candidate)
        if not result.valid:
            raise AssayError(
                INVALID_SNAPSHOT,
                f"existing chain is broken at index {result.broken_at} ({result.reason})",
                str(path),
            )
        consumed = size
        if tail is not None:
            offset = self._size + tail.offset
            entry = self._tail_entry(tail, candidate)
            if entry is not None:  # a whole entry missing only its newline: add it
                os.write(fd, b"\n")
                os.fsync(fd)
                candidate.append(entry)
                consumed = size + 1
            else:  # a torn append: it was never acknowledged; cut it off
                warnings.warn(
                    f"{path}: cut off a torn last line at byte offset {offset} "
                    f"({size - offset} bytes, not JSON): an append interrupted by a crash",
                    RuntimeWarning,
                    stacklevel=4,
                )
                os.ftruncate(fd, offset)
                os.fsync(fd)
                consumed = offset
        self._entries = candidate
        self._size = consumed

    def _tail_entry(self, tail: _Tail, entries: list[AuditEntry]) -> AuditEntry | None:
        """The entry an unterminated last line holds when it is a whole entry continuing
        ``entries``; ``None`` when it is not JSON (torn). Refuses JSON that does not continue."""
        try:
            data = json.loads(tail.text)
        except json.JSONDecodeError:
            return None
        except (RecursionError, ValueError):  # whole JSON, but too deep or too long to read
            data = _loads(tail.text, "the line", tail.where)
        entry = AuditEntry.from_wire(data, tail.where)
        result = verify_chain([*entries, entry])
        if not result.valid:
            raise AssayError(
                INVALID_SNAPSHOT,
                f"existing chain is broken at index {result.broken_at} ({result.reason}): "
                + _unterminated_message(tail),
                str(self._path),
            )
        return entry

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
        if self._path is None:
            entry = self._next_entry(stored, timestamp)
            self._entries.append(entry)
            return entry
        with self._locked(create=True) as fd:
            assert fd is not None
            self._catch_up(fd)  # entries other writers appended since
            entry = self._next_entry(stored, timestamp)
            line = (canonical_json(entry.to_wire()) + "\n").encode("utf-8")
            try:
                _write_all(fd, line)
                os.fsync(fd)
            except OSError as exc:
                # leave no partial line behind for the next writer to trip over
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, self._size)
                raise AssayError(
                    ErrorCode.IO_ERROR, f"cannot append to {self._path}: {exc.strerror}"
                ) from exc
            self._size += len(line)
        self._entries.append(entry)
        return entry

    def _next_entry(self, stored: Any, timestamp: str | None) -> AuditEntry:
        index = len(self._entries)
        digest = entry_hash(index, stored, self.head, timestamp)
        return AuditEntry(index, stored, self.head, digest, timestamp)

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


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
