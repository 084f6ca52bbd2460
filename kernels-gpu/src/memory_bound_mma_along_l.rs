//! Step 104 — the memory-bound path on tensor cores with the large
//! operand along the long side: 16-bit calls whose small side is at most
//! 16 and whose large operand X is contiguous along L (B row-major where M
//! is the small side, A column-major where N is).
//!
//! Step 86's lanes (`memory_bound_mma.rs`) load X along K straight into
//! `mma.sync`'s A fragments, whose words each hold two K indices of one
//! row. With X along L those two K indices lie a whole row of X apart, so
//! the other layout went to the TMA tiles, which need X's rows on 16
//! bytes: B's rows are 2N bytes, and with N not a multiple of 8 the host
//! copied B realigned first (f16 8×42212×501: 0.047 ms, 0.9 TB/s, 86% of
//! cuBLAS on an H200), or, where the tiles did not take the call or N is
//! the small side, to the CUDA-core kernel (16×1001×4000: 51%).
//!
//! Here lane `(g, t)` takes 16 bytes of each of 4 rows of X per K step:
//! long-side indices `8g .. 8g + 8` of the block's 64, K indices `k0 + 4t
//! .. k0 + 4t + 4`. Rows `2h` and `2h + 1` pair up element by element
//! (byte permutes): word `e` of pair `h` holds X(l + e, k₂ₕ) and X(l + e,
//! k₂ₕ₊₁), an A fragment word of long index `l + e`. `m16` tile `i` takes
//! long indices `8g + 2i` (its row `g`) and `8g + 2i + 1` (row `g + 8`), so
//! the block's four tiles cover its 64 columns, in an order the store
//! follows; pair 0 is the fragment's K columns `2t, 2t + 1`, pair 1 `2t +
//! 8, 2t + 9`, and S's fragments follow the same K indices. Step 86's
//! reduction across warps and store serve unchanged
//! (`memory_bound_mma::sum_warps_and_store`, given this order of rows).
//!
//! Each warp takes every 8th K step and streams its rows through a ring
//! of its own in shared memory (the seeds' prefetching): 5 stages of
//! 16-byte `cp.async.cg` copies, four steps in flight while it multiplies
//! one, and S's fragments loaded a step ahead into registers. Run 1's
//! lanes loaded X 8 bytes a row straight into registers and streamed 1.2
//! to 1.8 TB/s; a first ring of 8-byte copies (`.ca`, through L1) ran
//! slower still (ncu: L1 54% busy at a 60% hit rate, warps stalled on
//! L1TEX loads 63% of their time, likely S's, which the copies pushed out
//! of L1; PERF.md step 104). Each lane group copies one
//! aligned 16-byte granule of each row, and where rows lie off 16 bytes
//! (any leading dimension not a multiple of 8) lane group 7 copies a
//! ninth, and each lane shifts its window out of its own granule and its
//! neighbour's (`realign::realigned_by_selects`). Past K a lane copies row
//! K − 1 again and keeps none of it. Blocks whose granules could reach
//! outside X (the last columns, the first where X starts off 16 bytes)
//! read element by element into registers instead.
//!
//! Tiles: a block owns 8 or 16 rows of the small side (one or two n8
//! tiles) × 64 of the long side (`ALONG_L_LONG_TILE`) and all of K; its 8
//! warps take every 8th step of 16 K indices.
//!
//! Cost (ptxas 12.9, sm_80 module, also what Hopper runs): 92–94
//! registers (8 rows), 120–125 (16 rows), no spills or stack, two blocks
//! per SM (a 128-register bound); 92,160 bytes of shared memory (the ring;
//! the cross-warp sum reuses it). Measured (H200, PERF.md step 104, `auto`,
//! ms and % of cuBLAS in the same run, f16; before: the TMA tiles on a
//! realigned copy of B, or the CUDA-core kernel): 8×42212×501 0.047 →
//! 0.034 (87 → 122%), 13×186997×5813 1.83 → 0.94 (87 → 169%),
//! 4×100003×777 0.137 → 0.082 (54 → 91%), 8×4097×100000 0.73 → 0.56 (93
//! → 121%), 16×1001×4000 0.029 → 0.016 (51 → 91–109%). It streams
//! 1.0–2.3 TB/s, not the 3.5–4.3 of the TMA tiles over rows on 16 bytes,
//! which keep those calls, nor of step 70's tiles from K = 2048 where they
//! take the call (16×16383×4096: 0.106 ms against 0.129): what holds it
//! back is not yet known (run 3's ncu was of the 8-byte ring).

