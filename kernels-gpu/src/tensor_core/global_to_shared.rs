//! Global → shared copy (CUTLASS's "global-to-shared" / `GmemTiledCopy`): how
//! one K slice of A and B reaches a shared-memory stage of the `cp.async`
//! pipeline, for every tensor-core kernel (steps 8, 8b, 9, 9b).
//!
//! A slice tile keeps its operand's orientation in shared memory, so every
//! copy moves one 16-byte chunk of a contiguous run (a row of a row-major
//! operand, a column of a column-major one): A is `[BM][BK]`, or `[BK][BM]`
//! when column-major; B is `[BK][BN]`, or `[BN][BK]`. Where the chunks go
//! inside the tile is the kernel's choice, a [`SmemTile`] for each
//! orientation (swizzled, padded, blocked for `wgmma`). Consecutive threads
//! take consecutive chunks of a run, so global reads are coalesced.
//!
//! The one exception is TF32 `wgmma`'s row-major B, which must be transposed
//! on the way in ([`copy_b_transposed_f32`]).

#[cfg(not(rgemm_sm90a))]
use crate::device::load_shared_x4_b32;
#[cfg(rgemm_sm90a)]
use crate::device::sm80::cp_async_4;
use crate::device::sm80::cp_async_16_or_zero;
use crate::device::{smem_addr, store_shared_x4_b32};
use crate::kernel_abi::{Gemm, at};
#[cfg(not(rgemm_sm90a))]
use crate::realign::{granule, keep_bytes, realigned};

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

/// Where stage `s`'s A and B tiles start in dynamic shared memory: stages
/// are `a_bytes + b_bytes` apart, A first (sizes from `gemm_launch`).
#[derive(Clone, Copy)]
pub(crate) struct StageRing {
    pub a_bytes: usize,
    pub stage_bytes: usize,
}

impl StageRing {
    /// The shared address of stage `s`'s A tile.
    #[inline(always)]
    pub fn a(self, s: usize) -> u32 {
        smem_addr(s * self.stage_bytes)
    }

    /// The shared address of stage `s`'s B tile.
    #[inline(always)]
    pub fn b(self, s: usize) -> u32 {
        smem_addr(s * self.stage_bytes + self.a_bytes)
    }
}

/// Byte offset of 16-byte chunk `chunk` of row `row` in a swizzled tile
/// whose rows are `row_bytes` long (a compile-time constant at every call).
/// `ldmatrix` reads one chunk from each of 8 consecutive rows; stored plainly
/// those chunks share banks whenever rows are a multiple of 128 bytes apart.
/// XOR-ing the chunk index with a key taken from the row spreads them over all
/// 32 banks: `row % 8` for rows of 128 bytes or more; `(row / 2) % 4` for
/// 64-byte rows, two of which share a 128-byte bank line; `(row / 4) % 2`
/// for 32-byte rows (the 16-wide tiles of the skinny kernels), four to a
/// line. With 128-byte rows on 1024-byte aligned tiles this is the `wgmma`
/// descriptors' 128-byte swizzle mode.
#[inline(always)]
pub(crate) fn swizzled(row_bytes: usize, row: usize, chunk: usize) -> usize {
    let key = match row_bytes {
        32 => (row >> 2) & 1,
        64 => (row >> 1) & 3,
        _ => row & 7,
    };
    row * row_bytes + ((chunk ^ key) * 16)
}

#[cfg(rgemm_sm90a)]
/// Bytes of one 128-byte-swizzled block of an MN-major `wgmma` tile: 64
/// k-rows of 64 16-bit elements (m for A, n for B).
pub(crate) const MN_BLOCK_BYTES: usize = 64 * 128;

/// Where the 16-byte chunks of a slice tile go in shared memory. The kind
/// of layout is a type, so that a kernel's choice (which depends on its
/// operands' orientation, a const generic) folds before codegen; the sizes
/// are compile-time constants where a kernel builds one.
pub(crate) trait SmemTile: Copy {
    /// Byte offset of chunk `chunk` of row `row`.
    fn offset(self, row: usize, chunk: usize) -> usize;
}

/// Rows `row_bytes` apart, chunks in order (also padded rows: a row of
/// `cols + pad` elements).
#[derive(Clone, Copy)]
pub(crate) struct Plain {
    pub row_bytes: usize,
}

impl SmemTile for Plain {
    #[inline(always)]
    fn offset(self, row: usize, chunk: usize) -> usize {
        row * self.row_bytes + chunk * 16
    }
}

