//! Tile configurations and launch geometry, shared by the GPU kernels
//! (`kernels-gpu`, compiled to PTX) and the host launcher (`rgemm`).
//!
//! This crate is the one place where a kernel's block tile, its threads per
//! block, its shared-memory bytes and its grid are decided. The kernels take
//! their const generic parameters from the [`KernelSpec`] constants below and
//! the host launches with the numbers computed from the same constants, so the
//! two can never disagree.
#![no_std]

pub mod memory_bound;

/// Shape of the work one thread block does, and of the part of it each
/// thread owns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Rows of C per block.
    pub bm: u32,
    /// Columns of C per block.
    pub bn: u32,
    /// Depth of the K slice staged in shared memory per step.
    pub bk: u32,
    /// Rows of C per thread.
    pub tm: u32,
    /// Columns of C per thread.
    pub tn: u32,
}

impl Tile {
    /// Threads per block: one per `tm × tn` sub-tile of the block tile.
    pub const fn threads(&self) -> u32 {
        (self.bm / self.tm) * (self.bn / self.tn)
    }

    /// Shared-memory bytes of the A slice of one stage (`bk` rows of
    /// [`a_smem_ld`] f32: A is stored transposed by the vectorized kernels;
    /// the others use the first `bm × bk` of it).
    pub const fn a_smem_bytes(&self) -> u32 {
        self.bk * a_smem_ld(self.bm) * 4
    }

    /// Shared-memory bytes for one stage: the A slice, then the `bk × bn` B slice.
    pub const fn stage_bytes(&self) -> u32 {
        self.a_smem_bytes() + self.bk * self.bn * 4
    }
}

/// Padding, in f32, after each row of the transposed A slice in shared memory.
/// Without it, the two 4-row chunks a warp writes per store (`bk / 4` rows of
/// the slice apart, a multiple of 32 words) land in the same banks; 4 words
/// of padding moves the second chunk 16 banks over and keeps rows 16-byte
/// aligned for 128-bit reads.
pub const A_SMEM_PAD: u32 = 4;

/// Padding, in 16-bit elements, after each row of the C tile the f16/bf16
/// tensor-core kernels stage in shared memory for their epilogue. A warp
/// writes 8 rows × 16 bytes at a time; rows `bn + 8` elements long (a multiple
/// of 32 plus 4 words) start 4 banks apart, so those writes hit 32 banks.
pub const C_SMEM_PAD: u32 = 8;

/// Bytes of one stage's A and B tiles in the `wgmma` kernels: unpadded
/// (128-byte swizzle instead), so every tile is a whole number of 1024-byte
/// swizzle atoms.
pub const fn wgmma_tile_bytes(dtype: Dtype, bm: u32, bn: u32, bk: u32) -> (u32, u32) {
    (bm * bk * dtype.element_bytes(), bk * bn * dtype.element_bytes())
}

/// Elements per row of the staged C tile.
pub const fn c_smem_ld(bn: u32) -> u32 {
    bn + C_SMEM_PAD
}

/// Padding, in f32, after each row of the TF32 kernel's `[k][m]` and `[k][n]`
/// tiles (A column-major, B row-major). A warp reads them as 4 k-rows × 8
/// columns of 32-bit words; with rows `bm`/`bn + 8` words long (a multiple of
/// 32 plus 8) the k-rows start 8 banks apart and the 32 reads hit 32 distinct
/// banks, while every address stays a base plus a constant.
pub const TF32_PAD: u32 = 8;

/// Padding, in f32, after each row of the TF32 kernel's `[n][k]` B tile (B
/// column-major): rows of `bk + 4` words put the 8 columns a warp reads 4
/// banks apart, so 8 columns × 4 k hit 32 distinct banks.
pub const TF32_K_PAD: u32 = 4;

/// Bytes of one stage's A tile and B tile in the tensor-core kernels, large
/// enough for every operand layout (16-bit tiles are the same size in either
/// orientation; TF32 tiles are padded differently, see [`TF32_PAD`]).
pub const fn mma_tile_bytes(dtype: Dtype, bm: u32, bn: u32, bk: u32) -> (u32, u32) {
    const fn max(x: u32, y: u32) -> u32 {
        if x > y { x } else { y }
    }
    match dtype {
        Dtype::Tf32 => (max(bm * bk, bk * (bm + TF32_PAD)) * 4, max(bk * (bn + TF32_PAD), bn * (bk + TF32_K_PAD)) * 4),
        _ => (bm * bk * dtype.element_bytes(), bk * bn * dtype.element_bytes()),
    }
}

