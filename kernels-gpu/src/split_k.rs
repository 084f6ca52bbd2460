//! Split-K reduction: the partial sums of a split GEMM (one f32 slab of the
//! workspace per K chunk, written by an ordinary GEMM kernel run as a strided
//! batch) summed in a fixed tree, then `C = α·sum + β·C`.
//!
//! Idea: the slabs are summed in an order that depends only on their
//! number, `((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7))` per group of
//! [`REDUCE_FAN_IN`], one launch per level of the tree but the last two
//! (`splitk_combine` writes each group's sum over its first slab, a thread
//! per element of C; the epilogue sums the last ≤ 8, a thread per element,
//! or the last ≤ 64 in two levels, eight threads per element, one group of
//! eight each, and writes C). No atomics, so the result is bitwise
//! reproducible, and the rounding error of the combination grows with log₈
//! of the number of chunks, not with K.
//!
//! The one-level epilogue with no slabs is the α = 0 path: `C = β·C` without
//! reading A, B or the workspace (β = 0: C = 0, NaN in C not carried over).
//!
//! Geometry (`gemm_launch::split_k::reduce_geometry`): 256 threads along a row of C (coalesced), blocks
//! over column blocks × row groups, grid y a combine pass's groups of slabs, grid z the batch; the
//! two-level epilogue (`epilogue_geometry`) covers 32 columns a block, one warp per group of slabs, and
//! takes 1 KiB of dynamic shared memory (`epilogue_smem_bytes`). Memory-bound: 4 bytes read per slab
//! and element. ptxas (sm_90): `splitk_combine` 24 registers, the one-level epilogues 26, the two-level
//! ones 56; no spills, no stack frame. Speed (H100, ncu, PERF.md step 55): an epilogue took 3–5 µs
//! however small C was; a combine pass over 64 slabs of 128×128 5 µs (before its groups became grid
//! rows).

use crate::device::sm80::{pack_bf16x2, pack_f16x2, unpack_bf16x2, unpack_f16x2};
use crate::device::{SharedF32, block_idx, block_idx_y, block_idx_z, sync_threads, thread_idx};
use crate::kernel_abi::Scale;
use gemm_launch::split_k::{REDUCE_FAN_IN, REDUCE_THREADS, ReduceRole, TWO_LEVEL_COLUMNS};

const FAN_IN: usize = REDUCE_FAN_IN as usize;
const _: () = assert!(FAN_IN == 8, "tree8 sums eight slabs");

/// The fixed summation tree of one group: pairwise, so the error of a
/// group is three roundings deep.
#[inline(always)]
fn tree8(v: [f32; FAN_IN]) -> f32 {
    ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
}

/// The slabs of one matrix of the batch: slab `s` holds the partial sums of
/// chunk `s`, row-major `m × n` (`ld = n`), `slab` f32 after slab `s − 1`.
#[derive(Clone, Copy)]
struct Slabs {
    base: *mut f32,
    slab: u64,
}

impl Slabs {
    /// Element `e` of slabs `first + i·step` for `i < 8`, 0 for slabs at or
    /// past `end` (never read).
    ///
    /// # Safety
    /// Slabs below `end` must be in the workspace.
    #[inline(always)]
    unsafe fn group(self, first: u32, step: u32, end: u32, e: u64) -> [f32; FAN_IN] {
        let mut v = [0.0f32; FAN_IN];
        for (i, x) in v.iter_mut().enumerate() {
            let s = first + i as u32 * step;
            if s < end {
                *x = unsafe { *self.base.add((s as u64 * self.slab + e) as usize) };
            }
        }
        v
    }
}

/// Rows and the column this thread handles: column `col` of rows `row0,
/// row0 + row_groups, …` (or none if `col ≥ n`).
#[inline(always)]
fn my_rows(n: u32, row_groups: u32) -> (u32, u32, u32) {
    let col_blocks = n.div_ceil(REDUCE_THREADS);
    let b = block_idx();
    let col = (b % col_blocks) * REDUCE_THREADS + thread_idx() as u32;
    (col, b / col_blocks, row_groups)
}

/// An element type of C: how the epilogue reads and writes it.
trait OutElement {
    /// # Safety
    /// `p` must point to a readable element.
    unsafe fn load(p: *const Self) -> f32;
    /// # Safety
    /// `p` must point to a writable element.
    unsafe fn store(p: *mut Self, v: f32);
}

impl OutElement for f32 {
    #[inline(always)]
    unsafe fn load(p: *const f32) -> f32 {
        unsafe { *p }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: f32) {
        unsafe { *p = v }
    }
}

