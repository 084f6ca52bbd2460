//! The copies that bring an operand to what a TMA kernel reads (geometry
//! and when the host makes them: `gemm_launch::operand_copies`), for each
//! matrix `%ctaid.z` of a strided batch:
//!
//! - `transpose_f32`: `dst = srcᵀ` for an MN-major f32 operand of a
//!   K-major kernel (TF32 step 10b). A block moves one 32×32 tile: its
//!   warps read rows of the source (128 contiguous bytes each), store them
//!   into shared memory, and after a barrier read columns back and write
//!   them as rows of the destination, so both sides of global memory are
//!   whole 128-byte lines. The tile's rows are padded to 33 f32: a column
//!   then spans 32 banks.
//! - `copy_rows_b16`, `copy_rows_b32`: `dst = src` with a new leading
//!   dimension, for operands whose start, rows or batch stride are off the
//!   TMA's 16 bytes. Element by element (the source rows may start
//!   anywhere), a warp reading 32 consecutive elements.
//!
//! Memory-bound: each element is read and written once.

use crate::device::{SharedF32, block_idx, block_idx_z, sync_threads, thread_idx};
use crate::kernel_abi::at;
use gemm_launch::operand_copies::{COPY_ROWS, COPY_THREADS, THREADS, TILE};

const T: usize = TILE as usize;
const ROWS_PER_PASS: usize = THREADS as usize / T;

/// `dst` (`cols × rows`, leading dimension `dst_ld`) = `srcᵀ` (`rows ×
/// cols`, leading dimension `src_ld`), for matrix `%ctaid.z` of a batch
/// whose sources are `src_stride` and destinations `dst_stride` elements
/// apart.
///
/// # Safety
/// `src` and `dst` must hold the matrices described; the launch uses
/// `THREADS` threads, `SMEM_BYTES` of shared memory and
/// `gemm_launch::operand_copies::blocks(rows, cols)` blocks per matrix.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn transpose_f32(
    src: *const f32,
    dst: *mut f32,
    rows: u32,
    cols: u32,
    src_ld: u32,
    dst_ld: u32,
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
            tile.store(r * (T + 1) + lane, unsafe { *src.add(at(row, src_ld, col)) });
        }
    }
    sync_threads();
    for pass in 0..T / ROWS_PER_PASS {
        let c = pass * ROWS_PER_PASS + warp;
        let (row, col) = (row0 + lane as u32, col0 + c as u32);
        if row < rows && col < cols {
            unsafe { *dst.add(at(col, dst_ld, row)) = tile.load(lane * (T + 1) + c) };
        }
    }
}

/// `dst` (`rows × cols`, leading dimension `dst_ld`) = `src` (leading
/// dimension `src_ld`), for matrix `%ctaid.z` of a batch. Block `b` moves
/// rows `COPY_ROWS·(b / col_blocks)..` of columns `COPY_THREADS·(b % col_blocks)..`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn copy_rows<T: Copy>(
    src: *const T,
    dst: *mut T,
    rows: u32,
    cols: u32,
    src_ld: u32,
    dst_ld: u32,
    src_stride: u64,
    dst_stride: u64,
) {
    let z = block_idx_z() as usize;
    let (src, dst) = (src.wrapping_add(z * src_stride as usize), dst.wrapping_add(z * dst_stride as usize));
    let col_blocks = cols.div_ceil(COPY_THREADS);
    let row0 = (block_idx() / col_blocks) * COPY_ROWS;
    let col = (block_idx() % col_blocks) * COPY_THREADS + thread_idx() as u32;
    if col >= cols {
        return;
    }
    // Issue every load of the block's rows before the first store.
    let mut values = [None; COPY_ROWS as usize];
    for (r, value) in values.iter_mut().enumerate() {
        let row = row0 + r as u32;
        if row < rows {
            *value = Some(unsafe { *src.add(at(row, src_ld, col)) });
        }
    }
    for (r, value) in values.into_iter().enumerate() {
        if let Some(value) = value {
            unsafe { *dst.add(at(row0 + r as u32, dst_ld, col)) = value };
        }
    }
}

/// [`copy_rows`] of 2-byte elements (f16, bf16).
///
/// # Safety
/// `src` and `dst` must hold the matrices described; the launch uses
/// `COPY_THREADS` threads and `gemm_launch::operand_copies::copy_blocks(rows, cols)`
/// blocks per matrix.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn copy_rows_b16(
    src: *const u16,
    dst: *mut u16,
    rows: u32,
    cols: u32,
    src_ld: u32,
    dst_ld: u32,
    src_stride: u64,
    dst_stride: u64,
) {
    unsafe { copy_rows(src, dst, rows, cols, src_ld, dst_ld, src_stride, dst_stride) }
}

/// [`copy_rows`] of 4-byte elements (f32 read as TF32).
///
/// # Safety
/// As [`copy_rows_b16`].
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn copy_rows_b32(
    src: *const u32,
    dst: *mut u32,
    rows: u32,
    cols: u32,
    src_ld: u32,
    dst_ld: u32,
    src_stride: u64,
    dst_stride: u64,
) {
    unsafe { copy_rows(src, dst, rows, cols, src_ld, dst_ld, src_stride, dst_stride) }
}
