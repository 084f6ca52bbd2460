//! The copies that bring an operand to what a TMA kernel can read, made by
//! the host into a scratch buffer before the GEMM (`host/driver/operand_copies.rs`):
//!
//! - **transposed** (`transpose_f32`): an MN-major operand (row-major B,
//!   column-major A) of a K-major kernel ([`Layouts::KMajor`](crate::Layouts::KMajor),
//!   TF32 step 10b), one [`TILE`]×[`TILE`] tile per block through shared
//!   memory, so that reads and writes both move whole 128-byte rows;
//! - **realigned** (`copy_rows_b16`, `copy_rows_b32`): an operand the TMA
//!   cannot address (a start, leading dimension or batch stride that is no
//!   multiple of 16 bytes: any K or N that is no multiple of 8 in 16-bit),
//!   copied as it is into rows padded to 16 bytes, 16 bytes of a
//!   destination row per store ([`copy_blocks`]).
//!
//! Both are memory-bound (each element read and written once) and live in
//! the sm_80 module.

/// The PTX entry of the transposed f32 copy.
pub const TRANSPOSE_F32: &str = "transpose_f32";
/// The PTX entries of the straight copies, by element size in bytes.
pub const COPY_ROWS_B16: &str = "copy_rows_b16";
pub const COPY_ROWS_B32: &str = "copy_rows_b32";
/// Every copy entry (all in the sm_80 module).
pub const ENTRIES: [&str; 3] = [TRANSPOSE_F32, COPY_ROWS_B16, COPY_ROWS_B32];

/// Edge of the square tile one block of the transpose moves.
pub const TILE: u32 = 32;

/// Threads per block of the transpose: a warp per row of the tile, each
/// warp covering `TILE / (THREADS / 32)` rows.
pub const THREADS: u32 = 256;

/// Shared memory of one transpose block: the tile, one f32 of padding per
/// row so that a column read hits 32 distinct banks.
pub const SMEM_BYTES: u32 = TILE * (TILE + 1) * 4;

/// Transpose blocks per matrix for a `rows × cols` source: one per tile,
/// tile columns fastest (block `b` covers tile row `b / tiles_of(cols)`).
pub const fn blocks(rows: u32, cols: u32) -> u64 {
    rows.div_ceil(TILE) as u64 * cols.div_ceil(TILE) as u64
}

/// Threads per block of a straight copy.
pub const COPY_THREADS: u32 = 256;
/// Bytes of a destination row one thread of a straight copy writes per
/// store: one 16-byte chunk (8 16-bit or 4 32-bit elements).
pub const CHUNK_BYTES: u32 = 16;
/// Chunks each thread of a straight copy moves, all loads issued before the
/// first store: 64 bytes in flight per thread, 32 KiB per SM at 2048 threads.
pub const CHUNKS_PER_THREAD: u32 = 4;

/// 16-byte chunks of one `rows × cols` matrix of `element_bytes` each: a
/// straight copy's work, numbered row by row. The kernel counts them in 32
/// bits, so the host refuses a copy of more (`u32::MAX` chunks is 64 GiB).
pub const fn copy_chunks(rows: u32, cols: u32, element_bytes: u32) -> u64 {
    rows as u64 * cols.div_ceil(CHUNK_BYTES / element_bytes) as u64
}

/// Straight-copy blocks per matrix for `rows × cols` of `element_bytes`:
/// [`COPY_THREADS`] × [`CHUNKS_PER_THREAD`] consecutive chunks each.
pub const fn copy_blocks(rows: u32, cols: u32, element_bytes: u32) -> u64 {
    copy_chunks(rows, cols, element_bytes).div_ceil((COPY_THREADS * CHUNKS_PER_THREAD) as u64)
}

/// Leading dimension of a copy whose rows hold `elements` of
/// `element_bytes`: padded to whole 16-byte pieces, the TMA's granule.
pub const fn padded_ld(elements: u32, element_bytes: u32) -> u32 {
    elements.next_multiple_of(16 / element_bytes)
}

/// Least work (2·M·N·K flops) for which `--kernel auto` realigns the
/// operands of a call whose M and N both exceed the memory-bound path's
/// (`memory_bound::MAX_SMALL_SIDE`) to run a TMA kernel; smaller calls take
/// a kernel that reads them in place (`mma.sync` with `cp.async`), where
/// the copies' two launches would cost more than they save. In place,
/// operands off 16 bytes are gathered element by element: H200 (PERF.md
/// step 106), ms, the TMA tiles on copies / in place: f16 65×67×69 (6·10⁵
/// flop) 0.019 / 0.012, 101×103×107 (2.2·10⁶) 0.018 / 0.015,
/// 129×131×133 (4.5·10⁶) 0.016 / 0.018, 200×201×203 0.018 / 0.025,
/// 400×401×403 0.017 / 0.043; TF32 101×103×107 0.013 / 0.019,
/// 200×201×203 0.011 / 0.031, 400×401×403 0.014 / 0.054. (Step 34 had
/// set 2²⁷ below the smallest size it measured, H100, f16, % of cuBLAS:
/// 509×511×513 107 / 27, 767×769×771 88 / 30.)
pub const REALIGN_MIN_FLOP: u64 = 1 << 22;

/// [`REALIGN_MIN_FLOP`] for calls with M or N of at most
/// `memory_bound::MAX_SMALL_SIDE`, whose routes (the memory-bound
/// kernels, step 70's skinny tiles, step 10's tiles on copies) were
/// measured against it: step 34's 2²⁷.
pub const REALIGN_SKINNY_MIN_FLOP: u64 = 1 << 27;

