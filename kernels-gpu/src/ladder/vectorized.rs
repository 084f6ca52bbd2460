//! Step 5 — vectorized: step 4's 128×128 tile, 8×8 outputs per thread, with
//! (1) 128-bit global loads (`ld.global.v4.f32`), (2) A stored transposed in
//! shared memory so a thread's 8 values of A are contiguous, and (3) 128-bit
//! shared reads laid out so a quarter-warp touches 32 distinct banks. Per K
//! step a thread issues 4 shared loads for 64 FMAs (step 4: 16).
//!
//! Block tile 128×128, K slice 8, 256 threads; shared memory 8 KiB. The
//! staging, slice multiply and epilogue live in `staging.rs`.
//!
//! Cost: 107 registers, 8.1 KiB shared memory. Measured (H200, 8192×4096×6144, docs/runs/2026-11-22-run13):
//! 38.35 TFLOP/s, 75.3% of cuBLAS (40.05 before the library ABI, PERF.md step 16).

use super::staging::{Operands, SliceRegs, Stages, ThreadTile, multiply_slice, store_c};
use crate::device::{sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// # Safety
/// See the entry point.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn vectorized<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const TM: usize,
    const TN: usize,
    const THREADS: usize,
    const LA: usize,
    const LB: usize,
    const STAGES: usize,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<f32, f32>,
) {
    const { assert!(THREADS == (BM / TM) * (BN / TN) && STAGES == 1) };
    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let k = p.k;
    let ops = Operands::new(p, row0, col0);
    let smem = Stages::of::<BM, BN, BK>();
    let (a_tile, b_tile) = (smem.a(0), smem.b(0));
    let t = thread_idx();
    let me = ThreadTile::new::<BN, TN>(t);

    let mut acc = [[0.0f32; TN]; TM];
    for k0 in (0..k).step_by(BK) {
        let slice = unsafe { SliceRegs::<LA, LB>::load::<BM, BN, BK, THREADS, A_T, B_T, true>(&ops, k0, t) };
        slice.store::<BM, BN, BK, THREADS, A_T, B_T>(a_tile, b_tile, t);
        sync_threads();
        multiply_slice::<BM, BN, BK, TM, TN>(a_tile, b_tile, me, &mut acc);
        sync_threads();
    }
    unsafe { store_c::<BM, BN, TM, TN>(&ops, me, &acc) };
}

kernel_entries!(staged vectorized, sgemm_vec4, gemm_launch::VECTORIZED, row_major);
