//! The `wgmma` mainloop (CUTLASS's collective mainloop), shared by steps 9
//! and 9b: a ring of `STAGES` shared-memory stages filled by `cp.async`
//! ([`super::global_to_shared`]) and read by `wgmma`.
//!
//! Copies run `STAGES - 2` slices ahead of the multiply; the other two stages
//! are the one being multiplied and the one the previous, possibly
//! unfinished, `wgmma` group reads. One `wgmma` group stays in flight while
//! the next slice's copies are issued, so a stage is refilled only after
//! every warpgroup's group that read it has completed (the barrier at the
//! top of the next iteration).
//!
//! A kernel supplies the two things that differ, as a [`WgmmaSlices`]: how a
//! K slice is copied into a stage, and which `wgmma`s multiply it out. (A
//! trait, not closures: a closure around the mainloop once put the
//! accumulators in a stack frame.)

use super::global_to_shared::StageRing;
use crate::device::sm80::{cp_async_commit, cp_async_wait};
use crate::device::sm90a::{fence_proxy_async_shared, wgmma_commit, wgmma_fence, wgmma_wait};
use crate::device::sync_threads;

/// A kernel's part of the mainloop.
pub(crate) trait WgmmaSlices {
    /// This warpgroup's accumulators.
    type Acc;

    /// Issues this thread's `cp.async` copies of K slice `slice` into the
    /// tiles at `a_stage` and `b_stage`.
    ///
    /// # Safety
    /// The operands must be the ones the launch describes.
    unsafe fn copy(&self, slice: usize, a_stage: u32, b_stage: u32);

    /// Issues this warpgroup's `wgmma`s over the slice in the tiles at
    /// `a_stage` and `b_stage` (between `wgmma.fence` and the commit).
    ///
    /// # Safety
    /// The tiles must hold a landed slice; all 128 threads of the warpgroup
    /// must call it.
    unsafe fn multiply(&self, acc: &mut Self::Acc, a_stage: u32, b_stage: u32);
}

/// Runs the pipeline over `slices` K slices into `acc`; on return every
/// `wgmma` has completed and `acc` holds the block's sums.
///
/// # Safety
/// As [`WgmmaSlices`]; every thread of the block must call it.
#[inline(always)]
pub(crate) unsafe fn wgmma_mainloop<K: WgmmaSlices, const STAGES: usize>(
    kernel: &K,
    ring: StageRing,
    slices: usize,
    acc: &mut K::Acc,
) {
    const { assert!(STAGES >= 3 && STAGES <= 9) };
    let ahead = STAGES - 2;
    for s in 0..ahead {
        if s < slices {
            unsafe { kernel.copy(s, ring.a(s), ring.b(s)) };
        }
        cp_async_commit();
    }

    for s in 0..slices {
        cp_async_wait(ahead as u32 - 1);
        fence_proxy_async_shared();
        // Slice s is in shared memory for everyone, and every warpgroup's
        // group s-2 is done (each waited for it in iteration s-1): its stage
        // can be refilled.
        sync_threads();
        let (a_tile, b_tile) = (ring.a(s % STAGES), ring.b(s % STAGES));
        wgmma_fence();
        unsafe { kernel.multiply(acc, a_tile, b_tile) };
        wgmma_commit();
        // The copies are issued after the multiply, so the tensor cores start
        // on slice s right after the barrier.
        let next = s + ahead;
        if next < slices {
            let st = next % STAGES;
            unsafe { kernel.copy(next, ring.a(st), ring.b(st)) };
        }
        cp_async_commit();
        wgmma_wait(1);
    }
    wgmma_wait(0);
}
