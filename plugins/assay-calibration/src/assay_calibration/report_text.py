"""The plain-text calibration report printed by ``assay calibrate``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay_calibration.score_bands import ACTIONS, CalibrationReport

if TYPE_CHECKING:  # the probability module imports numpy; the text needs only its records
    from assay_calibration.probability import ReliabilityTable

__all__ = ["band_label", "format_number", "render_text"]


def format_number(value: float) -> str:
    """``85`` for integral values, else up to 3 decimals without trailing zeros."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


def band_label(low: float, high: float) -> str:
    """``[40, 65)``; the top band ``[85, 101)`` reads ``[85, 100]``."""
    if high == 101:
        return f"[{format_number(low)}, 100]"
    return f"[{format_number(low)}, {format_number(high)})"


def _percent(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def render_text(source: str, report: CalibrationReport, reliability: ReliabilityTable) -> str:
    """The report as aligned plain text (ends with a newline).

    Sections: summary, bands, actions (only when some record has a recommended action),
    recommended policy, the totals read as probabilities (Brier, ECE), warnings.
    """
    out = [
        f"calibration of {source}: {report.sample_count} records, "
        f"{report.positive_count} positive ({_percent(report.positive_rate)})",
        f"positive outcomes: {', '.join(report.config.positive_outcomes) or '(none)'}",
        "",
        f"{'band':<12}{'count':>7}{'positive':>10}{'rate':>9}{'avg total':>11}",
    ]
    for band in report.bands:
        rate = _percent(band.positive_rate) if band.count else "-"
        average = f"{band.average_score:.1f}" if band.count else "-"
        out.append(
            f"{band_label(band.min, band.max):<12}{band.count:>7}{band.positive_count:>10}"
            f"{rate:>9}{average:>11}"
        )
    summary = report.action_summary
    if any(getattr(summary, action).count for action in ACTIONS):
        out += ["", f"{'action':<12}{'count':>7}{'rate':>9}"]
        for action in ACTIONS:
            stats = getattr(summary, action)
            rate = _percent(stats.positive_rate) if stats.count else "-"
            out.append(f"{action:<12}{stats.count:>7}{rate:>9}")
    policy = report.recommended_policy
    out += [
        "",
        f"recommended policy: answer at >= {format_number(policy.answer_at)}, "
        f"review at >= {format_number(policy.review_at)}, "
        f"abstain below {format_number(policy.abstain_below)}",
        f"  target precision for answer: {format_number(report.config.target_precision_for_answer)}"
        + (
            f", target recall for abstain: {format_number(report.config.target_recall_for_abstain)}"
            if report.config.target_recall_for_abstain is not None
            else " (no recall target: abstain threshold left at the default)"
        ),
        "",
        f"totals read as probabilities (total/100): Brier {reliability.brier_score:.4f}, "
        f"ECE {reliability.expected_calibration_error:.4f} ({len(reliability.bins)} bins)",
    ]
    out += ["", "warnings:" if report.warnings else "warnings: none"]
    out += [f"  [{w.code}] {w.path}: {w.message}" for w in report.warnings]
    return "\n".join(out) + "\n"
