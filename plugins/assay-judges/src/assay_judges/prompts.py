"""Default prompt templates of the judge-backed metrics, and the override mechanism.

Templates use ``str.format`` fields: ``{question}``, ``{answer}``, ``{context}`` (numbered
chunks), ``{chunk}``, ``{claims}`` / ``{sentences}`` (numbered lines) and ``{count}``. Literal
braces are doubled. ``options.prompt_overrides[metric_id]`` replaces a metric's templates: a
string replaces its last (scoring) step, a mapping replaces the named steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any

import assay
from assay_evaluation import EvaluationErrorCode as Code

__all__ = ["DEFAULT_TEMPLATES", "fill", "numbered", "templates_for"]

DEFAULT_TEMPLATES: dict[str, dict[str, str]] = {
    "faithfulness": {
        "extract": (
            "Break the ANSWER into short, standalone factual claims. Keep each claim's numbers, "
            "names and dates. Reply with a JSON array of strings and nothing else.\n\n"
            "QUESTION: {question}\nANSWER: {answer}"
        ),
        "verify": (
            "For each numbered CLAIM, decide whether the CONTEXT states or directly implies it. "
            "Reply with a JSON array of {count} objects, in order, each "
            '{{"claim": <number>, "supported": true or false}}, and nothing else.\n\n'
            "CONTEXT:\n{context}\n\nCLAIMS:\n{claims}"
        ),
    },
    "answer_relevance": {
        "rate": (
            "Rate from 0 to 1 how directly and completely the ANSWER addresses the QUESTION "
            "(1: fully answers it; 0: unrelated or evasive). Ignore whether it is true. "
            'Reply with JSON {{"score": <number>}} and nothing else.\n\n'
            "QUESTION: {question}\nANSWER: {answer}"
        ),
    },
    "context_precision": {
        "judge_chunk": (
            "Is the CONTEXT useful for answering the QUESTION? Reply with JSON "
            '{{"verdict": 1}} if it is, {{"verdict": 0}} if not, and nothing else.\n\n'
            "QUESTION: {question}\nCONTEXT: {chunk}"
        ),
    },
    "context_recall": {
        "attribute": (
            "For each numbered SENTENCE of the reference answer, decide whether it can be "
            "attributed to the CONTEXT. Reply with a JSON array of {count} objects, in order, "
            'each {{"sentence": <number>, "attributed": true or false}}, and nothing else.\n\n'
            "QUESTION: {question}\nCONTEXT:\n{context}\n\nSENTENCES:\n{sentences}"
        ),
    },
}
"""metric id -> step name -> template."""


def templates_for(metric_id: str, override: Any) -> dict[str, str]:
    """The templates of ``metric_id`` with ``override`` applied (see the module docstring).

    :raises assay.AssayError: ``INVALID_OPTION`` (path ``options.promptOverrides.<id>``) for an
        override of the wrong type, an unknown step, or a template with unbalanced braces.
    """
    templates = dict(DEFAULT_TEMPLATES[metric_id])
    path = f"options.promptOverrides.{metric_id}"
    if override is None:
        return templates
    if isinstance(override, str):
        override = {list(templates)[-1]: override}
    if not isinstance(override, Mapping):
        raise assay.AssayError(
            Code.INVALID_OPTION, "a prompt override is a string or an object", path
        )
    for step, template in override.items():
        if step not in templates or not isinstance(template, str):
            raise assay.AssayError(
                Code.INVALID_OPTION,
                f"{metric_id} has template steps {', '.join(templates)}; each is a string",
                f"{path}.{step}",
            )
        try:
            list(Formatter().parse(template))
        except ValueError as exc:
            raise assay.AssayError(
                Code.INVALID_OPTION, f"bad template: {exc}", f"{path}.{step}"
            ) from exc
        templates[step] = template
    return templates


def fill(template: str, values: Mapping[str, Any], metric_id: str, step: str) -> str:
    """``template`` with ``values`` filled in.

    :raises assay.AssayError: ``INVALID_OPTION`` for a field the step does not provide.
    """
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError) as exc:
        raise assay.AssayError(
            Code.INVALID_OPTION,
            f"template uses a field this step does not provide ({exc}); available: "
            f"{', '.join(sorted(values))}",
            f"options.promptOverrides.{metric_id}.{step}",
        ) from exc


def numbered(lines: list[str] | tuple[str, ...]) -> str:
    """``1. first\\n2. second``."""
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
