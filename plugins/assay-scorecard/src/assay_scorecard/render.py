"""Human-readable renderings of a scorecard."""

from __future__ import annotations

from assay.jsmath import js_number
from assay_scorecard.types import Scorecard, TierResult

__all__ = ["render_html", "render_markdown", "render_text"]


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


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(scorecard: Scorecard) -> str:
    """The scorecard as Markdown: a headline, a dimension table with points and explanations,
    warnings and missing signals. Table cells escape ``|``."""
    lines = [
        f"**Score {js_number(scorecard.total)}/100 — {scorecard.label}** · "
        f"recommended action: **{scorecard.recommended_action}**",
        "",
        f"> {_md_escape(scorecard.action_reason)}",
        "",
        "| dimension | points | normalized | weight | explanation |",
        "|---|---:|---:|---:|---|",
    ]
    for name, dim in scorecard.dimensions.items():
        weight = scorecard.meta.weights.get(name, dim.max)
        lines.append(
            f"| {name} | {js_number(dim.raw)}/{js_number(dim.max)} | {js_number(dim.normalized)} "
            f"| {js_number(weight)} | {_md_escape(dim.explanation)} |"
        )
    tiers = [("Tier 1 (answer confidence)", scorecard.tier1)]
    tiers.append(("Tier 2 (system readiness)", scorecard.tier2))
    lines.append("")
    for title, tier in tiers:
        lines.append(
            f"- {title}: " + (f"{js_number(tier.score)} {tier.label}" if tier else "not active")
        )
    if scorecard.meta.warnings:
        lines += ["", "**Warnings**", ""]
        lines += [
            f"- `{w.code}` ({w.severity}) at `{w.path}`: {_md_escape(w.message)}"
            for w in scorecard.meta.warnings
        ]
    if scorecard.meta.missing_signals:
        lines += [
            "",
            "Missing signals: " + ", ".join(f"`{s}`" for s in scorecard.meta.missing_signals),
        ]
    return "\n".join(lines) + "\n"


_COLORS = {
    "green": "#1a7f37",
    "amber": "#9a6700",
    "orange": "#bc4c00",
    "red": "#cf222e",
    "gray": "#57606a",
}


def render_html(scorecard: Scorecard) -> str:
    """A self-contained HTML fragment (one ``<section>``, inline styles, no scripts, no external
    assets) for embedding in a UI. All text is escaped."""
    from html import escape

    def e(value: object) -> str:
        return escape(str(value), quote=True)

    color = _COLORS.get(scorecard.label_color, "#57606a")
    rows = []
    for name, dim in scorecard.dimensions.items():
        width = (
            max(0.0, min(100.0, float(dim.normalized))) if dim.normalized == dim.normalized else 0
        )
        rows.append(
            "<tr>"
            f'<th scope="row" style="text-align:left;padding:2px 8px">{e(name)}</th>'
            f'<td style="padding:2px 8px">{e(js_number(dim.raw))}/{e(js_number(dim.max))}</td>'
            '<td style="padding:2px 8px;min-width:120px"><div style="background:#eaeef2;height:8px">'
            f'<div style="background:{color};height:8px;width:{width:.0f}%"></div></div></td>'
            f'<td style="padding:2px 8px">{e(dim.explanation)}</td>'
            "</tr>"
        )
    warnings = "".join(
        f"<li><code>{e(w.code)}</code> ({e(w.severity)}) at <code>{e(w.path)}</code>: "
        f"{e(w.message)}</li>"
        for w in scorecard.meta.warnings
    )
    tier2 = (
        f"{e(js_number(scorecard.tier2.score))} {e(scorecard.tier2.label)}"
        if scorecard.tier2
        else "not active"
    )
    tier1 = (
        f"{e(js_number(scorecard.tier1.score))} {e(scorecard.tier1.label)}"
        if scorecard.tier1
        else "not active"
    )
    return (
        '<section class="assay-scorecard" style="font-family:sans-serif;font-size:14px">'
        f'<p style="margin:0 0 4px"><strong style="font-size:20px;color:{color}">'
        f"{e(js_number(scorecard.total))}</strong>/100 "
        f'<span style="color:{color}">{e(scorecard.label)}</span> · recommended action: '
        f"<strong>{e(scorecard.recommended_action)}</strong></p>"
        f'<p style="margin:0 0 8px;color:#57606a">{e(scorecard.action_reason)}</p>'
        f'<p style="margin:0 0 8px">Tier 1 answer confidence: {tier1} · Tier 2 system '
        f"readiness: {tier2}</p>"
        f'<table style="border-collapse:collapse">{"".join(rows)}</table>'
        + (f'<ul style="margin:8px 0 0">{warnings}</ul>' if warnings else "")
        + "</section>"
    )
