//! Which kernel runs a call: the caller's [`KernelChoice::Kernel`], checked
//! against the dtype and layout, or the built-in [`default_choice`] for the
//! dtype, shape, layout and GPU. (`gemm tune` measures better choices and
//! caches them: `crate::tune`.)

use crate::api::options::{GemmOptions, KernelChoice};
use crate::driver::element::Element;
use crate::driver::error::{GemmError, Result};
use crate::driver::kernels::{Dtype, find_kernel, layout_name, short_name};
use crate::driver::launch::Plan;
use gemm_launch::{KernelSpec, OperandLayout, tiles};

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

/// Built-in choice when nothing is cached: the configuration that won
/// `gemm tune` at the seeds' shape on an H200 (docs/PERF.md) when its tiles
/// give the GPU at least three quarters of a wave of blocks, a smaller tile
/// otherwise (small problems need more, smaller blocks to fill the
/// multiprocessors; at 2048³ one wave of the large tile beat two of the
/// small one, docs/PERF.md step 25). Column-
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
    let spec = if 4 * blocks >= 3 * multiprocessors as i64 { big } else { small };
    Choice { kernel: short_name(&spec).into(), group_m: spec.default_group_m, tflops: None }
}

/// The kernel a call runs: the requested one, checked against the dtype
/// and layout, or the built-in choice.
pub fn select_kernel<T: Element>(
    options: &GemmOptions,
    plan: &Plan,
    multiprocessors: i32,
    hopper: bool,
) -> Result<&'static KernelSpec> {
    let spec = match options.kernel {
        KernelChoice::Kernel(spec) => spec,
        KernelChoice::Auto => {
            let dtype = match (T::DTYPE, options.allow_tf32) {
                (Dtype::F32, true) => Dtype::Tf32,
                (dtype, _) => dtype,
            };
            let choice = default_choice(dtype, plan.m as usize, plan.n as usize, multiprocessors, plan.layout, hopper);
            find_kernel(dtype, &choice.kernel)?
        }
    };
    if !T::holds(spec.dtype) {
        return Err(GemmError::DtypeMismatch {
            kernel: spec.name,
            dtype: spec.dtype.name(),
            element: std::any::type_name::<T>(),
        });
    }
    if !spec.supports(plan.layout) {
        return Err(GemmError::Unsupported {
            kernel: spec.name.into(),
            reason: format!(
                "it is compiled for row-major A and B only; this call needs {} (use KernelChoice::Auto, or a kernel \
                 that `gemm --list-kernels` shows with all layouts)",
                layout_name(plan.layout)
            ),
        });
    }
    Ok(spec)
}
