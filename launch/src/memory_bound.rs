//! The memory-bound path: GEMMs with M or N ≤ 16, where the work is to read
//! the large operand once at memory speed (`kernels-gpu/src/memory_bound.rs`).
//!
//! Words used here and in the kernel: the problem is seen as `R` short rows
//! (the small side, `min(M, N)`) by `L` long columns (the large side,
//! `max(M, N)`) by depth K. X is the large operand (B when M is the small
//! side, A when N is), S the small one. A block computes `tile.bm` (the
//! spec's `ROWS`) rows by [`LONG_TILE`] columns of that `R × L` output.

use crate::{Algorithm, Arch, Dtype, Features, KernelSpec, Layouts, Tile, tiles};

/// Threads per block (8 warps).
pub const THREADS: u32 = 256;
/// Columns of the long side per block, in both access patterns (so the grid
/// does not depend on the operand layout): [`lanes_along_l`] lanes of 16
/// bytes, or 8 warps of [`ROWS_PER_WARP`] rows of X.
pub const LONG_TILE: u32 = 32;
/// Largest small side the path is meant for; larger ones run as several
/// row groups of `ROWS` (correct, but the large operand is read once per group).
pub const MAX_SMALL_SIDE: u32 = 16;
/// Longest long side the "dot" pattern takes (both sides tiny, e.g. 1×1 or
/// 7×5): each thread then keeps `ROWS × DOT_LEN` sums over its own K
/// indices, which the cross-warp reduction's `[rows][warps][32]` holds,
/// and the call is one tile of [`LONG_TILE`] columns wide (the kernel
/// takes its first column as 0).
pub const DOT_LEN: u32 = 8;
const _: () = assert!(DOT_LEN <= LONG_TILE && LONG_TILE <= 32);
/// How many times `split_k::CHUNK_DEEP` a split of f32 for accuracy may
/// make a chunk of the partials kernel `spec` in an `m × n` call (1 for
/// every kernel but the memory-bound ones)
/// (`split_k::SplitCall::accuracy_chunk_scale`). In "dot", 256: each of a
/// block's 256 threads sums every 256th K index of the chunk, so a chunk
/// 256 times longer sums no more terms in a row, and the call is one
/// block per chunk, so fewer chunks save blocks and a reduction pass
/// (PERF.md step 82: f32 1×1×10⁶, 1000 chunks → 250, 68–71 → 87–94.5% of
/// cuBLAS). Elsewhere 1, though those sums are 32-way as well (lanes along
/// K, K groups along L, the rings): chunks 32 times longer, taken by the
/// few-tiles count, made calls of many tiles slower (f32 4096×1×65539,
/// 128 tiles, 66 chunks → 4: 92.7 → 84.8%; 1×4096×65536 103.6 → 100.9%)
/// and only calls of one or two tiles faster (64×3×10⁶ 257 → 283%).
pub const fn accuracy_chunk_scale(spec: &KernelSpec, m: u32, n: u32) -> u32 {
    let long = if m > n { m } else { n };
    let dot = matches!(spec.algorithm, Algorithm::MemoryBound) && !on_tensor_cores(spec) && long <= DOT_LEN;
    if dot && !uses_ring(spec.dtype, spec.tile.bm) { THREADS } else { 1 }
}
/// "Along K" pattern: rows of X per warp (8 warps × 4 = [`LONG_TILE`]).
pub const ROWS_PER_WARP: u32 = LONG_TILE / (THREADS / 32);
/// "Along K" pattern: 16-byte vectors per lane per K chunk.
pub const STEPS: u32 = 2;
/// Padding (f32) after each row of the staged S chunk: keeps rows 16-byte
/// aligned and moves consecutive rows 4 banks apart.
pub const S_PAD: u32 = 4;

