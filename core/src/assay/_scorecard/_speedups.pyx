# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of the scorecard's hot path.

It mirrors, statement for statement, pure-Python functions that stay the reference:

- :func:`assay._scorecard.types.dimension_score` (``dimension_score`` here),
- :func:`assay._scorecard.input_checks.check_common_inputs`,
- :meth:`assay._scorecard.engine.Scorer.compute` (``compute`` here), with
  :meth:`ThresholdActionPolicy.decide <assay._scorecard.policy.ThresholdActionPolicy.decide>`
  inlined for the default policy,
- :func:`assay._wire.scorecard_to_wire`, :func:`assay._wire.all_finite` and the JSON text of
  :func:`assay._wire.scorecard_to_json` (``scorecard_json``, written from the records),
- :func:`assay._scorecard.lines.score_block` (a block of JSON Lines requests scored into one
  buffer of scorecard lines).

Results are identical, down to int-versus-float types and every string: the tests compare the
two on every conformance input. Arithmetic runs on C doubles only where the operands are exact
``float``/``int`` objects (for which Python converts to binary64 first anyway); anything else
goes through the same Python operations as the reference, so odd inputs raise or propagate
exactly as they do there. Change a reference function, change its twin here.

Records are built with ``object.__new__`` and slot assignment (``PyObject_GenericSetAttr``, as
attrs' own generated ``__init__`` does) instead of calling the classes: the frozen attrs classes
have no converters or validators on these fields, so the result is the same object, built
several times faster.
"""

from cpython.conversion cimport PyOS_double_to_string
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport Py_TYPE, PyObject_GenericSetAttr, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF, PyObject
from cpython.unicode cimport PyUnicode_AsUTF8AndSize, PyUnicode_DecodeUTF8
from libc.math cimport fabs, floor, isfinite, isnan, llround
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, strlen

from collections.abc import Mapping

from assay._errors import AssayError, ErrorCode
from assay._scorecard.policy import ScorecardEvidence, ThresholdActionPolicy
from assay._scorecard.types import (
    DimensionBreakdown,
    DimensionScore,
    Scorecard,
    ScorecardMeta,
    ScoreWarning,
    TierResult,
)
from assay.jsmath import js_number, js_round
from assay.signals import (
    DOCUMENTS_SILENT,
    MISSING_CANDIDATES,
    claim_support_problem,
    is_finite_number,
)

cdef extern from "Python.h":
    ctypedef object (*_allocfunc)(PyTypeObject* cls, Py_ssize_t items)
    ctypedef struct _AllocatingType "PyTypeObject":
        _allocfunc tp_alloc


cdef inline object _new(type cls):
    """``object.__new__(cls)`` for a record class: what it does for a class that is not
    abstract, ``cls.tp_alloc(cls, 0)``, without the call through ``object.__new__``."""
    return (<_AllocatingType*>cls).tp_alloc(<PyTypeObject*>cls, 0)
cdef str _COMBINED = "Candidate combinedScore should be a finite number in the 0-1 range."
cdef str _METHOD = "Retrieval method scores should be finite numbers in the 0-1 range."

# Set once by assay._scorecard.engine (bind_engine), which imports this module: the engine's
# constants and its pure helpers, so that they are defined in one place.
cdef str ALGORITHM_VERSION = ""
cdef str SCHEMA_VERSION = ""
cdef dict MISSING_SIGNAL_OF = {}
cdef object NOT_ADDRESSED = None
cdef object inputs_to_wire = None
cdef object empty_outcome = None


def bind_engine(algorithm_version, schema_version, missing_signal_of, not_addressed,
                scoring_inputs_to_wire, no_outcome):
    """Give this module the engine's constants (called once by the engine at import)."""
    global ALGORITHM_VERSION, SCHEMA_VERSION, MISSING_SIGNAL_OF, NOT_ADDRESSED
    global inputs_to_wire, empty_outcome
    ALGORITHM_VERSION = algorithm_version
    SCHEMA_VERSION = schema_version
    MISSING_SIGNAL_OF = dict(missing_signal_of)
    NOT_ADDRESSED = not_addressed
    inputs_to_wire = scoring_inputs_to_wire
    empty_outcome = no_outcome


# ----------------------------------------------------------------------------- record fields
#
# The records are slotted attrs classes: a field lives at a fixed offset in the object. Reading
# it there skips the generic attribute lookup (type cache, descriptor call), which was the
# largest single cost of writing a scorecard (~36k instructions per card here). Only objects of
# exactly the record class are read this way; anything else (a subclass, another type) and an
# unset slot go through getattr, so behaviour is the reference's.

cdef extern from "structmember.h":
    ctypedef struct PyMemberDef:
        Py_ssize_t offset

cdef extern from "Python.h":
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object text)
    bint PyUnicode_IS_COMPACT_ASCII(object text)
    Py_ssize_t PyUnicode_GET_LENGTH(object text)

cdef enum _Field:
    SCORE_RAW
    SCORE_MAX
    SCORE_NORMALIZED
    SCORE_EXPLANATION
    SCORE_BREAKDOWN
    SCORE_WARNINGS
    BREAKDOWN_COMPONENTS
    BREAKDOWN_ADJUSTMENTS
    BREAKDOWN_DIAGNOSTICS
    BREAKDOWN_UNCAPPED_RAW
    BREAKDOWN_RAW
    CARD_TOTAL
    CARD_LABEL
    CARD_LABEL_COLOR
    CARD_RECOMMENDED_ACTION
    CARD_ACTION_REASON
    CARD_TIER1
    CARD_TIER2
    CARD_DIMENSIONS
    CARD_META
    CARD_ACTION_RULE
    META_ALGORITHM_VERSION
    META_SCHEMA_VERSION
    META_RAW_TOTAL
    META_MAX_POSSIBLE
    META_ACTIVE_EXTENSIONS
    META_ACTIVE_DIMENSIONS
    META_MISSING_SIGNALS
    META_WARNINGS
    META_WEIGHTS
    TIER_SCORE
    TIER_LABEL
    TIER_COLOR
    WARNING_CODE
    WARNING_SEVERITY
    WARNING_MESSAGE
    WARNING_PATH
    _FIELD_COUNT

