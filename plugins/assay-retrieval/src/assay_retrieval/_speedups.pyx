# cython: language_level=3, binding=True, infer_types=False
"""Compiled twins of ``RetrievalConfidence.score`` (retrieval.py) and
``EvidenceConsistency.score`` (consistency.py).

``retrieval_score`` and ``consistency_score`` mirror the pure-Python methods statement by
statement and MUST stay in step with them: same results to the bit (same floats, int where the
reference gives an int and float where it gives a float, same strings, same dict key order, same
warnings, the same exception for odd input). The .py files are the reference; change them first,
then this file, then run tests/test_speedups.py, which compares the two over every conformance
vector and a set of edge cases.

Where the speed comes from: the candidates are read once into C doubles and counters, sorted
with a stable insertion sort (a handful of candidates is the normal case), and the resolved
settings are kept as C values per settings object (``_Plan``).

How the results stay identical:

* The fast path accepts only what it can compute with the same IEEE operations, in the same
  order, as the reference: a ``list`` of ``dict`` candidates, ``dict`` retrievalScores, combined
  scores and extraction qualities that are ``float``, ``int`` up to 2**32 in magnitude (exact
  as doubles, and so are their sums), ``None`` or ``bool``. ``x ** 2`` in the reference calls
  libm's ``pow`` (which is not always ``x * x``), so ``_square`` calls ``pow`` too, with an
  exponent the C compiler cannot fold.
* CPython 3.11's ``sum()`` adds floats left to right, which the C loops do; from 3.12 on it
  compensates (Neumaier), so there the standard deviation is computed by the reference's
  ``population_std`` on the same Python numbers (``_c_sum`` below). So is a standard deviation
  whose squares overflow or underflow (where ``**`` may raise).
* Anything else, and any exception on the fast path, hands the call to the pure-Python method
  (``PURE_SCORE`` of retrieval.py / consistency.py), which computes, or raises, exactly what the
  reference does. So do a NaN combined score among several candidates (Python's sort order
  with NaN is its own), and a settings value that is not an exact double.
* Penalties, caps and conflict counts keep the reference's Python arithmetic on the Python
  values (they are rare, and their int-vs-float results matter on the wire).

The constants (warnings, maxima) and the pure methods are taken from retrieval.py and
consistency.py on the first call (``_bind``): this module is imported at the end of
retrieval.py, while consistency.py, which imports retrieval.py first, is still loading.
"""

import sys

from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.long cimport PyLong_AsDouble, PyLong_FromVoidPtr
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_DecodeASCII
from libc.float cimport DBL_MIN
from libc.math cimport copysign, fabs, floor, isfinite, isinf, pow, signbit, sqrt

import assay
from assay.jsmath import to_fixed
from assay.signals import MISSING_CANDIDATES

cdef object _ABSENT = object()  # "key not in the dict", for one lookup instead of two

# An int combined score or quality up to this magnitude is an exact double, and so is every sum
# of at most _MAX_FAST_N of them: the C arithmetic equals Python's int arithmetic there.
cdef double _INT_BOUND = 4294967296.0  # 2**32
cdef Py_ssize_t _MAX_FAST_N = 1 << 20
cdef double _DOUBLE_EXACT = 9007199254740992.0  # 2**53: a settings int beyond it is not exact
cdef enum:
    _STACK_N = 64  # candidates held in stack buffers; more go to the heap

# A module variable, assigned at import: the C compiler cannot fold pow(x, _TWO) into x * x.
cdef double _TWO = 2.0

# CPython < 3.12 sums floats left to right (as the C loops here do); 3.12+ compensates.
cdef bint _c_sum = sys.version_info < (3, 12)

# Bound on the first call (see the module docstring).
cdef bint _bound = False
cdef object _retrieval_pure, _consistency_pure, _is_valid_rank, _combined, _pure_population_std
cdef object _RetrievalConfidence
cdef object _SINGLE_METHOD, _AMBIGUOUS_TOP, _MISSING_CONFLICT
cdef object _RETRIEVAL_MAX, _CONSISTENCY_MAX


