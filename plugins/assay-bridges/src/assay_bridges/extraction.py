"""Turning one evaluator's named metric values into scoring signals, with warnings.

The framework adapters (:mod:`~assay_bridges.ragas`, :mod:`~assay_bridges.deepeval`,
:mod:`~assay_bridges.trulens`) read their framework's shapes and hand each metric value to a
:class:`SignalCollector`, which applies one rule set everywhere:

* a metric is used only when a :class:`MetricMapping` names its signal (names are compared after
  :func:`normalize_metric_name`);
* ``None``, NaN and non-numbers are *not provided*, never 0;
* the value is rescaled from the mapping's ``scale`` to 0-1 and turned around when lower is better;
* a value outside its scale, a metric that reported an error, a direction that cannot be known or
  contradicts the record, and a second metric for an already filled signal are not used;
* everything not used becomes a :class:`assay.ScoreWarning` saying why.
"""

from __future__ import annotations

import functools
import math
import numbers
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import attrs

import assay
from assay_bridges.signals import EvaluationSignals

__all__ = [
    "SCORE_SIGNALS",
    "BridgeResult",
    "Direction",
    "MetricMapping",
    "MetricMappings",
    "SignalCollector",
    "WarningCode",
    "describe_shape",
    "is_real_number",
    "normalize_metric_name",
    "record_field",
    "resolve_mappings",
    "unreadable",
]

Direction = Literal["higher", "lower", "infer"]

SCORE_SIGNALS: tuple[str, ...] = (
    "faithfulnessScore",
    "answerRelevanceScore",
    "citationCoverageScore",
)
"""The signals a framework metric can fill: the 0-1 scores of the scoring inputs."""


class WarningCode:
    """The stable codes of the warnings a framework bridge returns."""

    UNMAPPED = "evaluator-metric-unmapped"
    """A metric has no scoring signal (severity info); map it with ``metrics=`` to use it."""
    UNDETERMINED = "evaluator-metric-undetermined"
    """A mapped metric has no value (``None``, NaN, not a number, pending): not provided."""
    FAILED = "evaluator-metric-failed"
    """A mapped metric reported an error or a failed status."""
    OUT_OF_RANGE = "evaluator-score-out-of-range"
    """A mapped metric's value lies outside its declared scale."""
    DIRECTION_UNKNOWN = "evaluator-direction-unknown"
    """The mapping asks to infer the direction and the record does not reveal it."""
    DIRECTION_CONFLICT = "evaluator-direction-conflict"
    """The record's own direction contradicts the mapping's."""
    DUPLICATE = "evaluator-signal-duplicate"
    """A second metric maps to a signal already filled (severity info); the first one wins."""
    MAPPING_UNMATCHED = "evaluator-mapping-unmatched"
    """A caller's metric mapping (``metrics=``, ``--map``) matched no metric of the input."""
    CALLER_SET = "evaluator-signal-caller-set"
    """The scoring inputs already set a bridged signal (severity info); the caller's value stays."""