/// "Along L" pattern with [`RING_ROWS`] rows (f32 and TF32 `skinny_r16`):
/// 16 rows of accumulators leave no registers for loads in flight, so X
/// and S reach shared memory through a ring of [`RING_STAGES`] `cp.async`
/// stages of [`RING_K`] K indices each, and the registers hold only the
/// accumulators.
pub const RING_ROWS: u32 = 16;
/// K indices per stage of the ring: two per thread (32 K groups of 8 lanes).
pub const RING_K: u32 = 64;
/// Stages of the ring: seven on their way from memory while one is used,
/// 56 KiB a block, where an H100 needs about 3.35 MB in flight (its
/// bandwidth times ~1 µs of latency), 25 KiB an SM (the ring was built
/// when the 16-row kernel held one block per SM). The ring's 96 KiB fit
/// the 99 KiB an sm_86/sm_89 block may have.
pub const RING_STAGES: u32 = 8;

/// "Along K" pattern with [`RING_ROWS`] rows (f32 and TF32): X's rows and
/// S reach shared memory through their own ring, [`ALONG_K_STAGES`] stages
/// of [`ALONG_K_RING_K`] K indices. Each lane owns every 32nd K index of a
/// stage in each of its warp's [`ROWS_PER_WARP`] rows of X, so every piece
/// of S it reads from shared memory serves 4 rows.
pub const ALONG_K_RING_K: u32 = 128;
/// Stages of the along-K ring: three (48 KiB of X) in flight per block.
pub const ALONG_K_STAGES: u32 = 4;
/// f32 of one row of X in a stage of the along-K ring: its
/// [`ALONG_K_RING_K`] K indices and one spare 16-byte piece, since a row
/// off 16 bytes is copied from the boundary before it, in whole 16-byte
/// pieces (PERF.md step 98).
pub const ALONG_K_ROW_PITCH: u32 = ALONG_K_RING_K + 4;

/// f32 of one stage of the along-K ring: X's `LONG_TILE` rows of
/// [`ALONG_K_ROW_PITCH`] (`[row][k]`), then S's `ALONG_K_RING_K × RING_ROWS`
/// (`[k][row]`, 16-byte pieces swizzled by `k`).
pub const fn along_k_stage_floats() -> u32 {
    LONG_TILE * ALONG_K_ROW_PITCH + ALONG_K_RING_K * RING_ROWS
}

/// Whether a kernel of `rows` rows per block reads X and S through a
/// `cp.async` ring, in either access pattern (f32 and TF32 at [`RING_ROWS`]
/// rows; `cp.async` copies S's elements one by one, 4 bytes at least).
pub const fn uses_ring(dtype: Dtype, rows: u32) -> bool {
    rows == RING_ROWS && dtype.element_bytes() == 4
}

/// f32 of one stage of the ring: X's `RING_K × LONG_TILE` slice, then S's
/// `RING_K × RING_ROWS` (K-major: one K index's 16 rows are 64 bytes).
pub const fn ring_stage_floats() -> u32 {
    RING_K * (LONG_TILE + RING_ROWS)
}

/// Elements per 16-byte load.
pub const fn vec(dtype: Dtype) -> u32 {
    16 / dtype.element_bytes()
}

/// "Along L" pattern (X row-major along the long side): lanes that share one
/// K index and cover the block's [`LONG_TILE`] columns, 16 bytes each.
pub const fn lanes_along_l(dtype: Dtype) -> u32 {
    LONG_TILE / vec(dtype)
}

/// "Along L" pattern: independent K indices (16-byte loads) each thread has
/// in flight per loop step. Fewer with more rows, whose accumulators (rows ×
/// 16 bytes' worth of elements) and S values take the registers: these are
/// the most that ptxas fits without spilling.
pub const fn unroll_along_l(dtype: Dtype, rows: u32) -> u32 {
    match (vec(dtype), rows) {
        (4, 16..) => 4,
        (4, _) => 8,
        (_, 8..) => 2,
        (_, 4..) => 4,
        _ => 8,
    }
}

