//! Epilogue (CUTLASS's collective epilogue): writing the accumulators to C
//! as `α·acc + β·C`, for the tensor-core kernels (steps 8 to 10b; step 10
//! also through the TMA, [`store_c_tma`]). Their
//! accumulators share `mma.sync`'s m16n8 C layout (a `wgmma` tile is that
//! layout repeated), so one piece serves all. For a 16-bit C, pairs are
//! rounded to the output type (`cvt.rn.{f16x2,bf16x2}.f32`), then either
//! stored 4 bytes at a time (direct) or staged as a C tile in shared memory
//! and written out with coalesced 16-byte stores (staged). An f32 C (TF32,
//! and the f32-output twins that write split-K partial sums) takes the
//! accumulators as they are ([`store_c_f32`]; step 9b's TF32 `wgmma`
//! keeps its own element-by-element store), but step 10f's swapped tiles
//! pass a C whose rows are off 8 bytes through shared memory
//! ([`store_c_f32_swapped_rows`]). C is read only when β ≠ 0.

use super::MmaElement;
use crate::device::sm80::cp_async_wait;
use crate::device::{
    load_shared_x4_b32, smem_addr, store_global_x2, store_global_x4_b32, store_shared_b32, sync_threads,
};
use crate::kernel_abi::Gemm;
#[cfg(rgemm_sm90a)]
use gemm_launch::tma::F32_ROUND_ROWS;

/// Where a warp's accumulators go: C of `Out` (A and B of `In`).
pub(crate) struct Output<'a, In, Out> {
    pub p: &'a Gemm<In, Out>,
    pub row0: u32,
    pub col0: u32,
    pub warp_row: usize,
    pub warp_col: usize,
    pub lane: usize,
}

/// A warp's f32 accumulators as m16n8 tiles in `mma.sync`'s C layout:
/// tile (i, j) covers rows `16·i..`, columns `8·j..` of the warp tile, and a
/// lane holds rows lane/4 and lane/4 + 8, columns 2·(lane%4) and +1 of it.
/// The 16-bit kernels hold them as pairs of tiles side by side (one `[_; 2]`
/// per 16×16 piece), the TF32 kernels one by one.
pub(crate) trait WarpAccumulators {
    /// Calls `put(i, j, tile)` for every tile.
    fn for_each_tile(&self, put: impl FnMut(usize, usize, &[f32; 4]));
}

impl<const MI: usize, const NJ: usize> WarpAccumulators for [[[[f32; 4]; 2]; NJ]; MI] {
    #[inline(always)]
    fn for_each_tile(&self, mut put: impl FnMut(usize, usize, &[f32; 4])) {
        for (mi, acc_m) in self.iter().enumerate() {
            for (nj, acc_pair) in acc_m.iter().enumerate() {
                for (h, tile) in acc_pair.iter().enumerate() {
                    put(mi, 2 * nj + h, tile);
                }
            }
        }
    }
}

impl<const MI: usize, const NI: usize> WarpAccumulators for [[[f32; 4]; NI]; MI] {
    #[inline(always)]
    fn for_each_tile(&self, mut put: impl FnMut(usize, usize, &[f32; 4])) {
        for (mi, acc_m) in self.iter().enumerate() {
            for (ni, tile) in acc_m.iter().enumerate() {
                put(mi, ni, tile);
            }
        }
    }
}

impl Output<'_, u16, u16> {
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

/// Calls `put(row, col, pair)` with block-relative coordinates for each
/// pair of a lane's accumulators (see [`WarpAccumulators`]).
#[inline(always)]
fn for_each_pair<In, Out>(
    out: &Output<In, Out>,
    acc: &impl WarpAccumulators,
    mut put: impl FnMut(usize, usize, [f32; 2]),
) {
    acc.for_each_tile(|i, j, tile| {
        let col = out.warp_col + j * 8 + (out.lane % 4) * 2;
        for half in 0..2 {
            let row = out.warp_row + i * 16 + out.lane / 4 + half * 8;
            put(row, col, [tile[2 * half], tile[2 * half + 1]]);
        }
    });
}

