//! Archives, stdin lists, determinism, bad input and exit codes.

use super::util::*;
use std::fs;
use std::io::Write;
use std::path::Path;

fn kgs_files() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = fs::read_dir(repo().join("fixtures/go/kgs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn write_tar(path: &Path, gz: bool) {
    let file = fs::File::create(path).unwrap();
    let w: Box<dyn Write> = if gz {
        Box::new(flate2::write::GzEncoder::new(
            file,
            flate2::Compression::default(),
        ))
    } else {
        Box::new(file)
    };
    let mut b = tar::Builder::new(w);
    for f in kgs_files() {
        b.append_path_with_name(
            &f,
            format!("KGS/{}", f.file_name().unwrap().to_str().unwrap()),
        )
        .unwrap();
    }
    let mut readme = tar::Header::new_gnu();
    readme.set_size(10);
    readme.set_mode(0o644);
    b.append_data(&mut readme, "KGS/README", &b"not a game"[..])
        .unwrap();
    b.into_inner().unwrap().flush().unwrap();
}

fn write_zip(path: &Path) {
    let mut z = zip::ZipWriter::new(fs::File::create(path).unwrap());
    for f in kgs_files() {
        let name = format!("KGS/{}", f.file_name().unwrap().to_str().unwrap());
        z.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(&fs::read(&f).unwrap()).unwrap();
    }
    z.finish().unwrap();
}

/// Rows without the origin columns, to compare runs over different containers.
fn game_facts(out: &Path) -> Vec<String> {
    rows(out, "go_games.csv")
        .into_iter()
        .map(|r| {
            format!(
                "{} {} {} {}",
                r["moves"], r["captures_by_black"], r["captures_by_white"], r["final_position"]
            )
        })
        .collect()
}

#[test]
fn tar_tar_gz_and_zip_read_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let (tgz, tar, zip) = (
        tmp.path().join("a.tar.gz"),
        tmp.path().join("b.tar"),
        tmp.path().join("c.zip"),
    );
    write_tar(&tgz, true);
    write_tar(&tar, false);
    write_zip(&zip);
    let plain = tmp.path().join("plain");
    assert!(run(&["fixtures/go/kgs"], &plain, "").status.success());
    let n = kgs_files().len();
    for a in [&tgz, &tar, &zip] {
        let out = tmp
            .path()
            .join(format!("out-{}", a.file_name().unwrap().to_str().unwrap()));
        let o = run(&[a.to_str().unwrap()], &out, "");
        assert!(o.status.success(), "{}", stderr(&o));
        let r = rows(&out, "go_games.csv");
        assert_eq!(r.len(), n);
        assert!(
            r[0]["member"].starts_with("KGS/")
                && r[0]["source"].ends_with(a.file_name().unwrap().to_str().unwrap())
        );
        assert_eq!(game_facts(&out), game_facts(&plain));
        assert_eq!(rows(&out, "errors.csv").len(), 0);
    }
}

#[test]
fn same_bytes_for_any_thread_count_and_argument_order() {
    let tmp = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    // Every fixture file, found here independently of recount's walk.
    let mut files: Vec<String> = Vec::new();
    let mut stack = vec![repo().join("fixtures/go")];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p.strip_prefix(repo()).unwrap().display().to_string());
            }
        }
    }
    files.sort();
    let mut dirs: Vec<String> = fs::read_dir(repo().join("fixtures/go"))
        .unwrap()
        .map(|e| format!("fixtures/go/{}", e.unwrap().file_name().to_str().unwrap()))
        .collect();
    dirs.sort();
    let reversed: Vec<String> = dirs.iter().rev().cloned().collect();
    let runs: Vec<(Vec<String>, &str)> = vec![
        (vec!["fixtures/go".into()], "1"),
        (dirs, "2"),
        (reversed, "7"),
        (vec!["-".into()], "3"),
    ];
    // The stdin list names every file, in reverse order.
    let listed: Vec<&str> = files.iter().rev().map(String::as_str).collect();
    for (i, (paths, threads)) in runs.iter().enumerate() {
        let mut args: Vec<&str> = paths.iter().map(String::as_str).collect();
        args.extend(["-j", threads]);
        let out = tmp.path().join(format!("o{i}"));
        let o = run(&args, &out, &listed.join("\n"));
        assert!(o.status.success(), "{}", stderr(&o));
        outputs.push((
            read(&out, "go_games.csv"),
            read(&out, "errors.csv"),
            read(&out, "go_scores.csv"),
            read(&out, "summary.csv"),
        ));
    }
    assert!(outputs[0].0.lines().count() > 40);
    for o in &outputs[1..] {
        assert!(o == &outputs[0]);
    }
}

