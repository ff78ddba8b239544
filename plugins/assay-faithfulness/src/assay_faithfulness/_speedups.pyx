# cython: language_level=3
"""Compiled twins of the seven metrics' text kernels.

Each function here mirrors one pure-Python function that stays the reference:

- ``split_tokens``: the token split of :func:`assay_faithfulness.text.tokenize` (after
  lowercasing): maximal runs of characters that are not separators;
- ``split_sentences``: :func:`assay_faithfulness.text.split_sentences` (on a ``str``);
- ``text_profile``: :func:`assay_faithfulness.features.text_profile_pure`: a text's tokens, token
  counts, unigram and bigram sets in one pass;
- ``bigram_set``: :func:`assay_faithfulness.ngrams.ngram_set` for ``n == 2``, and
  ``string_set``: ``frozenset(strings)``. Both sets hold only strings, so they cannot be part of
  a reference cycle: they are untracked by the cyclic garbage collector (as CPython does for
  tuples and dicts of atomic values), which then no longer walks them on every collection;
- ``overlap_rows``: :func:`assay_faithfulness.ngrams.overlap_rows`;
- ``weighted_overlaps``: :func:`assay_faithfulness.ngrams.weighted_overlaps`, and
  ``best_weighted_overlaps``: :func:`assay_faithfulness.ngrams.best_weighted_overlaps`;
- ``pair_cosine``: :func:`assay_faithfulness.tfidf.pair_cosine` (the two IDFs are given once,
  by ``bind_idf``);
- ``count_tokens``: :func:`assay_faithfulness.tfidf.count_tokens` (``Counter(tokens)``);
- ``to_fixed3``: :func:`assay_faithfulness.jsnumbers.to_fixed3` (JavaScript's ``toFixed(3)``),
  which hands the rare exact ties and negative values back to the reference (``bind_to_fixed3``).

Results are identical to the reference's, bit for bit: the floating-point operations are the
same binary64 operations in the same order (Python's ``int / int`` of small integers is the
correctly rounded quotient of their exact double values, as C's is; no fused multiply-add:
setup.py compiles with ``-ffp-contract=off``). The tests compare the two on every conformance
sample and on edge cases. Change a reference function, change its twin here.

Only rule-free kernels live here (tokenising, sentence splitting, n-gram sets and overlaps, the
TF-IDF cosine, JavaScript number formatting): no metric's rule (scores, pass/fail, signals, the
building of records) is restated in compiled code; those stay written once, in Python.

This module imports nothing of the plugin or the core (the plugin's modules import it): its
inputs are plain lists, dicts, sets and tuples, a ``PairSide`` is read through its ``counts`` and
``length``, and what it needs of the plugin (the two IDFs, the reference ``to_fixed3``) is handed
to it once by the ``bind_*`` functions.
"""

from cpython.dict cimport PyDict_GetItem, PyDict_Next, PyDict_SetItem
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_AsDouble, PyLong_CheckExact
from cpython.mem cimport PyMem_Free
from cpython.object cimport PyObject
from cpython.set cimport PyFrozenSet_New, PySet_Add, PySet_Contains
from cpython.unicode cimport (
    PyUnicode_1BYTE_DATA,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_New,
    PyUnicode_READ,
)
from libc.math cimport floor, isfinite, sqrt
from libc.string cimport memcpy

from collections import Counter


cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void* op)
    bint PyUnicode_IS_ASCII(object o)
    char* PyOS_double_to_string(double val, char format_code, int precision, int flags,
                                int* type) except NULL

cdef Py_ssize_t SEPARATOR_TABLE_BYTES = (0x10FFFF >> 3) + 1


def split_tokens(str lowered not None, bytes separators not None):
    """The maximal runs of non-separator characters of ``lowered``, in order.

    ``separators`` is a bitmap of every code point: bit ``cp & 7`` of byte ``cp >> 3`` is set
    when ``cp`` separates tokens.
    """
    return _split(lowered, separators, None, None)


