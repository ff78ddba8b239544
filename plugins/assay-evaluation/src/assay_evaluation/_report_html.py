"""A self-contained HTML report of a batch evaluation: the verdict and why, per-metric
aggregates with thresholds, score histograms with labelled axes (inline SVG), regressions, and
the worst samples with their question, answer, contexts, ground truth and each metric's reason.
Every piece of text from the data is HTML-escaped."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from assay_evaluation._aggregate import worst_rank
from assay_evaluation._gate import Gate, GateVerdict, metric_counts
from assay_evaluation._outcome import error_of, status_of
from assay_evaluation._profiles import metric_label
from assay_evaluation._samples import has_question
from assay_evaluation._summary import verdict_word
from assay_evaluation._types import EvalResult

if TYPE_CHECKING:
    from assay_evaluation._batch_result import BatchEvalResult

__all__ = ["histogram_svg", "render_html"]

_BINS = 10
_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:70rem}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:4px 8px;
vertical-align:top}th{background:#f3f3f3}.pass{color:#17692f}.fail{color:#a31515}
.und{color:#777}.error{color:#a31515;font-weight:bold}
.plots{display:flex;flex-wrap:wrap;gap:1rem}figure{margin:0}figcaption{font-size:.9rem}
section{border-top:1px solid #ddd;margin-top:1rem}dt{font-weight:bold}dd{margin:0 0 .5rem 1rem}
ol.ctx li{margin-bottom:.3rem}
"""
_STATES = {
    "pass": '<span class="pass">pass</span>',
    "fail": '<span class="fail">fail</span>',
    "undetermined": '<span class="und">undetermined</span>',
    "error": '<span class="error">error</span>',
}


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _verdict(passed: bool) -> str:
    return _STATES["pass" if passed else "fail"]


def _gate_word(verdict: GateVerdict) -> str:
    """The run's verdict as the text summary words it (:func:`verdict_word`)."""
    word = verdict_word(verdict)
    if word in ("PASSED", "FAILED"):
        return _verdict(verdict.passed)
    return f'<span class="und">{word.lower()}</span>'