cdef Py_ssize_t _OFFSET[<int>_FIELD_COUNT]
cdef PyObject* _CLASS[<int>_FIELD_COUNT]
cdef PyObject* _NAME[<int>_FIELD_COUNT]
_FIELD_TABLE = (  # (class, field) in _Field order; kept alive here for _CLASS and _NAME
    (DimensionScore, "raw"),
    (DimensionScore, "max"),
    (DimensionScore, "normalized"),
    (DimensionScore, "explanation"),
    (DimensionScore, "breakdown"),
    (DimensionScore, "warnings"),
    (DimensionBreakdown, "components"),
    (DimensionBreakdown, "adjustments"),
    (DimensionBreakdown, "diagnostics"),
    (DimensionBreakdown, "uncapped_raw"),
    (DimensionBreakdown, "raw"),
    (Scorecard, "total"),
    (Scorecard, "label"),
    (Scorecard, "label_color"),
    (Scorecard, "recommended_action"),
    (Scorecard, "action_reason"),
    (Scorecard, "tier1"),
    (Scorecard, "tier2"),
    (Scorecard, "dimensions"),
    (Scorecard, "meta"),
    (Scorecard, "action_rule"),
    (ScorecardMeta, "algorithm_version"),
    (ScorecardMeta, "schema_version"),
    (ScorecardMeta, "raw_total"),
    (ScorecardMeta, "max_possible"),
    (ScorecardMeta, "active_extensions"),
    (ScorecardMeta, "active_dimensions"),
    (ScorecardMeta, "missing_signals"),
    (ScorecardMeta, "warnings"),
    (ScorecardMeta, "weights"),
    (TierResult, "score"),
    (TierResult, "label"),
    (TierResult, "color"),
    (ScoreWarning, "code"),
    (ScoreWarning, "severity"),
    (ScoreWarning, "message"),
    (ScoreWarning, "path"),
)


cdef Py_ssize_t _slot_offset(type cls, str name) except -1:
    descriptor = cls.__dict__.get(name)
    if type(descriptor).__name__ != "member_descriptor":
        raise TypeError(f"{cls.__name__}.{name} is not a slot")
    return (<PyMemberDescrObject*><PyObject*>descriptor).d_member.offset


cdef int _index_fields() except -1:
    cdef int index
    for index, (cls, name) in enumerate(_FIELD_TABLE):
        _OFFSET[index] = _slot_offset(cls, name)
        _CLASS[index] = <PyObject*>cls
        _NAME[index] = <PyObject*>name
    return 0


_index_fields()


cdef inline object _get(object record, _Field field):
    """``getattr(record, <field's name>)``, read at the slot's offset for an exact record."""
    cdef PyObject* value
    if <PyObject*>Py_TYPE(record) == _CLASS[<int>field]:
        value = (<PyObject**>((<char*><PyObject*>record) + _OFFSET[<int>field]))[0]
        if value != NULL:
            return <object>value
    return getattr(record, <object>_NAME[<int>field])


# ------------------------------------------------------------------------------------ numbers

cdef inline bint _is_num(object value):
    """An exact float or int (not bool): arithmetic on it may run on C doubles."""
    cdef type kind = type(value)
    return kind is float or kind is int


cdef inline double _round_js(double x):
    """JavaScript Math.round on a finite or non-finite double (jsmath.js_round)."""
    cdef double lower
    if not isfinite(x):
        return x
    lower = floor(x)
    return lower + 1.0 if x - lower >= 0.5 else lower


cdef object _percent(object part, object whole):
    """``js_round(part / whole * 100)`` with Python's semantics (ZeroDivisionError included)."""
    if _is_num(part) and _is_num(whole) and whole != 0:
        return _round_js(<double>part / <double>whole * 100.0)
    return js_round(part / whole * 100)


cdef inline int _put(object record, _Field field, object value) except -1:
    """Set a field of a record being built (``object.__setattr__``), at the slot's offset for
    an exact record class."""
    cdef PyObject** slot
    if <PyObject*>Py_TYPE(record) == _CLASS[<int>field]:
        slot = <PyObject**>((<char*><PyObject*>record) + _OFFSET[<int>field])
        Py_INCREF(value)
        Py_XDECREF(slot[0])
        slot[0] = <PyObject*>value
        return 0
    PyObject_GenericSetAttr(record, <object>_NAME[<int>field], value)
    return 0


# ------------------------------------------------------------------------------------ records

def dimension_score(*, raw, max_points, explanation, components=None, adjustments=None,
                    diagnostics=None, uncapped_raw=None, warnings=(), normalized=None):
    """Twin of :func:`assay._scorecard.types.dimension_score` (same contract)."""
    if normalized is None:
        normalized = _percent(raw, max_points) if max_points else 0.0
    breakdown = _new(DimensionBreakdown)
    _put(breakdown, BREAKDOWN_COMPONENTS, components if components is not None else {})
    _put(breakdown, BREAKDOWN_ADJUSTMENTS, adjustments if adjustments is not None else {})
    _put(breakdown, BREAKDOWN_DIAGNOSTICS, diagnostics if diagnostics is not None else {})
    _put(breakdown, BREAKDOWN_UNCAPPED_RAW, raw if uncapped_raw is None else uncapped_raw)
    _put(breakdown, BREAKDOWN_RAW, raw)
    score = _new(DimensionScore)
    _put(score, SCORE_RAW, raw)
    _put(score, SCORE_MAX, max_points)
    _put(score, SCORE_NORMALIZED, normalized)
    _put(score, SCORE_EXPLANATION, explanation)
    _put(score, SCORE_BREAKDOWN, breakdown)
    _put(score, SCORE_WARNINGS, None if warnings is None else tuple(warnings))
    return score


cdef object _tier_result(double score, tuple label_and_color):
    tier = _new(TierResult)
    _put(tier, TIER_SCORE, score)
    _put(tier, TIER_LABEL, label_and_color[0])
    _put(tier, TIER_COLOR, label_and_color[1])
    return tier


cdef tuple _label(double score):
    if score >= 85:
        return ("Strong", "green")
    if score >= 65:
        return ("Moderate", "amber")
    if score >= 40:
        return ("Limited", "orange")
    return ("Insufficient", "red")


cdef tuple _tier2_label(double score):
    if score >= 85:
        return ("Complete", "green")
    if score >= 65:
        return ("Good", "amber")
    if score >= 40:
        return ("Partial", "orange")
    return ("Thin", "red")


# ------------------------------------------------------------------------------- input checks

cdef inline bint _in_unit_range(object value):
    if _is_num(value):
        return 0 <= value <= 1
    return is_finite_number(value) and 0 <= value <= 1


cdef inline object _malformed(str message, object path=None):
    return AssayError(ErrorCode.MALFORMED_INPUT, message, path)


cdef object _warning(str code, str severity, str message, str path):
    warning = _new(ScoreWarning)
    _put(warning, WARNING_CODE, code)
    _put(warning, WARNING_SEVERITY, severity)
    _put(warning, WARNING_MESSAGE, message)
    _put(warning, WARNING_PATH, path)
    return warning


