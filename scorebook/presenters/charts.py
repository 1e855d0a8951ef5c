"""The cumulative-score chart: an SVG drawn on the server (no JavaScript).

Each player is a line with its own colour, dash pattern and marker shape, so the
lines can be told apart without colour; ``<title>`` and ``<desc>`` say in words
what the chart shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import format_decimal, gettext, ngettext
from markupsafe import Markup, escape

from scorebook.presenters.bidi import isolate
from scorebook.presenters.i18n import number

# Okabe-Ito colours, darkened where needed for 3:1 contrast on white.
COLOURS = ("#0b5394", "#b3470a", "#00785a", "#a4377e", "#8a6100", "#1d6f9e", "#1a1a1a",
           "#6b3fa0")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "3 3")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "circle", "square", "triangle")

WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 24
MINUS = "\u2212"


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "square":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{colour}"/>'
    if kind == "triangle":
        return (f'<path d="M{x:.1f} {y - 4.5:.1f}L{x + 4.5:.1f} {y + 3.5:.1f}'
                f'L{x - 4.5:.1f} {y + 3.5:.1f}Z" fill="{colour}"/>')
    if kind == "diamond":
        return (f'<path d="M{x:.1f} {y - 4.5:.1f}L{x + 4.5:.1f} {y:.1f}L{x:.1f} {y + 4.5:.1f}'
                f'L{x - 4.5:.1f} {y:.1f}Z" fill="{colour}"/>')
    if kind == "cross":
        return (f'<path d="M{x - 4:.1f} {y - 4:.1f}L{x + 4:.1f} {y + 4:.1f}M{x + 4:.1f} '
                f'{y - 4:.1f}L{x - 4:.1f} {y + 4:.1f}" stroke="{colour}" stroke-width="2"/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>'


def _ticks(low: int, high: int) -> list[int]:
    span = max(high - low, 1)
    step = next(s for s in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2500, 5000, 10000,
                            25000, 50000, 100000) if span / s <= 5)
    first = (low // step) * step
    return [v for v in range(first, high + step, step) if low <= v <= high]


#: A label's letters at font-size 11, about this wide each (a little more than most).
LABEL_CHAR_WIDTH = 6.5


def _crosses(box: tuple[float, float, float, float],
             line: Sequence[tuple[float, float]]) -> bool:
    """Does the polyline pass through the box (left, top, right, bottom)?  Each segment
    is sampled finely enough for a box 11 px tall."""
    left, top, right, bottom = box
    for (x1, y1), (x2, y2) in zip(line, line[1:]):
        steps = max(2, int(max(abs(x2 - x1), abs(y2 - y1)) / 2))
        for s in range(steps + 1):
            px, py = x1 + (x2 - x1) * s / steps, y1 + (y2 - y1) * s / steps
            if left <= px <= right and top <= py <= bottom:
                return True
    return False


def _target_label_place(label: str, target_y: float,
                        lines: Sequence[Sequence[tuple[float, float]]]
                        ) -> tuple[float, float, str]:
    """Where the target's label goes (x, baseline y, text-anchor): beside the dashed
    line at the right, else at the left, above it, else below it — the first of these
    places no player's line runs through (the leader's line nears the target at the
    right-hand end, where the label used to sit on it)."""
    width = len(label) * LABEL_CHAR_WIDTH + 4
    above = target_y - 4 if target_y > TOP + 14 else None
    below = target_y + 14 if target_y + 14 < HEIGHT - BOTTOM else None
    places = []
    for baseline in (above, below):
        if baseline is None:
            continue
        places.append((WIDTH - RIGHT, baseline, "end", WIDTH - RIGHT - width))
        places.append((LEFT + 4, baseline, "start", LEFT + 2))
    for x, baseline, anchor, left in places:
        box = (left - 3, baseline - 14, left + width + 3, baseline + 5)  # markers too
        if not any(_crosses(box, line) for line in lines):
            return x, baseline, anchor
    x, baseline, anchor, _left = places[0]
    return x, baseline, anchor


def score_chart(names: Sequence[str], running: Sequence[Sequence[int]], target: int) -> Markup:
    """The chart of each player's running total after each hand, with the target."""
    hands = max((len(r) for r in running), default=0)
    values = [v for r in running for v in r]
    low = min([0, *values])
    high = max([target, *values])
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    total_h = HEIGHT

    def x(i: int) -> float:
        return LEFT + plot_w * i / max(hands, 1)

    def y(v: int) -> float:
        return TOP + plot_h * (high - v) / max(high - low, 1)

    title = gettext("Running totals after each hand")
    if hands:
        last = ", ".join(f"{isolate(n)} {number(r[-1] if r else 0)}"
                         for n, r in zip(names, running))
        desc = ngettext("After %(num)s hand, towards %(target)s: %(totals)s.",
                        "After %(num)s hands, towards %(target)s: %(totals)s.",
                        hands, target=number(target), totals=last)
    else:
        desc = gettext("No hands yet. The target is %(target)s.", target=number(target))
    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {total_h}" role="img" '
           f'aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">',
           f'<title id="chart-title">{escape(title)}</title>',
           f'<desc id="chart-desc">{escape(desc)}</desc>']
    for v in _ticks(low, high):
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="#d0d0cb" stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 4}" y="{y(v) + 4:.1f}" text-anchor="end" '
                   f'font-size="11" fill="#4a4a4a">{number(v)}</text>')
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(target):.1f}" '
               f'y2="{y(target):.1f}" stroke="#1a1a1a" stroke-width="1.5" '
               f'stroke-dasharray="4 4"/>')
    label = gettext("target %(target)s", target=number(target))  # outside the f-string: extracted
    lines = [[(x(0), y(0))] + [(x(i + 1), y(v)) for i, v in enumerate(r)] for r in running]
    label_x, label_y, anchor = _target_label_place(label, y(target), lines)
    out.append(f'<text x="{label_x:.1f}" y="{label_y:.1f}" text-anchor="{anchor}" '
               f'font-size="11" fill="#1a1a1a">{escape(label)}</text>')
    if low < 0:
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
                   f'stroke="#4a4a4a" stroke-width="1"/>')
    for i in range(hands + 1):
        if hands <= 12 or i % max(1, hands // 8) == 0 or i == hands:
            out.append(f'<text x="{x(i):.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
                       f'font-size="11" fill="#4a4a4a">{number(i)}</text>')
    show_markers = hands <= 20
    for k, (name, series) in enumerate(zip(names, running)):
        colour, dash, marker = COLOURS[k % 8], DASHES[k % 8], MARKERS[k % 8]
        points = [(x(0), y(0))] + [(x(i + 1), y(v)) for i, v in enumerate(series)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g><title>{escape(isolate(name))}</title>'
                   f'<polyline points="{path}" fill="none" stroke="{colour}" '
                   f'stroke-width="2.5"{dash_attr} stroke-linejoin="round"/>')
        for px, py in points[1:] if show_markers else points[-1:]:
            out.append(_marker(marker, px, py, colour))
        out.append("</g>")
    out.append("</svg>")
    out.append(_legend(names, running))
    return Markup("".join(out))


def _legend(names: Sequence[str], running: Sequence[Sequence[int]]) -> str:
    """The key to the lines, as a list under the chart (not inside it): a long name
    wraps onto a line of its own instead of running over its neighbour's.  Each entry
    draws its line's colour, dash and marker, and gives the player's total."""
    items = []
    for k, (name, series) in enumerate(zip(names, running)):
        colour, dash, marker = COLOURS[k % 8], DASHES[k % 8], MARKERS[k % 8]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        total = number(series[-1] if series else 0)
        items.append(
            f'<li><svg class="legend-line" viewBox="0 0 32 12" width="32" height="12" '
            f'aria-hidden="true" focusable="false"><line x1="1" x2="31" y1="6" y2="6" '
            f'stroke="{colour}" stroke-width="2.5"{dash_attr}/>{_marker(marker, 16, 6, colour)}'
            f'</svg><bdi class="legend-name">{escape(name)}</bdi> '
            f'<span class="legend-total">{total}</span></li>')
    return f'<ul class="chart-legend">{"".join(items)}</ul>'


# --- league charts: a rating over time, a score distribution ------------------------------


def rating_chart(ratings: Sequence[int], span: tuple[str, str], name: str,
                 start: int = 1000, chart_id: str = "rating-chart", games: int | None = None,
                 high: int | None = None, low: int | None = None) -> Markup:
    """A player's rating after each of their games (``span``: the days of the first
    and the last, as text), with the starting rating as a dashed line.  A long history
    comes folded (:func:`scorebook.services.league.rating_line`): ``games`` says how many games
    ``ratings`` stand for, ``high`` and ``low`` its extremes (else: one a rating)."""
    count = len(ratings)
    games = count if games is None else games
    highest = max(ratings) if high is None and ratings else high
    lowest = min(ratings) if low is None and ratings else low
    low = min([start, *ratings])
    high = max([start, *ratings])
    pad = max(10, (high - low) // 10)
    low, high = low - pad, high + pad
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / max(count - 1, 1)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / max(high - low, 1)

    title = gettext("%(name)s's rating after each game", name=isolate(name))
    if count:
        desc = ngettext("%(num)s game from %(first)s to %(last)s: rating now %(now)s, "
                        "highest %(high)s, lowest %(low)s; everyone starts at %(start)s.",
                        "%(num)s games from %(first)s to %(last)s: rating now %(now)s, "
                        "highest %(high)s, lowest %(low)s; everyone starts at %(start)s.",
                        games, first=span[0], last=span[1], now=number(ratings[-1]),
                        high=number(highest), low=number(lowest), start=number(start))
    else:
        desc = gettext("No finished games yet; everyone starts at %(start)s.",
                       start=number(start))
    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
           f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
           f'xmlns="http://www.w3.org/2000/svg">',
           f'<title id="{chart_id}-title">{escape(title)}</title>',
           f'<desc id="{chart_id}-desc">{escape(desc)}</desc>']
    for v in _ticks(low, high):
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="#d0d0cb" stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 4}" y="{y(v) + 4:.1f}" text-anchor="end" '
                   f'font-size="11" fill="#4a4a4a">{number(v)}</text>')
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(start):.1f}" '
               f'y2="{y(start):.1f}" stroke="#1a1a1a" stroke-width="1.5" '
               f'stroke-dasharray="4 4"/>')
    if count:
        out.append(f'<text x="{LEFT + 2}" y="{HEIGHT - 6}" font-size="11" '
                   f'fill="#4a4a4a">{escape(span[0])}</text>')
        if count > 1:
            out.append(f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end" '
                       f'font-size="11" fill="#4a4a4a">{escape(span[1])}</text>')
        points = [(x(i), y(v)) for i, v in enumerate(ratings)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[0]}" '
                   f'stroke-width="2.5" stroke-linejoin="round"/>')
        markers = points if count <= 30 else points[-1:]
        for px, py in markers:
            out.append(_marker("circle", px, py, COLOURS[0]))
    out.append("</svg>")
    return Markup("".join(out))


