//! The sm_80 (Ampere) instructions of the device layer: asynchronous copies
//! (`cp.async`), `ldmatrix`, warp-wide tensor-core multiplies (`mma.sync`) and
//! the conversions around them (f16/bf16 packing, TF32 rounding). Every GPU
//! from Ampere on runs them, Hopper included; like `device/mod.rs`, this is
//! the only place they appear, each behind a wrapper that names its PTX.

use core::arch::asm;

/// `cp.async.ca.shared.global [dst], [src], 4, src_bytes;`: copies one f32
/// from global to shared memory without passing through registers (cached in
/// L1). `src_bytes = 0` writes a zero instead and reads nothing: the edge mask.
///
/// # Safety
/// With `src_bytes = 4`, `src` must be readable global memory; `dst` must be a
/// 4-byte aligned shared address.
#[inline(always)]
pub unsafe fn cp_async_4(dst: u32, src: *const f32, src_bytes: u32) {
    unsafe {
        asm!("cp.async.ca.shared.global [{d}], [{s}], 4, {n};",
             d = in(reg32) dst, s = in(reg64) src, n = in(reg32) src_bytes,
             options(nostack));
    }
}

/// `cp.async.cg.shared.global [dst], [src], 16;`: copies 16 bytes from global
/// to shared memory without registers, bypassing L1 (each is used once).
///
/// # Safety
/// `src` must be 16 readable, 16-byte aligned bytes of global memory; `dst` a
/// 16-byte aligned shared address.
#[inline(always)]
pub unsafe fn cp_async_16(dst: u32, src: *const f32) {
    unsafe {
        asm!("cp.async.cg.shared.global [{d}], [{s}], 16;",
             d = in(reg32) dst, s = in(reg64) src,
             options(nostack));
    }
}

/// `cp.async.commit_group;`: closes the group of this thread's `cp.async`
/// issued since the last commit.
#[inline(always)]
pub fn cp_async_commit() {
    unsafe { asm!("cp.async.commit_group;", options(nostack)) }
}

/// `cp.async.wait_group N;`: waits until at most `pending` of this thread's
/// committed groups are still in flight. Other threads' copies become visible
/// only after a following barrier. The count must be an immediate in PTX; with
/// a constant argument the match folds to the one instruction.
#[inline(always)]
pub fn cp_async_wait(pending: u32) {
    macro_rules! wait {
        ($n:literal) => {
            unsafe { asm!(concat!("cp.async.wait_group ", $n, ";"), options(nostack)) }
        };
    }
    match pending {
        0 => wait!(0),
        1 => wait!(1),
        2 => wait!(2),
        3 => wait!(3),
        4 => wait!(4),
        5 => wait!(5),
        6 => wait!(6),
        _ => wait!(7),
    }
}

/// `cp.async.cg.shared.global [dst], [src], 16, src_bytes;`: as
/// [`cp_async_16`], but copies only `src_bytes` (0 or 16) and zero-fills the
/// rest: the edge mask for tiles that overhang the matrix. (With a count
/// between the two, compute-sanitizer's memcheck reports a 16-byte read
/// past the end of the source: PERF.md step 72.)
///
/// # Safety
/// With `src_bytes = 16`, as [`cp_async_16`]; `dst` 16-byte aligned.
#[inline(always)]
pub unsafe fn cp_async_16_or_zero<T>(dst: u32, src: *const T, src_bytes: u32) {
    unsafe {
        asm!("cp.async.cg.shared.global [{d}], [{s}], 16, {n};",
             d = in(reg32) dst, s = in(reg64) src, n = in(reg32) src_bytes,
             options(nostack));
    }
}

/// `ldmatrix.sync.aligned.m8n8.x4.shared.b16`: four 8×8 matrices of 16-bit
/// elements from shared memory, in the register layout of an `mma` operand.
/// Lane `i` gives the address of row `i % 8` of matrix `i / 8`; register `j`
/// of every lane receives its part of matrix `j`.
#[inline(always)]
pub fn ldmatrix_x4(row_addr: u32) -> [u32; 4] {
    let (a, b, c, d): (u32, u32, u32, u32);
    unsafe {
        asm!("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{a}, {b}, {c}, {d}}}, [{p}];",
             a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d, p = in(reg32) row_addr,
             options(readonly, nostack));
    }
    [a, b, c, d]
}

/// `ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16`: as [`ldmatrix_x4`], each
/// 8×8 matrix transposed: loads the column-major B operand of `mma` from a
/// row-major `[k][n]` tile.
#[inline(always)]
pub fn ldmatrix_x4_trans(row_addr: u32) -> [u32; 4] {
    let (a, b, c, d): (u32, u32, u32, u32);
    unsafe {
        asm!("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{a}, {b}, {c}, {d}}}, [{p}];",
             a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d, p = in(reg32) row_addr,
             options(readonly, nostack));
    }
    [a, b, c, d]
}

