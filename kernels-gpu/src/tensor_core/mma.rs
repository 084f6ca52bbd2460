//! Step 8 — tensor cores (f16 and bf16 in, f32 accumulate, f16/bf16 out).
//!
//! The hierarchy is CUTLASS's: a block tile (128×256 or 128×128, K slice 32
//! or 64)
//! is split into 64×64 warp tiles, each computed as 4×8 `mma.sync.m16n8k16`
//! instruction tiles with f32 accumulators in registers (128 per thread).
//!
//! Mainloop: a 4-stage `cp.async` pipeline moves 16-byte chunks of A and B
//! straight into shared memory (3 slices in flight while one is multiplied).
//! Operands reach registers through `ldmatrix` (A, row-major `[m][k]`) and
//! `ldmatrix.trans` (B, row-major `[k][n]`, which `mma` wants column-major).
//! Each `ldmatrix` phase reads eight 16-byte rows; without care those rows
//! sit in the same banks (A rows are 64 bytes apart, B rows 256–512), so the
//! 16-byte chunks of each row are XOR-swizzled: chunk `c` of row `r` is
//! stored at `c ^ f(r)`, which spreads any 8 consecutive rows over all banks.
//!
//! Epilogue: accumulators are rounded to the output type in pairs
//! (`cvt.rn.{f16x2,bf16x2}.f32`), then either stored 4 bytes at a time, or
//! staged as a C tile in shared memory and written out with coalesced 16-byte
//! stores (`Features::staged_epilogue`; which one wins depends on the tile,
//! see docs/PERF.md). The f32-output twins of 128×128×32 with 32×64 warps
//! (`*_f32out`, `Features::f32_output`) run the same mainloop and store the
//! f32 accumulators unrounded: they write the partial sums of f16/bf16
//! split-K calls (`gemm_launch::split_k`); ptxas 12.9: 123–126 registers on
//! sm_80, 127–128 on sm_90 (the four layouts), no spills, like their base.
//!
//! Edges: chunks outside the matrix are zero-filled by `cp.async` itself;
//! when rows are not 16-byte aligned (K or N not a multiple of 8) chunks are
//! gathered element by element instead. Any M, N, K is correct.
//!
//! Cost (registers from the driver; shared memory) and measured speed, f16
//! (bf16 within 1%), H200, 8192×4096×6144, docs/runs/2026-11-22-run13:
//! 128×128×32, 8 warps of 32×64, direct epilogue: 127 registers, 64 KiB,
//! 354.8 TFLOP/s (45% of cuBLAS; tuned); 4 warps of 64×64, staged epilogue:
//! 234, 342.8; 128×128×64: 250, 96 KiB, 352.9; 128×256×64: 250, 144 KiB,
//! 325.1; 128×256×32 with 16 warps of 64×32: 128, 297.1; with 8 of 64×64:
//! 226, 96 KiB, 316.9. The ablations (no swizzle, no `ldmatrix`, 2 stages)
//! run at 80–85. On Hopper, step 9 (`wgmma.rs`) is 1.5× faster.
//!
//! Step 70, the skinny tiles (M or N ≤ 16, f16 and bf16): the same
//! mainloop on 16×64 or 64×16 block tiles of four 16×16 warps (one
//! `ldmatrix` of each operand and two `m16n8k16` per K step of 16), 8
//! stages of 10 KiB, two blocks per SM: each SM keeps 112 KiB of the
//! large operand in flight (7 stages of 8 KiB, two blocks: counted) and
//! the tensor cores do 1/8 of the padded work of step 10's 128×128 tiles.
//! A 16-wide tile's rows are 32 bytes, swizzled four to a bank line
//! (`global_to_shared::swizzled`). ptxas (sm_90, before step 72): 55–72
//! registers, 80 KiB of shared memory, no spills. H100, % of cuBLAS (PERF.md
//! step 70): f16 16384×16×4096 100% (2.58 TB/s), 8192×16×8192 100%,
//! 100000×16×512 96%, 16×16384×4096 97%, 2×50000×1000 93.5%, where step
//! 10's tiles ran 73–95%.
//!
//! Step 92: the skinny tiles' f32-output twins (`*_16x64x64_f32out`,
//! `*_64x16x64_f32out`) compute the partial sums of their own deep-K
//! splits, so a few long rows (1000–4000 rows of K 4096–100000) split into
//! about one block per SM, each streaming its chunk through the same ring.
//! ptxas (sm_80): 111 / 85 registers, as their bases, no spills. H100,
//! `auto`, % of cuBLAS (PERF.md step 92): f16 2000×16×10000 106,
//! 4000×16×9000 89.5, 700×16×60000 87, 16×1000×20000 100.5, where
//! `skinny_mma_r16` or step 10's tiles ran 60–78.
//!
//! Step 72: where a skinny tile's large operand has runs off 16 bytes (an
//! odd K or N), no `cp.async` can start at them; each slice of it lands
//! instead as the aligned 16-byte granules that hold its runs (one more
//! than a run's length), and each 16-byte chunk of the tile is shifted out
//! of the two granules it straddles, in shared memory, one slice ahead of
//! the multiply (`realigning_mainloop`, `global_to_shared::copy_granules`
//! and `realign_granules`; 104 KiB, still two blocks per SM). ptxas (sm_90):
//! 83–105 registers, no spills. H100 (PERF.md step 72), against step 10 on
//! copies realigned first: f16 100000×16×777 0.185 → 0.118 ms (72 → 113%
//! of cuBLAS), 16×50001×1024 0.127 → 0.072 (73 → 129%), 16×16383×4096
//! 0.154 → 0.100.
//!
//! Layouts: 128×128×32 (both warp shapes), 128×256×32 with 64×32 warps
//! and the skinny tiles are also compiled for column-major A and/or B:
//! those tiles keep the operand's orientation (`[BK][BM]`, `[BN][BK]`) and
//! read it with the other `ldmatrix` (`.trans` for A, plain for B).

