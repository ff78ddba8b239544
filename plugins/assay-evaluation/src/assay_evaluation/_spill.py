"""Scores in input order in bounded memory, and their order statistics.

A :class:`ScoreColumn` holds up to ``spill_at`` scores in memory, as 8-byte floats; beyond
that it moves them to an anonymous temporary file (no name on disk, gone when closed or when
the process dies) and keeps at most ``spill_at`` more in memory. Its first, middle and last
values in sorted order are then found by selection over the file, in a few passes that hold
one block at a time: the same values a full sort gives, to the bit.
"""

from __future__ import annotations

import heapq
import itertools
import tempfile
import weakref
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import IO, Any, overload

__all__ = ["SPILL_AT", "ScoreColumn", "order_statistics"]

SPILL_AT = 1 << 16
"""Scores a column holds in memory (512 KiB) before it moves them to a temporary file."""

_BLOCK = 1 << 16
"""Scores sorted at once in memory, and read from a file at once (512 KiB)."""

_SIGN = 1 << 63
_FLIP = (1 << 64) - 1
_DIGIT = 16
"""Bits of the sort key that one selection pass counts (65,536 buckets)."""


def order_statistics(scores: Sequence[float]) -> tuple[float, float, float, float]:
    """The first, the two middle (``count // 2 - 1`` and ``count // 2``) and the last of
    ``scores`` in ``sorted`` order (stable: of equal values, such as ``-0.0`` and ``0.0``, the
    earlier first). ``scores`` is not empty. A :class:`ScoreColumn` is read in blocks; a long
    array is sorted in blocks and merged, so the transient copy is 8 bytes a score plus one
    block, not a list of a million float objects."""
    if isinstance(scores, ScoreColumn):
        return scores.order_statistics()
    count = len(scores)
    middle = count // 2
    if count <= _BLOCK or not isinstance(scores, array):
        ordered = sorted(scores)
        return (
            ordered[0],
            ordered[middle - 1] if middle else ordered[0],
            ordered[middle],
            ordered[-1],
        )
    blocks = [
        array("d", sorted(scores[start : start + _BLOCK])) for start in range(0, count, _BLOCK)
    ]
    merged = heapq.merge(*blocks)  # stable across blocks, which are in input order
    before = next(itertools.islice(merged, middle - 1, None))
    at = next(merged)
    return _first_min(blocks), before, at, _last_max(blocks)


def _first_min(blocks: Sequence[Sequence[float]]) -> float:
    """The first of equal minima (``min`` keeps the first, blocks are in input order)."""
    return min(min(block) for block in blocks)


def _last_max(blocks: Sequence[Sequence[float]]) -> float:
    """The last of equal maxima: the first maximum of the blocks and their values reversed."""
    return max(max(reversed(block)) for block in reversed(blocks))


def _keys(block: array[float]) -> list[int]:
    """Each score's sort key: its IEEE 754 bits made unsigned-comparable (negative values
    flipped, positive ones offset by the sign bit), with ``-0.0`` given ``0.0``'s key since a
    sort treats them as equal."""
    bits = memoryview(block).cast("B").cast("Q")
    return [b | _SIGN if b < _SIGN else b ^ _FLIP if b != _SIGN else _SIGN for b in bits]


