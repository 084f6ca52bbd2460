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
//! only 4 bytes at a time (ncu: 48% more shared-memory wavefronts). Since
//! each thread's copies are worked out once per tile ([`SliceCopies`],
//! PERF.md step 115; ptxas 12.9, sm_90: 127, 127 and 93 registers, sm_80
//! 123, 125 and 85), at 4096³ (H200): 128×128×16 40.9 TFLOP/s (41.0
//! before), 128×128×8 36.0 (34.7), 128×64×16 31.7 (32.0).

use super::staging::{Operands, Stages, ThreadTile, a_ld, multiply_slice, store_c};
use crate::device::sm80::{cp_async_4, cp_async_16, cp_async_commit, cp_async_wait};
use crate::device::{SharedF32, sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, at, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// [`SliceCopies`]' count of a B run's columns where all four lie in B on
/// 16 bytes (one register holds both facts).
const WHOLE_RUN: u32 = 5;

/// One thread's copies of every K slice of its block's tile, worked out
/// once: where each lands in a stage, where its source lies at K = 0, and
/// whether it lies inside A's rows or B's columns. A slice then only adds
/// its K offset and tests K. A transposed into `[BK][BM + pad]`, one 4-byte
/// copy per element (the step's weakness, see above), B rows 16 bytes at a
/// time where they lie on 16 bytes, else 4; zero fill past the edges, whose
/// copies name an address they do not read (`src_bytes = 0`: PTX reads
/// none of the source, and compute-sanitizer's memcheck found no access
/// past A or B at the edge calls of PERF.md steps 115–116) rather than
/// pick a safe one apart. (Worked out from its row and column, and a safe
/// address picked for the edges, each slice's copies were most of the 220
/// instructions of a 64×128×8 slice of step 7c beside its 512 FMAs,
/// PERF.md step 115.) The tensor-core
/// kernels' copy (`tensor_core/global_to_shared.rs`) keeps operands
/// untransposed and moves only 16-byte chunks, so it cannot serve here;
/// this stays the step's own.
pub(super) struct SliceCopies<const LA: usize, const LB: usize> {
    lda: u32,
    ldb: u32,
    /// A's first run (row `r`, column `c4`) at K = 0, its stage offset, and
    /// for each run, `THREADS / (BK / 4)` rows apart, how far past `c4` its
    /// row runs in A (`K − c4`; 0 for a row past A's last).
    a_first: *const f32,
    a_at_stage: u32,
    a_runs: [u32; LA],
    /// B's first run (row `r`, column `col`) at K = 0, its stage offset,
    /// `K − r` (runs lie `THREADS / (BN / 4)` rows apart, in one column),
    /// and how many of a run's 4 columns lie in B, [`WHOLE_RUN`] where all
    /// 4 do and move as one 16-byte copy.
    b_first: *const f32,
    b_at_stage: u32,
    b_rows: u32,
    b_columns: u32,
}

impl<const LA: usize, const LB: usize> SliceCopies<LA, LB> {
    #[inline(always)]
    pub(super) fn new<const BM: usize, const BN: usize, const BK: usize, const THREADS: usize>(
        ops: &Operands,
        t: usize,
    ) -> Self {
        const {
            assert!(THREADS.is_multiple_of(BK / 4) && THREADS.is_multiple_of(BN / 4), "runs in fixed columns");
            assert!(LA * THREADS * 4 == BM * BK && LB * THREADS * 4 == BK * BN, "the runs cover the slice");
        };
        let Gemm { a, b, m, n, k, lda, ldb, .. } = ops.p;
        let (r, c4) = (t / (BK / 4), (t % (BK / 4)) * 4);
        let a_runs = core::array::from_fn(|l| {
            let row = ops.row0 + (r + l * (THREADS / (BK / 4))) as u32;
            if row < m { k.saturating_sub(c4 as u32) } else { 0 }
        });
        let a_first = a.wrapping_add(at(ops.row0 + r as u32, lda, c4 as u32));
        let a_at_stage = (c4 * a_ld::<BM>() + r) as u32;
        let (r, c4) = (t / (BN / 4), (t % (BN / 4)) * 4);
        let col = ops.col0 + c4 as u32;
        let columns = n.saturating_sub(col).min(4);
        let b_columns = if ops.p.b_aligned() && columns == 4 { WHOLE_RUN } else { columns };
        let b_first = b.wrapping_add(at(r as u32, ldb, col));
        let b_rows = k.saturating_sub(r as u32);
        SliceCopies { lda, ldb, a_first, a_at_stage, a_runs, b_first, b_at_stage: (t * 4) as u32, b_rows, b_columns }
    }

    /// Issues the copies of the K slice starting at `k0` into one stage.
    ///
    /// # Safety
    /// `self` was made for this block's operands; `a_tile` and `b_tile` are a
    /// stage of the block's shared memory.
    #[inline(always)]
    pub(super) unsafe fn copy<const BM: usize, const BN: usize, const BK: usize, const THREADS: usize>(
        &self,
        k0: u32,
        a_tile: SharedF32,
        b_tile: SharedF32,
    ) {
        let a_rows_apart = THREADS / (BK / 4);
        for (l, &run) in self.a_runs.iter().enumerate() {
            let from = self.a_first.wrapping_add(l * a_rows_apart * self.lda as usize + k0 as usize);
            for j in 0..4u32 {
                let dst = a_tile.addr(self.a_at_stage as usize + l * a_rows_apart + j as usize * a_ld::<BM>());
                unsafe { cp_async_4(dst, from.wrapping_add(j as usize), if k0 + j < run { 4 } else { 0 }) };
            }
        }
        let b_rows_apart = (THREADS / (BN / 4)) as u32;
        for l in 0..LB as u32 {
            let past_first_row = k0 + l * b_rows_apart;
            let from = self.b_first.wrapping_add(past_first_row as usize * self.ldb as usize);
            let at_stage = (self.b_at_stage + l * THREADS as u32 * 4) as usize;
            let row_inside = past_first_row < self.b_rows;
            if self.b_columns == WHOLE_RUN && row_inside {
                unsafe { cp_async_16(b_tile.addr(at_stage), from) };
            } else {
                for j in 0..4u32 {
                    let inside = row_inside && j < self.b_columns;
                    let dst = b_tile.addr(at_stage + j as usize);
                    unsafe { cp_async_4(dst, from.wrapping_add(j as usize), if inside { 4 } else { 0 }) };
                }
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
    let copies = SliceCopies::<LA, LB>::new::<BM, BN, BK, THREADS>(&ops, t);

    // Prologue: slices 0 .. STAGES-2 in flight. A group is committed even when
    // there is no slice left, so "wait until STAGES-2 groups remain" always
    // means "slice s has landed".
    for s in 0..STAGES - 1 {
        if s < slices {
            unsafe { copies.copy::<BM, BN, BK, THREADS>((s * BK) as u32, a_tile(s), b_tile(s)) };
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
            unsafe { copies.copy::<BM, BN, BK, THREADS>((next * BK) as u32, a_tile(stage), b_tile(stage)) };
        }
        cp_async_commit();
        multiply_slice::<BM, BN, BK, TM, TN>(a_tile(s % STAGES), b_tile(s % STAGES), me, &mut acc);
    }
    unsafe { store_c::<BM, BN, TM, TN>(&ops, me, &acc) };
}

kernel_entries!(staged async_pipeline, sgemm_async_128x128x8, gemm_launch::ASYNC_128X128X8, row_major);
kernel_entries!(staged async_pipeline, sgemm_async_128x128x16, gemm_launch::ASYNC_128X128X16, row_major);
kernel_entries!(staged async_pipeline, sgemm_async_128x64x16, gemm_launch::ASYNC_128X64X16, row_major);
