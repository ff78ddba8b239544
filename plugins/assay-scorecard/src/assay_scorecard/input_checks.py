"""The input checks every scorecard runs on the common ScoringInputs fields.

Dimension-specific checks (freshness dates, corpus counts, required relevance, index integrity)
come from each active dimension's ``check_inputs``; these are the ones on fields the core's
input type owns: documentsSilent, candidates, claimSupport, faithfulnessScore,
citationCoverageScore (:func:`check_common_inputs`, as transparent-confidence 0.3 checks them),
and the type and spelling of every other ScoringInputs value (:func:`common_value_problems`,
which transparent-confidence 0.3 does not check: see :mod:`assay_scorecard.field_checks`).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import attrs

from assay import AssayError, ErrorCode, ScoreWarning
from assay.wire import to_camel
from assay_scorecard.signals import (
    DOCUMENTS_SILENT,
    MISSING_CANDIDATES,
    claim_support_problem,
    closest_name,
    is_finite_number,
)
from assay_scorecard.types import ScoringInputs

__all__ = [
    "COMMON_VALUE_RULES",
    "INVALID_VALUE",
    "MISSING_SIGNALS",
    "ValueRule",
    "check_common_inputs",
    "common_value_problems",
    "value_problem",
    "value_rules",
]

MISSING_SIGNALS = {MISSING_CANDIDATES.code: "candidates"}
"""Which missing input signal each warning code of these checks means (for
``meta.missingSignals``; dimensions declare theirs as ``missing_signals``)."""

_COMBINED = "Candidate combinedScore should be a finite number in the 0-1 range."
_METHOD = "Retrieval method scores should be finite numbers in the 0-1 range."


def _in_unit_range(value: Any) -> bool:
    kind = type(value)
    if kind is float or kind is int:  # fast path; NaN and infinities fail the comparison
        return bool(0 <= value <= 1)
    return is_finite_number(value) and 0 <= value <= 1


def _malformed(message: str, path: str | None = None) -> AssayError:
    return AssayError(ErrorCode.MALFORMED_INPUT, message, path)


def _method_warnings(scores: Mapping[str, Any], index: int, warnings: list[ScoreWarning]) -> None:
    for method, score in scores.items():
        if not _in_unit_range(score):
            warnings.append(
                ScoreWarning(
                    "input-out-of-range",
                    "warn",
                    _METHOD,
                    f"candidates[{index}].retrievalScores.{method}",
                )
            )


def _check_candidates(candidates: Any, warnings: list[ScoreWarning]) -> None:
    """Structure and range checks of every candidate, in order (see check_common_inputs)."""
    for index, candidate in enumerate(candidates):
        if type(candidate) is not dict and not isinstance(candidate, Mapping):
            raise _malformed("a candidate must be an object", f"candidates[{index}]")
        scores = candidate.get("retrievalScores")
        if type(scores) is not dict and not isinstance(scores, Mapping):
            raise _malformed(
                "retrievalScores must be an object of method -> score",
                f"candidates[{index}].retrievalScores",
            )
        combined = candidate.get("combinedScore")
        if not (type(combined) is float and 0 <= combined <= 1) and not _in_unit_range(combined):
            warnings.append(
                ScoreWarning(
                    "input-out-of-range", "warn", _COMBINED, f"candidates[{index}].combinedScore"
                )
            )
        for score in scores.values():
            if not (type(score) is float and 0 <= score <= 1) and not _in_unit_range(score):
                _method_warnings(scores, index, warnings)
                break


def check_common_inputs(inputs: Any) -> list[ScoreWarning]:
    """The common part of V, in the reference's order, and the structure check.

    :raises AssayError: ``MALFORMED_INPUT`` for input the scorer cannot read at all: not an
        object, no ``candidates`` array, a candidate that is not an object or has no
        ``retrievalScores`` object (the reference crashes with a TypeError on these).
    """
    if type(inputs) is not dict and not isinstance(inputs, Mapping):
        raise _malformed(f"scoring inputs must be a JSON object, not {type(inputs).__name__}")
    candidates = inputs.get("candidates")
    if type(candidates) is not list and not isinstance(candidates, list | tuple):
        raise _malformed("candidates must be an array of candidates", "candidates")
    warnings: list[ScoreWarning] = []
    if inputs.get("documentsSilent") is True:
        warnings.append(DOCUMENTS_SILENT)
    if not candidates:
        warnings.append(MISSING_CANDIDATES)
    # the common case first: dict candidates whose scores are all floats in 0-1 (nothing to
    # report); at the first other one, the full check below runs over every candidate
    for candidate in candidates:
        if type(candidate) is dict:
            scores = candidate.get("retrievalScores")
            combined = candidate.get("combinedScore")
            if type(scores) is dict and type(combined) is float and 0 <= combined <= 1:
                for score in scores.values():
                    if not (type(score) is float and 0 <= score <= 1):
                        break
                else:
                    continue
        _check_candidates(candidates, warnings)
        break
    if "claimSupport" in inputs:
        problem = claim_support_problem(inputs["claimSupport"])
        if problem:
            warnings.append(ScoreWarning("input-out-of-range", "warn", problem, "claimSupport"))
    for key in ("faithfulnessScore", "citationCoverageScore"):
        if key in inputs and not _in_unit_range(inputs[key]):
            warnings.append(
                ScoreWarning(
                    "input-out-of-range",
                    "warn",
                    f"{key} should be a finite number in the 0-1 range.",
                    key,
                )
            )
    return warnings


# ------------------------------------------------------------------ value types and spellings
INVALID_VALUE = "invalid-value"
"""Warning code: a value of the wrong type, or a string that is not one of the field's values
(``"High"`` for ``supportLevel``); its message names what was expected."""


class ValueRule(NamedTuple):
    """What one wire field accepts, read from its type annotation."""

    types: frozenset[type]
    """the Python types of the JSON values accepted, ``NoneType`` included (a provided null)"""
    choices: frozenset[str]
    """the accepted strings; empty when any value of those types is accepted"""
    expects: str
    """what is accepted, in words (``a boolean``, ``one of 'high', 'medium', 'low'``)"""


_NUMBER = frozenset({int, float})
_PLAIN: dict[Any, tuple[frozenset[type], str]] = {
    bool: (frozenset({bool}), "a boolean"),
    str: (frozenset({str}), "a string"),
    int: (_NUMBER, "a number"),
    float: (_NUMBER, "a number"),
}
_LIST = (frozenset({list, tuple}), "an array")
_OBJECT = (frozenset({dict}), "an object")


def _rule_of(hint: Any) -> ValueRule | None:
    """The rule of one annotation (``bool | None``, ``Literal[...]``, ``tuple[str, ...]``, an
    attrs record, ...), or ``None`` for a type without a JSON counterpart (a datetime)."""
    parts = (
        typing.get_args(hint)
        if typing.get_origin(hint) in (typing.Union, types.UnionType)
        else (hint,)
    )
    accepted: set[type] = {type(None)}
    choices: set[str] = set()
    expects: list[str] = []
    for part in parts:
        if part is type(None):
            continue
        origin = typing.get_origin(part)
        if origin is typing.Literal:
            choices.update(typing.get_args(part))
            accepted.add(str)
            expects.append("one of " + ", ".join(repr(c) for c in typing.get_args(part)))
            continue
        if part in _PLAIN:
            found = _PLAIN[part]
        elif origin in (tuple, list):
            found = _LIST
        elif attrs.has(part) or origin is Mapping or part is Mapping:
            found = _OBJECT
        else:
            return None
        accepted |= found[0]
        expects.append(found[1])
    return ValueRule(frozenset(accepted), frozenset(choices), " or ".join(dict.fromkeys(expects)))


def value_rules(record: type, *, skip: Iterable[str] = ()) -> dict[str, ValueRule]:
    """The rule of each field of the attrs class ``record``, by wire (camelCase) name, in field
    order; fields named (snake_case) in ``skip`` and fields of no JSON type are left out."""
    hints = typing.get_type_hints(record)
    skipped = set(skip)
    rules = {}
    for field in attrs.fields(record):
        rule = None if field.name in skipped else _rule_of(hints[field.name])
        if rule is not None:
            rules[to_camel(field.name)] = rule
    return rules


COMMON_VALUE_RULES: Mapping[str, ValueRule] = types.MappingProxyType(
    value_rules(
        ScoringInputs,
        # checked by check_common_inputs, in the reference's terms
        skip=("candidates", "claim_support", "faithfulness_score", "citation_coverage_score"),
    )
)
"""The value rules :func:`common_value_problems` applies: every ScoringInputs field but those
:func:`check_common_inputs` checks."""


def _cut(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _shown(value: Any) -> str:
    """``value`` in a few words: its JSON kind and, for a scalar, its text (cut at 40
    characters: a fuzzer's integer has thousands of digits)."""
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    text = _cut(repr(value))
    if isinstance(value, str):
        return f"the string {text}"
    if isinstance(value, int | float):
        return f"the number {text}"
    return f"a {type(value).__name__}"


def _accepts(value: Any, rule: ValueRule) -> bool:
    kind = type(value)
    if kind in rule.types:
        return True
    if kind is bool:  # not a number, as JavaScript's typeof reads it
        return False
    if dict in rule.types and isinstance(value, Mapping):
        return True
    return isinstance(value, tuple(rule.types))  # a subclass: a str enum, a float64, ...


def value_problem(path: str, value: Any, rule: ValueRule) -> ScoreWarning | None:
    """An ``invalid-value`` warning at ``path`` when ``value`` breaks ``rule``, else ``None``.

    A bool is not a number here; a string that is not one of the rule's choices is told the
    choice it was probably meant to be (``"High"`` -> ``"high"``).
    """
    if not _accepts(value, rule):
        return ScoreWarning(
            INVALID_VALUE, "warn", f"expected {rule.expects}, got {_shown(value)}", path
        )
    if rule.choices and isinstance(value, str) and value not in rule.choices:
        meant = closest_name(value, rule.choices)
        hint = f"; did you mean {meant!r}?" if meant else ""
        shown = _cut(repr(value))
        return ScoreWarning(INVALID_VALUE, "warn", f"{shown} is not {rule.expects}{hint}", path)
    return None


def common_value_problems(inputs: Mapping[str, Any]) -> list[ScoreWarning]:
    """``invalid-value`` warnings for the ScoringInputs values of a wrong type or spelling, in
    the order of ``inputs``' keys (:data:`COMMON_VALUE_RULES`; unknown keys are not looked at).

    transparent-confidence 0.3 reads such values without a word (``"High"`` scores as a low
    support level, ``"false"`` as a conflict); the scorer reports these warnings as
    :mod:`assay_scorecard.field_checks` describes.
    """
    problems = []
    for key, value in inputs.items():
        rule = COMMON_VALUE_RULES.get(key)
        if rule is not None:
            problem = value_problem(key, value, rule)
            if problem is not None:
                problems.append(problem)
    return problems
