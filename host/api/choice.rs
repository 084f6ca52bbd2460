//! Which kernel runs a call: the caller's [`KernelChoice::Kernel`], checked
//! against the dtype and layout, or, for [`KernelChoice::Auto`],
//! [`choose_kernel`]: the choice `gemm tune` measured on this GPU for the
//! shape ([`crate::api::tuned`]) when it can run the call, else the built-in
//! [`default_choice`] for the dtype, shape, layout and GPU. The library and
//! the CLI (`crate::tune::choose`) both choose through [`choose_kernel`].

use crate::api::options::{GemmOptions, KernelChoice, SplitK};
use crate::api::tuned::{TuneCache, tuned_choices};
use crate::driver::element::Element;
use crate::driver::error::{GemmError, Result};
use crate::driver::gpu::{DeviceInfo, Gpu};
use crate::driver::kernels::{Dtype, find_kernel, layout_name, short_name};
use crate::driver::launch::{Plan, call_refusal};
use crate::driver::operand_copies::{f32_realigned, operand_copies, realign_refusal, rows_on_16_bytes};
use crate::driver::ptx::entry_refusal;
use crate::driver::tensor_map::{c_map_usable, packed_plan};
use gemm_launch::split_k::{ModeledTile, f32_modeled_us, f32_split};
use gemm_launch::{Algorithm, KernelSpec, OperandLayout};

/// A tuned (or default) choice: which kernel, with which tile order.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    pub kernel: String,
    pub group_m: u32,
    /// Measured when tuned; absent for the built-in default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tflops: Option<f64>,
}

impl Choice {
    pub fn spec(&self, dtype: Dtype) -> Result<&'static KernelSpec> {
        find_kernel(dtype, &self.kernel)
    }
}

/// Each dtype's list for [`default_choice`]: (kernel, quarters of a wave
/// its tiles must fill to be taken), largest tile first. The numbers come
/// from measurements: `gemm rules` ([`crate::bench::rules`]) derives them
/// from runs of the named kernels, and tests/cpu.rs checks the committed
/// runs still give these.
pub fn choice_list(dtype: Dtype) -> &'static [(KernelSpec, i64)] {
    use gemm_launch::*;
    match dtype {
        // (Step 6's tiles after step 7b's, for the layouts 7b has not run.
        // Between 7b's two, as between step 10's three, wave fill decides:
        // `smaller_fills_better`.)
        Dtype::F32 => &[
            (WT_256X128X8, 2),
            (WT_128X128X8, 3),
            (WT_64X128X8, 4),
            (DB_256X128X8, 8),
            (DB_128X128X8, 3),
            (DB_128X64X16, 3),
            (DB_64X64X16, 0),
        ],
        Dtype::Tf32 => &[
            (WS_TF32_128X256X32, 2),
            (WS_TF32_128X192X32, 2),
            (WS_TF32_128X128X32, 0),
            (WGMMA_TF32_256X128X32, 8),
            (MMA_TF32_128X128X32, 3),
            (MMA_TF32_64X128X32, 0),
        ],
        Dtype::F16 => &[
            (WS_F16_128X256X64, 2),
            (WS_F16_128X192X64, 2),
            (WS_F16_128X128X64, 0),
            (WGMMA_F16_128X256X64, 3),
            (MMA_F16_128X128X32_W32X64, 0),
        ],
        Dtype::Bf16 => &[
            (WS_BF16_128X256X64, 2),
            (WS_BF16_128X192X64, 2),
            (WS_BF16_128X128X64, 0),
            (WGMMA_BF16_128X256X64, 3),
            (MMA_BF16_128X128X32_W32X64, 0),
        ],
    }
}

/// Built-in choice when nothing is cached. M or N ≤ 16 takes the
/// memory-bound path (16-bit calls from 2 rows or 8 columns take step 70's
/// or step 10's tiles instead, where they run; from 2 to 7 columns
/// [`few_columns_on_tiles`] gives them to step 70's 64×16 tiles or step
/// 86's tensor-core memory-bound kernel; from 8 to 16 columns
/// [`streams_on_tensor_cores`] gives those the 64×16 tiles do not take to
/// steps 86 and 88's, and so TF32 calls of 9 to 16 columns over short
/// rows and of 8 to 16 over a few long ones (step 93); TF32 calls from 8
/// rows step 10f's 16×128 tiles or step 9b's:
/// `memory_bound::tiles_beat_skinny`, `skinny_tf32_tiles`; TF32 calls of 8
/// to 16 columns under a larger M whose A the TMA reads in place, step
/// 10b's 128×16 tiles, [`narrow_columns_tf32_tiles`]). The
/// tensor-core memory-bound routes run on any GPU from sm_80 but were
/// measured on an H100 only. Where K is deep enough that the call
/// will be split, [`deep_k_list`] decides; where K is at most
/// [`SHALLOW_MAX_K`], [`shallow_k_kernel`] (TF32 with B row-major: step
/// 10f's 128×128 tiles; f32: step 7b's 64×64 tiles; 16-bit calls keep the
/// wave fill's tiles); TF32 calls of few tiles, [`few_tiles_tf32_kernel`]
/// (step 10f's 16×128 tiles); TF32 calls of 17 to 64 rows,
/// [`mid_rows_tf32_tiles`] (step 10f's 32×128 and 64×128 tiles); calls of
/// 17 to 64 columns, [`mid_columns_tiles`] (128×64 tiles); 16-bit calls whose small side is
/// M, A and B row-major and K under [`SWAPPED_SKINNY_MAX_K`] take step
/// 10g's tiles ([`swapped_skinny_tiles`]). Otherwise each dtype has a short list of kernels,
/// largest tile first, each with the fraction of a wave of blocks (one block
/// per multiprocessor) its tiles must fill to be chosen; the first that
/// fills it and whose entry for `layout` runs on a GPU of compute capability
/// `cc` ([`entry_refusal`]: `wgmma` on 9.0 only, not the entries ptxas
/// spills on 8.x) is taken, else the last that runs. The TMA kernels run
/// only when `tma_takes` them ([`auto_tma_refusal`]: no shared A or B in a batch,
/// and operands either 16-byte aligned or worth realigning), and no kernel
/// runs before a GPU has checked it
/// (`KernelSpec::is_unmeasured_in`). Large tiles win once
/// the GPU is full (the seeds' shape, `gemm tune`, docs/PERF.md); at 2048³
/// on an H100 one wave of `wgmma` tiles beat two of `mma.sync` (62% vs 45%
/// of cuBLAS) and the f32/TF32 128×128 tiles beat both their neighbours
/// (step 25); the warp-tiled f32 kernels beat step 6's at every shape
/// measured (step 29), and between their two tiles the one whose blocks
/// fill the last wave better, weighed by its rate, wins ([`wave_fill`],
/// [`TILE_RATES`]; step 44), and so between step 10's (and 10b's) 128×256,
/// 128×192 and 128×128 tiles (3072³ f16: 89% on 128×192 against 69% on
/// 128×256; step 46). Step 10's 128×256 tiles beat its 128×128 ones down
/// to half a wave (1536³: 55% of cuBLAS against 49%), and below that the
/// 128×128 ones beat every other (1024³: 86%, against 72% and `mma.sync`'s
/// 71%; PERF step 32); the same holds for TF32 (1536³: 68% against 59%;
/// 1024³: 75% against 52%, PERF step 37); `wgmma` and `mma.sync` take what
/// the TMA kernels do not. A TMA kernel is passed over for the next TMA
/// kernel in the list when that one's smaller tiles are as many (N ≤ 128
/// for 128×256 against 128×128). The last of each list runs on every GPU
/// and layout the build supports (tests/cpu.rs checks it).
pub fn default_choice(
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    multiprocessors: i32,
    layout: OperandLayout,
    cc: (i32, i32),
    tma_takes: impl Fn(&KernelSpec) -> bool,
) -> Choice {
    default_choice_for_batch(dtype, (m, n, k), 1, multiprocessors, layout, cc, tma_takes)
}

