//! CPU tests of split-K and of the K-dependent accuracy bound: the rule
//! (`gemm_launch::split_k`), the partial launches (every chunk of every
//! matrix of a batch computed exactly once, into its own slab), and the bound
//! of `gemm` and the tests, which passes a correct f32 sum at deep K and
//! fails a wrong one.

use gemm_launch::split_k::{
    AUTO_WORKSPACE_CAP_BYTES, CHUNK_DEEP, CHUNK_FEW_TILES, CHUNK_SHORT_K, EPILOGUE_FAN_IN, EXACT_SPLIT_MAX_EXTRA_K,
    F32_OUTPUT_TWINS, FEW_TILES_FULL_QUARTERS, FEW_TILES_WAVES, MAX_SPLITS, MEMORY_BOUND_F32_OUTPUT_TWINS,
    REDUCE_FAN_IN, REDUCE_THREADS, ReduceRole, SAME_TILE_TWINS, SHORT_K_MAX_QUARTERS, SHORT_K_MIN,
    SHORT_K_MIN_QUARTERS, SLOWER_PARTIALS_MIN_QUARTERS, Split, SplitCall, SplitError, SplitK, TMA_BYTES_IN_FLIGHT,
    TMA_F32_OUTPUT_TWINS, TMA_REMAINDER_MAX_QUARTERS, TWO_LEVEL_COLUMNS, combine_groups, epilogue_for,
    epilogue_geometry, epilogue_smem_bytes, exact_chunk, exact_chunk_fewer, few_tiles_target, partials_kernel,
    plan_split, ragged_chunk, reduce_geometry, slab_elements, streaming_blocks_per_sm, tma_block_bytes_in_flight,
    tma_chunk_granule, two_level_epilogue, wants_occupancy, whole_rounds_chunk, workspace_bytes, writes_f32,
};
use gemm_launch::{
    Algorithm, DB_64X64X16, DB_128X64X16, DB_256X128X8, Features, KernelSpec, MMA_BF16_128X128X32_W32X64_F32OUT,
    MMA_F16_128X128X32, MMA_F16_128X128X32_W32X64_F32OUT, MMA_TF32_128X128X32, OperandLayout, WGMMA_BF16_128X256X64,
    WS_F16_128X128X64_F32OUT, WS_F16_128X192X64_F32OUT, WS_F16_128X256X64, WS_TF32_128X128X32, WT_256X128X8,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rgemm::GemmError;
use rgemm::api::{Batch, GemmOptions, MatrixDesc, plan};
use rgemm::kernels::{Dtype, DtypeExt};
use rgemm::matrix::Matrix;
use rgemm::reference::Reference;
use rgemm::split_k::{partial_launches, split_for};

const SMS: u32 = 132;

#[test]
fn the_rule_splits_deep_k_and_few_tiles_only() {
    let call = |m, n, k, tiles, dtype| SplitCall {
        m,
        n,
        k,
        batch: 1,
        tiles,
        multiprocessors: SMS,
        dtype,
        tma_bytes_in_flight: None,
        blocks_per_sm: 0,
        modeled_tile: None,
        accuracy_chunk_scale: 1,
        streaming_blocks_per_sm: 0,
        few_tiles_waves: FEW_TILES_WAVES,
        last_chunk_in_launch: false,
    };
    let auto_of = |m, n, k, tiles, dtype| plan_split(SplitK::Auto, &call(m, n, k, tiles, dtype)).unwrap();
    let auto = |m, n, k, tiles| auto_of(m, n, k, tiles, Dtype::F32);
    // The seeds' shape fills the GPU and is not deep: unchanged.
    assert_eq!(auto(8192, 4096, 6144, DB_256X128X8.grid(8192, 4096)), None);
    // Shallow K never splits, however few the tiles.
    assert_eq!(auto(64, 64, 2047, 1), None);
    // Few tiles and K ≥ 2048: chunks (counted in multiples of 512) for two
    // waves of blocks: 16 tiles want 17 chunks, of 241 → 512.
    assert_eq!((FEW_TILES_WAVES, CHUNK_FEW_TILES), (2, 512));
    assert_eq!(auto(256, 256, 4096, DB_64X64X16.grid(256, 256)), Some(Split { chunk: 512, splits: 8 }));
    // 16-bit deep K with few tiles: as few chunks as two waves need, not
    // chunks of 256 (which wrote as many bytes of slabs as A and B hold);
    // of the counts near that, one that divides K (64 chunks of 2048; 118
    // of 2560 would leave a last of 480, 120 of 2500 leave none).
    for dtype in [Dtype::F16, Dtype::Bf16, Dtype::Tf32] {
        let tiles = MMA_F16_128X128X32_W32X64_F32OUT.grid(256, 256);
        assert_eq!(auto_of(256, 256, 131_072, tiles, dtype), Some(Split { chunk: 2048, splits: 64 }));
        let granule = if dtype == Dtype::Tf32 { 4 } else { 8 };
        let chunk = if granule == 4 { 2500 } else { 2400 };
        assert_eq!(auto_of(64, 192, 300_000, 2, dtype), Some(Split::of(300_000, chunk)), "{dtype:?}");
    }
    // Three quarters of a wave fill the GPU for a kernel of one block per
    // multiprocessor: 2048³ f32 on 256×128 tiles (128 of 132) is not split;
    // 98 tiles still are, and so are 128 tiles of a kernel with room for
    // more blocks: 3 chunks wanted, 4 of 1024 divide K.
    assert_eq!(FEW_TILES_FULL_QUARTERS, 3);
    let one_per_sm = |k, tiles| {
        plan_split(SplitK::Auto, &SplitCall { blocks_per_sm: 1, ..call(2048, 2048, k, tiles, Dtype::F32) }).unwrap()
    };
    assert_eq!(one_per_sm(2048, WT_256X128X8.grid(2048, 2048)), None);
    assert_eq!(one_per_sm(4096, 99), None);
    assert_eq!(one_per_sm(4096, 98), Some(Split { chunk: 1024, splits: 4 }));
    assert_eq!(auto(2048, 2048, 4096, 128), Some(Split { chunk: 1024, splits: 4 }));
    // Many tiles and K ≤ 8192: no split.
    assert_eq!(auto(4096, 4096, 8192, DB_256X128X8.grid(4096, 4096)), None);
    // f32 deep K with few tiles: two waves' chunks, but none longer than
    // the accuracy split's: 300 chunks of 1000 make 300000 (PERF step 55:
    // 82.5% of cuBLAS at 64×192, where 292 of 1024 and a last of 992 ran
    // at 71%); 300001 has no such split: 294 chunks of 1020 and a last of 121.
    assert_eq!(auto(64, 192, 300_000, 3), Some(Split { chunk: 1000, splits: 300 }));
    assert_eq!(auto(7, 5, 300_001, 1), Some(Split { chunk: 1020, splits: 295 }));
    assert_eq!(auto(128, 128, 65536, 4), Some(Split { chunk: 1024, splits: 64 }));
    assert_eq!(auto(128, 128, 4096, 4), Some(Split { chunk: 512, splits: 8 }));
    // One tile of 16-bit: 264 chunks wanted, of 249 → 512 (measured best).
    assert_eq!(auto_of(128, 128, 65536, 1, Dtype::F16), Some(Split { chunk: 512, splits: 128 }));
    // TF32 `mma.sync` 64×192 at 64×192×300000: 196 chunks wanted, 200 of
    // 1500 divide K (82% of cuBLAS, where 195 of 1536 and a last of 480
    // ran at 72%).
    assert_eq!(auto_of(64, 192, 300_000, 1, Dtype::Tf32), Some(Split { chunk: 1500, splits: 200 }));
    // Partials on a TMA kernel (16-bit): enough blocks for 12 MiB on the
    // way from memory, at most one wave (PERF step 55).
    assert_eq!(
        (few_tiles_target(SMS, Some(TMA_BYTES_IN_FLIGHT / 64), 1, 1), few_tiles_target(SMS, None, 1, FEW_TILES_WAVES)),
        (64, 264)
    );
    assert_eq!(few_tiles_target(SMS, Some(1), 2, 1), SMS as u64, "never more than a wave");
    // A memory-bound kernel of two blocks per SM: two waves of two blocks
    // (PERF.md step 90). TF32 1000×16×100000 on `skinny_r16_2cta` (32
    // blocks of 32 rows): 20 chunks of 5000 (640 blocks), where two waves
    // of one block gave 10 of 10000; since step 95 trimmed to the two
    // whole rounds of 264 slots under them: 16 chunks of 6252 (512
    // blocks; of one block per SM, 8 of 12500: 256 of 2 × 132).
    assert_eq!(few_tiles_target(SMS, None, 2, FEW_TILES_WAVES), 528);
    let streaming = |per_sm| SplitCall { streaming_blocks_per_sm: per_sm, ..call(1000, 16, 100_000, 32, Dtype::Tf32) };
    assert_eq!(plan_split(SplitK::Auto, &streaming(2)).unwrap(), Some(Split::of(100_000, 6252)));
    assert_eq!(Split::of(100_000, 6252).splits, 16);
    assert_eq!(plan_split(SplitK::Auto, &streaming(1)).unwrap(), Some(Split { chunk: 12500, splits: 8 }));
    // Whole rounds (step 95): blocks under half a round past them are
    // trimmed (TF32 1000×16×9000: 9 chunks of 1000, 288 blocks → 8 of
    // 1128, the last 1104); a last round over half full stays (22 blocks
    // in 20 chunks: 440, 1.67 rounds), and so do chunks over `longest`.
    assert_eq!(whole_rounds_chunk(9000, 1000, 32, 264, 4, 9000), 1128);
    assert_eq!(whole_rounds_chunk(20_000, 1000, 22, 264, 4, 20_000), 1000);
    assert_eq!(whole_rounds_chunk(20_000, 2000, 32, 264, 4, 20_000), 2500);
    assert_eq!(whole_rounds_chunk(20_000, 2000, 32, 264, 4, 2048), 2000, "2500 over longest");
    assert_eq!(whole_rounds_chunk(4096, 512, 32, 264, 4, 4096), 512, "256 blocks: under one round");
    assert_eq!(whole_rounds_chunk(8192, 1024, 63, 264, 4, 8192), 1024, "504 blocks: 1.9 rounds");
    assert_eq!(whole_rounds_chunk(12_000, 1000, 33, 264, 4, 12_000), 1000, "396 blocks: exactly half a round past");
    assert_eq!(whole_rounds_chunk(9000, 1000, 34, 264, 4, 9000), 1288, "306 blocks: 7 chunks, the last 1272");
    // Rounding up to the granule may take one chunk fewer than the rounds
    // hold (264 wanted, 263 of 1144): never more.
    assert_eq!(whole_rounds_chunk(300_001, 1016, 1, 264, 8, 300_001), 1144);
    assert_eq!(Split::of(300_001, 1144).splits, 263);
    // Which kernels stream so: the memory-bound ones, at the blocks they are
    // built for or the driver's occupancy where lower, but not the "dot"
    // pattern (a chunk scale above 1); no other kernel.
    use gemm_launch::memory_bound::{SKINNY_F32_R1, SKINNY_F32_R16, SKINNY_TF32_R16_2CTA};
    assert_eq!(
        [streaming_blocks_per_sm(&SKINNY_TF32_R16_2CTA, 1, 0), streaming_blocks_per_sm(&SKINNY_TF32_R16_2CTA, 1, 1)],
        [2, 1]
    );
    assert_eq!(
        [streaming_blocks_per_sm(&SKINNY_F32_R16, 1, 4), streaming_blocks_per_sm(&SKINNY_F32_R1, 256, 2)],
        [1, 0]
    );
    assert_eq!(streaming_blocks_per_sm(&gemm_launch::WT_64X64X8, 1, 5), 0);
    let tma = |spec: &KernelSpec, m, n, k| {
        let call = SplitCall {
            tiles: spec.grid(m, n),
            dtype: spec.dtype,
            tma_bytes_in_flight: Some(tma_block_bytes_in_flight(spec, m, n)),
            last_chunk_in_launch: spec.takes_k_last(),
            ..call(m, n, k, 0, Dtype::F16)
        };
        plan_split(SplitK::Auto, &call).unwrap()
    };
    // The same kernels were their last chunk a launch of its own, as on
    // TF32's TMA partials (the rule before PERF step 105).
    let tma_apart = |spec: &KernelSpec, m, n, k| {
        let call = SplitCall {
            tiles: spec.grid(m, n),
            dtype: spec.dtype,
            tma_bytes_in_flight: Some(tma_block_bytes_in_flight(spec, m, n)),
            ..call(m, n, k, 0, Dtype::F16)
        };
        plan_split(SplitK::Auto, &call).unwrap()
    };
    let (square, wide) = (&WS_F16_128X128X64_F32OUT, &WS_F16_128X192X64_F32OUT);
    assert!(square.takes_k_last() && wide.takes_k_last() && !gemm_launch::WS_TF32_128X128X32_RS.takes_k_last());
    // One tile of 128×128: 6 stages of 32 KiB a block, 64 blocks.
    assert_eq!(tma_block_bytes_in_flight(square, 128, 128), 6 * (32 << 10));
    assert_eq!(tma(square, 128, 128, 65536), Some(Split { chunk: 1024, splits: 64 }));
    // 64×192 on 128×192: A's 64 rows and B's 192 columns, 5 stages: 77
    // blocks, 77 chunks of 3904 (61 K slices; the last 3296); with the
    // last chunk apart, the exact 75 of 4000.
    assert_eq!(tma(wide, 64, 192, 300_000), Some(Split::of(300_000, 3904)));
    assert_eq!(tma_apart(wide, 64, 192, 300_000), Some(Split { chunk: 4000, splits: 75 }));
    // 3×3 tiles share each slice three ways: a wave wanted, 14 chunks of
    // 7168; apart, 10 chunks of 10000, the nearest exact split within it
    // (91% of cuBLAS, where 7 of 12800 and a last of 10400, that one a
    // launch of its own, ran at 54%). H200 (PERF step 105): 0.066 → 0.057 ms.
    assert_eq!(tma(square, 384, 384, 100_000), Some(Split::of(100_000, 7168)));
    assert_eq!(tma_apart(square, 384, 384, 100_000), Some(Split { chunk: 10_000, splits: 10 }));
    // 2×2 tiles: 32 chunks of 3136 (49 slices), not the exact 25 of 4000
    // (0.045 → 0.042 ms).
    assert_eq!(tma(square, 200, 200, 100_000), Some(Split::of(100_000, 3136)));
    assert_eq!(tma_apart(square, 200, 200, 100_000), Some(Split { chunk: 4000, splits: 25 }));
    // Where K is a whole number of slices per chunk, the same split either way.
    assert_eq!(tma(square, 256, 256, 131_072), tma_apart(square, 256, 256, 131_072));
    // One row of 24 tiles: A from L2, B from memory: 124 blocks, 5 chunks
    // of 63 slices (apart: exact, of 4000).
    assert_eq!(tma(square, 100, 3000, 20_000), Some(Split::of(20_000, 4032)));
    assert_eq!(tma_apart(square, 100, 3000, 20_000), Some(Split { chunk: 4000, splits: 5 }));
    assert_eq!(tma(square, 1000, 128, 30_000), Some(Split::of(30_000, 2048)));
    assert_eq!(tma_apart(square, 1000, 128, 30_000), Some(Split { chunk: 2000, splits: 15 }));
    assert_eq!(tma(square, 256, 256, 131_072), Some(Split { chunk: 4096, splits: 32 }));
    // 90 tiles: two chunks would be more blocks than a wave, so none.
    assert_eq!(tma(square, 1152, 1280, 65536), None);
    // K with no exact split near the count: equal chunks and a short last.
    // Past DEEP_K, where the last runs in the launch of the others, whole K
    // slices, and no more blocks than a wave (apart, the rule counted the
    // full chunks only: 15 chunks of 9 tiles are 135 blocks).
    assert_eq!(tma_chunk_granule(Dtype::F16), 64);
    assert_eq!(tma(square, 384, 384, 100_003), Some(Split::of(100_003, 7168)));
    assert_eq!(tma_apart(square, 384, 384, 100_003), Some(Split::of(100_003, 7136)));
    // Unless an exact split of fewer chunks, each at most
    // EXACT_SPLIT_MAX_EXTRA_K longer, exists: 36 tiles want 3.7 chunks of
    // 4096, and 2 of 2048 run faster than 3 of 1360 and a last of 16 (PERF
    // step 64); at K = 65536 the 2 of 32768 would be 10923 longer.
    assert_eq!(EXACT_SPLIT_MAX_EXTRA_K, 1024);
    assert_eq!(tma(square, 768, 768, 4096), Some(Split { chunk: 2048, splits: 2 }));
    // Up to DEEP_K with no exact split near: equal chunks and a shorter last
    // that, in the launch of the others, counts among its blocks (10 tiles:
    // 13 chunks, not 14 for 140 blocks, past a wave of 132).
    let ten_tiles = tma(square, 176, 520, 7033).unwrap();
    assert_eq!(square.grid(176, 520), 10);
    assert!(ten_tiles.remainder(7033) > 0 && ten_tiles.splits == 13, "{ten_tiles:?}");
    assert_eq!(tma_apart(square, 176, 520, 7033).map(|s| s.splits), Some(14));
    assert_eq!(tma_apart(square, 768, 768, 65536), Some(Split::of(65536, 21840)));
    // (In the launch of the others, past DEEP_K, the 3 chunks its blocks
    // want, whole slices, the last shorter.)
    assert_eq!(tma(square, 768, 768, 65536), Some(Split::of(65536, 21888)));
    // No exact split, a quarter of a wave of tiles (56) and K ≤ DEEP_K: no
    // split; deeper K keeps the short last chunk.
    assert_eq!(TMA_REMAINDER_MAX_QUARTERS, 1);
    assert_eq!(tma(square, 777, 999, 3333), None);
    assert_eq!(tma_apart(square, 777, 999, 33333), Some(Split::of(33333, 16664)));
    assert_eq!(tma(square, 777, 999, 33333), Some(Split::of(33333, 16704)));
    assert_eq!(tma(square, 512, 512, 4095), Some(Split::of(4095, 512)), "16 tiles keep the short last chunk");
    assert_eq!(exact_chunk_fewer(4096, 8, (512, 3000), |splits| splits <= 3), Some(2048));
    assert_eq!(exact_chunk_fewer(4096, 8, (512, 2000), |splits| splits <= 3), None, "2048 is too long");
    assert_eq!(exact_chunk_fewer(3333, 8, (1, 3333), |_| true), None, "no multiple of 8 divides 3333");
    assert_eq!(exact_chunk_fewer(96, 8, (8, 96), |_| true), Some(8), "the most chunks");
    // The ragged split: at most the nominal count (rounded up), as many as
    // allowed, chunks a multiple of the granule, the last shorter; none
    // under two.
    assert_eq!(ragged_chunk(100_000, 32.0, 8, (512, 100_000), |_| true), 3128);
    assert_eq!(ragged_chunk(100_000, 31.2, 8, (512, 100_000), |_| true), 3128);
    assert_eq!(ragged_chunk(100_000, 32.0, 8, (512, 100_000), |splits| splits <= 30), 3336);
    assert_eq!(ragged_chunk(1000, 8.0, 8, (512, 1000), |_| true), 512, "no chunk under 512: two, the last 488");
    assert_eq!(ragged_chunk(1000, 8.0, 8, (512, 1000), |splits| splits < 2), 1000, "no split");
    // The exact split: nearest by ratio, the fewer chunks on a tie; none
    // outside 1.5× of the count or refused.
    assert_eq!(exact_chunk(12, 3.0, 1, (1, 12), |_| true), Some(4));
    assert_eq!(exact_chunk(1 << 20, 3.0, 1, (1, 1 << 20), |_| true), Some(1 << 18), "4 chunks, not 2");
    assert_eq!(exact_chunk(4096, 3.0, 1, (1, 4096), |splits| splits != 4), Some(2048));
    assert_eq!(exact_chunk(7 * 11, 3.0, 1, (1, 77), |_| true), None);
    // Deep K on a full GPU: chunks from 1024, doubled until the slabs fit in
    // the cap (4096×4096 f32 is 64 MiB a slab: four of them).
    let big = auto(4096, 4096, 16384, DB_256X128X8.grid(4096, 4096)).unwrap();
    assert_eq!(big, Split { chunk: 4096, splits: 4 });
    assert!(big.chunk >= CHUNK_DEEP && workspace_bytes(big, 4096, 4096, 1) <= AUTO_WORKSPACE_CAP_BYTES);
    // Only f32 splits for accuracy: its inputs are exact, TF32's and 16-bit's
    // are rounded far more than a K-long f32 sum.
    for dtype in [Dtype::F16, Dtype::Bf16, Dtype::Tf32] {
        assert_eq!(auto_of(4096, 4096, 16384, DB_256X128X8.grid(4096, 4096), dtype), None);
    }
    // An output too large for two slabs in the cap is not split.
    assert_eq!(auto(16384, 16384, 65536, DB_256X128X8.grid(16384, 16384)), None);
    // A batch counts its tiles: 200 matrices of one tile fill 132 SMs.
    let batch_of_200 = SplitCall { batch: 200, ..call(64, 64, 4096, 1, Dtype::F32) };
    assert_eq!(plan_split(SplitK::Auto, &batch_of_200).unwrap(), None);
    // Every Auto split respects the limits, for shapes up to K = 10⁶.
    let limits = [(1, 1, 1_000_000), (1, 4096, 1_000_000), (2048, 2048, 1_000_000), (3, 9000, 9000)];
    for ((m, n, k), dtype) in limits.into_iter().flat_map(|shape| Dtype::ALL.map(|dtype| (shape, dtype))) {
        if let Some(s) = auto_of(m, n, k, 1, dtype) {
            assert!(s.splits >= 2 && s.splits <= MAX_SPLITS && s.chunk < k, "{m}×{n}×{k}: {s:?}");
            assert_eq!(s.splits, k.div_ceil(s.chunk));
            assert!(workspace_bytes(s, m, n, 1) <= AUTO_WORKSPACE_CAP_BYTES, "{m}×{n}×{k}: {s:?}");
        }
    }
}

#[test]
fn short_k_splits_fill_the_kernels_block_slots() {
    let call = |m: u32, k, spec: &KernelSpec, blocks_per_sm| SplitCall {
        m,
        n: m,
        k,
        batch: 1,
        tiles: spec.grid(m, m),
        multiprocessors: SMS,
        dtype: spec.dtype,
        tma_bytes_in_flight: None,
        blocks_per_sm,
        modeled_tile: None,
        accuracy_chunk_scale: 1,
        streaming_blocks_per_sm: 0,
        few_tiles_waves: FEW_TILES_WAVES,
        last_chunk_in_launch: false,
    };
    let auto = |m, k, spec, blocks_per_sm| plan_split(SplitK::Auto, &call(m, k, spec, blocks_per_sm)).unwrap();
    assert_eq!((SHORT_K_MIN, CHUNK_SHORT_K, SHORT_K_MIN_QUARTERS, SHORT_K_MAX_QUARTERS), (512, 128, 1, 6));
    // H100 (PERF.md step 61): `db_64x64x16` holds 4 blocks per SM (528
    // slots). 512³: 64 tiles, chunks of 128 at the shortest: 4.
    assert_eq!(auto(512, 512, &DB_64X64X16, 4), Some(Split { chunk: 128, splits: 4 }));
    // 640³: 100 tiles, 5 chunks of 128 (500 blocks).
    assert_eq!(auto(640, 640, &DB_64X64X16, 4), Some(Split { chunk: 128, splits: 5 }));
    // 768³: 144 tiles, 3 chunks fill 432 of the 528 slots; 4 would not fit.
    assert_eq!(auto(768, 768, &DB_64X64X16, 4), Some(Split { chunk: 256, splits: 3 }));
    // 1024³ on `db_128x64x16` (2 per SM): 128 tiles, 2 chunks.
    assert_eq!(auto(1024, 1024, &DB_128X64X16, 2), Some(Split { chunk: 512, splits: 2 }));
    // ... but `db_64x64x16`'s 256 tiles there already give each SM about two
    // blocks (6 quarters of a wave and more): unsplit.
    assert_eq!(auto(1024, 1024, &DB_64X64X16, 4), None);
    // One block per SM and tiles for more than half the SMs: nothing to fill.
    assert_eq!(auto(2048, 1024, &WT_256X128X8, 1), None);
    // Not asked (0 slots), K under 512, small calls (16 tiles at 256³), and
    // K from 2048 (the few-tiles rule's) are not short-K splits.
    assert_eq!(auto(768, 768, &DB_64X64X16, 0), None);
    assert_eq!(auto(768, 511, &DB_64X64X16, 4), None);
    assert_eq!(auto(256, 1024, &DB_64X64X16, 4), None);
    assert_eq!(auto(768, 2048, &DB_64X64X16, 4), plan_split(SplitK::Auto, &call(768, 2048, &DB_64X64X16, 0)).unwrap());
    // Chunks that make up K exactly or none: 997 is prime.
    assert_eq!(auto(768, 997, &DB_64X64X16, 4), None);
    // Only f32: TF32 on `mma.sync` with the same counts is not split.
    let tf32 = SplitCall { dtype: Dtype::Tf32, ..call(768, 768, &DB_64X64X16, 4) };
    assert_eq!(plan_split(SplitK::Auto, &tf32).unwrap(), None);
    // A batch counts its tiles: 8 matrices of 16 tiles are 128 blocks.
    let batch = SplitCall { batch: 8, ..call(256, 1024, &DB_64X64X16, 4) };
    assert_eq!(plan_split(SplitK::Auto, &batch).unwrap(), Some(Split { chunk: 256, splits: 4 }));
    // The host asks the driver for the occupancy of exactly these calls
    // (and the few-tiles ones).
    assert!(wants_occupancy(Dtype::F32, 144, 768, SMS));
    assert!(!wants_occupancy(Dtype::F32, 256, 1024, SMS));
    assert!(!wants_occupancy(Dtype::Tf32, 144, 768, SMS));
    assert!(wants_occupancy(Dtype::Tf32, 64, 4096, SMS));
}

#[test]
fn explicit_splits_and_their_errors() {
    let call = |k| SplitCall {
        m: 64,
        n: 64,
        k,
        batch: 1,
        tiles: 1,
        multiprocessors: SMS,
        dtype: Dtype::F32,
        tma_bytes_in_flight: None,
        blocks_per_sm: 0,
        modeled_tile: None,
        accuracy_chunk_scale: 1,
        streaming_blocks_per_sm: 0,
        few_tiles_waves: FEW_TILES_WAVES,
        last_chunk_in_launch: false,
    };
    let chunk = |c, k| plan_split(SplitK::Chunk(c), &call(k));
    assert_eq!(chunk(1000, 2500), Ok(Some(Split { chunk: 1000, splits: 3 })));
    assert_eq!(chunk(2500, 2500), Ok(None), "one chunk is no split");
    assert_eq!(chunk(0, 2500), Err(SplitError::ZeroChunk));
    assert_eq!(chunk(1, 100_000), Err(SplitError::TooManySplits { splits: 100_000 }));
    assert_eq!(plan_split(SplitK::Off, &call(1 << 30)), Ok(None));
    // The reduction tree: ≤ 64 slabs need only the epilogue (two levels).
    assert_eq!(EPILOGUE_FAN_IN, 64);
    for (splits, passes) in [(2, 0), (8, 0), (9, 0), (64, 0), (65, 1), (512, 1), (513, 2), (4096, 2), (65535, 4)] {
        assert_eq!(Split { chunk: 1, splits }.combine_passes(), passes, "{splits} slabs");
    }
    assert_eq!(REDUCE_FAN_IN, 8);
    // After the combine passes at most 64 slabs are left `step` apart; the
    // epilogue sums two levels exactly where more than 8 are, in its own
    // entry, with 32 columns a block and the groups' sums in shared memory.
    for splits in 0..=MAX_SPLITS {
        let step = REDUCE_FAN_IN.pow(Split { chunk: 1, splits }.combine_passes());
        assert!(splits as u64 <= EPILOGUE_FAN_IN as u64 * step as u64, "{splits} slabs");
        let two = two_level_epilogue(splits, step);
        assert_eq!(two, splits > REDUCE_FAN_IN * step, "{splits} slabs");
        assert_eq!(epilogue_for(Dtype::F16, two).role == ReduceRole::TwoLevelEpilogue, two);
    }
    assert!(!two_level_epilogue(0, 1), "α = 0: no slabs, one level");
    assert!(!two_level_epilogue(64, 8) && two_level_epilogue(65, 8) && two_level_epilogue(9, 1));
    assert_eq!(epilogue_smem_bytes(false), 0);
    assert_eq!(epilogue_smem_bytes(true), REDUCE_FAN_IN * TWO_LEVEL_COLUMNS * 4);
    assert_eq!(TWO_LEVEL_COLUMNS * REDUCE_FAN_IN, REDUCE_THREADS, "a warp per group");
    assert_eq!(epilogue_geometry(300, 70, 1, 132, true).0, 3, "70 columns: 3 blocks of 32");
    assert_eq!(epilogue_geometry(300, 70, 1, 132, false), reduce_geometry(300, 70, 1, 132));
    assert_eq!(epilogue_for(Dtype::Tf32, false), &gemm_launch::split_k::EPILOGUE_F32);
    // Each pass's groups side by side: 293 slabs are 37 groups, then 5.
    assert_eq!((combine_groups(293, 1), combine_groups(293, 8), combine_groups(64, 1)), (37, 5, 8));
    assert_eq!(slab_elements(7, 5), 64, "slabs start 256 bytes apart");
}

#[test]
fn which_kernels_can_write_partial_sums() {
    // f32 and TF32 kernels write f32 C: they are their own partials kernel.
    assert_eq!(partials_kernel(&DB_256X128X8), Some(&DB_256X128X8));
    assert_eq!(partials_kernel(&MMA_TF32_128X128X32), Some(&MMA_TF32_128X128X32));
    // But TF32's K-major TMA kernels, whose partials `mma.sync` 64×128 ran
    // faster (PERF step 39), in every layout; not the swapped ones (step
    // 10f), which read a row-major B in place and split onto themselves,
    // never left unsplit for their partials' sake.
    assert_eq!(partials_kernel(&gemm_launch::WS_TF32_128X256X32), Some(&gemm_launch::MMA_TF32_64X128X32));
    assert!(OperandLayout::ALL.into_iter().all(|l| gemm_launch::MMA_TF32_64X128X32.has_entry(l)));
    let left_unsplit = gemm_launch::split_k::slower_partials_fill_gpu;
    assert!(left_unsplit(&gemm_launch::WS_TF32_128X128X32, (1024, 1024, 1), 132));
    for swapped in [&gemm_launch::WS_TF32_256X128X32_RS, &gemm_launch::WS_TF32_128X128X32_RS] {
        assert_eq!(partials_kernel(swapped), Some(swapped));
        assert!(!left_unsplit(swapped, (1024, 1024, 1), 132));
    }
    // The 16-column tiles split onto themselves (step 111: B, 16 columns,
    // is a small copy), and `auto` still leaves them unsplit from a quarter
    // of a wave, where that split gained little or lost (PERF step 111,
    // run 2).
    for narrow in [&gemm_launch::WS_TF32_128X16X32, &gemm_launch::WS_TF32_64X16X32] {
        assert_eq!(partials_kernel(narrow), Some(narrow));
        assert!(left_unsplit(narrow, (4100, 16, 1), 132), "{}", narrow.name);
        assert!(!left_unsplit(narrow, (1000, 16, 1), 132), "{}", narrow.name);
    }
    // Every f16/bf16 kernel the host can run (mma, wgmma, memory-bound, TMA,
    // and so whatever the selector or the tuner picks) has its dtype's twin:
    // the same element type in, f32 C out, every operand layout; a TMA twin
    // for a TMA kernel.
    for dtype in [Dtype::F16, Dtype::Bf16] {
        for spec in dtype.kernels() {
            let twin = partials_kernel(spec).unwrap_or_else(|| panic!("{}: no f32-output twin", spec.name));
            assert!(twin.features.f32_output && writes_f32(twin), "{} → {}", spec.name, twin.name);
            assert_eq!(twin.dtype, dtype, "{} → {}", spec.name, twin.name);
            assert_eq!(twin.algorithm == Algorithm::WarpSpecialized, spec.algorithm == Algorithm::WarpSpecialized);
            let base_layouts = OperandLayout::ALL.into_iter().filter(|l| spec.supports(*l));
            assert!(base_layouts.clone().all(|l| twin.supports(l)), "{}: every layout of {}", twin.name, spec.name);
            assert!(!dtype.kernels().contains(&twin), "{}: not offered for a 16-bit C", twin.name);
            // A twin computes its own partials.
            assert_eq!(partials_kernel(twin), Some(twin));
        }
    }
    assert_eq!(partials_kernel(&MMA_F16_128X128X32), Some(&MMA_F16_128X128X32_W32X64_F32OUT));
    assert_eq!(partials_kernel(&WGMMA_BF16_128X256X64), Some(&MMA_BF16_128X128X32_W32X64_F32OUT));
    assert_eq!(partials_kernel(&WS_F16_128X256X64), Some(&WS_F16_128X128X64_F32OUT));
    assert_eq!(partials_kernel(&gemm_launch::WS_BF16_128X192X64), Some(&gemm_launch::WS_BF16_128X192X64_F32OUT));
    // A same-tile twin is its base with f32 C, in the dtype's twin list's place.
    for (base, twin) in SAME_TILE_TWINS {
        assert_eq!((twin.dtype, twin.tile, twin.algorithm), (base.dtype, base.tile, base.algorithm), "{}", twin.name);
        assert_eq!(partials_kernel(base), Some(*twin));
        assert_eq!(partials_kernel(twin), Some(*twin));
    }
    // A memory-bound kernel's twin is itself with f32 C: a deep-K call on
    // the memory-bound path splits onto the kernel that streams it.
    for (base, twin) in MEMORY_BOUND_F32_OUTPUT_TWINS {
        assert_eq!(base.algorithm, Algorithm::MemoryBound, "{}", base.name);
        assert_eq!(partials_kernel(base), Some(*twin));
        assert_eq!(partials_kernel(twin), Some(*twin));
        assert_eq!(twin.name, format!("{}_f32out", base.name));
        let features = Features { f32_output: true, ..base.features };
        assert_eq!(**twin, KernelSpec { name: twin.name, features, ..**base });
    }
    for dtype in [Dtype::F16, Dtype::Bf16] {
        for spec in dtype.kernels().into_iter().filter(|s| s.algorithm == Algorithm::MemoryBound) {
            assert_eq!(partials_kernel(spec).map(|t| t.algorithm), Some(Algorithm::MemoryBound), "{}", spec.name);
        }
    }
    // Each twin is the 16-bit kernel it is named after, but for C's type
    // (stored from registers: an f32 tile staged for the TMA store would
    // take the shared memory of stages) and the stages its staging tile's
    // room gives back.
    let same_tile = SAME_TILE_TWINS.iter().map(|(base, twin)| (base.dtype, *twin));
    for (_, twin) in F32_OUTPUT_TWINS.iter().copied().chain(TMA_F32_OUTPUT_TWINS.iter().copied()).chain(same_tile) {
        let base = gemm_launch::KERNELS.iter().find(|s| format!("{}_f32out", s.name) == twin.name).unwrap();
        let same = KernelSpec { name: base.name, features: base.features, stages: base.stages, ..*twin };
        assert_eq!(same, *base, "{}", twin.name);
        assert!(twin.stages >= base.stages, "{}", twin.name);
        assert_eq!(twin.features, Features { f32_output: true, staged_epilogue: false, ..base.features });
    }
    let p = plan(
        (&MatrixDesc::row_major(64, 100_000), usize::MAX),
        (&MatrixDesc::row_major(100_000, 64), usize::MAX),
        (&MatrixDesc::row_major(64, 64), usize::MAX),
        &Batch::single(),
    )
    .unwrap();
    let auto = GemmOptions::default();
    // Two blocks per multiprocessor: the occupancy matters only from three
    // quarters of a wave of tiles (`the_rule_splits_deep_k_and_few_tiles_only`).
    let any_occupancy = |_: &'static KernelSpec| 2;
    assert!(split_for(&auto, &p, &DB_64X64X16, SMS, any_occupancy).unwrap().is_some());
    // f16/bf16 split like f32, Auto and explicit, their partials on the twin
    // (its tiles decide the few-tiles rule).
    let (split, partials) =
        split_for(&auto, &p, &MMA_F16_128X128X32, SMS, any_occupancy).unwrap().expect("f16 Auto splits deep K");
    assert_eq!(partials, &MMA_F16_128X128X32_W32X64_F32OUT);
    // One tile: 264 chunks wanted, of 379 → 512 (a multiple of 512).
    assert_eq!(split, Split::of(100_000, CHUNK_FEW_TILES));
    // Both sides small, deep K: the memory-bound kernel's own twin.
    let both_small = plan(
        (&MatrixDesc::row_major(7, 300_001), usize::MAX),
        (&MatrixDesc::row_major(300_001, 5), usize::MAX),
        (&MatrixDesc::row_major(7, 5), usize::MAX),
        &Batch::single(),
    )
    .unwrap();
    let skinny = &gemm_launch::memory_bound::SKINNY_F16_R8;
    let (split, partials) = split_for(&auto, &both_small, skinny, SMS, any_occupancy).unwrap().expect("deep K splits");
    assert_eq!(partials, &gemm_launch::memory_bound::SKINNY_F16_R8_F32OUT);
    assert!(split.splits >= SMS, "{split:?}: a block for each multiprocessor at least");
    // K from FEW_TILES_MIN_K to DEEP_K (step 94): split where the
    // memory-bound kernel's blocks (of 32 rows on `skinny_r16_2cta`, two
    // per SM) fill under three quarters of a wave, a batch counted; K
    // below FEW_TILES_MIN_K never.
    let rows_split = |m: usize, n: usize, k: usize, count: usize| {
        let (a, b, c) = (MatrixDesc::row_major(m, k), MatrixDesc::row_major(k, n), MatrixDesc::row_major(m, n));
        let batch = Batch { count, stride_a: m * k, stride_b: k * n, stride_c: m * n };
        let call = plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
        let rows = &gemm_launch::memory_bound::SKINNY_TF32_R16_2CTA;
        split_for(&auto, &call, rows, SMS, any_occupancy).unwrap().map(|(split, twin)| {
            assert_eq!(twin, rows, "its own f32 output");
            (split.chunk, split.splits)
        })
    };
    // 32 blocks: four waves of one block (two waves of two) want 16.5
    // chunks, in multiples of 512: 8 of 512.
    assert_eq!(rows_split(1000, 16, 4096, 1), Some((512, 8)));
    assert_eq!(rows_split(2000, 16, 8192, 1), Some((1024, 8)));
    assert_eq!(rows_split(3000, 16, 8192, 1), Some((1024, 8)), "94 blocks");
    assert_eq!(rows_split(3136, 16, 8192, 1), Some((1024, 8)), "98 blocks");
    assert_eq!(rows_split(3168, 16, 8192, 1), None, "99 blocks: three quarters of 132");
    assert_eq!(rows_split(1000, 16, 4096, 4), None, "128 blocks in a batch");
    assert_eq!(rows_split(1000, 16, 2047, 1), None, "K under FEW_TILES_MIN_K");
    assert_eq!(rows_split(1000, 16, 2048, 1), Some((512, 4)));
    // The "dot" pattern (both sides up to DOT_LEN), whose threads already
    // share K: unsplit to DEEP_K, where f32 splits for accuracy.
    let dot_split = |k: usize| {
        let (a, b, c) = (MatrixDesc::row_major(4, k), MatrixDesc::row_major(k, 4), MatrixDesc::row_major(4, 4));
        let call = plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &Batch::single()).unwrap();
        split_for(&auto, &call, &gemm_launch::memory_bound::SKINNY_F32_R4, SMS, any_occupancy).unwrap().map(|s| s.0)
    };
    assert_eq!(dot_split(8192), None);
    assert!(dot_split(8193).is_some());
    // Step 70's skinny tiles (step 92): under half a wave of tiles, K split
    // onto their own twins for one wave of one block per multiprocessor;
    // from half a wave, never split by the rule.
    let skinny_split_of = |m: usize, n: usize, k: usize, count: usize| {
        let (a, b, c) = (MatrixDesc::row_major(m, k), MatrixDesc::row_major(k, n), MatrixDesc::row_major(m, n));
        let batch = Batch { count, stride_a: m * k, stride_b: k * n, stride_c: m * n };
        let call = plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &batch).unwrap();
        let tiles = if m > n { &gemm_launch::MMA_F16_64X16X64 } else { &gemm_launch::MMA_BF16_16X64X64 };
        split_for(&auto, &call, tiles, SMS, any_occupancy)
            .unwrap()
            .map(|(split, twin)| (split.chunk, split.splits, twin.name))
    };
    let skinny_split = |m, n, k| skinny_split_of(m, n, k, 1);
    // 16 tiles: 132 blocks wanted, 10 chunks of 2000 divide K (8 of 2500
    // would start rows off 16 bytes).
    assert_eq!(skinny_split(1000, 16, 20_000), Some((2000, 10, "hgemm_mma_64x16x64_f32out")));
    assert_eq!(skinny_split(2000, 16, 10_000), Some((2000, 5, "hgemm_mma_64x16x64_f32out")));
    assert_eq!(skinny_split(4000, 16, 9000), Some((3000, 3, "hgemm_mma_64x16x64_f32out")));
    assert_eq!(skinny_split(1000, 16, 4096), Some((512, 8, "hgemm_mma_64x16x64_f32out")));
    assert_eq!(skinny_split(16, 1000, 20_000), Some((2000, 10, "bgemm_mma_16x64x64_f32out")));
    assert_eq!(skinny_split(8, 2000, 16_384), Some((4096, 4, "bgemm_mma_16x64x64_f32out")));
    assert_eq!([skinny_split(8192, 16, 8192), skinny_split(4224, 16, 8192)], [None, None], "half a wave");
    assert_eq!(skinny_split(1000, 16, 1024), None, "K under FEW_TILES_MIN_K");
    // A batch counts its matrices' tiles: 5 × 16 fill half a wave, 2 × 16 do not.
    assert_eq!(skinny_split_of(1000, 16, 20_000, 5), None);
    assert!(skinny_split_of(1000, 16, 20_000, 2).is_some());
    let explicit = GemmOptions { split_k: SplitK::Chunk(4096), ..auto };
    let (split, partials) = split_for(&explicit, &p, &WGMMA_BF16_128X256X64, SMS, any_occupancy).unwrap().unwrap();
    assert_eq!((split, partials), (Split::of(100_000, 4096), &MMA_BF16_128X128X32_W32X64_F32OUT));
    assert_eq!(
        split_for(&GemmOptions { split_k: SplitK::Off, ..auto }, &p, &MMA_F16_128X128X32, SMS, any_occupancy).unwrap(),
        None
    );
    let e = split_for(&GemmOptions { split_k: SplitK::Chunk(0), ..auto }, &p, &DB_64X64X16, SMS, any_occupancy)
        .unwrap_err();
    assert!(matches!(e, GemmError::ZeroDimension { .. }), "{e}");
    // TF32's K-major TMA kernels: their partials run on `mma.sync` 64×128,
    // so from a quarter of a wave of their own tiles they run unsplit (PERF
    // step 58); the 16-column ones too, split onto themselves (step 111).
    let tf32_square = |size, k| {
        plan(
            (&MatrixDesc::row_major(size, k), usize::MAX),
            (&MatrixDesc::row_major(k, size), usize::MAX),
            (&MatrixDesc::row_major(size, size), usize::MAX),
            &Batch::single(),
        )
        .unwrap()
    };
    let split = |p: &rgemm::api::Plan, options: &GemmOptions| {
        split_for(options, p, &WS_TF32_128X128X32, SMS, any_occupancy).unwrap().map(|(_, partials)| partials.name)
    };
    assert_eq!(SLOWER_PARTIALS_MIN_QUARTERS, 1);
    assert_eq!(split(&tf32_square(1024, 4096), &auto), None, "64 tiles");
    assert_eq!(split(&tf32_square(768, 4096), &auto), None, "36 tiles");
    assert_eq!(split(&tf32_square(512, 4096), &auto), Some("tgemm_mma_64x128x32"), "16 tiles");
    let chunked = GemmOptions { split_k: SplitK::Chunk(1024), ..auto };
    assert_eq!(split(&tf32_square(1024, 4096), &chunked), Some("tgemm_mma_64x128x32"), "asked for");
    // The 16-column tiles split onto themselves (step 111): under a quarter
    // of a wave by the rule (1000×16×4096, 16 blocks of 64×16), and when
    // asked for; unsplit by the rule from a quarter (2112×16×4096, 33).
    let narrow = |m, k| {
        plan(
            (&MatrixDesc::row_major(m, k), usize::MAX),
            (&MatrixDesc::row_major(k, 16), usize::MAX),
            (&MatrixDesc::row_major(m, 16), usize::MAX),
            &Batch::single(),
        )
        .unwrap()
    };
    let split_narrow = |p: &rgemm::api::Plan, options: &GemmOptions| {
        let tiles = &gemm_launch::WS_TF32_64X16X32;
        split_for(options, p, tiles, SMS, any_occupancy).unwrap().map(|(_, partials)| partials.name)
    };
    assert_eq!(split_narrow(&narrow(1000, 4096), &auto), Some("tgemm_ws_64x16x32"), "16 blocks");
    assert_eq!(split_narrow(&narrow(2112, 4096), &auto), None, "33 blocks");
    assert_eq!(split_narrow(&narrow(2112, 4096), &chunked), Some("tgemm_ws_64x16x32"), "asked for");
    // α = 0 never splits: it reads neither A nor B.
    assert!(split_for(&GemmOptions { alpha: 0.0, ..auto }, &p, &DB_64X64X16, SMS, any_occupancy).unwrap().is_none());
}

