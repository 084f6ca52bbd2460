//! Split-K and the α = 0 path on the host: the workspace `Gpu` owns, the
//! partial GEMMs as strided batches of an ordinary kernel, and the
//! reduction launches. The rule (when to split, the chunk, the workspace
//! size) is `gemm_launch::split_k`'s.
//!
//! A split call runs: the partial GEMMs (chunk `s` of K for matrix `b` of the
//! batch into slab `b·splits + s` of the workspace, with α = 1, β = 0), then
//! `combine_passes` in-place tree passes and one epilogue that sums the
//! last level or, past 8 slabs, the last two, and writes `C = α·sum + β·C`.
//! All on the GPU's stream, in order: the workspace is reused by the next
//! call without a wait.
//!
//! ```
//! use rgemm::{GemmError, GemmOptions, Gpu, MatrixDesc, SplitK};
//!
//! let gpu = match Gpu::new() {
//!     Ok(gpu) => gpu,
//!     Err(GemmError::NoGpu(why)) => {
//!         eprintln!("no GPU, example skipped: {why}");
//!         return Ok(());
//!     }
//!     Err(e) => return Err(e),
//! };
//! // Deep K: the default (SplitK::Auto) splits it; size the workspace first
//! // if allocations during calls are unwelcome.
//! let (a, b, c) = (MatrixDesc::row_major(64, 100_000), MatrixDesc::row_major(100_000, 64), MatrixDesc::row_major(64, 64));
//! let options = GemmOptions::default();
//! let bytes = gpu.gemm_workspace_bytes::<f32>(&options, &a, &b, &c, &rgemm::Batch::single())?;
//! gpu.reserve_workspace(bytes)?;
//! assert!(gpu.workspace_bytes() >= bytes);
//! // Off: one kernel sums all of K per element, no workspace.
//! let off = GemmOptions { split_k: SplitK::Off, ..options };
//! assert_eq!(gpu.gemm_workspace_bytes::<f32>(&off, &a, &b, &c, &rgemm::Batch::single())?, 0);
//! gpu.release_workspace()?;
//! # Ok::<(), GemmError>(())
//! ```

use crate::api::choice::{F32_MODELED_TILES, modeled_tile};
use crate::api::{Batch, GemmOptions, MatrixDesc, Plan, plan, select_kernel};
use crate::driver::element::Element;
use crate::driver::error::{During, GemmError, Result};
use crate::driver::gpu::Gpu;
use crate::driver::operand_copies::{CopiedCall, operand_copies_with, padded_operand_copies_with};
use cust::function::GridSize;
use gemm_launch::split_k::{
    EPILOGUE_FAN_IN, MAX_SPLITS, REDUCE_COMBINE, REDUCE_FAN_IN, REDUCE_THREADS, Split, SplitCall, SplitError, SplitK,
    chunk_granule, combine_groups, epilogue_for, epilogue_geometry, epilogue_smem_bytes, partials_kernel, plan_split,
    reduce_geometry, slab_elements, slower_partials_fill_gpu, two_level_epilogue, wants_occupancy, workspace_bytes,
};
use gemm_launch::{Dtype, KernelSpec};
use std::ffi::c_void;

