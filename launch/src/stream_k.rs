//! Stream-K (Osama et al., 2023) for the warp-specialized kernels
//! (`Features::stream_k`): where the tiles of C leave the last wave of a
//! persistent grid part-empty, the blocks share out the multiply-add work
//! of some tiles by K slices instead of by whole tiles, so every block does
//! the same number of slices.
//!
//! The work of the shared tiles is a row of `tiles × slices` units (tile by
//! tile, K slices within a tile); block `b` of `grid` takes the units
//! `[b·U/grid, (b+1)·U/grid)` ([`unit_range`]), then, data-parallel, tiles
//! `shared + b, shared + b + grid, …` whole. A block's range may start
//! inside a tile: that first piece (slices from past 0) is a *partial*,
//! whose f32 sums the block leaves in its slot of the workspace and flags
//! as done. A piece that starts at slice 0 but ends before the tile's last
//! slice is the tile's *head*: its block waits for the flags of the blocks
//! that hold the rest ([`owner`] of the tile's last unit, and every block
//! between), adds their sums in block order (a fixed order: the result
//! does not depend on timing) and writes C. A block's partial is its first
//! piece and its head its last, so the partials it waits for were each
//! their block's first work: the wait is short, and it cannot deadlock,
//! since every block of a persistent grid is resident at once.
//!
//! Which tiles are shared ([`shared_tiles`]): none when the tiles fill
//! whole waves or the balance saves less than a fifth of a block's slices
//! (the partial sums' round trip through L2, and the L2 reuse lost when
//! neighbouring tiles are no longer at the same K); else the last part-empty wave and one full
//! wave before it (all tiles when there are fewer than blocks), so that
//! each block's range spans at least a whole tile's slices and a tile is
//! split among at most two or three blocks.

/// Slices a block's partial sums cost in time, as a rule's threshold: the
/// write and read of a 128×256 f32 tile (128 KiB each way through L2), in
/// units of one 128×256×64 slice (~0.8 µs per block on an H100: 4096³ f16
/// takes 197 µs for 248 slices per block).
pub const FIXUP_SLICES: u64 = 4;

/// Tiles whose K slices are shared out by stream-K among `grid` blocks
/// (the rest run whole, data-parallel); 0: none, the launch is plain
/// data-parallel. `tiles`: tiles of C per matrix, `slices`: K slices per
/// tile. Read by the kernel (from its grid) and by the host (to size the
/// grid and the workspace), so both agree.
pub const fn shared_tiles(tiles: u32, slices: u32, grid: u32) -> u32 {
    if grid < 2 || slices < 2 || tiles == 0 {
        return 0;
    }
    let remainder = tiles % grid;
    if remainder == 0 {
        return 0;
    }
    let shared = if tiles < grid { tiles } else { remainder + grid };
    // The kernels count units in 32 bits; and every block needs a unit, or
    // a head would wait for a block with no piece of its tile.
    let units = shared as u64 * slices as u64;
    if units > u32::MAX as u64 || units < grid as u64 {
        return 0;
    }
    // A block's slices: the data-parallel waves' against the balanced split.
    let waves = tiles.div_ceil(grid) as u64 * slices as u64;
    let whole = ((tiles - shared) / grid) as u64 * slices as u64;
    let balanced = whole + (shared as u64 * slices as u64).div_ceil(grid as u64);
    // Only where it saves a fifth: sharing desynchronizes the blocks' K, so
    // tiles of one row or column no longer read A and B from L2 together
    // (ncu at 4096³, 3% to save: DRAM traffic doubled, 94 → 71% of cuBLAS).
    if (balanced + FIXUP_SLICES) * 5 > waves * 4 { 0 } else { shared }
}

/// Units `[first, end)` of block `block` when `units` are shared out among
/// `grid` blocks as evenly as whole units allow (none empty: `units ≥
/// grid`, which [`shared_tiles`] ensures).
pub const fn unit_range(block: u32, grid: u32, units: u32) -> (u32, u32) {
    // (`max(1)`: no division-by-zero panic path in the kernels, whose call
    // ptxas allocates registers around.)
    let (units, grid) = (units as u64, if grid == 0 { 1 } else { grid as u64 });
    ((block as u64 * units / grid) as u32, ((block as u64 + 1) * units / grid) as u32)
}

/// The block whose [`unit_range`] holds `unit` (`unit < units`).
pub const fn owner(unit: u32, grid: u32, units: u32) -> u32 {
    let units = if units == 0 { 1 } else { units as u64 };
    (((unit as u64 + 1) * grid as u64 - 1) / units) as u32
}

/// The blocks a stream-K launch of `grid` blocks per matrix of a batch of
/// `batch` may have each write one partial 128×256 (`bm × bn`) tile for:
/// one slot each (a block's partial is at most one piece, its first).
pub const fn slots(grid: u32, batch: u32) -> u64 {
    grid as u64 * batch as u64
}

/// Bytes of one slot: a `bm × bn` tile of f32 sums.
pub const fn slot_bytes(bm: u32, bn: u32) -> u64 {
    bm as u64 * bn as u64 * 4
}

/// Bytes of the partial sums' workspace of a launch (`slots` slots).
pub const fn workspace_bytes(bm: u32, bn: u32, grid: u32, batch: u32) -> u64 {
    slots(grid, batch) * slot_bytes(bm, bn)
}

/// Flags of a launch: one 32-bit word per slot and consumer warp, which the
/// warp that wrote its share of the partial sets to 1 and the warp that
/// adds it sets back to 0. They must be 0 before the first launch (the host
/// keeps them in a zeroed buffer of their own); every launch leaves them so.
pub const fn flag_words(grid: u32, batch: u32, consumer_warps: u32) -> u64 {
    slots(grid, batch) * consumer_warps as u64
}

/// Bytes after the tensor maps (A, B, C: 3 × 128) where a stream-K kernel
/// reads the workspace's address and then the flags' (two u64; a
/// workspace of 0 runs the launch data-parallel).
pub const ADDRESSES_OFFSET: u64 = 3 * 128;

/// The largest slot of any stream-K kernel ([`slot_bytes`] of its tile):
/// what the host sizes its workspace by, one slot per SM.
pub const fn max_slot_bytes() -> u64 {
    let (mut i, mut most) = (0, 0);
    while i < crate::KERNELS.len() {
        let spec = &crate::KERNELS[i];
        let bytes = slot_bytes(spec.tile.bm, spec.tile.bn);
        if spec.features.stream_k && bytes > most {
            most = bytes;
        }
        i += 1;
    }
    most
}

/// The most consumer warps of any stream-K kernel (one flag each per slot).
pub const fn max_consumer_warps() -> u32 {
    let (mut i, mut most) = (0, 0);
    while i < crate::KERNELS.len() {
        let spec = &crate::KERNELS[i];
        let warps = crate::tma::consumer_warps(spec);
        if spec.features.stream_k && warps > most {
            most = warps;
        }
        i += 1;
    }
    most
}