/// Every kind of bad input becomes an error row; the good game still comes
/// through, the run exits 0, and `--strict` turns the error rows into exit 1.
#[test]
fn bad_inputs_become_error_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    let w = |name: &str, data: &[u8]| fs::write(dir.join(name), data).unwrap();
    w("a-good.sgf", b"(;GM[1]SZ[9];B[ee];W[cc])");
    w("b-empty.sgf", b"");
    w(
        "c-garbage.sgf",
        &(0..4000u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect::<Vec<_>>(),
    );
    w("d-truncated.sgf", b"(;GM[1]SZ[19];B[pd];W[dp];B[p");
    w("e-unbalanced.sgf", b"(;GM[1]SZ[19];B[pd](;W[dp];B[dd])");
    w("f-not-a-node.sgf", b"(this is not sgf)");
    w("g-backgammon.sgf", b"(;FF[4]GM[6]CA[UTF-8];W[31hefe])");
    w(
        "h-match.mat",
        b" 7 point match\n\n Game 1\n charlot1 : 0   charlot2 : 0\n",
    );
    w("i-bad-size.sgf", b"(;GM[1]SZ[99];B[aa])");
    // A 100 MB file: one game tree whose comment alone is 100 MB.
    {
        let mut f = fs::File::create(dir.join("j-huge.sgf")).unwrap();
        f.write_all(b"(;GM[1]SZ[19]C[").unwrap();
        let block = vec![b'x'; 1 << 20];
        for _ in 0..100 {
            f.write_all(&block).unwrap();
        }
        f.write_all(b"];B[aa])").unwrap();
    }
    // A tar.gz whose second half is garbage.
    let tgz = dir.join("k-corrupt.tar.gz");
    write_tar(&tgz, true);
    let mut bytes = fs::read(&tgz).unwrap();
    let half = bytes.len() / 2;
    for b in &mut bytes[half..] {
        *b ^= 0x5a;
    }
    fs::write(&tgz, bytes).unwrap();
    w("l-not-gzip.tar.gz", b"this is not gzip");
    w("m-truncated-bg.sgf", b"(;FF[4]GM[6]CA[UTF-8];W[31he");
    // UTF-16, as some Windows editors save: said so, not "binary data".
    let utf16: Vec<u8> = "\u{feff}(;GM[1]SZ[9]PB[Müller];B[ee])"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    w("n-utf16.sgf", &utf16);

    let out = tmp.path().join("out");
    let o = run(&[dir.to_str().unwrap()], &out, "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let games = rows(&out, "go_games.csv");
    let errors = rows(&out, "errors.csv");
    let reason_of = |name: &str| -> Vec<String> {
        errors
            .iter()
            .filter(|r| r["source"].ends_with(name))
            .map(|r| format!("{}: {}", r["stage"], r["reason"]))
            .collect()
    };
    assert_eq!(
        games
            .iter()
            .filter(|r| r["source"].ends_with("a-good.sgf"))
            .count(),
        1
    );
    assert_eq!(reason_of("b-empty.sgf"), ["read: empty file (0 bytes)"]);
    assert!(
        reason_of("c-garbage.sgf")[0].contains("not SGF")
            || reason_of("c-garbage.sgf")[0].contains("truncated"),
        "{:?}",
        reason_of("c-garbage.sgf")
    );
    assert!(reason_of("d-truncated.sgf")[0].contains("'[' is never closed"));
    assert!(reason_of("e-unbalanced.sgf")[0].contains("'(' is never closed"));
    assert!(reason_of("f-not-a-node.sgf")[0].contains("not followed by a node"));
    // Backgammon files are read as matches: a game each, unfinished.
    let bg = rows(&out, "bg_games.csv");
    for name in ["g-backgammon.sgf", "h-match.mat"] {
        assert!(reason_of(name).is_empty(), "{name}: {:?}", reason_of(name));
        let g: Vec<_> = bg.iter().filter(|r| r["source"].ends_with(name)).collect();
        assert_eq!(g.len(), 1, "{name}");
        assert_eq!(g[0]["ending"], "unfinished", "{name}");
    }
    assert!(
        reason_of("m-truncated-bg.sgf")[0].contains("truncated"),
        "{:?}",
        reason_of("m-truncated-bg.sgf")
    );
    assert!(reason_of("i-bad-size.sgf")[0].contains("SZ[99]"));
    assert!(reason_of("n-utf16.sgf")[0].starts_with("parse: UTF-16 or UTF-32 text"));
    assert!(
        reason_of("j-huge.sgf")[0].contains("over the 16.0 MiB limit"),
        "{:?}",
        reason_of("j-huge.sgf")
    );
    let corrupt = reason_of("k-corrupt.tar.gz");
    assert!(
        !corrupt.is_empty()
            && corrupt
                .iter()
                .any(|r| r.contains("corrupt") || r.contains("read error")),
        "{corrupt:?}"
    );
    // Members before the damage were read.
    assert!(games
        .iter()
        .any(|r| r["source"].ends_with("k-corrupt.tar.gz")));
    assert!(reason_of("l-not-gzip.tar.gz")[0]
        .starts_with("archive: corrupt or unreadable tar archive before its first member"));
    // Every file is accounted for.
    for name in [
        "a-good",
        "b-empty",
        "c-garbage",
        "d-trunc",
        "e-unbal",
        "f-not",
        "g-back",
        "h-match",
        "i-bad",
        "j-huge",
        "k-corrupt",
        "l-not",
        "m-trunc",
    ] {
        assert!(
            games
                .iter()
                .chain(&errors)
                .chain(&bg)
                .any(|r| r["source"].contains(name)),
            "{name} has no row"
        );
    }
    let summary = stderr(&o);
    assert!(
        summary.starts_with("recount: ")
            && summary.contains(&format!("{} error rows", errors.len())),
        "{summary}"
    );

    let o = run(
        &[dir.to_str().unwrap(), "--strict", "--quiet"],
        &tmp.path().join("out2"),
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "");
    let o = run(
        &[dir.join("a-good.sgf").to_str().unwrap(), "--strict"],
        &tmp.path().join("out3"),
        "",
    );
    assert_eq!(o.status.code(), Some(0));
}

/// An unreadable file is an error row. As root, permissions do not stop
/// reads, so the run drops to user `nobody` with `setpriv`.
#[test]
fn unreadable_file_is_an_error_row() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let locked = tmp.path().join("locked.sgf");
    fs::write(&locked, b"(;GM[1];B[aa])").unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let out = tmp.path().join("out");
    let is_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .unwrap()
        .stdout
        == b"0\n";
    let o = if is_root {
        std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_recount"))
            .arg(&locked)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("setpriv (util-linux) is needed to test permissions as root")
    } else {
        run(&[locked.to_str().unwrap()], &out, "")
    };
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let e = rows(&out, "errors.csv");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0]["stage"], "read");
    assert!(
        e[0]["reason"].contains("Permission denied"),
        "{}",
        e[0]["reason"]
    );
}

