import random

import pytest

import assay
from assay_perturb import Pad, Reorder, Swap

CASE = assay.PerturbationCase(
    name="c",
    query="q?",
    chunks=[assay.Chunk(i, f"text {i}") for i in ("a", "b", "c", "d")],
    key_evidence=["b"],
    counterfactual=["swapped b"],
    padding=["own pad 1", "own pad 2", "own pad 3"],
    source="cases/c.md",
)
OTHER = assay.PerturbationCase(
    name="o",
    query="other?",
    chunks=[assay.Chunk("k", "other key"), assay.Chunk("x", "other x")],
    key_evidence=["k"],
    counterfactual=["cf"],
)


def ids(variant: assay.Variant) -> list[str]:
    return [c.id for c in variant.chunks]


def test_builtins_register_through_the_entry_point() -> None:
    registry = assay.build_registry()
    assert {"reorder", "pad", "swap"} <= set(registry.names("perturbation"))
    assert isinstance(registry.perturbation("perturb/reorder"), Reorder)
    assert registry.get("distance", "perturb/numeric")(1, 3) == pytest.approx(2 / 3)
    assert registry.get("distance", "enum")("x", "y") == 1.0


def test_reorder_gives_distinct_non_identity_orders_deterministically() -> None:
    first = Reorder().variants(CASE, [], random.Random(1), {"count": 5})
    again = Reorder().variants(CASE, [], random.Random(1), {"count": 5})
    assert first == again
    orders = [tuple(ids(v)) for v in first]
    assert len(set(orders)) == 5 and ("a", "b", "c", "d") not in orders
    assert all(sorted(o) == ["a", "b", "c", "d"] for o in orders)
    assert [v.name for v in first] == [f"reorder-{i}" for i in range(1, 6)]
    assert first[0].description == "order: " + ", ".join(orders[0])


def test_reorder_caps_at_available_orders() -> None:
    two = assay.PerturbationCase("t", "q", [assay.Chunk("a", "x"), assay.Chunk("b", "y")])
    variants = Reorder().variants(two, [], random.Random(0), {"count": 9})
    assert [ids(v) for v in variants] == [["b", "a"]]
    single = assay.PerturbationCase("s", "q", [assay.Chunk("a", "x")])
    assert Reorder().variants(single, [], random.Random(0), {}) == []


def test_pad_from_case_keeps_original_order_and_adds_material() -> None:
    variants = Pad().variants(CASE, [OTHER], random.Random(2), {"source": "case", "chunks": 2})
    assert len(variants) == 2
    for variant in variants:
        originals = [i for i in ids(variant) if i in "abcd"]
        assert originals == ["a", "b", "c", "d"]
        added = [c.text for c in variant.chunks if c.id not in "abcd"]
        assert len(added) == 2 and set(added) <= set(CASE.padding)
        assert "case chunk(s)" in variant.description


def test_pad_from_others_excludes_their_key_evidence_and_positions() -> None:
    (variant,) = Pad().variants(
        CASE,
        [CASE, OTHER],
        random.Random(0),
        {"source": "others", "count": 1, "chunks": 5, "position": "start"},
    )
    assert ids(variant) == ["o/x", "a", "b", "c", "d"]
    (end,) = Pad().variants(
        CASE, [OTHER], random.Random(0), {"source": "others", "count": 1, "position": "end"}
    )
    assert ids(end)[-1] == "o/x"


def test_pad_filler_is_generated_and_deterministic() -> None:
    params = {"source": "filler", "count": 1, "chunks": 3}
    (one,) = Pad().variants(CASE, [], random.Random(5), params)
    (two,) = Pad().variants(CASE, [], random.Random(5), params)
    assert one == two
    fillers = [c for c in one.chunks if c.id.startswith("filler-")]
    assert len(fillers) == 3 and all(len(c.text.split()) == 24 for c in fillers)


def test_pad_auto_prefers_case_then_others_then_filler() -> None:
    bare = assay.PerturbationCase("b", "q", [assay.Chunk("a", "x")], ["a"], ["y"])
    assert "case" in Pad().variants(CASE, [OTHER], random.Random(0), {})[0].description
    assert "others" in Pad().variants(bare, [OTHER], random.Random(0), {})[0].description
    assert "filler" in Pad().variants(bare, [], random.Random(0), {})[0].description


def test_pad_without_material_names_the_case_file() -> None:
    bare = assay.PerturbationCase("b", "q", [assay.Chunk("a", "x")], source="cases/b.md")
    with pytest.raises(assay.AssayError) as info:
        Pad().variants(bare, [], random.Random(0), {"source": "case"})
    assert info.value.code == "INVALID_INPUT" and info.value.path == "cases/b.md"


@pytest.mark.parametrize(
    ("params", "path"),
    [
        ({"count": -1}, "perturbations.pad.count"),
        ({"source": "web"}, "perturbations.pad.source"),
        ({"chunks": True}, "perturbations.pad.chunks"),
    ],
)
def test_bad_parameters_are_config_errors(params: dict[str, object], path: str) -> None:
    with pytest.raises(assay.AssayError) as info:
        Pad().variants(CASE, [], random.Random(0), params)
    assert info.value.code == "INVALID_CONFIG" and info.value.path == path


def test_swap_replaces_key_evidence_in_place() -> None:
    (variant,) = Swap().variants(CASE, [], random.Random(0), {})
    assert ids(variant) == ["a", "b", "c", "d"]
    assert variant.chunks[1].text == "swapped b" and variant.chunks[0].text == "text a"
    assert variant.name == "swap" and Swap.signal == "sensitivity"


def test_swap_each_gives_one_variant_per_key_chunk() -> None:
    two = assay.PerturbationCase(
        "t", "q", [assay.Chunk("a", "x"), assay.Chunk("b", "y")], ["a", "b"], ["X", "Y"]
    )
    variants = Swap().variants(two, [], random.Random(0), {"mode": "each"})
    assert [(v.name, [c.text for c in v.chunks]) for v in variants] == [
        ("swap-1", ["X", "y"]),
        ("swap-2", ["x", "Y"]),
    ]


def test_swap_without_counterfactual_is_an_input_error() -> None:
    bare = assay.PerturbationCase("b", "q", [assay.Chunk("a", "x")], ["a"], [], source="b.md")
    with pytest.raises(assay.AssayError, match="one counterfactual per key-evidence") as info:
        Swap().variants(bare, [], random.Random(0), {})
    assert info.value.path == "b.md"


def test_loading_the_plugin_does_not_import_yaml() -> None:
    import subprocess
    import sys

    code = "import sys, assay_perturb.plugin; print('yaml' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
