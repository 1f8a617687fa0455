//! `recount report OUT_DIR`: `report.html` made again from the reports a
//! run left in OUT_DIR (CSV or Parquet), without reading the archives: to
//! see an older run's page, or one written with `--no-html`. The page is
//! written beside the reports and renamed into place, with OUT_DIR's lock
//! held, so a run writing there meanwhile is told to wait.

use crate::report::read::find;
use crate::report::sink::{lock, Locked};
use crate::report::{html, Table};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why the page cannot be made (exit status 2).
#[derive(Debug)]
pub enum ReportError {
    /// The directory holds no run's reports.
    NotARun(PathBuf),
    /// A run is writing there.
    Locked(Locked),
    /// A report cannot be read, or the page cannot be written.
    Io {
        dir: PathBuf,
        source: std::io::Error,
    },
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::NotARun(d) if !d.exists() => write!(
                f,
                "'{}' does not exist; give a directory written by recount run --out",
                d.display()
            ),
            ReportError::NotARun(d) => write!(
                f,
                "'{}' holds no reports of a run (no summary.csv or summary.parquet); give a directory written by recount run --out",
                d.display()
            ),
            ReportError::Locked(e) => e.fmt(f),
            ReportError::Io { dir, source } => {
                write!(f, "cannot make the page of '{}': {source}", dir.display())
            }
        }
    }
}

impl std::error::Error for ReportError {}

/// Writes `dir/report.html` from the reports in `dir`; returns its path
/// and what the page reads that the directory lacks (a report, or a
/// column as `file: column`).
///
/// # Errors
/// No run's reports in `dir`, another run holding its lock, a report that
/// cannot be read, a page that cannot be written.
pub fn rebuild(dir: &Path) -> Result<(PathBuf, Vec<String>), ReportError> {
    if !dir.is_dir() || find(dir, Table::Summary).is_none() {
        return Err(ReportError::NotARun(dir.to_path_buf()));
    }
    let io = |source: std::io::Error| ReportError::Io {
        dir: dir.to_path_buf(),
        source,
    };
    let _lock = lock(dir).map_err(|e| {
        match e.get_ref().and_then(|inner| inner.downcast_ref::<Locked>()) {
            Some(l) => ReportError::Locked(l.clone()),
            None => io(e),
        }
    })?;
    let page = dir.join(html::FILE);
    let tmp = dir.join(format!(".{}.tmp-{}", html::FILE, std::process::id()));
    let written = html::write(dir, &tmp).and_then(|missing| {
        std::fs::rename(&tmp, &page)?;
        Ok(missing)
    });
    match written {
        Ok(missing) => Ok((page, missing)),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(io(e))
        }
    }
}
