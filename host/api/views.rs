//! Matrices as the API sees them: a device buffer and how to read it
//! (rows, columns, leading dimension, layout), and a strided batch. A view
//! never copies; its transpose is the same memory in the other layout.

use cust::memory::{DeviceCopy, DeviceSlice};

/// How a matrix lies in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Rows are contiguous; `ld` elements from one row to the next.
    RowMajor,
    /// Columns are contiguous; `ld` elements from one column to the next.
    ColMajor,
}

impl Layout {
    pub(super) fn flipped(self) -> Layout {
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
    pub(super) fn run_and_count(&self) -> (usize, usize) {
        match self.layout {
            Layout::RowMajor => (self.cols, self.rows),
            Layout::ColMajor => (self.rows, self.cols),
        }
    }

    /// Elements from the first to one past the last element.
    pub(super) fn extent(&self) -> Option<u64> {
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
