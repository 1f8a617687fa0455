//! Go rule sets as plain values: each setting is its own enum, presets are
//! named constructors (after KataGo's `Rules`, see STYLE.md).
//!
//! [`Preset`] names the presets: its `FromStr` accepts the names archives
//! write in `RU` (`Japanese`, `AGA`, `New Zealand`, `tromp-taylor`…)
//! case-insensitively; `Display` writes the canonical name, so the CLI,
//! `RU` and the CSV spell them alike.

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
    /// Every independent living group pays two points for its eyes:
    /// ancient stone scoring under area scoring, the Song-dynasty basic
    /// eyes under territory scoring.
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
    /// Song-dynasty scoring after seed `song-dynasty-lu-and-chips-scoring.txt`:
    /// territory and prisoners, less the two basic eyes each independent
    /// living group keeps (its group tax; never below nothing), no komi in
    /// the period (a record's `KM` still counts).
    pub const SONG: Rules = Rules {
        ko: KoRule::Simple,
        scoring: Scoring::Territory,
        tax: Tax::All,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::Zero,
    };
}

/// The rule presets: one list drives the `--rules` names, what `RU`
/// spellings are recognised, the `rules` columns and the interpretations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    Japanese,
    Korean,
    Chinese,
    Aga,
    NewZealand,
    TrompTaylor,
    StoneScoring,
    Song,
}

impl Preset {
    pub const ALL: [Preset; 8] = [
        Preset::Japanese,
        Preset::Korean,
        Preset::Chinese,
        Preset::Aga,
        Preset::NewZealand,
        Preset::TrompTaylor,
        Preset::StoneScoring,
        Preset::Song,
    ];

    /// The canonical name, as the CLI, `RU` and the reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Japanese => "japanese",
            Preset::Korean => "korean",
            Preset::Chinese => "chinese",
            Preset::Aga => "aga",
            Preset::NewZealand => "new_zealand",
            Preset::TrompTaylor => "tromp_taylor",
            Preset::StoneScoring => "stone_scoring",
            Preset::Song => "song",
        }
    }

    /// Other spellings seen in `RU`, compared after lower-casing and
    /// dropping spaces, `-` and `_`.
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Preset::Japanese => &["jp", "japan", "nihon"],
            Preset::Korean => &["kr", "korea"],
            Preset::Chinese => &["cn", "china"],
            Preset::Aga => &["american", "bga", "french"],
            Preset::NewZealand => &["nz"],
            Preset::TrompTaylor => &["tt"],
            Preset::StoneScoring => &["ancientarea", "stone", "grouptax"],
            Preset::Song => &["songdynasty", "ancientterritory"],
        }
    }

    /// Every setting of the preset.
    pub fn rules(self) -> Rules {
        match self {
            Preset::Japanese => Rules::JAPANESE,
            Preset::Korean => Rules::KOREAN,
            Preset::Chinese => Rules::CHINESE,
            Preset::Aga => Rules::AGA,
            Preset::NewZealand => Rules::NEW_ZEALAND,
            Preset::TrompTaylor => Rules::TROMP_TAYLOR,
            Preset::StoneScoring => Rules::STONE_SCORING,
            Preset::Song => Rules::SONG,
        }
    }
}

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
        let names: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        write!(
            f,
            "unknown rules '{}' (known: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Preset {
    type Err = UnknownRules;

    /// Any spelling of a preset: its name or an alias, case, spaces, `-`
    /// and `_` aside.
    fn from_str(s: &str) -> Result<Preset, UnknownRules> {
        let key = squash(s);
        Preset::ALL
            .into_iter()
            .find(|p| squash(p.name()) == key || p.aliases().contains(&key.as_str()))
            .ok_or_else(|| UnknownRules(s.to_string()))
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the rules of a game came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RulesSource {
    /// The record's `RU` names a preset.
    Ru,
    /// `--rules`: `RU` is absent or names no preset.
    #[default]
    Default,
}

/// Which rules a game was replayed under, and where they came from.
#[derive(Debug, Clone, Copy)]
pub struct RulesUsed {
    pub preset: Preset,
    pub source: RulesSource,
}

impl RulesUsed {
    /// The rules a game is replayed and scored under: its `RU` when that
    /// names a known preset, else `default` (the `--rules` choice).
    pub fn for_record(record: &GoRecord, default: Preset) -> RulesUsed {
        match record.rules_raw.parse::<Preset>() {
            Ok(preset) => RulesUsed {
                preset,
                source: RulesSource::Ru,
            },
            Err(_) => RulesUsed {
                preset: default,
                source: RulesSource::Default,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
            assert_eq!(p.to_string().parse::<Preset>(), Ok(p));
            assert_eq!(p.name().replace('_', "-").parse::<Preset>(), Ok(p));
            for a in p.aliases() {
                assert_eq!(a.parse::<Preset>(), Ok(p), "{a}");
            }
        }
    }

    #[test]
    fn archive_spellings() {
        assert_eq!("Japanese".parse(), Ok(Preset::Japanese));
        assert_eq!("New Zealand".parse(), Ok(Preset::NewZealand));
        assert_eq!("AGA".parse(), Ok(Preset::Aga));
        assert_eq!("Tromp_Taylor".parse(), Ok(Preset::TrompTaylor));
        assert_eq!("stone-scoring".parse(), Ok(Preset::StoneScoring));
        assert_eq!("group tax".parse(), Ok(Preset::StoneScoring));
        let err = "Klingon".parse::<Preset>().unwrap_err();
        assert!(err.to_string().contains("known: japanese"));
    }
}
