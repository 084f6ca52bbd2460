//! Step 86 — the memory-bound path on tensor cores: 16-bit calls whose
//! small side is at most 8 and whose large operand X is contiguous along K
//! (A row-major where N is small, B column-major where M is); step 88 —
//! small sides of 9 to 16 (two n8 tiles, `skinny_mma_r16`), and TF32.
//!
//! The CUDA-core kernels (`memory_bound.rs`) spend a multiply-add per
//! element of X per row of the small side, in f32 after widening: with 4 or
//! 8 rows they need 225 and 255 registers, one block of 8 warps per SM,
//! too few loads in flight to stream at memory speed (f16 100000×4×256 ran
//! at 34% of cuBLAS, 8192×5×8191 at 31%). Here `mma.sync.m16n8k16` does
//! the multiply (`m16n8k8` for TF32, operands rounded with `cvt.rna`): the
//! small side, padded to 8 (or 16: each A fragment feeds two `mma`s), is
//! its n8, the long side its m16, and the lanes load X straight into the A
//! fragments, no shared memory on the way.
//!
//! The trick is that a sum over K does not care in which order K comes, so
//! long as A and B agree. Lane `(g, t)` (`g = lane / 4`, `t = lane % 4`)
//! loads the 16 bytes of K `k0 + 8t .. k0 + 8t + 8` of rows `g` and `g + 8`
//! of an m16 tile: words 0–1 of each are its A fragment of one `k16` `mma`
//! (PTX's columns `2t, 2t+1` and `2t+8, 2t+9`), words 2–3 of the next; its
//! B fragment is the same 8 K indices of S's row `g`, read from global
//! memory (S is at most 16 rows of K: it stays in L1). One 16-byte load a
//! row a step, like the CUDA-core kernels, but 4 `mma`s where they do 128
//! FMAs. TF32 is the same with 4-byte words: 16 bytes are K `4t .. 4t + 4`,
//! words 0–1 the A fragment's columns `t` and `t + 4` of one `m16n8k8`,
//! words 2–3 of the next.
//!
//! X is read with `ld.global.cs` (streaming, evict first), which ran long
//! rows a third faster than plain loads (PERF.md step 89: f16 8192×5×8191
//! 81 → 109% of cuBLAS, 8192×16×8192 on `skinny_mma_r16` 47.5 → 66%);
//! likely, not profiled, because X's lines, read once, no longer push out
//! of the caches S's, which every warp reads again.
//!
//! Rows off 16 bytes (K or the leading dimension not a multiple of 8, or
//! X's start off 16 bytes) are read as the two aligned 16-byte granules
//! a window straddles and shifted into place (`realign`); the bytes past
//! a row's K are cleared, so that a NaN in the next row cannot leak in.
//!
//! Tiles: a block owns 32 rows of the long side (two m16 tiles,
//! `MMA_LONG_TILES`) × 8 or 16 of the small side, and all of K; its 8
//! warps take every 8th K step (`mma_k_step`: four lanes' 16 bytes, 32 K
//! of 16-bit, 16 of TF32), two steps in flight, and sum their
//! accumulators through shared memory in a fixed order (deterministic,
//! no atomics). With β = 0, C is not read.
//!
//! A row-major B's S (N the small side) is read along K with a stride of
//! the row, one element per K index and row of S. With two n8 tiles
//! (step 91) lane group `g` takes S's rows `2g` and `2g + 1` instead of
//! `g` and `g + 8` (C's columns follow), so one 4-byte load reads both
//! tiles' elements of a K index: 8 loads of S a window where there were
//! 16, beside X's 4, and L1 serves each from four lines (PERF.md step 91,
//! `auto`: f16 1000×16×20000 57.5 → 71.6%, 4096×16×16383 124 → 130%,
//! bf16 3000×16×30000 73 → 76.6%; TF32's 8-byte pairs ran level and are
//! not used).
//!
//! Every load of a step is issued before the first `mma` uses one: the
//! main loop is instantiated per way of reading X ([`Reads`]), and S's
//! elements past its rows or K are predicated loads (`@p ld`), not a Rust
//! `if` around a load, which compiled to a branch per load and left one
//! load in flight at a time (PERF.md step 86: 66% of cuBLAS → 120%).
//!
//! Cost (ptxas 12.9): 94–96 registers (8 rows), 116–118 (16-bit, 16
//! rows; 118 with S in pairs), 104–106 (TF32), on sm_90 and sm_80, no
//! spills or stack, two blocks per SM (a 128-register bound); 8 or 16
//! KiB of shared memory (the reduction). Measured (H100, named, % of
//! cuBLAS f16 / bf16; the CUDA-core kernel in brackets): 100000×4×777
//! 133 / 191 (49 / 70), 8192×5×8191 81 / 86 (31 / 33), 100000×4×256 105 / 123.5 (33 / 40),
//! 100000×7×129 118 / 131 (18 / 19), 1000×4×100000 split in 10 90 / 89
//! (63 / 61); 100000×4×776 120 / 114, level with step 70's 64×16 tiles
//! (122 / 116). N = 1 stays on the CUDA-core `skinny_r1` (135% at
//! 8192×1×8191, this kernel 65%: 7/8 of each `mma` is padding).
//! `skinny_mma_r16` (PERF.md step 88; in brackets what `auto` ran before):
//! f16 100000×16×777 157 (64×16 tiles 113), 100000×12×777 128 (step 10's
//! tiles 58), 30000×11×2001 154.5 (64); TF32 100000×16×777 102
//! (`skinny_r16_2cta` 83). Its weak side is long rows on 16 bytes
//! (8192×16×8192: 48%, 1.2 TB/s, where the 64×16 tiles' `cp.async`
//! pipeline streams 2.6): `auto` leaves those to the tiles. After step
//! 89's evict-first loads (`auto`, f16 / bf16): 8192×5×8191 109 / 115,
//! 4096×16×16383 106 / 112, 100000×16×777 163 / 179; 8192×16×8192 66
//! (named).

