//! The kernel table: one [`KernelSpec`] constant per compiled kernel (each
//! kernel entry in `kernels-gpu` takes its const generics from its constant),
//! and [`KERNELS`], the list the host and `build.rs` iterate.

use crate::memory_bound;
use crate::spec::{Algorithm, Arch, Dtype, Features, KernelSpec, Layouts, Tile};

/// Step 1: one thread per output, 8×32 outputs per block so that a warp reads
/// 32 consecutive elements of B and writes 32 consecutive elements of C.
pub const NAIVE: KernelSpec = KernelSpec {
    name: "sgemm_naive",
    dtype: Dtype::F32,
    algorithm: Algorithm::Naive,
    features: Features::ALL,
    tile: Tile { bm: 8, bn: 32, bk: 1, tm: 1, tn: 1 },
    stages: 0,
    default_group_m: 1,
    min_blocks_per_sm: 0,
    layouts: Layouts::Any,
    arch: Arch::Sm80,
};

/// Step 2: 32×32 tiles of A and B in shared memory, one output per thread.
pub const TILED: KernelSpec = KernelSpec {
    name: "sgemm_tiled",
    dtype: Dtype::F32,
    algorithm: Algorithm::Tiled,
    features: Features::ALL,
    tile: Tile { bm: 32, bn: 32, bk: 32, tm: 1, tn: 1 },
    stages: 1,
    default_group_m: 1,
    min_blocks_per_sm: 0,
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

/// Step 3: 64×64 block tile, each thread a column of 8 outputs.
pub const REG1D: KernelSpec = KernelSpec {
    name: "sgemm_reg1d",
    dtype: Dtype::F32,
    algorithm: Algorithm::RegisterBlocked1d,
    features: Features::ALL,
    tile: Tile { bm: 64, bn: 64, bk: 8, tm: 8, tn: 1 },
    stages: 1,
    default_group_m: 1,
    min_blocks_per_sm: 0,
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

/// Step 4: 128×128 block tile, each thread an 8×8 block of outputs.
pub const REG2D: KernelSpec = KernelSpec {
    name: "sgemm_reg2d",
    dtype: Dtype::F32,
    algorithm: Algorithm::RegisterBlocked2d,
    features: Features::ALL,
    tile: Tile { bm: 128, bn: 128, bk: 8, tm: 8, tn: 8 },
    stages: 1,
    default_group_m: 1,
    min_blocks_per_sm: 0,
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

/// Step 5: step 4 with 128-bit loads and conflict-free shared reads.
pub const VECTORIZED: KernelSpec = KernelSpec {
    name: "sgemm_vec4",
    dtype: Dtype::F32,
    algorithm: Algorithm::Vectorized,
    features: Features::ALL,
    tile: Tile { bm: 128, bn: 128, bk: 8, tm: 8, tn: 8 },
    stages: 1,
    default_group_m: 1,
    min_blocks_per_sm: 0,
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

/// Step 6: step 5 double-buffered, with grouped tile order on by default.
/// The other `DB_*` configurations are the same kernel with other tiles, for
/// the tuner.
pub const DB_128X128X8: KernelSpec = KernelSpec {
    name: "sgemm_db_128x128x8",
    dtype: Dtype::F32,
    algorithm: Algorithm::DoubleBuffered,
    features: Features::ALL,
    tile: Tile { bm: 128, bn: 128, bk: 8, tm: 8, tn: 8 },
    stages: 2,
    default_group_m: 8,
    // It fits in 128 registers without spilling: two blocks (16 warps) per SM.
    min_blocks_per_sm: 2,
    // Its column-major-A variant spills at the 128-register cap.
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

pub const DB_128X128X16: KernelSpec = KernelSpec {
    name: "sgemm_db_128x128x16",
    tile: Tile { bm: 128, bn: 128, bk: 16, tm: 8, tn: 8 },
    min_blocks_per_sm: 0,
    layouts: Layouts::RowMajor,
    ..DB_128X128X8
};

pub const DB_128X64X16: KernelSpec = KernelSpec {
    name: "sgemm_db_128x64x16",
    tile: Tile { bm: 128, bn: 64, bk: 16, tm: 8, tn: 4 },
    min_blocks_per_sm: 2,
    layouts: Layouts::Any,
    ..DB_128X128X8
};

pub const DB_64X64X16: KernelSpec = KernelSpec {
    name: "sgemm_db_64x64x16",
    tile: Tile { bm: 64, bn: 64, bk: 16, tm: 4, tn: 4 },
    min_blocks_per_sm: 0,
    layouts: Layouts::Any,
    ..DB_128X128X8
};

/// 8×16 outputs per thread: more FMAs per shared load and per global load.
pub const DB_128X256X8: KernelSpec = KernelSpec {
    name: "sgemm_db_128x256x8",
    tile: Tile { bm: 128, bn: 256, bk: 8, tm: 8, tn: 16 },
    min_blocks_per_sm: 0,
    layouts: Layouts::RowMajor,
    ..DB_128X128X8
};

pub const DB_128X256X16: KernelSpec = KernelSpec {
    name: "sgemm_db_128x256x16",
    tile: Tile { bm: 128, bn: 256, bk: 16, tm: 8, tn: 16 },
    min_blocks_per_sm: 0,
    layouts: Layouts::RowMajor,
    ..DB_128X128X8
};

pub const DB_256X128X8: KernelSpec = KernelSpec {
    name: "sgemm_db_256x128x8",
    tile: Tile { bm: 256, bn: 128, bk: 8, tm: 16, tn: 8 },
    min_blocks_per_sm: 0,
    layouts: Layouts::Any,
    ..DB_128X128X8
};

/// Step 7: `cp.async` pipeline, 3 stages, 2 blocks per multiprocessor.
pub const ASYNC_128X128X8: KernelSpec = KernelSpec {
    name: "sgemm_async_128x128x8",
    dtype: Dtype::F32,
    algorithm: Algorithm::AsyncPipeline,
    features: Features::ALL,
    tile: Tile { bm: 128, bn: 128, bk: 8, tm: 8, tn: 8 },
    stages: 3,
    default_group_m: 8,
    min_blocks_per_sm: 2,
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

pub const ASYNC_128X128X16: KernelSpec = KernelSpec {
    name: "sgemm_async_128x128x16",
    tile: Tile { bm: 128, bn: 128, bk: 16, tm: 8, tn: 8 },
    ..ASYNC_128X128X8
};

pub const ASYNC_128X64X16: KernelSpec = KernelSpec {
    name: "sgemm_async_128x64x16",
    tile: Tile { bm: 128, bn: 64, bk: 16, tm: 8, tn: 4 },
    ..ASYNC_128X128X8
};

/// Step 7b: step 6 with warp tiling and register double buffering of the
/// A/B fragments (`ladder/warp_tiled.rs`). `tm × tn` is the warp tile: here
/// 8 warps of 64×64, each lane 16×8 outputs in 4×2 sub-tiles of 4×4
/// ([`crate::WARP_LANES_M`] × [`crate::WARP_LANES_N`] lanes), two
/// register-staged shared-memory stages as in step 6.
pub const WT_256X128X8: KernelSpec = KernelSpec {
    name: "sgemm_wt_256x128x8",
    dtype: Dtype::F32,
    algorithm: Algorithm::WarpTiled,
    features: Features::ALL,
    tile: Tile { bm: 256, bn: 128, bk: 8, tm: 64, tn: 64 },
    stages: 2,
    default_group_m: 8,
    min_blocks_per_sm: 0,
    layouts: Layouts::Any,
    arch: Arch::Sm80,
};

/// [`WT_256X128X8`]'s entry for C's rows off 16 bytes
/// (`Features::c_rows_off_16_bytes`): the same tile and launch, its
/// epilogue through shared memory. The host launches it in its twin's
/// place at K up to [`C_ROWS_TWIN_MAX_K`] ([`c_rows_twin`]); named, it
/// runs any call.
pub const WT_256X128X8_CU: KernelSpec = KernelSpec {
    name: "sgemm_wt_256x128x8_cu",
    features: Features { c_rows_off_16_bytes: true, ..Features::ALL },
    ..WT_256X128X8
};

/// A kernel's entry for C's rows off what its lanes store at once (16
/// bytes for f32's warp tiles, 8 for TF32's swapped tiles;
/// `Features::c_rows_off_16_bytes`) and the launches the host gives it in
/// the kernel's place ([`c_rows_twin`]).
pub struct CRowsTwin {
    pub base: KernelSpec,
    pub twin: KernelSpec,
    /// Deepest K at which it pays.
    pub max_k: u32,
    /// Bytes C's rows (start, leading dimension, batch stride) must be a
    /// multiple of for the base to keep the launch: what its lanes store
    /// at once.
    pub alignment: u32,
}

/// The kernels with an entry for C's rows off 16 bytes: f32 `auto`'s
/// largest tile, its 64×64 tile (f32 shallow K) and TF32's swapped tiles,
/// which `auto` gives the calls where C's writes are the work (shallow K).
///
/// TF32's take every K, and only C's rows off 8 bytes: their base's lanes
/// store 8-byte pairs. H200, PERF.md step 100, ms, base → twin, N odd:
/// 6492×5009×24 0.103 → 0.072 (`auto`), ×1024 0.254 → 0.240, 4001×4001×2048
/// 0.238 → 0.217, 1999×2003×997 0.051 → 0.047; but N even, 9309×3770×58,
/// C's rows on 8 bytes, 0.080 → 0.087.
pub const C_ROWS_TWINS: &[CRowsTwin] = &[
    CRowsTwin { base: WT_256X128X8, twin: WT_256X128X8_CU, max_k: C_ROWS_TWIN_MAX_K, alignment: 16 },
    CRowsTwin { base: WT_64X64X8, twin: WT_64X64X8_CU, max_k: C_ROWS_TWIN_64_MAX_K, alignment: 16 },
    CRowsTwin { base: WS_TF32_256X128X32_RS, twin: WS_TF32_256X128X32_RS_CU, max_k: u32::MAX, alignment: 8 },
    CRowsTwin { base: WS_TF32_128X128X32_RS, twin: WS_TF32_128X128X32_RS_CU, max_k: u32::MAX, alignment: 8 },
];

/// Deepest K at which a launch whose C's rows are off 16 bytes takes
/// `wt_256x128x8`'s twin. Its main loop, compiled apart, runs a little
/// slower, so it pays only where C's writes weigh. H100, PERF.md step 99,
/// `auto`, ms, without → with the twin: f32 6492×5009×K at K = 24 0.244 →
/// 0.104, 128 0.370 → 0.259, 256 0.535 → 0.448, 512 0.876 → 0.831;
/// 3030×10002×4 0.216 → 0.075; but 1999×2003×997 0.215 → 0.220 and
/// 5003×4001×3001 2.681 → 2.897.
pub const C_ROWS_TWIN_MAX_K: u32 = 512;

/// Deepest K at which a launch of `wt_64x64x8` whose C's rows are off 16
/// bytes takes its twin ([`WT_64X64X8_CU`]): the shallow K at which it was
/// measured (`choice::SHALLOW_MAX_K`; H200, PERF.md step 106, ms, base →
/// twin: 6492×5009×24 0.185 → 0.084). Deeper, where the 64×64 tiles run
/// mid sizes and the f32 split's partial sums (slabs of N columns), the
/// base keeps the launches it was measured on.
pub const C_ROWS_TWIN_64_MAX_K: u32 = 64;

/// The [`C_ROWS_TWINS`] record of `spec` for a launch of depth `k`, if its
/// twin pays at that depth; the caller tests C's rows against its
/// `alignment`.
pub fn c_rows_twin(spec: &KernelSpec, k: u32) -> Option<&'static CRowsTwin> {
    C_ROWS_TWINS.iter().find(|record| record.base.name == spec.name && k <= record.max_k)
}

/// 128×256, 8 warps of 64×64 (2 × 4).
pub const WT_128X256X8: KernelSpec = KernelSpec {
    name: "sgemm_wt_128x256x8",
    tile: Tile { bm: 128, bn: 256, bk: 8, tm: 64, tn: 64 },
    layouts: Layouts::RowMajor,
    ..WT_256X128X8
};

/// 256×128×16: half the barriers and shared stores per multiply-add, 49.7 KiB.
pub const WT_256X128X16: KernelSpec = KernelSpec {
    name: "sgemm_wt_256x128x16",
    tile: Tile { bm: 256, bn: 128, bk: 16, tm: 64, tn: 64 },
    layouts: Layouts::RowMajor,
    ..WT_256X128X8
};

/// 256×128 with 8 warps of 32×128 (8×16 outputs per lane): B is read as
/// four 128-bit loads per k and A as two, instead of two and four.
pub const WT_256X128X8_W32X128: KernelSpec = KernelSpec {
    name: "sgemm_wt_256x128x8_w32x128",
    tile: Tile { bm: 256, bn: 128, bk: 8, tm: 32, tn: 128 },
    layouts: Layouts::RowMajor,
    ..WT_256X128X8
};

/// 128×128, 8 warps of 32×64 (8×8 outputs per lane) in at most 128
/// registers: two blocks (16 warps) per multiprocessor, for mid shapes. Its
/// FMAs go row by row in one direction (2% faster here than the serpentine
/// order).
pub const WT_128X128X8: KernelSpec = KernelSpec {
    name: "sgemm_wt_128x128x8",
    tile: Tile { bm: 128, bn: 128, bk: 8, tm: 32, tn: 64 },
    features: Features { serpentine_fma: false, ..Features::ALL },
    min_blocks_per_sm: 2,
    layouts: Layouts::RowMajor,
    ..WT_256X128X8
};

/// 64×128, 4 warps of 32×64 (8×8 outputs per lane, as 128×128×8), three
/// blocks per multiprocessor (at four, 128 registers, it spills): four
/// times the tiles of 256×128, for mid sizes whose larger tiles leave
/// their last wave part-empty (1536³, 3072³; PERF step 54). Not for deep
/// K's partial sums: at 64×192×300000 it ran 50% of cuBLAS against
/// `db_64x64x16`'s 71%.
pub const WT_64X128X8: KernelSpec = KernelSpec {
    name: "sgemm_wt_64x128x8",
    tile: Tile { bm: 64, bn: 128, bk: 8, tm: 32, tn: 64 },
    min_blocks_per_sm: 3,
    ..WT_128X128X8
};

/// 64×64, 4 warps of 32×32 (8×4 outputs per lane), five blocks per
/// multiprocessor: eight times the tiles of 256×128, for sizes that are
/// no multiple of the larger tiles and mid sizes, where cuBLAS runs
/// 64×64×8 tiles of 4 warps split a few ways (1031³: 867 blocks). Its
/// FMAs go row by row in one direction, as 128×128's (not measured both
/// ways at 64×64).
pub const WT_64X64X8: KernelSpec = KernelSpec {
    name: "sgemm_wt_64x64x8",
    tile: Tile { bm: 64, bn: 64, bk: 8, tm: 32, tn: 32 },
    min_blocks_per_sm: 5,
    ..WT_128X128X8
};

/// [`WT_64X64X8`]'s entry for C's rows off 16 bytes
/// (`Features::c_rows_off_16_bytes`), as [`WT_256X128X8_CU`] is
/// 256×128's: each warp's accumulator rows pass through its own 512 bytes
/// of the stages, so that a warp stores 128 consecutive bytes of one row.
/// The host launches it in its twin's place at K up to
/// [`C_ROWS_TWIN_64_MAX_K`] ([`c_rows_twin`]): f32 shallow K runs on these
/// tiles (`choice::shallow_k_kernel`), where C's writes are the work.
pub const WT_64X64X8_CU: KernelSpec = KernelSpec {
    name: "sgemm_wt_64x64x8_cu",
    features: Features { c_rows_off_16_bytes: true, ..WT_64X64X8.features },
    ..WT_64X64X8
};

/// Step 7c: step 7b's 256×128×8 warp tiles fed by a 3-stage `cp.async`
/// ring (`ladder/warp_tiled_async.rs`) instead of two register-staged
/// stages: issue 15's comparison. Row-major operands (step 7's copies).
pub const WT_ASYNC_256X128X8: KernelSpec =
    KernelSpec { name: "sgemm_wt_async_256x128x8", stages: 3, layouts: Layouts::RowMajor, ..WT_256X128X8 };

/// Step 7c's `cp.async` ring on [`WT_64X64X8`]'s tiles: 3 stages, five
/// blocks per multiprocessor, as cuBLAS's 64×64×8 kernel. Row-major
/// operands (step 7's copies).
pub const WT_ASYNC_64X64X8: KernelSpec =
    KernelSpec { name: "sgemm_wt_async_64x64x8", stages: 3, layouts: Layouts::RowMajor, ..WT_64X64X8 };

/// Step 7c's `cp.async` ring on [`WT_64X128X8`]'s tiles (4 warps of
/// 32×64, 8×8 outputs per lane), 3 stages: cuBLAS's f32 tile and ring at
/// 777×999×3333 (`sm80_xmma_gemm_f32f32…tilesize64x128x8_stage3`). Its
/// 4-byte copies read rows off 16 bytes in place, so a call that would
/// realign its operands for the register-staged tiles runs without the
/// copies. At 128 registers four blocks share a multiprocessor.
pub const WT_ASYNC_64X128X8: KernelSpec = KernelSpec {
    name: "sgemm_wt_async_64x128x8",
    stages: 3,
    min_blocks_per_sm: 4,
    layouts: Layouts::RowMajor,
    ..WT_64X128X8
};
/// [`WT_ASYNC_64X128X8`] turned round: 128×64, its four 32×64 warps one
/// above the other, for calls whose N pads a 128-wide tile more than M
/// pads a 128-tall one (999×777: 16 × 7 tiles of 64×128, 8 × 13 of
/// 128×64). Four blocks per SM, as 64×128 (three until PERF.md step
/// 116: at 128 registers it spilled before step 115's copies).
pub const WT_ASYNC_128X64X8: KernelSpec = KernelSpec {
    name: "sgemm_wt_async_128x64x8",
    tile: Tile { bm: 128, bn: 64, bk: 8, tm: 32, tn: 64 },
    ..WT_ASYNC_64X128X8
};

/// Step 8: tensor cores. 128×256 block tile of 8 warps (64×64 each), K
/// slice 32, 4 stages (96 KiB shared memory).
pub const MMA_F16_128X256X32: KernelSpec = KernelSpec {
    name: "hgemm_mma_128x256x32",
    dtype: Dtype::F16,
    algorithm: Algorithm::TensorCore,
    features: Features::ALL,
    tile: Tile { bm: 128, bn: 256, bk: 32, tm: 64, tn: 64 },
    stages: 4,
    default_group_m: 8,
    min_blocks_per_sm: 1,
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

/// 128×128 block tile of 4 warps (64×64 each), 4 stages, two blocks per SM.
pub const MMA_F16_128X128X32: KernelSpec = KernelSpec {
    name: "hgemm_mma_128x128x32",
    tile: Tile { bm: 128, bn: 128, bk: 32, tm: 64, tn: 64 },
    min_blocks_per_sm: 2,
    layouts: Layouts::Any,
    ..MMA_F16_128X256X32
};

/// K slices of 64: half the barriers per multiply-add; 3 stages (144 KiB).
pub const MMA_F16_128X256X64: KernelSpec = KernelSpec {
    name: "hgemm_mma_128x256x64",
    tile: Tile { bm: 128, bn: 256, bk: 64, tm: 64, tn: 64 },
    stages: 3,
    ..MMA_F16_128X256X32
};

/// 128×128×64, 3 stages (96 KiB), two blocks per SM.
pub const MMA_F16_128X128X64: KernelSpec = KernelSpec {
    name: "hgemm_mma_128x128x64",
    tile: Tile { bm: 128, bn: 128, bk: 64, tm: 64, tn: 64 },
    stages: 3,
    layouts: Layouts::RowMajor,
    ..MMA_F16_128X128X32
};

/// Smaller warp tiles (32×64) need about half the registers, so an SM holds
/// 16 warps instead of 8: more warps to cover each warp's wait between
/// dependent-free `mma`s, at 6 `ldmatrix` per 16 `mma` instead of 8 per 32.
pub const MMA_F16_128X128X32_W32X64: KernelSpec = KernelSpec {
    name: "hgemm_mma_128x128x32_w32x64",
    features: Features::DIRECT_EPILOGUE,
    tile: Tile { bm: 128, bn: 128, bk: 32, tm: 32, tn: 64 },
    layouts: Layouts::Any,
    ..MMA_F16_128X128X32
};

/// 128×256 with 64×32 warp tiles: 16 warps in one block.
pub const MMA_F16_128X256X32_W64X32: KernelSpec = KernelSpec {
    name: "hgemm_mma_128x256x32_w64x32",
    features: Features::DIRECT_EPILOGUE,
    tile: Tile { bm: 128, bn: 256, bk: 32, tm: 64, tn: 32 },
    stages: 3,
    layouts: Layouts::Any,
    ..MMA_F16_128X256X32
};

/// The tensor-core ladder on one tile (128×128×32, 8 warps of 32×64, f16),
/// each step adding one idea; the last step is MMA_F16_128X128X32_W32X64:
/// 1. `mma.sync` with fragments gathered by plain shared loads, plain (unswizzled)
///    tiles, a 2-stage `cp.async` pipeline (double buffering). Its gathers need
///    more than 128 registers, so one block per SM (the others: two);
pub const ABLATE_F16_PLAIN: KernelSpec = KernelSpec {
    name: "hgemm_ablate_plain",
    features: Features { ldmatrix: false, swizzle: false, ..Features::DIRECT_EPILOGUE },
    stages: 2,
    min_blocks_per_sm: 1,
    layouts: Layouts::RowMajor,
    ..MMA_F16_128X128X32_W32X64
};
/// 2. + `ldmatrix`;
pub const ABLATE_F16_LDMATRIX: KernelSpec = KernelSpec {
    name: "hgemm_ablate_ldmatrix",
    features: Features { swizzle: false, ..Features::DIRECT_EPILOGUE },
    min_blocks_per_sm: 2,
    ..ABLATE_F16_PLAIN
};
/// 3. + a 4-stage pipeline;
pub const ABLATE_F16_STAGES: KernelSpec = KernelSpec { name: "hgemm_ablate_stages", stages: 4, ..ABLATE_F16_LDMATRIX };
// 4. + swizzle: MMA_F16_128X128X32_W32X64.

pub const MMA_BF16_128X256X32: KernelSpec =
    KernelSpec { name: "bgemm_mma_128x256x32", dtype: Dtype::Bf16, ..MMA_F16_128X256X32 };
pub const MMA_BF16_128X128X32: KernelSpec =
    KernelSpec { name: "bgemm_mma_128x128x32", dtype: Dtype::Bf16, ..MMA_F16_128X128X32 };
pub const MMA_BF16_128X256X64: KernelSpec =
    KernelSpec { name: "bgemm_mma_128x256x64", dtype: Dtype::Bf16, ..MMA_F16_128X256X64 };
pub const MMA_BF16_128X128X64: KernelSpec =
    KernelSpec { name: "bgemm_mma_128x128x64", dtype: Dtype::Bf16, ..MMA_F16_128X128X64 };
pub const MMA_BF16_128X128X32_W32X64: KernelSpec =
    KernelSpec { name: "bgemm_mma_128x128x32_w32x64", dtype: Dtype::Bf16, ..MMA_F16_128X128X32_W32X64 };
pub const MMA_BF16_128X256X32_W64X32: KernelSpec =
    KernelSpec { name: "bgemm_mma_128x256x32_w64x32", dtype: Dtype::Bf16, ..MMA_F16_128X256X32_W64X32 };

/// Step 70: step 8's `mma.sync` mainloop on the skinny shapes of the 16-bit
/// types, M ≤ 16 (16×64 tiles) or N ≤ 16 (64×16): four warps of 16×16
/// (one `ldmatrix` of each operand and two `m16n8k16` per K step of 16),
/// 8 stages of 10 KiB, two blocks per SM, so that 112 KiB of the large
/// operand are in flight on each SM. A 16-wide tile's rows are 32 bytes,
/// swizzled four to a bank line. These stream the large operand where step
/// 10's smallest tiles (128×128, 7/8 of them padding) ran at 73–95% of
/// cuBLAS: H100, f16, skinny tiles / step 10 (PERF.md step 70):
/// 16384×16×4096 100 / 95.5, 100000×16×512 96 / 78.7, 30000×8×2048 92.6 /
/// 72.3, 16×16384×4096 97 / 89, 2×50000×1000 93.5 / 72.
pub const MMA_F16_16X64X64: KernelSpec = KernelSpec {
    name: "hgemm_mma_16x64x64",
    features: Features::DIRECT_EPILOGUE,
    tile: Tile { bm: 16, bn: 64, bk: 64, tm: 16, tn: 16 },
    stages: 8,
    default_group_m: 1,
    min_blocks_per_sm: 2,
    layouts: Layouts::Any,
    ..MMA_F16_128X256X32
};
/// Step 70 for N ≤ 16: 64×16 tiles, as [`MMA_F16_16X64X64`].
pub const MMA_F16_64X16X64: KernelSpec = KernelSpec {
    name: "hgemm_mma_64x16x64",
    tile: Tile { bm: 64, bn: 16, bk: 64, tm: 16, tn: 16 },
    ..MMA_F16_16X64X64
};
pub const MMA_BF16_16X64X64: KernelSpec =
    KernelSpec { name: "bgemm_mma_16x64x64", dtype: Dtype::Bf16, ..MMA_F16_16X64X64 };
pub const MMA_BF16_64X16X64: KernelSpec =
    KernelSpec { name: "bgemm_mma_64x16x64", dtype: Dtype::Bf16, ..MMA_F16_64X16X64 };

/// Step 92: step 70's skinny tiles writing f32 C, the partial sums of their
/// own deep-K splits (`split_k::SAME_TILE_TWINS`). A few long rows (1000×16
/// ×20000) make too few tiles to fill the GPU unsplit, and their split ran
/// on `mma_128x128x32_w32x64_f32out`, whose 128×128 tiles are 7/8 padding
/// there; split onto the skinny tiles, each chunk streams the large operand
/// as fast as the unsplit tiles do where they are many.
pub const MMA_F16_16X64X64_F32OUT: KernelSpec =
    KernelSpec { name: "hgemm_mma_16x64x64_f32out", features: Features::F32_OUTPUT, ..MMA_F16_16X64X64 };
pub const MMA_F16_64X16X64_F32OUT: KernelSpec =
    KernelSpec { name: "hgemm_mma_64x16x64_f32out", features: Features::F32_OUTPUT, ..MMA_F16_64X16X64 };
pub const MMA_BF16_16X64X64_F32OUT: KernelSpec =
    KernelSpec { name: "bgemm_mma_16x64x64_f32out", features: Features::F32_OUTPUT, ..MMA_BF16_16X64X64 };
pub const MMA_BF16_64X16X64_F32OUT: KernelSpec =
    KernelSpec { name: "bgemm_mma_64x16x64_f32out", features: Features::F32_OUTPUT, ..MMA_BF16_64X16X64 };

/// The 128×128×32 kernel with 32×64 warp tiles writing f32 C: the partial
/// sums of the f16/bf16 split-K calls of every kernel but step 10's
/// (`split_k::F32_OUTPUT_TWINS`; step 10's own twins are
/// `WS_F16_128X128X64_F32OUT` and its bf16 one), never a
/// 16-bit C. Same mainloop; the epilogue stores the f32 accumulators
/// unrounded. All layouts, since the partials run in the caller's.
pub const MMA_F16_128X128X32_W32X64_F32OUT: KernelSpec = KernelSpec {
    name: "hgemm_mma_128x128x32_w32x64_f32out",
    features: Features::F32_OUTPUT,
    ..MMA_F16_128X128X32_W32X64
};
pub const MMA_BF16_128X128X32_W32X64_F32OUT: KernelSpec =
    KernelSpec { name: "bgemm_mma_128x128x32_w32x64_f32out", dtype: Dtype::Bf16, ..MMA_F16_128X128X32_W32X64_F32OUT };

/// Step 8b: TF32 tensor cores on f32 data, 128×128×32, 4 warps of 64×64,
/// 3 stages (98 KiB), two blocks per SM.
pub const MMA_TF32_128X128X32: KernelSpec = KernelSpec {
    name: "tgemm_mma_128x128x32",
    dtype: Dtype::Tf32,
    algorithm: Algorithm::TensorCore,
    features: Features::ALL,
    tile: Tile { bm: 128, bn: 128, bk: 32, tm: 64, tn: 64 },
    stages: 3,
    default_group_m: 8,
    min_blocks_per_sm: 2,
    // Its column-major variants spill at 255 registers.
    layouts: Layouts::RowMajor,
    arch: Arch::Sm80,
};

/// 64×128×32, 4 warps of 32×64: twice the blocks, for small problems. (A
/// 128×256 tile of 8 warps of 64×64 spills at 255 registers.)
pub const MMA_TF32_64X128X32: KernelSpec = KernelSpec {
    name: "tgemm_mma_64x128x32",
    tile: Tile { bm: 64, bn: 128, bk: 32, tm: 32, tn: 64 },
    layouts: Layouts::Any,
    ..MMA_TF32_128X128X32
};

/// 64×192×32, 8 warps of 32×48: the partial sums of deep-K calls whose N
/// a 192-wide tile covers with less padding than 128-wide ones. At
/// 64×192×300000 one tile reads A once per chunk, where 64×128 tiles read
/// it twice. (With 4 warps of 64×48, 12 of B's 16-byte pieces per thread
/// and slice, 255 registers and spills; with 8 under the 128 registers of
/// two blocks per SM, its column-major-A variants spill.)
pub const MMA_TF32_64X192X32: KernelSpec = KernelSpec {
    name: "tgemm_mma_64x192x32",
    tile: Tile { bm: 64, bn: 192, bk: 32, tm: 32, tn: 48 },
    layouts: Layouts::RowMajor,
    ..MMA_TF32_128X128X32
};

/// Step 9: Hopper `wgmma` (sm_90a). 128×256×64 block tile, two warpgroups
/// of 64×256, 4 stages (192 KiB), one block per SM.
pub const WGMMA_F16_128X256X64: KernelSpec = KernelSpec {
    name: "hgemm_wgmma_128x256x64",
    dtype: Dtype::F16,
    algorithm: Algorithm::Wgmma,
    features: Features::DIRECT_EPILOGUE,
    tile: Tile { bm: 128, bn: 256, bk: 64, tm: 64, tn: 256 },
    stages: 4,
    default_group_m: 8,
    min_blocks_per_sm: 1,
    layouts: Layouts::Any,
    arch: Arch::Sm90a,
};

pub const WGMMA_BF16_128X256X64: KernelSpec =
    KernelSpec { name: "bgemm_wgmma_128x256x64", dtype: Dtype::Bf16, ..WGMMA_F16_128X256X64 };

/// Step 9b: TF32 `wgmma` on f32 data, 128×256×32 (128-byte rows of 32 f32),
/// two warpgroups of 64×256, 4 stages (192 KiB). B is transposed on its way
/// into shared memory (4-byte `cp.async`), since TF32 `wgmma` reads only
/// K-major operands.
pub const WGMMA_TF32_128X256X32: KernelSpec = KernelSpec {
    name: "tgemm_wgmma_128x256x32",
    dtype: Dtype::Tf32,
    tile: Tile { bm: 128, bn: 256, bk: 32, tm: 64, tn: 256 },
    layouts: Layouts::RowMajor,
    ..WGMMA_F16_128X256X64
};

/// 256×128×32: two warpgroups of two 64×128 tiles. Per multiply-add it
/// moves half as many B elements as 128×256 (B is the operand copied 4 bytes
/// at a time) and twice as many A elements (16 bytes at a time).
pub const WGMMA_TF32_256X128X32: KernelSpec = KernelSpec {
    name: "tgemm_wgmma_256x128x32",
    tile: Tile { bm: 256, bn: 128, bk: 32, tm: 128, tn: 128 },
    ..WGMMA_TF32_128X256X32
};

/// Step 10: Hopper, warp-specialized and persistent (sm_90a). A producer
/// warp brings 128×64 A and 64×256 B slices in with the TMA into 3 stages
/// guarded by `mbarrier`s; two consumer warpgroups of 64×256 multiply with
/// `wgmma` and hand C to TMA stores through a 64 KiB staging tile; 132
/// blocks (one per SM) walk the tiles in grouped order.
pub const WS_F16_128X256X64: KernelSpec = KernelSpec {
    name: "hgemm_ws_128x256x64",
    algorithm: Algorithm::WarpSpecialized,
    // The staged epilogue is the TMA store here; its 64 KiB leave room for 3
    // stages. 4 measured level with 3 when C left from registers (PERF step
    // 28), and 1–5% slower with C staged box by box to make room for them
    // (step 53, `ABLATE_F16_WS_4_STAGES`).
    features: Features::ALL,
    stages: 3,
    // Groups of 16 tile rows: 0.2–1.2% ahead of 8 at the large shapes, 4–12%
    // ahead of no grouping (H100, PERF step 28).
    default_group_m: 16,
    ..WGMMA_F16_128X256X64
};

pub const WS_BF16_128X256X64: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x256x64", dtype: Dtype::Bf16, ..WS_F16_128X256X64 };

/// Step 10 on 128×128 tiles (two consumer warpgroups of 64×128, one
/// `m64n128k16` per K step): twice the tiles of 128×256, for problems
/// whose 128×256 tiles leave SMs idle. Its 32 KiB stages and 32 KiB C
/// staging tile leave room for 6 stages.
pub const WS_F16_128X128X64: KernelSpec = KernelSpec {
    name: "hgemm_ws_128x128x64",
    tile: Tile { bm: 128, bn: 128, bk: 64, tm: 64, tn: 128 },
    stages: 6,
    ..WS_F16_128X256X64
};

pub const WS_BF16_128X128X64: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x128x64", dtype: Dtype::Bf16, ..WS_F16_128X128X64 };

/// Step 10 on 128×64 tiles (two consumer warpgroups of 64×64, one
/// `m64n64k16` per K step), for N of 17 to 64 under a large M, where the
/// 128×128 tiles multiply two to seven times the columns C has (PERF.md
/// step 108). 24 KiB stages, a 16 KiB C staging tile: 8 stages.
pub const WS_F16_128X64X64: KernelSpec = KernelSpec {
    name: "hgemm_ws_128x64x64",
    tile: Tile { bm: 128, bn: 64, bk: 64, tm: 64, tn: 64 },
    stages: 8,
    ..WS_F16_128X256X64
};

pub const WS_BF16_128X64X64: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x64x64", dtype: Dtype::Bf16, ..WS_F16_128X64X64 };

/// Step 10d: step 10's 128×128 tiles, two blocks per SM (2 stages of 32
/// KiB and the 32 KiB C staging tile each, 112 registers per thread, a
/// producer of one warp): one block's epilogue runs while the other
/// multiplies. Named only since PERF step 105 (the one-block tiles' β = 0
/// epilogue is faster at shallow K).
pub const WS_F16_128X128X64_2CTA: KernelSpec =
    KernelSpec { name: "hgemm_ws_128x128x64_2cta", stages: 2, min_blocks_per_sm: 2, ..WS_F16_128X128X64 };

pub const WS_BF16_128X128X64_2CTA: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x128x64_2cta", dtype: Dtype::Bf16, ..WS_F16_128X128X64_2CTA };

/// Step 10 on 128×192 tiles (two consumer warpgroups of 64×192, one
/// `m64n192k16` per K step): for shapes whose 128×256 tiles leave much of
/// their last wave empty (3072³: 288 tiles of 128×256 fill 73% of 3 waves
/// of 132, 384 of 128×192 fill 97%). Stages of 40 KiB: 4 beside a 48 KiB C
/// staging tile. Narrower tiles that would fill 1536³ better (192×96 of
/// three consumers, 128×144) ran at 0.56–0.65 of its rate: each `wgmma`
/// reads A and B from shared memory, and the narrower it is, the larger
/// that read against its math (PERF.md step 96).
pub const WS_F16_128X192X64: KernelSpec = KernelSpec {
    name: "hgemm_ws_128x192x64",
    tile: Tile { bm: 128, bn: 192, bk: 64, tm: 64, tn: 192 },
    stages: 4,
    ..WS_F16_128X256X64
};

pub const WS_BF16_128X192X64: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x192x64", dtype: Dtype::Bf16, ..WS_F16_128X192X64 };

/// Step 10's 128×128 tiles writing f32 C: the partial sums of every f16/bf16
/// split-K call whose kernel is step 10 (`split_k::partials_kernel`), never a
/// 16-bit C. The mainloop is step 10's; C leaves from registers unrounded,
/// so no staging tile: the same 6 stages of 32 KiB. A partial GEMM is a
/// strided batch over K chunks of one A and B; the TMA's bounds (each
/// chunk's K as the map's inner extent) keep a box from reading past its
/// chunk.
pub const WS_F16_128X128X64_F32OUT: KernelSpec =
    KernelSpec { name: "hgemm_ws_128x128x64_f32out", features: Features::F32_OUTPUT, ..WS_F16_128X128X64 };
pub const WS_BF16_128X128X64_F32OUT: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x128x64_f32out", dtype: Dtype::Bf16, ..WS_F16_128X128X64_F32OUT };

/// Step 10's 128×192 tiles writing f32 C: the partial sums of a deep-K
/// call whose N a 192-wide tile covers with less padding than 128-wide ones
/// (`split_k::SAME_TILE_TWINS`). At 64×192×300000 one tile column reads
/// A once per chunk, where two of 128×128 read it twice. Without the 48 KiB
/// C staging tile, 5 stages of 40 KiB.
pub const WS_F16_128X192X64_F32OUT: KernelSpec =
    KernelSpec { name: "hgemm_ws_128x192x64_f32out", features: Features::F32_OUTPUT, stages: 5, ..WS_F16_128X192X64 };
pub const WS_BF16_128X192X64_F32OUT: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x192x64_f32out", dtype: Dtype::Bf16, ..WS_F16_128X192X64_F32OUT };

/// Step 10b: TF32 on the same pipeline, 128×256×32 (a K slice of 32 f32
/// is one 128-byte row), one `m64n256k8` per 8-deep K step, 4 stages of 48
/// KiB. TF32 `wgmma` reads K-major operands only and the TMA cannot
/// transpose 4-byte elements, so the kernel has one entry (NT) and the
/// host copies a row-major B or column-major A transposed first. C (f32)
/// goes out from registers: a staged f32 tile would leave room for two
/// stages.
pub const WS_TF32_128X256X32: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x256x32",
    dtype: Dtype::Tf32,
    tile: Tile { bm: 128, bn: 256, bk: 32, tm: 64, tn: 256 },
    stages: 4,
    features: Features::DIRECT_EPILOGUE,
    layouts: Layouts::KMajor,
    ..WS_F16_128X256X64
};

/// Step 10b's 128×192 tiles (one `m64n192k8` per consumer and K step, 5
/// stages of 40 KiB), as step 10's 128×192 tiles are for 16-bit.
pub const WS_TF32_128X192X32: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x192x32",
    tile: Tile { bm: 128, bn: 192, bk: 32, tm: 64, tn: 192 },
    stages: 5,
    ..WS_TF32_128X256X32
};

/// Step 10b's 128×128 tiles (one `m64n128k8` per consumer and K step, 6
/// stages of 32 KiB): twice the blocks of 128×256 for mid-sized calls, as
/// step 10's 128×128 tiles are for 16-bit.
pub const WS_TF32_128X128X32: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x128x32",
    tile: Tile { bm: 128, bn: 128, bk: 32, tm: 64, tn: 128 },
    stages: 6,
    ..WS_TF32_128X256X32
};

/// Step 10b's 128×64 tiles (one `m64n64k8` per consumer and K step, 9
/// stages of 24 KiB), for N of 17 to 64 under a large M, as step 10's
/// 128×64 are for 16-bit (PERF.md step 108): a row-major B, small there,
/// is copied transposed first.
pub const WS_TF32_128X64X32: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x64x32",
    tile: Tile { bm: 128, bn: 64, bk: 32, tm: 64, tn: 64 },
    stages: 9,
    ..WS_TF32_128X256X32
};

/// Step 10b's 128×16 tiles (one `m64n16k8` per consumer and K step, 12
/// stages of 18 KiB), for N of 8 to 16 under a large M whose rows the TMA
/// reads in place: A streams through the TMA at memory speed, where the
/// memory-bound kernels load it through registers (PERF.md step 109). A
/// row-major B, a few columns, is copied transposed first.
pub const WS_TF32_128X16X32: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x16x32",
    tile: Tile { bm: 128, bn: 16, bk: 32, tm: 64, tn: 16 },
    stages: 12,
    ..WS_TF32_128X256X32
};

/// [`WS_TF32_128X16X32`] on 64×16 tiles (one consumer warpgroup, 16
/// stages of 10 KiB): twice the blocks, for calls of a few thousand rows
/// whose 128-row tiles leave most SMs idle (PERF.md step 110).
pub const WS_TF32_64X16X32: KernelSpec = KernelSpec {
    name: "tgemm_ws_64x16x32",
    tile: Tile { bm: 64, bn: 16, bk: 32, tm: 64, tn: 16 },
    stages: 16,
    ..WS_TF32_128X16X32
};

/// Step 10f: TF32 with a row-major B read in place, the operands swapped
/// (`tma::swapped`). Step 10b needs both tiles K-major, so the host copies
/// a row-major B transposed first: at deep K, where B is as large as the
/// work, that copy doubles the bytes moved, and step 9b's in-kernel 4-byte
/// transposing copies ran 384×384×100000 at 56% of cuBLAS. Here B's tile lands N-major (a TMA box per 32 columns) and
/// each consumer warpgroup loads 64 columns of it into registers as the
/// `wgmma`'s A (`Cᵀ = Bᵀ·Aᵀ`), while A's K-major tile is its B from shared
/// memory: a 256×128 tile is two warpgroups of 64 columns × 256 rows, one
/// `m64n256k8` per 8-deep K step, 4 stages of 48 KiB. H100 (PERF.md step
/// 62), % of cuBLAS, against step 10b's 128×256 behind the copy: 2048³
/// 103 / 78, 4096³ 95 / 85, 8192×4096×6144 92–94 / 90.
pub const WS_TF32_256X128X32_RS: KernelSpec = KernelSpec {
    name: "tgemm_ws_256x128x32_rs",
    tile: Tile { bm: 256, bn: 128, bk: 32, tm: 256, tn: 64 },
    stages: 4,
    layouts: Layouts::NMajorB,
    // Groups of 4 tile rows (1024 rows of A), not step 10b's 16: TFLOP/s
    // with groups of 16 / 8 / 4 (H100, PERF.md step 62): 16384³ 210 / 322
    // / 339, 4096×16384×16384 338 / 370 / 381, 16384²×4096 338 / 357 /
    // 379, 12288³ 337 / 354 / 350.
    default_group_m: 4,
    ..WS_TF32_128X256X32
};

/// Step 10f's 128×128 tiles (one `m64n128k8` per consumer and K step, 6
/// stages of 32 KiB): mid sizes, and the partial sums of TF32's deep-K
/// splits, which they compute themselves (H100, PERF.md step 62:
/// 384×384×100000 102% of cuBLAS, 1024³ 92%). Step 10b's groups of 16
/// tile rows: the built-in choice gives these tiles calls of at most a
/// few waves, where the order matters little (not measured otherwise).
pub const WS_TF32_128X128X32_RS: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x128x32_rs",
    tile: Tile { bm: 128, bn: 128, bk: 32, tm: 128, tn: 64 },
    stages: 6,
    default_group_m: 16,
    ..WS_TF32_256X128X32_RS
};

