//! Backgammon match files read into a [`crate::bg::game::record::MatchRecord`]:
//! Jellyfish `.mat` text and its dialects ([`mat`]), GNU Backgammon's SGF
//! ([`sgf`]), eXtreme Gammon's `.xg` and `.xgp` ([`xg`]), FIBS oldmoves
//! logs ([`fibs`]), GamesGrid `.sgg` ([`sgg`]) and TrueMoneyGames `.tmg`
//! ([`tmg`]) logs, Snowie's text positions ([`snowie`]).

pub mod fibs;
pub mod mat;
pub mod sgf;
pub mod sgg;
pub mod snowie;
pub mod tmg;
pub mod xg;
