"""A small self-made SVG line chart (no plotting library): error against model size."""
from __future__ import annotations

import math
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
