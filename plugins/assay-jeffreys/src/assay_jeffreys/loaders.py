"""File loaders: labeled history, score vectors and dimension models from JSON or CSV.

* JSON history: an array of ``{"scores": <vector>, "label": "high" | "low"}``.
* JSON score vectors: an array of vectors, each an object map ``{dimension: value}`` or an
  array of ``{"dimension", "value"}``.
* CSV (by the ``.csv`` suffix): a header row of dimension names, then one row of values per
  output; an empty cell is a missing score. For history, a column named ``label`` holds the
  label.
* JSON models: an array of ``{"dimension", "high": {a, b}, "low": {a, b}, "weight"?}``.
* ``-`` as the path reads standard input: JSON when it starts with ``[`` or ``{``, else CSV.

Errors: ``INVALID_CONFIG`` for an unreadable file or a file that is not JSON / CSV (the path
is the file's); ``INVALID_SCORE``, ``INVALID_OBSERVATION``, ``INVALID_HYPOTHESIS`` with the
row's path for bad content.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from assay_jeffreys.errors import INVALID_CONFIG, INVALID_OBSERVATION, INVALID_SCORE, fail
from assay_jeffreys.scores import models_from_wire, observation_from_wire, to_score_map
from assay_jeffreys.types import DimensionModel, LabeledObservation

__all__ = ["load_history", "load_models", "load_score_vectors"]

LABEL_COLUMN = "label"
STDIN = "-"


def _read_text(path: str | os.PathLike[str]) -> str:
    try:
        if str(path) == STDIN:
            return sys.stdin.read()
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        fail(INVALID_CONFIG, f"cannot read file: {exc.strerror}", str(path))
    except UnicodeDecodeError:
        fail(INVALID_CONFIG, "file is not UTF-8 text", str(path))


def _read_json_array(path: str | os.PathLike[str], what: str, text: str | None = None) -> list[Any]:
    try:
        data = json.loads(_read_text(path) if text is None else text)
    except json.JSONDecodeError as exc:
        fail(INVALID_CONFIG, f"not valid JSON: {exc.msg} at line {exc.lineno}", str(path))
    except RecursionError:
        fail(INVALID_CONFIG, "not usable JSON: nested too deeply", str(path))
    except ValueError:  # e.g. an integer literal over Python's 4,300-digit limit
        fail(INVALID_CONFIG, "not usable JSON: a number has too many digits", str(path))
    if not isinstance(data, list):
        fail(INVALID_CONFIG, f"{what} must be a JSON array", str(path))
    return data


def _csv_rows(
    path: str | os.PathLike[str], text: str
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    reader = csv.reader(io.StringIO(text))
    rows = [row for row in reader if any(cell.strip() for cell in row)]
    if not rows:
        fail(INVALID_CONFIG, "a CSV needs a header row of dimension names", str(path))
    header = [name.strip() for name in rows[0]]
    if len(set(header)) != len(header) or not all(header):
        fail(INVALID_SCORE, "header names must be unique and non-empty", f"{path}:1")
    body = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            fail(INVALID_SCORE, f"expected {len(header)} cells, got {len(row)}", f"{path}:{number}")
        body.append((number, {h: cell.strip() for h, cell in zip(header, row, strict=True)}))
    return header, body


def _csv_scores(cells: dict[str, str], where: str) -> dict[str, float]:
    values: dict[str, Any] = {}
    for name, cell in cells.items():
        if cell == "":
            continue
        try:
            values[name] = float(cell)
        except (ValueError, OverflowError):
            fail(INVALID_SCORE, f"not a number: {cell!r}", f"{where}.{name}")
    return to_score_map(values, where)


def _is_csv(path: str | os.PathLike[str], text: str) -> bool:
    if str(path) == STDIN:
        return not text.lstrip().startswith(("[", "{"))
    return str(path).lower().endswith(".csv")


def load_score_vectors(path: str | os.PathLike[str]) -> list[dict[str, float]]:
    """Score vectors from a JSON or CSV file (``-``: standard input), each as
    ``{dimension: value}``."""
    text = _read_text(path)
    if _is_csv(path, text):
        _, body = _csv_rows(path, text)
        return [_csv_scores(cells, f"{path}:{n}") for n, cells in body]
    data = _read_json_array(path, "score vectors", text)
    return [to_score_map(v, f"[{i}]") for i, v in enumerate(data)]


def load_history(path: str | os.PathLike[str]) -> list[LabeledObservation]:
    """Labeled observations from a JSON or CSV file (``-``: standard input; CSV: a ``label``
    column)."""
    text = _read_text(path)
    if _is_csv(path, text):
        header, body = _csv_rows(path, text)
        if LABEL_COLUMN not in header:
            fail(INVALID_OBSERVATION, "a CSV history needs a 'label' column", f"{path}:1")
        history = []
        for n, cells in body:
            label = cells.pop(LABEL_COLUMN)
            scores = _csv_scores(cells, f"{path}:{n}")
            history.append(observation_from_wire({"scores": scores, "label": label}, f"{path}:{n}"))
        return history
    data = _read_json_array(path, "history", text)
    return [observation_from_wire(item, f"[{i}]") for i, item in enumerate(data)]


def load_models(path: str | os.PathLike[str]) -> list[DimensionModel]:
    """Dimension models from a JSON file (``-``: standard input)."""
    return models_from_wire(_read_json_array(path, "models"), "models")
