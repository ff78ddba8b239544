"""Human-readable renderings of a scorecard, and of the text evidence behind it when it was
scored from an answer's text."""

from __future__ import annotations

from collections.abc import Iterator

from assay.jsmath import js_number, round_to
from assay_scorecard.text_evidence import ClaimFinding, TextEvidence
from assay_scorecard.types import Scorecard, TierResult

__all__ = ["render_html", "render_markdown", "render_text"]


def _headline(evidence: TextEvidence) -> str:
    """``Text evidence (reader): 1 of 2 claims supported; answer score 0.62``.

    The reader's answer-level score is called the *answer score*, not a support score: the
    grounding dimension and the support warnings speak of the *effective support score* (the
    share of supported claims), a different number, and the two side by side under one name
    read as a contradiction (``support score 0.86`` above ``Effective support score 0``)."""
    claims = len(evidence.claims)
    counted = f"{evidence.supported_claims} of {claims} claim{'s' if claims != 1 else ''} supported"
    score = (
        "answer score undetermined"
        if evidence.score is None
        else f"answer score {js_number(round_to(evidence.score, 2))}"
    )
    return f"Text evidence ({evidence.reader}): {counted}; {score}"


def _claim_details(claim: ClaimFinding) -> Iterator[tuple[str, str, str]]:
    """``(label, words, sentence)`` lines under a claim: each unsupported item (its kind, the
    answer's words, the reason), then the span (``span (source)`` or ``closest span
    (source)``, the span text, "")."""
    for item in claim.unsupported:  # on a supported claim, a doubt a reviewer may check
        yield item.kind if not claim.supported else f"doubt ({item.kind})", item.text, item.reason
    if claim.span is not None:
        where = f" ({claim.source})" if claim.source else ""
        yield f"{'span' if claim.supported else 'closest span'}{where}", claim.span, ""


def _ordered_claims(evidence: TextEvidence) -> list[ClaimFinding]:
    """Unsupported claims first (what a reviewer must check), then the supported, each in
    answer order."""
    return [c for c in evidence.claims if not c.supported] + [
        c for c in evidence.claims if c.supported
    ]


def _evidence_text(evidence: TextEvidence) -> list[str]:
    lines = ["", _headline(evidence), f"  {evidence.summary}"]
    for claim in _ordered_claims(evidence):
        status = "supported" if claim.supported else "UNSUPPORTED"
        lines.append(f'  {status}: "{claim.text}"')
        for label, words, sentence in _claim_details(claim):
            lines.append(f'      {label}: "{words}"' + (f" - {sentence}" if sentence else ""))
    for title, items in (
        ("Conflicts between contexts", evidence.conflicts),
        ("Notes", evidence.notes),
    ):
        if items:
            lines += [f"  {title}:"] + [f"    {item}" for item in items]
    return lines


def _tier(title: str, tier: TierResult | None) -> str:
    if tier is None:
        return f"{title}: not active"
    return f"{title}: {js_number(tier.score)} {tier.label}"


_OUT_OF_RANGE = "input-out-of-range"


def _out_of_range_notice(scorecard: Scorecard) -> str | None:
    """What is said under the decision about the inputs outside their range (a raw BM25 score,
    a support score above 1): the total was computed from them as given, so the decision is
    only as good as they are. ``None`` when every input is in range."""
    paths = [w.path for w in scorecard.meta.warnings if w.code == _OUT_OF_RANGE]
    if not paths:
        return None
    return (
        f"out of range, scored as given: {', '.join(paths)} (scores are read as 0..1; "
        "normalise retrieval scores such as BM25 first)"
    )


def _out_of_range(scorecard: Scorecard) -> list[str]:
    notice = _out_of_range_notice(scorecard)
    return [] if notice is None else [f"  ! {notice}"]