/// Epilogue, f32 C: each accumulator scaled (`α·acc + β·C`, C read only when
/// β ≠ 0) and stored as it is, inside C only: a lane's two neighbours in a
/// row 8 bytes at a time where C's rows allow (its start and leading
/// dimension even), else 4. No rounding: this is what keeps a split-K
/// partial sum f32 on its way to the reduction (with α = 1, β = 0 it is the
/// accumulator itself).
///
/// # Safety
/// C must hold the operand the launch describes.
#[inline(always)]
pub(crate) unsafe fn store_c_f32<In>(out: &Output<In, f32>, acc: &impl WarpAccumulators) {
    let p = out.p;
    // Pairs start at even columns: 8-byte aligned when C's rows are.
    let pairs = (p.c as usize).is_multiple_of(8) && p.ldc.is_multiple_of(2);
    // Written out rather than through `for_each_pair`: the TF32 128×128 tile
    // sits at 255 registers, and this exact shape is the one that fits.
    acc.for_each_tile(|i, j, tile| {
        let col = out.col0 + (out.warp_col + j * 8 + (out.lane % 4) * 2) as u32;
        for half in 0..2 {
            let row = out.row0 + (out.warp_row + i * 16 + out.lane / 4 + half * 8) as u32;
            let (v0, v1) = (tile[2 * half], tile[2 * half + 1]);
            // [`store_pair_f32`], inlined by hand: through the call, ptxas
            // spilled 4 bytes of `mma_128x128x32` (TF32) on sm_90.
            if pairs && row < p.m && col + 1 < p.n {
                let at = unsafe { p.c.add(p.c_at(row, col)) };
                let (old0, old1) = if p.scale.reads_c() { unsafe { (*at, *at.add(1)) } } else { (0.0, 0.0) };
                unsafe { store_global_x2(at, [p.scale.apply(v0, || old0), p.scale.apply(v1, || old1)]) };
            } else {
                unsafe { p.store_c(row, col, v0) };
                unsafe { p.store_c(row, col + 1, v1) };
            }
        }
    });
}

/// `α·v + β·C` into C(row, col) and (row, col + 1), inside C only: 8 bytes
/// at a time where `pairs` (C's rows even-aligned) and both are inside.
///
/// # Safety
/// As [`store_c_f32`].
#[cfg(rgemm_sm90a)]
#[inline(always)]
unsafe fn store_pair_f32<In>(p: &Gemm<In, f32>, pairs: bool, row: u32, col: u32, [v0, v1]: [f32; 2]) {
    if pairs && row < p.m && col + 1 < p.n {
        let at = unsafe { p.c.add(p.c_at(row, col)) };
        let (old0, old1) = if p.scale.reads_c() { unsafe { (*at, *at.add(1)) } } else { (0.0, 0.0) };
        unsafe { store_global_x2(at, [p.scale.apply(v0, || old0), p.scale.apply(v1, || old1)]) };
    } else {
        unsafe { p.store_c(row, col, v0) };
        unsafe { p.store_c(row, col + 1, v1) };
    }
}

/// Epilogue of step 10f's swapped tiles (TF32, f32 C): a warpgroup's
/// accumulators are a 64 × `2·LEN` tile of Cᵀ in the `wgmma` C layout,
/// whose rows are C's columns and columns C's rows. Lane `l` holds C's
/// columns `col` and `col + 1` (its rows `l/4` and `l/4 + 8`) in C rows
/// `8j + 2·(l%4)` and `+ 1` of the block tile, for each of the `LEN/4`
/// 8-row groups `j`: a pair side by side in each row, stored as
/// [`store_c_f32`] stores its pairs.
///
/// # Safety
/// As [`store_c_f32`]; `col` is the lane's first column in the block tile.
#[cfg(rgemm_sm90a)]
#[inline(always)]
pub(crate) unsafe fn store_c_f32_swapped<In, const LEN: usize>(out: &Output<In, f32>, acc: &[f32; LEN], col: u32) {
    let p = out.p;
    let pairs = (p.c as usize).is_multiple_of(8) && p.ldc.is_multiple_of(2);
    let col = out.col0 + col;
    for j in 0..LEN / 4 {
        for e in 0..2 {
            let row = out.row0 + (8 * j + 2 * (out.lane % 4) + e) as u32;
            unsafe { store_pair_f32(p, pairs, row, col, [acc[4 * j + e], acc[4 * j + 2 + e]]) };
        }
    }
}

