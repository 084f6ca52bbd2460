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
//! see docs/PERF.md).
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
//! Layouts: 128×128×32 (both warp shapes) and 128×256×32 with 64×32 warps
//! are also compiled for column-major A and/or B: those tiles keep the
//! operand's orientation (`[BK][BM]`, `[BN][BK]`) and read it with the other
//! `ldmatrix` (`.trans` for A, plain for B).

use crate::common::{Gemm, at, gemm_entries, tile_origin};
use crate::device::sm80::{
    cp_async_16_or_zero, cp_async_commit, cp_async_wait, ldmatrix_x4, ldmatrix_x4_trans, mma_m16n8k16_bf16,
    mma_m16n8k16_f16, pack_bf16x2, pack_f16x2, unpack_bf16x2, unpack_f16x2,
};
use crate::device::{
    load_shared_b32, load_shared_u16, load_shared_x4_b32, smem_addr, store_global_x4_b32, store_shared_b32,
    store_shared_x4_b32, sync_threads, thread_idx,
};

/// A 16-bit input type with its tensor-core instruction and output rounding.
pub trait MmaElement {
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4];
    /// Rounds two f32 to this type, packed low-then-high.
    fn pack(lo: f32, hi: f32) -> u32;
    /// The two values packed in `v` (low half first), exactly as f32.
    fn unpack(v: u32) -> [f32; 2];
}

pub struct F16;
pub struct Bf16;

impl MmaElement for F16 {
    #[inline(always)]
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        mma_m16n8k16_f16(a, b, c)
    }
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        pack_f16x2(lo, hi)
    }
    #[inline(always)]
    fn unpack(v: u32) -> [f32; 2] {
        unpack_f16x2(v)
    }
}

impl MmaElement for Bf16 {
    #[inline(always)]
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        mma_m16n8k16_bf16(a, b, c)
    }
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        pack_bf16x2(lo, hi)
    }
    #[inline(always)]
    fn unpack(v: u32) -> [f32; 2] {
        unpack_bf16x2(v)
    }
}

/// Byte offset of 16-byte chunk `chunk` of row `row` in a swizzled tile
/// whose rows are `row_bytes` long (a compile-time constant at every call).
/// `ldmatrix` reads one chunk from each of 8 consecutive rows; stored plainly
/// those chunks share banks whenever rows are a multiple of 128 bytes apart.
/// XOR-ing the chunk index with a key taken from the row spreads them over all
/// 32 banks: `row % 8` for rows of 128 bytes or more; `(row / 2) % 4` for
/// 64-byte rows, two of which share a 128-byte bank line.
#[inline(always)]
pub(crate) fn swizzled(row_bytes: usize, row: usize, chunk: usize) -> usize {
    let key = if row_bytes == 64 { (row >> 1) & 3 } else { row & 7 };
    row * row_bytes + ((chunk ^ key) * 16)
}

/// [`swizzled`], or the plain row layout when `SWIZZLE` is off (ablation).
#[inline(always)]
fn tile_offset<const SWIZZLE: bool>(row_bytes: usize, row: usize, chunk: usize) -> usize {
    if SWIZZLE { swizzled(row_bytes, row, chunk) } else { row * row_bytes + chunk * 16 }
}

/// A block's view of the problem: where its C tile starts, and whether A
/// and B rows (columns, if column-major) can be copied 16 bytes at a time.
pub(crate) struct Operands<In, Out> {
    pub p: Gemm<In, Out>,
    pub row0: u32,
    pub col0: u32,
    pub a_aligned: bool,
    pub b_aligned: bool,
}

