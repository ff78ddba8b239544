"""A real Hugging Face ``datasets.Dataset`` in, as a user would pass one: built from HaluEval
rows (read in place from ../shared/data), with ragas column names and with assay's own, and a
``Sequence`` column of contexts. The ``datasets`` package is a test-only dependency (the
workspace's dev group), not one of assay-evaluation's."""

from __future__ import annotations

import json

import pytest
from shared_data import shared_path

import assay
from assay_evaluation import batch_to_wire, evaluate_batch, has_question, read_samples

datasets = pytest.importorskip(
    "datasets", reason="needs the datasets package (the workspace's dev dependency group)"
)


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    path = shared_path("data", "halueval_qa_dev.jsonl")
    with path.open(encoding="utf-8") as file:
        return [json.loads(line) for line, _ in zip(file, range(12), strict=False)]


@pytest.fixture
def registry():
    pytest.importorskip("assay_faithfulness", reason="needs the assay-faithfulness plugin")
    return assay.build_registry(env={"ASSAY_PLUGINS": "faithfulness"})


def _samples(rows: list[dict], answer: str) -> list[dict]:
    return [
        {"question": row["question"], "answer": row[answer], "contexts": [row["knowledge"]]}
        for row in rows
    ]


def test_a_dataset_gives_the_batch_its_rows_give(rows, registry):
    samples = _samples(rows, "right_answer")
    dataset = datasets.Dataset.from_list(samples)
    assert read_samples(dataset) == read_samples(samples)
    from_dataset = evaluate_batch(dataset, registry=registry)
    assert batch_to_wire(from_dataset) == batch_to_wire(evaluate_batch(samples, registry=registry))
    assert from_dataset.sample_count == len(rows)


def test_ragas_columns_of_a_dataset_are_recognised(rows, registry):
    """A ragas-style Dataset (``user_input``, ``response``, ``retrieved_contexts``): the right
    answers pass the default list, the hallucinated ones mostly fail."""
    rates = {}
    for answer in ("right_answer", "hallucinated_answer"):
        dataset = datasets.Dataset.from_dict(
            {
                "user_input": [row["question"] for row in rows],
                "response": [row[answer] for row in rows],
                "retrieved_contexts": [[row["knowledge"]] for row in rows],
            }
        )
        batch = evaluate_batch(dataset, registry=registry)
        assert [s.question for s in read_samples(dataset)] == [r["question"] for r in rows]
        rates[answer] = sum(r.passed for r in batch.results) / batch.sample_count
    assert rates["right_answer"] == 1.0
    assert rates["hallucinated_answer"] <= 0.25


def test_a_dataset_with_a_typo_in_a_column_is_warned_about(rows):
    samples = _samples(rows, "right_answer")
    dataset = datasets.Dataset.from_list(
        [
            {"questoin": s["question"], "answer": s["answer"], "contexts": s["contexts"]}
            for s in samples
        ]
    )
    with pytest.warns(UserWarning, match="did you mean 'question'"):
        read = read_samples(dataset)
    assert not any(has_question(sample) for sample in read)  # the column is ignored
