//! The pieces of the vectorized kernels (steps 5, 6, 7 and 7b), split the way CUTLASS
//! splits a GEMM: moving one K slice of A and B from global memory to shared
//! memory (through registers, 16 bytes at a time), multiplying one slice out
//! of shared memory into register accumulators (the mainloop body), and
//! writing the accumulators to C (the epilogue).
//!
//! Shared-memory layout of one stage: A transposed, `[BK][BM + pad]` (see
//! `gemm_launch::A_SMEM_PAD`), then B,
//! `[BK][BN]`. With A transposed, a thread's TM values of A for one k are
//! contiguous, so both operands are read with 128-bit loads.
//!
//! Thread layout: thread (ty, tx) owns TM/4 chunks of 4 rows, `BM/(TM/4)`
//! apart, and TN/4 chunks of 4 columns, `BN/(TN/4)` apart. In one quarter-warp
//! (the 8 threads a 128-bit shared load serves at once) tx runs over 8
//! consecutive values, so B reads cover 32 consecutive words: no bank
//! conflicts; ty is the same, so A reads are broadcasts.

use crate::device::{SharedF32, fma, load_global_x4, store_global_x4};
use crate::kernel_abi::Gemm;
use gemm_launch::Tile;

/// Where each stage's A and B slices live in dynamic shared memory. The sizes
/// come from `gemm_launch::Tile`, as does the launch's shared-memory request.
pub struct Stages {
    a_bytes: usize,
    stage_bytes: usize,
}

impl Stages {
    #[inline(always)]
    pub const fn of<const BM: usize, const BN: usize, const BK: usize>() -> Self {
        let tile = Tile { bm: BM as u32, bn: BN as u32, bk: BK as u32, tm: 1, tn: 1 };
        Stages { a_bytes: tile.a_smem_bytes() as usize, stage_bytes: tile.stage_bytes() as usize }
    }

    /// Bytes of one stage (A's and B's slices).
    #[inline(always)]
    pub const fn bytes_per_stage<const BM: usize, const BN: usize, const BK: usize>() -> usize {
        Self::of::<BM, BN, BK>().stage_bytes
    }

    /// The A slice of `stage`.
    #[inline(always)]
    pub fn a(&self, stage: usize) -> SharedF32 {
        SharedF32::at(stage * self.stage_bytes)
    }

    /// The B slice of `stage`.
    #[inline(always)]
    pub fn b(&self, stage: usize) -> SharedF32 {
        SharedF32::at(stage * self.stage_bytes + self.a_bytes)
    }
}

/// Leading dimension of the transposed A slice for a block tile of BM rows.
#[inline(always)]
pub const fn a_ld<const BM: usize>() -> usize {
    gemm_launch::a_smem_ld(BM as u32) as usize
}

/// What a block needs to know about its operands: the problem, where its C
/// tile starts, and whether A and B can be moved 16 bytes at a time.
pub struct Operands {
    pub p: Gemm<f32, f32>,
    pub row0: u32,
    pub col0: u32,
    a_aligned: bool,
    b_aligned: bool,
}

impl Operands {
    #[inline(always)]
    pub fn new(p: Gemm<f32, f32>, row0: u32, col0: u32) -> Self {
        let (a_aligned, b_aligned) = (p.a_aligned(), p.b_aligned());
        Operands { p, row0, col0, a_aligned, b_aligned }
    }

    /// Whether the block's whole `BM × BN` tile of C lies inside C and A and
    /// B can be moved 16 bytes at a time: then every K slice that ends
    /// inside K can be loaded unchecked ([`SliceRegs::load`]). Uniform.
    #[inline(always)]
    pub fn interior<const BM: usize, const BN: usize>(&self) -> bool {
        self.a_aligned && self.b_aligned && self.row0 + BM as u32 <= self.p.m && self.col0 + BN as u32 <= self.p.n
    }

    /// Four consecutive elements of a run (a row of a row-major matrix, a
    /// column of a column-major one: `outer` picks the run, `inner` the first
    /// element), with one 128-bit load when they are all inside the matrix
    /// and aligned, else element by element with zero fill. The test is
    /// uniform except at the matrix edges.
    /// `CHECKED = false`: the caller knows the four are inside and aligned
    /// ([`Operands::interior`]), so one 128-bit load with no test.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn load_x4<const CHECKED: bool>(
        base: *const f32,
        ld: u32,
        outer: u32,
        inner: u32,
        outer_len: u32,
        inner_len: u32,
        aligned: bool,
    ) -> [f32; 4] {
        let at = |j: u32| crate::kernel_abi::at(outer, ld, inner + j);
        if !CHECKED || (aligned && outer < outer_len && inner + 4 <= inner_len) {
            unsafe { load_global_x4(base.add(at(0))) }
        } else {
            core::array::from_fn(|j| {
                let j = j as u32;
                if outer < outer_len && inner + j < inner_len { unsafe { *base.add(at(j)) } } else { 0.0 }
            })
        }
    }
}