use crate::device::sm80::{mma_m16n8k8_tf32, mma_m16n8k16_bf16, mma_m16n8k16_f16, to_tf32};
use crate::device::{
    SharedF32, load_global_b32_if, load_global_u16_if, load_global_x4_b32_once, sync_threads, thread_idx, trap,
};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::memory_bound::{Bf16, Bf16Sums, F16, F16Sums, Skinny, Streamed, Tf32, view};
use crate::realign::{granule, keep_bytes, straddling};
use gemm_launch::memory_bound::{LONG_TILE, MMA_LONG_TILES, THREADS};

pub(crate) const WARPS: usize = THREADS as usize / 32;
pub(crate) const TILES: usize = MMA_LONG_TILES as usize;
/// K steps a warp loads before it multiplies: with 8 warps a block and two
/// blocks an SM, 2 × 4 loads of 16 bytes per lane put 64 KiB in flight per
/// SM, where an H100 needs about 25.
const UNROLL: usize = 2;

/// A streamed type whose products run on `mma.sync`: 16-bit on
/// `m16n8k16`, TF32 on `m16n8k8`. Either way a fragment word pair is 8
/// bytes of K, so one 16-byte window of a row feeds two `mma`s.
pub trait OnTensorCores: Streamed {
    /// `D = A·B + C` of one `mma` (f32 accumulators).
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4];
}

macro_rules! on_tensor_cores {
    ($t:ty, $mma:ident) => {
        impl OnTensorCores for $t {
            #[inline(always)]
            fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
                $mma(a, b, c)
            }
        }
    };
}
on_tensor_cores!(F16, mma_m16n8k16_f16);
on_tensor_cores!(F16Sums, mma_m16n8k16_f16);
on_tensor_cores!(Bf16, mma_m16n8k16_bf16);
on_tensor_cores!(Bf16Sums, mma_m16n8k16_bf16);

impl OnTensorCores for Tf32 {
    /// f32 operands rounded to TF32 (`cvt.rna`, as step 8b), not truncated
    /// by the tensor cores.
    #[inline(always)]
    fn mma(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
        mma_m16n8k8_tf32(a.map(to_tf32), b.map(to_tf32), c)
    }
}

/// Bytes of an element of `E` and elements per 16-byte window.
#[inline(always)]
pub(crate) const fn element_bytes<E: Streamed>() -> usize {
    core::mem::size_of::<E::Raw>()
}
#[inline(always)]
pub(crate) const fn per_window<E: Streamed>() -> u32 {
    (16 / element_bytes::<E>()) as u32
}

