"""Composition: active Dimensions -> a normalized Scorecard -> a Policy's action.

A :class:`Scorer` is built once from a config (validated then) and a composition (dimension
objects in order, weights, a policy); :meth:`Scorer.compute` then scores one input with plain
function calls, no registry or hook lookups. :func:`compute_confidence` keeps the scorers it
builds in a bounded cache keyed by the config's canonical JSON and the registry's state, so a
call with a config of its own costs a lookup, not a validation.
"""

from __future__ import annotations

import copy
import math
import sys
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import orjson

from assay import (
    AssayError,
    Dimension,
    ErrorCode,
    Policy,
    Registry,
    ScoreWarning,
    default_registry,
)
from assay.jsmath import js_round
from assay_scorecard.field_checks import (
    check_config_fields,
    input_field_check,
    known_input_keys,
    report_field_problems,
)
from assay_scorecard.input_checks import MISSING_SIGNALS as _CHECKS_MISSING_SIGNALS
from assay_scorecard.input_checks import check_common_inputs
from assay_scorecard.policy import ScorecardEvidence
from assay_scorecard.presets import DEFAULT_PRESET, Preset
from assay_scorecard.signal_policy import SignalPolicy
from assay_scorecard.signals import is_finite_number
from assay_scorecard.types import (
    Scorecard,
    ScorecardMeta,
    ScoringConfig,
    ScoringInputs,
    TierResult,
)
from assay_scorecard.wire import scoring_config_to_wire, scoring_inputs_to_wire

__all__ = [
    "ALGORITHM_VERSION",
    "SCHEMA_VERSION",
    "SCORER_CACHE_SIZE",
    "Scorer",
    "cached_scorer",
    "compute_confidence",
    "create_scorer",
    "label_for",
    "tier2_label_for",
]

ALGORITHM_VERSION = "0.3.0"
SCHEMA_VERSION = "0.3"
SCORER_CACHE_SIZE = 1024
"""How many scorers :func:`compute_confidence` keeps (least recently used dropped first)."""

_TIER2_LABELS = ((85, "Complete", "green"), (65, "Good", "amber"), (40, "Partial", "orange"))
_NOT_ADDRESSED = TierResult(0, "Not Addressed", "gray")
_REQUIRED_SIGNAL_MISSING = "required-signal-missing"
_ASKED_YES, _ASKED_NO = (True,), (False,)
_DIMENSION_ATTRIBUTES = ("name", "tier", "max_points", "default_weight")


def label_for(score: float) -> tuple[str, str]:
    """Composite / Tier 1 label and colour: Strong >= 85, Moderate >= 65, Limited >= 40."""
    if score >= 85:
        return "Strong", "green"
    if score >= 65:
        return "Moderate", "amber"
    if score >= 40:
        return "Limited", "orange"
    return "Insufficient", "red"


def tier2_label_for(score: float) -> tuple[str, str]:
    """Tier 2 label and colour: Complete >= 85, Good >= 65, Partial >= 40, else Thin."""
    for floor, label, color in _TIER2_LABELS:
        if score >= floor:
            return label, color
    return "Thin", "red"


class _Tier:
    """A tier's result from its weighted points: ``round(scaled / weight * 100)`` and the label.

    A tier score is a whole number, 0 to 100 for valid inputs, so each :class:`TierResult` (an
    immutable record) is built once per score and shared.
    """

    __slots__ = ("_known", "_labeller")

    def __init__(self, labeller: Callable[[float], tuple[str, str]]) -> None:
        self._labeller = labeller
        self._known: dict[float, TierResult] = {}

    def result(self, scaled: float, weight: float) -> TierResult:
        """The tier of ``scaled`` points out of ``weight``."""
        score = js_round(scaled / weight * 100)
        tier = self._known.get(score)
        return tier if tier is not None else self.of(score)

    def of(self, score: float) -> TierResult:
        """The tier of a score already rounded (its label and colour)."""
        tier = self._known.get(score)
        if tier is None:
            label, color = self._labeller(score)
            tier = TierResult(score, label, color)
            if score == score and len(self._known) < 1024:  # NaN is never found: not kept
                self._known[score] = tier
        return tier


