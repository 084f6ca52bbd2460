//! The tile scheduler: which tile of C a block computes. Blocks are visited
//! in grouped order (`GROUP_M` rows of tiles at a time, column by column), so
//! that blocks running together share rows of A and columns of B in L2; the
//! order itself is `gemm_launch::tile_coords`, which the host's tests check.

use crate::device::block_idx;
use gemm_launch::{tile_coords, tiles};

/// Row and column of the first element of the C tile this block computes,
/// with blocks visited in grouped order (see `gemm_launch::tile_coords`).
#[inline(always)]
pub fn tile_origin<const BM: usize, const BN: usize>(m: u32, n: u32, group_m: u32) -> (u32, u32) {
    let (tile_m, tile_n) = tile_coords(block_idx(), tiles(m, BM as u32), tiles(n, BN as u32), group_m);
    (tile_m * BM as u32, tile_n * BN as u32)
}
