//! Memory-bound path — M or N ≤ 16 (matrix–vector and skinny products).
//! (16-bit calls with N of 2 to 7 and A row-major run on tensor cores
//! instead where `auto` picks: `memory_bound_mma.rs`, step 86.)
//!
//! With one side of C this small, a GEMM does at most 16 multiply-adds per
//! element of the large operand: memory bound on every dtype. The kernel
//! reads the large operand X exactly once, coalesced, 16 bytes per load where
//! rows are 16-byte aligned (element by element otherwise; but 16-bit rows
//! off 16 bytes read along K by up to 4 rows per block are loaded 16 bytes
//! at a time from the boundary before them and shifted into place across
//! the lanes, `shift_window`), and keeps the small operand S (≤ 16 rows of
//! K) in registers and shared memory.
//! Accumulation is f32 (TF32 requests run here in exact f32, and the
//! result is more accurate; but where TF32 tensor cores stream faster the
//! host sends them to `memory_bound_mma.rs`: PERF.md steps 88 and 93).
//!
//! The problem is seen as R short rows (the small side) × L long columns ×
//! K (words of `gemm_launch::memory_bound`, which also holds the geometry).
//! A block owns `ROWS` rows × 32 columns of that output and all of K. Which
//! way X is contiguous picks one of two access patterns:
//! - along L (B row-major when M is small, A column-major when N is): lanes
//!   cover the block's 32 columns with 16-byte loads, the other threads of
//!   the block take different K indices (8 or 4 in flight each); S(r, k) is
//!   a warp-broadcast load; 16-bit rows off 16 bytes but on 4 are read
//!   in four 4-byte loads (one loop per load width). Partial sums are
//!   reduced across K with warp
//!   shuffles, then across warps in shared memory. With 16 rows (f32) the
//!   accumulators leave no registers for loads in flight, so X and S come
//!   through a ring of 8 `cp.async` stages in shared memory instead (the
//!   seeds' prefetching, on the memory-bound path).
//! - along K (A row-major when N is small, B column-major when M is): each
//!   warp owns 4 rows of X and reads them along K, 16 bytes per lane; S is
//!   staged in shared memory in chunks of K (f32, `[row][k]`), and each
//!   lane's partial sums are reduced with a butterfly of shuffles; f32 r1
//!   loads the next chunk's X and S before this chunk's multiply-adds
//!   (prefetching, where K spans chunks). With 16
//!   rows (f32) X's rows and S come through a ring of their own instead, 4
//!   `cp.async` stages of 128 K indices in 98 KiB, rows off 16 bytes copied
//!   in whole 16-byte pieces from the boundary before them, and the warp's
//!   sums are reduced by halving across the lanes (a reduce-scatter).
//! - "dot", where both sides are tiny (the long side at most
//!   `gemm_launch::memory_bound::DOT_LEN`, 8: 1×1, 7×5), in either layout:
//!   the patterns above would idle most lanes or warps there, so each
//!   thread takes every 256th K index of the block's range instead and
//!   keeps all the block's `ROWS × 8` sums (PERF.md step 79: f16 1×1×10⁶
//!   47–60 → 90–98% of cuBLAS, 7×5×300001 39 → 67%, bf16 62.5 → 109%).
//!
//! Every reduction runs in a fixed order: results are deterministic, and no
//! atomics are used. With β = 0, C is not read.
//!
//! Specs `skinny_r1`, `_r4`, `_r16` (`_r8` for 16-bit inputs): rows per
//! block; 256 threads. Larger small sides run as several row groups, side by
//! side so that their reads of X meet in L2 (any shape is correct; past 16
//! rows it is no longer the fast path). `skinny_r16_2cta` (f32 and TF32) is
//! r16 under a 128-register cap, two blocks (two rings) per SM, so that one
//! block's start, first stages and reduction overlap the other's stream.
//! `{h,b}gemm_skinny_r{1,4,8}_f32out` are the 16-bit kernels writing f32 C
//! (`Streamed::Out`): the partial sums of their deep-K splits (PERF.md step
//! 75: f16 4096×1×65536 47 → 99% of cuBLAS, 7×5×300001 18 → 39%).
//!
//! Cost (ptxas 12.9, sm_90, the largest of the four layout entries, after
//! steps 79–81, 98 and 100): f32/tf32 r1 108 registers (82 before step
//! 100's prefetch), r4 128, r16 162, r16_2cta 127;
//! f16/bf16 r1 128 (121 before step 81's shifts), r4 225 (185), r8 255
//! (their `_f32out` twins the same); no spills or stack. Shared memory 1040 B per row of the block (f32), 2064 B
//! (16-bit); r16 98 KiB (the along-K ring; the along-L ring 96). Measured (H100, % of cuBLAS, PERF.md
//! steps 24, 41, 59, 65, 67 and 69): 1×8192×8192 f32 101%, f16 92%; 8192×1×8192
//! f32 118%, f16 97%; along L, 16×16384×4096 f32 104% (r16's ring at step
//! 59, 2.28 TB/s; row groups of r4 66%), after step 65's reduce-scatter one
//! ring / two rings per SM: 16×16384×4096 102 / 115% (2.51 TB/s),
//! 16×200000×256 68.5 / 88.5%, B rows off 16 bytes (step 69's copies)
//! 16×100001×256 77.5 → 88.5%; along K, step 67's ring on two blocks per
//! SM: 16384×16×4096 98 → 168% (2.57 TB/s), 100000×16×512 46 → 115% (2.36
//! TB/s), 100000×16×777 (rows off 16 bytes) 47 → 85%, after step 98's
//! whole-piece copies 94% (8192×16×8191 112 → 131%); step 81's shifts
//! (16-bit, rows off 16 bytes along K): f16 4096×1×65539 48.7 → 90.7%,
//! 8192×1×8191 77 → 134%, 16384×4×1023 49 → 78%. Step 100 (H200, `auto`):
//! f32 r1's prefetch 4096×1×4096 81 → 92%, 2179×1×4096 64 → 89.5%,
//! 8192×1×8192 123 → 140% (but 1000000×1×64, one chunk, 71 → 64.5%); the
//! 16-bit word loads and per-width loops, f16 / bf16: 1×100002×1000 50 →
//! 91 / 61 → 111%, 1×8286×4096 61 → 81 / 65 → 90%, and element by element
//! 1×8285×4096 61 → 80 / 72 → 93%.

use crate::device::sm80::{
    cp_async_4, cp_async_16, cp_async_16_or_zero, cp_async_commit, cp_async_wait, pack_bf16x2, pack_f16x2,
    unpack_bf16x2, unpack_f16x2,
};
use crate::device::{
    SharedF32, block_idx, fma, load_global_x4_b32, select_f32, shfl_idx_b32, shfl_xor, sync_threads, thread_idx,
};
use crate::kernel_abi::{Gemm, Scale, kernel_entries};
use crate::realign::realigned_by_selects;
use gemm_launch::memory_bound::{
    ALONG_K_RING_K, ALONG_K_ROW_PITCH, ALONG_K_STAGES, DOT_LEN, LONG_TILE, RING_K, RING_ROWS, RING_STAGES,
    ROWS_PER_WARP, S_PAD, STEPS, THREADS, along_k_stage_floats, ring_stage_floats, small_is_m, x_along_l,
};
use gemm_launch::tiles;

const THREADS_: usize = THREADS as usize;
const WARPS: usize = THREADS_ / 32;