def histogram(bands: Sequence[tuple[int, int]], width: int, title: str,
              chart_id: str = "histogram") -> Markup:
    """Bars of how many hands scored in each band [start, start + width)."""
    top = max((n for _b, n in bands), default=0)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    if bands:
        first, last = bands[0][0], bands[-1][0]
        slots = (last - first) // width + 1
    else:
        first, slots = 0, 1
    bar_w = plot_w / slots
    counts = dict(bands)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - v / max(top, 1))

    parts = [gettext("%(low)s to %(high)s: %(count)s", low=number(b), high=number(b + width - 1),
                     count=number(n)) for b, n in bands]
    desc = "; ".join(parts) if parts else gettext("No hands yet.")
    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
           f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
           f'xmlns="http://www.w3.org/2000/svg">',
           f'<title id="{chart_id}-title">{escape(title)}</title>',
           f'<desc id="{chart_id}-desc">{escape(desc)}</desc>']
    for v in _ticks(0, top) if top >= 10 else range(0, top + 1, max(1, top // 4 or 1)):
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="#d0d0cb" stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 4}" y="{y(v) + 4:.1f}" text-anchor="end" '
                   f'font-size="11" fill="#4a4a4a">{number(v)}</text>')
    label_every = max(1, slots // 6)
    for k in range(slots):
        start = first + k * width
        n = counts.get(start, 0)
        bx = LEFT + k * bar_w
        if n:
            out.append(f'<rect x="{bx + 1:.1f}" y="{y(n):.1f}" width="{max(bar_w - 2, 1):.1f}" '
                       f'height="{y(0) - y(n):.1f}" fill="{COLOURS[0]}">'
                       f'<title>{escape(parts[bands.index((start, n))])}</title></rect>')
        if k % label_every == 0:
            out.append(f'<text x="{bx + 1:.1f}" y="{HEIGHT - 6}" font-size="11" '
                       f'fill="#4a4a4a">{number(start)}</text>')
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
               f'stroke="#4a4a4a" stroke-width="1"/>')
    out.append("</svg>")
    return Markup("".join(out))