/// [`WS_TF32_256X128X32_RS`]'s and [`WS_TF32_128X128X32_RS`]'s entries for
/// C's rows off 16 bytes (`Features::c_rows_off_16_bytes`): the same tiles
/// and grid, and 8 KiB of shared memory per consumer, through which its
/// f32 C goes out 32 rows at a time (`epilogue::store_c_f32_swapped_rows`).
/// Launched in their twins' place as [`WT_256X128X8_CU`] is.
pub const WS_TF32_256X128X32_RS_CU: KernelSpec = KernelSpec {
    name: "tgemm_ws_256x128x32_rs_cu",
    features: Features { c_rows_off_16_bytes: true, ..WS_TF32_256X128X32_RS.features },
    ..WS_TF32_256X128X32_RS
};
pub const WS_TF32_128X128X32_RS_CU: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x128x32_rs_cu",
    features: Features { c_rows_off_16_bytes: true, ..WS_TF32_128X128X32_RS.features },
    ..WS_TF32_128X128X32_RS
};

/// Step 10f for M ≤ 16: 16×128 tiles (one `m64n16k8` per consumer and K
/// step, 8 accumulators per thread), 12 stages of 18 KiB. A TF32 call
/// with row-major A and B and M of 8 to 16 streams B, the large operand:
/// each block reads 128 columns of it through the TMA, with 216 KiB of
/// its slices on the way, where step 9b copies B with 4-byte `cp.async`.
/// H100 (PERF.md step 63), % of cuBLAS against step 9b's 128×256:
/// 16×16384×4096 107 / 83.5 (2.9 TB/s, 87% of peak), 16×4096×4096 95 /
/// 82, 16×8192×8192 91 / 82, 8×16384×4096 106 / 85, 16×4096×16384 88 /
/// 79.
pub const WS_TF32_16X128X32_RS: KernelSpec = KernelSpec {
    name: "tgemm_ws_16x128x32_rs",
    tile: Tile { bm: 16, bn: 128, bk: 32, tm: 16, tn: 64 },
    stages: 12,
    default_group_m: 1,
    ..WS_TF32_256X128X32_RS
};