use super::cp_async_mainloop::{MmaSlices, RealignRing, RealigningSlices, cp_async_mainloop, realigning_mainloop};
use super::epilogue::{MmaOutput, Output};
use super::global_to_shared::{
    OffRuns, Operands, SmemTile, StageRing, Swizzled, copy_a, copy_b, copy_granules, copy_slice, realign_granules,
};
use super::{Bf16, F16, MmaElement};
use crate::device::sm80::{ldmatrix_x4, ldmatrix_x4_trans};
use crate::device::{load_shared_b32, load_shared_u16, thread_idx};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::tile_scheduler::tile_origin;

/// Byte offset of chunk `chunk` of row `row` in a slice tile with rows
/// `row_bytes` long: swizzled, or plain when `SWIZZLE` is off (ablation).
#[inline(always)]
fn tile_offset<const SWIZZLE: bool>(row_bytes: usize, row: usize, chunk: usize) -> usize {
    Swizzled::<SWIZZLE> { row_bytes }.offset(row, chunk)
}

/// Step 8's part of the mainloop (see [`MmaSlices`]): this thread's copies
/// of a slice, and its warp's `mma`s over a stage.
struct Slices<
    'a,
    E,
    Out,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const MI: usize,
    const NJ: usize,
    const LDMATRIX: bool,
    const SWIZZLE: bool,
    const A_T: bool,
    const B_T: bool,
> {
    ops: &'a Operands<u16, Out>,
    t: usize,
    lane: usize,
    warp_row: usize,
    warp_col: usize,
    element: core::marker::PhantomData<E>,
}

impl<
    E: MmaElement,
    Out: MmaOutput,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const MI: usize,
    const NJ: usize,
    const LDMATRIX: bool,
    const SWIZZLE: bool,
    const A_T: bool,
    const B_T: bool,
