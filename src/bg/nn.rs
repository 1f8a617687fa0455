//! GNU Backgammon's neural nets, read from its `gnubg.weights` text file
//! and evaluated as it evaluates them: one hidden layer, its table-based
//! sigmoid, inputs summed in the same order, so the outputs agree with its
//! 0-ply evaluation.
//!
//! The file is a version line (`GNU Backgammon 1.01`), then per net a
//! header `inputs hidden outputs trained beta_hidden beta_output` and the
//! weights: hidden weights input by input, output weights output by output,
//! hidden thresholds, output thresholds. The nets come in the order
//! contact, race, crashed, then the pruning nets.

use super::bearoff_ts::TwoSided;
use std::path::{Path, PathBuf};

/// `exp(k / 10) / 10` for k = 0..99, rounded to `f32` as gnubg's table of
/// literals is: the table of its sigmoid.
static E: std::sync::LazyLock<[f32; 100]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|k| ((k as f64 / 10.0).exp() / 10.0) as f32));

/// gnubg's approximation of 1 / (1 + e^x): linear interpolation of e^x
/// between tenths, constant beyond ±10. (The constants are gnubg's
/// literals, rounded to `f32` as its compiler rounds them.)
#[allow(clippy::excessive_precision)]
pub fn sigmoid(x: f32) -> f32 {
    if !x.is_sign_negative() {
        if x < 10.0 {
            let x1 = 10.0 * x;
            let i = x1 as i32;
            1.0 / (1.0 + E[i as usize] * ((10 - i) as f32 + x1))
        } else {
            1.0 / 19931.370438230298
        }
    } else if x > -10.0 {
        let x1 = -10.0 * x;
        let i = x1 as i32;
        1.0 - 1.0 / (1.0 + E[i as usize] * ((10 - i) as f32 + x1))
    } else {
        19930.370438230298 / 19931.370438230298
    }
}

/// One net: inputs → hidden (sigmoid) → outputs (sigmoid).
#[derive(Debug, Clone)]
pub struct Net {
    pub inputs: usize,
    pub hidden: usize,
    pub outputs: usize,
    beta_hidden: f32,
    beta_output: f32,
    /// `inputs × hidden`, input-major.
    hidden_weights: Vec<f32>,
    /// `outputs × hidden`, output-major.
    output_weights: Vec<f32>,
    hidden_threshold: Vec<f32>,
    output_threshold: Vec<f32>,
}

impl Net {
    /// Forward pass; `out` gets `self.outputs` values.
    pub fn evaluate(&self, input: &[f32], out: &mut [f32]) {
        let h = self.hidden;
        let mut acc = [0.0f32; 256];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.hidden_threshold);
        for (i, &x) in input.iter().enumerate().take(self.inputs) {
            if x == 0.0 {
                continue;
            }
            let w = &self.hidden_weights[i * h..(i + 1) * h];
            if x == 1.0 {
                for (a, &w) in acc.iter_mut().zip(w) {
                    *a += w;
                }
            } else {
                for (a, &w) in acc.iter_mut().zip(w) {
                    *a += w * x;
                }
            }
        }
        for a in acc.iter_mut() {
            *a = sigmoid(-(self.beta_hidden * *a));
        }
        // The output sums are made as GNU Backgammon's vectorised build
        // makes them: four partial sums over every fourth hidden unit,
        // added pairwise, then the threshold.
        for (o, slot) in out.iter_mut().enumerate().take(self.outputs) {
            let w = &self.output_weights[o * h..(o + 1) * h];
            let mut part = [0.0f32; 4];
            for (j, (a, &w)) in acc.iter().zip(w).enumerate() {
                part[j % 4] += a * w;
            }
            let r = self.output_threshold[o] + ((part[0] + part[2]) + (part[1] + part[3]));
            *slot = sigmoid(-(r * self.beta_output));
        }
    }
}

/// The nets of a weights file.
#[derive(Debug, Clone)]
pub struct Weights {
    pub contact: Net,
    pub race: Net,
    pub crashed: Net,
    /// Where they were read from.
    pub path: PathBuf,
    /// GNU Backgammon's two-sided bearoff database (the content of
    /// `gnubg_ts0.bd`, built by [`super::bearoff_ts::two_sided`]):
    /// bearoffs of up to six checkers a side as gnubg evaluates them.
    pub two_sided: Option<TwoSided>,
}

