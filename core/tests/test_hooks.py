"""Every hook spec is documented with its exact signature and has a test of its own."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import click
from click.testing import CliRunner

import assay
from assay import _hookspecs
from assay._cli.main import build_cli
from assay._plugins import PluginHost

DOCS = Path(__file__).resolve().parents[2] / "docs" / "writing-plugins.md"
HOOKS = [
    name for name, obj in vars(_hookspecs).items() if name.startswith("assay_") and callable(obj)
]


def test_every_hook_is_documented_with_its_signature() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for name in HOOKS:
        signature = f"{name}{inspect.signature(getattr(_hookspecs, name))}"
        signature = signature.replace("'", "")
        assert signature in text, f"docs/writing-plugins.md lacks `{signature}`"


def test_every_hook_has_a_test() -> None:
    tests = Path(__file__).read_text(encoding="utf-8")
    for name in HOOKS:
        assert re.search(rf"def test_hook_{name}\b", tests), f"no test_hook_{name}"


def test_hook_assay_register() -> None:
    class Recorder:
        name = "recorder"
        evidence_type = object

        def decide(self, evidence: object) -> assay.Decision:
            return assay.Decision("answer", "recorder", "recorded")

    class Plugin:
        @assay.hookimpl
        def assay_register(self, registrar: assay.Registrar) -> None:
            registrar.add_policy(Recorder())

    registry = assay.build_registry(load_entry_points=False, extra_plugins={"rec": Plugin()})
    assert registry.policy("rec/recorder").decide(None).reason == "recorded"


def test_hook_assay_cli() -> None:
    @click.command("hello")
    def hello() -> None:
        click.echo("hello from a plugin")

    class Plugin:
        @assay.hookimpl
        def assay_cli(self, cli: click.Group) -> None:
            cli.add_command(hello)

    cli = build_cli(PluginHost(load_entry_points=False, extra_plugins={"hello": Plugin()}))
    result = CliRunner().invoke(cli, ["hello"])
    assert result.exit_code == 0
    assert result.output == "hello from a plugin\n"
