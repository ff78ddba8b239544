"""The CLI frame's shared conventions: error lines, exit codes, --workers, JSON output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import assay
from assay.cli import AssayGroup, echo_json, read_json_file, resolve_workers, workers_option


def _group_with(command: click.Command) -> click.Group:
    group = AssayGroup(name="assay")
    group.add_command(command)
    return group


def test_an_assay_error_is_one_line_on_stderr_and_exit_2() -> None:
    @click.command("bad")
    def bad() -> None:
        raise assay.AssayError("INVALID_INPUT", "must be a number", "candidates[0].score")

    result = CliRunner().invoke(_group_with(bad), ["bad"])
    assert result.exit_code == assay.ExitCode.USAGE == 2
    assert result.stderr == "error [INVALID_INPUT] candidates[0].score: must be a number\n"


def test_a_closed_stdout_exits_141_quietly() -> None:
    # click's own handling exited 1, the code of a failed quality gate
    @click.command("talk")
    def talk() -> None:
        raise BrokenPipeError(32, "Broken pipe")

    result = CliRunner().invoke(_group_with(talk), ["talk"])
    assert result.exit_code == assay.ExitCode.BROKEN_PIPE == 141
    assert result.stderr == ""


@pytest.mark.parametrize("argv", [["plugins"], ["--help"], ["--version"], ["plugins", "--help"]])
def test_a_reader_that_closed_stdout_gives_exit_141_for_every_command(argv: list[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: `assay ... | head -c0`
    try:
        done = subprocess.run(
            [sys.executable, "-m", "assay._cli.main_module", *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert done.returncode == assay.ExitCode.BROKEN_PIPE, done.stderr
    assert done.stderr == b""


def test_ctrl_c_exits_130_without_a_traceback() -> None:
    @click.command("slow")
    def slow() -> None:
        raise KeyboardInterrupt

    result = CliRunner().invoke(_group_with(slow), ["slow"])
    assert result.exit_code == assay.ExitCode.INTERRUPTED == 130
    assert result.stderr == "interrupted\n"


@pytest.mark.parametrize(("given", "expected"), [("0", 0), ("3", 3), ("AUTO", None)])
def test_workers_option_takes_a_count_or_auto(given: str, expected: int | None) -> None:
    @click.command("run")
    @workers_option
    def run(workers: int) -> None:
        click.echo(workers)

    result = CliRunner().invoke(run, ["--workers", given])
    assert result.exit_code == 0
    assert int(result.stdout) == (expected if expected is not None else resolve_workers("auto"))
    assert resolve_workers("auto") >= 1


@pytest.mark.parametrize("given", ["-1", "two"])
def test_workers_option_refuses_other_values_as_a_usage_error(given: str) -> None:
    @click.command("run")
    @workers_option
    def run(workers: int) -> None:
        raise AssertionError("not reached")

    result = CliRunner().invoke(run, ["--workers", given])
    assert result.exit_code == 2
    assert "--workers" in result.stderr


@pytest.mark.parametrize("value", [-1, True, "many", 1.5])
def test_resolve_workers_refuses_what_is_not_a_count(value: object) -> None:
    with pytest.raises(assay.AssayError) as caught:
        resolve_workers(value)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.path) == ("INVALID_CONFIG", "workers")


def test_echo_json_writes_non_finite_numbers_as_null(capsys: pytest.CaptureFixture[str]) -> None:
    echo_json({"mean": float("nan"), "max": float("inf"), "n": [1.0, 2]}, pretty=False)
    assert json.loads(capsys.readouterr().out) == {"mean": None, "max": None, "n": [1, 2]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nests too deep to read"),
        ("[" + "7" * 5000 + "]", "holds an integer too long to read"),
        ('{"a": }', "is not valid JSON"),
    ],
)
def test_read_json_file_turns_hostile_json_into_a_coded_error(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(assay.AssayError) as caught:
        read_json_file(str(path))
    assert caught.value.code == "MALFORMED_INPUT"
    assert message in caught.value.message
