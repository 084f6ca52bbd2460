//! Step 1 — naive: one thread per element of C; the dot product of a row of A
//! and a column of B runs straight from global memory.
//!
//! Block: 8×32 outputs (256 threads). Consecutive threads take consecutive
//! columns, so a warp reads 32 consecutive elements of B and writes 32 of C
//! (coalesced); the element of A it reads is the same for the whole warp (a
//! broadcast). Every operand is re-read from global memory (through L1/L2)
//! for every output: 2·K loads per 2·K flops.
//!
//! Cost: 32 registers, no shared memory. Measured (H200, docs/runs/2026-11-22-run7):
//! 6.96 TFLOP/s, 13.7% of cuBLAS, on 4096×2048×3072 (the seeds' shape halved).

use crate::common::{Dims, at, sgemm_entry, tile_origin};
use crate::device::{fma, thread_idx};

/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn naive<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    group_m: u32,
) {
    let (row0, col0) = tile_origin::<BM, BN>(m, n, group_m);
    let Dims { m, n, k } = Dims::new(m, n, k);
    let row = row0 + (thread_idx() / BN) as u32;
    let col = col0 + (thread_idx() % BN) as u32;
    if row < m && col < n {
        let mut sum = 0.0f32;
        for p in 0..k {
            sum = unsafe { fma(*a.add(at(row, k, p)), *b.add(at(p, n, col)), sum) };
        }
        unsafe { *c.add(at(row, n, col)) = sum };
    }
}

sgemm_entry!(sgemm_naive, naive, gemm_launch::NAIVE);