_composite = _Tier(label_for)  # the total and Tier 1 share their labels
_tier1 = _composite.result
_tier2 = _Tier(tier2_label_for).result
_labelled = _composite.of


class _Active(NamedTuple):
    """What scoring needs for one set of active dimensions (composition order)."""

    steps: tuple[tuple[Callable[..., Any], str, float, bool], ...]
    """(score method, name, weight, counts in tier 1) per dimension"""
    checks: tuple[Callable[..., Sequence[ScoreWarning]], ...]
    """their own input checks, in check order"""
    names: tuple[str, ...]
    extensions: tuple[str, ...]
    weights: dict[str, float]
    max_possible: float
    t1_weight: float
    t2_weight: float


class Scorer:
    """A configured composition of Dimensions and a Policy.

    Build one with :func:`create_scorer` (or directly) and call :meth:`compute` per answer.
    Thread-safe: holds no per-call state.

    :param config: wire-shape config (camelCase keys) or a :class:`ScoringConfig`.
    :param dimensions: Dimension objects in composition order (output, weights and totals follow
        this order): any object with the protocol's members; the optional ``is_active``,
        ``validate_config``, ``check_inputs``, ``extension``, ``check_order``,
        ``config_activated`` and ``missing_signals`` are read with their documented defaults.
    :param policy: decides the action from :class:`ScorecardEvidence`; it is configured with the
        config's ``actionPolicy`` when it has a ``configure`` method.
    :param preset: the preset whose signal policy applies.
    :raises AssayError: ``INVALID_CONFIG`` (with the field path) for an invalid config, or for a
        policy whose ``evidence_type`` is not :class:`ScorecardEvidence`;
        ``INVALID_PLUGIN_OBJECT`` for a dimension or policy given as a class, or lacking a member
        of its protocol.
    """

    def __init__(
        self,
        config: ScoringConfig | Mapping[str, Any] | None,
        dimensions: Sequence[Dimension],
        policy: Policy,
        preset: Preset,
    ) -> None:
        wire = scoring_config_to_wire(config)
        for key, value in preset.config.items():
            # the caller's keys win; a section both give is merged one level deep
            mine = wire.get(key)
            if isinstance(mine, Mapping) and isinstance(value, Mapping):
                wire[key] = {**value, **mine}
            else:
                wire.setdefault(key, value)
        self.config: Mapping[str, Any] = wire
        self.preset = preset
        for dimension in dimensions:
            _check_dimension(dimension)
        self.dimensions: tuple[Dimension, ...] = tuple(dimensions)
        if not self.dimensions:
            raise AssayError(
                ErrorCode.INVALID_CONFIG,
                f"no dimension to score with: none of preset {preset.name!r}'s dimensions "
                f"({', '.join(preset.dimensions)}) is provided by an installed plugin",
            )
        names = [d.name for d in self.dimensions]
        if len(set(names)) != len(names):
            raise AssayError(
                ErrorCode.INVALID_CONFIG, f"a dimension appears twice in the composition: {names}"
            )
        _check_policy(policy)
        for key in ("actionPolicy", "signalPolicy"):
            if wire.get(key) is not None and not isinstance(wire[key], Mapping):
                raise AssayError(
                    ErrorCode.INVALID_CONFIG,
                    f"{key} must be an object, not {type(wire[key]).__name__}",
                    key,
                )
        section = ""
        try:  # a value of the wrong type deep in a section: INVALID_CONFIG naming the section
            for dimension in self.dimensions:
                validate = _own_method(dimension, "validate_config")
                if validate is not None:
                    section = dimension.name
                    validate(wire)
            section = "weights"
            self.weights = self._resolve_weights(wire.get("weights"))
            section = "actionPolicy"
            configure = getattr(policy, "configure", None)
            self.policy: Policy = configure(wire.get("actionPolicy")) if configure else policy
            section = "signalPolicy"
            self.signal_policy = SignalPolicy.merged(preset, wire.get("signalPolicy"))
        except AssayError:
            raise
        except (TypeError, AttributeError, ValueError, OverflowError, KeyError) as exc:
            raise AssayError(
                ErrorCode.INVALID_CONFIG,
                f"a value of the wrong type or size in {section}: {type(exc).__name__}: {exc}",
                section,
            ) from exc
        self.strict = wire.get("validation") == "strict"
        # warning code -> the input signal it says is missing: the scorecard's own codes, then
        # what each dimension declares (the first to name a code keeps it)
        missing_signal_of = dict(_CHECKS_MISSING_SIGNALS)
        for dimension in self.dimensions:
            for code, signal in getattr(dimension, "missing_signals", {}).items():
                missing_signal_of.setdefault(code, signal)
        self._signal_of = missing_signal_of
        self.missing_signal_of: Mapping[str, str] = types.MappingProxyType(missing_signal_of)

        # The plan, one entry per dimension that may take part: (dimension, is_active when it
        # is asked per answer, else None). A config-activated dimension is asked now, once, and
        # left out when inactive.
        plan: list[tuple[Dimension, Callable[..., Any] | None]] = []
        for d in self.dimensions:
            is_active = _own_method(d, "is_active")
            if is_active is not None and getattr(d, "config_activated", False):
                if not is_active({}, wire):
                    continue
                is_active = None
            plan.append((d, is_active))
        self._plan = tuple(plan)
        # unknown and misspelled input fields: known from the JSON input format and what the
        # dimensions that may take part read
        self._field_check = input_field_check(known_input_keys(d for d, _ in plan))
        self._askers = tuple(ask for _, ask in plan if ask is not None)
        # what scoring needs per set of active dimensions, made when first needed
        self._actives: dict[tuple[bool, ...], _Active] = {}
        self._all = self._active(tuple(True for _ in self._askers))
        self._evaluate = None if self.signal_policy.is_empty else self.signal_policy.evaluate
        self._decide = self.policy.decide

    def _active(self, asked: tuple[bool, ...]) -> _Active:
        """The :class:`_Active` of the dimensions that take part when the asked ones answered
        ``asked`` (in plan order)."""
        answers = iter(asked)
        dimensions = [d for d, ask in self._plan if ask is None or next(answers)]
        weights = {d.name: self.weights[d.name] for d in dimensions}
        max_possible = t1_weight = t2_weight = 0.0
        for d in dimensions:  # summed in order, as the scaled points are
            weight = weights[d.name]
            max_possible += weight
            if d.tier == 1:
                t1_weight += weight
            else:
                t2_weight += weight
        # input checks in check order
        checkers = sorted(dimensions, key=lambda d: getattr(d, "check_order", 1_000))
        active = _Active(
            tuple((d.score, d.name, weights[d.name], d.tier == 1) for d in dimensions),
            tuple(c for d in checkers if (c := _own_method(d, "check_inputs")) is not None),
            tuple(weights),
            tuple(d.name for d in dimensions if getattr(d, "extension", True)),
            weights,
            max_possible,
            t1_weight,
            t2_weight,
        )
        self._actives[asked] = active
        return active

    def _resolve_weights(self, weights: Any) -> dict[str, float]:
        weights = weights or {}
        if not isinstance(weights, Mapping):
            raise AssayError(ErrorCode.INVALID_CONFIG, "weights must be an object", "weights")
        for name, value in weights.items():
            if not is_finite_number(value) or value <= 0:
                raise AssayError(
                    ErrorCode.INVALID_CONFIG,
                    f"weight must be a finite number greater than 0, got {value!r}",
                    f"weights.{name}",
                )
        resolved = {d.name: weights.get(d.name, d.default_weight) for d in self.dimensions}
        if not math.isfinite(sum(float(w) for w in resolved.values())):
            raise AssayError(
                ErrorCode.INVALID_CONFIG,
                "the weights sum to more than a float can hold; scale them down (only their "
                "ratios matter)",
                "weights",
            )
        return resolved

    def field_problems(self, data: Mapping[str, Any]) -> Sequence[ScoreWarning]:
        """The ``unknown-field`` and ``invalid-value`` warnings :meth:`compute` would report for
        the keys of ``data`` (wire shape, camelCase): keys no part of this scorer reads, values
        of the wrong type or case. Empty when every key is known and every value of its type.
        """
        return self._field_check(data)

    # ------------------------------------------------------------------ scoring
    def compute(self, inputs: ScoringInputs | Mapping[str, Any]) -> Scorecard:
        """Score one answer.

        :param inputs: wire-shape dict (camelCase) or :class:`ScoringInputs`.
        :return: the :class:`Scorecard`.
        :raises AssayError: ``MALFORMED_INPUT`` for structurally broken input (a value of a type
            or size no dimension can read included: an integer beyond float range is named by
            its path); ``INVALID_INPUT`` (path and message of the first input problem) in
            strict mode. Nothing else escapes.
        """
        try:
            return self._compute(inputs)
        except AssayError:
            raise
        except (TypeError, AttributeError, ValueError, OverflowError, KeyError, IndexError) as exc:
            path = _too_big_for_float(inputs, "") if isinstance(inputs, Mapping) else None
            what = "an integer beyond float range" if path else "a value of the wrong type"
            raise AssayError(
                ErrorCode.MALFORMED_INPUT,
                f"cannot score these inputs: {what} ({type(exc).__name__}: {exc})",
                path or None,
            ) from exc

    def _compute(self, inputs: ScoringInputs | Mapping[str, Any]) -> Scorecard:
        data = inputs if type(inputs) is dict else scoring_inputs_to_wire(inputs)
        warnings = check_common_inputs(data)  # raises MALFORMED_INPUT on broken structure
        config = self.config
        askers = self._askers
        if not askers:
            active = self._all
        else:
            asked: tuple[bool, ...]
            if len(askers) == 1:
                asked = _ASKED_YES if askers[0](data, config) else _ASKED_NO
            else:
                asked = tuple([bool(ask(data, config)) for ask in askers])
            active = self._actives.get(asked) or self._active(asked)
        for check in active.checks:
            warnings.extend(check(data, config))
        if warnings and self.strict:
            first = warnings[0]
            raise AssayError(ErrorCode.INVALID_INPUT, first.message, first.path)
        fields = self._field_check(data)  # (): every key known, every value of its type
        if fields:  # after the problems the reference reports: strict raises those first
            report_field_problems(fields, strict=self.strict, code=ErrorCode.INVALID_INPUT)

        # every dimension's points, scaled to its weight, summed (in composition order) per tier
        scores: dict[str, Any] = {}
        raw_total = t1_scaled = t2_scaled = 0.0
        for score_of, name, weight, tier1_member in active.steps:
            score = score_of(data, config)
            scores[name] = score
            scaled = score.raw / score.max * weight
            raw_total += scaled
            if tier1_member:
                t1_scaled += scaled
            else:
                t2_scaled += scaled
            if score.warnings:
                warnings.extend(score.warnings)
        max_possible = active.max_possible
        if max_possible:
            percent = raw_total / max_possible * 100
            # clamped to 0-100; NaN passes through
            total = js_round(100.0 if percent > 100 else 0.0 if percent < 0 else percent)
        else:
            total = 0.0

        documents_silent = data.get("documentsSilent") is True
        if documents_silent:
            tier1: TierResult | None = _NOT_ADDRESSED
        elif active.t1_weight:
            tier1 = _tier1(t1_scaled, active.t1_weight)
        else:
            tier1 = None
        tier2 = _tier2(t2_scaled, active.t2_weight) if active.t2_weight else None

        # input problems, then each dimension's warnings, then the signal policy's; the first
        # of identical (code, path, message) is kept
        if self._evaluate is None:
            abstain_missing: Sequence[str] = ()
            review_missing: Sequence[str] = ()
        else:
            outcome = self._evaluate(data)
            warnings.extend(outcome.warnings)
            abstain_missing, review_missing = outcome.abstain_missing, outcome.review_missing
        codes: list[str] = []
        missing: dict[str, None] = {}
        if warnings:
            signal_of = self._signal_of
            seen: set[tuple[str, str, str]] = set()
            unique: list[ScoreWarning] = []
            for warning in warnings:
                code = warning.code
                key = (code, warning.path, warning.message)
                if key in seen:
                    continue
                seen.add(key)
                unique.append(warning)
                codes.append(code)
                signal = warning.path if code == _REQUIRED_SIGNAL_MISSING else signal_of.get(code)
                if signal:
                    missing[signal] = None
            warnings = unique
        decision = self._decide(
            ScorecardEvidence(
                total,
                tier1.score if tier1 else total,
                codes,
                documents_silent,
                abstain_missing,
                review_missing,
            )
        )
        composite = _labelled(total)
        return Scorecard(
            total,
            composite.label,
            composite.color,
            decision.action,
            decision.reason,
            tier1,
            tier2,
            scores,
            ScorecardMeta(
                ALGORITHM_VERSION,
                SCHEMA_VERSION,
                raw_total,
                max_possible,
                active.extensions,
                active.names,
                tuple(missing),
                tuple(warnings),
                dict(active.weights),
            ),
            decision.rule,
        )

    def compute_many(
        self, rows: Iterable[ScoringInputs | Mapping[str, Any]]
    ) -> Iterator[Scorecard]:
        """Score each input in turn, lazily (constant memory over any iterable)."""
        for row in rows:
            yield self.compute(row)

    def __repr__(self) -> str:
        names = ", ".join(d.name for d in self.dimensions)
        return f"<Scorer preset={self.preset.name} dimensions=[{names}] policy={self.policy.name}>"