/// An element type as this kernel moves it: raw in memory, f32 in registers.
pub trait Streamed {
    type Raw: Copy;
    /// C's element: `Raw`, or f32 where a 16-bit call's split-K partial
    /// sums are written (`F16Sums`, `Bf16Sums`).
    type Out: Copy;
    fn widen(x: Self::Raw) -> f32;
    fn widen_out(x: Self::Out) -> f32;
    fn narrow_out(v: f32) -> Self::Out;
    /// Element `i` of 16 bytes held as four words.
    fn element(words: &[u32; 4], i: usize) -> f32;
    /// 16 bytes at `p` as four words, loaded as `width` says: one 16-byte
    /// load, four 4-byte loads, or the first `valid` elements one by one
    /// and zeros after them.
    ///
    /// # Safety
    /// The elements read must be inside the operand; `p` must be 16-byte
    /// aligned for [`Width::Vector`], 4-byte aligned for [`Width::Words`].
    #[inline(always)]
    unsafe fn load16(p: *const Self::Raw, width: Width, valid: u32) -> [u32; 4] {
        match width {
            Width::Vector => unsafe { load_global_x4_b32(p as *const u32) },
            Width::Words => core::array::from_fn(|w| unsafe { *(p as *const u32).add(w) }),
            Width::Elements => unsafe { Self::load_part(p, 0, valid) },
        }
    }
    /// Elements `first..end` of the 16 bytes at `p`, one by one, as four
    /// words with zeros in the other elements.
    ///
    /// # Safety
    /// Elements `first..end` from `p` must be inside the operand.
    unsafe fn load_part(p: *const Self::Raw, first: u32, end: u32) -> [u32; 4];
}

/// How a thread of the "along L" pattern loads its 16 bytes of a row of X
/// ([`Streamed::load16`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// One 16-byte load: the row on 16 bytes, all 16 bytes inside it.
    Vector,
    /// Four 4-byte loads: 16-bit rows off 16 bytes but on 4 (an even
    /// leading dimension), all 16 bytes inside the row. Element by element
    /// they ran at 31% of an H200's bandwidth where 16-byte loads ran at 61%
    /// (f16 1×8286×4096 against 1×8288×4096); f32's elements are words.
    Words,
    /// Element by element, zeros past the row's end.
    Elements,
}

#[derive(Clone, Copy)]
pub struct F32;
/// TF32 on tensor cores (step 88, `memory_bound_mma.rs`): f32 in memory.
#[derive(Clone, Copy)]
pub struct Tf32;
#[derive(Clone, Copy)]
pub struct F16;
#[derive(Clone, Copy)]
pub struct Bf16;
/// f16 inputs, f32 C (the split-K partial sums).
#[derive(Clone, Copy)]
pub struct F16Sums;
/// bf16 inputs, f32 C (the split-K partial sums).
#[derive(Clone, Copy)]
pub struct Bf16Sums;

/// f32 in memory and C: the CUDA-core kernels' f32 and TF32 calls
/// (`F32`), and step 88's TF32 calls on tensor cores (`Tf32`).
macro_rules! word_streamed {
    ($t:ty) => {
        impl Streamed for $t {
            type Raw = f32;
            type Out = f32;
            #[inline(always)]
            fn widen(x: f32) -> f32 {
                x
            }
            #[inline(always)]
            fn widen_out(x: f32) -> f32 {
                x
            }
            #[inline(always)]
            fn narrow_out(v: f32) -> f32 {
                v
            }
            #[inline(always)]
            fn element(words: &[u32; 4], i: usize) -> f32 {
                f32::from_bits(words[i])
            }
            #[inline(always)]
            unsafe fn load_part(p: *const f32, first: u32, end: u32) -> [u32; 4] {
                let inside = |i: u32| first <= i && i < end;
                core::array::from_fn(|i| if inside(i as u32) { unsafe { (*p.wrapping_add(i)).to_bits() } } else { 0 })
            }
        }
    };
}
word_streamed!(F32);
word_streamed!(Tf32);

/// The 16-bit types: eight elements per 16 bytes, two per word (low half
/// first); C of the same type, or f32.
macro_rules! half_streamed {
    ($t:ty, $unpack:ident, $out:ty, |$v:ident| $narrow_out:expr, |$x:ident| $widen_out:expr) => {
        impl Streamed for $t {
            type Raw = u16;
            type Out = $out;
            #[inline(always)]
            fn widen(x: u16) -> f32 {
                $unpack(x as u32)[0]
            }
            #[inline(always)]
            fn widen_out($x: $out) -> f32 {
                $widen_out
            }
            #[inline(always)]
            fn narrow_out($v: f32) -> $out {
                $narrow_out
            }
            #[inline(always)]
            fn element(words: &[u32; 4], i: usize) -> f32 {
                $unpack(words[i / 2])[i % 2]
            }
            #[inline(always)]
            unsafe fn load_part(p: *const u16, first: u32, end: u32) -> [u32; 4] {
                let half =
                    |i: u32| if first <= i && i < end { unsafe { *p.wrapping_add(i as usize) as u32 } } else { 0 };
                core::array::from_fn(|w| half(2 * w as u32) | (half(2 * w as u32 + 1) << 16))
            }
        }
    };
}
half_streamed!(F16, unpack_f16x2, u16, |v| pack_f16x2(v, 0.0) as u16, |x| unpack_f16x2(x as u32)[0]);
half_streamed!(Bf16, unpack_bf16x2, u16, |v| pack_bf16x2(v, 0.0) as u16, |x| unpack_bf16x2(x as u32)[0]);
half_streamed!(F16Sums, unpack_f16x2, f32, |v| v, |x| x);
half_streamed!(Bf16Sums, unpack_bf16x2, f32, |v| v, |x| x);

/// One block's view of the problem: X (`len × k` along K, or `k × len`
/// along L), S (`rows × k`, this block's row group) and C (`rows × len`),
/// each through its strides.
#[derive(Clone, Copy)]
pub(crate) struct Skinny<E: Streamed> {
    pub(crate) x: *const E::Raw,
    pub(crate) ldx: u32,
    /// X's rows (along its contiguous side) start on 16-byte boundaries.
    pub(crate) x_aligned: bool,
    pub(crate) s: *const E::Raw,
    pub(crate) s_r: u32,
    pub(crate) s_k: u32,
    /// S is contiguous along K (`s_k` = 1); known from the layout, so that
    /// an entry holds one way of copying S.
    pub(crate) s_along_k: bool,
    /// S's rows (along its contiguous side) start on 16-byte boundaries.
    pub(crate) s_aligned: bool,
    pub(crate) c: *mut E::Out,
    pub(crate) c_r: u32,
    pub(crate) c_l: u32,
    /// Rows of this block's group (at most ROWS).
    pub(crate) rows: u32,
    pub(crate) len: u32,
    pub(crate) k: u32,
    pub(crate) scale: Scale,
}

impl<E: Streamed> Skinny<E> {
    /// S(r, k), widened; 0 outside the group's rows or past K.
    #[inline(always)]
    unsafe fn s_or_zero(&self, r: usize, k: u32) -> f32 {
        if (r as u32) < self.rows && k < self.k {
            E::widen(unsafe { *self.s.add(r * self.s_r as usize + k as usize * self.s_k as usize) })
        } else {
            0.0
        }
    }

    /// Elements from the start of X's row `row` (along K) back to the
    /// 16-byte boundary at or before it.
    #[inline(always)]
    fn x_row_offset(&self, row: u32) -> u32 {
        let address = self.x.wrapping_add(row as usize * self.ldx as usize) as usize;
        ((address % 16) / core::mem::size_of::<E::Raw>()) as u32
    }

    /// The 16 bytes of X's row `row` (along K) from K index `k − back`, as
    /// four words, the elements outside the row's K (or of a row past
    /// `len`) zero: one 16-byte load where `aligned` (the 16 bytes start on
    /// a 16-byte boundary) and every element is inside.
    #[inline(always)]
    unsafe fn load_x_row(&self, row: u32, k: u32, back: u32, aligned: bool) -> [u32; 4] {
        let vec = (16 / core::mem::size_of::<E::Raw>()) as u32;
        if row >= self.len {
            return [0; 4];
        }
        let first = back.saturating_sub(k);
        let end = (self.k + back).saturating_sub(k).min(vec);
        let p = self.x.wrapping_add(row as usize * self.ldx as usize + k as usize).wrapping_sub(back as usize);
        if aligned && first == 0 && end == vec {
            unsafe { load_global_x4_b32(p as *const u32) }
        } else {
            unsafe { E::load_part(p, first, end) }
        }
    }

