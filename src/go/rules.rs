//! Go rule sets as plain values: each setting is its own enum, presets are
//! named constructors (after KataGo's `Rules`, see STYLE.md).
//!
//! `FromStr` accepts the names archives write in `RU` (`Japanese`, `AGA`,
//! `New Zealand`, `tromp-taylor`…) case-insensitively; `Display` writes the
//! canonical preset name, so the CLI, `RU` and the CSV spell them alike.

use crate::go::record::GoRecord;
use std::fmt;
use std::str::FromStr;

/// Which earlier positions a play may not recreate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone is banned.
    Simple,
    /// No whole-board position may repeat.
    Positional,
    /// No position may repeat with the same player to move.
    Situational,
}

/// What a player's score counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// Stones on the board plus surrounded empty points.
    Area,
    /// Surrounded empty points plus prisoners.
    Territory,
}

/// Points a living group gives up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tax {
    None,
    /// Eyes of groups in seki count nothing (Japanese territory).
    Seki,
    /// Every group pays two points for its eyes (ancient stone scoring).
    All,
}

/// Extra komi White gets per handicap stone under area scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandicapBonus {
    Zero,
    NMinusOne,
    N,
}

/// A complete rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub ko: KoRule,
    pub scoring: Scoring,
    pub tax: Tax,
    pub suicide_legal: bool,
    pub white_handicap_bonus: HandicapBonus,
}

impl Rules {
    pub const JAPANESE: Rules = Rules {
        ko: KoRule::Simple,
        scoring: Scoring::Territory,
        tax: Tax::Seki,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::Zero,
    };
    pub const KOREAN: Rules = Rules::JAPANESE;
    pub const CHINESE: Rules = Rules {
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::N,
    };
    pub const AGA: Rules = Rules {
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::NMinusOne,
    };
    pub const NEW_ZEALAND: Rules = Rules {
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: true,
        white_handicap_bonus: HandicapBonus::Zero,
    };
    pub const TROMP_TAYLOR: Rules = Rules {
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: true,
        white_handicap_bonus: HandicapBonus::Zero,
    };
    pub const STONE_SCORING: Rules = Rules {
        ko: KoRule::Simple,
        scoring: Scoring::Area,
        tax: Tax::All,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::Zero,
    };
}

/// Canonical preset names with their rules, and other spellings seen in `RU`
/// (compared after lower-casing and dropping spaces, `-` and `_`).
const PRESETS: &[(&str, Rules, &[&str])] = &[
    ("japanese", Rules::JAPANESE, &["jp", "japan", "nihon"]),
    ("korean", Rules::KOREAN, &["kr", "korea"]),
    ("chinese", Rules::CHINESE, &["cn", "china"]),
    ("aga", Rules::AGA, &["american", "bga", "french"]),
    ("new-zealand", Rules::NEW_ZEALAND, &["nz"]),
    ("tromp-taylor", Rules::TROMP_TAYLOR, &["tt"]),
    (
        "stone-scoring",
        Rules::STONE_SCORING,
        &["ancientarea", "stone"],
    ),
];

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A rules name that matches no preset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.0).collect();
        write!(
            f,
            "unknown rules '{}' (known: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Rules {
    type Err = UnknownRules;

    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        lookup(s)
            .map(|p| p.1)
            .ok_or_else(|| UnknownRules(s.to_string()))
    }
}

/// Finds the preset a name means: its canonical name and rules.
pub fn lookup(s: &str) -> Option<(&'static str, Rules)> {
    let key = squash(s);
    PRESETS
        .iter()
        .find(|(name, _, aliases)| squash(name) == key || aliases.contains(&key.as_str()))
        .map(|p| (p.0, p.1))
}

impl Rules {
    /// The preset name of these rules, if they are a preset.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS.iter().find(|p| p.1 == *self).map(|p| p.0)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(n) => f.write_str(n),
            None => write!(f, "{self:?}"),
        }
    }
}

/// Which rules a game was replayed under, and where they came from.
#[derive(Debug, Clone, Copy)]
pub struct RulesUsed {
    pub name: &'static str,
    /// `ru` when read from the record, `default` when `--rules` applied.
    pub source: &'static str,
}

impl RulesUsed {
    /// The rules a game is replayed and scored under: its `RU` when that
    /// names a known preset, else `default` (the `--rules` choice).
    pub fn for_record(record: &GoRecord, default: (&'static str, Rules)) -> (RulesUsed, Rules) {
        match lookup(&record.rules_raw) {
            Some((name, r)) => (RulesUsed { name, source: "ru" }, r),
            None => (
                RulesUsed {
                    name: default.0,
                    source: "default",
                },
                default.1,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip() {
        for (name, rules, aliases) in PRESETS {
            // Korean shares Japanese's settings and prints as japanese.
            let parsed: Rules = name.parse().unwrap();
            assert_eq!(parsed, *rules);
            assert_eq!(parsed.to_string().parse::<Rules>().unwrap(), *rules);
            for a in *aliases {
                assert_eq!(a.parse::<Rules>().unwrap(), *rules, "{a}");
            }
        }
    }

    #[test]
    fn archive_spellings() {
        assert_eq!("Japanese".parse(), Ok(Rules::JAPANESE));
        assert_eq!("New Zealand".parse(), Ok(Rules::NEW_ZEALAND));
        assert_eq!("AGA".parse(), Ok(Rules::AGA));
        assert_eq!("Tromp_Taylor".parse(), Ok(Rules::TROMP_TAYLOR));
        let err = "Klingon".parse::<Rules>().unwrap_err();
        assert!(err.to_string().contains("known: japanese"));
    }
}