#[test]
fn even_splits_cover_k_in_whole_granules_with_less_padding() {
    // 47×307×53605 (PERF step 101): 40 chunks of 1368 (f16) or 1372 (TF32),
    // the last 1253 or 97 deep, become 40 of 1344, 155 elements of padding.
    for (chunk, granule) in [(1368, 8), (1372, 4)] {
        let split = Split::of(53605, chunk);
        assert_eq!(split.splits, 40);
        assert_eq!(split.even(53605, granule), Split { chunk: 1344, splits: 40 });
    }
    let mut rng = StdRng::seed_from_u64(101);
    for _ in 0..10_000 {
        let k = rng.random_range(2..2_000_000u32);
        let granule = [4, 8][rng.random_range(0..2)];
        let chunk = rng.random_range(1..k).next_multiple_of(granule).min(k - 1).max(1);
        let split = Split::of(k, chunk);
        let even = split.even(k, granule);
        // Whole granules, K covered, no more chunks, no chunk wholly past K,
        // and the padding under a granule per chunk.
        assert!(even.chunk.is_multiple_of(granule) && even.chunk * even.splits >= k, "{k} {split:?} {even:?}");
        assert!(even.splits <= split.splits && (even.splits - 1) * even.chunk < k, "{k} {split:?} {even:?}");
        assert!(even.chunk * even.splits - k < even.splits * granule, "{k} {split:?} {even:?}");
    }
}

