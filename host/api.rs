//! The library API: `C = α·A·B + β·C` on matrices already on the device,
//! each a view with its own layout and leading dimension, one GEMM or a
//! strided batch of them.
//!
//! A view never copies: a column-major A (or `view.t()` of a row-major
//! matrix) is read in place by kernels compiled for that layout (the seeds'
//! fused transposition); a column-major C is computed as `Cᵀ = Bᵀ·Aᵀ`.
//! Everything is checked before launch and reported as a [`GemmError`];
//! nothing here panics.
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

use crate::element::Element;
use crate::error::{GemmError, Result};
use crate::gpu::Gpu;
use crate::kernels::find_kernel;
use crate::tune::default_choice;
use cust::memory::{DeviceCopy, DeviceSlice};
pub use gemm_launch::split_k::SplitK;
use gemm_launch::{Dtype, KernelSpec, OperandLayout};

/// How a matrix lies in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Rows are contiguous; `ld` elements from one row to the next.
    RowMajor,
    /// Columns are contiguous; `ld` elements from one column to the next.
    ColMajor,
}

impl Layout {
    fn flipped(self) -> Layout {
        match self {
            Layout::RowMajor => Layout::ColMajor,
            Layout::ColMajor => Layout::RowMajor,
        }
    }
}

/// The shape and placement of a matrix in its buffer, without the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixDesc {
    pub rows: usize,
    pub cols: usize,
    /// Leading dimension: elements between consecutive rows (row-major) or
    /// columns (column-major); at least `cols` (or `rows`).
    pub ld: usize,
    pub layout: Layout,
}

impl MatrixDesc {
    /// A dense row-major `rows × cols` matrix (`ld = cols`).
    pub fn row_major(rows: usize, cols: usize) -> Self {
        MatrixDesc { rows, cols, ld: cols, layout: Layout::RowMajor }
    }

    /// A dense column-major `rows × cols` matrix (`ld = rows`).
    pub fn col_major(rows: usize, cols: usize) -> Self {
        MatrixDesc { rows, cols, ld: rows, layout: Layout::ColMajor }
    }

    /// The same memory seen as the transpose: `cols × rows`, other layout.
    pub fn t(self) -> Self {
        MatrixDesc { rows: self.cols, cols: self.rows, ld: self.ld, layout: self.layout.flipped() }
    }

    /// Elements per contiguous run (a row if row-major) and number of runs.
    fn run_and_count(&self) -> (usize, usize) {
        match self.layout {
            Layout::RowMajor => (self.cols, self.rows),
            Layout::ColMajor => (self.rows, self.cols),
        }
    }

    /// Elements from the first to one past the last element.
    fn extent(&self) -> Option<u64> {
        let (run, runs) = self.run_and_count();
        (runs as u64 - 1).checked_mul(self.ld as u64)?.checked_add(run as u64)
    }
}

/// A matrix on the device, read-only: a buffer and how to read it.
#[derive(Clone, Copy, Debug)]
pub struct MatRef<'a, T: DeviceCopy> {
    pub data: &'a DeviceSlice<T>,
    pub desc: MatrixDesc,
}

impl<'a, T: DeviceCopy> MatRef<'a, T> {
    pub fn new(data: &'a DeviceSlice<T>, desc: MatrixDesc) -> Self {
        MatRef { data, desc }
    }
    /// `data` as a dense row-major `rows × cols` matrix.
    pub fn row_major(data: &'a DeviceSlice<T>, rows: usize, cols: usize) -> Self {
        MatRef { data, desc: MatrixDesc::row_major(rows, cols) }
    }
    /// `data` as a dense column-major `rows × cols` matrix.
    pub fn col_major(data: &'a DeviceSlice<T>, rows: usize, cols: usize) -> Self {
        MatRef { data, desc: MatrixDesc::col_major(rows, cols) }
    }
    /// The same view with leading dimension `ld` (a sub-matrix of a wider one).
    pub fn with_ld(self, ld: usize) -> Self {
        MatRef { desc: MatrixDesc { ld, ..self.desc }, ..self }
    }
    /// The transpose, without a copy.
    pub fn t(self) -> Self {
        MatRef { desc: self.desc.t(), ..self }
    }
}

/// A matrix on the device that a GEMM writes (C).
#[derive(Debug)]
pub struct MatMut<'a, T: DeviceCopy> {
    pub data: &'a mut DeviceSlice<T>,
    pub desc: MatrixDesc,
}

