//! Split-K: when a GEMM is split along K, into how many chunks, how much f32
//! workspace that needs, and the reduction kernels that combine the chunks.
//! The one source of truth for the rule: the host (`host/split_k.rs`) plans
//! with it, the kernels (`kernels-gpu/src/split_k.rs`) take their fan-in and
//! block size from it, and the CPU tests check it.
//!
//! The split is deterministic: chunk `i` of K (`A[:, i·chunk..]` times
//! `B[i·chunk.., :]`) is one matrix of a strided batch of an ordinary GEMM
//! kernel, written with α = 1, β = 0 to its own f32 slab of the workspace;
//! then the slabs are summed in a fixed tree (fan-in [`REDUCE_FAN_IN`], one
//! pass per level but the last two, which the epilogue sums in one launch,
//! [`EPILOGUE_FAN_IN`]) and the last pass applies `C = α·sum + β·C`. No
//! atomics: the result is bitwise the same on every run.
//!
//! Why: each thread of a GEMM kernel sums its whole K loop into one f32, so
//! the rounding error grows like `√K·u`; chunks of at most `chunk` terms
//! combined pairwise grow like `(√chunk + log₂(splits))·u`. And a problem with
//! fewer C tiles than multiprocessors gets `splits` times more blocks.

use crate::{
    Dtype, KernelSpec, MMA_BF16_16X64X64, MMA_BF16_16X64X64_F32OUT, MMA_BF16_64X16X64, MMA_BF16_64X16X64_F32OUT,
    MMA_BF16_128X128X32_W32X64_F32OUT, MMA_F16_16X64X64, MMA_F16_16X64X64_F32OUT, MMA_F16_64X16X64,
    MMA_F16_64X16X64_F32OUT, MMA_F16_128X128X32_W32X64_F32OUT, WS_BF16_128X128X64_F32OUT, WS_BF16_128X192X64,
    WS_BF16_128X192X64_F32OUT, WS_F16_128X128X64_F32OUT, WS_F16_128X192X64, WS_F16_128X192X64_F32OUT,
};

/// How a call may split K ([`crate::split_k`]; `GemmOptions::split_k` on the host).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SplitK {
    /// Split when [`plan_split`]'s rule says so (deep K, few tiles, f32 short K).
    #[default]
    Auto,
    /// Never split: one kernel sums all of K per element.
    Off,
    /// Split into chunks of this many K (the last one shorter); no split
    /// when it is not less than K.
    Chunk(u32),
}

/// The shortest chunk the rule picks when the output has few tiles, and
/// the granule in which it counts the chunks of a kernel without the TMA.
/// A partials block writes a
/// whole f32 tile of workspace whatever its chunk, so short chunks spend
/// their time on that: at 128×128×65536 on an H100 (PERF.md step 36),
/// chunks of 256 ran f16 at 38 TFLOP/s, 512 at 62, 1024 at 61, 2048 at 43;
/// TF32 at 29, 40, 37, 23.
pub const CHUNK_FEW_TILES: u32 = 512;
/// Waves of blocks (one block per multiprocessor; for a memory-bound
/// kernel's partials, as many as [`streaming_blocks_per_sm`]) a few-tiles
/// split aims at. Fewer chunks mean less workspace to write and sum: at
/// 256×256×131072 f16, chunks of 256 made 512 slabs, as many bytes as A and B, and ran at
/// 21% of cuBLAS; the 64 chunks of two waves run at 60% (and 32 of one
/// wave level with them). Two waves rather than one, so that two blocks
/// share each multiprocessor and hide each other's loads.
pub const FEW_TILES_WAVES: u32 = 2;
/// Waves of one block per multiprocessor that a few-tiles split of step
/// 70's skinny tiles aims at, onto their own f32-output twins (step 92);
/// each block's 8-stage ring keeps 56 KiB of the large operand on its way
/// (7 slices of 8 KiB). H100, f16 on `mma_64x16x64` (PERF.md step 92),
/// ms by blocks, the rule's count first: 2000×16×10000 0.019 at 160,
/// 0.027 at 320, 0.029 at 800; 4000×16×9000 0.039 at 189, 0.042 at 315,
/// 0.044 at 567; 1000×16×4096 0.011 at 128 and at 64. The best count is
/// not always near one wave, and no count is best everywhere:
/// 3000×16×30000 0.088 at the rule's 141 (`auto`), 0.078 at 235, 0.092
/// at 282; 700×16×60000 0.045 at 132, 0.041 at 110, 0.045 at 165 and
/// 220; 1000×16×100000 0.094 at 160, 0.098 at 320, 0.089 at 400.
pub const SKINNY_TILES_WAVES: u32 = 1;
/// Bytes of A and B that the blocks of a few-tiles split on a TMA kernel
/// (step 10's persistent twins, one block per multiprocessor) keep on their
/// way from memory at once: the split takes as many blocks as that needs
/// ([`tma_block_bytes_in_flight`]), at most one wave. Deep-K calls stream
/// their operands from DRAM, and the number of blocks that keeps it busy
/// depends on how much each block asks for at a time: a one-tile call
/// (every block its own A and B) needs half a wave, a call whose blocks
/// share their slices through L2 nearly a whole one. Calibrated on an H100
/// (PERF.md step 55, f16 by hand, % of cuBLAS by blocks): 128×128×65536 69%
/// at 64 blocks, 60% at 32, 54% at 128; 64×192×300000 95% at 60, 90% at 75,
/// 85% at 100; 100×3000×20000 80% at 96, 92% at 120, 75% at 240;
/// 384×384×100000 68% at 45, 91% at 90, 59% at 180; 1000×128×30000 83% at
/// 48 and 80, 80% at 120. 12 MiB is what an H100's 3.35 TB/s delivers in
/// about 3.8 µs.
pub const TMA_BYTES_IN_FLIGHT: u64 = 12 << 20;
/// The longest chunk for exact f32 at deep K (split only for accuracy;
/// [`SplitCall::accuracy_chunk_scale`] times longer for the memory-bound
/// "dot" pattern, where each thread sums a 256th of a chunk):
/// the workspace round trip costs about `67 / chunk` of the multiply (8
/// bytes per partial element at ~3 TB/s against 2·chunk flops at ~50
/// TFLOP/s), 7 % at 1024, while the error of a chunk (`√1024 = 32`
/// roundings deep) stays far below a K-long sum's. TF32 and 16-bit inputs
/// are rounded far more coarsely than an f32 sum of K terms, so they split
/// only to fill the GPU.
pub const CHUNK_DEEP: u32 = 1024;
/// K above which the rule splits f32 for accuracy.
pub const DEEP_K: u32 = 8192;
/// K from which the rule splits an output with fewer tiles than
/// multiprocessors (below it there is too little work per chunk).
pub const FEW_TILES_MIN_K: u32 = 2048;
/// K from which the rule splits an f32 call on CUDA cores whose tiles leave
/// most of the GPU's block slots empty ([`short_k_split`]); up to
/// [`FEW_TILES_MIN_K`].
pub const SHORT_K_MIN: u32 = 512;
/// The shortest chunk of a short-K split, the shortest measured (PERF.md
/// step 61): 8 passes of `db_64x64x16`'s 16-deep main loop.
pub const CHUNK_SHORT_K: u32 = 128;
/// Quarters of a wave (one block per multiprocessor) of tiles from which a
/// short-K call is split: below that the call is small, and the split's
/// second and third launches cost more than its blocks gain (a 16-tile
/// 256³ call runs at cuBLAS's speed unsplit; the smallest measured split
/// had 32 tiles).
pub const SHORT_K_MIN_QUARTERS: u64 = 1;
/// Quarters of a wave (one block per multiprocessor) of tiles from which a
/// short-K call is not split: with about two blocks on each multiprocessor
/// already, they hide each other's latency and the workspace round trip is
/// a loss (`db_64x64x16` at 1024³, 256 tiles: 29.6 TFLOP/s unsplit, 27.0 in
/// 2 chunks; at 768³, 144 tiles: 16.4 and 18.7).
pub const SHORT_K_MAX_QUARTERS: u64 = 6;
/// Quarters of a wave from which the blocks of a kernel that holds one
/// block per multiprocessor fill the GPU: more blocks would not fill its
/// one wave better, and the workspace round trip is paid in full. At
/// 2048³ f32 the 128 tiles of `wt_256x128x8` (3.9 quarters of 132) ran at
/// 93.5% of cuBLAS split in two and 101.5% unsplit, 2048²×8192 at 97.4%
/// split in three and 100.4% unsplit (H100, PERF.md step 44). A kernel
/// with room for more blocks per multiprocessor gains from them: at
/// 1024²×8192 `db_128x64x16`'s 128 tiles ran at 77.9% split in three and
/// 71.8% unsplit.
pub const FEW_TILES_FULL_QUARTERS: u64 = 3;

