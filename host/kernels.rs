//! The kernels this build ships and the rules for calling them.

use crate::error::{GemmError, Result};
use gemm_launch::{F32_KERNELS, KernelSpec};
use std::fmt;
use std::str::FromStr;

/// Element type of A, B and C (accumulation is always f32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    /// IEEE f32 everywhere, computed on CUDA cores (no TF32).
    F32,
}

impl Dtype {
    /// Largest relative Frobenius error vs the f64 reference that passes.
    /// f32 GEMMs land near 1e-6 for K in the thousands; 1e-5 passes any
    /// summation order yet fails anything computed in TF32 (~3e-4).
    pub fn tolerance(self) -> f64 {
        match self {
            Dtype::F32 => 1e-5,
        }
    }

    /// Whether a relative error passes (NaN never does).
    pub fn accepts(self, rel_err: f64) -> bool {
        rel_err <= self.tolerance()
    }

    /// Every kernel of this dtype, in ladder order.
    pub fn kernels(self) -> &'static [KernelSpec] {
        match self {
            Dtype::F32 => F32_KERNELS,
        }
    }
}

impl fmt::Display for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dtype::F32 => "f32",
        })
    }
}

impl FromStr for Dtype {
    type Err = GemmError;
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "f32" | "fp32" | "float32" => Ok(Dtype::F32),
            _ => Err(GemmError::UnsupportedDtype(s.to_string())),
        }
    }
}

/// The kernel called `name` (its PTX entry name, with or without the
/// `sgemm_` prefix: `tiled`, `db_128x128x8`).
pub fn find_kernel(dtype: Dtype, name: &str) -> Result<&'static KernelSpec> {
    let kernels = dtype.kernels();
    kernels.iter().find(|s| s.name == name || s.name.strip_prefix("sgemm_") == Some(name)).ok_or_else(|| {
        GemmError::UnknownKernel {
            name: name.to_string(),
            available: kernels.iter().map(|s| short_name(s)).collect::<Vec<_>>().join(", "),
        }
    })
}

/// The name without the dtype prefix, as the CLI shows it.
pub fn short_name(spec: &KernelSpec) -> &'static str {
    spec.name.strip_prefix("sgemm_").unwrap_or(spec.name)
}

/// Checks `C[m×n] = A[m×k] · B[k×n]` against buffers of `a_len`, `b_len` and
/// `c_len` elements: every dimension non-zero, each buffer large enough, and
/// every dimension below 2^31, so that the kernels' 32-bit row and column
/// arithmetic (an index plus a tile) cannot wrap.
pub fn check_shape(m: usize, n: usize, k: usize, a_len: usize, b_len: usize, c_len: usize) -> Result<()> {
    if m == 0 || n == 0 || k == 0 {
        return Err(GemmError::Shape(format!("dimensions must be non-zero, got M={m} N={n} K={k}")));
    }
    for (name, dim) in [("M", m), ("N", n), ("K", k)] {
        if dim > i32::MAX as usize {
            return Err(GemmError::Shape(format!("{name}={dim} exceeds the kernels' limit of {}", i32::MAX)));
        }
    }
    for (name, rows, cols, len) in [("A", m, k, a_len), ("B", k, n, b_len), ("C", m, n, c_len)] {
        let needed = rows
            .checked_mul(cols)
            .ok_or_else(|| GemmError::Shape(format!("{name} is {rows}×{cols}: element count overflows")))?;
        if len < needed {
            return Err(GemmError::Shape(format!(
                "{name} must be {rows}×{cols} = {needed} elements, its buffer has {len}"
            )));
        }
    }
    Ok(())
}