cdef int _bind() except -1:
    global _bound, _retrieval_pure, _consistency_pure, _is_valid_rank, _combined
    global _pure_population_std, _SINGLE_METHOD, _AMBIGUOUS_TOP, _MISSING_CONFLICT
    global _RETRIEVAL_MAX, _CONSISTENCY_MAX, _RetrievalConfidence
    from assay_retrieval import consistency, retrieval

    _retrieval_pure = retrieval.PURE_SCORE
    _RetrievalConfidence = retrieval.RetrievalConfidence
    _is_valid_rank = retrieval._is_valid_rank
    _combined = retrieval._combined
    _pure_population_std = retrieval.population_std
    _SINGLE_METHOD = retrieval.SINGLE_METHOD
    _AMBIGUOUS_TOP = retrieval.AMBIGUOUS_TOP
    _RETRIEVAL_MAX = retrieval.MAX_POINTS
    _consistency_pure = consistency.PURE_SCORE
    _MISSING_CONFLICT = consistency.MISSING_CONFLICT
    _CONSISTENCY_MAX = consistency.MAX_POINTS
    _bound = True
    return 0


def _retrieval_fast_path(self, inputs, config):
    """Tests only: the compiled retrieval score, or None where it hands over to the reference
    (errors propagate)."""
    if not _bound:
        _bind()
    return _retrieval(self, inputs, config)


def _consistency_fast_path(inputs):
    """Tests only: the compiled consistency score, or None where it hands over to the
    reference (errors propagate)."""
    if not _bound:
        _bind()
    return _consistency(inputs)


def _set_c_sum(bint enabled):
    """Tests only: sum in C (the CPython 3.11 way) or through the reference's
    ``population_std`` (the 3.12+ way); returns the previous setting."""
    global _c_sum
    previous = _c_sum
    _c_sum = enabled
    return previous


# ---------------------------------------------------------------------------------- numbers
cdef inline bint _exact_double(object value, double* out) except -1:
    """A ``float``, or an ``int`` that is an exact double: its value in ``out``."""
    if type(value) is float:
        out[0] = PyFloat_AS_DOUBLE(value)
        return True
    if type(value) is int:
        out[0] = PyLong_AsDouble(value)  # OverflowError for a huge int: the caller falls back
        return -_DOUBLE_EXACT <= out[0] <= _DOUBLE_EXACT
    return False


cdef inline bint _fast_number(object value, double* out) except -1:
    """``retrieval._combined`` (and the extraction-quality factor) for the types the fast path
    takes: a float, an int within ``_INT_BOUND``, None (0.0), a bool (0.0 / 1.0)."""
    if type(value) is float:
        out[0] = PyFloat_AS_DOUBLE(value)
        return True
    if value is None:
        out[0] = 0.0
        return True
    if type(value) is int:
        out[0] = PyLong_AsDouble(value)
        return -_INT_BOUND <= out[0] <= _INT_BOUND
    if type(value) is bool:
        out[0] = 1.0 if value is True else 0.0
        return True
    return False


cdef inline double _square(double x):
    """Python's ``x ** 2`` for a finite float: ``pow(abs(x), 2.0)`` from libm; 0 when x is 0."""
    if x == 0.0:
        return 0.0
    if x < 0.0:
        x = -x
    return pow(x, _TWO)


cdef bint _population_std(double* values, Py_ssize_t* order, Py_ssize_t n, double* out):
    """``retrieval.population_std`` over ``values`` (in ``order`` when given), as CPython 3.11
    computes it; False when Python would differ (3.12+ sums, an overflowing or subnormal
    square, where ``**`` may raise)."""
    cdef double total = 0.0, mean, squares = 0.0, square
    cdef Py_ssize_t i
    if not _c_sum:
        return False
    for i in range(n):
        total += values[order[i] if order else i]
    mean = total / n
    for i in range(n):
        square = _square(values[order[i] if order else i] - mean)
        if isinf(square) or (square != 0.0 and square < DBL_MIN):
            return False
        squares += square
    out[0] = sqrt(squares / n)
    return True


