//! Sinks receive formatted rows in input order and store them.
//!
//! [`ReportDir`] replaces a directory's reports all at once or not at all:
//! rows go to a temporary directory inside the output directory, and only
//! a run that completes renames its files over the old ones. A run that
//! fails, is interrupted or is killed leaves the previous reports as they
//! were; one lock file keeps two runs from writing to the same directory.

use super::html;
use super::parquet::ParquetTable;
use super::{Format, RowBuf, Table};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where rows go. `begin` and `finish` do nothing unless a sink needs them.
pub trait Sink {
    fn begin(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Stores one unit's rows; `Ok(false)` asks the run to stop: it reads
    /// no further, records nothing after these rows, and still ends with
    /// the summary and [`Sink::finish`] (the summary says it stopped).
    fn record(&mut self, rows: &RowBuf) -> io::Result<bool>;

    /// Makes what was recorded the sink's output.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Drops what was recorded: the run will not finish (it was
    /// interrupted, or writing failed). Nothing else is called after it.
    fn abort(&mut self) {}

    /// Appends `bytes` to one of the files beside the reports; a sink that
    /// keeps none ignores them.
    fn extra(&mut self, _file: Extra, _bytes: &[u8]) -> io::Result<()> {
        Ok(())
    }
}

/// The files a `--shard` run writes beside its reports, for `recount
/// merge` (their content is `commands::shard`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// What the shard is and what it was run on; its totals.
    ShardMeta,
    /// Each unit's place in the input and its rows in each report.
    ShardUnits,
}

impl Extra {
    pub const ALL: [Extra; 2] = [Extra::ShardMeta, Extra::ShardUnits];

    pub fn file_name(self) -> &'static str {
        match self {
            Extra::ShardMeta => "shard.json",
            Extra::ShardUnits => "shard_units.csv",
        }
    }
}

/// Keeps every row in memory (`recount check` reads a run's rows back),
/// and the shard files' bytes, as [`Extra::ALL`].
#[derive(Debug, Default)]
pub struct Memory {
    pub rows: RowBuf,
    pub extras: [Vec<u8>; Extra::ALL.len()],
}

impl Sink for Memory {
    fn record(&mut self, rows: &RowBuf) -> io::Result<bool> {
        self.rows.append(rows);
        Ok(true)
    }

    fn extra(&mut self, file: Extra, bytes: &[u8]) -> io::Result<()> {
        self.extras[file as usize].extend_from_slice(bytes);
        Ok(())
    }
}

/// The lock file in the output directory, held for the whole run.
pub const LOCK_FILE: &str = ".recount.lock";

/// Temporary directories in the output directory are named with this
/// prefix and the process id. Hidden (a leading dot) and without a report's
/// name, they are never mistaken for reports; one left by a killed run is
/// removed by the next run into the same directory.
pub const TMP_PREFIX: &str = ".recount-tmp-";

/// Another run holds the output directory's lock.
#[derive(Debug, Clone)]
pub struct Locked {
    pub dir: PathBuf,
}

impl fmt::Display for Locked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "another recount run is writing to {}; wait for it or choose another --out",
            self.dir.display()
        )
    }
}

impl std::error::Error for Locked {}

/// Which files a run writes: each table's CSV, its Parquet, or both; and
/// the page made from them ([`super::html`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formats {
    pub csv: bool,
    pub parquet: bool,
    pub html: bool,
}

impl Default for Formats {
    fn default() -> Self {
        Formats {
            csv: true,
            parquet: false,
            html: true,
        }
    }
}

impl Formats {
    /// The formats written, CSV first.
    pub fn written(self) -> impl Iterator<Item = Format> {
        [(Format::Csv, self.csv), (Format::Parquet, self.parquet)]
            .into_iter()
            .filter_map(|(f, on)| on.then_some(f))
    }
}

/// One file per [`Table`] and format in a directory, replaced atomically.
///
/// * [`ReportDir::create`] takes an exclusive advisory lock on
///   [`LOCK_FILE`] in the directory (held until the `CsvDir` is dropped;
///   the system releases it when the process dies, even by `SIGKILL`),
///   removes temporary directories left by dead runs (with the lock held,
///   no live run owns one), and opens each table's files in a new
///   [`TMP_PREFIX`]`<pid>` directory beside the reports, on the same
///   file system.
/// * [`Sink::finish`] flushes and syncs them, makes `report.html` from
///   them, then renames each over its report (`summary.csv` last), removes
///   the reports of a format this run does not write (they would be an
///   older run's), and removes the temporary directory.
/// * [`Sink::abort`], or dropping an unfinished `ReportDir` (an error, a
///   panic), removes the temporary directory: the old reports stay as they
///   were. After `SIGKILL` nothing runs: the temporary directory stays
///   until the next run. Only a kill during the renames themselves
///   (microseconds) can leave some reports new and some old.
pub struct ReportDir {
    dir: PathBuf,
    tmp: PathBuf,
    formats: Formats,
    /// Each table's CSV file (with CSV on), in [`Table::ALL`] order.
    csv: Vec<BufWriter<File>>,
    /// Each table's Parquet file (with Parquet on).
    parquet: Vec<ParquetTable>,
    /// The [`Extra`] files written, as [`Extra::ALL`].
    extras: [Option<BufWriter<File>>; Extra::ALL.len()],
    /// Holds the lock while open.
    _lock: File,
    /// The temporary directory is gone (renamed into place or removed).
    settled: bool,
}

