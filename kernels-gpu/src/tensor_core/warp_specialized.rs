//! Step 10 — Hopper, warp-specialized and persistent: the TMA, an
//! `mbarrier` ring, a producer warp and two consumer warpgroups, one block
//! per SM (f16, bf16, and TF32 as step 10b; sm_90a).
//!
//! Step 9 has every thread issue `cp.async` copies between its `wgmma`s,
//! and every K slice ends in a block-wide barrier. Here the roles are split,
//! as in CUTLASS's warp-specialized kernels:
//!
//! - the producer, one thread of the last warpgroup (of one warp in step
//!   10d), has the TMA (tensor memory
//!   accelerator) copy each operand tile into shared memory with one
//!   instruction (`cp.async.bulk.tensor`: the hardware computes addresses,
//!   applies the 128-byte swizzle the descriptors read, and fills whatever
//!   lies outside the matrix with zeros, so any M, N, K works with no bounds
//!   code), into a ring of `STAGES` stages;
//! - the consumers, warpgroups 0 and 1 (64×BN of C each; in step 10f,
//!   BM×64), multiply with
//!   `wgmma`, one group kept in flight across K slices.
//!
//! Each stage has two barriers instead of `__syncthreads`: "full" counts the
//! bytes the TMA lands (the producer arms it with `expect_tx`); "empty"
//! counts the consumer warps done reading. Each side waits only for the
//! other, stage by stage, so copies run up to `STAGES` slices ahead. The
//! producer gives its registers to the consumers (`setmaxnreg`: 40 and 232
//! per thread, of the 168 the launch bounds allow on entry).
//!
//! The grid is persistent: one block per SM, each looping over the tiles of
//! C (`block, block + grid, …` in grouped order). C leaves through the TMA
//! too (`epilogue::store_c_tma`): each consumer warpgroup writes its part
//! of the tile into a swizzled staging tile with `stmatrix` and one thread
//! issues TMA stores, which run on while the warpgroup starts its next
//! tile's `wgmma`s. C whose rows are not 16-byte aligned, or whose N does
//! not fill whole 16-byte pieces, is staged the same way and written out
//! row by row by the warpgroup, consecutive threads on consecutive columns
//! (PERF step 99: f16 6492×5009×24 0.233 → 0.058 ms); the two-block tiles,
//! at 96 registers, store such a C from registers.
//!
//! Tiles: 128×256×64 (one `m64n256k16` per consumer and K step, 3 stages
//! of 48 KiB and a 64 KiB C staging tile; a 4th stage, with C staged box by
//! box in two 8 KiB buffers per consumer, measured 1–5% slower and is the
//! ablation `hgemm_ablate_ws_4_stages`, PERF step 53), 128×128×64 (`m64n128k16`, 6
//! stages of 32 KiB, 32 KiB staging) for problems whose 128×256 tiles fill
//! less than half the SMs or are no fewer (N ≤ 128), and TF32 128×256×32 (`m64n256k8`, 4 stages of 48
//! KiB) and 128×128×32 (`m64n128k8`, 6 stages of 32 KiB), C from registers;
//! 128×192×64 (`m64n192k16`, 4 stages of 40 KiB, 48 KiB staging) and TF32
//! 128×192×32 (`m64n192k8`, 5 stages) for shapes whose 128×256 tiles leave
//! much of their last wave empty (the built-in choice weighs each tile's
//! wave fill by its rate);
//! and the 16-bit 128×128 and 128×192 (5 stages) tiles with f32 C from
//! registers (`F32Out`: the partial sums of step 10's split-K calls, a
//! strided batch over K chunks). Their producer reads the batch's last
//! matrix, a shorter last chunk, through maps of A and B whose K ends
//! where that chunk does (`K_LAST`, `tma::LAST_CHUNK_MAPS_OFFSET`), so the
//! chunk runs in the launch of the others; the host then splits deep K into
//! whole K slices. H200 (PERF step 105), `auto`, f16: 384×384×100000 0.065
//! → 0.057 ms (86 → 99% of cuBLAS), 200×200×100000 0.045 → 0.042 (76 →
//! 80.5%), 22×56×171379 0.040 → 0.034.
//!
//! Step 10c runs the 128×256 tiles in 2×1 thread-block clusters (`_c2`,
//! `Features::cluster_m`): the two blocks of a cluster take vertically
//! adjacent tiles, which read the same B slice, and each has the TMA load
//! half of it and multicast it into both (`tma_load_3d_multicast`); a
//! stage is free once the consumers of both blocks release it (each
//! arrives on both blocks' "empty" barrier through `mapa`), and the blocks
//! meet at cluster barriers after the barrier initialization and before
//! they exit. It pulls a third less out of L2, and measured 1–3% slower
//! than step 10 at issue 10's shapes (ncu at 4096³: L2 50% busy, so L2
//! bandwidth is not what holds step 10 back there); with the stage release
//! at cluster scope (`.release.cluster`) it ran 2.5× slower.
//! Step 10d runs the 16-bit 128×128 tiles two blocks per SM (`_2cta`: 2
//! stages, a producer of one warp, 288 threads of 112 registers, since
//! ptxas compiles every thread to the launch bounds' share and 384 would
//! leave 80): while one block waits on its C stores the other computes.
//! Where K fits one slice, C's writes are the whole job: f16 8192²×16 at
//! 85.6% of cuBLAS where step 10 ran 62.9% (H100, PERF step 49; C written
//! at 2.06 TB/s against 1.5); from K = 512 its two stages lose to step
//! 10's. Step 52 then gave the one-block tiles an epilogue without
//! per-pair branches where β = 0, which 96 registers cannot hold here, and
//! they overtook it: H200, 8192²×16 0.045 ms on 128×256 against 0.060
//! (PERF step 105). `auto` no longer takes it; it stays as the step.
//! Step 10e runs the 128×256 tiles with stream-K (`_sk`,
//! `gemm_launch::stream_k`): a grid of every SM, and where the tiles leave
//! the last wave part-empty, each block takes an even range of some tiles'
//! K slices ([`TileWalk`] yields pieces of tiles, each with a [`Role`]).
//! A block whose range starts inside a tile leaves that piece's f32 sums in
//! its workspace slot ([`save_sums`]) and sets one flag per consumer warp;
//! the block holding the tile's first slices waits for those flags, adds
//! the slots in block order, so the result does not depend on timing
//! ([`add_sums`]), and writes C as usual. Measured (H100, PERF step 50,
//! docs/runs/2026-11-25-streamk/): correct and sanitizer-clean, but slower
//! wherever it shares except 3072³ (f16 69.4 → 74–76% of cuBLAS, where
//! 128×192 tiles reach 91%): 1536³ 65 → 44%, and at 4096³ (before the rule
//! was narrowed) 94 → 71%, DRAM traffic doubled: blocks at different K no
//! longer read the same A and B from L2 together. With no fix-up at all
//! (a timing-only variant) 1536³ runs no faster than data-parallel.
//! `auto` does not choose it.
//! TF32 `wgmma` reads K-major operands only from shared memory and the
//! TMA cannot transpose 4-byte elements: step 10b's kernels have one entry
//! (NT), and the host copies a row-major B or column-major A transposed
//! first; operands whose rows are off the TMA's 16 bytes it copies
//! realigned (`host/driver/operand_copies.rs`).
//! Step 10f reads a row-major B in place by swapping the operands
//! (`gemm_launch::tma::swapped`, one entry, NN): `Cᵀ = Bᵀ·Aᵀ`. B's tile
//! lands N-major (a TMA box per 32 columns); each consumer warpgroup loads
//! its 64 columns of it into registers, 8-byte loads that hit 32 banks
//! under the swizzle ([`swapped_fragments`]), as the `wgmma`'s A, and A's
//! K-major tile is its B from shared memory, so a warpgroup's accumulators
//! are 64 columns × BM rows of C, stored transposed
//! (`epilogue::store_c_f32_swapped`). A `wgmma` reads its A registers
//! until its group completes, so the main loop runs two slices per pass,
//! each loading into registers of its own, and each wait names the
//! registers of the group it waits for (`wgmma_wait_holding`): with one
//! slice per pass, the next slice's loads overwrote the registers of the
//! group in flight (wrong results, H100, except under compute-sanitizer's
//! slower pace). At deep K, where B is as large as the work, the
//! transposed copy doubled the bytes moved. H100, % of cuBLAS in the same
//! run (PERF step 62): 128×128 tiles at 384×384×100000 102% (step 9b as
//! partial sums: 56%), 1000×128×30000 102% (59%), 256×256×131072 116%
//! (76%), 1024²×8192 120% (step 10b with `mma.sync` partials: 70%),
//! 1024³ 92% (step 10b: 82–87%); 256×128 tiles at 2048³ 103% (step 10b's
//! 128×256: 78%), 4096³ 95% (85%), 8192×4096×6144 92–94% (90%).
//! Its 256×128 and 128×128 tiles have entries for C's rows off 8 bytes
//! (`_rs_cu`, `Features::c_rows_off_16_bytes`, launched in their place at
//! every K): each consumer passes its f32 C through one staged box, 32 rows
//! at a time, and writes each row out whole
//! (`epilogue::store_c_f32_swapped_rows`), where its lanes' pairs land 4
//! bytes at a time in 4 rows. H200 (PERF step 100), `auto`: 6492×5009×24
//! 0.103 → 0.072 ms (62 → 88% of cuBLAS), 10260×4071×54 72.5 → 113.5%.
//! Its 16×128 tiles (`m64n16k8`, 12 stages of 18 KiB) take TF32 calls of
//! M = 8 to 16, which stream B: 16×16384×4096 107% (step 9b: 83.5%),
//! 16×8192×8192 91% (82%), 16×4096×16384 88% (79%; PERF step 63).
//! Its 32×128 and 64×128 tiles (`m64n32k8`, 11 stages of 20 KiB;
//! `m64n64k8`, 9 of 24 KiB; 168 registers, 0 spills) take TF32 calls of
//! M = 17 to 64, split or not: 17×100001×1023 0.530 → 0.128 ms (34 → 138%
//! of cuBLAS, H200), 33×30000×999 71 → 145%, 64×192×300000 79 → 95–97%
//! (PERF step 107).
//! Its 128×64 tiles (f16/bf16 `m64n64k16`, 8 stages of 24 KiB and a 16
//! KiB C staging tile; TF32 `m64n64k8`, 9 stages of 24 KiB; 168
//! registers, 0 spills) take calls of N = 17 to 64 under a larger M: f16
//! 100000×32×1024 78 → 97% of cuBLAS, 16384×24×4096 66 → 78–79%, TF32
//! 16384×24×4096 93 → 116–119% (H200, PERF step 108).
//! Its TF32 128×16 tiles (`m64n16k8`, 12 stages of 18 KiB; 168 registers,
//! 0 spills; a K-major B tile is one TMA box `BN` rows high, so 16 rows
//! is whole boxes) take calls of N = 8 to 16 under a larger M whose A the
//! TMA reads in place, streaming A at up to 84% of the memory bandwidth
//! (51–84% over the shapes measured) where the memory-bound kernels ran
//! 33–64%: 16384×16×4096 0.094 → 0.072 ms (86 → 111% of cuBLAS),
//! 16384×16×8192 91.5 → 122%, 5000×16×4096 63.5 → 99.5% (H200, PERF step
//! 109). Its TF32 64×16 tiles (one consumer warpgroup, 16 stages of 10
//! KiB; 232 registers at entry, 0 spills) take those calls where the
//! 128×16 tiles' blocks fill under half a wave: 4000×16×4096 0.036 →
//! 0.026 ms (74 → 101–103%), 3000×16×4096 69 → 83–84% (PERF step 110).
//! Step 10g swaps 16-bit calls of M ≤ 16 with A and B row-major the same
//! way (`Swapped<E>`, 16×128 tiles, `m64n16k16`), with nothing in
//! registers: 16-bit `wgmma` reads an MN-major A from shared memory, so
//! B's 64-column box is its A and A's 16 K-major rows its B; C is stored
//! transposed from registers (`epilogue::store_c_swapped`). H200, `auto`
//! before (step 70's 16×64 `mma.sync` tiles, or step 10's 128-row tiles)
//! → after, ms (PERF step 102): 12×50000×384 0.0134 → 0.0109,
//! 4×80000×320 0.0208 → 0.0177, 8×42216×504 0.0200 → 0.0176,
//! 16×200000×256 0.0376 → 0.0345, 8×42212×501 (copies) 0.0530 → 0.0472;
//! level at 16×16384×1024, behind at K = 4096 (0.037 against 0.036), where
//! `auto` keeps step 70's.
//! Step 10h reads a TF32 row-major B whose rows are off 16 bytes (N no
//! multiple of 4) in place, where the others copy it realigned first
//! (`_rs_bu`, `Features::b_rows_by_residue`, launched in place of step
//! 10f's 128×128 and 16×128 tiles). The TMA needs rows 16 bytes apart and
//! boxes that start on 16 bytes: B's rows `k ≡ r (mod 4)` come through map
//! `r` of four (4·ldb apart, from row r's start aligned down), each slice's
//! 32-row box lands as four 8-row boxes (row k at `8·(k mod 4) + k/4`,
//! `gemm_launch::tma::b_residue_row`), each row shifted by its map's
//! offset, with a fifth box of columns for the overflow; each thread's
//! fragment rows are one residue, so it reads them at one shift
//! ([`swapped_fragments_by_residue`]). H200, `auto`, B copied → read in
//! place (PERF step 103): 47×307×53605 0.0806 → 0.0587 ms (64 → 88% of
//! cuBLAS), 16×16383×4096 0.116 → 0.079 (95 → 139%), 13×50001×1000 102 →
//! 167%; named at 4000×3001×1000, where B's copy is a small share, 13%
//! slower (4-way bank conflicts, one f32 per load), so they take at most
//! 1024 rows of C. Tensor maps (A, B, C) are built by
//! the host for each call (`host/driver/tensor_map.rs`) and read from
//! global memory. A block fences them (`fence.proxy.tensormap`) only when
//! the host says their address held other maps before
//! (`Gemm::fence_tensor_maps`). Fencing every launch cost ~3 µs: 2048³ f16
//! ran at 78% of cuBLAS with it and 88% without (PERF step 51).
//! The epilogue, which both consumer warpgroups run at once while the
//! tensor cores idle, tests β once per tile (PERF step 52): tested per
//! pair, it cost ~3 µs per tile, and 4096³ f16 took 193.6 µs where a build
//! with no epilogue took 179.5 and cuBLAS 181–183; now 182.8.
//!
//! Cost (ptxas 12.9, sm_90a): 168 registers at entry for every entry (the
//! cap `setmaxnreg` redistributes), 0 spills, no stack frame; shared
//! memory 213,040 bytes (128×256, and its clusters), 213,056 (128×192),
//! 229,472 (128×128), 196,672 (TF32 128×256, and its clusters), 204,880
//! (TF32 128×192), 196,704 (TF32 128×128, and the f32-output twins),
//! 229,440 (the 4-stage ablation), 196,672 (step 10f's 256×128), 196,704
//! (step 10f's 128×128), 213,056 and 213,088 (their `_cu` entries),
//! 221,376 (step 10f's 16×128, and step 10g's), 221,280 and 225,440 (step
//! 10h's 128×128 and 16×128: a box of B more per stage, 10 stages for
//! 16×128), whose producer keeps 56 registers and consumers 224;
//! step 10d: 96 registers (ptxas's cap for 288 threads × 2 blocks), 98,336
//! bytes per block; step 10e: as the 128×256 kernels it twins (168, 0
//! spills; the accumulators stay in registers while a slot is added).
//! Measured after step 52 (H100 SXM, same-run cuBLAS,
//! docs/runs/2026-11-25-fixedcost/run8-beta-once/): 8192×4096×6144 f16
//! **771 TFLOP/s (99.2%)**, bf16 800 (98.8%); 4096³ 99.2% / 98.8%; 8192³
//! 102%; 16384²×1024 103%; 2048³ 98.8% / 98.2%. H200, after step 53
//! (docs/runs/2026-11-25-stages/run3-h200/): 99.2% / 99.2%, 4096³ 99.3% /
//! 99.4%, 8192³ 101.9%, 16384²×1024 103.6% / 103.5%, 2048³ 99.2% / 98.1%.
//! Before (H100 SXM, cuBLAS in the same run, docs/runs/2026-11-23-tf32-ws/
//! and -tma-store/, PERF steps 28 and 31–33): 8192×4096×6144 f16 **744–757
//! TFLOP/s (95.2–95.4%)**, bf16 767–778 (94.4–94.8%), where step 9 does
//! 525 (66%); 8192³ 95.6–98.9%; 4096³ 92.4–93.4%; 16384×16384×1024
//! 85–87%; 2048³ 78–80% (88% after step 51); 1024³ (128×128) 84–86%. TF32 (copy of B
//! included, C in 8-byte stores, PERF step 40): 365–373 TFLOP/s
//! (89.7–90.1%) where step 9b does 213 (50.9%); 4096³ 85%; TF32 128×128
//! 768³ 78%, 1024³ 78%. The f32-output twins (step 39) take f16
//! 256×256×131072 to 86–87% of cuBLAS and 128×128×65536 to 63–72%. Through
//! realigned copies (step 34): f16 5003×4001×3001 228% (cuBLAS slows on
//! odd sizes), 1999×2003×997 105%. Ablations at the seeds' shape: C from
//! registers 91.0–91.1%, one block per tile 92.3–92.4%.
//! 128×192 (PERF step 46, docs/runs/2026-11-24-cluster/): 3072³ f16 656
//! TFLOP/s (89.0%, 128×256: 69.0%), bf16 88.9%, TF32 105.5%; 1536³ f16
//! 64.5% (54.9%); 6144³ 97.5% of 128×256's rate.

