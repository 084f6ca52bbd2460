//! Step 9b — TF32 `wgmma` (sm_90a) for f32 matrices (`--dtype tf32`).
//!
//! Step 9's pipeline with 32-bit elements: a K slice of 32 f32 is one
//! 128-byte swizzled row, and one `wgmma` (K = 8) per 8-deep K step and
//! 64-row tile. The
//! difference is B: TF32 `wgmma` has no transposed form, so both operands
//! must be K-major in shared memory, and a row-major B (`[k][n]`) is
//! transposed on the way in, one 4-byte `cp.async` per element, into
//! `[n][32]` rows. A warp copies 4 k × 8 n at a time, so its 32 writes land
//! in 32 distinct banks under the swizzle, and its reads are 4 rows of 32
//! contiguous bytes; each thread's copies are a constant stride apart, so on
//! interior tiles each costs one instruction. A (`[m][32]`) moves 16 bytes
//! at a time, as in step 9.
//!
//! `wgmma` reads TF32 by ignoring the low 13 mantissa bits (truncation);
//! step 8b rounds (`cvt.rna`), so errors here are slightly larger, still
//! within the TF32 bound.
//!
//! Row-major A and B only.
//!
//! Two block tiles: 128×256 (two warpgroups of one 64×256 `m64n256k8`
//! tile) and 256×128 (two warpgroups of two 64×128 `m64n128k8` tiles). Per
//! multiply-add, 256×128 copies half as many B elements (the 4-byte
//! copies) and twice as many A elements (16-byte copies), and that is what
//! limits this kernel.
//!
//! Cost (ptxas): 224 registers (256×128), 214 (128×256); 192 KiB shared
//! memory. Measured (H200, 8192×4096×6144, docs/runs/2026-11-22-run14, same-run cuBLAS 414.8):
//! 256×128×32 **212.4–213.4 TFLOP/s (51.2%)**, 4096³ 203.3; 128×256×32
//! 180.2 (43.4%). Step 8b does 115.7. Two other ways to move B were slower
//! (PERF.md step 18): 16-byte loads into registers stored transposed, 157
//! and 126 on the 128×256 tile.

use super::global_to_shared::{Operands, StageRing, Swizzled, copy_a, copy_b_transposed_f32};
use super::wgmma_mainloop::{WgmmaSlices, wgmma_mainloop};
use crate::device::sm90a::{smem_descriptor_sw128, wgmma_m64n128k8_tf32, wgmma_m64n256k8_tf32};
use crate::device::thread_idx;
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// The accumulators of one 64-row `wgmma` tile, 64×N: the instruction's
/// N is the block tile's width.
trait Accumulators: Copy {
    const N: usize;
    fn zero() -> Self;
    /// # Safety
    /// See [`wgmma_m64n256k8_tf32`].
    unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64);
    fn get(&self, i: usize) -> f32;
}

impl Accumulators for [f32; 128] {
    const N: usize = 256;
    #[inline(always)]
    fn zero() -> Self {
        [0.0; 128]
    }
    #[inline(always)]
    unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64) {
        unsafe { wgmma_m64n256k8_tf32(self, desc_a, desc_b) }
    }
    #[inline(always)]
    fn get(&self, i: usize) -> f32 {
        self[i]
    }
}

impl Accumulators for [f32; 64] {
    const N: usize = 128;
    #[inline(always)]
    fn zero() -> Self {
        [0.0; 64]
    }
    #[inline(always)]
    unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64) {
        unsafe { wgmma_m64n128k8_tf32(self, desc_a, desc_b) }
    }
    #[inline(always)]
    fn get(&self, i: usize) -> f32 {
        self[i]
    }
}

/// Step 9b's part of the mainloop (see [`WgmmaSlices`]): A `[BM][32]`
/// (16-byte chunks), B transposed into `[BN][32]` (4-byte copies), both with
/// 128-byte swizzled rows.
struct Slices<'a, Acc, const BM: usize, const BN: usize, const BK: usize, const THREADS: usize, const HALVES: usize> {
    ops: &'a Operands<u32, f32>,
    t: usize,
    warpgroup: usize,
    acc: core::marker::PhantomData<Acc>,
}