impl ReportDir {
    /// Creates the directory (if needed), locks it, and creates every
    /// table's files in a temporary directory inside it.
    ///
    /// # Errors
    /// When the directory or a file cannot be created, or another run holds
    /// the lock: then the error is of kind [`io::ErrorKind::WouldBlock`]
    /// and wraps a [`Locked`].
    pub fn create(dir: &Path, formats: Formats) -> io::Result<ReportDir> {
        fs::create_dir_all(dir)?;
        let lock = lock(dir)?;
        remove_stale(dir);
        let tmp = dir.join(format!("{TMP_PREFIX}{}", std::process::id()));
        if tmp.exists() {
            fs::remove_dir_all(&tmp)?;
        }
        fs::create_dir(&tmp)?;
        let mut sink = ReportDir {
            dir: dir.to_path_buf(),
            tmp,
            formats,
            csv: Vec::new(),
            parquet: Vec::new(),
            extras: Default::default(),
            _lock: lock,
            settled: false,
        };
        // On an error here, dropping `sink` removes the temporary directory.
        for t in Table::ALL {
            if formats.csv {
                let f = File::create(sink.tmp.join(t.file(Format::Csv)))?;
                sink.csv.push(BufWriter::with_capacity(1 << 16, f));
            }
            if formats.parquet {
                let path = sink.tmp.join(t.file(Format::Parquet));
                sink.parquet.push(ParquetTable::create(&path, t)?);
            }
        }
        Ok(sink)
    }

    /// Where the reports go.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the reports are written until the run completes.
    pub fn tmp_dir(&self) -> &Path {
        &self.tmp
    }

    fn remove_tmp(&mut self) {
        if !self.settled {
            self.settled = true;
            self.csv.clear();
            self.parquet.clear();
            self.extras = Default::default();
            let _ = fs::remove_dir_all(&self.tmp);
        }
    }
}

/// Takes the lock of output directory `dir` (its [`LOCK_FILE`]), held
/// until the returned file is closed.
///
/// # Errors
/// When the lock file cannot be created, or another run holds the lock:
/// then the error is of kind [`io::ErrorKind::WouldBlock`] and wraps a
/// [`Locked`].
pub fn lock(dir: &Path) -> io::Result<File> {
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(LOCK_FILE))?;
    match try_lock(&lock) {
        Ok(()) => Ok(lock),
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            Locked {
                dir: dir.to_path_buf(),
            },
        )),
        // A file system without locks: run unlocked rather than not at all.
        Err(e) if e.raw_os_error() == Some(libc::ENOLCK) => Ok(lock),
        Err(e) if e.raw_os_error() == Some(libc::EOPNOTSUPP) => Ok(lock),
        Err(e) => Err(e),
    }
}

/// Takes an exclusive advisory lock on `file` without waiting (`flock`,
/// released when the file is closed or the process dies). `File::try_lock`
/// would do, from Rust 1.89 on; the crate still builds with 1.85.
fn try_lock(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if r == 0 {
        Ok(())
    } else {
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            Err(io::Error::from(io::ErrorKind::WouldBlock))
        } else {
            Err(e)
        }
    }
}

/// Removes the temporary directories of runs that died (the caller holds
/// the lock, so none is in use).
fn remove_stale(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(TMP_PREFIX) {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

impl Sink for ReportDir {
    fn begin(&mut self) -> io::Result<()> {
        for (t, f) in Table::ALL.iter().zip(&mut self.csv) {
            f.write_all(&t.header())?;
        }
        Ok(())
    }

    fn record(&mut self, rows: &RowBuf) -> io::Result<bool> {
        for (t, f) in Table::ALL.iter().zip(&mut self.csv) {
            f.write_all(rows.bytes(*t))?;
        }
        for (t, p) in Table::ALL.iter().zip(&mut self.parquet) {
            p.append(rows.bytes(*t))?;
        }
        Ok(true)
    }

    fn finish(&mut self) -> io::Result<()> {
        for f in &mut self.csv {
            f.flush()?;
            f.get_ref().sync_all()?;
        }
        self.csv.clear();
        for p in std::mem::take(&mut self.parquet) {
            p.finish()?;
        }
        let page = self.dir.join(html::FILE);
        if self.formats.html {
            html::write(&self.tmp, &self.tmp.join(html::FILE))?;
            fs::rename(self.tmp.join(html::FILE), &page)?;
        } else {
            remove_if_there(&page)?;
        }
        // A shard's files, or none: an older shard run's would be merged
        // with these reports.
        for (extra, file) in Extra::ALL.iter().zip(&mut self.extras) {
            let name = extra.file_name();
            match file.take() {
                Some(mut f) => {
                    f.flush()?;
                    f.get_ref().sync_all()?;
                    fs::rename(self.tmp.join(name), self.dir.join(name))?;
                }
                None => remove_if_there(&self.dir.join(name))?,
            }
        }
        // Table::ALL ends with the summary, and CSV comes last: a report
        // set whose summary.csv is new is complete.
        for format in [Format::Parquet, Format::Csv] {
            for t in Table::ALL {
                let name = t.file(format);
                if self.formats.written().any(|f| f == format) {
                    fs::rename(self.tmp.join(&name), self.dir.join(&name))?;
                } else {
                    remove_if_there(&self.dir.join(&name))?;
                }
            }
        }
        self.settled = true;
        let _ = fs::remove_dir(&self.tmp);
        if let Ok(d) = File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }

    fn abort(&mut self) {
        self.remove_tmp();
    }

    fn extra(&mut self, extra: Extra, bytes: &[u8]) -> io::Result<()> {
        let slot = &mut self.extras[extra as usize];
        if slot.is_none() {
            let f = File::create(self.tmp.join(extra.file_name()))?;
            *slot = Some(BufWriter::with_capacity(1 << 16, f));
        }
        slot.as_mut().expect("just opened").write_all(bytes)
    }
}

/// Removes a file an older run wrote, if it is there.
fn remove_if_there(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

impl Drop for ReportDir {
    fn drop(&mut self) {
        self.remove_tmp();
    }
}
