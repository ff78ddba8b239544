"""Loaders: history, score vectors and models from JSON and CSV."""

from __future__ import annotations

import json

import pytest

import assay
from assay_jeffreys import load_history, load_models, load_score_vectors


def test_json_history_accepts_arrays_and_maps(tmp_path):
    path = tmp_path / "history.json"
    path.write_text(
        json.dumps(
            [
                {"scores": [{"dimension": "f", "value": 0.9}], "label": "high"},
                {"scores": {"f": 0.2, "g": 0.3}, "label": "low"},
            ]
        )
    )
    history = load_history(path)
    assert [o.label for o in history] == ["high", "low"]
    assert [(s.dimension, s.value) for s in history[1].scores] == [("f", 0.2), ("g", 0.3)]


def test_csv_history_has_a_label_column_and_empty_cells_are_missing(tmp_path):
    path = tmp_path / "history.csv"
    path.write_text("f,g,label\n0.9,0.8,high\n0.1,,low\n\n")
    history = load_history(path)
    assert [o.label for o in history] == ["high", "low"]
    assert [s.dimension for s in history[1].scores] == ["f"]


def test_score_vectors_from_json_and_csv(tmp_path):
    js = tmp_path / "scores.json"
    js.write_text(json.dumps([{"f": 0.5}, [{"dimension": "g", "value": 1}]]))
    assert load_score_vectors(js) == [{"f": 0.5}, {"g": 1.0}]
    csv_path = tmp_path / "scores.CSV"
    csv_path.write_text(" f , g \n0.5,0.25\n1,\n")
    assert load_score_vectors(csv_path) == [{"f": 0.5, "g": 0.25}, {"f": 1.0}]


def test_models_from_json(tmp_path, models):
    from assay_jeffreys import to_wire

    path = tmp_path / "models.json"
    path.write_text(json.dumps([to_wire(m) for m in models]))
    assert load_models(path) == models


@pytest.mark.parametrize(
    ("name", "text", "loader", "code", "path"),
    [
        ("h.json", "{", load_history, "INVALID_CONFIG", None),
        ("h.json", "{}", load_history, "INVALID_CONFIG", None),
        ("h.json", '[{"scores": {"f": 0.5}}]', load_history, "INVALID_OBSERVATION", "[0].label"),
        (
            "h.json",
            '[{"scores": {"f": 0.5}, "label": "ok"}]',
            load_history,
            "INVALID_HYPOTHESIS",
            "[0].label",
        ),
        ("h.csv", "f,g\n0.1,0.2\n", load_history, "INVALID_OBSERVATION", "h.csv:1"),
        ("s.csv", "f,g\n0.1\n", load_score_vectors, "INVALID_SCORE", "s.csv:2"),
        ("s.csv", "f,g\n0.1,abc\n", load_score_vectors, "INVALID_SCORE", "s.csv:2.g"),
        ("s.csv", "f,f\n0.1,0.2\n", load_score_vectors, "INVALID_SCORE", "s.csv:1"),
        ("s.csv", "", load_score_vectors, "INVALID_CONFIG", None),
        ("s.json", "[[0.3]]", load_score_vectors, "INVALID_SCORE", "[0][0]"),
        (
            "m.json",
            '[{"dimension": "f", "high": {"a": 1, "b": 1}}]',
            load_models,
            "INVALID_CONFIG",
            "models[0].low",
        ),
        (
            "m.json",
            '[{"dimension": "f", "high": {"a": 0, "b": 1}, "low": {"a": 1, "b": 1}}]',
            load_models,
            "INVALID_CONFIG",
            "models[0].high.a",
        ),
        (
            "m.json",
            '[{"dimension": "f", "high": {"a": 1, "b": 1}, "low": {"a": 1, "b": 1}, "weight": -2}]',
            load_models,
            "INVALID_CONFIG",
            "models[0].weight",
        ),
    ],
)
def test_bad_files_raise_with_the_row_path(tmp_path, name, text, loader, code, path):
    file = tmp_path / name
    file.write_text(text)
    with pytest.raises(assay.AssayError) as info:
        loader(file)
    assert info.value.code == code
    if path is not None:
        assert info.value.path.endswith(path)


def test_a_missing_file_is_an_invalid_config(tmp_path):
    with pytest.raises(assay.AssayError) as info:
        load_history(tmp_path / "nope.json")
    assert info.value.code == "INVALID_CONFIG"


@pytest.mark.parametrize(
    ("item", "path", "hint"),
    [
        (
            {"dimension": "f", "high": {"a": 5, "b": 2}, "low": {"a": 2, "b": 5}, "wieght": 1},
            "models[0]",
            "'wieght' (did you mean 'weight'?)",
        ),
        (
            {"dimension": "f", "high": {"a": 5, "b": 2}, "low": {"a": 2, "b": 5}, "foo": 1},
            "models[0]",
            "'foo'; known: dimension, high, low, weight",
        ),
    ],
)
def test_models_refuse_unknown_fields_like_dimension_specs(tmp_path, item, path, hint):
    from assay_jeffreys import GateConfig, HypothesisManager, gate_config_from_wire

    target = tmp_path / "models.json"
    target.write_text(json.dumps([item]), encoding="utf-8")
    with pytest.raises(assay.AssayError) as info:
        load_models(target)
    assert (info.value.code, info.value.path) == ("INVALID_CONFIG", path)
    assert hint in info.value.message
    with pytest.raises(assay.AssayError) as info:
        HypothesisManager([{"dimension": "f", "wieght": 1}])
    assert "(did you mean 'weight'?)" in info.value.message
    with pytest.raises(assay.AssayError) as info:
        gate_config_from_wire({"minHistroy": 3})
    assert "(did you mean 'minHistory'?)" in info.value.message
    assert isinstance(gate_config_from_wire({"minHistory": 3}), GateConfig)
