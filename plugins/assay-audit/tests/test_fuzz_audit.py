"""Hostile chains, fuzzed: reading and verifying a chain raises only AssayError, and any change
to a sealed entry is caught."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay import AssayError
from assay.testing import hostile_json, mutated_json, only_assay_errors
from assay_audit import AuditChain, read_chain_file, verify_chain, verify_chain_file

FUZZ = settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _sealed() -> list[dict]:
    """A fresh, valid three-entry chain in its wire shape (built in memory, the same each call)."""
    chain = AuditChain()
    for i in range(3):
        chain.append({"decision": "pass", "n": i}, timestamp=f"2026-01-0{i + 1}T00:00:00Z")
    return chain.to_wire()


@FUZZ
@given(data=st.data())
def test_reading_a_mutated_chain_raises_only_assay_error(tmp_path: Path, data) -> None:
    wire = data.draw(mutated_json(_sealed()))
    path = tmp_path / "fuzzed.json"
    path.write_text(json.dumps(wire), encoding="utf-8")
    only_assay_errors(lambda: verify_chain(read_chain_file(path)))
    only_assay_errors(lambda: verify_chain_file(path))


@FUZZ
@given(text=st.text(max_size=200), raw=st.binary(max_size=200), value=hostile_json())
def test_reading_any_text_raises_only_assay_error(tmp_path: Path, text, raw, value) -> None:
    path = tmp_path / "any.jsonl"
    for content in (text.encode("utf-8", "surrogatepass"), raw, json.dumps(value).encode()):
        path.write_bytes(content)
        only_assay_errors(lambda: verify_chain_file(path))


@FUZZ
@given(data=st.data())
def test_a_changed_payload_never_verifies(tmp_path: Path, data) -> None:
    wire = _sealed()
    index = data.draw(st.integers(0, len(wire) - 1))
    changed = data.draw(mutated_json(wire[index]["payload"]))
    if changed == wire[index]["payload"]:
        return
    wire[index]["payload"] = changed
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(wire), encoding="utf-8")
    try:
        result = verify_chain(read_chain_file(path))
    except AssayError:  # refused outright (an unreadable payload): caught too
        return
    assert not result.valid and result.broken_at is not None and result.broken_at <= index
