//! Backgammon row types: one row per game (`bg_games.csv`), per cube
//! decision (`bg_cube.csv`), with `--positions` one per position after
//! each play (`bg_positions.csv`), and with `--plays` one per play rated
//! (`bg_plays.csv`) and the players' statistics (`bg_stats.csv`). Each
//! struct is declared in [`typed_row!`]: its field types are its column
//! types.

use super::columns::typed_row;
use serde::Serialize;

typed_row! {
/// One audited backgammon game (`bg_games.csv`). Players are numbered as
/// in the record: 0 the left column of a `.mat` file (gnubg's player 0,
/// `W` in its SGF), 1 the right one.
#[derive(Debug, Default, Serialize)]
pub struct BgGameRow {
    /// The game's key (`file_key#game`): never empty, the same in every
    /// report of the game's rows; join on it.
    pub game_key: String,
    /// The match file's key (`source`, and `/member` inside an archive).
    pub file_key: String,
    pub source: String,
    pub member: String,
    /// 1-based position of the game in its file.
    pub game: u32,
    /// The game number the record writes (`Game N`, SGF `MI[game:i]` + 1).
    pub game_number: u32,
    /// `mat` or `sgf`.
    pub format: &'static str,
    pub player_0: String,
    pub player_1: String,
    /// Points to win; 0 for a money session.
    pub match_length: u32,
    /// Score before the game, as followed from the results.
    pub score_0: u32,
    pub score_1: u32,
    /// Score line the record writes, `a-b`; empty when absent.
    pub score_written: String,
    /// `pre`, `crawford` or `post`; empty in money play or without the rule.
    pub crawford: &'static str,
    /// Rolls played (dances included).
    pub plays: u32,
    pub illegal_plays: u32,
    pub doubles: u32,
    /// Beavers and raccoons.
    pub beavers: u32,
    /// Cube value at the end and who owns it (empty: centred).
    pub cube: u32,
    pub cube_owner: Option<usize>,
    /// Winner as replayed: from the board, a drop, or the record's `Wins`
    /// when the game was resigned.
    pub winner: Option<usize>,
    /// `single`, `gammon`, `backgammon`, `drop`, `resign`, `conceded`
    /// (Backgammon Galaxy's `Losses n`: resignation or timeout) or
    /// `unfinished`.
    pub ending: &'static str,
    /// Points the replay gives the winner (cube × single/gammon/backgammon).
    pub points: Option<u32>,
    /// What the record says: `Wins n` by this player.
    pub recorded_winner: Option<usize>,
    pub recorded_points: Option<u32>,
    /// Findings: their number, their kinds (`;`-separated, in order) and
    /// their descriptions (`|`-separated).
    pub findings: u32,
    pub finding_kinds: String,
    pub finding_details: String,
    /// The final position's pip counts and checkers off, empty where
    /// it is impossible (`impossible_position`).
    pub pips_0: Option<u32>,
    pub pips_1: Option<u32>,
    pub off_0: Option<u8>,
    pub off_1: Option<u8>,
    /// GNU Backgammon Position ID and Match ID, and the XGID, of the final
    /// position (the player who did not make the last play on roll); the
    /// position's IDs empty where it is impossible.
    pub position_id: String,
    pub match_id: String,
    pub xgid: String,
    /// GNU Backgammon SGF: nodes carrying analysis (`DA`, `A`).
    pub analysed: u32,
    /// The match's content hash, 16 hex digits: its players (by
    /// `player_key`), length and each game's setup, rolls, the positions
    /// the plays leave, cube actions and result. The same match in any
    /// format or archive has the same hash; tags and analysis do not
    /// count.
    pub match_hash: String,
    /// For a match an earlier match of the run has the same
    /// `match_hash` as: the `game_key` of this game in that first match.
    /// Filled by the collector in report order.
    pub duplicate_of: String,
}
}

