//! Text helpers shared by the readers and the reports.

/// Text for a CSV cell on one line: line breaks and other control
/// characters become spaces, so every record stays on one line.
pub fn single_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
