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

/// Who wins a count of exactly zero (komi included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// A draw (jigo).
    Draw,
    /// Ing's convention: Black in an even game (8 points of komi, ties to
    /// Black), White in a handicap game (the AGA's reading of Ing's SST
    /// rules).
    Ing,
}

/// A complete rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub ko: KoRule,
    pub scoring: Scoring,
    pub tax: Tax,
    pub suicide_legal: bool,
    pub white_handicap_bonus: HandicapBonus,
    pub ties: Ties,
}

impl Rules {
    pub const JAPANESE: Rules = Rules {
        ko: KoRule::Simple,
        scoring: Scoring::Territory,
        tax: Tax::Seki,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::Zero,
        ties: Ties::Draw,
    };
    pub const KOREAN: Rules = Rules::JAPANESE;
    pub const CHINESE: Rules = Rules {
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::N,
        ties: Ties::Draw,
    };
    pub const AGA: Rules = Rules {
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::NMinusOne,
        ties: Ties::Draw,
    };
    pub const NEW_ZEALAND: Rules = Rules {
        ko: KoRule::Situational,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: true,
        white_handicap_bonus: HandicapBonus::Zero,
        ties: Ties::Draw,
    };
    pub const TROMP_TAYLOR: Rules = Rules {
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: true,
        white_handicap_bonus: HandicapBonus::Zero,
        ties: Ties::Draw,
    };
    pub const STONE_SCORING: Rules = Rules {
        ko: KoRule::Simple,
        scoring: Scoring::Area,
        tax: Tax::All,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::Zero,
        ties: Ties::Draw,
    };
    /// Song-dynasty scoring after seed `song-dynasty-lu-and-chips-scoring.txt`:
    /// territory and prisoners, less the two basic eyes each independent
    /// living group keeps (its group tax; never below nothing), no komi in
    /// the period (a record's `KM` still counts).
    /// Ing's SST rules: area counting (stones and points, "fill-in"),
    /// suicide legal, komi 8 with ties to Black, and, as the AGA reads
    /// them, N points to White in a handicap game, which wins ties. Ing's
    /// own ko rules are not modelled: a whole-board repetition is banned.
    pub const ING: Rules = Rules {
        ko: KoRule::Positional,
        scoring: Scoring::Area,
        tax: Tax::None,
        suicide_legal: true,
        white_handicap_bonus: HandicapBonus::N,
        ties: Ties::Ing,
    };
    pub const SONG: Rules = Rules {
        ko: KoRule::Simple,
        scoring: Scoring::Territory,
        tax: Tax::All,
        suicide_legal: false,
        white_handicap_bonus: HandicapBonus::Zero,
        ties: Ties::Draw,
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
    Ing,
}

impl Preset {
    pub const ALL: [Preset; 9] = [
        Preset::Japanese,
        Preset::Korean,
        Preset::Chinese,
        Preset::Aga,
        Preset::NewZealand,
        Preset::TrompTaylor,
        Preset::StoneScoring,
        Preset::Song,
        Preset::Ing,
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
            Preset::Ing => "ing",
        }
    }

    /// Other spellings seen in `RU` (servers', programs' and their
    /// languages'), compared as [`squash`] leaves them.
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Preset::Japanese => &[
                "jp",
                "jpn",
                "japan",
                "nihon",
                "nihonkiin",
                "日本",
                "日本棋院",
                "일본",
            ],
            Preset::Korean => &["kr", "kor", "korea", "韩国", "韓国", "한국"],
            Preset::Chinese => &[
                "cn",
                "chn",
                "china",
                "chineseogs",
                "chinesekgs",
                "中国",
                "中國",
                "중국",
            ],
            Preset::Aga => &["american", "bga", "french", "agabutton"],
            Preset::NewZealand => &["nz", "newzealand", "nzl"],
            Preset::TrompTaylor => &["tt", "tromptaylor"],
            Preset::StoneScoring => &["ancientarea", "stone", "grouptax"],
            Preset::Song => &["songdynasty", "ancientterritory"],
            Preset::Ing => &[
                "goe",
                "ingsst",
                "ingssst",
                "sst",
                "ings",
                "ingchangki",
                "应氏",
                "應氏",
                "잉",
            ],
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
            Preset::Ing => Rules::ING,
        }
    }
}

