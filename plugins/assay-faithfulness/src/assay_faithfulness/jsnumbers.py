"""Numbers the way the reference (JavaScript) computes and prints them.

* :func:`js_log` is the fdlibm natural logarithm that V8's ``Math.log`` uses; the C library's
  ``math.log`` differs from it by one ulp for a few percent of arguments, which changes TF-IDF
  weights in their last digit.
* :func:`to_fixed3` is ``Number.prototype.toFixed(3)``: the exact binary value rounded half away
  from zero (Python's ``%.3f`` rounds exact ties to even: 0.0625 -> "0.062", JavaScript "0.063").
* :func:`js_number_text` is ``String(x)``: the shortest round-trip digits, in JavaScript's layout
  (``1``, ``0.15``, ``1e-7``).
"""

from __future__ import annotations

import math
import struct
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from assay_faithfulness._compiled import COMPILED, _speedups

__all__ = ["js_log", "js_number_text", "to_fixed3"]

_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_TWO54 = 1.80143985094819840000e16
_LG1 = 6.666666666666735130e-01
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01


def _words(x: float) -> tuple[int, int]:
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    high = (bits >> 32) & 0xFFFFFFFF
    if high >= 0x80000000:
        high -= 0x100000000
    return high, bits & 0xFFFFFFFF


def _with_high_word(x: float, high: int) -> float:
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    bits = ((high & 0xFFFFFFFF) << 32) | (bits & 0xFFFFFFFF)
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


@lru_cache(maxsize=4096)
def js_log(x: float) -> float:
    """Natural logarithm, bit-identical to V8's ``Math.log`` (the fdlibm ``__ieee754_log``).

    ``log(0)`` is ``-inf``, a negative argument or NaN gives NaN, ``log(inf)`` is ``inf``.
    Results are memoized: TF-IDF asks for the same few ratios over and over.
    """
    hx, lx = _words(x)
    k = 0
    if hx < 0x00100000:
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54
        hx, _ = _words(x)
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _with_high_word(x, hx | (i ^ 0x3FF00000))
    k += i >> 20
    f = x - 1.0
    dk = float(k)
    if (0x000FFFFF & (2 + hx)) < 3:
        if f == 0.0:
            return 0.0 if k == 0 else dk * _LN2_HI + dk * _LN2_LO
        r = f * f * (0.5 - 0.33333333333333333 * f)
        return f - r if k == 0 else dk * _LN2_HI - ((r - dk * _LN2_LO) - f)
    s = f / (2.0 + f)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI - ((s * (f - r) - dk * _LN2_LO) - f)


_MILLI = Decimal("0.001")


def to_fixed3(x: float) -> str:
    """``x.toFixed(3)`` in JavaScript: three decimals, exact ties rounded away from zero.

    Only values whose exact binary expansion ends in a thousandths tie (odd multiples of 1/16)
    need the slow exact path; every other value agrees with ``%.3f``.
    """
    if x < 0:
        text = _to_fixed3_unsigned(-x)
        return text if text == "0.000" else "-" + text
    return _to_fixed3_unsigned(x)


def _to_fixed3_unsigned(x: float) -> str:
    if (x * 16.0).is_integer() and not (x * 8.0).is_integer():
        return str(Decimal(x).quantize(_MILLI, rounding=ROUND_HALF_UP))
    return "%.3f" % (x + 0.0)  # + 0.0 turns -0.0 into 0.0


@lru_cache(maxsize=256)
def js_number_text(x: float) -> str:
    """``String(x)`` in JavaScript for a finite number: ``1``, ``0.15``, ``1e-7``, ``1e+21``."""
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "NaN" if x != x else ("Infinity" if x > 0 else "-Infinity")
    sign = "-" if x < 0 else ""
    digits_tuple, exponent = Decimal(repr(abs(float(x)))).normalize().as_tuple()[1:]
    digits = "".join(map(str, digits_tuple))
    k = len(digits)
    n = int(exponent) + k
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        body = f"{mantissa}e{'+' if e > 0 else '-'}{abs(e)}"
    return sign + body


PURE_TO_FIXED3 = to_fixed3
"""The pure-Python :func:`to_fixed3`: the reference of its compiled twin."""
if COMPILED:
    _speedups.bind_to_fixed3(PURE_TO_FIXED3)
    to_fixed3 = _speedups.to_fixed3
