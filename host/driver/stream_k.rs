//! Stream-K's workspace (step 10e, `gemm_launch::stream_k`): the partial
//! sums the blocks of a launch hand each other, and their flags. `Gpu` owns
//! one, allocated by the first call that shares tiles out and kept: a slot
//! of the largest stream-K tile per SM ([`Gpu::stream_k_workspace_bytes`];
//! a launch's blocks times its batch never exceed the SMs), and the flags,
//! zeroed once (every launch leaves them zero). Where it cannot be
//! allocated, the call runs data-parallel, as correct and only slower.

use crate::driver::error::{During, GemmError, Result};
use crate::driver::gpu::Gpu;
use cust::memory::DeviceBuffer;
use gemm_launch::stream_k;

/// The partial sums' slots and the flags.
pub(crate) struct StreamKWorkspace {
    partials: DeviceBuffer<f32>,
    flags: DeviceBuffer<u32>,
}

impl Gpu {
    /// Bytes of this GPU's stream-K workspace: 128 KiB (one 128×256 f32
    /// tile) per SM and 32 bytes of flags per SM. Counted by
    /// [`Gpu::workspace_bytes`] once allocated, freed by
    /// [`Gpu::release_workspace`].
    pub fn stream_k_workspace_bytes(&self) -> u64 {
        let (partial_bytes, flag_words) = self.stream_k_sizes();
        partial_bytes + flag_words * 4
    }

    /// Bytes of the partial sums' slots and words of flags: one slot (and a
    /// flag per consumer warp) for each SM, which a launch's blocks times
    /// its batch never exceed.
    fn stream_k_sizes(&self) -> (u64, u64) {
        let sms = self.info.multiprocessors as u32;
        (
            stream_k::slots(sms, 1) * stream_k::max_slot_bytes(),
            stream_k::flag_words(sms, 1, stream_k::max_consumer_warps()),
        )
    }

    /// Runs `enqueue` with the addresses of the stream-K partials and flags
    /// (allocating them the first time), or with `None` when `wanted` is
    /// false or they cannot be allocated. `enqueue` runs under the
    /// workspace's lock, so it is not freed before the launch is queued.
    pub(crate) fn with_stream_k<R>(
        &self,
        wanted: bool,
        enqueue: impl FnOnce(Option<(u64, u64)>) -> Result<R>,
    ) -> Result<R> {
        if !wanted {
            return enqueue(None);
        }
        let mut held = self.stream_k.lock().unwrap_or_else(|e| e.into_inner());
        if held.is_none() {
            match self.allocate_stream_k() {
                Ok(workspace) => *held = Some(workspace),
                Err(GemmError::OutOfMemory { .. }) => return enqueue(None),
                Err(e) => return Err(e),
            }
        }
        let workspace = held.as_ref().map(|w| (w.partials.as_device_ptr().as_raw(), w.flags.as_device_ptr().as_raw()));
        enqueue(workspace)
    }

    fn allocate_stream_k(&self) -> Result<StreamKWorkspace> {
        let (partial_bytes, flag_words) = self.stream_k_sizes();
        self.ensure_free(partial_bytes + flag_words * 4)?;
        let partials = unsafe { DeviceBuffer::<f32>::uninitialized(partial_bytes as usize / 4) }
            .map_err(|e| self.alloc_error(e, partial_bytes))?;
        let flags =
            DeviceBuffer::<u32>::zeroed(flag_words as usize).map_err(|e| self.alloc_error(e, flag_words * 4))?;
        // `zeroed` ran on the legacy stream, the kernels run on ours.
        cust::context::CurrentContext::synchronize().during("stream-K workspace")?;
        Ok(StreamKWorkspace { partials, flags })
    }

    /// Bytes of the stream-K workspace held now.
    pub(crate) fn stream_k_bytes_held(&self) -> u64 {
        let held = self.stream_k.lock().unwrap_or_else(|e| e.into_inner());
        held.as_ref().map_or(0, |w| w.partials.len() as u64 * 4 + w.flags.len() as u64 * 4)
    }

    /// Frees the stream-K workspace (after the queued work is done).
    pub(crate) fn release_stream_k(&self) -> Result<()> {
        let mut held = self.stream_k.lock().unwrap_or_else(|e| e.into_inner());
        if held.is_some() {
            self.stream().synchronize().during("kernel execution")?;
            *held = None;
        }
        Ok(())
    }
}