/// A rule set's name as it is compared: lower case, without spaces and
/// punctuation, and without a trailing `rules` or year (`Japanese 1989`,
/// `Chinese rules`, `Ing's SST` are `japanese`, `chinese`, `ingssst`…).
fn squash(s: &str) -> String {
    let mut key: String = s
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    loop {
        let before = key.len();
        key = key
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string();
        for word in ["rules", "rule", "ruleset", "规则", "規則", "ルール", "룰"] {
            if let Some(k) = key.strip_suffix(word).filter(|k| !k.is_empty()) {
                key = k.to_string();
            }
        }
        if key.len() == before {
            return key;
        }
    }
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
            .find(|p| squash(p.name()) == key || p.aliases().iter().any(|a| squash(a) == key))
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
    /// `--rules` left at its default: `RU` is absent or names no preset,
    /// so the game is counted but not audited.
    #[default]
    Default,
    /// `--rules` given on the command line: `RU` is absent or names no
    /// preset, and the game is audited under the rules given (the
    /// formats that carry no rules, `.gib` and `.ngf`, are audited so).
    Option,
}

/// The `--rules` choice: the rules of records whose `RU` names none, and
/// whether they were given (then such records are audited under them)
/// or are the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesChoice {
    pub preset: Preset,
    pub given: bool,
}

impl Default for RulesChoice {
    fn default() -> RulesChoice {
        RulesChoice {
            preset: Preset::Japanese,
            given: false,
        }
    }
}

/// Which rules a game was replayed under, and where they came from.
#[derive(Debug, Clone)]
pub struct RulesUsed {
    /// The preset the `rules` columns name.
    pub preset: Preset,
    /// The rules replayed and scored: the preset's, or those a KataGo
    /// rule string spells out.
    pub rules: Rules,
    pub source: RulesSource,
    /// How `RU` was read, when a reader should know: a rule string that
    /// is no preset's, or a name recount does not know.
    pub note: Option<String>,
}

impl RulesUsed {
    /// The rules a game is replayed and scored under: its `RU` when that
    /// names a known preset or spells out KataGo's rules, else `default`
    /// (the `--rules` choice), with a note.
    pub fn for_record(record: &GoRecord, choice: RulesChoice) -> RulesUsed {
        let default = choice.preset;
        let ru = record.rules_raw.as_str();
        let used = |preset: Preset, rules: Rules, source, note| RulesUsed {
            preset,
            rules,
            source,
            note,
        };
        if let Ok(preset) = ru.parse::<Preset>() {
            return used(preset, preset.rules(), RulesSource::Ru, None);
        }
        if let Some(rules) = katago_rules(ru) {
            if let Some(preset) = Preset::ALL.into_iter().find(|p| p.rules() == rules) {
                return used(preset, rules, RulesSource::Ru, None);
            }
            // No preset has these settings: replayed and scored as
            // written, named after the preset that counts alike.
            let preset = Preset::ALL
                .into_iter()
                .find(|p| {
                    let r = p.rules();
                    (r.scoring, r.tax, r.ko) == (rules.scoring, rules.tax, rules.ko)
                })
                .or_else(|| {
                    Preset::ALL
                        .into_iter()
                        .find(|p| (p.rules().scoring, p.rules().tax) == (rules.scoring, rules.tax))
                });
            if let Some(preset) = preset {
                let note = format!("RU[{ru}]: KataGo's rules, replayed and scored as written; the `rules` columns name {preset}, which counts alike");
                return used(preset, rules, RulesSource::Ru, Some(note));
            }
        }
        let note = (!ru.is_empty()).then(|| {
            format!("RU[{ru}] names no rule set recount knows: replayed and scored as {default} (--rules)")
        });
        let source = if choice.given {
            RulesSource::Option
        } else {
            RulesSource::Default
        };
        used(default, default.rules(), source, note)
    }
}