use super::epilogue::{Output, store_c_direct, store_c_tma};
use super::epilogue::{store_c_f32, store_c_f32_swapped, store_c_f32_swapped_rows, store_c_swapped};
use super::wgmma::descriptor;
use super::{Bf16, F16};
use crate::device::sm90a::{
    bulk_wait_group, cluster_address, cluster_rank, cluster_size, cluster_sync, elect_one, fence_mbarrier_init,
    fence_tensormap_acquire, mbarrier_arrive, mbarrier_arrive_cluster, mbarrier_arrive_expect_tx, mbarrier_init,
    mbarrier_wait, prefetch_tensormap, setmaxnreg_dec, setmaxnreg_inc, tma_load_3d, tma_load_3d_multicast,
    wgmma_commit, wgmma_fence, wgmma_m64n16k8_tf32, wgmma_m64n16k8_tf32_rs, wgmma_m64n16k16_bf16, wgmma_m64n16k16_f16,
    wgmma_m64n32k8_tf32, wgmma_m64n32k8_tf32_rs, wgmma_m64n64k8_tf32, wgmma_m64n64k8_tf32_rs, wgmma_m64n64k16_bf16,
    wgmma_m64n64k16_f16, wgmma_m64n128k8_tf32, wgmma_m64n128k8_tf32_rs, wgmma_m64n128k16_bf16, wgmma_m64n128k16_f16,
    wgmma_m64n192k8_tf32, wgmma_m64n192k16_bf16, wgmma_m64n192k16_f16, wgmma_m64n256k8_tf32, wgmma_m64n256k8_tf32_rs,
    wgmma_m64n256k16_bf16, wgmma_m64n256k16_f16, wgmma_wait, wgmma_wait_holding,
};
use crate::device::{
    block_idx, block_idx_z, fence_gpu, grid_dim, grid_dim_z, load_acquire_gpu, load_global_x4, load_shared_b32,
    load_shared_x2_b32, smem_addr, store_global_x4, store_relaxed_gpu, sync_threads, sync_warp, thread_idx, trap,
};
use crate::kernel_abi::{Gemm, kernel_entries};
use gemm_launch::{Dtype, stream_k, tile_coords, tiles, tma};