/// "Along K" pattern: K elements of one staged chunk of S (32 lanes × 16 bytes
/// × [`STEPS`]).
pub const fn k_chunk(dtype: Dtype) -> u32 {
    32 * vec(dtype) * STEPS
}

/// Dynamic shared memory: the largest of the staged S chunk ("along K", f32
/// `[rows][k_chunk + S_PAD]`), the cross-warp reduction ("along L", f32
/// `[rows][warps][32]`) and the ring where [`uses_ring`].
pub const fn smem_bytes(dtype: Dtype, rows: u32) -> u32 {
    let staged = rows * (k_chunk(dtype) + S_PAD) * 4;
    let reduction = rows * (THREADS / 32) * 32 * 4;
    let along_l_ring = RING_STAGES * ring_stage_floats() * 4;
    let along_k_ring = ALONG_K_STAGES * along_k_stage_floats() * 4;
    let larger_ring = if along_l_ring > along_k_ring { along_l_ring } else { along_k_ring };
    let ring = if uses_ring(dtype, rows) { larger_ring } else { 0 };
    let most = if staged > reduction { staged } else { reduction };
    if ring > most { ring } else { most }
}

/// Dynamic shared memory of memory-bound kernel `spec`: [`smem_bytes`], or
/// [`mma_smem_bytes`] for the tensor-core kernels.
pub const fn spec_smem_bytes(spec: &KernelSpec) -> u32 {
    if matches!(spec.layouts, Layouts::AlongL) && on_tensor_cores(spec) {
        along_l_smem_bytes(spec.tile.bm)
    } else if on_tensor_cores(spec) {
        mma_smem_bytes(spec.tile.bm)
    } else {
        smem_bytes(spec.dtype, spec.tile.bm)
    }
}

/// Step 104 (`kernels-gpu/src/memory_bound_mma_along_l.rs`): columns of
/// the long side per block, 16 bytes for each of a warp's 8 lane groups
/// (four `m16` tiles), so that a block reads whole 128-byte lines of each
/// row of X.
pub const ALONG_L_LONG_TILE: u32 = 64;
/// Step 104: `m16` tiles of the long side per block.
pub const ALONG_L_M16_TILES: u32 = ALONG_L_LONG_TILE / 16;
/// Step 104: rows of X (K indices) a lane copies per K step, those of one
/// `k16` `mma`; a warp's step is 4 lane quads × these.
pub const ALONG_L_ROWS: u32 = 4;
/// Step 104's ring: per warp and stage, for each of a lane's rows and each
/// lane quad, the 16-byte granules its 8 lane groups read, and one more
/// where rows lie off 16 bytes (a window straddles two).
pub const ALONG_L_GRANULES: u32 = 9;
/// Bytes of one warp's stage of the ring.
pub const ALONG_L_WARP_STAGE_BYTES: u32 = ALONG_L_ROWS * 4 * ALONG_L_GRANULES * 16;
/// Stages of step 104's ring: each warp has four K steps on their way
/// while it multiplies one, 64 KiB of X a block in flight (two blocks an
/// SM on Hopper), and the ring's 90 KiB fit the 99 KiB an sm_86/sm_89
/// block may have.
pub const ALONG_L_STAGES: u32 = 5;

/// Shared memory of step 104's kernel of `rows` rows: its ring, which the
/// cross-warp sum (f32 `[warp][tile][n8 tile][register][lane]`) reuses
/// once every warp is done with it.
pub const fn along_l_smem_bytes(rows: u32) -> u32 {
    let ring = (THREADS / 32) * ALONG_L_STAGES * ALONG_L_WARP_STAGE_BYTES;
    let sums = warp_sums_bytes(rows, ALONG_L_M16_TILES);
    if ring > sums { ring } else { sums }
}

