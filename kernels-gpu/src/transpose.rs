//! `transpose_f32`: the transposed copy of an MN-major f32 operand that a
//! K-major kernel (TF32 step 10b, `gemm_launch::Layouts::KMajor`) needs,
//! `dst = srcᵀ` for each matrix of a strided batch.
//!
//! A block moves one 32×32 tile: its warps read rows of the source (128
//! contiguous bytes each), store them into shared memory, and after a
//! barrier read columns back and write them as rows of the destination, so
//! both sides of global memory are whole 128-byte lines. The tile's rows
//! are padded to 33 f32: a column then spans 32 banks. Memory-bound: 8
//! bytes moved per element (geometry: `gemm_launch::k_major`).

use crate::device::{SharedF32, block_idx, block_idx_z, sync_threads, thread_idx};
use gemm_launch::k_major::{THREADS, TILE};

const T: usize = TILE as usize;
const ROWS_PER_PASS: usize = THREADS as usize / T;

/// `dst` (`cols × rows`, packed: `ld = rows`) = `srcᵀ` (`rows × cols`,
/// leading dimension `ld`), for matrix `%ctaid.z` of a batch whose sources
/// are `src_stride` and destinations `dst_stride` elements apart.
///
/// # Safety
/// `src` and `dst` must hold the matrices described; the launch uses
/// `THREADS` threads, `SMEM_BYTES` of shared memory and
/// `gemm_launch::k_major::blocks(rows, cols)` blocks per matrix.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn transpose_f32(
    src: *const f32,
    dst: *mut f32,
    rows: u32,
    cols: u32,
    ld: u32,
    src_stride: u64,
    dst_stride: u64,
) {
    let z = block_idx_z() as usize;
    let (src, dst) = (src.wrapping_add(z * src_stride as usize), dst.wrapping_add(z * dst_stride as usize));
    let tiles_across = cols.div_ceil(TILE);
    let (row0, col0) = ((block_idx() / tiles_across) * TILE, (block_idx() % tiles_across) * TILE);
    let (lane, warp) = (thread_idx() % T, thread_idx() / T);
    let tile = SharedF32::at(0);
    for pass in 0..T / ROWS_PER_PASS {
        let r = pass * ROWS_PER_PASS + warp;
        let (row, col) = (row0 + r as u32, col0 + lane as u32);
        if row < rows && col < cols {
            tile.store(r * (T + 1) + lane, unsafe { *src.add(crate::kernel_abi::at(row, ld, col)) });
        }
    }
    sync_threads();
    for pass in 0..T / ROWS_PER_PASS {
        let c = pass * ROWS_PER_PASS + warp;
        let (row, col) = (row0 + lane as u32, col0 + c as u32);
        if row < rows && col < cols {
            unsafe { *dst.add(crate::kernel_abi::at(col, rows, row)) = tile.load(lane * (T + 1) + c) };
        }
    }
}
