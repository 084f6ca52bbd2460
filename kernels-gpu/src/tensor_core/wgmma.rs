//! Step 9 — Hopper warpgroup MMA (`wgmma`, sm_90a), f16 and bf16.
//!
//! `mma.sync` (step 8) is a warp-wide instruction whose operands must first
//! be loaded into registers with `ldmatrix`; on Hopper it runs at about half
//! the tensor-core rate. `wgmma.mma_async` is issued by a warpgroup (4 warps,
//! 128 threads) and reads both operands straight from shared memory through
//! descriptors, asynchronously: the warps only wait for it when they need
//! the accumulators or the shared memory back.
//!
//! Block tile 128×256×64: two warpgroups, each a 64×256 accumulator tile
//! (128 f32 per thread), one `m64n256k16` per 16-deep K step. Shared memory
//! holds 4 stages of A `[128][64]` and B `[64][256]` (for row-major
//! operands; B as four `[64][64]` column blocks), every 128-byte row
//! XOR-swizzled in 16-byte chunks: the pattern the descriptors' 128-byte
//! swizzle mode reads. The same `cp.async`
//! pipeline as step 8 fills it, two slices ahead; one `wgmma` group stays in
//! flight while the next slice's copies are issued, so a stage is refilled
//! only after every warpgroup's group that read it has completed (the
//! barrier at the top of the next iteration).
//!
//! Every layout: `wgmma` reads f16/bf16 operands K-major or MN-major
//! (`imm-trans-a`/`-b`), so each tile keeps its operand's orientation in
//! global memory (row-major B is MN-major; a column-major A too).
//!
//! Cost: 192 registers (driver), 192 KiB shared memory, one block per SM.
//! Measured (H200, 8192×4096×6144, docs/runs/2026-11-22-run13, tuned): f16 527.6 TFLOP/s
//! (67.5% of cuBLAS 783.4), bf16 535.0 (66.0% of 816.6); 4096³ 502.7 / 505.5.
//! cuBLAS's kernel adds a producer warpgroup and TMA (PERF.md).

use super::epilogue::{Output, store_c_direct};
use super::global_to_shared::{MN_BLOCK_BYTES, MnBlocks, Operands, StageRing, Swizzled, copy_slice};
use super::wgmma_mainloop::{WgmmaSlices, wgmma_mainloop};
use super::{Bf16, F16, MmaElement};
use crate::device::sm90a::{smem_descriptor_sw128, wgmma_m64n256k16_bf16, wgmma_m64n256k16_f16};
use crate::device::thread_idx;
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// The `wgmma` of an element type (step 9's 64×256 warpgroup tile).
pub trait WgmmaElement: MmaElement {
    /// # Safety
    /// See [`wgmma_m64n256k16_f16`].
    unsafe fn wgmma(acc: &mut [f32; 128], desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool);
}

impl WgmmaElement for F16 {
    #[inline(always)]
    unsafe fn wgmma(acc: &mut [f32; 128], desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool) {
        unsafe { wgmma_m64n256k16_f16(acc, desc_a, desc_b, trans_a, trans_b) }
    }
}

impl WgmmaElement for Bf16 {
    #[inline(always)]
    unsafe fn wgmma(acc: &mut [f32; 128], desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool) {
        unsafe { wgmma_m64n256k16_bf16(acc, desc_a, desc_b, trans_a, trans_b) }
    }
}

/// The slice tiles: each operand keeps its global orientation, so every
/// copy moves 16 contiguous bytes. K-major tiles (row-major A, column-major
/// B) are `[rows][64]` with 128-byte swizzled rows; MN-major ones
/// (column-major A, row-major B) blocks of 64 m or n, `[BK][64]` each.
const K_MAJOR: Swizzled<true> = Swizzled { row_bytes: 128 };

/// Descriptor of the 16-deep K step `kk` of an operand tile whose
/// warpgroup part starts at `tile`: K-major tiles advance 32 bytes along
/// their 128-byte rows, 8-row groups 1024 bytes apart; MN-major tiles advance
/// 16 k-rows (2048 bytes), blocks of 64 m/n `MN_BLOCK_BYTES` apart (the
/// leading offset), 8-k-row groups 1024 bytes apart.
#[inline(always)]
pub(super) fn descriptor(tile: u32, kk: usize, mn_major: bool) -> u64 {
    if mn_major {
        smem_descriptor_sw128(tile + (kk * 16 * 128) as u32, MN_BLOCK_BYTES as u32, 1024)
    } else {
        smem_descriptor_sw128(tile + (kk * 32) as u32, 16, 1024)
    }
}

