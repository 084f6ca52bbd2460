//! Auto-tuning (the seeds' last step before tensor cores): time every
//! configuration of the tunable kernel, with several grouped tile orders, on
//! the current GPU and shape; keep the winner in a small JSON cache, keyed
//! by GPU name, dtype and shape, that `gemm` and the library's
//! `KernelChoice::Auto` read to pick their kernel ([`choose_kernel`]).
//! Without a usable entry, [`default_choice`] picks by shape.
//!
//! The cache itself lives with the public API ([`crate::api::tuned`]); it
//! is re-exported here, beside the measuring.

use crate::bench::run::Problem;
use crate::bench::timing::tflops;
use crate::driver::element::Element;
use crate::driver::error::Result;
use crate::driver::gpu::Gpu;
use crate::driver::kernels::{Dtype, DtypeExt, short_name};
use crate::driver::tensor_map::packed_plan;
use gemm_launch::{Algorithm, KernelSpec, OperandLayout};

/// The choice and the cache live with the public API, which reads them;
/// kept here too, beside the tuner that writes them.
pub use crate::api::choice::{
    Choice, auto_tma_refusal, choose_kernel, default_choice, placeable, tuned_choice, wave_fill,
};
pub use crate::api::tuned::{TuneCache, cache_key, cache_path, load_or_warn, tuned_choices};

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
                | Algorithm::WarpTiled
                | Algorithm::TensorCore
                | Algorithm::Wgmma
                | Algorithm::WarpSpecialized
        ) && !s.features.is_ablation()
            // The tuner runs row-major operands.
            && !s.is_unmeasured_in(OperandLayout::NN)
    })
}

/// The choice `gemm` uses for a shape (packed row-major operands, as the
/// CLI and the tuner make them): [`choose_kernel`], the library's own
/// [`KernelChoice::Auto`](crate::KernelChoice::Auto) choice, with this
/// process's [`tuned_choices`]: the cached entry if tuned on this GPU and
/// runnable, else [`default_choice`]. A cache that cannot be read (not
/// JSON, not readable) is ignored, with one warning per process on stderr:
/// a cache is an optimization, never a reason to fail.
pub fn choose(gpu: &Gpu, dtype: Dtype, m: usize, n: usize, k: usize) -> Choice {
    // The CLI's operands are packed row-major in fresh allocations.
    let sms = gpu.info.multiprocessors.max(0) as u32;
    let tma = |spec: &KernelSpec| auto_tma_refusal(spec, &packed_plan(m, n, k), [0; 3], sms);
    let choice = choose_kernel(tuned_choices(), &gpu.info, dtype, (m, n, k), OperandLayout::NN, tma);
    // As the library's `auto`: clusters this GPU cannot place run unclustered.
    match choice.spec(dtype) {
        Ok(spec) => Choice { kernel: short_name(placeable(gpu, spec, OperandLayout::NN)).into(), ..choice },
        Err(_) => choice,
    }
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
    let (m, n, k) = (problem.m, problem.n, problem.k);
    // What `choose` would take: a tuned entry `auto` refuses is no use.
    let sms = gpu.info.multiprocessors.max(0) as u32;
    let runs_here = |spec: &&KernelSpec| auto_tma_refusal(spec, &packed_plan(m, n, k), [0; 3], sms).is_none();
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