/// Rows `row_bytes` apart, chunks XOR-swizzled ([`swizzled`]) when `ON`, in
/// order when not (the ablation without swizzle).
#[derive(Clone, Copy)]
pub(crate) struct Swizzled<const ON: bool> {
    pub row_bytes: usize,
}

impl<const ON: bool> SmemTile for Swizzled<ON> {
    #[inline(always)]
    fn offset(self, row: usize, chunk: usize) -> usize {
        if ON { swizzled(self.row_bytes, row, chunk) } else { row * self.row_bytes + chunk * 16 }
    }
}

/// `wgmma`'s MN-major 16-bit layout: blocks of 64 m (or n) columns,
/// `MN_BLOCK_BYTES` apart, each 128-byte swizzled rows, one per k.
#[cfg(rgemm_sm90a)]
#[derive(Clone, Copy)]
pub(crate) struct MnBlocks;

#[cfg(rgemm_sm90a)]
impl SmemTile for MnBlocks {
    #[inline(always)]
    fn offset(self, row: usize, chunk: usize) -> usize {
        (chunk / 8) * MN_BLOCK_BYTES + swizzled(128, row, chunk % 8)
    }
}

/// One 16-byte chunk of a contiguous run (8 16-bit or 4 32-bit elements)
/// into shared memory: one zero-filling `cp.async` when `aligned` (runs start
/// on 16-byte boundaries and their length is a multiple of the chunk, so a
/// chunk is wholly inside or wholly outside the matrix; see
/// [`Operands::new`]), else gathered element by element, zero outside, and
/// stored. `outer` picks the run, `inner` the chunk's first element.
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

/// Issues the copies of one operand's K slice at `k0` into the tile at
/// `stage`: `ROWS` rows of C's side (M for A, N for B, starting at `mn0`)
/// by `BK`. `k_major` (a constant at every call): the operand's runs go along K (row-major A,
/// column-major B), and the tile is `[ROWS][BK]` laid out as `tiles.0`;
/// else they go along M or N, and the tile is `[BK][ROWS]` as `tiles.1`.
/// A and B are the same copy with their roles named ([`copy_a`], [`copy_b`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn copy_operand<
    In: Copy + Into<u32>,
    const ROWS: usize,
    const BK: usize,
    const THREADS: usize,
    KM: SmemTile,
    MM: SmemTile,
>(
    k_major: bool,
    (p, ld, aligned): (*const In, u32, bool),
    (mn0, mn_len, k_len): (u32, u32, u32),
    k0: u32,
    t: usize,
    stage: u32,
    tiles: (KM, MM),
) {
    let e = 16 / core::mem::size_of::<In>();
    for l in 0..(ROWS * BK / e) / THREADS {
        let i = t + l * THREADS;
        unsafe {
            if k_major {
                let (r, c) = (i / (BK / e), i % (BK / e));
                let dst = stage + tiles.0.offset(r, c) as u32;
                copy_chunk(dst, p, ld, mn0 + r as u32, k0 + e as u32 * c as u32, mn_len, k_len, aligned);
            } else {
                let (r, c) = (i / (ROWS / e), i % (ROWS / e));
                let dst = stage + tiles.1.offset(r, c) as u32;
                copy_chunk(dst, p, ld, k0 + r as u32, mn0 + e as u32 * c as u32, k_len, mn_len, aligned);
            }
        }
    }
}

/// Issues the copies of A's K slice at `k0` (`BM×BK`) into the tile at
/// `stage`: `[BM][BK]` laid out as `tiles.0`, or `[BK][BM]` as `tiles.1`
/// when column-major (`A_T`).
#[inline(always)]
pub(crate) unsafe fn copy_a<
    In: Copy + Into<u32>,
    Out,
    const BM: usize,
    const BK: usize,
    const THREADS: usize,
    const A_T: bool,
    R: SmemTile,
    C: SmemTile,
>(
    ops: &Operands<In, Out>,
    k0: u32,
    t: usize,
    stage: u32,
    tiles: (R, C),
) {
    let Gemm { a, m, k, lda, .. } = ops.p;
    let (operand, rows) = ((a, lda, ops.a_aligned), (ops.row0, m, k));
    unsafe { copy_operand::<In, BM, BK, THREADS, R, C>(!A_T, operand, rows, k0, t, stage, tiles) }
}

