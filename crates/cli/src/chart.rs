//! Small SVG line charts for the command line's reports (the arena's rating against budget):
//! a title, axes with ticks, series of labelled points joined by lines, and dashed horizontal
//! reference lines. One module draws them all, so every chart looks alike.

use std::fmt::Write as _;

/// Canvas size and margins, in SVG user units (pixels).
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// A point of a series: where, and the label written beside it.
#[derive(Clone, Debug)]
pub struct Point {
    /// Horizontal value (before the log scale, when the chart has one).
    pub x: f64,
    /// Vertical value.
    pub y: f64,
    /// The text beside the point.
    pub label: String,
}

/// Points of one colour, joined in order of `x` when there are two or more.
#[derive(Clone, Debug)]
pub struct Series {
    /// A CSS colour, e.g. `#06c`.
    pub colour: &'static str,
    /// The points.
    pub points: Vec<Point>,
}

/// A dashed horizontal line across the chart at `y`, labelled at its left end.
#[derive(Clone, Debug)]
pub struct Reference {
    /// Vertical value.
    pub y: f64,
    /// Its label.
    pub label: String,
}

/// A line chart; `to_svg` draws it.
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    /// The title, centred on top.
    pub title: String,
    /// The horizontal axis's label.
    pub x_label: String,
    /// Whether the horizontal axis is logarithmic (base 10, a tick per decade).
    pub log_x: bool,
    /// The series.
    pub series: Vec<Series>,
    /// The reference lines.
    pub references: Vec<Reference>,
}

/// A value range, padded when it is empty or a single value.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi { (0.0, 1.0) } else { (lo, hi) }
}

/// Escapes text for an SVG text node or attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl LineChart {
    /// The chart as a standalone SVG document.
    #[must_use]
    pub fn to_svg(&self) -> String {
        let xv = |x: f64| if self.log_x { x.max(1.0).log10() } else { x };
        let points = self.series.iter().flat_map(|s| &s.points);
        let (ymin, ymax) = range(
            points
                .clone()
                .map(|p| p.y)
                .chain(self.references.iter().map(|r| r.y)),
        );
        let pad = ((ymax - ymin) * 0.1).max(1.0);
        let (ymin, ymax) = (ymin - pad, ymax + pad);
        let (xmin, xmax) = range(points.map(|p| xv(p.x)));
        let (xmin, xmax) = if self.log_x {
            (xmin.floor(), xmax.ceil().max(xmin.floor() + 1.0))
        } else if xmax > xmin {
            (xmin, xmax)
        } else {
            (xmin - 1.0, xmax + 1.0)
        };
        let x = |v: f64| LEFT + (xv(v) - xmin) / (xmax - xmin) * (WIDTH - LEFT - RIGHT);
        let y = |v: f64| TOP + (ymax - v) / (ymax - ymin) * (HEIGHT - TOP - BOTTOM);

        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(
            svg,
            r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
            WIDTH / 2.0,
            escape(&self.title)
        );
        let _ = writeln!(
            svg,
            r#"<path d="M{LEFT} {TOP} V{} H{}" stroke="black" fill="none"/>"#,
            HEIGHT - BOTTOM,
            WIDTH - RIGHT
        );
        for i in 0..=4 {
            let v = ymin + (ymax - ymin) * f64::from(i) / 4.0;
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{:.1}" text-anchor="end">{v:.0}</text>"#,
                LEFT - 6.0,
                y(v) + 4.0
            );
        }
        let ticks: Vec<f64> = if self.log_x {
            (xmin as i32..=xmax as i32).map(|d| 10f64.powi(d)).collect()
        } else {
            (0..=4)
                .map(|i| xmin + (xmax - xmin) * f64::from(i) / 4.0)
                .collect()
        };
        for t in ticks {
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{}" text-anchor="middle">{t}</text>"#,
                x(t),
                HEIGHT - BOTTOM + 16.0
            );
        }
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 12.0,
            escape(&self.x_label)
        );
        for r in &self.references {
            let _ = writeln!(
                svg,
                r##"<path d="M{LEFT} {:.1} H{}" stroke="#888" stroke-dasharray="4 4"/><text x="{}" y="{:.1}" fill="#555">{}</text>"##,
                y(r.y),
                WIDTH - RIGHT,
                LEFT + 4.0,
                y(r.y) - 4.0,
                escape(&r.label)
            );
        }
        for s in &self.series {
            let mut sorted: Vec<&Point> = s.points.iter().collect();
            sorted.sort_by(|a, b| a.x.total_cmp(&b.x));
            if sorted.len() > 1 {
                let line: Vec<String> = sorted
                    .iter()
                    .map(|p| format!("{:.1},{:.1}", x(p.x), y(p.y)))
                    .collect();
                let _ = writeln!(
                    svg,
                    r#"<polyline points="{}" fill="none" stroke="{}"/>"#,
                    line.join(" "),
                    s.colour
                );
            }
        }
        for s in &self.series {
            for p in &s.points {
                // Labels near the right edge go to the left of their point.
                let (dx, anchor) = if x(p.x) > WIDTH - 120.0 {
                    (-6.0, "end")
                } else {
                    (6.0, "start")
                };
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="4" fill="{}"/><text x="{:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#,
                    x(p.x),
                    y(p.y),
                    s.colour,
                    x(p.x) + dx,
                    y(p.y) - 6.0,
                    escape(&p.label)
                );
            }
        }
        svg.push_str("</svg>\n");
        svg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_lines_and_references_are_drawn_in_the_canvas() {
        let chart = LineChart {
            title: "a <b> chart".into(),
            x_label: "budget".into(),
            log_x: true,
            series: vec![Series {
                colour: "#06c",
                points: vec![
                    Point {
                        x: 1000.0,
                        y: 1100.0,
                        label: "mcts:1000".into(),
                    },
                    Point {
                        x: 10.0,
                        y: 900.0,
                        label: "mcts:10".into(),
                    },
                ],
            }],
            references: vec![Reference {
                y: 800.0,
                label: "random".into(),
            }],
        };
        let svg = chart.to_svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("a &lt;b&gt; chart"), "{svg}");
        // One line through both points, left to right; the decades 10, 100, 1000 as ticks.
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert_eq!(svg.matches("<circle").count(), 2);
        for tick in [">10<", ">100<", ">1000<"] {
            assert!(svg.contains(tick), "{tick}: {svg}");
        }
        assert!(svg.contains("stroke-dasharray") && svg.contains(">random<"));
        // Every coordinate lies on the canvas.
        for cx in svg.split("cx=\"").skip(1) {
            let v: f64 = cx.split('"').next().unwrap().parse().unwrap();
            assert!((LEFT..=WIDTH - RIGHT).contains(&v), "{v}");
        }
    }
}
