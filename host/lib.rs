//! `rgemm`: GEMM kernels written in Rust for NVIDIA GPUs, and the host side
//! that launches, validates and times them.
//!
//! The kernels (`kernels-gpu/`) are compiled to PTX at `cargo build` and
//! embedded here ([`ptx`]). [`Gpu`] owns the CUDA context, the loaded module
//! and a stream. The library API ([`api`]) computes `C = α·A·B + β·C` on
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
//!     Ok(gpu) => gpu, // context and kernels, once
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

pub mod api;

/// The README's Rust examples, compiled as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod cublas;
pub mod element;
pub mod error;
pub mod gpu;
pub mod kernels;
pub mod matrix;
pub mod ptx;
pub mod reference;
pub mod run;
pub mod split_k;
pub mod timing;
pub mod tune;

pub use api::{Batch, GemmOptions, KernelChoice, Layout, MatMut, MatRef, MatrixDesc, SplitK};
pub use element::Element;
pub use error::{GemmError, Result};
pub use gpu::{DeviceInfo, Gpu, KernelResources};
pub use kernels::{Dtype, DtypeExt, check_shape};
pub use matrix::Matrix;