/// Tensor-core kernels (PERF.md steps 86 and 88,
/// `kernels-gpu/src/memory_bound_mma.rs`): K indices per warp step, four
/// lanes of 16 bytes, two `mma.sync` deep (`m16n8k16` for 16-bit inputs,
/// `m16n8k8` for TF32). The spec's `tile.bk`, which is 1 for the CUDA-core
/// kernels: how the two are told apart ([`on_tensor_cores`]).
pub const fn mma_k_step(dtype: Dtype) -> u32 {
    4 * vec(dtype)
}
/// Tensor-core kernels: rows of the small side per block, one or two n8
/// tiles of `mma.sync` (a call with more runs as row groups).
pub const MMA_ROWS: u32 = 8;
pub const MMA_ROWS_WIDE: u32 = 16;
/// Tensor-core kernels: `m16` tiles of the long side per block, each of
/// the block's 8 warps taking every 8th K step of all of them.
pub const MMA_LONG_TILES: u32 = LONG_TILE / 16;
const _: () = assert!(MMA_LONG_TILES * 4 * 32 == THREADS, "one thread per accumulator of a warp in the reduction");

/// Whether memory-bound `spec` multiplies on tensor cores (steps 86, 88).
pub const fn on_tensor_cores(spec: &KernelSpec) -> bool {
    matches!(spec.algorithm, Algorithm::MemoryBound) && spec.tile.bk == mma_k_step(spec.dtype)
}

/// Shared memory of a tensor-core kernel of `rows` rows: every warp's
/// accumulators, f32 `[warp][tile][n8 tile][register][lane]`, summed
/// across the warps at the end.
pub const fn mma_smem_bytes(rows: u32) -> u32 {
    warp_sums_bytes(rows, MMA_LONG_TILES)
}

/// Bytes of every warp's f32 accumulators of `m16_tiles` `m16` tiles and
/// `rows / 8` n8 tiles (`[warp][tile][n8 tile][register][lane]`): the
/// cross-warp sum of steps 86 and 104.
const fn warp_sums_bytes(rows: u32, m16_tiles: u32) -> u32 {
    (THREADS / 32) * m16_tiles * (rows / 8) * 4 * 32 * 4
}

/// Why the tensor-core memory-bound kernel `spec` cannot run an `m × n`
/// call with these operand layouts (`None` for every other kernel): step
/// 86's lanes read X, the large operand, 16 bytes along K into the `mma`
/// fragments, so X must be contiguous along K (A row-major where N is the
/// small side, B column-major where M is); step 104's ([`Layouts::AlongL`])
/// read it 16 bytes a lane along the long side, so X must be contiguous
/// there.
pub const fn mma_refusal(
    spec: &KernelSpec,
    m: u32,
    n: u32,
    a_col_major: bool,
    b_col_major: bool,
) -> Option<&'static str> {
    let reads_along_l = matches!(spec.layouts, Layouts::AlongL);
    if !on_tensor_cores(spec) || reads_along_l == x_along_l(m, n, a_col_major, b_col_major) {
        None
    } else if reads_along_l {
        Some(
            "it reads the large operand along its long side (B row-major where M is the small side, A column-major \
             where N is); this call's is contiguous along K",
        )
    } else {
        Some(
            "it reads the large operand along K (A row-major where N is the small side, B column-major where M is); \
             this call's is contiguous along its long side",
        )
    }
}

/// Whether the kernel takes M as its small side (else N): the smaller one.
pub const fn small_is_m(m: u32, n: u32) -> bool {
    m <= n
}

/// Whether X, the large operand, is contiguous along the long side (the
/// kernels' "along L" pattern, the 16-row kernels' ring): M the small side
/// and B row-major, or N the small side and A column-major.
pub const fn x_along_l(m: u32, n: u32, a_col_major: bool, b_col_major: bool) -> bool {
    if small_is_m(m, n) { !b_col_major } else { a_col_major }
}