def render_text(scorecard: Scorecard, *, evidence: TextEvidence | None = None) -> str:
    """A terminal report: total, label, action and deciding rule, tiers, each dimension with its
    points and explanation, warnings and missing signals; with ``evidence`` (an answer scored
    from its text), then the answer's claims, unsupported ones first, each with what is
    unsupported and its span, the conflicts between contexts and the notes."""
    lines = [
        f"Score {js_number(scorecard.total)}/100  {scorecard.label} ({scorecard.label_color})"
        f"  ->  {scorecard.recommended_action.upper()}",
        f"  rule {scorecard.action_rule}: {scorecard.action_reason}",
        "  "
        + _tier("Tier 1 Answer Confidence", scorecard.tier1)
        + "   "
        + _tier("Tier 2 System Readiness", scorecard.tier2),
        *_out_of_range(scorecard),
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
    if evidence is not None:
        lines += _evidence_text(evidence)
    return "\n".join(lines)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _evidence_markdown(evidence: TextEvidence) -> list[str]:
    lines = ["", f"**{_md_escape(_headline(evidence))}**", "", _md_escape(evidence.summary), ""]
    for claim in _ordered_claims(evidence):
        status = "supported" if claim.supported else "**unsupported**"
        lines.append(f"- {status}: {_md_escape(claim.text)}")
        for label, words, sentence in _claim_details(claim):
            tail = f" — {_md_escape(sentence)}" if sentence else ""
            lines.append(f"  - {_md_escape(label)}: “{_md_escape(words)}”{tail}")
    for title, items in (
        ("Conflicts between contexts", evidence.conflicts),
        ("Notes", evidence.notes),
    ):
        if items:
            lines += ["", f"{title}:", ""] + [f"- {_md_escape(item)}" for item in items]
    return lines


def render_markdown(scorecard: Scorecard, *, evidence: TextEvidence | None = None) -> str:
    """The scorecard as Markdown: a headline, the deciding rule and its reason (and, as in
    :func:`render_text`, the inputs scored as given outside their range), a dimension table
    with points and explanations, warnings and missing signals; with ``evidence``, the answer's claims (unsupported first),
    conflicts and notes. Table cells escape ``|``."""
    lines = [
        f"**Score {js_number(scorecard.total)}/100 — {scorecard.label}** · "
        f"recommended action: **{scorecard.recommended_action}**",
        "",
        f"> rule `{scorecard.action_rule}`: {_md_escape(scorecard.action_reason)}",
        "",
    ]
    notice = _out_of_range_notice(scorecard)
    if notice is not None:
        lines += [f"> **{_md_escape(notice)}**", ""]
    lines += [
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
    if evidence is not None:
        lines += _evidence_markdown(evidence)
    return "\n".join(lines) + "\n"


_COLORS = {
    "green": "#1a7f37",
    "amber": "#9a6700",
    "orange": "#bc4c00",
    "red": "#cf222e",
    "gray": "#57606a",
}


def _e(value: object) -> str:
    from html import escape

    return escape(str(value), quote=True)


def _evidence_html(evidence: TextEvidence) -> str:
    e = _e
    items = []
    for claim in _ordered_claims(evidence):
        status = (
            "supported"
            if claim.supported
            else f'<strong style="color:{_COLORS["red"]}">unsupported</strong>'
        )
        details = "".join(
            f"<li>{e(label)}: <q>{e(words)}</q>{f' — {e(sentence)}' if sentence else ''}</li>"
            for label, words, sentence in _claim_details(claim)
        )
        items.append(
            f"<li>{status}: <q>{e(claim.text)}</q>"
            + (f'<ul style="margin:0">{details}</ul>' if details else "")
            + "</li>"
        )
    lists = "".join(
        f'<p style="margin:4px 0 0">{title}:</p><ul style="margin:0">'
        + "".join(f"<li>{e(item)}</li>" for item in entries)
        + "</ul>"
        for title, entries in (
            ("Conflicts between contexts", evidence.conflicts),
            ("Notes", evidence.notes),
        )
        if entries
    )
    return (
        '<div class="assay-text-evidence" style="margin:8px 0 0">'
        f'<p style="margin:0 0 4px"><strong>{e(_headline(evidence))}</strong></p>'
        f'<p style="margin:0 0 4px;color:#57606a">{e(evidence.summary)}</p>'
        + (f'<ul style="margin:0">{"".join(items)}</ul>' if items else "")
        + lists
        + "</div>"
    )


def render_html(scorecard: Scorecard, *, evidence: TextEvidence | None = None) -> str:
    """A self-contained HTML fragment (one ``<section>``, inline styles, no scripts, no external
    assets) for embedding in a UI: the headline, the deciding rule and its reason, the inputs
    scored as given outside their range, the dimensions, the warnings; with ``evidence``, the answer's claims (unsupported first,
    with what is unsupported and the spans), conflicts and notes. All text is escaped."""
    e = _e

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
    notice = _out_of_range_notice(scorecard)
    return (
        '<section class="assay-scorecard" style="font-family:sans-serif;font-size:14px">'
        f'<p style="margin:0 0 4px"><strong style="font-size:20px;color:{color}">'
        f"{e(js_number(scorecard.total))}</strong>/100 "
        f'<span style="color:{color}">{e(scorecard.label)}</span> · recommended action: '
        f"<strong>{e(scorecard.recommended_action)}</strong></p>"
        f'<p style="margin:0 0 8px;color:#57606a">rule {e(scorecard.action_rule)}: '
        f"{e(scorecard.action_reason)}</p>"
        + (f'<p style="margin:0 0 8px"><strong>{e(notice)}</strong></p>' if notice else "")
        + f'<p style="margin:0 0 8px">Tier 1 answer confidence: {tier1} · Tier 2 system '
        f"readiness: {tier2}</p>"
        f'<table style="border-collapse:collapse">{"".join(rows)}</table>'
        + (f'<ul style="margin:8px 0 0">{warnings}</ul>' if warnings else "")
        + (_evidence_html(evidence) if evidence is not None else "")
        + "</section>"
    )