cdef inline object _get_key(object mapping, str key):
    """``mapping.get(key)``, read straight from an exact dict (a subclass may override get)."""
    if type(mapping) is dict:
        return (<dict>mapping).get(key)
    return mapping.get(key)


cdef int _check_method_score(list warnings, object method, object score, Py_ssize_t index) except -1:
    if not _in_unit_range(score):
        warnings.append(_warning(
            "input-out-of-range",
            "warn",
            _METHOD,
            f"candidates[{index}].retrievalScores.{method}",
        ))
    return 0


def check_common_inputs(inputs):
    """Twin of :func:`assay._scorecard.input_checks.check_common_inputs` (same contract)."""
    cdef list warnings = []
    cdef Py_ssize_t index
    if type(inputs) is not dict and not isinstance(inputs, Mapping):
        raise _malformed(f"scoring inputs must be a JSON object, not {type(inputs).__name__}")
    candidates = _get_key(inputs, "candidates")
    if type(candidates) is not list and not isinstance(candidates, (list, tuple)):
        raise _malformed("candidates must be an array of candidates", "candidates")
    if _get_key(inputs, "documentsSilent") is True:
        warnings.append(DOCUMENTS_SILENT)
    if not candidates:
        warnings.append(MISSING_CANDIDATES)
    index = 0
    for candidate in candidates:
        if type(candidate) is not dict and not isinstance(candidate, Mapping):
            raise _malformed("a candidate must be an object", f"candidates[{index}]")
        scores = _get_key(candidate, "retrievalScores")
        if type(scores) is not dict and not isinstance(scores, Mapping):
            raise _malformed(
                "retrievalScores must be an object of method -> score",
                f"candidates[{index}].retrievalScores",
            )
        if not _in_unit_range(_get_key(candidate, "combinedScore")):
            warnings.append(_warning(
                "input-out-of-range", "warn", _COMBINED, f"candidates[{index}].combinedScore"
            ))
        if type(scores) is dict:
            for method, score in (<dict>scores).items():
                _check_method_score(warnings, method, score, index)
        else:
            for method, score in scores.items():
                _check_method_score(warnings, method, score, index)
        index += 1
    if "claimSupport" in inputs:
        problem = claim_support_problem(inputs["claimSupport"])
        if problem:
            warnings.append(_warning("input-out-of-range", "warn", problem, "claimSupport"))
    for key in ("faithfulnessScore", "citationCoverageScore"):
        if key in inputs and not _in_unit_range(inputs[key]):
            warnings.append(_warning(
                "input-out-of-range",
                "warn",
                f"{key} should be a finite number in the 0-1 range.",
                key,
            ))
    return warnings


# ------------------------------------------------------------------------------------ compute

cdef list _merge_warnings(list problems, dict scores, tuple policy_warnings):
    """Twin of engine._merge_warnings: first of identical (code, path, message) kept."""
    cdef list merged = []
    cdef set seen = set()
    cdef list groups = [problems]
    for score in scores.values():
        if _get(score, SCORE_WARNINGS):
            groups.append(_get(score, SCORE_WARNINGS))
    groups.append(policy_warnings)
    for group in groups:
        for warning in group:
            key = (_get(warning, WARNING_CODE), _get(warning, WARNING_PATH), _get(warning, WARNING_MESSAGE))
            if key not in seen:
                seen.add(key)
                merged.append(warning)
    return merged


cdef tuple _missing_signals(list warnings):
    cdef dict signals = {}
    for warning in warnings:
        code = _get(warning, WARNING_CODE)
        if code == "required-signal-missing":
            signals.setdefault(_get(warning, WARNING_PATH), None)
        else:
            name = MISSING_SIGNAL_OF.get(code)
            if name:
                signals.setdefault(name, None)
    return tuple(signals)


cdef str _js_num(object x):
    """jsmath.js_number for the floats and ints the policy formats (others: the pure helper)."""
    cdef double value
    if type(x) is float:
        value = x
        if isfinite(value) and value == floor(value) and -1e21 < value < 1e21:
            return str(int(value))
    return js_number(x)


cdef tuple _threshold_decision(object policy, object total, object tier1, list warnings,
                               bint documents_silent, tuple abstain_missing,
                               tuple review_missing):
    """Twin of ThresholdActionPolicy.decide for the exact core class: (action, rule, reason)."""
    abstain_below, tier1_floor, answer_at, review_at = policy._thresholds
    if documents_silent:
        return (
            "abstain",
            "documents-silent",
            "Documents do not address this question (documentsSilent is true).",
        )
    if abstain_missing:
        names = ", ".join(abstain_missing)
        return (
            "abstain",
            "abstain-when-missing",
            f"Required signal(s) missing matched abstainWhenMissing policy: {names}.",
        )
    abstain_codes = policy._abstain_codes
    for warning in warnings:
        code = _get(warning, WARNING_CODE)
        if code in abstain_codes:
            return (
                "abstain",
                "abstain-on-warning",
                f"Warning '{code}' matched abstainOnWarnings policy.",
            )
    if total < abstain_below:
        return (
            "abstain",
            "abstain-below",
            f"Score {_js_num(total)} is below abstainBelow threshold "
            f"({_js_num(policy.abstain_below)}).",
        )
    if tier1 < tier1_floor:
        return (
            "review",
            "tier1-floor",
            f"Tier 1 score {_js_num(tier1)} is below requireTier1AtLeast threshold "
            f"({_js_num(policy.require_tier1_at_least)}).",
        )
    if review_missing:
        names = ", ".join(review_missing)
        return (
            "review",
            "review-when-missing",
            f"Required signal(s) missing matched reviewWhenMissing policy: {names}.",
        )
    review_codes = policy._review_codes
    for warning in warnings:
        code = _get(warning, WARNING_CODE)
        if code in review_codes:
            return (
                "review",
                "review-on-warning",
                f"Warning '{code}' matched reviewOnWarnings policy.",
            )
    if total >= answer_at:
        return (
            "answer",
            "answer-at",
            f"Score {_js_num(total)} meets answerAt threshold ({_js_num(policy.answer_at)}).",
        )
    if total >= review_at:
        return (
            "review",
            "review-at",
            f"Score {_js_num(total)} meets reviewAt threshold ({_js_num(policy.review_at)}).",
        )
    return (
        "abstain",
        "below-review-at",
        f"Score {_js_num(total)} is below reviewAt threshold "
        f"({_js_num(policy.review_at)}) — abstaining.",
    )