macro_rules! mma_m16n8k16 {
    ($(#[$doc:meta])* $name:ident, $ty:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
            let (d0, d1, d2, d3): (f32, f32, f32, f32);
            unsafe {
                asm!(concat!("mma.sync.aligned.m16n8k16.row.col.f32.", $ty, ".", $ty, ".f32 ",
                             "{{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, ",
                             "{{{c0}, {c1}, {c2}, {c3}}};"),
                     d0 = out(reg32) d0, d1 = out(reg32) d1, d2 = out(reg32) d2, d3 = out(reg32) d3,
                     a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
                     b0 = in(reg32) b[0], b1 = in(reg32) b[1],
                     c0 = in(reg32) c[0], c1 = in(reg32) c[1], c2 = in(reg32) c[2], c3 = in(reg32) c[3],
                     options(pure, nomem, nostack));
            }
            [d0, d1, d2, d3]
        }
    };
}

mma_m16n8k16!(
    /// `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`: `D = A·B + C` for
    /// a 16×16 f16 tile of A (4 registers of f16 pairs), a 16×8 tile of B (2)
    /// and a 16×8 f32 accumulator (4), across the warp.
    mma_m16n8k16_f16,
    "f16"
);
mma_m16n8k16!(
    /// `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`: as
    /// [`mma_m16n8k16_f16`] with bf16 operands.
    mma_m16n8k16_bf16,
    "bf16"
);

/// `cvt.rn.f16x2.f32 d, hi, lo;`: two f32 rounded to f16, packed (`lo` in the
/// low half, the lower address when stored).
#[inline(always)]
pub fn pack_f16x2(lo: f32, hi: f32) -> u32 {
    let d: u32;
    unsafe {
        asm!("cvt.rn.f16x2.f32 {d}, {hi}, {lo};", d = out(reg32) d, hi = in(reg32) hi, lo = in(reg32) lo,
             options(pure, nomem, nostack));
    }
    d
}

/// `cvt.rn.bf16x2.f32 d, hi, lo;`: as [`pack_f16x2`] for bf16.
#[inline(always)]
pub fn pack_bf16x2(lo: f32, hi: f32) -> u32 {
    let d: u32;
    unsafe {
        asm!("cvt.rn.bf16x2.f32 {d}, {hi}, {lo};", d = out(reg32) d, hi = in(reg32) hi, lo = in(reg32) lo,
             options(pure, nomem, nostack));
    }
    d
}

/// `mov.b32 {lo, hi}, v; cvt.f32.f16 …`: the two f16 packed in `v` (low half
/// first), widened exactly to f32. Used by the epilogue to read C when β ≠ 0.
#[inline(always)]
pub fn unpack_f16x2(v: u32) -> [f32; 2] {
    let (lo, hi): (f32, f32);
    unsafe {
        asm!("{{ .reg .b16 l, h; mov.b32 {{l, h}}, {v}; cvt.f32.f16 {lo}, l; cvt.f32.f16 {hi}, h; }}",
             v = in(reg32) v, lo = out(reg32) lo, hi = out(reg32) hi, options(pure, nomem, nostack));
    }
    [lo, hi]
}

/// The two bf16 packed in `v` (low half first), widened exactly to f32: a
/// bf16 is the high half of an f32, so this is two shifts (no instruction of
/// its own is needed).
#[inline(always)]
pub fn unpack_bf16x2(v: u32) -> [f32; 2] {
    [f32::from_bits(v << 16), f32::from_bits(v & 0xffff_0000)]
}

/// `cvt.rna.tf32.f32 d, a;`: rounds f32 (given as its bits) to TF32, to
/// nearest with ties away from zero, as the tensor cores' TF32 mode expects.
#[inline(always)]
pub fn to_tf32(f32_bits: u32) -> u32 {
    let d: u32;
    unsafe {
        asm!("cvt.rna.tf32.f32 {d}, {a};", d = out(reg32) d, a = in(reg32) f32_bits, options(pure, nomem, nostack));
    }
    d
}

/// `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`: `D = A·B + C` for a
/// 16×8 TF32 tile of A (4 registers), an 8×8 tile of B (2) and a 16×8 f32
/// accumulator (4), across the warp.
#[inline(always)]
pub fn mma_m16n8k8_tf32(a: [u32; 4], b: [u32; 2], c: [f32; 4]) -> [f32; 4] {
    let (d0, d1, d2, d3): (f32, f32, f32, f32);
    unsafe {
        asm!("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {{{d0}, {d1}, {d2}, {d3}}}, {{{a0}, {a1}, {a2}, {a3}}}, {{{b0}, {b1}}}, {{{c0}, {c1}, {c2}, {c3}}};",
             d0 = out(reg32) d0, d1 = out(reg32) d1, d2 = out(reg32) d2, d3 = out(reg32) d3,
             a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
             b0 = in(reg32) b[0], b1 = in(reg32) b[1],
             c0 = in(reg32) c[0], c1 = in(reg32) c[1], c2 = in(reg32) c[2], c3 = in(reg32) c[3],
             options(pure, nomem, nostack));
    }
    [d0, d1, d2, d3]
}
