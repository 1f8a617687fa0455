//! One entry of a run's input: a file on disk ([`super::archive`]) or bytes
//! held in memory ([`super::memory`]), named by its origin, read only when
//! it is in the run's part.

use crate::ingest::archive::{fail, read_file};
use crate::ingest::memory::read_bytes;
use crate::ingest::{Entry, Origin, Progress, ReadLimits, Shard, Stage, Unit};
use crate::text::escape_path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Streams every source of one entry, calling `emit` for each unit in order.
/// `emit` returns `false` to stop. With a `shard`, the sources of other
/// parts are opened and their first bytes read (an archive is read
/// through), but offer no units.
pub fn read_entry(
    entry: &Entry,
    limits: ReadLimits,
    shard: Option<Shard>,
    progress: &Arc<Progress>,
    emit: &mut dyn FnMut(Unit) -> bool,
) {
    progress.streams.fetch_add(1, Ordering::Relaxed);
    let origin = Arc::new(Origin {
        path: escape_path(&entry.path),
        member: None,
    });
    if shard.is_some_and(|s| !s.owns_file(&origin.path)) {
        return;
    }
    if entry.skip {
        if shard.is_none_or(|s| s.owns(&origin)) {
            progress.skipped.fetch_add(1, Ordering::Relaxed);
        }
        return;
    }
    if let Some(problem) = &entry.problem {
        emit(fail(&origin, Stage::Discover, problem.clone()));
        return;
    }
    match &entry.data {
        Some(data) => read_bytes(entry, data, origin, limits, shard, progress, emit),
        None => read_file(entry, origin, limits, shard, progress, emit),
    }
}
