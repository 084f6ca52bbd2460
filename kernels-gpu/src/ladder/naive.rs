//! Step 1 — naive: one thread per element of C; the dot product of a row of A
//! and a column of B runs straight from global memory.
//!
//! Block: 8×32 outputs (256 threads). Consecutive threads take consecutive
//! columns, so a warp reads 32 consecutive elements of B and writes 32 of C
//! (coalesced); the element of A it reads is the same for the whole warp (a
//! broadcast). Every operand is re-read from global memory (through L1/L2)
//! for every output: 2·K loads per 2·K flops.
//!
//! Cost: 32 registers, no shared memory. Measured (H200, docs/runs/2026-11-22-run13):
//! 6.96 TFLOP/s, 13.7% of cuBLAS, on 4096×2048×3072 (the seeds' shape halved).

use crate::device::{fma, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// `A_T`, `B_T`: A, B stored column-major (read in place; the warp's reads
/// of B are then strided, so this layout is for correctness, not speed).
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn naive<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const TM: usize,
    const TN: usize,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<f32, f32>,
) {
    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let row = row0 + (thread_idx() / BN) as u32;
    let col = col0 + (thread_idx() % BN) as u32;
    if row < p.m && col < p.n {
        let mut sum = 0.0f32;
        for i in 0..p.k {
            sum = unsafe { fma(*p.a.add(p.a_at::<A_T>(row, i)), *p.b.add(p.b_at::<B_T>(i, col)), sum) };
        }
        unsafe { p.store_c(row, col, sum) };
    }
}

kernel_entries!(simple naive, sgemm_naive, gemm_launch::NAIVE, any);
