//! The Python package (`python/`) and the Spark recipe (`examples/spark/`)
//! against the command line's reports: `recount.run` over paths and over
//! the same files as bytes gives every report, row for row and typed as
//! the Parquet reports; Spark in local mode (`local[2]`), both the
//! `mapInArrow` and the `RDD.pipe` variant, writes each report's rows
//! (sorted by key) as the command line does, totals included; and
//! `pip install ./python` gives a package that runs. The checks are
//! `tests/tests/python_reports.py`.
//!
//! Needs `.venv-python/` and Java (`bash scripts/get-python-tools.sh`);
//! the package is built into the venv here (`maturin develop`, so it is
//! the code under test). Without the tools the tests say so and pass,
//! unless `RECOUNT_TEST_TOOLS=1` (set by `.ci/run`), where they fail.

use super::util::{bin, repo, stderr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The venv's interpreter with the package built into it, or why not.
fn python() -> Option<PathBuf> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let venv = repo().join(".venv-python");
        let maturin = venv.join("bin/maturin");
        let java = Command::new("java").arg("-version").output();
        if !maturin.is_file() || java.is_err() {
            return Err("the Python tools or Java are not installed \
                        (bash scripts/get-python-tools.sh installs them)"
                .into());
        }
        // The same target directory as this build, so recount's crates are
        // not built again.
        let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
        let o = Command::new(&maturin)
            .args(["develop", "-q", "-m"])
            .arg(repo().join("python/Cargo.toml"))
            .env("VIRTUAL_ENV", &venv)
            .env("CARGO_TARGET_DIR", target)
            .output()
            .expect("maturin runs");
        assert!(o.status.success(), "maturin develop: {}", stderr(&o));
        Ok(venv.join("bin/python"))
    });
    match built {
        Ok(p) => Some(p.clone()),
        Err(why) => {
            assert!(std::env::var_os("RECOUNT_TEST_TOOLS").is_none(), "{why}");
            recount::note_skipped_test(why);
            None
        }
    }
}

/// Runs a check of `python_reports.py`; it prints `ok` or what differs.
fn check(python: &Path, args: &[&std::ffi::OsStr]) {
    let o = Command::new(python)
        .arg(repo().join("tests/tests/python_reports.py"))
        .args(args)
        .current_dir(repo())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && said.trim() == "ok",
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The files of the fixtures' folders `dirs`, sorted, as the command line
/// names them.
fn files(dirs: &[&str]) -> Vec<String> {
    fn walk(p: &Path, out: &mut Vec<String>) {
        if p.is_dir() {
            for e in std::fs::read_dir(p).unwrap() {
                walk(&e.unwrap().path(), out);
            }
        } else {
            out.push(p.to_string_lossy().into_owned());
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        walk(&repo().join(d), &mut out);
    }
    out.sort();
    out
}

/// A `--format parquet` run of the command line over `paths`.
fn cli_run(paths: &[String], options: &[&str], out: &Path) {
    let o = bin()
        .args(paths)
        .args(options)
        .args(["--format", "parquet", "--no-html", "-q", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn the_python_package_gives_the_command_lines_reports() {
    let Some(python) = python() else { return };
    // Go, backgammon and broken files, an archive; with zones and plays.
    let paths = files(&["fixtures/go/kgs", "fixtures/bg/real", "fixtures/malformed"]);
    let options = ["--zones-from-end", "10", "--plays", "--all-cube-decisions"];
    let tmp = tempfile::tempdir().unwrap();
    cli_run(&paths, &options, tmp.path());
    let json = format!("[{}]", options.map(|o| format!("\"{o}\"")).join(","));
    let mut args: Vec<&std::ffi::OsStr> = vec!["package".as_ref(), tmp.path().as_os_str()];
    args.push(json.as_ref());
    args.extend(paths.iter().map(std::ffi::OsStr::new));
    check(&python, &args);
}

#[test]
fn spark_writes_the_command_lines_reports_with_both_variants() {
    let Some(python) = python() else { return };
    let mut paths = files(&[
        "fixtures/go/kgs",
        "fixtures/go/scoring",
        "fixtures/bg/real",
        "fixtures/malformed",
    ]);
    let tmp = tempfile::tempdir().unwrap();
    // A copy of a game and of a match under other names: duplicates
    // across tasks.
    let copy = tmp.path().join("copy.sgf");
    std::fs::copy(&paths[0], &copy).unwrap();
    paths.push(copy.to_string_lossy().into_owned());
    let a_match = paths.iter().find(|p| p.contains("bg/real/")).unwrap();
    let copy = tmp.path().join("copy-match.txt");
    std::fs::copy(a_match, &copy).unwrap();
    paths.push(copy.to_string_lossy().into_owned());
    let cli = tmp.path().join("cli");
    // With --plays: bg_stats has players' rows, totalled over the tasks.
    cli_run(&paths, &["--plays"], &cli);
    let list = tmp.path().join("paths.txt");
    std::fs::write(&list, paths.join("\n")).unwrap();
    let at_list = format!("@{}", list.display());
    // mapInArrow's first task fails once: Spark (two attempts a task in
    // local[2,2]) runs it again, and the rows are the same.
    let marker = tmp.path().join("failed-once");
    for variant in ["arrow", "pipe"] {
        let out = tmp.path().join(variant);
        let mut c = Command::new(&python);
        c.arg(repo().join("examples/spark/recount_spark.py"))
            .args(["--master", "local[2,2]", "--out"])
            .arg(&out)
            .arg(&at_list)
            .arg("--option=--plays")
            .current_dir(tmp.path());
        if variant == "pipe" {
            c.arg("--pipe").arg(env!("CARGO_BIN_EXE_recount"));
        } else {
            c.env("RECOUNT_SPARK_FAIL_ONCE", &marker);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{variant}: {}", stderr(&o));
        if variant == "arrow" {
            assert!(marker.exists(), "no task failed");
        }
        check(
            &python,
            &["spark".as_ref(), cli.as_os_str(), out.as_os_str()],
        );
    }
}

#[test]
fn pip_installs_the_package_from_the_repo() {
    let Some(python) = python() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let site = tmp.path().join("site");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
    let o = Command::new(&python)
        .args(["-m", "pip", "install", "-q", "--no-deps", "--target"])
        .arg(&site)
        .arg(repo().join("python"))
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    assert!(o.status.success(), "pip install ./python: {}", stderr(&o));
    // The installed copy, not the venv's (pyarrow is the venv's). The
    // process leaves without the interpreter's teardown: once, under a
    // loaded CI machine, pyarrow's threads aborted it there ("terminate
    // called without an active exception"), which is not what this tests.
    let script = "import os, recount, sys\n\
                  assert recount.__file__.startswith(sys.argv[1]), recount.__file__\n\
                  t = recount.run(paths=[sys.argv[2]])\n\
                  print(t['go_games'].num_rows, flush=True)\n\
                  os._exit(0)";
    let o = Command::new(&python)
        .args(["-c", script])
        .arg(&site)
        .arg(repo().join("fixtures/go/kgs/2000-10-16-1.sgf"))
        .env("PYTHONPATH", &site)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{said}{}", stderr(&o));
    assert_eq!(said.trim(), "1");
}