/// [`default_choice`] for a strided batch of `batch` matrices.
/// [`few_tiles_tf32_kernel`] reads the batch, whose rule holds for one
/// wave of tiles, and so do the few-tiles split filter of
/// [`mid_columns_tiles`] ([`few_tiles_split_takes`]) and the wave bounds
/// of [`narrow_columns_tf32_tiles`]; every other rule weighs one matrix.
pub fn default_choice_for_batch(
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    batch: u32,
    multiprocessors: i32,
    layout: OperandLayout,
    cc: (i32, i32),
    tma_takes: impl Fn(&KernelSpec) -> bool,
) -> Choice {
    let list = choice_list(dtype);
    let runs = |spec: &KernelSpec| runs_call(spec, layout, cc, tma_takes(spec));
    // M or N ≤ 16: the memory-bound path, for every layout, but the 16-bit
    // shapes that tensor-core tiles run faster (measured where the TMA
    // reads the operands in place, or step 70's tiles read them).
    let (m32, n32) = (m as u32, n as u32);
    let chosen =
        |spec: &KernelSpec| Choice { kernel: short_name(spec).into(), group_m: spec.default_group_m, tflops: None };
    if let Some(skinny) = gemm_launch::memory_bound::skinny_for(dtype, m32, n32) {
        let tiles_beat_skinny = gemm_launch::memory_bound::tiles_beat_skinny(dtype, m32, n32);
        // TF32 N of 8 to 16 under a larger M, A's rows on 16 bytes
        // (`tma_takes`: [`narrow_tiles_refusal`]): steps 109–110's 128×16
        // and 64×16 tiles.
        if let Some(spec) =
            narrow_columns_tf32_tiles(dtype, (m, n, k), batch, multiprocessors, layout).filter(|s| runs(s))
        {
            return chosen(spec);
        }
        // TF32 takes tensor-core tiles: the first of `skinny_tf32_tiles` that runs.
        if let Some(spec) = skinny_tf32_tiles(dtype, m, n, layout).iter().find(|spec| tiles_beat_skinny && runs(spec)) {
            return chosen(spec);
        }
        let hopper_tiles = list.iter().any(|(spec, _)| spec.algorithm == Algorithm::WarpSpecialized && runs(spec));
        // Steps 86 and 88's tensor-core memory-bound kernel, where it runs
        // (`runs` asks its refusal: the large operand along K).
        let skinny_mma = gemm_launch::memory_bound::skinny_mma_for(dtype, m32.min(n32));
        let skinny_mma = skinny_mma.as_ref().filter(|spec| runs(spec));
        // 16-bit with N of 2 to 7: with A and B row-major (as measured),
        // where step 10's tiles could take the call (Hopper; they refuse it
        // with A's rows off 16 bytes, and under 2²⁷ flop, where B's rows,
        // under 16 bytes, would need a realigned copy), step 70's 64×16
        // tiles where they run and win (PERF.md step 85); else step 86's
        // tensor-core memory-bound kernel where it reads A along K, and the
        // CUDA-core one otherwise (step 10's tiles, mostly padding there,
        // ran slower than either).
        // Step 70's skinny `mma.sync` tiles where they run and win
        // ([`skinny_tiles_win`]; `tma_takes` leaves A's rows off 16 bytes
        // to step 88's kernel where it streams them).
        let skinny_tiles = skinny_mma_tiles(dtype, m, n)
            .filter(|spec| runs(spec) && tma_takes(spec) && skinny_tiles_win(spec, (m, n, k), multiprocessors, layout));
        // Step 104: 16-bit, the large operand along L on tensor cores where
        // the TMA tiles would copy its rows realigned first, and where only
        // the CUDA-core kernel read it before ([`along_l_streams`]); but
        // from K = SWAPPED_SKINNY_MAX_K step 70's tiles, where they take
        // the call, read those rows in place and ran faster at 16×16383×4096
        // (0.106 ms against 0.129, H200, PERF.md step 104).
        let skinny_tiles_keep = tiles_beat_skinny
            && dtype != Dtype::Tf32
            && hopper_tiles
            && skinny_tiles.is_some()
            && k >= SWAPPED_SKINNY_MAX_K;
        if let Some(spec) = gemm_launch::memory_bound::skinny_mma_along_l_for(dtype, m32.min(n32))
            .as_ref()
            .filter(|spec| along_l_streams(dtype, (m, n), layout) && !skinny_tiles_keep && runs(spec))
        {
            return chosen(spec);
        }
        if few_columns_on_tiles(dtype, m32, n32) {
            let long_rows = (FEW_COLUMNS_STREAM_MIN_K..STREAM_MMA_MAX_K).contains(&k) && skinny_mma.is_some();
            if let Some(spec) = skinny_tiles.filter(|_| hopper_tiles && layout == OperandLayout::NN && !long_rows) {
                return chosen(spec);
            }
            // `runs` asks this kernel's refusal (A along K) too.
            return chosen(skinny_mma.unwrap_or(&skinny));
        }
        let tiles_win = tiles_beat_skinny && dtype != Dtype::Tf32 && hopper_tiles;
        // 16-bit M ≤ 16 with A and B row-major, K short of a split: step
        // 10g's persistent swapped tiles ([`SWAPPED_SKINNY_MAX_K`]).
        if let Some(spec) = swapped_skinny_tiles(dtype)
            .filter(|s| tiles_win && m <= n && layout == OperandLayout::NN && k < SWAPPED_SKINNY_MAX_K && runs(s))
        {
            return chosen(spec);
        }
        // 16-bit, where step 10's tiles run: the skinny tiles.
        if let Some(spec) = skinny_tiles.filter(|_| tiles_win) {
            return chosen(spec);
        }
        // N of 8 to 16 streamed on tensor cores where [`streams_on_tensor_cores`].
        if let Some(spec) =
            skinny_mma.filter(|_| streams_on_tensor_cores(dtype, (m, n, k), multiprocessors.max(0) as u32))
        {
            return chosen(spec);
        }
        if !tiles_win {
            return chosen(two_block_ring(&skinny, cc).unwrap_or(&skinny));
        }
    }
    let fills = |spec: &KernelSpec, quarters: i64| {
        4 * spec.grid(m as u32, n as u32) >= quarters as u64 * multiprocessors as u64
    };
    let runnable = || list.iter().filter(|(spec, _)| runs(spec));
    let grid = |s: &KernelSpec| s.grid(m as u32, n as u32);
    // A tile of step 7b or 10 gives way to a smaller one of its kind that
    // the call also lets in, where that one's blocks fill their last wave
    // (and their tiles C) enough better to make up its lower rate.
    let useful = |s: &KernelSpec| {
        let (bm, bn) = (s.tile.bm as u64, s.tile.bn as u64);
        (m as f64 * n as f64) / ((m as u64).div_ceil(bm) * bm * (n as u64).div_ceil(bn) * bn) as f64
    };
    let score = |s: &KernelSpec| wave_fill(grid(s), multiprocessors as u64) * useful(s) * tile_rate(s);
    // Step 10's 128×256 tiles read a row-major B's rows as 128-byte pieces;
    // where those rows start off the 32-byte sectors, step 10c's clusters,
    // which load each B slice once per pair of blocks, run 25–40% faster,
    // and the smaller tiles (unclustered) would meet the same slow rows.
    let cluster_twin = |spec: &KernelSpec| {
        CLUSTER_TWINS.iter().find(|(base, _)| base.name == spec.name).map(|(_, twin)| twin).filter(|twin| {
            !layout.b_col_major
                && b_rows_off_sectors(dtype, n)
                && m.div_ceil(spec.tile.bm as usize) >= CLUSTER_MIN_TILE_ROWS
                && runs(twin)
        })
    };
    let smaller_fills_better = |spec: &KernelSpec| {
        cluster_twin(spec).is_none()
            && matches!(spec.algorithm, Algorithm::WarpTiled | Algorithm::WarpSpecialized)
            && runnable().any(|(s, quarters)| {
                s.algorithm == spec.algorithm
                    && s.tile.bm * s.tile.bn < spec.tile.bm * spec.tile.bn
                    && fills(s, *quarters)
                    && score(s) > score(spec)
            })
    };
    let mut spec = &runnable()
        .find(|(spec, quarters)| fills(spec, *quarters) && !smaller_fills_better(spec))
        .or_else(|| runnable().next_back())
        .unwrap_or(&list[list.len() - 1])
        .0;
    // A larger TMA tile that makes no fewer tiles only multiplies padding:
    // at 16384×16×4096 f16, 128×256 tiles ran at 59% of cuBLAS and 128×128
    // ones, as many, at 91–95% (PERF step 39). Measured for step 10 only,
    // so applied to step 10 only.
    let area = |s: &KernelSpec| s.tile.bm * s.tile.bn;
    while let Some((smaller, _)) = runnable().skip_while(|(s, _)| s.name != spec.name).nth(1).filter(|(s, _)| {
        spec.algorithm == Algorithm::WarpSpecialized
            && s.algorithm == spec.algorithm
            && area(s) < area(spec)
            && grid(s) == grid(spec)
    }) {
        spec = smaller;
    }
    if let Some(twin) = cluster_twin(spec) {
        spec = twin;
    }
    // TF32 with a row-major B: the swapped twin reads it in place.
    if let Some(twin) = swapped_twin(spec, layout).filter(|twin| runs(twin)) {
        spec = twin;
    }
    // Shallow K, TF32 and f32: C's writes are the work. TF32's smaller
    // swapped tiles write less of it between their loads of the row-major
    // B they read in place; f32's 64×64 tiles, five blocks per SM, write
    // theirs while the other blocks load and multiply.
    if let Some(shallow) = shallow_k_kernel(dtype).filter(|s| {
        k <= SHALLOW_MAX_K
            && (dtype == Dtype::F32 || spec.algorithm == Algorithm::WarpSpecialized)
            && (!s.is_swapped() || !layout.b_col_major)
            && runs(s)
    }) {
        spec = shallow;
    }
    // TF32 of a few tiles: step 10f's 16×128 tiles where they make at most
    // one wave of blocks.
    if let Some(small) = few_tiles_tf32_kernel(dtype, (m, n, k), batch, multiprocessors, layout)
        .filter(|s| spec.algorithm == Algorithm::WarpSpecialized && runs(s))
    {
        spec = small;
    }
    // Deep K: the split's chunks, not the tiles, fill the GPU, so the tile
    // that wastes least of itself on padding, weighed by its rate there,
    // computes the partial sums. So also for f32 from F32_SPLIT_TILES_MIN_K
    // where even its largest tiles fill under F32_SPLIT_TILES_MAX_QUARTERS
    // of a wave (the split rule then splits them for their few tiles).
    let under = |s: &KernelSpec, quarters: u64| 4 * grid(s) < quarters * multiprocessors as u64;
    let deep = (k > gemm_launch::split_k::DEEP_K as usize
        && (dtype == Dtype::F32 || under(spec, gemm_launch::split_k::FEW_TILES_FULL_QUARTERS)))
        || (dtype == Dtype::F32
            && k >= F32_SPLIT_TILES_MIN_K
            && under(&gemm_launch::WT_256X128X8, F32_SPLIT_TILES_MAX_QUARTERS));
    if deep {
        // A swapped kernel where B is row-major; with a column-major B it
        // would copy B transposed, which the others do not need.
        let suits = |s: &KernelSpec| runs(s) && (!s.is_swapped() || !layout.b_col_major);
        let scored = deep_k_list(dtype).iter().filter(|(s, _)| suits(s)).map(|(s, rate)| (s, useful(s) * rate));
        // The first of equal scores (the list is best-first).
        if let Some((best, _)) = scored.reduce(|best, next| if next.1 > best.1 { next } else { best }) {
            spec = best;
        }
    }
    // TF32 of 17 to 64 rows: step 10f's tiles of 32 or 64 rows, split or
    // not, where it would run taller tiles (not the few-tiles rule's 16×128
    // ones).
    if let Some(rows) = mid_rows_tf32_tiles(dtype, (m, n, k), layout).filter(|s| spec.tile.bm > s.tile.bm && runs(s)) {
        spec = rows;
    }
    // N of 17 to 64 under a larger M: the 128×64 tiles where the choice so
    // far is wider and as tall (not the few-tiles rule's 16×128 ones), and
    // no few-tiles split would take the call: a split would run its
    // partial sums on other tiles (`split_k::partials_kernel`). TF32's
    // K-major tiles are not split from a quarter of a wave of blocks
    // (`split_k::slower_partials_fill_gpu`), so they take those calls.
    let few_tiles_split = |s: &KernelSpec| few_tiles_split_takes(s, (m, n, k), batch, multiprocessors);
    if let Some(columns) = mid_columns_tiles(dtype, (m, n, k), layout)
        .filter(|s| spec.tile.bn > s.tile.bn && spec.tile.bm >= s.tile.bm && !few_tiles_split(s) && runs(s))
    {
        spec = columns;
    }
    chosen(spec)
}

/// Whether a few-tiles split would take an `m × n × k` call (a strided
/// batch of `batch`) on `spec`'s tiles, so that `auto`'s split runs its
/// partial sums on other tiles (`split_k::partials_kernel`): its blocks
/// over the whole batch under a wave from K = `split_k::FEW_TILES_MIN_K`
/// (`split_k::few_tiles_split`), but not TF32's K-major TMA tiles from a
/// quarter of a wave (`split_k::slower_partials_fill_gpu`), which run
/// unsplit there. The filter of [`mid_columns_tiles`] (step 108;
/// [`narrow_columns_tf32_tiles`] used it too from step 109, until step
/// 111's bound on its blocks made it always false there).
pub fn few_tiles_split_takes(
    spec: &KernelSpec,
    (m, n, k): (usize, usize, usize),
    batch: u32,
    multiprocessors: i32,
) -> bool {
    let batch = batch.max(1);
    let blocks = spec.grid(m as u32, n as u32).saturating_mul(batch as u64);
    let sms = multiprocessors.max(0) as u32;
    gemm_launch::split_k::few_tiles_split(blocks, spec.min_blocks_per_sm.max(1), k as u32, sms)
        && !gemm_launch::split_k::slower_partials_fill_gpu(spec, (m as u32, n as u32, batch), sms)
}

/// The kernel [`default_choice`] gives a call with A and B row-major, N
/// of 17 to 64 the small side and K past [`SHALLOW_MAX_K`]: 128×64 tiles,
/// step 10's for 16-bit (`WS_F16_128X64X64`, `WS_BF16_128X64X64`) and
/// step 10b's for TF32 (`WS_TF32_128X64X32`, from
/// [`MID_COLUMNS_TF32_MIN_FLOP`]). Each block streams 128 rows of A once;
/// the 128×128 tiles the wave fill picks multiply two to seven times the
/// columns C has. H200, `auto` (PERF.md step 108), ms before → after (%
/// of cuBLAS after): f16 100000×32×1024 0.071 → 0.057 (97), 16384×24×4096
/// 0.056 → 0.048 (78–79), 20000×64×4096 0.066 → 0.055–0.056 (82–84),
/// 100000×24×777 0.173 → 0.157 (89), 65536×17×1024 0.079 → 0.062; bf16
/// alike; TF32 16384×24×4096 0.093 → 0.073 (116–119), 65536×17×1024
/// 0.122 → 0.077–0.079, 8191×40×2047 0.069 → 0.063, 100000×24×777 0.293
/// → 0.268 (52: A's rows, off 16 bytes, are copied first either way).
/// Named at 8192×48×8192 (64 tiles, K = 8192): TF32 128×64 unsplit 0.077
/// against `auto`'s 128×128 split in 2 0.093; f16 split in 2 on either
/// 0.054.
pub fn mid_columns_tiles(
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    layout: OperandLayout,
) -> Option<&'static KernelSpec> {
    let tiles = match dtype {
        Dtype::F16 => &gemm_launch::WS_F16_128X64X64,
        Dtype::Bf16 => &gemm_launch::WS_BF16_128X64X64,
        Dtype::Tf32 => &gemm_launch::WS_TF32_128X64X32,
        Dtype::F32 => return None,
    };
    let flop = 2.0 * m as f64 * n as f64 * k as f64;
    let enough = dtype != Dtype::Tf32 || flop >= MID_COLUMNS_TF32_MIN_FLOP;
    ((17..=64).contains(&n) && n < m && layout == OperandLayout::NN && k > SHALLOW_MAX_K && enough).then_some(tiles)
}

