//! Step 6 — double buffering (the seeds' pre-fetching): two shared-memory
//! stages. While the block multiplies slice k out of one stage, each thread
//! already has the global loads of slice k+1 in flight into registers; after
//! the multiply it writes them into the other stage. Memory latency hides
//! behind the FMAs and one barrier per slice suffices (step 5 needs two).
//!
//! Blocks visit C's tiles in grouped order (GROUP_M = 8 by default, the
//! seeds' L2-friendly order; `--group-m 1` turns it off).
//!
//! Configurations (the tuner's search space, `gemm_launch::DB_*`): block tiles
//! 256×128×8, 128×256×8/16, 128×128×8/16, 128×64×16, 64×64×16; 256 threads;
//! shared memory 2 stages × (BM + BN) × BK × 4 bytes (16–48 KiB).
//!
//! Cost and measured speed (H200, 8192×4096×6144, docs/runs/2026-11-22-run13; registers from
//! the driver):
//! 256×128×8 (16×8 outputs per thread, the default): 217 registers, 24.3 KiB,
//! **47.18 TFLOP/s (92.6% of cuBLAS)**; 4096³: 46.94 (91.4%).
//! 128×256×8: 210 registers, 44.26; 128×256×16: 244, 44.01;
//! 128×128×8: 127 registers (two blocks per SM), 16.3 KiB, 43.38;
//! 128×64×16: 91, 40.13 (since step 78 built for two blocks per SM, as it
//! runs: 109 registers, ptxas 12.9 sm_90); 128×128×16: 144, 38.38;
//! 64×64×16: 64, 33.24.
//! (The 8×16 and 16×8 thread tiles gained 12–20% when build.rs raised the
//! unroll threshold, PERF.md step 16.)
//!
//! Layouts: 256×128×8, 128×64×16 and 64×64×16 are also compiled for
//! column-major A and/or B (`staging.rs` moves either layout 16 bytes at a
//! time); the others are row-major only.

use super::staging::{Operands, SliceRegs, Stages, ThreadTile, multiply_slice, store_c};
use crate::device::{sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// # Safety
/// See the entry point.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn double_buffered<
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
    const { assert!(THREADS == (BM / TM) * (BN / TN) && STAGES == 2) };
    let smem = Stages::of::<BM, BN, BK>();
    let (a_tile, b_tile) = (|stage| smem.a(stage), |stage| smem.b(stage));

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32);
    let ops = Operands::new(p, row0, col0);
    let t = thread_idx();
    let me = ThreadTile::new::<BN, TN>(t);

    let mut acc = [[0.0f32; TN]; TM];
    let mut next = unsafe { SliceRegs::<LA, LB>::load::<BM, BN, BK, THREADS, A_T, B_T, true>(&ops, 0, t) };
    next.store::<BM, BN, BK, THREADS, A_T, B_T>(a_tile(0), b_tile(0), t);
    sync_threads();
    for s in 0..slices {
        let stage = (s % 2) as usize;
        let more = s + 1 < slices;
        if more {
            next = unsafe {
                SliceRegs::<LA, LB>::load::<BM, BN, BK, THREADS, A_T, B_T, true>(&ops, (s + 1) * BK as u32, t)
            };
        }
        multiply_slice::<BM, BN, BK, TM, TN>(a_tile(stage), b_tile(stage), me, &mut acc);
        if more {
            // The other stage was last read in iteration s - 1, before the
            // barrier that ended it.
            next.store::<BM, BN, BK, THREADS, A_T, B_T>(a_tile(1 - stage), b_tile(1 - stage), t);
        }
        sync_threads();
    }
    unsafe { store_c::<BM, BN, TM, TN>(&ops, me, &acc) };
}

kernel_entries!(staged double_buffered, sgemm_db_128x128x8, gemm_launch::DB_128X128X8, row_major);
kernel_entries!(staged double_buffered, sgemm_db_128x128x16, gemm_launch::DB_128X128X16, row_major);
kernel_entries!(staged double_buffered, sgemm_db_128x64x16, gemm_launch::DB_128X64X16, any);
kernel_entries!(staged double_buffered, sgemm_db_64x64x16, gemm_launch::DB_64X64X16, any);
kernel_entries!(staged double_buffered, sgemm_db_128x256x8, gemm_launch::DB_128X256X8, row_major);
kernel_entries!(staged double_buffered, sgemm_db_128x256x16, gemm_launch::DB_128X256X16, row_major);
kernel_entries!(staged double_buffered, sgemm_db_256x128x8, gemm_launch::DB_256X128X8, any);
