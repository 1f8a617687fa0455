//! A zone's move value in the four forms of the seed
//! `go-endgame-count-and-move-values.txt`, from its two followers.
//!
//! - **difference** (traditional): the black follower's count minus the white
//!   follower's count;
//! - **naive sum**: the black follower's value favouring Black plus the white
//!   follower's value favouring White, as traditionalists state it; it is
//!   inapplicable when a follower favours the other player (the seed's
//!   failing cases);
//! - **corrected sum**: the same sum with negative values allowed (always
//!   equal to the difference, which is the seed's point);
//! - **modern**: the difference divided by the tally, the tally being
//!   (Black's moves − White's moves in the black sequence) − (the same in
//!   the white sequence).

/// How play in a zone goes, read from the two sequences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZoneType {
    /// Neither side gains by starting: the followers' counts are equal (a
    /// line may still hold a move one side must make, such as a connection
    /// inside its own territory).
    #[default]
    Settled,
    /// Whoever starts ends with the last move: the other keeps sente.
    Gote,
    /// Black's start ends with White's answer; White's start is gote: Black's
    /// sente, White's move there is reverse sente.
    BlackSente,
    /// The mirror: White's sente, Black's reverse sente.
    WhiteSente,
    /// Both starts end with the other side's answer.
    DoubleSente,
}

impl ZoneType {
    pub const ALL: [ZoneType; 5] = [
        ZoneType::Settled,
        ZoneType::Gote,
        ZoneType::BlackSente,
        ZoneType::WhiteSente,
        ZoneType::DoubleSente,
    ];

    /// Reads the type from each sequence's Black-minus-White moves;
    /// `settled` when the followers' counts are equal.
    pub fn classify(black_net: i32, white_net: i32, settled: bool) -> ZoneType {
        if settled {
            return ZoneType::Settled;
        }
        match (black_net <= 0, white_net >= 0) {
            (false, false) => ZoneType::Gote,
            (true, false) => ZoneType::BlackSente,
            (false, true) => ZoneType::WhiteSente,
            (true, true) => ZoneType::DoubleSente,
        }
    }

    /// The name in `go_zones.csv`.
    pub fn name(self) -> &'static str {
        match self {
            ZoneType::Settled => "settled",
            ZoneType::Gote => "gote",
            ZoneType::BlackSente => "black_sente",
            ZoneType::WhiteSente => "white_sente",
            ZoneType::DoubleSente => "double_sente",
        }
    }

    /// Who plays reverse sente here, if anyone.
    pub fn reverse_sente(self) -> &'static str {
        match self {
            ZoneType::BlackSente => "white",
            ZoneType::WhiteSente => "black",
            _ => "",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ZoneType::Settled => "settled",
            ZoneType::Gote => "gote",
            ZoneType::BlackSente => "Black's sente; White's reverse sente",
            ZoneType::WhiteSente => "White's sente; Black's reverse sente",
            ZoneType::DoubleSente => "double sente",
        }
    }
}

/// The four move values of one zone.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveValues {
    pub difference: i32,
    /// `None`: the naive sum is inapplicable.
    pub naive_sum: Option<i32>,
    pub corrected_sum: i32,
    pub tally: i32,
    /// `None` when the tally is not positive (nothing to divide by).
    pub modern: Option<f64>,
    pub zone_type: ZoneType,
}

impl MoveValues {
    /// From the followers' counts and their sequences' Black-minus-White
    /// moves.
    pub fn new(black: i32, white: i32, black_net: i32, white_net: i32) -> MoveValues {
        let difference = black - white;
        // The white follower as a value favouring White.
        let white_for_white = -white;
        let naive_sum = (black >= 0 && white_for_white >= 0).then_some(black + white_for_white);
        let tally = black_net - white_net;
        MoveValues {
            difference,
            naive_sum,
            corrected_sum: black + white_for_white,
            tally,
            modern: (tally > 0).then(|| difference as f64 / tally as f64),
            zone_type: ZoneType::classify(black_net, white_net, difference == 0),
        }
    }