cdef inline double _round_to4(double x):
    """``assay.jsmath.round_to(x, 4)``: the same binary64 steps."""
    cdef double scaled = x * 10000.0, below
    if scaled - scaled != 0:  # NaN or an infinity passes through
        return scaled / 10000.0
    below = floor(scaled)
    # math.floor gives an int there, which has no -0: "+ 0.0" turns -0.0 into 0.0
    return ((below + 1 if scaled - below >= 0.5 else below) + 0.0) / 10000.0


cdef object _to_fixed4(double x):
    """``assay.jsmath.to_fixed(x, 4)``. Away from a tie, ``round(x, 4)`` is the double nearest
    to N / 10**4, N the integer nearest to the exact x * 10**4; below 2**33, ``x * 10000.0`` is
    within 2**-20 of that exact product, so N comes from it and the one IEEE division rounds
    N / 10**4 as ``round`` does. Ties and larger values go to ``to_fixed`` itself."""
    cdef double scaled, below
    if not isfinite(x):
        return x
    scaled = fabs(x) * 10000.0
    below = floor(scaled)
    if scaled >= 8589934592.0 or fabs(scaled - below - 0.5) <= 1e-6:
        return to_fixed(x, 4)
    return copysign((below + 1.0 if scaled - below > 0.5 else below) / 10000.0, x)


cdef str _fixed_text(double x, int digits):
    """``format(x, f".{digits}f")`` for ``digits`` 2 or 3. Away from a tie and below 2**33
    (scaled), the digits are those of N, the integer nearest to the exact x * 10**digits, found
    as in ``_to_fixed4``; the sign is printed for every negative x, -0.0 included, as Python
    does. Ties, larger values, NaN and infinities are formatted by Python itself."""
    cdef double scale = 100.0 if digits == 2 else 1000.0, scaled = fabs(x) * scale, below
    cdef long long n
    cdef char text[32]
    cdef int pos = 32, i
    if not isfinite(x) or scaled >= 8589934592.0:
        return format(x, ".2f" if digits == 2 else ".3f")
    below = floor(scaled)
    if fabs(scaled - below - 0.5) <= 1e-6:
        return format(x, ".2f" if digits == 2 else ".3f")
    n = <long long>(below + 1.0 if scaled - below > 0.5 else below)
    for i in range(digits):
        pos -= 1
        text[pos] = c'0' + <char>(n % 10)
        n //= 10
    pos -= 1
    text[pos] = c'.'
    while True:
        pos -= 1
        text[pos] = c'0' + <char>(n % 10)
        n //= 10
        if n == 0:
            break
    if signbit(x):
        pos -= 1
        text[pos] = c'-'
    return PyUnicode_DecodeASCII(text + pos, 32 - pos, NULL)


def _std(list values):
    """Tests only: ``population_std(values)`` by the C code, or None where it hands over."""
    cdef Py_ssize_t i, n = len(values)
    cdef double std
    cdef double* doubles = <double*>PyMem_Malloc((n or 1) * sizeof(double))
    if doubles == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            doubles[i] = values[i]
        return std if n and _population_std(doubles, NULL, n, &std) else None
    finally:
        PyMem_Free(doubles)


def _rounded(double x):
    """Tests only: ``round_to(x, 4)``, ``to_fixed(x, 4)``, ``f"{x:.2f}"`` and ``f"{x:.3f}"``
    by the C code."""
    return _round_to4(x), _to_fixed4(x), _fixed_text(x, 2), _fixed_text(x, 3)


