//! `rgemm`: GEMM kernels written in Rust for NVIDIA GPUs, and the host side
//! that launches, validates and times them.
//!
//! The kernels (`kernels-gpu/`) are compiled to PTX (and, with ptxas, to
//! cubins) at `cargo build` and embedded here ([`ptx`]). [`Gpu`] owns the
//! CUDA context, a stream, and the modules, each loaded when first used. The library API ([`api`]) computes `C = α·A·B + β·C` on
//! device matrices given as views ([`MatRef`], [`MatMut`]: layout and leading
//! dimension, so transposes cost no copy), one GEMM ([`Gpu::gemm`]) or a
//! strided batch ([`Gpu::gemm_strided_batched`]), and reports every bad input
//! as a [`GemmError`]. [`run`] checks a kernel against an f64 reference and
//! times it beside cuBLAS; [`tune`] picks the fastest configuration for a
//! shape.
//!
//! ```
//! use rgemm::{GemmError, GemmOptions, Gpu, MatMut, MatRef};
//!
//! let gpu = match Gpu::new() {
//!     Ok(gpu) => gpu, // context and stream, once; kernels load on first use
//!     Err(GemmError::NoGpu(why)) => {
//!         eprintln!("no GPU, example skipped: {why}");
//!         return Ok(());
//!     }
//!     Err(e) => return Err(e),
//! };
//! let (m, n, k) = (300, 200, 100);
//! let a = gpu.upload(&vec![1.0f32; m * k])?;
//! let b = gpu.upload(&vec![1.0f32; k * n])?;
//! let mut c = gpu.alloc_poisoned::<f32>(m * n)?;
//! // C = A·B: β = 0, so C's NaN poison is never read.
//! gpu.gemm(&GemmOptions::default(), MatRef::row_major(&a, m, k), MatRef::row_major(&b, k, n), MatMut::row_major(&mut c, m, n))?;
//! let c = gpu.download(&c)?; // waits, copies back
//! assert!(c.iter().all(|&x| x == k as f32));
//! # Ok::<(), GemmError>(())
//! ```

//! # Layers
//!
//! The host is three layers, each using only those below it
//! (docs/ARCHITECTURE.md):
//!
//! - [`driver`]: context, modules, stream, buffers, the kernel table, errors,
//!   and the launch of one planned kernel;
//! - [`api`]: the public API on it: views, options, [`api::plan()`], the
//!   kernel choice ([`api::choice`], with the `gemm tune` cache:
//!   [`api::tuned`]) and [`Gpu::gemm`];
//! - [`bench`](mod@bench): checking and timing on top: [`run`], [`tune`], CUDA-event
//!   [`timing`], the f64 [`reference`](mod@reference), [`cublas`].
//!
//! The `gemm` CLI (`host/main.rs`) sits on all three. The modules keep their
//! old paths too (`rgemm::gpu`, `rgemm::run`, …).

pub mod api;
pub mod bench;
pub mod driver;

/// The README's Rust examples, compiled as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use bench::{cublas, matrix, reference, rules, run, sweep, timing, tune};
pub use driver::{element, error, gpu, kernels, ptx, tensor_map, trace};

pub use api::split_k;
pub use api::{Batch, GemmOptions, KernelChoice, Layout, MatMut, MatRef, MatrixDesc, SplitK};
pub use bench::matrix::Matrix;
pub use driver::element::Element;
pub use driver::error::{GemmError, Result};
pub use driver::gpu::{DeviceInfo, Gpu, KernelResources};
pub use driver::kernels::{Dtype, DtypeExt, check_shape};
