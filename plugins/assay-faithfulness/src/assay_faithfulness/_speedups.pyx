# cython: language_level=3
"""Compiled twins of the seven metrics' text kernels.

Each function here mirrors one pure-Python function that stays the reference:

- ``split_tokens``: the token split of :func:`assay_faithfulness.text.tokenize` (after
  lowercasing): maximal runs of characters that are not separators;
- ``bigram_set``: :func:`assay_faithfulness.ngrams.ngram_set` for ``n == 2``;
- ``overlap_rows``: :func:`assay_faithfulness.ngrams.overlap_rows`;
- ``weighted_overlaps``: :func:`assay_faithfulness.ngrams.weighted_overlaps`;
- ``pair_side_squares``: the squares of :func:`assay_faithfulness.tfidf.pair_side` (the IDFs
  are given once, by ``bind_idf``);
- ``pair_cosine``: :func:`assay_faithfulness.tfidf.pair_cosine`.

Results are identical to the reference's, bit for bit: the floating-point operations are the
same binary64 operations in the same order (Python's ``int / int`` of small integers is the
correctly rounded quotient of their exact double values, as C's is; no fused multiply-add:
setup.py compiles with ``-ffp-contract=off``). The tests compare the two on every conformance
sample and on edge cases. Change a reference function, change its twin here.

This module imports nothing of the plugin (the plugin's modules import it), so its inputs are
plain lists, dicts, sets and tuples (a ``PairSide`` is a tuple).
"""

from cpython.dict cimport PyDict_GetItem, PyDict_Next, PyDict_SetItem
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject
from cpython.set cimport PyFrozenSet_New, PySet_Add, PySet_Contains
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND, PyUnicode_READ
from libc.math cimport sqrt

cdef Py_ssize_t SEPARATOR_TABLE_BYTES = (0x10FFFF >> 3) + 1


def split_tokens(str lowered not None, bytes separators not None):
    """The maximal runs of non-separator characters of ``lowered``, in order.

    ``separators`` is a bitmap of every code point: bit ``cp & 7`` of byte ``cp >> 3`` is set
    when ``cp`` separates tokens.
    """
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
    for i in range(length):
        ch = <unsigned int>PyUnicode_READ(kind, data, i)
        if table[ch >> 3] & (1 << (ch & 7)):
            if start >= 0:
                tokens.append(lowered[start:i])
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        tokens.append(lowered[start:length])
    return tokens


def bigram_set(list tokens not None):
    """The set of ``" ".join((a, b))`` for every adjacent pair ``a, b`` of ``tokens``."""
    cdef Py_ssize_t i
    cdef Py_ssize_t count = PyList_GET_SIZE(tokens)
    cdef object result = PyFrozenSet_New(())  # brand new: filled in place before anyone sees it
    cdef object previous
    cdef object current
    if count < 2:
        return result
    previous = tokens[0]
    for i in range(1, count):
        current = tokens[i]
        if type(previous) is str and type(current) is str:
            PySet_Add(result, f"{<str>previous} {<str>current}")
        else:  # str subclasses, or the same TypeError as the reference for non-strings
            PySet_Add(result, " ".join((previous, current)))
        previous = current
    return result


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


def pair_side_squares(counts, Py_ssize_t length):
    """``[((count / length) * IDF_IN_ONE) ** 2 as a product, for each count]``, in order."""
    cdef object as_dict = _as_dict(counts)
    cdef list squares = []
    cdef Py_ssize_t position = 0
    cdef PyObject* key
    cdef PyObject* value
    cdef double alone
    while PyDict_Next(as_dict, &position, &key, &value):
        alone = (<double>(<object>value) / <double>length) * IDF_IN_ONE
        squares.append(alone * alone)
    return squares


def pair_cosine(query, document):
    """The two-text TF-IDF cosine of two precomputed sides ``(counts, length, terms,
    squares_alone)``: the query walked term by term, the document's squared norm summed left
    to right with the shared terms' squares in their place."""
    cdef Py_ssize_t query_length = query[1]
    cdef Py_ssize_t document_length = document[1]
    cdef object query_counts
    cdef object document_counts
    cdef list terms
    cdef list squares_alone
    cdef dict shared_squares
    cdef Py_ssize_t position = 0
    cdef Py_ssize_t i, size
    cdef PyObject* term
    cdef PyObject* count
    cdef PyObject* other
    cdef PyObject* square
    cdef double value, shared
    cdef double dot = 0.0
    cdef double norm_query = 0.0
    cdef double norm_document = 0.0
    if query_length == 0 or document_length == 0:
        return 0.0
    query_counts = _as_dict(query[0])
    document_counts = _as_dict(document[0])
    shared_squares = {}
    while PyDict_Next(query_counts, &position, &term, &count):
        other = PyDict_GetItem(document_counts, <object>term)
        if other is NULL:
            value = (<double>(<object>count) / <double>query_length) * IDF_IN_ONE
        else:
            value = (<double>(<object>count) / <double>query_length) * IDF_IN_BOTH
            shared = (<double>(<object>other) / <double>document_length) * IDF_IN_BOTH
            dot += value * shared
            PyDict_SetItem(shared_squares, <object>term, shared * shared)
        norm_query += value * value
    if not shared_squares:
        return 0.0  # dot == 0: the cosine is 0 whatever the norms
    terms = list(document[2])
    squares_alone = list(document[3])
    size = PyList_GET_SIZE(terms)
    if PyList_GET_SIZE(squares_alone) < size:
        raise ValueError("a pair side needs one square per term")
    for i in range(size):
        square = PyDict_GetItem(shared_squares, <object>PyList_GET_ITEM(terms, i))
        if square is NULL:
            norm_document += <double>(<object>PyList_GET_ITEM(squares_alone, i))
        else:
            norm_document += PyFloat_AS_DOUBLE(<object>square)  # a float made above
    return dot / (sqrt(norm_query) * sqrt(norm_document))