/// Registers per thread of the producer's warpgroup and of each consumer
/// warpgroup: 128 · (40 + 2 · 232) = 64512 of the SM's 65536. (With two
/// blocks per SM the producer is one warp and nobody trades: ptxas
/// compiles every thread to the launch bounds' share, 65536 / (2 · 288)
/// → 112, which a 64×128 accumulator needs; 384 threads would leave 80.)
const PRODUCER_REGISTERS: u32 = 40;
const CONSUMER_REGISTERS: u32 = 232;
/// Step 10h's producer, which issues 20 copies of B per slice from four
/// maps, spilled at 40 registers; its consumers need fewer than 224: 128 ·
/// (56 + 2 · 224) = 64512.
const PRODUCER_REGISTERS_BY_RESIDUE: u32 = 56;
const CONSUMER_REGISTERS_BY_RESIDUE: u32 = 224;

/// Step 10's element types: A and B as they lie in memory (16-bit bits, or
/// the 32 bits of an f32 read as TF32), C's type, and the `wgmma` K step
/// (32 bytes of a K-major row: 16 elements, or 8 for TF32).
trait WsElement {
    type In: Copy;
    type Out: Copy;
    const DTYPE: Dtype;
    const K_STEP: usize = 32 / Self::DTYPE.element_bytes() as usize;
    /// Whether a row-major B makes the kernel multiply swapped (`Cᵀ =
    /// Bᵀ·Aᵀ`, [`swapped`]): TF32's (step 10f, `tma::swapped`) and step
    /// 10g's 16-bit elements.
    const SWAPS_ROW_MAJOR_B: bool = tma::swapped(Self::DTYPE, false);
}

/// Whether a kernel of element `E` whose B arrives `b_t` (column-major) or
/// not multiplies swapped: B's tile as the `wgmma`'s A, 64 columns of C
/// per consumer warpgroup, A's tile as its B.
const fn swapped<E: WsElement>(b_t: bool) -> bool {
    E::SWAPS_ROW_MAJOR_B && !b_t
}

impl WsElement for F16 {
    type In = u16;
    type Out = u16;
    const DTYPE: Dtype = Dtype::F16;
}

impl WsElement for Bf16 {
    type In = u16;
    type Out = u16;
    const DTYPE: Dtype = Dtype::Bf16;
}

/// TF32 on f32 data (`Gemm<u32, f32>`, as step 9b): K-major operands from
/// shared memory, or (step 10f) A from registers.
struct Tf32;

impl WsElement for Tf32 {
    type In = u32;
    type Out = f32;
    const DTYPE: Dtype = Dtype::Tf32;
}

/// Step 10g: a 16-bit element `E` multiplied swapped (M ≤ 16, A and B
/// row-major), both operands read from shared memory: B's N-major box as
/// the `wgmma`'s MN-major A, A's K-major rows as its B.
struct Swapped<E>(core::marker::PhantomData<E>);

impl<E: WsElement<In = u16, Out = u16>> WsElement for Swapped<E> {
    type In = u16;
    type Out = u16;
    const DTYPE: Dtype = E::DTYPE;
    const SWAPS_ROW_MAJOR_B: bool = true;
}

/// A 16-bit element whose C is f32: the f32-output twins, which write the
/// partial sums of a split-K call unrounded (`gemm_launch::split_k`).
struct F32Out<E>(core::marker::PhantomData<E>);

impl<E: WsElement<In = u16>> WsElement for F32Out<E> {
    type In = u16;
    type Out = f32;
    const DTYPE: Dtype = E::DTYPE;
}

/// A consumer warpgroup's accumulators for element `E`: 64 rows × `N`
/// columns of C (the block tile's width; swapped, 64 columns × `N` rows), `N/2` f32 per thread in the
/// `mma.sync` C layout repeated over `N/8` column groups (see step 9).
trait WarpgroupTile<E: WsElement>: Accumulators {
    const N: usize;
    /// What a slice's `wgmma`s read from registers besides the
    /// accumulators: step 10f's A fragments, nothing for the others.
    type Fragments: Fragments;
    /// `acc += A·B` for one K step (`m64nNk16`, or `m64nNk8` for TF32,
    /// whose operands are always K-major).
    ///
    /// # Safety
    /// See [`wgmma_m64n256k16_f16`].
    unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool);
    /// This warpgroup's `wgmma`s over one K slice, `BK` deep, of the tiles
    /// at `a_tile` and `b_tile` (its part of each), after the `wgmma.fence`
    /// that orders the registers' earlier writes before them. `t`: the
    /// thread's index in its warpgroup. `B_BY_RESIDUE`: B's slice lies
    /// residue by residue (step 10h, `tma::b_residue_row`; swapped TF32
    /// only), the thread's rows shifted by `b_shift` columns.
    ///
    /// # Safety
    /// The tiles must hold a landed slice; all 128 threads of the warpgroup.
    #[inline(always)]
    unsafe fn multiply<const BK: usize, const A_T: bool, const B_T: bool, const B_BY_RESIDUE: bool>(
        &mut self,
        a_tile: u32,
        b_tile: u32,
        _t: usize,
        _b_shift: u32,
    ) -> Self::Fragments {
        const { assert!(!swapped::<E>(B_T), "a swapped tile has a multiply of its own") };
        unsafe { multiply_from_shared::<E, Self, BK, A_T, B_T>(self, a_tile, b_tile) };
        Self::Fragments::default()
    }
    /// The epilogue: where the kernel stages C (`C_BOXES` boxes at
    /// `staging.0`, 0 when it has none), [`store_c_tma`]: through the TMA
    /// when this call's C takes it (its map, `staging.1`), else from the
    /// same staging with plain stores; from registers in kernels that do
    /// not stage (a swapped tile's, `tma::swapped`, transposed).
    ///
    /// # Safety
    /// As [`store_c_tma`] for the staged path, [`store_c_direct`] otherwise.
    unsafe fn store<const BN: usize, const C_BOXES: usize, const BLOCKS_PER_SM: usize, const B_T: bool>(
        &self,
        out: &Output<E::In, E::Out>,
        staging: (u32, Option<u64>),
        consumer: usize,
        t: usize,
    );
}

/// Registers a slice's `wgmma`s read, which must keep their values until
/// the group has completed.
trait Fragments: Copy + Default {
    /// `wgmma.wait_group pending`, the registers held until it.
    fn wait(&self, pending: u32);
}

impl Fragments for () {
    #[inline(always)]
    fn wait(&self, pending: u32) {
        wgmma_wait(pending)
    }
}

/// Step 10f's A fragments of a slice: 4 K steps × 4 TF32.
impl Fragments for [[u32; 4]; 4] {
    #[inline(always)]
    fn wait(&self, pending: u32) {
        wgmma_wait_holding(pending, self)
    }
}

/// A consumer thread's f32 accumulators, whatever the tile's width.
trait Accumulators: Copy {
    fn zero() -> Self;
    /// Stream-K: the accumulators as they are, into a workspace slot
    /// ([`save_sums`]).
    ///
    /// # Safety
    /// As [`save_sums`].
    unsafe fn save(&self, slot: *mut f32, t: usize, threads: usize);
    /// Stream-K: adds a slot's sums ([`add_sums`]).
    ///
    /// # Safety
    /// As [`add_sums`].
    unsafe fn add(&mut self, slot: *const f32, t: usize, threads: usize);
}

impl<const LEN: usize> Accumulators for [f32; LEN] {
    #[inline(always)]
    fn zero() -> Self {
        [0.0; LEN]
    }
    #[inline(always)]
    unsafe fn save(&self, slot: *mut f32, t: usize, threads: usize) {
        unsafe { save_sums(self, slot, t, threads) }
    }
    #[inline(always)]
    unsafe fn add(&mut self, slot: *const f32, t: usize, threads: usize) {
        unsafe { add_sums(self, slot, t, threads) }
    }
}

/// `WarpgroupTile` of a 16-bit type for `[f32; LEN]`: `N` columns, `NJ`
/// pairs of 8-column groups, the `wgmma` of that width.
macro_rules! warpgroup_tile_16bit {
    ($e:ty, $len:literal, $n:literal, $nj:literal, $wgmma:ident) => {
        impl WarpgroupTile<$e> for [f32; $len] {
            const N: usize = $n;
            type Fragments = ();
            #[inline(always)]
            unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool) {
                unsafe { $wgmma(self, desc_a, desc_b, trans_a, trans_b) }
            }
            #[inline(always)]
            unsafe fn store<const BN: usize, const C_BOXES: usize, const BLOCKS_PER_SM: usize, const B_T: bool>(
                &self,
                out: &Output<u16, u16>,
                (staging, map_c): (u32, Option<u64>),
                consumer: usize,
                t: usize,
            ) {
                // Two blocks per SM (step 10d, 96 registers) store C from
                // registers where the TMA cannot: the staged rows spilled
                // there (4–24 bytes). `auto` gives such calls the one-block
                // tiles (`choice::staged_c_refusal`).
                if C_BOXES > 0 && (BLOCKS_PER_SM == 1 || map_c.is_some()) {
                    unsafe { store_c_tma::<$e, BN, C_BOXES, BLOCKS_PER_SM>(out, self, staging, map_c, consumer, t) }
                } else {
                    unsafe { store_c_direct::<$e, 1, $nj>(out, &mma_tiles::<$len, $nj>(self)) }
                }
            }
        }
    };
}
warpgroup_tile_16bit!(F16, 128, 256, 16, wgmma_m64n256k16_f16);
warpgroup_tile_16bit!(Bf16, 128, 256, 16, wgmma_m64n256k16_bf16);
warpgroup_tile_16bit!(F16, 96, 192, 12, wgmma_m64n192k16_f16);
warpgroup_tile_16bit!(Bf16, 96, 192, 12, wgmma_m64n192k16_bf16);
warpgroup_tile_16bit!(F16, 64, 128, 8, wgmma_m64n128k16_f16);
warpgroup_tile_16bit!(Bf16, 64, 128, 8, wgmma_m64n128k16_bf16);
warpgroup_tile_16bit!(F16, 32, 64, 4, wgmma_m64n64k16_f16);
warpgroup_tile_16bit!(Bf16, 32, 64, 4, wgmma_m64n64k16_bf16);

