//! Step 8b — TF32 tensor cores for f32 matrices (`--dtype tf32`, PyTorch's
//! `allow_tf32`): f32 in memory and in the accumulators, operands rounded to
//! TF32 (10-bit mantissa) on their way into `mma.sync.m16n8k8`.
//!
//! Same pipeline as step 8 (`tensor_core.rs`: block tile → warp tile → mma
//! tile, 3-stage `cp.async`, swizzled shared memory, grouped order), with two
//! differences forced by 32-bit elements:
//! - A fragments still come from `ldmatrix`: an 8×8 matrix of 16-bit elements
//!   is an 8×4 matrix of f32, which is exactly the m16n8k8 A layout. Each
//!   register is then rounded with `cvt.rna.tf32.f32`.
//! - B fragments cannot use `ldmatrix.trans` (it transposes 16-bit units), so
//!   each lane reads its two B values with 32-bit shared loads: k-rows t and
//!   t+4 (t = lane % 4), column lane / 4. B rows are padded by 8 words
//!   (`gemm_launch::TF32_B_PAD`) so those 4 k-rows × 8 columns hit 32 distinct
//!   banks. (A swizzle would too, but its per-tile XOR kept 64 addresses live
//!   and spilled; with padding each address is a base plus a constant.)
//!
//! Block tiles 128×128×32 (4 warps of 64×64) and 64×128×32 (4 warps of
//! 32×64), two blocks per SM.
//!
//! Cost and measured speed (H200, 8192×4096×6144, docs/runs/2026-11-22-run7):
//! 128×128×32: 254 registers, 99 KiB, 102.3 TFLOP/s (25% of cuBLAS TF32);
//! 64×128×32: 226 registers, 75 KiB, 76.0.

use crate::common::{at, tile_origin};
use crate::device::{
    cp_async_commit, cp_async_wait, ldmatrix_x4, load_shared_b32, mma_m16n8k8_tf32, smem_addr, sync_threads,
    thread_idx, to_tf32,
};
use crate::tensor_core::{Operands, copy_chunk, swizzled};

/// Byte offset of f32 element (k, n) in the padded `[BK][BN + pad]` B tile.
#[inline(always)]
fn b_element_offset<const BN: usize>(k: usize, n: usize) -> usize {
    (k * (BN + gemm_launch::TF32_B_PAD as usize) + n) * 4
}

