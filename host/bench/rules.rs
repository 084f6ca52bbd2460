//! `gemm rules`: the built-in choice's wave thresholds, derived from
//! measurements. [`default_choice`](crate::api::choice::default_choice)
//! walks each dtype's list ([`choice_list`]) and takes the first kernel
//! whose tiles fill a given number of quarters of a wave (one block per
//! multiprocessor). This module reads `gemm` runs of named kernels at
//! several shapes (the text tables `gemm --kernel NAME` prints, as
//! `scripts/device-check.sh`'s `mid` and `tf32mid` parts write them) and
//! says, for each pair of neighbours in a list measured at the same
//! shapes, from how many quarters of a wave the first one wins: the
//! numbers the list may hold, and whether the one it holds is among them.
//!
//! ```sh
//! scripts/device-check.sh device-bundle mid tf32mid    # on the GPU machine
//! ./scripts/gemm.sh rules logs/mid/mid.txt logs/tf32mid/tiles.txt
//! ```
//!
//! Pure: it reads text, so it runs (and is tested, on the committed runs)
//! without a GPU. f32's two warp-tiled tiles are an exception: between
//! them the wave fill of each decides (`choice::wave_fill`), which no
//! single threshold expresses (256×128 wins at 2.2 and 6 quarters, loses
//! at 8.7, wins again from 11.6: PERF.md step 44), so a run of them shows
//! its threshold as CHANGE. So are step 10's 128×192 tiles against its
//! 128×256 ones (PERF.md step 46), and step 10c's clusters, which the
//! choice takes by where B's rows lie (`choice::CLUSTER_TWINS`), not by a
//! count of tiles.

use crate::api::choice::choice_list;
use crate::driver::kernels::{Dtype, short_name};
use gemm_launch::KernelSpec;
use std::collections::BTreeMap;
use std::fmt;

/// Slower by at most this fraction still counts as a win: run-to-run noise
/// at these shapes is about 1%.
pub const TOLERANCE: f64 = 0.02;

/// A shape, M×N×K.
type Mnk = (u32, u32, u32);

/// One measured line of a `gemm` table: the best TFLOP/s of a kernel at a
/// shape over every time it appears.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub kernel: String,
    pub dtype: Dtype,
    pub mnk: Mnk,
    pub tflops: f64,
}

/// The measurements of `text` (`gemm`'s table lines whose check passed;
/// cuBLAS's left out), and the multiprocessors its `device:` line names.
pub fn parse_gemm_output(text: &str) -> (Option<u32>, Vec<Measurement>) {
    let mut sms = None;
    let mut found = Vec::new();
    for line in text.lines() {
        if let Some(device) = line.strip_prefix("device:") {
            // "device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"
            sms = device.rsplit(", ").next().and_then(|s| s.strip_suffix(" SMs)")).and_then(|s| s.parse().ok());
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        // kernel dtype M×N×K group ms TFLOP/s %cuBLAS err check ...
        if fields.len() < 9 || fields[0] == "cublas" || fields[8] != "pass" {
            continue;
        }
        let Some(dtype) = Dtype::ALL.into_iter().find(|d| d.name() == fields[1]) else { continue };
        let dims: Vec<u32> = fields[2].split('×').filter_map(|d| d.parse().ok()).collect();
        let (Ok(tflops), &[m, n, k]) = (fields[5].parse::<f64>(), dims.as_slice()) else { continue };
        found.push(Measurement { kernel: fields[0].to_string(), dtype, mnk: (m, n, k), tflops });
    }
    (sms, found)
}

/// What the measurements say about one kernel of a list against the next
/// one measured beside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub dtype: Dtype,
    pub kernel: &'static KernelSpec,
    pub next: &'static KernelSpec,
    /// The threshold in the code (quarters of a wave).
    pub in_code: i64,
    /// The most quarters at which `kernel` lost (by more than
    /// [`TOLERANCE`]), and the fewest above that at which it won.
    pub lost_up_to: Option<f64>,
    pub won_from: Option<f64>,
    /// Shapes measured for both.
    pub shapes: usize,
}

