"""Plugin discovery: one entry point at a time, broken plugins recorded, switches honoured."""

from __future__ import annotations

import sys
import textwrap
import warnings
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest

import assay
from assay._plugins import PluginHost

GOOD = """
import assay

class Echo:
    name = "echo"
    evidence_type = object

    def decide(self, evidence):
        return assay.Decision("answer", "echo", f"echo {evidence}")

@assay.hookimpl
def assay_register(registrar):
    registrar.add_policy(Echo())
"""
BROKEN_IMPORT = "raise RuntimeError('cannot import me')\n"
BROKEN_REGISTER = """
import assay

class Half:
    name = "half"
    evidence_type = object
    def decide(self, evidence):
        return assay.Decision("answer", "half", "half")

@assay.hookimpl
def assay_register(registrar):
    registrar.add_policy(Half())
    raise ValueError("register failed midway")
"""
MISSPELLED = """
import assay

@assay.hookimpl
def assay_regsiter(registrar):
    pass
"""


@pytest.fixture
def plugin_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    sources = {
        "tp_good": GOOD,
        "tp_broken_import": BROKEN_IMPORT,
        "tp_broken_register": BROKEN_REGISTER,
        "tp_misspelled": MISSPELLED,
    }
    for name, source in sources.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
        sys.modules.pop(name, None)
    monkeypatch.syspath_prepend(str(tmp_path))
    entry_points = [
        metadata.EntryPoint(name.removeprefix("tp_"), name, "assay") for name in sources
    ]
    monkeypatch.setattr(PluginHost, "_entry_points", lambda self: entry_points)
    return sources


def _records(registry: assay.Registry) -> dict[str, assay.PluginRecord]:
    return {record.name: record for record in registry.plugins}


def test_broken_plugins_are_recorded_and_the_others_keep_working(
    plugin_modules: dict[str, str],
) -> None:
    with pytest.warns(assay.PluginLoadWarning) as caught:
        registry = assay.build_registry(env={})
    records = _records(registry)
    assert records["good"].status == "ok"
    assert records["good"].registered == ("policy:echo",)
    assert registry.policy("good/echo").decide(3).reason == "echo 3"
    assert records["broken_import"].status == "broken"
    assert "RuntimeError: cannot import me" in (records["broken_import"].error or "")
    # a plugin whose hook raised keeps none of its registrations
    assert records["broken_register"].status == "broken"
    assert "register failed midway" in (records["broken_register"].error or "")
    assert not registry.has("policy", "half")
    # a misspelled hook name is caught, not silently ignored
    assert records["misspelled"].status == "broken"
    assert "assay_regsiter" in (records["misspelled"].error or "")
    messages = " ".join(str(w.message) for w in caught)
    assert "broken_import" in messages and "broken_register" in messages


def test_strict_switch_turns_a_broken_plugin_into_an_error(
    plugin_modules: dict[str, str],
) -> None:
    with pytest.raises(assay.AssayError) as caught:
        assay.build_registry(env={"ASSAY_STRICT_PLUGINS": "1"})
    assert caught.value.code == "PLUGIN_ERROR"
    assert "broken_import" in caught.value.message


def test_disable_and_allow_list(plugin_modules: dict[str, str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing broken is loaded: no warning at all
        registry = assay.build_registry(
            env={"ASSAY_DISABLE_PLUGINS": "broken_import, broken_register, misspelled"}
        )
        records = _records(registry)
        assert records["broken_import"].status == "disabled"
        assert "ASSAY_DISABLE_PLUGINS" in (records["broken_import"].error or "")
        assert records["good"].status == "ok"

        allowed = _records(assay.build_registry(env={"ASSAY_PLUGINS": "good"}))
        assert allowed["good"].status == "ok"
        assert allowed["misspelled"].status == "disabled"
        assert "ASSAY_PLUGINS" in (allowed["misspelled"].error or "")


def test_builtins_register_through_the_same_hooks() -> None:
    registry = assay.build_registry(load_entry_points=False)
    records = _records(registry)
    assert list(records) == ["assay.commands"]  # the core's one built-in: ``assay plugins``
    assert records["assay.commands"].hooks == ("assay_cli",)
    assert records["assay.commands"].distribution == "assay"
    assert len(registry) == 0  # the kernel registers no object of its own


def test_extra_plugins_register_a_module_object() -> None:
    module = ModuleType("inline_plugin")
    exec(textwrap.dedent(GOOD), module.__dict__)
    registry = assay.build_registry(load_entry_points=False, extra_plugins={"inline": module})
    assert registry.policy("inline/echo").name == "echo"