> MmaSlices for Slices<'_, E, Out, BM, BN, BK, THREADS, MI, NJ, LDMATRIX, SWIZZLE, A_T, B_T>
{
    type Acc = [[[[f32; 4]; 2]; NJ]; MI];

    #[inline(always)]
    unsafe fn copy(&self, slice: usize, a_stage: u32, b_stage: u32) {
        // Each tile keeps its operand's orientation (see `global_to_shared`).
        let a_layout = (Swizzled::<SWIZZLE> { row_bytes: BK * 2 }, Swizzled::<SWIZZLE> { row_bytes: BM * 2 });
        let b_layout = (Swizzled::<SWIZZLE> { row_bytes: BN * 2 }, Swizzled::<SWIZZLE> { row_bytes: BK * 2 });
        let (a, b) = ((a_stage, a_layout), (b_stage, b_layout));
        unsafe {
            copy_slice::<u16, Out, BM, BN, BK, THREADS, A_T, B_T, _, _, _, _>(
                self.ops,
                (slice * BK) as u32,
                self.t,
                a,
                b,
            )
        };
    }

    #[inline(always)]
    unsafe fn multiply(&self, acc: &mut Self::Acc, a_tile: u32, b_tile: u32) {
        let (lane, warp_row, warp_col) = (self.lane, self.warp_row, self.warp_col);
        for kk in 0..BK / 16 {
            let a_frag: [[u32; 4]; MI] = core::array::from_fn(|mi| {
                if A_T {
                    // `[k][m]` tile: lane l addresses k-row l%8 of 8×8 matrix
                    // l/8 = (m half, k half) = ((l/8)%2, l/16); `.trans`
                    // hands each lane the same registers as the row-major case.
                    let k_row = kk * 16 + (lane / 16) * 8 + lane % 8;
                    let chunk = (warp_row + mi * 16) / 8 + (lane / 8) % 2;
                    ldmatrix_x4_trans(a_tile + tile_offset::<SWIZZLE>(BM * 2, k_row, chunk) as u32)
                } else if LDMATRIX {
                    // Lane l addresses row l % 16 of the 16×16 A tile, k half l / 16.
                    let row = warp_row + mi * 16 + lane % 16;
                    ldmatrix_x4(a_tile + tile_offset::<SWIZZLE>(BK * 2, row, kk * 2 + lane / 16) as u32)
                } else {
                    // The same registers gathered by hand: lane (g, t) = (lane/4,
                    // lane%4) holds A[g][2t..2t+2], A[g+8][..], A[g][2t+8..], A[g+8][2t+8..].
                    let row = warp_row + mi * 16 + lane / 4;
                    let within = (lane % 4) * 4;
                    core::array::from_fn(|r| {
                        let (dr, half) = ((r % 2) * 8, r / 2);
                        let offset = tile_offset::<SWIZZLE>(BK * 2, row + dr, kk * 2 + half) + within;
                        load_shared_b32(a_tile + offset as u32)
                    })
                }
            });
            // Registers 0,1 of each fragment are the left 16×8 B tile (k
            // halves), registers 2,3 the right one.
            let b_frag: [[u32; 4]; NJ] = core::array::from_fn(|nj| {
                if B_T {
                    // `[n][k]` tile, already the column-major B that `mma`
                    // wants: lane l addresses n-row l%8 of matrix l/8 =
                    // (n half, k half) = (l/16, (l/8)%2), no transpose.
                    let n_row = warp_col + nj * 16 + (lane / 16) * 8 + lane % 8;
                    ldmatrix_x4(b_tile + tile_offset::<SWIZZLE>(BK * 2, n_row, kk * 2 + (lane / 8) % 2) as u32)
                } else if LDMATRIX {
                    // Lane l addresses k-row l % 16 of a 16×16 B tile, n half l / 16.
                    let chunk = (warp_col + nj * 16) / 8 + lane / 16;
                    ldmatrix_x4_trans(b_tile + tile_offset::<SWIZZLE>(BN * 2, kk * 16 + lane % 16, chunk) as u32)
                } else {
                    // By hand: lane (g, t) needs B[2t][n], B[2t+1][n] (and k + 8)
                    // for column n = g of each 16×8 tile: two 16-bit loads per register.
                    let k0 = kk * 16 + (lane % 4) * 2;
                    core::array::from_fn(|r| {
                        let (h, dk) = (r / 2, (r % 2) * 8);
                        let n = warp_col + nj * 16 + h * 8 + lane / 4;
                        let at_k = |k: usize| {
                            let offset = tile_offset::<SWIZZLE>(BN * 2, k, n / 8) + (n % 8) * 2;
                            load_shared_u16(b_tile + offset as u32)
                        };
                        at_k(k0 + dk) | (at_k(k0 + dk + 1) << 16)
                    })
                }
            });
            for (acc_m, a_m) in acc.iter_mut().zip(&a_frag) {
                for (acc_pair, b) in acc_m.iter_mut().zip(&b_frag) {
                    acc_pair[0] = E::mma(*a_m, [b[0], b[1]], acc_pair[0]);
                    acc_pair[1] = E::mma(*a_m, [b[2], b[3]], acc_pair[1]);
                }
            }
        }
    }
}

/// A skinny tile's large operand is A where N is the small side.
const fn large_is_a(bn: usize) -> bool {
    bn <= 16
}