/// Step 9's part of the mainloop (see [`WgmmaSlices`]).
struct Slices<
    'a,
    E,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const A_T: bool,
    const B_T: bool,
> {
    ops: &'a Operands<u16, u16>,
    t: usize,
    warpgroup: usize,
    element: core::marker::PhantomData<E>,
}

impl<
    E: WgmmaElement,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const A_T: bool,
    const B_T: bool,
> WgmmaSlices for Slices<'_, E, BM, BN, BK, THREADS, A_T, B_T>
{
    type Acc = [f32; 128];

    #[inline(always)]
    unsafe fn copy(&self, slice: usize, a_stage: u32, b_stage: u32) {
        let k0 = (slice * BK) as u32;
        let (a, b) = ((a_stage, (K_MAJOR, MnBlocks)), (b_stage, (MnBlocks, K_MAJOR)));
        unsafe { copy_slice::<u16, u16, BM, BN, BK, THREADS, A_T, B_T, _, _, _, _>(self.ops, k0, self.t, a, b) };
    }

    #[inline(always)]
    unsafe fn multiply(&self, acc: &mut [f32; 128], a_tile: u32, b_tile: u32) {
        for kk in 0..BK / 16 {
            // This warpgroup's 64 rows of A: 64 K-major rows, or one MN-major
            // block. B row-major is MN-major (transposed for `wgmma`).
            let a_part = if A_T { self.warpgroup * MN_BLOCK_BYTES } else { self.warpgroup * 64 * BK * 2 };
            let desc_a = descriptor(a_tile + a_part as u32, kk, A_T);
            let desc_b = descriptor(b_tile, kk, !B_T);
            unsafe { E::wgmma(acc, desc_a, desc_b, A_T, !B_T) };
        }
    }
}

/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn wgmma_kernel<
    E: WgmmaElement,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const STAGES: usize,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<u16, u16>,
) {
    const {
        assert!(BK == 64 && BN == 256 && BM == 64 * (THREADS / 128) && STAGES >= 3 && STAGES <= 9);
        assert!((BM * BK / 8).is_multiple_of(THREADS) && (BK * BN / 8).is_multiple_of(THREADS));
    };
    let (a_bytes, b_bytes) = gemm_launch::wgmma_tile_bytes(gemm_launch::Dtype::F16, BM as u32, BN as u32, BK as u32);
    let ring = StageRing { a_bytes: a_bytes as usize, stage_bytes: (a_bytes + b_bytes) as usize };

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new::<A_T, B_T>(p, row0, col0);
    let t = thread_idx();
    let warpgroup = t / 128;

    let mut acc = [0.0f32; 128];
    let slices_of =
        Slices::<E, BM, BN, BK, THREADS, A_T, B_T> { ops: &ops, t, warpgroup, element: core::marker::PhantomData };
    unsafe { wgmma_mainloop::<_, STAGES>(&slices_of, ring, slices, &mut acc) };

    let (warp, lane) = ((t / 32) % 4, t % 32);
    // The accumulators are the `mma.sync` C layout: warp w of the warpgroup
    // holds rows 16w.., lane (g, t) rows g and g+8, columns 8j + 2t, +1.
    let tiles: [[[[f32; 4]; 2]; 16]; 1] =
        [core::array::from_fn(|nj| core::array::from_fn(|h| core::array::from_fn(|r| acc[(2 * nj + h) * 4 + r])))];
    let out = Output { p: &ops.p, row0, col0, warp_row: warpgroup * 64 + warp * 16, warp_col: 0, lane };
    unsafe { store_c_direct::<E, 1, 16>(&out, &tiles) };
}

kernel_entries!(wgmma wgmma_kernel<F16>, hgemm_wgmma_128x256x64, gemm_launch::WGMMA_F16_128X256X64, any);
kernel_entries!(wgmma wgmma_kernel<Bf16>, bgemm_wgmma_128x256x64, gemm_launch::WGMMA_BF16_128X256X64, any);