/// Whether `SplitK::Auto` splits a call of `blocks` tiles (over its batch)
/// for its few tiles ([`plan_split`]): K from [`FEW_TILES_MIN_K`] and
/// fewer blocks than `multiprocessors`, but not where a kernel of one
/// block per multiprocessor (`blocks_per_sm`, 0 where not asked) fills
/// [`FEW_TILES_FULL_QUARTERS`] quarters of a wave.
pub const fn few_tiles_split(blocks: u64, blocks_per_sm: u32, k: u32, multiprocessors: u32) -> bool {
    let fills_one_wave = blocks_per_sm == 1 && 4 * blocks >= FEW_TILES_FULL_QUARTERS * multiprocessors as u64;
    blocks < multiprocessors as u64 && !fills_one_wave && k >= FEW_TILES_MIN_K
}
/// Quarters of a wave from which a call whose partial sums would run on a
/// slower kernel than its own is not split for its few tiles
/// ([`slower_partials_fill_gpu`]): TF32's TMA kernels (step 10b), whose
/// partials run on `mma.sync` 64×128. H100, % of cuBLAS unsplit against
/// split (PERF.md step 58): 128×128 tiles, 1024²×4096 (64 tiles) 79 / 39,
/// 1024²×8192 70 / 35, 2048×512×8192 102 / 45, 768²×4096 (36) 59 / 29; but
/// 512²×4096 (16 tiles) 46.5 / 64. (The 16-column tiles, whose partials run
/// on themselves since step 111, keep the bound: there a split gained
/// little or lost, see [`slower_partials_fill_gpu`].)
pub const SLOWER_PARTIALS_MIN_QUARTERS: u64 = 1;
/// K elements by which the chunks of an exact split of a few-tiles call on
/// TMA partials may be longer than those of the split with a shorter last
/// chunk that the nominal count gives ([`exact_chunk_fewer`]): that last
/// chunk was a launch of its own, after the others (TF32's partials, and the
/// 16-bit ones before PERF.md step 105), and cost as much as about this
/// much more of every chunk. H100, 36 tiles of 128×128 at
/// 768²×4096 (PERF.md step 64), µs: TF32 35 in 2 chunks of 2048, 41 in 3
/// of 1364 and a last of 4; f16 21 and 25.
pub const EXACT_SPLIT_MAX_EXTRA_K: u32 = 1024;
/// Quarters of a wave of tiles from which a few-tiles call on TMA partials
/// with K up to [`DEEP_K`] and no exact split is left unsplit rather than
/// given a shorter last chunk: H100, 777×999×3333 (56 tiles of 128×128,
/// PERF.md step 64), % of cuBLAS unsplit against 3 chunks of 1664 and a
/// last of 5 as a launch of its own: f16 112.5 / 86, TF32 106 / 90. (Not
/// measured again since the 16-bit partials run that chunk in the launch,
/// PERF.md step 105.)
pub const TMA_REMAINDER_MAX_QUARTERS: u64 = 1;
/// Largest workspace [`SplitK::Auto`] uses; the chunk doubles until the
/// slabs fit (and the rule does not split when even two do not).
pub const AUTO_WORKSPACE_CAP_BYTES: u64 = 256 << 20;
/// Most chunks: the partial GEMMs' batch runs in the grid's z dimension.
pub const MAX_SPLITS: u32 = 65_535;
/// Slabs summed per reduction pass, in a fixed tree
/// `((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7))`.
pub const REDUCE_FAN_IN: u32 = 8;
/// Slabs the epilogue sums: two levels of the tree, each group of
/// [`REDUCE_FAN_IN`] summed first, then the groups' sums, bit for bit as a
/// combine pass and an epilogue one level up would. A split of 9 to 64
/// chunks needs one reduction launch, not two (step 74).
pub const EPILOGUE_FAN_IN: u32 = REDUCE_FAN_IN * REDUCE_FAN_IN;
/// Threads per block of the reduction kernels (one element of C each, but
/// in the two-level epilogue: eight, one group of slabs each).
pub const REDUCE_THREADS: u32 = 256;
/// Slabs start on 256-byte boundaries (a multiple of 64 f32).
pub const SLAB_ALIGN_ELEMENTS: u64 = 64;

/// A chosen split of K.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// K per chunk (the last chunk has `k − (splits − 1)·chunk`).
    pub chunk: u32,
    /// Number of chunks, `ceil(k / chunk)`, at least 2.
    pub splits: u32,
}

impl Split {
    /// The split of `k` into chunks of `chunk` (`chunk < k`).
    pub const fn of(k: u32, chunk: u32) -> Split {
        Split { chunk, splits: k.div_ceil(chunk) }
    }

    /// Chunks of the full `chunk` length.
    pub const fn full_chunks(&self, k: u32) -> u32 {
        k / self.chunk
    }

    /// K of the last, shorter chunk (0 when `chunk` divides K).
    pub const fn remainder(&self, k: u32) -> u32 {
        k % self.chunk
    }

    /// This split with its chunks evened out for operands padded with
    /// zeros past K to whole chunks (the TMA kernels' realigned copies,
    /// `host/api/split_k.rs`): the shortest chunk, in whole multiples of
    /// `granule`, that covers `k` in as many chunks or fewer, so that the
    /// padding is under `splits · granule` elements. Where `chunk` is a
    /// multiple of `granule` (the only splits evened out) the count stays
    /// the same, and so does the workspace `workspace_bytes` sized. (A shorter last chunk
    /// is a launch of its own on those kernels: 7–8 µs on an H200, PERF.md
    /// step 101.)
    pub const fn even(&self, k: u32, granule: u32) -> Split {
        let chunk = k.div_ceil(self.splits).next_multiple_of(granule);
        Split { chunk, splits: k.div_ceil(chunk) }
    }

    /// Reduction passes before the epilogue: each sums groups of
    /// [`REDUCE_FAN_IN`] slabs in place; the epilogue sums at most
    /// [`EPILOGUE_FAN_IN`].
    pub const fn combine_passes(&self) -> u32 {
        let (mut left, mut passes) = (self.splits, 0);
        while left > EPILOGUE_FAN_IN {
            left = left.div_ceil(REDUCE_FAN_IN);
            passes += 1;
        }
        passes
    }
}

/// f32 elements between consecutive slabs for an `m × n` output.
pub const fn slab_elements(m: u32, n: u32) -> u64 {
    (m as u64 * n as u64).div_ceil(SLAB_ALIGN_ELEMENTS) * SLAB_ALIGN_ELEMENTS
}

/// Workspace bytes of a split: one f32 slab per chunk per matrix of the batch.
/// Saturates at `u64::MAX` (never reached by a call that can run).
pub const fn workspace_bytes(split: Split, m: u32, n: u32, batch: u32) -> u64 {
    (split.splits as u64 * batch as u64).saturating_mul(slab_elements(m, n)).saturating_mul(4)
}

/// Why an explicit split cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// `SplitK::Chunk(0)`.
    ZeroChunk,
    /// More chunks than [`MAX_SPLITS`].
    TooManySplits { splits: u64 },
}

/// What the split rule needs to know of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitCall {
    /// The kernel's `m × n × k`, for each of `batch` matrices.
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub batch: u32,
    /// Blocks per matrix of the kernel that computes the partial sums.
    pub tiles: u64,
    pub multiprocessors: u32,
    /// The call's dtype: only exact f32 splits for accuracy.
    pub dtype: Dtype,
    /// For partials on a TMA kernel, the bytes of A and B each of its
    /// blocks has on the way from memory ([`tma_block_bytes_in_flight`]);
    /// `None` for other kernels.
    pub tma_bytes_in_flight: Option<u64>,
    /// Blocks of the partials kernel one multiprocessor holds at once (the
    /// driver's occupancy for its registers, shared memory and threads); 0
    /// where it was not asked ([`wants_occupancy`]). At 1, blocks beyond one
    /// wave wait for a second ([`FEW_TILES_FULL_QUARTERS`]); a short-K split
    /// fills the wave it gives ([`short_k_split`]).
    pub blocks_per_sm: u32,
    /// For f32 partials on a warp-tiled tile of the model (the host's
    /// `F32_MODELED_TILES`, which run a shorter last chunk in the launch of
    /// the others: `KernelSpec::takes_k_last`): its tile, and [`f32_split`]
    /// picks the split. `None` for every other call.
    pub modeled_tile: Option<ModeledTile>,
    /// How many times [`CHUNK_DEEP`] a split for accuracy may make a
    /// chunk: 1, but for the memory-bound kernels' "dot" pattern, whose
    /// threads each sum a 256th of the chunk
    /// ([`crate::memory_bound::accuracy_chunk_scale`]).
    pub accuracy_chunk_scale: u32,
    /// For a memory-bound partials kernel, which streams its large operand,
    /// the blocks per multiprocessor its few-tiles split counts its waves in
    /// ([`streaming_blocks_per_sm`], [`few_tiles_target`]). 0 for every
    /// other kernel.
    pub streaming_blocks_per_sm: u32,
    /// Waves a few-tiles split without the TMA aims at ([`few_tiles_waves`]).
    pub few_tiles_waves: u32,
    /// Whether the partials kernel runs a shorter last chunk in the launch
    /// of the others (`KernelSpec::takes_k_last`): that chunk then counts
    /// among the blocks of the launch, and TMA partials that do split K
    /// past [`DEEP_K`] into as many whole K slices per chunk as their
    /// blocks want ([`ragged_chunk`]), not into an exact split.
    pub last_chunk_in_launch: bool,
}

