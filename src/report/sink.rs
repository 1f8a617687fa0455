//! Sinks receive formatted rows in input order and store them.

use super::{RowBuf, Table};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where rows go. `begin` and `finish` do nothing unless a sink needs them.
pub trait Sink {
    fn begin(&mut self) -> io::Result<()> {
        Ok(())
    }

    /// Stores one unit's rows; `Ok(false)` asks the run to stop.
    fn record(&mut self, rows: &RowBuf) -> io::Result<bool>;

    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// One CSV file per [`Table`] in a directory.
pub struct CsvDir {
    dir: PathBuf,
    files: Vec<BufWriter<File>>,
}

impl CsvDir {
    /// Creates the directory (if needed) and every table's file.
    ///
    /// # Errors
    /// When the directory or a file cannot be created.
    pub fn create(dir: &Path) -> io::Result<CsvDir> {
        fs::create_dir_all(dir)?;
        let files = Table::ALL
            .iter()
            .map(|t| {
                File::create(dir.join(t.file_name())).map(|f| BufWriter::with_capacity(1 << 16, f))
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(CsvDir {
            dir: dir.to_path_buf(),
            files,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Sink for CsvDir {
    fn begin(&mut self) -> io::Result<()> {
        for (t, f) in Table::ALL.iter().zip(&mut self.files) {
            f.write_all(&t.header())?;
        }
        Ok(())
    }

    fn record(&mut self, rows: &RowBuf) -> io::Result<bool> {
        for (t, f) in Table::ALL.iter().zip(&mut self.files) {
            f.write_all(rows.bytes(*t))?;
        }
        Ok(true)
    }

    fn finish(&mut self) -> io::Result<()> {
        for f in &mut self.files {
            f.flush()?;
        }
        Ok(())
    }
}
