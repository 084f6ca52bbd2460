//! Launch geometry derived from a [`KernelSpec`]: threads per block, grid,
//! the block → tile map, and the shared-memory layout (padding, tile bytes,
//! dynamic shared-memory request). The kernels size their shared-memory
//! arrays with the same functions the host requests the bytes with.

use crate::memory_bound;
use crate::spec::{Algorithm, Dtype, KernelSpec, Tile};
use crate::tma;

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

/// Lanes of a warp along M and along N in the warp-tiled f32 kernels
/// (`Algorithm::WarpTiled`): a 4×8 grid, so the 8 lanes of a quarter-warp
/// (what one 128-bit shared load serves at once) share their A values
/// (a broadcast) and read 8 consecutive 16-byte pieces of B (128 bytes, all
/// 32 banks). Each thread owns `tm / 4 / WARP_LANES_M` × `tn / 4 /
/// WARP_LANES_N` sub-tiles of 4×4 outputs, `4 · WARP_LANES_*` apart.
pub const WARP_LANES_M: u32 = 4;
pub const WARP_LANES_N: u32 = 8;

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

/// Shared memory of a skinny tile (step 72, `KernelSpec::is_skinny_tile`)
/// whose large operand's runs start off 16 bytes: each stage holds that
/// operand's slice as aligned 16-byte granules (a run of the slice needs
/// one granule more than its length) and the small operand's tile; after
/// the stages, two realigned tiles of the large operand, used in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkinnyRealign {
    /// Bytes of a stage's granules, then of the whole stage.
    pub granule_bytes: u32,
    pub stage_bytes: u32,
    /// Bytes of one realigned tile (the large operand's slice).
    pub tile_bytes: u32,
}

impl SkinnyRealign {
    /// The layout for a 16-bit `bm × bn × bk` skinny tile (one of `bm`,
    /// `bn` at most 16, the other the large operand's side), either
    /// orientation of the large operand.
    pub const fn of(bm: u32, bn: u32, bk: u32) -> SkinnyRealign {
        let (large, small) = if bn <= 16 { (bm, bn) } else { (bn, bm) };
        let along_k = large * (bk / 8 + 1);
        let along_mn = bk * (large / 8 + 1);
        let granule_bytes = 16 * if along_k > along_mn { along_k } else { along_mn };
        SkinnyRealign { granule_bytes, stage_bytes: granule_bytes + small * bk * 2, tile_bytes: large * bk * 2 }
    }

    /// Bytes of the whole layout with `stages` stages.
    pub const fn bytes(&self, stages: u32) -> u32 {
        stages * self.stage_bytes + 2 * self.tile_bytes
    }
}

/// Leading dimension (f32 per row) of the transposed A slice `[bk][bm + pad]`.
pub const fn a_smem_ld(bm: u32) -> u32 {
    bm + A_SMEM_PAD
}

impl KernelSpec {
    /// Threads per block (1-D blocks for every kernel).
    pub const fn threads(&self) -> u32 {
        match self.algorithm {
            Algorithm::TensorCore | Algorithm::WarpTiled => {
                (self.tile.bm / self.tile.tm) * (self.tile.bn / self.tile.tn) * 32
            }
            Algorithm::Wgmma => (self.tile.bm / self.tile.tm) * (self.tile.bn / self.tile.tn) * 128,
            // The consumer warpgroups, then the producer's warpgroup, or
            // with two blocks per SM its one warp (step 10d: all threads
            // get the same registers, and 384 would leave 80 each).
            Algorithm::WarpSpecialized => {
                let producer = if self.min_blocks_per_sm == 1 { 128 } else { 32 };
                tma::consumer_warps(self) * 32 + producer
            }
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
                // A skinny tile may run its large operand through granules.
                let realigning =
                    if self.is_skinny_tile() { SkinnyRealign::of(t.bm, t.bn, t.bk).bytes(self.stages) } else { 0 };
                let most = if pipeline > c_tile { pipeline } else { c_tile };
                if realigning > most { realigning } else { most }
            }
            Algorithm::Wgmma => {
                let t = self.tile;
                let (a_tile, b_tile) = wgmma_tile_bytes(self.dtype, t.bm, t.bn, t.bk);
                self.stages * (a_tile + b_tile)
            }
            Algorithm::WarpSpecialized => tma::smem_bytes(self),
            Algorithm::MemoryBound => memory_bound::spec_smem_bytes(self),
            _ => self.stages * self.tile.stage_bytes(),
        }
    }

    /// Number of tiles of C, which is the number of blocks (1-D grid: one
    /// block per tile; the kernel maps its block index to a tile with
    /// [`tile_coords`]) except for persistent kernels ([`KernelSpec::is_persistent`]),
    /// whose blocks loop over the tiles.
    pub const fn grid(&self, m: u32, n: u32) -> u64 {
        match self.algorithm {
            Algorithm::MemoryBound => memory_bound::grid(self.tile.bm, self.tile.bn, m, n),
            _ => tiles(m, self.tile.bm) as u64 * tiles(n, self.tile.bn) as u64,
        }
    }
}