/// Least work per byte copied for which `--kernel auto` realigns a call
/// with M or N of at most `memory_bound::MAX_SMALL_SIDE`: an f16
/// 4×32768×1025 call would do 4 (copying B, the one operand it streams,
/// would triple its memory traffic), and is left to the memory-bound
/// kernels, which read in place at memory speed.
pub const REALIGN_MIN_FLOP_PER_BYTE: u64 = 64;

/// [`REALIGN_MIN_FLOP_PER_BYTE`] for calls whose M and N both exceed the
/// memory-bound path's (`memory_bound::MAX_SMALL_SIDE`): 2·M·N/(M + N)
/// flop per element copied, 10–50 per byte at tens to hundreds of rows.
/// In place, their operands off 16 bytes go to `mma.sync` tiles whose
/// copies gather element by element and stall the ring; on copies, the TMA
/// tiles run 1.5 to 4 times as fast. Deep K (H100, PERF.md step 99, `auto`
/// in place → the TMA tile named, % of cuBLAS): f16 47×307×53605 (41 flop
/// per byte) 35 → 69.5, 35×92×215606 (25) 29 → 43; TF32 47×307×53605
/// (20) 21.5 → 48, 35×92×215606 (13) 41 → 67. Any K (H200, PERF.md step
/// 106, `auto`, ms, in place → copies): f16 64×1000×999 (61) 0.049 →
/// 0.015, 2000×33×501 (32) 0.045 → 0.018; TF32 200×201×203 (49) 0.031 →
/// 0.012. Until step 106 it held beyond `split_k::DEEP_K` only, and 64
/// elsewhere.
pub const REALIGN_TILES_MIN_FLOP_PER_BYTE: u64 = 8;

/// Least work for which the operands of an f32 call on CUDA cores are
/// realigned (steps 6–7b's register-staged tiles,
/// `KernelSpec::realigns_f32_rows`, whose 16-byte loads need rows on
/// 16-byte boundaries and which otherwise load every tile element by
/// element), on a kernel whose main loop is checked
/// throughout (see [`F32_REALIGN_UNCHECKED_MIN_FLOP`] for the others).
/// H100 (PERF.md step 66), `auto` with the copies against without, ms:
/// 1999×2003×997 (8·10⁹ flop) 0.225 → 0.216, 3001×2999×1003 0.551 →
/// 0.517, 777×999×3333 (5·10⁹) 0.287 → 0.244, 5003×4001×3001 3.005 →
/// 2.688. Below it the copies' two launches and their traffic cost more
/// than the odd rows do (step 78, 2³⁰ tried: `wt_128x128x8` split in 3 at
/// 1031×1029×1027 (2.2·10⁹) 0.099 → 0.103, 1300×1001×999 0.101 → 0.108).
/// 2³² until step 113 (H200, PERF.md): 777×999×2761 (4.29·10⁹, just
/// under it) ran `wt_64x64x8` in place at 0.210 ms (53% of cuBLAS), where
/// 777×999×3333 on copies took 0.187 for 1.2 times the work; the f32
/// split model, which weighs the copies, runs it on the `cp.async` ring
/// from here on. The copies alone moved the staged tiles by −2% to +1.5%
/// between 3.2 and 4.3·10⁹ flop (1300×1201×1099 0.136 → 0.139 ms,
/// 1031×1029×1600 0.136 → 0.134).
pub const F32_REALIGN_MIN_FLOP: u64 = 3 << 30;
/// [`F32_REALIGN_MIN_FLOP`] for the kernels with an unchecked main loop
/// (`KernelSpec::has_unchecked_loop`), which rows off 16 bytes cost twice
/// as much. H100, `wt_256x128x8` split in 4 (PERF.md steps 77–78): in
/// place, 777×1000×2764 0.141 ms and 777×999×2761 (4.3·10⁹ flop) 0.313
/// (step 77's build); on copies, 777×999×2761 0.169 against 0.140 aligned
/// (step 78's).
pub const F32_REALIGN_UNCHECKED_MIN_FLOP: u64 = 1 << 30;
/// Least work per byte copied for the f32 realignment: the shapes above
/// do 220–1100 flop per byte copied. By estimate (not measured at 128
/// itself), there a copy costs about a fifth of what it saves: 2 bytes of
/// traffic per byte copied at ~3 TB/s against a GEMM that runs 5–20%
/// slower on odd rows at ~40 TFLOP/s.
pub const F32_REALIGN_MIN_FLOP_PER_BYTE: u64 = 128;

/// Whether an f32 call of `flop` realigns its operands, whose copies take
/// `copied_bytes`, on a kernel that realigns them
/// (`KernelSpec::realigns_f32_rows`; `unchecked_loop`:
/// `KernelSpec::has_unchecked_loop`): the rule of the host's copies and of
/// the f32 split model's cost of them.
pub const fn f32_realign_pays(flop: u64, copied_bytes: u64, unchecked_loop: bool) -> bool {
    let min_flop = if unchecked_loop { F32_REALIGN_UNCHECKED_MIN_FLOP } else { F32_REALIGN_MIN_FLOP };
    let per_byte = flop / if copied_bytes == 0 { 1 } else { copied_bytes };
    flop >= min_flop && per_byte >= F32_REALIGN_MIN_FLOP_PER_BYTE
}