# ------------------------------------------------------------------ protocol checks
def _too_big_for_float(value: Any, path: str) -> str | None:
    """The path of the first integer in ``value`` that no float can hold, or ``None``."""
    if type(value) is int:
        return path if abs(value) > sys.float_info.max else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = _too_big_for_float(item, f"{path}.{key}" if path else str(key))
            if found:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = _too_big_for_float(item, f"{path}[{index}]")
            if found:
                return found
    return None


def _own_method(obj: Any, name: str) -> Callable[..., Any] | None:
    """``obj``'s method ``name`` when it has one of its own, or ``None`` when it has none or
    inherits the :class:`~assay.Dimension` protocol's default (which does nothing)."""
    method = getattr(obj, name, None)
    if not callable(method):
        return None
    default = getattr(Dimension, name, None)
    if default is not None and getattr(type(obj), name, None) is default:
        return None
    return method  # type: ignore[no-any-return]


def _refuse_class(kind: str, obj: Any) -> None:
    if isinstance(obj, type):
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"the {kind} {obj.__qualname__} is a class; pass an instance, e.g. "
            f"{obj.__qualname__}()",
        )


def _check_dimension(dimension: Any) -> None:
    _refuse_class("dimension", dimension)
    missing = [name for name in _DIMENSION_ATTRIBUTES if not hasattr(dimension, name)]
    if not callable(getattr(dimension, "score", None)):
        missing.append("score()")
    if missing:
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT,
            f"{dimension!r} is not a Dimension: it lacks {', '.join(missing)}",
        )