/// The kernel [`default_choice`] gives a TF32 call with A and B row-major,
/// N of 8 to 16 and K past [`SHALLOW_MAX_K`] up to `split_k::DEEP_K`, of
/// at least [`MID_COLUMNS_TF32_MIN_FLOP`] per matrix
/// ([`NARROW_64_ROWS_MIN_FLOP`] on the 64×16 tiles below; so M, at least
/// 1024, is the large side), with blocks enough over the `batch` (below):
/// step 10b's 128×16 tiles
/// (`WS_TF32_128X16X32`), whose producer streams 128 rows of A through the
/// TMA, twelve slices ahead, where the memory-bound kernels load A through
/// registers (TF32 `mma.sync` for N of 9 to 16 up to K = 2048, exact f32
/// on CUDA cores deeper and at N = 8). `auto` leaves them calls whose A
/// rows are off 16 bytes ([`narrow_tiles_refusal`]). H200, named (PERF.md
/// step 109, run 3), ms, `auto`'s kernel → 128×16 (% of cuBLAS after):
/// 16384×16×4096 0.094 → 0.072–0.073 (112), 65536×16×1024 0.089 →
/// 0.073–0.074 (125–126), 100000×16×768 0.102 → 0.082–0.083 (113–114),
/// 8192×16×8192 0.092 → 0.080–0.081 (99–100), 32768×16×2048 0.092 →
/// 0.073–0.074 (105–106), 16384×8×4096 0.111 → 0.072, 16384×12×4096 0.119
/// → 0.072–0.073, 100000×16×256 0.044 → 0.035 (139–140); 64–79% of the
/// memory bandwidth where the kernels before ran 47–64%. Under the flop
/// floor they lost or tied (run 5: 4096×16×2047 0.040 against 0.033,
/// 8192×16×512 0.013 against 0.011, 3000×16×1000 level), and split
/// with their partial sums on `mma_64x128x32`, as before step 111, they
/// lost (4000×16×4096 0.059 against the memory-bound kernel's 0.035).
///
/// Where the 128×16 tiles' blocks over the batch fill under half a wave,
/// step 110's 64×16 tiles (`WS_TF32_64X16X32`, one consumer warpgroup),
/// twice the blocks, from [`NARROW_64_ROWS_MIN_FLOP`], while their own
/// blocks fill 34% of a wave ([`NARROW_64_ROWS_MIN_WAVE_PERCENT`]).
/// `auto`, ms before → after (run 8, new-old-new): 4000×16×4096 0.036 →
/// 0.026 (74 → 101–103% of cuBLAS), 3000×16×4096 0.031 → 0.025–0.026
/// (69 → 83–84), 6000×16×2048 0.024 → 0.020 (96 → 113), 5000×16×4096
/// 0.034 → 0.029–0.030, 8192×16×8192 0.077 → 0.074. Not measured:
/// batches. H200, named (PERF.md
/// step 110, run 7), ms, `auto`'s kernel, 128×16 → 64×16 unsplit:
/// 4000×16×4096 0.035 (`skinny_r16_2cta`, 74% of cuBLAS), 0.033 → 0.026
/// (102–103%), 8192×16×8192 0.080–0.081 → 0.072–0.073 (99 → 111),
/// 6000×16×2048 0.024 (`skinny_mma_r16`), 0.022 → 0.020; but
/// 16384×16×4096 (128 blocks of 128×16) 0.072 → 0.074, and split
/// (2000×16×8192, 32 blocks; partial sums on `mma_64x128x32`, before
/// step 111, which runs them on the tiles: 0.029–0.030) 0.060 against
/// `skinny_mma_r16` split, 0.030.
///
/// Every call this rule takes has at least 34% of a wave of blocks,
/// more than the quarter from which `split_k::slower_partials_fill_gpu`
/// leaves these tiles unsplit: no few-tiles split takes them
/// ([`few_tiles_split_takes`] is false for all of them; a compile-time
/// assert below ties the two bounds).
pub fn narrow_columns_tf32_tiles(
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    batch: u32,
    multiprocessors: i32,
    layout: OperandLayout,
) -> Option<&'static KernelSpec> {
    let (wide, narrow) = (&gemm_launch::WS_TF32_128X16X32, &gemm_launch::WS_TF32_64X16X32);
    let sms = multiprocessors.max(0) as u64;
    let blocks = |tiles: &KernelSpec| tiles.grid(m as u32, n as u32).saturating_mul(batch.max(1) as u64);
    let under_half_a_wave = blocks(wide).saturating_mul(2) < sms;
    let (tiles, least_flop) =
        if under_half_a_wave { (narrow, NARROW_64_ROWS_MIN_FLOP) } else { (wide, MID_COLUMNS_TF32_MIN_FLOP) };
    let enough_blocks =
        !under_half_a_wave || blocks(narrow).saturating_mul(100) >= NARROW_64_ROWS_MIN_WAVE_PERCENT * sms;
    let flop = 2.0 * m as f64 * n as f64 * k as f64;
    let depth = k > SHALLOW_MAX_K && k <= gemm_launch::split_k::DEEP_K as usize;
    let shape = (8..=16).contains(&n) && layout == OperandLayout::NN && depth && flop >= least_flop;
    (dtype == Dtype::Tf32 && shape && enough_blocks).then_some(tiles)
}

/// Percent of a wave of 64×16 blocks (over the batch) from which
/// [`narrow_columns_tf32_tiles`] gives a call the 64×16 tiles (45 blocks
/// on 132 SMs): with fewer, each block streams its 64 rows at about 50
/// GB/s, a single SM's pace through its 16 stages (0.042–0.044 ms at K =
/// 8192 for any 32 to 66 blocks), and the memory-bound route's split,
/// more blocks over chunks of K, runs faster, until its chunks grow few:
/// at K = 4096, 3 chunks from about 2400 rows to 44 blocks, 2 from 45
/// (`split_k::split_for` at two blocks per SM). H200, ms, 64×16 unsplit
/// against the memory-bound route (PERF.md steps 111–112): 32 blocks,
/// 2000×16×4096 0.024 / 0.018; 40, 2500×16×8192 0.042 / 0.035,
/// 2500×16×4096 0.024–0.025 / 0.019–0.021; 41, 2561×16×4096 0.024–0.025
/// / 0.020–0.021, 2624×16×4096 0.025 / –; 42, 2625×16×4096 – / 0.020;
/// 47, 3000×16×4096 0.025 / 0.030–0.031 (2 chunks), 3000×16×8192
/// 0.042 / 0.043; 65, 4100×16×8192 0.043 / 0.071 (`skinny_r16_2cta`,
/// unsplit: step 110's K bound had sent it there). 43 and 44 blocks at K
/// = 4096, and 41 to 44 at K = 8192, were not run with step 112's
/// memory-bound kernels (before it, those with M a multiple of 32 read
/// their last block with care, at twice the time).
/// Measured on 132 SMs only: no other SM count was run.
pub const NARROW_64_ROWS_MIN_WAVE_PERCENT: u64 = 34;
// The tiles' blocks fill at least the quarters of a wave from which `auto`
// leaves them unsplit, so no few-tiles split takes a call the rule gives
// them (the 128×16 side, from half a wave, more so).
const _: () = assert!(4 * NARROW_64_ROWS_MIN_WAVE_PERCENT >= 100 * gemm_launch::split_k::SLOWER_PARTIALS_MIN_QUARTERS);

/// Least work (2·M·N·K flops) for [`narrow_columns_tf32_tiles`]' 64×16
/// tiles: 2²⁸ (2.7·10⁸), between 8192×16×512 (1.3·10⁸), where they ran
/// level with `skinny_mma_r16` (0.010–0.013 ms against 0.011), and
/// 6000×16×2048 (3.9·10⁸), where they ran 0.020 against 0.024; the 128×16
/// tiles keep [`MID_COLUMNS_TF32_MIN_FLOP`] (H200, PERF.md steps 109–110).
pub const NARROW_64_ROWS_MIN_FLOP: f64 = (1u64 << 28) as f64;

/// Why `auto` does not give a call to the 128×16 tiles of
/// [`narrow_columns_tf32_tiles`]: A's rows off 16 bytes, which the TMA
/// would read from a realigned copy, as many bytes again as the call
/// streams, where the memory-bound kernels read them in place (H200,
/// PERF.md step 109: 100000×16×777 0.246 ms against `skinny_mma_r16`'s
/// 0.122). `None` for every other kernel and call.
pub fn narrow_tiles_refusal(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<String> {
    let narrow = [gemm_launch::WS_TF32_128X16X32.name, gemm_launch::WS_TF32_64X16X32.name];
    if !narrow.contains(&spec.name) {
        return None;
    }
    // (Only a realigning copy: a transposing one is a layout the rule does
    // not give these tiles, which a tune cache may.)
    let realigns_a =
        operand_copies(spec, plan, pointers).is_some_and(|call| call.copies[0].is_some_and(|a| !a.transpose));
    realigns_a.then(|| {
        "A's rows are off 16 bytes: the 128×16 tiles would stream a realigned copy of A, which the memory-bound \
         kernels read in place"
            .to_string()
    })
}

/// Least work (2·M·N·K flops) for [`mid_columns_tiles`]' TF32 tiles: 2²⁹
/// (5.4·10⁸). They read B K-major, so a row-major B is copied transposed
/// first, a launch of its own, where the swapped 128×128 tiles read it in
/// place: at 3000×64×333 (1.3·10⁸) they ran 0.0185–0.0200 ms against
/// 0.0144; at 8191×40×2047 (1.3·10⁹) 0.063 against 0.069 (H200, PERF.md
/// step 108). The floor of [`narrow_columns_tf32_tiles`]' 128×16 tiles
/// too, which copy B the same way: below it they lost or tied (PERF.md
/// step 109, run 5).
pub const MID_COLUMNS_TF32_MIN_FLOP: f64 = (1u64 << 29) as f64;

/// The kernel [`default_choice`] gives a TF32 call with A and B row-major,
/// M of 17 to 64 the small side and K past [`SHALLOW_MAX_K`]: step 10f's
/// swapped tiles of 32 rows to M = 32 (`WS_TF32_32X128X32_RS`), of 64
/// beyond (`WS_TF32_64X128X32_RS`), where B's rows are off 16 bytes their
/// twins that read them in place. Each block streams 128 columns of B
/// once, as the 16×128 tiles made for M ≤ 16 do, and its `wgmma`s are no
/// wider than the rows: the 128- and 256-row tiles the wave fill and the
/// deep-K list pick do 2 to 15 times the work the call needs, and at one
/// tile row read B no less. H200, `auto` (PERF.md step 107's table, run
/// 2), ms before → after (% of cuBLAS after): 17×100001×1023 0.530 →
/// 0.128 (138), 24×65536×129 0.047 → 0.019 (107), 32×16384×4096 0.100 →
/// 0.069 (112), 33×30000×999 0.085 → 0.041 (145), 40×20000×2000 0.153 →
/// 0.057 (96), 48×8191×4095 0.074 → 0.054 (122), split: 64×192×300000
/// 0.113 → 0.093 (95–97). Named (run 1), the 32-row tiles win to M = 32
/// (17×100001×1023: 0.128 against 0.136 on 64 rows; 24×65536×129 0.019
/// against 0.025), the 64-row ones beyond (33×30000×999: 0.042 against
/// 0.071).
pub fn mid_rows_tf32_tiles(
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    layout: OperandLayout,
) -> Option<&'static KernelSpec> {
    let rows = match m {
        17..=32 => &gemm_launch::WS_TF32_32X128X32_RS,
        33..=64 => &gemm_launch::WS_TF32_64X128X32_RS,
        _ => return None,
    };
    (dtype == Dtype::Tf32 && layout == OperandLayout::NN && m <= n && k > SHALLOW_MAX_K).then_some(rows)
}

