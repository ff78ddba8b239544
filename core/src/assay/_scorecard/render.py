"""Human-readable renderings of a scorecard."""

from __future__ import annotations

from assay._scorecard.types import Scorecard, TierResult
from assay.jsmath import js_number

__all__ = ["render_text"]


def _tier(title: str, tier: TierResult | None) -> str:
    if tier is None:
        return f"{title}: not active"
    return f"{title}: {js_number(tier.score)} {tier.label}"


def render_text(scorecard: Scorecard) -> str:
    """A terminal report: total, label, action and deciding rule, tiers, each dimension with its
    points and explanation, warnings and missing signals."""
    lines = [
        f"Score {js_number(scorecard.total)}/100  {scorecard.label} ({scorecard.label_color})"
        f"  ->  {scorecard.recommended_action.upper()}",
        f"  rule {scorecard.action_rule}: {scorecard.action_reason}",
        "  "
        + _tier("Tier 1 Answer Confidence", scorecard.tier1)
        + "   "
        + _tier("Tier 2 System Readiness", scorecard.tier2),
        "",
        "Dimensions",
    ]
    width = max((len(name) for name in scorecard.dimensions), default=0)
    for name, dim in scorecard.dimensions.items():
        weight = scorecard.meta.weights.get(name, dim.max)
        points = f"{js_number(dim.raw)}/{js_number(dim.max)}"
        lines.append(
            f"  {name:<{width}}  {points:>7}  ({js_number(dim.normalized)}%, weight "
            f"{js_number(weight)})  {dim.explanation}"
        )
        moves = {**dim.breakdown.adjustments}
        if moves:
            detail = ", ".join(f"{k} {js_number(v)}" for k, v in moves.items())
            lines.append(f"  {'':<{width}}  adjustments: {detail}")
    if scorecard.meta.warnings:
        lines += ["", "Warnings"]
        for warning in scorecard.meta.warnings:
            lines.append(
                f"  [{warning.severity}] {warning.code} at {warning.path}: {warning.message}"
            )
    if scorecard.meta.missing_signals:
        lines += ["", "Missing signals: " + ", ".join(scorecard.meta.missing_signals)]
    return "\n".join(lines)