impl<In, Out> Operands<In, Out> {
    /// An operand moves in whole 16-byte chunks when its runs start on
    /// 16-byte boundaries and their length (K for a row-major A, M for a
    /// column-major one; N or K for B) is a multiple of the chunk, so that no
    /// chunk straddles the matrix's edge. `A_T`/`B_T`: column-major.
    #[inline(always)]
    pub fn new<const A_T: bool, const B_T: bool>(p: Gemm<In, Out>, row0: u32, col0: u32) -> Self {
        let chunk = (16 / core::mem::size_of::<In>()) as u32;
        let (a_run, b_run) = (if A_T { p.m } else { p.k }, if B_T { p.k } else { p.n });
        let a_aligned = p.a_aligned() && a_run.is_multiple_of(chunk);
        let b_aligned = p.b_aligned() && b_run.is_multiple_of(chunk);
        Operands { p, row0, col0, a_aligned, b_aligned }
    }
}

/// One 16-byte chunk of a contiguous run (a row of a row-major operand, a
/// column of a column-major one; 8 16-bit or 4 32-bit elements) into shared
/// memory: one zero-filling `cp.async` when `aligned` (runs start on 16-byte
/// boundaries and their length is a multiple of the chunk, so a chunk is
/// wholly inside or wholly outside the matrix; see [`Operands::new`]), else
/// gathered element by element, zero outside, and stored. `outer` picks the
/// run, `inner` the chunk's first element.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn copy_chunk<T: Copy + Into<u32>>(
    dst: u32,
    p: *const T,
    ld: u32,
    outer: u32,
    inner: u32,
    outer_len: u32,
    inner_len: u32,
    aligned: bool,
) {
    if aligned {
        let inside = outer < outer_len && inner < inner_len;
        let src = if inside { unsafe { p.add(at(outer, ld, inner)) } } else { p };
        unsafe { cp_async_16_or_zero(dst, src, if inside { 16 } else { 0 }) };
    } else {
        let element = |j: u32| -> u32 {
            if outer < outer_len && inner + j < inner_len {
                unsafe { (*p.add(at(outer, ld, inner + j))).into() }
            } else {
                0
            }
        };
        let words: [u32; 4] = if core::mem::size_of::<T>() == 2 {
            core::array::from_fn(|q| element(2 * q as u32) | (element(2 * q as u32 + 1) << 16))
        } else {
            core::array::from_fn(|q| element(q as u32))
        };
        store_shared_x4_b32(dst, words);
    }
}

/// Issues the copies of the K slice at `k0` into the stage at `a_stage` and
/// `b_stage`, both swizzled. Each tile keeps its operand's orientation, so
/// every copy moves 16 contiguous bytes: A is `[BM][BK]`, or `[BK][BM]` when
/// column-major (`A_T`); B is `[BK][BN]`, or `[BN][BK]` (`B_T`).
#[inline(always)]
unsafe fn copy_slice<
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const SWIZZLE: bool,
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
                let dst = a_stage + tile_offset::<SWIZZLE>(BM * 2, r, c) as u32;
                copy_chunk(dst, a, lda, k0 + r as u32, row0 + 8 * c as u32, k, m, ops.a_aligned);
            } else {
                let (r, c) = (i / (BK / 8), i % (BK / 8));
                let dst = a_stage + tile_offset::<SWIZZLE>(BK * 2, r, c) as u32;
                copy_chunk(dst, a, lda, row0 + r as u32, k0 + 8 * c as u32, m, k, ops.a_aligned);
            }
        }
    }
    for l in 0..(BK * BN / 8) / THREADS {
        let i = t + l * THREADS;
        unsafe {
            if B_T {
                let (r, c) = (i / (BK / 8), i % (BK / 8));
                let dst = b_stage + tile_offset::<SWIZZLE>(BK * 2, r, c) as u32;
                copy_chunk(dst, b, ldb, col0 + r as u32, k0 + 8 * c as u32, n, k, ops.b_aligned);
            } else {
                let (r, c) = (i / (BN / 8), i % (BN / 8));
                let dst = b_stage + tile_offset::<SWIZZLE>(BN * 2, r, c) as u32;
                copy_chunk(dst, b, ldb, k0 + r as u32, col0 + 8 * c as u32, k, n, ops.b_aligned);
            }
        }
    }
}

