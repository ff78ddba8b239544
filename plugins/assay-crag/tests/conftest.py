"""Shared fixtures: a retrieval built by hand, and the path of the shared data folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay_crag import AssembledContext, QualityInput, RankedChunk

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"


def _data(name: str) -> Path:
    """``../shared/data/<name>``; the test is skipped, naming it, when it is absent."""
    path = DATA / name
    if not path.exists():
        pytest.skip(
            f"needs ../shared/data/{name} (the shared data folder beside the repo; CI has it)"
        )
    return path


@pytest.fixture
def france() -> QualityInput:
    """Two chunks from two documents; the context covers 2 of 4 query terms."""
    return QualityInput(
        query="What is the capital of France and what is its population?",
        chunks=[
            RankedChunk(
                "Paris is the capital of France. It has 2.1 million people in 2023.",
                "d1",
                0.8,
                metadata={"sectionTitle": "Geo"},
            ),
            RankedChunk("Berlin is in Germany.", "d2", 0.4),
        ],
        context=AssembledContext("Paris is the capital of France. It has 2.1 million people.", 60),
    )


@pytest.fixture(scope="session")
def halueval_rows() -> list[dict[str, str]]:
    """The first 60 rows of HaluEval QA (read in place from ../shared/data)."""
    rows = []
    with _data("halueval_qa_dev.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            rows.append(json.loads(line))
            if len(rows) == 60:
                break
    return rows


@pytest.fixture(scope="session")
def hotpot_items() -> list[dict[str, object]]:
    """The 100 HotpotQA distractor questions (read in place from ../shared/data)."""
    return json.loads(_data("hotpotqa_distractor_100.json").read_text(encoding="utf-8"))