typed_row! {
/// One position after a play (`bg_positions.csv`), with the board features
/// of seed `backgammon-program-board-evaluation.txt` for each side.
/// Text fields borrow from the game, since there is one row per play.
#[derive(Debug, Default, Serialize)]
pub struct BgPositionRow<'a> {
    /// The game's key (`file_key#game`): never empty, the same in every
    /// report of the game's rows; join on it.
    pub game_key: String,
    pub source: &'a str,
    pub member: &'a str,
    pub game: u32,
    /// 1-based count of plays in the game.
    pub play: u32,
    /// Line (`.mat`) or node (SGF) of the play.
    pub line: u32,
    pub player: usize,
    pub dice: &'a str,
    /// The play in gnubg notation; as written when it was illegal.
    pub moves: &'a str,
    pub legal: bool,
    /// IDs of the position after the play, the opponent on roll.
    pub position_id: String,
    pub match_id: String,
    pub xgid: String,
    pub cube: u32,
    pub cube_owner: Option<usize>,
    /// The forces have not separated (the seed's RUNNING flag is off).
    pub contact: bool,
    pub pips_0: u32,
    pub pips_1: u32,
    pub bar_0: u8,
    pub bar_1: u8,
    pub off_0: u8,
    pub off_1: u8,
    pub blots_0: u8,
    pub blots_1: u8,
    pub points_0: u8,
    pub points_1: u8,
    pub home_points_0: u8,
    pub home_points_1: u8,
    pub longest_prime_0: u8,
    pub longest_prime_1: u8,
    pub back3_0: u8,
    pub back3_1: u8,
    pub back6_0: u8,
    pub back6_1: u8,
    pub back12_0: u8,
    pub back12_1: u8,
    pub home_0: u8,
    pub home_1: u8,
    /// The seed's distance-only estimate (WSINCL, rolls of 36 summed).
    pub blot_odds_0: u32,
    pub blot_odds_1: u32,
    /// Exact number of the opponent's 36 rolls that hit a blot.
    pub blot_shots_0: u8,
    pub blot_shots_1: u8,
}
}

typed_row! {
/// One cube decision (`bg_cube.csv`): every recorded double, and with
/// `--all-cube-decisions` every roll where the roller could have doubled.
/// Equities are for the player on roll, per unit cube (match play:
/// normalised, as GNU Backgammon prints them, with the match winning
/// chances beside them). Empty values come with a `reason`.
#[derive(Debug, Default, Serialize)]
pub struct BgCubeRow {
    /// The game's key (`file_key#game`): never empty, the same in every
    /// report of the game's rows; join on it.
    pub game_key: String,
    pub source: String,
    pub member: String,
    pub game: u32,
    pub line: u32,
    /// The player on roll, who may double.
    pub player: usize,
    pub match_length: u32,
    /// Points each side still needs; empty in money play.
    pub away_on_roll: Option<u32>,
    pub away_opponent: Option<u32>,
    /// `pre`, `crawford` or `post`, as in `bg_games.csv`; empty in money
    /// play or without the rule.
    pub crawford: &'static str,
    pub jacoby: bool,
    pub beavers: bool,
    pub cube: u32,
    /// The player who owns the cube, numbered as `player` (empty:
    /// centred), as in the other reports.
    pub cube_owner: Option<usize>,
    pub position_id: String,
    pub match_id: String,
    /// `bearoff`, `race`, `gnubg_nn`, `gnubg_ts` or `gnubg_os`; empty when
    /// not evaluated.
    pub evaluator: &'static str,
    /// `bearoff`, `race`, `contact` or `over`.
    pub class: &'static str,
    /// Cube efficiency used (share of the live cube) at 0-ply; empty
    /// deeper, where each leaf of the look-ahead has its own.
    pub efficiency: Option<f32>,
    /// The look-ahead of the evaluation (`--plies`).
    pub plies: u32,
    pub p_win: Option<f32>,
    pub p_win_gammon: Option<f32>,
    pub p_win_backgammon: Option<f32>,
    pub p_lose_gammon: Option<f32>,
    pub p_lose_backgammon: Option<f32>,
    pub cubeless: Option<f32>,
    /// No double, double/take, double/pass.
    pub nd: Option<f32>,
    pub dt: Option<f32>,
    pub dp: Option<f32>,
    /// The taker's options: take = −DT, pass = −1, beaver = −2·DT; and the
    /// doubler's raccoon = 4·DT (money play with beavers).
    pub take: Option<f32>,
    pub pass: Option<f32>,
    pub beaver: Option<f32>,
    pub raccoon: Option<f32>,
    /// Match play: match winning chances of the three.
    pub nd_mwc: Option<f32>,
    pub dt_mwc: Option<f32>,
    pub dp_mwc: Option<f32>,
    /// GNU Backgammon's words: "Double, take", "No double, beaver"...
    pub proper_action: &'static str,
    /// "No double", "Double", "Double, take", "Double, pass", "Double,
    /// beaver".
    pub actual_action: &'static str,
    /// Equity the doubler's choice lost against the best (per unit cube),
    /// and the taker's; in match play also in match winning chance.
    pub doubler_error: Option<f32>,
    pub taker_error: Option<f32>,
    pub doubler_error_mwc: Option<f32>,
    pub taker_error_mwc: Option<f32>,
    /// GNU Backgammon's own analysis carried by the record (SGF `DA`):
    /// its evaluation (`2C` = 2-ply cubeful), win chance, and no-double and
    /// double/take values (match play: match winning chances; money:
    /// equity).
    pub gnubg_eval: String,
    pub gnubg_p_win: Option<f32>,
    pub gnubg_nd: Option<f32>,
    pub gnubg_dt: Option<f32>,
    /// eXtreme Gammon's own analysis carried by a `.xg` file: its level
    /// (`3-ply`, `XG Roller+`), win chance, no-double and double/take
    /// equities, and its errors of the double and the take, as XG stores
    /// them.
    pub xg_eval: String,
    pub xg_p_win: Option<f32>,
    pub xg_nd: Option<f32>,
    pub xg_dt: Option<f32>,
    pub xg_double_error: Option<f32>,
    pub xg_take_error: Option<f32>,
    /// Why the decision was not evaluated.
    pub reason: String,
}
}