impl KernelSpec {
    /// Whether the kernel is persistent: launched with at most one block per
    /// multiprocessor ([`persistent_grid`]), each block looping over tiles
    /// `block, block + grid, …` in [`tile_coords`] order.
    pub const fn is_persistent(&self) -> bool {
        matches!(self.algorithm, Algorithm::WarpSpecialized) && self.features.persistent
    }

    /// Blocks per thread-block cluster (`Features::cluster_m`; 1: the kernel
    /// is launched without clusters).
    pub const fn cluster_blocks(&self) -> u32 {
        if self.features.cluster_m == 0 { 1 } else { self.features.cluster_m }
    }

    /// The units of work a persistent kernel's clusters walk: groups of
    /// [`KernelSpec::cluster_blocks`] vertically adjacent tiles of C (one
    /// tile each without clusters), `tiles_m.div_ceil(cluster) × tiles_n`.
    pub const fn cluster_units(&self, m: u32, n: u32) -> u64 {
        tiles(m, self.tile.bm * self.cluster_blocks()) as u64 * tiles(n, self.tile.bn) as u64
    }
}

/// Blocks of a persistent kernel's grid per matrix of a batch of `batch`:
/// every tile of the batch gets a block slot, and at most one block per
/// multiprocessor runs (the batch is the grid's z).
pub const fn persistent_grid(tiles: u64, batch: u32, multiprocessors: u32) -> u32 {
    let per_matrix = multiprocessors / if batch == 0 { 1 } else { batch };
    let per_matrix = if per_matrix == 0 { 1 } else { per_matrix } as u64;
    (if tiles < per_matrix { tiles } else { per_matrix }) as u32
}

/// `ceil(len / tile)`: how many tiles cover `len`.
pub const fn tiles(len: u32, tile: u32) -> u32 {
    len.div_ceil(tile)
}

/// The group of tile rows a launch passes for `group_m` on a grid of
/// `tiles_m` tile rows: at least 1, at most `tiles_m`, the same order as
/// any larger group (one group of all rows). So `group_m × tiles_n` in
/// [`tile_coords`] stays within the grid's tiles (at most `i32::MAX`, which
/// the host checks), whatever `group_m` a caller or a tune cache gives: a
/// group of 2³¹ + 1 on a 2×2 grid once wrapped, left two tiles of C
/// unwritten, and 2³¹ divided by zero on the GPU (PERF.md step 97). The
/// host clamps, not the kernels: a clamp in `tile_coords` cost
/// `ws_128x128x64_2cta`, at its 112-register cap, a spill.
pub const fn group_rows(group_m: u32, tiles_m: u32) -> u32 {
    let most = if tiles_m == 0 { 1 } else { tiles_m };
    if group_m == 0 {
        1
    } else if group_m > most {
        most
    } else {
        group_m
    }
}

/// Maps a linear block index to the (tile row, tile column) of C it computes.
///
/// Blocks are taken in groups of `group_m` tile rows: consecutive blocks walk
/// down a column of `group_m` tiles before moving right, so the blocks resident
/// at one time share rows of A and columns of B in L2 (the seeds' GROUP_SIZE_M).
/// `group_m = 1` is plain row-major order. The map is a bijection onto the
/// `tiles_m × tiles_n` grid for every `group_m` from 1 to `tiles_m`, which
/// is what the host passes ([`group_rows`]): `group_m × tiles_n` then
/// stays within the grid's tiles.
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
