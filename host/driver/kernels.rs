//! The kernels this build ships, per dtype, and the rules for calling them.

use crate::driver::error::{GemmError, Result};
use gemm_launch::{KERNELS, KernelSpec, OperandLayout};

pub use gemm_launch::Dtype;

/// Unit roundoff of f32, `u = 2⁻²⁴`: the relative error of one rounding.
pub const F32_UNIT_ROUNDOFF: f64 = 1.0 / (1u64 << 24) as f64;

/// Per-dtype facts the host needs beyond `gemm_launch::Dtype`.
pub trait DtypeExt {
    /// Largest relative Frobenius error vs the f64 reference that passes, for
    /// a product `K` deep.
    fn tolerance(self, k: usize) -> f64;
    /// Whether a relative error passes at depth `k` (NaN never does).
    fn accepts(self, rel_err: f64, k: usize) -> bool;
    /// Every kernel of this dtype, in ladder order: what the CLI lists and
    /// runs, the tuner searches and names resolve to. Not the f32-output
    /// twins (`Features::f32_output`): they write split-K partial sums, never
    /// a C of the dtype.
    fn kernels(self) -> Vec<&'static KernelSpec>;
}

impl DtypeExt for Dtype {
    /// `max(floor, √K·u)`, `u` = [`F32_UNIT_ROUNDOFF`]: the way BLAS test
    /// suites let the bound grow with the depth of the dot products
    /// (γ_K = K·u is the worst case; rounding errors of random sign add up
    /// like √K·u, Higham and Mary's probabilistic bound, and that is what
    /// f32 accumulators show: a K-long f32 sum of N(0,1) products has a
    /// relative error of about 0.3·√K·u, ~1.7e-5 at K = 10⁶).
    ///
    /// The floor is the error of the inputs' and output's own rounding:
    /// f32 1e-5 (below TF32's ~3e-4, so a kernel that multiplied in TF32
    /// still fails at any K up to 2.5·10⁷); TF32 2e-3; f16 2e-3 and bf16
    /// 1e-2, dominated by rounding C to 11 and 8 significant bits (~3e-4 and
    /// ~2e-3, as cuBLAS shows). A wrong element or a missing K chunk is far
    /// above: dropping 256 of K = 10⁶ terms is a relative error of
    /// √(256/10⁶) = 1.6e-2 against a bound of 6e-5 (tests/cpu.rs).
    fn tolerance(self, k: usize) -> f64 {
        let floor: f64 = match self {
            Dtype::F32 => 1e-5,
            Dtype::Tf32 => 2e-3,
            Dtype::F16 => 2e-3,
            Dtype::Bf16 => 1e-2,
        };
        floor.max((k as f64).sqrt() * F32_UNIT_ROUNDOFF)
    }

    fn accepts(self, rel_err: f64, k: usize) -> bool {
        rel_err <= self.tolerance(k)
    }

    fn kernels(self) -> Vec<&'static KernelSpec> {
        KERNELS.iter().filter(|s| s.dtype == self && !s.features.f32_output).collect()
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

/// The PTX entry of `spec` that runs a call in `layout` (the spec's name,
/// with `_nt`, `_tn` or `_tt` for column-major operands; a K-major kernel's
/// one `_nt` entry for every layout).
pub fn entry_name(spec: &KernelSpec, layout: OperandLayout) -> String {
    format!("{}{}", spec.name, spec.entry_layout(layout).suffix())
}

/// Every PTX entry of the build: (spec, layout, entry name).
pub fn entries() -> impl Iterator<Item = (&'static KernelSpec, OperandLayout, String)> {
    KERNELS.iter().flat_map(|spec| {
        OperandLayout::ALL.into_iter().filter(|l| spec.has_entry(*l)).map(move |l| (spec, l, entry_name(spec, l)))
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
