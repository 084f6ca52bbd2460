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
//! Configurations (`gemm_launch::WT_*`): 256×128×8 with 8 warps of 64×64
//! (16×8 outputs per lane; every layout), 128×256×8 (64×64 warps),
//! 256×128×16, 256×128×8 with 32×128 warps (8×16 per lane), and 128×128×8
//! with 32×64 warps (8×8 per lane, two blocks per SM).
//!
//! Cost (ptxas 12.9, sm_90; sm_80 within a few): 256×128×8 237 registers
//! (its `_tn` entry 255), 24.8 KiB shared memory; 128×256×8 235;
//! 256×128×16 255, 49.7 KiB; 32×128 warps 239; 128×128×8 128 (the cap of
//! two blocks per SM), 16.3 KiB. No spills, no stack frame on sm_80 or sm_90.
//!
//! Measured (H100 SXM, 2026-11-23, same-run cuBLAS, docs/PERF.md step 29):
//! 256×128×8 **48.07 TFLOP/s at 8192×4096×6144 (94.4% of cuBLAS; step 6
//! 47.16, 92.6%)**, 47.91 at 4096³ (92.8%), 48.13 at 8192³ (93.2%);
//! 128×128×8 46.62 at 2048³ (92.8%; step 6's 128×128×8 84.1%). Slower at
//! the seeds' shape: 128×256×8 45.27, 256×128×16 45.60, 32×128 warps 46.13.
//! SASS of the 256×128×8 main loop: 1024 FFMA and 48 `LDS.128` per slice;
//! ncu: 89.6% of executed instructions FFMA, FMA pipe 74.5% busy (step 6
//! 73.3%, cuBLAS 78.3%), issue slots 82.8% (cuBLAS 88.5%).

use super::staging::{Operands, SliceRegs, Stages, a_ld, store_c_at};
use crate::device::{SharedF32, fma, sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;
use gemm_launch::{WARP_LANES_M, WARP_LANES_N};

const LANES_M: usize = WARP_LANES_M as usize;
const LANES_N: usize = WARP_LANES_N as usize;

/// Where a lane's outputs lie in the block tile: its first 4×4 sub-tile
/// starts at (`row0`, `col0`); the others follow `4 · LANES_M` rows and
/// `4 · LANES_N` columns apart.
#[derive(Clone, Copy)]
struct LaneTile {
    row0: usize,
    col0: usize,
}

impl LaneTile {
    /// Warps fill the block tile row by row of warp tiles; lanes fill their
    /// warp tile as a `LANES_M × LANES_N` grid, N fastest.
    #[inline(always)]
    fn new<const BN: usize, const WM: usize, const WN: usize>(t: usize) -> Self {
        let (warp, lane) = (t / 32, t % 32);
        let (wm, wn) = (warp / (BN / WN), warp % (BN / WN));
        let (lm, ln) = (lane / LANES_N, lane % LANES_N);
        LaneTile { row0: wm * WM + lm * 4, col0: wn * WN + ln * 4 }
    }

    /// Block-tile row of the lane's accumulator row `i`.
    #[inline(always)]
    fn row(self, i: usize) -> usize {
        self.row0 + (i / 4) * (4 * LANES_M) + i % 4
    }

    /// First block-tile column of the lane's 4-column chunk `cc`.
    #[inline(always)]
    fn col(self, cc: usize) -> usize {
        self.col0 + cc * (4 * LANES_N)
    }
}

/// One k's operands of a lane: TM values of A and TN of B.
#[derive(Clone, Copy)]
struct Fragments<const TM: usize, const TN: usize> {
    a: [f32; TM],
    b: [f32; TN],
}

impl<const TM: usize, const TN: usize> Fragments<TM, TN> {
    /// Row `p` of the staged slice, with 128-bit shared loads.
    #[inline(always)]
    fn load<const BM: usize, const BN: usize>(a_tile: SharedF32, b_tile: SharedF32, p: usize, me: LaneTile) -> Self {
        let mut f = Fragments { a: [0.0; TM], b: [0.0; TN] };
        for rc in 0..TM / 4 {
            f.a[rc * 4..rc * 4 + 4].copy_from_slice(&a_tile.load_x4(p * a_ld::<BM>() + me.row(rc * 4)));
        }
        for cc in 0..TN / 4 {
            f.b[cc * 4..cc * 4 + 4].copy_from_slice(&b_tile.load_x4(p * BN + me.col(cc)));
        }
        f
    }

    /// `acc += a ⊗ b`: TM·TN FMAs.
    #[inline(always)]
    fn multiply(&self, acc: &mut [[f32; TN]; TM]) {
        for i in 0..TM {
            for j in 0..TN {
                acc[i][j] = fma(self.a[i], self.b[j], acc[i][j]);
            }
        }
    }
}

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
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<f32, f32>,
) {
    const {
        assert!(THREADS == (BM / WM) * (BN / WN) * 32);
        assert!(TM * LANES_M == WM && TN * LANES_N == WN && TM.is_multiple_of(4) && TN.is_multiple_of(4));
        assert!(LANES_M * LANES_N == 32);
    };
    let smem = Stages::of::<BM, BN, BK>();
    let (a_tile, b_tile) = (|stage| smem.a(stage), |stage| smem.b(stage));

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32);
    let ops = Operands::new(p, row0, col0);
    let t = thread_idx();
    let me = LaneTile::new::<BN, WM, WN>(t);

    let mut acc = [[0.0f32; TN]; TM];
    let mut next = unsafe { SliceRegs::<LA, LB>::load::<BM, BN, BK, THREADS, A_T, B_T>(&ops, 0, t) };
    next.store::<BM, BN, BK, THREADS, A_T, B_T>(a_tile(0), b_tile(0), t);
    sync_threads();
    let mut frags = Fragments::<TM, TN>::load::<BM, BN>(a_tile(0), b_tile(0), 0, me);
    for s in 0..slices {
        let stage = (s % 2) as usize;
        let more = s + 1 < slices;
        if more {
            next = unsafe { SliceRegs::<LA, LB>::load::<BM, BN, BK, THREADS, A_T, B_T>(&ops, (s + 1) * BK as u32, t) };
        }
        for k in 0..BK {
            let upcoming = if k + 1 < BK {
                Fragments::load::<BM, BN>(a_tile(stage), b_tile(stage), k + 1, me)
            } else {
                // The other stage was last read before the previous barrier.
                if more {
                    next.store::<BM, BN, BK, THREADS, A_T, B_T>(a_tile(1 - stage), b_tile(1 - stage), t);
                }
                sync_threads();
                // The next slice's first fragments (unused after the last slice).
                Fragments::load::<BM, BN>(a_tile(1 - stage), b_tile(1 - stage), 0, me)
            };
            frags.multiply(&mut acc);
            frags = upcoming;
        }
    }
    unsafe { store_c_at(&ops, |i| me.row(i), |cc| me.col(cc), &acc) };
}

kernel_entries!(warp_tiled warp_tiled, sgemm_wt_256x128x8, gemm_launch::WT_256X128X8, any);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_128x256x8, gemm_launch::WT_128X256X8, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_256x128x16, gemm_launch::WT_256X128X16, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_256x128x8_w32x128, gemm_launch::WT_256X128X8_W32X128, row_major);
kernel_entries!(warp_tiled warp_tiled, sgemm_wt_128x128x8, gemm_launch::WT_128X128X8, row_major);