/// Step 10f's tiles for M of 17 to 64 (PERF.md step 107): 32×128
/// (`m64n32k8`, 11 stages of 20 KiB) and 64×128 (`m64n64k8`, 9 stages of
/// 24 KiB), between the 16×128 tiles made for M ≤ 16 and the 128-row
/// tiles, which at M = 17 do seven times the `wgmma` work the call needs
/// and, at one tile row, still read B once.
pub const WS_TF32_32X128X32_RS: KernelSpec = KernelSpec {
    name: "tgemm_ws_32x128x32_rs",
    tile: Tile { bm: 32, bn: 128, bk: 32, tm: 32, tn: 64 },
    stages: 11,
    ..WS_TF32_16X128X32_RS
};
pub const WS_TF32_64X128X32_RS: KernelSpec = KernelSpec {
    name: "tgemm_ws_64x128x32_rs",
    tile: Tile { bm: 64, bn: 128, bk: 32, tm: 64, tn: 64 },
    stages: 9,
    ..WS_TF32_16X128X32_RS
};

/// Step 10h: step 10f's 128×128 and 16×128 tiles (and, since step 107,
/// its 32×128 and 64×128) reading a row-major B
/// whose rows are off 16 bytes in place (`Features::b_rows_by_residue`):
/// the TMA needs rows 16 bytes apart, so B's rows `k ≡ r (mod 4)` come
/// through map `r` of four, whose rows lie 4 rows apart
/// ([`crate::tma::B_ROW_RESIDUES`]); each slice's box lands as four of 8
/// rows, each row shifted by its map's start, and the consumers read row
/// `k`, column `c` where they lie (a fifth box of columns per slice). The others read
/// such a B through a realigned copy, which moves B's bytes twice more:
/// at deep K over few rows of A (TF32 47×307×53605, H200, PERF.md step
/// 101) the copy took 32.5 µs of 81. Launched in place of their bases
/// ([`B_ROWS_TWINS`]).
pub const WS_TF32_128X128X32_RS_BU: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x128x32_rs_bu",
    features: Features { b_rows_by_residue: true, ..WS_TF32_128X128X32_RS.features },
    ..WS_TF32_128X128X32_RS
};
/// (10 stages of 22 KiB: B's tile is a box wider, `tma::b_tile_columns`.)
pub const WS_TF32_16X128X32_RS_BU: KernelSpec = KernelSpec {
    name: "tgemm_ws_16x128x32_rs_bu",
    features: Features { b_rows_by_residue: true, ..WS_TF32_16X128X32_RS.features },
    stages: 10,
    ..WS_TF32_16X128X32_RS
};

