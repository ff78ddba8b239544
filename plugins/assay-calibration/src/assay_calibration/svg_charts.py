"""Inline SVG charts for the calibration page: a band chart and a reliability diagram.

Each function returns one self-contained ``<svg>`` element (no scripts, no external references);
every piece of text in it is escaped. Coordinates are rounded to 0.1 px so that output is
stable across machines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from assay_calibration.probability import ReliabilityBin
from assay_calibration.report_text import band_label
from assay_calibration.score_bands import BandStats

__all__ = ["band_chart", "reliability_diagram"]

WIDTH, HEIGHT = 560, 340
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 36, 56
PLOT_W = WIDTH - LEFT - RIGHT
PLOT_H = HEIGHT - TOP - BOTTOM

BAR = "#3b7dd8"
POINT = "#d8613b"
GRID = "#d9d9d9"
INK = "#222"


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _y(rate: float) -> float:
    return TOP + PLOT_H * (1 - rate)


def _x(fraction: float) -> float:
    return LEFT + PLOT_W * fraction


def _text(x: float, y: float, content: str, **attributes: str) -> str:
    extra = "".join(f' {key.replace("_", "-")}="{escape(v)}"' for key, v in attributes.items())
    return f'<text x="{_n(x)}" y="{_n(y)}"{extra}>{escape(content)}</text>'


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str, **attributes: str) -> str:
    extra = "".join(f' {key.replace("_", "-")}="{escape(v)}"' for key, v in attributes.items())
    return (
        f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{stroke}"{extra}/>'
    )


def _rate_axis(label: str) -> list[str]:
    """Horizontal grid lines and labels at 0, 20, ..., 100 % on the left."""
    parts = []
    for step in range(6):
        rate = step / 5
        y = _y(rate)
        parts.append(_line(LEFT, y, LEFT + PLOT_W, y, GRID))
        parts.append(_text(LEFT - 6, y + 4, f"{step * 20}%", text_anchor="end"))
    parts.append(
        _text(
            14,
            TOP + PLOT_H / 2,
            label,
            text_anchor="middle",
            transform=f"rotate(-90 14 {_n(TOP + PLOT_H / 2)})",
        )
    )
    return parts


def _svg(title: str, description: str, parts: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" font-family="sans-serif" font-size="12" '
        f'fill="{INK}">'
        f"<title>{escape(title)}</title><desc>{escape(description)}</desc>"
        + "".join(parts)
        + "</svg>"
    )


def band_chart(bands: Sequence[BandStats], target_precision: float) -> str:
    """Bars: observed positive rate per score band; dots: the band's average total / 100; a
    dashed line at the target precision for answering. Empty bands show ``n=0`` and no bar."""
    parts = _rate_axis("positive rate")
    slot = PLOT_W / max(len(bands), 1)
    for i, band in enumerate(bands):
        x0 = LEFT + slot * i
        centre = x0 + slot / 2
        if band.count:
            top = _y(band.positive_rate)
            parts.append(
                f'<rect x="{_n(x0 + slot * 0.15)}" y="{_n(top)}" width="{_n(slot * 0.7)}" '
                f'height="{_n(TOP + PLOT_H - top)}" fill="{BAR}">'
                f"<title>{escape(band_label(band.min, band.max))}: "
                f"{band.positive_count} of {band.count} positive</title></rect>"
            )
            parts.append(
                f'<circle cx="{_n(centre)}" cy="{_n(_y(min(band.average_score / 100, 1)))}" '
                f'r="4" fill="{POINT}"/>'
            )
        parts.append(
            _text(centre, TOP + PLOT_H + 16, band_label(band.min, band.max), text_anchor="middle")
        )
        parts.append(_text(centre, TOP + PLOT_H + 30, f"n={band.count}", text_anchor="middle"))
    legend = [
        f'<rect x="{LEFT}" y="6" width="12" height="12" fill="{BAR}"/>',
        _text(LEFT + 18, 16, "positive rate"),
        f'<circle cx="{LEFT + 122}" cy="12" r="4" fill="{POINT}"/>',
        _text(LEFT + 132, 16, "average total ÷ 100"),
    ]
    if 0 <= target_precision <= 1:
        y = _y(target_precision)
        parts.append(_line(LEFT, y, LEFT + PLOT_W, y, POINT, stroke_dasharray="6 4"))
        legend.append(_line(LEFT + 270, 12, LEFT + 300, 12, POINT, stroke_dasharray="6 4"))
        legend.append(_text(LEFT + 306, 16, f"target precision {target_precision:g}"))
    parts += legend
    parts.append(_text(LEFT + PLOT_W / 2, HEIGHT - 8, "score band (total)", text_anchor="middle"))
    return _svg(
        "Positive rate per score band",
        "Bars show the share of positive outcomes in each score band; dots show the band's "
        "average total divided by 100; the dashed line is the target precision for answering.",
        parts,
    )


def reliability_diagram(bins: Sequence[ReliabilityBin]) -> str:
    """Points: (mean predicted, observed rate) per non-empty bin, area proportional to its
    count, joined in order; the dashed diagonal is perfect calibration; ticks along the bottom
    show how many predictions fell in each bin."""
    parts = _rate_axis("observed positive rate")
    for step in range(6):
        x = _x(step / 5)
        parts.append(_line(x, TOP, x, TOP + PLOT_H, GRID))
        parts.append(_text(x, TOP + PLOT_H + 16, f"{step / 5:.1f}", text_anchor="middle"))
    parts.append(
        _line(_x(0), _y(0), _x(1), _y(1), "#888", stroke_dasharray="5 4")
        + _text(_x(0.3) + 8, _y(0.3) + 4, "perfect calibration", fill="#666")
    )
    filled = [b for b in bins if b.count and b.mean_predicted is not None]
    largest = max((b.count for b in bins), default=0)
    for b in bins:  # count histogram along the bottom, up to 30 px tall
        if b.count:
            height = 30 * b.count / largest
            parts.append(
                f'<rect x="{_n(_x(b.lower) + 1)}" y="{_n(TOP + PLOT_H - height)}" '
                f'width="{_n(_x(b.upper) - _x(b.lower) - 2)}" height="{_n(height)}" '
                f'fill="{BAR}" fill-opacity="0.25"/>'
            )
    if filled:
        path = " ".join(
            f"{_n(_x(b.mean_predicted or 0))},{_n(_y(b.observed_rate or 0))}" for b in filled
        )
        parts.append(f'<polyline points="{path}" fill="none" stroke="{POINT}" stroke-width="2"/>')
    for b in filled:
        radius = 3 + 7 * math.sqrt(b.count / largest)
        parts.append(
            f'<circle cx="{_n(_x(b.mean_predicted or 0))}" cy="{_n(_y(b.observed_rate or 0))}" '
            f'r="{_n(radius)}" fill="{POINT}" fill-opacity="0.8">'
            f"<title>{escape(f'{b.lower:g}–{b.upper:g}')}: {b.count} predictions, mean "
            f"{b.mean_predicted:.3f}, observed {b.observed_rate:.3f}</title></circle>"
        )
    parts.append(
        _text(LEFT + PLOT_W / 2, HEIGHT - 20, "predicted (mean per bin)", text_anchor="middle")
    )
    return _svg(
        "Reliability diagram",
        "Each point is a bin of predictions: its mean predicted probability against the share "
        "of positive outcomes. Points on the dashed diagonal are perfectly calibrated; below it "
        "the predictions were too high, above it too low.",
        parts,
    )
