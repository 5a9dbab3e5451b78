"""Small self-made SVG charts (no plotting library): error against model size (``cv --plot``),
and the ROC, calibration, bar, PSI and decision-curve charts of the ``report`` and ``monitor``
pages."""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 40, 60


def _ticks(low: float, high: float, whole: bool = False) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering [low, high]."""
    raw = (high - low) / 8 or 1.0
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if whole:
        step = max(1.0, round(step))
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step + 1e-9) + 1)]


def error_vs_size(series: dict[str, list[tuple[float, float, str]]], title: str) -> str:
    """SVG text: one line per series of (size, error, point label) points, errors as percent;
    the first series' points are labelled in view (``cv``: each point's C0)."""
    points = [p for pts in series.values() for p in pts]
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    x0, x1 = min(xs) - 0.5, max(xs) + 0.5
    y0, y1 = 0.0, max(ys) * 1.15 if max(ys) > 0 else 1.0

    def sx(x: float) -> float:
        return LEFT + (x - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT)

    def sy(y: float) -> float:
        return HEIGHT - BOTTOM - (y - y0) / (y1 - y0) * (HEIGHT - TOP - BOTTOM)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="14">{escape(title)}</text>',
           f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="black"/>',
           f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="black"/>']
    for x in _ticks(x0, x1, whole=True):
        out.append(f'<text x="{sx(x):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{x:g}</text>')
    for y in _ticks(y0, y1):
        out.append(f'<text x="{LEFT - 8}" y="{sy(y) + 4:.1f}" text-anchor="end">{100 * y:.4g}%</text>')
        out.append(f'<line x1="{LEFT}" y1="{sy(y):.1f}" x2="{WIDTH - RIGHT}" y2="{sy(y):.1f}" stroke="#ddd"/>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 15}" text-anchor="middle">'
               'model size (non-zero coefficients)</text>')
    out.append(f'<text x="16" y="{(TOP + HEIGHT - BOTTOM) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {(TOP + HEIGHT - BOTTOM) / 2})">error</text>')
    colors = ["#c0392b", "#2c6fbb", "#27ae60", "#8e44ad"]
    for k, (name, pts) in enumerate(series.items()):
        color = colors[k % len(colors)]
        pts = sorted(pts)
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y, _ in pts)
        out.append(f'<polyline class="series" data-name="{escape(name)}" points="{path}" fill="none" '
                   f'stroke="{color}" stroke-width="2"/>')
        for x, y, label in pts:
            out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{color}"><title>'
                       f'{escape(label)}</title></circle>')
            if k == 0 and label:  # the first series' points carry their label (the C0) in view
                out.append(f'<text class="point-label" x="{sx(x) + 5:.1f}" y="{sy(y) - 6:.1f}" font-size="10" '
                           f'fill="{color}">{escape(label)}</text>')
        ly = TOP + 16 * k
        out.append(f'<line x1="{WIDTH - RIGHT - 120}" y1="{ly}" x2="{WIDTH - RIGHT - 100}" y2="{ly}" '
                   f'stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{WIDTH - RIGHT - 95}" y="{ly + 4}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------- report and monitor charts
#
# Small charts for the pages of ``scorecard report`` and ``scorecard monitor``
# (exporters/report.py): inline SVG sized by its viewBox, so the page's CSS sets the width and
# a printout scales them. Every text is escaped here; callers pass names as a person reads
# them (runtime.names.visible).

CHART_W, CHART_H = 360, 260
PAD_L, PAD_R, PAD_T, PAD_B = 46, 10, 24, 40
#: Series colours: the first two tell classes (negative, positive) or files (baseline, current) apart.
COLORS = ("#2c6fbb", "#c0392b", "#27ae60", "#8e44ad")


@dataclass(frozen=True)
class Frame:
    """A plot area mapping data (x0..x1, y0..y1) to the chart's pixels."""

    x0: float
    x1: float
    y0: float
    y1: float
    width: int = CHART_W
    height: int = CHART_H
    #: Room below the plot for tick labels and the axis title.
    bottom: int = PAD_B

    def x(self, value: float) -> float:
        return PAD_L + (value - self.x0) / ((self.x1 - self.x0) or 1) * (self.width - PAD_L - PAD_R)

    def y(self, value: float) -> float:
        return self.height - self.bottom - (value - self.y0) / ((self.y1 - self.y0) or 1) * (self.height - PAD_T - self.bottom)


