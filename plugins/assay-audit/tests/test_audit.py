"""The audit chain: known digests, linking, tamper detection, durable file appends."""

from __future__ import annotations

import itertools
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest

from assay import AssayError
from assay_audit import (
    GENESIS_HASH,
    AuditChain,
    AuditEntry,
    canonical_json,
    entry_hash,
    read_chain_file,
    sha256_hex,
    verify_chain,
    verify_chain_file,
)

# Digests computed independently with `printf ... | sha256sum`.
ABC_SHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
FIRST_ENTRY_TEXT = (
    '{"index":0,"payload":{"a":2,"b":1},"previousHash":'
    '"0000000000000000000000000000000000000000000000000000000000000000"}'
)
FIRST_ENTRY_SHA256 = "cff7ddc483b51aad84515fe6f4bbe1975e33d04010b501f8223c149cb62a623b"


def test_sha256_hex_matches_the_known_digest_of_abc():
    assert sha256_hex("abc") == ABC_SHA256
    assert sha256_hex(b"abc") == ABC_SHA256


def test_canonical_json_sorts_keys_and_drops_whitespace():
    assert canonical_json({"b": 1, "a": {"d": [1, 2], "c": "é"}}) == (
        '{"a":{"c":"é","d":[1,2]},"b":1}'
    )


def test_canonical_json_rejects_non_finite_numbers():
    with pytest.raises(AssayError) as info:
        canonical_json({"x": float("nan")})
    assert info.value.code == "INVALID_SNAPSHOT"


def test_first_entry_hash_is_the_sha256_of_its_canonical_text():
    chain = AuditChain()
    entry = chain.append({"b": 1, "a": 2})
    assert entry.previous_hash == GENESIS_HASH
    assert entry.hash == FIRST_ENTRY_SHA256 == sha256_hex(FIRST_ENTRY_TEXT)


def test_timestamp_is_part_of_the_hash_when_given():
    without = entry_hash(0, {"a": 1}, GENESIS_HASH)
    with_time = entry_hash(0, {"a": 1}, GENESIS_HASH, "2026-01-01T00:00:00Z")
    assert without != with_time


def test_entries_link_to_the_hash_before_them():
    chain = AuditChain()
    entries = [chain.append({"n": i}, timestamp=f"t{i}") for i in range(5)]
    for before, after in itertools.pairwise(entries):
        assert after.previous_hash == before.hash
    assert [e.index for e in entries] == list(range(5))
    assert chain.head == entries[-1].hash
    assert chain.verify().valid


def test_empty_chain_is_valid():
    result = verify_chain([])
    assert result.valid and result.length == 0


def test_append_rejects_payloads_json_cannot_hold():
    chain = AuditChain()
    with pytest.raises(AssayError) as info:
        chain.append({"score": float("inf")})
    assert (info.value.code, info.value.path) == ("INVALID_SNAPSHOT", "payload.score")
    with pytest.raises(AssayError):
        chain.append({1: "x"})
    with pytest.raises(AssayError):
        chain.append({"x": 1}, timestamp=5)  # type: ignore[arg-type]
    assert len(chain) == 0


@pytest.fixture(scope="module")
def long_chain() -> list[AuditEntry]:
    chain = AuditChain()
    for i in range(1000):
        chain.append({"i": i, "action": ["pass", "fail", "escalate"][i % 3]}, timestamp=f"{i}")
    return chain.entries()


def _field_changes(entry: AuditEntry) -> list[AuditEntry]:
    """Six copies of ``entry``, each with exactly one field changed."""
    return [
        attrs.evolve(entry, index=entry.index + 1),
        attrs.evolve(entry, payload={"tampered": True}),
        attrs.evolve(entry, previous_hash="f" * 64),
        attrs.evolve(entry, hash="e" * 64),
        attrs.evolve(entry, timestamp="other time"),
        attrs.evolve(entry, timestamp=None),
    ]