/// Blocks: long-side tiles of `long_tile` ([`LONG_TILE`], or step 104's
/// [`ALONG_L_LONG_TILE`]: the spec's `tile.bn`) × row groups of `rows`;
/// block `b` is row group `b % groups` of long tile `b / groups`, so the
/// groups that read the same part of X run side by side and share it
/// through L2.
pub const fn grid(rows: u32, long_tile: u32, m: u32, n: u32) -> u64 {
    let (small, long) = if small_is_m(m, n) { (m, n) } else { (n, m) };
    tiles(long, long_tile) as u64 * tiles(small, rows) as u64
}

const fn spec(name: &'static str, dtype: Dtype, rows: u32) -> KernelSpec {
    KernelSpec {
        name,
        dtype,
        algorithm: Algorithm::MemoryBound,
        features: Features::ALL,
        // bm: rows of the small side per block; bn: columns of the long side.
        tile: Tile { bm: rows, bn: LONG_TILE, bk: 1, tm: 1, tn: 1 },
        stages: 0,
        default_group_m: 1,
        // 128 registers (two blocks per SM) where they do not spill: not
        // 8 rows of 16-bit inputs (255 registers), nor 4 on sm_80 (ptxas
        // spilled 4 bytes). The 16-row f32/TF32 rings fit 128 since PERF.md
        // step 67 and run so in their `_2cta` twins; these stay uncapped.
        min_blocks_per_sm: if rows > 4 || (rows == 4 && vec(dtype) == 8) { 1 } else { 2 },
        layouts: Layouts::Any,
        arch: Arch::Sm80,
    }
}

pub const SKINNY_F32_R1: KernelSpec = spec("sgemm_skinny_r1", Dtype::F32, 1);
pub const SKINNY_F32_R4: KernelSpec = spec("sgemm_skinny_r4", Dtype::F32, 4);
pub const SKINNY_F32_R16: KernelSpec = spec("sgemm_skinny_r16", Dtype::F32, 16);
/// The 16-row f32 kernel held to 128 registers, two blocks per SM (two
/// rings of up to 98 KiB: Hopper's shared memory; one block per SM on GPUs with
/// less): while one block starts, waits on its first stages or sums its
/// partial sums, the other streams.
pub const SKINNY_F32_R16_2CTA: KernelSpec =
    KernelSpec { min_blocks_per_sm: 2, ..spec("sgemm_skinny_r16_2cta", Dtype::F32, 16) };
/// TF32 requested on a memory-bound shape: computed in exact f32 (CUDA
/// cores keep up with memory here, and the result is more accurate); but
/// N of 9 to 16 over short rows, and of 8 to 16 over a few long rows of
/// split K, streams faster on TF32 tensor cores ([`SKINNY_MMA_TF32_R16`],
/// PERF.md steps 88 and 93; the host's `choice::streams_on_tensor_cores`).
pub const SKINNY_TF32_R1: KernelSpec = spec("tgemm_skinny_r1", Dtype::Tf32, 1);
pub const SKINNY_TF32_R4: KernelSpec = spec("tgemm_skinny_r4", Dtype::Tf32, 4);
pub const SKINNY_TF32_R16: KernelSpec = spec("tgemm_skinny_r16", Dtype::Tf32, 16);
/// As [`SKINNY_F32_R16_2CTA`], for TF32 requests.
pub const SKINNY_TF32_R16_2CTA: KernelSpec =
    KernelSpec { min_blocks_per_sm: 2, ..spec("tgemm_skinny_r16_2cta", Dtype::Tf32, 16) };
pub const SKINNY_F16_R1: KernelSpec = spec("hgemm_skinny_r1", Dtype::F16, 1);
pub const SKINNY_F16_R4: KernelSpec = spec("hgemm_skinny_r4", Dtype::F16, 4);
/// 16-bit inputs: 8 rows per block at most (16 rows of 8-element
/// accumulators spill); 9 to 16 rows run as two groups of adjacent blocks,
/// whose reads of the same X meet in L2.
pub const SKINNY_F16_R8: KernelSpec = spec("hgemm_skinny_r8", Dtype::F16, 8);
pub const SKINNY_BF16_R1: KernelSpec = spec("bgemm_skinny_r1", Dtype::Bf16, 1);
pub const SKINNY_BF16_R4: KernelSpec = spec("bgemm_skinny_r4", Dtype::Bf16, 4);
pub const SKINNY_BF16_R8: KernelSpec = spec("bgemm_skinny_r8", Dtype::Bf16, 8);

