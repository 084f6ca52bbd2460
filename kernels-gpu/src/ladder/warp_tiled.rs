//! Step 7b — warp tiling and register double buffering of the fragments.
//! Step 6 gave each thread rows and columns spread over the whole block tile
//! (`BM / 4` rows apart); here each warp owns one WM×WN sub-tile of C and
//! its 32 lanes a 4×8 grid inside it (`gemm_launch::WARP_LANES_M/N`), each
//! lane (WM/4)×(WN/8) outputs in 4×4 sub-tiles, 16 rows and 32 columns
//! apart. A quarter-warp (8 lanes, what one 128-bit shared load serves at
//! once) then shares its 4 A values (a broadcast) and reads 8 consecutive
//! 16-byte pieces of B, without bank conflicts, and a warp's loads touch
//! only its own 64 rows of A and 64 columns of B. (ncu counts the same
//! shared wavefronts as step 6: a 128-bit load costs at least two.)
//!
//! Inside a K slice the fragments (TM values of A, TN of B) of k + 1 are
//! loaded from shared memory while those of k multiply. Across slices, the
//! last k of a slice first writes the prefetched next slice into the other
//! stage, waits at the one barrier per slice, loads the next slice's first
//! fragments, and only then multiplies: the shared-load latency after the
//! barrier hides behind that k's FMAs. Global loads, the transposed A stage
//! (`[BK][BM + pad]`) and the epilogue are step 6's (`staging.rs`), so every
//! operand layout works.
//!
//! The main loop runs while the next slice lies wholly inside A and B of a
//! tile wholly inside C with aligned rows (every slice of an interior tile
//! but the last one or two): its global loads are plain 128-bit loads, with
//! no bounds tests and no branches; the bounds-checked loads run only in a
//! second loop for the remaining slices and edge tiles. (Under the 128
//! registers of two blocks per SM the unchecked loop's pointers would
//! spill; the 128×128×8 configuration keeps the checked loop alone.) A
//! lane's 128 FMAs per k go row by row, odd rows right to left
//! (`Features::serpentine_fma`), so the FMA after each row turn reuses the
//! `b` register of the one before it.
//!
//! `sgemm_wt_256x128x8_cu` is 256×128×8's entry for C's rows off 16 bytes
//! (`Features::c_rows_off_16_bytes`, launched in its place at K ≤ 512):
//! its epilogue passes each warp's accumulator rows through shared memory
//! so that a warp stores 128 consecutive bytes of a row ([`store_c_rows`];
//! 216 registers on sm_90). H100, `auto` (PERF.md step 99): f32
//! 6492×5009×24 0.244 → 0.104 ms (38 → 87% of cuBLAS), 3030×10002×4
//! 0.216 → 0.075 (32 → 91%). `sgemm_wt_64x64x8_cu` is 64×64×8's (96
//! registers on sm_90, 0 spills), for f32 shallow K, which `auto` runs on
//! the 64×64 tiles: H200 (PERF.md step 106), 6492×5009×24 0.185 ms on the
//! base, 0.084 on the twin (98% of cuBLAS), 3030×10002×4 0.054.
//!
//! Their entries read `k_last` (the K of a strided batch's last matrix,
//! `KernelSpec::takes_k_last`, as the memory-bound kernels' do since step
//! 80): f32 split-K runs a shorter last chunk in the launch of the other
//! chunks (PERF.md step 73).
//!
//! Configurations (`gemm_launch::WT_*`): 256×128×8 with 8 warps of 64×64
//! (16×8 outputs per lane; every layout), 128×256×8 (64×64 warps),
//! 256×128×16, 256×128×8 with 32×128 warps (8×16 per lane), 128×128×8
//! with 32×64 warps (8×8 per lane, two blocks per SM, rows in one
//! direction: 2% faster there), 64×128×8 with four of those warps
//! (three blocks per SM): many small tiles for mid sizes whose larger
//! tiles leave their last wave part-empty, and 64×64×8 with four warps of
//! 32×32 (8×4 per lane, five blocks per SM): the f32 split model's
//! smallest tile, for sizes that are no multiple of the others.
//!
//! Cost (ptxas 12.9, sm_90; sm_80 within a few): 256×128×8 238 registers
//! (`_nt` 232, `_tn` 255, `_tt` 234), 24.8 KiB shared memory; 128×256×8
//! 232; 256×128×16 251, 49.7 KiB; 32×128 warps 226; 128×128×8 128 (the cap
//! of two blocks per SM), 16.3 KiB; 64×128×8 149 (at four blocks per SM,
//! 128, it spilled); 64×64×8 95 (93 on sm_80; five blocks per SM allow
//! 96), 8.3 KiB. No spills, no stack frame on sm_80 or sm_90. SASS of
//! the 256×128×8 main loop (sm_90): 1117 instructions per slice, 1024 of
//! them FFMA (91.7%), 48 `LDS.128`, 3 `LDG.128`, 9 `STS`, one barrier, no
//! branch but the loop's own.
//!
//! Measured (H100 SXM, 2026-11-23, same-run cuBLAS, docs/PERF.md steps 29,
//! 42): 256×128×8 **52.1–52.5 TFLOP/s at 8192×4096×6144 (102.4% of
//! cuBLAS; step 6 47.2, 92.6%)**, 51.9 at 4096³ (100.4%), 52.2–52.6 at
//! 8192³ (101%), 50.9 at 2048³ (101.5%). Step 29 (no serpentine order, the
//! checked loop only) ran 48.07 (94.4%); either change alone gave 97.0%
//! (serpentine) or 92.7% (unchecked loop), together 102.4%. At the seeds'
//! shape: 32×128 warps 50.9 (99.4%), 256×128×16 49.8 (97.1%), 128×128×8
//! 48.1 (93.7%), 128×256×8 46.3 (90.4%). ncu: FMA pipe 80.6% busy (cuBLAS
//! 78.3%), issue slots 87.8% (cuBLAS 88.6%). 64×128×8 (step 54): 1536³
//! 32.7 TFLOP/s (85.6%; 256×128×8 74.7%), 1792³ 44.9 (106%), 3072³ 44.8
//! (99.2%; 128×128×8 93.8%). 64×64×8 (step 83), as `auto` splits it:
//! 767×769×771 in 3 chunks 71% of cuBLAS (0.050 ms; step 6's 64×64×16
//! unsplit 52%), 1100×700×1001 in 3 73%, 777×999×3333 in 3 69%; unsplit
//! 1536³ 34.2 TFLOP/s (89%), 4000×3000×1000 39.0 (85%; 256×128×8 96.7%).