/// Where K is deep enough that a call is split ([`gemm_launch::split_k`]:
/// f32 beyond `DEEP_K` always, TF32 where its tiles are few), the kernels
/// [`default_choice`] weighs for the partial sums, with their rates there
/// against the first (H100 SXM, PERF.md step 48: f32 at 256×512×65536,
/// 512×512×32768 and 1024²×16384, 94.7/95.8/92.3% of cuBLAS on
/// `wt_256x128x8`; TF32 at 512×512×32768 and 1024²×16384, 67.3/61.3% on
/// step 9b's 256×128). By the share of each padded tile in C, times these,
/// it picks the fastest or within 2 points of it at 128×128×65536,
/// 256×256×131072, 64×192×300000, 384×384×100000 and 100×3000×20000 (f32
/// was 59–83% there on `db_64x64x16`, now 67–91%; TF32 20–74%, now
/// 53–77%). TF32 with a row-major B takes step 10f's swapped tiles, which
/// read it in place (PERF.md step 62, at 512×512×32768, where every tile
/// pads alike: 128×128 271 TFLOP/s, 256×128 232, step 9b's 256×128 127;
/// 128×128 ran fastest or level with 256×128 at every deep shape
/// measured, 92–145% of cuBLAS). f32's 64×64 warp tiles (step 7b's,
/// 0.85) take the calls where 64×64 pads least, in place of step 6's
/// `db_64x64x16`, which now serves only the layouts they do not read
/// (PERF.md step 99, H100, each split as the rule splits it, % of cuBLAS,
/// `db_64x64x16` → `wt_64x64x8`: 47×307×53605 56.5 → 93, 35×92×215606 52
/// → 78, 22×56×171379 63 → 95, 64×192×300000 88.5 → 101). At 0.9 they
/// also took 411×248×74905 from `wt_256x128x8`, which pads a little more
/// and ran 8–11% faster there (0.485 against 0.523–0.539 ms); 0.85 leaves it.
/// TF32's `mma.sync` 64×192 where it pads N less than 64×128
/// (step 54: 64×576×65536 82% of cuBLAS against 51%, 64×192×300000 72%
/// against 72%; 128×128×65536, where it pads more, 68.5% against 74%).
/// The 16-bit types split onto f32-output twins of step 10's
/// tiles (`split_k::partials_kernel`): 128×128, or 128×192 where it pads N
/// less (64×192×300000: one tile column reads A once per chunk, where two
/// 128×128 columns read it twice: 68% of cuBLAS → 82%, and 64×576×65536
/// 55% → 63%, step 54); ties go to 128×128, which ran level with or faster
/// than 128×192 at 128×128×65536, 384×384×100000 and 100×3000×20000. Off
/// Hopper the list's kernels do not run and the call keeps its kernel and
/// twin.
pub fn deep_k_list(dtype: Dtype) -> &'static [(KernelSpec, f64)] {
    use gemm_launch::*;
    match dtype {
        Dtype::F32 => {
            &[(WT_256X128X8, 1.0), (WT_128X128X8, 0.93), (WT_64X64X8, 0.85), (DB_128X64X16, 0.79), (DB_64X64X16, 0.66)]
        }
        // `mma.sync` 64×128 runs every layout and GPU; the `wgmma` tiles
        // read row-major operands on Hopper; step 10f's swapped tiles, taken
        // only for a row-major B, read it in place.
        Dtype::Tf32 => &[
            (WS_TF32_128X128X32_RS, 2.1),
            (WS_TF32_256X128X32_RS, 1.8),
            (WGMMA_TF32_256X128X32, 1.0),
            (WGMMA_TF32_128X256X32, 0.89),
            (MMA_TF32_64X128X32, 0.55),
            (MMA_TF32_64X192X32, 0.55),
        ],
        Dtype::F16 => &[(WS_F16_128X128X64, 1.0), (WS_F16_128X192X64, 1.0)],
        Dtype::Bf16 => &[(WS_BF16_128X128X64, 1.0), (WS_BF16_128X192X64, 1.0)],
    }
}

/// The 16-row f32/TF32 kernel at two blocks per SM (`skinny_r16_2cta`) in
/// place of `skinny` (`skinny_r16`) on a GPU with the shared memory for two
/// rings per SM (Hopper, 228 KiB; measured there only). H100, % of cuBLAS,
/// one block per SM → two: X read along L (PERF.md step 65, run 5)
/// 16×200000×256 68.5 → 88.5, 16×16384×4096 102 → 115; along K (step 67)
/// 100000×16×512 94 → 111, 200000×16×256 78.5 → 102.5, 16384×16×4096 148
/// → 166.
fn two_block_ring(skinny: &KernelSpec, cc: (i32, i32)) -> Option<&'static KernelSpec> {
    use gemm_launch::memory_bound::{SKINNY_F32_R16, SKINNY_F32_R16_2CTA, SKINNY_TF32_R16, SKINNY_TF32_R16_2CTA};
    let twin = match skinny.name {
        name if name == SKINNY_F32_R16.name => &SKINNY_F32_R16_2CTA,
        name if name == SKINNY_TF32_R16.name => &SKINNY_TF32_R16_2CTA,
        _ => return None,
    };
    (cc.0 == 9).then_some(twin)
}

/// The kernel [`default_choice`] gives a call of K up to [`SHALLOW_MAX_K`]:
/// where it would run step 10, TF32 (two K slices) with a row-major B,
/// step 10f's 128×128 swapped tiles, whose blocks write half the C of the
/// 256×128 ones between their loads. H200 (PERF.md step 101, runs 1 and
/// 2), named, % of cuBLAS, 256×128 → 128×128: 8192²×16 75–79 → 85,
/// 8192²×32 83 → 95, 8192²×48 86 → 91.5, 8192²×64 95 → 100, 4096²×16 84 →
/// 92, 6492×5008×24 88 → 96, 6000×5000×64 95–96 → 104–106 (`auto`'s
/// 128×192 99); level at K = 128 (8192²: 88 / 89), behind at 256 (4096²:
/// 93 / 89).
///
/// 16-bit calls keep the wave fill's one-block tiles. Step 49 gave them
/// step 10d's two blocks per SM (H100, f16 8192²×16 85.6% of cuBLAS
/// against 62.9% on 128×256), but step 52 then took the per-pair branches
/// out of the one-block tiles' epilogue where β = 0, which step 10d's
/// 96 registers could not hold (H100: f16 4096²×64 27.0 → 15.3 µs on
/// 128×256, cuBLAS 15.6). H200 (PERF.md step 105, run 2), named, ms,
/// two-block → the wave fill's one-block tile: f16 8192²×16 0.060 → 0.045
/// (79 → 107% of cuBLAS), 8192²×64 0.060 → 0.043, 16384×4096×48 0.060 →
/// 0.043, 4096²×64 0.019 → 0.014, 6492×5008×24 0.036 → 0.026, bf16
/// 8192²×16 0.060 → 0.044; every shallow shape measured was faster.
///
/// f32 calls with A and B row-major (the layouts the warp tiles were timed
/// in), whatever tile the wave fill picks: step 7b's 64×64 tiles,
/// five blocks of four warps per SM, where the 256×128 ones run one block
/// of eight, whose epilogue (C's writes, the work here) nothing else on
/// the SM overlaps. Where C's rows are off 16 bytes the host launches
/// their twin that writes C's rows whole (`gemm_launch::WT_64X64X8_CU`).
/// H200 (PERF.md step 106, runs 1 and 3), named, ms, the tile `auto` ran
/// before → 64×64: 8192²×16 0.126 → 0.094 (110 → 148% of cuBLAS),
/// 8192²×48 0.210 → 0.194, 6492×5008×24 0.077 → 0.065, 6000×5000×64
/// 0.130 → 0.119, 1000×999×16 (`db_128x64x16`) 0.010 → 0.007; C's rows
/// off 16 bytes, on the twin: 6492×5009×24 0.098 → 0.084 (84 → 98%),
/// 3030×10002×4 0.070 → 0.054; but 4096²×64 0.066 → 0.068.
pub fn shallow_k_kernel(dtype: Dtype) -> Option<&'static KernelSpec> {
    match dtype {
        Dtype::Tf32 => Some(&gemm_launch::WS_TF32_128X128X32_RS),
        Dtype::F32 => Some(&gemm_launch::WT_64X64X8),
        Dtype::F16 | Dtype::Bf16 => None,
    }
}

/// Deepest K that [`default_choice`] gives to [`shallow_k_kernel`]: two K
/// slices of TF32's tiles (one of the 16-bit tiles'). f32's 64×64 tiles
/// ran ahead of 256×128 up to K = 48 at every shape measured, and at K =
/// 64 ahead at 6000×5000 (0.119 against 0.130 ms), level at 8192² and
/// behind at 4096² (0.068 against 0.066; PERF.md step 106).
pub const SHALLOW_MAX_K: usize = 64;

/// The kernel [`default_choice`] gives a TF32 call with A and B row-major
/// and K under `split_k::FEW_TILES_MIN_K` (short of the few-tiles split)
/// whose blocks of step 10f's 16×128 tiles (`WS_TF32_16X128X32_RS`, made
/// for M ≤ 16), over all `batch` matrices, are at most one per
/// multiprocessor, where it would run tiles of 128 rows: at 512³ those
/// make 16 blocks, the 16×128 tiles 128. (Past one wave the 16×128 tiles
/// lose: their `m64n16` steps do a sixteenth of the 128-row tiles' work
/// per load of B.)
/// H200 (PERF.md step 106, run 1), named, ms, 128×128 → 16×128: 512³
/// 0.012 → 0.008 (77 → 114% of cuBLAS), 256³ 0.009 → 0.006–0.007; but
/// 768³ (288 blocks) 0.015 → 0.021.
pub fn few_tiles_tf32_kernel(
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    batch: u32,
    multiprocessors: i32,
    layout: OperandLayout,
) -> Option<&'static KernelSpec> {
    let small = &gemm_launch::WS_TF32_16X128X32_RS;
    let blocks = small.grid(m as u32, n as u32).saturating_mul(batch.max(1) as u64);
    let one_wave = blocks <= multiprocessors.max(0) as u64;
    let short_k = k < gemm_launch::split_k::FEW_TILES_MIN_K as usize;
    (dtype == Dtype::Tf32 && layout == OperandLayout::NN && one_wave && short_k).then_some(small)
}

/// The tile kernels a TF32 call with M of 8 to 16 (the small side) runs
/// ([`gemm_launch::memory_bound::tiles_beat_skinny`]), the first that can:
/// with A and B row-major, step 10f's 16×128 tiles, which stream B through
/// the TMA (PERF.md step 63); then step 9b's `wgmma` 128×256 tiles (H100,
/// PERF.md step 48, K = 4096 and 8192: 81–85% of cuBLAS, where the
/// memory-bound kernels ran 42–80%).
fn skinny_tf32_tiles(dtype: Dtype, m: usize, n: usize, layout: OperandLayout) -> &'static [KernelSpec] {
    use gemm_launch::{WGMMA_TF32_128X256X32, WS_TF32_16X128X32_RS};
    // Only M the small side (`tiles_beat_skinny`); measured with row-major
    // A and B only.
    match (dtype, m <= n) {
        (Dtype::Tf32, true) if layout == OperandLayout::NN => &[WS_TF32_16X128X32_RS, WGMMA_TF32_128X256X32],
        (Dtype::Tf32, true) => &[WGMMA_TF32_128X256X32],
        _ => &[],
    }
}

/// Whether step 70's skinny tiles `spec` beat step 10's tiles on an
/// `m × n × k` call that both can take: K of at least
/// [`SKINNY_TILES_MIN_K`] (M the small side: [`SHORT_ROWS_TILES_MIN_K`]), and blocks that fill half a wave or K short of
/// a split, or a call that splits onto the tiles' own f32-output twins
/// (step 92: A and B row-major, as measured, M the small side or N of 8 to
/// 16, and a long side over 16). H100
/// (PERF.md step 70), % of cuBLAS, skinny tiles unsplit / step 10's
/// 128×128: f16 16384×16×4096 99.6 / 95.8, 8192×16×8192 (128 blocks)
/// 100.8 / 84.6, 100000×16×512 95 / 77.5, 2×50000×1000 94 / 73,
/// 16×16384×4096 98.7 / 89.5; but 16×200000×256 85 / 94 (4 slices a
/// block: its pipeline fills and drains on every tile, where step 10's
/// persistent blocks run on). That K threshold holds where M is the small
/// side or N is at most 8 (where step 86's 8-row kernel streams short
/// rows faster: f16 100000×8×256 93 against the tiles' 62); with N of 9 to
/// 16 the 64×16 tiles win from K = [`WIDE_COLUMNS_TILES_MIN_K`], the least
/// measured, over step 88's `skinny_mma_r16` and step 10's tiles alike
/// (H100, PERF.md steps 90 and 92, f16 tiles / `skinny_mma_r16`:
/// 100000×16×8 110 / 42, 100000×16×32 128 / 53, 100000×16×64 92 / 62,
/// 100000×16×128 73 / 42, 100000×16×256 97 / 76.5 (step 10's 62),
/// 100000×16×384 101 / 72, 50000×16×256 91 / 67, 200000×16×128 87 / 54;
/// bf16 alike). Split onto their own twins by the rule (step 92), a few
/// long rows mostly stream faster on the tiles than on what `auto` ran
/// before (H100, PERF.md step 92, f16, `auto`, ms before → after:
/// 2000×16×10000 0.028 → 0.019, 4000×16×9000 0.045 → 0.039,
/// 1000×16×4096 0.015 → 0.014, 700×16×60000 0.049 → 0.045 (step 10's),
/// 1000×16×100000 0.100 → 0.094 (step 10's), 3000×16×30000 0.096 → 0.088,
/// where step 10's tiles ran 0.078 named in 5 chunks; M small, 16×64
/// tiles: 16×1000×20000 0.029 → 0.021, 8×2000×16384 0.034 → 0.031; named,
/// N = 8: 2000×8×10000 0.023 against `skinny_mma`'s 0.027, 4000×8×9000
/// 0.039 / 0.044, 1000×8×50000 0.056 against step 10's 0.061, but
/// 1000×8×12000 0.017 / 0.016). Measured on single calls with A and B
/// row-major: other layouts, and N of 2 to 7, keep the half-wave bound;
/// a batch counts as one call here (the split rule weighs its tiles).
pub fn skinny_tiles_win(
    spec: &KernelSpec,
    (m, n, k): (usize, usize, usize),
    multiprocessors: i32,
    layout: OperandLayout,
) -> bool {
    let blocks = spec.grid(m as u32, n as u32);
    let half_wave = gemm_launch::split_k::skinny_tiles_fill_half_wave(blocks, multiprocessors.max(0) as u32);
    let mma_rows = gemm_launch::memory_bound::MMA_ROWS as usize;
    let wide_columns = m > n && n > mma_rows;
    // M the small side over rows of B shorter than SKINNY_TILES_MIN_K: the
    // tiles from SHORT_ROWS_TILES_MIN_K where their blocks are few enough
    // or K long enough (SHORT_ROWS_TILES_MAX_WAVES).
    let short_rows = m <= n
        && layout == OperandLayout::NN
        && k >= SHORT_ROWS_TILES_MIN_K
        && (k >= SHORT_ROWS_ANY_WAVES_MIN_K || blocks <= SHORT_ROWS_TILES_MAX_WAVES * multiprocessors.max(0) as u64);
    let long_enough = k >= SKINNY_TILES_MIN_K || (wide_columns && k >= WIDE_COLUMNS_TILES_MIN_K) || short_rows;
    let long_side = m.max(n) > gemm_launch::memory_bound::MAX_SMALL_SIDE as usize;
    let splits_on_own_tiles = layout == OperandLayout::NN && long_side && (m <= n || n >= mma_rows);
    long_enough && (half_wave || k < gemm_launch::split_k::FEW_TILES_MIN_K as usize || splits_on_own_tiles)
}