/// How a block reads X: [`ALIGNED`] 16-byte loads, [`SHIFTED`] granules
/// shifted into place (rows off 16 bytes), both where every granule lies in
/// X; else [`AT_EDGE`], with care. A const parameter, so that each main
/// loop is free of branches and all of a step's loads are in flight
/// together.
type Reads = u8;
const ALIGNED: Reads = 0;
const SHIFTED: Reads = 1;
const AT_EDGE: Reads = 2;

/// What a lane reads of X: its rows' byte addresses and the byte range of
/// X (outside which nothing is read).
#[derive(Clone, Copy)]
struct XRows<const N: usize> {
    /// Byte address of each row's element 0 (row 0's past the long side).
    start: [usize; N],
    /// Bit `i`: row `i` lies in X (is not past the long side).
    present: u32,
    span: (usize, usize),
}

impl<const N: usize> XRows<N> {
    /// The 16 bytes of row `i` from K index `k` (a multiple of the
    /// window's elements), the elements at and past `k_end` zero. Inside X
    /// ([`ALIGNED`], [`SHIFTED`]) a window past `k_end` reads the row's
    /// last one and keeps none of it; [`AT_EDGE`] reads element by element
    /// where a granule reaches out of X (the first and last rows).
    #[inline(always)]
    unsafe fn window<E: Streamed, const READS: Reads>(&self, i: usize, k: u32, k_end: u32) -> [u32; 4] {
        let (size, per) = (element_bytes::<E>(), per_window::<E>());
        let load = |at: usize| unsafe { load_global_x4_b32_once(core::ptr::with_exposed_provenance(at)) };
        let words = if READS == AT_EDGE {
            if self.present & (1 << i) == 0 || k >= k_end {
                return [0; 4];
            }
            let at = self.start[i] + size * k as usize;
            let granule = |at: usize| unsafe {
                if size == 2 { granule::<u16>(at, self.span) } else { granule::<u32>(at, self.span) }
            };
            if at.is_multiple_of(16) { granule(at) } else { straddling(at, granule) }
        } else {
            let at = self.start[i] + size * k.min((k_end - 1) & !(per - 1)) as usize;
            if READS == ALIGNED { load(at) } else { straddling(at, load) }
        };
        keep_bytes(words, size * k_end.saturating_sub(k).min(per) as usize)
    }
}

/// The B fragments of one window for lane `(g, t)`: S's row `r` at K
/// `k ..` (a window's elements), as four words (0 past the group's rows
/// or K), by predicated loads.
#[inline(always)]
pub(crate) unsafe fn s_fragment<E: Streamed>(q: &Skinny<E>, r: u32, k: u32) -> [u32; 4] {
    unsafe { s_fragment_words::<E, 4>(q, r, k) }
}

/// [`s_fragment`]'s first `WORDS` words (step 104 takes 2: 4 K indices).
#[inline(always)]
pub(crate) unsafe fn s_fragment_words<E: Streamed, const WORDS: usize>(q: &Skinny<E>, r: u32, k: u32) -> [u32; WORDS] {
    let at = |kk: u32| r as usize * q.s_r as usize + kk as usize * q.s_k as usize;
    let keep = |kk: u32| r < q.rows && kk < q.k;
    if element_bytes::<E>() == 2 {
        let s = q.s as *const u16;
        let element = |j: u32| unsafe { load_global_u16_if(s.wrapping_add(at(k + j)), keep(k + j)) };
        core::array::from_fn(|w| element(2 * w as u32) | (element(2 * w as u32 + 1) << 16))
    } else {
        let s = q.s as *const u32;
        core::array::from_fn(|w| unsafe { load_global_b32_if(s.wrapping_add(at(k + w as u32)), keep(k + w as u32)) })
    }
}

/// The B fragments of one window for lane `(g, t)` of both n8 tiles where
/// S's columns pair up ([`pairs_up`]): tile 0 holds S's row `2g`, tile 1
/// row `2g + 1`, side by side in memory (a row-major B's columns), so one
/// 4-byte load per K index reads both: 8 loads where [`s_fragment`] issues
/// 16. 0 past the group's rows or K.
#[inline(always)]
pub(crate) unsafe fn s_fragment_pairs<E: Streamed>(q: &Skinny<E>, g: u32, k: u32) -> [[u32; 4]; 2] {
    unsafe { s_fragment_pairs_words::<E, 4>(q, g, k) }
}