    /// Writes `α·acc + β·C(r, l)` to C(r, l) (the caller checks bounds).
    #[inline(always)]
    pub(crate) unsafe fn store(&self, r: u32, l: u32, acc: f32) {
        let p = unsafe { self.c.add(r as usize * self.c_r as usize + l as usize * self.c_l as usize) };
        unsafe { *p = E::narrow_out(self.scale.apply(acc, || E::widen_out(*p))) };
    }
}

/// This block's view of the call: X, S and C of its row group, the first
/// column of its long tile, and whether X is contiguous along L.
///
/// # Safety
/// See the entry point.
#[inline(always)]
pub(crate) unsafe fn view<E: Streamed, const ROWS: usize, const A_T: bool, const B_T: bool>(
    p: Gemm<E::Raw, E::Out>,
) -> (Skinny<E>, u32, bool) {
    unsafe { view_tiled::<E, ROWS, A_T, B_T>(p, LONG_TILE) }
}

/// [`view`] for blocks of `long_tile` columns of the long side (step 104's
/// `ALONG_L_LONG_TILE`).
///
/// # Safety
/// See the entry point.
#[inline(always)]
pub(crate) unsafe fn view_tiled<E: Streamed, const ROWS: usize, const A_T: bool, const B_T: bool>(
    p: Gemm<E::Raw, E::Out>,
    long_tile: u32,
) -> (Skinny<E>, u32, bool) {
    let small_m = small_is_m(p.m, p.n);
    let (small, len) = if small_m { (p.m, p.n) } else { (p.n, p.m) };
    let groups = tiles(small, ROWS as u32);
    let r0 = (block_idx() % groups) * ROWS as u32;
    let l0 = (block_idx() / groups) * long_tile;
    // M small: S = A (r, k), X = B (k, l), C(r, l). N small: S(r, k) = B(k, r),
    // X(l, k) = A(l, k), C(l, r).
    let (x, ldx, x_aligned, s, s_aligned, s_along_k, (c_r, c_l)) = if small_m {
        (p.b, p.ldb, p.b_aligned(), p.a, p.a_aligned(), !A_T, (p.ldc, 1))
    } else {
        (p.a, p.lda, p.a_aligned(), p.b, p.b_aligned(), B_T, (1, p.ldc))
    };
    let lds = if small_m { p.lda } else { p.ldb };
    let (s_r, s_k) = if s_along_k { (lds, 1) } else { (1, lds) };
    let x_along_l = x_along_l(p.m, p.n, A_T, B_T);
    let q = Skinny::<E> {
        x,
        ldx,
        x_aligned,
        s: unsafe { s.add(r0 as usize * s_r as usize) },
        s_r,
        s_k,
        s_along_k,
        s_aligned,
        c: unsafe { p.c.add(r0 as usize * c_r as usize) },
        c_r,
        c_l,
        rows: if small - r0 < ROWS as u32 { small - r0 } else { ROWS as u32 },
        len,
        k: p.k,
        scale: p.scale,
    };
    (q, l0, x_along_l)
}

/// The kernel of 1 to 8 rows: the access pattern X's layout asks for.
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn skinny<
    E: Streamed,
    const ROWS: usize,
    const VEC: usize,
    const LANES: usize,
    const UNROLL: usize,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<E::Raw, E::Out>,
) {
    let (q, l0, x_along_l) = unsafe { view::<E, ROWS, A_T, B_T>(p) };
    if q.len <= DOT_LEN {
        unsafe { dot::<E, ROWS>(&q, x_along_l) }
    } else if x_along_l {
        unsafe { along_l::<E, ROWS, VEC, LANES, UNROLL>(&q, l0) }
    } else {
        unsafe { along_k::<E, ROWS, VEC>(&q, l0) }
    }
}

/// Both sides tiny: the long side at most [`DOT_LEN`] (1×1, 7×5), where
/// neither pattern below fills a block (along L the lanes past the long
/// side idle; along K the warps past its rows: 7×5 worked 2 of 8 warps).
/// Each thread takes every `THREADS`-th K index of the block's range and
/// multiplies S's column there (`rows` values) by X's (`len` values) into
/// `ROWS × DOT_LEN` sums, the loads of [`DOT_UNROLL`] K indices first.
/// Element by element: along K, a warp's loads of one row are consecutive;
/// along L (packed) a K index's `len` elements are. The sums are reduced
/// over the warp by a butterfly, then across warps, warp 0 first.
///
/// # Safety
/// See the entry point; the long side is at most [`DOT_LEN`].
#[inline(always)]
unsafe fn dot<E: Streamed, const ROWS: usize>(q: &Skinny<E>, x_along_l: bool) {
    const LEN: usize = DOT_LEN as usize;
    let t = thread_idx();
    let (x_k, x_l) = if x_along_l { (q.ldx as usize, 1) } else { (1, q.ldx as usize) };
    let x_or_zero = |l: usize, k: u32| {
        if (l as u32) < q.len && k < q.k { E::widen(unsafe { *q.x.add(k as usize * x_k + l * x_l) }) } else { 0.0 }
    };
    let mut acc = [[0.0f32; LEN]; ROWS];
    let mut k0 = t as u32;
    while k0 < q.k {
        let ks: [u32; DOT_UNROLL] = core::array::from_fn(|u| k0 + (u * THREADS_) as u32);
        let s: [[f32; ROWS]; DOT_UNROLL] =
            core::array::from_fn(|u| core::array::from_fn(|r| unsafe { q.s_or_zero(r, ks[u]) }));
        let x: [[f32; LEN]; DOT_UNROLL] = core::array::from_fn(|u| core::array::from_fn(|l| x_or_zero(l, ks[u])));
        for (s_u, x_u) in s.iter().zip(x.iter()) {
            for (acc_r, s_r) in acc.iter_mut().zip(s_u.iter()) {
                for (a, x_l) in acc_r.iter_mut().zip(x_u.iter()) {
                    *a = fma(*s_r, *x_l, *a);
                }
            }
        }
        k0 += (DOT_UNROLL * THREADS_) as u32;
    }
    for acc_r in acc.iter_mut() {
        for a in acc_r.iter_mut() {
            let mut mask = 16;
            while mask > 0 {
                *a += shfl_xor(*a, mask);
                mask /= 2;
            }
        }
    }
    // Every lane holds its warp's sums; lane 0 writes them, [sum][warp].
    let partial = SharedF32::at(0);
    let warp = t / 32;
    if t.is_multiple_of(32) {
        for (r, acc_r) in acc.iter().enumerate() {
            for (l, a) in acc_r.iter().enumerate() {
                partial.store((r * LEN + l) * WARPS + warp, *a);
            }
        }
    }
    sync_threads();
    if t < ROWS * LEN {
        let (r, l) = (t / LEN, t % LEN);
        let mut sum = 0.0f32;
        for w in 0..WARPS {
            sum += partial.load(t * WARPS + w);
        }
        if (r as u32) < q.rows && (l as u32) < q.len {
            unsafe { q.store(r as u32, l as u32, sum) };
        }
    }
}

/// K indices per thread whose loads [`dot`] issues before their
/// multiply-adds.
const DOT_UNROLL: usize = 4;

/// The kernel of [`RING_ROWS`] f32 rows: X and S come through a `cp.async`
/// ring in both access patterns, so the registers hold only accumulators
/// (and fit the 128 of two blocks per SM: `skinny_r16_2cta` is this kernel
/// under that cap).
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn skinny_ring<
    E: Streamed<Raw = f32, Out = f32>,
    const ROWS: usize,
    const VEC: usize,
    const LANES: usize,
    const UNROLL: usize,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<f32, f32>,
) {
    let (q, l0, x_along_l) = unsafe { view::<E, ROWS, A_T, B_T>(p) };
    if x_along_l {
        unsafe { along_l_ring::<E, ROWS, LANES>(&q, l0) }
    } else {
        unsafe { along_k_ring::<E, ROWS>(&q, l0) }
    }
}