/// (9 and 8 stages: B's tile a box wider, as above.)
pub const WS_TF32_32X128X32_RS_BU: KernelSpec = KernelSpec {
    name: "tgemm_ws_32x128x32_rs_bu",
    features: Features { b_rows_by_residue: true, ..WS_TF32_32X128X32_RS.features },
    stages: 9,
    ..WS_TF32_32X128X32_RS
};
pub const WS_TF32_64X128X32_RS_BU: KernelSpec = KernelSpec {
    name: "tgemm_ws_64x128x32_rs_bu",
    features: Features { b_rows_by_residue: true, ..WS_TF32_64X128X32_RS.features },
    stages: 8,
    ..WS_TF32_64X128X32_RS
};

/// A kernel's entry for a row-major B whose rows are off 16 bytes
/// (`Features::b_rows_by_residue`), and the launches the host gives it in
/// the kernel's place ([`b_rows_twin`]).
pub struct BRowsTwin {
    pub base: KernelSpec,
    pub twin: KernelSpec,
    /// Most rows of C (of the launch) at which it pays: where A has many
    /// rows, B's copy is a small part of the work, and the twin's 4-way
    /// bank conflicts on B's fragments (`swapped_fragments_by_residue`)
    /// and four times the copies per slice cost more.
    pub max_m: u32,
}

