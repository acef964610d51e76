"""Line charts as server-rendered SVG: no JavaScript, no inline style (CSP-safe).

One helper for every chart (a match's running score, a player's rating over time).
Lines carry a class per series (``chart-series-0`` ...) for the stylesheet and a
``stroke`` presentation attribute so the chart still reads without it. Text is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

#: high-contrast colours, distinguishable by the common colour blindnesses (Okabe-Ito)
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")


@dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[float, float]]  # (x, y), x increasing


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    width: int = 360,
    height: int = 200,
    reference: float | None = None,
    reference_label: str = "",
    step: bool = False,
) -> SafeString:
    """An SVG line chart of ``series`` scaled to fit, with the y range labelled, an
    optional horizontal ``reference`` line (a target score) and a legend. ``step``
    draws each change as a step (running totals change deal by deal)."""
    frame = _Frame.fit(series, width, height, reference, step)
    parts = _axes(frame)
    if reference is not None:
        parts.append(_reference_line(frame, reference, reference_label))
    for i, s in enumerate(series):
        line = _series_line(frame, i, s, step)
        if line is not None:
            parts.append(line)
        parts.append(_legend_line(frame, i, s))
    body = format_html_join("", "{}", ((p,) for p in parts))
    return format_html(
        '<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}"'
        ' width="100%" role="img" aria-label="{}"><title>{}</title>{}</svg>',
        width,
        height,
        title,
        title,
        mark_safe(body),  # noqa: S308 - built from format_html pieces only
    )


@dataclass(frozen=True)
class _Frame:
    """Where the plot sits in the picture and the ranges it shows."""

    width: int
    height: int
    pad_left: int
    pad_top: int
    pad_bottom: int
    plot_w: int
    plot_h: int
    x_lo: float
    x_hi: float
    y_lo: float
    y_hi: float

    @classmethod
    def fit(
        cls, series: Sequence[Series], width: int, height: int, reference: float | None, step: bool
    ) -> _Frame:
        pad_left, pad_right, pad_top, pad_bottom = 40, 8, 8, 24 + 22 * len(series)
        xs = [x for s in series for x, _ in s.points]
        ys = [y for s in series for _, y in s.points]
        if reference is not None:
            ys.append(reference)
        x_lo, x_hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
        y_lo, y_hi = (min(ys), max(ys)) if ys else (0.0, 1.0)
        if step and xs:
            x_hi += 1  # the last total holds for a step too, so it is seen, not a bare tick
        if x_hi == x_lo:
            x_hi = x_lo + 1
        if y_hi == y_lo:
            y_lo, y_hi = y_lo - 1, y_hi + 1
        plot_w, plot_h = width - pad_left - pad_right, height - pad_top - pad_bottom
        return cls(
            width, height, pad_left, pad_top, pad_bottom, plot_w, plot_h, x_lo, x_hi, y_lo, y_hi
        )

    def sx(self, x: float) -> float:
        return round(self.pad_left + (x - self.x_lo) / (self.x_hi - self.x_lo) * self.plot_w, 1)

    def sy(self, y: float) -> float:
        return round(self.pad_top + (self.y_hi - y) / (self.y_hi - self.y_lo) * self.plot_h, 1)


def _axes(f: _Frame) -> list[SafeString]:
    """The two axes and the y range's two labels."""
    bottom, right = f.pad_top + f.plot_h, f.pad_left + f.plot_w
    axis = '<line class="chart-axis" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#555"/>'
    tick = '<text class="chart-tick" x="{}" y="{}" text-anchor="end" font-size="14">{}</text>'
    return [
        format_html(axis, f.pad_left, bottom, right, bottom),
        format_html(axis, f.pad_left, f.pad_top, f.pad_left, bottom),
        format_html(tick, f.pad_left - 4, f.pad_top + 10, _number(f.y_hi)),
        format_html(tick, f.pad_left - 4, bottom, _number(f.y_lo)),
    ]


def _reference_line(f: _Frame, reference: float, label: str) -> SafeString:
    """A dashed horizontal line at ``reference`` (a target score), its label on hover."""
    return format_html(
        '<line class="chart-reference" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#888"'
        ' stroke-dasharray="4 3"><title>{}</title></line>',
        f.pad_left,
        f.sy(reference),
        f.pad_left + f.plot_w,
        f.sy(reference),
        label or _number(reference),
    )


def _series_line(f: _Frame, i: int, s: Series, step: bool) -> SafeString | None:
    """The ``i``-th series as a polyline (None without points)."""
    coords: list[tuple[float, float]] = []
    for x, y in s.points:
        if step and coords:
            coords.append((f.sx(x), coords[-1][1]))
        coords.append((f.sx(x), f.sy(y)))
    if step and s.points:
        coords.append((f.sx(s.points[-1][0] + 1), coords[-1][1]))
    if not coords:
        return None
    return format_html(
        '<polyline class="chart-series chart-series-{}" fill="none" stroke="{}"'
        ' stroke-width="2.5"{} points="{}"><title>{}</title></polyline>',
        i,
        PALETTE[i % len(PALETTE)],
        # every other line dashed: where two sides are level both stay visible
        mark_safe(' stroke-dasharray="7 4"') if i % 2 else "",
        " ".join(f"{x},{y}" for x, y in coords),
        s.label,
    )


def _legend_line(f: _Frame, i: int, s: Series) -> SafeString:
    """The ``i``-th series' line of the legend: its colour, its label, its last value."""
    legend_y = f.height - f.pad_bottom + 26 + 22 * i
    last = f" {_number(s.points[-1][1])}" if s.points else ""
    return format_html(
        '<rect x="{}" y="{}" width="12" height="4" fill="{}"/>'
        '<text class="chart-legend" x="{}" y="{}" font-size="17">{}{}</text>',
        f.pad_left,
        legend_y - 7,
        PALETTE[i % len(PALETTE)],
        f.pad_left + 18,
        legend_y,
        s.label,
        last,
    )


def _number(value: float) -> str:
    """A whole number bare, else one decimal in the reader's mark ('4,4' in Italian); a
    minus sign, not a hyphen, below zero ('−1,5'), as the scores and nets on the pages."""
    sign = "\u2212" if value < 0 else ""
    value = abs(float(value))
    if value.is_integer():
        return f"{sign}{int(value)}"
    return sign + number_format(round(value, 1), decimal_pos=1, use_l10n=True)