def compute(self, inputs):
    """Twin of :meth:`assay._scorecard.engine.Scorer.compute` (same contract)."""
    cdef double raw_total = 0.0, max_possible = 0.0
    cdef double t1_scaled = 0.0, t1_weight = 0.0, t2_scaled = 0.0, t2_weight = 0.0
    cdef double scaled_c, total_c, tier1_score, tier2_score
    cdef bint documents_silent, numeric
    cdef dict scores = {}
    cdef dict active_weights = {}
    cdef list extensions = []
    cdef list active = []
    cdef list problems

    data = inputs if type(inputs) is dict else inputs_to_wire(inputs)
    problems = check_common_inputs(data)
    config = self.config
    for entry in self._plan:
        if entry[5] or entry[0].is_active(data, config):
            active.append(entry)
    checkers = self._checkers
    if checkers:
        active_names = {entry[1] for entry in active}
        for dimension in checkers:
            if dimension.name in active_names:
                problems.extend(dimension.check_inputs(data, config))
    if self.strict and problems:
        first = problems[0]
        raise AssayError(ErrorCode.INVALID_INPUT, _get(first, WARNING_MESSAGE), _get(first, WARNING_PATH))

    for dimension, name, weight, tier1_member, extension, _ in active:
        score = dimension.score(data, config)
        scores[name] = score
        raw = _get(score, SCORE_RAW)
        maximum = _get(score, SCORE_MAX)
        numeric = _is_num(raw) and _is_num(maximum) and _is_num(weight) and maximum != 0
        if numeric:
            scaled_c = <double>raw / <double>maximum * <double>weight
        else:  # the reference's Python arithmetic, with its errors
            scaled_c = raw / maximum * weight
        raw_total += scaled_c
        max_possible += weight
        active_weights[name] = weight
        if tier1_member:
            t1_scaled += scaled_c
            t1_weight += weight
        else:
            t2_scaled += scaled_c
            t2_weight += weight
        if extension:
            extensions.append(name)
    if max_possible:
        total_c = raw_total / max_possible * 100.0
        if not isnan(total_c):
            total_c = 100.0 if total_c >= 100.0 else (total_c if total_c > 0.0 else 0.0)
        total_c = _round_js(total_c)
    else:
        total_c = 0.0
    total = total_c

    signal_policy = self.signal_policy
    outcome = empty_outcome if self._signal_policy_empty else signal_policy.evaluate(data)

    documents_silent = _get_key(data, "documentsSilent") is True
    if documents_silent:
        tier1 = NOT_ADDRESSED
    elif t1_weight:
        tier1_score = _round_js(t1_scaled / t1_weight * 100.0)
        tier1 = _tier_result(tier1_score, _label(tier1_score))
    else:
        tier1 = None
    if t2_weight:
        tier2_score = _round_js(t2_scaled / t2_weight * 100.0)
        tier2 = _tier_result(tier2_score, _tier2_label(tier2_score))
    else:
        tier2 = None

    warnings = _merge_warnings(problems, scores, outcome.warnings)
    tier1_value = _get(tier1, TIER_SCORE) if tier1 else total
    policy = self.policy
    if type(policy) is ThresholdActionPolicy:
        action, rule, reason = _threshold_decision(
            policy, total, tier1_value, warnings, documents_silent,
            outcome.abstain_missing, outcome.review_missing,
        )
    else:
        decision = policy.decide(
            ScorecardEvidence(
                total,
                tier1_value,
                [_get(w, WARNING_CODE) for w in warnings],
                documents_silent,
                outcome.abstain_missing,
                outcome.review_missing,
            )
        )
        action, rule, reason = decision.action, decision.rule, decision.reason

    meta = _new(ScorecardMeta)
    _put(meta, META_ALGORITHM_VERSION, ALGORITHM_VERSION)
    _put(meta, META_SCHEMA_VERSION, SCHEMA_VERSION)
    _put(meta, META_RAW_TOTAL, raw_total)
    _put(meta, META_MAX_POSSIBLE, max_possible)
    _put(meta, META_ACTIVE_EXTENSIONS, tuple(extensions))
    _put(meta, META_ACTIVE_DIMENSIONS, tuple(scores))
    _put(meta, META_MISSING_SIGNALS, _missing_signals(warnings))
    _put(meta, META_WARNINGS, tuple(warnings))
    _put(meta, META_WEIGHTS, active_weights)
    label, color = _label(total_c)
    card = _new(Scorecard)
    _put(card, CARD_TOTAL, total)
    _put(card, CARD_LABEL, label)
    _put(card, CARD_LABEL_COLOR, color)
    _put(card, CARD_RECOMMENDED_ACTION, action)
    _put(card, CARD_ACTION_REASON, reason)
    _put(card, CARD_TIER1, tier1)
    _put(card, CARD_TIER2, tier2)
    _put(card, CARD_DIMENSIONS, scores)
    _put(card, CARD_META, meta)
    _put(card, CARD_ACTION_RULE, rule)
    return card


# --------------------------------------------------------------------------------- wire shape

cdef inline object _n(object value):
    """Twin of _wire._n: an integral float as an int (25.0 -> 25)."""
    cdef double number
    if type(value) is float:
        number = value
        if isfinite(number) and number == floor(number):
            return int(value)
    return value


cdef dict _numbers(object mapping):
    cdef dict out = {}
    for key, value in mapping.items():
        out[key] = _n(value)
    return out


cdef dict _warning_wire(object warning):
    return {
        "code": _get(warning, WARNING_CODE),
        "severity": _get(warning, WARNING_SEVERITY),
        "message": _get(warning, WARNING_MESSAGE),
        "path": _get(warning, WARNING_PATH),
    }


cdef object _tier_wire(object tier):
    if tier is None:
        return None
    return {"score": _n(_get(tier, TIER_SCORE)), "label": _get(tier, TIER_LABEL), "color": _get(tier, TIER_COLOR)}


cdef dict _dimension_wire(object score):
    breakdown = _get(score, SCORE_BREAKDOWN)
    cdef dict wire = {
        "raw": _n(_get(score, SCORE_RAW)),
        "max": _n(_get(score, SCORE_MAX)),
        "normalized": _n(_get(score, SCORE_NORMALIZED)),
        "explanation": _get(score, SCORE_EXPLANATION),
        "breakdown": {
            "components": _numbers(_get(breakdown, BREAKDOWN_COMPONENTS)),
            "adjustments": _numbers(_get(breakdown, BREAKDOWN_ADJUSTMENTS)),
            "diagnostics": _numbers(_get(breakdown, BREAKDOWN_DIAGNOSTICS)),
            "uncappedRaw": _n(_get(breakdown, BREAKDOWN_UNCAPPED_RAW)),
            "raw": _n(_get(breakdown, BREAKDOWN_RAW)),
        },
    }
    warnings = _get(score, SCORE_WARNINGS)
    if warnings is not None:
        wire["warnings"] = [_warning_wire(w) for w in warnings]
    return wire


