//! The kernels this build ships, per dtype, and the rules for calling them.

use crate::driver::error::{GemmError, Result};
use gemm_launch::{KERNELS, KernelSpec, OperandLayout};

pub use gemm_launch::Dtype;

/// Per-dtype facts the host needs beyond `gemm_launch::Dtype`.
pub trait DtypeExt {
    /// Largest relative Frobenius error vs the f64 reference that passes.
    fn tolerance(self) -> f64;
    /// Whether a relative error passes (NaN never does).
    fn accepts(self, rel_err: f64) -> bool;
    /// Every kernel of this dtype, in ladder order.
    fn kernels(self) -> Vec<&'static KernelSpec>;
}

impl DtypeExt for Dtype {
    /// The bound sits above what a correct kernel shows and below what a
    /// wrong one does. f32: ~1e-6 for K in the thousands; 1e-5 also rejects
    /// anything computed in TF32 (~3e-4). f16 and bf16 are dominated by
    /// rounding C to 11 and 8 significant bits (~3e-4 and ~2e-3, as cuBLAS
    /// shows); a wrong element or a missing K slice is far above.
    fn tolerance(self) -> f64 {
        match self {
            Dtype::F32 => 1e-5,
            Dtype::Tf32 => 2e-3,
            Dtype::F16 => 2e-3,
            Dtype::Bf16 => 1e-2,
        }
    }

    fn accepts(self, rel_err: f64) -> bool {
        rel_err <= self.tolerance()
    }

    fn kernels(self) -> Vec<&'static KernelSpec> {
        KERNELS.iter().filter(|s| s.dtype == self).collect()
    }
}

/// Parses a dtype name, accepting only dtypes this build has kernels for.
pub fn parse_dtype(name: &str) -> Result<Dtype> {
    let supported: Vec<Dtype> = Dtype::ALL.into_iter().filter(|d| !d.kernels().is_empty()).collect();
    supported.iter().copied().find(|d| d.name().eq_ignore_ascii_case(name)).ok_or_else(|| GemmError::UnsupportedDtype {
        name: name.to_string(),
        supported: supported.iter().map(|d| d.name()).collect::<Vec<_>>().join(", "),
    })
}

/// The kernel of `dtype` called `name`: its PTX entry name, or that name
/// without its type prefix (`tiled`, `db_128x128x8`, `mma_128x256`).
pub fn find_kernel(dtype: Dtype, name: &str) -> Result<&'static KernelSpec> {
    let kernels = dtype.kernels();
    kernels.iter().copied().find(|s| s.name == name || short_name(s) == name).ok_or_else(|| GemmError::UnknownKernel {
        name: name.to_string(),
        dtype: dtype.name(),
        available: kernels.iter().map(|s| short_name(s)).collect::<Vec<_>>().join(", "),
    })
}

/// The name without the BLAS-style type prefix (`sgemm_`, `hgemm_`,
/// `bgemm_`), as the CLI shows it.
pub fn short_name(spec: &KernelSpec) -> &'static str {
    spec.name.split_once('_').map_or(spec.name, |(_, rest)| rest)
}

/// The PTX entry of `spec` for `layout` (the spec's name, with `_nt`, `_tn`
/// or `_tt` for column-major operands).
pub fn entry_name(spec: &KernelSpec, layout: OperandLayout) -> String {
    format!("{}{}", spec.name, layout.suffix())
}

/// Every PTX entry of the build: (spec, layout, entry name).
pub fn entries() -> impl Iterator<Item = (&'static KernelSpec, OperandLayout, String)> {
    KERNELS.iter().flat_map(|spec| {
        OperandLayout::ALL.into_iter().filter(|l| spec.supports(*l)).map(move |l| (spec, l, entry_name(spec, l)))
    })
}

/// "row-major A, column-major B" and so on, for messages.
pub fn layout_name(layout: OperandLayout) -> String {
    let name = |col_major: bool| if col_major { "column-major" } else { "row-major" };
    format!("{} A, {} B", name(layout.a_col_major), name(layout.b_col_major))
}

/// Largest M, N or K: rows and columns are 32-bit in the kernels and an
/// index plus a tile must not wrap. The one limit the API, the launcher and
/// the `gemm` CLI all check against.
pub const MAX_DIM: usize = i32::MAX as usize;

/// Checks `C[m×n] = A[m×k] · B[k×n]` against buffers of `a_len`, `b_len` and
/// `c_len` elements: every dimension non-zero, each buffer large enough, and
/// every dimension at most [`MAX_DIM`].
pub fn check_shape(m: usize, n: usize, k: usize, a_len: usize, b_len: usize, c_len: usize) -> Result<()> {
    if m == 0 || n == 0 || k == 0 {
        return Err(GemmError::Shape(format!("dimensions must be non-zero, got M={m} N={n} K={k}")));
    }
    for (name, dim) in [("M", m), ("N", n), ("K", k)] {
        if dim > MAX_DIM {
            return Err(GemmError::Shape(format!("{name}={dim} exceeds the kernels' limit of {MAX_DIM}")));
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