/// The split of a checked call run by `spec` (`None`: no split), and the
/// kernel that computes its partial sums in f32. Pure: tested on the CPU.
pub fn split_for(
    options: &GemmOptions,
    plan: &Plan,
    spec: &'static KernelSpec,
    multiprocessors: u32,
    resident_blocks: impl Fn(&'static KernelSpec) -> u32,
) -> Result<Option<(Split, &'static KernelSpec)>> {
    if options.split_k == SplitK::Off || options.alpha == 0.0 {
        return Ok(None);
    }
    let Some(partials) = partials_kernel(spec) else {
        return match options.split_k {
            SplitK::Chunk(_) => Err(GemmError::Unsupported {
                kernel: spec.name.into(),
                reason: "split-K needs an f32-output variant of this kernel for the partial sums, and its dtype \
                         has none"
                    .into(),
            }),
            _ => Ok(None),
        };
    };
    let tiles = partials.grid(plan.m, plan.n);
    let blocks = tiles.saturating_mul(plan.batch as u64);
    // Step 70's skinny tiles, split only where their blocks fill under
    // half a wave (`choice::skinny_tiles_win`'s bound), onto their own
    // f32-output twins (step 92): with more they stream the large operand
    // as fast unsplit (H100, PERF.md step 92: f16 8192×16×8192, 128 tiles,
    // 0.051 ms unsplit, 0.058 in two chunks).
    let skinny_tiles_fill =
        spec.is_skinny_tile() && gemm_launch::split_k::skinny_tiles_fill_half_wave(blocks, multiprocessors);
    // The memory-bound kernels already spread K over a block's warps and
    // stream at memory speed: split them for deep K (more blocks for a long
    // sum, and for f32 its accuracy), and from K = FEW_TILES_MIN_K where
    // their blocks leave more than a quarter of the GPU idle, outside the
    // "dot" pattern (step 94); not otherwise, where partial sums only add
    // launches and a round trip (f16 4096×1×4096, 128 blocks: 0.013 ms
    // unsplit, 0.017 in four chunks).
    let accuracy_chunk_scale = gemm_launch::memory_bound::accuracy_chunk_scale(partials, plan.m, plan.n);
    let memory_bound_splits =
        gemm_launch::split_k::memory_bound_splits(plan.k, blocks, multiprocessors, accuracy_chunk_scale > 1);
    let mode = match (options.split_k, spec.algorithm) {
        (SplitK::Auto, gemm_launch::Algorithm::MemoryBound) if !memory_bound_splits => SplitK::Off,
        (SplitK::Auto, _) if skinny_tiles_fill => SplitK::Off,
        // TF32's K-major TMA kernels run faster unsplit than split onto
        // `mma.sync` once their own tiles fill a quarter of a wave; the
        // 16-column ones, split onto themselves, gained little or lost.
        (SplitK::Auto, _) if slower_partials_fill_gpu(spec, (plan.m, plan.n, plan.batch), multiprocessors) => {
            SplitK::Off
        }
        (mode, _) => mode,
    };
    let (m, n, k, batch, dtype) = (plan.m, plan.n, plan.k, plan.batch, spec.dtype);
    let tma_bytes_in_flight = (partials.algorithm == gemm_launch::Algorithm::WarpSpecialized)
        .then(|| gemm_launch::split_k::tma_block_bytes_in_flight(partials, m, n));
    // The driver's occupancy matters only to few-tiles and short-K splits:
    // asked for those calls alone, not on every GEMM's path.
    let asks = mode == SplitK::Auto && wants_occupancy(dtype, blocks, k, multiprocessors);
    let blocks_per_sm = if asks { resident_blocks(partials) } else { 0 };
    // f32 on the model's warp-tiled tiles: the split model, whose shorter
    // last chunk runs in the launch of the others.
    let modeled = dtype == Dtype::F32 && F32_MODELED_TILES.iter().any(|tile| tile.name == partials.name);
    let modeled_tile = modeled.then(|| modeled_tile(partials));
    let call = SplitCall {
        m,
        n,
        k,
        batch,
        tiles,
        multiprocessors,
        dtype,
        tma_bytes_in_flight,
        blocks_per_sm,
        modeled_tile,
        accuracy_chunk_scale,
        streaming_blocks_per_sm: gemm_launch::split_k::streaming_blocks_per_sm(
            partials,
            accuracy_chunk_scale,
            blocks_per_sm,
        ),
        few_tiles_waves: gemm_launch::split_k::few_tiles_waves(partials),
        last_chunk_in_launch: partials.takes_k_last(),
    };
    let split = plan_split(mode, &call);
    match split {
        Ok(split) => Ok(split.map(|s| (s, partials))),
        Err(SplitError::ZeroChunk) => Err(GemmError::ZeroDimension { what: "split-K chunk" }),
        Err(SplitError::TooManySplits { splits }) => {
            Err(GemmError::DimensionTooLarge { what: "split-K chunks", value: splits, max: MAX_SPLITS as u64 })
        }
    }
}

/// One launch of the partial GEMMs: its plan (K = one chunk, C = slabs of
/// the workspace, row-major `m × n`) and where its first A, B and C start,
/// in elements from the kernel's A and B and from the workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialLaunch {
    pub plan: Plan,
    pub a_offset: u64,
    pub b_offset: u64,
    pub ws_offset: u64,
}