/// Leading dimension (f32 per row) of the transposed A slice `[bk][bm + pad]`.
pub const fn a_smem_ld(bm: u32) -> u32 {
    bm + A_SMEM_PAD
}

/// Element type of A, B and C. Accumulation is f32 for every type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    /// IEEE f32, computed exactly on CUDA cores.
    F32,
    /// f32 in memory, multiplied on tensor cores with operands rounded to
    /// TF32 (10-bit mantissa), as PyTorch's `allow_tf32`.
    Tf32,
    F16,
    Bf16,
}

impl Dtype {
    pub const ALL: [Dtype; 4] = [Dtype::F32, Dtype::Tf32, Dtype::F16, Dtype::Bf16];

    pub const fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "f32",
            Dtype::Tf32 => "tf32",
            Dtype::F16 => "f16",
            Dtype::Bf16 => "bf16",
        }
    }

    /// Bytes per element in memory.
    pub const fn element_bytes(self) -> u32 {
        match self {
            Dtype::F32 | Dtype::Tf32 => 4,
            Dtype::F16 | Dtype::Bf16 => 2,
        }
    }
}

/// Which algorithm a kernel implements; each is one step of the ladder and
/// one file in `kernels-gpu/src/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// One thread per element of C, operands straight from global memory.
    Naive,
    /// Square tiles of A and B staged in shared memory (the seeds' kernel).
    Tiled,
    /// Each thread computes a column of `tm` outputs.
    RegisterBlocked1d,
    /// Each thread computes a `tm × tn` block of outputs.
    RegisterBlocked2d,
    /// 2-D blocking with 128-bit global loads, A transposed in shared memory
    /// and conflict-free 128-bit shared reads.
    Vectorized,
    /// `Vectorized` with two shared-memory stages: the next K slice is loaded
    /// while the current one is multiplied.
    DoubleBuffered,
    /// A multi-stage pipeline of `cp.async` copies (global → shared without
    /// registers), several K slices in flight.
    AsyncPipeline,
    /// Tensor cores: `mma.sync` on warp tiles fed by `ldmatrix` from swizzled
    /// shared memory, filled by a `cp.async` pipeline. `tm × tn` is the warp
    /// tile; each warp is 32 threads.
    TensorCore,
    /// Hopper warpgroup MMA (`wgmma.mma_async`, operands read from swizzled
    /// shared memory through descriptors). `tm × tn` is the warpgroup tile;
    /// each warpgroup is 128 threads.
    Wgmma,
    /// M or N ≤ 16: the large operand streamed once at memory speed, the
    /// small one in registers and shared memory; see [`memory_bound`].
    MemoryBound,
}

/// The GPU architecture a kernel's PTX module is built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// Ampere and newer (`sm_80` PTX, JIT-compiled by the driver for the GPU).
    Sm80,
    /// Hopper only (`sm_90a`: `wgmma` has no portable form).
    Sm90a,
}

impl Arch {
    pub const ALL: [Arch; 2] = [Arch::Sm80, Arch::Sm90a];

    /// The name `-Ctarget-cpu` and `.target` use.
    pub const fn name(self) -> &'static str {
        match self {
            Arch::Sm80 => "sm_80",
            Arch::Sm90a => "sm_90a",
        }
    }
}

/// Optional parts of the tensor-core kernels, switched off one at a time by
/// the ablation configurations (`ABLATE_*`) to measure what each is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Operand fragments loaded with `ldmatrix` (else gathered with 32- and
    /// 16-bit shared loads in the `mma` register layout).
    pub ldmatrix: bool,
    /// XOR-swizzled shared-memory tiles (else plain rows, with bank conflicts).
    pub swizzle: bool,
    /// f16/bf16 epilogue staged through shared memory for 16-byte stores
    /// (else 4-byte stores straight from registers). A tuning choice, not an
    /// ablation: it helps 64×64 warp tiles and costs 32×64 ones (PERF.md).
    pub staged_epilogue: bool,
}