/// [`s_fragment_pairs`]' first `WORDS` words of each tile (step 104 takes
/// 2: 4 K indices).
#[inline(always)]
pub(crate) unsafe fn s_fragment_pairs_words<E: Streamed, const WORDS: usize>(
    q: &Skinny<E>,
    g: u32,
    k: u32,
) -> [[u32; WORDS]; 2] {
    let keep = |kk: u32| 2 * g < q.rows && kk < q.k;
    // In usize: K × the row's stride may pass 2³² elements.
    let at = |kk: u32| (q.s as *const u16).wrapping_add(2 * g as usize + kk as usize * q.s_k as usize) as *const u32;
    // Plain loops (see `mainloop`): closures of `array::from_fn` put the
    // arrays in local memory.
    let mut tiles = [[0u32; WORDS]; 2];
    for w in 0..WORDS {
        // K indices k + 2w and k + 2w + 1, S's row 2g in each word's low
        // half, 2g + 1 in its high half.
        let (kk0, kk1) = (k + 2 * w as u32, k + 2 * w as u32 + 1);
        let (v0, v1) = unsafe { (load_global_b32_if(at(kk0), keep(kk0)), load_global_b32_if(at(kk1), keep(kk1))) };
        tiles[0][w] = (v0 & 0xffff) | (v1 << 16);
        tiles[1][w] = (v0 >> 16) | (v1 & 0xffff_0000);
    }
    tiles
}

/// Whether [`s_fragment_pairs`] reads S: 16-bit S on two n8 tiles, along
/// its rows (a row-major B where N is the small side: rows 1 apart), an
/// even count of them, and each K index's pair of elements on 4 bytes.
/// Not TF32: its pairs, 8-byte loads, ran level where the calls did not
/// split (PERF.md step 91: 8192×16×8192 72.5 → 71.5% of cuBLAS,
/// 100000×16×777 108 → 109) and were left out.
#[inline(always)]
pub(crate) fn pairs_up<E: Streamed>(q: &Skinny<E>, n_tiles: usize) -> bool {
    n_tiles == 2
        && element_bytes::<E>() == 2
        && !q.s_along_k
        && q.s_r == 1
        && q.rows.is_multiple_of(2)
        && q.s_k.is_multiple_of(2)
        && (q.s as usize).is_multiple_of(4)
}

/// One warp's share of the block's K steps (every 8th, [`UNROLL`] at a
/// time), summed into its accumulators: `[tile][n8 tile][register]` of
/// the `mma`'s C fragments.
#[inline(always)]
unsafe fn mainloop<E: OnTensorCores, const N_TILES: usize, const READS: Reads, const PAIRS: bool>(
    q: &Skinny<E>,
    x: XRows<{ 2 * TILES }>,
    lane: usize,
    warp: usize,
) -> [[[f32; 4]; N_TILES]; TILES] {
    let (g, tq) = ((lane / 4) as u32, (lane % 4) as u32);
    let k_step = 4 * per_window::<E>();
    let steps = q.k.div_ceil(k_step);
    let mut acc = [[[0.0f32; 4]; N_TILES]; TILES];
    let mut step = warp as u32;
    while step < steps {
        // Plain loops, not `array::from_fn`, whose closure this large is
        // left a call (its arrays in local memory).
        let mut rows = [[[0u32; 4]; 2 * TILES]; UNROLL];
        let mut s = [[[0u32; 4]; N_TILES]; UNROLL];
        for u in 0..UNROLL {
            let k = (step + (u * WARPS) as u32) * k_step + per_window::<E>() * tq;
            for (i, row) in rows[u].iter_mut().enumerate() {
                *row = unsafe { x.window::<E, READS>(i, k, q.k) };
            }
            if PAIRS {
                // Indexed, not zipped: an array's `IntoIter` lived in local
                // memory. (The indexed copy is what ran on the GPU; a slice
                // copy was not tried.)
                let pairs = unsafe { s_fragment_pairs(q, g, k) };
                #[allow(clippy::manual_memcpy)]
                for j in 0..N_TILES.min(2) {
                    s[u][j] = pairs[j];
                }
            } else {
                for (j, s_j) in s[u].iter_mut().enumerate() {
                    *s_j = unsafe { s_fragment(q, g + 8 * j as u32, k) };
                }
            }
        }
        for u in 0..UNROLL {
            if step + (u * WARPS) as u32 >= steps {
                break;
            }
            for (tile, acc_tile) in acc.iter_mut().enumerate() {
                let (top, bottom) = (rows[u][2 * tile], rows[u][2 * tile + 1]);
                for half in 0..2 {
                    let a = [top[2 * half], bottom[2 * half], top[2 * half + 1], bottom[2 * half + 1]];
                    for (acc_j, s_j) in acc_tile.iter_mut().zip(&s[u]) {
                        *acc_j = E::mma(a, [s_j[2 * half], s_j[2 * half + 1]], *acc_j);
                    }
                }
            }
        }
        step += (UNROLL * WARPS) as u32;
    }
    acc
}