/// The kernels with an entry for B's rows off 16 bytes: TF32's swapped
/// tiles that `auto` gives few rows of A (deep-K splits, M ≤ 64).
pub const B_ROWS_TWINS: &[BRowsTwin] = &[
    BRowsTwin { base: WS_TF32_128X128X32_RS, twin: WS_TF32_128X128X32_RS_BU, max_m: B_ROWS_TWIN_MAX_M },
    BRowsTwin { base: WS_TF32_16X128X32_RS, twin: WS_TF32_16X128X32_RS_BU, max_m: B_ROWS_TWIN_MAX_M },
    BRowsTwin { base: WS_TF32_32X128X32_RS, twin: WS_TF32_32X128X32_RS_BU, max_m: B_ROWS_TWIN_MAX_M },
    BRowsTwin { base: WS_TF32_64X128X32_RS, twin: WS_TF32_64X128X32_RS_BU, max_m: B_ROWS_TWIN_MAX_M },
];

/// Most rows of C for which [`B_ROWS_TWINS`]' twins take a launch. H200
/// (PERF.md step 103), TF32 ms named, B copied → read by residue, N = 1001
/// and K = 4000: M = 256 0.061 → 0.060, 512 0.061–0.062 → 0.061, 1024
/// 0.063–0.064 → 0.060; 2048×2049×2048 0.113 → 0.116, 4000×3001×1000
/// 0.139 → 0.157.
pub const B_ROWS_TWIN_MAX_M: u32 = 1024;