/// Issues the copies of B's K slice at `k0` (`BK×BN`) into the tile at
/// `stage`: `[BK][BN]` laid out as `tiles.0`, or `[BN][BK]` as `tiles.1`
/// when column-major (`B_T`).
#[inline(always)]
pub(crate) unsafe fn copy_b<
    In: Copy + Into<u32>,
    Out,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const B_T: bool,
    R: SmemTile,
    C: SmemTile,
>(
    ops: &Operands<In, Out>,
    k0: u32,
    t: usize,
    stage: u32,
    tiles: (R, C),
) {
    let Gemm { b, n, k, ldb, .. } = ops.p;
    let (operand, rows) = ((b, ldb, ops.b_aligned), (ops.col0, n, k));
    // B's K-major tile is its column-major one.
    let (row_major, col_major) = tiles;
    unsafe { copy_operand::<In, BN, BK, THREADS, C, R>(B_T, operand, rows, k0, t, stage, (col_major, row_major)) }
}

/// Issues the copies of the K slice at `k0`: A into `a_stage` (layouts for
/// row- and column-major A: `a_tiles`), B into `b_stage` (`b_tiles`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn copy_slice<
    In: Copy + Into<u32>,
    Out,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const A_T: bool,
    const B_T: bool,
    AR: SmemTile,
    AC: SmemTile,
    BR: SmemTile,
    BC: SmemTile,
>(
    ops: &Operands<In, Out>,
    k0: u32,
    t: usize,
    (a_stage, a_tiles): (u32, (AR, AC)),
    (b_stage, b_tiles): (u32, (BR, BC)),
) {
    unsafe {
        copy_a::<In, Out, BM, BK, THREADS, A_T, AR, AC>(ops, k0, t, a_stage, a_tiles);
        copy_b::<In, Out, BN, BK, THREADS, B_T, BR, BC>(ops, k0, t, b_stage, b_tiles);
    }
}

/// One K slice of a 16-bit operand whose runs (rows of a row-major operand,
/// columns of a column-major one) start off 16 bytes, as step 72's skinny
/// tiles move it: `rows` runs of `run` elements, run `r` being
/// `outer0 + r` of the operand (of `outer_len`) from element `inner0` (of
/// `inner_len`), the operand at `p` with leading dimension `ld`. A
/// `cp.async` cannot start off 16 bytes, so the slice lands as the aligned
/// 16-byte granules that hold each run (`run / 8 + 1` of them, [`copy_granules`]),
/// and once they have landed each 16-byte chunk of the tile is shifted out
/// of the two granules it straddles ([`realign_granules`]).
#[cfg(not(rgemm_sm90a))]
#[derive(Clone, Copy)]
pub(crate) struct OffRuns {
    pub p: *const u16,
    pub ld: u32,
    pub rows: usize,
    pub run: usize,
    pub outer: (u32, u32),
    pub inner: (u32, u32),
}

#[cfg(not(rgemm_sm90a))]
impl OffRuns {
    /// Bytes of global memory the operand spans: `[first element, last + 1)`.
    #[inline(always)]
    fn span(&self) -> (usize, usize) {
        let base = self.p.expose_provenance();
        (base, base + at(self.outer.1 - 1, self.ld, self.inner.1) * 2)
    }

    /// Byte address of run `r`'s first element in the slice.
    #[inline(always)]
    fn start(&self, r: usize) -> usize {
        self.p.expose_provenance() + at(self.outer.0 + r as u32, self.ld, self.inner.0) * 2
    }

    /// Granules per run in shared memory.
    #[inline(always)]
    fn granules(&self) -> usize {
        self.run / 8 + 1
    }
}

/// Issues the copies of `runs`' granules into `raw` (runs `16·granules`
/// bytes apart, granules in order): one `cp.async` each where the granule
/// lies inside the operand's span, a zero-filling one where it lies past
/// it or its run is past the operand. The two granules that straddle the
/// span's ends (where the operand starts or ends off 16 bytes) are read
/// element by element and stored, so nothing outside the operand is read
/// (memcheck reports a `cp.async` of fewer source bytes as a 16-byte read
/// past the end).
///
/// # Safety
/// `runs` must describe the operand the launch gives; `raw` must hold
/// `rows × granules` 16-byte granules.
#[cfg(not(rgemm_sm90a))]
#[inline(always)]
pub(crate) unsafe fn copy_granules<const THREADS: usize>(runs: &OffRuns, t: usize, raw: u32) {
    let span = runs.span();
    let per_run = runs.granules();
    let count = runs.rows * per_run;
    for l in 0..count.div_ceil(THREADS) {
        let i = t + l * THREADS;
        if i >= count {
            break;
        }
        let (r, j) = (i / per_run, i % per_run);
        let dst = raw + (i * 16) as u32;
        let at = (runs.start(r) & !15) + 16 * j;
        let inside_operand = runs.outer.0 + (r as u32) < runs.outer.1;
        if inside_operand && at >= span.0 && at + 16 <= span.1 {
            unsafe { cp_async_16_or_zero(dst, core::ptr::with_exposed_provenance::<u8>(at), 16) };
        } else if inside_operand && at < span.1 {
            store_shared_x4_b32(dst, unsafe { granule::<u16>(at, span) });
        } else {
            unsafe { cp_async_16_or_zero(dst, runs.p, 0) };
        }
    }
}