/// The launches that write every slab of a split once: slab `b·splits + s`
/// holds chunk `s` of matrix `b`. Each launch is a strided batch over chunks
/// (one launch per matrix of the batch) or over the batch (one per chunk),
/// whichever needs fewer. A shorter last chunk is the last matrix of its
/// matrix's launch (`Plan::k_last`; `Gpu::launch` runs it as a launch of
/// its own on a kernel that does not read `k_last`,
/// `KernelSpec::takes_k_last`, or reads copies of the chunks), or in the
/// launches per chunk one more launch for the whole batch.
pub fn partial_launches(plan: &Plan, split: Split) -> Vec<PartialLaunch> {
    let slab = slab_elements(plan.m, plan.n);
    // Elements from chunk s to chunk s + 1 in the kernel's A (m×k) and B (k×n).
    let chunk = split.chunk as u64;
    let a_step = if plan.layout.a_col_major { chunk * plan.lda as u64 } else { chunk };
    let b_step = if plan.layout.b_col_major { chunk } else { chunk * plan.ldb as u64 };
    let (full, rest) = (split.full_chunks(plan.k), split.remainder(plan.k));
    let run_stride = split.splits as u64 * slab; // from matrix b's slabs to b + 1's
    let base = Plan { ldc: plan.n, k_last: None, ..*plan };
    if plan.batch <= full {
        let k_last = (rest > 0).then_some(rest);
        let chunks = Plan { k: split.chunk, batch: split.splits, stride_a: a_step, stride_b: b_step, k_last, ..base };
        return (0..plan.batch as u64)
            .map(|b| PartialLaunch {
                plan: Plan { stride_c: slab, ..chunks },
                a_offset: b * plan.stride_a,
                b_offset: b * plan.stride_b,
                ws_offset: b * run_stride,
            })
            .collect();
    }
    // One launch per chunk, each over the batch; the shorter last chunk
    // too (every matrix of a launch is as deep).
    (0..split.splits as u64)
        .map(|s| PartialLaunch {
            plan: Plan { k: if s < full as u64 { split.chunk } else { rest }, stride_c: run_stride, ..base },
            a_offset: s * a_step,
            b_offset: s * b_step,
            ws_offset: s * slab,
        })
        .collect()
}

/// The split a call runs and the copies its partials kernel reads, for the
/// split the rule (or the caller) chose. Operands the partials kernel reads
/// through copies are copied once for the whole call, before it is cut into
/// chunks, where the chunks are whole 16-byte pieces (every split `Auto`
/// makes): each chunk of the copies then starts on 16 bytes, and a shorter
/// last chunk stays in the launch of the others. Other chunks (a caller's)
/// would need copies of the copies, inside the scratch buffer's lock: there
/// each launch copies its own chunks (`None` here). A TMA kernel that does
/// not read `k_last` (TF32's; the 16-bit f32-output twins do since PERF.md
/// step 105) runs a shorter last chunk as a launch of its own, after the
/// others (7–8 µs on an H200, PERF.md step 101): where both operands are copied anyway and
/// the split is the rule's (`even_out`: `SplitK::Auto`; a caller's chunks
/// are kept as asked), the chunks are evened out ([`Split::even`]: as many,
/// none longer) and the copies padded with zeros to whole chunks, one
/// launch for all. Where step 10h's twin reads a B whose rows are off 16
/// bytes in place, only A is copied, unless the last chunk is under 4
/// deep (the twin cannot read that one, and its launch could not copy B
/// inside the lock these copies hold, so B is copied here with A) or the
/// padded copies' one launch pays more than B's copy costs
/// (`gemm_launch::B_ROWS_TWIN_MIN_RAGGED_B_BYTES`).
pub fn split_with_copies(
    plan: &Plan,
    split: Split,
    partials: &KernelSpec,
    pointers: [u64; 3],
    even_out: bool,
) -> (Split, Option<CopiedCall>) {
    let granule = chunk_granule(partials.dtype);
    let whole_pieces = split.chunk.is_multiple_of(granule);
    let ragged = split.remainder(plan.k) > 0;
    // Step 10h's twins read a B whose rows are off 16 bytes in place, but
    // not a last chunk under 4 deep: there B is copied with A, here; nor
    // where the padded copies' one launch saves more than B's copy costs.
    let can_pad = even_out && whole_pieces && ragged && !partials.takes_k_last();
    let b_bytes = plan.k as u64 * plan.n as u64 * plan.batch as u64 * partials.dtype.element_bytes() as u64;
    let b_in_place = !(1..gemm_launch::tma::B_ROW_RESIDUES).contains(&split.remainder(plan.k));
    let pad_b = !b_in_place || b_bytes < gemm_launch::B_ROWS_TWIN_MIN_RAGGED_B_BYTES;
    let padded = can_pad.then(|| split.even(plan.k, granule)).and_then(|even| {
        let k_padded = even.chunk.checked_mul(even.splits)?;
        padded_operand_copies_with(partials, plan, pointers, k_padded, !pad_b).map(|call| (even, call))
    });
    match padded {
        Some((even, call)) => (even, Some(call)),
        // (Where no padded copies apply, B is read in place where it can be.)
        None => (split, operand_copies_with(partials, plan, pointers, b_in_place).filter(|_| whole_pieces)),
    }
}

