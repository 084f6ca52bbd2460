//! Pieces every kernel shares: which tile of C this block computes, element
//! offsets, and bounds-checked scalar access for the edges of the matrices.
//!
//! Rows, columns and dimensions are u32 (the launcher checks they fit); only
//! the element offset `row · ld + col` is 64-bit, formed by one widening
//! multiply-add. Index math and bounds tests in 64 bits would cost twice the
//! instructions and registers, and the registers decide how many blocks fit
//! on a multiprocessor.

use crate::device::{SharedF32, block_idx};
use gemm_launch::{Tile, tile_coords, tiles};

/// Row and column of the first element of the C tile this block computes,
/// with blocks visited in grouped order (see `gemm_launch::tile_coords`).
#[inline(always)]
pub fn tile_origin<const BM: usize, const BN: usize>(m: u32, n: u32, group_m: u32) -> (u32, u32) {
    let (tile_m, tile_n) = tile_coords(block_idx(), tiles(m, BM as u32), tiles(n, BN as u32), group_m);
    (tile_m * BM as u32, tile_n * BN as u32)
}

/// Where each stage's A and B slices live in dynamic shared memory. The sizes
/// come from `gemm_launch::Tile`, as does the launch's shared-memory request.
pub struct Stages {
    a_bytes: usize,
    stage_bytes: usize,
}

impl Stages {
    #[inline(always)]
    pub const fn of<const BM: usize, const BN: usize, const BK: usize>() -> Self {
        let tile = Tile { bm: BM as u32, bn: BN as u32, bk: BK as u32, tm: 1, tn: 1 };
        Stages { a_bytes: tile.a_smem_bytes() as usize, stage_bytes: tile.stage_bytes() as usize }
    }

    /// The A slice of `stage`.
    #[inline(always)]
    pub fn a(&self, stage: usize) -> SharedF32 {
        SharedF32::at(stage * self.stage_bytes)
    }

    /// The B slice of `stage`.
    #[inline(always)]
    pub fn b(&self, stage: usize) -> SharedF32 {
        SharedF32::at(stage * self.stage_bytes + self.a_bytes)
    }
}

/// Leading dimension of the transposed A slice for a block tile of BM rows.
#[inline(always)]
pub const fn a_ld<const BM: usize>() -> usize {
    gemm_launch::a_smem_ld(BM as u32) as usize
}

/// Offset of element (row, col) of a row-major matrix with leading dimension
/// `ld`, in 64 bits (`mul.wide.u32` + add), so matrices past 2^32 elements work.
#[inline(always)]
pub fn at(row: u32, ld: u32, col: u32) -> usize {
    row as usize * ld as usize + col as usize
}

/// `matrix[row * ld + col]`, or 0 outside `rows × cols`. Zero-filling the
/// edges lets every kernel run its full-tile loop on any shape.
///
/// # Safety
/// `matrix` must hold `rows × ld` readable f32.
#[inline(always)]
pub unsafe fn load_or_zero(matrix: *const f32, ld: u32, row: u32, col: u32, rows: u32, cols: u32) -> f32 {
    if row < rows && col < cols { unsafe { *matrix.add(at(row, ld, col)) } } else { 0.0 }
}

/// The problem's dimensions, as every kernel receives them.
#[derive(Clone, Copy)]
pub struct Dims {
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

impl Dims {
    #[inline(always)]
    pub fn new(m: u32, n: u32, k: u32) -> Self {
        Dims { m, n, k }
    }
}

/// Declares the PTX entry point for one `KernelSpec`: an
/// `extern "ptx-kernel"` function with the common signature that calls the
/// generic kernel with the spec's tile as const parameters.
macro_rules! sgemm_entry {
    // Kernels that move operands in 4-wide chunks (via registers or cp.async) get
    // the thread count, the number of A and B chunks each thread moves per K
    // slice, and the number of shared-memory stages.
    ($entry:ident, $kernel:ident, $spec:expr, staged) => {
        /// PTX entry point; see the generic kernel for the algorithm.
        ///
        /// # Safety
        /// As for the other entry points.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $entry(
            a: *const f32,
            b: *const f32,
            c: *mut f32,
            m: u32,
            n: u32,
            k: u32,
            group_m: u32,
        ) {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            unsafe {
                $kernel::<
                    { T.bm as usize },
                    { T.bn as usize },
                    { T.bk as usize },
                    { T.tm as usize },
                    { T.tn as usize },
                    { T.threads() as usize },
                    { (T.bm * T.bk / 4 / T.threads()) as usize },
                    { (T.bk * T.bn / 4 / T.threads()) as usize },
                    { SPEC.stages as usize },
                >(a, b, c, m, n, k, group_m)
            }
        }
    };
    ($entry:ident, $kernel:ident, $spec:expr) => {
        /// PTX entry point; see the generic kernel for the algorithm.
        ///
        /// # Safety
        /// `a`, `b`, `c` must hold `m×k`, `k×n`, `m×n` f32 (row-major, 16-byte
        /// aligned) and the launch must use the spec's block, grid and shared
        /// memory (`gemm_launch::KernelSpec`).
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $entry(
            a: *const f32,
            b: *const f32,
            c: *mut f32,
            m: u32,
            n: u32,
            k: u32,
            group_m: u32,
        ) {
            const SPEC: gemm_launch::KernelSpec = $spec;
            unsafe {
                $kernel::<
                    { SPEC.tile.bm as usize },
                    { SPEC.tile.bn as usize },
                    { SPEC.tile.bk as usize },
                    { SPEC.tile.tm as usize },
                    { SPEC.tile.tn as usize },
                >(a, b, c, m, n, k, group_m)
            }
        }
    };
}
pub(crate) use sgemm_entry;
