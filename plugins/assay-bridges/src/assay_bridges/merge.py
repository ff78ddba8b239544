"""Fill the gaps in scoring inputs with evaluator signals, never overwriting the caller."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

import assay
from assay_bridges.extraction import BridgeResult, WarningCode
from assay_bridges.signals import SIGNAL_KEYS, EvaluationSignals

__all__ = ["MergeResult", "merge_evaluation_signals"]


def _warning_tuple(value: Iterable[assay.ScoreWarning]) -> tuple[assay.ScoreWarning, ...]:
    """Typed tuple converter (keeps mypy aware of the element type)."""
    return tuple(value)


@attrs.frozen
class MergeResult:
    """Scoring inputs with evaluator signals filled in (``EvaluationSignalMergeResult`` of the JSON
    input format).

    Attributes:
        inputs: a new wire-shape (camelCase) inputs dict: the caller's keys first, unchanged, then
            each filled signal key in :data:`~assay_bridges.SIGNAL_KEYS` order.
        warnings: what the bridge could not use: a :class:`BridgeResult`'s own warnings, then one
            ``evaluator-signal-caller-set`` (info) per bridged signal the inputs already had.
            Empty when plain signals are merged, as in the reference.
        filled: the keys that were taken from the signals, in the order they were appended.
    """

    inputs: dict[str, Any]
    warnings: tuple[assay.ScoreWarning, ...] = attrs.field(converter=_warning_tuple, factory=tuple)
    filled: tuple[str, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        """``{"inputs", "warnings"}`` as the reference returns it (warnings as
        ``{code, severity, message, path}`` objects)."""
        return {
            "inputs": self.inputs,
            "warnings": [attrs.asdict(warning) for warning in self.warnings],
        }


def merge_evaluation_signals(
    inputs: Mapping[str, Any],
    signals: EvaluationSignals | BridgeResult | Mapping[str, Any],
) -> MergeResult:
    """Copy ``inputs`` and fill each signal key it does not have from ``signals``.

    A key counts as set when it is present in ``inputs``, even with the value ``None`` (a JSON
    ``null``): the caller's choice is never overwritten. Only the eight keys of
    :data:`~assay_bridges.SIGNAL_KEYS` are filled; anything else in a signals dict is ignored, and
    a ``None`` signal value counts as absent. The copy is shallow: nested objects (candidates) are
    shared with ``inputs``.

    :param inputs: scoring inputs in the wire shape (camelCase keys, a ``candidates`` list).
    :param signals: an :class:`EvaluationSignals`, a :class:`BridgeResult` (its warnings are
        carried into the result, plus one per bridged signal the caller had already set) or a
        camelCase dict such as the reference's adapters return.
    :return: the merged inputs, the bridge's warnings, and which keys were filled.
    :raises AssayError: ``MALFORMED_INPUT`` when ``inputs`` is not a mapping (path ``inputs``) or
        its ``candidates`` is missing or not a list (path ``candidates``), or when ``signals`` is
        none of the accepted types.
    """
    if not isinstance(inputs, Mapping):
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            f"scoring inputs must be an object, got {type(inputs).__name__}",
            "inputs",
        )
    candidates = inputs.get("candidates")
    if not isinstance(candidates, Sequence) or isinstance(candidates, str | bytes):
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            "scoring inputs need a candidates array",
            "candidates",
        )
    warnings: list[assay.ScoreWarning] = []
    sources: Mapping[str, str] = {}
    if isinstance(signals, BridgeResult):
        warnings = list(signals.warnings)
        sources = signals.sources
        signals = signals.signals
    wire: Mapping[str, Any]
    if isinstance(signals, EvaluationSignals):
        wire = signals.to_wire()
    elif isinstance(signals, Mapping):
        wire = signals
    else:
        raise assay.AssayError(
            assay.ErrorCode.MALFORMED_INPUT,
            "signals must be EvaluationSignals, a BridgeResult or an object of signal keys, "
            f"got {type(signals).__name__}",
            "signals",
        )
    merged = dict(inputs)
    filled = []
    for key in SIGNAL_KEYS:
        if wire.get(key) is None:
            continue
        if key not in merged:
            merged[key] = wire[key]
            filled.append(key)
        elif key in sources:
            warnings.append(
                assay.ScoreWarning(
                    WarningCode.CALLER_SET,
                    "info",
                    f"inputs already set {key}; {sources[key]!r} from the evaluator was not used",
                    key,
                )
            )
    return MergeResult(inputs=merged, warnings=warnings, filled=tuple(filled))