/// X is `k × len` with `len` contiguous: each thread owns 16 bytes of
/// columns and every `KGROUPS`-th K index.
#[inline(always)]
unsafe fn along_l<E: Streamed, const ROWS: usize, const VEC: usize, const LANES: usize, const UNROLL: usize>(
    q: &Skinny<E>,
    l0: u32,
) {
    let kgroups = (THREADS_ / LANES) as u32;
    let t = thread_idx();
    let (lane, kg) = (t % LANES, (t / LANES) as u32);
    let l = l0 + (lane * VEC) as u32;
    let valid = q.len.saturating_sub(l);
    let whole = valid >= VEC as u32;
    // `l` is even, so a 16-bit pair of X lies on 4 bytes where X and its rows do.
    let on_words = core::mem::size_of::<E::Raw>() == 2 && (q.x as usize).is_multiple_of(4) && q.ldx.is_multiple_of(2);
    let width = match (whole, q.x_aligned, on_words) {
        (true, true, _) => Width::Vector,
        (true, false, true) => Width::Words,
        _ => Width::Elements,
    };
    // One loop per width, each issuing its UNROLL loads together: one loop
    // testing the width at each load ran f16 rows element by element 24%
    // slower (H200, 1×8285×4096, PERF.md step 100).
    let (x, kgroup) = (q.x.wrapping_add(l as usize), (kg, kgroups));
    let acc = match width {
        Width::Vector => unsafe { along_l_sums::<E, ROWS, VEC, UNROLL>(q, x, kgroup, Width::Vector, valid) },
        Width::Words => unsafe { along_l_sums::<E, ROWS, VEC, UNROLL>(q, x, kgroup, Width::Words, valid) },
        Width::Elements => unsafe { along_l_sums::<E, ROWS, VEC, UNROLL>(q, x, kgroup, Width::Elements, valid) },
    };
    unsafe { reduce_along_l::<E, ROWS, VEC, LANES>(q, l0, acc) }
}

/// [`along_l`]'s sums of one thread: X from `x` (its first column, row 0),
/// K indices `kg`, `kg + kgroups`, … (`(kg, kgroups)`), each 16 bytes
/// loaded as `width` says (`valid` elements inside the row).
///
/// # Safety
/// As [`along_l`].
#[inline(always)]
unsafe fn along_l_sums<E: Streamed, const ROWS: usize, const VEC: usize, const UNROLL: usize>(
    q: &Skinny<E>,
    x: *const E::Raw,
    (kg, kgroups): (u32, u32),
    width: Width,
    valid: u32,
) -> [[f32; VEC]; ROWS] {
    let x_at = |k: u32| unsafe { x.add(k as usize * q.ldx as usize) };
    let mut acc = [[0.0f32; VEC]; ROWS];
    let fmas = |acc: &mut [[f32; VEC]; ROWS], k: u32, words: &[u32; 4]| {
        for (r, acc_r) in acc.iter_mut().enumerate() {
            let s = unsafe { q.s_or_zero(r, k) };
            for (v, a) in acc_r.iter_mut().enumerate() {
                *a = fma(s, E::element(words, v), *a);
            }
        }
    };
    // UNROLL independent 16-byte loads in flight, then their multiply-adds.
    let mut k = kg;
    while k + (UNROLL as u32 - 1) * kgroups < q.k {
        let words: [[u32; 4]; UNROLL] =
            core::array::from_fn(|u| unsafe { E::load16(x_at(k + u as u32 * kgroups), width, valid) });
        for (u, w) in words.iter().enumerate() {
            fmas(&mut acc, k + u as u32 * kgroups, w);
        }
        k += UNROLL as u32 * kgroups;
    }
    while k < q.k {
        let words = unsafe { E::load16(x_at(k), width, valid) };
        fmas(&mut acc, k, &words);
        k += kgroups;
    }
    acc
}

/// The end of the "along L" pattern: each thread holds its `VEC` columns'
/// sums over its K indices; sums them across the K groups of a warp (lane
/// bits above `LANES`), then across warps through shared memory, warp 0
/// first, and stores C. (Nested loops, not `flatten()`: its iterator state
/// is not unrolled and would put the accumulators in local memory.)
///
/// # Safety
/// Shared memory from 0 must be free: every thread is past its last use.
#[inline(always)]
unsafe fn reduce_along_l<E: Streamed, const ROWS: usize, const VEC: usize, const LANES: usize>(
    q: &Skinny<E>,
    l0: u32,
    mut acc: [[f32; VEC]; ROWS],
) {
    let t = thread_idx();
    let lane = t % LANES;
    let mut mask = 16;
    while mask >= LANES as u32 {
        for acc_r in acc.iter_mut() {
            for a in acc_r.iter_mut() {
                *a += shfl_xor(*a, mask);
            }
        }
        mask /= 2;
    }
    let partial = SharedF32::at(0);
    let warp = t / 32;
    if t % 32 < LANES {
        for (r, acc_r) in acc.iter().enumerate() {
            for (v, a) in acc_r.iter().enumerate() {
                partial.store((r * WARPS + warp) * 32 + lane * VEC + v, *a);
            }
        }
    }
    unsafe { sum_warps_and_store::<E, ROWS>(q, l0) }
}

/// The end of the ring ([`along_l_ring`]): each thread holds 16 rows × 4
/// columns of sums over its K indices, and the warp's four K groups (lane
/// bits 3 and 4) are summed by halving (a reduce-scatter): across lane bit
/// 4 each lane keeps 8 rows and adds the other lane's sums of them, across
/// bit 3 4 rows. 48 shuffles where a butterfly takes 128, and half the
/// registers after the first round (under the two-blocks-per-SM cap the
/// butterfly's values in flight spilled). Each sum adds the same terms in
/// the same order as the butterfly; then across warps as [`reduce_along_l`].
///
/// # Safety
/// As [`reduce_along_l`], with `LANES` = 8 and `ROWS` = 16.
#[inline(always)]
unsafe fn reduce_ring<E: Streamed, const ROWS: usize, const LANES: usize>(
    q: &Skinny<E>,
    l0: u32,
    acc: [[f32; 4]; ROWS],
) {
    const { assert!(ROWS == 16 && LANES == 8) };
    let t = thread_idx();
    let (lane, warp) = (t % LANES, t / 32);
    let (upper_half, upper_quarter) = (t & 16 != 0, t & 8 != 0);
    // Keeps `upper`'s half of (lo, hi), adds the other lane's of it.
    let halve = |lo: f32, hi: f32, upper: bool, mask: u32| {
        select_f32(upper, hi, lo) + shfl_xor(select_f32(upper, lo, hi), mask)
    };
    let mut half = [[0.0f32; 4]; 8];
    for (r, half_r) in half.iter_mut().enumerate() {
        for (v, h) in half_r.iter_mut().enumerate() {
            *h = halve(acc[r][v], acc[r + 8][v], upper_half, 16);
        }
    }
    let mut quarter = [[0.0f32; 4]; 4];
    for (r, quarter_r) in quarter.iter_mut().enumerate() {
        for (v, x) in quarter_r.iter_mut().enumerate() {
            *x = halve(half[r][v], half[r + 4][v], upper_quarter, 8);
        }
    }
    // This lane's rows: 8 if past lane bit 4, plus 4 if past bit 3.
    let first_row = 8 * upper_half as usize + 4 * upper_quarter as usize;
    let partial = SharedF32::at(0);
    for (r, quarter_r) in quarter.iter().enumerate() {
        for (v, x) in quarter_r.iter().enumerate() {
            partial.store(((first_row + r) * WARPS + warp) * 32 + lane * 4 + v, *x);
        }
    }
    unsafe { sum_warps_and_store::<E, ROWS>(q, l0) }
}