/// Replays the partial launches of a call on the CPU (each launch a strided
/// batch of plain GEMMs on exact small integers) and checks that every slab
/// is written once, and that the slabs of each matrix add up to its product.
fn replay(a: MatrixDesc, b: MatrixDesc, c: MatrixDesc, batch: Batch, chunk: u32) {
    let len = |d: &MatrixDesc, stride: usize| {
        let (run, runs) = if d.layout == rgemm::Layout::RowMajor { (d.cols, d.rows) } else { (d.rows, d.cols) };
        (batch.count - 1) * stride + (runs - 1) * d.ld + run
    };
    let mut rng = StdRng::seed_from_u64(7);
    let a_buf: Vec<f64> = (0..len(&a, batch.stride_a)).map(|_| rng.random_range(-3..=3) as f64).collect();
    let b_buf: Vec<f64> = (0..len(&b, batch.stride_b)).map(|_| rng.random_range(-3..=3) as f64).collect();
    let p = plan((&a, a_buf.len()), (&b, b_buf.len()), (&c, usize::MAX), &batch).unwrap();
    let split = Split::of(p.k, chunk);
    let (ka, kb) = if p.swapped { (&b_buf, &a_buf) } else { (&a_buf, &b_buf) };
    let slab = slab_elements(p.m, p.n) as usize;
    let mut ws = vec![0.0f64; (workspace_bytes(split, p.m, p.n, p.batch) / 4) as usize];
    let mut writes = vec![0u32; ws.len()];
    for l in partial_launches(&p, split) {
        let q = l.plan;
        assert_eq!((q.ldc, q.m, q.n), (p.n, p.m, p.n), "slabs are dense m × n");
        assert!(q.k_last.is_none_or(|k_last| k_last < q.k), "a ragged launch's last chunk is the shorter");
        for z in 0..q.batch as usize {
            let (a0, b0) =
                (l.a_offset as usize + z * q.stride_a as usize, l.b_offset as usize + z * q.stride_b as usize);
            let c0 = l.ws_offset as usize + z * q.stride_c as usize;
            for r in 0..q.m as usize {
                for col in 0..q.n as usize {
                    let mut sum = 0.0;
                    // The last matrix of a launch may be a shorter chunk (`k_last`).
                    let k = if z + 1 == q.batch as usize { q.k_last.unwrap_or(q.k) } else { q.k };
                    for t in 0..k as usize {
                        let ai = if q.layout.a_col_major { t * q.lda as usize + r } else { r * q.lda as usize + t };
                        let bi = if q.layout.b_col_major { col * q.ldb as usize + t } else { t * q.ldb as usize + col };
                        sum += ka[a0 + ai] * kb[b0 + bi];
                    }
                    let i = c0 + r * q.ldc as usize + col;
                    ws[i] = sum;
                    writes[i] += 1;
                }
            }
        }
    }
    for z in 0..p.batch as usize {
        for r in 0..p.m as usize {
            for col in 0..p.n as usize {
                let mut total = 0.0;
                for s in 0..split.splits as usize {
                    let i = (z * split.splits as usize + s) * slab + r * p.n as usize + col;
                    assert_eq!(writes[i], 1, "matrix {z}, chunk {s}, ({r},{col}) written {} times", writes[i]);
                    total += ws[i];
                }
                let mut want = 0.0;
                for t in 0..p.k as usize {
                    let ai = if p.layout.a_col_major { t * p.lda as usize + r } else { r * p.lda as usize + t };
                    let bi = if p.layout.b_col_major { col * p.ldb as usize + t } else { t * p.ldb as usize + col };
                    want += ka[z * p.stride_a as usize + ai] * kb[z * p.stride_b as usize + bi];
                }
                assert_eq!(total, want, "matrix {z} ({r},{col})");
            }
        }
    }
}