use super::staging::{Operands, SliceRegs, Stages, a_ld, store_c_at};
use crate::device::{SharedF32, fma, sync_threads, sync_warp, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;
use gemm_launch::{WARP_LANES_M, WARP_LANES_N};

const LANES_M: usize = WARP_LANES_M as usize;
const LANES_N: usize = WARP_LANES_N as usize;

/// Where a lane's outputs lie in the block tile: its first 4×4 sub-tile
/// starts at (`row0`, `col0`); the others follow `4 · LANES_M` rows and
/// `4 · LANES_N` columns apart.
#[derive(Clone, Copy)]
pub(super) struct LaneTile {
    row0: usize,
    col0: usize,
}

impl LaneTile {
    /// Warps fill the block tile row by row of warp tiles; lanes fill their
    /// warp tile as a `LANES_M × LANES_N` grid, N fastest.
    #[inline(always)]
    pub(super) fn new<const BN: usize, const WM: usize, const WN: usize>(t: usize) -> Self {
        let (warp, lane) = (t / 32, t % 32);
        let (wm, wn) = (warp / (BN / WN), warp % (BN / WN));
        let (lm, ln) = (lane / LANES_N, lane % LANES_N);
        LaneTile { row0: wm * WM + lm * 4, col0: wn * WN + ln * 4 }
    }

    /// Block-tile row of the lane's accumulator row `i`.
    #[inline(always)]
    pub(super) fn row(self, i: usize) -> usize {
        self.row0 + (i / 4) * (4 * LANES_M) + i % 4
    }

    /// First block-tile column of the lane's 4-column chunk `cc`.
    #[inline(always)]
    pub(super) fn col(self, cc: usize) -> usize {
        self.col0 + cc * (4 * LANES_N)
    }
}

/// One k's operands of a lane: TM values of A and TN of B.
#[derive(Clone, Copy)]
pub(super) struct Fragments<const TM: usize, const TN: usize> {
    a: [f32; TM],
    b: [f32; TN],
}

impl<const TM: usize, const TN: usize> Fragments<TM, TN> {
    /// Row `p` of the staged slice, with 128-bit shared loads.
    #[inline(always)]
    pub(super) fn load<const BM: usize, const BN: usize>(
        a_tile: SharedF32,
        b_tile: SharedF32,
        p: usize,
        me: LaneTile,
    ) -> Self {
        let mut f = Fragments { a: [0.0; TM], b: [0.0; TN] };
        for rc in 0..TM / 4 {
            f.a[rc * 4..rc * 4 + 4].copy_from_slice(&a_tile.load_x4(p * a_ld::<BM>() + me.row(rc * 4)));
        }
        for cc in 0..TN / 4 {
            f.b[cc * 4..cc * 4 + 4].copy_from_slice(&b_tile.load_x4(p * BN + me.col(cc)));
        }
        f
    }

    /// `acc += a ⊗ b`: TM·TN FMAs, row by row. In serpentine order the odd
    /// rows run right to left, so the FMA after a row turn reads the same
    /// `b[j]` as the one before it and ptxas can take that operand from the
    /// register reuse cache (`Features::serpentine_fma`).
    #[inline(always)]
    pub(super) fn multiply<const SERPENTINE: bool>(&self, acc: &mut [[f32; TN]; TM]) {
        for i in 0..TM {
            for step in 0..TN {
                let j = if SERPENTINE && i % 2 == 1 { TN - 1 - step } else { step };
                acc[i][j] = fma(self.a[i], self.b[j], acc[i][j]);
            }
        }
    }
}

/// A lane's registers across the main loop: its accumulators, the fragments
/// of the next k, and the next K slice on its way from global memory.
struct Lane<const TM: usize, const TN: usize, const LA: usize, const LB: usize> {
    acc: [[f32; TN]; TM],
    frags: Fragments<TM, TN>,
    next: SliceRegs<LA, LB>,
}

impl<const TM: usize, const TN: usize, const LA: usize, const LB: usize> Lane<TM, TN, LA, LB> {
    /// Multiplies slice `s` (in stage `s % 2`, its first fragments already
    /// in `frags`) while loading slice `s + 1` from global memory, then
    /// stages slice `s + 1` and loads its first fragments. `CHECKED = false`
    /// is the main loop's case: slice `s + 1` exists and lies wholly inside
    /// A and B, so its loads need no bounds tests and the body no branches.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    unsafe fn slice<
        const BM: usize,
        const BN: usize,
        const BK: usize,
        const THREADS: usize,
        const A_T: bool,
        const B_T: bool,
        const CHECKED: bool,
        const SERPENTINE: bool,
    >(
        &mut self,
        ops: &Operands,
        smem: &Stages,
        me: LaneTile,
        t: usize,
        s: u32,
        slices: u32,
    ) {
        let stage = (s % 2) as usize;
        let more = !CHECKED || s + 1 < slices;
        let k0 = (s + 1) * BK as u32;
        if !CHECKED {
            self.next = unsafe { SliceRegs::load::<BM, BN, BK, THREADS, A_T, B_T, false>(ops, k0, t) };
        } else if more {
            self.next = unsafe { SliceRegs::load::<BM, BN, BK, THREADS, A_T, B_T, true>(ops, k0, t) };
        }
        for k in 0..BK {
            let upcoming = if k + 1 < BK {
                Fragments::load::<BM, BN>(smem.a(stage), smem.b(stage), k + 1, me)
            } else {
                // The other stage was last read before the previous barrier.
                if more {
                    self.next.store::<BM, BN, BK, THREADS, A_T, B_T>(smem.a(1 - stage), smem.b(1 - stage), t);
                }
                sync_threads();
                // The next slice's first fragments (unused after the last slice).
                Fragments::load::<BM, BN>(smem.a(1 - stage), smem.b(1 - stage), 0, me)
            };
            self.frags.multiply::<SERPENTINE>(&mut self.acc);
            self.frags = upcoming;
        }
    }
}

/// `C_ROWS_OFF_16`: the entry the host launches where C's rows are off 16
/// bytes and K is short (`gemm_launch::c_rows_twin`), whose epilogue
/// passes through shared memory ([`store_c_rows`]). An entry of its own,
/// not a branch at the epilogue: with both epilogues in one kernel, ptxas
/// allocated the main loop's registers differently, and calls with C on 16
/// bytes ran 3% slower at shallow K; two copies of the body behind one
/// branch, 9% slower at 4096³ (H100, PERF.md step 99). Apart, the other
/// entries' PTX is what it was, and the twin's own main loop (216
/// registers on sm_90 against 236) runs 2–8% slower where K is deep.
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn warp_tiled<
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
    const UNCHECKED_LOOP: bool,
    const SERPENTINE: bool,
    const A_T: bool,
    const B_T: bool,
    const C_ROWS_OFF_16: bool,
>(
    p: Gemm<f32, f32>,
) {
    const {
        assert!(THREADS == (BM / WM) * (BN / WN) * 32);
        assert!(TM * LANES_M == WM && TN * LANES_N == WN && TM.is_multiple_of(4) && TN.is_multiple_of(4));
        assert!(LANES_M * LANES_N == 32);
    };
    let smem = Stages::of::<BM, BN, BK>();
    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32);
    let ops = Operands::new(p, row0, col0);
    let t = thread_idx();
    let me = LaneTile::new::<BN, WM, WN>(t);

    let first = unsafe { SliceRegs::<LA, LB>::load::<BM, BN, BK, THREADS, A_T, B_T, true>(&ops, 0, t) };
    first.store::<BM, BN, BK, THREADS, A_T, B_T>(smem.a(0), smem.b(0), t);
    sync_threads();
    let frags = Fragments::<TM, TN>::load::<BM, BN>(smem.a(0), smem.b(0), 0, me);
    let mut lane = Lane { acc: [[0.0f32; TN]; TM], frags, next: first };
    // Main loop: while the next slice lies wholly inside A and B (every
    // slice but the last one or two of an interior tile), no bounds tests.
    // (Not under a 128-register cap: its pointers would spill.)
    let inside = if UNCHECKED_LOOP && ops.interior::<BM, BN>() { p.k / BK as u32 } else { 0 };
    let mut s = 0;
    while s + 1 < inside {
        unsafe { lane.slice::<BM, BN, BK, THREADS, A_T, B_T, false, SERPENTINE>(&ops, &smem, me, t, s, slices) };
        s += 1;
    }
    while s < slices {
        unsafe { lane.slice::<BM, BN, BK, THREADS, A_T, B_T, true, SERPENTINE>(&ops, &smem, me, t, s, slices) };
        s += 1;
    }
    if !C_ROWS_OFF_16 {
        unsafe { store_c_at(&ops, |i| me.row(i), |cc| me.col(cc), &lane.acc) };
    } else {
        unsafe { store_c_rows::<BM, BN, BK, WM, WN, TM, TN, THREADS, 2>(&ops, smem.a(0), t, &lane.acc) };
    }
}