use crate::device::sm80::{cp_async_16, cp_async_commit, cp_async_wait};
use crate::device::{load_shared_x4_b32, smem_addr, sync_threads, sync_warp, thread_idx, trap};
use crate::kernel_abi::{Gemm, kernel_entries};
use crate::memory_bound::{Bf16, Bf16Sums, F16, F16Sums, Skinny, view_tiled};
use crate::memory_bound_mma::{
    OnTensorCores, WARPS, element_bytes, pairs_up, s_fragment_pairs_words, s_fragment_words, sum_warps_and_store,
};
use crate::realign::realigned_by_selects;
use gemm_launch::memory_bound::{
    ALONG_L_GRANULES, ALONG_L_LONG_TILE, ALONG_L_M16_TILES, ALONG_L_ROWS, ALONG_L_STAGES, ALONG_L_WARP_STAGE_BYTES,
};

/// Rows of X (K indices) a lane reads per K step: those of one `k16` `mma`.
const ROWS: usize = ALONG_L_ROWS as usize;
/// Long-side indices per lane: 16 bytes of a row.
const PER_LANE: u32 = 8;
/// `m16` tiles of the block's long side.
const M16_TILES: usize = ALONG_L_M16_TILES as usize;
/// K indices of a warp's step: 4 lane quads × [`ROWS`].
const K_STEP: u32 = 4 * ALONG_L_ROWS;
const _: () = assert!(8 * PER_LANE == ALONG_L_LONG_TILE && M16_TILES == 4 && ROWS == 4);

/// What a lane reads of X: its [`PER_LANE`] long-side indices of each row.
#[derive(Clone, Copy)]
struct XColumns {
    /// Byte address of the lane's first element of row 0.
    at: usize,
    /// Bytes from one row of X (one K index) to the next.
    pitch: usize,
    /// How many of the lane's elements lie inside the long side.
    valid: u32,
    /// The byte range of X, outside which nothing is read.
    span: (usize, usize),
}

impl XColumns {
    /// The lane's 16 bytes of row `k`, zero at and past `k_end`, read
    /// element by element, each inside the long side and X's span: the
    /// blocks at X's edges.
    #[inline(always)]
    unsafe fn window_at_edge(&self, k: u32, k_end: u32) -> [u32; 4] {
        if k >= k_end {
            return [0; 4];
        }
        let row = self.at + k as usize * self.pitch;
        let element = |e: u32| -> u32 {
            let byte = row + 2 * e as usize;
            let inside = e < self.valid && byte >= self.span.0 && byte + 2 <= self.span.1;
            if inside { unsafe { *core::ptr::with_exposed_provenance::<u16>(byte) as u32 } } else { 0 }
        };
        core::array::from_fn(|w| element(2 * w as u32) | (element(2 * w as u32 + 1) << 16))
    }

    /// Byte address of the lane's window in row `k`, clamped to row
    /// `k_end − 1` (the ring copies a real row past K and keeps none of it).
    #[inline(always)]
    fn row(&self, k: u32, k_end: u32) -> usize {
        self.at + k.min(k_end - 1) as usize * self.pitch
    }
}

/// Fragment word `e` of row pair `(lo, hi)`: the lane's long index `e`,
/// its element of the lower K index in the low half.
#[inline(always)]
fn paired(lo: [u32; 4], hi: [u32; 4], e: usize) -> u32 {
    let (a, b) = (lo[e / 2], hi[e / 2]);
    if e.is_multiple_of(2) { (a & 0xffff) | (b << 16) } else { (a >> 16) | (b & 0xffff_0000) }
}