/// A tile of the f32 split model ([`f32_modeled_us`]): its block tile, the
/// blocks per multiprocessor it is built for, its rate against
/// `wt_256x128x8`'s, and how long a part-filled round of its blocks takes
/// at least, as a share of a full round ([`PART_ROUND_SHARE`] unless
/// measured otherwise), both in thousandths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeledTile {
    pub bm: u32,
    pub bn: u32,
    pub blocks_per_sm: u32,
    pub rate_per_mille: u32,
    pub part_round_per_mille: u32,
}

/// Multiply-adds per µs one multiprocessor does on `wt_256x128x8` at mid
/// sizes, in the model of [`f32_modeled_us`]: fitted to the H100 runs of
/// PERF.md step 73 (the time less the slabs' round trip, per busiest
/// multiprocessor: 177–210 thousand on `wt_256x128x8` at 200×200×100000,
/// 768²×4096, 1024²×4096 and 256×256×131072; 160–190 thousand on
/// `wt_128x128x8`, whose rate is 0.93 of it, at 1032³, 1280³, 1100×700×5000
/// and 777×999×3336; the H100's peak is 256 thousand).
pub const F32_SM_MACS_PER_US: f64 = 195_000.0;
/// Bytes per µs of the workspace's round trip: each chunk's f32 slab
/// written by its blocks and read by the reduction, which writes C once
/// (mostly in L2: a fit, between the H100's 3.35 TB/s of memory and its L2).
pub const SLAB_BYTES_PER_US: f64 = 2_500_000.0;
/// µs of the reduction's launch beside its traffic.
pub const REDUCE_LAUNCH_US: f64 = 3.0;
/// K that a block's start and epilogue cost, in the model: at 1032³ on
/// `wt_128x128x8` three blocks per multiprocessor of 258 ran 14 µs slower
/// than two of 344, where the multiply-adds and slabs account for 12
/// (fitted under step 73's model; step 83's rounds count that call's
/// third block as 1.2, and the model now puts 4 chunks 17.6 µs behind
/// 3 there, against 14 measured).
pub const BLOCK_FIXED_K: u32 = 16;
/// What a part-filled last round of blocks costs, in the model, unless a
/// tile has its own share (`ModeledTile::part_round_per_mille`): the
/// busiest multiprocessor runs its blocks in rounds of as many as the
/// kernel is built for (`ModeledTile::blocks_per_sm`), and a last round of
/// `r` blocks takes as long as `max(r, share · blocks_per_sm)` blocks,
/// because blocks side by side hide each other's loads and barriers, and
/// fewer hide less. The default is fitted to `wt_128x128x8` (two per SM)
/// on the H100 at 1280³, 100 tiles (PERF.md step 73): unsplit 0.134 ms
/// against 0.129 in 2 chunks, so a lone block counts as 1.2. Fitted on
/// that tile only; the other tiles the model weighs as the wave fill's
/// choice take it too (`wt_64x128x8`: a lone block counts as 1.8).
pub const PART_ROUND_SHARE: f64 = 0.6;

/// Modeled µs of an f32 call of `m × n × k` (`batch` matrices) on `tile`
/// in chunks of `chunk` (`chunk ≥ k`: unsplit), launched as
/// `api::split_k::partial_launches` launches it (a shorter last chunk in
/// the launch of the others): each launch's blocks are spread over the
/// multiprocessors, and the busiest multiprocessor's blocks, each a whole
/// chunk deep, set the time: in rounds of `tile.blocks_per_sm` side by
/// side, a part-filled last round costing at least its share of a full
/// one ([`PART_ROUND_SHARE`], PERF.md step 83); a split adds its slabs'
/// round trip.
pub fn f32_modeled_us(
    tile: ModeledTile,
    (m, n, k, batch): (u32, u32, u32, u32),
    multiprocessors: u32,
    chunk: u32,
) -> f64 {
    let sms = multiprocessors.max(1) as u64;
    let tiles = m.div_ceil(tile.bm.max(1)) as u64 * n.div_ceil(tile.bn.max(1)) as u64;
    let (chunk, batch) = (chunk.clamp(1, k.max(1)), batch as u64);
    let (splits, full, rest) = (k.div_ceil(chunk) as u64, (k / chunk) as u64, (k % chunk) as u64);
    let rate = F32_SM_MACS_PER_US * tile.rate_per_mille.max(1) as f64 / 1000.0;
    // `launches` launches of `blocks` blocks each, `depth` deep: the busiest
    // multiprocessor's rounds of blocks side by side.
    let slots = tile.blocks_per_sm.max(1) as u64;
    let launches_us = |launches: u64, blocks: u64, depth: u64| {
        let busiest = blocks.div_ceil(sms);
        let (rounds, left) = (busiest / slots, busiest % slots);
        let share = tile.part_round_per_mille as f64 / 1000.0;
        let last = if left > 0 { (left as f64).max(share * slots as f64) } else { 0.0 };
        let block_us = (tile.bm as u64 * tile.bn as u64 * (depth + BLOCK_FIXED_K as u64)) as f64 / rate;
        launches as f64 * ((rounds * slots) as f64 + last) * block_us
    };
    if splits == 1 {
        return launches_us(1, tiles * batch, k as u64);
    }
    // One launch per matrix over its chunks, or one per chunk over the batch.
    let compute = if batch <= full {
        launches_us(batch, tiles * splits, chunk as u64)
    } else {
        launches_us(full, tiles * batch, chunk as u64)
            + if rest > 0 { launches_us(1, tiles * batch, rest) } else { 0.0 }
    };
    let slabs = ((2 * splits + 1) * batch * m as u64 * n as u64 * 4) as f64;
    compute + slabs / SLAB_BYTES_PER_US + REDUCE_LAUNCH_US
}

/// The split of an f32 call on a warp-tiled tile by [`f32_modeled_us`]
/// (`None`: unsplit), and its modeled µs: of the chunks a multiple of
/// [`chunk_granule`] and no shorter than [`CHUNK_SHORT_K`], at most
/// [`MAX_SPLITS`] and a workspace within [`AUTO_WORKSPACE_CAP_BYTES`], the
/// one of least modeled time (the fewer chunks where two tie). K under
/// [`SHORT_K_MIN`] is not split. Beyond K = [`DEEP_K`] the call is split
/// for accuracy: chunks of at most [`CHUNK_DEEP`], doubled until the slabs
/// fit as in [`plan_split`]'s rule (unsplit where even two do not).
///
/// Why a model and not the few-tiles and short-K rules: those count the
/// chunks from the tiles alone, and give the last wave of blocks no
/// thought. H100 (PERF.md step 73), ms: 200×200×100000 on `wt_256x128x8`
/// (2 tiles) in 100 chunks of 1000 0.389 (the rule's: 200 blocks, two
/// waves of 132 with the second three-quarters full), 125 of 800 0.321
/// (250 blocks); 1032³ on `wt_128x128x8` (81 tiles) in 2 chunks 0.109, 3
/// 0.077, 4 0.091: the model ranks both alike.
pub fn f32_split(tile: ModeledTile, shape: (u32, u32, u32, u32), multiprocessors: u32) -> (Option<Split>, f64) {
    let (m, n, k, batch) = shape;
    let modeled = |chunk: u32| f32_modeled_us(tile, shape, multiprocessors, chunk);
    let fits =
        |split: Split| split.splits <= MAX_SPLITS && workspace_bytes(split, m, n, batch) <= AUTO_WORKSPACE_CAP_BYTES;
    let for_accuracy = k > DEEP_K;
    let mut longest = if for_accuracy { CHUNK_DEEP } else { k };
    while longest < k && !fits(Split::of(k, longest)) {
        longest = longest.saturating_mul(2);
    }
    let unsplit = (None, modeled(k));
    if (k < SHORT_K_MIN && !for_accuracy) || (for_accuracy && longest >= k) {
        return unsplit;
    }
    let mut best = if for_accuracy { (None, f64::INFINITY) } else { unsplit };
    // From the fewest chunks the bounds allow to 16 more per SM: more
    // chunks than that fill no wave better and only add slabs.
    let fewest = k.div_ceil(longest).max(2);
    let most = (k / CHUNK_SHORT_K).min(MAX_SPLITS).min(fewest.saturating_add(16 * multiprocessors));
    let mut last_chunk = k;
    for splits in fewest..=most {
        let chunk = k.div_ceil(splits).next_multiple_of(chunk_granule(Dtype::F32));
        if chunk >= last_chunk {
            continue;
        }
        last_chunk = chunk;
        let split = Split::of(k, chunk);
        if chunk < CHUNK_SHORT_K || chunk > longest || !fits(split) {
            continue;
        }
        let us = modeled(chunk);
        if us < best.1 {
            best = (Some(split), us);
        }
    }
    if best.0.is_some() { best } else { unsplit }
}