/// Epilogue where C's rows are off 16 bytes (its start or leading dimension
/// off 4 floats), so a lane's 4-wide chunks cannot go as 16-byte stores.
/// Stored as they lie, 4 bytes at a time, a warp's store covers 8 words 16
/// bytes apart in each of 4 rows: four stores for each 32 bytes, each
/// touching every sector of the 128 (PERF.md step 99: f32 6492×5009×24 ran
/// 2.9 times as long as 6492×5008×24, where C's writes are the work).
/// Instead each warp passes its accumulators through its own 32·TN floats
/// of shared memory (the stages, free once every warp is past its last
/// slice), one accumulator row `i` at a time, and reads them back so that
/// lane `l` holds column `l` of 32 consecutive ones: each store writes 128
/// consecutive bytes of one row of C. The lanes of a warp with the same
/// `lane / LANES_N` hold 32 consecutive columns of one row (4 each), which
/// is what makes the read-back a plain index.
///
/// # Safety
/// Every thread of the block (`t`), after its main loop; `scratch` the
/// start of the kernel's `STAGES` stages of dynamic shared memory.
#[inline(always)]
unsafe fn store_c_rows<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const WM: usize,
    const WN: usize,
    const TM: usize,
    const TN: usize,
    const THREADS: usize,
    const STAGES: usize,