impl Features {
    pub const ALL: Features = Features { ldmatrix: true, swizzle: true, staged_epilogue: true };
    /// Everything except the staged epilogue.
    pub const DIRECT_EPILOGUE: Features = Features { staged_epilogue: false, ..Features::ALL };

    /// Whether this set leaves out an optimization on purpose (an ablation).
    pub const fn is_ablation(&self) -> bool {
        !self.ldmatrix || !self.swizzle
    }
}

/// How A and B lie in memory. `C = A·B` is written for row-major operands
/// (`N`); a column-major operand (`T`: its transpose is what is stored
/// row-major) is read in place, without a copy, by kernels compiled for it.
/// A column-major C needs no kernel of its own: the host computes
/// `Cᵀ = Bᵀ·Aᵀ` instead, which swaps A and B and flips both layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandLayout {
    pub a_col_major: bool,
    pub b_col_major: bool,
}

impl OperandLayout {
    /// Both row-major: the layout every kernel supports.
    pub const NN: OperandLayout = OperandLayout { a_col_major: false, b_col_major: false };
    pub const ALL: [OperandLayout; 4] = [
        OperandLayout::NN,
        OperandLayout { a_col_major: false, b_col_major: true },
        OperandLayout { a_col_major: true, b_col_major: false },
        OperandLayout { a_col_major: true, b_col_major: true },
    ];

    /// What the kernel's PTX entry name carries after the spec's name
    /// (BLAS's letters for A then B; none for NN).
    pub const fn suffix(self) -> &'static str {
        match (self.a_col_major, self.b_col_major) {
            (false, false) => "",
            (false, true) => "_nt",
            (true, false) => "_tn",
            (true, true) => "_tt",
        }
    }
}

/// Which operand layouts a kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layouts {
    /// Row-major A and B only (the teaching ladder, the ablations).
    RowMajor,
    /// All four: one PTX entry per [`OperandLayout`].
    Any,
}

/// Everything the host needs to launch a kernel, and the kernel needs to be
/// compiled with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelSpec {
    /// The PTX entry point (`.entry` name). A CPU test checks that every spec
    /// has its entry in the embedded PTX.
    pub name: &'static str,
    pub dtype: Dtype,
    pub algorithm: Algorithm,
    pub tile: Tile,
    /// Shared-memory stages (0 for kernels that use none).
    pub stages: u32,
    /// Grouped tile order used unless the caller overrides it (1 = row-major
    /// order of tiles, i.e. grouping off).
    pub default_group_m: u32,
    /// Which optimizations a tensor-core kernel uses (all, except in the
    /// ablations that measure each one's worth).
    pub features: Features,
    /// Blocks that must fit on one multiprocessor at once (0: no demand).
    /// `build.rs` writes it into the PTX as `.maxntid threads` and
    /// `.minnctapersm` (CUDA C++'s `__launch_bounds__`), so ptxas caps the
    /// registers per thread at `65536 / (threads × blocks)`.
    pub min_blocks_per_sm: u32,
    /// The operand layouts compiled in (each one a PTX entry).
    pub layouts: Layouts,
    /// Which PTX module holds the kernel.
    pub arch: Arch,
}

impl KernelSpec {
    /// Whether the kernel has an entry for `layout`.
    pub const fn supports(&self, layout: OperandLayout) -> bool {
        matches!(self.layouts, Layouts::Any) || (!layout.a_col_major && !layout.b_col_major)
    }

    /// Threads per block (1-D blocks for every kernel).
    pub const fn threads(&self) -> u32 {
        match self.algorithm {
            Algorithm::TensorCore => (self.tile.bm / self.tile.tm) * (self.tile.bn / self.tile.tn) * 32,
            Algorithm::Wgmma => (self.tile.bm / self.tile.tm) * (self.tile.bn / self.tile.tn) * 128,
            Algorithm::MemoryBound => memory_bound::THREADS,
            _ => self.tile.threads(),
        }
    }