/// # Safety
/// See the entry point.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn tensor_core<
    E: MmaElement,
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
    p: Gemm<u16, u16>,
) {
    // MI × NJ: the warp tile in 16×16 pieces (each one A fragment and a pair
    // of 16×8 accumulators).
    const {
        assert!((BK == 32 || BK == 64) && BN >= 64 && WM == MI * 16 && WN == NJ * 16 && STAGES >= 2 && STAGES <= 9);
        assert!(THREADS == (BM / WM) * (BN / WN) * 32);
        assert!(
            (BM * BK / 8).is_multiple_of(THREADS) && (BK * BN / 8).is_multiple_of(THREADS),
            "whole chunks per thread"
        );
        assert!(LDMATRIX || (!A_T && !B_T), "column-major operands are read with ldmatrix");
    };
    let (a_bytes, b_bytes) = gemm_launch::mma_tile_bytes(gemm_launch::Dtype::F16, BM as u32, BN as u32, BK as u32);
    let stage_bytes = (a_bytes + b_bytes) as usize;
    let a_stage = |s: usize| smem_addr(s * stage_bytes);
    let b_stage = |s: usize| smem_addr(s * stage_bytes + a_bytes as usize);

    let (row0, col0) = tile_origin::<BM, BN>(p.m, p.n, p.group_m);
    let slices = p.k.div_ceil(BK as u32) as usize;
    let ops = Operands::new::<A_T, B_T>(p, row0, col0);
    let t = thread_idx();
    let (warp, lane) = (t / 32, t % 32);
    let (warp_row, warp_col) = ((warp / (BN / WN)) * WM, (warp % (BN / WN)) * WN);

    for s in 0..STAGES - 1 {
        if s < slices {
            unsafe {
                copy_slice::<BM, BN, BK, THREADS, SWIZZLE, A_T, B_T>(&ops, (s * BK) as u32, t, a_stage(s), b_stage(s))
            };
        }
        cp_async_commit();
    }

    let mut acc = [[[[0.0f32; 4]; 2]; NJ]; MI];
    for s in 0..slices {
        cp_async_wait(STAGES as u32 - 2);
        sync_threads();
        let next = s + STAGES - 1;
        if next < slices {
            let st = next % STAGES;
            unsafe {
                copy_slice::<BM, BN, BK, THREADS, SWIZZLE, A_T, B_T>(
                    &ops,
                    (next * BK) as u32,
                    t,
                    a_stage(st),
                    b_stage(st),
                )
            };
        }
        cp_async_commit();

        let (a_tile, b_tile) = (a_stage(s % STAGES), b_stage(s % STAGES));
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

    let out = Output { p: &ops.p, row0, col0, warp_row, warp_col, lane };
    if STAGED_EPILOGUE {
        unsafe { store_c_staged::<E, BM, BN, THREADS, MI, NJ>(&out, &acc, t) };
    } else {
        unsafe { store_c_direct::<E, MI, NJ>(&out, &acc) };
    }
}

/// Where a warp's accumulators go.
pub(crate) struct Output<'a> {
    pub p: &'a Gemm<u16, u16>,
    pub row0: u32,
    pub col0: u32,
    pub warp_row: usize,
    pub warp_col: usize,
    pub lane: usize,
}

impl Output<'_> {
    /// `α·v + β·C` for the pair at C(row, col), (row, col + 1), in f32. C is
    /// read only when β ≠ 0, 4 bytes at a time where the pair is inside and
    /// aligned. `row` must be inside C.
    #[inline(always)]
    unsafe fn scaled<E: MmaElement>(&self, row: u32, col: u32, v: [f32; 2], pairs: bool) -> [f32; 2] {
        let p = self.p;
        if !p.scale.reads_c() {
            return v.map(|x| p.scale.apply(x, || 0.0));
        }
        let at = |j: u32| unsafe { p.c.add(p.c_at(row, col + j)) };
        let old = if pairs && col + 1 < p.n {
            E::unpack(unsafe { *(at(0) as *const u32) })
        } else {
            core::array::from_fn(|j| {
                if col + (j as u32) < p.n { E::unpack(unsafe { *at(j as u32) } as u32)[0] } else { 0.0 }
            })
        };
        [p.scale.apply(v[0], || old[0]), p.scale.apply(v[1], || old[1])]
    }
}