def _check_policy(policy: Any) -> None:
    """A policy must be an instance with ``decide`` whose ``evidence_type``, when it declares
    one, accepts :class:`ScorecardEvidence` (absent, ``Any`` and ``object`` accept anything)."""
    _refuse_class("policy", policy)
    if not callable(getattr(policy, "decide", None)):
        raise AssayError(
            ErrorCode.INVALID_PLUGIN_OBJECT, f"{policy!r} is not a Policy: it lacks decide()"
        )
    wanted = getattr(policy, "evidence_type", None)
    if _accepts_scorecard_evidence(wanted):
        return
    shown = getattr(wanted, "__qualname__", None) or repr(wanted)
    raise AssayError(
        ErrorCode.INVALID_CONFIG,
        f"policy {getattr(policy, 'name', policy)!r} decides on {shown}, but a scorer gives its "
        "policy ScorecardEvidence; use a policy whose evidence_type is ScorecardEvidence "
        "(e.g. 'threshold-action')",
        "policy",
    )


def _accepts_scorecard_evidence(wanted: Any) -> bool:
    if wanted is None or wanted is Any or wanted is object:
        return True
    if isinstance(wanted, str):  # a short description naming the class
        return wanted.rpartition(".")[2] == ScorecardEvidence.__name__
    if typing.get_origin(wanted) in (typing.Union, types.UnionType):
        return any(_accepts_scorecard_evidence(arg) for arg in typing.get_args(wanted))
    if not isinstance(wanted, type):
        return False
    try:
        return issubclass(ScorecardEvidence, wanted)
    except TypeError:  # a protocol with data members: ScorecardEvidence must have them all
        if not getattr(wanted, "_is_protocol", False):
            return False
        members = set(getattr(wanted, "__annotations__", {}))
        members |= {n for n, v in vars(wanted).items() if callable(v) and not n.startswith("_")}
        return all(hasattr(ScorecardEvidence, name) for name in members)


