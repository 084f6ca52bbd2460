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

use crate::common::{Gemm, gemm_entries, tile_origin};
use crate::device::sm80::{cp_async_commit, cp_async_wait};
use crate::device::sm90a::{
    fence_proxy_async_shared, smem_descriptor_sw128, wgmma_commit, wgmma_fence, wgmma_m64n256k16_bf16,
    wgmma_m64n256k16_f16, wgmma_wait,
};
use crate::device::{smem_addr, sync_threads, thread_idx};
use crate::tensor_core::{Bf16, F16, MmaElement, Operands, Output, copy_chunk, store_c_direct, swizzled};

/// The `wgmma` of an element type.
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

/// Bytes of one 128-byte-swizzled block of an MN-major tile: 64 k-rows of
/// 64 elements (m for A, n for B).
const MN_BLOCK_BYTES: usize = 64 * 128;

/// Byte offset of 16-byte chunk `chunk` of row `row` in a tile with 128-byte
/// swizzled rows: K-major tiles have one row per m (or n) of 64 k; MN-major
/// ones one row per k in each block of 64 m (or n), blocks
/// `MN_BLOCK_BYTES` apart.
#[inline(always)]
fn tile_offset<const MN_MAJOR: bool>(row: usize, chunk: usize) -> usize {
    if MN_MAJOR { (chunk / 8) * MN_BLOCK_BYTES + swizzled(128, row, chunk % 8) } else { swizzled(128, row, chunk) }
}

/// Issues the copies of the K slice at `k0` into one stage. Each operand
/// keeps its global orientation, so every copy moves 16 contiguous bytes:
/// A row-major is K-major (`[BM][64]`), column-major (`A_T`) MN-major
/// (`[BM/64][64 k][64 m]`); B row-major is MN-major (`[BN/64][64 k][64 n]`),
/// column-major (`B_T`) K-major (`[BN][64]`).
#[inline(always)]
unsafe fn copy_slice<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const A_T: bool,
    const B_T: bool,
>(
    ops: &Operands<u16, u16>,
    k0: u32,
    t: usize,
    a_stage: u32,
    b_stage: u32,
) {
    let Gemm { a, b, m, n, k, lda, ldb, .. } = ops.p;
    let (row0, col0) = (ops.row0, ops.col0);
    for l in 0..(BM * BK / 8) / THREADS {
        let i = t + l * THREADS;
        unsafe {
            if A_T {
                let (r, c) = (i / (BM / 8), i % (BM / 8));
                let dst = a_stage + tile_offset::<true>(r, c) as u32;
                copy_chunk(dst, a, lda, k0 + r as u32, row0 + 8 * c as u32, k, m, ops.a_aligned);
            } else {
                let (r, c) = (i / (BK / 8), i % (BK / 8));
                let dst = a_stage + tile_offset::<false>(r, c) as u32;
                copy_chunk(dst, a, lda, row0 + r as u32, k0 + 8 * c as u32, m, k, ops.a_aligned);
            }
        }
    }
    for l in 0..(BK * BN / 8) / THREADS {
        let i = t + l * THREADS;
        unsafe {
            if B_T {
                let (r, c) = (i / (BK / 8), i % (BK / 8));
                let dst = b_stage + tile_offset::<false>(r, c) as u32;
                copy_chunk(dst, b, ldb, col0 + r as u32, k0 + 8 * c as u32, n, k, ops.b_aligned);
            } else {
                let (r, c) = (i / (BN / 8), i % (BN / 8));
                let dst = b_stage + tile_offset::<true>(r, c) as u32;
                copy_chunk(dst, b, ldb, k0 + r as u32, col0 + 8 * c as u32, k, n, ops.b_aligned);
            }
        }
    }
}