/// The kernel; see the file's comment. `ROWS` = 8 · `N_TILES`.
///
/// # Safety
/// See the entry point; the host launches it only where X is contiguous
/// along K (`gemm_launch::memory_bound::mma_refusal`).
#[inline(always)]
unsafe fn skinny_mma<E: OnTensorCores, const ROWS: usize, const N_TILES: usize, const A_T: bool, const B_T: bool>(
    p: Gemm<E::Raw, E::Out>,
) {
    let (q, l0, x_along_l) = unsafe { view::<E, ROWS, A_T, B_T>(p) };
    if x_along_l || ROWS != 8 * N_TILES {
        trap();
    }
    let t = thread_idx();
    let (lane, warp) = (t % 32, t / 32);
    let g = (lane / 4) as u32;
    // Rows g and g + 8 of each m16 tile.
    let span_end = if q.len == 0 { 0 } else { (q.len as usize - 1) * q.ldx as usize + q.k as usize };
    let row = |i: usize| l0 + 16 * (i / 2) as u32 + g + 8 * (i % 2) as u32;
    let mut x = XRows::<{ 2 * TILES }> {
        start: [0; 2 * TILES],
        present: 0,
        span: (q.x as usize, q.x.wrapping_add(span_end) as usize),
    };
    for i in 0..2 * TILES {
        if row(i) < q.len {
            x.start[i] = q.x.wrapping_add(row(i) as usize * q.ldx as usize) as usize;
            x.present |= 1 << i;
        }
    }
    // Every granule of the block's rows lies in X, unless the block holds
    // the last row (its granules may reach past X's end), or the first
    // with rows off 16 bytes (the granule before it), or rows are too
    // short for a row's last granules to stay inside the next row. A block
    // that ends at the last row reads inside X all the same where its
    // windows are aligned and whole (rows on 16 bytes, K a multiple of a
    // window): its last window ends where the row does. (Read with care,
    // that block held the kernel at twice its time wherever M is a
    // multiple of 32: TF32 2560×16×4096 34–36 µs against 16–18 at 2561;
    // PERF.md step 112.)
    let ends_at_last_row = l0 + LONG_TILE == q.len && q.x_aligned && q.k.is_multiple_of(per_window::<E>());
    let inside = (q.x_aligned || l0 > 0) && (l0 + LONG_TILE < q.len || ends_at_last_row) && q.ldx >= 16 && q.k > 0;
    let pairs = pairs_up(&q, N_TILES);
    let acc = unsafe {
        match (inside, q.x_aligned, pairs) {
            (true, true, true) => mainloop::<E, N_TILES, ALIGNED, true>(&q, x, lane, warp),
            (true, false, true) => mainloop::<E, N_TILES, SHIFTED, true>(&q, x, lane, warp),
            (false, _, true) => mainloop::<E, N_TILES, AT_EDGE, true>(&q, x, lane, warp),
            (true, true, false) => mainloop::<E, N_TILES, ALIGNED, false>(&q, x, lane, warp),
            (true, false, false) => mainloop::<E, N_TILES, SHIFTED, false>(&q, x, lane, warp),
            (false, _, false) => mainloop::<E, N_TILES, AT_EDGE, false>(&q, x, lane, warp),
        }
    };
    let l_of = |tile: u32, m: u32| l0 + 16 * tile + m;
    unsafe { sum_warps_and_store(&q, acc, pairs, l_of) };
}