def scorecard_to_wire(scorecard):
    """Twin of :func:`assay._wire.scorecard_to_wire` (same contract)."""
    meta = _get(scorecard, CARD_META)
    cdef dict dimensions = {}
    for name, dimension in _get(scorecard, CARD_DIMENSIONS).items():
        dimensions[name] = _dimension_wire(dimension)
    return {
        "total": _n(_get(scorecard, CARD_TOTAL)),
        "label": _get(scorecard, CARD_LABEL),
        "labelColor": _get(scorecard, CARD_LABEL_COLOR),
        "recommendedAction": _get(scorecard, CARD_RECOMMENDED_ACTION),
        "actionReason": _get(scorecard, CARD_ACTION_REASON),
        "tier1": _tier_wire(_get(scorecard, CARD_TIER1)),
        "tier2": _tier_wire(_get(scorecard, CARD_TIER2)),
        "dimensions": dimensions,
        "meta": {
            "algorithmVersion": _get(meta, META_ALGORITHM_VERSION),
            "schemaVersion": _get(meta, META_SCHEMA_VERSION),
            "rawTotal": _n(_get(meta, META_RAW_TOTAL)),
            "maxPossible": _n(_get(meta, META_MAX_POSSIBLE)),
            "activeExtensions": list(_get(meta, META_ACTIVE_EXTENSIONS)),
            "activeDimensions": list(_get(meta, META_ACTIVE_DIMENSIONS)),
            "missingSignals": list(_get(meta, META_MISSING_SIGNALS)),
            "warnings": [_warning_wire(w) for w in _get(meta, META_WARNINGS)],
            "weights": _numbers(_get(meta, META_WEIGHTS)),
        },
    }


def all_finite(value):
    """Twin of :func:`assay._wire.all_finite` (same contract)."""
    return _all_finite(value)


cdef bint _all_finite(object value) except -1:
    cdef type kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is float:
        return isfinite(<double>value)
    if kind is dict:
        for item in (<dict>value).values():
            if not _all_finite(item):
                return False
        return True
    if kind is list:
        for item in <list>value:
            if not _all_finite(item):
                return False
        return True
    if kind is tuple:
        for item in <tuple>value:
            if not _all_finite(item):
                return False
        return True
    if isinstance(value, float):
        return isfinite(<double>value)
    if isinstance(value, Mapping):
        for item in value.values():
            if not _all_finite(item):
                return False
        return True
    if isinstance(value, (list, tuple)):
        for item in value:
            if not _all_finite(item):
                return False
        return True
    return True



# ---------------------------------------------------------------------------------- JSON text
#
# scorecard_json writes the wire shape of a scorecard straight from its records into a C buffer:
# what wire_to_json(scorecard_to_wire(card)) writes, without building the wire dicts. It gives up
# (returns None, and the caller takes that path) on anything it would not write identically: an
# integral float beyond 2**63, a value that is not JSON (a datetime, an object), a key that is
# not a string, a string that is not valid UTF-8.
#
# A card holding a non-finite number is written twice: the first pass stops at it, the second
# ("tagged" mode) writes what wire_to_json writes then, json.dumps(to_json_safe(wire)): every
# non-finite number as {"$float": "NaN" | "Infinity" | "-Infinity"}, and a nested integral float
# below 2**53 as an int (to_json_safe's rule; the wire numbers are ints already).

cdef struct _Buffer:
    char* data
    Py_ssize_t size
    Py_ssize_t capacity
    bint ascii  # no byte >= 0x80 written: the text can be copied into a 1-byte str as is
    bint tagged  # write non-finite numbers tagged, as to_json_safe does (see above)


class _Unwritable(Exception):
    """A value this writer does not write the way the reference path does."""


class _NonFinite(Exception):
    """A non-finite number met outside tagged mode: write the card again, tagged."""


cdef int _reserve(_Buffer* buffer, Py_ssize_t extra) except -1:
    cdef Py_ssize_t wanted = buffer.size + extra
    cdef char* grown
    if wanted <= buffer.capacity:
        return 0
    wanted = max(wanted, 2 * buffer.capacity)
    grown = <char*>PyMem_Realloc(buffer.data, wanted)
    if grown == NULL:
        raise MemoryError()
    buffer.data = grown
    buffer.capacity = wanted
    return 0


cdef inline int _raw(_Buffer* buffer, const char* text, Py_ssize_t length) except -1:
    _reserve(buffer, length)
    memcpy(buffer.data + buffer.size, text, length)
    buffer.size += length
    return 0


cdef inline int _lit(_Buffer* buffer, const char* text) except -1:
    """A NUL-terminated literal (keys and punctuation of the wire shape)."""
    return _raw(buffer, text, strlen(text))


cdef inline int _char(_Buffer* buffer, char c) except -1:
    _reserve(buffer, 1)
    buffer.data[buffer.size] = c
    buffer.size += 1
    return 0


cdef const char* _HEX = "0123456789abcdef"


cdef inline bint _plain_word(uint64_t word):
    """Whether no byte of an all-ASCII 8-byte word needs escaping (below 0x20, a quote, a
    backslash): the bit tricks test every byte at once for "less than" and "equal to"."""
    cdef uint64_t quote = word ^ 0x2222222222222222ULL
    cdef uint64_t backslash = word ^ 0x5C5C5C5C5C5C5C5CULL
    return ((((word - 0x2020202020202020ULL) & ~word)
             | ((quote - 0x0101010101010101ULL) & ~quote)
             | ((backslash - 0x0101010101010101ULL) & ~backslash))
            & 0x8080808080808080ULL) == 0


cdef inline bint _plain_byte(unsigned char c):
    return c >= 0x20 and c != 0x22 and c != 0x5C