typed_row! {
/// One recorded play, rated (`bg_plays.csv`, with `--plays`): all legal
/// plays of the roll scored cubefully for the mover, as GNU Backgammon's
/// `analyse match` scores them. Equities are normalised: per unit of the
/// cube in money play, `mwc2eq` of the match winning chance in match play.
#[derive(Debug, Default, Serialize)]
pub struct BgPlayRow {
    /// The game's key (`file_key#game`): never empty, the same in every
    /// report of the game's rows; join on it.
    pub game_key: String,
    pub source: String,
    pub member: String,
    pub game: u32,
    /// Count of plays so far in the game (1-based), as `bg_positions.csv`.
    pub play: u32,
    pub line: u32,
    pub player: usize,
    pub player_name: String,
    pub dice: String,
    /// Position ID (player on roll's side) and Match ID (with the dice)
    /// before the play.
    pub position_id: String,
    pub match_id: String,
    pub cube: u32,
    pub cube_owner: Option<usize>,
    /// Distinct legal plays of the roll; 0 when it cannot be played.
    pub choices: Option<u32>,
    /// The recorded play and the best, in gnubg's notation.
    pub played: String,
    pub best_play: String,
    pub equity: Option<f32>,
    pub best_equity: Option<f32>,
    /// best_equity − equity.
    pub loss: Option<f32>,
    /// The loss in match winning chance (match play).
    pub loss_mwc: Option<f32>,
    /// 1 = the best play.
    pub rank: Option<u32>,
    /// gnubg's mark of the loss: `doubtful`, `bad`, `very_bad`; empty
    /// unmarked.
    pub mark: &'static str,
    /// The luck of the roll (normalised) and in match winning chance.
    pub luck: Option<f32>,
    pub luck_mwc: Option<f32>,
    /// gnubg's mark of the luck: `very_lucky`, `lucky`, `unlucky`,
    /// `very_unlucky`; empty unmarked.
    pub luck_mark: &'static str,
    pub plies: u32,
    /// GNU Backgammon's own analysis where a gnubg SGF export carries it:
    /// its evaluation (`2C`), the played play's loss and the roll's luck.
    pub gnubg_eval: String,
    pub gnubg_loss: Option<f32>,
    pub gnubg_luck: Option<f32>,
    /// eXtreme Gammon's own analysis carried by a `.xg` file: its level,
    /// the played move's error and the roll's luck, as XG stores them
    /// (in single precision, as every equity of the reports: XG's
    /// doubles print `-0.15000000000000002` in full).
    pub xg_eval: String,
    pub xg_error: Option<f32>,
    pub xg_luck: Option<f32>,
    /// BGBlitz's own analysis carried by a `.bgf` file: the depth, the
    /// played move's equity and the best alternative's less it.
    pub bgblitz_eval: String,
    pub bgblitz_equity: Option<f32>,
    pub bgblitz_loss: Option<f32>,
    /// Why a value is empty.
    pub reason: String,
}
}