/// One K slice of A (`BM×BK`) and B (`BK×BN`) in registers, in 4-wide chunks
/// along each operand's contiguous dimension: `LA` chunks of A and `LB` of B
/// per thread.
pub struct SliceRegs<const LA: usize, const LB: usize> {
    a: [[f32; 4]; LA],
    b: [[f32; 4]; LB],
}

/// Chunk `i` of a slice whose contiguous runs are `run` elements long:
/// (which run, first element in it). Consecutive threads take consecutive
/// 16-byte pieces of a run, so global reads are coalesced.
#[inline(always)]
fn chunk(i: usize, run: usize) -> (usize, usize) {
    (i / (run / 4), (i % (run / 4)) * 4)
}

impl<const LA: usize, const LB: usize> SliceRegs<LA, LB> {
    /// Issues the global loads of the slice starting at `k0`. A's runs are
    /// its rows (K) or, column-major (`A_T`), its columns (M); B's are its
    /// rows (N) or columns (K, `B_T`). `CHECKED = false` for a slice wholly
    /// inside A and B with aligned rows ([`Operands::interior`] and
    /// `k0 + BK ≤ k`): one 128-bit load per chunk, no bounds tests and no
    /// branches.
    #[inline(always)]
    pub unsafe fn load<
        const BM: usize,
        const BN: usize,
        const BK: usize,
        const THREADS: usize,
        const A_T: bool,
        const B_T: bool,
        const CHECKED: bool,
    >(
        ops: &Operands,
        k0: u32,
        t: usize,
    ) -> Self {
        const { assert!(LA * 4 * THREADS == BM * BK && LB * 4 * THREADS == BK * BN) };
        let Gemm { a, b, m, n, k, lda, ldb, .. } = ops.p;
        let (row0, col0) = (ops.row0, ops.col0);
        let load_x4 = Operands::load_x4::<CHECKED>;
        SliceRegs {
            a: core::array::from_fn(|l| {
                let i = t + l * THREADS;
                unsafe {
                    if A_T {
                        let (kr, m4) = chunk(i, BM);
                        load_x4(a, lda, k0 + kr as u32, row0 + m4 as u32, k, m, ops.a_aligned)
                    } else {
                        let (r, k4) = chunk(i, BK);
                        load_x4(a, lda, row0 + r as u32, k0 + k4 as u32, m, k, ops.a_aligned)
                    }
                }
            }),
            b: core::array::from_fn(|l| {
                let i = t + l * THREADS;
                unsafe {
                    if B_T {
                        let (c, k4) = chunk(i, BK);
                        load_x4(b, ldb, col0 + c as u32, k0 + k4 as u32, n, k, ops.b_aligned)
                    } else {
                        let (kr, n4) = chunk(i, BN);
                        load_x4(b, ldb, k0 + kr as u32, col0 + n4 as u32, k, n, ops.b_aligned)
                    }
                }
            }),
        }
    }

    /// Writes the slice into one shared-memory stage: A transposed
    /// (`[BK][BM + pad]`) and B as `[BK][BN]`, whatever their layout in
    /// global memory. A chunk that runs along K is scattered over 4 rows;
    /// one that runs along M or N is one 128-bit store.
    #[inline(always)]
    pub fn store<
        const BM: usize,
        const BN: usize,
        const BK: usize,
        const THREADS: usize,
        const A_T: bool,
        const B_T: bool,
    >(
        &self,
        a_tile: SharedF32,
        b_tile: SharedF32,
        t: usize,
    ) {
        for (l, values) in self.a.iter().enumerate() {
            let i = t + l * THREADS;
            if A_T {
                let (kr, m4) = chunk(i, BM);
                a_tile.store_x4(kr * a_ld::<BM>() + m4, *values);
            } else {
                let (r, k4) = chunk(i, BK);
                for (j, v) in values.iter().enumerate() {
                    a_tile.store((k4 + j) * a_ld::<BM>() + r, *v);
                }
            }
        }
        for (l, values) in self.b.iter().enumerate() {
            let i = t + l * THREADS;
            if B_T {
                let (c, k4) = chunk(i, BK);
                for (j, v) in values.iter().enumerate() {
                    b_tile.store((k4 + j) * BN + c, *v);
                }
            } else {
                b_tile.store_x4(i * 4, *values);
            }
        }
    }
}