/// Whether a 16-bit `m × n` call whose small side is N, of 2 to 7
/// columns, goes to step 70's 64×16 tiles where [`skinny_tiles_win`], and
/// to step 86's tensor-core memory-bound kernel otherwise (where it reads
/// A along K: not with A column-major), rather than to the CUDA-core
/// memory-bound kernel alone (`memory_bound::tiles_beat_skinny` gives
/// 16-bit calls to tiles from N = 8). The CUDA-core kernels multiply with
/// 4 or 8 rows per block (225 and 255 registers, one block per SM), and the
/// tiles' B, a row shorter than 16 bytes, is read element by element
/// ([`skinny_tiles_refusal`] lets it). H100 (PERF.md step 85), `auto`, %
/// of cuBLAS before → after: f16 100000×4×776 63 → 122, 16384×4×1024 89
/// → 151, 16384×6×4096 50.5 → 87, 50000×7×1000 72 → 168; bf16 16384×4×1024
/// 77–79 → 126–133. [`default_choice`] gives the tiles only calls with A
/// and B row-major (as measured) where step 10's tiles could take them,
/// which leaves out A's rows off 16 bytes (K not a multiple of 8) and calls
/// under 2²⁷ flop (`REALIGN_SKINNY_MIN_FLOP`: those tiles would copy B); step 86's
/// kernel takes the rest (PERF.md step 86, named, f16: 100000×4×777 133%
/// where the tiles ran 75% and the CUDA-core kernel 49%, 8192×5×8191 81%
/// (38, 31), 100000×4×256 105% (107, 33)), and those on other GPUs or with
/// B column-major, where the tiles were not measured; and from K =
/// [`FEW_COLUMNS_STREAM_MIN_K`] every call it runs (PERF.md step 89).
pub const fn few_columns_on_tiles(dtype: Dtype, m: u32, n: u32) -> bool {
    matches!(dtype, Dtype::F16 | Dtype::Bf16) && m > n && n >= 2 && n < 8
}

/// Whether `auto` streams an `m × n × k` call whose small side is N, of 8
/// to 16 columns (16-bit) or 9 to 16 (TF32; 8 to 16 on few long rows), on the tensor-core
/// memory-bound kernel (`skinny_mma`, `skinny_mma_r16`: PERF.md step 88)
/// where it runs (A row-major) and step 70's 64×16 tiles do not take the
/// call (16-bit: B's rows off 16 bytes at N of 9 to 15; A's rows off 16
/// bytes, [`skinny_tiles_refusal`]; N = 8 with K under
/// [`SKINNY_TILES_MIN_K`], [`skinny_tiles_win`]).
/// H100, named, % of cuBLAS, the kernel `auto` ran before → this one:
/// f16 100000×16×777 113 → 157, 100000×12×777 58 → 128, 30000×11×2001
/// 64 → 154.5, 50000×9×1000 151 → 190, 8192×16×8191 69 → 82.5,
/// 4096×16×16383 61 → 87, 100000×8×777 87 → 144 (bf16 alike); but with
/// A's rows on 16 bytes the 64×16 tiles keep their calls (16384×16×4096
/// 100 against 63.5, 8192×16×8192 100 against 48), and at K of 10⁵
/// (1000×16×100000, split) step 10's tiles ran 79 against 65, so K from
/// [`STREAM_MMA_MAX_K`] leaves this kernel (since step 92 for the 64×16
/// tiles, split, where their few tiles take such calls: 84%). TF32 until now ran these calls in
/// exact f32 on CUDA cores, which keep up where rows are long (K ≥
/// 4096: 16384×16×4096 103 against 70) and not where they are short and
/// many: 100000×16×777 83 → 102, 100000×12×777 92.6 → 114.5,
/// 30000×11×2001 105 → 122, 50000×9×1000 114 → 120.5 (100000×16×512
/// level, 102 / 99.6), so TF32 streams on tensor cores to K =
/// [`STREAM_TF32_MAX_K`]; and where the rule splits a memory-bound call
/// (`split_k::memory_bound_splits` of this kernel's blocks on
/// `multiprocessors`: K over `split_k::DEEP_K`, or from
/// `split_k::FEW_TILES_MIN_K` with few blocks; unsplit, rows ran slower on
/// TF32 `mma`, 16384×16×4096 0.122 against 0.106 ms, 4000×16×4096 0.052
/// against 0.033) to [`TF32_ROWS_STREAM_MAX_K`], on few long rows
/// ([`TF32_STREAM_ROWS`], N of 8 to 16), where each chunk streams faster
/// on tensor cores than exact f32 does (PERF.md step 94, named, both
/// split by the rule, ms, exact f32 → TF32 `mma`: 2000×16×8192 0.040 →
/// 0.034, 3000×16×8192 0.054 → 0.048, 1000×16×4096 0.016 → 0.012,
/// 700×16×4096 0.014 → 0.013, 1000×8×4096 0.014 → 0.012; PERF.md
/// step 93, `auto`, ms, exact f32 → TF32 `mma`: 700×16×20000 0.041 →
/// 0.036, 1000×16×20000 0.054 → 0.048, 2000×16×20000 0.083 → 0.071,
/// 3000×16×20000 0.115 → 0.111, 1000×16×9000 0.031 → 0.025, 2000×16×10000
/// 0.052 → 0.049, 1000×12×16384 0.041 → 0.034, 1000×8×12000 0.034 →
/// 0.030, 4000×16×9000 level; named: 500×16×20000 level, 0.030 / 0.029,
/// 500×16×200000 0.180 / 0.218, unsplit 16384×16×4096 0.106 / 0.122).
pub const fn streams_on_tensor_cores(dtype: Dtype, (m, n, k): (usize, usize, usize), multiprocessors: u32) -> bool {
    let few_columns = m > n && n <= gemm_launch::memory_bound::MMA_ROWS_WIDE as usize;
    let blocks = gemm_launch::memory_bound::SKINNY_MMA_TF32_R16.grid(m as u32, n as u32);
    // Never the "dot" pattern: `accuracy_chunk_scale` is 1 on tensor cores.
    let splits = gemm_launch::split_k::memory_bound_splits(k as u32, blocks, multiprocessors, false);
    let few_long_rows =
        TF32_STREAM_ROWS.start <= m && m < TF32_STREAM_ROWS.end && n >= 8 && splits && k <= TF32_ROWS_STREAM_MAX_K;
    match dtype {
        Dtype::F16 | Dtype::Bf16 => few_columns && n >= 8 && k < STREAM_MMA_MAX_K,
        Dtype::Tf32 => few_columns && (tf32_short_rows(n, k) || few_long_rows),
        Dtype::F32 => false,
    }
}

/// K from which [`streams_on_tensor_cores`] leaves 16-bit calls to tiles.
pub const STREAM_MMA_MAX_K: usize = 32768;
/// Largest K for which [`streams_on_tensor_cores`] takes TF32 calls.
pub const STREAM_TF32_MAX_K: usize = 2048;
/// Whether TF32 N of `n` over rows of `k` are the short rows that
/// [`streams_on_tensor_cores`] takes unsplit: N of 9 to 16 (the caller's
/// few columns), K ≤ [`STREAM_TF32_MAX_K`].
pub const fn tf32_short_rows(n: usize, k: usize) -> bool {
    n >= 9 && k <= STREAM_TF32_MAX_K
}
/// The long sides (M) over which [`streams_on_tensor_cores`] takes TF32
/// calls with N of 8 to 16 and split K: from the fewest rows measured to win
/// (700; 500 ran level or slower), to 4096, where `skinny_r16_2cta`'s
/// blocks of 32 rows near a wave and the call stops splitting at K over
/// `split_k::DEEP_K` (4000×16×9000 level, 81 / 81% of cuBLAS, PERF.md
/// step 92's run 1); at K ≤ `DEEP_K` it stops from 99 blocks (3137 rows,
/// `split_k::memory_bound_splits`).
pub const TF32_STREAM_ROWS: core::ops::Range<usize> = 700..4096;
/// Deepest K at which [`streams_on_tensor_cores`] takes TF32 calls over
/// [`TF32_STREAM_ROWS`]: the deepest measured where TF32 `mma` won every
/// time. Deeper it lost at 3000×16×30000 (0.172 → 0.188 ms) and
/// 700×16×60000 (0.083 → 0.096) and won at 1000×16×100000 (0.182 →
/// 0.170): no rule found (PERF.md step 93).
pub const TF32_ROWS_STREAM_MAX_K: usize = 20_000;

/// The kernel for a call the route gave `spec`: the exact-f32 memory-bound
/// kernel where [`streams_on_tensor_cores`] gave few long TF32 rows to
/// `skinny_mma_r16` for a split that this call does not get, `spec`
/// otherwise. The route sees one matrix under `SplitK::Auto`; a batch
/// whose blocks fill three quarters of a wave, `SplitK::Off` or a chunk
/// of all K run unsplit, where those rows ran slower on TF32 `mma` than
/// in exact f32 (H100, PERF.md step 94, unsplit: 700×16×4096 0.046
/// against 0.032 ms, 4000×16×4096 0.052 against 0.033).
pub fn rows_kernel_for_split(
    spec: &'static KernelSpec,
    options: &GemmOptions,
    plan: &Plan,
    multiprocessors: u32,
    cc: (i32, i32),
) -> &'static KernelSpec {
    use gemm_launch::memory_bound::{SKINNY_MMA_TF32_R16, SKINNY_TF32_R16};
    if spec.name != SKINNY_MMA_TF32_R16.name || tf32_short_rows(plan.n as usize, plan.k as usize) {
        return spec;
    }
    let blocks = spec.grid(plan.m, plan.n).saturating_mul(plan.batch as u64);
    let splits = match options.split_k {
        SplitK::Off => false,
        SplitK::Chunk(chunk) => chunk < plan.k,
        SplitK::Auto => gemm_launch::split_k::memory_bound_splits(plan.k, blocks, multiprocessors, false),
    };
    if splits { spec } else { two_block_ring(&SKINNY_TF32_R16, cc).unwrap_or(&SKINNY_TF32_R16) }
}

/// K from which a 16-bit call of N of 2 to 7 ([`few_columns_on_tiles`])
/// streams on step 86's kernel where it runs, even where step 70's 64×16
/// tiles would take it (up to [`STREAM_MMA_MAX_K`], as for N of 8 to 16:
/// deep K was not measured against the tiles here): since step 89 reads
/// the large operand evict-first, long rows stream faster there. H100, named, % of cuBLAS, tiles →
/// `skinny_mma` (PERF.md step 89): f16 8192×4×8192 52 → 88, 8192×3×8192
/// 75.5 → 126.5 (bf16 100 → 169), 16384×4×4096 85 → 102. Below it the
/// tiles keep their calls (step 86: 100000×4×776 122 against 120;
/// step 85: 16384×4×1024 151, 50000×7×1000 168).
pub const FEW_COLUMNS_STREAM_MIN_K: usize = 4096;