/// f16 bits.
#[repr(transparent)]
pub struct F16(u16);
/// bf16 bits.
#[repr(transparent)]
pub struct Bf16(u16);

impl OutElement for F16 {
    #[inline(always)]
    unsafe fn load(p: *const F16) -> f32 {
        unpack_f16x2(unsafe { (*p).0 } as u32)[0]
    }
    #[inline(always)]
    unsafe fn store(p: *mut F16, v: f32) {
        unsafe { *p = F16(pack_f16x2(v, 0.0) as u16) }
    }
}

impl OutElement for Bf16 {
    #[inline(always)]
    unsafe fn load(p: *const Bf16) -> f32 {
        unpack_bf16x2(unsafe { (*p).0 } as u32)[0]
    }
    #[inline(always)]
    unsafe fn store(p: *mut Bf16, v: f32) {
        unsafe { *p = Bf16(pack_bf16x2(v, 0.0) as u16) }
    }
}

/// One pass of the tree: for the group `g` of this block's grid row,
/// slabs `g·8·step + i·step` (`i < 8`, below `splits`) are summed into slab
/// `g·8·step`. Each thread reads and writes only its own element, so in
/// place is race-free. The groups are the grid's rows, not a loop of each
/// thread: a small C has few threads, and 293 slabs walked 8 at a time by
/// each took 16 µs of a 64×192×300000 f32 call (H100, ncu, PERF.md step 55).
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn combine(slabs: Slabs, splits: u32, step: u32, m: u32, n: u32, row_groups: u32) {
    let (col, row0, row_groups) = my_rows(n, row_groups);
    let first = block_idx_y() * step * FAN_IN as u32;
    if col >= n || first >= splits {
        return;
    }
    let mut row = row0;
    while row < m {
        let e = row as u64 * n as u64 + col as u64;
        let sum = tree8(unsafe { slabs.group(first, step, splits, e) });
        unsafe { *slabs.base.add((first as u64 * slabs.slab + e) as usize) = sum };
        row += row_groups;
    }
}

/// `C = α·sum + β·C` at (row, col) of a matrix of C (C not read when β = 0).
#[inline(always)]
fn writer<Out: OutElement>(c: *mut Out, ldc: u32, scale: Scale) -> impl Fn(u32, u32, f32) {
    move |row: u32, col: u32, sum: f32| {
        let p = unsafe { c.add(row as usize * ldc as usize + col as usize) };
        unsafe { Out::store(p, scale.apply(sum, || Out::load(p))) };
    }
}

/// The last pass where at most 8 slabs are left `step` apart: each thread
/// sums its element's slabs with `tree8` (256 columns a block,
/// [`my_rows`]) and writes `C = α·sum + β·C`. With `splits = 0` the sum is
/// 0 and nothing of the workspace is read (the α = 0 path).
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn one_level(
    slabs: Slabs,
    splits: u32,
    step: u32,
    m: u32,
    n: u32,
    row_groups: u32,
    write: impl Fn(u32, u32, f32),
) {
    let (col, row0, row_groups) = my_rows(n, row_groups);
    if col >= n {
        return;
    }
    let mut row = row0;
    while row < m {
        let e = row as u64 * n as u64 + col as u64;
        write(row, col, tree8(unsafe { slabs.group(0, step, splits, e) }));
        row += row_groups;
    }
}

/// The last pass where 9 to 64 slabs are left `step` apart: the tree's
/// last two levels, `tree8` of the `tree8`s of groups of eight, the very
/// additions a combine pass at `step` and an epilogue at `8·step` make, in
/// one launch (step 74: each launch cost 3–5 µs however small C). A block
/// covers [`TWO_LEVEL_COLUMNS`] columns; warp `g` sums group `g` (slabs
/// `8·g·step + i·step`) of each of their elements, the eight groups' sums
/// meet in shared memory, and warp 0 adds them in the tree's order and
/// writes C. Each thread waits on one group's eight loads, as in a combine
/// pass.
///
/// # Safety
/// See the entry point.
#[inline(always)]
unsafe fn two_levels(
    slabs: Slabs,
    splits: u32,
    step: u32,
    m: u32,
    n: u32,
    row_groups: u32,
    write: impl Fn(u32, u32, f32),
) {
    const COLUMNS: u32 = TWO_LEVEL_COLUMNS;
    let col_blocks = n.div_ceil(COLUMNS);
    let (lane, group) = (thread_idx() as u32 % COLUMNS, thread_idx() as u32 / COLUMNS);
    let col = (block_idx() % col_blocks) * COLUMNS + lane;
    let group_sums = SharedF32::at(0);
    let mut row = block_idx() / col_blocks;
    while row < m {
        let e = row as u64 * n as u64 + col as u64;
        if col < n {
            let sum = tree8(unsafe { slabs.group(group * FAN_IN as u32 * step, step, splits, e) });
            group_sums.store((group * COLUMNS + lane) as usize, sum);
        }
        sync_threads();
        if group == 0 && col < n {
            let sums = core::array::from_fn(|g| group_sums.load(g * COLUMNS as usize + lane as usize));
            write(row, col, tree8(sums));
        }
        // The next row's sums overwrite these.
        sync_threads();
        row += row_groups;
    }
}

