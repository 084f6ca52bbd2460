//! The pieces of the vectorized kernels (steps 5 and 6), split the way CUTLASS
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

use crate::common::{Dims, a_ld, at, load_or_zero};
use crate::device::{SharedF32, fma, load_global_x4, store_global_x4};

/// What a block needs to know about its operands.
pub struct Operands {
    pub a: *const f32,
    pub b: *const f32,
    pub dims: Dims,
    pub row0: u32,
    pub col0: u32,
}

impl Operands {
    /// A's rows are 16-byte aligned (row stride K·4 bytes) iff K % 4 == 0.
    #[inline(always)]
    fn a_vectorizable(&self) -> bool {
        self.dims.k.is_multiple_of(4)
    }

    #[inline(always)]
    fn b_vectorizable(&self) -> bool {
        self.dims.n.is_multiple_of(4)
    }

    /// Four consecutive elements of a row, with one 128-bit load when they
    /// are all inside the matrix and aligned, else element by element with
    /// zero fill. The test is uniform except at the matrix edges.
    #[inline(always)]
    unsafe fn load_x4(p: *const f32, ld: u32, row: u32, col: u32, rows: u32, cols: u32, aligned: bool) -> [f32; 4] {
        if aligned && row < rows && col + 4 <= cols {
            unsafe { load_global_x4(p.add(at(row, ld, col))) }
        } else {
            core::array::from_fn(|j| unsafe { load_or_zero(p, ld, row, col + j as u32, rows, cols) })
        }
    }
}

/// One K slice of A (`BM×BK`) and B (`BK×BN`) in registers, in 4-wide chunks:
/// `LA` chunks of A and `LB` of B per thread.
pub struct SliceRegs<const LA: usize, const LB: usize> {
    a: [[f32; 4]; LA],
    b: [[f32; 4]; LB],
}

impl<const LA: usize, const LB: usize> SliceRegs<LA, LB> {
    /// Issues the global loads of the slice starting at `k0`. Chunk `i` of A
    /// is row `i / (BK/4)`; consecutive threads read consecutive 16-byte
    /// pieces of a row of B, and of A as far as BK allows.
    #[inline(always)]
    pub unsafe fn load<const BM: usize, const BN: usize, const BK: usize, const THREADS: usize>(
        ops: &Operands,
        k0: u32,
        t: usize,
    ) -> Self {
        const { assert!(LA * 4 * THREADS == BM * BK && LB * 4 * THREADS == BK * BN) };
        let Dims { m, n, k } = ops.dims;
        let (a_ok, b_ok) = (ops.a_vectorizable(), ops.b_vectorizable());
        SliceRegs {
            a: core::array::from_fn(|l| {
                let i = t + l * THREADS;
                let (r, c4) = (i / (BK / 4), (i % (BK / 4)) * 4);
                unsafe { Operands::load_x4(ops.a, k, ops.row0 + r as u32, k0 + c4 as u32, m, k, a_ok) }
            }),
            b: core::array::from_fn(|l| {
                let i = t + l * THREADS;
                let (r, c4) = (i / (BN / 4), (i % (BN / 4)) * 4);
                unsafe { Operands::load_x4(ops.b, n, k0 + r as u32, ops.col0 + c4 as u32, k, n, b_ok) }
            }),
        }
    }

    /// Writes the slice into one shared-memory stage, A transposed.
    #[inline(always)]
    pub fn store<const BM: usize, const BN: usize, const BK: usize, const THREADS: usize>(
        &self,
        a_tile: SharedF32,
        b_tile: SharedF32,
        t: usize,
    ) {
        for (l, chunk) in self.a.iter().enumerate() {
            let i = t + l * THREADS;
            let (r, c4) = (i / (BK / 4), (i % (BK / 4)) * 4);
            for (j, v) in chunk.iter().enumerate() {
                a_tile.store((c4 + j) * a_ld::<BM>() + r, *v);
            }
        }
        for (l, chunk) in self.b.iter().enumerate() {
            let i = t + l * THREADS;
            b_tile.store_x4(i * 4, *chunk);
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

/// Epilogue: writes the accumulators to C, 16 bytes at a time where the four
/// columns are inside C and aligned, element by element at the edges.
#[inline(always)]
pub unsafe fn store_c<const BM: usize, const BN: usize, const TM: usize, const TN: usize>(
    c: *mut f32,
    ops: &Operands,
    me: ThreadTile,
    acc: &[[f32; TN]; TM],
) {
    let Dims { m, n, .. } = ops.dims;
    for (i, acc_row) in acc.iter().enumerate() {
        let row = ops.row0 + me.row::<BM, TM>(i) as u32;
        if row >= m {
            continue;
        }
        for cc in 0..TN / 4 {
            let col = ops.col0 + me.col::<BN, TN>(cc) as u32;
            let v = [acc_row[cc * 4], acc_row[cc * 4 + 1], acc_row[cc * 4 + 2], acc_row[cc * 4 + 3]];
            if n.is_multiple_of(4) && col + 4 <= n {
                unsafe { store_global_x4(c.add(at(row, n, col)), v) };
            } else {
                for (j, x) in v.iter().enumerate() {
                    let col = col + j as u32;
                    if col < n {
                        unsafe { *c.add(at(row, n, col)) = *x };
                    }
                }
            }
        }
    }
}