/// Least K for which [`default_choice`] takes step 70's skinny tiles where
/// M is the small side or N is at most 8 ([`skinny_tiles_win`]).
pub const SKINNY_TILES_MIN_K: usize = 512;
/// Least K for which [`skinny_tiles_win`] gives a 16-bit call whose small
/// side is M, A and B row-major, to step 70's 16×64 tiles with K under
/// [`SKINNY_TILES_MIN_K`]: from [`SHORT_ROWS_ANY_WAVES_MIN_K`] at any size
/// measured, below it where they make at most
/// [`SHORT_ROWS_TILES_MAX_WAVES`] waves of blocks (one per SM): each block
/// fills and drains its pipeline over few slices, which step 10's
/// persistent blocks do not, and many waves of it lose. H200 (PERF.md step
/// 101, runs 1 and 2), f16, ms, step 10's tiles (`auto` before) / the
/// 16×64 tiles: 12×50000×384 0.017 / 0.013, 16×100000×384 0.033 / 0.028,
/// 16×60000×448 0.024 / 0.022, 8×42216×504 0.022 / 0.020, 4×80000×320
/// 0.022 / 0.020, 16×30000×256 (3.6 waves) 0.009 / 0.008, 12×30000×128
/// 0.008 / 0.007; but 8×100000×256 (11.8 waves) 0.022 / 0.022,
/// 16×200000×256 (23.7) 0.037 / 0.040, 8×200000×128 0.022 / 0.029 (bf16
/// alike).
pub const SHORT_ROWS_TILES_MIN_K: usize = 128;
/// K from which [`SHORT_ROWS_TILES_MIN_K`]'s calls take the tiles at any
/// number of blocks (the shortest measured to win at 12 waves).
pub const SHORT_ROWS_ANY_WAVES_MIN_K: usize = 320;
/// Waves of blocks up to which [`SHORT_ROWS_TILES_MIN_K`]'s calls with K
/// under [`SHORT_ROWS_ANY_WAVES_MIN_K`] take the tiles.
pub const SHORT_ROWS_TILES_MAX_WAVES: u64 = 8;
/// Least K for which [`default_choice`] takes step 70's 64×16 tiles with N
/// of 9 to 16 ([`skinny_tiles_win`]): the shortest measured (PERF.md step
/// 92, A row-major: f16 100000×16×8 0.012 ms against `skinny_mma_r16`'s
/// 0.033). A row-major A's rows are on 16 bytes from it; with A
/// column-major shorter K was not measured.
pub const WIDE_COLUMNS_TILES_MIN_K: usize = 8;

/// Step 70's skinny `mma.sync` tiles of a 16-bit call whose small side is
/// M (16×64) or N (64×16), which [`default_choice`] takes where
/// `memory_bound::tiles_beat_skinny` (or [`few_columns_on_tiles`]) gives
/// the call to tiles, their small operand lies on 16 bytes or is a
/// row-major B of rows under 16 bytes ([`skinny_tiles_refusal`]) and
/// [`skinny_tiles_win`].
pub fn skinny_mma_tiles(dtype: Dtype, m: usize, n: usize) -> Option<&'static KernelSpec> {
    use gemm_launch::{MMA_BF16_16X64X64, MMA_BF16_64X16X64, MMA_F16_16X64X64, MMA_F16_64X16X64};
    match (dtype, m <= n) {
        (Dtype::F16, true) => Some(&MMA_F16_16X64X64),
        (Dtype::F16, false) => Some(&MMA_F16_64X16X64),
        (Dtype::Bf16, true) => Some(&MMA_BF16_16X64X64),
        (Dtype::Bf16, false) => Some(&MMA_BF16_64X16X64),
        (Dtype::F32 | Dtype::Tf32, _) => None,
    }
}

/// Step 10g's swapped 16×128 TMA tiles of a 16-bit dtype, which
/// [`default_choice`] gives the calls whose small side is M (A and B
/// row-major) with K under [`SWAPPED_SKINNY_MAX_K`], where step 10's tiles
/// would run: they stream B through the TMA in persistent blocks, where
/// step 70's 16×64 tiles fill and drain a pipeline per tile and step 10's
/// compute 128-row tiles of which 16 rows or fewer are real. H200 (PERF.md
/// step 102), `auto` before → after, ms, f16 (bf16 alike): 12×50000×384
/// 0.0134 → 0.0109, 4×80000×320 0.0208 → 0.0177, 2×100000×512 0.0341 →
/// 0.0311, 16×200000×256 0.0376 → 0.0345, 8×200000×128 0.0224 → 0.0205,
/// 16×8192×2040 0.0120 → 0.0111, 8×42212×501 (both operands realigned)
/// 0.0530 → 0.0472; level at 16×30000×256 and, in `auto`, 16×16384×1024
/// (0.0093 / 0.0094 ms; named 58.4 / 56.4 TFLOP/s, step 70's ahead); at K =
/// 4096 step 70's tiles stay ahead (16×16384×4096 60.1 against 57.6).
pub fn swapped_skinny_tiles(dtype: Dtype) -> Option<&'static KernelSpec> {
    match dtype {
        Dtype::F16 => Some(&gemm_launch::WS_F16_16X128X64_RS),
        Dtype::Bf16 => Some(&gemm_launch::WS_BF16_16X128X64_RS),
        Dtype::F32 | Dtype::Tf32 => None,
    }
}

/// K from which [`swapped_skinny_tiles`] leaves 16-bit calls to the rule
/// before them (deeper calls split, onto other tiles' f32 partial sums).
pub const SWAPPED_SKINNY_MAX_K: usize = gemm_launch::split_k::FEW_TILES_MIN_K as usize;

/// Why `auto` does not give a call to step 70's skinny tiles
/// ([`skinny_mma_tiles`]) on a GPU of `multiprocessors` SMs: their small
/// operand (B where N is the small side, A where M is) off 16 bytes (its
/// start, leading dimension, batch stride or run of elements), which they
/// would read element by element, one load at a time between their
/// `mma`s (but for a row-major B of rows shorter than 16 bytes, N of 2 to
/// 7 in 16-bit, which they read so faster than any other kernel runs the
/// call: [`few_columns_on_tiles`]); or their large operand off 16 bytes, which they realign in
/// shared memory (step 72), with fewer blocks than SMs: one block of four
/// warps per SM cannot hide the realigning's latency (H100, PERF.md step
/// 72: f16 8192×16×8191, 128 blocks, 0.199 ms against 0.052 with the rows
/// on 16 bytes). Such calls go to step 10's tiles on realigned copies, or
/// where [`streams_on_tensor_cores`] to the tensor-core memory-bound
/// kernel (steps 86 and 88), which also takes those with more blocks (f16
/// 100000×16×777: 157% of cuBLAS against the tiles' 113%). Since `gemm
/// tune` asks these refusals too, it does not time the tiles there.
/// `None` for every other kernel.
pub fn skinny_tiles_refusal(
    spec: &KernelSpec,
    plan: &Plan,
    pointers: [u64; 3],
    multiprocessors: u32,
) -> Option<String> {
    if !spec.is_skinny_tile() {
        return None;
    }
    let bytes = spec.dtype.element_bytes() as u64;
    let a = ("A", pointers[0], plan.lda, plan.stride_a, if plan.layout.a_col_major { plan.m } else { plan.k });
    let b = ("B", pointers[1], plan.ldb, plan.stride_b, if plan.layout.b_col_major { plan.k } else { plan.n });
    let (small, large) = if spec.tile.bn <= 16 { (b, a) } else { (a, b) };
    // Element by element unless the rows start on 16 bytes and are whole
    // 16-byte chunks long (`Operands::new` in the kernels).
    let off = |(_, address, ld, stride, run): (&str, u64, u32, u64, u32)| {
        !rows_on_16_bytes(address, ld, stride, plan.batch, bytes) || !(run as u64 * bytes).is_multiple_of(16)
    };
    // A row-major B of fewer than 16 bytes a row (N of 2 to 7 in 16-bit)
    // is that small: read element by element, the 64×16 tiles still beat
    // the other kernels ([`few_columns_on_tiles`]).
    let short_rows = spec.tile.bn <= 16 && !plan.layout.b_col_major && plan.n >= 2 && (plan.n as u64 * bytes) < 16;
    if off(small) && !short_rows {
        return Some(format!(
            "{}, the small operand, has rows off 16 bytes: the skinny tiles would read it element by element",
            small.0
        ));
    }
    let blocks = spec.grid(plan.m, plan.n).saturating_mul(plan.batch as u64);
    if off(large) && blocks < multiprocessors as u64 {
        return Some(format!(
            "{}, the large operand, has rows off 16 bytes, and the skinny tiles' {blocks} blocks are fewer than the \
             {multiprocessors} SMs: realigning it in shared memory would cost more than copying it",
            large.0
        ));
    }
    let mnk = (plan.m as usize, plan.n as usize, plan.k as usize);
    (off(large) && !plan.layout.a_col_major && streams_on_tensor_cores(spec.dtype, mnk, multiprocessors)).then(|| {
        format!(
            "{}, the large operand, has rows off 16 bytes: the tensor-core memory-bound kernel streams it faster \
             than the skinny tiles realign it",
            large.0
        )
    })
}

/// Step 10's kernels and their 2×1-cluster twins (step 10c), which the
/// built-in choice takes for a row-major B whose rows start off the 32-byte
/// sectors ([`b_rows_off_sectors`]), and not otherwise: on an H100 (PERF
/// step 45, f16) 4096×3000×4096 ran 63.9% of cuBLAS on step 10 and 90.5%
/// on 10c, 5000×5000×2000 65.5 and 80.8%, 4000×3000×1000 61.8 and 76.1%;
/// with rows on the sectors 10c was 0–3% slower (N = 3072, 4096, 8192;
/// N = 4000: equal). TF32's B reached step 10b K-major (transposed copy),
/// where 10c was level: no TF32 twin here (a row-major B now goes to step
/// 10f's swapped tiles, [`SWAPPED_TWINS`], unclustered).
pub const CLUSTER_TWINS: &[(KernelSpec, KernelSpec)] = {
    use gemm_launch::*;
    &[(WS_F16_128X256X64, WS_F16_128X256X64_C2), (WS_BF16_128X256X64, WS_BF16_128X256X64_C2)]
};

/// Step 10b's TF32 kernels and their swapped twins (step 10f), which read
/// a row-major B in place where step 10b has the host copy it transposed
/// first: the built-in choice takes the twin for a row-major B. H100, % of
/// cuBLAS, step 10b → twin (PERF.md step 62): 1024³ 82–87 → 91–94 (128×128),
/// 2048³ 78 → 103, 4096³ 85 → 95, 8192×4096×6144 90 → 92–94 (128×256 →
/// 256×128). Step 10b's 128×192 tiles have no twin: at 3072³, where the
/// choice takes them, they ran 105.5% and the swapped 256×128 tiles 96–98%.
pub const SWAPPED_TWINS: &[(KernelSpec, KernelSpec)] = {
    use gemm_launch::*;
    &[(WS_TF32_128X256X32, WS_TF32_256X128X32_RS), (WS_TF32_128X128X32, WS_TF32_128X128X32_RS)]
};

/// `spec`'s swapped twin ([`SWAPPED_TWINS`]) for a call whose B lies as
/// `layout` says, where B is row-major.
fn swapped_twin(spec: &KernelSpec, layout: OperandLayout) -> Option<&'static KernelSpec> {
    let twin = SWAPPED_TWINS.iter().find(|(base, _)| base.name == spec.name).map(|(_, twin)| twin);
    twin.filter(|_| !layout.b_col_major)
}

