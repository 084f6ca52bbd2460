//! Auto-tuning (the seeds' last step before tensor cores): time every
//! configuration of the tunable kernel, with several grouped tile orders, on
//! the current GPU and shape; keep the winner in a small JSON cache that
//! `gemm` reads to pick its default. Without an entry, [`default_choice`]
//! picks by shape.

use crate::element::Element;
use crate::error::{GemmError, Result};
use crate::gpu::Gpu;
use crate::kernels::{Dtype, DtypeExt, find_kernel, short_name};
use crate::run::Problem;
use crate::timing::tflops;
use gemm_launch::{Algorithm, KernelSpec, OperandLayout, tiles};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Grouped-order sizes tried for each tile configuration.
pub const GROUP_SIZES: &[u32] = &[1, 4, 8, 16];

/// A tuned (or default) choice: which kernel, with which tile order.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    pub kernel: String,
    pub group_m: u32,
    /// Measured when tuned; absent for the built-in default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tflops: Option<f64>,
}

impl Choice {
    pub fn spec(&self, dtype: Dtype) -> Result<&'static KernelSpec> {
        find_kernel(dtype, &self.kernel)
    }
}

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
            Algorithm::DoubleBuffered | Algorithm::AsyncPipeline | Algorithm::TensorCore | Algorithm::Wgmma
        ) && !s.features.is_ablation()
    })
}

/// Built-in choice when nothing is cached: the memory-bound kernel when M or
/// N is at most 16 (`gemm_launch::memory_bound::skinny_for`); otherwise the
/// configuration that won
/// `gemm tune` at the seeds' shape on an H200 (docs/PERF.md) when its tiles
/// give the GPU at least two waves of blocks, a smaller tile otherwise (small
/// problems need more, smaller blocks to fill the multiprocessors). Column-
/// major operands get the best kernel compiled for them; on Hopper
/// (`hopper`: compute capability 9.0) f16/bf16 get the `wgmma` kernel.
pub fn default_choice(
    dtype: Dtype,
    m: usize,
    n: usize,
    multiprocessors: i32,
    layout: OperandLayout,
    hopper: bool,
) -> Choice {
    // M or N ≤ 16: the memory-bound path, for every dtype and layout.
    if let Some(spec) = gemm_launch::memory_bound::skinny_for(dtype, m as u32, n as u32) {
        return Choice { kernel: short_name(&spec).into(), group_m: spec.default_group_m, tflops: None };
    }
    let row_major = layout == OperandLayout::NN;
    let (big, small) = match dtype {
        Dtype::F16 if hopper => (gemm_launch::WGMMA_F16_128X256X64, gemm_launch::MMA_F16_128X128X32_W32X64),
        Dtype::Bf16 if hopper => (gemm_launch::WGMMA_BF16_128X256X64, gemm_launch::MMA_BF16_128X128X32_W32X64),
        Dtype::F32 => (gemm_launch::DB_256X128X8, gemm_launch::DB_64X64X16),
        Dtype::Tf32 if hopper && row_major => (gemm_launch::WGMMA_TF32_256X128X32, gemm_launch::MMA_TF32_64X128X32),
        Dtype::Tf32 if row_major => (gemm_launch::MMA_TF32_128X128X32, gemm_launch::MMA_TF32_64X128X32),
        Dtype::Tf32 => (gemm_launch::MMA_TF32_64X128X32, gemm_launch::MMA_TF32_64X128X32),
        // No smaller f16/bf16 tile is compiled in yet.
        Dtype::F16 => (gemm_launch::MMA_F16_128X128X32_W32X64, gemm_launch::MMA_F16_128X128X32_W32X64),
        Dtype::Bf16 => (gemm_launch::MMA_BF16_128X128X32_W32X64, gemm_launch::MMA_BF16_128X128X32_W32X64),
    };
    let blocks = tiles(m as u32, big.tile.bm) as i64 * tiles(n as u32, big.tile.bn) as i64;
    let spec = if blocks >= 2 * multiprocessors as i64 { big } else { small };
    Choice { kernel: short_name(&spec).into(), group_m: spec.default_group_m, tflops: None }
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
/// device, else [`default_choice`].
pub fn choose(gpu: &Gpu, dtype: Dtype, m: usize, n: usize, k: usize) -> Choice {
    let cached = TuneCache::load(&cache_path())
        .ok()
        .and_then(|c| c.entries.get(&cache_key(&gpu.info.name, dtype, m, n, k)).cloned())
        .filter(|c| c.spec(dtype).is_ok());
    cached.unwrap_or_else(|| default_choice(dtype, m, n, gpu.info.multiprocessors, OperandLayout::NN, gpu.is_hopper()))
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
    for spec in candidates(gpu, dtype) {
        for &group_m in GROUP_SIZES {
            let rel_err = problem.check(gpu, spec, Some(group_m))?;
            let timing = problem.time(gpu, spec, Some(group_m), iters)?;
            let trial = Trial {
                kernel: short_name(spec).into(),
                group_m,
                median_ms: timing.median_ms,
                tflops: tflops(problem.m, problem.n, problem.k, timing.median_ms),
                rel_err,
                ok: dtype.accepts(rel_err),
            };
            progress(&trial);
            trials.push(trial);
        }
    }
    trials.sort_by(|a, b| b.ok.cmp(&a.ok).then(a.median_ms.total_cmp(&b.median_ms)));
    Ok(trials)
}