/// Least bytes of B for which a split-K call whose last chunk is shorter
/// (and whose A is copied anyway) reads B in place through the twins
/// rather than through copies of both operands padded to whole chunks
/// (PERF.md step 101): read in place, B's last chunk is a launch of its
/// own (7.5 µs for 3 blocks, H200, ncu), and the twins' partial sums ran
/// 14% slower (37 against 32.5 µs at 47×307×53605), where B's copy costs
/// about 0.5 µs per MB; they pay from about 17 MB. H200 (PERF.md step 103),
/// `auto` ms, padded copies → B in place: 47×307×53605 (66 MB of B) 0.0806
/// → 0.0587, but 47×307×9001 (11 MB) 0.0273 → 0.0306.
pub const B_ROWS_TWIN_MIN_RAGGED_B_BYTES: u64 = 16 << 20;

/// The [`B_ROWS_TWINS`] record of `spec` for a launch of `m` rows, if
/// its twin pays there; the caller tests B's rows.
pub fn b_rows_twin(spec: &KernelSpec, m: u32) -> Option<&'static BRowsTwin> {
    B_ROWS_TWINS.iter().find(|record| record.base.name == spec.name && m <= record.max_m)
}

/// The base of `spec` where it is one of [`B_ROWS_TWINS`]' twins.
pub fn b_rows_base(spec: &KernelSpec) -> Option<&'static KernelSpec> {
    B_ROWS_TWINS.iter().find(|record| record.twin.name == spec.name).map(|record| &record.base)
}