impl<Acc: Accumulators, const BM: usize, const BN: usize, const BK: usize, const THREADS: usize, const HALVES: usize>
    WgmmaSlices for Slices<'_, Acc, BM, BN, BK, THREADS, HALVES>
{
    type Acc = [Acc; HALVES];

    #[inline(always)]
    unsafe fn copy(&self, slice: usize, a_stage: u32, b_stage: u32) {
        let k0 = (slice * BK) as u32;
        // Row-major A only: the column-major layout is never used.
        let a_tile = Swizzled::<true> { row_bytes: BK * 4 };
        unsafe {
            copy_a::<u32, f32, BM, BK, THREADS, false, _, _>(self.ops, k0, self.t, a_stage, (a_tile, a_tile));
            copy_b_transposed_f32::<BN, BK, THREADS>(self.ops, k0, self.t, b_stage);
        }
    }

    #[inline(always)]
    unsafe fn multiply(&self, acc: &mut [Acc; HALVES], a_tile: u32, b_tile: u32) {
        for kk in 0..BK / 8 {
            // Both K-major: k step kk is 32 bytes into each 128-byte row;
            // 8-row core-matrix groups 1024 bytes apart.
            let desc_b = smem_descriptor_sw128(b_tile + (kk * 32) as u32, 16, 1024);
            for (h, acc_h) in acc.iter_mut().enumerate() {
                let rows = (self.warpgroup * HALVES + h) * 64;
                let desc_a = smem_descriptor_sw128(a_tile + (rows * BK * 4 + kk * 32) as u32, 16, 1024);
                unsafe { acc_h.wgmma(desc_a, desc_b) };
            }
        }
    }
}

/// Each warpgroup computes `HALVES` 64-row tiles of the block's full width
/// (`Acc::N` = BN): 128×256 blocks are two warpgroups of one 64×256 tile,
/// 256×128 blocks two warpgroups of two 64×128 tiles.
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn wgmma_tf32<
    Acc: Accumulators,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const STAGES: usize,
    const HALVES: usize,
>(
    p: Gemm<u32, f32>,
) {
    const {
        assert!(BK == 32 && BN == Acc::N && BM == 64 * HALVES * (THREADS / 128) && STAGES >= 3 && STAGES <= 9);
        assert!((BM * BK / 4).is_multiple_of(THREADS) && (BK * BN).is_multiple_of(THREADS));
    };

    let (a_bytes, b_bytes) = gemm_launch::wgmma_tile_bytes(gemm_launch::Dtype::Tf32, BM as u32, BN as u32, BK as u32);
    let ring = StageRing { a_bytes: a_bytes as usize, stage_bytes: (a_bytes + b_bytes) as usize };

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new::<false, false>(p, row0, col0);
    let t = thread_idx();
    let (warpgroup, warp, lane) = (t / 128, (t / 32) % 4, t % 32);

    let mut acc = [Acc::zero(); HALVES];
    let slices_of =
        Slices::<Acc, BM, BN, BK, THREADS, HALVES> { ops: &ops, t, warpgroup, acc: core::marker::PhantomData };
    unsafe { wgmma_mainloop::<_, STAGES>(&slices_of, ring, slices, &mut acc) };

    // Epilogue: the `mma.sync` C layout (see step 9), f32 out.
    let p = &ops.p;
    for (h, acc_h) in acc.iter().enumerate() {
        let row = row0 + (((warpgroup * HALVES + h) * 64) + warp * 16 + lane / 4) as u32;
        for j in 0..BN / 8 {
            let col = col0 + (j * 8 + (lane % 4) * 2) as u32;
            for half in 0..2 {
                for c in 0..2 {
                    unsafe { p.store_c(row + 8 * half as u32, col + c as u32, acc_h.get(4 * j + 2 * half + c)) };
                }
            }
        }
    }
}

kernel_entries!(wgmma_tf32 wgmma_tf32<[f32; 128]>, tgemm_wgmma_128x256x32, gemm_launch::WGMMA_TF32_128X256X32, row_major);
kernel_entries!(wgmma_tf32 wgmma_tf32<[f32; 64]>, tgemm_wgmma_256x128x32, gemm_launch::WGMMA_TF32_256X128X32, row_major);
