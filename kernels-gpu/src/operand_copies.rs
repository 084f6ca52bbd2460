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
//!   TMA's 16 bytes. 16 bytes of a destination row per thread and store,
//!   read with aligned 16-byte loads whatever the source's alignment (the
//!   bytes past a granule come from the next lane, see [`copy_rows`]).
//!   They may write a larger matrix than the source, zeros past it: a
//!   split-K call's copies padded to whole chunks of K (PERF.md step 101).
//!
//! Memory-bound: each element is read and written once. ptxas 12.9: the
//! straight copies 69–70 registers for sm_80 (60–63 for sm_90), no shared
//! memory, no spills. The 16-byte stores
//! (step 71) took f16 100000×16×777 (its 155 MB A realigned before step
//! 10's tiles) from 0.284 to 0.185 ms, copy and GEMM (H100, PERF.md step
//! 71).

use crate::device::{SharedF32, block_idx, block_idx_z, shfl_down_b32, store_global_x4_b32, sync_threads, thread_idx};
use crate::kernel_abi::at;
use crate::realign::{granule, keep_bytes, realigned};
use gemm_launch::operand_copies::{CHUNK_BYTES, CHUNKS_PER_THREAD, COPY_THREADS, THREADS, TILE};

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

/// `dst` (`rows × cols`, leading dimension `dst_ld`, a multiple of 16
/// bytes, 16-byte aligned) = `src` (`src_rows × src_cols`, at most as
/// large, leading dimension `src_ld`, starting anywhere), zeros past it,
/// for matrix `%ctaid.z` of a batch. (A split-K call's copies reach whole
/// chunks of K so: `host/api/split_k.rs`.)
///
/// The destination's 16-byte chunks are numbered row by row; thread `t` of
/// block `b` writes chunks `(b·CHUNKS_PER_THREAD + l)·COPY_THREADS + t`.
/// A chunk's source bytes start `shift` bytes into an aligned 16-byte
/// granule and run into the next one, which is the granule the next lane
/// loads (its chunk is the next 16 bytes of the same row): every lane loads
/// one aligned granule with a 16-byte load and takes the rest from its
/// neighbour with `shfl.down`, so the copy runs on vector loads whatever the
/// source's alignment. The last lane of a warp and the last chunk of a row
/// load their second granule themselves. Elements past a source row's end
/// (the padding) and the rows past the source's are written as zeros.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn copy_rows<T: Copy + Into<u32>>(
    src: *const T,
    dst: *mut T,
    rows: u32,
    cols: u32,
    src_ld: u32,
    dst_ld: u32,
    src_stride: u64,
    dst_stride: u64,
    (src_rows, src_cols): (u32, u32),
) {
    const PER: usize = CHUNKS_PER_THREAD as usize;
    const THREADS_: u32 = COPY_THREADS;
    let size = core::mem::size_of::<T>();
    let per_chunk = CHUNK_BYTES as usize / size;
    let z = block_idx_z() as usize;
    let (src, dst) = (src.wrapping_add(z * src_stride as usize), dst.wrapping_add(z * dst_stride as usize));
    let base = src.expose_provenance();
    let span = (base, base + at(src_rows - 1, src_ld, src_cols) * size);
    let chunks_per_row = cols.div_ceil(per_chunk as u32);
    let total = rows * chunks_per_row;
    let t = thread_idx() as u32;
    let lane = t % 32;
    let first = block_idx() * THREADS_ * PER as u32 + t;

    // Every load of the thread's chunks before the first store: its own
    // granule, and the one after it where no neighbour holds that.
    let mut granules = [[0u32; 8]; PER];
    let mut places = [(0usize, 0u32, 0u32, false); PER];
    for l in 0..PER {
        let g = first + l as u32 * THREADS_;
        if g < total {
            let (row, chunk) = (g / chunks_per_row, g % chunks_per_row);
            let from = base + at(row, src_ld, chunk * per_chunk as u32) * size;
            let own = unsafe { granule::<T>(from & !15, span) };
            let from_neighbour = lane < 31 && chunk + 1 < chunks_per_row;
            let next = if from.is_multiple_of(16) || from_neighbour {
                [0; 4]
            } else {
                unsafe { granule::<T>((from & !15) + 16, span) }
            };
            granules[l] = [own[0], own[1], own[2], own[3], next[0], next[1], next[2], next[3]];
            places[l] = (from, row, chunk, from_neighbour);
        }
    }
    for l in 0..PER {
        let g = first + l as u32 * THREADS_;
        let mut window = granules[l];
        let neighbours: [u32; 4] = core::array::from_fn(|q| shfl_down_b32(window[q], 1));
        let (from, row, chunk, from_neighbour) = places[l];
        if g >= total {
            continue;
        }
        if from_neighbour {
            window[4..].copy_from_slice(&neighbours);
        }
        // Elements of this chunk still in the source's row; the rest is padding.
        let valid = if row < src_rows { src_cols.saturating_sub(chunk * per_chunk as u32) as usize } else { 0 };
        let words = keep_bytes(realigned(window, from % 16), valid.min(per_chunk) * size);
        let to = dst.wrapping_add(at(row, dst_ld, chunk * per_chunk as u32)) as *mut u32;
        unsafe { store_global_x4_b32(to, words) };
    }
}

/// [`copy_rows`] of 2-byte elements (f16, bf16).
///
/// # Safety
/// `src` and `dst` must hold the matrices described (`dst` as in
/// [`copy_rows`]); the launch uses `COPY_THREADS` threads and
/// `gemm_launch::operand_copies::copy_blocks(rows, cols, 2)` blocks per
/// matrix, and the matrix has fewer than 2³² chunks.
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
    src_rows: u32,
    src_cols: u32,
) {
    unsafe { copy_rows(src, dst, rows, cols, src_ld, dst_ld, src_stride, dst_stride, (src_rows, src_cols)) }
}

/// [`copy_rows`] of 4-byte elements (f32 read as TF32).
///
/// # Safety
/// As [`copy_rows_b16`], with `copy_blocks(rows, cols, 4)` blocks.
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
    src_rows: u32,
    src_cols: u32,
) {
    unsafe { copy_rows(src, dst, rows, cols, src_ld, dst_ld, src_stride, dst_stride, (src_rows, src_cols)) }
}
