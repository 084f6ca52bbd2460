//! Which kernel runs a call: the caller's [`KernelChoice::Kernel`], checked
//! against the dtype and layout, or the built-in [`default_choice`] for the
//! dtype, shape, layout and GPU. (`gemm tune` measures better choices and
//! caches them: `crate::tune`.)

use crate::api::options::{GemmOptions, KernelChoice};
use crate::driver::element::Element;
use crate::driver::error::{GemmError, Result};
use crate::driver::gpu::DeviceInfo;
use crate::driver::kernels::{Dtype, find_kernel, layout_name, short_name};
use crate::driver::launch::Plan;
use crate::driver::ptx::entry_refusal;
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
/// give the GPU at least two waves of blocks, a smaller tile otherwise (small
/// problems need more, smaller blocks to fill the multiprocessors).
///
/// Each dtype has a list of big tiles, best first, and the first whose
/// entry for `layout` runs on a GPU of compute capability `cc`
/// ([`entry_refusal`]) is taken: on Hopper (9.0) the `wgmma` kernels; on
/// 8.x not the entries ptxas spills there (`ptx::SPILLS_ON_SM8X`); for
/// column-major operands a kernel compiled for them. The last of each list
/// runs on every GPU and layout the build supports (tests/cpu.rs checks it).
pub fn default_choice(
    dtype: Dtype,
    m: usize,
    n: usize,
    multiprocessors: i32,
    layout: OperandLayout,
    cc: (i32, i32),
) -> Choice {
    use gemm_launch as k;
    let (big, small): (&[&KernelSpec], &KernelSpec) = match dtype {
        Dtype::F32 => (&[&k::DB_256X128X8, &k::DB_128X128X8, &k::DB_128X64X16], &k::DB_64X64X16),
        Dtype::Tf32 => {
            (&[&k::WGMMA_TF32_256X128X32, &k::MMA_TF32_128X128X32, &k::MMA_TF32_64X128X32], &k::MMA_TF32_64X128X32)
        }
        // No smaller f16/bf16 tile is compiled in yet.
        Dtype::F16 => (&[&k::WGMMA_F16_128X256X64, &k::MMA_F16_128X128X32_W32X64], &k::MMA_F16_128X128X32_W32X64),
        Dtype::Bf16 => (&[&k::WGMMA_BF16_128X256X64, &k::MMA_BF16_128X128X32_W32X64], &k::MMA_BF16_128X128X32_W32X64),
    };
    let runs = |spec: &&&KernelSpec| entry_refusal(spec, layout, cc).is_none();
    let big = *big.iter().find(runs).unwrap_or(&big[big.len() - 1]);
    let blocks = tiles(m as u32, big.tile.bm) as i64 * tiles(n as u32, big.tile.bn) as i64;
    let spec = if blocks >= 2 * multiprocessors as i64 { big } else { small };
    Choice { kernel: short_name(spec).into(), group_m: spec.default_group_m, tflops: None }
}

/// The kernel a call runs on `device`: the requested one, checked against
/// the dtype and layout, or the built-in choice.
pub fn select_kernel<T: Element>(
    options: &GemmOptions,
    plan: &Plan,
    device: &DeviceInfo,
) -> Result<&'static KernelSpec> {
    let spec = match options.kernel {
        KernelChoice::Kernel(spec) => spec,
        KernelChoice::Auto => {
            let dtype = match (T::DTYPE, options.allow_tf32) {
                (Dtype::F32, true) => Dtype::Tf32,
                (dtype, _) => dtype,
            };
            let (m, n) = (plan.m as usize, plan.n as usize);
            let choice = default_choice(dtype, m, n, device.multiprocessors, plan.layout, device.compute_capability);
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