/// A tensor-core kernel of `dtype` and `rows` rows of the small side, two
/// blocks per SM.
const fn mma_spec(name: &'static str, dtype: Dtype, rows: u32) -> KernelSpec {
    let base = spec(name, dtype, rows);
    KernelSpec {
        tile: Tile { bk: mma_k_step(dtype), ..base.tile },
        min_blocks_per_sm: 2,
        layouts: Layouts::AlongK,
        ..base
    }
}

/// Step 86: 16-bit calls whose small side is at most [`MMA_ROWS`] and whose
/// large operand is contiguous along K, on `mma.sync` fed from registers
/// ([`mma_refusal`] says where they cannot run).
pub const SKINNY_MMA_F16: KernelSpec = mma_spec("hgemm_skinny_mma", Dtype::F16, MMA_ROWS);
pub const SKINNY_MMA_BF16: KernelSpec = mma_spec("bgemm_skinny_mma", Dtype::Bf16, MMA_ROWS);
/// Step 88: the same for a small side of 9 to [`MMA_ROWS_WIDE`] (two n8
/// tiles), and TF32 (`m16n8k8`, operands rounded to TF32).
pub const SKINNY_MMA_F16_R16: KernelSpec = mma_spec("hgemm_skinny_mma_r16", Dtype::F16, MMA_ROWS_WIDE);
pub const SKINNY_MMA_BF16_R16: KernelSpec = mma_spec("bgemm_skinny_mma_r16", Dtype::Bf16, MMA_ROWS_WIDE);
pub const SKINNY_MMA_TF32_R16: KernelSpec = mma_spec("tgemm_skinny_mma_r16", Dtype::Tf32, MMA_ROWS_WIDE);

/// Step 104: the same multiply for 16-bit calls whose large operand is
/// contiguous along the long side (B row-major where M is the small side,
/// A column-major where N is), read 16 bytes a lane along it
/// (`kernels-gpu/src/memory_bound_mma_along_l.rs`).
const fn along_l(spec: KernelSpec, name: &'static str) -> KernelSpec {
    KernelSpec { name, layouts: Layouts::AlongL, tile: Tile { bn: ALONG_L_LONG_TILE, ..spec.tile }, ..spec }
}
pub const SKINNY_MMA_L_F16: KernelSpec = along_l(SKINNY_MMA_F16, "hgemm_skinny_mma_l");
pub const SKINNY_MMA_L_BF16: KernelSpec = along_l(SKINNY_MMA_BF16, "bgemm_skinny_mma_l");
pub const SKINNY_MMA_L_F16_R16: KernelSpec = along_l(SKINNY_MMA_F16_R16, "hgemm_skinny_mma_l_r16");
pub const SKINNY_MMA_L_BF16_R16: KernelSpec = along_l(SKINNY_MMA_BF16_R16, "bgemm_skinny_mma_l_r16");
pub const SKINNY_MMA_L_F16_F32OUT: KernelSpec = f32_output("hgemm_skinny_mma_l_f32out", SKINNY_MMA_L_F16);
pub const SKINNY_MMA_L_BF16_F32OUT: KernelSpec = f32_output("bgemm_skinny_mma_l_f32out", SKINNY_MMA_L_BF16);
pub const SKINNY_MMA_L_F16_R16_F32OUT: KernelSpec = f32_output("hgemm_skinny_mma_l_r16_f32out", SKINNY_MMA_L_F16_R16);
pub const SKINNY_MMA_L_BF16_R16_F32OUT: KernelSpec = f32_output("bgemm_skinny_mma_l_r16_f32out", SKINNY_MMA_L_BF16_R16);

