"""A self-contained HTML report of a batch evaluation: aggregates, per-metric score
distributions as inline SVG, regressions, and the worst samples with their signals."""

from __future__ import annotations

from html import escape

from assay_evaluation._gate import GateVerdict
from assay_evaluation._types import BatchEvalResult, EvalResult

__all__ = ["render_html"]

_BINS = 10
_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:4px 8px}
th{background:#f3f3f3}.pass{color:#17692f}.fail{color:#a31515}.und{color:#777}
.plots{display:flex;flex-wrap:wrap;gap:1rem}figure{margin:0}figcaption{font-size:.9rem}
"""


def _number(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _state(passed: bool | None) -> str:
    if passed is None:
        return '<span class="und">undetermined</span>'
    return '<span class="pass">pass</span>' if passed else '<span class="fail">fail</span>'


def histogram_svg(scores: list[float], threshold: float | None, title: str) -> str:
    """An inline SVG bar chart of ``scores`` in ten bins over [0, 1], with the threshold as a
    vertical line."""
    counts = [0] * _BINS
    for score in scores:
        counts[min(_BINS - 1, max(0, int(score * _BINS)))] += 1
    width, height, pad = 260, 120, 20
    top = max(counts) or 1
    bar = (width - 2 * pad) / _BINS
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}">'
    ]
    for index, count in enumerate(counts):
        h = (height - 2 * pad) * count / top
        x = pad + index * bar
        parts.append(
            f'<rect x="{x:.1f}" y="{height - pad - h:.1f}" width="{bar - 2:.1f}" '
            f'height="{h:.1f}" fill="#4a78b5"><title>{index / _BINS:.1f}–'
            f"{(index + 1) / _BINS:.1f}: {count}</title></rect>"
        )
    parts.append(
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
        'stroke="#333"/>'
    )
    if threshold is not None:
        x = pad + threshold * (width - 2 * pad)
        parts.append(
            f'<line x1="{x:.1f}" y1="{pad / 2}" x2="{x:.1f}" y2="{height - pad}" '
            'stroke="#a31515" stroke-dasharray="4 2"/>'
        )
    parts.append(
        f'<text x="{pad}" y="{height - 4}" font-size="10">0</text>'
        f'<text x="{width - pad - 6}" y="{height - 4}" font-size="10">1</text></svg>'
    )
    return "".join(parts)


def _aggregates_table(batch: BatchEvalResult) -> str:
    rows = [
        "<tr><th>metric</th><th>mean</th><th>median</th><th>min</th><th>max</th>"
        "<th>std dev</th><th>pass rate</th><th>null rate</th></tr>"
    ]
    items = [*batch.aggregates.items(), ("composite", batch.composite_aggregate)]
    for metric_id, agg in items:
        rows.append(
            f"<tr><td>{escape(metric_id)}</td><td>{agg.mean:.3f}</td><td>{agg.median:.3f}</td>"
            f"<td>{agg.min:.3f}</td><td>{agg.max:.3f}</td><td>{agg.std_dev:.3f}</td>"
            f"<td>{agg.pass_rate:.1%}</td><td>{agg.null_rate:.1%}</td></tr>"
        )
    return "<table>" + "".join(rows) + "</table>"


def _regressions(batch: BatchEvalResult) -> str:
    if batch.regressions is None:
        return "<p>No baseline given.</p>"
    rows = ["<tr><th>metric</th><th>baseline</th><th>current</th><th>delta</th><th></th></tr>"]
    for r in batch.regressions:
        flag = '<span class="fail">regressed</span>' if r.regressed else "ok"
        rows.append(
            f"<tr><td>{escape(r.metric_id)}</td><td>{r.baseline_mean:.3f}</td>"
            f"<td>{r.current_mean:.3f}</td><td>{r.delta:+.3f}</td><td>{flag}</td></tr>"
        )
    return "<table>" + "".join(rows) + "</table>"


def _sample_block(index: int, result: EvalResult) -> str:
    sample = result.sample
    name = sample.id if sample.id is not None else f"#{index}"
    rows = []
    for metric_id, metric in result.metrics.items():
        signals = "".join(
            f"<li>[{escape(s.severity)}] {escape(s.message)}"
            + (f" — <q>{escape(s.evidence)}</q>" if s.evidence else "")
            + "</li>"
            for s in metric.signals
        )
        rows.append(
            f"<tr><td>{escape(metric_id)}</td><td>{_number(metric.score)}</td>"
            f"<td>{_state(metric.passed)}</td><td>{escape(metric.explanation)}"
            f"{'<ul>' + signals + '</ul>' if signals else ''}</td></tr>"
        )
    return (
        f"<section><h3>{escape(name)} — composite {_number(result.composite_score)} "
        f"{_state(result.passed)}</h3><p><b>Q:</b> {escape(sample.question)}<br>"
        f"<b>A:</b> {escape(sample.answer)}</p><table><tr><th>metric</th><th>score</th>"
        f"<th></th><th>explanation and signals</th></tr>{''.join(rows)}</table></section>"
    )


def render_html(
    batch: BatchEvalResult,
    title: str = "assay evaluation",
    worst: int = 10,
    verdict: GateVerdict | None = None,
) -> str:
    """The report as one HTML string with no external resources; all text from samples,
    metrics and ids is HTML-escaped.

    :param worst: how many samples to show, lowest composite first (undetermined composites
        first of all).
    """
    plots = []
    for metric_id in batch.aggregates:
        scores = [
            score
            for r in batch.results
            if metric_id in r.metrics and (score := r.metrics[metric_id].score) is not None
        ]
        thresholds = [
            r.metrics[metric_id].threshold for r in batch.results if metric_id in r.metrics
        ]
        threshold = thresholds[0] if thresholds else None
        plots.append(
            f"<figure>{histogram_svg(scores, threshold, metric_id)}<figcaption>"
            f"{escape(metric_id)}: {len(scores)} scores, threshold {_number(threshold)}"
            "</figcaption></figure>"
        )
    ranked = sorted(
        enumerate(batch.results),
        key=lambda item: (item[1].composite_score is not None, item[1].composite_score or 0.0),
    )[:worst]
    state = _state(batch.passed if verdict is None else verdict.passed)
    reasons = "".join(f"<li>{escape(r)}</li>" for r in (verdict.reasons if verdict else ()))
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}'
        f"</title><style>{_STYLE}</style></head><body><h1>{escape(title)}</h1>"
        f"<p>{len(batch.results)} samples, overall {state}; judge calls "
        f"{batch.total_cost.llm_calls}, cache hits {batch.total_cost.cache_hits}.</p>"
        f"{'<ul>' + reasons + '</ul>' if reasons else ''}"
        f"<h2>Aggregates</h2>{_aggregates_table(batch)}"
        f'<h2>Score distributions</h2><div class="plots">{"".join(plots)}</div>'
        f"<h2>Regressions</h2>{_regressions(batch)}"
        f"<h2>Worst samples</h2>{''.join(_sample_block(i, r) for i, r in ranked)}"
        "</body></html>"
    )