typed_row! {
/// A player's analysis statistics (`bg_stats.csv`, with `--plays`), as
/// GNU Backgammon's `show statistics` gives them, for one game
/// (`scope` `game`), one match (`match`) or everything the run read under
/// one player name (`player`: matched by `player_key`). Error and luck
/// totals are normalised equity (EMG); the `_unnormalised` ones are match
/// winning chance in match play and points in money play (in the
/// `player` scope, summed over the player's matches where all are match
/// play or all money, else empty; `match_length` there is the length
/// all share, if any). Rates are per thousand.
#[derive(Debug, Default, Serialize)]
pub struct BgStatsRow {
    pub scope: &'static str,
    /// The match file's key (`game` and `match` scopes), and the game's
    /// (`game` scope); empty otherwise.
    pub file_key: String,
    pub game_key: String,
    pub source: String,
    pub member: String,
    pub game: Option<u32>,
    pub player: Option<usize>,
    pub player_name: String,
    /// The name lower-cased with runs of white space made one space.
    pub player_key: String,
    pub match_length: Option<u32>,
    pub games: u32,
    pub matches: u32,
    pub total_moves: u32,
    pub unforced_moves: u32,
    /// Plays that could not be analysed (unrecorded, illegal, no
    /// evaluator); they count in `total_moves` only.
    pub moves_left_out: u32,
    pub moves_unmarked: u32,
    pub moves_doubtful: u32,
    pub moves_bad: u32,
    pub moves_very_bad: u32,
    pub checker_error: f32,
    pub checker_error_unnormalised: Option<f32>,
    /// gnubg's chequer-play error rate: mEMG per unforced move.
    pub checker_error_rate: Option<f32>,
    pub checker_rating: &'static str,
    pub cube_decisions: u32,
    pub close_cube_decisions: u32,
    pub doubles: u32,
    pub takes: u32,
    pub passes: u32,
    pub missed_doubles_below_cp: u32,
    pub missed_doubles_above_cp: u32,
    pub wrong_doubles_below_dp: u32,
    pub wrong_doubles_above_tg: u32,
    pub wrong_takes: u32,
    pub wrong_passes: u32,
    pub cube_error: f32,
    pub cube_error_unnormalised: Option<f32>,
    /// mEMG per close or actual cube decision.
    pub cube_error_rate: Option<f32>,
    pub cube_rating: &'static str,
    pub error: f32,
    pub error_unnormalised: Option<f32>,
    /// gnubg's overall error rate: mEMG per unforced move or close cube
    /// decision.
    pub error_rate: Option<f32>,
    /// Snowie's: the total error per thousand moves of both players.
    pub snowie_error_rate: Option<f32>,
    /// eXtreme Gammon's PR as gnubg's decisions count it: 500 × the mean
    /// error per unforced move or close cube decision.
    pub pr: Option<f32>,
    pub overall_rating: &'static str,
    pub rolls_very_lucky: u32,
    pub rolls_lucky: u32,
    pub rolls_unmarked: u32,
    pub rolls_unlucky: u32,
    pub rolls_very_unlucky: u32,
    pub luck: f32,
    pub luck_unnormalised: Option<f32>,
    /// mEMG per move.
    pub luck_rate: Option<f32>,
    /// gnubg's luck rating of the luck per move: Go to bed, Bad dice,
    /// man!, None, Good dice, man!, Go to Las Vegas.
    pub luck_rating: &'static str,
    /// The result (match winning chance won in match play, points in
    /// money play) and that result less the player's luck plus the
    /// opponent's.
    pub actual_result: Option<f32>,
    pub luck_adjusted_result: Option<f32>,
    /// gnubg's error-based absolute FIBS rating (match play): 2050 less
    /// the rating lost to chequer play and to cube errors.
    pub fibs_rating: Option<f32>,
    pub checker_rating_loss: Option<f32>,
    pub cube_rating_loss: Option<f32>,
    /// The rating difference the luck-adjusted result stands for (match
    /// play, `game` and `match` scopes).
    pub luck_based_fibs_rating_diff: Option<f32>,
    /// Money play of two games or more: points won per game, actual
    /// and luck-adjusted, each with the half-width of gnubg's 95%
    /// confidence interval.
    pub actual_advantage: Option<f32>,
    pub actual_advantage_ci: Option<f32>,
    pub luck_adjusted_advantage: Option<f32>,
    pub luck_adjusted_advantage_ci: Option<f32>,
}
}