#[test]
fn partial_launches_cover_every_chunk_once() {
    let rm = MatrixDesc::row_major;
    let cm = MatrixDesc::col_major;
    let one = Batch::single();
    // K divisible and not; A and B in every layout; padded leading dimensions.
    replay(rm(5, 40), rm(40, 3), rm(5, 3), one, 8);
    replay(rm(5, 41), rm(41, 3), rm(5, 3), one, 8);
    replay(cm(5, 41), rm(41, 3), rm(5, 3), one, 16);
    replay(rm(5, 41), cm(41, 3), rm(5, 3), one, 7);
    replay(MatrixDesc { ld: 50, ..cm(5, 41) }, MatrixDesc { ld: 44, ..cm(41, 3) }, rm(5, 3), one, 10);
    // A column-major C: the kernel computes Cᵀ = Bᵀ·Aᵀ.
    replay(rm(4, 33), rm(33, 6), cm(4, 6), one, 5);
    // Batches, with fewer matrices than chunks (one launch per matrix) and
    // more (one launch per chunk), a shared B, a remainder.
    let batch = |count, sa, sb, sc| Batch { count, stride_a: sa, stride_b: sb, stride_c: sc };
    replay(rm(3, 29), rm(29, 4), rm(3, 4), batch(2, 90, 120, 12), 4);
    replay(rm(3, 29), rm(29, 4), rm(3, 4), batch(9, 90, 0, 13), 10);
    replay(cm(3, 30), cm(30, 4), rm(3, 4), batch(4, 95, 121, 12), 10);
}