impl Gpu {
    /// Bytes of workspace the call `gemm_strided_batched(options, a, b, c,
    /// batch)` uses (0: it does not split K, nor share tiles out by
    /// stream-K; for stream-K, the fixed [`Gpu::stream_k_workspace_bytes`],
    /// allocated by the first such call). The workspace is this GPU's
    /// own: grown by a call that needs more (or by
    /// [`Gpu::reserve_workspace`]), kept for later calls, freed by
    /// [`Gpu::release_workspace`] or with the `Gpu`.
    pub fn gemm_workspace_bytes<T: Element>(
        &self,
        options: &GemmOptions,
        a: &MatrixDesc,
        b: &MatrixDesc,
        c: &MatrixDesc,
        batch: &Batch,
    ) -> Result<u64> {
        let plan = plan((a, usize::MAX), (b, usize::MAX), (c, usize::MAX), batch)?;
        // No buffers yet: addresses taken as 256-byte aligned. Real buffers
        // whose starts are off 16 bytes can send `auto` from a TMA kernel to
        // one with other tiles (`realign_refusal`), and so to another split:
        // the call then grows the workspace it needs itself.
        let spec = select_kernel::<T>(options, &plan, [0; 3], &self.info)?;
        let split = split_for(options, &plan, spec, self.info.multiprocessors as u32, |s| {
            self.resident_blocks(s, plan.layout)
        })?;
        Ok(match split {
            Some((split, _)) => workspace_bytes(split, plan.m, plan.n, plan.batch),
            None if self.stream_k_grid(spec, &plan).is_some() => self.stream_k_workspace_bytes(),
            None => 0,
        })
    }