/// `WarpgroupTile` of a 16-bit f32-output twin (`F32Out<E>`) for
/// `[f32; LEN]`: `N` columns, `NJ` pairs of 8-column groups, the `wgmma`
/// of that width. C goes out from registers: a staged f32 tile would leave
/// room for few stages.
macro_rules! warpgroup_tile_f32_out {
    ($e:ty, $len:literal, $n:literal, $nj:literal, $wgmma:ident) => {
        impl WarpgroupTile<F32Out<$e>> for [f32; $len] {
            const N: usize = $n;
            type Fragments = ();
            #[inline(always)]
            unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool) {
                unsafe { $wgmma(self, desc_a, desc_b, trans_a, trans_b) }
            }
            #[inline(always)]
            unsafe fn store<const BN: usize, const C_BOXES: usize, const BLOCKS_PER_SM: usize, const B_T: bool>(
                &self,
                out: &Output<u16, f32>,
                _staging: (u32, Option<u64>),
                _consumer: usize,
                _t: usize,
            ) {
                const { assert!(C_BOXES == 0, "an f32 C is stored from registers") };
                unsafe { store_c_f32(out, &mma_tiles::<$len, $nj>(self)) };
            }
        }
    };
}
warpgroup_tile_f32_out!(F16, 64, 128, 8, wgmma_m64n128k16_f16);
warpgroup_tile_f32_out!(Bf16, 64, 128, 8, wgmma_m64n128k16_bf16);
warpgroup_tile_f32_out!(F16, 96, 192, 12, wgmma_m64n192k16_f16);
warpgroup_tile_f32_out!(Bf16, 96, 192, 12, wgmma_m64n192k16_bf16);

/// `WarpgroupTile<Tf32>` for `[f32; LEN]`: `N` columns, `NJ` pairs of
/// 8-column groups, the `wgmma` of that width from shared memory (K-major
/// operands only, no transpose flags) and, where it has one, with A from
/// registers. Through the NT entry (step 10b) both tiles are K-major in
/// shared memory. Through the NN entry (step 10f, `tma::swapped`) B's tile
/// is N-major: the warpgroup's 64 columns of it are loaded into registers
/// as the `wgmma`'s A ([`swapped_fragments`]), A's K-major tile is its B,
/// and the accumulators are a `64 × N` tile of Cᵀ, stored transposed.
macro_rules! warpgroup_tile_tf32 {
    ($len:literal, $n:literal, $nj:literal, $wgmma:ident $(, $wgmma_rs:ident)?) => {
        impl WarpgroupTile<Tf32> for [f32; $len] {
            const N: usize = $n;
            type Fragments = [[u32; 4]; 4];
            #[inline(always)]
            unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64, _trans_a: bool, _trans_b: bool) {
                unsafe { $wgmma(self, desc_a, desc_b) }
            }
            $(
            #[inline(always)]
            unsafe fn multiply<const BK: usize, const A_T: bool, const B_T: bool, const B_BY_RESIDUE: bool>(
                &mut self,
                a_tile: u32,
                b_tile: u32,
                t: usize,
                b_shift: u32,
            ) -> [[u32; 4]; 4] {
                const { assert!(!B_BY_RESIDUE || !B_T, "B read by residue is row-major") };
                if B_T {
                    unsafe { multiply_from_shared::<Tf32, Self, BK, A_T, B_T>(self, a_tile, b_tile) };
                    return [[0; 4]; 4];
                }
                const { assert!(B_T || (BK == 32 && !A_T), "a swapped slice is 4 K steps of a K-major A") };
                let (low, high) = swapped_fragments(t);
                // All four K steps' fragments first, then one fence for them.
                let a: [[u32; 4]; 4] = core::array::from_fn(|kk| {
                    let ([a0, a1], [a2, a3]) = if B_BY_RESIDUE {
                        let at = swapped_fragments_by_residue(t, kk, b_shift);
                        let load = |i: usize| load_shared_b32(b_tile + at[i]);
                        ([load(0), load(1)], [load(2), load(3)])
                    } else {
                        let rows = b_tile + (kk * 8) as u32 * tma::SWIZZLE_ROW_BYTES;
                        (load_shared_x2_b32(rows + low), load_shared_x2_b32(rows + high))
                    };
                    [a0, a1, a2, a3]
                });
                wgmma_fence();
                // Indexed: an array iterator would put the fragments in local memory.
                for kk in 0..4 {
                    unsafe { $wgmma_rs(self, a[kk], descriptor(a_tile, kk, false)) };
                }
                a
            }
            )?
            #[inline(always)]
            unsafe fn store<const BN: usize, const C_BOXES: usize, const BLOCKS_PER_SM: usize, const B_T: bool>(
                &self,
                out: &Output<u32, f32>,
                (staging, _): (u32, Option<u64>),
                consumer: usize,
                t: usize,
            ) {
                // From registers; the swapped tiles' entries for C's rows
                // off 8 bytes through their one staged box.
                const {
                    let rounds = (2 * $len) % tma::F32_ROUND_ROWS as usize == 0;
                    assert!(
                        C_BOXES == 0 || (C_BOXES == 1 && tma::swapped(Dtype::Tf32, B_T) && rounds),
                        "an f32 C leaves from registers, or a swapped tile's rows through one staged box"
                    )
                };
                if tma::swapped(Dtype::Tf32, B_T) {
                    let col = (consumer * 64 + swapped_column(t)) as u32;
                    if C_BOXES == 1 {
                        unsafe { store_c_f32_swapped_rows(out, self, col, staging, consumer, t) };
                    } else {
                        unsafe { store_c_f32_swapped(out, self, col) };
                    }
                } else {
                    unsafe { store_c_f32(out, &mma_tiles::<$len, $nj>(self)) };
                }
            }
        }
    };
}
warpgroup_tile_tf32!(128, 256, 16, wgmma_m64n256k8_tf32, wgmma_m64n256k8_tf32_rs);
warpgroup_tile_tf32!(96, 192, 12, wgmma_m64n192k8_tf32);
warpgroup_tile_tf32!(64, 128, 8, wgmma_m64n128k8_tf32, wgmma_m64n128k8_tf32_rs);
warpgroup_tile_tf32!(32, 64, 4, wgmma_m64n64k8_tf32, wgmma_m64n64k8_tf32_rs);
warpgroup_tile_tf32!(16, 32, 2, wgmma_m64n32k8_tf32, wgmma_m64n32k8_tf32_rs);
warpgroup_tile_tf32!(8, 16, 1, wgmma_m64n16k8_tf32, wgmma_m64n16k8_tf32_rs);

/// `WarpgroupTile<Swapped<E>>` for `[f32; 8]` (step 10g): a `64 × 16` tile
/// of Cᵀ, 64 columns of B by A's 16 rows, one `m64n16k16` per K step from
/// shared memory (B's box MN-major as its A, A's rows K-major as its B);
/// stored transposed from registers.
macro_rules! warpgroup_tile_16bit_swapped {
    ($e:ty, $wgmma:ident) => {
        impl WarpgroupTile<Swapped<$e>> for [f32; 8] {
            const N: usize = 16;
            type Fragments = ();
            #[inline(always)]
            unsafe fn wgmma(&mut self, desc_a: u64, desc_b: u64, trans_a: bool, trans_b: bool) {
                unsafe { $wgmma(self, desc_a, desc_b, trans_a, trans_b) }
            }
            #[inline(always)]
            unsafe fn multiply<const BK: usize, const A_T: bool, const B_T: bool, const B_BY_RESIDUE: bool>(
                &mut self,
                a_tile: u32,
                b_tile: u32,
                _t: usize,
                _b_shift: u32,
            ) {
                const { assert!(!A_T && !B_T && !B_BY_RESIDUE, "step 10g reads row-major A and B, B's rows in order") };
                wgmma_fence();
                for kk in 0..BK / 16 {
                    let (desc_a, desc_b) = (descriptor(b_tile, kk, true), descriptor(a_tile, kk, false));
                    unsafe { $wgmma(self, desc_a, desc_b, true, false) };
                }
            }
            #[inline(always)]
            unsafe fn store<const BN: usize, const C_BOXES: usize, const BLOCKS_PER_SM: usize, const B_T: bool>(
                &self,
                out: &Output<u16, u16>,
                _staging: (u32, Option<u64>),
                consumer: usize,
                t: usize,
            ) {
                const { assert!(C_BOXES == 0, "a swapped 16-bit C leaves from registers") };
                // The thread's `wgmma` row (column of C): warp w's 16, lane/4.
                let col = (consumer * 64 + (t / 32) * 16 + (t % 32) / 4) as u32;
                unsafe { store_c_swapped::<$e, 8>(out, self, col) };
            }
        }
    };
}
warpgroup_tile_16bit_swapped!(F16, wgmma_m64n16k16_f16);
warpgroup_tile_16bit_swapped!(Bf16, wgmma_m64n16k16_bf16);

/// One K slice from shared memory: a `wgmma` per K step with both
/// operands through descriptors (K-major, or MN-major where the 16-bit
/// transpose flags say so).
///
/// # Safety
/// As [`WarpgroupTile::multiply`].
#[inline(always)]
unsafe fn multiply_from_shared<
    E: WsElement,
    Acc: WarpgroupTile<E>,
    const BK: usize,
    const A_T: bool,
    const B_T: bool,
>(
    acc: &mut Acc,
    a_tile: u32,
    b_tile: u32,
) {
    wgmma_fence();
    for kk in 0..BK / E::K_STEP {
        let (desc_a, desc_b) = (descriptor(a_tile, kk, A_T), descriptor(b_tile, kk, !B_T));
        unsafe { acc.wgmma(desc_a, desc_b, A_T, !B_T) };
    }
}