/// Why a weights file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Weights {
    /// Reads a `gnubg.weights` text file, and attaches the two-sided
    /// bearoff database.
    ///
    /// # Errors
    /// A missing or unreadable file, another version, a truncated file or
    /// nets of unexpected sizes.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            WeightsError(format!(
                "cannot read the weights file '{}': {e}",
                path.display()
            ))
        })?;
        let mut w = Weights::parse(&text, path)?;
        w.two_sided = Some(super::bearoff_ts::two_sided().clone());
        Ok(w)
    }

    fn parse(text: &str, path: &Path) -> Result<Weights, WeightsError> {
        let err = |m: String| WeightsError(format!("'{}': {m}", path.display()));
        let mut lines = text.lines();
        let version = lines.next().unwrap_or_default().trim();
        if !version.starts_with("GNU Backgammon ") {
            return Err(err(format!(
                "not a GNU Backgammon weights file (first line '{version}')"
            )));
        }
        if version != "GNU Backgammon 1.01" {
            return Err(err(format!(
                "weights version '{version}' is not supported (expected 'GNU Backgammon 1.01')"
            )));
        }
        let mut words = lines.flat_map(str::split_whitespace);
        let mut next_net = |name: &str| -> Result<Net, WeightsError> {
            let mut num = |what: &str| -> Result<f32, WeightsError> {
                let w = words
                    .next()
                    .ok_or_else(|| err(format!("the file ends inside the {name} net ({what})")))?;
                w.parse::<f32>()
                    .map_err(|_| err(format!("'{w}' is not a number ({name} net, {what})")))
            };
            let inputs = num("header")? as usize;
            let hidden = num("header")? as usize;
            let outputs = num("header")? as usize;
            let _trained = num("header")?;
            let beta_hidden = num("header")?;
            let beta_output = num("header")?;
            if !(1..=1000).contains(&inputs) || !(1..=256).contains(&hidden) || outputs != 5 {
                return Err(err(format!(
                    "the {name} net has an unexpected shape {inputs}×{hidden}×{outputs}"
                )));
            }
            let mut read = |n: usize, what: &str| -> Result<Vec<f32>, WeightsError> {
                (0..n).map(|_| num(what)).collect()
            };
            Ok(Net {
                inputs,
                hidden,
                outputs,
                beta_hidden,
                beta_output,
                hidden_weights: read(inputs * hidden, "hidden weights")?,
                output_weights: read(outputs * hidden, "output weights")?,
                hidden_threshold: read(hidden, "hidden thresholds")?,
                output_threshold: read(outputs, "output thresholds")?,
            })
        };
        let contact = next_net("contact")?;
        let race = next_net("race")?;
        let crashed = next_net("crashed")?;
        Ok(Weights {
            contact,
            race,
            crashed,
            path: path.to_path_buf(),
            two_sided: None,
        })
    }

    /// Where to look for `gnubg.weights`, in order: the path given, the
    /// `RECOUNT_GNUBG_WEIGHTS` environment variable, the folder
    /// `scripts/get-gnubg-weights.sh` fills (`.gnubg-data/` beside the
    /// working directory), the data folder of an installed `gnubg` Python
    /// package in a venv here, and `/usr/share/gnubg`.
    pub fn candidates(given: Option<&Path>) -> Vec<PathBuf> {
        let mut out = Vec::new();
        if let Some(p) = given {
            out.push(p.to_path_buf());
            return out;
        }
        if let Some(p) = std::env::var_os("RECOUNT_GNUBG_WEIGHTS") {
            out.push(PathBuf::from(p));
        }
        out.push(PathBuf::from(".gnubg-data/gnubg.weights"));
        for venv in [".venv-gnubg", ".venv"] {
            if let Ok(rd) = std::fs::read_dir(format!("{venv}/lib")) {
                let mut pys: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
                pys.sort();
                for py in pys {
                    for pkg in ["gnubg", "gnubg_nn"] {
                        out.push(
                            py.join("site-packages")
                                .join(pkg)
                                .join("data/gnubg.weights"),
                        );
                    }
                }
            }
        }
        out.push(PathBuf::from("/usr/share/gnubg/gnubg.weights"));
        out
    }

    /// The first weights file found among [`Weights::candidates`].
    ///
    /// # Errors
    /// When a path was given and cannot be used (none found is `Ok(None)`).
    pub fn find(given: Option<&Path>) -> Result<Option<Weights>, WeightsError> {
        for c in Weights::candidates(given) {
            if given.is_some() || c.is_file() {
                return Weights::load(&c).map(Some);
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sigmoid_table_is_exp_of_tenths() {
        // Two of gnubg's literals.
        assert_eq!(E[1], 0.110_517_09_f32);
        assert_eq!(E[99], 1_993.037_f32);
        // Close to the true logistic function.
        for x in [-9.5f32, -3.0, -0.05, 0.0, 0.3, 2.0, 7.7] {
            let exact = 1.0 / (1.0 + (x as f64).exp());
            assert!((sigmoid(x) as f64 - exact).abs() < 2e-3, "{x}");
        }
        assert_eq!(sigmoid(0.0), 0.5);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let p = Path::new("w");
        let e = Weights::parse("hello\n", p).unwrap_err();
        assert!(e.0.contains("not a GNU Backgammon weights file"), "{e}");
        let e = Weights::parse("GNU Backgammon 0.90\n", p).unwrap_err();
        assert!(e.0.contains("not supported"), "{e}");
        let e = Weights::parse("GNU Backgammon 1.01\n250 128 5 0 0.1 1.0\n0.5\n", p).unwrap_err();
        assert!(e.0.contains("ends inside the contact net"), "{e}");
        let e = Weights::load(Path::new("/nonexistent/gnubg.weights")).unwrap_err();
        assert!(e.0.contains("cannot read"), "{e}");
    }

    #[test]
    fn a_tiny_net_evaluates_by_hand() {
        let text = "GNU Backgammon 1.01\n".to_string()
            + &["2 1 5 0 1.0 1.0", "1 2", "0 0 0 0 0", "0", "0 0 0 0 0"].join("\n")
            + "\n"
            + &["2 1 5 0 1.0 1.0", "0 0", "0 0 0 0 0", "0", "0 0 0 0 0"].join("\n")
            + "\n"
            + &["2 1 5 0 1.0 1.0", "0 0", "0 0 0 0 0", "0", "0 0 0 0 0"].join("\n");
        let w = Weights::parse(&text, Path::new("t")).unwrap();
        let mut out = [0.0; 5];
        w.contact.evaluate(&[1.0, 0.0], &mut out);
        // Output weights zero: every output is sigmoid(0) = 0.5.
        assert_eq!(out, [0.5; 5]);
    }
}