/// Bytes of A and B one block of the TMA kernel `spec` has on the way from
/// memory in an `m × n` call: its ring of `spec.stages` K slices, where a
/// slice of A is read from memory by one block of its tile row (the others
/// of the row find it in L2) and a slice of B by one of its tile column.
pub const fn tma_block_bytes_in_flight(spec: &KernelSpec, m: u32, n: u32) -> u64 {
    let (bm, bn, bk) = (spec.tile.bm, spec.tile.bn, spec.tile.bk as u64);
    let (rows, cols) = (m.div_ceil(bm) as u64, n.div_ceil(bn) as u64);
    let bytes = spec.dtype.element_bytes() as u64 * bk;
    let a_slice = bytes * if m < bm { m } else { bm } as u64;
    let b_slice = bytes * if n < bn { n } else { bn } as u64;
    // stages × (a_slice / cols + b_slice / rows), rounded up.
    (spec.stages as u64 * (a_slice * rows + b_slice * cols)).div_ceil(rows * cols)
}

/// The blocks per multiprocessor in which a few-tiles split of partials on
/// `spec` counts its waves ([`SplitCall::streaming_blocks_per_sm`]): for a
/// memory-bound kernel, the blocks it is built for (`min_blocks_per_sm`),
/// at most `resident` (the driver's occupancy where it was asked; 0 where
/// not); 0 for any other kernel, and for the memory-bound "dot" pattern
/// (`accuracy_chunk_scale` above 1), whose 1×1×10⁶ ran level or slower in
/// 500 chunks than in 250 (H100, PERF.md step 90: f32 0.012 / 0.016 →
/// 0.014 / 0.015 ms, f16 0.015 / 0.013 → 0.016 / 0.015).
pub const fn streaming_blocks_per_sm(spec: &KernelSpec, accuracy_chunk_scale: u32, resident: u32) -> u32 {
    if !matches!(spec.algorithm, crate::spec::Algorithm::MemoryBound) || accuracy_chunk_scale > 1 {
        return 0;
    }
    let built = if spec.min_blocks_per_sm == 0 { 1 } else { spec.min_blocks_per_sm };
    if resident > 0 && resident < built { resident } else { built }
}

/// Whether `SplitK::Auto` may split a call on a memory-bound kernel of
/// depth `k` whose blocks (grid × batch) number `blocks`: beyond
/// [`DEEP_K`] always; from [`FEW_TILES_MIN_K`] where the blocks fill under
/// [`FEW_TILES_FULL_QUARTERS`] quarters of a wave of `multiprocessors`,
/// but not in the "dot" pattern (`dot_pattern`: an accuracy chunk scale
/// above 1, `memory_bound::accuracy_chunk_scale`). The host's
/// `split_k::split_for` asks it; so does the route of TF32 few long rows,
/// `choice::streams_on_tensor_cores`.
///
/// A memory-bound block streams its rows at one multiprocessor's share of
/// the bandwidth: with few blocks most multiprocessors idle, and chunks of
/// K on the kernel's own f32-output twin fill them. H100 (PERF.md step
/// 94), unsplit → the few-tiles rule's chunks, ms: named TF32
/// `skinny_r16_2cta` 2000×16×8192 (63 blocks) 0.063 → 0.040, 1000×16×4096
/// 0.036 → 0.016, 3000×16×8192 (94 blocks) 0.059 → 0.054; `auto`, f32
/// 1000×16×4096 0.036 → 0.016, 1000×1×4096 0.015 → 0.012, 16×16×2048 (one
/// block) 0.025 → 0.012; f16 1000×4×8192 0.024 → 0.013, 7×5×6000 0.020 →
/// 0.011. From
/// three quarters of a wave unsplit runs as fast or faster (named: TF32
/// 4000×16×4096, 125 blocks, 0.033 against 0.040 in four chunks; f16
/// 4096×1×4096, 128 blocks, 0.013 against 0.017); and a "dot" call, whose
/// 256 threads already share K, runs in 6–10 µs unsplit where a split's
/// three launches take 10–15 (f32 1×1×8192 0.007 → 0.014, 4×4×4096 0.008
/// → 0.014, f16 1×1×4096 0.007 → 0.011; but f16 3×3×8192 0.022 → 0.013).
pub const fn memory_bound_splits(k: u32, blocks: u64, multiprocessors: u32, dot_pattern: bool) -> bool {
    let few_blocks = blocks.saturating_mul(4) < FEW_TILES_FULL_QUARTERS * multiprocessors as u64;
    k > DEEP_K || (!dot_pattern && k >= FEW_TILES_MIN_K && few_blocks)
}

/// Whether `blocks` of step 70's skinny tiles fill half a wave of
/// `multiprocessors`: from there `SplitK::Auto` leaves them unsplit (the
/// host's `split_k::split_for`) and `auto` takes them for any few-row
/// call they win (`choice::skinny_tiles_win`).
pub const fn skinny_tiles_fill_half_wave(blocks: u64, multiprocessors: u32) -> bool {
    blocks.saturating_mul(2) >= multiprocessors as u64
}

/// The waves of a few-tiles split onto the partials kernel `spec`
/// ([`SplitCall::few_tiles_waves`]): [`SKINNY_TILES_WAVES`] for step 70's
/// skinny tiles, [`FEW_TILES_WAVES`] for every other kernel.
pub const fn few_tiles_waves(spec: &KernelSpec) -> u32 {
    if spec.is_skinny_tile() { SKINNY_TILES_WAVES } else { FEW_TILES_WAVES }
}

/// Blocks a few-tiles split aims at: `waves` waves ([`few_tiles_waves`]) of one
/// block per multiprocessor, or of `streaming_blocks_per_sm` for a
/// memory-bound kernel's partials (1 for any other kernel), or for TMA
/// partials whose blocks each have `tma_bytes_in_flight` on the way, enough
/// for [`TMA_BYTES_IN_FLIGHT`], at most one wave.
///
/// A memory-bound block streams its rows and leaves: with two per
/// multiprocessor, two waves of one are a single round, whose last blocks
/// run on while the others' multiprocessors idle. H100 (PERF.md step 90),
/// TF32 on `skinny_r16_2cta` (two blocks per SM), % of cuBLAS, chunks of
/// K for two waves → four: 1000×16×100000 (10 → 20 chunks) 74.6 → 86.7,
/// 500×16×200000 (16 → 40) 81 → 90.5, 2000×16×50000 (5 → 10) 79 → 90.
pub const fn few_tiles_target(
    multiprocessors: u32,
    tma_bytes_in_flight: Option<u64>,
    streaming_blocks_per_sm: u32,
    waves: u32,
) -> u64 {
    match tma_bytes_in_flight {
        Some(bytes) => {
            let blocks = TMA_BYTES_IN_FLIGHT.div_ceil(if bytes == 0 { 1 } else { bytes });
            if blocks < multiprocessors as u64 { blocks } else { multiprocessors as u64 }
        }
        None => {
            let per_sm = if streaming_blocks_per_sm == 0 { 1 } else { streaming_blocks_per_sm };
            waves as u64 * per_sm as u64 * multiprocessors as u64
        }
    }
}

/// How far (as a factor, either way) the number of chunks may stray from
/// the nominal one to find a count whose equal chunks make up K exactly
/// ([`exact_chunk`]).
pub const EXACT_SPLIT_REACH: f64 = 1.5;

/// K elements in 16 bytes of the call's operands: every chunk the rule
/// picks is a multiple, so each chunk's first A and B elements keep the
/// alignment of the operands' (the TMA's strides and 16-byte loads need it).
pub const fn chunk_granule(dtype: Dtype) -> u32 {
    16 / dtype.element_bytes()
}

/// K elements of one K slice of the TMA tiles (a 128-byte swizzled row):
/// the ragged splits of TMA partials ([`ragged_chunk`]) are whole slices,
/// so every chunk's K-major rows start where the whole call's do within
/// 128 bytes. H200 (PERF.md step 105), f16 768×768×65536 in 3 chunks on
/// 128×128 tiles: 21840 (32-byte steps) and a last of 16 as a launch of
/// its own 0.134 ms; in the launch, 21848 (16-byte steps) 0.155–0.181,
/// 21888 (whole slices) 0.129.
pub const fn tma_chunk_granule(dtype: Dtype) -> u32 {
    128 / dtype.element_bytes()
}