def _open(frame: Frame, title: str, kind: str) -> list[str]:
    return [f'<svg class="chart {kind}" viewBox="0 0 {frame.width} {frame.height}" '
            f'font-family="sans-serif" font-size="11" role="img" aria-label="{escape(title)}">',
            f'<text x="{frame.width / 2}" y="15" text-anchor="middle" font-size="12" font-weight="bold">'
            f'{escape(title)}</text>']


def _axes(frame: Frame, x_label: str, y_label: str, x_ticks: list[float] | None = None,
          y_ticks: list[float] | None = None, percent: tuple[bool, bool] = (False, False)) -> list[str]:
    """Axis lines, grid, tick labels (as percent where asked) and axis titles."""
    bottom, left = frame.height - frame.bottom, PAD_L
    out = [f'<line x1="{left}" y1="{bottom}" x2="{frame.width - PAD_R}" y2="{bottom}" stroke="black"/>',
           f'<line x1="{left}" y1="{PAD_T}" x2="{left}" y2="{bottom}" stroke="black"/>']

    def text(value: float, as_percent: bool) -> str:
        return f"{100 * value:.4g}%" if as_percent else f"{value:.4g}"

    for x in x_ticks if x_ticks is not None else _ticks(frame.x0, frame.x1):
        out.append(f'<text x="{frame.x(x):.1f}" y="{bottom + 13}" text-anchor="middle">{text(x, percent[0])}</text>')
    for y in y_ticks if y_ticks is not None else _ticks(frame.y0, frame.y1):
        out.append(f'<line x1="{left}" y1="{frame.y(y):.1f}" x2="{frame.width - PAD_R}" y2="{frame.y(y):.1f}" '
                   'stroke="#e4e4e4"/>')
        out.append(f'<text x="{left - 4}" y="{frame.y(y) + 4:.1f}" text-anchor="end">{text(y, percent[1])}</text>')
    middle = (PAD_T + bottom) / 2
    out.append(f'<text x="{(left + frame.width - PAD_R) / 2}" y="{frame.height - 6}" text-anchor="middle">'
               f'{escape(x_label)}</text>')
    out.append(f'<text x="11" y="{middle}" text-anchor="middle" transform="rotate(-90 11 {middle})">'
               f'{escape(y_label)}</text>')
    return out


def _legend(frame: Frame, names: list[str], left: bool = False, colors: list[str] | None = None) -> list[str]:
    out = []
    for k, name in enumerate(names):
        x = PAD_L + 8 if left else frame.width - PAD_R - 110
        y = PAD_T + 10 + 14 * k
        color = colors[k] if colors is not None else COLORS[k % len(COLORS)]
        out.append(f'<rect x="{x}" y="{y - 8}" width="10" height="10" fill="{color}"/>')
        out.append(f'<text x="{x + 14}" y="{y + 1}">{escape(name)}</text>')
    return out


