//! The `mma.sync` mainloop (CUTLASS's multistage collective mainloop),
//! shared by steps 8 and 8b: a ring of `STAGES` shared-memory stages filled
//! by `cp.async` ([`super::global_to_shared`]) `STAGES - 1` slices ahead of
//! the multiply.
//!
//! Each K slice: wait until the oldest copy group has landed, then one
//! block-wide barrier, which both publishes that slice to every warp and
//! tells every thread that all warps are done with the stage it is about to
//! refill (the one multiplied in the previous iteration); issue the copies
//! of the slice `STAGES - 1` ahead; multiply. A commit per iteration, even
//! an empty one, keeps the group count the wait relies on.
//!
//! A kernel supplies the two things that differ, as an [`MmaSlices`]: how a
//! K slice is copied into a stage, and how a stage is multiplied out. (A
//! trait, not closures, as for [`super::wgmma_mainloop`].)
//!
//! Step 8 runs on it: its SASS kept the same instructions, only registers
//! and order moved. Step 8b (`mma_tf32.rs`) keeps its own copy of the loop:
//! moved onto this one, its 128×128 tile, at 254 of 255 registers on sm_90,
//! tipped to 255 with 52 bytes of spills, although LLVM's output differed
//! only in the order of a few address computations.

use super::global_to_shared::StageRing;
use crate::device::sm80::{cp_async_commit, cp_async_wait};
use crate::device::sync_threads;

/// A kernel's part of the mainloop.
pub(crate) trait MmaSlices {
    /// This thread's accumulators.
    type Acc;

    /// Issues this thread's `cp.async` copies of K slice `slice` into the
    /// tiles at `a_stage` and `b_stage`.
    ///
    /// # Safety
    /// The operands must be the ones the launch describes.
    unsafe fn copy(&self, slice: usize, a_stage: u32, b_stage: u32);

    /// Multiplies the slice in the tiles at `a_tile` and `b_tile` into `acc`.
    ///
    /// # Safety
    /// The tiles must hold a landed slice.
    unsafe fn multiply(&self, acc: &mut Self::Acc, a_tile: u32, b_tile: u32);
}

/// Runs the pipeline over `slices` K slices into `acc`.
///
/// # Safety
/// As [`MmaSlices`]; every thread of the block must call it.
#[inline(always)]
pub(crate) unsafe fn cp_async_mainloop<K: MmaSlices, const STAGES: usize>(
    kernel: &K,
    ring: StageRing,
    slices: usize,
    acc: &mut K::Acc,
) {
    const { assert!(STAGES >= 2 && STAGES <= 9) };
    for s in 0..STAGES - 1 {
        if s < slices {
            unsafe { kernel.copy(s, ring.a(s), ring.b(s)) };
        }
        cp_async_commit();
    }

    for s in 0..slices {
        cp_async_wait(STAGES as u32 - 2);
        sync_threads();
        let next = s + STAGES - 1;
        if next < slices {
            let st = next % STAGES;
            unsafe { kernel.copy(next, ring.a(st), ring.b(st)) };
        }
        cp_async_commit();
        let (a_tile, b_tile) = (ring.a(s % STAGES), ring.b(s % STAGES));
        unsafe { kernel.multiply(acc, a_tile, b_tile) };
    }
}