/// Step 10f: which pair of B's columns, `2q` and `2q + 1` of its 32-column
/// box, lane `lane` of warp `warp` (in its warpgroup) holds as its `wgmma`
/// A rows `lane/4` and `lane/4 + 8`. Warp `w` reads box `w/2` of its
/// warpgroup's two; the pairs are dealt so that each half-warp's 8-byte
/// loads of 4 k-rows hit 8 distinct 16-byte chunks under the 128-byte
/// swizzle (chunk `c` of row `k` lies at `c ^ k`): half-warp `h` (row
/// groups g = lane/4 of 4h..4h+4) takes chunks `2p + h` and `2p + h + 4`
/// of the box, `p = w % 2`, whose XOR with k = 0..3 (or 4..7) lands on 8
/// different chunks. The two pairs of a chunk go to row groups g and
/// g ^ 1.
#[inline(always)]
fn swapped_pair(warp: usize, lane: usize) -> usize {
    let g = lane / 4;
    4 * (warp % 2) + g % 2 + 2 * (g / 4) + 8 * ((g / 2) % 2)
}

/// Step 10f: the column, in its warpgroup's 64, of C that thread `t` (in
/// the warpgroup) holds as its `wgmma` A row `lane/4` (row `lane/4 + 8`
/// holds the next), as [`swapped_pair`] deals them.
#[inline(always)]
fn swapped_column(t: usize) -> usize {
    let (warp, lane) = (t / 32, t % 32);
    32 * (warp / 2) + 2 * swapped_pair(warp, lane)
}

/// Step 10f: the byte offsets, from the warpgroup's part of the B tile, of
/// the 8-byte pairs thread `t` loads as its A fragment of a K step's first
/// 8 rows: k = lane%4 (`a[0]`, `a[1]`) and k = lane%4 + 4 (`a[2]`,
/// `a[3]`). Each box is `BK` rows of 128 bytes, 32 columns.
#[inline(always)]
fn swapped_fragments(t: usize) -> (u32, u32) {
    let (warp, lane) = (t / 32, t % 32);
    let q = swapped_pair(warp, lane);
    let box_bytes = (warp / 2) as u32 * tma::mn_block_bytes(32);
    let at = |k: usize| box_bytes + (k as u32) * tma::SWIZZLE_ROW_BYTES + (((q / 2) ^ k) * 16 + (q % 2) * 8) as u32;
    (at(lane % 4), at(lane % 4 + 4))
}

/// Step 10h: the byte offsets, from the warpgroup's part of the B tile, of
/// the four f32 thread `t` loads as its A fragment of K step `kk`, where
/// B's slice lies residue by residue (`tma::b_residue_row`) and each of
/// the thread's rows (residue `lane % 4`) is shifted `shift` columns on:
/// its columns `2q` and `2q + 1` ([`swapped_pair`]) at k = `8·kk + lane%4`,
/// then at k + 4. A column may land in the next box, and the swizzle
/// follows the row it lies in. One f32 at a time (a shifted pair may
/// straddle two 16-byte chunks); the four lanes of a row group read four
/// residue boxes 1 KiB apart: bank conflicts, which the calls this entry
/// takes (B streamed from memory, few rows of A) do not wait on.
#[inline(always)]
fn swapped_fragments_by_residue(t: usize, kk: usize, shift: u32) -> [u32; 4] {
    let (warp, lane) = (t / 32, t % 32);
    let first = (32 * (warp / 2) + 2 * swapped_pair(warp, lane)) as u32 + shift;
    let at = |k: usize, column: u32| {
        let row = tma::b_residue_row(k as u32, 32);
        let (block, column) = (column / 32, column % 32);
        let chunk = (column / 4) ^ (row % 8);
        block * tma::mn_block_bytes(32) + row * tma::SWIZZLE_ROW_BYTES + chunk * 16 + (column % 4) * 4
    };
    let k = 8 * kk + lane % 4;
    [at(k, first), at(k, first + 1), at(k + 4, first), at(k + 4, first + 1)]
}

/// The accumulators as the epilogue's m16n8 tiles (pairs side by side).
#[inline(always)]
fn mma_tiles<const LEN: usize, const NJ: usize>(acc: &[f32; LEN]) -> [[[[f32; 4]; 2]; NJ]; 1] {
    [core::array::from_fn(|nj| core::array::from_fn(|h| core::array::from_fn(|r| acc[(2 * nj + h) * 4 + r])))]
}

/// The stage ring in dynamic shared memory: stages of A then B tiles, the
/// staged C tile of the TMA stores (if the kernel has them), then the
/// "full" and "empty" barriers (`gemm_launch::tma`).
#[derive(Clone, Copy)]
struct Ring<const STAGES: usize> {
    a_bytes: u32,
    stage_bytes: u32,
    c_staging: u32,
    barriers: u32,
}

impl<const STAGES: usize> Ring<STAGES> {
    #[inline(always)]
    fn a(self, s: u32) -> u32 {
        smem_addr((s * self.stage_bytes) as usize)
    }
    #[inline(always)]
    fn b(self, s: u32) -> u32 {
        self.a(s) + self.a_bytes
    }
    /// Consumer warpgroup `consumer`'s `boxes` staged boxes of C.
    #[inline(always)]
    fn c_tile(self, consumer: usize, boxes: usize) -> u32 {
        smem_addr(self.c_staging as usize) + (consumer * boxes) as u32 * tma::C_BOX_BYTES
    }
    /// Completes when stage `s`'s copies have landed.
    #[inline(always)]
    fn full(self, s: u32) -> u32 {
        smem_addr(self.barriers as usize) + 8 * s
    }
    /// Completes when every consumer warp is done reading stage `s`.
    #[inline(always)]
    fn empty(self, s: u32) -> u32 {
        self.full(s) + 8 * STAGES as u32
    }
}

/// A place in the ring: the stage, and the parity of the barrier phase that
/// the stage's current use completes (it flips each time round the ring).
#[derive(Clone, Copy)]
struct Position<const STAGES: usize> {
    stage: u32,
    phase: u32,
}

impl<const STAGES: usize> Position<STAGES> {
    const START: Self = Position { stage: 0, phase: 0 };

    #[inline(always)]
    fn advance(&mut self) {
        self.stage += 1;
        if self.stage == STAGES as u32 {
            self.stage = 0;
            self.phase ^= 1;
        }
    }
}

/// What becomes of one piece of work's sums (stream-K's roles,
/// `gemm_launch::stream_k`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Every K slice of the tile: C is written as usual.
    Whole,
    /// Slices after the tile's first: the sums go to this block's slot of
    /// the workspace, for the block that holds the tile's head.
    Partial,
    /// The tile's first slices, not all of them: blocks `block + 1 ..=
    /// last` hold the rest, and their sums are added before C is written.
    Head { last: u32 },
}

/// One piece of a block's work: K slices `first..end` of the tile whose
/// first row and column are `row0`, `col0`.
#[derive(Clone, Copy)]
struct Work {
    row0: u32,
    col0: u32,
    first: u32,
    end: u32,
    role: Role,
}

/// The work of this block, in order (the producer and the consumers walk
/// the same list). With stream-K, first its range of the shared tiles'
/// slices (`gemm_launch::stream_k`), piece by piece; then whole tiles in
/// grouped order: tiles `shared + block`, `shared + block + grid`, …
/// (`shared` is 0 without stream-K). In clusters of `CLUSTER` blocks (no
/// stream-K), the clusters walk units of `CLUSTER` vertically adjacent
/// tiles the same way (`group_m` counted in tile rows, as without), and the
/// block of rank `r` takes the unit's `r`-th tile; past the last row of
/// tiles (an odd number of tile rows), that tile lies outside C: its loads
/// read zeros and its stores are dropped, and the block still brings its
/// share of B for the other.
/// A loop with `next`, not a closure: LLVM once left a closure body
/// outlined, its captures in a local-memory frame.
struct TileWalk<const BM: usize, const BN: usize, const CLUSTER: usize, const STREAM_K: bool> {
    units_m: u32,
    tiles_n: u32,
    group_m: u32,
    unit: u32,
    /// This block's rank in its cluster (clusters span the grid's x only).
    rank: u32,
    slices: u32,
    /// Stream-K: the next unit (tile · slices + slice) of this block's
    /// range, its end, and the units of all shared tiles.
    shared_next: u32,
    shared_end: u32,
    shared_units: u32,
}

impl<const BM: usize, const BN: usize, const CLUSTER: usize, const STREAM_K: bool> TileWalk<BM, BN, CLUSTER, STREAM_K> {
    /// `shared`: the tiles stream-K shares out (`stream_k::shared_tiles`).
    #[inline(always)]
    fn new<In, Out>(p: &Gemm<In, Out>, slices: u32, shared: u32) -> Self {
        let cluster = CLUSTER as u32;
        // (`stream_k::shared_tiles` keeps this within 32 bits.)
        let shared_units = shared * slices;
        let (shared_next, shared_end) =
            if STREAM_K { stream_k::unit_range(block_idx(), grid_dim(), shared_units) } else { (0, 0) };
        TileWalk {
            units_m: tiles(p.m, BM as u32 * cluster),
            tiles_n: tiles(p.n, BN as u32),
            group_m: (p.group_m / cluster).max(1),
            unit: shared + block_idx() / cluster,
            rank: if CLUSTER == 1 { 0 } else { cluster_rank() },
            slices,
            shared_next,
            shared_end,
            shared_units,
        }
    }

    /// The next piece of work, if any.
    #[inline(always)]
    fn next(&mut self) -> Option<Work> {
        if STREAM_K && self.shared_next < self.shared_end {
            // (`max(1)`: K ≥ 1, and no division-by-zero panic path.)
            let tile = self.shared_next / self.slices.max(1);
            let tile_start = tile * self.slices;
            let tile_end = tile_start + self.slices;
            let end = self.shared_end.min(tile_end);
            let (first, last) = (self.shared_next - tile_start, end - tile_start);
            let role = if first > 0 {
                Role::Partial
            } else if last == self.slices {
                Role::Whole
            } else {
                Role::Head { last: stream_k::owner(tile_end - 1, grid_dim(), self.shared_units) }
            };
            self.shared_next = end;
            let (row0, col0) = self.origin(tile);
            return Some(Work { row0, col0, first, end: last, role });
        }
        if self.unit >= self.units_m * self.tiles_n {
            return None;
        }
        let (row0, col0) = self.origin(self.unit);
        self.unit += grid_dim() / CLUSTER as u32;
        Some(Work { row0, col0, first: 0, end: self.slices, role: Role::Whole })
    }