# -------------------------------------------------------------------------------- retrieval
cdef class _Plan:
    """The C values of one ``RetrievalSettings`` (kept for the last settings object seen)."""

    cdef object settings
    cdef bint fast  # every compared value is an exact double
    cdef Py_ssize_t top_k, min_confirmed
    cdef object top_k_value  # settings.top_k, for the diagnostics
    cdef str top_k_text, min_confirmed_text  # str() of the settings ints, for the explanation
    cdef object default_threshold
    cdef double default_threshold_d
    cdef object thresholds  # None when empty
    cdef double full, high, medium, low, min_gap
    cdef bint penalize_duplicates, penalize_ranks

    def __init__(self, settings):
        self.settings = settings
        self.top_k_value = settings.top_k
        self.top_k_text = f"{settings.top_k}"
        self.min_confirmed_text = f"{settings.min_confirmed_methods}"
        # ints past Py_ssize_t act as "more than there are candidates", as in the reference
        self.top_k = min(settings.top_k, sys.maxsize)
        self.min_confirmed = min(settings.min_confirmed_methods, sys.maxsize)
        self.default_threshold = settings.default_method_threshold
        self.thresholds = settings.method_thresholds or None
        bands = settings.bands
        self.fast = (
            _exact_double(self.default_threshold, &self.default_threshold_d)
            and _exact_double(bands["full"], &self.full)
            and _exact_double(bands["high"], &self.high)
            and _exact_double(bands["medium"], &self.medium)
            and _exact_double(bands["low"], &self.low)
            and _exact_double(settings.min_top_score_gap, &self.min_gap)
            and self.top_k >= 1
        )
        self.penalize_duplicates = settings.duplicate_mode == "penalize"
        self.penalize_ranks = settings.rank_mode == "penalize"


cdef _Plan _last_plan = None


cdef object _settings(self, config):
    """``self.settings(config)``, with the cache lookup of ``RetrievalConfidence.settings``
    done inline; the method itself on a miss, for a subclass (which may override it) and for
    a config that is not a dict."""
    if type(self) is _RetrievalConfidence and type(config) is dict:
        section = (<dict>config).get("retrieval")
        cache = self._settings_cache
        if type(cache) is dict:
            hit = (<dict>cache).get(PyLong_FromVoidPtr(<void*>section))
            if type(hit) is tuple and (<tuple>hit)[0] is section:
                return (<tuple>hit)[1]
    return self.settings(config)


def retrieval_score(self, inputs, config):
    """``RetrievalConfidence.score(inputs, config)``, compiled: see the module docstring."""
    if not _bound:
        _bind()
    try:
        result = _retrieval(self, inputs, config)
    except Exception:  # the reference raises its own error, or computes what it computes
        result = None
    if result is None:
        return _retrieval_pure(self, inputs, config)
    return result


cdef object _retrieval(self, inputs, config):
    """The score, or None where the pure-Python method must decide."""
    global _last_plan
    s = _settings(self, config)
    cdef _Plan plan = _last_plan
    if plan is None or plan.settings is not s:
        plan = _Plan(s)
        _last_plan = plan
    candidates = inputs["candidates"]
    if not plan.fast or type(candidates) is not list:
        return None
    cdef list cands = <list>candidates
    cdef Py_ssize_t n = len(cands)
    if n == 0:
        return assay.dimension_score(
            raw=0,
            max_points=_RETRIEVAL_MAX,
            explanation="No retrieved candidates were provided.",
            components={"agreement": 0, "magnitude": 0, "diversity": 0, "breadth": 0},
            diagnostics={
                "candidateCount": 0,
                "topK": s.top_k,
                "duplicateContentHashCount": 0,
                "rankedCandidateCount": 0,
                "missingRankCount": 0,
                "singleMethodCandidateCount": 0,
            },
            warnings=[MISSING_CANDIDATES],
        )
    if n > _MAX_FAST_N:
        return None
    cdef double stack_values[_STACK_N]
    cdef Py_ssize_t stack_order[_STACK_N]
    cdef double* values = stack_values
    cdef Py_ssize_t* order = stack_order
    if n > _STACK_N:
        values = <double*>PyMem_Malloc(n * sizeof(double))
        order = <Py_ssize_t*>PyMem_Malloc(n * sizeof(Py_ssize_t))
        if values == NULL or order == NULL:
            PyMem_Free(values)
            PyMem_Free(order)
            raise MemoryError()
    try:
        return _retrieval_scored(plan, s, cands, n, values, order)
    finally:
        if n > _STACK_N:
            PyMem_Free(values)
            PyMem_Free(order)


