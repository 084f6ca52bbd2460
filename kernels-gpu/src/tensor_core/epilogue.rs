//! Epilogue (CUTLASS's collective epilogue): writing the accumulators to C
//! as `α·acc + β·C`, for the 16-bit tensor-core kernels (steps 8 and 9).
//! Their accumulators share `mma.sync`'s C layout (a `wgmma` tile is that
//! layout repeated), so one piece serves both. Pairs are rounded to the
//! output type (`cvt.rn.{f16x2,bf16x2}.f32`), then either stored 4 bytes at a
//! time (direct) or staged as a C tile in shared memory and written out with
//! coalesced 16-byte stores (staged). C is read only when β ≠ 0.

use super::MmaElement;
use crate::device::sm80::cp_async_wait;
use crate::device::{load_shared_x4_b32, smem_addr, store_global_x4_b32, store_shared_b32, sync_threads};
use crate::kernel_abi::Gemm;

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
pub(crate) unsafe fn store_c_staged<
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