def is_real_number(value: Any) -> bool:
    """A real number (NaN and infinities included), never a boolean. Wider than
    :func:`assay_scorecard.signals.is_number` on purpose: frames and evaluators hand over NumPy scalars
    (``numpy.float32``, ``numpy.int64``) that are not Python floats."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_nan(value: Any) -> bool:
    """``math.isnan`` that is False (not ``OverflowError``) for an int beyond float range."""
    try:
        return math.isnan(value)
    except OverflowError:
        return False


def record_field(record: Any, *names: str) -> Any:
    """The first of ``names`` present on ``record`` (a dict key, or an attribute of an object),
    else ``None``: evaluator results arrive both as objects and as their JSON dicts."""
    for name in names:
        if isinstance(record, Mapping):
            if name in record:
                return record[name]
        elif hasattr(record, name):
            return getattr(record, name)
    return None


_SEPARATORS = re.compile(r"[\s\-]+")


def describe_shape(value: Any) -> str:
    """What ``value`` is, in a few words, for an error that says what was found: ``an object
    with keys a, b, c`` (the first eight), ``a list of 3 items``, ``a str``."""
    if isinstance(value, Mapping):
        keys = [str(key) for key in value]
        shown = ", ".join(keys[:8]) + (f", ... ({len(keys)} keys)" if len(keys) > 8 else "")
        return f"an object with keys {shown}" if keys else "an empty object"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    return f"a {type(value).__name__}"


def _keys_holding(value: Any, accepted: Callable[[Any], bool], depth: int = 3) -> list[str]:
    """The dotted key paths (``evaluate.scores``) of the objects within ``depth`` levels of
    ``value`` whose values ``accepted`` takes: where a file that wraps results keeps them."""
    if not isinstance(value, Mapping) or depth == 0:
        return []
    found = []
    for key, inner in value.items():
        if accepted(inner):
            found.append(str(key))
        else:
            found += [f"{key}.{below}" for below in _keys_holding(inner, accepted, depth - 1)]
    return found


def unreadable(
    message: str, found: Any, accepted: Callable[[Any], bool], what: str, path: str
) -> assay.AssayError:
    """``MALFORMED_INPUT`` at ``path`` for input no bridge shape fits: ``message`` (with
    ``{found}`` replaced by :func:`describe_shape` of ``found``), then the key paths of ``found``
    under which ``accepted`` input sits (``; <what> were found under a.b, c: pass that part
    (assay bridge ... --path a.b)``)."""
    where = _keys_holding(found, accepted)
    hint = (
        f"; {what} were found under {', '.join(where)}: pass that part "
        f"(on the command line: --path {where[0]})"
        if where
        else ""
    )
    return assay.AssayError(
        assay.ErrorCode.MALFORMED_INPUT, message.format(found=describe_shape(found)) + hint, path
    )


@functools.lru_cache(maxsize=4096)
def normalize_metric_name(name: str) -> str:
    """Lower case, runs of spaces and dashes as one underscore: ``"Answer Relevancy"`` ->
    ``"answer_relevancy"``. Other characters are kept (``"rouge_score(mode=fmeasure)"``).
    Cached: evaluators repeat the same few names on every record."""
    return _SEPARATORS.sub("_", name.strip().lower())


def _warning_tuple(value: Iterable[assay.ScoreWarning]) -> tuple[assay.ScoreWarning, ...]:
    """Typed tuple converter (keeps mypy aware of the element type)."""
    return tuple(value)


@attrs.frozen
class MetricMapping:
    """How one evaluator metric becomes one scoring signal.

    Attributes:
        signal: the target signal's wire name, one of :data:`SCORE_SIGNALS`.
        scale: ``(low, high)`` of the metric's native scale; a value ``v`` becomes
            ``(v - low) / (high - low)`` (a 0-3 Likert judge: ``(0, 3)``).
        direction: ``"higher"`` when a higher value is better, ``"lower"`` when lower is better
            (the value is then turned around: ``1 - x``), ``"infer"`` to take the direction from the
            record (a DeepEval score against its threshold and success flag, a TruLens direction
            column) and warn when it does not tell.

    :raises AssayError: ``INVALID_CONFIG`` for an unknown signal, a scale that is not two finite
        numbers with ``low < high``, or an unknown direction.
    """

    signal: str
    scale: tuple[float, float] = attrs.field(default=(0.0, 1.0), converter=tuple)
    direction: Direction = "higher"

    def __attrs_post_init__(self) -> None:
        if self.signal not in SCORE_SIGNALS:
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG,
                f"{self.signal!r} is not a score signal; expected one of {', '.join(SCORE_SIGNALS)}",
                "signal",
            )
        low_high_ok = len(self.scale) == 2 and all(
            is_real_number(bound) and math.isfinite(bound) for bound in self.scale
        )
        if not low_high_ok or not self.scale[0] < self.scale[1]:
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG,
                f"scale must be two finite numbers (low, high) with low < high, got {self.scale!r}",
                "scale",
            )
        if self.direction not in ("higher", "lower", "infer"):
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG,
                f"direction must be 'higher', 'lower' or 'infer', got {self.direction!r}",
                "direction",
            )

    def normalize(self, value: float, higher_is_better: bool) -> float:
        """``value`` on 0-1, higher always better."""
        low, high = self.scale
        share = (value - low) / (high - low)
        return share if higher_is_better else 1 - share


MetricMappings = Mapping[str, "MetricMapping | str | None"]
"""User mappings: metric name -> a :class:`MetricMapping`, a signal name (0-1, higher is better),
or ``None`` to ignore a metric that is mapped by default."""


def resolve_mappings(
    defaults: Mapping[str, MetricMapping], overrides: MetricMappings | None
) -> dict[str, MetricMapping]:
    """The defaults with ``overrides`` applied, keyed by normalized metric name.

    :raises AssayError: ``INVALID_CONFIG`` (path ``metrics.<name>``) for a value that is not a
        mapping, a signal name or ``None``, or names an unknown signal.
    """
    resolved = {normalize_metric_name(name): mapping for name, mapping in defaults.items()}
    if overrides is not None and not isinstance(overrides, Mapping):
        raise assay.AssayError(
            assay.ErrorCode.INVALID_CONFIG,
            f"expected an object of metric name -> mapping, got {type(overrides).__name__}",
            "metrics",
        )
    for name, mapping in (overrides or {}).items():
        if not isinstance(name, str):
            raise assay.AssayError(
                assay.ErrorCode.INVALID_CONFIG,
                f"a metric name must be a string, got {name!r}",
                "metrics",
            )
        key = normalize_metric_name(name)
        if mapping is None:
            resolved.pop(key, None)
            continue
        try:
            if isinstance(mapping, str):
                mapping = MetricMapping(mapping)
            if not isinstance(mapping, MetricMapping):
                raise assay.AssayError(
                    assay.ErrorCode.INVALID_CONFIG,
                    "expected a MetricMapping, a signal name or None, "
                    f"got {type(mapping).__name__}",
                )
        except assay.AssayError as error:
            raise assay.AssayError(error.code, error.message, f"metrics.{name}") from error
        resolved[key] = mapping
    return resolved


def _string_dict(value: Mapping[str, str]) -> dict[str, str]:
    return dict(value)


@attrs.frozen
class BridgeResult:
    """The signals one evaluator record yields for one answer, and what could not be used.

    Attributes:
        signals: the extracted signals (0-1, higher is better).
        warnings: one :class:`assay.ScoreWarning` per metric value not used, in record order;
            ``path`` names the metric as the evaluator spelled it.
        sources: for each filled signal (wire name), the metric it came from.
        sample_id: what identifies the answer in the evaluator's output (a RAGAS ``user_input``,
            a DeepEval test case name, a TruLens ``record_id``), when known.
    """

    signals: EvaluationSignals
    warnings: tuple[assay.ScoreWarning, ...] = attrs.field(converter=_warning_tuple, factory=tuple)
    sources: Mapping[str, str] = attrs.field(factory=dict, converter=_string_dict)
    sample_id: str | None = None

    def to_wire(self) -> dict[str, Any]:
        """JSON-ready ``{sampleId, signals, sources, warnings}`` (non-finite numbers never occur:
        undetermined values are left out)."""
        return {
            "sampleId": self.sample_id,
            "signals": self.signals.to_wire(),
            "sources": dict(self.sources),
            "warnings": [attrs.asdict(warning) for warning in self.warnings],
        }


def _value_of(raw: Any) -> Any:
    """A metric cell's number: the cell itself, or the ``value`` of a result object / dict (a
    RAGAS ``MetricResult``)."""
    if isinstance(raw, Mapping):
        return raw.get("value")
    if not is_real_number(raw) and hasattr(raw, "value") and not isinstance(raw, str):
        return raw.value
    return raw


class SignalCollector:
    """Accumulates metric values into one :class:`BridgeResult` (see the module rules).

    Not thread-safe; make one per record.
    """

    def __init__(self, mappings: Mapping[str, MetricMapping]) -> None:
        self._mappings = mappings
        self._values: dict[str, float] = {}
        self._sources: dict[str, str] = {}
        self._warnings: list[assay.ScoreWarning] = []

    def is_mapped(self, name: str) -> bool:
        """Whether ``name`` has a mapping."""
        return normalize_metric_name(name) in self._mappings

    def warn(self, code: str, severity: str, message: str, path: str) -> None:
        """Record a warning about the metric at ``path``."""
        self._warnings.append(assay.ScoreWarning(code, severity, message, path))

    def offer(
        self,
        name: str,
        raw: Any,
        *,
        stated_higher_is_better: bool | None = None,
        error: str | None = None,
    ) -> None:
        """Offer metric ``name`` with cell ``raw``.

        :param stated_higher_is_better: the direction the record itself states or implies, if any.
        :param error: the evaluator's error text for this metric, if it reported one.
        """
        mapping = self._mappings.get(normalize_metric_name(name))
        if mapping is None:
            self.warn(
                WarningCode.UNMAPPED,
                "info",
                f"metric {name!r} maps to no scoring signal; to use it, map it: --map "
                f"{name}=SIGNAL on the command line, metrics={{{name!r}: ...}} in Python",
                name,
            )
            return
        if error:
            self.warn(WarningCode.FAILED, "warn", f"metric {name!r} failed: {error}", name)
            return
        value = _value_of(raw)
        if not is_real_number(value) or _is_nan(value):
            self.warn(
                WarningCode.UNDETERMINED,
                "warn",
                f"metric {name!r} is undetermined ({value!r}); {mapping.signal} not provided "
                "(not taken as 0)",
                name,
            )
            return
        low, high = mapping.scale
        if not low <= value <= high:
            self.warn(
                WarningCode.OUT_OF_RANGE,
                "warn",
                f"metric {name!r} = {value!r} lies outside its scale [{low:g}, {high:g}]",
                name,
            )
            return
        higher_is_better = self._direction(name, mapping, stated_higher_is_better)
        if higher_is_better is None:
            return
        if mapping.signal in self._values:
            self.warn(
                WarningCode.DUPLICATE,
                "info",
                f"{mapping.signal} already taken from {self._sources[mapping.signal]!r}; "
                f"metric {name!r} not used",
                name,
            )
            return
        self._values[mapping.signal] = mapping.normalize(float(value), higher_is_better)
        self._sources[mapping.signal] = name

    def _direction(self, name: str, mapping: MetricMapping, stated: bool | None) -> bool | None:
        if mapping.direction == "infer":
            if stated is None:
                self.warn(
                    WarningCode.DIRECTION_UNKNOWN,
                    "warn",
                    f"cannot tell whether a higher {name!r} is better from this record; "
                    "map it with MetricMapping(..., direction='higher' or 'lower') in Python",
                    name,
                )
            return stated
        wanted = mapping.direction == "higher"
        if stated is not None and stated != wanted:
            self.warn(
                WarningCode.DIRECTION_CONFLICT,
                "warn",
                f"the record says a {'higher' if stated else 'lower'} {name!r} is better, the "
                f"mapping says {mapping.direction}; not used",
                name,
            )
            return None
        return wanted

    def result(self, sample_id: str | None = None) -> BridgeResult:
        """The signals and warnings collected so far."""
        return BridgeResult(
            signals=EvaluationSignals(
                faithfulness_score=self._values.get("faithfulnessScore"),
                answer_relevance_score=self._values.get("answerRelevanceScore"),
                citation_coverage_score=self._values.get("citationCoverageScore"),
            ),
            warnings=self._warnings,
            sources=self._sources,
            sample_id=sample_id,
        )