impl<'a, T: DeviceCopy> MatMut<'a, T> {
    pub fn new(data: &'a mut DeviceSlice<T>, desc: MatrixDesc) -> Self {
        MatMut { data, desc }
    }
    /// `data` as a dense row-major `rows × cols` matrix.
    pub fn row_major(data: &'a mut DeviceSlice<T>, rows: usize, cols: usize) -> Self {
        MatMut { data, desc: MatrixDesc::row_major(rows, cols) }
    }
    /// `data` as a dense column-major `rows × cols` matrix.
    pub fn col_major(data: &'a mut DeviceSlice<T>, rows: usize, cols: usize) -> Self {
        MatMut { data, desc: MatrixDesc::col_major(rows, cols) }
    }
    /// The same view with leading dimension `ld`.
    pub fn with_ld(self, ld: usize) -> Self {
        MatMut { desc: MatrixDesc { ld, ..self.desc }, ..self }
    }
}

/// A strided batch: `count` GEMMs, matrix `i` of each operand starting
/// `i · stride` elements after the first (BLAS's `gemmStridedBatched`).
/// A stride of 0 shares one A or B across the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    pub count: usize,
    pub stride_a: usize,
    pub stride_b: usize,
    pub stride_c: usize,
}

impl Batch {
    /// One GEMM.
    pub fn single() -> Self {
        Batch { count: 1, stride_a: 0, stride_b: 0, stride_c: 0 }
    }
}

/// Which kernel runs a call.
#[derive(Clone, Copy, Debug, Default)]
pub enum KernelChoice {
    /// The built-in choice for the dtype, shape and layout
    /// ([`crate::tune::default_choice`]).
    #[default]
    Auto,
    /// This kernel (see [`crate::kernels::find_kernel`]); an error if it does
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
    /// Grouped tile order (1 = off); `None` keeps the kernel's default.
    pub group_m: Option<u32>,
    /// Whether K may be split into chunks summed in a workspace
    /// (`crate::split_k`): `Auto` (default) splits deep K (more accurate)
    /// and few-tile shapes (faster); f16/bf16 calls do not split yet.
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

/// A checked call, reduced to what a kernel launch takes: the problem as
/// the kernel sees it (row-major C; A and B swapped when C is column-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub layout: OperandLayout,
    pub lda: u32,
    pub ldb: u32,
    pub ldc: u32,
    pub stride_a: u64,
    pub stride_b: u64,
    pub stride_c: u64,
    pub batch: u32,
    /// The kernel's A is the caller's B and vice versa (`Cᵀ = Bᵀ·Aᵀ`).
    pub swapped: bool,
}

/// Largest M, N or K: rows and columns are 32-bit in the kernels and an
/// index plus a tile must not wrap.
pub const MAX_DIM: usize = i32::MAX as usize;
/// Largest batch: the launch grid's z dimension.
pub const MAX_BATCH: usize = 65_535;

/// Checks a call (`a`, `b`, `c` with their buffers' lengths) and plans its
/// launch. Pure: no GPU needed, so every rule is tested on the CPU.
pub fn plan(a: (&MatrixDesc, usize), b: (&MatrixDesc, usize), c: (&MatrixDesc, usize), batch: &Batch) -> Result<Plan> {
    let ((a, a_len), (b, b_len), (c, c_len)) = (a, b, c);
    let (m, k, n) = (a.rows, a.cols, b.cols);
    if b.rows != k {
        return Err(GemmError::Shape(format!("A is {m}×{k} but B is {}×{n}: A's columns must equal B's rows", b.rows)));
    }
    if (c.rows, c.cols) != (m, n) {
        return Err(GemmError::Shape(format!("A·B is {m}×{n} but C is {}×{}", c.rows, c.cols)));
    }
    for (what, value, max) in
        [("M", m, MAX_DIM), ("N", n, MAX_DIM), ("K", k, MAX_DIM), ("batch count", batch.count, MAX_BATCH)]
    {
        if value == 0 {
            return Err(GemmError::ZeroDimension { what });
        }
        if value > max {
            return Err(GemmError::DimensionTooLarge { what, value: value as u64, max: max as u64 });
        }
    }
    for (operand, desc, len, stride) in
        [("A", a, a_len, batch.stride_a), ("B", b, b_len, batch.stride_b), ("C", c, c_len, batch.stride_c)]
    {
        let (run, _) = desc.run_and_count();
        if desc.ld < run {
            return Err(GemmError::BadLeadingDimension { operand, ld: desc.ld, min: run });
        }
        if desc.ld > u32::MAX as usize {
            return Err(GemmError::DimensionTooLarge {
                what: "leading dimension",
                value: desc.ld as u64,
                max: u32::MAX as u64,
            });
        }
        let too_large =
            || GemmError::DimensionTooLarge { what: "batch extent", value: u64::MAX, max: usize::MAX as u64 };
        let extent = desc.extent().ok_or_else(too_large)?;
        let needed = (batch.count as u64 - 1)
            .checked_mul(stride as u64)
            .and_then(|s| s.checked_add(extent))
            .ok_or_else(too_large)?;
        if needed > len as u64 {
            return Err(GemmError::BufferTooSmall { operand, needed, len });
        }
    }
    if batch.count > 1 && (batch.stride_c as u64) < c.extent().unwrap_or(u64::MAX) {
        return Err(GemmError::Shape(format!(
            "C matrices of the batch overlap: stride {} is less than one C's extent",
            batch.stride_c
        )));
    }
    // The kernel's A and B, each with its batch stride and whether the
    // kernel reads it column-major. A column-major C is computed as
    // Cᵀ (n×m, row-major) = Bᵀ·Aᵀ, where Bᵀ is B's memory in the other
    // layout: A and B swap, and both flip.
    let swapped = c.layout == Layout::ColMajor;
    let operand =
        |d: &MatrixDesc, stride: usize| (d.ld as u32, stride as u64, (d.layout == Layout::ColMajor) != swapped);
    let ((lda, stride_a, a_col_major), (ldb, stride_b, b_col_major), (m, n)) = if swapped {
        (operand(b, batch.stride_b), operand(a, batch.stride_a), (n, m))
    } else {
        (operand(a, batch.stride_a), operand(b, batch.stride_b), (m, n))
    };
    Ok(Plan {
        m: m as u32,
        n: n as u32,
        k: k as u32,
        layout: OperandLayout { a_col_major, b_col_major },
        lda,
        ldb,
        ldc: c.ld as u32,
        stride_a,
        stride_b,
        stride_c: batch.stride_c as u64,
        batch: batch.count as u32,
        swapped,
    })
}