/// The split of `call` (`None`: no split).
///
/// The rule ([`SplitK::Auto`]):
/// - f32 partials on a tile of the model ([`SplitCall::modeled_tile`]):
///   [`f32_split`];
/// - fewer tiles than multiprocessors (and, for a kernel of one block per
///   multiprocessor, fewer than [`FEW_TILES_FULL_QUARTERS`] quarters of
///   them) and K ≥ [`FEW_TILES_MIN_K`]: enough chunks for
///   [`few_tiles_target`] blocks (for kernels without the TMA, counted in
///   chunks that are multiples of [`CHUNK_FEW_TILES`]), no chunk shorter
///   than that (and for f32 with K > [`DEEP_K`] none longer than
///   [`CHUNK_DEEP`] × [`SplitCall::accuracy_chunk_scale`]);
/// - f32 with K > [`DEEP_K`] on a full GPU: chunks of at most [`CHUNK_DEEP`]
///   × [`SplitCall::accuracy_chunk_scale`];
/// - f32 on CUDA cores with K from [`SHORT_K_MIN`] to [`FEW_TILES_MIN_K`]
///   and tiles for under half of the blocks the GPU holds: [`short_k_split`];
/// - otherwise no split.
///
/// Of the splits near that count, one whose equal chunks make up K exactly
/// is taken ([`exact_chunk`]); where none is, equal chunks, a multiple of
/// [`chunk_granule`], and a short last one. TMA partials that run that last
/// chunk in the launch of the others take, past [`DEEP_K`], chunks of whole
/// K slices as their blocks want and no exact split ([`ragged_chunk`]). But
/// for a few-tiles call on other TMA partials, or up to [`DEEP_K`], where
/// none is, an exact split of fewer chunks, each at most
/// [`EXACT_SPLIT_MAX_EXTRA_K`] longer ([`exact_chunk_fewer`]); failing that,
/// from [`TMA_REMAINDER_MAX_QUARTERS`] quarters of a wave of tiles and K up
/// to [`DEEP_K`], no split. A memory-bound kernel's few-tiles split is
/// then trimmed to whole rounds of its slots where its blocks end under
/// half a round past them ([`whole_rounds_chunk`]). A chunk is doubled until there
/// are at most [`MAX_SPLITS`] and the workspace fits in
/// [`AUTO_WORKSPACE_CAP_BYTES`]; no split if that leaves fewer than two.
pub fn plan_split(mode: SplitK, call: &SplitCall) -> Result<Option<Split>, SplitError> {
    let SplitCall {
        m,
        n,
        k,
        batch,
        tiles,
        multiprocessors,
        dtype,
        tma_bytes_in_flight,
        blocks_per_sm,
        accuracy_chunk_scale,
        streaming_blocks_per_sm,
        few_tiles_waves,
        ..
    } = *call;
    match mode {
        SplitK::Off => Ok(None),
        SplitK::Chunk(0) => Err(SplitError::ZeroChunk),
        SplitK::Chunk(chunk) if chunk >= k => Ok(None),
        SplitK::Chunk(chunk) => {
            let split = Split::of(k, chunk);
            if split.splits > MAX_SPLITS {
                return Err(SplitError::TooManySplits { splits: split.splits as u64 });
            }
            Ok(Some(split))
        }
        SplitK::Auto if call.modeled_tile.is_some() && dtype == Dtype::F32 => {
            Ok(call.modeled_tile.and_then(|tile| f32_split(tile, (m, n, k, batch), multiprocessors).0))
        }
        SplitK::Auto => {
            let blocks = tiles.saturating_mul(batch as u64).max(1);
            let few_tiles = few_tiles_split(blocks, blocks_per_sm, k, multiprocessors);
            let for_accuracy = dtype == Dtype::F32 && k > DEEP_K;
            if !few_tiles && !for_accuracy {
                return Ok(short_k_split(call));
            }
            let granule = chunk_granule(dtype);
            // Chunks no shorter than CHUNK_FEW_TILES where the split fills
            // the GPU, none whose sums run longer than CHUNK_DEEP where it
            // is for accuracy (longer chunks where a thread sums a part).
            let shortest = if few_tiles { CHUNK_FEW_TILES } else { granule };
            let longest = if for_accuracy { CHUNK_DEEP.saturating_mul(accuracy_chunk_scale.max(1)) } else { k };
            // The nominal number of chunks (a real number).
            let mut nominal = if !few_tiles {
                k as f64 / longest as f64
            } else if tma_bytes_in_flight.is_some() {
                few_tiles_target(multiprocessors, tma_bytes_in_flight, 1, 1) as f64 / blocks as f64
            } else {
                // `blocks < multiprocessors`, so the count fits in u32.
                let target = few_tiles_target(multiprocessors, None, streaming_blocks_per_sm, few_tiles_waves);
                let splits = target.div_ceil(blocks) as u32;
                k.div_ceil(k.div_ceil(splits).next_multiple_of(CHUNK_FEW_TILES)) as f64
            };
            nominal = nominal.max(k as f64 / longest as f64);
            // A TMA kernel's blocks beyond one wave would wait for a second.
            let allowed =
                |splits: u32| tma_bytes_in_flight.is_none() || splits as u64 * blocks <= multiprocessors as u64;
            // No chunk divides K near the nominal count: that count of
            // equal chunks (a multiple of the granule, within the bounds),
            // and a last one of what is left, shorter than `splits × granule`.
            // Where that last chunk runs in the launch of the others, it
            // counts among the blocks `allowed` weighs.
            let chunk_for = |splits: u32| (k / splits / granule * granule).clamp(shortest.min(longest), longest);
            let launched = |splits: u32| {
                if call.last_chunk_in_launch { Split::of(k, chunk_for(splits)).splits } else { splits }
            };
            let with_remainder = || {
                let mut splits = ceil(nominal).max(k.div_ceil(longest));
                while splits >= 2 && !allowed(launched(splits)) {
                    splits -= 1;
                }
                if splits < 2 {
                    return k;
                }
                chunk_for(splits)
            };
            let exact = exact_chunk(k, nominal, granule, (shortest, longest), allowed);
            // Deep K on TMA partials that run a shorter last chunk in the
            // launch of the others: the chunks their blocks want, whole K
            // slices, the last shorter, rather than an exact split.
            let ragged = (tma_bytes_in_flight.is_some() && call.last_chunk_in_launch && k > DEEP_K).then(|| {
                let slice = tma_chunk_granule(dtype).max(granule);
                ragged_chunk(k, nominal, slice, (shortest, longest), allowed)
            });
            let mut chunk = match (exact, tma_bytes_in_flight, ragged) {
                (_, _, Some(ragged)) => ragged,
                (Some(chunk), _, None) => chunk,
                // TMA partials (TF32's, and up to DEEP_K the 16-bit ones,
                // whose rules were measured when their last chunk was a
                // launch of its own too): a last chunk of its own costs about
                // as much as EXACT_SPLIT_MAX_EXTRA_K more of every chunk, and
                // up to DEEP_K beside a quarter of a wave of tiles more than
                // the split gains.
                (None, Some(_), _) if few_tiles => {
                    let remainder_chunk = with_remainder();
                    let longest_exact = longest.min(remainder_chunk.saturating_add(EXACT_SPLIT_MAX_EXTRA_K));
                    match exact_chunk_fewer(k, granule, (shortest, longest_exact), allowed) {
                        Some(chunk) => chunk,
                        None if k <= DEEP_K && 4 * blocks >= TMA_REMAINDER_MAX_QUARTERS * multiprocessors as u64 => k,
                        None => remainder_chunk,
                    }
                }
                (None, _, _) => with_remainder(),
            };
            if few_tiles && streaming_blocks_per_sm > 0 {
                let slots = streaming_blocks_per_sm as u64 * multiprocessors as u64;
                chunk = whole_rounds_chunk(k, chunk, blocks, slots, granule, longest);
            }
            while chunk < k {
                let split = Split::of(k, chunk);
                if split.splits <= MAX_SPLITS && workspace_bytes(split, m, n, batch) <= AUTO_WORKSPACE_CAP_BYTES {
                    return Ok(Some(split));
                }
                chunk = chunk.saturating_mul(2);
            }
            Ok(None)
        }
    }
}

