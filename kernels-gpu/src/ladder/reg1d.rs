//! Step 3 — 1-D register blocking: each thread computes a column of TM = 8
//! outputs. Per K step it reads one element of B from shared memory and
//! reuses it from a register for 8 FMAs, so shared-memory traffic per FMA
//! drops from 2 loads to 1 + 1/8.
//!
//! Block tile 64×64, K slice 8, 512 threads; shared memory 4 KiB.
//!
//! Cost: 64 registers, 4.1 KiB shared memory. Measured (H200, 8192×4096×6144, docs/runs/2026-11-22-run13):
//! 12.82 TFLOP/s, 25.2% of cuBLAS.

use super::staging::Stages;
use crate::device::{fma, sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn reg1d<
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
    const { assert!(TN == 1 && BM.is_multiple_of(TM)) };
    let threads = (BM / TM) * BN;
    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let smem = Stages::of::<BM, BN, BK>();
    let (a_tile, b_tile) = (smem.a(0), smem.b(0));
    let t = thread_idx();
    let (thread_row, thread_col) = (t / BN, t % BN);

    let mut acc = [0.0f32; TM];
    for k0 in (0..p.k).step_by(BK) {
        for i in (t..BM * BK).step_by(threads) {
            let (r, cc) = (i / BK, i % BK);
            a_tile.store(i, unsafe { p.a_or_zero::<A_T>(row0 + r as u32, k0 + cc as u32) });
        }
        for i in (t..BK * BN).step_by(threads) {
            let (r, cc) = (i / BN, i % BN);
            b_tile.store(i, unsafe { p.b_or_zero::<B_T>(k0 + r as u32, col0 + cc as u32) });
        }
        sync_threads();
        for kk in 0..BK {
            let b_val = b_tile.load(kk * BN + thread_col);
            for (i, acc_i) in acc.iter_mut().enumerate() {
                *acc_i = fma(a_tile.load((thread_row * TM + i) * BK + kk), b_val, *acc_i);
            }
        }
        sync_threads();
    }
    let col = col0 + thread_col as u32;
    for (i, acc_i) in acc.iter().enumerate() {
        unsafe { p.store_c(row0 + (thread_row * TM + i) as u32, col, *acc_i) };
    }
}

kernel_entries!(simple reg1d, sgemm_reg1d, gemm_launch::REG1D, row_major);