/// f32 `a·b` summed the way one GEMM thread does: one fused multiply-add per
/// term into one accumulator.
fn dot_recursive(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).fold(0.0f32, |acc, (x, y)| x.mul_add(*y, acc))
}

/// The same sum split into chunks and combined as the split-K reduction
/// does (groups of 8, pairwise, one level at a time). `skip`: a chunk left
/// out, as a broken split would.
fn dot_split(a: &[f32], b: &[f32], chunk: usize, skip: Option<usize>) -> f32 {
    let mut parts: Vec<f32> = a
        .chunks(chunk)
        .zip(b.chunks(chunk))
        .enumerate()
        .map(|(i, (x, y))| if Some(i) == skip { 0.0 } else { dot_recursive(x, y) })
        .collect();
    while parts.len() > 1 {
        parts = parts
            .chunks(8)
            .map(|g| {
                let v: [f32; 8] = std::array::from_fn(|i| g.get(i).copied().unwrap_or(0.0));
                ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
            })
            .collect();
    }
    parts[0]
}

/// Round to TF32 (10 explicit mantissa bits, to nearest, ties away), as
/// `cvt.rna.tf32.f32` does.
fn tf32(x: f32) -> f32 {
    f32::from_bits((x.to_bits() + 0x1000) & !0x1fff)
}