/// Accumulator (mi, nj, h) is the 16×8 tile at rows warp_row + 16·mi,
/// columns warp_col + 16·nj + 8·h; a lane holds rows lane/4 and lane/4 + 8,
/// columns 2·(lane%4) and +1 of it. Calls `put(row, col, pair)` with
/// block-relative coordinates for each pair.
#[inline(always)]
fn for_each_pair<const MI: usize, const NJ: usize>(
    out: &Output,
    acc: &[[[[f32; 4]; 2]; NJ]; MI],
    mut put: impl FnMut(usize, usize, [f32; 2]),
) {
    for (mi, acc_m) in acc.iter().enumerate() {
        for (nj, acc_pair) in acc_m.iter().enumerate() {
            for (h, acc_tile) in acc_pair.iter().enumerate() {
                let col = out.warp_col + nj * 16 + h * 8 + (out.lane % 4) * 2;
                for half in 0..2 {
                    let row = out.warp_row + mi * 16 + out.lane / 4 + half * 8;
                    put(row, col, [acc_tile[2 * half], acc_tile[2 * half + 1]]);
                }
            }
        }
    }
}

/// Epilogue, direct: each pair is scaled, rounded and goes to global memory
/// as one 4-byte store (a warp's store covers 8 rows × 16 bytes: half of
/// each 32-byte sector).
#[inline(always)]
pub(crate) unsafe fn store_c_direct<E: MmaElement, const MI: usize, const NJ: usize>(
    out: &Output,
    acc: &[[[[f32; 4]; 2]; NJ]; MI],
) {
    let p = out.p;
    // Pairs are 4-byte aligned when C is and its rows are an even length.
    let pairs = p.ldc.is_multiple_of(2) && (p.c as usize).is_multiple_of(4);
    for_each_pair::<MI, NJ>(out, acc, |r, cc, v| {
        let (row, col) = (out.row0 + r as u32, out.col0 + cc as u32);
        if row >= p.m {
            return;
        }
        let v = unsafe { out.scaled::<E>(row, col, v, pairs) };
        let packed = E::pack(v[0], v[1]);
        let at = |j: u32| unsafe { p.c.add(p.c_at(row, col + j)) };
        if pairs && col + 1 < p.n {
            unsafe { *(at(0) as *mut u32) = packed };
        } else {
            if col < p.n {
                unsafe { *at(0) = packed as u16 };
            }
            if col + 1 < p.n {
                unsafe { *at(1) = (packed >> 16) as u16 };
            }
        }
    });
}

/// Epilogue, staged through shared memory (`Features::staged_epilogue`).
#[inline(always)]
unsafe fn store_c_staged<
    E: MmaElement,
    const BM: usize,
    const BN: usize,
    const THREADS: usize,
    const MI: usize,
    const NJ: usize,
>(
    out: &Output,
    acc: &[[[[f32; 4]; 2]; NJ]; MI],
    t: usize,
) {
    let (p, row0, col0) = (out.p, out.row0, out.col0);
    // Two steps. (1) Each lane writes its scaled, rounded pairs to a C tile
    // in shared memory, reusing the pipeline's space once every copy has
    // landed and every warp is done reading.
    let c_ld = gemm_launch::c_smem_ld(BN as u32) as usize;
    let c_tile = smem_addr(0);
    let pairs = p.ldc.is_multiple_of(2) && (p.c as usize).is_multiple_of(4);
    cp_async_wait(0);
    sync_threads();
    for_each_pair::<MI, NJ>(out, acc, |row, col, v| {
        let v = if row0 + (row as u32) < p.m {
            unsafe { out.scaled::<E>(row0 + row as u32, col0 + col as u32, v, pairs) }
        } else {
            v
        };
        store_shared_b32(c_tile + ((row * c_ld + col) * 2) as u32, E::pack(v[0], v[1]))
    });
    sync_threads();
    // (2) The block writes the tile out row by row, 16 bytes (8 elements) per
    // thread and store: consecutive threads, consecutive addresses.
    let aligned = p.c_aligned();
    for l in 0..(BM * BN / 8) / THREADS {
        let i = t + l * THREADS;
        let (r, c8) = (i / (BN / 8), (i % (BN / 8)) * 8);
        let (row, col) = (row0 + r as u32, col0 + c8 as u32);
        if row >= p.m {
            continue;
        }
        let words = load_shared_x4_b32(c_tile + ((r * c_ld + c8) * 2) as u32);
        if aligned && col + 8 <= p.n {
            unsafe { store_global_x4_b32(p.c.add(p.c_at(row, col)) as *mut u32, words) };
        } else {
            for j in 0..8u32 {
                if col + j < p.n {
                    let half = (words[(j / 2) as usize] >> (16 * (j % 2))) as u16;
                    unsafe { *p.c.add(p.c_at(row, col + j)) = half };
                }
            }
        }
    }
}