/// Epilogue of step 10g's swapped 16-bit tiles: the accumulators are a
/// `64 × 2·LEN` tile of Cᵀ in `wgmma`'s layout, the thread's rows
/// (columns of C) `col` and `col + 8`, its columns (rows of C) `8j +
/// 2·(lane%4)` and the next; each value scaled (`α·acc + β·C`, C read only
/// when β ≠ 0), rounded and stored alone, inside C only. C has at most 16
/// rows here, a small part of a call that streams B.
///
/// # Safety
/// C must hold the operand the launch describes.
#[cfg(rgemm_sm90a)]
#[inline(always)]
pub(crate) unsafe fn store_c_swapped<E: MmaElement, const LEN: usize>(
    out: &Output<u16, u16>,
    acc: &[f32; LEN],
    col: u32,
) {
    let p = out.p;
    for j in 0..LEN / 4 {
        for h in 0..2 {
            let c = out.col0 + col + 8 * h as u32;
            for e in 0..2 {
                let row = out.row0 + (8 * j + 2 * (out.lane % 4) + e) as u32;
                if row < p.m && c < p.n {
                    // Where β ≠ 0, `scaled` also reads C(row, c + 1), which
                    // another lane writes, and drops it: one extra read per
                    // value, in the code measured and tested (PERF step 102).
                    let v = unsafe { out.scaled::<E>(row, c, [acc[4 * j + 2 * h + e], 0.0], false) };
                    unsafe { *p.c.add(p.c_at(row, c)) = E::pack(v[0], 0.0) as u16 };
                }
            }
        }
    }
}

/// Epilogue of step 10f's swapped tiles for C's rows off 8 bytes (the
/// TF32 entries of `Features::c_rows_off_16_bytes`, PERF.md step 100). In
/// the registers, a warp's store covers 8 bytes of each of 8 column pairs
/// in 4 rows ([`store_c_f32_swapped`]), or 4 bytes where the pairs are
/// off 8 bytes (N odd): TF32 6492×5009×24, whose C's writes are the work,
/// ran 1.75 times as long as 6492×5008×24 (H200, PERF.md step 100). Here
/// the warpgroup passes its `2·LEN × 64` of C through its staged box,
/// [`F32_ROUND_ROWS`] rows at a time, and writes each row out whole:
/// consecutive threads on consecutive columns, so a warp writes 128
/// consecutive bytes, `α·acc + β·C` computed there (C read only when β ≠
/// 0). In the box a row is 256 bytes whose 16-byte pieces are swizzled by
/// the row (piece `q ^ (row / 2 % 4)`): a half-warp's 8-byte writes, 4 rows
/// of 4 pairs, then hit 32 distinct banks, and a warp's reads of one row
/// too.
///
/// # Safety
/// As [`store_c_f32`]; all 128 threads of consumer warpgroup `consumer`
/// (`t`: the thread's index in it), `col` as in [`store_c_f32_swapped`];
/// `staging` is an 8 KiB box only this warpgroup uses; `2·LEN` is a
/// multiple of [`F32_ROUND_ROWS`] (the caller's tile is checked where it
/// is built).
#[cfg(rgemm_sm90a)]
#[inline(always)]
pub(crate) unsafe fn store_c_f32_swapped_rows<In, const LEN: usize>(
    out: &Output<In, f32>,
    acc: &[f32; LEN],
    col: u32,
    staging: u32,
    consumer: usize,
    t: usize,
) {
    use crate::device::{load_shared_b32, named_barrier_sync, store_shared_x2_b32};
    const ROUND: usize = F32_ROUND_ROWS as usize;
    const GROUPS: usize = ROUND / 8;
    let p = out.p;
    // Hardware barriers 1 and 2: one per consumer warpgroup (0 is the block's).
    let warpgroup_barrier = || named_barrier_sync(1 + consumer as u32, 128);
    let at = |row: usize, c: usize| (row * 256 + ((c / 4) ^ (row / 2 % 4)) * 16 + (c % 4) * 4) as u32;
    let (lane_col, first_row) = ((col as usize) % 64, 2 * (out.lane % 4));
    let col0 = out.col0 + (consumer * 64) as u32;
    for round in 0..2 * LEN / ROUND {
        // The previous round's (or tile's) reads of the box are done.
        warpgroup_barrier();
        for g in 0..GROUPS {
            let j = round * GROUPS + g;
            for e in 0..2 {
                let pair = [acc[4 * j + e].to_bits(), acc[4 * j + 2 + e].to_bits()];
                store_shared_x2_b32(staging + at(8 * g + first_row + e, lane_col), pair);
            }
        }
        warpgroup_barrier();
        let row0 = out.row0 + (round * ROUND) as u32;
        for pass in 0..ROUND * 64 / 128 {
            let (r, c) = ((pass * 128 + t) / 64, t % 64);
            let v = f32::from_bits(load_shared_b32(staging + at(r, c)));
            unsafe { p.store_c(row0 + r as u32, col0 + c as u32, v) };
        }
    }
}

