//! A backgammon match as recorded and replayed: the record every format is
//! read into ([`record`]), each game replayed with full legality and its
//! findings ([`replay`]), and the match audited game by game: score lines,
//! the Crawford game, the cube rules that apply ([`audit`]).

pub mod audit;
pub mod record;
pub mod replay;
