//! Step 4 — 2-D register blocking: each thread computes a TM×TN = 8×8 block of
//! outputs. Per K step it loads 8 values of A and 8 of B into registers and
//! does their 64-FMA outer product: 16 shared loads per 64 FMAs (step 3: 9
//! per 8). The block tile grows to 128×128, so each global element is reused
//! 128 times.
//!
//! Block tile 128×128, K slice 8, 256 threads; shared memory 8 KiB.
//!
//! Cost: 128 registers, 8.1 KiB shared memory. Measured (H200, 8192×4096×6144, docs/runs/2026-11-22-run13):
//! 16.68 TFLOP/s, 32.7% of cuBLAS (17.89 before the library ABI, PERF.md step 16).

use super::staging::Stages;
use crate::device::{fma, sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn reg2d<
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
    let threads = (BM / TM) * (BN / TN);
    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let smem = Stages::of::<BM, BN, BK>();
    let (a_tile, b_tile) = (smem.a(0), smem.b(0));
    let t = thread_idx();
    let (thread_row, thread_col) = (t / (BN / TN), t % (BN / TN));

    let mut acc = [[0.0f32; TN]; TM];
    let mut a_reg = [0.0f32; TM];
    let mut b_reg = [0.0f32; TN];
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
            for (i, a_i) in a_reg.iter_mut().enumerate() {
                *a_i = a_tile.load((thread_row * TM + i) * BK + kk);
            }
            for (j, b_j) in b_reg.iter_mut().enumerate() {
                *b_j = b_tile.load(kk * BN + thread_col * TN + j);
            }
            for i in 0..TM {
                for j in 0..TN {
                    acc[i][j] = fma(a_reg[i], b_reg[j], acc[i][j]);
                }
            }
        }
        sync_threads();
    }
    for (i, acc_row) in acc.iter().enumerate() {
        let row = row0 + (thread_row * TM + i) as u32;
        for (j, acc_ij) in acc_row.iter().enumerate() {
            unsafe { p.store_c(row, col0 + (thread_col * TN + j) as u32, *acc_ij) };
        }
    }
}

kernel_entries!(simple reg2d, sgemm_reg2d, gemm_launch::REG2D, row_major);