/// C's element type in the 16-bit `mma.sync` kernel (step 8), with the
/// epilogue that writes it: `u16` (the kernel's f16/bf16, rounded; direct or
/// staged) or `f32` (the f32-output twins: split-K partial sums).
pub(crate) trait MmaOutput: Sized {
    /// # Safety
    /// C must hold the operand the launch describes; `t` is the thread.
    unsafe fn store<
        E: MmaElement,
        const BM: usize,
        const BN: usize,
        const THREADS: usize,
        const MI: usize,
        const NJ: usize,
        const STAGED: bool,
    >(
        out: &Output<u16, Self>,
        acc: &[[[[f32; 4]; 2]; NJ]; MI],
        t: usize,
    );
}

impl MmaOutput for u16 {
    #[inline(always)]
    unsafe fn store<
        E: MmaElement,
        const BM: usize,
        const BN: usize,
        const THREADS: usize,
        const MI: usize,
        const NJ: usize,
        const STAGED: bool,
    >(
        out: &Output<u16, u16>,
        acc: &[[[[f32; 4]; 2]; NJ]; MI],
        t: usize,
    ) {
        if STAGED {
            unsafe { store_c_staged::<E, BM, BN, THREADS, MI, NJ>(out, acc, t) };
        } else {
            unsafe { store_c_direct::<E, MI, NJ>(out, acc) };
        }
    }
}

impl MmaOutput for f32 {
    #[inline(always)]
    unsafe fn store<
        E: MmaElement,
        const BM: usize,
        const BN: usize,
        const THREADS: usize,
        const MI: usize,
        const NJ: usize,
        const STAGED: bool,
    >(
        out: &Output<u16, f32>,
        acc: &[[[[f32; 4]; 2]; NJ]; MI],
        _t: usize,
    ) {
        // Staging would only repack the same 4-byte values (Features::F32_OUTPUT).
        const { assert!(!STAGED, "an f32 C is stored directly") };
        unsafe { store_c_f32(out, acc) };
    }
}

