//! Which nets a run uses: the built-in ones by default, from any current
//! directory; `--weights` or `$RECOUNT_GNUBG_WEIGHTS` another file (an
//! unusable one stops the run); `--no-nets` none, and then every contact
//! row says it was not estimated.

use super::util::{bin, repo, rows, stderr};
use std::path::Path;
use std::process::Output;

const MATCH: &str = "fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat";

/// Runs recount on the 7-point match (absolute path) from `cwd`, every
/// cube decision, `$RECOUNT_GNUBG_WEIGHTS` set to `env` or unset.
fn run_in(cwd: &Path, args: &[&str], env: Option<&str>, out: &Path) -> Output {
    let mut c = bin();
    c.current_dir(cwd)
        .arg(repo().join(MATCH))
        .args(["--all-cube-decisions", "--quiet", "--out"])
        .arg(out)
        .args(args)
        .env_remove("RECOUNT_GNUBG_WEIGHTS");
    if let Some(v) = env {
        c.env("RECOUNT_GNUBG_WEIGHTS", v);
    }
    c.output().expect("recount runs")
}

fn cube_csv(out: &Path) -> String {
    std::fs::read_to_string(out.join("bg_cube.csv")).unwrap()
}

/// The default nets are built in: the same reports from the repository
/// root (where `.gnubg-data/` may lie) and from an empty directory, and
/// contact positions evaluated by gnubg's nets in both.
#[test]
fn the_built_in_nets_give_the_same_reports_from_any_directory() {
    let empty = tempfile::tempdir().unwrap();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let o = run_in(&repo(), &[], None, a.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_in(empty.path(), &[], None, b.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(cube_csv(a.path()), cube_csv(b.path()));
    let rows = rows(b.path(), "bg_cube.csv");
    let contact: Vec<_> = rows.iter().filter(|r| r["class"] == "contact").collect();
    assert!(contact.len() >= 20, "{} contact rows", contact.len());
    for r in contact {
        assert_eq!(r["evaluator"], "gnubg_nn", "{r:?}");
        assert!(r["reason"].is_empty(), "{r:?}");
    }
}

/// `--no-nets`: contact rows carry no number at all, and a reason that
/// says they were not estimated and why; bearoffs and races are still
/// evaluated, by recount's own evaluators.
#[test]
fn without_nets_contact_rows_say_they_were_not_estimated() {
    let out = tempfile::tempdir().unwrap();
    let o = run_in(&repo(), &["--no-nets"], None, out.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = rows(out.path(), "bg_cube.csv");
    let numbers = [
        "evaluator",
        "efficiency",
        "p_win",
        "p_win_gammon",
        "p_win_backgammon",
        "p_lose_gammon",
        "p_lose_backgammon",
        "cubeless",
        "nd",
        "dt",
        "dp",
        "take",
        "pass",
        "nd_mwc",
        "dt_mwc",
        "dp_mwc",
        "proper_action",
        "doubler_error",
        "taker_error",
        "doubler_error_mwc",
        "taker_error_mwc",
    ];
    let mut contact = 0;
    for r in &rows {
        if r["class"] == "contact" {
            contact += 1;
            assert!(r["reason"].starts_with("not estimated:"), "{r:?}");
            assert!(r["reason"].contains("--no-nets"), "{r:?}");
            for c in numbers {
                assert!(r[c].is_empty(), "{c}: {r:?}");
            }
        } else if r["class"] != "over" {
            assert!(
                ["race", "bearoff"].contains(&r["evaluator"].as_str()),
                "{r:?}"
            );
            assert!(r["reason"].is_empty(), "{r:?}");
        }
    }
    assert!(contact >= 20, "{contact} contact rows");
}

/// `--no-nets` with a plied analysis is refused before anything is read:
/// the look-ahead is gnubg's, nets and pruning nets.
#[test]
fn without_nets_a_plied_analysis_is_refused() {
    let out = tempfile::tempdir().unwrap();
    for plies in ["1", "2"] {
        let o = run_in(
            &repo(),
            &["--no-nets", "--plays", "--plies", plies],
            None,
            out.path(),
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("--no-nets") && e.contains("--plies 0"), "{e}");
        assert!(!out.path().join("summary.csv").exists());
    }
    let o = run_in(&repo(), &["--no-nets", "--plies", "0"], None, out.path());
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A weights file named by flag or environment is used as named, a
/// relative path against the current directory; binary and text alike.
#[test]
fn a_named_weights_file_is_used() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        repo().join("data/gnubg/gnubg.wd"),
        dir.path().join("nets.wd"),
    )
    .unwrap();
    let (a, b, c) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let o = run_in(&repo(), &[], None, a.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_in(dir.path(), &[], Some("nets.wd"), b.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_in(dir.path(), &["--weights", "nets.wd"], None, c.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // The same nets (no gnubg_ts0.bd beside them): the same reports.
    assert_eq!(cube_csv(a.path()), cube_csv(b.path()));
    assert_eq!(cube_csv(a.path()), cube_csv(c.path()));
}

/// A weights file that cannot be used stops the run at start-up with
/// what to do; it never falls back to other nets.
#[test]
fn an_unusable_weights_file_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = run_in(dir.path(), &["--weights", "missing.wd"], None, out.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    let abs = std::path::absolute(dir.path().join("missing.wd")).unwrap();
    assert!(e.contains(&abs.display().to_string()), "{e}");
    assert!(
        e.contains("--weights") && e.contains("built-in nets"),
        "{e}"
    );
    std::fs::write(dir.path().join("junk"), "not weights").unwrap();
    let o = run_in(dir.path(), &[], Some("junk"), out.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("not a GNU Backgammon weights file"), "{e}");
    assert!(e.contains("$RECOUNT_GNUBG_WEIGHTS"), "{e}");
    // --no-nets and --weights contradict each other.
    let o = run_in(
        dir.path(),
        &["--no-nets", "--weights", "junk"],
        None,
        out.path(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