def roc_chart(points: list[tuple[float, float]], operating: tuple[float, float], title: str) -> str:
    """The ROC curve (false positive rate, true positive rate), the chance diagonal and the
    model's own operating point."""
    frame = Frame(0, 1, 0, 1)
    ticks = [0, 0.25, 0.5, 0.75, 1]
    out = _open(frame, title, "roc") + _axes(frame, "false positive rate (1 - specificity)",
                                             "true positive rate", ticks, ticks)
    out.append(f'<line x1="{frame.x(0)}" y1="{frame.y(0)}" x2="{frame.x(1)}" y2="{frame.y(1)}" stroke="#999" '
               'stroke-dasharray="4 3"/>')
    path = " ".join(f"{frame.x(fpr):.1f},{frame.y(tpr):.1f}" for fpr, tpr in points)
    out.append(f'<polyline class="curve" points="{path}" fill="none" stroke="{COLORS[0]}" stroke-width="2"/>')
    fpr, tpr = operating
    out.append(f'<circle class="operating" cx="{frame.x(fpr):.1f}" cy="{frame.y(tpr):.1f}" r="4.5" '
               f'fill="{COLORS[1]}"><title>the model\'s threshold</title></circle>')
    out.append(f'<text x="{frame.x(fpr) + 7:.1f}" y="{frame.y(tpr) + 14:.1f}" fill="{COLORS[1]}">threshold</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def calibration_chart(series: dict[str, list[tuple[float, float, float, float]]], title: str) -> str:
    """Observed against predicted risk: per series, points (predicted, observed) with the
    observed risk's interval (low, high) as a bar; the diagonal is perfect calibration."""
    frame = Frame(0, 1, 0, 1)
    ticks = [0, 0.25, 0.5, 0.75, 1]
    out = _open(frame, title, "calibration") + _axes(frame, "predicted risk", "observed risk", ticks, ticks,
                                                     (True, True))
    out.append(f'<line x1="{frame.x(0)}" y1="{frame.y(0)}" x2="{frame.x(1)}" y2="{frame.y(1)}" stroke="#999" '
               'stroke-dasharray="4 3"/>')
    for k, (name, points) in enumerate(series.items()):
        color = COLORS[k % len(COLORS)]
        shift = 0.006 * k  # a second series sits beside the first, not on it
        for predicted, observed, low, high in points:
            x = frame.x(min(1.0, predicted + shift))
            out.append(f'<line x1="{x:.1f}" y1="{frame.y(low):.1f}" x2="{x:.1f}" y2="{frame.y(high):.1f}" '
                       f'stroke="{color}" stroke-width="1.2"/>')
            out.append(f'<circle class="group" cx="{x:.1f}" cy="{frame.y(observed):.1f}" r="3" fill="{color}"/>')
    if len(series) > 1:
        out += _legend(frame, list(series), left=True)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def bar_chart(labels: list[str], series: dict[str, list[float]], title: str, y_label: str,
              x_label: str = "", percent: bool = True) -> str:
    """Grouped bars: one group per label, one bar per series (e.g. a share of each class
    or of each file per score); labels thin out when there are many."""
    top = max([v for values in series.values() for v in values] or [0]) or 1.0
    slanted = len(labels) > 4 and max(len(label) for label in labels) > 4  # long labels run slanted
    longest = min(max([len(label) for label in labels] or [0]), 16)
    frame = Frame(0, max(len(labels), 1), 0, top * 1.12, bottom=PAD_B + (int(4.2 * longest) if slanted else 0))
    out = _open(frame, title, "bars") + _axes(frame, x_label, y_label, [], None, (False, percent))
    width = (frame.x(1) - frame.x(0)) * 0.8 / max(len(series), 1)
    every = max(1, math.ceil(len(labels) / (20 if slanted else 14)))
    base = frame.height - frame.bottom
    for k, label in enumerate(labels):
        if k % every == 0:
            shown = label if len(label) <= 16 else label[:15] + "\u2026"
            if slanted:
                x = frame.x(k + 0.5) + 3
                out.append(f'<text x="{x:.1f}" y="{base + 8}" text-anchor="end" font-size="9" '
                           f'transform="rotate(-40 {x:.1f} {base + 8})">{escape(shown)}</text>')
            else:
                out.append(f'<text x="{frame.x(k + 0.5):.1f}" y="{base + 13}" text-anchor="middle" '
                           f'font-size="10">{escape(shown)}</text>')
        for j, (name, values) in enumerate(series.items()):
            x = frame.x(k + 0.1) + j * width
            y = frame.y(values[k])
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(width - 0.5, 0.5):.1f}" '
                       f'height="{frame.y(0) - y:.1f}" fill="{COLORS[j % len(COLORS)]}">'
                       f'<title>{escape(name)}, {escape(label)}: {100 * values[k] if percent else values[k]:.3g}'
                       f'{"%" if percent else ""}</title></rect>')
    out += _legend(frame, list(series))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def psi_chart(items: list[tuple[str, float]], bands: tuple[float, float], title: str) -> str:
    """Horizontal bars of the population stability index per item, with the bands' lines."""
    height = PAD_T + 30 + 18 * len(items)
    left = 120
    top = max([v for _, v in items] + [bands[1] * 1.2])
    width = CHART_W

    def x(value: float) -> float:
        return left + value / top * (width - left - 40)

    out = [f'<svg class="chart psi" viewBox="0 0 {width} {height}" '
           f'font-family="sans-serif" font-size="11" role="img" aria-label="{escape(title)}">',
           f'<text x="{width / 2}" y="15" text-anchor="middle" font-size="12" font-weight="bold">{escape(title)}</text>']
    bottom = height - 18
    for value in bands:
        out.append(f'<line x1="{x(value):.1f}" y1="{PAD_T}" x2="{x(value):.1f}" y2="{bottom}" stroke="#999" '
                   'stroke-dasharray="4 3"/>')
        out.append(f'<text x="{x(value):.1f}" y="{bottom + 12}" text-anchor="middle">{value:g}</text>')
    for k, (name, value) in enumerate(items):
        y = PAD_T + 4 + 18 * k
        color = COLORS[0] if value < bands[0] else "#e67e22" if value < bands[1] else COLORS[1]
        shown = name if len(name) <= 20 else name[:19] + "\u2026"
        out.append(f'<text x="{left - 6}" y="{y + 11}" text-anchor="end">{escape(shown)}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{max(x(value) - left, 1):.1f}" height="14" fill="{color}">'
                   f'<title>{escape(name)}: {value:.3f}</title></rect>')
        out.append(f'<text x="{x(value) + 4:.1f}" y="{y + 11}">{value:.3f}</text>')
    out.append(f'<line x1="{left}" y1="{PAD_T}" x2="{left}" y2="{bottom}" stroke="black"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def decision_chart(series: dict[str, list[tuple[float, float]]], title: str) -> str:
    """Decision curves: net benefit (y) against the threshold probability (x) for each series
    (treat all, the card, ...), with "treat none" as the line at 0. The y axis runs from a
    little below 0 to the largest net benefit; a curve below it is cut there, as decision curves
    are drawn (Vickers & Elkin 2006), so treating everyone at high thresholds does not flatten
    the others."""
    top = max([y for points in series.values() for _, y in points] + [0.01])
    bottom = -max(0.02, 0.15 * top)
    frame = Frame(0, 1, bottom, top * 1.08)
    out = _open(frame, title, "decision") + _axes(frame, "threshold probability", "net benefit",
                                                  [0, 0.25, 0.5, 0.75, 1], None, (True, False))
    out.append(f'<line class="treat-none" x1="{frame.x(0)}" y1="{frame.y(0):.1f}" x2="{frame.x(1)}" '
               f'y2="{frame.y(0):.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    for k, (name, points) in enumerate(series.items()):
        runs: list[list[tuple[float, float]]] = [[]]
        for x, y in points:  # cut where the curve leaves the plot
            if y >= bottom:
                runs[-1].append((x, y))
            elif runs[-1]:
                runs.append([])
        for run in runs:
            if run:
                path = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in run)
                out.append(f'<polyline class="curve" data-name="{escape(name)}" points="{path}" fill="none" '
                           f'stroke="{COLORS[k % len(COLORS)]}" stroke-width="1.8"/>')
    out += _legend(frame, list(series) + ["treat none"],
                   colors=[COLORS[k % len(COLORS)] for k in range(len(series))] + ["#999"])
    out.append("</svg>")
    return "\n".join(out) + "\n"
