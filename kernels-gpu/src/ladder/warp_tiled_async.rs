//! Step 7c — step 7b's warp tiles fed by a `cp.async` ring instead of
//! register staging: the question issue 15 asks of this kernel, whether
//! two register-staged stages or a 3-stage `cp.async` ring is better. The
//! warps, lanes, fragment prefetch and FMA order are step 7b's
//! ([`super::warp_tiled`]); the copies are step 7's
//! ([`super::async_pipeline`]): A transposed into `[BK][BM + pad]` with
//! 4-byte copies (conflict-free with the pad: a warp's 32 copies of one k
//! land in 16 rows × 2 chunk halves 16 banks apart), B rows with 16-byte
//! copies, zero fill past the edges. No slice passes through registers, so
//! the prefetch costs none, and STAGES − 1 slices are in flight instead of
//! one; the price is 4× more copy instructions for A and one more stage of
//! shared memory. Row-major operands only (step 7's copies).
//!
//! Since every copy of A is 4 bytes, and B's fall back to 4 bytes where
//! its rows are off 16 bytes, the ring reads such rows in place: where
//! step 7b's tiles would run on realigned copies of the operands (or load
//! them element by element through registers), this kernel needs neither.
//!
//! Configurations (`gemm_launch::WT_ASYNC_*`): 256×128×8, 8 warps of
//! 64×64, 3 stages; 64×64×8, 4 warps of 32×32, 3 stages, five blocks per
//! SM (step 83: cuBLAS's shape of tile for mid sizes); 64×128×8, 4 warps
//! of 32×64, 3 stages, four blocks per SM (step 113: cuBLAS's tile and
//! ring for f32 sizes that are no multiple of a tile, which `auto` runs
//! where the others would be realigned; the f32 split model weighs both);
//! 128×64×8, the same warps one above the other, four blocks per SM
//! (step 114, where N pads a 128-wide tile more than M a 128-tall one;
//! three per SM until step 116).
//!
//! The copies are step 7's ([`SliceCopies`]: each thread's worked out
//! once per tile, a slice adding its K offset); the stages are counted
//! round rather than divided out each slice. Together they cut the main
//! loop of 64×128×8 from 732 instructions to 677 (sm_90 SASS, counting
//! both of B's paths, one of which a slice runs; 512 of them FMAs;
//! PERF.md step 115).
//!
//! Cost (ptxas 12.9): 256×128×8 221 registers on sm_90 (240 on sm_80),
//! 74.5 KiB shared memory; 64×64×8 95 (89 on sm_80), 12.4 KiB; 64×128×8
//! 128 (128 on sm_80), 18.4 KiB; 128×64×8 127 (128 on sm_80; before
//! step 115's copies it spilled under 128), 18.4 KiB. No spills, no stack
//! frame.
//!
//! Measured: 256×128×8 in docs/PERF.md step 43. 64×64×8 (step 83, H100,
//! % of cuBLAS against step 7b's registers on the same tiles): ahead only
//! on the smallest calls, 767×769×771 in 3 chunks 73 against 71,
//! 1100×700×1001 in 2 77 against 74; behind from 1024³ on (unsplit 73
//! against 82, 1536³ 68 against 90). Not profiled; its A copies are 4
//! bytes each, four times step 7b's loads. 64×128×8 (step 113, H200,
//! `auto`, rows off 16 bytes, ms against the build before): 777×999×3333
//! in 5 chunks 0.170, **30.4 TFLOP/s, 77.6% of cuBLAS** (`wt_64x64x8` on
//! copies 0.187, 71%), 777×999×2761 0.145 (78%; in place 0.210),
//! 1200×1100×1301 0.111 (83%; `wt_64x128x8` 0.164), 700×1100×5001 0.226
//! (84%); unsplit at 4096³ 37.8 TFLOP/s (73.5%; `wt_256x128x8` 51.8), and
//! at 1031×1029×1027 0.097 against `wt_64x64x8`'s 0.092, where `auto`
//! keeps the latter. 128×64×8 (step 114, H200, `auto`): 600×700×7001 in
//! 7 chunks 0.180, **32.7 TFLOP/s, 90% of cuBLAS** (`wt_128x128x8`
//! 0.196), 1100×700×5001 0.221 (88%), 1100×700×1001 0.057 (81%;
//! `wt_64x64x8` 0.063), 999×777×3333 0.181 (73%). Step 115 (H200,
//! `auto`, ms before → after): 777×999×3333 0.170 → 0.155, **33.3
//! TFLOP/s, 85% of cuBLAS** (ncu: the kernel 166 → 150 µs; cuBLAS's 126.6
//! on the same tile, ring and split count), 777×999×2761 0.145 → 0.133
//! (84%), 1200×1100×1301 0.111 → 0.104 (87–88%), 600×700×7001 0.180 →
//! 0.175 (92%), 1100×700×1001 0.057 → 0.055 (84%), but 999×777×3333
//! 0.181 → 0.184 (71%); unsplit at 4096³, 64×128×8 39.3 TFLOP/s (37.6
//! before), 256×128×8 43.5 (42.1). Step 116, 128×64×8 at four blocks
//! per SM (`auto`, ms against step 115): 999×777×3333 0.186 → 0.166
//! (79.5%), 999×777×2761 0.175 → 0.144 (91%); 600×700×7001 0.176 →
//! 0.180, 1100×700×1001 0.055 → 0.057, 1100×700×5001 0.217 → 0.221.

