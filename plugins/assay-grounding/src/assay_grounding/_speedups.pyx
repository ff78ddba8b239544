# cython: language_level=3, binding=True, infer_types=False
"""Compiled twins of ``Grounding.score`` (grounding.py) and ``AnswerRelevance.score``
(relevance.py).

``grounding_score`` and ``relevance_score`` mirror the pure-Python methods statement by
statement and MUST stay in step with them: same results to the bit (same floats, int where the
reference gives an int and float where it gives a float, same strings, same dict key order, same
warnings, the same exception for odd input). The .py files are the reference; change them
first, then this file, then run tests/test_speedups.py, which compares the two over the
conformance vectors and edge cases.

Where the speed comes from: the points are counted in a C ``long`` (every term is a small int,
as in the reference; the result goes back as a Python int, or the float bound when clamped), and the signal coercions (JavaScript truthiness, ``typeof === "number"``,
``Number(x)``) are done inline for the exact built-in types the signals normally have (None,
bool, str, int, float). Any other type goes through the same public helpers the reference calls
(``assay.signals``, ``assay.jsmath``), so odd input behaves exactly as it does there. Inputs (or,
for relevance, a config) that are not a plain ``dict`` are handed to the pure-Python method.

Only locals declared with ``cdef`` are C values (``infer_types=False``): an untyped local stays
a Python object, so an int never turns into a float by type inference.

The constants (warnings, base points, ceilings, bands) are the ones grounding.py and
relevance.py define. This module is imported at the end of grounding.py, when grounding's exist;
relevance.py imports this module in turn, so relevance's are fetched on the first call.
"""

from libc.math cimport NAN, fabs, floor, isinf, isnan

from collections.abc import Mapping

import assay
from assay.jsmath import round_to
from assay.signals import (
    DOCUMENTS_SILENT,
    claim_support_problem,
    js_truthy,
    resolve_score_bands,
)

from assay_grounding.grounding import (
    _BASE,
    _CEILINGS,
    LOW_COVERAGE,
    MANY_INVALID_CITATIONS,
    MAX_POINTS,
    MISSING_FAITHFULNESS,
    ONE_INVALID_CITATION,
    PURE_SCORE,
)

cdef object _ABSENT = object()  # "key not in inputs", for one dict lookup instead of two
cdef double _MAX_POINTS = MAX_POINTS
cdef dict _BASE_POINTS = _BASE  # the same dicts, typed: a C lookup instead of a bound .get
cdef dict _CEILING_POINTS = _CEILINGS