#[test]
fn run_that_cannot_happen_exits_2_with_advice() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["no/such/path.sgf"], tmp.path(), "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read 'no/such/path.sgf'")
            && stderr(&o).contains("check the path")
    );
    let file = tmp.path().join("file");
    fs::write(&file, "x").unwrap();
    let o = run(&["fixtures/go/kgs"], &file.join("out"), "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("choose another --out"),
        "{}",
        stderr(&o)
    );
    let o = run(&["fixtures/go/kgs"], &file, "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("it is a file, not a directory; choose another --out"),
        "{}",
        stderr(&o)
    );
    let o = run(&["fixtures/go/kgs", "--rules", "klingon"], tmp.path(), "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown rules 'klingon'"));
    for (args, says) in [
        (
            &["--max-games", "0"][..],
            "must be at least 1 (leave --max-games out to read everything)",
        ),
        (&["--no-scores", "--agrees-if"], "leave out one of them"),
        (
            &["--met", "nowhere.xml"],
            "or leave out --met for the built-in",
        ),
    ] {
        let mut all = vec!["fixtures/go/kgs"];
        all.extend_from_slice(args);
        let o = run(&all, tmp.path(), "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn stdin_list_reports_missing_paths_as_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(
        &["-"],
        tmp.path(),
        "fixtures/go/kgs/2001-01-03-1.sgf\nmissing.sgf\n",
    );
    assert!(o.status.success());
    assert_eq!(rows(tmp.path(), "go_games.csv").len(), 1);
    let e = rows(tmp.path(), "errors.csv");
    assert_eq!(
        (e[0]["source"].as_str(), e[0]["stage"].as_str()),
        ("missing.sgf", "discover")
    );
}