/// `spec`, or where `gpu` cannot place its clusters (`Gpu::clusters_fit`)
/// the kernel whose cluster twin it is ([`CLUSTER_TWINS`]): what `auto`
/// runs, in the library (`Gpu::gemm`) and the CLI (`tune::choose`).
pub fn placeable(gpu: &Gpu, spec: &'static KernelSpec, layout: OperandLayout) -> &'static KernelSpec {
    if gpu.clusters_fit(spec, layout) {
        return spec;
    }
    CLUSTER_TWINS.iter().find(|(_, twin)| twin.name == spec.name).map_or(spec, |(base, _)| base)
}

/// The fewest rows of tiles for which the built-in choice takes a cluster
/// twin: with one to three, a pair's second tile lies past M for a third to
/// half of the clusters, and step 10 ran faster (H100, f16, K = 4096, PERF.md
/// step 48: M = 64, 128, 256, 384 at 92, 67, 68, 60% of cuBLAS on step 10
/// and 57, 62, 66, 57% on 10c; M = 640 and 1152 85 and 56% against 95 and
/// 61%).
pub const CLUSTER_MIN_TILE_ROWS: usize = 4;

/// K from which an f32 call whose largest tiles (`wt_256x128x8`) fill
/// under [`F32_SPLIT_TILES_MAX_QUARTERS`] of a wave takes the deep-K list's
/// tile ([`deep_k_list`]), which the split rule then splits for its few
/// tiles, instead of the smaller tiles that the wave fill picks. H100
/// (PERF.md step 64), % of cuBLAS, the wave fill's tile (`auto`, split for
/// few tiles where it has under a wave of them) against `wt_256x128x8` in
/// chunks of 512: 768²×4096 42 / 62, 1024²×4096 79 / 95, 512²×8192 68 /
/// 94; but at K = 3000, 1000²×3000 77 / 50.
pub const F32_SPLIT_TILES_MIN_K: usize = 4096;
/// Quarters of a wave under which `wt_256x128x8`'s tiles must stay for
/// [`F32_SPLIT_TILES_MIN_K`] to apply: half a wave, the most measured. At
/// 1536²×4096 (72 tiles, 0.55 of a wave) it ran at 74% of cuBLAS in 4
/// chunks, 83% in 8, beside the wave fill's 67% (`wt_64x128x8` unsplit),
/// but 1792² (98 tiles) was not measured, and at 1792³ the wave fill's
/// tile runs at 106%.
pub const F32_SPLIT_TILES_MAX_QUARTERS: u64 = 2;

/// Whether `auto` streams an `m × n` 16-bit call on step 104's kernel
/// (`memory_bound_mma_along_l.rs`): a small side of 2 to 16 and the large
/// operand X contiguous along the long side, where X's packed rows are off
/// 16 bytes (the long side not a multiple of 8: the TMA tiles copied X
/// realigned first) or N is the small side (A column-major: the CUDA-core
/// kernel took it). One row of the small side stays on `skinny_r1`, which
/// wastes no `mma` rows.
pub fn along_l_streams(dtype: Dtype, (m, n): (usize, usize), layout: OperandLayout) -> bool {
    let (small, long) = (m.min(n), m.max(n));
    let along_l = gemm_launch::memory_bound::x_along_l(m as u32, n as u32, layout.a_col_major, layout.b_col_major);
    dtype.element_bytes() == 2 && (2..=16).contains(&small) && along_l && (!long.is_multiple_of(8) || n < m)
}

/// Whether the rows of a packed row-major B of `n` columns of `dtype` (or
/// of its realigned copy, padded to 16 bytes) start off the 32-byte
/// sectors of memory: every other row, for a row of an odd number of
/// 16-byte pieces. Judged on N, as for packed operands.
pub fn b_rows_off_sectors(dtype: Dtype, n: usize) -> bool {
    let bytes = dtype.element_bytes() as usize;
    !(n * bytes).next_multiple_of(16).is_multiple_of(32)
}

/// The share of the block slots of its waves that `blocks` fill, counting
/// a wave as one block per multiprocessor: 128 blocks fill 97% of one wave
/// of 132, 288 blocks 73% of three. Counted per multiprocessor also for
/// kernels that fit two blocks on one, because a block left alone on a
/// multiprocessor runs faster: 3072³ f32 with 576 tiles of 128×128
/// predicted 87% of its full rate, measured 89%.
pub fn wave_fill(blocks: u64, multiprocessors: u64) -> f64 {
    let slots = blocks.div_ceil(multiprocessors).max(1) * multiprocessors;
    blocks as f64 / slots as f64
}

/// The smaller tiles' rates against the largest tile of their kind, where
/// both fill their waves (H100 SXM; every other kernel: 1). With
/// [`wave_fill`] and the share of the padded tiles that lies in C they pick
/// the faster tile at every mid size measured:
/// - `wt_128x128x8` against `wt_256x128x8` (PERF.md step 44: 47.4 against
///   51.9 TFLOP/s at 4096³, 48.1 against 52.5 at 8192×4096×6144): 1536³
///   74.6% against 67.8% of cuBLAS, 2560³ 86.3% against 78.6%, 3072³ 85.9%
///   against 93.6%;
/// - `wt_64x128x8` against both (step 54, % of cuBLAS for 64×128 /
///   128×128 / 256×128): 1536³ 85.6 / 67.7 / 74.7, 1792³ 106 / 84 / 92,
///   3072³ 99.2 / 93.8 / 85.9, 3000³ 93.2 / 91.2 / 81.0; where it loses,
///   not chosen: 1280³ 88.5 / 97.2 / 57.9, 2560³ 73.6 / 79.0 / 86.4;
/// - `wt_64x64x8`, for the f32 split model only (step 83): unsplit it ran
///   4000×3000×1000 at 0.615 ms against 256×128's 0.542 in about 4.5
///   rounds of five blocks against 3 of one (0.85 of the rate, rounded
///   up from 0.80–0.85 so that its splits rank as measured at 767×769×771,
///   1100×700×1001 and 777×999×3333);
/// - `wt_async_64x128x8`, for the f32 split model only (step 113, H200):
///   fitted at 777×999×3333, where its kernel in 5 chunks took about 165
///   µs in place against `wt_64x64x8`'s 167.6 in 3 on realigned copies
///   (ncu); unsplit at 4096³ it ran 0.73 of `wt_256x128x8`'s rate; its
///   128×64 twin (step 114) at the same rate, not fitted apart. Fitted
///   before step 115 cut that kernel to 150 µs: at its new rate (about
///   0.92) the model would take aligned calls where the ring was measured
///   behind the staged tiles (1024³, 4096³), so it stays;
/// - step 10's 128×192 and 128×128 tiles against 128×256 (step 46: 6144³
///   f16 735 and 535 against 754 TFLOP/s, bf16 765 and 528 against 779;
///   TF32 361 and 276 against 367, and 297 against 345 at 4096³ where
///   128×192 fills 89% of its waves): of 1536–6144³, 4000×3000×1000,
///   8192×4096×6144 and 16384²×1024 in each dtype, 128×192 at 1536³,
///   3072³ (f16 89.0% against 69.0%) and 5120³.
pub const TILE_RATES: &[(KernelSpec, f64)] = {
    use gemm_launch::*;
    &[
        (WT_128X128X8, 0.91),
        (WT_64X128X8, 0.86),
        (WT_64X64X8, 0.85),
        (WT_ASYNC_64X128X8, 0.84),
        (WT_ASYNC_128X64X8, 0.84),
        (WS_F16_128X192X64, 0.975),
        (WS_BF16_128X192X64, 0.98),
        (WS_TF32_128X192X32, 0.97),
        (WS_F16_128X128X64, 0.71),
        (WS_BF16_128X128X64, 0.68),
        (WS_TF32_128X128X32, 0.77),
    ]
};

/// `spec`'s rate from [`TILE_RATES`].
fn tile_rate(spec: &KernelSpec) -> f64 {
    TILE_RATES.iter().find(|(s, _)| s.name == spec.name).map_or(1.0, |&(_, rate)| rate)
}

/// Whether `spec`'s entry for `layout` may run a call on a GPU of compute
/// capability `cc`: compiled for the layout and not refused there
/// ([`entry_refusal`]), the call's operands pass the kernel's refusals
/// (`takes_operands`, asked only of the kernels that refuse some: the TMA
/// kernels, and steps 86 and 104's tensor-core memory-bound ones,
/// [`call_refusal`]),
/// and a GPU has run it (`KernelSpec::is_unmeasured_in`). The filter of
/// [`default_choice`]'s lists and of tuned entries.
fn runs_call(spec: &KernelSpec, layout: OperandLayout, cc: (i32, i32), takes_operands: bool) -> bool {
    let refuses_some = spec.algorithm == Algorithm::WarpSpecialized || gemm_launch::memory_bound::on_tensor_cores(spec);
    spec.supports(layout)
        && entry_refusal(spec, layout, cc).is_none()
        && (takes_operands || !refuses_some)
        && !spec.is_unmeasured_in(layout)
}

/// The entry of `tuned` for this call, if it was tuned on this GPU
/// (`device.name`: a cache tuned on another model is not used), for `dtype`
/// at `m×n×k`, and names a kernel of `dtype` that can run it (the filter
/// of [`default_choice`], with the TMA asked of that kernel through
/// `tma_refusal`, in `auto` [`auto_tma_refusal`]; and not an f32-output
/// partials kernel). Otherwise `None`.
pub fn tuned_choice(
    tuned: Option<&TuneCache>,
    device: &DeviceInfo,
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    layout: OperandLayout,
    tma_refusal: impl Fn(&KernelSpec) -> Option<String>,
) -> Option<Choice> {
    let choice = tuned?.get(&device.name, dtype, m, n, k)?;
    let spec = choice.spec(dtype).ok()?;
    let takes_operands = tma_refusal(spec).is_none();
    (runs_call(spec, layout, device.compute_capability, takes_operands) && !spec.features.f32_output)
        .then(|| choice.clone())
}

/// The [`KernelChoice::Auto`] choice for a call of `dtype` at `m×n×k`
/// (the kernel's shape: after a column-major C's swap) with operands in
/// `layout` on `device`: [`tuned_choice`] from `tuned`, else
/// [`default_choice`]. `tma_refusal(spec)` says why `spec`'s TMA cannot
/// copy this call's operands (`None`: it can, or it has no TMA).
///
/// The one choice of the library ([`select_kernel`], with this process's
/// [`tuned_choices`]) and of the CLI (`crate::tune::choose`), so that
/// both pick the same kernel and tile order for the same call.
pub fn choose_kernel(
    tuned: Option<&TuneCache>,
    device: &DeviceInfo,
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    layout: OperandLayout,
    tma_refusal: impl Fn(&KernelSpec) -> Option<String>,
) -> Choice {
    choose_kernel_for_batch(tuned, device, dtype, (m, n, k), 1, layout, tma_refusal)
}

/// [`choose_kernel`] for a strided batch of `batch` matrices
/// ([`default_choice_for_batch`]): the library's choice.
pub fn choose_kernel_for_batch(
    tuned: Option<&TuneCache>,
    device: &DeviceInfo,
    dtype: Dtype,
    (m, n, k): (usize, usize, usize),
    batch: u32,
    layout: OperandLayout,
    tma_refusal: impl Fn(&KernelSpec) -> Option<String>,
) -> Choice {
    tuned_choice(tuned, device, dtype, (m, n, k), layout, &tma_refusal).unwrap_or_else(|| {
        let (sms, cc) = (device.multiprocessors, device.compute_capability);
        let takes = |spec: &KernelSpec| tma_refusal(spec).is_none();
        let choice = default_choice_for_batch(dtype, (m, n, k), batch, sms, layout, cc, takes);
        f32_split_tiles(dtype, choice, (m, n, k), sms, layout, cc)
    })
}

/// The warp-tiled f32 tiles that [`f32_split_tiles`] weighs, split by
/// `split_k::f32_split`: 256×128 at one block per multiprocessor and
/// 128×128 at two, the two of eight warps, and 64×64 at five, of four
/// warps (PERF.md step 83); and step 7c's `cp.async` ring on 64×128 and
/// 128×64 at four, which reads rows off 16 bytes in place where the
/// others are realigned ([`f32_realign_us`], PERF.md steps 113–116).
pub const F32_MODELED_TILES: &[KernelSpec] = {
    use gemm_launch::*;
    &[WT_256X128X8, WT_128X128X8, WT_64X64X8, WT_ASYNC_64X128X8, WT_ASYNC_128X64X8]
};
/// How much faster [`f32_split_tiles`]'s model must find a split tile than
/// the wave fill's choice (modeled unsplit) to take it: a margin for what
/// the model leaves out (the other kernels' own splits among it). Set
/// between the shapes measured (H100, PERF.md step 73; the model's ratio,
/// then the measured one): taken at 1031×1029×1027 (1.50; 0.136 → 0.098
/// ms), 1032³ (1.51; 0.098 → 0.082) and 777×999×3333 (1.14); left at 1536³
/// (1.10; `wt_64x128x8` 85.6% of cuBLAS, 128×128 67.7%, 256×128 74.7%),
/// 3072³ (1.02) and 1792³ (0.96), where the wave fill's tile is the
/// fastest. Since step 83 (64×64 tiles and rounds in the model) it takes
/// 1536³ onto `wt_64x64x8` unsplit (about 1.19; 86.6 → 88.8%) and 1032³
/// onto it in 2 chunks (83.4 → 78.2%: the model does not see that
/// 128×128's rows were on 16 bytes there), and kept 800×800×8000 on
/// `wt_128x128x8` by the margin alone (a ratio of about 1.11) until step
/// 99 put `wt_64x64x8` in the deep-K list, which gives it that tile first
/// (measured level: 0.328 against 0.326 ms).
pub const F32_MODEL_MIN_GAIN: f64 = 1.12;
/// Least work (2·M·N·K flops) for [`f32_split_tiles`]: 2²⁹ (5.4·10⁸),
/// under the smallest size measured with the model's tiles (PERF.md step
/// 83: 767×769×771, 9.1·10⁸, 52% of cuBLAS on the rules' `db_64x64x16`,
/// 72% on `wt_64x64x8` in 3 chunks); below it, the rules' small tiles,
/// which split by the short-K rule ran 91.5–117% at 512³ and 96–98% at
/// 640³.
pub const F32_MODEL_MIN_FLOP: f64 = (1u64 << 29) as f64;

/// The tile of `spec` as the f32 split model sees it: its block tile, the
/// blocks per multiprocessor it is built for, its rate against
/// `wt_256x128x8` ([`deep_k_list`]'s, else [`TILE_RATES`]'), and the
/// share of a full round its part-filled rounds cost at least
/// ([`PART_ROUND_SHARES`], else `split_k::PART_ROUND_SHARE`).
pub fn modeled_tile(spec: &KernelSpec) -> ModeledTile {
    let rate = deep_k_list(Dtype::F32).iter().find(|(s, _)| s.name == spec.name).map_or(tile_rate(spec), |&(_, r)| r);
    let part_round = PART_ROUND_SHARES
        .iter()
        .find(|(s, _)| s.name == spec.name)
        .map_or(gemm_launch::split_k::PART_ROUND_SHARE, |&(_, share)| share);
    ModeledTile {
        bm: spec.tile.bm,
        bn: spec.tile.bn,
        blocks_per_sm: spec.min_blocks_per_sm.max(1),
        rate_per_mille: (rate * 1000.0).round() as u32,
        part_round_per_mille: (part_round * 1000.0).round() as u32,
    }
}

/// The f32 split model's tiles whose part-filled rounds cost more than
/// `split_k::PART_ROUND_SHARE` of a full one. `wt_64x64x8` runs five
/// blocks of four warps per SM, and fewer hide much less of each other's
/// latency (H100, PERF.md step 83, unsplit, K ≈ 1000): 1100×700×1001, two
/// blocks on the busiest SM, 0.081 ms, and 1300×1001×999, three, 0.115,
/// where five (1536³ scaled to K = 1000) take 0.139: two blocks cost as
/// long as 2.9, three as 4.1. The share counts both as 4: it is fitted to
/// rank the splits measured (1300×1001×999 onto 128×128, 0.101 ms split
/// against 0.115 on 64×64 unsplit), and overrates two blocks (PERF.md
/// step 83; a form like `min(slots, c · r)` would fit all three).
pub const PART_ROUND_SHARES: &[(KernelSpec, f64)] = &[(gemm_launch::WT_64X64X8, 0.8)];

/// An f32 call (`dtype`; any other keeps `choice`) with K from
/// `split_k::SHORT_K_MIN` to `DEEP_K` and at least [`F32_MODEL_MIN_FLOP`]:
/// `choice` (the wave fill's tile), or the tile of [`F32_MODELED_TILES`]
/// whose split by `split_k::f32_split` the model finds
/// [`F32_MODEL_MIN_GAIN`] faster than `choice` unsplit
/// (`split_k::f32_modeled_us`; where `choice` is itself one of those
/// tiles, at its own modeled split). The model weighs the split `Auto`
/// makes for one matrix: a caller's `SplitK::Off` or chunk, or α = 0, runs
/// the tile it picks without that split.
///
/// Why: the wave fill weighs tiles unsplit, and a split gives a mid-sized
/// call the blocks that fill its waves. H100 (PERF.md step 73), ms: 1032³
/// on the wave fill's `wt_64x128x8` (split in 2 by the short-K rule) 0.098,
/// on `wt_128x128x8` in 3 chunks 0.077; 777×999×3336 on `db_128x64x16` in 3
/// 0.218, on `wt_128x128x8` in 6 0.195.
pub fn f32_split_tiles(
    dtype: Dtype,
    choice: Choice,
    (m, n, k): (usize, usize, usize),
    multiprocessors: i32,
    layout: OperandLayout,
    cc: (i32, i32),
) -> Choice {
    if dtype != Dtype::F32 {
        return choice;
    }
    let Ok(current) = choice.spec(Dtype::F32) else { return choice };
    let sms = multiprocessors.max(1) as u32;
    let shape = (m as u32, n as u32, k as u32, 1);
    let flop = 2.0 * m as f64 * n as f64 * k as f64;
    let k_range = gemm_launch::split_k::SHORT_K_MIN as usize..=gemm_launch::split_k::DEEP_K as usize;
    if current.algorithm == Algorithm::MemoryBound || !k_range.contains(&k) || flop < F32_MODEL_MIN_FLOP {
        return choice;
    }
    // The model's tiles at the model's split, another unsplit (its own
    // split, by the rules, is not in the model: the margin covers it); each
    // with its realigned copies, if it has them.
    let modeled = |spec: &KernelSpec| {
        let tile = modeled_tile(spec);
        let copies = f32_realign_us(spec, (m, n, k), layout);
        copies
            + if F32_MODELED_TILES.iter().any(|s| s.name == spec.name) {
                f32_split(tile, shape, sms).1
            } else {
                f32_modeled_us(tile, shape, sms, k as u32)
            }
    };
    let now = modeled(current);
    let best = F32_MODELED_TILES
        .iter()
        .filter(|spec| runs_call(spec, layout, cc, true))
        .map(|spec| (spec, modeled(spec)))
        .reduce(|best, next| if next.1 < best.1 { next } else { best });
    match best {
        Some((spec, us)) if spec.name != current.name && us * F32_MODEL_MIN_GAIN <= now => {
            Choice { kernel: short_name(spec).into(), group_m: spec.default_group_m, tflops: None }
        }
        _ => choice,
    }
}

/// µs the f32 split model adds to `spec`'s time for the realigned copies
/// of an `m×n×k` call in `layout`: the copies the host makes
/// ([`f32_realigned`]) for such a call with packed operands at aligned
/// addresses, each byte read and written at `split_k::SLAB_BYTES_PER_US`.
/// (A caller's padded rows or offset start, or a batch, can differ.) H200
/// (PERF.md step 113): 777×999×3333's copies of A (10.4 MB) and B (13.3
/// MB) took 7.7 and 8.6 µs; modeled 8.3 and 10.6.
pub fn f32_realign_us(spec: &KernelSpec, (m, n, k): (usize, usize, usize), layout: OperandLayout) -> f64 {
    let packed = packed_plan(m, n, k);
    let lda = if layout.a_col_major { packed.m } else { packed.k };
    let ldb = if layout.b_col_major { packed.k } else { packed.n };
    let plan = Plan { layout, lda, ldb, ..packed };
    f32_realigned(spec, &plan, [0; 3])
        .map_or(0.0, |call| 2.0 * call.scratch_bytes as f64 / gemm_launch::split_k::SLAB_BYTES_PER_US)
}

/// Why [`KernelChoice::Auto`] does not take the kernel `spec` for a call:
/// it cannot run it ([`call_refusal`]: a TMA kernel's operands, or step
/// 86's large operand along L), or it would run it on
/// realigned copies of the operands that cost more than they save
/// ([`realign_refusal`]); or, for step 70's skinny tiles, they would read
/// an operand element by element or realign it with too few blocks
/// ([`skinny_tiles_refusal`]; `multiprocessors`: the GPU's SMs); or it
/// would store C from registers where a one-block tile stages it
/// ([`staged_c_refusal`]). A kernel named by the caller runs in the last
/// three cases.
pub fn auto_tma_refusal(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3], multiprocessors: u32) -> Option<String> {
    call_refusal(spec, plan, pointers)
        .or_else(|| realign_refusal(spec, plan, pointers))
        .or_else(|| skinny_tiles_refusal(spec, plan, pointers, multiprocessors))
        .or_else(|| staged_c_refusal(spec, plan, pointers))
        .or_else(|| narrow_tiles_refusal(spec, plan, pointers))
}

