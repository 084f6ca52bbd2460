//! Everything about a call except the matrices: α, β, TF32, which kernel,
//! its tile order and whether K may be split.

use gemm_launch::KernelSpec;
pub use gemm_launch::split_k::SplitK;

/// Which kernel runs a call.
#[derive(Clone, Copy, Debug, Default)]
pub enum KernelChoice {
    /// The choice `gemm tune` cached for this GPU, dtype and shape when its
    /// kernel can run the call, else the built-in one for the dtype, shape
    /// and layout ([`crate::api::choice::choose_kernel`]; the cache:
    /// [`crate::api::tuned`], `RGEMM_TUNE_CACHE=off` to ignore it).
    #[default]
    Auto,
    /// This kernel (see [`crate::driver::kernels::find_kernel`]); an error if it does
    /// not compute the buffers' dtype or is not compiled for their layout.
    Kernel(&'static KernelSpec),
}

/// Everything about a call except the matrices.
#[derive(Clone, Copy, Debug)]
pub struct GemmOptions {
    /// With `alpha = 0`, A and B are not read: `C = β·C` (BLAS semantics).
    pub alpha: f32,
    /// With `beta = 0`, C is not read (it may hold anything, NaN included).
    pub beta: f32,
    /// For f32 matrices with [`KernelChoice::Auto`]: multiply on tensor
    /// cores with operands rounded to TF32 (PyTorch's `allow_tf32`). Off by
    /// default: f32 is exact unless asked.
    pub allow_tf32: bool,
    pub kernel: KernelChoice,
    /// Grouped tile order (1 = off); `None` keeps the chosen one (a tuned
    /// entry's with [`KernelChoice::Auto`], else the kernel's default).
    pub group_m: Option<u32>,
    /// Whether K may be split into chunks summed in a workspace
    /// ([`crate::api::split_k`]): `Auto` (default) splits deep K (more
    /// accurate), few-tile and f32 short-K few-block shapes (faster).
    pub split_k: SplitK,
}

impl Default for GemmOptions {
    fn default() -> Self {
        GemmOptions {
            alpha: 1.0,
            beta: 0.0,
            allow_tf32: false,
            kernel: KernelChoice::Auto,
            group_m: None,
            split_k: SplitK::Auto,
        }
    }
}
