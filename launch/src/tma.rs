//! The warp-specialized kernels' copies (`Algorithm::WarpSpecialized`):
//! the boxes the TMA moves per K slice, which the host encodes into the
//! tensor maps and the kernels issue and count, and where the stage ring's
//! barriers sit in shared memory.
//!
//! Every box lands in 128-byte swizzled rows (the `wgmma` descriptors'
//! swizzle mode), so a box is at most 128 bytes wide: 64 16-bit elements
//! or 32 f32. A K-major operand tile (row-major A, column-major B) is one
//! box `[rows][k]`, `bk` elements wide; an MN-major tile (column-major A,
//! row-major B) is `rows / 64` boxes `[bk][64]`, [`mn_block_bytes`] apart.
//! C goes out the same way, through a staging tile in shared memory and
//! TMA stores of [`c_box`].

use crate::spec::{Dtype, KernelSpec};

/// Bytes in one swizzled shared-memory row, the widest a box may be.
pub const SWIZZLE_ROW_BYTES: u32 = 128;

/// Elements of `dtype` in one swizzled row: the width of an MN-major box.
pub const fn row_elements(dtype: Dtype) -> u32 {
    SWIZZLE_ROW_BYTES / dtype.element_bytes()
}

/// The box of one TMA copy of an operand tile with `rows` rows (BM for A,
/// BN for B), `bk` deep: `[inner, outer]` in elements, inner being the
/// contiguous dimension in global memory. `k_major`: the operand's K is
/// contiguous (row-major A, column-major B).
pub const fn tma_box(dtype: Dtype, rows: u32, bk: u32, k_major: bool) -> [u32; 2] {
    if k_major { [bk, rows] } else { [row_elements(dtype), bk] }
}

/// Columns of the B tile (rows of its K-major box) that each block of a
/// cluster of `cluster` blocks loads and multicasts to the others: its
/// share of the `bn` columns the blocks all read (`Features::cluster_m`).
pub const fn b_share(bn: u32, cluster: u32) -> u32 {
    bn / cluster
}

/// Rows of a row-major B read by residue ([`crate::Features::b_rows_by_residue`]):
/// map `r` of [`B_ROW_RESIDUES`] holds B's rows `k ≡ r` (mod 4), so its
/// rows lie `4·ldb` elements apart, a multiple of 16 bytes for any f32
/// `ldb`; it starts at row `r`'s start aligned down to 16 bytes. A TMA box
/// starts on 16 bytes too (a box at an f32 in between stops the kernel
/// with an illegal instruction, H200), so each row lands shifted right by
/// [`b_residue_shift`] elements, and the tile takes one more box of
/// columns ([`b_tile_columns`]) for what the shift pushes past it. Each K
/// slice's box, `bk` rows deep, lands as four boxes of `bk / 4` rows,
/// residue after residue: row `k` of the slice at row [`b_residue_row`].
pub const B_ROW_RESIDUES: u32 = 4;

/// Map `r`'s shift for B at byte address `b` with rows `ldb` f32 apart:
/// the f32 between row `r`'s start aligned down to 16 bytes and the start
/// itself (B's own start must be on 4 bytes). The host encodes map `r`
/// from the aligned address; in shared memory, column `c` of a residue-`r`
/// row of the tile lies at position `c + shift` of the row's boxes.
pub const fn b_residue_shift(b: u64, ldb: u32, r: u32) -> u32 {
    ((b + r as u64 * ldb as u64 * 4) % 16 / 4) as u32
}

/// Where row `k` of a K slice (`bk` rows) of a B tile read by residue
/// lies in shared memory, in rows: after the rows of the lower residues.
pub const fn b_residue_row(k: u32, bk: u32) -> u32 {
    (k % B_ROW_RESIDUES) * (bk / B_ROW_RESIDUES) + k / B_ROW_RESIDUES
}

/// Columns of a stage's B tile `bn` wide: one box more where B is read by
/// residue (`by_residue`), for the columns its shifts push past `bn`.
pub const fn b_tile_columns(dtype: Dtype, bn: u32, by_residue: bool) -> u32 {
    if by_residue { bn + row_elements(dtype) } else { bn }
}

/// Bytes into the kernel's tensor maps where B's maps of residues 1 to 3
/// lie (residue 0's is B's own map): after A's, B's and C's maps and the
/// stream-K addresses ([`crate::stream_k::ADDRESSES_OFFSET`]).
pub const B_RESIDUE_MAPS_OFFSET: u64 = crate::stream_k::ADDRESSES_OFFSET + 128;

/// Bytes into the kernel's tensor maps where the maps of A and B for a
/// split's shorter last chunk lie (`KernelSpec::takes_k_last`: the batch's
/// last matrix, its K ending at `k_last`): after B's maps by residue.
pub const LAST_CHUNK_MAPS_OFFSET: u64 = B_RESIDUE_MAPS_OFFSET + 128 * (B_ROW_RESIDUES as u64 - 1);

/// 128-byte slots a kernel's tensor maps take: A, B, C, the stream-K
/// addresses, B's maps of residues 1 to 3, and A's and B's for a shorter
/// last chunk (zeros where unused).
pub const MAP_SLOTS: usize = (LAST_CHUNK_MAPS_OFFSET / 128) as usize + 2;

