//! The library API: `C = α·A·B + β·C` on matrices already on the device,
//! each a view with its own layout and leading dimension, one GEMM or a
//! strided batch of them.
//!
//! A view never copies: a column-major A (or `view.t()` of a row-major
//! matrix) is read in place by kernels compiled for that layout (the seeds'
//! fused transposition); a column-major C is computed as `Cᵀ = Bᵀ·Aᵀ`.
//! Everything is checked before launch and reported as a
//! [`GemmError`](crate::GemmError); nothing here panics.
//!
//! This layer uses only the driver ([`crate::driver`]): [`views`] describe
//! the matrices, [`options`] the rest of a call, [`plan()`] checks a call and
//! reduces it to the driver's [`Plan`], [`choice`] picks the kernel (with
//! the choices `gemm tune` measured on this GPU: [`tuned`]), and
//! [`gemm`] puts them together as [`Gpu::gemm`](crate::Gpu::gemm).
//!
//! ```
//! use rgemm::{Batch, GemmError, GemmOptions, Gpu, MatMut, MatRef};
//!
//! let gpu = match Gpu::new() {
//!     Ok(gpu) => gpu,
//!     Err(GemmError::NoGpu(why)) => {
//!         eprintln!("no GPU, example skipped: {why}");
//!         return Ok(());
//!     }
//!     Err(e) => return Err(e),
//! };
//! let (m, n, k) = (300, 200, 100);
//! let a = gpu.upload(&vec![1.0f32; m * k])?; // A: m×k, row-major
//! let b = gpu.upload(&vec![1.0f32; n * k])?; // holds Bᵀ: n×k, row-major
//! let mut c = gpu.upload(&vec![1.0f32; m * n])?;
//! // C = 2·A·B + 0.5·C, with B read through its transpose: no copy.
//! let options = GemmOptions { alpha: 2.0, beta: 0.5, ..GemmOptions::default() };
//! let a_view = MatRef::row_major(&a, m, k);
//! let b_view = MatRef::row_major(&b, n, k).t();
//! let kernel = gpu.gemm(&options, a_view, b_view, MatMut::row_major(&mut c, m, n))?;
//! let c = gpu.download(&c)?;
//! assert!(c.iter().all(|&x| x == 2.0 * k as f32 + 0.5), "{}", kernel.name);
//! # let _ = Batch::single();
//! # Ok::<(), GemmError>(())
//! ```

pub mod choice;
pub mod gemm;
pub mod options;
pub mod plan;
pub mod split_k;
pub mod tuned;
pub mod views;

pub use crate::driver::launch::Plan;
pub use choice::{
    Choice, choose_kernel, choose_kernel_for_batch, default_choice, default_choice_for_batch, select, select_kernel,
    tuned_choice,
};
pub use options::{GemmOptions, KernelChoice, SplitK};
pub use plan::{MAX_BATCH, MAX_DIM, check_alignment, plan};
pub use tuned::{TuneCache, cache_key, cache_path, load_or_warn, tuned_choices};
pub use views::{Batch, Layout, MatMut, MatRef, MatrixDesc};
