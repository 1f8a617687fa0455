//! The key columns that name a report's rows and join the reports: one
//! text that is never empty, built from the names recount already writes.
//!
//! * `file_key`: the file read, `source` (the file as given or found) and
//!   for an archive member `/member` after it: `games.tar.gz/2003/a.sgf`.
//! * `game_key`: the game, `file_key#game`: `games.tar.gz/2003/a.sgf#1`.
//!
//! No two files have the same `file_key`: an archive is a file, so no
//! file named by a path inside it can exist beside it. The game is the
//! number after the last `#`.

use crate::ingest::Origin;

/// The `file_key` of a file or archive member.
pub fn file_key(origin: &Origin) -> String {
    match &origin.member {
        Some(m) => format!("{}/{m}", origin.path),
        None => origin.path.clone(),
    }
}

/// The `game_key` of game `game` (1-based) of a file or member.
pub fn game_key(origin: &Origin, game: u32) -> String {
    let mut key = file_key(origin);
    key.push('#');
    key.push_str(&game.to_string());
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_the_file_then_the_game() {
        let loose = Origin {
            path: "kgs/a.sgf".into(),
            member: None,
        };
        let member = Origin {
            path: "kgs.tar.gz".into(),
            member: Some("2003/a#1.sgf".into()),
        };
        assert_eq!(file_key(&loose), "kgs/a.sgf");
        assert_eq!(game_key(&loose, 3), "kgs/a.sgf#3");
        assert_eq!(game_key(&member, 1), "kgs.tar.gz/2003/a#1.sgf#1");
    }
}