def test_every_single_field_change_is_detected_at_its_index(long_chain):
    # Every position gets one kind of change (cycling through all six), and the first, a middle
    # and the last position get all six: each verification costs O(position), so all six at all
    # 1,000 positions would take half a minute without testing anything more.
    assert verify_chain(long_chain).valid
    kinds = len(_field_changes(long_chain[0]))
    for position in range(len(long_chain)):
        changes = _field_changes(long_chain[position])
        chosen = changes if position in (0, 500, 999) else [changes[position % kinds]]
        for changed in chosen:
            tampered = [*long_chain[:position], changed, *long_chain[position + 1 :]]
            result = verify_chain(tampered)
            assert not result.valid
            assert result.broken_at == position


def test_every_deletion_is_detected(long_chain):
    for position in range(len(long_chain)):
        result = verify_chain(long_chain[:position] + long_chain[position + 1 :])
        if position == len(long_chain) - 1:
            assert result.valid  # dropping the last entry leaves a valid, shorter chain
        else:
            assert (result.valid, result.broken_at) == (False, position)


def test_every_insertion_is_detected(long_chain):
    intruder = long_chain[3]
    for position in range(len(long_chain)):
        if position == 3:
            continue
        result = verify_chain([*long_chain[:position], intruder, *long_chain[position:]])
        assert (result.valid, result.broken_at) == (False, position)


def test_every_adjacent_swap_is_detected(long_chain):
    for position in range(len(long_chain) - 1):
        swapped = list(long_chain)
        swapped[position], swapped[position + 1] = swapped[position + 1], swapped[position]
        result = verify_chain(swapped)
        assert (result.valid, result.broken_at) == (False, position)


def test_file_chain_appends_lines_and_reopens(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    chain = AuditChain(path)
    chain.append({"n": 1}, timestamp="a")
    chain.append({"n": 2})
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["index"] for line in lines] == [0, 1]
    reopened = AuditChain(path)
    assert reopened.entries() == chain.entries()
    reopened.append({"n": 3})
    assert verify_chain(read_chain_file(path)).valid
    assert len(read_chain_file(path)) == 3


def test_each_append_is_on_disk_before_append_returns(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    chain = AuditChain(path)
    for i in range(3):
        chain.append({"n": i})
        assert len(read_chain_file(path)) == i + 1


def test_a_torn_last_line_leaves_earlier_entries_verifiable(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    chain = AuditChain(path)
    for i in range(4):
        chain.append({"n": i})
    full = chain.to_wire()[-1]
    with open(path, "a", encoding="utf-8") as handle:  # a crash halfway through a fifth line
        handle.write(canonical_json(full)[:30])
    # the torn line is reported, never silently dropped; the four entries before it verify
    offset = path.stat().st_size - 30
    with pytest.raises(AssayError) as info:
        read_chain_file(path)
    assert info.value.code == "INVALID_SNAPSHOT"
    assert f"byte offset {offset}" in info.value.message
    result = verify_chain_file(path)
    assert (result.valid, result.broken_at, result.reason, result.length, result.offset) == (
        False,
        4,
        "unterminated-line",
        4,
        offset,
    )
    with pytest.warns(RuntimeWarning, match=f"byte offset {offset}"):
        resumed = AuditChain(path)  # cuts the torn tail (not JSON), then appends cleanly
    assert len(resumed) == 4
    resumed.append({"n": 4})
    assert verify_chain(read_chain_file(path)).valid
    assert len(read_chain_file(path)) == 5


def test_opening_a_broken_file_chain_is_refused(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    chain = AuditChain(path)
    chain.append({"n": 0})
    chain.append({"n": 1})
    text = path.read_text(encoding="utf-8").replace('"n":0', '"n":9')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AssayError) as info:
        AuditChain(path)
    assert info.value.code == "INVALID_SNAPSHOT"
    assert "index 0" in info.value.message


def test_json_array_files_are_read_and_wire_shape_round_trips(tmp_path: Path):
    chain = AuditChain()
    chain.append({"n": 0}, timestamp="2026-01-01T00:00:00Z")
    chain.append({"n": 1})
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(chain.to_wire()), encoding="utf-8")
    assert read_chain_file(path) == chain.entries()
    assert chain.to_wire()[1].keys() == {"index", "payload", "previousHash", "hash"}
    with pytest.raises(AssayError):
        AuditChain(path)  # array files are read-only


def test_from_entries_continues_a_verified_chain_and_refuses_a_broken_one():
    original = AuditChain()
    original.append({"n": 0})
    continued = AuditChain.from_entries(original.entries())
    continued.append({"n": 1})
    assert continued.verify().valid
    broken = [AuditEntry(0, {"n": 5}, GENESIS_HASH, original.head)]
    with pytest.raises(AssayError):
        AuditChain.from_entries(broken)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('[{"index": 0}]', "[0].payload"),
        ('[{"index": -1, "payload": 1, "previousHash": "", "hash": ""}]', "[0].index"),
        ('[{"index": 0, "payload": 1, "previousHash": 3, "hash": ""}]', "[0].previousHash"),
        ('[{"index": 0, "payload": 1, "previousHash": "", "hash": "", "x": 1}]', "[0]"),
        ("[1]", "[0]"),
        ('{"index": 0,\n', "{file}:1"),
    ],
)
def test_malformed_chain_files_raise_invalid_snapshot(tmp_path: Path, text: str, path: str):
    file = tmp_path / "chain.json"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(AssayError) as info:
        read_chain_file(file)
    assert (info.value.code, info.value.path) == ("INVALID_SNAPSHOT", path.format(file=file))


