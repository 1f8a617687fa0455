//! Backgammon match files read into a [`crate::bg::game::record::MatchRecord`]:
//! Jellyfish `.mat` text and its dialects ([`mat`]), GNU Backgammon's SGF
//! ([`sgf`]), eXtreme Gammon's `.xg` and `.xgp` ([`xg`]), FIBS oldmoves
//! logs ([`fibs`]), GamesGrid `.sgg` ([`sgg`]) and TrueMoneyGames `.tmg`
//! ([`tmg`]) logs, Snowie's text positions ([`snowie`]), BGBlitz's and
//! XG's text positions ([`bgblitz`], [`xgtext`]: their board diagram in
//! [`diagram`], what they share in [`textpos`]), BGBlitz's `.bgf` matches
//! ([`bgf`], their SMILE encoding in [`smile`]).

pub mod bgblitz;
pub mod bgf;
pub mod diagram;
pub mod fibs;
pub mod mat;
pub mod sgf;
pub mod sgg;
pub mod smile;
pub mod snowie;
pub mod textpos;
pub mod tmg;
pub mod xg;
pub mod xgtext;
