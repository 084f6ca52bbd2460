//! `rgemm`: GEMM kernels written in Rust for NVIDIA GPUs, and the host side
//! that launches, validates and times them.
//!
//! The kernels (`kernels-gpu/`) are compiled to PTX at `cargo build` and
//! embedded here ([`ptx`]). [`Gpu`] owns the CUDA context, the loaded module
//! and a stream; [`Gpu::sgemm`] checks shapes and launches one kernel.
//! [`run`] checks a kernel against an f64 reference and times it beside
//! cuBLAS; [`tune`] picks the fastest configuration for a shape.
//!
//! Notation everywhere: `C[M×N] = A[M×K] · B[K×N]`, row-major.

pub mod cublas;
pub mod element;
pub mod error;
pub mod gpu;
pub mod kernels;
pub mod matrix;
pub mod ptx;
pub mod reference;
pub mod run;
pub mod timing;
pub mod tune;

pub use element::Element;
pub use error::{GemmError, Result};
pub use gpu::{DeviceInfo, Gpu, KernelResources};
pub use kernels::{Dtype, DtypeExt, check_shape};
pub use matrix::Matrix;