# ------------------------------------------------------------------ building
def _resolve_preset(registry: Registry, name: Any) -> Preset:
    if isinstance(name, str) and registry.has("preset", name):
        preset: Preset = registry.get("preset", name)
        return preset
    # The reference accepts any other preset string silently and behaves as the default.
    default: Preset = registry.get("preset", DEFAULT_PRESET)
    return default


def create_scorer(
    config: ScoringConfig | Mapping[str, Any] | None = None,
    *,
    dimensions: Sequence[str | Dimension] | None = None,
    policy: str | Policy | None = None,
    registry: Registry | None = None,
) -> Scorer:
    """Build a :class:`Scorer`, validating the config once.

    :param config: wire-shape dict or :class:`ScoringConfig`; ``preset`` picks the preset
        (default ``"balanced-v0.3"``).
    :param dimensions: the composition, as registered names (``"grounding"`` or
        ``"plugin/name"``) or Dimension objects (instances, not classes); default: the preset's
        dimensions that are installed (a dimension the config activates but no plugin provides
        is an error).
    :param policy: a registered policy name or a Policy object; default ``"threshold-action"``.
        Its ``evidence_type`` must accept :class:`ScorecardEvidence`.
    :param registry: where names are looked up; default :func:`assay.default_registry`.
    :raises AssayError: ``INVALID_CONFIG`` for an invalid config or a policy that decides on
        other evidence, ``UNKNOWN_NAME`` for a dimension or policy that is not registered,
        ``INVALID_PLUGIN_OBJECT`` for a class given where an instance is needed.
    """
    if registry is None:  # not ``registry or ...``: an empty Registry is falsy (it has a len)
        registry = default_registry()
    wire = scoring_config_to_wire(config)
    preset = _resolve_preset(registry, wire.get("preset"))
    if dimensions is None:
        resolved: list[Dimension] = []
        for name in preset.dimensions:
            if registry.has("dimension", name):
                resolved.append(registry.get("dimension", name))
            elif name in wire or name in preset.config:
                raise AssayError(
                    ErrorCode.UNKNOWN_NAME,
                    f"config section {name!r} needs the {name!r} dimension, which no installed "
                    "plugin provides",
                    name,
                )
    else:
        if isinstance(dimensions, (str, bytes, Mapping)) or not isinstance(
            dimensions, Iterable
        ):  # one name or a bool, not a composition: iterating would split or crash
            raise AssayError(
                ErrorCode.INVALID_PLUGIN_OBJECT,
                "dimensions must be a list of Dimension objects or registered names, not "
                f"{type(dimensions).__name__}",
                "dimensions",
            )
        resolved = [registry.get("dimension", d) if isinstance(d, str) else d for d in dimensions]
    if policy is None or isinstance(policy, str):
        policy_obj: Policy = registry.get("policy", policy or "threshold-action")
    else:
        policy_obj = policy
    scorer = Scorer(wire, resolved, policy_obj, preset)
    # the caller's config (not the preset's defaults), once its values have been validated
    fields = check_config_fields(
        wire, dimensions=scorer.dimensions, policy=scorer.policy, presets=registry.names("preset")
    )
    report_field_problems(fields, strict=scorer.strict, code=ErrorCode.INVALID_CONFIG)
    return scorer