/// Step 104's kernel of `dtype` for a small side of `small` (16-bit, up to
/// [`MMA_ROWS_WIDE`]), if there is one.
pub const fn skinny_mma_along_l_for(dtype: Dtype, small: u32) -> Option<KernelSpec> {
    match dtype {
        _ if small > MMA_ROWS_WIDE => None,
        Dtype::F16 if small <= MMA_ROWS => Some(SKINNY_MMA_L_F16),
        Dtype::Bf16 if small <= MMA_ROWS => Some(SKINNY_MMA_L_BF16),
        Dtype::F16 => Some(SKINNY_MMA_L_F16_R16),
        Dtype::Bf16 => Some(SKINNY_MMA_L_BF16_R16),
        Dtype::Tf32 | Dtype::F32 => None,
    }
}

/// The tensor-core memory-bound kernel of `dtype` for a small side of
/// `small`, if there is one: 16-bit up to 8 rows on step 86's, up to 16 on
/// step 88's two n8 tiles; TF32 up to 16 on step 88's.
pub const fn skinny_mma_for(dtype: Dtype, small: u32) -> Option<KernelSpec> {
    match dtype {
        _ if small > MMA_ROWS_WIDE => None,
        Dtype::F16 if small <= MMA_ROWS => Some(SKINNY_MMA_F16),
        Dtype::Bf16 if small <= MMA_ROWS => Some(SKINNY_MMA_BF16),
        Dtype::F16 => Some(SKINNY_MMA_F16_R16),
        Dtype::Bf16 => Some(SKINNY_MMA_BF16_R16),
        Dtype::Tf32 => Some(SKINNY_MMA_TF32_R16),
        Dtype::F32 => None,
    }
}

/// The 16-bit kernels with f32 C: the partial sums of their split calls
/// (`split_k::MEMORY_BOUND_F32_OUTPUT_TWINS`). Before them a deep-K call
/// with both sides small split onto 128×128 `mma.sync` tiles, one row or
/// a few of each used: f16 7×5×300001 ran at 18% of cuBLAS (H100, PERF.md
/// step 75).
const fn f32_output(twin_name: &'static str, base: KernelSpec) -> KernelSpec {
    KernelSpec { name: twin_name, features: Features { f32_output: true, ..base.features }, ..base }
}
pub const SKINNY_F16_R1_F32OUT: KernelSpec = f32_output("hgemm_skinny_r1_f32out", SKINNY_F16_R1);
pub const SKINNY_F16_R4_F32OUT: KernelSpec = f32_output("hgemm_skinny_r4_f32out", SKINNY_F16_R4);
pub const SKINNY_F16_R8_F32OUT: KernelSpec = f32_output("hgemm_skinny_r8_f32out", SKINNY_F16_R8);
pub const SKINNY_BF16_R1_F32OUT: KernelSpec = f32_output("bgemm_skinny_r1_f32out", SKINNY_BF16_R1);
pub const SKINNY_BF16_R4_F32OUT: KernelSpec = f32_output("bgemm_skinny_r4_f32out", SKINNY_BF16_R4);
pub const SKINNY_BF16_R8_F32OUT: KernelSpec = f32_output("bgemm_skinny_r8_f32out", SKINNY_BF16_R8);
pub const SKINNY_MMA_F16_F32OUT: KernelSpec = f32_output("hgemm_skinny_mma_f32out", SKINNY_MMA_F16);
pub const SKINNY_MMA_BF16_F32OUT: KernelSpec = f32_output("bgemm_skinny_mma_f32out", SKINNY_MMA_BF16);
pub const SKINNY_MMA_F16_R16_F32OUT: KernelSpec = f32_output("hgemm_skinny_mma_r16_f32out", SKINNY_MMA_F16_R16);
pub const SKINNY_MMA_BF16_R16_F32OUT: KernelSpec = f32_output("bgemm_skinny_mma_r16_f32out", SKINNY_MMA_BF16_R16);