#[test]
fn nothing_to_read_is_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let warning = "hold no game file or archive to read";
    for stdin in ["", "\n\n"] {
        let o = run(&["-"], tmp.path(), stdin);
        assert!(
            o.status.success() && stderr(&o).contains(warning),
            "{}",
            stderr(&o)
        );
        assert_eq!(rows(tmp.path(), "go_games.csv").len(), 0);
    }
    let o = run(&["-"], tmp.path(), "fixtures/go/kgs/2001-01-03-1.sgf\n");
    assert!(!stderr(&o).contains(warning), "{}", stderr(&o));
    // A directory of other files: each counted as skipped, still a warning.
    let dir = tmp.path().join("docs");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("README"), "about the games").unwrap();
    let out = tmp.path().join("out");
    let o = run(&[dir.to_str().unwrap()], &out, "");
    assert!(o.status.success() && stderr(&o).contains(warning));
    assert!(
        stderr(&o).contains("(1 other file skipped)"),
        "{}",
        stderr(&o)
    );
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains("read,files_skipped,1,"), "{summary}");
}

#[test]
fn no_scores_replays_only() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["fixtures/go/kgs", "--no-scores"], tmp.path(), "");
    assert!(o.status.success());
    assert_eq!(rows(tmp.path(), "go_games.csv").len(), kgs_files().len());
    assert_eq!(rows(tmp.path(), "go_scores.csv").len(), 0);
    assert!(read(tmp.path(), "go_scores.csv").starts_with("game_key,source,member,game,"));
}

/// Runs recount on `files` (written into a temporary directory) with
/// `args`, checks it succeeded and returns the directory and the reports.
pub(super) fn run_on(
    files: &[(&str, &[u8])],
    args: &[&str],
) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    for (name, bytes) in files {
        fs::write(dir.join(name), bytes).unwrap();
    }
    let out = tmp.path().join("out");
    let mut all: Vec<&str> = vec![dir.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = run(&all, &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    (tmp, out)
}

#[test]
fn check_sgf_survives_deep_nesting() {
    let n = 100_000;
    let nested = format!("(;GM[1]{}{})", "(;B[aa]".repeat(n), ")".repeat(n));
    let long = format!("(;GM[1]{})", ";B[aa]".repeat(n));
    let (_tmp, out) = run_on(
        &[
            ("nested.sgf", nested.as_bytes()),
            ("long.sgf", long.as_bytes()),
        ],
        &["--check-sgf", "--no-scores"],
    );
    let games = rows(&out, "go_games.csv");
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|r| r["sgf_check"] == "ok"), "{games:?}");
}

