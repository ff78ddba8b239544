"""Registry behaviour: provenance, duplicates, qualified and bare names, runtime registration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import assay


class Toy(assay.Dimension):
    tier = 1
    max_points = 5.0
    default_weight = 5.0

    def __init__(self, name: str = "toy") -> None:
        self.name = name

    def score(self, inputs: Mapping[str, Any], config: Mapping[str, Any]) -> assay.DimensionScore:
        return assay.dimension_score(raw=5.0, max_points=5.0, explanation="always full")


def test_runtime_registration_resolves_bare_and_qualified() -> None:
    registry = assay.Registry()
    registration = registry.register(Toy())
    assert registration.kind == "dimension"  # inferred from the protocol's members
    assert registration.qualified_name == "runtime/toy"
    assert registry.get("dimension", "toy") is registration.obj
    assert registry.dimension("runtime/toy") is registration.obj


def test_duplicate_name_from_same_provider_is_refused_naming_both() -> None:
    registry = assay.Registry()
    registry.register(Toy(), provider=assay.Provider("acme", "acme-dims", "1.0"))
    with pytest.raises(assay.AssayError) as caught:
        registry.register(Toy(), provider=assay.Provider("acme", "acme-extra", "2.0"))
    assert caught.value.code == "DUPLICATE_NAME"
    assert "acme-dims 1.0" in caught.value.message
    assert "acme-extra 2.0" in caught.value.message


def test_same_bare_name_from_two_plugins_needs_qualification() -> None:
    registry = assay.Registry()
    first = Toy()
    second = Toy()
    registry.register(first, provider=assay.Provider("alpha", "alpha-dist", "1"))
    registry.register(second, provider=assay.Provider("beta", "beta-dist", "2"))
    assert registry.get("dimension", "alpha/toy") is first
    assert registry.get("dimension", "beta/toy") is second
    with pytest.raises(assay.AssayError) as caught:
        registry.get("dimension", "toy")
    assert caught.value.code == "AMBIGUOUS_NAME"
    assert "alpha/toy" in caught.value.message and "beta/toy" in caught.value.message


def test_unknown_name_lists_what_is_registered() -> None:
    registry = assay.Registry()
    registry.register(Toy("known"))
    with pytest.raises(assay.AssayError) as caught:
        registry.get("dimension", "nope")
    assert caught.value.code == "UNKNOWN_NAME"
    assert "known" in caught.value.message
    assert not registry.has("dimension", "nope")


def test_object_lacking_protocol_members_is_refused() -> None:
    registry = assay.Registry()
    with pytest.raises(assay.AssayError) as caught:
        registry.register(object(), kind="dimension", name="x")
    assert caught.value.code == "INVALID_PLUGIN_OBJECT"
    assert "score" in caught.value.message
    with pytest.raises(assay.AssayError) as caught:
        registry.register(object())
    assert caught.value.code == "INVALID_PLUGIN_OBJECT"


def test_other_kinds_are_stored_unchecked_and_listed() -> None:
    registry = assay.Registry()
    registry.register(("a", "b"), kind="metric-set", name="default")
    assert registry.get("metric-set", "default") == ("a", "b")
    assert [r.qualified_name for r in registry.items("metric-set")] == ["runtime/default"]
    assert len(registry) == 1
    assert "metric-set=1" in repr(registry)


def test_registrar_buffers_until_commit_and_refuses_double_add() -> None:
    registry = assay.Registry()
    registrar = assay.Registrar(registry, assay.Provider("p"))
    registrar.add_dimension(Toy())
    assert not registry.has("dimension", "toy")  # nothing visible before commit
    with pytest.raises(assay.AssayError) as caught:
        registrar.add_dimension(Toy())
    assert caught.value.code == "DUPLICATE_NAME"
    registrar.commit()
    assert registry.has("dimension", "p/toy")


def test_default_registry_runtime_register(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = assay.build_registry(load_entry_points=False)
    monkeypatch.setattr("assay._plugins._default", fresh)
    toy = assay.register(Toy("mine"))
    assert assay.default_registry().dimension("runtime/mine") is toy


@pytest.mark.parametrize("kind", [None, "dimension"])
def test_a_class_is_refused_with_a_message_saying_to_register_an_instance(
    kind: str | None,
) -> None:
    registry = assay.Registry()
    with pytest.raises(assay.AssayError) as caught:
        registry.register(Toy, kind=kind)
    assert caught.value.code == "INVALID_PLUGIN_OBJECT"
    assert "Toy is a class; register an instance" in caught.value.message
    assert len(registry) == 0