/// The chunk of a memory-bound kernel's few-tiles split of `k` into
/// chunks of `chunk`, trimmed to whole rounds of the kernel's `slots`
/// (blocks per multiprocessor × multiprocessors) where its blocks
/// (`blocks` × chunks) end under half a round past them: as many equal
/// chunks (multiples of `granule`, the last shorter, none over `longest`)
/// as those rounds hold; `chunk` otherwise. A short last round runs a few
/// blocks while most slots idle. H100 (PERF.md step 95, `auto`), the
/// rule's chunks → whole rounds, ms: TF32 `skinny_mma_r16` 1000×16×20000
/// (32 blocks, 10 chunks: 1.2 rounds of 264) 0.048 → 0.039 in 8,
/// 1000×16×9000 (9 chunks) 0.026 → 0.020 in 8; TF32 `skinny_r4`
/// 1000×4×100000 (20 chunks, 2.4 rounds) 0.171 → 0.161 in 16; f16
/// `skinny_mma` the same shape 0.090 → 0.085, 2000×2×50000 (63 blocks, 10
/// chunks) 0.091 → 0.086 in 8, 7×5×300001 (296 chunks of one block)
/// 0.018 → 0.016 in 263; `skinny_r16_2cta` level (TF32 1000×16×100000
/// 0.182 → 0.183; named, 2000×16×50000 0.180 / 0.181, 500×16×200000
/// 0.179 / 0.179). A last round half full or more stays: TF32
/// 700×16×20000 (22 blocks, 20 chunks, 1.67 rounds) 0.036, where 12 and
/// 24 chunks ran 0.039 (named).
pub const fn whole_rounds_chunk(k: u32, chunk: u32, blocks: u64, slots: u64, granule: u32, longest: u32) -> u32 {
    if chunk == 0 || blocks == 0 || slots == 0 {
        return chunk;
    }
    let placed = (k.div_ceil(chunk) as u64).saturating_mul(blocks);
    let (rounds, tail) = (placed / slots, placed % slots);
    if rounds == 0 || tail == 0 || tail >= slots - tail {
        return chunk;
    }
    let splits = rounds * slots / blocks;
    if splits < 2 || splits > u32::MAX as u64 {
        return chunk;
    }
    let whole = k.div_ceil(splits as u32).next_multiple_of(if granule == 0 { 1 } else { granule });
    if whole <= longest && whole < k { whole } else { chunk }
}

/// Whether the rule needs the partials kernel's blocks per multiprocessor
/// ([`SplitCall::blocks_per_sm`]) for an `Auto` call of `dtype` with
/// `blocks` blocks (tiles × batch) and depth `k`: a few-tiles split
/// (fewer blocks than `multiprocessors`) or a short-K one. The host asks
/// the driver for those calls only.
pub const fn wants_occupancy(dtype: Dtype, blocks: u64, k: u32, multiprocessors: u32) -> bool {
    blocks < multiprocessors as u64 || (short_k(dtype, k) && short_k_quarters(blocks, multiprocessors))
}

/// Whether a call of `dtype` and depth `k` is one [`short_k_split`] may
/// split: f32, K from [`SHORT_K_MIN`] to under [`FEW_TILES_MIN_K`].
const fn short_k(dtype: Dtype, k: u32) -> bool {
    matches!(dtype, Dtype::F32) && k >= SHORT_K_MIN && k < FEW_TILES_MIN_K
}

/// Whether `blocks` fill from [`SHORT_K_MIN_QUARTERS`] to under
/// [`SHORT_K_MAX_QUARTERS`] quarters of a wave of one block per
/// multiprocessor.
const fn short_k_quarters(blocks: u64, multiprocessors: u32) -> bool {
    let quarters = 4 * blocks;
    let wave = multiprocessors as u64;
    quarters >= SHORT_K_MIN_QUARTERS * wave && quarters < SHORT_K_MAX_QUARTERS * wave
}

/// The split of an f32 call on CUDA cores (no TMA) with K from
/// [`SHORT_K_MIN`] up to [`FEW_TILES_MIN_K`] whose blocks fill under half
/// of the slots its kernel has on the GPU (`blocks_per_sm` ×
/// multiprocessors) and from [`SHORT_K_MIN_QUARTERS`] to under
/// [`SHORT_K_MAX_QUARTERS`] quarters of a wave: as many chunks as fill those slots once, none shorter than
/// [`CHUNK_SHORT_K`], equal and making up K exactly (a shorter last chunk
/// would be a launch of its own); else `None`.
///
/// Why: such a call gives each multiprocessor at most one or two blocks, which
/// cannot hide its own load and barrier latency, while its kernel has room
/// for two to four (the f32 `db_*` and `wt_64x128x8` kernels). H100 SXM,
/// PERF.md step 61, TFLOP/s unsplit → split: 512³ on `db_64x64x16` (64
/// tiles, 4 blocks per SM) 11.0 → 15.2 in 4 chunks; 640³ (100 tiles) 17.8
/// → 19.5 in 5; 768³ (144) 16.4 → 18.7 in 2, 21.5 in 4; 1024³ on
/// `db_128x64x16` (128 tiles, 2 per SM) 31.3 → 32.4 in 2 and 31.3 in 4;
/// but `wt_64x128x8` (3 per SM) at 768³ 23.7 in 4 chunks (288 blocks)
/// and 19.8 in 6 (432, past its 396 slots), and `db_64x64x16` at 1024³
/// (256 tiles, half its slots) 29.6 → 27.0 in 2.
pub fn short_k_split(call: &SplitCall) -> Option<Split> {
    let SplitCall { k, batch, tiles, multiprocessors, dtype, tma_bytes_in_flight, blocks_per_sm, .. } = *call;
    let blocks = tiles.saturating_mul(batch as u64).max(1);
    let slots = blocks_per_sm as u64 * multiprocessors as u64;
    let few_tiles = short_k_quarters(blocks, multiprocessors);
    if !short_k(dtype, k) || tma_bytes_in_flight.is_some() || !few_tiles || 2 * blocks > slots {
        return None;
    }
    // At least 2: 2·blocks ≤ slots and K ≥ 4·CHUNK_SHORT_K.
    let nominal = (slots / blocks).min((k / CHUNK_SHORT_K) as u64) as f64;
    let fits = |splits: u32| splits as u64 * blocks <= slots;
    let chunk = exact_chunk(k, nominal, chunk_granule(dtype), (CHUNK_SHORT_K, k), fits)?;
    Some(Split::of(k, chunk))
}

/// The chunk of the exact split of `k` with the most chunks (at least two)
/// that `allowed` lets in, each a multiple of `granule` and from `shortest`
/// to `longest` long: for TMA partials where no count near the nominal one
/// divides K ([`plan_split`]).
pub fn exact_chunk_fewer(
    k: u32,
    granule: u32,
    (shortest, longest): (u32, u32),
    allowed: impl Fn(u32) -> bool,
) -> Option<u32> {
    (2..=MAX_SPLITS.min(k / shortest.max(1)))
        .rev()
        .find(|&splits| splits_exactly(k, splits, granule, (shortest, longest)) && allowed(splits))
        .map(|splits| k / splits)
}

/// The chunk of a split of `k` into at most `ceil(nominal)` chunks, as
/// many as `allowed` lets in (at least two, else `k`: no split), equal
/// multiples of `granule` from `shortest` to `longest` long and a shorter
/// last one: the deep-K split of TMA partials that run that last chunk in
/// the launch of the others ([`SplitCall::last_chunk_in_launch`]), in whole
/// K slices ([`tma_chunk_granule`]). Before, those took an exact split near
/// the nominal count ([`exact_chunk`]), whose chunks are rarely whole
/// slices, or else ran the last chunk as a launch of its own. H200
/// (PERF.md step 105), f16 on 128×128 tiles, ms: 200×200×100000 in 25
/// exact chunks of 4000 0.045, in 32 of 3136 0.042 (of 3128, 16-byte
/// steps, 0.051); 384×384×100000 in 10 of 10000 0.066, in 14 of 7168
/// 0.057 (of 7144: 0.084); 777×999×33333 in 2 of 16664 and a last of 5
/// apart 0.30, in 2 of 16704 0.255.
pub fn ragged_chunk(
    k: u32,
    nominal: f64,
    granule: u32,
    (shortest, longest): (u32, u32),
    allowed: impl Fn(u32) -> bool,
) -> u32 {
    let fits = |splits: u32| {
        let chunk = k.div_ceil(splits).next_multiple_of(granule).clamp(shortest.min(longest), longest);
        (chunk < k && allowed(Split::of(k, chunk).splits)).then_some(chunk)
    };
    (2..=ceil(nominal).max(k.div_ceil(longest.max(1))).min(MAX_SPLITS)).rev().find_map(fits).unwrap_or(k)
}

/// The least whole number ≥ `x` (x ≥ 0; `core` has no `f64::ceil`).
const fn ceil(x: f64) -> u32 {
    let whole = x as u32;
    if (whole as f64) < x { whole + 1 } else { whole }
}