def test_unreadable_chain_file_raises_io_error(tmp_path: Path):
    with pytest.raises(AssayError) as info:
        read_chain_file(tmp_path / "missing.jsonl")
    assert info.value.code == "IO_ERROR"


def test_a_killed_writer_leaves_a_chain_that_verifies_and_resumes(tmp_path: Path):
    # A child process appends as fast as it can and is killed with SIGKILL mid-stream: whatever
    # it left on disk must verify, and a new writer must continue the chain cleanly.
    path = tmp_path / "chain.jsonl"
    code = (
        "import sys\n"
        "from assay_audit import AuditChain\n"
        "chain = AuditChain(sys.argv[1])\n"
        "i = 0\n"
        "while True:\n"
        "    chain.append({'i': i, 'pad': 'x' * 3000})\n"
        "    i += 1\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code, str(path)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if path.exists() and path.stat().st_size > 50 * 3000:
                break
            time.sleep(0.01)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    entries = read_chain_file(path)
    assert len(entries) >= 40 and verify_chain(entries).valid  # 150 kB of ~3.2 kB lines
    resumed = AuditChain(path)
    resumed.append({"after": "crash"})
    assert verify_chain(read_chain_file(path)).valid
    assert len(read_chain_file(path)) == len(entries) + 1


def _chain_file(path: Path, n: int) -> str:
    chain = AuditChain(path)
    for i in range(n):
        chain.append({"n": i})
    return path.read_text(encoding="utf-8")


def test_a_forged_last_entry_without_its_newline_is_reported(tmp_path: Path):
    # the torn-tail trick: alter the last entry and drop the final newline
    path = tmp_path / "chain.jsonl"
    text = _chain_file(path, 3)
    lines = text.splitlines()
    last = json.loads(lines[-1])
    last["payload"]["n"] = 99
    forged = "\n".join(lines[:-1]) + "\n" + json.dumps(last)
    path.write_text(forged, encoding="utf-8")
    offset = len(("\n".join(lines[:-1]) + "\n").encode())
    result = verify_chain_file(path)
    assert not result.valid
    assert (result.broken_at, result.reason, result.offset) == (2, "unterminated-line", offset)
    with pytest.raises(AssayError) as info:
        read_chain_file(path)
    assert f"byte offset {offset}" in info.value.message
    with pytest.raises(AssayError) as info:  # opening refuses, and keeps the evidence
        AuditChain(path)
    assert "index 2 (hash)" in info.value.message
    assert path.read_text(encoding="utf-8") == forged


@pytest.mark.parametrize("text", ['{"index": 0', "garbage", "[", '{"index": 0, "payload": 1}'])
def test_any_file_without_a_final_newline_does_not_verify(tmp_path: Path, text: str):
    path = tmp_path / "chain.jsonl"
    path.write_text(text, encoding="utf-8")
    try:
        result = verify_chain_file(path)
    except AssayError as exc:  # not a chain at all
        assert exc.code == "INVALID_SNAPSHOT"
    else:
        assert (result.valid, result.reason, result.offset) == (False, "unterminated-line", 0)


def test_a_whole_last_entry_without_its_newline_is_kept_and_repaired_on_open(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    text = _chain_file(path, 3)
    path.write_text(text.rstrip("\n"), encoding="utf-8")  # saved by an editor
    assert verify_chain_file(path).reason == "unterminated-line"
    chain = AuditChain(path)
    assert len(chain) == 3
    assert path.read_text(encoding="utf-8") == text  # the newline was added back
    chain.append({"n": 3})
    assert verify_chain_file(path).valid
    assert len(read_chain_file(path)) == 4


_WRITER = """
import sys
from assay_audit import AuditChain
path, who, n, reopen = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
chain = None
for i in range(n):
    if chain is None or reopen:
        chain = AuditChain(path)
    chain.append({"who": who, "i": i})
"""


@pytest.mark.parametrize("reopen", [False, True])
def test_concurrent_writers_keep_one_valid_chain(tmp_path: Path, reopen: bool):
    path = tmp_path / "chain.jsonl"
    writers, appends = 3, 200
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), str(w), str(appends), "1" if reopen else "0"]
        )
        for w in range(writers)
    ]
    for child in children:
        assert child.wait(timeout=120) == 0
    entries = read_chain_file(path)
    assert verify_chain(entries).valid
    assert len(entries) == writers * appends
    seen = {(e.payload["who"], e.payload["i"]) for e in entries}
    assert len(seen) == writers * appends
    AuditChain(path).append({"after": True})  # still opens and appends