# ------------------------------------------------------------------ compute_confidence
class _Built:
    """A cache entry: the config it was built from, as JSON data, and the scorer or the error
    building it raised (both follow from the config and the registry alone)."""

    __slots__ = ("config", "error", "scorer")

    def __init__(self, config: Any, scorer: Scorer | None, error: AssayError | None) -> None:
        self.config = config
        self.scorer = scorer
        self.error = error


_built: OrderedDict[tuple[Any, ...], _Built] = OrderedDict()
_built_lock = threading.Lock()
_JSON_TEXT = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_NO_KINDS: Mapping[str, Any] = {}


def _registry_state(registry: Registry) -> Any:
    """What changes when a preset, dimension or policy is registered: the registry's
    ``generation`` when it keeps one, else how many of those it holds (registrations are
    only ever added)."""
    generation = getattr(registry, "generation", None)
    if generation is not None:
        return generation
    by_kind = getattr(registry, "_by_kind", None)
    if type(by_kind) is not dict:
        return len(registry)
    get = by_kind.get
    try:
        return (
            sum(map(len, get("preset", _NO_KINDS).values()))
            + sum(map(len, get("dimension", _NO_KINDS).values()))
            + sum(map(len, get("policy", _NO_KINDS).values()))
        )
    except RuntimeError:  # registered into while counted
        return None