def text_profile(str lowered not None, bytes separators not None, bint with_counts):
    """``(tokens, counts, unigrams, bigrams)`` of an already lowercased text in one pass: the
    tokens of :func:`split_tokens`, ``Counter(tokens)`` (``None`` unless ``with_counts``),
    ``frozenset(tokens)`` and :func:`bigram_set` of the tokens; both sets untracked by the
    garbage collector (they hold strings only)."""
    cdef object counts = Counter.__new__(Counter) if with_counts else None
    cdef object bigrams = PyFrozenSet_New(())  # brand new: filled in place before anyone sees it
    cdef list tokens = _split(lowered, separators, counts, bigrams)
    cdef object unigrams = PyFrozenSet_New(tokens if counts is None else counts)
    PyObject_GC_UnTrack(<PyObject*>unigrams)
    PyObject_GC_UnTrack(<PyObject*>bigrams)
    return tokens, counts, unigrams, bigrams


cdef list _split(str lowered, bytes separators, object counts, object bigrams):
    """The tokens of ``lowered``; each also counted into ``counts`` (a dict) and each adjacent
    pair joined into ``bigrams`` (a new set), unless they are ``None``."""
    if len(separators) < SEPARATOR_TABLE_BYTES:
        raise ValueError("the separator table must cover every code point")
    cdef const unsigned char* table = separators
    cdef Py_ssize_t length = len(lowered)
    cdef int kind = PyUnicode_KIND(lowered)
    cdef void* data = PyUnicode_DATA(lowered)
    cdef Py_ssize_t i
    cdef Py_ssize_t start = -1
    cdef unsigned int ch
    cdef list tokens = []
    cdef object previous = None
    cdef str token
    cdef PyObject* found
    for i in range(length + 1):
        if i < length:
            ch = <unsigned int>PyUnicode_READ(kind, data, i)
            if not (table[ch >> 3] & (1 << (ch & 7))):
                if start < 0:
                    start = i
                continue
        if start < 0:
            continue
        token = lowered[start:i]
        start = -1
        tokens.append(token)
        if counts is not None:
            found = PyDict_GetItem(counts, token)
            if found is NULL:
                PyDict_SetItem(counts, token, 1)
            else:
                PyDict_SetItem(counts, token, <object>found + 1)
        if bigrams is not None:
            if previous is not None:
                PySet_Add(bigrams, _joined_pair(<str>previous, token))
            previous = token
    return tokens


cdef str _joined_pair(str first, str second):
    """``first + " " + second``, written straight into a new string when both are ASCII."""
    cdef Py_ssize_t first_length, second_length
    cdef str joined
    cdef unsigned char* data
    if not (PyUnicode_IS_ASCII(first) and PyUnicode_IS_ASCII(second)):
        return f"{first} {second}"
    first_length = PyUnicode_GET_LENGTH(first)
    second_length = PyUnicode_GET_LENGTH(second)
    joined = PyUnicode_New(first_length + 1 + second_length, 127)
    data = <unsigned char*>PyUnicode_1BYTE_DATA(joined)
    memcpy(data, PyUnicode_1BYTE_DATA(first), first_length)
    data[first_length] = 32  # " "
    memcpy(data + first_length + 1, PyUnicode_1BYTE_DATA(second), second_length)
    return joined


def bigram_set(list tokens not None):
    """The set of ``" ".join((a, b))`` for every adjacent pair ``a, b`` of ``tokens``."""
    cdef Py_ssize_t i
    cdef Py_ssize_t count = PyList_GET_SIZE(tokens)
    cdef object result = PyFrozenSet_New(())  # brand new: filled in place before anyone sees it
    cdef object previous
    cdef object current
    if count < 2:
        PyObject_GC_UnTrack(<PyObject*>result)
        return result
    previous = tokens[0]
    for i in range(1, count):
        current = tokens[i]
        if type(previous) is str and type(current) is str:
            PySet_Add(result, _joined_pair(previous, current))
        else:  # str subclasses, or the same TypeError as the reference for non-strings
            PySet_Add(result, " ".join((previous, current)))
        previous = current
    PyObject_GC_UnTrack(<PyObject*>result)  # it holds strings only
    return result