# --- statistics charts: where a hand's points came from, and bars of a count ---------------

#: The three parts of a hand's points, each with its own fill pattern (not colour alone).
PART_COLOURS = ("#0b5394", "#00785a", "#b3470a")


def _pattern_defs(chart_id: str) -> str:
    """Solid for melded, diagonal hatching for laid off, dots for stranded."""
    melded, laid_off, stranded = PART_COLOURS
    return (f'<defs><pattern id="{chart_id}-hatch" width="6" height="6" '
            f'patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            f'<rect width="6" height="6" fill="#ffffff"/>'
            f'<line x1="0" y1="0" x2="0" y2="6" stroke="{laid_off}" stroke-width="3"/>'
            f'</pattern><pattern id="{chart_id}-dots" width="5" height="5" '
            f'patternUnits="userSpaceOnUse"><rect width="5" height="5" fill="#ffffff"/>'
            f'<circle cx="2.5" cy="2.5" r="1.6" fill="{stranded}"/></pattern></defs>')


def points_split_chart(rows: Sequence[tuple[str, float, float, float]], title: str,
                       desc: str, labels: tuple[str, str, str],
                       chart_id: str = "points-split") -> Markup:
    """For each row (a name, then points melded, laid off and stranded per hand): the
    stranded points as a dotted bar to the left of zero, the melded (solid) and laid-off
    (hatched) points to its right; the legend names the three patterns."""
    melded_c, laid_c, stranded_c = PART_COLOURS
    left_most = max([r[3] for r in rows] + [1])
    right_most = max([r[1] + r[2] for r in rows] + [1])
    plot_left, plot_right = 8, WIDTH - 8
    span = left_most + right_most
    zero = plot_left + (plot_right - plot_left) * left_most / span
    scale = (plot_right - plot_left) / span
    row_h, bar_h, top = 62, 18, 8
    legend_y = top + len(rows) * row_h + 8
    height = legend_y + 24
    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
           f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
           f'xmlns="http://www.w3.org/2000/svg">',
           f'<title id="{chart_id}-title">{escape(title)}</title>',
           f'<desc id="{chart_id}-desc">{escape(desc)}</desc>', _pattern_defs(chart_id)]

    def number(v: float) -> str:
        return str(format_decimal(v, format="#,##0.0")).replace("-", MINUS)

    for k, (name, melded, laid_off, stranded) in enumerate(rows):
        y = top + k * row_h
        bar_y = y + 4
        out.append(f'<text x="{plot_left}" y="{y - 4 + 12}" font-size="12" fill="#1a1a1a" '
                   f'font-weight="600">{escape(isolate(name))}</text>')
        w = stranded * scale
        out.append(f'<rect x="{zero - w:.1f}" y="{bar_y + 12}" width="{w:.1f}" '
                   f'height="{bar_h}" fill="url(#{chart_id}-dots)" stroke="{stranded_c}" '
                   f'stroke-width="1"/>')
        w1 = melded * scale
        out.append(f'<rect x="{zero:.1f}" y="{bar_y + 12}" width="{w1:.1f}" height="{bar_h}" '
                   f'fill="{melded_c}"/>')
        w2 = laid_off * scale
        out.append(f'<rect x="{zero + w1:.1f}" y="{bar_y + 12}" width="{w2:.1f}" '
                   f'height="{bar_h}" fill="url(#{chart_id}-hatch)" stroke="{laid_c}" '
                   f'stroke-width="1"/>')
        label_y = bar_y + 12 + bar_h + 13
        out.append(f'<text x="{zero + 4:.1f}" y="{label_y}" font-size="11" fill="#1a1a1a">'
                   f'{escape("+" + number(melded + laid_off))}</text>')
        out.append(f'<text x="{max(zero - 4, plot_left + 34):.1f}" y="{label_y}" '
                   f'text-anchor="end" font-size="11" '
                   f'fill="#1a1a1a">{escape(MINUS + number(stranded) if stranded else "0")}'
                   f'</text>')
    out.append(f'<line x1="{zero:.1f}" x2="{zero:.1f}" y1="{top}" y2="{legend_y - 6}" '
               f'stroke="#1a1a1a" stroke-width="1.5"/>')
    fills = (melded_c, f"url(#{chart_id}-hatch)", f"url(#{chart_id}-dots)")
    strokes = (melded_c, laid_c, stranded_c)
    widths = [len(label) * 6.5 + 26 for label in labels]
    x = plot_left
    for label, fill, stroke, w in zip(labels, fills, strokes, widths):
        out.append(f'<rect x="{x:.1f}" y="{legend_y}" width="16" height="12" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="1"/>')
        out.append(f'<text x="{x + 20:.1f}" y="{legend_y + 10}" font-size="11" '
                   f'fill="#1a1a1a">{escape(label)}</text>')
        x += w
    out.append("</svg>")
    return Markup("".join(out))