use super::async_pipeline::SliceCopies;
use super::staging::{Operands, Stages, store_c_at};
use super::warp_tiled::{Fragments, LaneTile};
use crate::device::sm80::{cp_async_commit, cp_async_wait};
use crate::device::{sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn warp_tiled_async<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const WM: usize,
    const WN: usize,
    const TM: usize,
    const TN: usize,
    const THREADS: usize,
    const LA: usize,
    const LB: usize,
    const STAGES: usize,
    const SERPENTINE: bool,
    const A_T: bool,
    const B_T: bool,
    const C_ROWS_OFF_16: bool,
>(
    p: Gemm<f32, f32>,
) {
    const { assert!(!A_T && !B_T, "row-major operands only") };
    const { assert!(!C_ROWS_OFF_16, "one epilogue: C's rows on or off 16 bytes") };
    const { assert!(THREADS == (BM / WM) * (BN / WN) * 32 && STAGES >= 3 && STAGES <= 9) };
    let smem = Stages::of::<BM, BN, BK>();
    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new(p, row0, col0);
    let t = thread_idx();
    let me = LaneTile::new::<BN, WM, WN>(t);
    let copies = SliceCopies::<LA, LB>::new::<BM, BN, BK, THREADS>(&ops, t);

    // Slices 0 .. STAGES-2 in flight. A group is committed even when there is
    // no slice left, so "wait until STAGES-2 groups remain" always means "the
    // slice the next barrier releases has landed".
    for s in 0..STAGES - 1 {
        if s < slices {
            unsafe { copies.copy::<BM, BN, BK, THREADS>((s * BK) as u32, smem.a(s), smem.b(s)) };
        }
        cp_async_commit();
    }
    cp_async_wait(STAGES as u32 - 2);
    sync_threads();
    let mut acc = [[0.0f32; TN]; TM];
    let mut frags = Fragments::<TM, TN>::load::<BM, BN>(smem.a(0), smem.b(0), 0, me);
    // Slice s's stage, s % STAGES, and the one before it, counted round
    // rather than divided out each slice.
    let (mut stage, mut before) = (0, STAGES - 1);
    for s in 0..slices {
        let next_stage = if stage + 1 == STAGES { 0 } else { stage + 1 };
        // Slice s + STAGES - 1 goes where slice s - 1 was: every thread read
        // that stage before the barrier that ended slice s - 1.
        let ahead = s + STAGES - 1;
        if ahead < slices {
            unsafe { copies.copy::<BM, BN, BK, THREADS>((ahead * BK) as u32, smem.a(before), smem.b(before)) };
        }
        cp_async_commit();
        for k in 0..BK {
            let upcoming = if k + 1 < BK {
                Fragments::load::<BM, BN>(smem.a(stage), smem.b(stage), k + 1, me)
            } else {
                // This thread's copies of slice s + 1 have landed; the barrier
                // makes everyone's visible.
                cp_async_wait(STAGES as u32 - 2);
                sync_threads();
                // The next slice's first fragments (unused after the last slice).
                Fragments::load::<BM, BN>(smem.a(next_stage), smem.b(next_stage), 0, me)
            };
            frags.multiply::<SERPENTINE>(&mut acc);
            frags = upcoming;
        }
        (before, stage) = (stage, next_stage);
    }
    unsafe { store_c_at(&ops, |i| me.row(i), |cc| me.col(cc), &acc) };
}

kernel_entries!(warp_tiled_async warp_tiled_async, sgemm_wt_async_256x128x8, gemm_launch::WT_ASYNC_256X128X8, row_major);
kernel_entries!(warp_tiled_async warp_tiled_async, sgemm_wt_async_64x64x8, gemm_launch::WT_ASYNC_64X64X8, row_major);
kernel_entries!(warp_tiled_async warp_tiled_async, sgemm_wt_async_64x128x8, gemm_launch::WT_ASYNC_64X128X8, row_major);
kernel_entries!(warp_tiled_async warp_tiled_async, sgemm_wt_async_128x64x8, gemm_launch::WT_ASYNC_128X64X8, row_major);
