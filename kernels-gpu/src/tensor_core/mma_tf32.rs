//! Step 8b — TF32 tensor cores for f32 matrices (`--dtype tf32`, PyTorch's
//! `allow_tf32`): f32 in memory and in the accumulators, operands rounded to
//! TF32 (10-bit mantissa) on their way into `mma.sync.m16n8k8`.
//!
//! Same pipeline as step 8 (`mma.rs`: block tile → warp tile → mma
//! tile, 3-stage `cp.async`, swizzled shared memory, grouped order), with two
//! differences forced by 32-bit elements:
//! - A fragments still come from `ldmatrix`: an 8×8 matrix of 16-bit elements
//!   is an 8×4 matrix of f32, which is exactly the m16n8k8 A layout. Each
//!   register is then rounded with `cvt.rna.tf32.f32`.
//! - B fragments cannot use `ldmatrix.trans` (it transposes 16-bit units), so
//!   each lane reads its two B values with 32-bit shared loads: k-rows t and
//!   t+4 (t = lane % 4), column lane / 4. B rows are padded by 8 words
//!   (`gemm_launch::TF32_PAD`) so those 4 k-rows × 8 columns hit 32 distinct
//!   banks. (A swizzle would too, but its per-tile XOR kept 64 addresses live
//!   and spilled; with padding each address is a base plus a constant.)
//! - Column-major operands keep their orientation in shared memory (so every
//!   copy is 16 contiguous bytes) and are read the same way, 32 bits at a
//!   time from padded tiles: A as `[k][m + 8]`, B as `[n][k + 4]`
//!   (`gemm_launch::TF32_K_PAD`), both conflict-free.
//!
//! Block tiles 128×128×32 (4 warps of 64×64), 64×128×32 (4 warps of
//! 32×64) and 64×192×32 (8 warps of 32×48, row-major operands), two
//! blocks per SM. The small ones compute the partial sums of deep-K
//! calls, 64×192 where it pads N less than 64×128 (step 54: 64×576×65536
//! at 82% of cuBLAS, against 51% on 64×128).
//!
//! Cost and measured speed (H200, 8192×4096×6144, docs/runs/2026-11-22-run13):
//! 128×128×32: 254 registers, 105 KiB, 115.7 TFLOP/s (27.8% of cuBLAS TF32);
//! 64×128×32: 222 registers, 81 KiB, 89.6; 64×192×32: 128 registers
//! (0 spills), 99 KiB. On Hopper, step 9b
//! (`wgmma_tf32.rs`) is 1.6× faster. 64×128×32 is also compiled for
//! column-major operands (128×128×32's column-major variants spill).

