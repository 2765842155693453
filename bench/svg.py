"""A hand-rolled SVG writer for the report's plots: horizontal bars with an
optional target line, dot plots of every run with the median marked, and
line plots over thread counts with each point's spread.
No plotting library: the output is small, deterministic text that diffs
well when the report is regenerated, and the bench needs nothing installed."""
import math
from xml.sax.saxutils import escape

WIDTH, LABEL_W, ROW_H, TOP, BOTTOM = 760, 250, 22, 40, 40
COLOURS = ["#4878a8", "#e07b39", "#59a14f", "#b07aa1", "#9c755f", "#e15759"]


def _frame(title, rows):
    height = TOP + rows * ROW_H + BOTTOM
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'font-family="sans-serif" font-size="12">\n'
            f'<rect width="{WIDTH}" height="{height}" fill="white"/>\n'
            f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>\n')
    return head, height


def _axis(vmax, height, unit):
    plot_w = WIDTH - LABEL_W - 60
    out = ""
    for i in range(5):
        v = vmax * i / 4
        x = LABEL_W + plot_w * i / 4
        out += (f'<line x1="{x:.1f}" y1="{TOP - 5}" x2="{x:.1f}" y2="{height - BOTTOM + 5}" stroke="#ddd"/>\n'
                f'<text x="{x:.1f}" y="{height - BOTTOM + 18}" text-anchor="middle">{v:.3g}</text>\n')
    out += f'<text x="{LABEL_W + plot_w / 2}" y="{height - 6}" text-anchor="middle">{escape(unit)}</text>\n'
    return out, plot_w


def bars(path, title, rows, unit, target=None, target_label=""):
    """rows: [(label, value)]; one bar each; value printed at the bar's end."""
    vmax = max([v for _, v in rows] + ([target] if target else [])) * 1.15 or 1
    head, height = _frame(title, len(rows))
    axis, plot_w = _axis(vmax, height, unit)
    body = ""
    for i, (label, v) in enumerate(rows):
        y = TOP + i * ROW_H
        w = plot_w * v / vmax
        body += (f'<text x="{LABEL_W - 6}" y="{y + 15}" text-anchor="end">{escape(label)}</text>\n'
                 f'<rect x="{LABEL_W}" y="{y + 3}" width="{w:.1f}" height="{ROW_H - 6}" '
                 f'fill="{COLOURS[i % len(COLOURS)]}"/>\n'
                 f'<text x="{LABEL_W + w + 4:.1f}" y="{y + 15}">{v:.4g}</text>\n')
    if target:
        x = LABEL_W + plot_w * target / vmax
        body += (f'<line x1="{x:.1f}" y1="{TOP - 5}" x2="{x:.1f}" y2="{height - BOTTOM}" stroke="#c00" '
                 f'stroke-dasharray="4,3"/>\n<text x="{x + 3:.1f}" y="{TOP - 8}" fill="#c00">'
                 f'{escape(target_label)}</text>\n')
    _write(path, head + axis + body)


def dots(path, title, rows, unit):
    """rows: [(label, [values])]; every value a dot, the median a bar."""
    vmax = max(max(v) for _, v in rows) * 1.1 or 1
    head, height = _frame(title, len(rows))
    axis, plot_w = _axis(vmax, height, unit)
    body = ""
    for i, (label, values) in enumerate(rows):
        y = TOP + i * ROW_H + ROW_H / 2
        body += f'<text x="{LABEL_W - 6}" y="{y + 4}" text-anchor="end">{escape(label)}</text>\n'
        for v in values:
            body += (f'<circle cx="{LABEL_W + plot_w * v / vmax:.1f}" cy="{y}" r="3" fill-opacity="0.5" '
                     f'fill="{COLOURS[i % len(COLOURS)]}"/>\n')
        med = sorted(values)[len(values) // 2]
        x = LABEL_W + plot_w * med / vmax
        body += f'<line x1="{x:.1f}" y1="{y - 8}" x2="{x:.1f}" y2="{y + 8}" stroke="black" stroke-width="2"/>\n'
    _write(path, head + axis + body)


def lines(path, title, xs, series, xlabel, ylabel):
    """series: [(label, [y per x], [(low, high) per x] or None)]; x on a
    log2 axis (thread counts), one polyline per series with its spread as
    a vertical bar at each point, a legend at the top left."""
    left, right, top, bottom, height = 80, 30, 40 + 18 * len(series), 50, 380
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    ymax = max(max(hi for _, hi in (band or [(0, max(ys))])) for _, ys, band in series) * 1.1 or 1
    lx = [math.log2(x) for x in xs]
    px = lambda x: left + plot_w * (math.log2(x) - lx[0]) / ((lx[-1] - lx[0]) or 1)
    py = lambda y: top + plot_h * (1 - y / ymax)
    out = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'font-family="sans-serif" font-size="12">\n<rect width="{WIDTH}" height="{height}" fill="white"/>\n'
           f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>\n')
    for i in range(5):
        y = ymax * i / 4
        out += (f'<line x1="{left}" y1="{py(y):.1f}" x2="{WIDTH - right}" y2="{py(y):.1f}" stroke="#ddd"/>\n'
                f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{y:.3g}</text>\n')
    for x in xs:
        out += f'<text x="{px(x):.1f}" y="{height - bottom + 18}" text-anchor="middle">{x}</text>\n'
    out += (f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">{escape(xlabel)}</text>\n'
            f'<text x="16" y="{top + plot_h / 2}" text-anchor="middle" transform="rotate(-90 16 {top + plot_h / 2})">'
            f'{escape(ylabel)}</text>\n')
    for i, (label, ys, band) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
        out += f'<polyline points="{points}" fill="none" stroke="{c}" stroke-width="2"/>\n'
        for x, y, (lo, hi) in zip(xs, ys, band or [(y, y) for y in ys]):
            out += (f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>\n'
                    f'<line x1="{px(x):.1f}" y1="{py(lo):.1f}" x2="{px(x):.1f}" y2="{py(hi):.1f}" stroke="{c}"/>\n')
        out += (f'<line x1="{left + 10}" y1="{34 + 18 * i}" x2="{left + 30}" y2="{34 + 18 * i}" stroke="{c}" '
                f'stroke-width="2"/>\n<text x="{left + 36}" y="{38 + 18 * i}">{escape(label)}</text>\n')
    _write(path, out)


def _write(path, content):
    with open(path, "w") as f:
        f.write(content + "</svg>\n")