#[test]
fn the_bound_grows_with_k_and_still_fails_wrong_results() {
    let mut rng = StdRng::seed_from_u64(0xdee9);
    let (m, n, k) = (6, 6, 300_001);
    let a = Matrix::random(m, k, &mut rng);
    let b = Matrix::random(k, n, &mut rng);
    let reference = Reference::new(&a, &b, &mut rng);
    assert!(reference.is_full());
    let b_cols: Vec<Vec<f32>> = (0..n).map(|j| (0..k).map(|p| b.data[p * n + j]).collect()).collect();
    let product = |dot: &dyn Fn(&[f32], &[f32]) -> f32| -> Vec<f32> {
        (0..m * n).map(|e| dot(&a.data[(e / n) * k..(e / n + 1) * k], &b_cols[e % n])).collect()
    };
    let bound = Dtype::F32.tolerance(k);
    assert!(bound > Dtype::F32.tolerance(1000), "the bound grows with K");

    // A correct kernel passes on rounding alone, with or without split-K;
    // the split is far more accurate.
    let recursive = reference.relative_error(&product(&dot_recursive));
    let split = reference.relative_error(&product(&|x, y| dot_split(x, y, 256, None)));
    assert!(Dtype::F32.accepts(recursive, k), "one accumulator: {recursive:e} > {bound:e}");
    assert!(Dtype::F32.accepts(split, k), "split-K: {split:e} > {bound:e}");
    assert!(split * 5.0 < recursive, "split-K {split:e} is not clearly better than one accumulator {recursive:e}");

    // A wrong kernel fails: one missing K chunk in one element …
    let mut missing = product(&|x, y| dot_split(x, y, 256, None));
    let (row, col) = (2, 3);
    missing[row * n + col] = dot_split(&a.data[row * k..(row + 1) * k], &b_cols[col], 256, Some(17));
    let err = reference.relative_error(&missing);
    assert!(!Dtype::F32.accepts(err, k), "a missing chunk passed: {err:e} ≤ {bound:e}");
    // … one element off by 0.1 % …
    let mut perturbed = product(&|x, y| dot_split(x, y, 256, None));
    let largest = (0..m * n).max_by(|&i, &j| perturbed[i].abs().total_cmp(&perturbed[j].abs())).unwrap();
    perturbed[largest] *= 1.001;
    let err = reference.relative_error(&perturbed);
    assert!(!Dtype::F32.accepts(err, k), "a perturbed element passed: {err:e} ≤ {bound:e}");
    // … and so does a product computed from TF32-rounded inputs.
    let tf = product(&|x, y| {
        let (x, y): (Vec<f32>, Vec<f32>) = x.iter().zip(y).map(|(p, q)| (tf32(*p), tf32(*q))).unzip();
        dot_split(&x, &y, 256, None)
    });
    let err = reference.relative_error(&tf);
    assert!(!Dtype::F32.accepts(err, k), "TF32 passed the f32 bound: {err:e} ≤ {bound:e}");
}