impl Rule {
    /// The whole quarters the measurements allow: more than any at which
    /// `kernel` lost, and at most the fewest at which it won above that;
    /// `None` if no whole number lies in between, or it never won.
    pub fn measured(&self) -> Option<std::ops::RangeInclusive<i64>> {
        let won = self.won_from?.floor() as i64;
        let from = self.lost_up_to.map_or(0, |lost| lost.floor() as i64 + 1);
        (from <= won).then_some(from..=won)
    }

    /// Whether the number in the code is one the measurements allow.
    pub fn agrees(&self) -> bool {
        self.measured().is_some_and(|range| range.contains(&self.in_code))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quarters = |q: Option<f64>| q.map_or("-".into(), |q| format!("{q:.2}"));
        let measured = self.measured().map_or("none".into(), |r| format!("{}..={}", r.start(), r.end()));
        write!(
            f,
            "{:<5} {:<20} before {:<22} in code {:>2}, measured {:>6} {:<6} (lost up to {} quarters, won from {}; {} shapes)",
            self.dtype.name(),
            short_name(self.kernel),
            short_name(self.next),
            self.in_code,
            measured,
            if self.agrees() { "agrees" } else { "CHANGE" },
            quarters(self.lost_up_to),
            quarters(self.won_from),
            self.shapes
        )
    }
}

/// The rule for every neighbouring pair of each dtype's list that
/// `measurements` timed at common shapes, on a GPU of `sms` multiprocessors.
pub fn derive_rules(measurements: &[Measurement], sms: u32) -> Vec<Rule> {
    // Best TFLOP/s per (dtype, kernel short name, shape).
    let mut best: BTreeMap<(&str, &str, Mnk), f64> = BTreeMap::new();
    for m in measurements {
        let entry = best.entry((m.dtype.name(), m.kernel.as_str(), m.mnk)).or_insert(0.0);
        *entry = entry.max(m.tflops);
    }
    let mut rules = Vec::new();
    for dtype in Dtype::ALL {
        let list = choice_list(dtype);
        for (i, (kernel, in_code)) in list.iter().enumerate() {
            let at = |spec: &KernelSpec, mnk| best.get(&(dtype.name(), short_name(spec), mnk)).copied();
            // The next kernel of the list measured at a shape `kernel` was.
            let Some((next, pairs)) = list[i + 1..].iter().find_map(|(next, _)| {
                let pairs: Vec<_> = best
                    .keys()
                    .filter(|(d, k, _)| *d == dtype.name() && *k == short_name(kernel))
                    .filter_map(|&(_, _, mnk)| Some((mnk, at(kernel, mnk)?, at(next, mnk)?)))
                    .collect();
                (!pairs.is_empty()).then_some((next, pairs))
            }) else {
                continue;
            };
            let quarters = |(m, n, _): Mnk| 4.0 * kernel.grid(m, n) as f64 / sms as f64;
            let lost_up_to = pairs
                .iter()
                .filter(|(_, ours, theirs)| *ours < theirs * (1.0 - TOLERANCE))
                .map(|(mnk, _, _)| quarters(*mnk))
                .fold(None, |a: Option<f64>, q| Some(a.map_or(q, |a| a.max(q))));
            let won_from = pairs
                .iter()
                .map(|(mnk, _, _)| quarters(*mnk))
                .filter(|q| lost_up_to.is_none_or(|lost| *q > lost))
                .fold(None, |a: Option<f64>, q| Some(a.map_or(q, |a| a.min(q))));
            let (kernel, next): (&'static KernelSpec, &'static KernelSpec) = (kernel, next);
            rules.push(Rule { dtype, kernel, next, in_code: *in_code, lost_up_to, won_from, shapes: pairs.len() });
        }
    }
    rules
}