/// The const generic parameters of the tensor-core kernel for a spec.
macro_rules! mma_entries {
    ($name:ident, $element:ty, $spec:path, $layouts:ident) => {
        gemm_entries!($name, $spec, u16 => u16, $layouts, |p, A_T, B_T| {
            const SPEC: gemm_launch::KernelSpec = $spec;
            const T: gemm_launch::Tile = SPEC.tile;
            tensor_core::<
                $element,
                { T.bm as usize },
                { T.bn as usize },
                { T.bk as usize },
                { T.tm as usize },
                { T.tn as usize },
                { SPEC.threads() as usize },
                { T.tm as usize / 16 },
                { T.tn as usize / 16 },
                { SPEC.stages as usize },
                { SPEC.features.ldmatrix },
                { SPEC.features.swizzle },
                { SPEC.features.staged_epilogue },
                A_T,
                B_T,
            >(p)
        });
    };
}

// The sm_90a module (step 9) borrows this file's pieces, not its kernels.
#[cfg(not(rgemm_sm90a))]
mod entries {
    use super::*;
    mma_entries!(hgemm_mma_128x256x32, F16, gemm_launch::MMA_F16_128X256X32, row_major);
    mma_entries!(hgemm_mma_128x128x32, F16, gemm_launch::MMA_F16_128X128X32, any);
    mma_entries!(hgemm_mma_128x256x64, F16, gemm_launch::MMA_F16_128X256X64, row_major);
    mma_entries!(hgemm_mma_128x128x64, F16, gemm_launch::MMA_F16_128X128X64, row_major);
    mma_entries!(hgemm_mma_128x128x32_w32x64, F16, gemm_launch::MMA_F16_128X128X32_W32X64, any);
    mma_entries!(hgemm_mma_128x256x32_w64x32, F16, gemm_launch::MMA_F16_128X256X32_W64X32, any);
    mma_entries!(hgemm_ablate_plain, F16, gemm_launch::ABLATE_F16_PLAIN, row_major);
    mma_entries!(hgemm_ablate_ldmatrix, F16, gemm_launch::ABLATE_F16_LDMATRIX, row_major);
    mma_entries!(hgemm_ablate_stages, F16, gemm_launch::ABLATE_F16_STAGES, row_major);
    mma_entries!(bgemm_mma_128x256x32, Bf16, gemm_launch::MMA_BF16_128X256X32, row_major);
    mma_entries!(bgemm_mma_128x128x32, Bf16, gemm_launch::MMA_BF16_128X128X32, any);
    mma_entries!(bgemm_mma_128x256x64, Bf16, gemm_launch::MMA_BF16_128X256X64, row_major);
    mma_entries!(bgemm_mma_128x128x64, Bf16, gemm_launch::MMA_BF16_128X128X64, row_major);
    mma_entries!(bgemm_mma_128x128x32_w32x64, Bf16, gemm_launch::MMA_BF16_128X128X32_W32X64, any);
    mma_entries!(bgemm_mma_128x256x32_w64x32, Bf16, gemm_launch::MMA_BF16_128X256X32_W64X32, any);
}
