//! Auto-tuning (the seeds' last step before tensor cores): time every
//! configuration of the tunable kernel, with several grouped tile orders, on
//! the current GPU and shape; keep the winner in a small JSON cache that
//! `gemm` reads to pick its default. Without an entry, [`default_choice`]
//! picks by shape.

use crate::bench::run::Problem;
use crate::bench::timing::tflops;
use crate::driver::element::Element;
use crate::driver::error::{GemmError, Result};
use crate::driver::gpu::Gpu;
use crate::driver::kernels::{Dtype, DtypeExt, short_name};
use crate::driver::tensor_map::packed_tma_refusal;
use gemm_launch::{Algorithm, KernelSpec, OperandLayout};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The choice lives with the public API (which uses the default); kept here
/// too, beside the cache of tuned choices.
pub use crate::api::choice::{Choice, default_choice};

/// Grouped-order sizes tried for each tile configuration.
pub const GROUP_SIZES: &[u32] = &[1, 4, 8, 16];

/// The configurations the tuner searches: the tunable kernels of the dtype
/// (double-buffered, `cp.async`-pipelined, tensor-core, `wgmma`) that this
/// GPU runs, every tile shape; not the ablations, which leave out an
/// optimization on purpose.
pub fn candidates(gpu: &Gpu, dtype: Dtype) -> impl Iterator<Item = &'static KernelSpec> {
    tunable(dtype).filter(|s| gpu.cannot_run(s).is_none())
}

/// [`candidates`] on any GPU.
pub fn tunable(dtype: Dtype) -> impl Iterator<Item = &'static KernelSpec> {
    dtype.kernels().into_iter().filter(|s| {
        matches!(
            s.algorithm,
            Algorithm::DoubleBuffered
                | Algorithm::AsyncPipeline
                | Algorithm::TensorCore
                | Algorithm::Wgmma
                | Algorithm::WarpSpecialized
        ) && !s.features.is_ablation()
            && !s.is_unmeasured()
    })
}

/// Where tuned choices are kept: `$RGEMM_TUNE_CACHE`, else
/// `$XDG_CACHE_HOME/rgemm/tune.json`, else `~/.cache/rgemm/tune.json`.
pub fn cache_path() -> PathBuf {
    if let Some(p) = std::env::var_os("RGEMM_TUNE_CACHE") {
        return PathBuf::from(p);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("rgemm").join("tune.json")
}

/// The cache file: `"<device>|<dtype>|<m>x<n>x<k>" → Choice`.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct TuneCache {
    pub entries: BTreeMap<String, Choice>,
}

pub fn cache_key(device: &str, dtype: Dtype, m: usize, n: usize, k: usize) -> String {
    format!("{device}|{}|{m}x{n}x{k}", dtype.name())
}

impl TuneCache {
    /// Reads the cache; a missing file is an empty cache.
    pub fn load(path: &std::path::Path) -> Result<Self> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| GemmError::TuneCache {
                path: path.display().to_string(),
                reason: format!("not valid JSON ({e}); delete it to start over"),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TuneCache::default()),
            Err(e) => Err(GemmError::TuneCache { path: path.display().to_string(), reason: e.to_string() }),
        }
    }

    pub fn save(&self, path: &std::path::Path) -> Result<()> {
        let io = |e: std::io::Error| GemmError::TuneCache { path: path.display().to_string(), reason: e.to_string() };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        std::fs::write(path, serde_json::to_string_pretty(self).expect("serializable")).map_err(io)
    }
}

/// The choice `gemm` uses for a shape: the cached one if tuned on this
/// device, else [`default_choice`]. A cache that cannot be read (not JSON,
/// not readable) is ignored, with one warning per process on stderr: a
/// cache is an optimization, never a reason to fail.
pub fn choose(gpu: &Gpu, dtype: Dtype, m: usize, n: usize, k: usize) -> Choice {
    let cached = load_or_warn(&cache_path())
        .and_then(|c| c.entries.get(&cache_key(&gpu.info.name, dtype, m, n, k)).cloned())
        .filter(|c| c.spec(dtype).is_ok());
    // The CLI's operands are packed row-major in fresh allocations.
    let tma_operands = packed_tma_refusal(&gemm_launch::WS_F16_128X256X64, n, k).is_none();
    cached.unwrap_or_else(|| {
        let (sms, cc) = (gpu.info.multiprocessors, gpu.info.compute_capability);
        default_choice(dtype, m, n, sms, OperandLayout::NN, cc, tma_operands)
    })
}

/// [`TuneCache::load`], or `None` after warning (once per process, so a
/// sweep over many shapes says it once) that the cache is ignored.
pub fn load_or_warn(path: &std::path::Path) -> Option<TuneCache> {
    static WARNED: std::sync::Once = std::sync::Once::new();
    TuneCache::load(path)
        .map_err(|e| WARNED.call_once(|| eprintln!("warning: {e}; ignored, using the built-in choices")))
        .ok()
}

/// One measured candidate.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Trial {
    pub kernel: String,
    pub group_m: u32,
    pub median_ms: f64,
    pub tflops: f64,
    pub rel_err: f64,
    pub ok: bool,
}

/// Checks and times every candidate × group size on `problem`; returns all
/// trials, fastest correct one first. `progress` is called after each trial.
pub fn tune<T: Element>(
    gpu: &Gpu,
    problem: &mut Problem<T>,
    iters: usize,
    mut progress: impl FnMut(&Trial),
) -> Result<Vec<Trial>> {
    let dtype = problem.dtype;
    let mut trials = Vec::new();
    let (n, k) = (problem.n, problem.k);
    let runs_here = |spec: &&KernelSpec| packed_tma_refusal(spec, n, k).is_none();
    for spec in candidates(gpu, dtype).filter(runs_here) {
        for &group_m in GROUP_SIZES {
            let rel_err = problem.check(gpu, spec, Some(group_m))?;
            let timing = problem.time(gpu, spec, Some(group_m), iters)?;
            let trial = Trial {
                kernel: short_name(spec).into(),
                group_m,
                median_ms: timing.median_ms,
                tflops: tflops(problem.m, problem.n, problem.k, timing.median_ms),
                rel_err,
                ok: dtype.accepts(rel_err, problem.k),
            };
            progress(&trial);
            trials.push(trial);
        }
    }
    trials.sort_by(|a, b| b.ok.cmp(&a.ok).then(a.median_ms.total_cmp(&b.median_ms)));
    Ok(trials)
}