cdef int _string(_Buffer* buffer, object text) except -1:
    """A JSON string as json.dumps(ensure_ascii=False) writes it."""
    cdef Py_ssize_t length, plain = 0
    cdef const char* chars
    cdef char* out
    cdef uint64_t word
    if PyUnicode_IS_COMPACT_ASCII(text):
        # the common case: the characters are the bytes, and most need no escape: find the
        # first that does, 8 at a time, and copy the whole string at once when there is none
        length = PyUnicode_GET_LENGTH(text)
        chars = <const char*>PyUnicode_DATA(text)
        while plain + 8 <= length:
            memcpy(&word, chars + plain, 8)
            if not _plain_word(word):
                break
            plain += 8
        while plain < length and _plain_byte(<unsigned char>chars[plain]):
            plain += 1
        if plain == length:
            _reserve(buffer, length + 2)
            out = buffer.data + buffer.size
            out[0] = b'"'
            memcpy(out + 1, chars, length)
            out[length + 1] = b'"'
            buffer.size += length + 2
            return 0
        return _escaped(buffer, chars, length, plain)
    try:
        chars = PyUnicode_AsUTF8AndSize(text, &length)
    except UnicodeEncodeError:  # a lone surrogate
        raise _Unwritable()
    return _escaped(buffer, chars, length, 0)


cdef int _escaped(_Buffer* buffer, const char* utf8, Py_ssize_t length, Py_ssize_t plain) except -1:
    """The JSON string of ``length`` UTF-8 bytes whose first ``plain`` need no escape."""
    cdef Py_ssize_t index, start = 0
    cdef unsigned char c
    _reserve(buffer, length + 2)
    _char(buffer, b'"')
    for index in range(plain, length):
        c = <unsigned char>utf8[index]
        if _plain_byte(c):
            if c >= 0x80:
                buffer.ascii = False
            continue
        _raw(buffer, utf8 + start, index - start)
        start = index + 1
        if c == 0x22:
            _lit(buffer, b'\\"')
        elif c == 0x5C:
            _lit(buffer, b'\\\\')
        elif c == 0x0A:
            _lit(buffer, b'\\n')
        elif c == 0x0D:
            _lit(buffer, b'\\r')
        elif c == 0x09:
            _lit(buffer, b'\\t')
        elif c == 0x08:
            _lit(buffer, b'\\b')
        elif c == 0x0C:
            _lit(buffer, b'\\f')
        else:
            _lit(buffer, b'\\u00')
            _char(buffer, _HEX[c >> 4])
            _char(buffer, _HEX[c & 15])
    _raw(buffer, utf8 + start, length - start)
    _char(buffer, b'"')
    return 0


cdef int _key(_Buffer* buffer, object key) except -1:
    if type(key) is not str:
        raise _Unwritable()
    _string(buffer, key)
    _char(buffer, b':')
    return 0


cdef double* _POWERS_OF_TEN = [1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]


cdef bint _short_decimal(_Buffer* buffer, double value) except -1:
    """Write repr(value) when it is a decimal with 1 to 8 fraction digits between 1e-4 and 1e15
    in magnitude (repr writes those without an exponent); return whether it was written.

    repr is the shortest decimal that reads back as ``value``. The first ``digits`` for which
    the nearest ``digits``-place decimal reads back (division of two exact doubles is correctly
    rounded, as reading decimal text is) gives the shortest; below 1e15 decimals with that many
    places are more than 4 ulps apart, so no other one of that length reads back."""
    cdef double magnitude = fabs(value), scaled, power
    cdef long long units, whole, fraction
    cdef int digits, position, place
    cdef char text[32]
    if not (1e-4 <= magnitude < 1e15):
        return False
    for digits in range(1, 9):
        power = _POWERS_OF_TEN[digits]
        scaled = magnitude * power
        if scaled >= 1e15:
            return False
        units = llround(scaled)
        if <double>units / power != magnitude:
            continue
        whole = units // <long long>power
        fraction = units % <long long>power
        position = 32
        for place in range(digits):  # the fraction, zero-padded to ``digits`` places
            position -= 1
            text[position] = <char>(48 + fraction % 10)
            fraction = fraction // 10
        position -= 1
        text[position] = b'.'
        while True:
            position -= 1
            text[position] = <char>(48 + whole % 10)
            whole = whole // 10
            if whole == 0:
                break
        if value < 0:
            position -= 1
            text[position] = b'-'
        _raw(buffer, text + position, 32 - position)
        return True
    return False


cdef int _float_text(_Buffer* buffer, double value) except -1:
    """repr(value), the json module's float text; a non-finite number tagged (tagged mode)."""
    cdef char* text
    if not isfinite(value):
        if not buffer.tagged:
            raise _NonFinite()
        if isnan(value):
            return _lit(buffer, b'{"$float":"NaN"}')
        return _lit(buffer, b'{"$float":"Infinity"}' if value > 0 else b'{"$float":"-Infinity"}')
    if _short_decimal(buffer, value):
        return 0
    text = PyOS_double_to_string(value, b'r', 0, 0x02, NULL)  # 0x02: Py_DTSF_ADD_DOT_0
    try:
        _raw(buffer, text, strlen(text))
    finally:
        PyMem_Free(text)
    return 0


cdef int _int_text(_Buffer* buffer, object value) except -1:
    cdef long long number
    try:
        number = value
    except OverflowError:  # beyond 64 bits: the reference path decides how to write it
        raise _Unwritable()
    return _long_text(buffer, number)


cdef int _long_text(_Buffer* buffer, long long number) except -1:
    cdef unsigned long long magnitude
    cdef char digits[24]
    cdef int position = 24
    magnitude = (0ULL - <unsigned long long>number) if number < 0 else <unsigned long long>number
    while True:
        position -= 1
        digits[position] = <char>(48 + magnitude % 10ULL)
        magnitude = magnitude // 10ULL
        if magnitude == 0:
            break
    if number < 0:
        position -= 1
        digits[position] = b'-'
    return _raw(buffer, digits + position, 24 - position)


cdef int _wire_number(_Buffer* buffer, object value) except -1:
    """A number as the wire shape writes it: an integral float as an int (_n)."""
    cdef double number
    cdef type kind = type(value)
    if kind is float:
        number = value
        if isfinite(number) and number == floor(number):
            if -9.2e18 < number < 9.2e18:  # exactly int(value): an integral double in range
                return _long_text(buffer, <long long>number)
            raise _Unwritable()
        return _float_text(buffer, number)
    return _value(buffer, value)


cdef double _TWO_53 = 9007199254740992.0


