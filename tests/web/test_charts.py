"""The one SVG line-chart helper: scaled, escaped, and free of inline style."""

from xml.etree import ElementTree

from scorebook.web.charts import Series, line_chart

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup):
    return ElementTree.fromstring(str(markup))


def test_lines_fit_the_box_and_the_labels_are_escaped():
    chart = line_chart(
        [Series("Nino & <Ettore>", [(1, 0), (2, 11), (3, 41)]), Series("B", [(1, 5), (3, 20)])],
        title="Punteggio",
        width=300,
        height=200,
        reference=31,
    )
    svg = parse(chart)  # well-formed XML: the label was escaped
    assert svg.get("role") == "img" and svg.findtext(f"{SVG}title") == "Punteggio"
    lines = svg.findall(f"{SVG}polyline")
    assert [line.findtext(f"{SVG}title") for line in lines] == ["Nino & <Ettore>", "B"]
    coords = [tuple(map(float, p.split(","))) for p in lines[0].get("points").split()]
    assert all(0 <= x <= 300 and 0 <= y <= 200 for x, y in coords)
    ys = [y for _, y in coords]
    assert ys == sorted(ys, reverse=True)  # rising scores go up the screen
    assert "style=" not in str(chart) and "<script" not in str(chart)


def test_step_charts_hold_each_total_until_the_next_deal():
    svg = parse(line_chart([Series("A", [(0, 0), (1, 10)])], title="t", step=True))
    points = [p.split(",") for p in svg.find(f"{SVG}polyline").get("points").split()]
    assert len(points) == 4 and points[1][1] == points[0][1]
    # the last total holds for one more step: a level line after the last rise, not a tick
    assert points[3][1] == points[2][1] and float(points[3][0]) > float(points[2][0])


def test_every_other_line_is_dashed_so_level_sides_stay_visible():
    svg = parse(line_chart([Series("A", [(0, 0)]), Series("B", [(0, 0)])], title="t"))
    lines = svg.findall(f"{SVG}polyline")
    assert lines[0].get("stroke-dasharray") is None and lines[1].get("stroke-dasharray")


def test_empty_and_flat_series_still_draw():
    assert parse(line_chart([], title="empty")).tag == f"{SVG}svg"
    flat = parse(line_chart([Series("A", [(0, 7), (1, 7)])], title="flat"))
    assert flat.find(f"{SVG}polyline") is not None


def test_the_scale_and_the_legend_use_the_readers_decimal_mark():
    """Issue 24 item 9: the rating chart's scale and legend read '4.4' in Italian, beside
    the ratings table's '4,4'."""
    from django.utils import translation

    chart = [Series("Nino", [(0, 2.4), (1, 4.4)])]
    with translation.override("it"):
        svg = parse(line_chart(chart, title="t"))
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "4,4" in texts and "2,4" in texts and "Nino 4,4" in texts, texts
    with translation.override("en"):
        texts = [t.text for t in parse(line_chart(chart, title="t")).iter(f"{SVG}text")]
    assert "4.4" in texts and "Nino 4.4" in texts, texts
    with translation.override("it"):  # whole numbers stay bare
        texts = [
            t.text
            for t in parse(line_chart([Series("A", [(0, 0), (1, 41)])], title="t")).iter(
                f"{SVG}text"
            )
        ]
    assert "41" in texts and "0" in texts, texts


def test_below_zero_has_a_minus_sign_not_a_hyphen():
    from django.utils import translation

    with translation.override("it"):
        svg = parse(line_chart([Series("Carmelo", [(0, 0), (1, -1.5), (2, -4)])], title="t"))
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert "\u22124" in texts and "Carmelo \u22124" in texts, texts
    assert not any("-" in t for t in texts), texts