/// Step 10g: step 10f's 16×128 tiles for 16-bit (f16, bf16), M ≤ 16 with
/// A and B row-major: `Cᵀ = Bᵀ·Aᵀ`, each consumer warpgroup one
/// `m64n16k16` per K step whose A is a 64-column box of B's N-major tile
/// and whose B is A's 16 K-major rows, both read from shared memory (16-bit
/// `wgmma` takes MN-major operands, so nothing goes through registers), 12
/// stages of 18 KiB. Persistent blocks stream B through the TMA where step
/// 70's 16×64 `mma.sync` tiles fill and drain a `cp.async` pipeline per
/// tile. C leaves from registers, 2 bytes at a time (it is at most 16 rows:
/// a small part of the traffic). H200 (PERF.md step 102), named, TFLOP/s
/// against the 16×64 tiles: 8×42216×504 20.4 / 17.4, 16×200000×256 47.9 /
/// 41.3, 8×200000×128 19.9 / 14.1, 16×8192×2040 46.8 / 45.3, but
/// 16×16384×1024 56.4 / 58.4 and 16×16384×4096 57.6 / 60.1.
pub const WS_F16_16X128X64_RS: KernelSpec = KernelSpec {
    name: "hgemm_ws_16x128x64_rs",
    tile: Tile { bm: 16, bn: 128, bk: 64, tm: 16, tn: 64 },
    stages: 12,
    features: Features::DIRECT_EPILOGUE,
    layouts: Layouts::RowMajor,
    default_group_m: 1,
    ..WS_F16_128X256X64
};
pub const WS_BF16_16X128X64_RS: KernelSpec =
    KernelSpec { name: "bgemm_ws_16x128x64_rs", dtype: Dtype::Bf16, ..WS_F16_16X128X64_RS };

/// Step 10c: step 10 in 2×1 thread-block clusters. The two blocks of a
/// cluster compute vertically adjacent 128×256 tiles, which read the same
/// 64×256 B slice: each block's producer loads its own A and half of B,
/// and the TMA multicasts that half into both blocks, so each block pulls
/// 32 KiB per slice out of L2 instead of 48. A stage is free again only
/// when the consumers of both blocks are done with it (its "empty"
/// barrier counts the consumer warps of the cluster). The clusters walk
/// pairs of tile rows in grouped order (groups of 8 pairs, the 16 tile
/// rows of step 10).
pub const WS_F16_128X256X64_C2: KernelSpec = KernelSpec {
    name: "hgemm_ws_128x256x64_c2",
    features: Features { cluster_m: 2, ..Features::ALL },
    ..WS_F16_128X256X64
};
pub const WS_BF16_128X256X64_C2: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x256x64_c2", dtype: Dtype::Bf16, ..WS_F16_128X256X64_C2 };
/// Step 10b (TF32) in 2×1 clusters, as step 10c.
pub const WS_TF32_128X256X32_C2: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x256x32_c2",
    features: Features { cluster_m: 2, ..Features::DIRECT_EPILOGUE },
    ..WS_TF32_128X256X32
};

/// Step 10e: step 10's 128×256 tiles with stream-K (`Features::stream_k`,
/// [`crate::stream_k`]): the grid is every SM, and where the tiles leave
/// the last wave part-empty (1536³: 72 tiles for 132 SMs; 5000²×2000: 800,
/// 6.06 waves) the blocks share out the last wave and one full wave before
/// it by K slices, adding partial sums through a workspace. Measured slower
/// than step 10 wherever it shares except 3072³ (PERF step 50): a step of
/// the ladder, not chosen by `auto`.
pub const WS_F16_128X256X64_SK: KernelSpec = KernelSpec {
    name: "hgemm_ws_128x256x64_sk",
    features: Features { stream_k: true, ..Features::ALL },
    ..WS_F16_128X256X64
};
pub const WS_BF16_128X256X64_SK: KernelSpec =
    KernelSpec { name: "bgemm_ws_128x256x64_sk", dtype: Dtype::Bf16, ..WS_F16_128X256X64_SK };
/// Step 10b (TF32) with stream-K, as step 10e.
pub const WS_TF32_128X256X32_SK: KernelSpec = KernelSpec {
    name: "tgemm_ws_128x256x32_sk",
    features: Features { stream_k: true, ..Features::DIRECT_EPILOGUE },
    ..WS_TF32_128X256X32
};