/// Stream-K (`gemm_launch::stream_k`), replayed as the kernels walk it:
/// every unit of every shared tile is computed by exactly one block, each
/// block's only partial is its first piece, each tile's head adds the
/// partials of exactly the blocks that hold the rest of the tile, and the
/// rule shares tiles only where the last wave is part-empty enough to pay.
#[test]
fn stream_k_pieces_cover_every_slice_once() {
    use gemm_launch::stream_k::{owner, shared_tiles, unit_range};
    for (tiles, slices, grid) in
        [(72, 24, 132), (800, 32, 132), (200, 40, 132), (5, 7, 3), (1, 100, 132), (131, 9, 132), (300, 3, 7)]
    {
        let shared = shared_tiles(tiles, slices, grid);
        // The kernels' rule, forced on, must also hold for any share.
        assert!(shared == 0 || shared * slices >= grid, "a block without a unit would stall a head");
        for shared in [shared, tiles.min(grid + tiles % grid), tiles] {
            let units = shared * slices;
            if units < grid {
                continue;
            }
            let mut covered = vec![0u32; units as usize];
            let mut partial_of = vec![None; grid as usize];
            let mut heads = Vec::new();
            for block in 0..grid {
                let (mut next, end) = unit_range(block, grid, units);
                let mut first_piece = true;
                while next < end {
                    let tile = next / slices;
                    let piece_end = end.min((tile + 1) * slices);
                    let (first, last) = (next - tile * slices, piece_end - tile * slices);
                    for u in next..piece_end {
                        covered[u as usize] += 1;
                        assert_eq!(owner(u, grid, units), block, "unit {u} of {units}: {tiles} tiles × {slices}");
                    }
                    if first > 0 {
                        assert!(first_piece, "block {block}'s partial must be its first piece");
                        partial_of[block as usize] = Some(tile);
                    } else if last < slices {
                        heads.push((block, tile, owner((tile + 1) * slices - 1, grid, units)));
                    }
                    first_piece = false;
                    next = piece_end;
                }
            }
            assert!(covered.iter().all(|&c| c == 1), "{tiles} tiles × {slices} slices, {grid} blocks");
            for (block, tile, last) in heads {
                assert!(last > block);
                for other in block + 1..=last {
                    assert_eq!(partial_of[other as usize], Some(tile), "block {other} holds part of tile {tile}");
                    partial_of[other as usize] = None;
                }
            }
            assert!(partial_of.iter().all(Option::is_none), "every partial is added by its tile's head");
        }
    }
    // The rule: whole waves and one-wave fills run data-parallel; part-empty waves are shared.
    assert_eq!(shared_tiles(264, 64, 132), 0);
    assert_eq!(shared_tiles(128, 32, 132), 0, "2048³ in 128×256: 97% of one wave");
    assert_eq!(shared_tiles(72, 24, 132), 72, "1536³: 55% of one wave");
    assert_eq!(shared_tiles(288, 48, 132), 24 + 132, "3072³: 73% of three waves' slices");
    assert_eq!(shared_tiles(200, 40, 132), 0, "2560³: 19% to save, less the fix-up");
    assert_eq!(shared_tiles(512, 64, 132), 0, "4096³: 3% to save");
    assert_eq!(shared_tiles(800, 32, 132), 0, "5000²×2000: 13% to save");
    assert_eq!(shared_tiles(72, 1, 132), 0, "one slice cannot be shared");
    assert_eq!(shared_tiles(72, 24, 1), 0, "one block");
    assert_eq!(shared_tiles(1, 100, 132), 0, "fewer units than blocks");
}

/// The f32 split model (`split_k::f32_modeled_us`, `f32_split`) ranks the
/// splits measured on an H100 (PERF.md step 73) as they ran, and keeps the
/// chunks within the rule's bounds.
#[test]
fn f32_split_model_ranks_measured_splits_within_bounds() {
    use gemm_launch::WT_128X128X8;
    use gemm_launch::split_k::{DEEP_K, f32_modeled_us, f32_split};
    use rgemm::api::choice::modeled_tile;
    let (wt128, wt256) = (modeled_tile(&WT_128X128X8), modeled_tile(&WT_256X128X8));
    let us = |tile, shape, chunk| f32_modeled_us(tile, shape, SMS, chunk);
    // 1032³ on 128×128: 3 chunks 0.077 ms, 4 0.091, 2 0.109.
    let cube = (1032, 1032, 1032, 1);
    assert!(us(wt128, cube, 344) < us(wt128, cube, 258) && us(wt128, cube, 258) < us(wt128, cube, 516));
    // 200×200×100000 on 256×128: chunks of 800 0.321 ms, 1000 0.389.
    let deep = (200, 200, 100_000, 1);
    assert!(us(wt256, deep, 800) < us(wt256, deep, 1000));
    // 1280³ on 128×128: unsplit (one block per SM) slower than 2 chunks.
    let mid = (1280, 1280, 1280, 1);
    assert!(us(wt128, mid, 640) < us(wt128, mid, 1280));
    // 64×64, five blocks per SM (step 83): 1100×700×1001 unsplit (two
    // blocks on the busiest SM) 0.081 ms, in 2 chunks (three) 0.063;
    // 767×769×771 unsplit 0.068, in 3 chunks (four) 0.050.
    let wt64 = modeled_tile(&gemm_launch::WT_64X64X8);
    assert!(us(wt64, (1100, 700, 1001, 1), 504) < us(wt64, (1100, 700, 1001, 1), 1001));
    assert!(us(wt64, (767, 769, 771, 1), 260) < us(wt64, (767, 769, 771, 1), 771));
    // The picks: odd K in one launch (the last chunk shorter).
    assert_eq!(f32_split(wt128, (1031, 1029, 1027, 1), SMS).0, Some(Split { chunk: 344, splits: 3 }));
    for (shape, tile) in
        [((2048, 2048, 2048, 1), wt256), ((4096, 4096, 4096, 1), wt256), ((64, 64, SHORT_K_MIN - 4, 1), wt128)]
    {
        assert_eq!(f32_split(tile, shape, SMS).0, None, "{shape:?}");
    }
    // Deep K whose chunks of CHUNK_DEEP would not fit the workspace: longer
    // ones, doubled until they do, as the rule's; none where even two do not.
    assert_eq!(f32_split(wt256, (4096, 4096, 16384, 1), SMS).0, Some(Split { chunk: 4096, splits: 4 }));
    let split = f32_split(wt256, (2048, 2048, 32768, 1), SMS).0.expect("2048²×32768 split for accuracy");
    assert!(workspace_bytes(split, 2048, 2048, 1) <= AUTO_WORKSPACE_CAP_BYTES && split.chunk <= 2048, "{split:?}");
    assert_eq!(f32_split(wt256, (8192, 8192, 16384, 1), SMS).0, None, "two slabs of 256 MiB do not fit");
    for (shape, tile) in
        [(deep, wt256), ((128, 128, 65536, 1), wt128), ((256, 256, 131_072, 3), wt256), ((1031, 1029, 1027, 2), wt128)]
    {
        let k = shape.2;
        let split = f32_split(tile, shape, SMS).0.unwrap_or_else(|| panic!("{shape:?} not split"));
        assert!(
            split.chunk.is_multiple_of(4) && split.chunk >= CHUNK_SHORT_K && split.chunk < k,
            "{shape:?}: {split:?}"
        );
        assert!(k <= DEEP_K || split.chunk <= CHUNK_DEEP, "{shape:?}: {split:?} too long for accuracy");
        assert_eq!(split, Split::of(k, split.chunk));
    }
    // The rule takes the model's split for a modeled tile.
    let call = SplitCall {
        tiles: WT_128X128X8.grid(1031, 1029),
        modeled_tile: Some(wt128),
        ..SplitCall {
            m: 1031,
            n: 1029,
            k: 1027,
            batch: 1,
            tiles: 0,
            multiprocessors: SMS,
            dtype: Dtype::F32,
            tma_bytes_in_flight: None,
            blocks_per_sm: 0,
            modeled_tile: None,
            accuracy_chunk_scale: 1,
            streaming_blocks_per_sm: 0,
            few_tiles_waves: FEW_TILES_WAVES,
            last_chunk_in_launch: false,
        }
    };
    assert_eq!(plan_split(SplitK::Auto, &call).unwrap(), f32_split(wt128, (1031, 1029, 1027, 1), SMS).0);
}