cdef inline bint _is_number(object value):
    """``assay.signals.is_number``: int or float, not bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


cdef inline bint _truthy(object value) except -1:
    """``assay.signals.js_truthy``, inline for None, bool, str and float; the helper otherwise
    (an int may be too large for ``math.isnan``, which the helper lets raise)."""
    if value is None or value is False:
        return False
    if value is True:
        return True
    if type(value) is str:
        return len(<str>value) != 0
    if type(value) is float:
        return value != 0.0 and not isnan(<double>value)
    return js_truthy(value)


cdef inline double _num(object value) except? -1.0:
    """``grounding._num``: JavaScript numeric coercion for relational comparisons."""
    if value is None or value is False:
        return 0.0
    if value is True:
        return 1.0
    if _is_number(value):
        return float(value)
    return NAN


cdef inline double _js_min(double a, double b):
    """``grounding._js_min``: NaN if either is NaN, else ``min(a, b)`` (the first on a tie)."""
    if a != a or b != b:
        return NAN
    return b if b < a else a


cdef inline long _support_penalty(object effective) except? -99:
    """``grounding._support_penalty``, comparing as Python does."""
    if effective >= 0.9:
        return 0
    if effective >= 0.7:
        return -3
    if effective >= 0.5:
        return -7
    return -12


cdef inline str _js_number_float(double x):
    """``assay.jsmath.js_number`` of a float (every number this module formats is one)."""
    if isnan(x):
        return "NaN"
    if isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == floor(x) and fabs(x) < 1e21:
        return str(int(x))
    return repr(x)


cdef inline object _round_to(object x, int digits):
    """``assay.jsmath.round_to``, inline for a float (the helper for anything else): the same
    binary64 steps. The helper rounds to a Python int, which has no -0: a zero result is +0.0
    (round_to(-0.0) is 0.0), and an integral double plus one rounds as the int-to-float
    conversion does."""
    cdef double scale, scaled, rounded
    if type(x) is not float:
        return round_to(x, digits)
    scale = 10.0 ** digits
    scaled = <double>x * scale
    if scaled - scaled != 0:  # NaN or an infinity
        return scaled / scale
    rounded = floor(scaled)
    if scaled - rounded >= 0.5:
        rounded += 1.0
    if rounded == 0.0:
        rounded = 0.0  # not -0.0
    return rounded / scale


cdef inline bint _plain_count(object value):
    """A plain int from 0 to 2**53: a count the helper accepts, and no sum of four overflows."""
    return type(value) is int and 0 <= value <= 9007199254740992


cdef bint _claims_valid(object claims) except -1:
    """``assay.signals.claim_support_problem(claims) is None``, computed here for a plain dict of
    plain counts (nothing can raise there), by the helper for anything else."""
    cdef dict counts
    cdef long long total, supported, contradicted, unsupported
    if type(claims) is not dict:
        return claim_support_problem(claims) is None
    counts = <dict>claims
    total_ = counts.get("totalClaims")
    supported_ = counts.get("supportedClaims")
    contradicted_ = counts.get("contradictedClaims", 0)
    unsupported_ = counts.get("unsupportedClaims", 0)  # absent: checked by the helper as 0
    if not (
        _plain_count(total_)
        and _plain_count(supported_)
        and _plain_count(contradicted_)
        and _plain_count(unsupported_)
    ):
        return claim_support_problem(claims) is None
    total = total_
    supported = supported_
    contradicted = contradicted_
    unsupported = unsupported_
    return (
        total > 0
        and supported + contradicted <= total
        and supported + unsupported + contradicted <= total
    )


def grounding_score(self, inputs, config):
    """``Grounding.score(inputs, config)``, compiled: see the module docstring."""
    if type(inputs) is not dict:
        return PURE_SCORE(self, inputs, config)
    return _score(<dict>inputs)


cdef object _score(dict inputs):
    if inputs.get("documentsSilent") is True:
        return assay.dimension_score(
            raw=0,
            max_points=MAX_POINTS,
            explanation="Documents do not address this question; grounding scores 0.",
            components={"supportBase": 0},
            diagnostics={"documentsSilent": True},
            warnings=[DOCUMENTS_SILENT],
        )
    cdef dict adjustments = {}
    cdef dict diagnostics = {}
    cdef list warnings = []
    cdef list reasons = []
    cdef long base, score, penalty, bonus, ceiling_points
    cdef bint ambiguous, high, claims_valid, bonus_allowed
    cdef double invalid_n, coverage_n, count_n
    cdef object raw  # int or float, as in the reference: never let Cython infer a C double

    support = inputs.get("supportLevel")
    ambiguous = _truthy(inputs.get("ambiguityNotes"))
    high = support == "high"
    base = 21 if high and ambiguous else _BASE_POINTS.get(support, 5)
    # grounding._support_reason
    if high and not ambiguous:
        reasons.append("Source text directly and unambiguously answers the question.")
    elif high:
        reasons.append("Source text answers the question, with ambiguity noted.")
    elif support == "medium":
        reasons.append("Source text partially supports the answer.")
    else:
        reasons.append(f"Source support is low ({base} base points).")
    score = base

    if inputs.get("requiresExpertReview") is True:
        score -= 3
        adjustments["expertReviewPenalty"] = -3
        reasons.append("Expert review recommended (-3).")
    note = inputs.get("externalConstraintNote")
    if isinstance(note, str) and note:
        score -= 2
        adjustments["externalConstraintPenalty"] = -2
        diagnostics["externalConstraintPresent"] = True
        reasons.append("External constraint limits the answer (-2).")
    if inputs.get("hasConflict") is True:
        score -= 5
        adjustments["conflictPenalty"] = -5
        reasons.append("Sources conflict (-5).")

    complexity = inputs.get("queryComplexity")
    if _truthy(complexity) and complexity != "direct":
        diagnostics["queryComplexity"] = complexity
        ceiling = _CEILING_POINTS.get(complexity) if isinstance(complexity, str) else None
        if ceiling is not None:
            diagnostics["complexityCeiling"] = ceiling
            ceiling_points = ceiling
            if score > ceiling_points:
                adjustments["complexityCeiling"] = ceiling_points - score
                score = ceiling_points
                reasons.append(f"{complexity} question: capped at {ceiling_points}.")

    claims = inputs.get("claimSupport", _ABSENT)
    claims_valid = claims is not _ABSENT and _claims_valid(claims)
    claim_score = None
    if claims_valid:
        total = claims["totalClaims"]
        supported = claims["supportedClaims"]
        contradicted = claims.get("contradictedClaims", 0)
        diagnostics["totalClaims"] = total
        diagnostics["supportedClaims"] = supported
        diagnostics["unsupportedClaims"] = claims.get(
            "unsupportedClaims", total - supported - contradicted
        )
        diagnostics["contradictedClaims"] = contradicted
        claim_score = supported / total
        diagnostics["claimSupportScore"] = _round_to(claim_score, 4)

    faithfulness = inputs.get("faithfulnessScore", _ABSENT)
    if faithfulness is _ABSENT:
        faithfulness = None
    else:
        diagnostics["faithfulnessScore"] = faithfulness
    faithfulness_number = _is_number(faithfulness)
    claim_number = _is_number(claim_score)
    if faithfulness_number or claim_number:
        if faithfulness_number and claim_number:
            effective = _js_min(float(faithfulness), float(claim_score))
        elif faithfulness_number:
            effective = faithfulness
        else:
            effective = claim_score
        diagnostics["effectiveSupportScore"] = _round_to(effective, 4)
        penalty = _support_penalty(effective)
        if penalty:
            score += penalty
            adjustments["supportSignalPenalty"] = penalty
            reasons.append(
                f"Effective support score {_js_number_float(_round_to(effective, 2))} ({penalty})."
            )
    else:
        warnings.append(MISSING_FAITHFULNESS)
    if claims_valid and claims.get("contradictedClaims", 0) >= 1:
        score -= 5
        adjustments["contradictionPenalty"] = -5
        reasons.append("Contradicted claims (-5).")

    invalid = inputs.get("invalidCitationCount", 0)
    diagnostics["invalidCitationCount"] = invalid
    invalid_n = _num(invalid)
    bonus_allowed = True
    if invalid_n == 1 or invalid_n >= 2:
        penalty = -2 if invalid_n == 1 else -5
        score += penalty
        adjustments["invalidCitationPenalty"] = penalty
        warnings.append(ONE_INVALID_CITATION if invalid_n == 1 else MANY_INVALID_CITATIONS)
        bonus_allowed = False
        reasons.append(f"Invalid citations ({penalty}).")

    coverage = inputs.get("citationCoverageScore", _ABSENT)
    if coverage is not _ABSENT:
        diagnostics["citationCoverageScore"] = coverage
        coverage_n = _num(coverage)
        if coverage_n < 0.5:
            score -= 3
            adjustments["citationCoveragePenalty"] = -3
            warnings.append(LOW_COVERAGE)
            reasons.append("Citation coverage below 0.50 (-3).")
        elif coverage_n < 0.8:
            score -= 1
            adjustments["citationCoveragePenalty"] = -1
            reasons.append("Citation coverage below 0.80 (-1).")

    count = inputs.get("citationCount", _ABSENT)
    if count is not _ABSENT:
        diagnostics["citationCount"] = count
        count_n = _num(count)
        if bonus_allowed and count_n > 0:
            bonus = 2 if count_n >= 3 else 1 if count_n == 2 else 0
            if bonus:
                score += bonus
                adjustments["citationBonus"] = bonus
                reasons.append(
                    f"{_js_number_float(count_n)} sections explicitly cited in answer (+{bonus})."
                )

    # grounding._clamp(score, 0.0, MAX_POINTS) is min(30.0, max(0.0, score)): the int score
    # itself strictly between the bounds, else the float bound (a tie keeps the float).
    if score <= 0:
        raw = 0.0
    elif score >= _MAX_POINTS:
        raw = _MAX_POINTS
    else:
        raw = score
    if raw != score:
        adjustments["clamp"] = raw - score
    return assay.dimension_score(
        raw=raw,
        max_points=MAX_POINTS,
        explanation=" ".join(reasons),
        components={"supportBase": base},
        adjustments=adjustments,
        diagnostics=diagnostics,
        uncapped_raw=score,
        warnings=warnings or None,
    )


# ---------------------------------------------------------------------------- answer relevance
cdef bint _relevance_loaded = False
cdef dict _DEFAULT_BANDS
cdef tuple _RELEVANCE_POINTS
cdef object _RELEVANCE_MAX, _MISSING_RELEVANCE, _PURE_RELEVANCE


cdef int _load_relevance() except -1:
    """Fetch relevance.py's constants (it imports this module, so not at import time)."""
    global _relevance_loaded, _DEFAULT_BANDS, _RELEVANCE_POINTS
    global _RELEVANCE_MAX, _MISSING_RELEVANCE, _PURE_RELEVANCE
    from assay_grounding import relevance

    _DEFAULT_BANDS = relevance.DEFAULT_BANDS
    _RELEVANCE_POINTS = relevance._POINTS
    _RELEVANCE_MAX = relevance.MAX_POINTS
    _MISSING_RELEVANCE = relevance.MISSING_RELEVANCE
    _PURE_RELEVANCE = relevance.PURE_SCORE
    _relevance_loaded = True
    return 0