cdef object _retrieval_scored(
    _Plan plan, s, list cands, Py_ssize_t n, double* values, Py_ssize_t* order
):
    cdef list warnings = []
    cdef dict adjustments = {}
    cdef Py_ssize_t i, j, k, confirmed = 0, single = 0, confirming, ranked = 0
    cdef Py_ssize_t duplicates = 0, missing_ranks, unique_documents
    cdef bint valid, has_nan = False
    cdef long agreement, magnitude, diversity, breadth, base
    cdef double value, quality, effective_sum, average, gap, std
    cdef dict candidate, scores
    cdef set document_ids = set()
    cdef list hashes = None
    cdef list valid_ranks = [] if plan.penalize_ranks else None
    cdef object thresholds = plan.thresholds
    cdef object method, score, rank, item, quality_value, threshold_obj, keys
    cdef object penalty, late, uncapped, raw

    # One pass over the candidates collects everything the sub-signals need.
    for i in range(n):
        item = cands[i]
        if type(item) is not dict:
            return None
        candidate = <dict>item
        if not _fast_number(candidate.get("combinedScore"), &values[i]):
            return None
        if values[i] != values[i]:
            has_nan = True
        item = candidate.get("retrievalScores")
        if type(item) is not dict:
            return None
        scores = <dict>item
        if len(scores) < 2:
            single += 1
        confirming = 0
        for method, score in scores.items():
            if score is None:
                score = 0
            if type(score) is float and thresholds is None:
                if PyFloat_AS_DOUBLE(score) > plan.default_threshold_d:
                    confirming += 1
            elif isinstance(score, (int, float)):
                threshold_obj = (
                    thresholds.get(method, plan.default_threshold)
                    if thresholds is not None
                    else plan.default_threshold
                )
                if score > threshold_obj:
                    confirming += 1
        if confirming >= plan.min_confirmed:
            confirmed += 1
        item = candidate.get("documentId", _ABSENT)
        if item is not _ABSENT:
            document_ids.add(item)
        item = candidate.get("contentHash", _ABSENT)
        if item is not _ABSENT:
            if hashes is None:
                hashes = []
            hashes.append(item)
        rank = candidate.get("rank")
        if rank is not None:
            if type(rank) is float:
                value = PyFloat_AS_DOUBLE(rank)
                valid = isfinite(value) and value > 0 and floor(value) == value
            elif type(rank) is int:
                valid = PyLong_AsDouble(rank) > 0  # OverflowError where isfinite raises
            else:
                valid = _is_valid_rank(rank)
            if valid:
                ranked += 1
                if valid_ranks is not None:
                    valid_ranks.append(rank)
    if has_nan and n > 1:  # NaN has no place in a sort order: Python's sort decides
        return None
    agreement = 15 if confirmed >= 3 else 12 if confirmed == 2 else 8 if confirmed == 1 else 3
    if single == n and plan.min_confirmed > 1:
        warnings.append(_SINGLE_METHOD)

    # stable descending order by combined score (ties keep input order)
    if n <= _STACK_N:
        for i in range(n):
            value = values[i]
            j = i
            while j > 0 and values[order[j - 1]] < value:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
    else:
        keys = [values[i] for i in range(n)]
        for j, i in enumerate(sorted(range(n), key=keys.__getitem__, reverse=True)):
            order[j] = i
    k = plan.top_k if plan.top_k < n else n
    effective_sum = 0.0
    for j in range(k):
        i = order[j]
        value = values[i]
        quality_value = (<dict?>cands[i]).get("extractionQuality", _ABSENT)
        if quality_value is not _ABSENT:
            if type(quality_value) is float:
                quality = PyFloat_AS_DOUBLE(quality_value)  # NaN and infinities too
            elif not _fast_number(quality_value, &quality):  # None is 0.0, as in the reference
                return None
            value = value * quality
        effective_sum += value
    average = effective_sum / k
    if average >= plan.full:
        magnitude = 8
    elif average >= plan.high:
        magnitude = 6
    elif average >= plan.medium:
        magnitude = 4
    elif average >= plan.low:
        magnitude = 2
    else:
        magnitude = 0

    unique_documents = len(document_ids)
    diversity = 3 if unique_documents >= 3 else 1 if unique_documents == 2 else 0
    breadth = 2 if n >= 5 else 1 if n >= 3 else 0

    if hashes is not None:
        duplicates = len(hashes) - len(set(hashes))
    if duplicates > 0:
        warnings.append(
            assay.ScoreWarning(
                "duplicate-content",
                "warn" if plan.penalize_duplicates else "info",
                f"{duplicates} duplicate content hash(es) detected among candidates.",
                "candidates[].contentHash",
            )
        )
        if plan.penalize_duplicates:
            penalty = min(duplicates * s.penalty_per_duplicate, s.max_duplicate_penalty)
            if penalty:
                adjustments["duplicateContentPenalty"] = -penalty

    missing_ranks = n - ranked
    if plan.penalize_ranks:
        if missing_ranks:
            warnings.append(
                assay.ScoreWarning(
                    "rank-signal-missing",
                    "info",
                    f"{missing_ranks} candidate rank value(s) missing while rank penalty "
                    "is active.",
                    "candidates[].rank",
                )
            )
        late = 0.0
        for rank in valid_ranks:
            if rank > s.after_rank:
                late += (rank - s.after_rank) * s.penalty_per_rank
        penalty = min(late, s.max_rank_penalty)
        if penalty:
            adjustments["rankPenalty"] = -penalty

    gap = values[order[0]] - values[order[1]] if n >= 2 else 0.0
    if n >= 2 and gap < plan.min_gap:
        warnings.append(_AMBIGUOUS_TOP)

    if n > 1:
        if not _population_std(values, order, n, &std):
            std = _pure_population_std([_combined(cands[order[i]]) for i in range(n)])

    base = agreement + magnitude + diversity + breadth
    if adjustments:  # the reference's Python arithmetic: int or float, as it comes out
        uncapped = base + sum(adjustments.values())
        raw = min(_RETRIEVAL_MAX, max(0.0, uncapped)) if uncapped == uncapped else uncapped
        if raw < uncapped:
            adjustments["cap"] = raw - uncapped
    else:  # 3 <= base <= 28: min(25.0, max(0.0, base)) is the int base, or 25.0 when capped
        uncapped = base
        if base < 25:
            raw = base
        else:
            raw = 25.0
            if base > 25:
                adjustments["cap"] = 25.0 - base
    explanation = (
        f"{confirmed} candidates confirmed by {plan.min_confirmed_text}+ retrieval methods. "
        f"Top-{plan.top_k_text} effective score avg: {_fixed_text(average, 2)}. "
        f"{unique_documents} distinct source documents. {n} total candidates."
    )
    return assay.dimension_score(
        raw=raw,
        max_points=_RETRIEVAL_MAX,
        explanation=explanation,
        components={
            "agreement": agreement,
            "magnitude": magnitude,
            "diversity": diversity,
            "breadth": breadth,
        },
        adjustments=adjustments,
        diagnostics={
            "avgEffectiveScore": _round_to4(average),
            "candidateCount": n,
            "confirmedCandidateCount": confirmed,
            "duplicateContentHashCount": duplicates,
            "missingRankCount": missing_ranks,
            "rankedCandidateCount": ranked,
            "scoreStdDev": _round_to4(std) if n > 1 else 0,
            "singleMethodCandidateCount": single,
            "topK": plan.top_k_value,
            "topScoreGap": _round_to4(gap),
            "uniqueDocumentCount": unique_documents,
        },
        uncapped_raw=uncapped,
        warnings=warnings or None,
    )