/// `(source file name, member, game, stage or "game", reason or notes)` of
/// every row of `go_games.csv` and `errors.csv`, sorted.
pub(super) fn all_rows(out: &Path) -> Vec<String> {
    let name = |s: &str| s.rsplit('/').next().unwrap().to_string();
    let mut v: Vec<String> = rows(out, "go_games.csv")
        .into_iter()
        .map(|r| {
            format!(
                "{} {} {} game {}",
                name(&r["source"]),
                r["member"],
                r["game"],
                r["notes"]
            )
        })
        .chain(rows(out, "errors.csv").into_iter().map(|r| {
            format!(
                "{} {} {} {} {}",
                name(&r["source"]),
                r["member"],
                r["game"],
                r["stage"],
                r["reason"]
            )
        }))
        .collect();
    v.sort();
    v
}

#[test]
fn malformed_fixtures_each_end_as_their_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let o = run(&["fixtures/malformed", "--no-scores"], tmp.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let got = all_rows(tmp.path());
    let want = [
        "collection-go-bg-gm3.sgf  1 game ",
        "collection-go-bg-gm3.sgf  2 unsupported a backgammon game (GM[6]) inside a Go collection: not read",
        "collection-go-bg-gm3.sgf  3 unsupported GM[3] is not Go (GM[1]); skipped",
        "empty-size-infinite-margin.sgf  1 game SZ[] is empty: read as 19; RE[B+1e400]: the margin is not a finite number; no margin read",
        "empty.zip   archive archive holds no files",
        "go-comment-gm6.sgf  1 game 1 stray characters outside values skipped",
        "header-only.mat   parse a '5 point match' line but no 'Game N' line after it: no game in the match file",
        "setup-dup-off-board.sgf  1 game 1 setup points off the board ignored; HA[2] but 1 black setup stones before the first move",
    ];
    assert_eq!(got, want);
}

