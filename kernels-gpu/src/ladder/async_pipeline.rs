//! Step 7 — multi-stage `cp.async` pipeline. Step 6 moved each K slice
//! global → registers → shared memory, so the prefetch held registers (8–16
//! per thread) and only one slice could be in flight. Here `cp.async` copies
//! global → shared directly: STAGES − 1 slices are in flight while one is
//! multiplied, and the registers freed let two 256-thread blocks share a
//! multiprocessor (`min_blocks_per_sm = 2`, written into the PTX as
//! `.minnctapersm 2` by build.rs, caps ptxas at 128 registers), so one block
//! computes while the other waits at its barrier.
//!
//! A is still stored transposed (`[BK][BM]`), through four 4-byte copies per
//! 16-byte chunk; B rows go as 16-byte copies. Edges use zero-filling copies
//! (`src_bytes = 0`), so every shape runs the same loop.
//!
//! Configurations (tuner's space, `gemm_launch::ASYNC_*`): 128×128×8,
//! 128×128×16 and 128×64×16, 3 stages, 256 threads. (A 4th stage needs more
//! than 128 registers: ptxas spills.)
//!
//! Cost and measured speed (H200, 8192×4096×6144, docs/runs/2026-11-22-run13):
//! 128×128×16: 127 registers, 48.8 KiB, 41.86 TFLOP/s (82.2% of cuBLAS);
//! 128×128×8: 128 registers, 24.4 KiB, 35.60; 128×64×16: 95 registers, 31.32.
//! Slower than step 6: A must be stored transposed, which `cp.async` can do
//! only 4 bytes at a time (ncu: 48% more shared-memory wavefronts).

use super::staging::{Operands, Stages, ThreadTile, a_ld, multiply_slice, store_c};
use crate::device::sm80::{cp_async_4, cp_async_16, cp_async_commit, cp_async_wait};
use crate::device::{SharedF32, sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, at, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// Issues the copies of the K slice starting at `k0` into one stage: A
/// transposed into `[BK][BM + pad]`, one 4-byte copy per element (the step's
/// weakness, see above), B rows 16 bytes at a time. The tensor-core kernels'
/// copy (`tensor_core/global_to_shared.rs`) keeps operands untransposed and
/// moves only 16-byte chunks, so it cannot serve here; this stays the step's
/// own.
#[inline(always)]
pub(super) unsafe fn copy_slice<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const LA: usize,
    const LB: usize,
>(
    ops: &Operands,
    k0: u32,
    t: usize,
    a_tile: SharedF32,
    b_tile: SharedF32,
) {
    let Gemm { a, b, m, n, k, lda, ldb, .. } = ops.p;
    for l in 0..LA {
        let i = t + l * THREADS;
        let (r, c4) = (i / (BK / 4), (i % (BK / 4)) * 4);
        let row = ops.row0 + r as u32;
        for j in 0..4 {
            let col = k0 + (c4 + j) as u32;
            let inside = row < m && col < k;
            let src = if inside { unsafe { a.add(at(row, lda, col)) } } else { a };
            unsafe { cp_async_4(a_tile.addr((c4 + j) * a_ld::<BM>() + r), src, if inside { 4 } else { 0 }) };
        }
    }
    let b_aligned = ops.p.b_aligned();
    for l in 0..LB {
        let i = t + l * THREADS;
        let (r, c4) = (i / (BN / 4), (i % (BN / 4)) * 4);
        let (row, col) = (k0 + r as u32, ops.col0 + c4 as u32);
        if b_aligned && row < k && col + 4 <= n {
            unsafe { cp_async_16(b_tile.addr(i * 4), b.add(at(row, ldb, col))) };
        } else {
            for j in 0..4 {
                let inside = row < k && col + (j as u32) < n;
                let src = if inside { unsafe { b.add(at(row, ldb, col + j as u32)) } } else { b };
                unsafe { cp_async_4(b_tile.addr(i * 4 + j), src, if inside { 4 } else { 0 }) };
            }
        }
    }
}

/// # Safety
/// See the entry point.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn async_pipeline<
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
    const { assert!(!A_T && !B_T, "row-major operands only") };
    const { assert!(THREADS == (BM / TM) * (BN / TN) && STAGES >= 2 && STAGES <= 9) };
    let smem = Stages::of::<BM, BN, BK>();
    let (a_tile, b_tile) = (|stage| smem.a(stage), |stage| smem.b(stage));

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new(p, row0, col0);
    let t = thread_idx();
    let me = ThreadTile::new::<BN, TN>(t);

    // Prologue: slices 0 .. STAGES-2 in flight. A group is committed even when
    // there is no slice left, so "wait until STAGES-2 groups remain" always
    // means "slice s has landed".
    for s in 0..STAGES - 1 {
        if s < slices {
            unsafe { copy_slice::<BM, BN, BK, THREADS, LA, LB>(&ops, (s * BK) as u32, t, a_tile(s), b_tile(s)) };
        }
        cp_async_commit();
    }
    let mut acc = [[0.0f32; TN]; TM];
    for s in 0..slices {
        cp_async_wait(STAGES as u32 - 2);
        // Everyone's copies of slice s are visible, and everyone is done with
        // slice s-1, whose stage the next copy overwrites.
        sync_threads();
        let next = s + STAGES - 1;
        if next < slices {
            let stage = next % STAGES;
            unsafe {
                copy_slice::<BM, BN, BK, THREADS, LA, LB>(&ops, (next * BK) as u32, t, a_tile(stage), b_tile(stage))
            };
        }
        cp_async_commit();
        multiply_slice::<BM, BN, BK, TM, TN>(a_tile(s % STAGES), b_tile(s % STAGES), me, &mut acc);
    }
    unsafe { store_c::<BM, BN, TM, TN>(&ops, me, &acc) };
}

kernel_entries!(staged async_pipeline, sgemm_async_128x128x8, gemm_launch::ASYNC_128X128X8, row_major);
kernel_entries!(staged async_pipeline, sgemm_async_128x128x16, gemm_launch::ASYNC_128X128X16, row_major);
kernel_entries!(staged async_pipeline, sgemm_async_128x64x16, gemm_launch::ASYNC_128X64X16, row_major);