/// `auto` leaves the wave fill's f32 tile for a split warp-tiled one only
/// where the model finds it faster by the margin: the odd mid sizes where
/// it ran faster on an H100, not the squares where the wave fill's tile
/// is the fastest measured (PERF.md steps 54 and 73).
#[test]
fn f32_split_tiles_replace_the_wave_fill_only_where_they_gain() {
    use rgemm::api::choice::{default_choice, f32_split_tiles};
    let pick = |(m, n, k), layout| {
        let wave_fill = default_choice(Dtype::F32, (m, n, k), SMS as i32, layout, (9, 0), |_| true);
        f32_split_tiles(Dtype::F32, wave_fill, (m, n, k), SMS as i32, layout, (9, 0)).kernel
    };
    let nn = OperandLayout::NN;
    // Step 83's 64×64 tiles, split (or unsplit at 1536³).
    for shape in [(767, 769, 771), (1031, 1029, 1027), (1536, 1536, 1536)] {
        assert_eq!(pick(shape, nn), "wt_64x64x8", "{shape:?}");
    }
    // Step 113's `cp.async` ring where the register-staged tiles would run
    // on realigned copies (rows off 16 bytes), but not on the same call
    // with rows on 16 bytes, nor in another layout (it is row-major only).
    assert_eq!(pick((777, 999, 3333), nn), "wt_async_64x128x8");
    assert_eq!(pick((777, 999, 2761), nn), "wt_async_64x128x8");
    // Step 114's 128×64 ring where N pads a 128-wide tile more than M a
    // 128-tall one, on copies or not.
    for shape in [(999, 777, 3333), (1100, 700, 1001), (600, 700, 7001)] {
        assert_eq!(pick(shape, nn), "wt_async_128x64x8", "{shape:?}");
    }
    assert_eq!(pick((777, 1000, 3336), nn), "wt_64x64x8");
    assert_ne!(pick((777, 999, 3333), OperandLayout { a_col_major: true, b_col_major: false }), "wt_async_64x128x8");
    // 128×128 split, where 64×64 tiles would leave part-filled rounds
    // (1300×1001×999: 0.101 ms split against 0.115 unsplit on 64×64).
    assert_eq!(pick((1300, 1001, 999), nn), "wt_128x128x8");
    // The deep-K list's 64×64 since PERF step 99, where it pads least: at
    // 800×800×8000 64×64 ran level with 128×128 split (0.328 ms against
    // 0.326, step 73).
    assert_eq!(pick((800, 800, 8000), nn), "wt_64x64x8");
    for (shape, wave_fill) in [
        ((3072, 3072, 3072), "wt_64x128x8"),
        ((1792, 1792, 1792), "wt_64x128x8"),
        ((2048, 2048, 2048), "wt_256x128x8"),
        ((1024, 1024, 1024), "db_128x64x16"),
        // Under F32_MODEL_MIN_FLOP, and K past DEEP_K: the rules' tiles.
        ((512, 512, 512), "db_64x64x16"),
        ((64, 192, 300_000), "wt_64x64x8"),
    ] {
        assert_eq!(pick(shape, nn), wave_fill, "{shape:?}");
    }
    // Another dtype's choice stays as it is (TF32 shares short names).
    let tf32 = default_choice(Dtype::Tf32, (1031, 1029, 1027), SMS as i32, nn, (9, 0), |_| true);
    assert_eq!(f32_split_tiles(Dtype::Tf32, tf32.clone(), (1031, 1029, 1027), SMS as i32, nn, (9, 0)), tf32);
    // 128×128 is row-major only: another layout never gets it.
    assert_ne!(pick((1031, 1029, 1027), OperandLayout { a_col_major: true, b_col_major: false }), "wt_128x128x8");
}

/// The f32 split model's cost of realigned copies: the register-staged
/// tiles' where a call's rows are off 16 bytes and the host's rule copies
/// them, none for step 7c's `cp.async` ring, which reads them in place.
#[test]
fn f32_model_counts_the_copies_the_host_makes() {
    use gemm_launch::{WT_64X64X8, WT_256X128X8, WT_ASYNC_64X128X8};
    use rgemm::api::choice::f32_realign_us;
    let nn = OperandLayout::NN;
    // 777×999×3333: A (777 rows of 3336) and B (3333 of 1000), each byte
    // read and written (each copy rounded up to 256 bytes in the scratch).
    let near = |us: f64, bytes: f64| (us / (2.0 * bytes / gemm_launch::split_k::SLAB_BYTES_PER_US) - 1.0).abs() < 1e-4;
    assert!(near(f32_realign_us(&WT_64X64X8, (777, 999, 3333), nn), 4.0 * (777.0 * 3336.0 + 3333.0 * 1000.0)));
    // B alone off 16 bytes.
    assert!(near(f32_realign_us(&WT_64X64X8, (777, 999, 3336), nn), 4.0 * 3336.0 * 1000.0));
    // Another layout: A column-major, its columns (777 long) off 16 bytes.
    let tn = OperandLayout { a_col_major: true, b_col_major: false };
    assert!(near(f32_realign_us(&WT_256X128X8, (777, 1000, 3336), tn), 4.0 * 3336.0 * 780.0));
    assert_eq!(f32_realign_us(&WT_64X64X8, (777, 1000, 3336), nn), 0.0, "rows on 16 bytes");
    assert_eq!(f32_realign_us(&WT_ASYNC_64X128X8, (777, 999, 3333), nn), 0.0, "read in place");
    // Under F32_REALIGN_MIN_FLOP (1031×1029×1027, 2.2·10⁹) the checked
    // loop runs in place; the unchecked loop realigns from
    // F32_REALIGN_UNCHECKED_MIN_FLOP.
    assert_eq!(f32_realign_us(&WT_64X64X8, (1031, 1029, 1027), nn), 0.0);
    assert!(f32_realign_us(&WT_256X128X8, (1031, 1029, 1027), nn) > 0.0);
}

/// A memory-bound kernel's "dot" pattern spreads a chunk's K over its 256
/// threads, so a split for accuracy gives it chunks up to 256 times
/// longer than `CHUNK_DEEP` (fewer partial sums and reduction passes, sums
/// no longer in a row); its other patterns and the tile kernels keep
/// `CHUNK_DEEP` (PERF.md step 82).
#[test]
fn dot_pattern_accuracy_chunks_scale_with_its_threads() {
    use gemm_launch::memory_bound::{
        SKINNY_F16_R1, SKINNY_F32_R1, SKINNY_F32_R4, SKINNY_F32_R16, THREADS, accuracy_chunk_scale,
    };
    assert_eq!(accuracy_chunk_scale(&SKINNY_F32_R1, 1, 1), THREADS);
    assert_eq!(accuracy_chunk_scale(&SKINNY_F16_R1, 8, 1), THREADS);
    assert_eq!(accuracy_chunk_scale(&SKINNY_F32_R4, 4, 8), THREADS);
    assert_eq!(accuracy_chunk_scale(&SKINNY_F32_R4, 4, 9), 1);
    assert_eq!(accuracy_chunk_scale(&SKINNY_F32_R1, 4096, 1), 1);
    // The 16-row ring has no "dot" pattern, nor have the tile kernels.
    assert_eq!(accuracy_chunk_scale(&SKINNY_F32_R16, 7, 5), 1);
    assert_eq!(accuracy_chunk_scale(&DB_64X64X16, 1, 1), 1);
    for (spec, m, n, k, dot_split) in [
        (SKINNY_F32_R1, 1, 1, 1_000_000, Some(Split { chunk: 4000, splits: 250 })),
        (SKINNY_F32_R4, 3, 2, 200_001, None),
        (SKINNY_F32_R1, 1, 1, 70_001, None),
        (SKINNY_F32_R16, 7, 5, 300_001, None),
        (SKINNY_F32_R1, 4096, 1, 65_539, None),
    ] {
        let scale = accuracy_chunk_scale(&spec, m, n);
        let call = SplitCall {
            m,
            n,
            k,
            batch: 1,
            tiles: spec.grid(m, n),
            multiprocessors: SMS,
            dtype: Dtype::F32,
            tma_bytes_in_flight: None,
            blocks_per_sm: 0,
            modeled_tile: None,
            accuracy_chunk_scale: scale,
            streaming_blocks_per_sm: streaming_blocks_per_sm(&spec, scale, 0),
            few_tiles_waves: FEW_TILES_WAVES,
            last_chunk_in_launch: false,
        };
        let split = plan_split(SplitK::Auto, &call).unwrap().expect("deep f32 K splits for accuracy");
        let unscaled = plan_split(SplitK::Auto, &SplitCall { accuracy_chunk_scale: 1, ..call }).unwrap().unwrap();
        assert!(split.chunk.div_ceil(scale) <= CHUNK_DEEP, "{m}×{n}×{k}: {split:?} sums too long");
        assert!(unscaled.chunk <= CHUNK_DEEP, "{m}×{n}×{k}: {unscaled:?}");
        // Where the scale is 1 the rule is the tile kernels' (the expected
        // split is the unscaled one); so it is for dot calls whose few-tiles
        // chunks are no longer than CHUNK_DEEP anyway (3×2×200001,
        // 1×1×70001).
        assert_eq!(split, dot_split.unwrap_or(unscaled), "{m}×{n}×{k} on {}", spec.name);
    }
}

/// TF32 few long rows go to tensor cores (`choice::streams_on_tensor_cores`)
/// only for calls the rule splits: unsplit, those rows ran slower there
/// than in exact f32 (PERF.md steps 93–94). Over the route's rows, N and K,
/// every call it gives `skinny_mma_r16` beyond short rows splits.
#[test]
fn tf32_rows_on_tensor_cores_are_split() {
    use rgemm::api::choice::{TF32_STREAM_ROWS, tf32_short_rows};
    use rgemm::api::default_choice;
    let auto = GemmOptions::default();
    let mut on_tensor_cores = 0;
    for m in (TF32_STREAM_ROWS.start - 64..TF32_STREAM_ROWS.end + 64).step_by(97) {
        for (n, k) in
            [8, 9, 16].into_iter().flat_map(|n| [1024, 2047, 2048, 2049, 4096, 8192, 8193, 20_000].map(|k| (n, k)))
        {
            let (a, b, c) = (MatrixDesc::row_major(m, k), MatrixDesc::row_major(k, n), MatrixDesc::row_major(m, n));
            let call = plan((&a, usize::MAX), (&b, usize::MAX), (&c, usize::MAX), &Batch::single()).unwrap();
            let choice = default_choice(Dtype::Tf32, (m, n, k), SMS as i32, OperandLayout::NN, (9, 0), |_| true);
            let spec = choice.spec(Dtype::Tf32).unwrap();
            if spec.name != "tgemm_skinny_mma_r16" || tf32_short_rows(n, k) {
                continue;
            }
            on_tensor_cores += 1;
            let split = split_for(&auto, &call, spec, SMS, |_| 2).unwrap();
            assert!(split.is_some(), "TF32 {m}×{n}×{k} on {} unsplit", spec.name);
        }
    }
    assert!(on_tensor_cores > 50, "{on_tensor_cores} calls on tensor cores");
}