/// Why `auto` does not take a two-block tile (step 10d) for a call whose C
/// the TMA cannot store (its rows or N off 16 bytes, [`c_map_usable`]),
/// where a tune cache names one (the built-in choice offers none since
/// PERF.md step 105):
/// there, at its 96 registers, it stores C from registers, 4 or 2 bytes
/// in each of 8 rows per warp store, where the one-block tiles stage C in
/// shared memory and write whole rows (PERF.md step 99: f16
/// 6492×5009×24 on the two-block tiles ran at 23% of cuBLAS, C's writes
/// being the work). `None` for every other kernel and call.
pub fn staged_c_refusal(spec: &KernelSpec, plan: &Plan, pointers: [u64; 3]) -> Option<String> {
    let two_blocks = spec.algorithm == Algorithm::WarpSpecialized && spec.min_blocks_per_sm >= 2;
    (two_blocks && spec.features.staged_epilogue && !c_map_usable(spec, plan, pointers[2])).then(|| {
        "C's rows or N are off 16 bytes, which its two blocks per SM would store from registers; the one-block \
         tiles write C's rows whole"
            .to_string()
    })
}

/// The kernel a call runs on `device`: the requested one, checked against
/// the dtype and layout, or [`choose_kernel`]'s.
/// `pointers` are the device addresses of the kernel's A, B and C.
pub fn select_kernel<T: Element>(
    options: &GemmOptions,
    plan: &Plan,
    pointers: [u64; 3],
    device: &DeviceInfo,
) -> Result<&'static KernelSpec> {
    select::<T>(options, plan, pointers, device).map(|(spec, _)| spec)
}

/// [`select_kernel`], with the tile order to launch it with: the caller's
/// `options.group_m`, else (with [`KernelChoice::Auto`]) the chosen one (a
/// tuned entry's, or the kernel's default).
pub fn select<T: Element>(
    options: &GemmOptions,
    plan: &Plan,
    pointers: [u64; 3],
    device: &DeviceInfo,
) -> Result<(&'static KernelSpec, Option<u32>)> {
    let (spec, group_m) = match options.kernel {
        // A named kernel is one this build compiled: its tile and launch
        // geometry are what the PTX was built for. (`Auto` picks from them.)
        KernelChoice::Kernel(spec) if !gemm_launch::KERNELS.contains(spec) => {
            return Err(GemmError::Unsupported {
                kernel: spec.name.into(),
                reason: "it is not one of this build's kernels (`gemm --list-kernels`, `find_kernel`)".into(),
            });
        }
        KernelChoice::Kernel(spec) => (spec, options.group_m),
        KernelChoice::Auto => {
            let dtype = match (T::DTYPE, options.allow_tf32) {
                (Dtype::F32, true) => Dtype::Tf32,
                (dtype, _) => dtype,
            };
            let mnk = (plan.m as usize, plan.n as usize, plan.k as usize);
            let sms = device.multiprocessors.max(0) as u32;
            let tma = |spec: &KernelSpec| auto_tma_refusal(spec, plan, pointers, sms);
            let choice = choose_kernel_for_batch(tuned_choices(), device, dtype, mnk, plan.batch, plan.layout, tma);
            let spec = find_kernel(dtype, &choice.kernel)?;
            let spec = rows_kernel_for_split(spec, options, plan, sms, device.compute_capability);
            (spec, options.group_m.or(Some(choice.group_m)))
        }
    };
    if !T::holds(spec.dtype) {
        return Err(GemmError::DtypeMismatch {
            kernel: spec.name,
            dtype: spec.dtype.name(),
            element: std::any::type_name::<T>(),
        });
    }
    if spec.features.f32_output {
        return Err(GemmError::Unsupported {
            kernel: spec.name.into(),
            reason: "it writes f32 C (the partial sums of a split-K call), not the call's 16-bit C".into(),
        });
    }
    if !spec.supports(plan.layout) {
        return Err(GemmError::Unsupported {
            kernel: spec.name.into(),
            reason: format!(
                "it is compiled for {}; this call needs {} (use KernelChoice::Auto, or a kernel that `gemm \
                 --list-kernels` shows with all layouts)",
                spec.layouts.description(),
                layout_name(plan.layout)
            ),
        });
    }
    if let Some(reason) = call_refusal(spec, plan, pointers) {
        return Err(GemmError::Unsupported { kernel: spec.name.into(), reason });
    }
    Ok((spec, group_m))
}