/// S's fragment of n8 tile `j` for K indices `k .. k + 4` (the lane's rows
/// of a step): S's row `g + 8j`, or `2g + j` where paired ([`pairs_up`]),
/// as two words (0 past the group's rows or K).
#[inline(always)]
unsafe fn s_fragments<E: OnTensorCores, const N_TILES: usize, const PAIRS: bool>(
    q: &Skinny<E>,
    g: u32,
    k: u32,
) -> [[u32; 2]; N_TILES] {
    let mut s = [[0u32; 2]; N_TILES];
    if PAIRS {
        let pairs = unsafe { s_fragment_pairs_words::<E, 2>(q, g, k) };
        #[allow(clippy::manual_memcpy)]
        for j in 0..N_TILES.min(2) {
            s[j] = pairs[j];
        }
    } else {
        for (j, s_j) in s.iter_mut().enumerate() {
            *s_j = unsafe { s_fragment_words::<E, 2>(q, g + 8 * j as u32, k) };
        }
    }
    s
}

/// One K step's `mma`s: the lane's 4 rows of X (`r[j]`, K index `k0 + 4t +
/// j`) paired into A fragments, against the S fragments `s`.
#[inline(always)]
fn multiply<E: OnTensorCores, const N_TILES: usize>(
    acc: &mut [[[f32; 4]; N_TILES]; M16_TILES],
    r: &[[u32; 4]; ROWS],
    s: &[[u32; 2]; N_TILES],
) {
    for (tile, acc_tile) in acc.iter_mut().enumerate() {
        // Columns 2t, 2t + 1 are rows 0 and 1, 2t + 8, 2t + 9 rows 2 and 3;
        // fragment rows g and g + 8 the lane's long indices 2·tile and
        // 2·tile + 1.
        let a = [
            paired(r[0], r[1], 2 * tile),
            paired(r[0], r[1], 2 * tile + 1),
            paired(r[2], r[3], 2 * tile),
            paired(r[2], r[3], 2 * tile + 1),
        ];
        for (acc_j, s_j) in acc_tile.iter_mut().zip(s) {
            *acc_j = E::mma(a, *s_j, *acc_j);
        }
    }
}