cdef int _value(_Buffer* buffer, object value) except -1:
    """Any JSON value nested in a wire shape (what orjson / json.dumps would write)."""
    cdef type kind = type(value)
    cdef bint first = True
    cdef double number
    if kind is str:
        return _string(buffer, value)
    if kind is float:
        number = value
        if buffer.tagged and number == floor(number) and -_TWO_53 < number < _TWO_53:
            return _long_text(buffer, <long long>number)
        return _float_text(buffer, number)
    if value is None:
        return _lit(buffer, b"null")
    if value is True:
        return _lit(buffer, b"true")
    if value is False:
        return _lit(buffer, b"false")
    if kind is int:
        return _int_text(buffer, value)
    if kind is dict:
        _char(buffer, b'{')
        for key, item in (<dict>value).items():
            if not first:
                _char(buffer, b',')
            first = False
            _key(buffer, key)
            _value(buffer, item)
        return _char(buffer, b'}')
    if kind is list or kind is tuple:
        _char(buffer, b'[')
        for item in value:
            if not first:
                _char(buffer, b',')
            first = False
            _value(buffer, item)
        return _char(buffer, b']')
    raise _Unwritable()  # subclasses, datetimes, other objects: the reference path decides


cdef int _wire_numbers(_Buffer* buffer, object mapping) except -1:
    """A components / adjustments / diagnostics / weights object (_numbers: top level only)."""
    cdef bint first = True
    if type(mapping) is not dict:
        raise _Unwritable()
    _char(buffer, b'{')
    for key, item in (<dict>mapping).items():
        if not first:
            _char(buffer, b',')
        first = False
        _key(buffer, key)
        _wire_number(buffer, item)
    return _char(buffer, b'}')


cdef int _warning_json(_Buffer* buffer, object warning) except -1:
    _lit(buffer, b'{"code":')
    _value(buffer, _get(warning, WARNING_CODE))
    _lit(buffer, b',"severity":')
    _value(buffer, _get(warning, WARNING_SEVERITY))
    _lit(buffer, b',"message":')
    _value(buffer, _get(warning, WARNING_MESSAGE))
    _lit(buffer, b',"path":')
    _value(buffer, _get(warning, WARNING_PATH))
    return _char(buffer, b'}')


cdef int _warnings_json(_Buffer* buffer, object warnings) except -1:
    cdef bint first = True
    _char(buffer, b'[')
    for warning in warnings:
        if not first:
            _char(buffer, b',')
        first = False
        _warning_json(buffer, warning)
    return _char(buffer, b']')


cdef int _tier_json(_Buffer* buffer, object tier) except -1:
    if tier is None:
        return _lit(buffer, b"null")
    _lit(buffer, b'{"score":')
    _wire_number(buffer, _get(tier, TIER_SCORE))
    _lit(buffer, b',"label":')
    _value(buffer, _get(tier, TIER_LABEL))
    _lit(buffer, b',"color":')
    _value(buffer, _get(tier, TIER_COLOR))
    return _char(buffer, b'}')


cdef int _dimension_json(_Buffer* buffer, object score) except -1:
    breakdown = _get(score, SCORE_BREAKDOWN)
    _lit(buffer, b'{"raw":')
    _wire_number(buffer, _get(score, SCORE_RAW))
    _lit(buffer, b',"max":')
    _wire_number(buffer, _get(score, SCORE_MAX))
    _lit(buffer, b',"normalized":')
    _wire_number(buffer, _get(score, SCORE_NORMALIZED))
    _lit(buffer, b',"explanation":')
    _value(buffer, _get(score, SCORE_EXPLANATION))
    _lit(buffer, b',"breakdown":{"components":')
    _wire_numbers(buffer, _get(breakdown, BREAKDOWN_COMPONENTS))
    _lit(buffer, b',"adjustments":')
    _wire_numbers(buffer, _get(breakdown, BREAKDOWN_ADJUSTMENTS))
    _lit(buffer, b',"diagnostics":')
    _wire_numbers(buffer, _get(breakdown, BREAKDOWN_DIAGNOSTICS))
    _lit(buffer, b',"uncappedRaw":')
    _wire_number(buffer, _get(breakdown, BREAKDOWN_UNCAPPED_RAW))
    _lit(buffer, b',"raw":')
    _wire_number(buffer, _get(breakdown, BREAKDOWN_RAW))
    _char(buffer, b'}')
    warnings = _get(score, SCORE_WARNINGS)
    if warnings is not None:
        _lit(buffer, b',"warnings":')
        _warnings_json(buffer, warnings)
    return _char(buffer, b'}')


cdef int _scorecard_json(_Buffer* buffer, object card) except -1:
    cdef bint first = True
    meta = _get(card, CARD_META)
    _lit(buffer, b'{"total":')
    _wire_number(buffer, _get(card, CARD_TOTAL))
    _lit(buffer, b',"label":')
    _value(buffer, _get(card, CARD_LABEL))
    _lit(buffer, b',"labelColor":')
    _value(buffer, _get(card, CARD_LABEL_COLOR))
    _lit(buffer, b',"recommendedAction":')
    _value(buffer, _get(card, CARD_RECOMMENDED_ACTION))
    _lit(buffer, b',"actionReason":')
    _value(buffer, _get(card, CARD_ACTION_REASON))
    _lit(buffer, b',"tier1":')
    _tier_json(buffer, _get(card, CARD_TIER1))
    _lit(buffer, b',"tier2":')
    _tier_json(buffer, _get(card, CARD_TIER2))
    _lit(buffer, b',"dimensions":{')
    for name, dimension in _get(card, CARD_DIMENSIONS).items():
        if not first:
            _char(buffer, b',')
        first = False
        _key(buffer, name)
        _dimension_json(buffer, dimension)
    _lit(buffer, b'},"meta":{"algorithmVersion":')
    _value(buffer, _get(meta, META_ALGORITHM_VERSION))
    _lit(buffer, b',"schemaVersion":')
    _value(buffer, _get(meta, META_SCHEMA_VERSION))
    _lit(buffer, b',"rawTotal":')
    _wire_number(buffer, _get(meta, META_RAW_TOTAL))
    _lit(buffer, b',"maxPossible":')
    _wire_number(buffer, _get(meta, META_MAX_POSSIBLE))
    _lit(buffer, b',"activeExtensions":')
    _value(buffer, _get(meta, META_ACTIVE_EXTENSIONS))
    _lit(buffer, b',"activeDimensions":')
    _value(buffer, _get(meta, META_ACTIVE_DIMENSIONS))
    _lit(buffer, b',"missingSignals":')
    _value(buffer, _get(meta, META_MISSING_SIGNALS))
    _lit(buffer, b',"warnings":')
    _warnings_json(buffer, _get(meta, META_WARNINGS))
    _lit(buffer, b',"weights":')
    _wire_numbers(buffer, _get(meta, META_WEIGHTS))
    return _lit(buffer, b'}}')