/// Bytes between the MN-major boxes of a tile: one box of `bk` rows.
pub const fn mn_block_bytes(bk: u32) -> u32 {
    bk * SWIZZLE_ROW_BYTES
}

/// Consumer warps of a warp-specialized kernel: a warpgroup (4 warps) per
/// warpgroup tile `tm × tn` of the block tile, one `wgmma` m64 tile high:
/// 64 rows of C each, or in the swapped kernels ([`swapped`]) 64 columns.
pub const fn consumer_warps(spec: &KernelSpec) -> u32 {
    let t = spec.tile;
    (t.bm / t.tm) * (t.bn / t.tn) * 4
}

/// Whether a warp-specialized kernel of `dtype` whose B arrives
/// `b_k_major` (column-major) or not multiplies with its operands swapped
/// (step 10f): TF32 `wgmma` reads only K-major tiles from shared memory,
/// so a row-major B, N-major, is loaded into registers as the `wgmma`'s A
/// (`Cᵀ = Bᵀ·Aᵀ`, 64 columns of C per consumer warpgroup) and A, K-major,
/// is read from shared memory as its B.
pub const fn swapped(dtype: Dtype, b_k_major: bool) -> bool {
    matches!(dtype, Dtype::Tf32) && !b_k_major
}

/// Bytes of one stage (A tile, then B tile) of a `bm × bn × bk` block
/// tile: what each K slice's copies bring, and what the producer arms the
/// stage's barrier for.
pub const fn stage_bytes(dtype: Dtype, bm: u32, bn: u32, bk: u32) -> u32 {
    (bm + bn) * bk * dtype.element_bytes()
}

/// Rows of C one TMA store writes: one consumer warpgroup's share of the
/// block tile (a `wgmma` m64 tile).
pub const C_BOX_ROWS: u32 = 64;

/// The box of one TMA store of C: `[columns, rows]`, one swizzled row wide
/// ([`row_elements`]) and [`C_BOX_ROWS`] high. A consumer warpgroup stores
/// its `C_BOX_ROWS × bn` of the tile as `bn / row_elements` such boxes.
pub const fn c_box(dtype: Dtype) -> [u32; 2] {
    [row_elements(dtype), C_BOX_ROWS]
}

/// Boxes of C each consumer warpgroup stages at once
/// (`Features::c_staging_boxes`, its whole share of a tile `bn` wide when
/// that is 0), 0 for a kernel that stores from registers
/// (`Features::staged_epilogue` off); but one for a warp-specialized
/// (TF32) entry for C's rows off 8 bytes (`Features::c_rows_off_16_bytes`),
/// whose consumers pass [`F32_ROUND_ROWS`] rows of their f32 C at a time
/// through it.
pub const fn c_staged_boxes(spec: &KernelSpec) -> u32 {
    let boxes = spec.features.c_staging_boxes;
    if !spec.features.staged_epilogue {
        if spec.features.c_rows_off_16_bytes { 1 } else { 0 }
    } else if boxes == 0 {
        spec.tile.bn / row_elements(spec.dtype)
    } else {
        boxes
    }
}

/// Bytes of one staged box of C: [`C_BOX_ROWS`] swizzled rows.
pub const C_BOX_BYTES: u32 = C_BOX_ROWS * SWIZZLE_ROW_BYTES;

/// Rows of an f32 C one staged box holds: 32 rows of a swapped TF32
/// consumer's 64 columns (256 bytes each).
pub const F32_ROUND_ROWS: u32 = C_BOX_BYTES / (64 * 4);

/// Bytes of C staged in shared memory: each consumer warpgroup's
/// [`c_staged_boxes`] side by side.
pub const fn c_staging_bytes(spec: &KernelSpec) -> u32 {
    c_tile_bytes(consumer_warps(spec) / 4, c_staged_boxes(spec))
}

/// [`c_staging_bytes`] from the kernel's constants: `boxes` for each of
/// `consumers` warpgroups.
pub const fn c_tile_bytes(consumers: u32, boxes: u32) -> u32 {
    consumers * boxes * C_BOX_BYTES
}

/// Shared-memory offset of the staged C tile: after the stages, so
/// 1024-byte aligned as the 128-byte swizzle needs.
pub const fn c_staging_offset(stage_bytes: u32, stages: u32) -> u32 {
    stages * stage_bytes
}

/// Shared-memory offset of the barriers, after the stages and the staged C
/// tile: `stages` "full" barriers (the slice has landed), then `stages`
/// "empty" ones (every consumer is done reading it), 8 bytes each.
pub const fn barriers_offset(stage_bytes: u32, stages: u32, c_staging_bytes: u32) -> u32 {
    c_staging_offset(stage_bytes, stages) + c_staging_bytes
}

/// Dynamic shared memory of a warp-specialized kernel: the stages, the C
/// staging tile and the barriers.
pub const fn smem_bytes(spec: &KernelSpec) -> u32 {
    let t = spec.tile;
    let bn = b_tile_columns(spec.dtype, t.bn, spec.features.b_rows_by_residue);
    barriers_offset(stage_bytes(spec.dtype, t.bm, bn, t.bk), spec.stages, c_staging_bytes(spec)) + 2 * 8 * spec.stages
}