/// The chunk of an exact split of `k` into `splits` equal chunks, each a
/// multiple of `granule` and from `shortest` to `longest` long, with
/// `splits` within [`EXACT_SPLIT_REACH`] of `nominal` and allowed by
/// `allowed`: the nearest to `nominal` by ratio (the fewer chunks where two
/// are as near).
/// With no remainder the partial sums are one launch: a shorter last chunk
/// is a second launch of one block per tile that starts when the first ends
/// and, as long as a chunk, doubles the time where the first launch is one
/// wave (H100, PERF.md step 55: 384×384×100000 f16 54% of cuBLAS on 7
/// chunks of 12800 and a last of 10400, 91% on 10 of 10000).
pub fn exact_chunk(
    k: u32,
    nominal: f64,
    granule: u32,
    (shortest, longest): (u32, u32),
    allowed: impl Fn(u32) -> bool,
) -> Option<u32> {
    let least = ceil(nominal / EXACT_SPLIT_REACH).max(2);
    let most = ((nominal * EXACT_SPLIT_REACH) as u32).min(MAX_SPLITS);
    // The ratio to the nominal count, ≥ 1 either way.
    let distance = |splits: u32| {
        let ratio = splits as f64 / nominal;
        if ratio < 1.0 { 1.0 / ratio } else { ratio }
    };
    (least..=most)
        .filter(|&splits| splits_exactly(k, splits, granule, (shortest, longest)) && allowed(splits))
        .reduce(|best, next| if distance(next) < distance(best) { next } else { best })
        .map(|splits| k / splits)
}

/// Whether `splits` equal chunks make up `k` exactly, each a multiple of
/// `granule` and from `shortest` to `longest` long.
fn splits_exactly(k: u32, splits: u32, granule: u32, (shortest, longest): (u32, u32)) -> bool {
    k.is_multiple_of(splits) && (k / splits).is_multiple_of(granule) && (shortest..=longest).contains(&(k / splits))
}

/// Kernels whose C is f32, with f32 accumulators: they can write the
/// partial sums of a split. The f32 and TF32 kernels qualify as they are; an
/// f16/bf16 kernel writes C in its own type, so its dtype's f32-output twin
/// ([`F32_OUTPUT_TWINS`], [`TMA_F32_OUTPUT_TWINS`]), or its own
/// ([`SAME_TILE_TWINS`], [`MEMORY_BOUND_F32_OUTPUT_TWINS`]), computes
/// the partials instead.
pub const fn writes_f32(spec: &KernelSpec) -> bool {
    matches!(spec.dtype, Dtype::F32 | Dtype::Tf32) || spec.features.f32_output
}

/// (dtype, the kernel that computes that dtype's split-K partial sums in
/// f32) for every 16-bit kernel without the TMA (`mma.sync`, `wgmma`,
/// ablations; not the memory-bound ones since PERF.md step 75:
/// [`MEMORY_BOUND_F32_OUTPUT_TWINS`]). A partial GEMM is an ordinary strided batch
/// with K = one chunk (≤ a few thousand), in the caller's operand layout, so
/// what it needs is every layout, any M and N, and a small tile for the
/// few-tiles case: the 128×128×32 `mma.sync` kernel with 32×64 warp tiles
/// (the default f16/bf16 kernel off Hopper) with an f32 epilogue.
pub const F32_OUTPUT_TWINS: &[(Dtype, &KernelSpec)] =
    &[(Dtype::F16, &MMA_F16_128X128X32_W32X64_F32OUT), (Dtype::Bf16, &MMA_BF16_128X128X32_W32X64_F32OUT)];

/// The same for the TMA kernels (step 10, Hopper): step 10's 128×128 tiles
/// with an f32 epilogue, which multiply at `wgmma` speed where the
/// `mma.sync` twin ran the partials of a deep-K f16 call at half of it
/// (PERF.md steps 36 and 39).
pub const TMA_F32_OUTPUT_TWINS: &[(Dtype, &KernelSpec)] =
    &[(Dtype::F16, &WS_F16_128X128X64_F32OUT), (Dtype::Bf16, &WS_BF16_128X128X64_F32OUT)];

/// Kernels whose own tile has an f32-output twin, and that twin: a call the
/// built-in choice gives step 10's 128×192 tiles for deep K (where they pad
/// N less than 128×128 ones, as at N = 192), or step 70's skinny tiles
/// (16×64, 64×16) for a few long rows, computes its partial sums on the same
/// tiles (step 92).
pub const SAME_TILE_TWINS: &[(&KernelSpec, &KernelSpec)] = &[
    (&WS_F16_128X192X64, &WS_F16_128X192X64_F32OUT),
    (&WS_BF16_128X192X64, &WS_BF16_128X192X64_F32OUT),
    (&MMA_F16_16X64X64, &MMA_F16_16X64X64_F32OUT),
    (&MMA_F16_64X16X64, &MMA_F16_64X16X64_F32OUT),
    (&MMA_BF16_16X64X64, &MMA_BF16_16X64X64_F32OUT),
    (&MMA_BF16_64X16X64, &MMA_BF16_64X16X64_F32OUT),
];

/// The 16-bit memory-bound kernels and their f32-output twins: a deep-K
/// call on the memory-bound path computes its partial sums on the same
/// kernel, streaming both small operands, as f32 calls do (the `mma.sync`
/// twin's 128×128 tiles held a row or a few of them: f16 7×5×300001 at 18%
/// of cuBLAS, 1×1×1000000 at 7%; H100, PERF.md step 75).
pub const MEMORY_BOUND_F32_OUTPUT_TWINS: &[(&KernelSpec, &KernelSpec)] = {
    use crate::memory_bound::*;
    &[
        (&SKINNY_F16_R1, &SKINNY_F16_R1_F32OUT),
        (&SKINNY_F16_R4, &SKINNY_F16_R4_F32OUT),
        (&SKINNY_F16_R8, &SKINNY_F16_R8_F32OUT),
        (&SKINNY_BF16_R1, &SKINNY_BF16_R1_F32OUT),
        (&SKINNY_BF16_R4, &SKINNY_BF16_R4_F32OUT),
        (&SKINNY_BF16_R8, &SKINNY_BF16_R8_F32OUT),
        (&SKINNY_MMA_F16, &SKINNY_MMA_F16_F32OUT),
        (&SKINNY_MMA_BF16, &SKINNY_MMA_BF16_F32OUT),
        (&SKINNY_MMA_F16_R16, &SKINNY_MMA_F16_R16_F32OUT),
        (&SKINNY_MMA_BF16_R16, &SKINNY_MMA_BF16_R16_F32OUT),
        (&SKINNY_MMA_L_F16, &SKINNY_MMA_L_F16_F32OUT),
        (&SKINNY_MMA_L_BF16, &SKINNY_MMA_L_BF16_F32OUT),
        (&SKINNY_MMA_L_F16_R16, &SKINNY_MMA_L_F16_R16_F32OUT),
        (&SKINNY_MMA_L_BF16_R16, &SKINNY_MMA_L_BF16_R16_F32OUT),
    ]
};

/// Whether an `m × n` call (`batch` matrices) of `spec` is better left
/// unsplit for its few tiles: `spec` is one of TF32's K-major TMA kernels
/// (step 10b), whose partial sums [`partials_kernel`] gives to TF32
/// `mma.sync` 64×128 at about half their speed, and its own blocks fill at
/// least [`SLOWER_PARTIALS_MIN_QUARTERS`] quarters of a wave. (Its 16-column
/// tiles split onto themselves; from there a split gained little or lost:
/// H200, PERF.md step 111, ms unsplit / in two chunks, 64×16: 3000×16×8192
/// 0.042 / 0.039, 3000×16×4096 0.025 / 0.024, 4100×16×8192 0.043 / 0.048,
/// 4224×16×8192 0.044 / 0.046.)
pub fn slower_partials_fill_gpu(spec: &KernelSpec, (m, n, batch): (u32, u32, u32), multiprocessors: u32) -> bool {
    k_major_tma_tf32(spec)
        && 4 * spec.grid(m, n).saturating_mul(batch as u64) >= SLOWER_PARTIALS_MIN_QUARTERS * multiprocessors as u64
}

/// Step 10b's TF32 TMA kernels, which read only K-major operands (the host
/// copies a row-major B transposed for them); not step 10f's swapped ones,
/// which read a row-major B in place.
const fn k_major_tma_tf32(spec: &KernelSpec) -> bool {
    matches!(spec.algorithm, crate::spec::Algorithm::WarpSpecialized)
        && matches!(spec.dtype, Dtype::Tf32)
        && !spec.is_swapped()
}