/// Fails with [`GemmError::Misaligned`] unless `address` is a multiple of
/// `align` (the element size).
pub fn check_alignment(operand: &'static str, address: u64, align: usize) -> Result<()> {
    if address.is_multiple_of(align as u64) { Ok(()) } else { Err(GemmError::Misaligned { operand, address, align }) }
}

/// The kernel a call runs: the requested one, checked against the dtype
/// and layout, or the built-in choice.
pub fn select_kernel<T: Element>(
    options: &GemmOptions,
    plan: &Plan,
    multiprocessors: i32,
    hopper: bool,
) -> Result<&'static KernelSpec> {
    let spec = match options.kernel {
        KernelChoice::Kernel(spec) => spec,
        KernelChoice::Auto => {
            let dtype = match (T::DTYPE, options.allow_tf32) {
                (Dtype::F32, true) => Dtype::Tf32,
                (dtype, _) => dtype,
            };
            let choice = default_choice(dtype, plan.m as usize, plan.n as usize, multiprocessors, plan.layout, hopper);
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
                crate::kernels::layout_name(plan.layout)
            ),
        });
    }
    Ok(spec)
}

impl Gpu {
    /// `C = α·A·B + β·C`, enqueued on this GPU's stream; returns the kernel
    /// that runs it. [`Gpu::download`] (or a stream sync) waits for it.
    pub fn gemm<T: Element>(
        &self,
        options: &GemmOptions,
        a: MatRef<'_, T>,
        b: MatRef<'_, T>,
        c: MatMut<'_, T>,
    ) -> Result<&'static KernelSpec> {
        self.gemm_strided_batched(options, a, b, c, &Batch::single())
    }

    /// `batch.count` independent GEMMs, `C_i = α·A_i·B_i + β·C_i`, with
    /// `X_i` starting `i · batch.stride_x` elements after `X_0`: one launch
    /// (a few more when K is split, see [`GemmOptions::split_k`]; with α = 0
    /// only the scaling of C runs).
    pub fn gemm_strided_batched<T: Element>(
        &self,
        options: &GemmOptions,
        a: MatRef<'_, T>,
        b: MatRef<'_, T>,
        c: MatMut<'_, T>,
        batch: &Batch,
    ) -> Result<&'static KernelSpec> {
        let plan = plan((&a.desc, a.data.len()), (&b.desc, b.data.len()), (&c.desc, c.data.len()), batch)?;
        for (operand, address) in [
            ("A", a.data.as_device_ptr().as_raw()),
            ("B", b.data.as_device_ptr().as_raw()),
            ("C", c.data.as_device_ptr().as_raw()),
        ] {
            check_alignment(operand, address, std::mem::size_of::<T>())?;
        }
        let spec = select_kernel::<T>(options, &plan, self.info.multiprocessors, self.is_hopper())?;
        let (a_ptr, b_ptr) = if plan.swapped { (b.data, a.data) } else { (a.data, b.data) };
        let pointers =
            [a_ptr.as_device_ptr().as_raw(), b_ptr.as_device_ptr().as_raw(), c.data.as_device_ptr().as_raw()];
        if !self.gemm_special::<T>(options, &plan, spec, pointers)? {
            self.launch(spec, &plan, pointers, options.alpha, options.beta, options.group_m)?;
        }
        Ok(spec)
    }
}