/// Descriptor of the 16-deep K step `kk` of an operand tile whose
/// warpgroup part starts at `tile`: K-major tiles advance 32 bytes along
/// their 128-byte rows, 8-row groups 1024 bytes apart; MN-major tiles advance
/// 16 k-rows (2048 bytes), blocks of 64 m/n `MN_BLOCK_BYTES` apart (the
/// leading offset), 8-k-row groups 1024 bytes apart.
#[inline(always)]
fn descriptor(tile: u32, kk: usize, mn_major: bool) -> u64 {
    if mn_major {
        smem_descriptor_sw128(tile + (kk * 16 * 128) as u32, MN_BLOCK_BYTES as u32, 1024)
    } else {
        smem_descriptor_sw128(tile + (kk * 32) as u32, 16, 1024)
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
    let stage_bytes = (a_bytes + b_bytes) as usize;
    let a_stage = |s: usize| smem_addr(s * stage_bytes);
    let b_stage = |s: usize| smem_addr(s * stage_bytes + a_bytes as usize);

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new::<A_T, B_T>(p, row0, col0);
    let t = thread_idx();
    let (warpgroup, warp, lane) = (t / 128, (t / 32) % 4, t % 32);
    // Copies run this many slices ahead of the multiply; the other two
    // stages are the one being multiplied and the one the previous,
    // possibly unfinished, `wgmma` group reads.
    let ahead = STAGES - 2;

    for s in 0..ahead {
        if s < slices {
            unsafe { copy_slice::<BM, BN, BK, THREADS, A_T, B_T>(&ops, (s * BK) as u32, t, a_stage(s), b_stage(s)) };
        }
        cp_async_commit();
    }

    let mut acc = [0.0f32; 128];
    for s in 0..slices {
        cp_async_wait(ahead as u32 - 1);
        fence_proxy_async_shared();
        // Slice s is in shared memory for everyone, and every warpgroup's
        // group s-2 is done (each waited for it in iteration s-1): its stage
        // can be refilled.
        sync_threads();
        let (a_tile, b_tile) = (a_stage(s % STAGES), b_stage(s % STAGES));
        wgmma_fence();
        for kk in 0..BK / 16 {
            // This warpgroup's 64 rows of A: 64 K-major rows, or one MN-major
            // block. B row-major is MN-major (transposed for `wgmma`).
            let a_part = if A_T { warpgroup * MN_BLOCK_BYTES } else { warpgroup * 64 * BK * 2 };
            let desc_a = descriptor(a_tile + a_part as u32, kk, A_T);
            let desc_b = descriptor(b_tile, kk, !B_T);
            unsafe { E::wgmma(&mut acc, desc_a, desc_b, A_T, !B_T) };
        }
        wgmma_commit();
        // The copies are issued after the multiply, so the tensor cores start
        // on slice s right after the barrier.
        let next = s + ahead;
        if next < slices {
            let st = next % STAGES;
            unsafe {
                copy_slice::<BM, BN, BK, THREADS, A_T, B_T>(&ops, (next * BK) as u32, t, a_stage(st), b_stage(st))
            };
        }
        cp_async_commit();
        wgmma_wait(1);
    }
    wgmma_wait(0);

    // The accumulators are the `mma.sync` C layout: warp w of the warpgroup
    // holds rows 16w.., lane (g, t) rows g and g+8, columns 8j + 2t, +1.
    let tiles: [[[[f32; 4]; 2]; 16]; 1] =
        [core::array::from_fn(|nj| core::array::from_fn(|h| core::array::from_fn(|r| acc[(2 * nj + h) * 4 + r])))];
    let out = Output { p: &ops.p, row0, col0, warp_row: warpgroup * 64 + warp * 16, warp_col: 0, lane };
    unsafe { store_c_direct::<E, 1, 16>(&out, &tiles) };
}

macro_rules! wgmma_entries {
    ($name:ident, $element:ty, $spec:path) => {
        gemm_entries!($name, $spec, u16 => u16, any, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            wgmma_kernel::<
                $element,
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { SPEC.threads() as usize },
                { SPEC.stages as usize },
                A_T,
                B_T,
            >(p)
        });
    };
}

wgmma_entries!(hgemm_wgmma_128x256x64, F16, gemm_launch::WGMMA_F16_128X256X64);
wgmma_entries!(bgemm_wgmma_128x256x64, Bf16, gemm_launch::WGMMA_BF16_128X256X64);