class ScoreColumn(Sequence[float]):
    """Determined scores appended in input order, in memory up to ``spill_at`` and in an
    anonymous temporary file beyond (closed by :meth:`close` or when the column is
    collected). Iterating reads them back in order, one block at a time.

    :param spill_at: scores held in memory before they move to the file (at least 1).
    """

    def __init__(self, spill_at: int = SPILL_AT) -> None:
        self._spill_at = max(1, spill_at)
        self._memory: array[float] = array("d")
        self._file: IO[bytes] | None = None
        self._stored = 0  # scores in the file
        self._closer: weakref.finalize[[], ScoreColumn] | None = None  # closes the file once

    @property
    def spilled(self) -> bool:
        """Whether some scores are in the temporary file."""
        return self._file is not None

    def extend(self, scores: array[float]) -> None:
        """Append ``scores`` (determined: no NaN)."""
        self._memory.extend(scores)
        if len(self._memory) > self._spill_at:
            if self._file is None:
                self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close or GC)
                self._closer = weakref.finalize(self, self._file.close)
            self._file.seek(0, 2)
            self._memory.tofile(self._file)
            self._stored += len(self._memory)
            self._memory = array("d")

    def close(self) -> None:
        """Delete the temporary file and forget the scores."""
        if self._closer is not None:
            self._closer()
        self._file, self._stored, self._memory = None, 0, array("d")

    def __len__(self) -> int:
        return self._stored + len(self._memory)

    def blocks(self) -> Iterator[array[float]]:
        """The scores in order, at most ``max(spill_at, 65,536)`` at a time."""
        if self._file is not None:
            for start in range(0, self._stored, _BLOCK):
                yield self._read(start, min(_BLOCK, self._stored - start))
        if self._memory:
            yield self._memory

    def _read(self, start: int, count: int) -> array[float]:
        assert self._file is not None
        block: array[float] = array("d")
        self._file.seek(start * block.itemsize)
        block.fromfile(self._file, count)
        return block

    def __iter__(self) -> Iterator[float]:
        for block in self.blocks():
            yield from block

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as the array of its scores: a file does not travel."""
        return array, ("d", b"".join(block.tobytes() for block in self.blocks()))

    @overload
    def __getitem__(self, index: int) -> float: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[float]: ...
    def __getitem__(self, index: int | slice) -> float | Sequence[float]:
        if isinstance(index, slice):
            return array("d", (self[i] for i in range(*index.indices(len(self)))))
        position = index + len(self) if index < 0 else index
        if not 0 <= position < len(self):
            raise IndexError("score index out of range")
        if position >= self._stored:
            return self._memory[position - self._stored]
        return self._read(position, 1)[0]

    def order_statistics(self) -> tuple[float, float, float, float]:
        """:func:`order_statistics` of the scores, by selection when they are in the file."""
        if self._file is None:
            return order_statistics(self._memory)
        count = len(self)
        middle = count // 2
        lows, highs = [], []
        for block in self.blocks():
            lows.append(min(block))
            highs.append(max(reversed(block)))
        ranks = _Selection(self)
        before = ranks.value(middle - 1) if middle else ranks.value(0)
        return _first_min([lows]), before, ranks.value(middle), _last_max([highs])


class _Selection:
    """The score at a rank of ``sorted`` order, found digit by digit of the sort key: count the
    scores per 16-bit digit under the prefix found so far, go into the digit holding the rank,
    and once that group is small (or the key is complete) sort it in input order. Counts are
    kept, so the two middle ranks share the passes they have in common."""

    def __init__(self, column: ScoreColumn) -> None:
        self._column = column
        self._counts: dict[tuple[int, int], Counter[int]] = {}
        self._groups: dict[tuple[int, int], list[float]] = {}

    def _group_counts(self, prefix: int, shift: int) -> Counter[int]:
        """Scores per digit at ``shift`` among those whose key above ``shift + 16`` is
        ``prefix``."""
        found = self._counts.get((prefix, shift))
        if found is None:
            found = Counter()
            top = shift + _DIGIT
            for block in self._column.blocks():
                keys = _keys(block)
                if top < 64:
                    found.update(k >> shift & 0xFFFF for k in keys if k >> top == prefix)
                else:
                    found.update(k >> shift for k in keys)
            self._counts[(prefix, shift)] = found
        return found

    def value(self, rank: int) -> float:
        """The score at ``rank`` (0-based) of the stable sorted order."""
        prefix, shift = 0, 64
        while True:
            shift -= _DIGIT
            counts = self._group_counts(prefix, shift)
            for digit in sorted(counts):
                if rank < counts[digit]:
                    break
                rank -= counts[digit]
            prefix = prefix << _DIGIT | digit
            if counts[digit] <= _BLOCK or shift == 0:
                return self._in_group(prefix, shift, rank)

    def _in_group(self, prefix: int, shift: int, rank: int) -> float:
        """The score at ``rank`` of the scores whose key above ``shift`` is ``prefix``: the
        ``rank``-th of them in input order when the whole key is fixed (equal scores, such as
        ``-0.0`` and ``0.0``, keep input order), else the group (at most 65,536 scores)
        sorted, stably, from input order."""
        if shift == 0:
            for block in self._column.blocks():
                for key, score in zip(_keys(block), block, strict=True):
                    if key == prefix:
                        if not rank:
                            return score
                        rank -= 1
            raise AssertionError("the counts promised a score at this rank")
        group = self._groups.get((prefix, shift))
        if group is None:
            group = self._groups[(prefix, shift)] = sorted(
                score
                for block in self._column.blocks()
                for key, score in zip(_keys(block), block, strict=True)
                if key >> shift == prefix
            )
        return group[rank]
