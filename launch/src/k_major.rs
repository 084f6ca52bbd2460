//! The transposed copies that take a call to a K-major kernel
//! ([`Layouts::KMajor`](crate::Layouts::KMajor), TF32 step 10b): an
//! MN-major operand (row-major B, column-major A) is copied transposed
//! into the host's scratch buffer by `transpose_f32` (sm_80 module), one
//! [`TILE`]×[`TILE`] tile per block through shared memory, so that reads
//! and writes both move whole 128-byte rows.

/// The PTX entry of the copy.
pub const TRANSPOSE_F32: &str = "transpose_f32";

/// Edge of the square tile one block moves.
pub const TILE: u32 = 32;

/// Threads per block: a warp per row of the tile, each warp covering
/// `TILE / (THREADS / 32)` rows.
pub const THREADS: u32 = 256;

/// Shared memory of one block: the tile, one f32 of padding per row so
/// that a column read hits 32 distinct banks.
pub const SMEM_BYTES: u32 = TILE * (TILE + 1) * 4;

/// Blocks per matrix for a `rows × cols` source: one per tile, tile
/// columns fastest (block `b` covers tile row `b / tiles_of(cols)`).
pub const fn blocks(rows: u32, cols: u32) -> u32 {
    rows.div_ceil(TILE) * cols.div_ceil(TILE)
}