/// PTX entry of [`combine`] (`gemm_launch::split_k::REDUCE_COMBINE`).
///
/// # Safety
/// `ws` holds `batch` runs of `splits` slabs of `slab` f32 each (`batch_stride`
/// f32 apart; slab `s` of a run holds a row-major `m × n`); the launch uses
/// `REDUCE_THREADS` threads, the geometry of `reduce_geometry` and
/// `combine_groups` grid rows.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn splitk_combine(
    ws: *mut f32,
    splits: u32,
    step: u32,
    slab: u64,
    batch_stride: u64,
    m: u32,
    n: u32,
    row_groups: u32,
) {
    let base = ws.wrapping_add(block_idx_z() as usize * batch_stride as usize);
    unsafe { combine(Slabs { base, slab }, splits, step, m, n, row_groups) }
}

/// Declares an epilogue entry for one element type of C: `$pass` is
/// [`one_level`] or [`two_levels`].
macro_rules! epilogue_entry {
    ($name:ident, $spec:path, $out:ty, $pass:ident, $role:pat) => {
        /// PTX entry of the last reduction pass for one element type of C.
        ///
        /// # Safety
        /// As `splitk_combine` for the workspace (unused when `splits = 0`);
        /// `c` holds `batch` row-major `m × n` matrices with leading dimension
        /// `ldc`, `stride_c` elements apart. The launch uses `REDUCE_THREADS`
        /// threads and the geometry and dynamic shared memory of
        /// `gemm_launch::split_k::epilogue_geometry` and
        /// `epilogue_smem_bytes` for this entry's levels; the two-level
        /// entry needs `8·step < splits ≤ 64·step`.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            ws: *mut f32,
            splits: u32,
            step: u32,
            slab: u64,
            batch_stride: u64,
            c: *mut $out,
            m: u32,
            n: u32,
            ldc: u32,
            alpha: f32,
            beta: f32,
            stride_c: u64,
            row_groups: u32,
        ) {
            const _: () = assert!(matches!($spec.role, $role));
            let z = block_idx_z() as usize;
            let base = ws.wrapping_add(z * batch_stride as usize);
            let c = unsafe { c.add(z * stride_c as usize) };
            let write = writer::<$out>(c, ldc, Scale { alpha, beta });
            unsafe { $pass(Slabs { base, slab }, splits, step, m, n, row_groups, write) }
        }
    };
}

epilogue_entry!(sgemm_splitk_epilogue, gemm_launch::split_k::EPILOGUE_F32, f32, one_level, ReduceRole::Epilogue);
epilogue_entry!(hgemm_splitk_epilogue, gemm_launch::split_k::EPILOGUE_F16, F16, one_level, ReduceRole::Epilogue);
epilogue_entry!(bgemm_splitk_epilogue, gemm_launch::split_k::EPILOGUE_BF16, Bf16, one_level, ReduceRole::Epilogue);
epilogue_entry!(
    sgemm_splitk_epilogue_two_levels,
    gemm_launch::split_k::TWO_LEVEL_EPILOGUE_F32,
    f32,
    two_levels,
    ReduceRole::TwoLevelEpilogue
);
epilogue_entry!(
    hgemm_splitk_epilogue_two_levels,
    gemm_launch::split_k::TWO_LEVEL_EPILOGUE_F16,
    F16,
    two_levels,
    ReduceRole::TwoLevelEpilogue
);
epilogue_entry!(
    bgemm_splitk_epilogue_two_levels,
    gemm_launch::split_k::TWO_LEVEL_EPILOGUE_BF16,
    Bf16,
    two_levels,
    ReduceRole::TwoLevelEpilogue
);