    /// The first row and column of this block's tile of unit `unit`.
    #[inline(always)]
    fn origin(&self, unit: u32) -> (u32, u32) {
        let (unit_m, tile_n) = tile_coords(unit, self.units_m, self.tiles_n, self.group_m);
        ((unit_m * CLUSTER as u32 + self.rank) * BM as u32, tile_n * BN as u32)
    }
}

/// Where a stream-K launch keeps its partial sums and their flags: the two
/// addresses the host writes after the tensor maps
/// (`stream_k::ADDRESSES_OFFSET`); `None` where it gave no workspace (the
/// launch then runs data-parallel).
#[derive(Clone, Copy)]
struct Workspace {
    partials: *mut f32,
    flags: *mut u32,
}

impl Workspace {
    /// # Safety
    /// `p.tensor_maps` as the host built them for a stream-K kernel.
    #[inline(always)]
    unsafe fn of<In, Out>(p: &Gemm<In, Out>) -> Option<Self> {
        let addresses = (p.tensor_maps + stream_k::ADDRESSES_OFFSET) as *const u64;
        let (partials, flags) = unsafe { (*addresses, *addresses.add(1)) };
        if partials == 0 { None } else { Some(Workspace { partials: partials as *mut f32, flags: flags as *mut u32 }) }
    }

    /// Block `block`'s slot, for matrix `z` of the batch: `BM × BN` f32.
    #[inline(always)]
    fn slot<const BM: usize, const BN: usize>(self, block: u32, z: u32) -> *mut f32 {
        unsafe { self.partials.add(Self::index(block, z) * BM * BN) }
    }

    /// The flag of consumer warp `warp`'s share of that slot.
    #[inline(always)]
    fn flag(self, block: u32, z: u32, warp: usize, warps: usize) -> *mut u32 {
        unsafe { self.flags.add(Self::index(block, z) * warps + warp) }
    }

    /// Which slot is block `block`'s, for matrix `z`: the grid's blocks per
    /// matrix, matrix after matrix.
    #[inline(always)]
    fn index(block: u32, z: u32) -> usize {
        (stream_k::slots(grid_dim(), z) + block as u64) as usize
    }
}

/// The tiles stream-K shares out in this launch (0: none, or no
/// workspace), the same for the producer and the consumers.
///
/// # Safety
/// As [`Workspace::of`] when `STREAM_K`.
#[inline(always)]
unsafe fn shared_tiles<const BM: usize, const BN: usize, const STREAM_K: bool, In, Out>(
    p: &Gemm<In, Out>,
    slices: u32,
) -> u32 {
    if STREAM_K && unsafe { Workspace::of(p) }.is_some() {
        stream_k::shared_tiles(tiles(p.m, BM as u32) * tiles(p.n, BN as u32), slices, grid_dim())
    } else {
        0
    }
}

/// A consumer thread's accumulators into a workspace slot as they lie in
/// registers: 16 bytes per store, consecutive threads side by side
/// (`(j · threads + t) · 4`), so each warp writes 512 contiguous bytes.
/// The block adding them runs the same threads over the same fragments.
///
/// # Safety
/// `slot` must hold `LEN · threads` writable f32; `t < threads`.
#[inline(always)]
unsafe fn save_sums<const LEN: usize>(acc: &[f32; LEN], slot: *mut f32, t: usize, threads: usize) {
    for j in 0..LEN / 4 {
        let at = (j * threads + t) * 4;
        unsafe { store_global_x4(slot.add(at), [acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]]) };
    }
}

/// Adds what [`save_sums`] left in `slot` to the accumulators, four
/// 16-byte loads in flight at a time: one at a time, each waits out a
/// round trip to L2 (~0.4 µs), 13 µs for a 128×256 slot (ncu at 1536³:
/// stream-K 32 µs against 25 data-parallel, long-scoreboard stalls 2.3×).
///
/// # Safety
/// As [`save_sums`], readable.
#[inline(always)]
unsafe fn add_sums<const LEN: usize>(acc: &mut [f32; LEN], slot: *const f32, t: usize, threads: usize) {
    const IN_FLIGHT: usize = 4;
    for g in 0..LEN / (4 * IN_FLIGHT) {
        // Indexed, not `into_iter`: an array iterator left the accumulators
        // in local memory.
        let v: [[f32; 4]; IN_FLIGHT] =
            core::array::from_fn(|i| unsafe { load_global_x4(slot.add(((g * IN_FLIGHT + i) * threads + t) * 4)) });
        for i in 0..IN_FLIGHT {
            for r in 0..4 {
                acc[(g * IN_FLIGHT + i) * 4 + r] += v[i][r];
            }
        }
    }
}

/// A consumer warp is done reading a stage: one arrival on its "empty"
/// barrier in every block of the cluster, whose producers all write into
/// this block's copy of the stage (their shares of B).
#[inline(always)]
fn release<const CLUSTER: usize>(bar: u32) {
    if CLUSTER == 1 {
        mbarrier_arrive(bar);
    } else {
        for rank in 0..CLUSTER as u32 {
            mbarrier_arrive_cluster(cluster_address(bar, rank));
        }
    }
}

/// One TMA load of a box of B: into this block only, or, in a cluster,
/// multicast into every block of it.
///
/// # Safety
/// As [`tma_load_3d`] (and [`tma_load_3d_multicast`] in a cluster).
#[inline(always)]
unsafe fn load_b<const CLUSTER: usize>(dst: u32, map: u64, bar: u32, x: u32, y: u32, z: u32) {
    if CLUSTER == 1 {
        unsafe { tma_load_3d(dst, map, bar, x, y, z) }
    } else {
        unsafe { tma_load_3d_multicast(dst, map, bar, x, y, z, ((1u32 << CLUSTER) - 1) as u16) }
    }
}

/// The producer: for every slice of every tile, wait until its stage is
/// free, arm the stage's "full" barrier with the slice's bytes and issue
/// the TMA copies. A K-major tile is one box; an MN-major one a box per
/// swizzled row's worth of rows (64 16-bit elements, 32 f32). In a cluster, B's
/// copies are this block's share of the tile (`tma::b_share` columns),
/// multicast; the stage's other shares come from the other blocks, counted
/// on the same barrier.
///
/// # Safety
/// One thread of the block; `p.tensor_maps` as the host built them.
#[inline(always)]
unsafe fn produce<
    E: WsElement,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const STAGES: usize,
    const CLUSTER: usize,
    const STREAM_K: bool,
    const B_BY_RESIDUE: bool,
    const K_LAST: bool,
    const A_T: bool,
    const B_T: bool,
>(
    p: &Gemm<E::In, E::Out>,
    ring: Ring<STAGES>,
) {
    let z = block_idx_z();
    // A split's shorter last chunk (`K_LAST`, the f32-output twins): the
    // batch's last matrix reads A and B through maps whose K ends where
    // that chunk does, so its last slice's columns past it land as zeros
    // and it runs in the launch of the others (PERF.md step 105).
    let last_chunk = K_LAST && z + 1 == grid_dim_z();
    let maps = if last_chunk { p.tensor_maps + tma::LAST_CHUNK_MAPS_OFFSET } else { p.tensor_maps };
    let (map_a, map_b) = (maps, maps + 128);
    if p.fence_tensor_maps {
        fence_tensormap_acquire(map_a);
        fence_tensormap_acquire(map_b);
    }
    prefetch_tensormap(map_a);
    prefetch_tensormap(map_b);
    // Step 10h: B's maps of residues 1 to 3.
    let residue_map =
        |r: u32| if r == 0 { map_b } else { p.tensor_maps + tma::B_RESIDUE_MAPS_OFFSET + 128 * (r - 1) as u64 };
    if B_BY_RESIDUE {
        for r in 1..tma::B_ROW_RESIDUES {
            if p.fence_tensor_maps {
                fence_tensormap_acquire(residue_map(r));
            }
            prefetch_tensormap(residue_map(r));
        }
    }
    let slices = p.k.div_ceil(BK as u32);
    let block = tma::mn_block_bytes(BK as u32);
    let row = tma::row_elements(E::DTYPE);
    let mut at = Position::<STAGES>::START;
    let shared = unsafe { shared_tiles::<BM, BN, STREAM_K, _, _>(p, slices) };
    let mut walk = TileWalk::<BM, BN, CLUSTER, STREAM_K>::new(p, slices, shared);
    // This block's share of B: columns `b_col`.. of the tile, at `b_offset`
    // bytes into the stage's B tile.
    let b_share = tma::b_share(BN as u32, CLUSTER as u32);
    let b_col = walk.rank * b_share;
    let b_offset = if B_T { b_col * tma::SWIZZLE_ROW_BYTES } else { (b_col / row) * block };
    while let Some(Work { row0, col0, first, end, .. }) = walk.next() {
        // (Without stream-K, the loop-invariant bounds themselves: ptxas
        // then fits step 10d in its 96 registers.)
        let (first, end) = if STREAM_K { (first, end) } else { (0, slices) };
        for slice in first..end {
            let k0 = slice * BK as u32;
            mbarrier_wait(ring.empty(at.stage), at.phase ^ 1);
            let full = ring.full(at.stage);
            mbarrier_arrive_expect_tx(full, ring.stage_bytes);
            let (a, b) = (ring.a(at.stage), ring.b(at.stage));
            unsafe {
                if A_T {
                    for j in 0..(BM as u32 / row) {
                        tma_load_3d(a + j * block, map_a, full, row0 + j * row, k0, z);
                    }
                } else {
                    tma_load_3d(a, map_a, full, k0, row0, z);
                }
                let (b, col0) = (b + b_offset, col0 + b_col);
                if B_T {
                    load_b::<CLUSTER>(b, map_b, full, k0, col0, z);
                } else if B_BY_RESIDUE {
                    // Each box as four of `BK / 4` rows, one per residue, and
                    // a box more for the columns the rows' shifts push past
                    // the tile (`tma::b_tile_columns`).
                    let rows = BK as u32 / tma::B_ROW_RESIDUES;
                    for j in 0..(b_share / row + 1) {
                        for r in 0..tma::B_ROW_RESIDUES {
                            let (dst, x) = (b + j * block + r * rows * tma::SWIZZLE_ROW_BYTES, col0 + j * row);
                            tma_load_3d(dst, residue_map(r), full, x, k0 / tma::B_ROW_RESIDUES, z);
                        }
                    }
                } else {
                    for j in 0..(b_share / row) {
                        load_b::<CLUSTER>(b + j * block, map_b, full, col0 + j * row, k0, z);
                    }
                }
            }
            at.advance();
        }
    }
}

