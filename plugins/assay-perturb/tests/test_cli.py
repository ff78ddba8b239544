import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay import ExitCode
from assay_perturb.cli import perturb


@pytest.fixture
def cli(workdir: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(workdir)
    runner = CliRunner()
    return lambda *args: runner.invoke(perturb, list(args), catch_exceptions=False)


def test_check_exit_0_prints_the_terminal_report(cli) -> None:
    result = cli("check", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "decision field answer.label (enum, distance enum)"
    assert any(line.split()[:3] == ["alpha", "1.00", "1.00"] for line in lines)
    assert "overall: invariance 1.00, sensitivity 1.00, nondeterminism -" in result.stdout
    assert "invocations: 12 planned, 12 run, 0 cached, 0 failed" in result.stdout
    assert "report: assay-perturb/report.html" in result.stdout


def test_check_progress_and_cached_rerun(cli) -> None:
    first = cli("check", "--jobs", "2")
    assert "alpha / swap: ok" in first.stderr
    again = cli("check")
    assert "12 planned, 0 run, 12 cached" in again.stdout and again.stderr == ""
    forced = cli("check", "--no-cache", "--quiet", "--only", "beta")
    assert "6 planned, 6 run, 0 cached" in forced.stdout


def test_exit_2_for_config_and_cases_problems(cli, workdir: Path, make_case) -> None:
    assert cli("check", "--config", "missing.yaml").exit_code == ExitCode.USAGE
    (workdir / "cases" / "gamma.md").write_text("## Query\nq\n## Bogus\n")
    result = cli("check")
    assert result.exit_code == ExitCode.USAGE
    assert result.stderr.strip() == (
        f"error [MALFORMED_CASE] {Path('cases') / 'gamma.md'}:3: unknown section 'Bogus' "
        "(known: Query, Context, Key Evidence, Counterfactual, Padding, Expected Decision)"
    )
    (workdir / "cases" / "gamma.md").unlink()
    assert cli("check", "--only", "nope").exit_code == ExitCode.USAGE


def test_exit_3_when_the_decision_field_is_missing(cli, workdir: Path, make_config) -> None:
    make_config(workdir, field="verdict")
    result = cli("check", "--quiet")
    assert result.exit_code == ExitCode.NO_DECISION == 3
    assert result.stderr.startswith(
        "error [NO_DECISION] every baseline invocation failed (decision field 'verdict' is missing"
    )
    assert (workdir / "assay-perturb" / "report.html").exists()


def test_exit_1_below_a_floor(cli, workdir: Path, make_case) -> None:
    assert cli("check", "--quiet", "--min-invariance", "1", "--min-sensitivity", "1").exit_code == 0
    make_case(workdir / "cases", "alpha", query="FIRST?")
    result = cli("check", "--quiet", "--min-invariance", "0.99")
    assert result.exit_code == ExitCode.FAILED == 1
    assert result.stderr.startswith("FAILED: invariance ")
    assert "is below the floor 0.99" in result.stderr and "error" not in result.stderr


def test_exit_1_when_a_floored_signal_cannot_be_computed(cli, workdir: Path, make_config) -> None:
    make_config(workdir, perturbations="{swap: {}}")
    result = cli("check", "--quiet", "--min-invariance", "0.5")
    assert (
        result.exit_code == ExitCode.FAILED and "invariance could not be computed" in result.stderr
    )


def test_check_json_prints_the_results_and_reads_the_config_from_stdin(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workdir)
    config = (workdir / "assay-perturb.yaml").read_text()
    result = CliRunner().invoke(
        perturb, ["check", "--quiet", "--json", "--config", "-"], input=config
    )
    assert result.exit_code == ExitCode.OK, result.output
    printed = json.loads(result.stdout)
    assert printed == json.loads((workdir / "assay-perturb" / "results.json").read_text())
    assert printed["signals"]["invariance"] == 1.0
    assert "report: assay-perturb/report.html" in result.stderr


def test_init_writes_starter_and_checks_the_field(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.py").write_text(
        "import json, sys\nv = json.load(sys.stdin)\n"
        "print(json.dumps({'answer': {'days': 30, 'list': [1], 'obj': {'a': 1}}}))\n"
    )
    runner = CliRunner()
    command = f"{sys.executable} p.py"
    ok = runner.invoke(
        perturb, ["init", "--command", command, "--field", "answer.days", "--type", "numeric"]
    )
    assert ok.exit_code == 0, ok.output
    assert "wrote" in ok.stdout and "decision = 30 (a scalar)" in ok.stdout
    assert "note: the numeric distance is relative to the numbers' size" in ok.stdout
    assert "`distance: exact`" in ok.stdout
    config = (tmp_path / "assay-perturb.yaml").read_text()
    assert "# distance: exact" in config
    assert "# assay perturb configuration" in config and "type: numeric" in config
    assert (tmp_path / "cases" / "example.md").exists()
    # the starter is a valid configuration and the example case runs under check
    check = runner.invoke(perturb, ["check", "--quiet"])
    assert check.exit_code == 0, check.output
    assert "example" in check.stdout and "1 cached" in check.stdout
    for field, kind in (("answer.list", "an array"), ("answer.obj", "a nested object")):
        bad = runner.invoke(perturb, ["init", "--command", command, "--field", field, "--force"])
        assert bad.exit_code == ExitCode.NO_DECISION
        assert bad.stderr.startswith(f"error [NO_DECISION] decision field '{field}' is {kind};")


def test_init_reports_a_failing_pipeline_and_missing_command(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(perturb, ["init"]).exit_code == ExitCode.USAGE
    (tmp_path / "p.py").write_text(
        "import sys\nprint('no model here', file=sys.stderr)\nsys.exit(5)\n"
    )
    bad = runner.invoke(perturb, ["init", "--command", f"{sys.executable} p.py"])
    assert bad.exit_code == ExitCode.NO_DECISION
    assert bad.stderr.startswith(
        "error [NO_DECISION] the pipeline failed on the example case: exit code 5"
    )
    assert "no model here" in bad.stderr
    # existing files are kept; init re-runs the check from the existing configuration
    again = runner.invoke(perturb, ["init"])
    assert again.exit_code == ExitCode.NO_DECISION and "kept existing" in again.stdout


ASSAY = Path(sys.executable).parent / "assay"


def run_assay(workdir: Path) -> subprocess.CompletedProcess[str]:
    """``assay perturb check --quiet`` through the real console script."""
    return subprocess.run(
        [str(ASSAY), "perturb", "check", "--quiet"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_real_console_script_has_the_perturb_group(workdir: Path) -> None:
    result = run_assay(workdir)
    assert result.returncode == 0, result.stderr
    assert (
        json.loads((workdir / "assay-perturb" / "results.json").read_text())["signals"][
            "invariance"
        ]
        == 1.0
    )


def test_interrupted_check_keeps_finished_invocations(workdir: Path) -> None:
    script = workdir / "pipeline.py"
    script.write_text("import time\ntime.sleep(0.3)\n" + script.read_text())
    config = workdir / "assay-perturb.yaml"
    config.write_text(config.read_text().replace("jobs: 2", "jobs: 1"))
    process = subprocess.Popen(
        [str(ASSAY), "perturb", "check", "--quiet"],
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    results = workdir / "assay-perturb" / "invocations"
    deadline = time.monotonic() + 60
    while len(list(results.glob("*/*/result.json"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == ExitCode.INTERRUPTED, stderr
    assert "interrupted:" in stderr and "a re-run reuses them" in stderr
    finished = len(list(results.glob("*/*/result.json")))
    assert 3 <= finished < 12
    assert not (workdir / "assay-perturb" / "results.json").exists()
    rerun = run_assay(workdir)
    assert rerun.returncode == 0, rerun.stderr
    assert f"12 planned, {12 - finished} run, {finished} cached, 0 failed" in rerun.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--min-invariance", "1.5"), "--min-invariance: must be a number from 0 to 1, got '1.5'"),
        (
            ("--min-sensitivity", "nan"),
            "--min-sensitivity: must be a number from 0 to 1, got 'nan'",
        ),
        (("--min-invariance", "x"), "--min-invariance: must be a number from 0 to 1, got 'x'"),
        (("--jobs", "0"), "--jobs: must be a whole number from 1 to 256, got '0'"),
        (("--jobs", "two"), "--jobs: must be a whole number from 1 to 256, got 'two'"),
        (("--jobs", "300"), "--jobs: must be a whole number from 1 to 256, got '300'"),
        (("--baseline-runs", "200"), "--baseline-runs: must be a whole number from 1 to 100"),
        (("--baseline-runs", "-1"), "--baseline-runs: must be a whole number from 1 to 100"),
    ],
)
def test_invalid_options_exit_2_with_a_coded_error(cli, workdir: Path, args, message) -> None:
    result = cli("check", "--quiet", *args)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.stderr.startswith(f"error [INVALID_CONFIG] {message}")
    assert not (workdir / "assay-perturb").exists()  # nothing ran


def test_check_help_shows_option_types_and_ranges(cli) -> None:
    text = " ".join(cli("check", "--help").stdout.split())
    assert "--jobs INTEGER RANGE" in text and "[1<=x<=256]" in text
    assert "--baseline-runs INTEGER RANGE" in text and "[1<=x<=100]" in text
    assert "--min-invariance FLOAT RANGE" in text and "[0.0<=x<=1.0]" in text
    assert "--run-dir DIRECTORY" in text
    assert "Folder for the invocations" in text
