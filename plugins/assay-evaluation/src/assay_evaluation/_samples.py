"""Turning wire-shape sample objects into :class:`~assay.EvalSample`, with coded errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from assay import AssayError, EvalSample
from assay_evaluation._codes import EvaluationErrorCode as Code

__all__ = ["SampleWithoutQuestion", "coerce_sample", "has_question", "sample_to_wire"]


@attrs.frozen
class SampleWithoutQuestion(EvalSample):
    """A sample whose input had no question at all (no ``question`` field, or ``null``), as
    opposed to an explicit ``"question": ""``, which rag-eval-node-ts 0.3 scores as given. Its
    ``question`` is ``""``; metrics that need a question are not run on it."""


def has_question(sample: EvalSample) -> bool:
    """Whether ``sample`` came with a question (an explicit empty string counts as one)."""
    return type(sample) is not SampleWithoutQuestion


_KNOWN_KEYS = {"question", "answer", "contexts", "groundTruth", "ground_truth", "id", "metadata"}


def _contexts_problem(contexts: Any) -> str:
    """What is wrong with a ``contexts`` value that is not a list, and how to fix it."""
    if contexts is None:
        return (
            "contexts is missing: a sample needs a list of context strings ([] when there are none)"
        )
    if isinstance(contexts, str):
        return (
            'contexts must be a list of strings, got one string: wrap it in a list (["..."]) '
            "if it is one context"
        )
    return f"contexts must be a list of strings, got {type(contexts).__name__}"


def coerce_sample(value: EvalSample | Mapping[str, Any], path: str = "sample") -> EvalSample:
    """An :class:`~assay.EvalSample` from itself or from the JSON input format
    (``question``, ``answer``, ``contexts``, ``groundTruth``, ``id``, ``metadata``).

    An empty-string ``groundTruth`` counts as missing (as in rag-eval-node-ts 0.3). A numeric
    ``id`` becomes a string.

    :raises AssayError: ``MISSING_ANSWER`` when ``answer`` is absent or not a string;
        ``INVALID_CONTEXTS`` when ``contexts`` is missing or not a list of strings (a plain
        string is refused here: only a table cell is read as text); ``INVALID_SAMPLE`` for
        anything else of the wrong type (the path names the field).
    """
    if _already_coerced(value):
        return value  # type: ignore[return-value]
    if isinstance(value, EvalSample):
        fields: Mapping[str, Any] = {
            "question": value.question if has_question(value) else None,
            "answer": value.answer,
            "contexts": list(value.contexts),
            "groundTruth": value.ground_truth,
            "id": value.id,
            "metadata": value.metadata,
        }
    elif isinstance(value, Mapping):
        fields = value
    else:
        raise AssayError(Code.INVALID_SAMPLE, "a sample must be a JSON object", path)
    unknown = sorted(set(fields) - _KNOWN_KEYS)
    if unknown:
        raise AssayError(
            Code.INVALID_SAMPLE, f"unknown field(s) {', '.join(unknown)}", f"{path}.{unknown[0]}"
        )
    answer = fields.get("answer")
    if not isinstance(answer, str):
        what = "has no answer" if answer is None else f"answer must be a string, got {answer!r}"
        raise AssayError(Code.MISSING_ANSWER, f"the sample {what}", f"{path}.answer")
    question = fields.get("question")
    if question is not None and not isinstance(question, str):
        raise AssayError(Code.INVALID_SAMPLE, "question must be a string", f"{path}.question")
    contexts = fields.get("contexts")
    if isinstance(contexts, str | bytes) or not isinstance(contexts, list | tuple):
        raise AssayError(Code.INVALID_CONTEXTS, _contexts_problem(contexts), f"{path}.contexts")
    for index, chunk in enumerate(contexts):
        if not isinstance(chunk, str):
            raise AssayError(
                Code.INVALID_CONTEXTS,
                f"every context must be a string, got {type(chunk).__name__}",
                f"{path}.contexts[{index}]",
            )
    ground_truth = fields.get("groundTruth", fields.get("ground_truth"))
    if ground_truth is not None and not isinstance(ground_truth, str):
        raise AssayError(Code.INVALID_SAMPLE, "groundTruth must be a string", f"{path}.groundTruth")
    sample_id = fields.get("id")
    if isinstance(sample_id, bool) or not isinstance(sample_id, str | int | type(None)):
        raise AssayError(Code.INVALID_SAMPLE, "id must be a string or an integer", f"{path}.id")
    if isinstance(sample_id, int) and not -_MAX_ID <= sample_id <= _MAX_ID:
        raise AssayError(
            Code.INVALID_SAMPLE,
            "an integer id must lie between -10**18 and 10**18 (use a string for longer ids)",
            f"{path}.id",
        )
    metadata = fields.get("metadata") or {}
    if not isinstance(metadata, Mapping):
        raise AssayError(Code.INVALID_SAMPLE, "metadata must be an object", f"{path}.metadata")
    return (EvalSample if question is not None else SampleWithoutQuestion)(
        question=question or "",
        answer=answer,
        contexts=tuple(contexts),
        ground_truth=ground_truth or None,
        id=None if sample_id is None else str(sample_id),
        metadata=metadata,
    )


def _already_coerced(value: Any) -> bool:
    """Whether ``value`` is a sample :func:`coerce_sample` would rebuild into an equal one of
    its own type (strings where strings belong, no empty ground truth, no integer id), so it
    can be used as it is."""
    kind = type(value)
    if kind is not EvalSample and kind is not SampleWithoutQuestion:
        return False
    ground_truth, sample_id = value.ground_truth, value.id
    return (
        type(value.answer) is str
        and type(value.question) is str
        and (kind is EvalSample or not value.question)
        and (ground_truth is None or (type(ground_truth) is str and ground_truth != ""))
        and (sample_id is None or type(sample_id) is str)
        and all(type(chunk) is str for chunk in value.contexts)
        and isinstance(value.metadata, dict)
    )


_MAX_ID = 10**18
"""Largest integer id accepted; longer ids are refused rather than turned into huge strings."""


def sample_to_wire(sample: EvalSample) -> dict[str, Any]:
    """The JSON input format of ``sample``; absent fields are left out."""
    wire: dict[str, Any] = {"answer": sample.answer, "contexts": list(sample.contexts)}
    if has_question(sample):
        wire = {"question": sample.question, **wire}
    if sample.ground_truth is not None:
        wire["groundTruth"] = sample.ground_truth
    if sample.id is not None:
        wire["id"] = sample.id
    if sample.metadata:
        wire["metadata"] = dict(sample.metadata)
    return wire