/// The last step of both reductions: `partial[(r·WARPS + w)·32 + column]`
/// holds warp `w`'s sums; sums them, warp 0 first, and stores C.
///
/// # Safety
/// Every thread has stored its partial sums and none has read them.
#[inline(always)]
unsafe fn sum_warps_and_store<E: Streamed, const ROWS: usize>(q: &Skinny<E>, l0: u32) {
    let t = thread_idx();
    let partial = SharedF32::at(0);
    sync_threads();
    let mut i = t;
    while i < ROWS * 32 {
        let (r, col) = (i / 32, (i % 32) as u32);
        let mut sum = 0.0f32;
        for w in 0..WARPS {
            sum += partial.load((r * WARPS + w) * 32 + col as usize);
        }
        if (r as u32) < q.rows && l0 + col < q.len {
            unsafe { q.store(r as u32, l0 + col, sum) };
        }
        i += THREADS_;
    }
}

/// The `cp.async` ring of both 16-row patterns, over `stages` stages in
/// `STAGES` slots: `issue(s)` starts stage `s`'s copies, `consume(s)`
/// uses them, in slot `s % STAGES`. Stage `s` is waited for while `s +
/// 1 ..` are in flight; the barrier also tells every thread that the slot
/// it refills (used by stage `s − 1`) is free. One group is committed per
/// stage, empty past the last, so that `cp.async.wait_group` counts
/// stages. Returns with every copy landed (the caller's barrier decides
/// whether the slots may be reused). Callers mark `consume` (and a large
/// `issue`) `#[inline(always)]`: outlined, a closure's captures (the
/// accumulators) go to local memory (ptxas: 232–312 bytes of stack).
#[inline(always)]
fn run_ring<const STAGES: u32>(stages: u32, issue: impl Fn(u32), mut consume: impl FnMut(u32)) {
    for stage in 0..STAGES - 1 {
        if stage < stages {
            issue(stage);
        }
        cp_async_commit();
    }
    for stage in 0..stages {
        cp_async_wait(STAGES - 2);
        sync_threads();
        if stage + STAGES - 1 < stages {
            issue(stage + STAGES - 1);
        }
        cp_async_commit();
        consume(stage);
    }
    cp_async_wait(0);
}

/// X is `k × len` with `len` contiguous, [`RING_ROWS`] rows (f32): as
/// [`along_l`], each thread owns 4 columns and every 32nd K index, but X's
/// slices and S's reach shared memory through a ring of [`RING_STAGES`]
/// `cp.async` stages of [`RING_K`], so the bytes in flight take no
/// registers: 16 rows of accumulators left too few for loads in flight.
/// Stage layout: X `[k][LONG_TILE]`, then S `[k][16 rows]`, whose four
/// 16-byte pieces per K index are swizzled by `(k / 2) % 4` so that the
/// 4-byte copies of a warp hit 32 different banks whether S is contiguous
/// along K or along its rows.
///
/// # Safety
/// As [`along_l`]; `ROWS` is [`RING_ROWS`] and E's elements are f32.
#[inline(always)]
unsafe fn along_l_ring<E: Streamed<Raw = f32>, const ROWS: usize, const LANES: usize>(q: &Skinny<E>, l0: u32) {
    const { assert!(ROWS == RING_ROWS as usize && LANES * 4 == LONG_TILE as usize) };
    const KS: usize = RING_K as usize;
    const KGROUPS: usize = THREADS_ / (LONG_TILE as usize / 4);
    const X_FLOATS: usize = KS * LONG_TILE as usize;
    const STAGE: usize = ring_stage_floats() as usize;
    const { assert!(STAGE.is_multiple_of(16) && X_FLOATS.is_multiple_of(16)) };
    let ring = SharedF32::at(0);
    let t = thread_idx();
    let (lane, kg) = (t % LANES, t / LANES);
    let stages = q.k.div_ceil(RING_K);
    // S(r, k) of stage-relative index `kk` lives at `s_at(kk, r)` past X.
    let s_at = |kk: usize, r: usize| X_FLOATS + kk * ROWS + (((r / 4) ^ ((kk / 2) % 4)) * 4) + r % 4;
    // This thread's row of S and first K index of each stage's S copies
    // (the first of `issue`'s), and that copy's slot.
    const S_KK_STEP: usize = THREADS_ / RING_ROWS as usize;
    const { assert!(THREADS_ / 128 * 8 == S_KK_STEP && S_KK_STEP.is_multiple_of(8)) };
    let (s_row, s_kk) =
        if q.s_k == 1 { (((t / 32) % 4) * 4 + (t / 8) % 4, (t / 128) * 8 + t % 8) } else { (t % ROWS, t / ROWS) };
    let s_first = s_at(s_kk, s_row);
    let issue = |stage: u32| {
        let base = (stage % RING_STAGES) as usize * STAGE;
        let k0 = stage * RING_K;
        // X: 8 pieces of 16 bytes per K index, zeros past K and past L.
        if !q.x_aligned {
            // Rows off 16 bytes: 4-byte copies, a warp's 32 in one 128-byte
            // span of a K index's row (a lane's own 4 elements would take
            // four spans a copy).
            for j in 0..KS * LONG_TILE as usize / THREADS_ {
                let (kk, col) = (t / 32 + j * WARPS, t % 32);
                let (k, l) = (k0 + kk as u32, l0 + col as u32);
                let valid = k < q.k && l < q.len;
                let from = if valid { q.x.wrapping_add(k as usize * q.ldx as usize + l as usize) } else { q.x };
                unsafe { cp_async_4(ring.addr(base + kk * LONG_TILE as usize + col), from, if valid { 4 } else { 0 }) };
            }
        } else {
            for i in 0..KS * LANES / THREADS_ {
                let piece = t + i * THREADS_;
                let (kk, col) = (piece / LANES, (piece % LANES) * 4);
                let (k, l) = (k0 + kk as u32, l0 + col as u32);
                let dst = ring.addr(base + kk * LONG_TILE as usize + col);
                let src = q.x.wrapping_add(k as usize * q.ldx as usize + l as usize);
                if k < q.k && l + 4 <= q.len {
                    unsafe { cp_async_16(dst, src) };
                } else {
                    for e in 0..4u32 {
                        let valid = k < q.k && l + e < q.len;
                        let from = if valid { src.wrapping_add(e as usize) } else { q.x };
                        unsafe { cp_async_4(dst + 4 * e, from, if valid { 4 } else { 0 }) };
                    }
                }
            }
        }
        // S: each warp copies 8 K indices × 4 rows where S is contiguous
        // along K, 2 K indices × 16 rows where it is not. Either way a
        // thread keeps its row and steps 16 K indices per copy, which moves
        // its slot by 16 rows of S and leaves the swizzle as it was.
        for i in 0..KS * ROWS / THREADS_ {
            let kk = s_kk + i * S_KK_STEP;
            let k = k0 + kk as u32;
            let valid = (s_row as u32) < q.rows && k < q.k;
            let from =
                if valid { unsafe { q.s.add(s_row * q.s_r as usize + k as usize * q.s_k as usize) } } else { q.s };
            let slot = base + s_first + i * S_KK_STEP * ROWS;
            unsafe { cp_async_4(ring.addr(slot), from, if valid { 4 } else { 0 }) };
        }
    };
    let mut acc = [[0.0f32; 4]; ROWS];
    run_ring::<RING_STAGES>(
        stages,
        issue,
        #[inline(always)]
        |stage| {
            let base = (stage % RING_STAGES) as usize * STAGE;
            for j in 0..KS / KGROUPS {
                let kk = kg + j * KGROUPS;
                let x = ring.load_x4(base + kk * LONG_TILE as usize + lane * 4);
                // Piece p of S's K index: piece 0's index with bits 2–3 xor p
                // (`s_at`'s swizzle; the stage base and X_FLOATS are multiples
                // of 16). Formed at each load, so ptxas does not hold (or, under
                // the two-blocks cap, spill) the four offsets across the loop.
                let piece_0 = base + s_at(kk, 0);
                for piece in 0..ROWS / 4 {
                    let s = ring.load_x4(piece_0 ^ (piece * 4));
                    for (i, s_i) in s.iter().enumerate() {
                        for (v, x_v) in x.iter().enumerate() {
                            acc[piece * 4 + i][v] = fma(*s_i, *x_v, acc[piece * 4 + i][v]);
                        }
                    }
                }
            }
        },
    );
    sync_threads(); // the reduction reuses the ring
    unsafe { reduce_ring::<E, ROWS, LANES>(q, l0, acc) }
}

