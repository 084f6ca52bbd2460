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
//!
//! ```
//! use rgemm::kernels::{Dtype, find_kernel};
//! use rgemm::{GemmError, Gpu};
//!
//! let gpu = match Gpu::new() {
//!     Ok(gpu) => gpu, // context and kernels, once
//!     Err(GemmError::NoGpu(why)) => {
//!         eprintln!("no GPU, example skipped: {why}");
//!         return Ok(());
//!     }
//!     Err(e) => panic!("{e}"),
//! };
//! let (m, n, k) = (300, 200, 100);
//! let a = gpu.upload(&vec![1.0f32; m * k])?;
//! let b = gpu.upload(&vec![1.0f32; k * n])?;
//! let mut c = gpu.alloc_poisoned::<f32>(m * n)?;
//! let spec = find_kernel(Dtype::F32, "db_128x128x8")?;
//! gpu.gemm(spec, &a, &b, &mut c, m, n, k, None)?; // checks shapes and dtype, launches
//! let c = gpu.download(&c)?; // waits, copies back
//! assert!(c.iter().all(|&x| x == k as f32));
//! # Ok::<(), GemmError>(())
//! ```

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