def string_set(strings):
    """``frozenset(strings)``, untracked by the garbage collector when it holds only strings."""
    cdef object result = PyFrozenSet_New(strings)
    cdef Py_ssize_t i
    cdef Py_ssize_t position = 0
    cdef PyObject* key
    cdef PyObject* value
    if type(strings) is list:  # a token list: its items are the set's
        for i in range(PyList_GET_SIZE(strings)):
            if type(<object>PyList_GET_ITEM(strings, i)) is not str:
                return result
    elif isinstance(strings, dict):  # token counts: their keys are
        while PyDict_Next(strings, &position, &key, &value):
            if type(<object>key) is not str:
                return result
    else:
        for item in result:
            if type(item) is not str:
                return result
    PyObject_GC_UnTrack(<PyObject*>result)
    return result


cdef inline bint _is_js_space(Py_UCS4 ch):
    # JavaScript's \s: the characters of assay_faithfulness.text.JS_WHITESPACE
    if ch <= 0x20:
        return ch == 0x20 or 0x09 <= ch <= 0x0D
    if ch < 0xA0:
        return False
    return (
        ch == 0xA0 or ch == 0x1680 or 0x2000 <= ch <= 0x200A or ch == 0x2028 or ch == 0x2029
        or ch == 0x202F or ch == 0x205F or ch == 0x3000 or ch == 0xFEFF
    )


cdef inline int _append_trimmed(list pieces, str text, int kind, void* data, Py_ssize_t start,
                                Py_ssize_t end) except -1:
    while start < end and _is_js_space(PyUnicode_READ(kind, data, start)):
        start += 1
    while end > start and _is_js_space(PyUnicode_READ(kind, data, end - 1)):
        end -= 1
    if end > start:
        pieces.append(text[start:end])
    return 0


def split_sentences(str text not None):
    """The sentences of ``text``: cut at each run of JavaScript whitespace that follows ``.``,
    ``!`` or ``?`` and precedes an ASCII capital or the end, trimmed, empty pieces dropped."""
    cdef Py_ssize_t length = len(text)
    cdef int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t j
    cdef Py_ssize_t start = 0
    cdef Py_UCS4 ch
    cdef list pieces = []
    while i < length:
        ch = PyUnicode_READ(kind, data, i)
        if ch == 0x2E or ch == 0x21 or ch == 0x3F:  # . ! ?
            j = i + 1
            while j < length and _is_js_space(PyUnicode_READ(kind, data, j)):
                j += 1
            if j > i + 1 and (
                j == length or 0x41 <= PyUnicode_READ(kind, data, j) <= 0x5A  # A-Z
            ):
                _append_trimmed(pieces, text, kind, data, start, i + 1)
                start = i = j
                continue
        i += 1
    _append_trimmed(pieces, text, kind, data, start, length)
    return pieces


cdef inline Py_ssize_t _common(object a, Py_ssize_t size_a, object b, Py_ssize_t size_b) except -1:
    """``len(a & b)`` for two sets, without building the intersection."""
    cdef Py_ssize_t common = 0
    if size_b < size_a:
        a, b = b, a
    for item in a:
        if PySet_Contains(b, item):
            common += 1
    return common


def overlap_rows(sets_a, sets_b):
    """``rows[i][j]``: the Jaccard index of ``sets_a[i]`` and ``sets_b[j]`` (1.0 when both are
    empty, 0.0 when one is)."""
    if type(sets_a) is not list:
        sets_a = list(sets_a)
    if type(sets_b) is not list:
        sets_b = list(sets_b)
    return _overlap_rows(sets_a, sets_b)


