"""Reading the decision field out of a pipeline's JSON output.

The decision is the scalar at a dotted path (``answer.value``; a path part that is an integer
indexes into an array, ``answers.0.label``). Only scalars are supported (as the specification says):
an array or a nested object is an error, and so is a value that does not fit the declared type.
"""

from __future__ import annotations

import json
import math
from typing import Any

from assay_perturb.distances import is_finite_number

__all__ = ["DecisionError", "decision_from_output"]


class DecisionError(ValueError):
    """Why no decision could be read; ``reason`` is a stable short code.

    Reasons: ``invalid-json``, ``field-missing``, ``not-scalar``, ``wrong-type``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def _lookup(document: Any, field: str) -> Any:
    value = document
    walked: list[str] = []
    for part in field.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            where = ".".join(walked) or "the output"
            raise DecisionError(
                "field-missing",
                f"decision field {field!r} is missing ({part!r} not found in {where})",
            )
        walked.append(part)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def decision_from_output(stdout: str, field: str, decision_type: str) -> Any:
    """The decision in ``stdout`` (a JSON document) at ``field``, checked against the type.

    :param decision_type: ``"enum"`` / ``"string"`` accept a string, number or boolean (compared
        exactly); ``"numeric"`` accepts a finite number (not a boolean).
    ``NaN``, ``Infinity`` and numbers beyond the float range are refused as invalid JSON.

    :raises DecisionError: with reason ``invalid-json``, ``field-missing``, ``not-scalar`` (an
        array, an object or null) or ``wrong-type``.
    """
    try:
        document = json.loads(stdout, parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:
        message = "standard output is not usable JSON (nested too deeply)"
        raise DecisionError("invalid-json", message) from None
    except ValueError as exc:
        preview = stdout.strip()[:80] or "(empty output)"
        message = f"standard output is not JSON ({exc}): {preview!r}"
        raise DecisionError("invalid-json", message) from None
    value = _lookup(document, field)
    if isinstance(value, dict | list) or value is None:
        kind = (
            "a nested object"
            if isinstance(value, dict)
            else "an array"
            if value is not None
            else "null"
        )
        raise DecisionError(
            "not-scalar",
            f"decision field {field!r} is {kind}; only scalar decisions (enum, string, numeric) "
            "are supported",
        )
    if decision_type == "numeric" and not is_finite_number(value):
        raise DecisionError(
            "wrong-type", f"decision field {field!r} is {value!r}, not a finite number"
        )
    return value