/// Epilogue, direct: each pair is scaled, rounded and goes to global memory
/// as one 4-byte store (a warp's store covers 8 rows × 16 bytes: half of
/// each 32-byte sector).
#[inline(always)]
pub(crate) unsafe fn store_c_direct<E: MmaElement, const MI: usize, const NJ: usize>(
    out: &Output<u16, u16>,
    acc: &[[[[f32; 4]; 2]; NJ]; MI],
) {
    let p = out.p;
    // Pairs are 4-byte aligned when C is and its rows are an even length.
    let pairs = p.ldc.is_multiple_of(2) && (p.c as usize).is_multiple_of(4);
    for_each_pair(out, acc, |r, cc, v| {
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
pub(crate) unsafe fn store_c_staged<
    E: MmaElement,
    const BM: usize,
    const BN: usize,
    const THREADS: usize,
    const MI: usize,
    const NJ: usize,
>(
    out: &Output<u16, u16>,
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
    for_each_pair(out, acc, |row, col, v| {
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

/// Bytes of one box of the staged C tile: 64 rows of one 128-byte swizzled row.
#[cfg(rgemm_sm90a)]
const C_BOX_BYTES: usize = gemm_launch::tma::C_BOX_BYTES as usize;

/// Columns of C in one box (`gemm_launch::tma::c_box`): 8 chunks of 8.
#[cfg(rgemm_sm90a)]
const BOX_COLS: usize = gemm_launch::tma::c_box(gemm_launch::Dtype::F16)[0] as usize;

/// Where lane `lane` of warp `warp` (in its warpgroup) points its
/// `stmatrix.x4` of columns `8·j..8·j + 16` in the staged C tile: row
/// `lane % 8` of matrix `lane / 8`, in the box and 128-byte swizzle the C
/// map names.
#[cfg(rgemm_sm90a)]
#[inline(always)]
fn staged_at(warp: usize, lane: usize, j: usize) -> u32 {
    use crate::tensor_core::global_to_shared::swizzled;
    use gemm_launch::tma::SWIZZLE_ROW_BYTES;
    const CHUNKS_PER_ROW: usize = (SWIZZLE_ROW_BYTES / 16) as usize;
    let (row, chunk) = (warp * 16 + (lane / 8 % 2) * 8 + lane % 8, j + lane / 16);
    let (box_index, chunk_in_row) = (chunk / CHUNKS_PER_ROW, chunk % CHUNKS_PER_ROW);
    (box_index * C_BOX_BYTES + swizzled(SWIZZLE_ROW_BYTES as usize, row, chunk_in_row)) as u32
}

/// [`store_c_tma`]'s staging of `BOXES` boxes of C from box `FIRST` on
/// (columns `64·FIRST..`) at `staging`, one `stmatrix.x4` per 16 columns:
/// 8×8 matrices (rows 0–7, cols j), (8–15, j), (0–7, j + 1), (8–15, j + 1)
/// of the warp's 16 rows. Where `beta_zero`, each pair is `α·acc`, rounded,
/// with no branch (rows past M are staged as they are: the TMA drops them);
/// else `α·acc + β·C`, C read inside its bounds, a pair at a time where
/// `pairs` (C's pairs on 4 bytes).
///
/// # Safety
/// As [`store_c_tma`]; `warp`, `lane`: the thread's warp in its warpgroup
/// and lane.
#[cfg(rgemm_sm90a)]
#[inline(always)]
unsafe fn stage_boxes<E: MmaElement, const FIRST: usize, const BOXES: usize>(
    out: &Output<u16, u16>,
    acc: &[f32],
    staging: u32,
    (beta_zero, pairs): (bool, bool),
    (warp, lane): (usize, usize),
) {
    use crate::device::sm90a::stmatrix_x4;
    let (p, alpha) = (out.p, out.p.scale.alpha);
    // 8-column groups: the first of these boxes, and the one past them.
    let (first, end) = (FIRST * BOX_COLS / 8, (FIRST + BOXES) * BOX_COLS / 8);
    // β = 0 is tested once per tile (or box), not per pair: tested per pair
    // (with C's bounds), it left a branch and a reload of β around each of
    // the 64 pairs a thread holds, with the tensor cores idle meanwhile
    // (PERF step 52).
    if beta_zero {
        for j in (first..end).step_by(2) {
            let regs: [u32; 4] = core::array::from_fn(|m| {
                let (jj, half) = (j + m / 2, m % 2);
                E::pack(alpha * acc[jj * 4 + 2 * half], alpha * acc[jj * 4 + 2 * half + 1])
            });
            stmatrix_x4(staging + staged_at(warp, lane, j - first), regs);
        }
    } else {
        for j in (first..end).step_by(2) {
            let regs: [u32; 4] = core::array::from_fn(|m| {
                let (jj, half) = (j + m / 2, m % 2);
                let row = out.row0 + (out.warp_row + out.lane / 4 + half * 8) as u32;
                let col = out.col0 + (jj * 8 + (out.lane % 4) * 2) as u32;
                let v = [acc[jj * 4 + 2 * half], acc[jj * 4 + 2 * half + 1]];
                let v = if row < p.m { unsafe { out.scaled::<E>(row, col, v, pairs) } } else { v };
                E::pack(v[0], v[1])
            });
            stmatrix_x4(staging + staged_at(warp, lane, j - first), regs);
        }
    }
}

/// Epilogue through the TMA (step 10; `Features::staged_epilogue` on a
/// warp-specialized kernel): a consumer warpgroup writes its 64×`BN` of C,
/// scaled and rounded, into staging boxes in shared memory with
/// `stmatrix`, and one thread hands them to TMA stores. The stores run on
/// while the warpgroup goes on: to its next box, or to its next tile's
/// `wgmma`s.
///
/// A box is 64 rows × 128 bytes (`gemm_launch::tma::c_box`) in the 128-byte
/// swizzle the C map names, which also spreads each `stmatrix` row over
/// distinct banks. With `C_BOXES` = `BN / 64` the warpgroup stages its
/// whole share at once and its stores are one group, whose reads the next
/// tile waits for. With fewer (`Features::c_staging_boxes`), box `b` goes
/// to buffer `b % C_BOXES`, each box its own group: before staging a box,
/// the store that last read its buffer, `C_BOXES` groups back, must be done
/// reading, while the `C_BOXES − 1` after it may still run. Rows past M and
/// columns past N are staged but never written: the TMA drops what falls
/// outside the tensor.
///
/// Where the TMA cannot store C (`map_c` `None`: its rows off 16 bytes),
/// the warpgroup writes each staged round out itself, row by row:
/// consecutive threads, consecutive columns, so a warp's 2-byte stores
/// cover 64 consecutive bytes of one row. From registers
/// ([`store_c_direct`]) a warp's store covers 4 bytes in each of 8 rows, or
/// 2 where C's pairs are off 4 bytes: f16 6492×5009×24, whose C's writes
/// are the work, ran 6.4 times as long as 6492×5008×24 on the TMA (H100,
/// PERF.md step 99). (The staging is shared with the TMA's: a second copy
/// of it, for this path alone, spilled 36–616 bytes.)
///
/// # Safety
/// All 128 threads of consumer warpgroup `consumer` (`t`: the thread's
/// index in it); `staging` a 1024-byte aligned region of `C_BOXES` boxes
/// only this warpgroup uses; `map_c`, where the TMA stores C, C's tensor
/// map (C's rows 16-byte aligned), fenced by the issuing thread, `t == 0`,
/// which must finish its stores (`bulk_wait_group`) before the kernel
/// exits; `None`, the plain stores.
#[cfg(rgemm_sm90a)]
#[inline(always)]
pub(crate) unsafe fn store_c_tma<E: MmaElement, const BN: usize, const C_BOXES: usize, const BLOCKS_PER_SM: usize>(
    out: &Output<u16, u16>,
    acc: &[f32],
    staging: u32,
    map_c: Option<u64>,
    consumer: usize,
    t: usize,
) {
    use crate::device::sm90a::bulk_wait_group_read;
    // (Instantiated with C_BOXES = 0, never called, by kernels that store
    // C from registers.)
    const { assert!(BN.is_multiple_of(BOX_COLS) && C_BOXES <= BN / BOX_COLS) };
    // Box by box: up to 4 boxes (`store_box!` below), up to 3 buffers.
    const { assert!(C_BOXES == BN / BOX_COLS || (C_BOXES <= 3 && BN / BOX_COLS <= 4)) };
    if C_BOXES == BN / BOX_COLS {
        // The previous tile's stores must have read the staging tile.
        let wait = bulk_wait_group_read::<0>;
        unsafe { stage_and_store::<E, 0, C_BOXES, BLOCKS_PER_SM>(out, acc, staging, map_c, (consumer, t), wait) };
    } else {
        // The store that last read a box's buffer, C_BOXES groups back.
        let wait = || match C_BOXES {
            1 => bulk_wait_group_read::<0>(),
            2 => bulk_wait_group_read::<1>(),
            _ => bulk_wait_group_read::<2>(),
        };
        let buffers = C_BOXES.max(1);
        // One box at a time, written as a macro so that each box's first
        // column is a constant: the accumulators stay in registers.
        macro_rules! store_box {
            ($b:literal) => {
                if $b < BN / BOX_COLS {
                    let buffer = staging + (($b % buffers) * C_BOX_BYTES) as u32;
                    unsafe { stage_and_store::<E, $b, 1, BLOCKS_PER_SM>(out, acc, buffer, map_c, (consumer, t), wait) };
                }
            };
        }
        store_box!(0);
        store_box!(1);
        store_box!(2);
        store_box!(3);
    }
}

/// One round of [`store_c_tma`]: once `wait_for_buffer` (run by the
/// issuing thread) has seen the stores that last read `buffer` done
/// reading it, the warpgroup stages `BOXES` boxes of C from box `FIRST` on
/// there, and the issuing thread has the TMA store them as one bulk group
/// (`map_c`), or the warpgroup writes them out row by row (`None`).
///
/// # Safety
/// As [`store_c_tma`], `buffer` being `BOXES` of its boxes; `(consumer, t)`:
/// the warpgroup and the thread's index in it.
#[cfg(rgemm_sm90a)]
#[inline(always)]
unsafe fn stage_and_store<E: MmaElement, const FIRST: usize, const BOXES: usize, const BLOCKS_PER_SM: usize>(
    out: &Output<u16, u16>,
    acc: &[f32],
    buffer: u32,
    map_c: Option<u64>,
    (consumer, t): (usize, usize),
    wait_for_buffer: impl FnOnce(),
) {
    use crate::device::sm90a::{bulk_commit_group, fence_proxy_async_shared, tma_store_3d};
    use crate::device::{block_idx_z, load_shared_u16, named_barrier_sync};
    use crate::tensor_core::global_to_shared::swizzled;
    use gemm_launch::tma::{C_BOX_ROWS, SWIZZLE_ROW_BYTES};
    // Hardware barriers 1 and 2: one per consumer warpgroup (0 is the block's).
    let warpgroup_barrier = || named_barrier_sync(1 + consumer as u32, 128);
    let row = out.row0 + (consumer as u32) * C_BOX_ROWS;
    if t == 0 {
        wait_for_buffer();
    }
    warpgroup_barrier();
    // Two blocks per SM (step 10d, 96 registers) keep the one general loop:
    // a second copy spilled there.
    let p = out.p;
    let beta_zero = BLOCKS_PER_SM == 1 && !p.scale.reads_c();
    // On the TMA C's rows lie on 16 bytes, so its pairs on 4.
    let pairs = map_c.is_some() || (p.ldc.is_multiple_of(2) && (p.c as usize).is_multiple_of(4));
    unsafe { stage_boxes::<E, FIRST, BOXES>(out, acc, buffer, (beta_zero, pairs), (t / 32, t % 32)) };
    let Some(map_c) = map_c else {
        warpgroup_barrier();
        // A thread's columns are fixed (one or two); it goes down them
        // through the rows inside C, a count the compiler cannot know, so
        // the loop is not unrolled whole (fully unrolled, the shared loads,
        // free to move, were all hoisted, and 600 bytes spilled).
        let rows = p.m.saturating_sub(row).min(C_BOX_ROWS) as usize;
        let mut c = t;
        while c < BOXES * BOX_COLS {
            let col = out.col0 + (FIRST * BOX_COLS + c) as u32;
            if col < p.n {
                let (staged, in_box) = (buffer + ((c / BOX_COLS) * C_BOX_BYTES) as u32, c % BOX_COLS);
                for r in 0..rows {
                    let at = swizzled(SWIZZLE_ROW_BYTES as usize, r, in_box / 8) + (in_box % 8) * 2;
                    unsafe { *p.c.add(p.c_at(row + r as u32, col)) = load_shared_u16(staged + at as u32) as u16 };
                }
            }
            c += 128;
        }
        return;
    };
    // The TMA reads shared memory through the async proxy.
    fence_proxy_async_shared();
    warpgroup_barrier();
    if t == 0 {
        for b in 0..BOXES {
            let col = out.col0 + ((FIRST + b) * BOX_COLS) as u32;
            unsafe { tma_store_3d(map_c, buffer + (b * C_BOX_BYTES) as u32, col, row, block_idx_z()) };
        }
        bulk_commit_group();
    }
}