cdef int _card_json(_Buffer* buffer, object card) except -1:
    """Append ``card``'s JSON text to ``buffer``, tagged if it holds a non-finite number.

    :raises _Unwritable: (the buffer then holds a partial text) see above.
    """
    cdef Py_ssize_t start = buffer.size
    buffer.ascii = True
    buffer.tagged = False
    try:
        return _scorecard_json(buffer, card)
    except _NonFinite:
        buffer.size = start
        buffer.ascii = True
        buffer.tagged = True
        return _scorecard_json(buffer, card)


def float_text(double value):
    """The text this writer gives a float (repr(value); tagged when non-finite), for tests."""
    cdef _Buffer buffer
    buffer.size = 0
    buffer.capacity = 64
    buffer.ascii = True
    buffer.tagged = True
    buffer.data = <char*>PyMem_Malloc(buffer.capacity)
    if buffer.data == NULL:
        raise MemoryError()
    try:
        _float_text(&buffer, value)
        return PyUnicode_DecodeUTF8(buffer.data, buffer.size, NULL)
    finally:
        PyMem_Free(buffer.data)


def scorecard_json(scorecard):
    """The compact JSON text of ``scorecard``'s wire shape, or ``None`` when it holds a value
    this writer leaves to ``wire_to_json(scorecard_to_wire(scorecard))`` (see above)."""
    cdef _Buffer buffer
    buffer.size = 0
    buffer.capacity = 4096
    buffer.data = <char*>PyMem_Malloc(buffer.capacity)
    if buffer.data == NULL:
        raise MemoryError()
    try:
        _card_json(&buffer, scorecard)
        if not buffer.ascii:
            return PyUnicode_DecodeUTF8(buffer.data, buffer.size, NULL)
        text = PyUnicode_New(buffer.size, 127)
        memcpy(PyUnicode_DATA(text), buffer.data, buffer.size)
        return text
    except _Unwritable:
        return None
    finally:
        PyMem_Free(buffer.data)


# ------------------------------------------------------------------------ blocks of JSON Lines
#
# Twin of assay._scorecard.lines.score_block (same contract): the block's lines are found with
# memchr, a bare inputs object (or {"inputs", "id"?} without a config) is read with orjson here,
# and every scorecard's JSON is written into one buffer, which becomes the block's text. Anything
# else -- a line orjson cannot read, a tagged number, a line with a config -- goes through the
# reference parse_request_line, and a card this writer leaves alone through the reference
# scorecard_to_json, so results and errors are the reference's.

cdef extern from "string.h":
    const void* memchr(const void* text, int c, size_t length)
    int memcmp(const void* left, const void* right, size_t length)

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize

cdef object BlockResult = None
cdef object parse_request_line = None
cdef object reference_scorecard_to_json = None
cdef object encode_utf8 = None
cdef object orjson_loads = None
cdef object OrjsonDecodeError = None


def bind_lines(block_result, parse_line, card_to_json, utf8):
    """Give this module the lines module's result type and reference helpers (called once by
    assay._scorecard.lines at import)."""
    global BlockResult, parse_request_line, reference_scorecard_to_json, encode_utf8
    global orjson_loads, OrjsonDecodeError
    import orjson

    BlockResult = block_result
    parse_request_line = parse_line
    reference_scorecard_to_json = card_to_json
    encode_utf8 = utf8
    orjson_loads = orjson.loads
    OrjsonDecodeError = orjson.JSONDecodeError


cdef inline bint _blank(const char* text, Py_ssize_t length):
    """Only the ASCII whitespace bytes.strip() removes."""
    cdef Py_ssize_t index
    cdef char c
    for index in range(length):
        c = text[index]
        if c != b' ' and c != b'\t' and c != b'\r' and c != b'\x0b' and c != b'\x0c':
            return False
    return True


cdef bint _has_float_tag(const char* text, Py_ssize_t length):
    """Whether ``"$float"`` occurs in the line (the reference's test for tagged numbers)."""
    cdef const char* at = text
    cdef const char* stop = text + length
    while True:
        at = <const char*>memchr(at, b'$', stop - at)
        if at == NULL:
            return False
        if at > text and (at - 1)[0] == b'"' and stop - at >= 7 and memcmp(at, b'$float"', 7) == 0:
            return True
        at += 1


cdef object _request_inputs(bytes line, const char* text, Py_ssize_t length, str config_key):
    """parse_request_line(line, config_key), read here in the common cases."""
    if not _has_float_tag(text, length):
        try:
            record = orjson_loads(line)
        except OrjsonDecodeError:
            record = None  # NaN literals, broken text: the reference reads it and words the error
        if type(record) is dict:
            if "inputs" not in <dict>record:
                return record
            for key in <dict>record:
                if key != "inputs" and key != "id" and key != "config":
                    break
            else:
                if (<dict>record).get("config") is None:
                    return (<dict>record)["inputs"]
    return parse_request_line(line, config_key)


def score_block(scorer, bytes block, str config_key, bint skip_blank=True):
    """Twin of :func:`assay._scorecard.lines.score_block` (same contract)."""
    cdef const char* data = PyBytes_AS_STRING(block)
    cdef Py_ssize_t size = len(block), start = 0, end, mark, row = 0, index = 0
    cdef const char* newline
    cdef bint last = False
    cdef list errors = []
    cdef _Buffer buffer
    compute = scorer.compute
    buffer.size = 0
    buffer.capacity = 8 * size + 4096  # a scorecard line is ~6x its request line
    buffer.data = <char*>PyMem_Malloc(buffer.capacity)
    if buffer.data == NULL:
        raise MemoryError()
    try:
        while not last:
            newline = <const char*>memchr(data + start, b'\n', size - start)
            if newline == NULL:
                end = size
                last = True
            else:
                end = newline - data
            if not (skip_blank and _blank(data + start, end - start)):
                line = PyBytes_FromStringAndSize(data + start, end - start)
                try:
                    card = compute(_request_inputs(line, data + start, end - start, config_key))
                except AssayError as error:
                    errors.append((row, index, error))
                else:
                    mark = buffer.size
                    try:
                        _card_json(&buffer, card)
                    except _Unwritable:
                        buffer.size = mark
                        text = encode_utf8(reference_scorecard_to_json(card))
                        _raw(&buffer, PyBytes_AS_STRING(text), len(text))
                _char(&buffer, b'\n')
                row += 1
            index += 1
            start = end + 1
            if start == size:  # the block ends with a newline: no line after it
                last = True
        return BlockResult(PyBytes_FromStringAndSize(buffer.data, buffer.size), errors)
    finally:
        PyMem_Free(buffer.data)
