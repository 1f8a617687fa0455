//! Mutated real records never panic the reader or the replay: every
//! mutation ends as a game row or an error row.

use super::util;
use recount::commands::run::process;
use recount::ingest::{MatchFormat, Origin, Payload, Unit};
use recount::report::Table;
use std::sync::Arc;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, mut b: Vec<u8>) -> Vec<u8> {
    const SPECIAL: &[u8] = b"()[];\\:BWABAEtt\x00\xff\xc3SZ";
    for _ in 0..1 + rng.below(6) {
        let i = rng.below(b.len());
        match rng.below(5) {
            0 => b[i] = SPECIAL[rng.below(SPECIAL.len())],
            1 => b[i] = rng.next() as u8,
            2 => b.insert(i, SPECIAL[rng.below(SPECIAL.len())]),
            3 => {
                b.remove(i);
            }
            _ => b.truncate(i),
        }
        if b.is_empty() {
            b.push(b'(');
        }
    }
    b
}

#[test]
fn mutated_records_never_panic() {
    let settings = util::every_analysis(1 << 20, 8, true);
    let mut seeds = Vec::new();
    for dir in ["kgs", "gnugo"] {
        for f in std::fs::read_dir(util::repo().join("fixtures/go").join(dir)).unwrap() {
            seeds.push(std::fs::read(f.unwrap().path()).unwrap());
        }
    }
    seeds.push(b"(;SZ[3:2]AB[aa:cb]AE[bb];B[ba];W[])".to_vec());
    let origin = Arc::new(Origin {
        path: "mutant.sgf".into(),
        member: None,
    });
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut games, mut errors) = (0, 0);
    for round in 0..3000 {
        let seed = &seeds[round % seeds.len()];
        let unit = Unit {
            origin: Arc::clone(&origin),
            game: 1,
            first_of_source: true,
            payload: Payload::Tree(mutate(&mut rng, seed.clone())),
        };
        let (rows, tally) = process(&unit, &settings);
        assert_eq!(tally.games + tally.errors, 1, "round {round}");
        let internal = String::from_utf8_lossy(rows.bytes(Table::Errors)).contains(",internal,");
        assert!(
            !internal,
            "round {round}: {}",
            String::from_utf8_lossy(rows.bytes(Table::Errors))
        );
        games += tally.games;
        errors += tally.errors;
    }
    // Both outcomes occur, so the mutations reach past the parser.
    assert!(
        games > 500 && errors > 500,
        "{games} games, {errors} errors"
    );
}

/// Backgammon match files mutated the same way: each ends as game rows or
/// one error row, never an internal error.
#[test]
fn mutated_match_files_never_panic() {
    let settings = util::every_analysis(1 << 20, 8, true);
    // The play analysis (about 450 evaluations a play) on one round in
    // twenty: the suite's time, not the mutations, sets the share.
    let mut rated = settings;
    rated.bg.plays = true;
    let mut seeds = Vec::new();
    for dir in [
        "real", "gnubg", "xg", "fibs", "sgg", "tmg", "snowie", "bgblitz", "xgtext", "bgf",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(util::repo().join("fixtures/bg").join(dir))
            .unwrap()
            .map(|f| f.unwrap().path())
            .collect();
        files.sort();
        for f in files.iter().take(8) {
            seeds.push(std::fs::read(f).unwrap());
        }
    }
    let origin = Arc::new(Origin {
        path: "mutant.mat".into(),
        member: None,
    });
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut games, mut errors, mut findings) = (0, 0, 0);
    for round in 0..600 {
        let seed = &seeds[round % seeds.len()];
        let bytes = mutate(&mut rng, seed.clone());
        // The format as ingest tells them apart: XG's magic number, a FIBS
        // score line, the GamesGrid and TrueMoneyGames first lines, BGBlitz's
        // header line, an SGF tree opens with '('.
        let format = match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            _ if bytes.starts_with(b"RGMH") => MatchFormat::Xg,
            _ if bytes.starts_with(b"Score is ") => MatchFormat::Oldmoves,
            _ if bytes.starts_with(b"charlot2 vs.") => MatchFormat::Sgg,
            _ if bytes.starts_with(b"MatchID:") => MatchFormat::Tmg,
            _ if bytes.starts_with(b"7;0;0;0;") => MatchFormat::SnowieTxt,
            _ if bytes.starts_with(b"XGID=") => MatchFormat::XgTxt,
            _ if bytes.starts_with(b" +13-14-") => MatchFormat::BgBlitzTxt,
            _ if bytes.starts_with(b"{\"") => MatchFormat::Bgf,
            Some(b'(') => MatchFormat::GnubgSgf,
            _ => MatchFormat::Mat,
        };
        let unit = Unit {
            origin: Arc::clone(&origin),
            game: 1,
            first_of_source: true,
            payload: Payload::Match(format, bytes),
        };
        let chosen = if round % 20 == 0 { &rated } else { &settings };
        let (rows, tally) = process(&unit, chosen);
        assert_eq!(tally.matches + tally.errors, 1, "round {round}");
        let errs = String::from_utf8_lossy(rows.bytes(Table::Errors)).into_owned();
        assert!(!errs.contains(",internal,"), "round {round}: {errs}");
        games += tally.bg.games;
        errors += tally.errors;
        findings += tally.bg.games_with_findings;
    }
    assert!(
        games > 500 && findings > 100,
        "{games} games, {findings} with findings, {errors} errors"
    );
}