def relevance_score(self, inputs, config):
    """``AnswerRelevance.score(inputs, config)``, compiled: see the module docstring."""
    if not _relevance_loaded:
        _load_relevance()
    if type(inputs) is not dict or type(config) is not dict:
        return _PURE_RELEVANCE(self, inputs, config)
    return _relevance(<dict>inputs, <dict>config)


cdef object _relevance(dict inputs, dict config):
    cdef double number

    value = inputs.get("answerRelevanceScore", _ABSENT)
    if value is _ABSENT:
        return assay.dimension_score(
            raw=0,
            max_points=_RELEVANCE_MAX,
            explanation="Answer relevance is required but was not provided (0 of 15).",
            components={"relevanceScore": 0},
            adjustments={"missingRequired": -15},
            diagnostics={"required": True, "scoreProvided": False},
            uncapped_raw=0,
            warnings=[_MISSING_RELEVANCE],
        )
    # relevance._section(config).get("scoreBands")
    section = config.get("relevance")
    if section is None:
        overrides = None
    elif type(section) is dict:
        overrides = (<dict>section).get("scoreBands")
    elif isinstance(section, Mapping):
        overrides = section.get("scoreBands")
    else:
        overrides = None
    if overrides is None:
        # what resolve_score_bands(None, ...) returns: a copy of the (valid, constant) defaults,
        # which is only read here
        bands = _DEFAULT_BANDS
    else:
        bands = resolve_score_bands(overrides, "relevance.scoreBands", _DEFAULT_BANDS)
    if value is None:
        number = 0.0
    elif isinstance(value, (int, float)):  # bool included, as in the reference
        number = float(value)
    else:
        number = NAN
    number_ = number
    points = 0
    for key, band_points in _RELEVANCE_POINTS:
        if number_ >= bands[key]:
            points = band_points
            break
    return assay.dimension_score(
        raw=points,
        max_points=_RELEVANCE_MAX,
        explanation=f"Answer relevance score {_js_number_float(_round_to(number_, 2))} earns "
        f"{points} of 15 points.",
        components={"relevanceScore": points},
        diagnostics={
            "answerRelevanceScore": _round_to(number_, 4) if value is not None else None,
            "bandFull": bands["full"],
            "bandHigh": bands["high"],
            "bandMedium": bands["medium"],
            "bandLow": bands["low"],
        },
        warnings=[],
    )
