//! The other Go servers' formats (`fixtures/go/formats/`): each file's
//! facts reach `go_games.csv` as the format states them, each replays and
//! scores as the same game written by hand as SGF, directories and
//! archives take them (a `.json` only when it holds an OGS game), and a
//! malformed file is an error row that says why.

use super::util::{rows, run, stderr, stdout_of};
use std::collections::HashMap;
use std::path::Path;

type Row = HashMap<String, String>;

const DIR: &str = "fixtures/go/formats";

/// The rows of `table` from a run on `files` with `args`, keyed by the
/// file's name; the run must succeed without error rows.
fn report(files: &[&str], args: &[&str], table: &str) -> HashMap<String, Row> {
    let out = tempfile::tempdir().unwrap();
    let mut all: Vec<&str> = files.to_vec();
    all.extend_from_slice(args);
    let o = run(&all, out.path(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(out.path(), "errors.csv").is_empty(), "{files:?}");
    rows(out.path(), table)
        .into_iter()
        .map(|r| {
            let name = Path::new(&r["source"])
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, r)
        })
        .collect()
}

#[test]
fn each_format_says_its_players_ranks_komi_handicap_and_result() {
    let games = report(&[DIR], &[], "go_games.csv");
    let cols = [
        "board_size",
        "black",
        "white",
        "black_rank",
        "white_rank",
        "komi",
        "handicap",
        "handicap_stones",
        "moves",
        "passes",
        "result_raw",
        "date",
        "rules_raw",
        "territory_markup",
        "charset",
    ];
    let expected: [(&str, [&str; 15]); 5] = [
        (
            "walls-19x19.gib",
            [
                "19",
                "ann",
                "bob",
                "2D",
                "1D",
                "6.5",
                "",
                "0",
                "40",
                "2",
                "B+12.5",
                "2024-05-01",
                "",
                "false",
                "UTF-8",
            ],
        ),
        (
            "handicap-euckr.gib",
            [
                "19",
                "김철수",
                "이영희",
                "5K",
                "3D",
                "0.5",
                "3",
                "3",
                "5",
                "1",
                "W+R",
                "2023-12-09",
                "",
                "false",
                "EUC-KR",
            ],
        ),
        (
            "walls-9x9.json",
            [
                "9",
                "Ann Lee",
                "Bob",
                "2k",
                "1d",
                "6.5",
                "",
                "0",
                "22",
                "2",
                "B+2.5",
                "2024-05-01",
                "japanese",
                "true",
                "UTF-8",
            ],
        ),
        (
            "walls-9x9.ugf",
            [
                "9",
                "Ann Lee",
                "Bob",
                "2k",
                "1d",
                "6.5",
                "",
                "0",
                "22",
                "2",
                "B+2.5",
                "2024-05-01",
                "Japanese",
                "false",
                "UTF-8",
            ],
        ),
        (
            "walls-9x9.ngf",
            [
                "9",
                "Ann",
                "Bob",
                "2k",
                "1d",
                "6.5",
                "",
                "0",
                "20",
                "0",
                "B+2.5",
                "2024-05-01",
                "",
                "false",
                "UTF-8",
            ],
        ),
    ];
    for (file, values) in expected {
        let row = &games[file];
        for (col, want) in cols.iter().zip(values) {
            assert_eq!(row[*col], want, "{file} {col}");
        }
        assert!(
            row["notes"].starts_with("read from "),
            "{file}: {}",
            row["notes"]
        );
    }
    // The handicap stones where Tygem places them, the moves after.
    assert_eq!(
        games["handicap-euckr.gib"]["final_position"],
        "19/19/19/3X11X3/19/19/19/19/19/19/19/19/19/2O16/16X2/3X11O3/13O5/19/19"
    );
    assert!(games["handicap-euckr.gib"]["notes"].contains("read as EUC-KR"));
    assert!(games["walls-9x9.ngf"]["notes"].contains("NGF komi 6 in an even game read as 6.5"));
    assert_eq!(games["walls-9x9.ugf"]["event"], "Walls, 1");
    assert_eq!(games["walls-9x9.ugf"]["place"], "Pandanet");
}

/// Columns of `go_scores.csv` that say the count.
const COUNT: [&str; 10] = [
    "dead_source",
    "dead_black",
    "dead_white",
    "territory_black",
    "territory_white",
    "score_japanese",
    "score_chinese",
    "score_winner",
    "score_margin",
    "recorded_margin",
];