def test_two_chain_objects_on_one_file_interleave_appends(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    first, second = AuditChain(path), AuditChain(path)
    for i in range(5):
        first.append({"a": i})
        second.append({"b": i})
    assert verify_chain_file(path).valid
    assert len(read_chain_file(path)) == 10
    assert len(second) == 10


HUGE_INT = "1" + "0" * 5000  # over Python's 4,300-digit limit for reading an integer
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"index":0,"payload":{"n":' + HUGE_INT + '},"previousHash":"","hash":""}\n', "json:1"),
        ('{"index":' + HUGE_INT + ',"payload":1,"previousHash":"","hash":""}\n', "json:1"),
        ('{"index":0,"payload":1,"previousHash":"","hash":""}\n' + DEEP + "\n", "json:2"),
        (DEEP + "\n", "chain.json"),
        ('[{"index":0,"payload":' + HUGE_INT + ',"previousHash":"","hash":""}]', "chain.json"),
    ],
)
def test_json_too_deep_or_integers_too_long_are_invalid_snapshot(
    tmp_path: Path, text: str, path: str
):
    # were a RecursionError / ValueError traceback from `assay audit verify`
    file = tmp_path / "chain.json"
    file.write_text(text, encoding="utf-8")
    for read in (read_chain_file, verify_chain_file, AuditChain):
        with pytest.raises(AssayError) as info:
            read(file)
        assert info.value.code == "INVALID_SNAPSHOT"
        assert info.value.path is not None and info.value.path.endswith(path)


def test_an_unterminated_last_line_too_long_to_read_is_refused_on_open(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    AuditChain(path).append({"decision": 0})
    with path.open("a", encoding="utf-8") as file:  # whole JSON, no newline, unreadable integer
        file.write('{"index":1,"payload":' + HUGE_INT + ',"previousHash":"","hash":""}')
    with pytest.raises(AssayError) as info:
        AuditChain(path)
    assert (info.value.code, info.value.path) == ("INVALID_SNAPSHOT", f"{path}:2")