/// The thread's place in the block tile (see the module comment).
#[derive(Clone, Copy)]
pub struct ThreadTile {
    pub ty: usize,
    pub tx: usize,
}

impl ThreadTile {
    #[inline(always)]
    pub fn new<const BN: usize, const TN: usize>(t: usize) -> Self {
        ThreadTile { ty: t / (BN / TN), tx: t % (BN / TN) }
    }

    /// Row (within the block tile) of the thread's accumulator row `i`.
    #[inline(always)]
    fn row<const BM: usize, const TM: usize>(self, i: usize) -> usize {
        (i / 4) * (BM / (TM / 4)) + self.ty * 4 + i % 4
    }

    /// First column (within the block tile) of the thread's column chunk `cc`.
    #[inline(always)]
    fn col<const BN: usize, const TN: usize>(self, cc: usize) -> usize {
        cc * (BN / (TN / 4)) + self.tx * 4
    }
}

/// Mainloop body: `acc += A_slice · B_slice` for one staged K slice, as BK
/// outer products of TM values of A and TN values of B held in registers.
#[inline(always)]
pub fn multiply_slice<const BM: usize, const BN: usize, const BK: usize, const TM: usize, const TN: usize>(
    a_tile: SharedF32,
    b_tile: SharedF32,
    me: ThreadTile,
    acc: &mut [[f32; TN]; TM],
) {
    const {
        assert!(
            TM.is_multiple_of(4) && TN.is_multiple_of(4) && BN / TN >= 8,
            "4-wide chunks; 8 threads per row for conflict-free reads"
        )
    };
    let mut a_reg = [0.0f32; TM];
    let mut b_reg = [0.0f32; TN];
    for p in 0..BK {
        for rc in 0..TM / 4 {
            a_reg[rc * 4..rc * 4 + 4].copy_from_slice(&a_tile.load_x4(p * a_ld::<BM>() + me.row::<BM, TM>(rc * 4)));
        }
        for cc in 0..TN / 4 {
            b_reg[cc * 4..cc * 4 + 4].copy_from_slice(&b_tile.load_x4(p * BN + me.col::<BN, TN>(cc)));
        }
        for i in 0..TM {
            for j in 0..TN {
                acc[i][j] = fma(a_reg[i], b_reg[j], acc[i][j]);
            }
        }
    }
}

/// Epilogue: writes `α·acc + β·C` to C, 16 bytes at a time where the four
/// columns are inside C and aligned, element by element at the edges.
#[inline(always)]
pub unsafe fn store_c<const BM: usize, const BN: usize, const TM: usize, const TN: usize>(
    ops: &Operands,
    me: ThreadTile,
    acc: &[[f32; TN]; TM],
) {
    unsafe { store_c_at(ops, |i| me.row::<BM, TM>(i), |cc| me.col::<BN, TN>(cc), acc) }
}

/// [`store_c`] for any placement of the thread's outputs in the block tile:
/// accumulator row `i` is block-tile row `row(i)`, and its 4-column chunk
/// `cc` starts at block-tile column `col(cc)`.
#[inline(always)]
pub unsafe fn store_c_at<const TM: usize, const TN: usize>(
    ops: &Operands,
    row: impl Fn(usize) -> usize,
    col: impl Fn(usize) -> usize,
    acc: &[[f32; TN]; TM],
) {
    let p = &ops.p;
    let aligned = p.c_aligned();
    for (i, acc_row) in acc.iter().enumerate() {
        let row = ops.row0 + row(i) as u32;
        if row >= p.m {
            continue;
        }
        for cc in 0..TN / 4 {
            let col = ops.col0 + col(cc) as u32;
            let v: [f32; 4] = core::array::from_fn(|j| acc_row[cc * 4 + j]);
            if aligned && col + 4 <= p.n {
                let dst = unsafe { p.c.add(p.c_at(row, col)) };
                let old = if p.scale.reads_c() { unsafe { load_global_x4(dst) } } else { [0.0; 4] };
                let out = core::array::from_fn(|j| p.scale.apply(v[j], || old[j]));
                unsafe { store_global_x4(dst, out) };
            } else {
                for (j, x) in v.iter().enumerate() {
                    unsafe { p.store_c(row, col + j as u32, *x) };
                }
            }
        }
    }
}