/// A skinny tile's large operand's slice `slice` as runs: a row-major A's
/// rows (`[BM][BK]`), a column-major A's columns (`[BK][BM]`), a row-major
/// B's rows (`[BK][BN]`), a column-major B's columns (`[BN][BK]`).
#[inline(always)]
fn large_runs<Out, const BM: usize, const BN: usize, const BK: usize, const A_T: bool, const B_T: bool>(
    ops: &Operands<u16, Out>,
    slice: usize,
) -> OffRuns {
    let p = &ops.p;
    let k0 = (slice * BK) as u32;
    let (rows_side, k_major, operand, ld, mn0, mn_len) =
        if large_is_a(BN) { (BM, !A_T, p.a, p.lda, ops.row0, p.m) } else { (BN, B_T, p.b, p.ldb, ops.col0, p.n) };
    if k_major {
        OffRuns { p: operand, ld, rows: rows_side, run: BK, outer: (mn0, mn_len), inner: (k0, p.k) }
    } else {
        OffRuns { p: operand, ld, rows: BK, run: rows_side, outer: (k0, p.k), inner: (mn0, mn_len) }
    }
}

impl<
    E: MmaElement,
    Out: MmaOutput,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const MI: usize,
    const NJ: usize,
    const LDMATRIX: bool,
    const SWIZZLE: bool,
    const A_T: bool,
    const B_T: bool,
> RealigningSlices for Slices<'_, E, Out, BM, BN, BK, THREADS, MI, NJ, LDMATRIX, SWIZZLE, A_T, B_T>
{
    #[inline(always)]
    unsafe fn copy_granules(&self, slice: usize, granules: u32, tile: u32) {
        let k0 = (slice * BK) as u32;
        unsafe {
            copy_granules::<THREADS>(&large_runs::<Out, BM, BN, BK, A_T, B_T>(self.ops, slice), self.t, granules)
        };
        // The small operand's tile, as in `copy`.
        if large_is_a(BN) {
            let layouts = (Swizzled::<SWIZZLE> { row_bytes: BN * 2 }, Swizzled::<SWIZZLE> { row_bytes: BK * 2 });
            unsafe { copy_b::<u16, Out, BN, BK, THREADS, B_T, _, _>(self.ops, k0, self.t, tile, layouts) };
        } else {
            let layouts = (Swizzled::<SWIZZLE> { row_bytes: BK * 2 }, Swizzled::<SWIZZLE> { row_bytes: BM * 2 });
            unsafe { copy_a::<u16, Out, BM, BK, THREADS, A_T, _, _>(self.ops, k0, self.t, tile, layouts) };
        }
    }

    #[inline(always)]
    unsafe fn realign(&self, slice: usize, granules: u32, realigned: u32) {
        let runs = large_runs::<Out, BM, BN, BK, A_T, B_T>(self.ops, slice);
        // The tile the multiply reads for that operand: `[rows][run]`.
        let layout = Swizzled::<SWIZZLE> { row_bytes: runs.run * 2 };
        unsafe { realign_granules::<THREADS, _>(&runs, self.t, granules, (realigned, layout)) };
    }

    #[inline(always)]
    fn tiles(&self, realigned: u32, tile: u32) -> (u32, u32) {
        if large_is_a(BN) { (realigned, tile) } else { (tile, realigned) }
    }
}

/// # Safety
/// See the entry point.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn tensor_core<
    E: MmaElement,
    Out: MmaOutput,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const WM: usize,
    const WN: usize,
    const THREADS: usize,
    const MI: usize,
    const NJ: usize,
    const STAGES: usize,
    const LDMATRIX: bool,
    const SWIZZLE: bool,
    const STAGED_EPILOGUE: bool,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<u16, Out>,
) {
    // MI × NJ: the warp tile in 16×16 pieces (each one A fragment and a pair
    // of 16×8 accumulators).
    const {
        assert!((BK == 32 || BK == 64) && BN >= 16 && WM == MI * 16 && WN == NJ * 16 && STAGES >= 2 && STAGES <= 9);
        assert!(THREADS == (BM / WM) * (BN / WN) * 32);
        assert!(
            (BM * BK / 8).is_multiple_of(THREADS) && (BK * BN / 8).is_multiple_of(THREADS),
            "whole chunks per thread"
        );
        assert!(LDMATRIX || (!A_T && !B_T), "column-major operands are read with ldmatrix");
    };
    let (a_bytes, b_bytes) = gemm_launch::mma_tile_bytes(gemm_launch::Dtype::F16, BM as u32, BN as u32, BK as u32);
    let ring = StageRing { a_bytes: a_bytes as usize, stage_bytes: (a_bytes + b_bytes) as usize };

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new::<A_T, B_T>(p, row0, col0);
    let t = thread_idx();
    let (warp, lane) = (t / 32, t % 32);
    let (warp_row, warp_col) = ((warp / (BN / WN)) * WM, (warp % (BN / WN)) * WN);

    let mut acc = [[[[0.0f32; 4]; 2]; NJ]; MI];
    let slices_of = Slices::<E, Out, BM, BN, BK, THREADS, MI, NJ, LDMATRIX, SWIZZLE, A_T, B_T> {
        ops: &ops,
        t,
        lane,
        warp_row,
        warp_col,
        element: core::marker::PhantomData,
    };
    // Step 72: a skinny tile whose large operand's runs start off 16 bytes
    // lands that operand as granules and realigns it in shared memory.
    let skinny = BM <= 16 || BN <= 16;
    const { assert!(!(BM <= 16 || BN <= 16) || STAGES >= 3, "the realigning mainloop waits a slice ahead") };
    let large_aligned = if large_is_a(BN) { ops.a_aligned } else { ops.b_aligned };
    if skinny && !large_aligned {
        let layout = gemm_launch::SkinnyRealign::of(BM as u32, BN as u32, BK as u32);
        let ring = RealignRing { layout, stages: STAGES };
        unsafe { realigning_mainloop::<_, STAGES>(&slices_of, ring, slices, &mut acc) };
    } else {
        unsafe { cp_async_mainloop::<_, STAGES>(&slices_of, ring, slices, &mut acc) };
    }

    let out = Output { p: &ops.p, row0, col0, warp_row, warp_col, lane };
    unsafe { Out::store::<E, BM, BN, THREADS, MI, NJ, STAGED_EPILOGUE>(&out, &acc, t) };
}

kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_128x256x32, gemm_launch::MMA_F16_128X256X32, row_major);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_128x128x32, gemm_launch::MMA_F16_128X128X32, any);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_128x256x64, gemm_launch::MMA_F16_128X256X64, row_major);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_128x128x64, gemm_launch::MMA_F16_128X128X64, row_major);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_128x128x32_w32x64, gemm_launch::MMA_F16_128X128X32_W32X64, any);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_128x256x32_w64x32, gemm_launch::MMA_F16_128X256X32_W64X32, any);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_ablate_plain, gemm_launch::ABLATE_F16_PLAIN, row_major);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_ablate_ldmatrix, gemm_launch::ABLATE_F16_LDMATRIX, row_major);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_ablate_stages, gemm_launch::ABLATE_F16_STAGES, row_major);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_16x64x64, gemm_launch::MMA_F16_16X64X64, any);
kernel_entries!(mma tensor_core<F16, u16>, hgemm_mma_64x16x64, gemm_launch::MMA_F16_64X16X64, any);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_16x64x64, gemm_launch::MMA_BF16_16X64X64, any);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_64x16x64, gemm_launch::MMA_BF16_64X16X64, any);
kernel_entries!(mma tensor_core<F16, f32>, hgemm_mma_16x64x64_f32out, gemm_launch::MMA_F16_16X64X64_F32OUT, any);
kernel_entries!(mma tensor_core<F16, f32>, hgemm_mma_64x16x64_f32out, gemm_launch::MMA_F16_64X16X64_F32OUT, any);
kernel_entries!(mma tensor_core<Bf16, f32>, bgemm_mma_16x64x64_f32out, gemm_launch::MMA_BF16_16X64X64_F32OUT, any);
kernel_entries!(mma tensor_core<Bf16, f32>, bgemm_mma_64x16x64_f32out, gemm_launch::MMA_BF16_64X16X64_F32OUT, any);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_128x256x32, gemm_launch::MMA_BF16_128X256X32, row_major);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_128x128x32, gemm_launch::MMA_BF16_128X128X32, any);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_128x256x64, gemm_launch::MMA_BF16_128X256X64, row_major);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_128x128x64, gemm_launch::MMA_BF16_128X128X64, row_major);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_128x128x32_w32x64, gemm_launch::MMA_BF16_128X128X32_W32X64, any);
kernel_entries!(mma tensor_core<Bf16, u16>, bgemm_mma_128x256x32_w64x32, gemm_launch::MMA_BF16_128X256X32_W64X32, any);
kernel_entries!(
    mma tensor_core<F16, f32>,
    hgemm_mma_128x128x32_w32x64_f32out,
    gemm_launch::MMA_F16_128X128X32_W32X64_F32OUT,
    any
);
kernel_entries!(
    mma tensor_core<Bf16, f32>,
    bgemm_mma_128x128x32_w32x64_f32out,
    gemm_launch::MMA_BF16_128X128X32_W32X64_F32OUT,
    any
);
