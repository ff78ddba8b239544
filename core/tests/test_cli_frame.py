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
from assay.cli import (
    AssayGroup,
    OutputPath,
    atomic_write,
    echo_json,
    read_json_file,
    resolve_workers,
    workers_option,
)


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


def test_an_os_error_no_command_caught_is_an_io_error_line_and_exit_2() -> None:
    # exit 1 would tell a CI script that a quality gate failed
    @click.command("write")
    def write() -> None:
        raise FileNotFoundError(2, "No such file or directory", "/proc/nope")

    result = CliRunner().invoke(_group_with(write), ["write"])
    assert result.exit_code == assay.ExitCode.USAGE
    assert result.stderr == "error [IO_ERROR] /proc/nope: No such file or directory\n"


def _writer() -> click.Command:
    @click.command("write")
    @click.option("--output", type=OutputPath())
    def write(output: str) -> None:
        with atomic_write(output) as handle:
            handle.write("done")

    return write


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ("file.txt/out.json", "file.txt is a file, not a folder"),
        ("file.txt/deeper/out.json", "file.txt is a file, not a folder"),
        ("folder", "it is a folder"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_command_runs(
    tmp_path: Path, where: str, reason: str
) -> None:
    (tmp_path / "file.txt").write_text("keep")
    (tmp_path / "folder").mkdir()
    target = tmp_path / where
    result = CliRunner().invoke(_group_with(_writer()), ["write", "--output", str(target)])
    assert result.exit_code == assay.ExitCode.USAGE
    assert result.stderr.startswith(f"error [IO_ERROR] --output: cannot write {target}: ")
    assert result.stderr.rstrip().endswith(reason)
    assert "Traceback" not in result.output
    assert (tmp_path / "file.txt").read_text() == "keep"


def test_an_output_path_makes_missing_folders_before_the_command_runs(tmp_path: Path) -> None:
    target = tmp_path / "new" / "sub" / "out.json"
    result = CliRunner().invoke(_group_with(_writer()), ["write", "--output", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text() == "done"


@pytest.mark.parametrize("where", ["file.txt/out.json", "file.txt/deeper/out.json"])
def test_atomic_write_under_a_file_is_an_io_error_and_leaves_it_alone(
    tmp_path: Path, where: str
) -> None:
    (tmp_path / "file.txt").write_text("keep")
    target = tmp_path / where
    with pytest.raises(assay.AssayError) as caught, atomic_write(target) as handle:
        handle.write("x")
    assert caught.value.code == "IO_ERROR"
    assert caught.value.path == str(target)
    assert caught.value.message.endswith("file.txt is a file, not a folder")
    assert (tmp_path / "file.txt").read_text() == "keep"


def test_atomic_write_over_a_folder_is_an_io_error_and_keeps_nothing_half_written(
    tmp_path: Path,
) -> None:
    (tmp_path / "out").mkdir()
    with pytest.raises(assay.AssayError) as caught, atomic_write(tmp_path / "out") as handle:
        handle.write("x")
    assert caught.value.code == "IO_ERROR"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary file left
