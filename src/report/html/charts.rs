//! The page's charts as inline SVG, drawn with plotters' SVG backend
//! (text is left to the browser's fonts: nothing is loaded).

use super::figures::{Histogram, SPAN};
use plotters::backend::SVGBackend;
use plotters::prelude::*;

const BAR: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const FONT: &str = "sans-serif";

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type Drawn<'a> = Result<(), Box<dyn std::error::Error + 'a>>;

/// An SVG image of `size` on white, drawn by `draw`.
fn svg(size: (u32, u32), draw: impl for<'a> FnOnce(&Area<'a>) -> Drawn<'a>) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(Into::into)
            .and_then(|()| draw(&root))
            .and_then(|()| root.present().map_err(Into::into));
        drawn.expect("drawing into a string cannot fail");
    }
    out
}

/// A horizontal bar chart, one bar per `(label, value)` from the top down,
/// values of `unit`.
pub fn bars(rows: &[(String, f64)], unit: &str) -> String {
    let whole = rows.iter().all(|(_, v)| v.fract() == 0.0);
    let longest = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    let label_width = (longest as u32 * 7 + 16).clamp(60, 320);
    let height = 50 + 24 * rows.len().max(1) as u32;
    // A value that is not a number has no bar (the table beside the
    // chart gives it), nor may it stretch the axis to infinity: plotters
    // would never finish placing its labels.
    let max = rows
        .iter()
        .map(|(_, v)| *v)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let max = if max > 0.0 { max * 1.08 } else { 1.0 };
    let n = rows.len().max(1);
    svg((720, height), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(8)
            .x_label_area_size(34)
            .y_label_area_size(label_width)
            // Integer ranges are inclusive: n segments, 0 to n − 1 (two
            // for one bar: a range of one point has no height).
            .build_cartesian_2d(0f64..max, (0..n.max(2) - 1).into_segmented())?;
        // Segment 0 is at the bottom: the first row goes in the top one.
        let row = |i: usize| &rows[n - 1 - i];
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .x_desc(unit)
            .label_style((FONT, 12))
            .x_label_formatter(&|v| {
                if whole {
                    format!("{v:.0}")
                } else {
                    format!("{v:.2}")
                }
            })
            .x_labels(if whole {
                (max as usize).clamp(2, 10)
            } else {
                8
            })
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) if *i < rows.len() => row(*i).0.clone(),
                _ => String::new(),
            })
            .y_labels(n)
            .draw()?;
        chart.draw_series((0..rows.len()).filter(|&i| row(i).1.is_finite()).map(|i| {
            let v = &row(i).1;
            let mut bar = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(i)),
                    (*v, SegmentValue::Exact(i + 1)),
                ],
                BAR.filled(),
            );
            bar.set_margin(3, 3, 0, 0);
            bar
        }))?;
        Ok(())
    })
}

/// A histogram of `h`'s integer bins from −[`SPAN`] to [`SPAN`] (the end
/// bins hold everything beyond), titled `title`.
pub fn histogram(title: &str, h: &Histogram, unit: &str) -> String {
    let max = h.bins.values().copied().max().unwrap_or(0).max(1) as f64 * 1.1;
    svg((360, 210), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 14))
            .margin(6)
            .x_label_area_size(32)
            .y_label_area_size(40)
            .build_cartesian_2d((-SPAN..SPAN).into_segmented(), 0f64..max)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_desc(unit)
            .label_style((FONT, 11))
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(b) if b.abs() == SPAN => {
                    format!("{}{}", if *b < 0 { "≤" } else { "≥" }, b)
                }
                SegmentValue::CenterOf(b) if b % 5 == 0 => b.to_string(),
                _ => String::new(),
            })
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        chart.draw_series(h.bins.iter().map(|(&b, &count)| {
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(b), 0.0),
                    (SegmentValue::Exact(b + 1), count as f64),
                ],
                BAR.filled(),
            );
            bar.set_margin(0, 0, 1, 1);
            bar
        }))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No rectangle of a chart has a negative size (browsers log an error).
    fn drawable(svg: &str) -> bool {
        svg.starts_with("<svg") && !svg.contains("height=\"-") && !svg.contains("width=\"-")
    }

    #[test]
    fn charts_of_any_size_are_drawable() {
        let row = |l: &str, v: f64| (l.to_string(), v);
        for rows in [
            vec![],
            vec![row("one", 1.0)],
            vec![row("zero", 0.0), row("none", 0.0)],
            (0..60)
                .map(|i| row(&"x".repeat(i), i as f64 * 0.37))
                .collect(),
        ] {
            let svg = bars(&rows, "games");
            assert!(drawable(&svg), "{svg}");
            assert_eq!(svg.matches("<rect").count(), 1 + rows.len());
        }
        let rows = [
            row("inf", f64::INFINITY),
            row("nan", f64::NAN),
            row("two", 2.0),
            row("-inf", f64::NEG_INFINITY),
        ];
        let svg = bars(&rows, "mEMG");
        assert!(drawable(&svg), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 1 + 1);
        let mut h = Histogram::default();
        assert!(drawable(&histogram("empty", &h, "points")));
        for v in [-100.0, 0.0, 0.0, 3.0, 100.0] {
            h.add(v);
        }
        let svg = histogram("five", &h, "points");
        assert!(drawable(&svg), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 1 + 4);
    }
}