/// The block's end, shared with step 104: every warp's accumulators (its
/// `M16_TILES` `m16` tiles × `N_TILES` n8 tiles) to shared memory
/// (`[warp][tile][n8 tile][register][lane]`), then each thread sums
/// `M16_TILES · N_TILES / 2` of a warp's accumulators across the 8 warps,
/// in warp order, and stores each sum. `l_of(tile, m)` is the long side's
/// index of row `m` of `m16` tile `tile`; C's columns are S's rows `8j +
/// c` of n8 tile `j`, or `2c + j` where `pairs` ([`s_fragment_pairs`]).
///
/// # Safety
/// The block's shared memory must hold the 8 warps' accumulators
/// (`gemm_launch::memory_bound::mma_smem_bytes` for step 86's 2 `m16`
/// tiles, `along_l_smem_bytes` for step 104's 4), free for this; every
/// thread of the block calls it.
#[inline(always)]
pub(crate) unsafe fn sum_warps_and_store<E: Streamed, const N_TILES: usize, const M16_TILES: usize>(
    q: &Skinny<E>,
    acc: [[[f32; 4]; N_TILES]; M16_TILES],
    pairs: bool,
    l_of: impl Fn(u32, u32) -> u32,
) {
    let t = thread_idx();
    let (lane, warp) = (t % 32, t / 32);
    let sums = SharedF32::at(0);
    let per_warp = M16_TILES * N_TILES * 4 * 32;
    for (tile, acc_tile) in acc.iter().enumerate() {
        for (j, acc_j) in acc_tile.iter().enumerate() {
            for (r, v) in acc_j.iter().enumerate() {
                sums.store(warp * per_warp + ((tile * N_TILES + j) * 4 + r) * 32 + lane, *v);
            }
        }
    }
    sync_threads();
    for part in 0..per_warp / THREADS as usize {
        let at = part * THREADS as usize + t;
        let (ln, r, j, tile) = (at % 32, (at / 32) % 4, (at / 128) % N_TILES, at / (128 * N_TILES));
        let mut sum = 0.0f32;
        for w in 0..WARPS {
            sum += sums.load(w * per_warp + at);
        }
        // C fragment: registers 0–1 row g, 2–3 row g + 8; columns 2t, 2t + 1
        // of n8 tile j, which are S's rows 8j + c, or 2c + j where paired.
        let row = l_of(tile as u32, (ln / 4 + 8 * (r / 2)) as u32);
        let c = 2 * (ln % 4) + r % 2;
        let col = if pairs { 2 * c + j } else { 8 * j + c } as u32;
        if col < q.rows && row < q.len {
            unsafe { q.store(col, row, sum) };
        }
    }
}

mod entries {
    use super::*;
    use gemm_launch::memory_bound::*;
    kernel_entries!(memory_bound_mma skinny_mma<F16, u16>, hgemm_skinny_mma, SKINNY_MMA_F16, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<Bf16, u16>, bgemm_skinny_mma, SKINNY_MMA_BF16, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<F16Sums, u16 => f32>, hgemm_skinny_mma_f32out, SKINNY_MMA_F16_F32OUT, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<Bf16Sums, u16 => f32>, bgemm_skinny_mma_f32out, SKINNY_MMA_BF16_F32OUT, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<F16, u16>, hgemm_skinny_mma_r16, SKINNY_MMA_F16_R16, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<Bf16, u16>, bgemm_skinny_mma_r16, SKINNY_MMA_BF16_R16, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<F16Sums, u16 => f32>, hgemm_skinny_mma_r16_f32out, SKINNY_MMA_F16_R16_F32OUT, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<Bf16Sums, u16 => f32>, bgemm_skinny_mma_r16_f32out, SKINNY_MMA_BF16_R16_F32OUT, along_k);
    kernel_entries!(memory_bound_mma skinny_mma<Tf32, f32>, tgemm_skinny_mma_r16, SKINNY_MMA_TF32_R16, along_k);
}
