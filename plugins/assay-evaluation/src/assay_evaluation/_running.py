"""The calling process's tally of a run whose chunks come back in input order, in memory that
does not grow with the number of samples."""

from __future__ import annotations

from collections.abc import Sequence

from assay_evaluation._aggregate import BatchTally, TallyReader, add_costs, determined
from assay_evaluation._spill import SPILL_AT, ScoreColumn
from assay_evaluation._types import Cost

__all__ = ["RunningTally"]


class RunningTally(TallyReader):
    """The chunks' tallies (:class:`~assay_evaluation._aggregate.BatchTally`, one per chunk)
    joined in input order: per metric the determined scores (a
    :class:`~assay_evaluation._spill.ScoreColumn`: in memory up to ``spill_at``, then in a
    temporary file) and how many samples passed, failed or errored; the overall passes and the
    cost as running totals; the worst samples in a bounded heap. The aggregates equal those of
    a :class:`~assay_evaluation._aggregate.BatchTally` of every result, to the last bit: the
    sums run over the scores in input order, the order statistics come from selection.

    :param metric_ids: the metrics to aggregate, distinct, in run order.
    :param worst: as :class:`~assay_evaluation._aggregate.TallyReader`.
    :param spill_at: scores per metric held in memory before they move to a file.
    """

    def __init__(self, metric_ids: Sequence[str], worst: int = 0, spill_at: int = SPILL_AT) -> None:
        super().__init__(metric_ids, 0, worst)
        self._scores = {m: ScoreColumn(spill_at) for m in self.metric_ids}
        self._composites = ScoreColumn(spill_at)
        self._flags = {m: [0, 0, 0, 0] for m in self.metric_ids}  # samples per flag value
        self._passed = 0
        self._cost = Cost()

    def extend(self, chunk: BatchTally) -> None:
        """Append the positions of ``chunk`` (same metrics) after those already joined."""
        for metric_id in self.metric_ids:
            self._scores[metric_id].extend(determined(chunk.scores[metric_id]))
            flags = chunk.flags[metric_id]
            counted = self._flags[metric_id]
            for flag in range(len(counted)):
                counted[flag] += flags.count(flag)
        self._composites.extend(determined(chunk.composites))
        self._passed += chunk.passed.count(1)
        self._cost = add_costs(self._cost, (chunk.costs[i] for i in sorted(chunk.costs)))
        if self.worst_count:
            self._keep_worst([(self.size + i, result) for i, result in chunk.worst])
        self.size += chunk.size
        self._take_notes(chunk)

    def close(self) -> None:
        """Delete the temporary files (the scores handed out by :meth:`determined` too)."""
        for column in [*self._scores.values(), self._composites]:
            column.close()

    def determined(self, metric_id: str) -> Sequence[float]:
        """The determined scores of ``metric_id``, in input order (read from the file when
        they spilled to one)."""
        return self._scores[metric_id]

    def _determined_composites(self) -> Sequence[float]:
        return self._composites

    def _flag_count(self, metric_id: str, flag: int) -> int:
        return self._flags[metric_id][flag]

    def _passed_count(self) -> int:
        return self._passed

    def total_cost(self) -> Cost:
        """The sum of every sample's cost, in input order."""
        return self._cost