/// One warp's share of the block's K steps (every 8th) through its part
/// of the ring: [`ALONG_L_STAGES`] − 1 steps' copies in flight while it
/// multiplies one. Lane group `g` of quad `t` copies granule `g` of each of
/// its rows (its window where rows lie on 16 bytes, `SHIFTED` false; else
/// the aligned granule its window starts in, lane group 7 also the ninth)
/// and reads its window back, from its own granule and its neighbour's
/// where shifted. S's fragments are loaded a step ahead, into registers.
#[inline(always)]
unsafe fn mainloop_ring<E: OnTensorCores, const N_TILES: usize, const SHIFTED: bool, const PAIRS: bool>(
    q: &Skinny<E>,
    x: XColumns,
    lane: usize,
    warp: usize,
) -> [[[f32; 4]; N_TILES]; M16_TILES] {
    let (g, tq) = ((lane / 4) as u32, (lane % 4) as u32);
    let steps = q.k.div_ceil(K_STEP);
    let w = warp as u32;
    let mine = if w < steps { (steps - w - 1) / WARPS as u32 + 1 } else { 0 };
    let k_of = |i: u32| (w + WARPS as u32 * i) * K_STEP + ALONG_L_ROWS * tq;
    let stages = ALONG_L_STAGES;
    let ring = smem_addr(0) + w * stages * ALONG_L_WARP_STAGE_BYTES;
    // The lane's granule of row j in stage `stage`.
    let granule = |stage: u32, j: usize| {
        ring + stage * ALONG_L_WARP_STAGE_BYTES + (j as u32 * 4 + tq) * ALONG_L_GRANULES * 16 + 16 * g
    };
    let issue = |i: u32| {
        if i < mine {
            let k = k_of(i);
            for j in 0..ROWS {
                let row = x.row(k + j as u32, q.k);
                let dst = granule(i % stages, j);
                let src = if SHIFTED { row & !15 } else { row };
                unsafe { cp_async_16(dst, core::ptr::with_exposed_provenance(src)) };
                if SHIFTED && g == 7 {
                    unsafe { cp_async_16(dst + 16, core::ptr::with_exposed_provenance(src + 16)) };
                }
            }
        }
        cp_async_commit();
    };
    for i in 0..stages - 1 {
        issue(i);
    }
    let mut acc = [[[0.0f32; 4]; N_TILES]; M16_TILES];
    let mut s_next = unsafe { s_fragments::<E, N_TILES, PAIRS>(q, g, k_of(0)) };
    for i in 0..mine {
        issue(i + stages - 1);
        cp_async_wait(ALONG_L_STAGES - 1);
        if SHIFTED {
            // The neighbour's granule: its copy, seen once the warp meets.
            sync_warp();
        }
        let s_now = s_next;
        s_next = unsafe { s_fragments::<E, N_TILES, PAIRS>(q, g, k_of(i + 1)) };
        let k = k_of(i);
        let mut rows = [[0u32; 4]; ROWS];
        for (j, row) in rows.iter_mut().enumerate() {
            let at = granule(i % stages, j);
            let words = if SHIFTED {
                let ([a, b, c, d], [e, f, g2, h]) = (load_shared_x4_b32(at), load_shared_x4_b32(at + 16));
                realigned_by_selects([a, b, c, d, e, f, g2, h], (x.row(k + j as u32, q.k) & 15) as u32)
            } else {
                load_shared_x4_b32(at)
            };
            let keep = if k + (j as u32) < q.k { u32::MAX } else { 0 };
            *row = words.map(|v| v & keep);
        }
        if SHIFTED {
            // Every lane has read its neighbour's granule before the next
            // step's copies overwrite this stage.
            sync_warp();
        }
        multiply::<E, N_TILES>(&mut acc, &rows, &s_now);
    }
    cp_async_wait(0);
    acc
}

/// The blocks at X's edges: each lane reads its windows element by
/// element into registers, every 8th K step of the block.
#[inline(always)]
unsafe fn mainloop_at_edge<E: OnTensorCores, const N_TILES: usize, const PAIRS: bool>(
    q: &Skinny<E>,
    x: XColumns,
    lane: usize,
    warp: usize,
) -> [[[f32; 4]; N_TILES]; M16_TILES] {
    let (g, tq) = ((lane / 4) as u32, (lane % 4) as u32);
    let mut acc = [[[0.0f32; 4]; N_TILES]; M16_TILES];
    let mut step = warp as u32;
    while step < q.k.div_ceil(K_STEP) {
        let k = step * K_STEP + ALONG_L_ROWS * tq;
        let mut rows = [[0u32; 4]; ROWS];
        for (j, row) in rows.iter_mut().enumerate() {
            *row = unsafe { x.window_at_edge(k + j as u32, q.k) };
        }
        let s = unsafe { s_fragments::<E, N_TILES, PAIRS>(q, g, k) };
        multiply::<E, N_TILES>(&mut acc, &rows, &s);
        step += WARPS as u32;
    }
    acc
}

