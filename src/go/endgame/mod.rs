//! Go endgame analysis after the seeds `go-endgame-count-and-move-values.txt`
//! and `independent-zones-search.en.md`: a position split into independent
//! zones ([`zones`]), each zone's local game searched to the end
//! ([`local_game`]), its move value in the seed's four forms
//! ([`move_values`]), and a whole position analysed ([`position`]).

pub mod local_game;
pub mod move_values;
pub mod position;
pub mod zones;