#[cfg(unix)]
#[test]
fn fifos_are_skipped_in_directories_and_read_when_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    fs::copy(
        repo().join("fixtures/malformed/go-comment-gm6.sgf"),
        dir.join("a.sgf"),
    )
    .unwrap();
    fs::write(dir.join("README"), "not read").unwrap();
    let fifo = dir.join("p.sgf");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let out = tmp.path().join("out");
    let o = run(&[dir.to_str().unwrap(), "--no-scores"], &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows(&out, "go_games.csv").len(), 1);
    assert!(rows(&out, "errors.csv").is_empty());
    assert!(
        stderr(&o).contains("2 other files skipped"),
        "{}",
        stderr(&o)
    );
    // Named, it is read: a pipe the user gives.
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(fifo, "(;SZ[9];B[ee];W[cc])").unwrap())
    };
    let out = tmp.path().join("out2");
    let o = run(&[fifo.to_str().unwrap(), "--no-scores"], &out, "");
    writer.join().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows(&out, "go_games.csv").len(), 1);
    assert!(rows(&out, "errors.csv").is_empty());
    // `zones` reads a pipe once: opened a second time, nobody would write.
    let game = "(;SZ[9];B[ee];W[cc];B[gc];W[eg])";
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(fifo, game).unwrap())
    };
    let mut child = bin()
        .args(["zones", fifo.to_str().unwrap(), "--at", "4"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            // Unblock the writer, should recount never have opened the pipe.
            let _ = fs::read(&fifo);
            panic!("recount zones on a pipe did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    writer.join().unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let plain = tmp.path().join("g.sgf");
    fs::write(&plain, game).unwrap();
    let want = stdout_of(&["zones", plain.to_str().unwrap(), "--at", "4"]);
    let body = |t: &str| t.split_once('\n').map(|(_, b)| b.to_string());
    assert_eq!(body(&String::from_utf8(o.stdout).unwrap()), body(&want));
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn archive_members_links_gzip_and_truncation() {
    let game = fs::read(repo().join("fixtures/malformed/go-comment-gm6.sgf")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    // A tar: a game, a hard link and a symbolic link to it, a gzipped game
    // by name and one by its magic bytes.
    let mut b = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(game.len() as u64);
    h.set_mode(0o644);
    b.append_data(&mut h, "g/a.sgf", &game[..]).unwrap();
    for (kind, name) in [
        (tar::EntryType::Link, "g/hard.sgf"),
        (tar::EntryType::Symlink, "g/soft.sgf"),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_entry_type(kind);
        h.set_size(0);
        h.set_mode(0o644);
        b.append_link(&mut h, name, "g/a.sgf").unwrap();
    }
    let zipped = gz(&game);
    for name in ["g/b.sgf.gz", "g/c.sgf"] {
        let mut h = tar::Header::new_gnu();
        h.set_size(zipped.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, name, &zipped[..]).unwrap();
    }
    let tar = b.into_inner().unwrap();
    fs::write(dir.join("links.tar"), &tar).unwrap();
    // The same tar cut inside its first member.
    fs::write(dir.join("cut.tar"), &tar[..512 + 20]).unwrap();
    // A zip with a gzipped game.
    let mut z = zip::ZipWriter::new(fs::File::create(dir.join("gz.zip")).unwrap());
    z.start_file("z/d.sgf.gz", zip::write::SimpleFileOptions::default())
        .unwrap();
    z.write_all(&zipped).unwrap();
    z.finish().unwrap();
    let out = tmp.path().join("out");
    let o = run(&[dir.to_str().unwrap(), "--no-scores"], &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let note = "game 1 stray characters outside values skipped";
    assert_eq!(
        all_rows(&out),
        [
            "cut.tar   archive corrupt or unreadable tar archive after member 1 'g/a.sgf': unexpected EOF during skip; the rest of the archive was not read".to_string(),
            format!("cut.tar g/a.sgf  read read error: truncated archive: the member ends after 20 of its {} bytes", game.len()),
            format!("gz.zip z/d.sgf.gz 1 {note}"),
            format!("links.tar g/a.sgf 1 {note}"),
            format!("links.tar g/b.sgf.gz 1 {note}"),
            format!("links.tar g/c.sgf 1 {note}"),
            "links.tar g/hard.sgf  archive a hard link to 'g/a.sgf' in the tar archive: not read (a link has no data of its own; its target is read under its own name)".into(),
            "links.tar g/soft.sgf  archive a symbolic link to 'g/a.sgf' in the tar archive: not read (a link has no data of its own; its target is read under its own name)".into(),
        ]
    );
}

#[cfg(unix)]
#[test]
fn file_names_are_escaped_one_line_and_distinct() {
    use std::os::unix::ffi::OsStrExt;
    let game = fs::read(repo().join("fixtures/malformed/go-comment-gm6.sgf")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    for name in [
        &b"two\nlines.sgf"[..],
        b"latin1-\xe9.sgf",
        b"latin1-\xe8.sgf",
        b"back\\slash.sgf",
    ] {
        fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), &game).unwrap();
    }
    let out = tmp.path().join("out");
    let o = run(&[dir.to_str().unwrap(), "--no-scores"], &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = read(&out, "go_games.csv");
    assert_eq!(text.lines().count(), 5, "{text}");
    let mut names: Vec<String> = rows(&out, "go_games.csv")
        .into_iter()
        .map(|r| r["source"].rsplit('/').next().unwrap().to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            r"back\\slash.sgf",
            r"latin1-\xE8.sgf",
            r"latin1-\xE9.sgf",
            r"two\nlines.sgf"
        ]
    );
}

/// Text whose `CA` is missing or wrong is read in the charset detected,
/// and `notes` says so; `--charset` forces one; an unknown one is an
/// error that says what to give.
#[test]
fn charsets_detected_where_ca_is_missing_or_wrong() {
    let gbk = |s: &str| encoding_rs::GBK.encode(s).0.into_owned();
    let game = |ca: &str| {
        let mut g = format!("(;GM[1]SZ[9]{ca}PB[").into_bytes();
        g.extend(gbk("柯洁"));
        g.extend(b"]PW[");
        g.extend(gbk("古力"));
        g.extend(b"]C[");
        g.extend(gbk("第二十届名人战决赛第三局"));
        g.extend(b"];B[ee])");
        g
    };
    let (_tmp, out) = run_on(
        &[("none.sgf", &game("")), ("wrong.sgf", &game("CA[UTF-8]"))],
        &["--no-scores"],
    );
    let rows = rows(&out, "go_games.csv");
    for r in &rows {
        assert_eq!(
            (
                r["black"].as_str(),
                r["white"].as_str(),
                r["charset"].as_str()
            ),
            ("柯洁", "古力", "GBK")
        );
    }
    assert_eq!(
        rows[0]["notes"],
        "no CA and the text is not UTF-8: read as GBK, detected"
    );
    assert_eq!(
        rows[1]["notes"],
        "CA[UTF-8] but the text is not UTF-8: read as GBK, detected"
    );
    // Forced: read as Big5, whatever the bytes say; no note.
    let (_tmp, out) = run_on(
        &[("none.sgf", &game(""))],
        &["--no-scores", "--charset", "big5"],
    );
    let r = &super::util::rows(&out, "go_games.csv")[0];
    assert_eq!((r["charset"].as_str(), r["notes"].as_str()), ("Big5", ""));
    assert_ne!(r["black"], "柯洁");
    let tmp = tempfile::tempdir().unwrap();
    let o = run(
        &["fixtures/malformed", "--charset", "klingon"],
        tmp.path(),
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--charset 'klingon' is not a charset recount knows"),
        "{}",
        stderr(&o)
    );
}

/// The same game in two files, or one file named two ways, has one key:
/// one row per file, the later ones naming the first; `summary.csv`
/// counts them; the records' header facts are columns.
#[test]
fn one_game_one_key() {
    let game = b"(;GM[1]SZ[9]PB[a]BR[3d]WR[1k]EV[Cup]RO[2]PC[Tokyo]TM[600]OT[5x30 byo-yomi]AP[CGoban:3]AB[cc][gg];W[ee];B[])";
    let other_header = b"(;GM[1]SZ[9]PB[b]CA[UTF-8]C[same moves]AB[gg][cc];W[ee];B[tt])";
    let (tmp, _) = run_on(
        &[
            ("a.sgf", game),
            ("b.sgf", other_header),
            ("c.sgf", b"(;SZ[9];B[aa])"),
        ],
        &["--no-scores"],
    );
    let dir = tmp.path().join("in");
    let out = tmp.path().join("out2");
    let a = dir.join("a.sgf");
    let dot = format!("{}/./a.sgf", dir.display());
    let o = run(
        &[
            a.to_str().unwrap(),
            &dot,
            dir.to_str().unwrap(),
            "--no-scores",
            "-j",
            "3",
        ],
        &out,
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows(&out, "go_games.csv");
    assert_eq!(rows.len(), 3, "one row per file, however named");
    let first = format!("{}#1", a.display());
    let keys: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["game_id"].as_str(), r["duplicate_of"].as_str()))
        .collect();
    assert_eq!(keys[0], (rows[0]["game_id"].as_str(), ""));
    assert_eq!(keys[1], (rows[0]["game_id"].as_str(), first.as_str()));
    assert_ne!(keys[2].0, keys[0].0);
    assert_eq!(keys[2].1, "");
    let r = &rows[0];
    let facts: Vec<&str> = [
        "black_rank",
        "white_rank",
        "event",
        "round",
        "place",
        "time_limit",
        "overtime",
        "program",
    ]
    .iter()
    .map(|c| r[*c].as_str())
    .collect();
    assert_eq!(
        facts,
        [
            "3d",
            "1k",
            "Cup",
            "2",
            "Tokyo",
            "600",
            "5x30 byo-yomi",
            "CGoban:3"
        ]
    );
    let summary = read(&out, "summary.csv");
    assert!(
        summary.contains("go_game_ids,distinct,2,games\ngo_game_ids,duplicates,1,rows"),
        "{summary}"
    );
    assert!(
        stderr(&o).contains("3 Go games (1 repeated),"),
        "{}",
        stderr(&o)
    );
}