#[test]
fn each_format_is_the_game_its_sgf_twin_is() {
    for (file, twin, args) in [
        // Dead stones from OGS's `removed` and `scoring_positions`, as
        // the twin's TB/TW markup says them.
        ("walls-9x9.json", "walls-9x9.sgf", &[][..]),
        (
            "walls-9x9.ugf",
            "walls-9x9.sgf",
            &["--dead-stones", "estimate"][..],
        ),
        (
            "walls-9x9.ngf",
            "walls-9x9.sgf",
            &["--dead-stones", "estimate"][..],
        ),
        ("walls-19x19.gib", "walls-19x19.sgf", &[][..]),
    ] {
        let paths = [format!("{DIR}/{file}"), format!("{DIR}/{twin}")];
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let games = report(&paths, args, "go_games.csv");
        assert_eq!(
            games[file]["final_position"], games[twin]["final_position"],
            "{file}"
        );
        let scores = report(&paths, args, "go_scores.csv");
        for col in COUNT {
            assert_eq!(scores[file][col], scores[twin][col], "{file} {col}");
        }
        assert!(!scores[file]["score_margin"].is_empty(), "{file}");
    }
    // The counts are the recorded ones.
    let scores = report(&[DIR], &[], "go_scores.csv");
    assert_eq!(scores["walls-9x9.json"]["dead_source"], "markup");
    assert_eq!(scores["walls-9x9.json"]["verdict"], "agrees");
    assert_eq!(scores["walls-9x9.json"]["score_japanese"], "2.5");
    assert_eq!(scores["walls-19x19.gib"]["score_japanese"], "12.5");
}

#[test]
fn directories_and_archives_take_them_and_skip_other_json() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("games");
    std::fs::create_dir(&d).unwrap();
    for f in [
        "walls-9x9.json",
        "walls-9x9.ugf",
        "walls-9x9.ngf",
        "walls-19x19.gib",
    ] {
        std::fs::copy(Path::new(DIR).join(f), d.join(f)).unwrap();
    }
    std::fs::copy(Path::new(DIR).join("walls-9x9.ugf"), d.join("copy.UGI")).unwrap();
    std::fs::write(d.join("package.json"), "{\"name\": \"not a game\"}").unwrap();
    // In a tar, a .gib compressed.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(
        &mut gz,
        &std::fs::read(Path::new(DIR).join("walls-19x19.gib")).unwrap(),
    )
    .unwrap();
    let gz = gz.finish().unwrap();
    let mut tar = tar::Builder::new(Vec::new());
    let mut h = tar::Header::new_gnu();
    h.set_size(gz.len() as u64);
    h.set_mode(0o644);
    tar.append_data(&mut h, "t/walls.gib.gz", &gz[..]).unwrap();
    std::fs::write(d.join("in.tar"), tar.into_inner().unwrap()).unwrap();
    let out = tmp.path().join("out");
    let o = run(&[d.to_str().unwrap()], &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&out, "errors.csv").is_empty());
    let games = rows(&out, "go_games.csv");
    assert_eq!(games.len(), 6, "{games:?}");
    assert!(games
        .iter()
        .any(|g| g["member"] == "t/walls.gib.gz" && g["moves"] == "40"));
    let summary = rows(&out, "summary.csv");
    let skipped = summary
        .iter()
        .find(|r| r["name"] == "files_skipped")
        .unwrap();
    assert_eq!(skipped["count"], "1");
}

#[test]
fn malformed_files_are_error_rows_that_say_why() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "bad.gib",
            &b"\\HS\n\\[GAMEBLACKNAME=a\\]\nSTO 0 1 7 3 3\n"[..],
            "GIB line 3: the colour is not 1 or 2",
        ),
        (
            "bad.json",
            &b"{\"moves\": [[1, 2, 3], \"pass\"]}"[..],
            "OGS move 2",
        ),
        (
            "cut.json",
            &b"{\"moves\": [[1, 2"[..],
            "OGS game JSON does not parse",
        ),
        (
            "bad.ugf",
            &b"[Header]\nSize=9\n[Data]\nDP,B1,1,0\n"[..],
            "UGF line 4: the row is outside the board",
        ),
        (
            "bad.ngf",
            &b"name\nnine\n"[..],
            "NGF line 2 'nine' is not a board size",
        ),
    ];
    let mut args = Vec::new();
    for (name, bytes, _) in &cases {
        let p = tmp.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        args.push(p.to_string_lossy().into_owned());
    }
    let out = tmp.path().join("out");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args, &out, "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows(&out, "go_games.csv").is_empty());
    let errors = rows(&out, "errors.csv");
    assert_eq!(errors.len(), cases.len());
    for (name, _, reason) in cases {
        let e = errors.iter().find(|e| e["source"].ends_with(name)).unwrap();
        assert_eq!(e["stage"], "parse", "{name}");
        assert!(e["reason"].contains(reason), "{name}: {}", e["reason"]);
    }
}

#[test]
fn explain_reads_them_as_one_game() {
    let text = stdout_of(&["explain", "fixtures/go/formats/walls-19x19.gib"]);
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("ann (B) vs bob (W), RE[B+12.5]"),
        "{text}"
    );
    assert!(
        text.contains("japanese      B 171 - W 152 - komi 6.5"),
        "{text}"
    );
    let o = super::util::bin()
        .args([
            "explain",
            "fixtures/go/formats/walls-9x9.ngf",
            "--game",
            "2",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
}