    /// Dynamic shared-memory bytes the launch must request.
    pub const fn smem_bytes(&self) -> u32 {
        match self.algorithm {
            // STAGES × (A tile + B tile); the 16-bit kernels then reuse the
            // space to stage C.
            Algorithm::TensorCore => {
                let t = self.tile;
                let (a_tile, b_tile) = mma_tile_bytes(self.dtype, t.bm, t.bn, t.bk);
                let pipeline = self.stages * (a_tile + b_tile);
                let c_tile = match self.dtype {
                    Dtype::F16 | Dtype::Bf16 if self.features.staged_epilogue => t.bm * c_smem_ld(t.bn) * 2,
                    _ => 0,
                };
                if pipeline > c_tile { pipeline } else { c_tile }
            }
            Algorithm::Wgmma => {
                let t = self.tile;
                let (a_tile, b_tile) = wgmma_tile_bytes(self.dtype, t.bm, t.bn, t.bk);
                self.stages * (a_tile + b_tile)
            }
            Algorithm::MemoryBound => memory_bound::smem_bytes(self.dtype, self.tile.bm),
            _ => self.stages * self.tile.stage_bytes(),
        }
    }

    /// Number of blocks (1-D grid: one block per tile of C; the kernel maps its
    /// block index to a tile with [`tile_coords`]).
    pub const fn grid(&self, m: u32, n: u32) -> u64 {
        match self.algorithm {
            Algorithm::MemoryBound => memory_bound::grid(self.tile.bm, m, n),
            _ => tiles(m, self.tile.bm) as u64 * tiles(n, self.tile.bn) as u64,
        }
    }
}

/// `ceil(len / tile)`: how many tiles cover `len`.
pub const fn tiles(len: u32, tile: u32) -> u32 {
    len.div_ceil(tile)
}

/// Maps a linear block index to the (tile row, tile column) of C it computes.
///
/// Blocks are taken in groups of `group_m` tile rows: consecutive blocks walk
/// down a column of `group_m` tiles before moving right, so the blocks resident
/// at one time share rows of A and columns of B in L2 (the seeds' GROUP_SIZE_M).
/// `group_m = 1` is plain row-major order. The map is a bijection onto the
/// `tiles_m × tiles_n` grid for every `group_m ≥ 1`.
#[inline(always)]
pub const fn tile_coords(block: u32, tiles_m: u32, tiles_n: u32, group_m: u32) -> (u32, u32) {
    let group_m = if group_m == 0 { 1 } else { group_m };
    let blocks_per_group = group_m * tiles_n;
    let group = block / blocks_per_group;
    let first_row = group * group_m;
    let rows_in_group = if tiles_m - first_row < group_m { tiles_m - first_row } else { group_m };
    let in_group = block % blocks_per_group;
    (first_row + in_group % rows_in_group, in_group / rows_in_group)
}

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
    min_blocks_per_sm: 0,
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
    features: Features { ldmatrix: false, swizzle: false, staged_epilogue: false },
    stages: 2,
    min_blocks_per_sm: 1,
    layouts: Layouts::RowMajor,
    ..MMA_F16_128X128X32_W32X64
};
/// 2. + `ldmatrix`;
pub const ABLATE_F16_LDMATRIX: KernelSpec = KernelSpec {
    name: "hgemm_ablate_ldmatrix",
    features: Features { ldmatrix: true, swizzle: false, staged_epilogue: false },
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

/// Every kernel, f32 ladder first.
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
    MMA_TF32_128X128X32,
    MMA_TF32_64X128X32,
    WGMMA_F16_128X256X64,
    WGMMA_BF16_128X256X64,
    WGMMA_TF32_128X256X32,
    WGMMA_TF32_256X128X32,
    memory_bound::SKINNY_F32_R1,
    memory_bound::SKINNY_F32_R4,
    memory_bound::SKINNY_F32_R16,
    memory_bound::SKINNY_TF32_R1,
    memory_bound::SKINNY_TF32_R4,
    memory_bound::SKINNY_TF32_R16,
    memory_bound::SKINNY_F16_R1,
    memory_bound::SKINNY_F16_R4,
    memory_bound::SKINNY_F16_R8,
    memory_bound::SKINNY_BF16_R1,
    memory_bound::SKINNY_BF16_R4,
    memory_bound::SKINNY_BF16_R8,
];