/// A consumer warpgroup: for every tile, multiply its 64 rows (swapped:
/// columns) over every
/// slice as each lands, keeping one `wgmma` group in flight and releasing
/// a stage once the group that read it has completed; then store C.
///
/// # Safety
/// All 128 threads of consumer warpgroup `consumer`.
#[inline(always)]
unsafe fn consume<
    E: WsElement,
    Acc: WarpgroupTile<E>,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const STAGES: usize,
    const C_BOXES: usize,
    const CLUSTER: usize,
    const BLOCKS_PER_SM: usize,
    const STREAM_K: bool,
    const B_BY_RESIDUE: bool,
    const A_T: bool,
    const B_T: bool,
>(
    p: &Gemm<E::In, E::Out>,
    ring: Ring<STAGES>,
    consumer: usize,
    warps: usize,
    t: usize,
) {
    let slices = p.k.div_ceil(BK as u32);
    // C goes out through the TMA when its rows are 16-byte aligned and end
    // on a 16-byte boundary (`Gemm::c_tma_storable`): the host built its map
    // then (and refuses the kernel for a batch whose matrices would not all
    // be so); else a one-block kernel stages C and writes its rows itself,
    // and a two-block one stores it from registers.
    // (An f32 C never does: TF32's staged box passes rows of it.)
    let tma_store = C_BOXES > 0 && core::mem::size_of::<E::Out>() == 2 && p.c_tma_storable();
    let map_c = p.tensor_maps + 2 * 128;
    let issuer = t.is_multiple_of(128);
    if tma_store && issuer {
        if p.fence_tensor_maps {
            fence_tensormap_acquire(map_c);
        }
        prefetch_tensormap(map_c);
    }
    let (warp, lane) = ((t / 32) % 4, t % 32);
    // This warpgroup's part of the tiles: 64 rows of A (64 K-major rows, or
    // one MN-major box) and all of B; swapped, all of A and 64 columns of B
    // (two MN-major boxes of TF32).
    let (a_part, b_part) = if swapped::<E>(B_T) {
        let boxes = 64 / tma::row_elements(E::DTYPE);
        (0, consumer as u32 * boxes * tma::mn_block_bytes(BK as u32))
    } else if A_T {
        (consumer as u32 * tma::mn_block_bytes(BK as u32), 0)
    } else {
        (consumer as u32 * 64 * BK as u32 * E::DTYPE.element_bytes(), 0)
    };
    // Step 10h: where this thread's B rows (residue `t % 4`, its `wgmma`
    // K column) lie shifted in shared memory.
    let b_shift = if B_BY_RESIDUE { tma::b_residue_shift(p.b as u64, p.ldb, (t % 4) as u32) } else { 0 };
    let mut at = Position::<STAGES>::START;
    let shared = unsafe { shared_tiles::<BM, BN, STREAM_K, _, _>(p, slices) };
    let mut walk = TileWalk::<BM, BN, CLUSTER, STREAM_K>::new(p, slices, shared);
    // Stream-K's partial sums: each consumer warp hands its share over
    // under a flag of its own (`Workspace::flag`).
    let threads = warps * 32;
    while let Some(Work { row0, col0, first, end, role }) = walk.next() {
        let (first, end) = if STREAM_K { (first, end) } else { (0, slices) };
        let mut acc = Acc::zero();
        let mut reading = at.stage;
        // `holding`: the fragments of the group in flight (the swapped
        // tiles'), or `None` where a slice reads none (step 10b's TF32
        // tiles would otherwise pass 16 zero registers to each wait).
        let mut slice_of = |slice: u32, acc: &mut Acc, holding: Option<&Acc::Fragments>| {
            mbarrier_wait(ring.full(at.stage), at.phase);
            let (a_tile, b_tile) = (ring.a(at.stage) + a_part, ring.b(at.stage) + b_part);
            let fragments = unsafe { acc.multiply::<BK, A_T, B_T, B_BY_RESIDUE>(a_tile, b_tile, t % 128, b_shift) };
            wgmma_commit();
            // The previous slice's group has completed: its stage is free.
            match holding {
                Some(fragments) => fragments.wait(1),
                None => wgmma_wait(1),
            }
            if slice > first && lane == 0 {
                release::<CLUSTER>(ring.empty(reading));
            }
            reading = at.stage;
            at.advance();
            fragments
        };
        if swapped::<E>(B_T) {
            // A slice's A fragments stay in their registers until its group
            // has completed, one slice later: the loop is unrolled by two,
            // so that each slice of a pair loads into registers of its own
            // (in a loop of one slice, the next slice's loads would write
            // the registers of the group still in flight), and each wait
            // names the registers of the group it waits for, so the
            // compiler keeps their values live until then.
            // (At least one slice: without stream-K, which the swapped
            // kernels do not use, every tile has all of K ≥ 1. A `while`
            // test here made ptxas serialize the `wgmma`s and spill.)
            let mut odd = Acc::Fragments::default();
            let mut slice = first;
            loop {
                let even = slice_of(slice, &mut acc, Some(&odd));
                slice += 1;
                if slice >= end {
                    even.wait(0);
                    break;
                }
                odd = slice_of(slice, &mut acc, Some(&even));
                slice += 1;
                if slice >= end {
                    odd.wait(0);
                    break;
                }
            }
        } else {
            for slice in first..end {
                slice_of(slice, &mut acc, None);
            }
            wgmma_wait(0);
        }
        // (Every piece has a slice, K ≥ 1, so it read at least one stage.)
        if end > first && lane == 0 {
            release::<CLUSTER>(ring.empty(reading));
        }
        // Read again here, not kept through the main loop: the 16-bit
        // 128×256 tiles have no register to spare.
        let workspace = if role == Role::Whole { None } else { unsafe { Workspace::of(p) } };
        if let Some(ws) = workspace {
            let (block, z) = (block_idx(), block_idx_z());
            match role {
                Role::Whole => {}
                Role::Partial => {
                    // Each thread's sums, then its fence, then the warp's flag.
                    unsafe { acc.save(ws.slot::<BM, BN>(block, z), t, threads) };
                    fence_gpu();
                    sync_warp();
                    if lane == 0 {
                        unsafe { store_relaxed_gpu(ws.flag(block, z, t / 32, warps), 1) };
                    }
                    continue;
                }
                Role::Head { last } => {
                    // In block order, whatever order they finished in.
                    for other in block + 1..=last {
                        let flag = ws.flag(other, z, t / 32, warps);
                        while unsafe { load_acquire_gpu(flag) } == 0 {}
                        unsafe { acc.add(ws.slot::<BM, BN>(other, z), t, threads) };
                        // Every lane has seen the flag: clear it for the next launch.
                        sync_warp();
                        if lane == 0 {
                            unsafe { store_relaxed_gpu(flag, 0) };
                        }
                    }
                }
            }
        }
        let out = Output { p, row0, col0, warp_row: consumer * 64 + warp * 16, warp_col: 0, lane };
        let staging = (ring.c_tile(consumer, C_BOXES), if tma_store { Some(map_c) } else { None });
        unsafe { acc.store::<BN, C_BOXES, BLOCKS_PER_SM, B_T>(&out, staging, consumer, t % 128) };
    }
    // The last stores must be done before the block (and its shared memory) goes.
    if tma_store && issuer {
        bulk_wait_group();
    }
}

/// # Safety
/// See the entry point; `p.tensor_maps` must be the maps the host built for
/// this call.
#[inline(always)]
unsafe fn ws_kernel<
    E: WsElement,
    Acc: WarpgroupTile<E>,
    const BM: usize,
    const BN: usize,
    const BK: usize,
    const THREADS: usize,
    const STAGES: usize,
    const C_BOXES: usize,
    const CLUSTER: usize,
    const BLOCKS_PER_SM: usize,
    const STREAM_K: bool,
    const B_BY_RESIDUE: bool,
    const K_LAST: bool,
    const A_T: bool,
    const B_T: bool,
