"""The testing helpers of assay.testing: fuzzing near valid input, the error contract, a plugin's
CLI under the real root group."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import assay
from assay.testing import mutated_json, only_assay_errors

BASE = {"scores": [0.5, 0.7], "label": "ok"}


@settings(max_examples=60, derandomize=True, deadline=None)
@given(mutated_json(BASE))
def test_mutated_json_leaves_the_base_untouched(value: object) -> None:
    assert BASE == {"scores": [0.5, 0.7], "label": "ok"}
    assert value is not BASE


def test_only_assay_errors_lets_coded_errors_pass_and_others_fail() -> None:
    def coded() -> None:
        raise assay.AssayError("INVALID_INPUT", "bad")

    def bug() -> None:
        raise TypeError("unhashable")

    only_assay_errors(coded)
    with pytest.raises(TypeError):
        only_assay_errors(bug)


def test_plugin_cli_adds_a_hook_modules_commands_under_the_real_root_group() -> None:
    import types

    import click
    from click.testing import CliRunner

    from assay.testing import plugin_cli

    @click.command("fail")
    def fail() -> None:
        raise assay.AssayError("INVALID_INPUT", "bad", "x")

    module = types.SimpleNamespace(assay_cli=lambda cli: cli.add_command(fail))
    result = CliRunner().invoke(plugin_cli(module), ["fail"])
    assert (result.exit_code, result.stderr) == (2, "error [INVALID_INPUT] x: bad\n")