/// KataGo's rules written out as its `Rules::toString` does:
/// `ko{SIMPLE,POSITIONAL,SITUATIONAL}score{AREA,TERRITORY}tax{NONE,SEKI,ALL}sui{0,1}`,
/// then optionally `button{0,1}`, `whb{0,N,N-1}`, `fpok{0,1}` and
/// `komi…` (case aside). The button and friendly passes change no count
/// recount makes; a komi in the string is `KM`'s business.
pub fn katago_rules(s: &str) -> Option<Rules> {
    let mut rest = s.trim().to_ascii_lowercase();
    let mut take = |key: &str, values: &[&str]| -> Option<String> {
        let after = rest.strip_prefix(key)?;
        // Longest value first (`n-1` before `n`).
        let mut sorted = values.to_vec();
        sorted.sort_by_key(|v| std::cmp::Reverse(v.len()));
        let value = sorted
            .into_iter()
            .find(|v| after.starts_with(v))?
            .to_string();
        rest = after[value.len()..].to_string();
        Some(value)
    };
    let ko = match take("ko", &["simple", "positional", "situational", "spight"])?.as_str() {
        "simple" => KoRule::Simple,
        "positional" => KoRule::Positional,
        "situational" => KoRule::Situational,
        _ => return None,
    };
    let scoring = match take("score", &["area", "territory"])?.as_str() {
        "area" => Scoring::Area,
        _ => Scoring::Territory,
    };
    let tax = match take("tax", &["none", "seki", "all"])?.as_str() {
        "none" => Tax::None,
        "seki" => Tax::Seki,
        _ => Tax::All,
    };
    let suicide_legal = take("sui", &["0", "1"])? == "1";
    let _button = take("button", &["0", "1"]);
    let white_handicap_bonus = match take("whb", &["0", "n", "n-1"]).as_deref() {
        Some("n") => HandicapBonus::N,
        Some("n-1") => HandicapBonus::NMinusOne,
        _ => HandicapBonus::Zero,
    };
    let _friendly_pass = take("fpok", &["0", "1"]);
    let komi_ok = rest.is_empty()
        || rest
            .strip_prefix("komi")
            .is_some_and(|k| k.parse::<f64>().is_ok());
    komi_ok.then_some(Rules {
        ko,
        scoring,
        tax,
        suicide_legal,
        white_handicap_bonus,
        ties: Ties::Draw,
    })
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
        for (ru, preset) in [
            ("Japanese 1989", Preset::Japanese),
            ("Japanese (2003)", Preset::Japanese),
            ("Chinese rules", Preset::Chinese),
            ("chinese-ogs", Preset::Chinese),
            ("Ing's SST", Preset::Ing),
            ("GOE", Preset::Ing),
            ("Ing", Preset::Ing),
            ("中国规则", Preset::Chinese),
            ("日本ルール", Preset::Japanese),
            ("한국룰", Preset::Korean),
            ("NZ", Preset::NewZealand),
        ] {
            assert_eq!(ru.parse(), Ok(preset), "{ru}");
        }
        let err = "Klingon".parse::<Preset>().unwrap_err();
        assert!(err.to_string().contains("known: japanese"));
    }

    #[test]
    fn katago_rule_strings() {
        let tt = katago_rules("koPOSITIONALscoreAREAtaxNONEsui1");
        assert_eq!(tt, Some(Rules::TROMP_TAYLOR));
        assert_eq!(
            katago_rules("koSIMPLEscoreTERRITORYtaxSEKIsui0"),
            Some(Rules::JAPANESE)
        );
        assert_eq!(
            katago_rules("koPOSITIONALscoreAREAtaxNONEsui0whbN"),
            Some(Rules::CHINESE)
        );
        assert_eq!(
            katago_rules("koSITUATIONALscoreAREAtaxNONEsui0whbN-1"),
            Some(Rules::AGA)
        );
        let odd = katago_rules("koPOSITIONALscoreAREAtaxNONEsui1button1whbNfpok1komi7.5").unwrap();
        assert_eq!(
            (odd.suicide_legal, odd.white_handicap_bonus),
            (true, HandicapBonus::N)
        );
        assert_eq!(katago_rules("koPOSITIONALscoreAREA"), None);
        assert_eq!(katago_rules("koPOSITIONALscoreAREAtaxNONEsui1junk"), None);
    }
}