def histogram_svg(scores: Iterable[float], threshold: float | None, title: str) -> str:
    """An inline SVG bar chart of ``scores`` in ten bins over [0, 1]: an x axis labelled
    ``score`` with ticks at 0, 0.2, ..., 1, a y axis labelled ``samples`` with ticks at 0, half
    and the tallest bin's count, and the threshold as a dashed vertical line."""
    counts = [0] * _BINS
    for score in scores:
        counts[min(_BINS - 1, max(0, int(score * _BINS)))] += 1
    width, height = 300, 170
    left, right, top, bottom = 40, 12, 12, 38  # room for the tick labels and axis titles
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max(counts) or 1
    bar = plot_w / _BINS
    base = top + plot_h
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}" font-size="10">'
    ]
    for index, count in enumerate(counts):
        h = plot_h * count / peak
        parts.append(
            f'<rect x="{left + index * bar + 1:.1f}" y="{base - h:.1f}" width="{bar - 2:.1f}" '
            f'height="{h:.1f}" fill="#4a78b5"><title>{index / _BINS:.1f}–'
            f"{(index + 1) / _BINS:.1f}: {count}</title></rect>"
        )
    parts.append(
        f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="#333"/>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{base}" stroke="#333"/>'
    )
    for tick in range(6):
        x = left + plot_w * tick / 5
        parts.append(
            f'<line x1="{x:.1f}" y1="{base}" x2="{x:.1f}" y2="{base + 4}" stroke="#333"/>'
            f'<text x="{x:.1f}" y="{base + 14}" text-anchor="middle">{tick / 5:g}</text>'
        )
    for value in sorted({0, peak // 2, peak}):
        y = base - plot_h * value / peak
        parts.append(
            f'<line x1="{left - 4}" y1="{y:.1f}" x2="{left}" y2="{y:.1f}" stroke="#333"/>'
            f'<text x="{left - 6}" y="{y + 3:.1f}" text-anchor="end">{value}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle">score</text>'
        f'<text x="10" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 10 {top + plot_h / 2:.1f})">samples</text>'
    )
    if threshold is not None:
        x = left + threshold * plot_w
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{base}" stroke="#a31515" '
            f'stroke-dasharray="4 2"><title>threshold {threshold:g}</title></line>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _aggregates_table(batch: BatchEvalResult) -> str:
    rows = [
        "<tr><th>metric</th><th>threshold</th><th>mean</th><th>median</th><th>min</th>"
        "<th>max</th><th>std dev</th><th>pass rate</th><th>undetermined</th><th>errors</th></tr>"
    ]
    counts = metric_counts(batch)
    samples = batch.sample_count or 1
    items = [(metric_label(m), a, counts[m]) for m, a in batch.aggregates.items()]
    for label, agg, c in [*items, ("composite", batch.composite_aggregate, None)]:
        errors = c.errors if c else 0
        side = ">=" if c is None or c.higher_is_better else "<="
        threshold = "—" if agg.threshold is None else f"{side} {agg.threshold:g}"
        stats = [agg.mean, agg.median, agg.min, agg.max, agg.std_dev] if agg.count else [None] * 5
        rows.append(
            f"<tr><td>{escape(label)}</td><td>{threshold}</td>"
            + "".join(f"<td>{_number(x)}</td>" for x in stats)
            + f"<td>{agg.pass_rate:.1%}</td><td>{agg.null_rate - errors / samples:.1%}</td>"
            f"<td>{errors}</td></tr>"
        )
    return "<table>" + "".join(rows) + "</table>"


def _regressions(batch: BatchEvalResult) -> str:
    if batch.regressions is None:
        return "<p>No baseline given.</p>"
    rows = [
        "<tr><th>metric</th><th>baseline</th><th>current</th><th>delta</th><th>allowed</th>"
        "<th></th></tr>"
    ]
    for r in batch.regressions:
        flag = '<span class="fail">regressed</span>' if r.regressed else "ok"
        sign = "-" if r.higher_is_better else "+"
        allowed = "" if r.threshold is None else f"{sign}{r.threshold:g}"
        rows.append(
            f"<tr><td>{escape(metric_label(r.metric_id))}</td><td>{r.baseline_mean:.3f}</td>"
            f"<td>{r.current_mean:.3f}</td><td>{r.delta:+.3f}</td><td>{allowed}</td>"
            f"<td>{flag}</td></tr>"
        )
    return "<table>" + "".join(rows) + "</table>"


def _sample_block(index: int, result: EvalResult) -> str:
    sample = result.sample
    name = sample.id if sample.id is not None else f"#{index}"
    rows = []
    for metric_id, metric in result.metrics.items():
        reason = error_of(metric) or metric.explanation
        signals = "".join(
            f"<li>[{escape(s.severity)}] {escape(s.message)}"
            + (f" — <q>{escape(s.evidence)}</q>" if s.evidence else "")
            + "</li>"
            for s in metric.signals
        )
        rows.append(
            f"<tr><td>{escape(metric_label(metric_id))}</td><td>{_number(metric.score)}</td>"
            f"<td>{_STATES[status_of(metric)]}</td><td>{escape(reason)}"
            f"{'<ul>' + signals + '</ul>' if signals else ''}</td></tr>"
        )
    question = escape(sample.question) if has_question(sample) else "<i>(no question)</i>"
    contexts = "".join(f"<li>{escape(c)}</li>" for c in sample.contexts) or "<li><i>none</i></li>"
    truth = "<i>(none)</i>" if sample.ground_truth is None else escape(sample.ground_truth)
    return (
        f"<section><h3>{escape(name)} — composite {_number(result.composite_score)} "
        f"{_verdict(result.passed)}</h3><dl><dt>question</dt><dd>{question}</dd>"
        f"<dt>answer</dt><dd>{escape(sample.answer)}</dd><dt>contexts</dt><dd>"
        f'<ol class="ctx">{contexts}</ol></dd><dt>ground truth</dt><dd>{truth}</dd></dl>'
        f"<table><tr><th>metric</th><th>score</th><th></th><th>reason and signals</th></tr>"
        f"{''.join(rows)}</table></section>"
    )


def _worst_first(item: tuple[int, EvalResult]) -> tuple[int, float]:
    return worst_rank(item[1])


def _scores(batch: BatchEvalResult, metric_id: str) -> Sequence[float]:
    """The determined scores of ``metric_id``: from the results, or, when they were not kept,
    from the numbers kept for the report (``keep_worst``: read in blocks, never copied)."""
    if not batch.results_kept and batch.scores is not None:
        return batch.scores.get(metric_id, ())
    return [
        score
        for r in batch.results
        if metric_id in r.metrics and (score := r.metrics[metric_id].score) is not None
    ]


_NOT_KEPT = (
    "<p>Not shown: this batch kept no per-sample results (<code>keep_results=False</code>). "
    "Evaluate with <code>keep_worst=N</code> (the scores and the N worst samples) or "
    "<code>keep_results=True</code>.</p>"
)


def render_html(
    batch: BatchEvalResult,
    title: str = "assay evaluation",
    worst: int = 10,
    verdict: GateVerdict | None = None,
) -> str:
    """The report as one HTML string with no external resources; all text from samples,
    metrics and ids is HTML-escaped.

    :param worst: how many samples to show (errors first, then undetermined composites, then
        the lowest composite); a batch that kept no results shows those it kept with
        ``keep_worst``.
    :param verdict: the gate's verdict to show (default: :class:`~assay_evaluation.Gate`'s
        defaults applied to ``batch``).
    """
    verdict = verdict or Gate().check(batch)
    plots = []
    for metric_id, aggregate in batch.aggregates.items():
        scores = _scores(batch, metric_id)
        label = metric_label(metric_id)
        plots.append(
            f"<figure>{histogram_svg(scores, aggregate.threshold, label)}<figcaption>"
            f"{escape(label)}: {len(scores)} scores, threshold {_number(aggregate.threshold)}"
            "</figcaption></figure>"
        )
    ranked = (
        sorted(enumerate(batch.results), key=_worst_first)[:worst]
        if batch.results_kept
        else list(batch.worst_results[:worst])
    )
    reasons = "".join(f"<li>{escape(r)}</li>" for r in verdict.reasons)
    cost = batch.total_cost
    distributions = f'<div class="plots">{"".join(plots)}</div>'
    samples = "".join(_sample_block(i, r) for i, r in ranked)
    if not batch.results_kept and batch.scores is None and batch.sample_count:
        # not "0 scores" and an empty list: say what was not kept and how to keep it
        distributions = samples = _NOT_KEPT
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}'
        f"</title><style>{_STYLE}</style></head><body><h1>{escape(title)}</h1>"
        f"<p>{batch.sample_count} samples, {batch.failed_count} failed: "
        f"{_gate_word(verdict)}; judge calls {cost.llm_calls}, cache hits "
        f"{cost.cache_hits}, unparsable replies {cost.parse_failures}.</p>"
        f"{'<ul>' + reasons + '</ul>' if reasons else ''}"
        f"<h2>Aggregates</h2>{_aggregates_table(batch)}"
        f"<h2>Score distributions</h2>{distributions}"
        f"<h2>Regressions</h2>{_regressions(batch)}"
        f"<h2>Worst samples</h2>{samples}"
        "</body></html>"
    )
