"""The self-contained HTML calibration page written by ``assay calibrate --html``.

One file: inline CSS and inline SVG (:mod:`assay_calibration.svg_charts`), no scripts, no
external assets, no timestamps (the same input gives the same bytes). Every piece of text that
comes from the input (file name, outcome names, warnings) is HTML-escaped.
"""

from __future__ import annotations

from html import escape

from assay_calibration.probability import ReliabilityTable
from assay_calibration.report_text import band_label, format_number
from assay_calibration.score_bands import ACTIONS, CalibrationReport
from assay_calibration.svg_charts import band_chart, reliability_diagram

__all__ = ["render_html"]

_STYLE = """
body { font-family: system-ui, sans-serif; color: #222; max-width: 880px; margin: 2rem auto;
       padding: 0 1rem; line-height: 1.45; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.sub { color: #555; margin-top: 0; }
.cards { display: flex; flex-wrap: wrap; gap: 0.75rem; margin: 1rem 0; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 0.6rem 0.9rem; min-width: 9rem; }
.card b { display: block; font-size: 1.3rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { padding: 0.25rem 0.8rem; text-align: right; border-bottom: 1px solid #eee; }
th:first-child, td:first-child { text-align: left; }
.warn { background: #fff4e0; border-left: 4px solid #e0a030; padding: 0.5rem 0.8rem; }
.note { color: #555; font-size: 0.92rem; }
figure { margin: 0.5rem 0; }
figcaption { color: #555; font-size: 0.9rem; max-width: 560px; }
"""


def _percent(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cards(report: CalibrationReport, reliability: ReliabilityTable) -> str:
    policy = report.recommended_policy
    cards = [
        ("records", str(report.sample_count)),
        ("positive", f"{report.positive_count} ({_percent(report.positive_rate)})"),
        ("answer at", f"≥ {format_number(policy.answer_at)}"),
        ("abstain below", format_number(policy.abstain_below)),
        ("Brier (total/100)", f"{reliability.brier_score:.4f}"),
        ("ECE (total/100)", f"{reliability.expected_calibration_error:.4f}"),
    ]
    items = "".join(f'<div class="card">{escape(k)}<b>{escape(v)}</b></div>' for k, v in cards)
    return f'<div class="cards">{items}</div>'


def _band_rows(report: CalibrationReport) -> list[list[str]]:
    return [
        [
            band_label(b.min, b.max),
            str(b.count),
            str(b.positive_count),
            _percent(b.positive_rate) if b.count else "–",
            f"{b.average_score:.1f}" if b.count else "–",
        ]
        for b in report.bands
    ]


def _action_rows(report: CalibrationReport) -> list[list[str]]:
    rows = []
    for action in ACTIONS:
        stats = getattr(report.action_summary, action)
        rows.append(
            [action, str(stats.count), _percent(stats.positive_rate) if stats.count else "–"]
        )
    return rows


def _reliability_rows(reliability: ReliabilityTable) -> list[list[str]]:
    return [
        [
            f"{b.lower:g}–{b.upper:g}",
            str(b.count),
            f"{b.mean_predicted:.3f}" if b.mean_predicted is not None else "–",
            f"{b.observed_rate:.3f}" if b.observed_rate is not None else "–",
        ]
        for b in reliability.bins
    ]


def _policy_text(report: CalibrationReport) -> str:
    config = report.config
    policy = report.recommended_policy
    recall = (
        f"at least {format_number(config.target_recall_for_abstain)} of the negative outcomes "
        f"score below {format_number(policy.abstain_below)}"
        if config.target_recall_for_abstain is not None
        else "no recall target was set, so the abstain threshold stays at the default 40"
    )
    return (
        f"<p>Answer when the total is at least <b>{format_number(policy.answer_at)}</b>, review "
        f"from <b>{format_number(policy.review_at)}</b>, abstain below "
        f"<b>{format_number(policy.abstain_below)}</b>. The answer threshold is the lower edge "
        f"of the highest band with records whose positive rate reached the target precision "
        f"{escape(format_number(config.target_precision_for_answer))} (85 when none did); "
        f"{escape(recall)}.</p>"
    )


def render_html(source: str, report: CalibrationReport, reliability: ReliabilityTable) -> str:
    """A complete HTML document for one calibration run."""
    positives = ", ".join(report.config.positive_outcomes) or "(none)"
    warnings = "".join(
        f'<p class="warn">[{escape(w.code)}] {escape(w.path)}: {escape(w.message)}</p>'
        for w in report.warnings
    )
    sections = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Calibration report: {escape(source)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>Calibration report</h1><p class=sub>{escape(source)} · positive outcomes: "
        f"{escape(positives)}</p>",
        _cards(report, reliability),
        warnings,
        "<h2>Recommended policy</h2>",
        _policy_text(report),
        "<h2>Score bands</h2>",
        "<figure>",
        band_chart(report.bands, report.config.target_precision_for_answer),
        "<figcaption>Bars: the share of positive outcomes among the records in each band. "
        "Dots: the band's average total ÷ 100. Where a bar is below its dot, totals in that "
        "band promise more than they deliver.</figcaption></figure>",
        _table(["band", "count", "positive", "positive rate", "average total"], _band_rows(report)),
        "<h2>Recommended actions and what happened</h2>",
        _table(["action", "count", "positive rate"], _action_rows(report)),
        '<p class="note">Counts only records that carry a recommendedAction.</p>',
        "<h2>Reliability diagram (total ÷ 100 read as a probability)</h2>",
        "<figure>",
        reliability_diagram(reliability.bins),
        "<figcaption>Each point is a bin of records by total ÷ 100: its mean against the share of "
        "positive outcomes; larger points hold more records, faint bars show how many. On the "
        "diagonal the totals behave like probabilities; below it they are over-confident, above "
        "it under-confident.</figcaption></figure>",
        _table(["bin", "count", "mean predicted", "observed rate"], _reliability_rows(reliability)),
        f'<p class="note">Brier score {reliability.brier_score:.4f} (0 is perfect; always saying '
        f"0.5 scores 0.25). Expected calibration error {reliability.expected_calibration_error:.4f}"
        f" over {len(reliability.bins)} bins (the count-weighted mean gap between a bin's mean "
        "and its observed rate).</p>",
        "<h2>How to read this</h2>",
        "<p>A scorecard total is a signal, not a probability. This page compares the totals your "
        "system gave with what actually happened to those answers. Trust a threshold only when "
        "its band holds enough records (see the counts, and the low-sample warning when "
        "configured). The recommended policy is a suggestion from history: it changes nothing "
        "until you put it in your scoring configuration.</p>",
        "</body></html>",
    ]
    return "\n".join(part for part in sections if part) + "\n"
