"""A hand-rolled SVG writer for the report's plots: horizontal bars with an
optional target line, and dot plots of every run with the median marked.
No plotting library: the output is small, deterministic text that diffs
well when the report is regenerated, and the bench needs nothing installed."""
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


def _write(path, content):
    with open(path, "w") as f:
        f.write(content + "</svg>\n")
