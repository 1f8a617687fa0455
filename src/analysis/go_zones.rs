//! The rows of `go_zones.csv`: one per zone of a position analysed by
//! [`crate::go::endgame::position`], and the zone totals of a run.

use crate::go::board::{Board, Color};
use crate::go::endgame::move_values::{rounded, ZoneType};
use crate::go::endgame::position::{
    line_text, signed, Given, Outcome, PositionZones, ZoneResult, ZoneSettings, ZoneStatus,
};
use crate::go::game::Game;
use crate::go::replay::sgf_point;
use crate::ingest::Origin;
use crate::report::keys::game_key;
use crate::report::{GoZoneRow, SummaryRow};

/// Everything a zone row needs besides the zone itself.
pub struct RowContext<'a> {
    pub origin: &'a Origin,
    pub game: u32,
    pub move_number: u32,
    pub board: &'a Board,
    pub base_count: Option<i32>,
    pub final_count: Option<i32>,
    pub timing: bool,
}

/// The columns every row of a position shares.
fn position_row(ctx: &RowContext<'_>) -> GoZoneRow {
    GoZoneRow {
        game_key: game_key(ctx.origin, ctx.game),
        source: ctx.origin.path.clone(),
        member: ctx.origin.member.clone().unwrap_or_default(),
        game: ctx.game,
        move_number: ctx.move_number,
        base_count: ctx.base_count,
        final_count: ctx.final_count,
        ..GoZoneRow::default()
    }
}

/// The `go_zones.csv` row of zone `i`, with the diagram's given sequences
/// that fall in it.
pub fn zone_row(ctx: &RowContext<'_>, i: usize, z: &ZoneResult, given: &[Given]) -> GoZoneRow {
    let b = ctx.board;
    let mut row = GoZoneRow {
        zone_id: i as u32 + 1,
        zone_points: z
            .zone
            .points
            .iter()
            .map(|&p| {
                let (x, y) = b.xy(p);
                sgf_point(x, y)
            })
            .collect::<Vec<_>>()
            .join(" "),
        size: z.zone.points.len() as u32,
        empty_points: z.zone.empties as u32,
        nodes: z.nodes,
        search_ms: ctx.timing.then(|| z.micros as f64 / 1000.0),
        mean_count: z.mean_count(),
        ..position_row(ctx)
    };
    match &z.outcome {
        Outcome::Territory(c) => {
            row.status = ZoneStatus::Territory;
            let n = signed(*c, z.zone.points.len() as i32);
            (row.black_count, row.white_count) = (Some(n), Some(n));
            row.zone_type = "settled";
        }
        Outcome::TooLarge => {
            row.status = ZoneStatus::NotSearched;
            row.reason = format!(
                "{} empty points in {} (limits: --zone-max-empty, --zone-max-points)",
                z.zone.empties,
                z.zone.points.len()
            );
        }
        Outcome::Budget(n) => {
            row.status = ZoneStatus::NotSearched;
            row.reason = format!("search stopped after {n} nodes (--zone-budget)");
        }
        Outcome::Solved {
            black,
            white,
            values,
        } => {
            row.status = ZoneStatus::Solved;
            row.black_count = Some(black.count);
            row.white_count = Some(white.count);
            row.black_sequence = z.line_text(b, &black.line, Color::Black);
            row.white_sequence = z.line_text(b, &white.line, Color::White);
            row.tally = Some(values.tally);
            row.difference = Some(values.difference);
            row.naive_sum = values.naive_sum;
            row.reason = values.empty_reasons(black.count, white.count);
            row.corrected_sum = Some(values.corrected_sum);
            row.modern_value = values.modern.map(rounded);
            row.zone_type = values.zone_type.name();
            row.reverse_sente = values.zone_type.reverse_sente();
        }
    }
    for g in given.iter().filter(|g| g.zone == i) {
        let text = line_text(b, &z.zone, &g.line, g.starter);
        let mut check = Vec::new();
        if let Some(p) = &g.problem {
            check.push(p.clone());
        } else if let Outcome::Solved { black, white, .. } = &z.outcome {
            let f = if g.starter == Color::Black {
                black
            } else {
                white
            };
            if f.count != g.count {
                check.push(format!("count {} by search", f.count));
            }
            let net = f.net_moves(g.starter == Color::Black);
            if net != g.net_moves {
                check.push(format!("net moves {net} by search"));
            }
        }
        let verdict = if check.is_empty() {
            "agrees".to_string()
        } else {
            format!("differs: {}", check.join("; "))
        };
        if g.starter == Color::Black {
            row.given_black_count = Some(g.count);
            row.given_black_sequence = text;
            row.given_black_check = verdict;
        } else {
            row.given_white_count = Some(g.count);
            row.given_white_sequence = text;
            row.given_white_check = verdict;
        }
    }
    row
}