/// X is `len × k` with K contiguous, [`RING_ROWS`] rows (f32): as
/// [`along_k`], warp `w` owns rows `4w..4w + 4` of the block's 32, but X's
/// rows and S reach shared memory through a ring of [`ALONG_K_STAGES`]
/// `cp.async` stages of [`ALONG_K_RING_K`] K indices, so S is read from
/// memory once per block and stage and the loads in flight take no
/// registers. Lane `i` owns K indices `i`, `i + 32`, `i + 64` and `i + 96`
/// of every stage in each of the warp's 4 rows: one 16-byte piece of S (4
/// of its rows at one K index) serves 4 rows of X, and a stage with fewer
/// K indices left (the last) multiplies only the 32s that hold some. Each
/// lane's 64 sums are reduced across the warp by halving, and the warp
/// stores its rows of C; no barrier after the last stage.
///
/// X's rows are copied in whole 16-byte pieces from the 16-byte boundary at
/// or before each stage's first K index, `shift` elements back (the same
/// for every stage of a row: a stage is 512 bytes), so that a row off 16
/// bytes streams as one on them (PERF.md step 98: 4-byte copies had run
/// 100000×16×777 at 52% of the memory bandwidth); the lanes then read
/// their elements one by one from `shift` on. Nothing outside a row's K is
/// read: the pieces that reach past it are copied element by element.
/// Stage layout: X `[row][ALONG_K_ROW_PITCH]`, then S `[k][16 rows]` with
/// its 16-byte pieces swizzled by `(k / 2) % 4`, so that 8 lanes' 16-byte
/// reads at 8 consecutive K indices, and a warp's 4-byte copies of 8 K
/// indices × 4 rows, hit 32 different banks.
///
/// # Safety
/// As [`along_k`]; `ROWS` is [`RING_ROWS`] and E's elements are f32.
#[inline(always)]
unsafe fn along_k_ring<E: Streamed<Raw = f32>, const ROWS: usize>(q: &Skinny<E>, l0: u32) {
    const KS: usize = ALONG_K_RING_K as usize;
    const PITCH: usize = ALONG_K_ROW_PITCH as usize;
    const XR: usize = ROWS_PER_WARP as usize;
    const X_FLOATS: usize = LONG_TILE as usize * PITCH;
    const STAGE: usize = along_k_stage_floats() as usize;
    const STAGES: u32 = ALONG_K_STAGES;
    const PIECES: usize = KS / 4;
    const { assert!(ROWS == RING_ROWS as usize && ROWS == 16 && PIECES == 32 && WARPS == 8 && XR == 4) };
    // 16-byte pieces land on 16-byte slots, and S's swizzle is an xor of
    // bits 2–3 of its index.
    const { assert!(STAGE.is_multiple_of(16) && X_FLOATS.is_multiple_of(16) && PITCH == KS + 4) };
    let ring = SharedF32::at(0);
    let t = thread_idx();
    let (lane, warp) = (t % 32, t / 32);
    let stages = q.k.div_ceil(KS as u32);
    // S(r, kk) of a stage: `s_at(kk, r)` past X.
    let s_at = |kk: usize, r: usize| X_FLOATS + kk * ROWS + (((r / 4) ^ ((kk / 2) % 4)) * 4) + r % 4;
    // X: warp `w` copies rows `w + 8i`, lane `j` their 16-byte piece `j`,
    // lane `i` also the spare piece of row `w + 8i` (read where the row is
    // off 16 bytes).
    let x_row = q.x.wrapping_add((l0 as usize + warp) * q.ldx as usize);
    // S contiguous along its rows: thread `t` copies the 16-byte pieces
    // `t` and `t + 256` of the stage (K index `piece / 4`, rows `4 (piece
    // % 4)` on). Along K: 4-byte copies of 8 K indices × 4 rows a warp.
    let (s_r0, s_kk0) = if q.s_along_k { (t % 4, t / 4 % 8 + 8 * warp) } else { (4 * (t % 4), t / 4) };
    let s_first = q.s.wrapping_add(s_r0 * q.s_r as usize + s_kk0 * q.s_k as usize);
    let s_slot = 4 * s_at(s_kk0, s_r0) as u32;
    let s_rows = q.rows.saturating_sub(s_r0 as u32).min(4);
    // Four call sites in `run_ring` (three in the prologue): LLVM would
    // outline it, with the captured view in local memory.
    let issue = #[inline(always)]
    |stage: u32| {
        let base = (stage % STAGES) as usize * STAGE;
        let k0 = stage * KS as u32;
        for i in 0..LONG_TILE as usize / WARPS {
            let l = warp + WARPS * i;
            let row_start = x_row.wrapping_add(WARPS * i * q.ldx as usize);
            // From the low bits alone: fewer 64-bit registers live.
            let shift = ((x_row as usize as u32).wrapping_add(4 * (WARPS * i) as u32 * q.ldx) % 16) / 4;
            let in_rows = l0 + (l as u32) < q.len;
            let dst_row = ring.addr(base + l * PITCH);
            // K indices `from..from + 4` of the row (`from` ≥ −shift) into
            // its 16-byte piece `piece` of the stage.
            let copy_piece = #[inline(always)]
            |piece: u32| {
                let from = k0 + 4 * piece;
                let first = shift.saturating_sub(from);
                let end = if in_rows { (q.k + shift).saturating_sub(from).min(4) } else { 0 };
                let src = row_start.wrapping_add(from as usize).wrapping_sub(shift as usize);
                let dst = dst_row + 16 * piece;
                if first == 0 && end == 4 {
                    unsafe { cp_async_16(dst, src) };
                } else if end <= first {
                    // Nothing is read, but the address must still be 16-byte
                    // aligned: X's start, rounded down (a batch's matrices
                    // may start off 16 bytes).
                    let aligned_x = q.x.wrapping_sub((q.x as usize % 16) / 4);
                    unsafe { cp_async_16_or_zero(dst, aligned_x, 0) };
                } else {
                    for e in 0..4u32 {
                        let valid = first <= e && e < end;
                        let from = if valid { src.wrapping_add(e as usize) } else { q.x };
                        unsafe { cp_async_4(dst + 4 * e, from, if valid { 4 } else { 0 }) };
                    }
                }
            };
            copy_piece(lane as u32);
            if lane == i && shift != 0 {
                copy_piece(PIECES as u32);
            }
        }
        if q.s_along_k {
            // Rows `s_r0 + 4j`, K indices `s_kk0 + 64i`.
            for i in 0..KS / 64 {
                for j in 0..ROWS / 4 {
                    let (r, kk) = (s_r0 + 4 * j, s_kk0 + 64 * i);
                    let k = k0 + kk as u32;
                    let valid = (r as u32) < q.rows && k < q.k;
                    let from = s_first.wrapping_add(4 * j * q.s_r as usize + k0 as usize + 64 * i);
                    let from = if valid { from } else { q.s };
                    unsafe { cp_async_4(ring.addr(base + s_at(kk, r)), from, if valid { 4 } else { 0 }) };
                }
            }
        } else {
            for i in 0..KS * ROWS / 4 / THREADS_ {
                // K index `s_kk0 + 64i`: 64 on, the same swizzle.
                let k = k0 + (s_kk0 + i * THREADS_ / 4) as u32;
                let rows = if k < q.k { s_rows } else { 0 };
                let src = s_first.wrapping_add((k0 as usize + i * THREADS_ / 4) * q.s_k as usize);
                let dst = ring.addr(base) + s_slot + (4 * i * THREADS_ / 4 * ROWS) as u32;
                if rows == 4 && q.s_aligned {
                    unsafe { cp_async_16(dst, src) };
                } else {
                    for e in 0..4u32 {
                        let valid = e < rows;
                        let from = if valid { src.wrapping_add(e as usize) } else { q.s };
                        unsafe { cp_async_4(dst + 4 * e, from, if valid { 4 } else { 0 }) };
                    }
                }
            }
        }
    };
    // Where this lane's elements of its warp's rows start in a stage.
    // Their shifts, 2 bits a row in one register: four offsets held across
    // the loop spilled under the two-blocks cap.
    let x_at = (warp * XR * PITCH + lane) as u32;
    let shifts = (0..XR).fold(0u32, |bits, xr| {
        let row = q.x.wrapping_add((l0 as usize + warp * XR + xr) * q.ldx as usize);
        bits | ((((row as usize % 16) / 4) as u32) << (2 * xr))
    });
    let s_lane = X_FLOATS + lane * ROWS + ((lane / 2) % 4) * 4;
    // One stage's products, the rows' shifts given: a separate copy for
    // shifts of 0 (X on 16 bytes) spares it their unpacking, which had cost
    // aligned rows 5–8% (PERF.md step 98).
    let multiply = #[inline(always)]
    |acc: &mut [[f32; ROWS]; XR], stage: u32, shifts: u32| {
        let base = (stage % STAGES) * STAGE as u32;
        let quarters = (q.k - stage * KS as u32).div_ceil(32);
        for v in 0..KS / 32 {
            if (v as u32) < quarters {
                let x: [f32; XR] = core::array::from_fn(|xr| {
                    let shift = (shifts >> (2 * xr)) & 3;
                    ring.load((base + x_at + (xr * PITCH + 32 * v) as u32 + shift) as usize)
                });
                // K index `32v + lane`, whose swizzle is lane's: piece 0's
                // index with bits 2–3 xor the piece (the index without its
                // swizzle is a multiple of 16). Formed at each load, so
                // ptxas does not hold the four offsets across the loop.
                let piece_0 = base as usize + s_lane + 32 * v * ROWS;
                for piece in 0..ROWS / 4 {
                    let s = ring.load_x4(piece_0 ^ (piece * 4));
                    for (i, s_i) in s.iter().enumerate() {
                        for (xr, x_r) in x.iter().enumerate() {
                            acc[xr][piece * 4 + i] = fma(*x_r, *s_i, acc[xr][piece * 4 + i]);
                        }
                    }
                }
            }
        }
    };
    let mut acc = [[0.0f32; ROWS]; XR];
    run_ring::<STAGES>(
        stages,
        issue,
        #[inline(always)]
        |stage| {
            if shifts == 0 {
                multiply(&mut acc, stage, 0);
            } else {
                multiply(&mut acc, stage, shifts);
            }
        },
    );
    // Halving across lane bits 4 to 0 leaves lane i the sums of entries
    // 2i and 2i + 1 of the 64 (row-major: X row i / 8, S rows 2(i % 8)
    // and the next).
    let flat: [f32; 64] = core::array::from_fn(|i| acc[i / ROWS][i % ROWS]);
    let h32: [f32; 32] = halve(&flat, t & 16 != 0, 16);
    let h16: [f32; 16] = halve(&h32, t & 8 != 0, 8);
    let h8: [f32; 8] = halve(&h16, t & 4 != 0, 4);
    let h4: [f32; 4] = halve(&h8, t & 2 != 0, 2);
    let sums: [f32; 2] = halve(&h4, t & 1 != 0, 1);
    let row = l0 + (warp * XR + lane / 8) as u32;
    for (j, sum) in sums.iter().enumerate() {
        let r = (2 * (lane % 8) + j) as u32;
        if r < q.rows && row < q.len {
            unsafe { q.store(r, row, *sum) };
        }
    }
}

