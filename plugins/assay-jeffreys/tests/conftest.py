"""Shared fixtures: a seeded labeled history with two separable dimensions."""

from __future__ import annotations

import random

import pytest

from assay_jeffreys import BetaParams, DimensionModel


def make_history(n: int, seed: int = 7) -> list[dict]:
    """``n`` high and ``n`` low observations; high scores ~ Beta(8, 2) / Beta(6, 3), low ~
    Beta(2, 6) / Beta(3, 5), drawn with a seeded :class:`random.Random`."""
    rng = random.Random(seed)
    history = []
    for _ in range(n):
        history.append(
            {
                "scores": {"factuality": rng.betavariate(8, 2), "relevance": rng.betavariate(6, 3)},
                "label": "high",
            }
        )
        history.append(
            {
                "scores": {"factuality": rng.betavariate(2, 6), "relevance": rng.betavariate(3, 5)},
                "label": "low",
            }
        )
    return history


@pytest.fixture
def history() -> list[dict]:
    return make_history(200)


@pytest.fixture
def models() -> list[DimensionModel]:
    return [
        DimensionModel("factuality", BetaParams(8.0, 2.0), BetaParams(2.0, 6.0), 1.0),
        DimensionModel("relevance", BetaParams(6.0, 3.0), BetaParams(3.0, 5.0), 0.5),
    ]


@pytest.fixture
def write_json():
    """A function writing data as JSON to a path and returning the path as a string."""
    import json

    def write(path, data) -> str:
        path.write_text(json.dumps(data), encoding="utf-8")
        return str(path)

    return write


@pytest.fixture
def history_factory():
    """:func:`make_history` as a fixture, for tests that need several seeded histories."""
    return make_history