/// The memory-bound kernel for a shape, if its small side is at most
/// [`MAX_SMALL_SIDE`]: the fewest rows per block that cover it (1, 4, then
/// 16, or 8 for 16-bit inputs). Until PERF.md step 67, f32/TF32 with N of
/// 5 to 8 (X read along K) ran as row groups of 4; since the 16-row
/// kernels read X along K through a ring too, 16 rows win there (H100,
/// % of cuBLAS, 4 rows → 16 at one and two blocks per SM: 16384×8×4096
/// 132 → 147, 165; 30000×5×2000 167 → 170, 192).
pub const fn skinny_for(dtype: Dtype, m: u32, n: u32) -> Option<KernelSpec> {
    let small = if m < n { m } else { n };
    if small > MAX_SMALL_SIDE {
        return None;
    }
    let [r1, r4, most] = match dtype {
        Dtype::F32 => [SKINNY_F32_R1, SKINNY_F32_R4, SKINNY_F32_R16],
        Dtype::Tf32 => [SKINNY_TF32_R1, SKINNY_TF32_R4, SKINNY_TF32_R16],
        Dtype::F16 => [SKINNY_F16_R1, SKINNY_F16_R4, SKINNY_F16_R8],
        Dtype::Bf16 => [SKINNY_BF16_R1, SKINNY_BF16_R4, SKINNY_BF16_R8],
    };
    Some(if small <= 1 {
        r1
    } else if small <= 4 {
        r4
    } else {
        most
    })
}

/// Whether `--kernel auto` runs an `m × n` call of `dtype` whose small side
/// is at most [`MAX_SMALL_SIDE`] on the tensor-core tiles (mostly empty,
/// with split-K filling the GPU) rather than on [`skinny_for`]'s kernel:
/// 16-bit calls whose small side is M from 2 rows, or N from 8 columns
/// (and the host's `choice::few_columns_on_tiles` gives N of 2 to 7 to
/// step 70's 64×16 tiles where they win, PERF.md step 85, and to
/// [`SKINNY_MMA_F16`]'s tensor cores elsewhere with A row-major, step
/// 86). The
/// 16-bit memory-bound kernels multiply on CUDA cores, which keep up with
/// memory only for a few rows. Measured (H100, f16, K = 4096, long side
/// 16384, % of cuBLAS, memory-bound / tiles; PERF.md step 35): M = 4:
/// 43 / 71, M = 8: 31 / 71, M = 12: 18 / 69, M = 16: 16 / 68; N = 4:
/// 87 / 42, N = 8: 42 / 54, N = 12: 29 / 42, N = 16: 19 / 54; and with M of
/// 2 or 3 (PERF.md step 64; 4 rows per block, 2 or 3 of them used): f16
/// 2×16384×4096 54 / 91, 3×16384×4096 49 / 92, 2×8192×8192 47.5 / 83,
/// 2×200000×256 40 / 92; bf16 3×100000×512 50 / 90. And TF32 where M is
/// the small side, from 8 rows, on `wgmma` tiles (PERF.md step 48, K =
/// 4096 and 8192, long side 16384 and 8192): M = 8: 80, 66 / 85, 83;
/// M = 16: 55, 42 / 84, 82; but M = 4: 93, 91 / 84, 83. Where N is the
/// small side, the tiles won from 8 columns (N = 16: 60, 60 / 89, 87)
/// until step 67's along-K ring; now the memory-bound kernel, in exact
/// f32, runs there (f32 16384×16×1024 0.035 ms against TF32 tiles' 0.040),
/// or over short rows (and few long ones, step 93) step 88's TF32
/// `mma.sync` one.
pub const fn tiles_beat_skinny(dtype: Dtype, m: u32, n: u32) -> bool {
    match dtype {
        Dtype::F16 | Dtype::Bf16 => {
            if m <= n {
                m >= 2
            } else {
                n >= 8
            }
        }
        Dtype::Tf32 => m <= n && m >= 8,
        Dtype::F32 => false,
    }
}