impl PositionZones {
    /// The rows of `go_zones.csv`, one per zone.
    pub fn rows(&self, origin: &Origin, game: u32, timing: bool) -> Vec<GoZoneRow> {
        let ctx = RowContext {
            origin,
            game,
            move_number: self.move_number,
            board: &self.board,
            base_count: self.base_count,
            final_count: self.final_count,
            timing,
        };
        if self.zones.is_empty() {
            // Nothing left to play: one row carries the position's counts.
            return vec![GoZoneRow {
                status: ZoneStatus::NoZone,
                reason: "every point is a safe stone or settled territory".into(),
                ..position_row(&ctx)
            }];
        }
        self.zones
            .iter()
            .enumerate()
            .map(|(i, z)| zone_row(&ctx, i, z, &self.given))
            .collect()
    }
}

/// The `go_zones.csv` rows of a computed game (one row saying why, for a
/// game too short for the move asked for).
pub fn zone_rows(
    origin: &Origin,
    index: u32,
    g: &Game,
    zs: &ZoneSettings,
) -> (Vec<GoZoneRow>, ZoneStats) {
    let (mut rows, stats) = match g.zones(zs) {
        Ok(pz) => (pz.rows(origin, index, zs.timing), ZoneStats::of(&pz)),
        Err(reason) => {
            let row = GoZoneRow {
                game_key: game_key(origin, index),
                source: origin.path.clone(),
                member: origin.member.clone().unwrap_or_default(),
                game: index,
                status: ZoneStatus::NotSearched,
                reason,
                ..Default::default()
            };
            (vec![row], ZoneStats::counting(ZoneStatus::NotSearched))
        }
    };
    for row in &mut rows {
        row.game_id.clone_from(&g.game_id);
    }
    (rows, stats)
}

/// Zone totals of a run (`summary.csv`: `go_zone_status`, `go_zone_type`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ZoneStats {
    /// By [`ZoneStatus::ALL`].
    pub status: [u64; 4],
    /// Solved zones by type, in [`ZoneType::ALL`] order.
    pub types: [u64; 5],
}

impl ZoneStats {
    /// The totals of one position analysed.
    pub fn of(pz: &PositionZones) -> ZoneStats {
        if pz.zones.is_empty() {
            return ZoneStats::counting(ZoneStatus::NoZone);
        }
        let mut s = ZoneStats::default();
        for z in &pz.zones {
            s.status[z.outcome.status() as usize] += 1;
            if let Outcome::Solved { values, .. } = &z.outcome {
                if let Some(i) = ZoneType::ALL.iter().position(|t| *t == values.zone_type) {
                    s.types[i] += 1;
                }
            }
        }
        s
    }

    /// One row of `status`.
    fn counting(status: ZoneStatus) -> ZoneStats {
        let mut s = ZoneStats::default();
        s.status[status as usize] = 1;
        s
    }

    pub fn rows(&self) -> Vec<SummaryRow> {
        let row = |metric, name, zones| SummaryRow::new(metric, name, zones, "zones");
        let mut out: Vec<SummaryRow> = ZoneStatus::ALL
            .iter()
            .zip(self.status)
            .map(|(n, z)| row("go_zone_status", n.name(), z))
            .collect();
        out.extend(
            ZoneType::ALL
                .iter()
                .zip(self.types)
                .map(|(t, z)| row("go_zone_type", t.name(), z)),
        );
        out
    }
}

impl std::ops::AddAssign for ZoneStats {
    fn add_assign(&mut self, o: ZoneStats) {
        for (a, b) in self.status.iter_mut().zip(o.status) {
            *a += b;
        }
        for (a, b) in self.types.iter_mut().zip(o.types) {
            *a += b;
        }
    }
}
