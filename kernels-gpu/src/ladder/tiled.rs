//! Step 2 — tiled (the seeds' kernel): the block computes a 32×32 tile of C.
//! For each 32-wide slice of K it stages a 32×32 tile of A and one of B in
//! shared memory, then every thread reads its row of the A tile and column of
//! the B tile from there. Each element loaded from global memory is used 32
//! times; the running sum stays in a register.
//!
//! Block: 32×32 threads, one output each; shared memory 8 KiB. Loads and the
//! store are masked (zero-fill), so any M, N, K is correct.
//!
//! Cost: 32 registers, 8.5 KiB shared memory. Measured (H200, 8192×4096×6144, docs/runs/2026-11-22-run13):
//! 8.78 TFLOP/s, 17.2% of cuBLAS.

use super::staging::Stages;
use crate::device::{fma, sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn tiled<
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
    const { assert!(BM == BN && BN == BK && TM == 1 && TN == 1, "square tiles, one output per thread") };
    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let smem = Stages::of::<BM, BN, BK>();
    let (a_tile, b_tile) = (smem.a(0), smem.b(0));
    let (ty, tx) = (thread_idx() / BN, thread_idx() % BN);
    let (row, col) = (row0 + ty as u32, col0 + tx as u32);

    let mut sum = 0.0f32;
    for k0 in (0..p.k).step_by(BK) {
        let (k_a, k_b) = (k0 + tx as u32, k0 + ty as u32);
        // Thread (ty, tx) brings in A[row][k0 + tx] and B[k0 + ty][col]:
        // consecutive threads read consecutive addresses (coalesced).
        a_tile.store(ty * BK + tx, unsafe { p.a_or_zero::<A_T>(row, k_a) });
        b_tile.store(ty * BN + tx, unsafe { p.b_or_zero::<B_T>(k_b, col) });
        sync_threads();
        for i in 0..BK {
            sum = fma(a_tile.load(ty * BK + i), b_tile.load(i * BN + tx), sum);
        }
        // The next slice overwrites the tiles: wait until everyone is done.
        sync_threads();
    }
    unsafe { p.store_c(row, col, sum) };
}

kernel_entries!(simple tiled, sgemm_tiled, gemm_launch::TILED, row_major);