    /// The arithmetic of each form as the seed writes it.
    pub fn difference_text(&self, black: i32, white: i32) -> String {
        format!("{} - {} = {}", black, paren(white), self.difference)
    }

    pub fn naive_sum_text(&self, black: i32, white: i32) -> String {
        match self.naive_sum {
            Some(v) => format!("{} + {} = {v}", black, -white),
            None if black < 0 => format!(
                "inapplicable: the black follower favours White (White has {} more)",
                -black
            ),
            None => {
                format!("inapplicable: the white follower favours Black (Black has {white} more)")
            }
        }
    }

    /// Why `go_zones.csv` leaves a value empty: the naive sum, the modern
    /// value (`; `-joined; empty when every value is there).
    pub fn empty_reasons(&self, black: i32, white: i32) -> String {
        let mut why = Vec::new();
        if self.naive_sum.is_none() {
            why.push(format!("naive_sum {}", self.naive_sum_text(black, white)));
        }
        if self.modern.is_none() {
            why.push(format!("modern_value: none, the tally is {}", self.tally));
        }
        why.join("; ")
    }

    pub fn corrected_sum_text(&self, black: i32, white: i32) -> String {
        format!("{} + {} = {}", black, paren(-white), self.corrected_sum)
    }

    pub fn tally_text(&self, black_net: i32, white_net: i32) -> String {
        format!("{} - {} = {}", black_net, paren(white_net), self.tally)
    }

    pub fn modern_text(&self) -> String {
        match self.modern {
            Some(m) => format!("{} / {} = {}", self.difference, self.tally, fmt_value(m)),
            None => format!("no value: tally {}", self.tally),
        }
    }
}

fn paren(v: i32) -> String {
    if v < 0 {
        format!("({v})")
    } else {
        v.to_string()
    }
}

/// A value with at most four decimals, trailing zeros dropped.
/// `v` to 4 decimals, as a report writes it (0, not −0).
pub fn rounded(v: f64) -> f64 {
    (v * 1e4).round() / 1e4 + 0.0
}

pub fn fmt_value(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_three_initial_positions() {
        // Followers and sequences as the seed draws them.
        let gote = MoveValues::new(1, -1, 1, -1);
        assert_eq!(
            (gote.difference, gote.naive_sum, gote.corrected_sum),
            (2, Some(2), 2)
        );
        assert_eq!(
            (gote.tally, gote.modern, gote.zone_type),
            (2, Some(1.0), ZoneType::Gote)
        );
        let black_sente = MoveValues::new(3, 2, 0, -1);
        assert_eq!(black_sente.naive_sum, None);
        assert_eq!((black_sente.difference, black_sente.corrected_sum), (1, 1));
        assert_eq!(black_sente.zone_type, ZoneType::BlackSente);
        assert_eq!(black_sente.corrected_sum_text(3, 2), "3 + (-2) = 1");
        let white_sente = MoveValues::new(-2, -3, 1, 0);
        assert_eq!(white_sente.naive_sum, None);
        assert_eq!((white_sente.tally, white_sente.modern), (1, Some(1.0)));
        assert_eq!(white_sente.zone_type, ZoneType::WhiteSente);
        assert_eq!(white_sente.difference_text(-2, -3), "-2 - (-3) = 1");
    }

    #[test]
    fn equal_followers_are_settled_even_with_a_forced_move() {
        // Black passes and White must connect; White connects at once.
        let v = MoveValues::new(-4, -4, -1, -1);
        assert_eq!(
            (v.zone_type, v.difference, v.tally, v.modern),
            (ZoneType::Settled, 0, 0, None)
        );
    }

    #[test]
    fn values_print_briefly() {
        assert_eq!(fmt_value(2.0 / 3.0), "0.6667");
        assert_eq!(fmt_value(1.5), "1.5");
        assert_eq!(fmt_value(-0.0), "0");
    }
}