/// Issues the copies of the K slice at `k0` into one stage.
#[inline(always)]
unsafe fn copy_slice<const BM: usize, const BN: usize, const BK: usize, const THREADS: usize>(
    ops: &Operands<u32>,
    k0: u32,
    t: usize,
    a_stage: u32,
    b_stage: u32,
) {
    let (a_aligned, b_aligned) = (ops.k.is_multiple_of(4), ops.n.is_multiple_of(4));
    for l in 0..(BM * BK / 4) / THREADS {
        let i = t + l * THREADS;
        let (r, c) = (i / (BK / 4), i % (BK / 4));
        let dst = a_stage + swizzled(BK * 4, r, c) as u32;
        unsafe { copy_chunk(dst, ops.a, ops.k, ops.row0 + r as u32, k0 + 4 * c as u32, ops.m, ops.k, a_aligned) };
    }
    for l in 0..(BK * BN / 4) / THREADS {
        let i = t + l * THREADS;
        let (r, c) = (i / (BN / 4), i % (BN / 4));
        let dst = b_stage + b_element_offset::<BN>(r, 4 * c) as u32;
        unsafe { copy_chunk(dst, ops.b, ops.n, k0 + r as u32, ops.col0 + 4 * c as u32, ops.k, ops.n, b_aligned) };
    }
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
>(
    a: *const u32,
    b: *const u32,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    group_m: u32,
) {
    // MI × NI: the warp tile in 16×8 mma tiles.
    const {
        assert!(BK == 32 && BN >= 64 && WM == MI * 16 && WN == NI * 8 && STAGES >= 2 && STAGES <= 9);
        assert!(THREADS == (BM / WM) * (BN / WN) * 32);
        assert!((BM * BK / 4).is_multiple_of(THREADS) && (BK * BN / 4).is_multiple_of(THREADS));
    };
    let (a_bytes, b_bytes) = (BM * BK * 4, BK * (BN + gemm_launch::TF32_B_PAD as usize) * 4);
    let a_stage = |s: usize| smem_addr(s * (a_bytes + b_bytes));
    let b_stage = |s: usize| smem_addr(s * (a_bytes + b_bytes) + a_bytes);

    let (row0, col0) = tile_origin::<BM, BN>(m, n, group_m);
    let ops = Operands { a, b, m, n, k, row0, col0 };
    let t = thread_idx();
    let (warp, lane) = (t / 32, t % 32);
    let (warp_row, warp_col) = ((warp / (BN / WN)) * WM, (warp % (BN / WN)) * WN);
    let slices = k.div_ceil(BK as u32) as usize;

    for s in 0..STAGES - 1 {
        if s < slices {
            unsafe { copy_slice::<BM, BN, BK, THREADS>(&ops, (s * BK) as u32, t, a_stage(s), b_stage(s)) };
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
            unsafe { copy_slice::<BM, BN, BK, THREADS>(&ops, (next * BK) as u32, t, a_stage(st), b_stage(st)) };
        }
        cp_async_commit();

        let (a_tile, b_tile) = (a_stage(s % STAGES), b_stage(s % STAGES));
        for kk in 0..BK / 8 {
            // Lane l addresses row l % 16 of the 16×8 A tile, k half l / 16
            // (one 16-byte chunk = 4 f32).
            let a_frag: [[u32; 4]; MI] = core::array::from_fn(|mi| {
                let row = warp_row + mi * 16 + lane % 16;
                ldmatrix_x4(a_tile + swizzled(BK * 4, row, kk * 2 + lane / 16) as u32).map(to_tf32)
            });
            let b_frag: [[u32; 2]; NI] = core::array::from_fn(|ni| {
                let (kr, col) = (kk * 8 + lane % 4, warp_col + ni * 8 + lane / 4);
                [b_element_offset::<BN>(kr, col), b_element_offset::<BN>(kr + 4, col)]
                    .map(|off| to_tf32(load_shared_b32(b_tile + off as u32)))
            });
            for (acc_m, a_m) in acc.iter_mut().zip(&a_frag) {
                for (acc_mn, b_n) in acc_m.iter_mut().zip(&b_frag) {
                    *acc_mn = mma_m16n8k8_tf32(*a_m, *b_n, *acc_mn);
                }
            }
        }
    }

    // Epilogue: accumulator (mi, ni) holds rows lane/4 and lane/4 + 8,
    // columns 2·(lane%4) and +1, of its 16×8 tile; f32 needs no rounding.
    for (mi, acc_m) in acc.iter().enumerate() {
        for (ni, acc_mn) in acc_m.iter().enumerate() {
            let col = col0 + (warp_col + ni * 8 + (lane % 4) * 2) as u32;
            for half in 0..2 {
                let row = row0 + (warp_row + mi * 16 + lane / 4 + half * 8) as u32;
                for j in 0..2 {
                    if row < m && col + (j as u32) < n {
                        unsafe { *c.add(at(row, n, col + j as u32)) = acc_mn[2 * half + j] };
                    }
                }
            }
        }
    }
}

macro_rules! tf32_entry {
    ($entry:ident, $spec:expr) => {
        /// PTX entry point; see [`tensor_core_tf32`] for the algorithm.
        ///
        /// # Safety
        /// `a`, `b`, `c` must hold `m×k`, `k×n`, `m×n` f32 (row-major,
        /// 16-byte aligned) and the launch must use the spec's block, grid and
        /// shared memory.
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $entry(
            a: *const u32,
            b: *const u32,
            c: *mut f32,
            m: u32,
            n: u32,
            k: u32,
            group_m: u32,
        ) {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            unsafe {
                tensor_core_tf32::<
                    { T.bm as usize },
                    { T.bn as usize },
                    { T.bk as usize },
                    { T.tm as usize },
                    { T.tn as usize },
                    { SPEC.threads() as usize },
                    { T.tm as usize / 16 },
                    { T.tn as usize / 8 },
                    { SPEC.stages as usize },
                >(a, b, c, m, n, k, group_m)
            }
        }
    };
}

tf32_entry!(tgemm_mma_128x128x32, gemm_launch::MMA_TF32_128X128X32);
tf32_entry!(tgemm_mma_64x128x32, gemm_launch::MMA_TF32_64X128X32);
