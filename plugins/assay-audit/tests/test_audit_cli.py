"""``assay audit verify``: exit 0 intact, 20 broken, 2 malformed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from assay.cli import AssayGroup
from assay.testing import plugin_cli
from assay_audit import AuditChain
from assay_audit import plugin as audit_builtin


def build_cli() -> AssayGroup:
    """A root group holding only the audit commands, added through their hook."""
    return plugin_cli(audit_builtin)


def _write_chain(path: Path, n: int = 3) -> None:
    chain = AuditChain(path)
    for i in range(n):
        chain.append({"decision": i})


def test_verify_reports_an_intact_chain(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    _write_chain(path)
    result = CliRunner().invoke(build_cli(), ["audit", "verify", str(path)])
    assert result.exit_code == 0
    assert result.output == f"ok: 3 entries verified, head {AuditChain(path).head}\n"


def test_verify_exits_20_on_a_broken_chain_naming_the_index(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    _write_chain(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace('"decision":1', '"decision":7')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(build_cli(), ["audit", "verify", str(path), "--json"])
    assert result.exit_code == 20
    assert json.loads(result.output) == {
        "valid": False,
        "brokenAt": 1,
        "reason": "hash",
        "length": 3,
    }


def test_verify_exits_2_on_malformed_or_missing_files(tmp_path: Path):
    path = tmp_path / "chain.json"
    path.write_text("[1]", encoding="utf-8")
    result = CliRunner().invoke(build_cli(), ["audit", "verify", str(path)])
    assert result.exit_code == 2
    assert "error [INVALID_SNAPSHOT] [0]:" in result.output
    missing = CliRunner().invoke(build_cli(), ["audit", "verify", str(tmp_path / "none")])
    assert missing.exit_code == 2
    assert "error [IO_ERROR]" in missing.output


def test_verify_reads_the_chain_from_standard_input(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    _write_chain(path, 2)
    result = CliRunner().invoke(build_cli(), ["audit", "verify", "-"], input=path.read_bytes())
    assert result.exit_code == 0
    assert result.output == f"ok: 2 entries verified, head {AuditChain(path).head}\n"


def test_verify_of_text_that_is_not_utf8_is_a_coded_error_exit_2():
    result = CliRunner().invoke(build_cli(), ["audit", "verify", "-"], input=b"\xff\xfe[]")
    assert result.exit_code == 2
    assert result.stderr.startswith("error [MALFORMED_INPUT] standard input is not UTF-8 text")


def test_verify_reports_a_last_line_without_newline_with_its_offset(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    _write_chain(path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.rstrip("\n"), encoding="utf-8")
    offset = len(text.rstrip("\n").rsplit("\n", 1)[0].encode()) + 1
    result = CliRunner().invoke(build_cli(), ["audit", "verify", str(path)])
    assert result.exit_code == 20
    assert f"byte offset {offset}" in result.output and "no final newline" in result.output
    as_json = CliRunner().invoke(build_cli(), ["audit", "verify", "--json", str(path)])
    assert as_json.exit_code == 20
    assert json.loads(as_json.output)["reason"] == "unterminated-line"
    assert json.loads(as_json.output)["offset"] == offset


def test_verify_of_json_too_deep_or_an_integer_too_long_is_exit_2(tmp_path: Path):
    # was a Python traceback and exit 1
    huge = "1" + "0" * 5000
    for name, text in (
        ("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n"),
        ("huge.jsonl", '{"index":0,"payload":{"n":' + huge + '},"previousHash":"","hash":""}\n'),
    ):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        for argv in (["audit", "verify", str(path)], ["audit", "verify", "--json", str(path)]):
            result = CliRunner().invoke(build_cli(), argv)
            assert result.exit_code == 2, result.output
            assert result.stderr.startswith("error [INVALID_SNAPSHOT] ")
            assert result.exception is None or isinstance(result.exception, SystemExit)


def test_verify_head_catches_entries_removed_from_the_end(tmp_path: Path):
    path = tmp_path / "chain.jsonl"
    _write_chain(path, 4)
    chain = AuditChain(path)
    head, third = chain.head, chain.entries()[2].hash
    verify = lambda *args: CliRunner().invoke(build_cli(), ["audit", "verify", *args])  # noqa: E731
    assert verify(str(path), "--head", head.upper()).exit_code == 0
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:-1]), encoding="utf-8")  # the last entry removed
    truncated = verify(str(path), "--head", head)
    assert truncated.exit_code == 20
    assert truncated.output == (
        f"broken: the chain ends at {third}, not at the expected head {head}, which no entry "
        "has: entries were removed from its end, or it is another chain; 3 entries read\n"
    )
    assert json.loads(verify(str(path), "--head", head, "--json").output) == {
        "valid": False,
        "brokenAt": None,
        "reason": "head",
        "length": 3,
        "head": third,
        "expectedHead": head,
    }
    older = verify(str(path), "--head", chain.entries()[1].hash)
    assert older.exit_code == 20
    assert older.output.startswith("broken: the chain goes on past the expected head (entry 1)")
    bad = verify(str(path), "--head", "abc")
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error [INVALID_CONFIG] --head: must be a SHA-256 hash")


def test_verify_of_an_empty_chain_exits_20(tmp_path: Path):
    for name, text in (("empty.jsonl", ""), ("empty.json", "[]")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(build_cli(), ["audit", "verify", str(path)])
        assert result.exit_code == 20
        assert result.output == (
            "broken: the chain holds no entry (an emptied file, or one never written)\n"
        )


def test_verify_of_a_file_that_is_not_a_chain_names_the_file_and_line(tmp_path: Path):
    path = tmp_path / "history.csv"
    path.write_text("question,answer,label\nq,a,high\n", encoding="utf-8")
    result = CliRunner().invoke(build_cli(), ["audit", "verify", str(path)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error [INVALID_SNAPSHOT] {path}:1: the line is not valid JSON: Expecting value\n"
    )