cdef list _overlap_rows(list sets_a, list sets_b):
    cdef list rows = []
    cdef list row
    cdef Py_ssize_t i, j, size_a, size_b, common
    cdef Py_ssize_t count_a = PyList_GET_SIZE(sets_a)
    cdef Py_ssize_t count_b = PyList_GET_SIZE(sets_b)
    cdef object a
    cdef object b
    for i in range(count_a):
        a = <object>PyList_GET_ITEM(sets_a, i)
        size_a = len(a)
        row = []
        for j in range(count_b):
            b = <object>PyList_GET_ITEM(sets_b, j)
            size_b = len(b)
            if size_a and size_b:
                common = _common(a, size_a, b, size_b)
                row.append(<double>common / <double>(size_a + size_b - common))
            elif size_a or size_b:
                row.append(0.0)
            else:
                row.append(1.0)
        rows.append(row)
    return rows


def weighted_overlaps(overlaps_by_size, weights, Py_ssize_t count):
    """``sum_k(overlaps_by_size[k][c] * weights[k]) / sum_k(weights[k])`` for each candidate
    ``c < count``, summed left to right; all 0.0 when the weights sum to 0."""
    cdef Py_ssize_t sizes = len(weights)
    cdef Py_ssize_t c, k
    cdef double weight_sum = 0.0
    cdef double total
    cdef list values = []
    for k in range(sizes):
        weight_sum += <double>weights[k]
    if weight_sum == 0:
        return [0.0] * count
    if sizes == 2:  # the default sizes [1, 2]
        return _weighted_two(
            overlaps_by_size[0], overlaps_by_size[1], weights[0], weights[1], weight_sum, count
        )
    for c in range(count):
        total = 0.0
        for k in range(sizes):
            total += <double>overlaps_by_size[k][c] * <double>weights[k]
        values.append(total / weight_sum)
    return values


cdef list _weighted_two(first, second, double w0, double w1, double weight_sum, Py_ssize_t count):
    cdef list values = []
    cdef Py_ssize_t c
    cdef double total
    for c in range(count):
        total = 0.0
        total += <double>first[c] * w0
        total += <double>second[c] * w1
        values.append(total / weight_sum)
    return values


def best_weighted_overlaps(rows_by_size, weights, Py_ssize_t texts, Py_ssize_t count):
    """For each text ``i < texts``: the largest of 0.0 and its weighted overlaps
    ``sum_k(rows_by_size[k][i][c] * weights[k]) / sum_k(weights[k])`` over ``c < count``
    (summed left to right; a value replaces the best only when strictly larger; 0.0 when the
    weights sum to 0)."""
    cdef Py_ssize_t sizes = len(weights)
    cdef Py_ssize_t i, c, k
    cdef double weight_sum = 0.0
    cdef double total, value, best
    cdef list bests = []
    for k in range(sizes):
        weight_sum += <double>weights[k]
    if weight_sum == 0:
        return [0.0] * texts
    cdef list rows = [None] * sizes
    for i in range(texts):
        for k in range(sizes):
            rows[k] = rows_by_size[k][i]
        best = 0.0
        for c in range(count):
            total = 0.0
            for k in range(sizes):
                total += <double>rows[k][c] * <double>weights[k]
            value = total / weight_sum
            if value > best:
                best = value
        bests.append(best)
    return bests


cdef double IDF_IN_BOTH = 0.0
cdef double IDF_IN_ONE = 0.0


def bind_idf(double idf_in_both, double idf_in_one):
    """Set the two IDFs of a two-text corpus (``ln(3/3) + 1`` and ``ln(3/2) + 1`` by V8's
    logarithm, computed by :mod:`assay_faithfulness.tfidf`)."""
    global IDF_IN_BOTH, IDF_IN_ONE
    IDF_IN_BOTH = idf_in_both
    IDF_IN_ONE = idf_in_one


