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
use crate::device::{smem_addr, sync_threads, trap};

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

/// A skinny tile's part of the realigning mainloop (step 72): its large
/// operand's runs start off 16 bytes, so its slices land as granules
/// (`global_to_shared::copy_granules`) and are shifted into a tile of
/// their own before the multiply.
pub(crate) trait RealigningSlices: MmaSlices {
    /// Issues this thread's copies of K slice `slice`: the large operand's
    /// granules into `granules`, the small operand's tile into `tile`.
    ///
    /// # Safety
    /// As [`MmaSlices::copy`].
    unsafe fn copy_granules(&self, slice: usize, granules: u32, tile: u32);

    /// Shifts this thread's chunks of slice `slice` from its landed
    /// granules at `granules` into the realigned tile at `realigned`.
    ///
    /// # Safety
    /// The granules must have landed and be visible to the block.
    unsafe fn realign(&self, slice: usize, granules: u32, realigned: u32);

    /// The (A, B) tiles the multiply reads: the realigned tile and the
    /// stage's tile of the small operand, each in its operand's place.
    fn tiles(&self, realigned: u32, tile: u32) -> (u32, u32);
}

/// Where the realigning mainloop's stages and its two realigned tiles lie
/// in dynamic shared memory (sizes from `gemm_launch::SkinnyRealign`).
#[derive(Clone, Copy)]
pub(crate) struct RealignRing {
    pub layout: gemm_launch::SkinnyRealign,
    pub stages: usize,
}

impl RealignRing {
    /// Stage `s`'s granules and its small operand's tile.
    #[inline(always)]
    fn stage(self, s: usize) -> (u32, u32) {
        let at = s * self.layout.stage_bytes as usize;
        (smem_addr(at), smem_addr(at + self.layout.granule_bytes as usize))
    }

    /// Realigned tile `i` (0 or 1).
    #[inline(always)]
    fn realigned(self, i: usize) -> u32 {
        smem_addr(self.stages * self.layout.stage_bytes as usize + i * self.layout.tile_bytes as usize)
    }
}

/// The pipeline of [`cp_async_mainloop`] for a large operand whose runs
/// start off 16 bytes, realigning each slice one slice ahead of its
/// multiply, so that one barrier per slice still serves. Slice 0 is
/// realigned before the loop. Each K slice `s`: wait until slice `s + 1`
/// has landed; a barrier, after which its granules and realigned tile
/// `s % 2` (written one slice earlier) are visible, and every warp is done
/// with slice `s - 1`: its stage, refilled now with the slice `STAGES - 1`
/// ahead, and its realigned tile `(s + 1) % 2`, into which this thread
/// shifts its chunks of slice `s + 1`; then the multiply of slice `s`.
///
/// # Safety
/// As [`RealigningSlices`]; every thread of the block must call it, and
/// `STAGES` must be at least 3 (fewer traps: the loop waits on the slice
/// after the one it multiplies).
#[inline(always)]
pub(crate) unsafe fn realigning_mainloop<K: RealigningSlices, const STAGES: usize>(
    kernel: &K,
    ring: RealignRing,
    slices: usize,
    acc: &mut K::Acc,
) {
    // Not a const assertion: every `mma.sync` kernel instantiates this loop,
    // and only the skinny ones (8 stages) run it.
    const { assert!(STAGES <= 9) };
    if STAGES < 3 {
        trap();
    }
    for s in 0..STAGES - 1 {
        if s < slices {
            let (granules, tile) = ring.stage(s);
            unsafe { kernel.copy_granules(s, granules, tile) };
        }
        cp_async_commit();
    }
    cp_async_wait(STAGES as u32 - 2);
    sync_threads();
    if slices > 0 {
        unsafe { kernel.realign(0, ring.stage(0).0, ring.realigned(0)) };
    }

    for s in 0..slices {
        cp_async_wait(STAGES.saturating_sub(3) as u32);
        sync_threads();
        let next = s + STAGES - 1;
        if next < slices {
            let (granules, tile) = ring.stage(next % STAGES);
            unsafe { kernel.copy_granules(next, granules, tile) };
        }
        cp_async_commit();
        if s + 1 < slices {
            let granules = ring.stage((s + 1) % STAGES).0;
            unsafe { kernel.realign(s + 1, granules, ring.realigned((s + 1) % 2)) };
        }
        let (a_tile, b_tile) = kernel.tiles(ring.realigned(s % 2), ring.stage(s % STAGES).1);
        unsafe { kernel.multiply(acc, a_tile, b_tile) };
    }
}