>(
    ops: &Operands,
    scratch: SharedF32,
    t: usize,
    acc: &[[f32; TN]; TM],
) {
    const {
        assert!(LANES_N * 4 == 32, "a row's 32 columns per lane group");
        assert!(THREADS * TN * 4 <= STAGES * Stages::bytes_per_stage::<BM, BN, BK>(), "the scratch fits the stages");
    };
    let (warp, lane) = (t / 32, t % 32);
    let mine = |index: usize| warp * 32 * TN + index;
    // The warp's first lane: its rows and columns start the warp tile's.
    let first = LaneTile::new::<BN, WM, WN>(warp * 32);
    // The last slice's fragments may still be loading in other warps.
    sync_threads();
    for (i, acc_row) in acc.iter().enumerate() {
        for cc in 0..TN / 4 {
            scratch.store_x4(mine(lane * TN + cc * 4), core::array::from_fn(|e| acc_row[cc * 4 + e]));
        }
        sync_warp();
        for lm in 0..LANES_M {
            let row = ops.row0 + (first.row(i) + lm * 4) as u32;
            for cc in 0..TN / 4 {
                // Written by lane `lm·LANES_N + lane/4` as its element `lane % 4`.
                let v = scratch.load(mine((lm * LANES_N + lane / 4) * TN + cc * 4 + lane % 4));
                unsafe { ops.p.store_c(row, ops.col0 + (first.col(cc) + lane) as u32, v) };
            }
        }
        // Read before the next row overwrites it.
        sync_warp();
    }
}

kernel_entries!(warp_tiled warp_tiled, sgemm_wt_256x128x8, gemm_launch::WT_256X128X8, any);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_256x128x8_cu, gemm_launch::WT_256X128X8_CU, any);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_128x256x8, gemm_launch::WT_128X256X8, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_256x128x16, gemm_launch::WT_256X128X16, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_256x128x8_w32x128, gemm_launch::WT_256X128X8_W32X128, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_128x128x8, gemm_launch::WT_128X128X8, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_64x128x8, gemm_launch::WT_64X128X8, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_64x64x8, gemm_launch::WT_64X64X8, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_64x64x8_cu, gemm_launch::WT_64X64X8_CU, row_major);