/// Step 10's ablations (f16, row-major), each taking one technique away:
/// C stored from registers (4-byte stores, the consumers busy until they
/// are done) instead of TMA stores, with the 4th stage the space allows…
pub const ABLATE_F16_WS_DIRECT_EPILOGUE: KernelSpec = KernelSpec {
    name: "hgemm_ablate_ws_direct_epilogue",
    features: Features { ablation: true, ..Features::DIRECT_EPILOGUE },
    stages: 4,
    layouts: Layouts::RowMajor,
    ..WS_F16_128X256X64
};
/// …and one block per tile instead of a persistent grid (no overlap of a
/// tile's stores with the next tile's loads and multiplies).
pub const ABLATE_F16_WS_ONE_TILE: KernelSpec = KernelSpec {
    name: "hgemm_ablate_ws_one_tile",
    features: Features { persistent: false, ..Features::ALL },
    layouts: Layouts::RowMajor,
    ..WS_F16_128X256X64
};
/// …and, the other way round, a 4th stage where the 64 KiB staging tile
/// leaves room for 3: each consumer warpgroup stages C in two 8 KiB box
/// buffers taken in turn (`Features::c_staging_boxes`), so its 3rd and 4th
/// boxes wait for the TMA to have read the 1st and 2nd. Measured 1–5%
/// slower than step 10 at issue 10's shapes (PERF step 53): the waits sit
/// in the epilogue, with the tensor cores idle, and the deeper ring buys
/// nothing once the main loop runs at cuBLAS's rate.
pub const ABLATE_F16_WS_4_STAGES: KernelSpec = KernelSpec {
    name: "hgemm_ablate_ws_4_stages",
    features: Features { c_staging_boxes: 2, ablation: true, ..Features::ALL },
    stages: 4,
    layouts: Layouts::RowMajor,
    ..WS_F16_128X256X64
};

/// Every kernel, f32 ladder first. The f32-output twins are here too, so
/// `build.rs` (launch bounds, entry check, cubins) and the tests cover them;
/// the host's per-dtype lists leave them out (`Features::f32_output`).
pub const KERNELS: &[KernelSpec] = &[
    NAIVE,
    TILED,
    REG1D,
    REG2D,
    VECTORIZED,
    DB_128X128X8,
    DB_128X128X16,
    DB_128X64X16,
    DB_64X64X16,
    DB_128X256X8,
    DB_128X256X16,
    DB_256X128X8,
    ASYNC_128X128X8,
    ASYNC_128X128X16,
    ASYNC_128X64X16,
    WT_256X128X8,
    WT_256X128X8_CU,
    WT_128X256X8,
    WT_256X128X16,
    WT_256X128X8_W32X128,
    WT_128X128X8,
    WT_64X128X8,
    WT_64X64X8,
    WT_64X64X8_CU,
    WT_ASYNC_256X128X8,
    WT_ASYNC_64X64X8,
    WT_ASYNC_64X128X8,
    WT_ASYNC_128X64X8,
    MMA_F16_128X256X32,
    MMA_F16_128X128X32,
    MMA_F16_128X256X64,
    MMA_F16_128X128X64,
    MMA_F16_128X128X32_W32X64,
    MMA_F16_128X256X32_W64X32,
    ABLATE_F16_PLAIN,
    ABLATE_F16_LDMATRIX,
    ABLATE_F16_STAGES,
    MMA_BF16_128X256X32,
    MMA_BF16_128X128X32,
    MMA_BF16_128X256X64,
    MMA_BF16_128X128X64,
    MMA_BF16_128X128X32_W32X64,
    MMA_BF16_128X256X32_W64X32,
    MMA_F16_16X64X64,
    MMA_F16_64X16X64,
    MMA_BF16_16X64X64,
    MMA_BF16_64X16X64,
    MMA_F16_16X64X64_F32OUT,
    MMA_F16_64X16X64_F32OUT,
    MMA_BF16_16X64X64_F32OUT,
    MMA_BF16_64X16X64_F32OUT,
    MMA_F16_128X128X32_W32X64_F32OUT,
    MMA_BF16_128X128X32_W32X64_F32OUT,
    MMA_TF32_128X128X32,
    MMA_TF32_64X128X32,
    MMA_TF32_64X192X32,
    WGMMA_F16_128X256X64,
    WGMMA_BF16_128X256X64,
    WGMMA_TF32_128X256X32,
    WGMMA_TF32_256X128X32,
    WS_F16_128X256X64,
    WS_BF16_128X256X64,
    WS_F16_128X128X64,
    WS_BF16_128X128X64,
    WS_F16_128X128X64_F32OUT,
    WS_BF16_128X128X64_F32OUT,
    WS_F16_128X192X64_F32OUT,
    WS_BF16_128X192X64_F32OUT,
    WS_TF32_128X256X32,
    WS_TF32_128X128X32,
    WS_F16_128X192X64,
    WS_BF16_128X192X64,
    WS_TF32_128X192X32,
    WS_TF32_256X128X32_RS,
    WS_TF32_128X128X32_RS,
    WS_TF32_256X128X32_RS_CU,
    WS_TF32_128X128X32_RS_CU,
    WS_TF32_16X128X32_RS,
    WS_TF32_128X128X32_RS_BU,
    WS_TF32_16X128X32_RS_BU,
    WS_TF32_32X128X32_RS,
    WS_TF32_32X128X32_RS_BU,
    WS_TF32_64X128X32_RS,
    WS_TF32_64X128X32_RS_BU,
    WS_F16_128X64X64,
    WS_BF16_128X64X64,
    WS_TF32_128X64X32,
    WS_TF32_128X16X32,
    WS_TF32_64X16X32,
    WS_F16_16X128X64_RS,
    WS_BF16_16X128X64_RS,
    WS_F16_128X256X64_C2,
    WS_BF16_128X256X64_C2,
    WS_TF32_128X256X32_C2,
    WS_F16_128X128X64_2CTA,
    WS_BF16_128X128X64_2CTA,
    WS_F16_128X256X64_SK,
    WS_BF16_128X256X64_SK,
    WS_TF32_128X256X32_SK,
    ABLATE_F16_WS_ONE_TILE,
    ABLATE_F16_WS_4_STAGES,
    ABLATE_F16_WS_DIRECT_EPILOGUE,
    memory_bound::SKINNY_F32_R1,
    memory_bound::SKINNY_F32_R4,
    memory_bound::SKINNY_F32_R16,
    memory_bound::SKINNY_F32_R16_2CTA,
    memory_bound::SKINNY_TF32_R1,
    memory_bound::SKINNY_TF32_R4,
    memory_bound::SKINNY_TF32_R16,
    memory_bound::SKINNY_TF32_R16_2CTA,
    memory_bound::SKINNY_F16_R1,
    memory_bound::SKINNY_F16_R4,
    memory_bound::SKINNY_F16_R8,
    memory_bound::SKINNY_BF16_R1,
    memory_bound::SKINNY_BF16_R4,
    memory_bound::SKINNY_BF16_R8,
    memory_bound::SKINNY_F16_R1_F32OUT,
    memory_bound::SKINNY_F16_R4_F32OUT,
    memory_bound::SKINNY_F16_R8_F32OUT,
    memory_bound::SKINNY_BF16_R1_F32OUT,
    memory_bound::SKINNY_BF16_R4_F32OUT,
    memory_bound::SKINNY_BF16_R8_F32OUT,
    memory_bound::SKINNY_MMA_F16,
    memory_bound::SKINNY_MMA_BF16,
    memory_bound::SKINNY_MMA_F16_F32OUT,
    memory_bound::SKINNY_MMA_BF16_F32OUT,
    memory_bound::SKINNY_MMA_F16_R16,
    memory_bound::SKINNY_MMA_BF16_R16,
    memory_bound::SKINNY_MMA_TF32_R16,
    memory_bound::SKINNY_MMA_F16_R16_F32OUT,
    memory_bound::SKINNY_MMA_BF16_R16_F32OUT,
    memory_bound::SKINNY_MMA_L_F16,
    memory_bound::SKINNY_MMA_L_BF16,
    memory_bound::SKINNY_MMA_L_F16_R16,
    memory_bound::SKINNY_MMA_L_BF16_R16,
    memory_bound::SKINNY_MMA_L_F16_F32OUT,
    memory_bound::SKINNY_MMA_L_BF16_F32OUT,
    memory_bound::SKINNY_MMA_L_F16_R16_F32OUT,
    memory_bound::SKINNY_MMA_L_BF16_R16_F32OUT,
];