def cached_scorer(config: Any) -> Scorer:
    """The scorer of ``config`` for the default registry, built once per distinct config (the
    scorer :func:`compute_confidence` scores with).

    The key is the config's JSON text (keys in the caller's order) and the registry's identity
    and state. A hit also needs the config to equal what was cached, read back from that text:
    so a config that is not plain JSON data (NaN, a tuple, an enum or a datetime in it) is
    never served a scorer built for another, and changing a config dict later is safe.
    """
    registry = default_registry()
    if config is None or type(config) is dict:
        try:
            text = orjson.dumps(config or {}, option=_JSON_TEXT)
        except TypeError:  # not JSON data (orjson.JSONEncodeError is a TypeError)
            text = None
    else:
        text = None
    state = None if text is None else _registry_state(registry)
    if state is None:
        return create_scorer(config, registry=registry)
    key = (registry, state, text)
    entry = _built.get(key)
    if entry is not None and entry.config == (config or {}):
        try:  # noqa: SIM105 (contextlib.suppress costs more than the rest of a lookup)
            _built.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile
            pass
        if entry.scorer is not None:
            return entry.scorer
        raise copy.copy(entry.error)  # type: ignore[misc]
    data = orjson.loads(text)  # type: ignore[arg-type]
    if data != (config or {}):  # not plain JSON data: built as given, not kept
        return create_scorer(config, registry=registry)
    scorer: Scorer | None = None
    error: AssayError | None = None
    try:  # from the copy, which nothing else holds: the caller may change its config later
        scorer = create_scorer(data, registry=registry)
    except AssayError as exc:
        error = exc
    with _built_lock:
        _built[key] = _Built(orjson.loads(text), scorer, copy.copy(error) if error else None)  # type: ignore[arg-type]
        while len(_built) > SCORER_CACHE_SIZE:
            _built.popitem(last=False)
    if error is not None:
        raise error
    return scorer  # type: ignore[return-value]


def compute_confidence(
    inputs: ScoringInputs | Mapping[str, Any],
    config: ScoringConfig | Mapping[str, Any] | None = None,
) -> Scorecard:
    """Score one RAG answer with the default composition (``computeConfidence`` of
    transparent-confidence 0.3).

    The same as ``create_scorer(config).compute(inputs)``, but what building the scorer gives
    is kept: the scorers (and config errors) of the last :data:`SCORER_CACHE_SIZE` distinct
    configs, by the config's content at the time of the call (changing a config dict afterwards
    is safe) and the default registry's state (a plugin registered since, or a new default
    registry, builds anew). A config that is not a dict of plain JSON data (a
    :class:`ScoringConfig`, a ``datetime`` or a NaN in it) is validated on every call.

    :raises AssayError: as :func:`create_scorer` and :meth:`Scorer.compute`.
    """
    return cached_scorer(config).compute(inputs)
