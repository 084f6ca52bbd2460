//! Pieces every tiled kernel shares: which tile of C this block computes, and
//! bounds-checked scalar access for the edges of the matrices.

use crate::device::block_idx;
use gemm_launch::{tile_coords, tiles};

/// Row and column of the first element of the C tile this block computes,
/// with blocks visited in grouped order (see `gemm_launch::tile_coords`).
#[inline(always)]
pub fn tile_origin<const BM: usize, const BN: usize>(m: u32, n: u32, group_m: u32) -> (usize, usize) {
    let (tile_m, tile_n) = tile_coords(block_idx(), tiles(m, BM as u32), tiles(n, BN as u32), group_m);
    (tile_m as usize * BM, tile_n as usize * BN)
}

/// `matrix[row * ld + col]`, or 0 outside `rows × cols`. Zero-filling the
/// edges lets every kernel run its full-tile loop on any shape.
///
/// # Safety
/// `matrix` must hold `rows × ld` readable f32.
#[inline(always)]
pub unsafe fn load_or_zero(matrix: *const f32, ld: usize, row: usize, col: usize, rows: usize, cols: usize) -> f32 {
    if row < rows && col < cols { unsafe { *matrix.add(row * ld + col) } } else { 0.0 }
}

/// Arguments every f32 kernel receives, converted once.
pub struct Dims {
    pub m: usize,
    pub n: usize,
    pub k: usize,
}

impl Dims {
    #[inline(always)]
    pub fn new(m: u32, n: u32, k: u32) -> Self {
        Dims { m: m as usize, n: n as usize, k: k as usize }
    }
}

/// Declares the PTX entry point for one `KernelSpec`: an
/// `extern "ptx-kernel"` function with the common signature that calls the
/// generic kernel with the spec's tile as const parameters.
macro_rules! sgemm_entry {
    // Kernels that stage operands through registers in 4-wide chunks also get
    // the thread count and the number of A and B chunks each thread moves per K slice.
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