>(
    p: Gemm<E::In, E::Out>,
) {
    // The producer: a warpgroup whose registers go to the consumers
    // (`setmaxnreg`), or, with two blocks per SM, one warp.
    let producer_threads = if BLOCKS_PER_SM == 1 { 128 } else { 32 };
    const {
        // A K slice is one 128-byte swizzled row.
        assert!(BK * E::DTYPE.element_bytes() as usize == 128);
        // A consumer warpgroup per 64 rows of the tile, each `wgmma` as wide
        // as the tile; swapped, per 64 columns, each as wide as it is high.
        let (split, across) = if swapped::<E>(B_T) { (BN, BM) } else { (BM, BN) };
        assert!(across == Acc::N && STAGES >= 2);
        assert!(THREADS == split / 64 * 128 + if BLOCKS_PER_SM == 1 { 128 } else { 32 });
        assert!(BLOCKS_PER_SM == 1 || BLOCKS_PER_SM == 2);
        assert!(BLOCKS_PER_SM == 2 || 128 * (PRODUCER_REGISTERS + (split / 64) as u32 * CONSUMER_REGISTERS) <= 65536);
        assert!(
            !B_BY_RESIDUE
                || 128 * (PRODUCER_REGISTERS_BY_RESIDUE + (split / 64) as u32 * CONSUMER_REGISTERS_BY_RESIDUE) <= 65536
        );
        // A block's share of B is whole boxes: `BN / CLUSTER` rows of a
        // K-major B in one box (at most 256, the TMA's limit) of whole
        // 8-row swizzle atoms; of an MN-major one, boxes of 64 columns.
        let share = BN / CLUSTER;
        assert!(CLUSTER >= 1 && BN.is_multiple_of(CLUSTER));
        assert!(if B_T { share.is_multiple_of(8) && share <= 256 } else { share.is_multiple_of(64) });
        // Stream-K's blocks walk single tiles.
        assert!(!STREAM_K || CLUSTER == 1);
        // A shorter last chunk's maps: the partial sums' plain tiles only.
        assert!(!K_LAST || (CLUSTER == 1 && !STREAM_K && !B_BY_RESIDUE));
        // Step 10h: a swapped TF32 tile's B, its slices 4 residues of 8 rows, in blocks of their own.
        assert!(!B_BY_RESIDUE || (swapped::<E>(B_T) && BK == 32 && CLUSTER == 1 && !STREAM_K));
        // C's staged boxes (0: C leaves from registers) are at most a
        // consumer's whole share.
        assert!(C_BOXES * tma::row_elements(E::DTYPE) as usize <= BN);
    };
    let (a_bytes, _) = gemm_launch::wgmma_tile_bytes(E::DTYPE, BM as u32, BN as u32, BK as u32);
    let b_columns = tma::b_tile_columns(E::DTYPE, BN as u32, B_BY_RESIDUE);
    let stage_bytes = tma::stage_bytes(E::DTYPE, BM as u32, b_columns, BK as u32);
    let c_staging = tma::c_staging_offset(stage_bytes, STAGES as u32);
    let consumers = (if swapped::<E>(B_T) { BN } else { BM }) / 64;
    let c_tile_bytes = tma::c_tile_bytes(consumers as u32, C_BOXES as u32);
    let barriers = tma::barriers_offset(stage_bytes, STAGES as u32, c_tile_bytes);
    let ring = Ring::<STAGES> { a_bytes, stage_bytes, c_staging, barriers };
    let consumer_threads = THREADS - producer_threads;
    let consumer_warps = (consumer_threads / 32) as u32;
    let t = thread_idx();
    // Launched without its clusters, the multicasts would write into blocks
    // that are not there: stop with an error instead.
    if CLUSTER > 1 && cluster_size() != CLUSTER as u32 {
        trap();
    }
    if t == 0 {
        for s in 0..STAGES as u32 {
            mbarrier_init(ring.full(s), 1);
            mbarrier_init(ring.empty(s), consumer_warps * CLUSTER as u32);
        }
        fence_mbarrier_init();
    }
    // In a cluster, no block may copy into or signal another's shared
    // memory before that block's barriers exist.
    if CLUSTER == 1 {
        sync_threads()
    } else {
        cluster_sync()
    }

    // The consumer warpgroups first (`wgmma` needs each warpgroup's warps
    // aligned), then the producer's warps.
    if t >= consumer_threads {
        if BLOCKS_PER_SM == 1 && B_BY_RESIDUE {
            setmaxnreg_dec::<PRODUCER_REGISTERS_BY_RESIDUE>();
        } else if BLOCKS_PER_SM == 1 {
            setmaxnreg_dec::<PRODUCER_REGISTERS>();
        }
        if t < consumer_threads + 32 && elect_one() {
            unsafe { produce::<E, BM, BN, BK, STAGES, CLUSTER, STREAM_K, B_BY_RESIDUE, K_LAST, A_T, B_T>(&p, ring) };
        }
    } else {
        if BLOCKS_PER_SM == 1 && B_BY_RESIDUE {
            setmaxnreg_inc::<CONSUMER_REGISTERS_BY_RESIDUE>();
        } else if BLOCKS_PER_SM == 1 {
            setmaxnreg_inc::<CONSUMER_REGISTERS>();
        }
        unsafe {
            consume::<E, Acc, BM, BN, BK, STAGES, C_BOXES, CLUSTER, BLOCKS_PER_SM, STREAM_K, B_BY_RESIDUE, A_T, B_T>(
                &p,
                ring,
                t / 128,
                consumer_warps as usize,
                t,
            )
        };
    }
    // Nor leave while the others may still signal this block's barriers.
    if CLUSTER > 1 {
        cluster_sync();
    }
}

kernel_entries!(warp_specialized ws_kernel<F16, [f32; 128]>, hgemm_ws_128x256x64, gemm_launch::WS_F16_128X256X64, any);
kernel_entries!(warp_specialized ws_kernel<Bf16, [f32; 128]>, bgemm_ws_128x256x64, gemm_launch::WS_BF16_128X256X64, any);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 64]>, hgemm_ws_128x128x64, gemm_launch::WS_F16_128X128X64, any);
kernel_entries!(warp_specialized ws_kernel<Bf16, [f32; 64]>, bgemm_ws_128x128x64, gemm_launch::WS_BF16_128X128X64, any);
kernel_entries!(warp_specialized ws_kernel<F32Out<F16>, [f32; 64]>, hgemm_ws_128x128x64_f32out, gemm_launch::WS_F16_128X128X64_F32OUT, any);
kernel_entries!(warp_specialized ws_kernel<F32Out<Bf16>, [f32; 64]>, bgemm_ws_128x128x64_f32out, gemm_launch::WS_BF16_128X128X64_F32OUT, any);
kernel_entries!(warp_specialized ws_kernel<F32Out<F16>, [f32; 96]>, hgemm_ws_128x192x64_f32out, gemm_launch::WS_F16_128X192X64_F32OUT, any);
kernel_entries!(warp_specialized ws_kernel<F32Out<Bf16>, [f32; 96]>, bgemm_ws_128x192x64_f32out, gemm_launch::WS_BF16_128X192X64_F32OUT, any);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 128]>, hgemm_ablate_ws_one_tile, gemm_launch::ABLATE_F16_WS_ONE_TILE, row_major);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 128]>, hgemm_ablate_ws_4_stages, gemm_launch::ABLATE_F16_WS_4_STAGES, row_major);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 128]>, hgemm_ablate_ws_direct_epilogue, gemm_launch::ABLATE_F16_WS_DIRECT_EPILOGUE, row_major);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 128]>, tgemm_ws_128x256x32, gemm_launch::WS_TF32_128X256X32, k_major);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 64]>, tgemm_ws_128x128x32, gemm_launch::WS_TF32_128X128X32, k_major);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 96]>, hgemm_ws_128x192x64, gemm_launch::WS_F16_128X192X64, any);
kernel_entries!(warp_specialized ws_kernel<Bf16, [f32; 96]>, bgemm_ws_128x192x64, gemm_launch::WS_BF16_128X192X64, any);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 96]>, tgemm_ws_128x192x32, gemm_launch::WS_TF32_128X192X32, k_major);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 128]>, tgemm_ws_256x128x32_rs, gemm_launch::WS_TF32_256X128X32_RS, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 64]>, tgemm_ws_128x128x32_rs, gemm_launch::WS_TF32_128X128X32_RS, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 8]>, tgemm_ws_16x128x32_rs, gemm_launch::WS_TF32_16X128X32_RS, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Swapped<F16>, [f32; 8]>, hgemm_ws_16x128x64_rs, gemm_launch::WS_F16_16X128X64_RS, row_major);
kernel_entries!(warp_specialized ws_kernel<Swapped<Bf16>, [f32; 8]>, bgemm_ws_16x128x64_rs, gemm_launch::WS_BF16_16X128X64_RS, row_major);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 128]>, tgemm_ws_256x128x32_rs_cu, gemm_launch::WS_TF32_256X128X32_RS_CU, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 64]>, tgemm_ws_128x128x32_rs_cu, gemm_launch::WS_TF32_128X128X32_RS_CU, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 64]>, tgemm_ws_128x128x32_rs_bu, gemm_launch::WS_TF32_128X128X32_RS_BU, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 8]>, tgemm_ws_16x128x32_rs_bu, gemm_launch::WS_TF32_16X128X32_RS_BU, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 16]>, tgemm_ws_32x128x32_rs, gemm_launch::WS_TF32_32X128X32_RS, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 16]>, tgemm_ws_32x128x32_rs_bu, gemm_launch::WS_TF32_32X128X32_RS_BU, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 32]>, tgemm_ws_64x128x32_rs, gemm_launch::WS_TF32_64X128X32_RS, n_major_b);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 32]>, tgemm_ws_64x128x32_rs_bu, gemm_launch::WS_TF32_64X128X32_RS_BU, n_major_b);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 32]>, hgemm_ws_128x64x64, gemm_launch::WS_F16_128X64X64, any);
kernel_entries!(warp_specialized ws_kernel<Bf16, [f32; 32]>, bgemm_ws_128x64x64, gemm_launch::WS_BF16_128X64X64, any);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 32]>, tgemm_ws_128x64x32, gemm_launch::WS_TF32_128X64X32, k_major);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 8]>, tgemm_ws_128x16x32, gemm_launch::WS_TF32_128X16X32, k_major);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 8]>, tgemm_ws_64x16x32, gemm_launch::WS_TF32_64X16X32, k_major);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 128]>, hgemm_ws_128x256x64_c2, gemm_launch::WS_F16_128X256X64_C2, any);
kernel_entries!(warp_specialized ws_kernel<Bf16, [f32; 128]>, bgemm_ws_128x256x64_c2, gemm_launch::WS_BF16_128X256X64_C2, any);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 128]>, tgemm_ws_128x256x32_c2, gemm_launch::WS_TF32_128X256X32_C2, k_major);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 64]>, hgemm_ws_128x128x64_2cta, gemm_launch::WS_F16_128X128X64_2CTA, any);
kernel_entries!(warp_specialized ws_kernel<Bf16, [f32; 64]>, bgemm_ws_128x128x64_2cta, gemm_launch::WS_BF16_128X128X64_2CTA, any);
kernel_entries!(warp_specialized ws_kernel<F16, [f32; 128]>, hgemm_ws_128x256x64_sk, gemm_launch::WS_F16_128X256X64_SK, any);
kernel_entries!(warp_specialized ws_kernel<Bf16, [f32; 128]>, bgemm_ws_128x256x64_sk, gemm_launch::WS_BF16_128X256X64_SK, any);
kernel_entries!(warp_specialized ws_kernel<Tf32, [f32; 128]>, tgemm_ws_128x256x32_sk, gemm_launch::WS_TF32_128X256X32_SK, k_major);