# ------------------------------------------------------------------------------ consistency
def consistency_score(self, inputs, config):
    """``EvidenceConsistency.score(inputs, config)``, compiled: see the module docstring."""
    if not _bound:
        _bind()
    try:
        result = _consistency(inputs)
    except Exception:  # the reference raises its own error, or computes what it computes
        result = None
    if result is None:
        return _consistency_pure(self, inputs, config)
    return result


cdef object _consistency(inputs):
    """The score, or None where the pure-Python method must decide."""
    candidates = inputs["candidates"]
    if type(candidates) is not list:
        return None
    cdef list cands = <list>candidates
    cdef Py_ssize_t i, n = len(cands)
    cdef double std
    cdef long stability, conflict
    cdef double stack_values[_STACK_N]
    cdef double* values = stack_values
    if n == 0:
        return assay.dimension_score(
            raw=0,
            max_points=_CONSISTENCY_MAX,
            explanation="No retrieved candidates were provided.",
            components={"scoreStability": 0, "conflictStatus": 0},
            diagnostics={"candidateCount": 0},
            warnings=[],
        )
    if n > _MAX_FAST_N:
        return None
    warnings = []
    if n == 1:
        stability, std_text, std = 3, "Only one candidate — stability unmeasurable (neutral 3).", 0.0
    else:
        if n > _STACK_N:
            values = <double*>PyMem_Malloc(n * sizeof(double))
            if values == NULL:
                raise MemoryError()
        try:
            for i in range(n):
                item = cands[i]
                if type(item) is not dict or not _fast_number(
                    (<dict>item).get("combinedScore"), &values[i]
                ):
                    return None
            if not _population_std(values, NULL, n, &std):
                std = _pure_population_std([_combined(c) for c in cands])
        finally:
            if n > _STACK_N:
                PyMem_Free(values)
        # consistency._stability
        if std < 0.1:
            stability, word = 6, "very tight"
        elif std < 0.2:
            stability, word = 5, "tight"
        elif std < 0.3:
            stability, word = 3, "moderate"
        else:
            stability, word = 1, "wide"
        std_text = f"Score std dev {_fixed_text(std, 3)} — {word} retrieval stability."

    if "conflictingCandidateCount" in inputs:
        count = inputs["conflictingCandidateCount"]
        conflict = 4 if count == 0 else 1 if count == 1 else 0
        conflict_text = f"{count} conflicting candidate(s) (+{conflict})."
    elif "hasConflict" in inputs:
        conflict = 4 if inputs["hasConflict"] is False else 0
        conflict_text = (
            "Explicit no-conflict signal provided (+4)." if conflict else "Sources conflict (+0)."
        )
    else:
        conflict = 2
        conflict_text = "No conflict signal provided (neutral +2)."
        warnings.append(_MISSING_CONFLICT)
    return assay.dimension_score(
        raw=stability + conflict,
        max_points=_CONSISTENCY_MAX,
        explanation=f"{std_text} {conflict_text}",
        components={"scoreStability": stability, "conflictStatus": conflict},
        diagnostics={"candidateCount": n, "scoreStdDev": _to_fixed4(std) if n > 1 else 0},
        warnings=warnings,
    )
