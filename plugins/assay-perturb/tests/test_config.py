from pathlib import Path

import pytest

import assay
from assay_perturb import config_from_mapping, load_config

MINIMAL = {"pipeline": {"command": "python3 p.py --flag 'two words'"}, "decision": {"field": "a"}}


def test_defaults_and_command_splitting() -> None:
    config = config_from_mapping(MINIMAL)
    assert config.command == ("python3", "p.py", "--flag", "two words")
    assert config.decision_type == "enum" and config.distance_name == "enum"
    assert [name for name, _ in config.perturbations] == ["reorder", "pad", "swap"]
    assert (config.seed, config.jobs, config.baseline_runs, config.cache) == (0, 1, 1, True)
    assert config.timeout == 60.0


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"extra": 1}, "extra"),
        ({"pipeline": {"command": ""}}, "pipeline.command"),
        ({"pipeline": {"command": ["a", 3]}}, "pipeline.command"),
        ({"pipeline": {"command": "x", "timeout": 0}}, "pipeline.timeout"),
        ({"pipeline": {}}, "pipeline.command"),
        ({"decision": {"field": "a..b"}}, "decision.field"),
        ({"decision": {"field": "a", "type": "array"}}, "decision.type"),
        ({"decision": {"field": "a", "colour": 1}}, "decision.colour"),
        ({"jobs": 0}, "jobs"),
        ({"baseline_runs": 1.5}, "baseline_runs"),
        ({"cache": "yes"}, "cache"),
        ({"seed": "7"}, "seed"),
        ({"perturbations": {}}, "perturbations"),
        ({"perturbations": {"pad": [1]}}, "perturbations.pad"),
    ],
)
def test_invalid_config_names_the_key(change: dict[str, object], path: str) -> None:
    with pytest.raises(assay.AssayError) as info:
        config_from_mapping({**MINIMAL, **change})
    assert info.value.code == "INVALID_CONFIG" and info.value.path == path


def test_load_config_resolves_cases_against_the_file(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    file = tmp_path / "sub" / "c.yaml"
    file.write_text("pipeline: {command: [x]}\ndecision: {field: d, type: numeric}\ncases: mine\n")
    config, text = load_config(file)
    assert Path(config.cases_dir) == tmp_path / "sub" / "mine"
    assert text.startswith("pipeline:") and config.decision_type == "numeric"


def test_yaml_syntax_error_has_file_and_line(tmp_path: Path) -> None:
    file = tmp_path / "c.yaml"
    file.write_text("pipeline:\n  command: [x\ndecision: {field: d}\n")
    with pytest.raises(assay.AssayError) as info:
        load_config(file)
    assert info.value.code == "INVALID_CONFIG" and info.value.path.startswith(f"{file}:")


def test_missing_config_suggests_init(tmp_path: Path) -> None:
    with pytest.raises(assay.AssayError, match="assay perturb init") as info:
        load_config(tmp_path / "assay-perturb.yaml")
    assert info.value.code == "IO_ERROR"  # as every command reports a file it cannot read
    assert info.value.path == str(tmp_path / "assay-perturb.yaml")
    assert info.value.message.startswith("cannot read the file: No such file or directory")


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("pipeline: {command: python3 p.py, timeout: .inf}", "pipeline.timeout"),
        ("pipeline: {command: python3 p.py, timeout: .nan}", "pipeline.timeout"),
        ("pipeline: {command: python3 p.py}\nseed: " + "9" * 150, "seed"),
        ("pipeline: {command: python3 p.py}\nseed: " + "9" * 5000, "hostile.yaml"),
        ("a: " + "[" * 100000 + "]" * 100000, "hostile.yaml"),
        ("pipeline: {command: python3 p.py}\njobs: " + "9" * 400, "jobs"),
        ("pipeline: {command: python3 p.py}\nbaseline_runs: " + "9" * 400, "baseline_runs"),
        ("pipeline: {command: python3 p.py}\njobs: 257", "jobs"),
        ("pipeline: {command: python3 p.py, timeout: 1e300}", "pipeline.timeout"),
    ],
)
def test_hostile_configuration_is_a_config_error(tmp_path, line: str, where: str) -> None:
    path = tmp_path / "hostile.yaml"
    path.write_text(
        line + "\ndecision: {field: d, type: enum}\ncases: cases\nperturbations: {swap: {}}\n"
    )
    with pytest.raises(assay.AssayError) as info:
        load_config(path)
    assert info.value.code == "INVALID_CONFIG" and where in str(info.value.path)