/// One round of a reduce-scatter across the lanes: keeps the second half
/// of `v` if `upper` (the lane's bit `mask` is set), else the first, and
/// adds the other lane's values of that half (the lane across `mask`
/// keeps the other half): each sum is formed once, on one lane, in a fixed
/// order.
#[inline(always)]
fn halve<const N: usize, const H: usize>(v: &[f32; N], upper: bool, mask: u32) -> [f32; H] {
    const { assert!(2 * H == N) };
    core::array::from_fn(|j| select_f32(upper, v[j + H], v[j]) + shfl_xor(select_f32(upper, v[j], v[j + H]), mask))
}

/// X is `len × k` with K contiguous: warp `w` owns rows `4w..4w + 4` of the
/// block's 32 and reads them along K, 16 bytes per lane, `STEPS` vectors per
/// row per chunk of K; the chunk of S lives in shared memory.
#[inline(always)]
unsafe fn along_k<E: Streamed, const ROWS: usize, const VEC: usize>(q: &Skinny<E>, l0: u32) {
    const XR: usize = ROWS_PER_WARP as usize;
    const STEPS_: usize = STEPS as usize;
    let chunk = 32 * VEC * STEPS_;
    let pitch = chunk + S_PAD as usize;
    let t = thread_idx();
    let (lane, warp) = (t % 32, t / 32);
    let row0 = l0 + (warp * XR) as u32;
    let s_tile = SharedF32::at(0);
    // S staged so that consecutive threads read consecutive addresses.
    let s_k_contiguous = q.s_k == 1;
    // 16-bit rows off 16 bytes: each lane loads the aligned 16 bytes that
    // hold the start of its K window and takes the window's rest from the
    // next lane's (`shift_window`), instead of loading its 8 elements one by
    // one (PERF.md step 81: f16 4096×1×65539 48 → 91% of cuBLAS). f32 keeps
    // its 4 loads of a word, which ran faster than the shifts.
    let shifting = !q.x_aligned && ROWS <= SHIFTED_ROWS_MAX && VEC == 8;
    let back: [u32; XR] = core::array::from_fn(|xr| if shifting { q.x_row_offset(row0 + xr as u32) } else { 0 });
    let aligned = q.x_aligned || shifting;
    // The thread's share of a chunk of S: element `i` is S(r, kc + kk).
    let s_count = ROWS * chunk / THREADS_;
    let s_element = |i: usize| {
        let e = t + i * THREADS_;
        if s_k_contiguous { (e / chunk, e % chunk) } else { (e % ROWS, e / ROWS) }
    };
    let load_s = |kc: u32| -> [f32; S_PREFETCH_MAX] {
        core::array::from_fn(|i| {
            let (r, kk) = s_element(i);
            if i < s_count { unsafe { q.s_or_zero(r, kc + kk as u32) } } else { 0.0 }
        })
    };
    let load_x = |kc: u32| -> [[[u32; 4]; XR]; STEPS_] {
        core::array::from_fn(|step| {
            core::array::from_fn(|xr| {
                let k = kc + ((step * 32 + lane) * VEC) as u32;
                unsafe { q.load_x_row(row0 + xr as u32, k, back[xr], aligned) }
            })
        })
    };
    // f32 (and TF32) r1 loads the next chunk's X and S before this chunk's
    // multiply-adds (the seeds' prefetching), so that their latency hides
    // behind them and the barriers: a block with one chunk in flight
    // streamed ~34 GB/s, and a call of few long rows (2179×1×4096: 69
    // blocks) half the GPU's bandwidth. The others have no registers for a
    // second chunk (r4 sits at its 128, the 16-bit kernels at 128 to 255).
    // A call of one chunk has nothing to load ahead and takes the plain
    // loop; it still ran ~10% slower than before step 100 (1000000×1×64,
    // H200: 0.199 → 0.218 ms, the same through either loop), so the cost
    // lies in the kernel as compiled (82 → 106–108 registers), not the path.
    let prefetch = VEC == 4 && ROWS == 1 && q.k > chunk as u32;
    let (mut s_next, mut x_next) = if prefetch { (load_s(0), load_x(0)) } else { Default::default() };
    let mut acc = [[0.0f32; ROWS]; XR];
    let mut kc = 0u32;
    while kc < q.k {
        sync_threads(); // every warp is done with the previous chunk
        if prefetch {
            for (i, s) in s_next.iter().enumerate().take(s_count) {
                let (r, kk) = s_element(i);
                s_tile.store(r * pitch + kk, *s);
            }
        } else {
            for i in 0..s_count {
                let (r, kk) = s_element(i);
                s_tile.store(r * pitch + kk, unsafe { q.s_or_zero(r, kc + kk as u32) });
            }
        }
        sync_threads();
        let words = if prefetch { x_next } else { load_x(kc) };
        if prefetch && kc + (chunk as u32) < q.k {
            (s_next, x_next) = (load_s(kc + chunk as u32), load_x(kc + chunk as u32));
        }
        // Lane 31's last window ends in the 16 bytes after the chunk: lane 0
        // loads them, to send with the shuffles of the last step.
        let beyond: [[u32; 4]; XR] = core::array::from_fn(|xr| {
            if shifting && lane == 0 {
                unsafe { q.load_x_row(row0 + xr as u32, kc + chunk as u32, back[xr], true) }
            } else {
                [0; 4]
            }
        });
        for (step, words_step) in words.iter().enumerate() {
            let kk = (step * 32 + lane) * VEC;
            let windows: [[u32; 4]; XR] = if shifting {
                core::array::from_fn(|xr| {
                    // What lane 31 of this step needs from lane 0: the next step's 16 bytes.
                    let next = if step + 1 < STEPS_ { words[step + 1][xr] } else { beyond[xr] };
                    let sent = if lane == 0 { next } else { words_step[xr] };
                    shift_window(words_step[xr], sent, back[xr] * core::mem::size_of::<E::Raw>() as u32)
                })
            } else {
                *words_step
            };
            // Row by row of S, so that one row's VEC values are live at a time.
            #[allow(clippy::needless_range_loop)]
            for r in 0..ROWS {
                let s = load_shared_vec::<VEC>(s_tile, r * pitch + kk);
                for (xr, w) in windows.iter().enumerate() {
                    for (v, s_v) in s.iter().enumerate() {
                        acc[xr][r] = fma(E::element(w, v), *s_v, acc[xr][r]);
                    }
                }
            }
        }
        kc += chunk as u32;
    }
    // Butterfly over the 32 lanes: every lane ends with every sum.
    for acc_x in acc.iter_mut() {
        for a in acc_x.iter_mut() {
            let mut mask = 16;
            while mask > 0 {
                *a += shfl_xor(*a, mask);
                mask /= 2;
            }
        }
    }
    // Lane (xr·ROWS + r) mod 32 writes sum (xr, r).
    for (xr, acc_x) in acc.iter().enumerate() {
        for (r, a) in acc_x.iter().enumerate() {
            let row = row0 + xr as u32;
            if lane == (xr * ROWS + r) % 32 && (r as u32) < q.rows && row < q.len {
                unsafe { q.store(r as u32, row, *a) };
            }
        }
    }
}