cdef object _as_dict(counts):
    # a dict or a subclass (Counter) as it is; any other mapping as a dict in its order
    return counts if isinstance(counts, dict) else dict(counts)


cdef inline double _as_double(PyObject* number) except? -1.0:
    # a token count: an int, converted without making a float object (exact below 2**53)
    if PyLong_CheckExact(<object>number):
        return PyLong_AsDouble(<object>number)
    return <double>(<object>number)


def pair_cosine(query, document):
    """The two-text TF-IDF cosine of two sides (``.counts``, ``.length``): the query walked term
    by term; the document's squared norm summed left to right over its terms, each square with
    the IDF of a term both texts hold or of one only the document holds."""
    cdef Py_ssize_t query_length = query.length
    cdef Py_ssize_t document_length = document.length
    cdef object query_counts
    cdef object document_counts
    cdef Py_ssize_t position = 0
    cdef Py_ssize_t shared_terms = 0
    cdef PyObject* term
    cdef PyObject* count
    cdef PyObject* other
    cdef double value, shared, alone
    cdef double dot = 0.0
    cdef double norm_query = 0.0
    cdef double norm_document = 0.0
    if query_length == 0 or document_length == 0:
        return 0.0
    query_counts = _as_dict(query.counts)
    document_counts = _as_dict(document.counts)
    while PyDict_Next(query_counts, &position, &term, &count):
        other = PyDict_GetItem(document_counts, <object>term)
        if other is NULL:
            value = (_as_double(count) / <double>query_length) * IDF_IN_ONE
        else:
            value = (_as_double(count) / <double>query_length) * IDF_IN_BOTH
            shared = (_as_double(other) / <double>document_length) * IDF_IN_BOTH
            dot += value * shared
            shared_terms += 1
        norm_query += value * value
    if shared_terms == 0:
        return 0.0  # dot == 0: the cosine is 0 whatever the norms
    position = 0
    while PyDict_Next(document_counts, &position, &term, &count):
        if PyDict_GetItem(query_counts, <object>term) is NULL:
            alone = (_as_double(count) / <double>document_length) * IDF_IN_ONE
            norm_document += alone * alone
        else:
            shared = (_as_double(count) / <double>document_length) * IDF_IN_BOTH
            norm_document += shared * shared
    return dot / (sqrt(norm_query) * sqrt(norm_document))

def count_tokens(list tokens not None):
    """``Counter(tokens)``: token -> count, in first-occurrence order."""
    cdef object counts = Counter.__new__(Counter)  # Counter.__init__ only fills it
    cdef PyObject* found
    for token in tokens:
        found = PyDict_GetItem(counts, token)
        if found is NULL:
            PyDict_SetItem(counts, token, 1)
        else:
            PyDict_SetItem(counts, token, <object>found + 1)
    return counts


cdef object EXACT_TO_FIXED3 = None


def bind_to_fixed3(exact):
    """Set the reference ``to_fixed3``, which :func:`to_fixed3` calls for what it leaves to it."""
    global EXACT_TO_FIXED3
    EXACT_TO_FIXED3 = exact


def to_fixed3(x):
    """``x.toFixed(3)`` in JavaScript: ``"%.3f" % x`` for a float that is not negative and not
    an exact thousandths tie (an odd multiple of 1/16); the reference does everything else."""
    cdef double value
    cdef double sixteenths
    cdef double eighths
    cdef char* text
    if type(x) is not float:
        return EXACT_TO_FIXED3(x)
    value = x
    if value < 0:
        return EXACT_TO_FIXED3(x)
    sixteenths = value * 16.0
    eighths = value * 8.0
    if isfinite(sixteenths) and floor(sixteenths) == sixteenths and not (
        isfinite(eighths) and floor(eighths) == eighths
    ):
        return EXACT_TO_FIXED3(x)
    text = PyOS_double_to_string(value + 0.0, b"f", 3, 0, NULL)
    try:
        return text.decode("ascii")
    finally:
        PyMem_Free(text)