    /// Grows the workspace to at least `bytes` now, so that calls that fit
    /// in it allocate nothing.
    pub fn reserve_workspace(&self, bytes: u64) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let mut workspace = self.workspace.lock().unwrap_or_else(|e| e.into_inner());
        self.grow_buffer(&mut workspace, bytes).map(|_| ())
    }

    /// Frees the workspace, stream-K's
    /// ([`Gpu::stream_k_workspace_bytes`]), the scratch buffer of the
    /// TMA kernels' operand copies (`host/driver/operand_copies.rs`) and
    /// the cached copies of their tensor maps, after the work queued on the
    /// stream, which may use them, is done.
    pub fn release_workspace(&self) -> Result<()> {
        self.release_stream_k()?;
        self.release_tensor_maps()?;
        let mut workspace = self.workspace.lock().unwrap_or_else(|e| e.into_inner());
        let mut scratch = self.copy_scratch.lock().unwrap_or_else(|e| e.into_inner());
        if workspace.is_some() || scratch.is_some() {
            self.stream().synchronize().during("kernel execution")?;
            (*workspace, *scratch) = (None, None);
        }
        Ok(())
    }

    /// Bytes of workspace held now: split-K's and stream-K's.
    pub fn workspace_bytes(&self) -> u64 {
        let workspace = self.workspace.lock().unwrap_or_else(|e| e.into_inner());
        workspace.as_ref().map_or(0, |w| w.len() as u64 * 4) + self.stream_k_bytes_held()
    }

    /// Runs the call itself when it is not a single GEMM launch: α = 0
    /// (`C = β·C`, A and B not read), or a split K. Returns false when the
    /// caller should launch `spec` as usual. `pointers`: the kernel's A, B
    /// and C (after the plan's swap).
    pub(crate) fn gemm_special<T: Element>(
        &self,
        options: &GemmOptions,
        plan: &Plan,
        spec: &'static KernelSpec,
        pointers: [u64; 3],
    ) -> Result<bool> {
        let sms = self.info.multiprocessors as u32;
        if options.alpha == 0.0 {
            // No slabs: the epilogue reads nothing but C (and C only if β ≠ 0).
            self.launch_epilogue::<T>(plan, (0, Split { chunk: plan.k, splits: 0 }, 1), pointers[2], options)?;
            return Ok(true);
        }
        let resident = |s| self.resident_blocks(s, plan.layout);
        let Some((split, partials)) = split_for(options, plan, spec, sms, resident)? else { return Ok(false) };
        let bytes = workspace_bytes(split, plan.m, plan.n, plan.batch);
        let mut workspace = self.workspace.lock().unwrap_or_else(|e| e.into_inner());
        let ws = match self.grow_buffer(&mut workspace, bytes) {
            Ok(ws) => ws,
            // Auto falls back to the plain kernel when memory is short.
            Err(GemmError::OutOfMemory { .. }) if options.split_k == SplitK::Auto => return Ok(false),
            Err(e) => return Err(e),
        };
        let (split, copies) = split_with_copies(plan, split, partials, pointers, options.split_k == SplitK::Auto);
        let element = std::mem::size_of::<T>() as u64;
        let partial_sums = |plan: &Plan, [a, b, _]: [u64; 3]| {
            for launch in partial_launches(plan, split) {
                let addresses =
                    [a + launch.a_offset * element, b + launch.b_offset * element, ws + launch.ws_offset * 4];
                self.launch(partials, &launch.plan, addresses, 1.0, 0.0, options.group_m)?;
            }
            Ok(())
        };
        match copies {
            Some(call) => self.with_operand_copies(plan, &call, pointers, partial_sums)?,
            None => partial_sums(plan, pointers)?,
        }
        let (slab, run_stride) = (slab_elements(plan.m, plan.n), split.splits as u64 * slab_elements(plan.m, plan.n));
        let (col_blocks, row_groups) = reduce_geometry(plan.m, plan.n, plan.batch, sms);
        let mut step = 1u32;
        for _ in 0..split.combine_passes() {
            let grid = GridSize::xyz(col_blocks * row_groups, combine_groups(split.splits, step), plan.batch);
            let (mut ws, mut splits, mut step_arg, mut slab, mut run_stride) =
                (ws, split.splits, step, slab, run_stride);
            let (mut m, mut n, mut row_groups) = (plan.m, plan.n, row_groups);
            // In the order of `splitk_combine`'s parameters.
            let args: [*mut c_void; 8] = [
                &mut ws as *mut _ as *mut c_void,
                &mut splits as *mut _ as *mut c_void,
                &mut step_arg as *mut _ as *mut c_void,
                &mut slab as *mut _ as *mut c_void,
                &mut run_stride as *mut _ as *mut c_void,
                &mut m as *mut _ as *mut c_void,
                &mut n as *mut _ as *mut c_void,
                &mut row_groups as *mut _ as *mut c_void,
            ];
            self.launch_sm80(REDUCE_COMBINE.name, grid, REDUCE_THREADS, 0, &args)?;
            step *= REDUCE_FAN_IN;
        }
        self.launch_epilogue::<T>(plan, (ws, split, step), pointers[2], options)?;
        Ok(true)
    }

    /// The last reduction pass: `C = α·(sum of slabs 0, step, …) + β·C`;
    /// `split.splits = 0` sums nothing (the α = 0 path).
    fn launch_epilogue<T: Element>(
        &self,
        plan: &Plan,
        (ws, split, step): (u64, Split, u32),
        c: u64,
        options: &GemmOptions,
    ) -> Result<()> {
        let sms = self.info.multiprocessors as u32;
        debug_assert!(split.splits as u64 <= EPILOGUE_FAN_IN as u64 * step as u64, "{split:?} at step {step}");
        let two_levels = two_level_epilogue(split.splits, step);
        let (col_blocks, row_groups) = epilogue_geometry(plan.m, plan.n, plan.batch, sms, two_levels);
        let grid = GridSize::xyz(col_blocks * row_groups, 1, plan.batch);
        let slab = if split.splits == 0 { 0 } else { slab_elements(plan.m, plan.n) };
        let (mut ws, mut splits, mut step, mut slab, mut run_stride) =
            (ws, split.splits, step, slab, split.splits as u64 * slab);
        let (mut c, mut m, mut n, mut ldc) = (c, plan.m, plan.n, plan.ldc);
        let (mut alpha, mut beta, mut stride_c, mut row_groups) =
            (options.alpha, options.beta, plan.stride_c, row_groups);
        // In the order of the epilogue entries' parameters.
        let args: [*mut c_void; 13] = [
            &mut ws as *mut _ as *mut c_void,
            &mut splits as *mut _ as *mut c_void,
            &mut step as *mut _ as *mut c_void,
            &mut slab as *mut _ as *mut c_void,
            &mut run_stride as *mut _ as *mut c_void,
            &mut c as *mut _ as *mut c_void,
            &mut m as *mut _ as *mut c_void,
            &mut n as *mut _ as *mut c_void,
            &mut ldc as *mut _ as *mut c_void,
            &mut alpha as *mut _ as *mut c_void,
            &mut beta as *mut _ as *mut c_void,
            &mut stride_c as *mut _ as *mut c_void,
            &mut row_groups as *mut _ as *mut c_void,
        ];
        let entry = epilogue_for(T::DTYPE, two_levels).name;
        self.launch_sm80(entry, grid, REDUCE_THREADS, epilogue_smem_bytes(two_levels), &args)
    }
}