/// The kernel; see the file's comment. `SMALL_ROWS` = 8 · `N_TILES`.
///
/// # Safety
/// See the entry point; the host launches it only where X is contiguous
/// along L (`gemm_launch::memory_bound::mma_refusal`).
#[inline(always)]
unsafe fn skinny_mma_along_l<
    E: OnTensorCores,
    const SMALL_ROWS: usize,
    const N_TILES: usize,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<E::Raw, E::Out>,
) {
    let (q, l0, x_along_l) = unsafe { view_tiled::<E, SMALL_ROWS, A_T, B_T>(p, ALONG_L_LONG_TILE) };
    if !x_along_l || SMALL_ROWS != 8 * N_TILES || element_bytes::<E>() != 2 {
        trap();
    }
    let t = thread_idx();
    let (lane, warp) = (t % 32, t / 32);
    let l = l0 + PER_LANE * (lane / 4) as u32;
    let (x0, pitch) = (q.x as usize, 2 * q.ldx as usize);
    let span_end = if q.k == 0 { x0 } else { x0 + (q.k as usize - 1) * pitch + 2 * q.len as usize };
    let x =
        XColumns { at: x0 + 2 * l as usize, pitch, valid: q.len.saturating_sub(l).min(PER_LANE), span: (x0, span_end) };
    let aligned = x0.is_multiple_of(16) && pitch.is_multiple_of(16);
    // Every granule of the block lies in X, unless the block holds the last
    // columns (or the 8 after them, which a shifted row's ninth granule
    // reaches), or the first with X's start off 16 bytes (the granule
    // before it).
    let inside = (x0.is_multiple_of(16) || l0 > 0) && l0 + ALONG_L_LONG_TILE + PER_LANE <= q.len && q.k > 0;
    let pairs = pairs_up(&q, N_TILES);
    let acc = unsafe {
        match (inside, aligned, pairs) {
            (true, true, true) => mainloop_ring::<E, N_TILES, false, true>(&q, x, lane, warp),
            (true, false, true) => mainloop_ring::<E, N_TILES, true, true>(&q, x, lane, warp),
            (false, _, true) => mainloop_at_edge::<E, N_TILES, true>(&q, x, lane, warp),
            (true, true, false) => mainloop_ring::<E, N_TILES, false, false>(&q, x, lane, warp),
            (true, false, false) => mainloop_ring::<E, N_TILES, true, false>(&q, x, lane, warp),
            (false, _, false) => mainloop_at_edge::<E, N_TILES, false>(&q, x, lane, warp),
        }
    };
    // The cross-warp sum reuses the ring.
    sync_threads();
    // Row m of tile i is the lane group's long index 2i (m < 8) or 2i + 1.
    let l_of = |tile: u32, m: u32| l0 + PER_LANE * (m % 8) + 2 * tile + m / 8;
    unsafe { sum_warps_and_store(&q, acc, pairs, l_of) };
}

mod entries {
    use super::*;
    use gemm_launch::memory_bound::*;
    kernel_entries!(memory_bound_mma skinny_mma_along_l<F16, u16>, hgemm_skinny_mma_l, SKINNY_MMA_L_F16, along_l);
    kernel_entries!(memory_bound_mma skinny_mma_along_l<Bf16, u16>, bgemm_skinny_mma_l, SKINNY_MMA_L_BF16, along_l);
    kernel_entries!(memory_bound_mma skinny_mma_along_l<F16, u16>, hgemm_skinny_mma_l_r16, SKINNY_MMA_L_F16_R16, along_l);
    kernel_entries!(memory_bound_mma skinny_mma_along_l<Bf16, u16>, bgemm_skinny_mma_l_r16, SKINNY_MMA_L_BF16_R16, along_l);
    kernel_entries!(memory_bound_mma skinny_mma_along_l<F16Sums, u16 => f32>, hgemm_skinny_mma_l_f32out, SKINNY_MMA_L_F16_F32OUT, along_l);
    kernel_entries!(memory_bound_mma skinny_mma_along_l<Bf16Sums, u16 => f32>, bgemm_skinny_mma_l_f32out, SKINNY_MMA_L_BF16_F32OUT, along_l);
    kernel_entries!(memory_bound_mma skinny_mma_along_l<F16Sums, u16 => f32>, hgemm_skinny_mma_l_r16_f32out, SKINNY_MMA_L_F16_R16_F32OUT, along_l);
    kernel_entries!(memory_bound_mma skinny_mma_along_l<Bf16Sums, u16 => f32>, bgemm_skinny_mma_l_r16_f32out, SKINNY_MMA_L_BF16_R16_F32OUT, along_l);
}