use super::epilogue::{Output, store_c_f32};
use super::global_to_shared::{Operands, Plain, Swizzled, copy_slice, swizzled};
use crate::device::sm80::{cp_async_commit, cp_async_wait, ldmatrix_x4, mma_m16n8k8_tf32, to_tf32};
use crate::device::{load_shared_b32, smem_addr, sync_threads, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;
use gemm_launch::{TF32_K_PAD, TF32_PAD};

/// Byte offset of f32 element (row, col) in a tile with rows `cols + pad` long.
#[inline(always)]
const fn padded<const COLS: usize, const PAD: u32>(row: usize, col: usize) -> usize {
    (row * (COLS + PAD as usize) + col) * 4
}

/// # Safety
/// See the entry point.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn tensor_core_tf32<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const WM: usize,
    const WN: usize,
    const THREADS: usize,
    const MI: usize,
    const NI: usize,
    const STAGES: usize,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<u32, f32>,
) {
    // MI × NI: the warp tile in 16×8 mma tiles.
    const {
        assert!(BK == 32 && BN >= 64 && WM == MI * 16 && WN == NI * 8 && STAGES >= 2 && STAGES <= 9);
        assert!(THREADS == (BM / WM) * (BN / WN) * 32);
        assert!((BM * BK / 4).is_multiple_of(THREADS) && (BK * BN / 4).is_multiple_of(THREADS));
    };
    let (a_bytes, b_bytes) = gemm_launch::mma_tile_bytes(gemm_launch::Dtype::Tf32, BM as u32, BN as u32, BK as u32);
    let stage_bytes = (a_bytes + b_bytes) as usize;
    let a_stage = |s: usize| smem_addr(s * stage_bytes);
    let b_stage = |s: usize| smem_addr(s * stage_bytes + a_bytes as usize);

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new::<A_T, B_T>(p, row0, col0);
    let t = thread_idx();
    let (warp, lane) = (t / 32, t % 32);
    let (warp_row, warp_col) = ((warp / (BN / WN)) * WM, (warp % (BN / WN)) * WN);
    // Slice tiles: A `[BM][BK]` swizzled, or `[BK][BM + 8]` (`A_T`); B
    // `[BK][BN + 8]`, or `[BN][BK + 4]` (`B_T`).
    let a_layout = (Swizzled::<true> { row_bytes: BK * 4 }, Plain { row_bytes: padded::<BM, TF32_PAD>(1, 0) });
    let b_layout =
        (Plain { row_bytes: padded::<BN, TF32_PAD>(1, 0) }, Plain { row_bytes: padded::<BK, TF32_K_PAD>(1, 0) });

    for s in 0..STAGES - 1 {
        if s < slices {
            unsafe {
                copy_slice::<u32, f32, BM, BN, BK, THREADS, A_T, B_T, _, _, _, _>(
                    &ops,
                    (s * BK) as u32,
                    t,
                    (a_stage(s), a_layout),
                    (b_stage(s), b_layout),
                )
            };
        }
        cp_async_commit();
    }

    let mut acc = [[[0.0f32; 4]; NI]; MI];
    for s in 0..slices {
        cp_async_wait(STAGES as u32 - 2);
        sync_threads();
        let next = s + STAGES - 1;
        if next < slices {
            let st = next % STAGES;
            unsafe {
                copy_slice::<u32, f32, BM, BN, BK, THREADS, A_T, B_T, _, _, _, _>(
                    &ops,
                    (next * BK) as u32,
                    t,
                    (a_stage(st), a_layout),
                    (b_stage(st), b_layout),
                )
            };
        }
        cp_async_commit();

        let (a_tile, b_tile) = (a_stage(s % STAGES), b_stage(s % STAGES));
        // Lane (g, t) = (lane / 4, lane % 4) holds A[g][t], A[g+8][t],
        // A[g][t+4], A[g+8][t+4] and B[t][g], B[t+4][g] of its mma tile.
        let (g, tq) = (lane / 4, lane % 4);
        let load = |tile: u32, offset: usize| to_tf32(load_shared_b32(tile + offset as u32));
        for kk in 0..BK / 8 {
            let a_frag: [[u32; 4]; MI] = core::array::from_fn(|mi| {
                let row = warp_row + mi * 16;
                if A_T {
                    core::array::from_fn(|r| {
                        let (dm, dk) = ((r % 2) * 8, (r / 2) * 4);
                        load(a_tile, padded::<BM, TF32_PAD>(kk * 8 + tq + dk, row + g + dm))
                    })
                } else {
                    // Lane l addresses row l % 16 of the 16×8 A tile, k half
                    // l / 16 (one 16-byte chunk = 4 f32).
                    ldmatrix_x4(a_tile + swizzled(BK * 4, row + lane % 16, kk * 2 + lane / 16) as u32).map(to_tf32)
                }
            });
            let b_frag: [[u32; 2]; NI] = core::array::from_fn(|ni| {
                let (kr, col) = (kk * 8 + tq, warp_col + ni * 8 + g);
                if B_T {
                    [padded::<BK, TF32_K_PAD>(col, kr), padded::<BK, TF32_K_PAD>(col, kr + 4)].map(|o| load(b_tile, o))
                } else {
                    [padded::<BN, TF32_PAD>(kr, col), padded::<BN, TF32_PAD>(kr + 4, col)].map(|o| load(b_tile, o))
                }
            });
            for (acc_m, a_m) in acc.iter_mut().zip(&a_frag) {
                for (acc_mn, b_n) in acc_m.iter_mut().zip(&b_frag) {
                    *acc_mn = mma_m16n8k8_tf32(*a_m, *b_n, *acc_mn);
                }
            }
        }
    }

    // Epilogue: f32 needs no rounding.
    let out = Output { p: &ops.p, row0, col0, warp_row, warp_col, lane };
    unsafe { store_c_f32(&out, &acc) };
}

kernel_entries!(mma_tf32 tensor_core_tf32, tgemm_mma_128x128x32, gemm_launch::MMA_TF32_128X128X32, row_major);
kernel_entries!(mma_tf32 tensor_core_tf32, tgemm_mma_64x128x32, gemm_launch::MMA_TF32_64X128X32, any);
kernel_entries!(mma_tf32 tensor_core_tf32, tgemm_mma_64x192x32, gemm_launch::MMA_TF32_64X192X32, row_major);