/// Step 10b's TF32 tiles of 16 columns (`WS_TF32_128X16X32`,
/// `WS_TF32_64X16X32`, PERF.md steps 109–111), which compute their own
/// partial sums: the transposed copy of a B of 16 columns is a small part
/// of a call that streams A, where the large tiles' copy of B doubled the
/// bytes of deep K, and `mma.sync` 64×128 would multiply 8 times the
/// columns. H200, 64×16 at 2000×16×8192: split in 4 chunks on
/// themselves 0.030 ms (PERF.md step 111, run 3), in 8 on `mma.sync`
/// 64×128 0.060 (step 110, run 7).
const fn narrow_k_major_tma_tf32(spec: &KernelSpec) -> bool {
    k_major_tma_tf32(spec) && spec.tile.bn <= 16
}

/// The kernel that computes the partial sums of a split of `spec`'s call:
/// `spec` itself when it writes f32 (f32, TF32 but its K-major TMA kernels
/// other than the 16-column ones, and the twins), else its f32-output twin of the same tile or kernel
/// ([`SAME_TILE_TWINS`], [`MEMORY_BOUND_F32_OUTPUT_TWINS`]) or of its
/// dtype, a TMA one for a TMA kernel. The partial GEMMs'
/// batches are K chunks of one A and B, so a K-major operand's matrices
/// overlap (their batch stride is the chunk, less than a row): the TMA
/// takes that, each chunk's K being the map's inner extent (`tma_refusal`
/// refuses only a batch stride of 0).
pub fn partials_kernel(spec: &'static KernelSpec) -> Option<&'static KernelSpec> {
    if writes_f32(spec) {
        // Except TF32's K-major TMA kernels: at deep K their partials (a
        // row-major B copied transposed first) ran at 57%, 63% and 37% of
        // cuBLAS where `mma.sync` 64×128 (two blocks per SM, every layout in
        // place) ran at 69%, 61% and 73% (H100, PERF.md step 39:
        // 128×128×65536, 256×256×131072, 64×192×300000).
        let on_mma_sync = k_major_tma_tf32(spec) && !narrow_k_major_tma_tf32(spec);
        return Some(if on_mma_sync { &crate::kernels::MMA_TF32_64X128X32 } else { spec });
    }
    let same_kernel = SAME_TILE_TWINS.iter().chain(MEMORY_BOUND_F32_OUTPUT_TWINS);
    if let Some((_, twin)) = same_kernel.into_iter().find(|(base, _)| base.name == spec.name) {
        return Some(twin);
    }
    let twins = if matches!(spec.algorithm, crate::spec::Algorithm::WarpSpecialized) {
        TMA_F32_OUTPUT_TWINS
    } else {
        F32_OUTPUT_TWINS
    };
    twins.iter().find(|(dtype, _)| *dtype == spec.dtype).map(|(_, twin)| *twin)
}

/// What a reduction kernel does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceRole {
    /// Sums groups of [`REDUCE_FAN_IN`] slabs into the group's first slab.
    Combine,
    /// Sums the last (at most [`REDUCE_FAN_IN`]) slabs and writes
    /// `C = α·sum + β·C` in C's element type; with no slabs, `C = β·C`
    /// (the α = 0 path: A and B are never read).
    Epilogue,
    /// The same for more than [`REDUCE_FAN_IN`] and at most
    /// [`EPILOGUE_FAN_IN`] slabs: the tree's last two levels
    /// ([`two_level_epilogue`]). An entry of its own, so that the one-level
    /// epilogue keeps its 26 registers (the two levels take 56).
    TwoLevelEpilogue,
}

/// A reduction kernel: its PTX entry (in the sm_80 module) and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceSpec {
    pub name: &'static str,
    pub role: ReduceRole,
    /// Element type of C it writes (the workspace is always f32).
    pub out: Dtype,
}

pub const REDUCE_COMBINE: ReduceSpec =
    ReduceSpec { name: "splitk_combine", role: ReduceRole::Combine, out: Dtype::F32 };
pub const EPILOGUE_F32: ReduceSpec =
    ReduceSpec { name: "sgemm_splitk_epilogue", role: ReduceRole::Epilogue, out: Dtype::F32 };
pub const EPILOGUE_F16: ReduceSpec =
    ReduceSpec { name: "hgemm_splitk_epilogue", role: ReduceRole::Epilogue, out: Dtype::F16 };
pub const EPILOGUE_BF16: ReduceSpec =
    ReduceSpec { name: "bgemm_splitk_epilogue", role: ReduceRole::Epilogue, out: Dtype::Bf16 };
pub const TWO_LEVEL_EPILOGUE_F32: ReduceSpec =
    ReduceSpec { name: "sgemm_splitk_epilogue_two_levels", role: ReduceRole::TwoLevelEpilogue, out: Dtype::F32 };
pub const TWO_LEVEL_EPILOGUE_F16: ReduceSpec =
    ReduceSpec { name: "hgemm_splitk_epilogue_two_levels", role: ReduceRole::TwoLevelEpilogue, out: Dtype::F16 };
pub const TWO_LEVEL_EPILOGUE_BF16: ReduceSpec =
    ReduceSpec { name: "bgemm_splitk_epilogue_two_levels", role: ReduceRole::TwoLevelEpilogue, out: Dtype::Bf16 };

/// Every reduction kernel (not GEMMs: they are not in [`crate::KERNELS`]).
pub const REDUCE_KERNELS: &[ReduceSpec] = &[
    REDUCE_COMBINE,
    EPILOGUE_F32,
    EPILOGUE_F16,
    EPILOGUE_BF16,
    TWO_LEVEL_EPILOGUE_F32,
    TWO_LEVEL_EPILOGUE_F16,
    TWO_LEVEL_EPILOGUE_BF16,
];

/// The epilogue that writes C of `dtype` (TF32's C is f32), summing one
/// level of the tree or, with `two_levels` ([`two_level_epilogue`]), two.
pub const fn epilogue_for(dtype: Dtype, two_levels: bool) -> &'static ReduceSpec {
    match (dtype, two_levels) {
        (Dtype::F32 | Dtype::Tf32, false) => &EPILOGUE_F32,
        (Dtype::F16, false) => &EPILOGUE_F16,
        (Dtype::Bf16, false) => &EPILOGUE_BF16,
        (Dtype::F32 | Dtype::Tf32, true) => &TWO_LEVEL_EPILOGUE_F32,
        (Dtype::F16, true) => &TWO_LEVEL_EPILOGUE_F16,
        (Dtype::Bf16, true) => &TWO_LEVEL_EPILOGUE_BF16,
    }
}

/// Groups of slabs a combine pass sums when the slabs to sum are `step`
/// apart: one grid row of `splitk_combine` each.
pub const fn combine_groups(splits: u32, step: u32) -> u32 {
    splits.div_ceil(step * REDUCE_FAN_IN)
}

/// Blocks of a reduction launch per matrix of the batch: `ceil(n / threads)`
/// column blocks times `row_groups` row groups (each block walks rows
/// `row_group, row_group + row_groups, …`). About `8 × multiprocessors`
/// blocks in all, fewer when C is small.
pub const fn reduce_geometry(m: u32, n: u32, batch: u32, multiprocessors: u32) -> (u32, u32) {
    blocks_over(m, n, batch, multiprocessors, REDUCE_THREADS)
}

/// Columns of C one block of the two-level epilogue covers: a warp's
/// worth, each of its [`REDUCE_FAN_IN`] warps summing one group of slabs
/// of them.
pub const TWO_LEVEL_COLUMNS: u32 = REDUCE_THREADS / REDUCE_FAN_IN;

/// Whether the epilogue sums two levels of the tree: more than
/// [`REDUCE_FAN_IN`] slabs are left `step` apart.
pub const fn two_level_epilogue(splits: u32, step: u32) -> bool {
    splits as u64 > REDUCE_FAN_IN as u64 * step as u64
}

/// Shared memory of the epilogue: with two levels, the groups' sums of
/// its block's columns.
pub const fn epilogue_smem_bytes(two_levels: bool) -> u32 {
    if two_levels { REDUCE_FAN_IN * TWO_LEVEL_COLUMNS * 4 } else { 0 }
}

/// [`reduce_geometry`] of the epilogue: with two levels, column blocks of
/// [`TWO_LEVEL_COLUMNS`].
pub const fn epilogue_geometry(m: u32, n: u32, batch: u32, multiprocessors: u32, two_levels: bool) -> (u32, u32) {
    blocks_over(m, n, batch, multiprocessors, if two_levels { TWO_LEVEL_COLUMNS } else { REDUCE_THREADS })
}

/// Column blocks of `columns` and row groups, about `8 × multiprocessors`
/// blocks in all.
const fn blocks_over(m: u32, n: u32, batch: u32, multiprocessors: u32, columns: u32) -> (u32, u32) {
    let col_blocks = n.div_ceil(columns);
    let per_matrix = (8 * multiprocessors).div_ceil(batch);
    let wanted = per_matrix.div_ceil(col_blocks);
    let row_groups = if wanted < 1 {
        1
    } else if wanted > m {
        m
    } else {
        wanted
    };
    (col_blocks, row_groups)
}