def count_bars(rows: Sequence[tuple[str, int]], title: str, desc: str,
               chart_id: str = "count-bars", highlight: int = 0) -> Markup:
    """Horizontal bars of a count per name, the first ``highlight`` rows hatched as well
    as coloured (a podium), each bar labelled with its count."""
    top = max([n for _name, n in rows] + [1])
    label_w = 96
    plot_left, plot_right = label_w + 8, WIDTH - 36
    row_h = 26
    height = 8 + len(rows) * row_h + 4
    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
           f'aria-labelledby="{chart_id}-title {chart_id}-desc" '
           f'xmlns="http://www.w3.org/2000/svg">',
           f'<title id="{chart_id}-title">{escape(title)}</title>',
           f'<desc id="{chart_id}-desc">{escape(desc)}</desc>', _pattern_defs(chart_id)]
    for k, (name, n) in enumerate(rows):
        y = 8 + k * row_h
        # A long name is cut short on the chart, whole in its tooltip (and the desc).
        whole = "" if len(name) <= 14 else f"<title>{escape(isolate(name))}</title>"
        short = name if len(name) <= 14 else name[:13] + "…"
        out.append(f'<text x="{label_w}" y="{y + 14}" text-anchor="end" font-size="12" '
                   f'fill="#1a1a1a">{whole}{escape(isolate(short))}</text>')
        w = (plot_right - plot_left) * n / top
        fill = f"url(#{chart_id}-hatch)" if k < highlight else COLOURS[0]
        stroke = PART_COLOURS[1] if k < highlight else COLOURS[0]
        out.append(f'<rect x="{plot_left}" y="{y + 2}" width="{max(w, 1):.1f}" height="16" '
                   f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')
        out.append(f'<text x="{plot_left + w + 4:.1f}" y="{y + 14}" font-size="12" '
                   f'fill="#1a1a1a">{number(n)}</text>')
    out.append(f'<line x1="{plot_left}" x2="{plot_left}" y1="4" y2="{height - 2}" '
               f'stroke="#4a4a4a" stroke-width="1"/>')
    out.append("</svg>")
    return Markup("".join(out))