/// Elements of S a thread of a prefetching [`along_k`] (f32 r1) holds for
/// the next chunk: its share of one, one row of 256 K indices over 256
/// threads.
const S_PREFETCH_MAX: usize = (32 * 4 * STEPS / THREADS) as usize;

/// Largest `ROWS` whose 16-bit along-K kernel shifts rows off 16 bytes
/// into place ([`shift_window`]) rather than loading them element by
/// element: r1 and r4 (r8's 255 registers leave no room for the shifts).
const SHIFTED_ROWS_MAX: usize = 4;

/// A lane's 16-byte K window of a row off 16 bytes: `own` is the aligned
/// 16 bytes in which the window starts, `back_bytes` in, and the rest
/// comes from the next lane's (lane 0 sends `sent` to lane 31, whose
/// window ends in the next step's 16 bytes): bytes `back_bytes..back_bytes
/// + 16` of `own ++ next`.
#[inline(always)]
fn shift_window(own: [u32; 4], sent: [u32; 4], back_bytes: u32) -> [u32; 4] {
    let source = (thread_idx() as u32 + 1) % 32;
    let next: [u32; 4] = core::array::from_fn(|i| shfl_idx_b32(sent[i], source));
    realigned_by_selects([own[0], own[1], own[2], own[3], next[0], next[1], next[2], next[3]], back_bytes)
}

/// `VEC` (4 or 8) f32 of shared memory from `index` (a multiple of 4), 16
/// bytes per load. (Destructured: iterating an array by value leaves it in
/// local memory.)
#[inline(always)]
fn load_shared_vec<const VEC: usize>(tile: SharedF32, index: usize) -> [f32; VEC] {
    let mut s = [0.0f32; VEC];
    for j in 0..VEC / 4 {
        let [a, b, c, d] = tile.load_x4(index + 4 * j);
        (s[4 * j], s[4 * j + 1], s[4 * j + 2], s[4 * j + 3]) = (a, b, c, d);
    }
    s
}

mod entries {
    use super::*;
    use gemm_launch::memory_bound::*;
    kernel_entries!(memory_bound skinny<F32, f32>, sgemm_skinny_r1, SKINNY_F32_R1, any);
    kernel_entries!(memory_bound skinny<F32, f32>, sgemm_skinny_r4, SKINNY_F32_R4, any);
    kernel_entries!(memory_bound skinny_ring<F32, f32>, sgemm_skinny_r16, SKINNY_F32_R16, any);
    kernel_entries!(memory_bound skinny_ring<F32, f32>, sgemm_skinny_r16_2cta, SKINNY_F32_R16_2CTA, any);
    kernel_entries!(memory_bound skinny<F32, f32>, tgemm_skinny_r1, SKINNY_TF32_R1, any);
    kernel_entries!(memory_bound skinny<F32, f32>, tgemm_skinny_r4, SKINNY_TF32_R4, any);
    kernel_entries!(memory_bound skinny_ring<F32, f32>, tgemm_skinny_r16, SKINNY_TF32_R16, any);
    kernel_entries!(memory_bound skinny_ring<F32, f32>, tgemm_skinny_r16_2cta, SKINNY_TF32_R16_2CTA, any);
    kernel_entries!(memory_bound skinny<F16, u16>, hgemm_skinny_r1, SKINNY_F16_R1, any);
    kernel_entries!(memory_bound skinny<F16, u16>, hgemm_skinny_r4, SKINNY_F16_R4, any);
    kernel_entries!(memory_bound skinny<F16, u16>, hgemm_skinny_r8, SKINNY_F16_R8, any);
    kernel_entries!(memory_bound skinny<Bf16, u16>, bgemm_skinny_r1, SKINNY_BF16_R1, any);
    kernel_entries!(memory_bound skinny<Bf16, u16>, bgemm_skinny_r4, SKINNY_BF16_R4, any);
    kernel_entries!(memory_bound skinny<Bf16, u16>, bgemm_skinny_r8, SKINNY_BF16_R8, any);
    kernel_entries!(memory_bound skinny<F16Sums, u16 => f32>, hgemm_skinny_r1_f32out, SKINNY_F16_R1_F32OUT, any);
    kernel_entries!(memory_bound skinny<F16Sums, u16 => f32>, hgemm_skinny_r4_f32out, SKINNY_F16_R4_F32OUT, any);
    kernel_entries!(memory_bound skinny<F16Sums, u16 => f32>, hgemm_skinny_r8_f32out, SKINNY_F16_R8_F32OUT, any);
    kernel_entries!(memory_bound skinny<Bf16Sums, u16 => f32>, bgemm_skinny_r1_f32out, SKINNY_BF16_R1_F32OUT, any);
    kernel_entries!(memory_bound skinny<Bf16Sums, u16 => f32>, bgemm_skinny_r4_f32out, SKINNY_BF16_R4_F32OUT, any);
    kernel_entries!(memory_bound skinny<Bf16Sums, u16 => f32>, bgemm_skinny_r8_f32out, SKINNY_BF16_R8_F32OUT, any);
}