/// Shifts the landed granules of `runs` at `raw` into the tile at `tile`
/// (laid out as `layout`, `[rows][run]`): chunk `c` of run `r` is the 16
/// bytes `start(r) % 16` into granules `c` and `c + 1`, its elements past
/// the run's end cleared (the granules reach into the next run).
///
/// # Safety
/// The granules of the slice must have landed (and be visible to this
/// thread); `tile` must hold the tile.
#[cfg(not(rgemm_sm90a))]
#[inline(always)]
pub(crate) unsafe fn realign_granules<const THREADS: usize, L: SmemTile>(
    runs: &OffRuns,
    t: usize,
    raw: u32,
    (tile, layout): (u32, L),
) {
    let per_run = runs.granules();
    let chunks = runs.run / 8;
    for l in 0..(runs.rows * chunks).div_ceil(THREADS) {
        let i = t + l * THREADS;
        if i >= runs.rows * chunks {
            break;
        }
        let (r, c) = (i / chunks, i % chunks);
        let src = raw + ((r * per_run + c) * 16) as u32;
        let (low, high) = (load_shared_x4_b32(src), load_shared_x4_b32(src + 16));
        let window = [low[0], low[1], low[2], low[3], high[0], high[1], high[2], high[3]];
        let first = runs.inner.0 as usize + 8 * c;
        let valid = (runs.inner.1 as usize).saturating_sub(first).min(8);
        let words = keep_bytes(realigned(window, runs.start(r) % 16), 2 * valid);
        store_shared_x4_b32(tile + layout.offset(r, c) as u32, words);
    }
}

/// TF32 `wgmma`'s B: a row-major f32 B (`[k][n]`) transposed on the way in,
/// one 4-byte `cp.async` per element, into `[BN][32]` rows with 128-byte
/// swizzle (TF32 `wgmma` has no transposed form).
///
/// Thread t copies k-row kr = 4·(t/32) + t%4, columns 8·l + (t/4)%8 for
/// l = 0, 1, …: a warp covers 4 k × 8 n per copy (32 distinct banks under
/// the swizzle; 4 rows of 32 contiguous bytes in global memory). Columns 8
/// apart land in rows 8 apart, whose swizzle key is the same, so consecutive
/// copies are a constant 32 bytes (source) and 1024 bytes (destination)
/// apart: one instruction each, on interior tiles.
#[cfg(rgemm_sm90a)]
#[inline(always)]
pub(crate) unsafe fn copy_b_transposed_f32<const BN: usize, const BK: usize, const THREADS: usize>(
    ops: &Operands<u32, f32>,
    k0: u32,
    t: usize,
    b_stage: u32,
) {
    const { assert!(THREADS == 256 && BK == 32) };
    let Gemm { b, n, k, ldb, .. } = ops.p;
    let col0 = ops.col0;
    let (kr, nl) = (4 * (t / 32) + t % 4, (t / 4) % 8);
    let row = k0 + kr as u32;
    let dst = b_stage + (swizzled(BK * 4, nl, kr / 4) + (kr % 4) * 4) as u32;
    if row < k && col0 + BN as u32 <= n {
        let src = unsafe { b.add(at(row, ldb, col0 + nl as u32)) } as *const f32;
        for l in 0..BN / 8 {
            unsafe { cp_async_4(dst + (l * 1024) as u32, src.add(8 * l), 4) };
        }
    } else {
        for l in 0..BN / 8 {
            let col = col0 + (8 * l + nl) as u32;
            let inside = row < k && col < n;
            let src = if inside { unsafe { b.add(at(row, ldb, col)) } } else { b };
            unsafe { cp_async_4(dst + (l * 1024) as u32, src as *const f32, if inside { 4 } else { 0 }) };
        }
    }
}
